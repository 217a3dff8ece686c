// The published cases (docs/cases) against the step-time model: every case stays a valid spec,
// no run that ran is called "does not fit", and the shipped accuracy table
// (resources/cases/accuracy.json) and docs/planner.md's tables are what the cases give today.
// With TALLY_REGENERATE_CASES=1 the test writes both instead of comparing them.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "planner/io/case_accuracy.h"

using namespace tally;

namespace {

const std::filesystem::path kSource(TALLY_SOURCE_DIR);
constexpr std::string_view kBegin = "<!-- accuracy-table:begin -->\n";
constexpr std::string_view kEnd = "<!-- accuracy-table:end -->";

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Written whole to a temporary file beside it, then renamed over it.
void write_text(const std::filesystem::path& path, const std::string& text) {
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
    }
    std::filesystem::rename(tmp, path);
}

bool regenerate() {
    return qEnvironmentVariableIsSet("TALLY_REGENERATE_CASES");
}

}  // namespace

class TestCaseAccuracy : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void everyCaseIsValidAndMeasured();
    void noRunThatRanIsCalledTooBig_data();
    void noRunThatRanIsCalledTooBig();
    void shippedTableIsTheCasesToday();
    void docsTableIsTheCasesToday();
    void errorBandIsTheFamilysCases();
    void errorBandSaysWhenNothingCompares();
    void errorBandOfTheModelKind();

private:
    std::vector<CaseResult> m_results;
};

void TestCaseAccuracy::initTestCase() {
    try {
        m_results = evaluate_cases(kSource / "docs" / "cases");
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }
}

void TestCaseAccuracy::everyCaseIsValidAndMeasured() {
    // 21 cases of Narayanan et al. 2021, Korthikanti et al. 2022 and Llama 3; 172 rows of the
    // Megatron-Bridge performance summaries and 216 of llm-foundry's benchmark tables
    // (scripts/make_published_cases.py, which skips the rows it names).
    QVERIFY2(m_results.size() >= 409, qPrintable(QString::number(m_results.size())));
    for (const CaseResult& r : m_results) {
        QVERIFY2(r.measured > 0.0 && std::isfinite(r.predicted) && r.predicted > 0.0,
                 r.file.c_str());
        QVERIFY2(std::isfinite(r.error), r.file.c_str());
    }
}

void TestCaseAccuracy::noRunThatRanIsCalledTooBig_data() {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < m_results.size(); ++i) {
        QTest::newRow(m_results[i].file.c_str()) << static_cast<int>(i);
    }
}

void TestCaseAccuracy::noRunThatRanIsCalledTooBig() {
    // Each case ran on its part, so a plan that calls it "does not fit" is wrong.
    QFETCH(int, index);
    const CaseResult& r = m_results[static_cast<std::size_t>(index)];
    QVERIFY2(r.fits, qPrintable(QStringLiteral("%1: %2 GB of %3 GB")
                                    .arg(QString::fromStdString(r.file))
                                    .arg(r.memory_bytes / 1e9, 0, 'f', 1)
                                    .arg(r.capacity_bytes / 1e9, 0, 'f', 1)));
}

void TestCaseAccuracy::shippedTableIsTheCasesToday() {
    const std::filesystem::path path = kSource / "resources" / "cases" / "accuracy.json";
    const nlohmann::json now = accuracy_json(m_results);
    if (regenerate()) {
        write_text(path, now.dump(1) + "\n");
    }
    const nlohmann::json shipped = nlohmann::json::parse(read_text(path));
    QCOMPARE(shipped["cases"].size(), now["cases"].size());
    for (std::size_t i = 0; i < now["cases"].size(); ++i) {
        const auto& a = now["cases"][i];
        const auto& b = shipped["cases"][i];
        QCOMPARE(b["file"].get<std::string>(), a["file"].get<std::string>());
        const double x = a["error"].get<double>();
        const double y = b["error"].get<double>();
        QVERIFY2(std::abs(x - y) <= 1e-9 * std::max(1.0, std::abs(x)),
                 qPrintable(QStringLiteral("%1: shipped %2, today %3; run the test with "
                                           "TALLY_REGENERATE_CASES=1")
                                .arg(QString::fromStdString(a["file"].get<std::string>()))
                                .arg(y)
                                .arg(x)));
    }
    QCOMPARE(shipped["families"].size(), now["families"].size());
}

