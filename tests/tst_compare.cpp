// One plan on several profiles: each row carries the planner's own numbers for that profile,
// and those numbers are the hand-derived ones.
#include <QtTest>

#include <cmath>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/user_profiles.h"
#include "planner/io/compare_json.h"
#include "planner/training/compare.h"
#include "planner/training/plan.h"

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
    void partWithoutTheDtypeUsesTheNearest();
    void profilePriceWinsOverThePlans();
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
    // A part with an int8 peak only: bf16 falls back to fp16, tf32, fp32, none of which it has.
    HardwareProfile int8_only = builtin("h100-sxm");
    int8_only.id = "int8-only";
    int8_only.kind = ProfileKind::custom;
    int8_only.peak_flops_per_s = {};
    int8_only.peak_flops_per_s[static_cast<std::size_t>(ComputeType::int8)] = 1e15;
    QVERIFY(!nearest_compute_type(int8_only, ComputeType::bf16).has_value());
    const auto rows = compare(seven_b_spec(), {builtin("h100-sxm"), int8_only});
    QVERIFY(rows[0].evaluated());
    QVERIFY(!rows[1].evaluated());
    QVERIFY(!rows[1].fits());
    PlanSpec single = seven_b_spec();
    single.cluster.gpu = int8_only.id;
    const auto refusal = check(single, int8_only);
    QVERIFY(refusal.has_value());
    QCOMPARE(rows[1].error->message(), refusal->message());
    const nlohmann::json j = comparison_to_json(seven_b_spec(), rows);
    QVERIFY(j["profiles"][1]["days"].is_null());
    QVERIFY(j["profiles"][1]["fits"].is_null());
    QVERIFY(j["profiles"][1]["error"].is_string());
}

void TestCompare::partWithoutTheDtypeUsesTheNearest() {
    // The V100 has no bf16 peak (catalog: fp64 7.8, fp32 15.7, fp16 125 TFLOP/s): a bf16 plan is
    // timed at its fp16 tensor peak, and says so. 6 x 7e9 x 1e12 = 4.2e22 FLOPs;
    // 4.2e22 / (125e12 x 0.4 x 8 x 86400) = 4.2e22 / 3.456e19 = 1215.28 days.
    const HardwareProfile v100 = builtin("v100-sxm2-32gb");
    const auto rows = compare(seven_b_spec(), {builtin("h100-sxm"), v100});
    QVERIFY(rows[1].evaluated());
    QCOMPARE(rows[1].compute, ComputeType::fp16);
    QVERIFY(rows[1].fallback_from == ComputeType::bf16);
    QVERIFY(!rows[0].fallback_from.has_value());
    QCOMPARE(rows[1].peak_flops_per_s, 125e12);
    QVERIFY(std::abs(rows[1].plan.time.days - 1215.28) < 0.01);
    const nlohmann::json j = comparison_to_json(seven_b_spec(), rows);
    QCOMPARE(j["profiles"][1]["compute_dtype"].get<std::string>(), std::string("fp16"));
    QCOMPARE(j["profiles"][1]["compute_dtype_fallback_from"].get<std::string>(),
             std::string("bf16"));
    QVERIFY(j["profiles"][0]["compute_dtype_fallback_from"].is_null());
    // The orders: same width first, then wider; never narrower.
    HardwareProfile fp32_only = v100;
    fp32_only.peak_flops_per_s = {};
    fp32_only.peak_flops_per_s[static_cast<std::size_t>(ComputeType::fp32)] = 1e13;
    QVERIFY(nearest_compute_type(fp32_only, ComputeType::fp8) == ComputeType::fp32);
    QVERIFY(nearest_compute_type(fp32_only, ComputeType::fp64) == ComputeType::fp32);
    QVERIFY(nearest_compute_type(v100, ComputeType::fp8) == ComputeType::fp16);
    QVERIFY(nearest_compute_type(v100, ComputeType::tf32) == ComputeType::fp32);
}

void TestCompare::profilePriceWinsOverThePlans() {
    // A copy of the H100 priced at 4.00 per GPU-hour in its profile, the H200 without a price:
    // the copy's cost uses 4.00, the H200's the plan's 2.50. Same peak, so the same GPU-hours:
    // 4.2e22 / (989.5e12 x 0.4 x 8) s x 8 / 3600 = 3.6848e4 GPU-hours.
    HardwareProfile priced = builtin("h100-sxm");
    priced.id = "h100-priced";
    priced.kind = ProfileKind::custom;
    priced.price_per_gpu_hour = 4.0;
    const auto rows = compare(seven_b_spec(), {priced, builtin("h200")});
    const double gpu_hours = 4.2e22 / (989.5e12 * 0.4 * 8) * 8 / 3600.0;
    QVERIFY(close(rows[0].plan.time.gpu_hours, gpu_hours));
    QVERIFY(close(rows[0].plan.time.cost, gpu_hours * 4.0));
    QCOMPARE(rows[0].price_source, PriceSource::profile);
    QVERIFY(close(rows[1].plan.time.cost, gpu_hours * 2.5));
    QCOMPARE(rows[1].price_source, PriceSource::plan);
    PlanSpec unpriced = seven_b_spec();
    unpriced.cluster.price_per_gpu_hour.reset();
    const auto bare = compare(unpriced, {priced, builtin("h200")});
    QVERIFY(bare[0].plan.time.has_cost);
    QVERIFY(!bare[1].plan.time.has_cost);
    QCOMPARE(bare[1].price_source, PriceSource::none);
    const nlohmann::json j = comparison_to_json(unpriced, bare);
    QCOMPARE(j["profiles"][0]["price_source"].get<std::string>(), std::string("profile"));
    QCOMPARE(j["profiles"][0]["price_per_gpu_hour"].get<double>(), 4.0);
    QVERIFY(j["profiles"][1]["price_per_gpu_hour"].is_null());
    // The plan's own GPU priced in its profile too: the plan's 2.50 is what it pays for it, as
    // its headline says (cost = 3.6848e4 x 2.5), so that column and the headline agree.
    PlanSpec own = seven_b_spec();
    own.cluster.gpu = priced.id;
    const auto mine = compare(own, {priced, builtin("h200")});
    QCOMPARE(mine[0].price_source, PriceSource::plan);
    QVERIFY(close(mine[0].plan.time.cost, gpu_hours * 2.5));
    QVERIFY(close(evaluate(own, priced).time.cost, mine[0].plan.time.cost));
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
