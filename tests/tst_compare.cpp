// One plan on several profiles: each row carries the planner's own numbers for that profile,
// and those numbers are the hand-derived ones.
#include <QtTest>

#include <cmath>
#include <nlohmann/json.hpp>

#include "planner/compare.h"
#include "planner/errors.h"
#include "planner/hardware.h"
#include "planner/plan.h"
#include "planner/user_profiles.h"

using namespace tally;

namespace {

// 7B parameters on 1T tokens, 8 GPUs at MFU 0.4, $2.50 per GPU-hour, mixed precision AdamW
// without ZeRO: every GPU holds the whole model state.
PlanSpec seven_b_spec() {
    PlanSpec s;
    s.name = "7B on 8 GPUs";
    s.model.kind = ModelKind::params;
    s.model.params = 7e9;
    s.data.tokens = 1e12;
    s.cluster.gpu = "h100-sxm";
    s.cluster.gpus = 8;
    s.cluster.mfu = 0.4;
    s.cluster.price_per_gpu_hour = 2.5;
    s.training.zero = 0;
    s.training.flops_formula = FlopsFormula::six_nd;
    return s;
}

HardwareProfile builtin(const char* id) {
    const HardwareProfile* p = find_builtin_hardware(id);
    if (p == nullptr) {
        throw std::runtime_error(std::string("missing built-in profile ") + id);
    }
    return *p;
}

bool close(double a, double b, double rel = 1e-9) {
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT

private slots:
    void rowsEqualEvaluate();
    void rowsMatchHandArithmetic();
    void refusedHardwareGetsAnError();
    void profileCountRules_data();
    void profileCountRules();
    void jsonCarriesTheRows();
};

void TestCompare::rowsEqualEvaluate() {
    const PlanSpec spec = seven_b_spec();
    HardwareProfile big = duplicate_profile(builtin("h100-sxm"), "big-h100", "H100 with 120 GB");
    big.memory_bytes = 120e9;
    const std::vector<HardwareProfile> profiles = {builtin("h100-sxm"), builtin("h200"), big,
                                                   builtin("a100-80gb")};
    const std::vector<ComparisonRow> rows = compare(spec, profiles);
    QCOMPARE(rows.size(), profiles.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        // The spec as a single plan on that profile: the planner's own answer.
        PlanSpec single = spec;
        single.cluster.gpu = profiles[i].id;
        QVERIFY(!check(single, profiles[i]).has_value());
        const Plan expected = evaluate(single, profiles[i]);
        const ComparisonRow& row = rows[i];
        QCOMPARE(row.hardware.id, profiles[i].id);
        QVERIFY(row.evaluated());
        QCOMPARE(row.plan.memory.fits, expected.memory.fits);
        QCOMPARE(row.plan.memory.total_bytes, expected.memory.total_bytes);
        QCOMPARE(row.plan.memory.headroom_bytes, expected.memory.headroom_bytes);
        QCOMPARE(row.plan.time.days, expected.time.days);
        QCOMPARE(row.plan.time.gpu_hours, expected.time.gpu_hours);
        QCOMPARE(row.plan.time.cost, expected.time.cost);
        QCOMPARE(row.ridge_flops_per_byte, profiles[i].ridge_flops_per_byte(ComputeType::bf16));
    }
}

void TestCompare::rowsMatchHandArithmetic() {
    const PlanSpec spec = seven_b_spec();
    HardwareProfile big = duplicate_profile(builtin("h100-sxm"), "big-h100", "H100 with 120 GB");
    big.memory_bytes = 120e9;
    const auto rows =
        compare(spec, {builtin("h100-sxm"), builtin("h200"), big, builtin("a100-80gb")});
    // Model state per GPU, mixed precision AdamW (Rajbhandari et al. 2020, sec. 3.1: 16 bytes
    // per parameter = bf16 params 2 + bf16 grads 2 + fp32 master 4 + two fp32 Adam states 8):
    // 16 x 7e9 = 112e9 bytes on every GPU.
    const double total = 16.0 * 7e9;
    // Time = 6 N D / (dense bf16 peak x MFU x GPUs) (CS336 lecture 2).
    const double h100_s = 6.0 * 7e9 * 1e12 / (989.5e12 * 0.4 * 8);  // 1.3264e7 s = 153.5 days
    const double a100_s = 6.0 * 7e9 * 1e12 / (312e12 * 0.4 * 8);    // 4.2067e7 s = 486.9 days
    struct Expected {
        bool fits;
        double capacity;
        double seconds;
        double ridge;
    };
    const Expected expected[] = {
        {false, 80e9, h100_s, 989.5e12 / 3.35e12},  // H100 SXM: 80 GB, 3.35 TB/s; ridge 295.4
        {true, 141e9, h100_s, 989.5e12 / 4.8e12},   // H200: 141 GB, 4.8 TB/s, H100's peak
        {true, 120e9, h100_s, 989.5e12 / 3.35e12},  // the custom copy with 120 GB
        {false, 80e9, a100_s, 312e12 / 2.039e12},   // A100 80GB: 312 TFLOP/s, 2.039 TB/s
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const ComparisonRow& r = rows[i];
        const Expected& e = expected[i];
        QVERIFY2(close(r.plan.memory.total_bytes, total), r.hardware.id.c_str());
        QCOMPARE(r.fits(), e.fits);
        QVERIFY(close(r.plan.memory.headroom_bytes, e.capacity - total));
        QVERIFY(close(r.plan.time.days, e.seconds / 86400.0));
        QVERIFY(close(r.plan.time.gpu_hours, e.seconds * 8 / 3600.0));
        QVERIFY(close(r.plan.time.cost, e.seconds * 8 / 3600.0 * 2.5));
        QVERIFY(close(r.ridge_flops_per_byte, e.ridge));
    }
    QVERIFY(std::abs(rows[0].plan.time.days - 153.52) < 0.01);
    QVERIFY(std::abs(rows[0].ridge_flops_per_byte - 295.37) < 0.01);
}

void TestCompare::refusedHardwareGetsAnError() {
    // The V100 has no bf16 tensor path (the catalog gives it no bf16 peak).
    const HardwareProfile v100 = builtin("v100-sxm2-32gb");
    QCOMPARE(v100.peak(ComputeType::bf16), 0.0);
    const auto rows = compare(seven_b_spec(), {builtin("h100-sxm"), v100});
    QVERIFY(rows[0].evaluated());
    QVERIFY(!rows[1].evaluated());
    QVERIFY(!rows[1].fits());
    PlanSpec single = seven_b_spec();
    single.cluster.gpu = v100.id;
    const auto refusal = check(single, v100);
    QVERIFY(refusal.has_value());
    QCOMPARE(rows[1].error->message(), refusal->message());
    const nlohmann::json j = comparison_to_json(seven_b_spec(), rows);
    QVERIFY(j["profiles"][1]["days"].is_null());
    QVERIFY(j["profiles"][1]["fits"].is_null());
    QVERIFY(j["profiles"][1]["error"].is_string());
}

void TestCompare::profileCountRules_data() {
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("one profile") << QStringList{"h100-sxm"} << false;
    QTest::newRow("two profiles") << QStringList{"h100-sxm", "h200"} << true;
    QTest::newRow("six profiles") << QStringList{"h100-sxm", "h200",   "a100-80gb",
                                                 "b200",     "mi300x", "gaudi3"}
                                  << true;
    QTest::newRow("seven profiles")
        << QStringList{"h100-sxm", "h200", "a100-80gb", "b200", "mi300x", "gaudi3", "l40s"}
        << false;
    QTest::newRow("the same profile twice") << QStringList{"h100-sxm", "h100-sxm"} << false;
}

void TestCompare::profileCountRules() {
    QFETCH(QStringList, ids);
    QFETCH(bool, allowed);
    std::vector<HardwareProfile> profiles;
    for (const QString& id : ids) {
        profiles.push_back(builtin(id.toStdString().c_str()));
    }
    try {
        const auto rows = compare(seven_b_spec(), profiles);
        QVERIFY(allowed);
        QCOMPARE(rows.size(), profiles.size());
    } catch (const SpecError& e) {
        QVERIFY2(!allowed, e.what());
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("profiles"));
    }
}