void TestCaseAccuracy::docsTableIsTheCasesToday() {
    const std::filesystem::path path = kSource / "docs" / "planner.md";
    std::string doc = read_text(path);
    const std::size_t begin = doc.find(kBegin);
    const std::size_t end = doc.find(kEnd);
    QVERIFY(begin != std::string::npos && end != std::string::npos && begin < end);
    const std::string table = accuracy_markdown(m_results);
    const std::size_t from = begin + kBegin.size();
    if (regenerate()) {
        doc.replace(from, end - from, table);
        write_text(path, doc);
        return;
    }
    QVERIFY2(doc.substr(from, end - from) == table,
             "docs/planner.md's accuracy tables differ from the cases: run tst_case_accuracy "
             "with TALLY_REGENERATE_CASES=1");
}

void TestCaseAccuracy::errorBandIsTheFamilysCases() {
    // The band a plan shows is the mean and worst absolute error of the cases of its engine and
    // GPU generation, computed here again from the cases themselves.
    std::vector<const CaseResult*> family;
    for (const CaseResult& r : m_results) {
        if (r.engine == Engine::megatron && r.generation == GpuGeneration::hopper) {
            family.push_back(&r);
        }
    }
    QVERIFY(family.size() >= 10);
    double sum = 0.0;
    double worst = 0.0;
    for (const CaseResult* r : family) {
        sum += std::abs(r->error);
        worst = std::max(worst, std::abs(r->error));
    }
    const auto band = error_band(Engine::megatron, GpuGeneration::hopper);
    QVERIFY(band.has_value());
    QCOMPARE(band->count, static_cast<int>(family.size()));
    QVERIFY(std::abs(band->mean_abs_error - sum / static_cast<double>(family.size())) < 1e-9);
    QVERIFY(std::abs(band->worst_abs_error - worst) < 1e-9);
    const std::string text = error_band_text(Engine::megatron, GpuGeneration::hopper);
    QVERIFY2(
        text.find(std::to_string(family.size()) + " published Megatron-Core") != std::string::npos,
        text.c_str());
}

void TestCaseAccuracy::errorBandSaysWhenNothingCompares() {
    // No DeepSpeed case is published in docs/cases.
    QVERIFY(!error_band(Engine::deepspeed, GpuGeneration::hopper).has_value());
    const std::string text = error_band_text(Engine::deepspeed, GpuGeneration::hopper);
    QVERIFY2(text.starts_with("no published DeepSpeed"), text.c_str());
    const nlohmann::json j = error_band_json(Engine::deepspeed, GpuGeneration::hopper);
    QCOMPARE(j["count"].get<int>(), 0);
}

void TestCaseAccuracy::errorBandOfTheModelKind() {
    // A dense plan is judged by the family's dense runs, an MoE plan by its MoE runs, each
    // recomputed here from the cases, when the family has at least kMinModelBandCases of them.
    for (const bool moe : {false, true}) {
        std::vector<const CaseResult*> kind;
        for (const CaseResult& r : m_results) {
            if (r.engine == Engine::megatron && r.generation == GpuGeneration::hopper &&
                r.moe == moe) {
                kind.push_back(&r);
            }
        }
        QVERIFY(static_cast<int>(kind.size()) >= kMinModelBandCases);
        double sum = 0.0;
        for (const CaseResult* r : kind) {
            sum += std::abs(r->error);
        }
        const auto band = error_band(Engine::megatron, GpuGeneration::hopper, moe);
        QVERIFY(band.has_value());
        QCOMPARE(band->model, std::string(moe ? "MoE" : "dense"));
        QCOMPARE(band->count, static_cast<int>(kind.size()));
        QVERIFY(std::abs(band->mean_abs_error - sum / static_cast<double>(kind.size())) < 1e-9);
        const std::string text = error_band_text(Engine::megatron, GpuGeneration::hopper, moe);
        const std::string runs = moe ? " MoE run" : " dense run";
        QVERIFY2(text.find("H100/H200" + runs) != std::string::npos, text.c_str());
    }
    // No MoE run on the A100 was published: the A100 family as a whole, every case of it.
    int a100 = 0;
    for (const CaseResult& r : m_results) {
        QVERIFY(!(r.generation == GpuGeneration::ampere && r.moe));
        a100 += r.engine == Engine::megatron && r.generation == GpuGeneration::ampere ? 1 : 0;
    }
    const auto band = error_band(Engine::megatron, GpuGeneration::ampere, true);
    QVERIFY(band.has_value());
    QVERIFY(band->model.empty());
    QCOMPARE(band->count, a100);
}

QTEST_APPLESS_MAIN(TestCaseAccuracy)
#include "tst_case_accuracy.moc"
