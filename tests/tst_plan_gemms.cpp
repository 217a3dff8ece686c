// The GEMMs a plan runs (planner/performance/plan_gemms.h), measured GEMM times in a profile (their
// JSON, a measured profile made from a probe run) and the step-time model using them. Expected
// values are worked out by hand in the comments.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/probe_records.h"
#include "planner/hardware/user_profiles.h"
#include "planner/io/spec_json.h"
#include "planner/performance/performance.h"
#include "planner/performance/plan_gemms.h"
#include "planner/text/explain.h"
#include "planner/training/plan.h"
#include "tests/test_specs.h"

using namespace tally;
using tally::test::two_layer_spec;

namespace {

bool close(double a, double b, double rel = 1e-12) {
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

struct Shape {
    std::int64_t m, n, k, count;
    std::vector<std::string> uses;
};

// The CS336 lecture's MLP layer, D = 4096 on B = 256 rows, on the A100 80GB (as
// tst_performance's backwardGemmsAtTheirOwnShapes).
PlanSpec lecture_mlp_spec() {
    PlanSpec s = test::lecture_mlp_spec(4096, 256, 1);
    s.cluster.gpu = "a100-80gb";
    return s;
}

}  // namespace

class TestPlanGemms : public QObject {
    Q_OBJECT

private slots:
    void twoLayerModelGemms_data();
    void twoLayerModelGemms();
    void tensorParallelShapes();
    void measuredTimeReplacesTheModel();
    void measuredTimeScalesByCount();
    void computeExplanationNamesTheAttentionKernel();
    void profileJsonRoundTrip();
    void profileJsonRejectsBadGemms_data();
    void profileJsonRejectsBadGemms();
    void measuredProfileCarriesGemmTimes();
    void planJsonCountsMeasuredGemms();
};

void TestPlanGemms::twoLayerModelGemms_data() {
    QTest::addColumn<bool>("flash");
    QTest::newRow("flash attention") << true;
    QTest::newRow("materialised attention") << false;
}

void TestPlanGemms::twoLayerModelGemms() {
    QFETCH(bool, flash);
    // Forward Y[m x n] = X[m x k]·W[k x n]; data gradient an m x k output over n (m, k, n);
    // weight gradient a k x n output over m (k, n, m). T = 16, h = 64, d = 16, 4 heads, b = 2:
    //   qkv      (16, 192, 64)   dgrad (16, 64, 192)  wgrad (64, 192, 16)
    //   scores   (8, 8, 16) x 8  dgrad (8, 16, 8) x 8  wgrad (16, 8, 8) x 8
    //   values   (8, 16, 8) x 8  dgrad (8, 8, 16) x 8  wgrad (8, 16, 8) x 8
    //   out      (16, 64, 64)    dgrad (16, 64, 64)   wgrad (64, 64, 16)
    //   mlp_up   (16, 256, 64)   dgrad (16, 64, 256)  wgrad (64, 256, 16)
    //   mlp_down (16, 64, 256)   dgrad (16, 256, 64)  wgrad (256, 64, 16)
    //   lm_head  (16, 100, 64)   dgrad (16, 64, 100)  wgrad (64, 100, 16)
    // With flash attention the attention core's backward is no GEMM of its own (the model times
    // it from the forward): 14 distinct shapes. Without it, scores' data gradient is values'
    // forward, values' data gradient scores' forward and values' weight gradient its own
    // forward: one more, scores' weight gradient (16, 8, 8) x 8.
    PlanSpec s = two_layer_spec();
    s.training.compute_dtype = DType::fp32;
    s.training.flash_attention = flash;
    std::vector<Shape> want = {
        {16, 192, 64, 1, {"qkv forward"}},
        {16, 64, 192, 1, {"qkv data gradient"}},
        {64, 192, 16, 1, {"qkv weight gradient"}},
        {8, 8, 16, 8, {"attention_scores forward"}},
    };
    if (flash) {
        want.push_back({8, 16, 8, 8, {"attention_values forward"}});
    } else {
        want.push_back({8,
                        16,
                        8,
                        8,
                        {"attention_scores data gradient", "attention_values forward",
                         "attention_values weight gradient"}});
        want.push_back({16, 8, 8, 8, {"attention_scores weight gradient"}});
        want[3].uses.push_back("attention_values data gradient");
    }
    const std::vector<Shape> rest = {
        {16, 64, 64, 1, {"out_proj forward", "out_proj data gradient"}},
        {64, 64, 16, 1, {"out_proj weight gradient"}},
        {16, 256, 64, 1, {"mlp_up forward", "mlp_down data gradient"}},
        {16, 64, 256, 1, {"mlp_up data gradient", "mlp_down forward"}},
        {64, 256, 16, 1, {"mlp_up weight gradient"}},
        {256, 64, 16, 1, {"mlp_down weight gradient"}},
        {16, 100, 64, 1, {"lm_head forward"}},
        {16, 64, 100, 1, {"lm_head data gradient"}},
        {64, 100, 16, 1, {"lm_head weight gradient"}},
    };
    want.insert(want.end(), rest.begin(), rest.end());
    QCOMPARE(want.size(), std::size_t(flash ? 14 : 15));

    const std::vector<PlanGemm> got = plan_gemms(s);
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        const QByteArray where = QByteArray::number(static_cast<int>(i));
        QVERIFY2(got[i].type == ComputeType::fp32, where);
        QVERIFY2(got[i].m == want[i].m && got[i].n == want[i].n && got[i].k == want[i].k &&
                     got[i].count == want[i].count,
                 where);
        auto got_uses = got[i].uses;
        auto want_uses = want[i].uses;
        std::sort(got_uses.begin(), got_uses.end());
        std::sort(want_uses.begin(), want_uses.end());
        QVERIFY2(got_uses == want_uses, where);
    }
    // qkv forward: 2·16·192·64 = 393216 FLOPs; scores forward: 8 x 2·8·8·16 = 16384.
    QCOMPARE(got[0].flops(), 393216.0);
    QCOMPARE(got[3].flops(), 16384.0);
}

