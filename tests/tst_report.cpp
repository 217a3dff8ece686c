// The CSV and Markdown forms of a plan (planner/text/report.h).
#include <QtTest>
#include <map>
#include <sstream>

#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/text/report.h"

using namespace tally;

class TestReport : public QObject {
    Q_OBJECT

private slots:
    void csvHoldsSpecAndFigures();
    void csvQuotesCommas();
    void titleFollowsThePlan();
    void markdownShowsItsWork();
    void descriptionInBothReports();
};

namespace {

// section,key -> value from the CSV (no field here holds a quoted comma but the name).
std::map<std::string, std::string> rows(const std::string& csv) {
    std::map<std::string, std::string> out;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        const auto a = line.find(',');
        const auto b = line.find(',', a + 1);
        out[line.substr(0, b)] = line.substr(b + 1);
    }
    return out;
}

}  // namespace

void TestReport::csvHoldsSpecAndFigures() {
    const PlanSpec spec = default_plan_spec();
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    const Plan plan = evaluate(spec, hw);
    const std::string csv = plan_csv(spec, hw, plan);
    QVERIFY(csv.rfind("section,key,value\r\n", 0) == 0);
    const auto r = rows(csv);
    QCOMPARE(r.at("spec,model.params"), std::string("70000000000"));
    QCOMPARE(r.at("spec,cluster.gpus"), std::string("1024"));
    // The shortest text that reads back exactly: 0.5 is "0.5", and a typed 0.4 is "0.4", not
    // 17 digits of float noise ("0.40000000000000002").
    QCOMPARE(r.at("spec,cluster.mfu"), std::string("0.5"));
    PlanSpec forty = spec;
    forty.cluster.mfu = 0.4;
    QCOMPARE(rows(plan_csv(forty, hw, evaluate(forty, hw))).at("spec,cluster.mfu"),
             std::string("0.4"));
    QCOMPARE(std::stod(r.at("plan,time.days")), plan.time.days);
    QCOMPARE(std::stod(r.at("plan,memory.total_bytes")), plan.memory.total_bytes);
    // 6 x 70e9 x 15e12 = 6.3e24 (seed 003).
    QCOMPARE(std::stod(r.at("plan,flops.total")), 6.3e24);
    QVERIFY(r.count("plan,warnings[0]") == 1);
}

void TestReport::csvQuotesCommas() {
    PlanSpec spec = default_plan_spec();
    spec.name = "a, \"quoted\" name";
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    const std::string csv = plan_csv(spec, hw, evaluate(spec, hw));
    QVERIFY(csv.find("spec,name,\"a, \"\"quoted\"\" name\"\r\n") != std::string::npos);
}

void TestReport::markdownShowsItsWork() {
    PlanSpec spec = default_plan_spec();
    spec.cluster.price_per_gpu_hour = 2.0;
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    const Plan plan = evaluate(spec, hw);
    const std::string md = plan_markdown(spec, hw, plan);
    // The default plan has no name: it is called by what it is. 70e9 -> "70B", 15e12 -> "15T".
    QVERIFY2(md.rfind("# 70B parameters, 15T tokens, 1024 x H100 SXM5 80GB\n", 0) == 0,
             md.substr(0, 80).c_str());
    QVERIFY(md.find("## Memory per GPU") != std::string::npos);
    QVERIFY(md.find("GiB = 2^30 bytes") != std::string::npos);
    // 143.93 days (seed), printed with two decimals.
    QVERIFY(md.find("| Time | 143.93 days |") != std::string::npos);
    QVERIFY(md.find("| Cost |") != std::string::npos);
    QVERIFY(md.find("## How each figure is computed") != std::string::npos);
    QVERIFY(md.find("FLOPs / (peak x MFU x GPUs x 86400 s)") != std::string::npos);
    QVERIFY(md.find("## Warnings") != std::string::npos);
}

// The spec's description reaches both exports: the CSV's spec rows and, as a quoted block with
// its line breaks, the Markdown under the title.
void TestReport::descriptionInBothReports() {
    PlanSpec spec = default_plan_spec();
    spec.description = "Question 1 of the lecture.\nMFU 0.5 is assumed.";
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    const Plan plan = evaluate(spec, hw);
    // A field with a line break is quoted whole (RFC 4180, sec. 2.6).
    const std::string csv = plan_csv(spec, hw, plan);
    QVERIFY(
        csv.find("\r\nspec,description,\"Question 1 of the lecture.\nMFU 0.5 is assumed.\"\r\n") !=
        std::string::npos);
    const std::string md = plan_markdown(spec, hw, plan);
    QVERIFY2(md.find("\n\n> Question 1 of the lecture.\n> MFU 0.5 is assumed.\n\n## Inputs") !=
                 std::string::npos,
             md.substr(0, 200).c_str());
}

// A plan nobody named is called by what it is, so its title follows its edits; a name the user
// gave is kept.
void TestReport::titleFollowsThePlan() {
    PlanSpec spec = default_plan_spec();
    const HardwareProfile& h100 = resolve_builtin_hardware(spec);
    QCOMPARE(plan_title(spec, h100),
             std::string("70B parameters, 15T tokens, 1024 x H100 SXM5 80GB"));
    spec.model = find_model_preset("llama-3-8b")->model;  // named "Llama 3 8B" by its preset
    spec.cluster.gpus = 64;
    QCOMPARE(plan_title(spec, h100), std::string("Llama 3 8B, 15T tokens, 64 x H100 SXM5 80GB"));
    const std::string csv = plan_csv(spec, h100, evaluate(spec, h100));
    QVERIFY(csv.find("plan,title,\"Llama 3 8B, 15T tokens, 64 x H100 SXM5 80GB\"\r\n") !=
            std::string::npos);
    spec.name = "my run";
    QCOMPARE(plan_title(spec, h100), std::string("my run"));
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