void TestCompare::jsonCarriesTheRows() {
    PlanSpec spec = seven_b_spec();
    spec.cluster.price_per_gpu_hour.reset();
    const auto rows = compare(spec, {builtin("h100-sxm"), builtin("h200")});
    const nlohmann::json j = comparison_to_json(spec, rows);
    QCOMPARE(j["plan"].get<std::string>(), std::string("7B on 8 GPUs"));
    QCOMPARE(j["compute_dtype"].get<std::string>(), std::string("bf16"));
    QCOMPARE(j["profiles"].size(), std::size_t{2});
    const nlohmann::json& h200 = j["profiles"][1];
    QCOMPARE(h200["id"].get<std::string>(), std::string("h200"));
    QCOMPARE(h200["kind"].get<std::string>(), std::string("builtin"));
    QCOMPARE(h200["fits"].get<bool>(), true);
    QCOMPARE(h200["memory_total_bytes"].get<double>(), rows[1].plan.memory.total_bytes);
    QCOMPARE(h200["memory_headroom_bytes"].get<double>(), rows[1].plan.memory.headroom_bytes);
    QCOMPARE(h200["days"].get<double>(), rows[1].plan.time.days);
    QCOMPARE(h200["gpu_hours"].get<double>(), rows[1].plan.time.gpu_hours);
    QCOMPARE(h200["ridge_flops_per_byte"].get<double>(), 989.5e12 / 4.8e12);
    QVERIFY(h200["cost"].is_null());  // no price given
    QVERIFY(h200["error"].is_null());
}

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