void TestPlanGemms::tensorParallelShapes() {
    // tp 2 splits the heads (2 per rank) and the MLP's 256 (128 per rank), and the vocabulary
    // (50): qkv forward 16 x (2 + 2·2)·16 = 96 over 64; lm_head forward 16 x 50 over 64; mlp_down
    // weight gradient 128 x 64 over 16; the attention core 2·2 = 4 products per micro-batch.
    PlanSpec s = two_layer_spec();
    s.training.tp = 2;
    s.cluster.gpus = 2;
    const std::vector<PlanGemm> got = plan_gemms(s);
    const auto has = [&got](std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t count) {
        return std::any_of(got.begin(), got.end(), [&](const PlanGemm& g) {
            return g.m == m && g.n == n && g.k == k && g.count == count;
        });
    };
    QVERIFY(has(16, 96, 64, 1));
    QVERIFY(has(16, 50, 64, 1));
    QVERIFY(has(128, 64, 16, 1));
    QVERIFY(has(8, 8, 16, 4));
    QVERIFY(!has(16, 192, 64, 1));
    QVERIFY(got.front().type == ComputeType::bf16);  // the default compute dtype
}

void TestPlanGemms::measuredTimeReplacesTheModel() {
    // The lecture's MLP on the A100 (tst_performance, backwardGemmsAtTheirOwnShapes): forward
    // 256 x 4096 over 4096 and data gradient (the same shape) take 4096 x wave each, the weight
    // gradient 4096 x 4096 over 256 takes 256 x 5 x wave, with wave = 2·108·256·128 / (312e12 x
    // 0.869) seconds. A profile that measured the weight gradient's shape at 1 ms: the compute
    // time is 2 x 4096 x wave + 1e-3 s, exactly.
    const PlanSpec s = lecture_mlp_spec();
    HardwareProfile a100 = *find_builtin_hardware("a100-80gb");
    const double wave = 2.0 * 108.0 * 256.0 * 128.0 / (312e12 * 0.869);
    const double modelled = evaluate(s, a100).performance.compute_s;
    QVERIFY(close(modelled, 2.0 * 4096.0 * wave + 256.0 * 5.0 * wave, 1e-9));

    a100.measured_gemms = {MeasuredGemm{ComputeType::bf16, 4096, 4096, 256, 1, 1e-3}};
    const PerformanceBreakdown p = evaluate(s, a100).performance;
    QVERIFY(close(p.compute_s, 2.0 * 4096.0 * wave + 1e-3, 1e-9));
    // Of its two distinct GEMMs (the forward and data gradient share a shape), one is measured.
    const GemmSources sources = gemm_sources(s, a100);
    QCOMPARE(sources.measured, 1);
    QCOMPARE(sources.modelled, 1);
    QCOMPARE(sources.measured_uses, std::vector<std::string>{"mlp_up weight gradient"});
    // The explanation of compute_s (the window's hover, `tally plan`'s table) says so.
    const Plan plan = evaluate(s, a100);
    bool explained = false;
    for (const Explanation& e : explain(s, a100, plan)) {
        if (e.key == "performance.compute_s") {
            explained = true;
            QVERIFY2(e.substitution.find("1 of 2 distinct GEMMs measured (mlp_up weight "
                                         "gradient)") != std::string::npos,
                     e.substitution.c_str());
        }
    }
    QVERIFY(explained);

    // Another dtype's time of that shape is not this plan's: the model's own time stays.
    a100.measured_gemms = {MeasuredGemm{ComputeType::fp32, 4096, 4096, 256, 1, 1e-3}};
    QVERIFY(close(evaluate(s, a100).performance.compute_s, modelled, 1e-12));
}

void TestPlanGemms::computeExplanationNamesTheAttentionKernel() {
    // The two-layer model (4 heads over hidden 64: head dimension 16) with flash attention on an
    // H100: Megatron-Core runs cuDNN's fused attention on Hopper (engine.h), read at head
    // dimension 16; the source of compute_s says both. Without flash attention it says neither.
    PlanSpec s = two_layer_spec();
    s.cluster.gpu = "h100-sxm";
    s.training.flash_attention = true;
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    auto source = [&] {
        for (const Explanation& e : explain(s, h100, evaluate(s, h100))) {
            if (e.key == "performance.compute_s") {
                return e.source;
            }
        }
        return std::string("(none)");
    };
    const std::string with = source();
    QVERIFY2(
        with.find("attention: cuDNN fused attention at head dimension 16") != std::string::npos,
        with.c_str());
    s.training.flash_attention = false;
    const std::string without = source();
    QVERIFY2(without.find("attention:") == std::string::npos, without.c_str());
}

void TestPlanGemms::measuredTimeScalesByCount() {
    // A time measured for 4 products of a shape: a plan running 8 of them takes twice it, one
    // running 2 half. 8 GEMMs of 128 x 128 x 64 measured as 4 in 2 ms: 4 ms.
    HardwareProfile p = *find_builtin_hardware("h100-sxm");
    p.measured_gemms = {MeasuredGemm{ComputeType::bf16, 128, 128, 64, 4, 2e-3}};
    QCOMPARE(measured_gemm_seconds(p, ComputeType::bf16, 8, 128, 128, 64).value_or(0.0), 4e-3);
    QCOMPARE(measured_gemm_seconds(p, ComputeType::bf16, 2, 128, 128, 64).value_or(0.0), 1e-3);
    // A time of equal count is taken as it is, before any other count of the shape.
    p.measured_gemms.push_back(MeasuredGemm{ComputeType::bf16, 128, 128, 64, 8, 3e-3});
    std::sort(p.measured_gemms.begin(), p.measured_gemms.end(), measured_gemm_before);
    QCOMPARE(measured_gemm_seconds(p, ComputeType::bf16, 8, 128, 128, 64).value_or(0.0), 3e-3);
    QVERIFY(!measured_gemm_seconds(p, ComputeType::bf16, 8, 128, 64, 128));
    QVERIFY(!measured_gemm_seconds(p, ComputeType::fp16, 8, 128, 128, 64));
}

void TestPlanGemms::profileJsonRoundTrip() {
    HardwareProfile p = *find_builtin_hardware("h100-sxm");
    p.id = "my-h100";
    p.kind = ProfileKind::measured;
    // In the profile's order: by type as ComputeType lists them (fp32 before bf16), then shape.
    p.measured_gemms = {MeasuredGemm{ComputeType::fp32, 8, 8, 16, 8, 1e-6},
                        MeasuredGemm{ComputeType::bf16, 16, 192, 64, 1, 2.5e-6}};
    const nlohmann::json j = to_json(p);
    QCOMPARE(j["measured_gemms"].size(), std::size_t(2));
    QCOMPARE(j["measured_gemms"][0]["dtype"], "fp32");
    QCOMPARE(j["measured_gemms"][0]["count"].get<std::int64_t>(), std::int64_t{8});
    QCOMPARE(j["measured_gemms"][1]["seconds"].get<double>(), 2.5e-6);
    const HardwareProfile back = hardware_from_json(j);
    QVERIFY(back.measured_gemms == p.measured_gemms);
    // Written out of order, read back sorted.
    nlohmann::json swapped = j;
    std::swap(swapped["measured_gemms"][0], swapped["measured_gemms"][1]);
    QVERIFY(hardware_from_json(swapped).measured_gemms == p.measured_gemms);
    // A profile saved before the field existed loads with none, and a catalog profile's JSON
    // has no such key.
    nlohmann::json old = j;
    old.erase("measured_gemms");
    QVERIFY(hardware_from_json(old).measured_gemms.empty());
    QVERIFY(!to_json(*find_builtin_hardware("h100-sxm")).contains("measured_gemms"));
}

void TestPlanGemms::profileJsonRejectsBadGemms_data() {
    QTest::addColumn<QByteArray>("gemms");
    QTest::addColumn<QString>("field");
    QTest::newRow("unknown dtype")
        << QByteArray(R"([{"dtype":"fp7","m":1,"n":1,"k":1,"count":1,"seconds":1e-6}])")
        << QStringLiteral("hardware.measured_gemms[0].dtype");
    QTest::newRow("fractional size")
        << QByteArray(R"([{"dtype":"bf16","m":1.5,"n":1,"k":1,"count":1,"seconds":1e-6}])")
        << QStringLiteral("hardware.measured_gemms[0].m");
    QTest::newRow("zero count")
        << QByteArray(R"([{"dtype":"bf16","m":1,"n":1,"k":1,"count":0,"seconds":1e-6}])")
        << QStringLiteral("hardware.measured_gemms[0].count");
    QTest::newRow("no seconds") << QByteArray(R"([{"dtype":"bf16","m":1,"n":1,"k":1,"count":1}])")
                                << QStringLiteral("hardware.measured_gemms[0]");
    QTest::newRow("twice") << QByteArray(
                                  R"([{"dtype":"bf16","m":1,"n":2,"k":3,"count":1,"seconds":1e-6},)"
                                  R"({"dtype":"bf16","m":1,"n":2,"k":3,"count":1,"seconds":2e-6}])")
                           << QStringLiteral("hardware.measured_gemms");
}

void TestPlanGemms::profileJsonRejectsBadGemms() {
    QFETCH(QByteArray, gemms);
    QFETCH(QString, field);
    nlohmann::json j = to_json(*find_builtin_hardware("h100-sxm"));
    j["measured_gemms"] = nlohmann::json::parse(gemms.toStdString());
    try {
        hardware_from_json(j);
        QFAIL("accepted");
    } catch (const SpecError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(field), e.what());
    }
}

void TestPlanGemms::measuredProfileCarriesGemmTimes() {
    // A run of two gemm_shapes results and one failed one: the profile made from it (on the
    // H100's other figures) carries the two passed ones, medians as measured.
    ProbeRunRecord run;
    run.id = 7;
    run.backend = "cpu";
    run.started_at = "2026-01-02T03:04:05Z";
    const auto result = [](std::string dtype, std::string sizes, double median, bool ok) {
        ProbeResultRecord r;
        r.test = "gemm_shapes";
        r.variant = "blas";
        r.dtype = std::move(dtype);
        r.sizes_json = std::move(sizes);
        r.median_s = median;
        r.samples = 5;
        r.status = ok ? ProbeResultStatus::passed : ProbeResultStatus::failed;
        r.validated = ok;
        return r;
    };
    run.results = {result("fp32", R"({"m":16,"n":192,"k":64,"count":1})", 3e-6, true),
                   result("fp32", R"({"m":8,"n":8,"k":16,"count":8})", 1e-6, true),
                   result("fp32", R"({"m":64,"n":64,"k":16,"count":1})", 5e-6, false)};
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    const HardwareProfile p = measured_profile(run, h100, "cpu-gemms", "CPU GEMMs");
    QCOMPARE(p.measured_gemms.size(), std::size_t(2));
    // Sorted by (type, m, n, k, count): 8x8x16 before 16x192x64.
    QVERIFY(p.measured_gemms[0] == (MeasuredGemm{ComputeType::fp32, 8, 8, 16, 8, 1e-6}));
    QVERIFY(p.measured_gemms[1] == (MeasuredGemm{ComputeType::fp32, 16, 192, 64, 1, 3e-6}));
    // The peaks are the base's (the run measured no matmul).
    QCOMPARE(p.peak(ComputeType::bf16), h100->peak(ComputeType::bf16));
    QVERIFY2(p.notes.find("2 GEMM times") != std::string::npos, p.notes.c_str());
}

void TestPlanGemms::planJsonCountsMeasuredGemms() {
    // The lecture MLP's two distinct GEMMs: none measured on the catalog profile, both on one
    // that measured both shapes.
    const PlanSpec s = lecture_mlp_spec();
    HardwareProfile a100 = *find_builtin_hardware("a100-80gb");
    nlohmann::json j = to_json(evaluate(s, a100), s, a100);
    QCOMPARE(j["performance"]["gemms_measured"].get<int>(), 0);
    QCOMPARE(j["performance"]["gemms_modelled"].get<int>(), 2);
    a100.measured_gemms = {MeasuredGemm{ComputeType::bf16, 256, 4096, 4096, 1, 2e-4},
                           MeasuredGemm{ComputeType::bf16, 4096, 4096, 256, 1, 1e-4}};
    j = to_json(evaluate(s, a100), s, a100);
    QCOMPARE(j["performance"]["gemms_measured"].get<int>(), 2);
    QCOMPARE(j["performance"]["gemms_modelled"].get<int>(), 0);
    // 2e-4 forward + 2e-4 data gradient + 1e-4 weight gradient.
    QVERIFY(close(j["performance"]["compute_s"].get<double>(), 5e-4, 1e-12));
}

QTEST_GUILESS_MAIN(TestPlanGemms)
#include "tst_plan_gemms.moc"
