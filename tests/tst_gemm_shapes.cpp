// GEMM throughput by shape from OpenXLA's published tables (planner/hardware/gemm_shapes.h).
//
// Every expected rate below is a value printed in OpenXLA's
// xla/service/gpu/model/matmul_interpolator_data.h at commit 71feeddf7cc3 (2025-10-21),
// kDefaultMatmulPTable, read from that file (b, m, n, k, dtype -> FLOP/s):
//   sm_90  1 4096 4096 4096 bf16  780193877565849
//   sm_90  2 4096 4096 4096 bf16  804185691260323
//   sm_90  4 4096 4096 4096 bf16  788699393418751
//   sm_90  1 2048 4096 4096 bf16  752315168330705
//   sm_90  1 2048 2048 2048 bf16  641039894925373
//   sm_100 1 4096 4096 4096 bf16 1416867213789406
//   sm_100 1 4096 4096 4096 e4m3 2764981863158106
// and sm_90's e4m3 column at 1 4096 4096 4096: 2423753698474561, above the H100's dense FP8
// peak (1,979 TFLOP/s), which is why that column is not used. For the derived fp8 rates, the
// sm_90 bf16 table's best, 4 4096 2048 4096: 804715405124361, and the catalog's best H100 SXM
// fp8 GEMM, 0.709 of its 1,979 TFLOP/s dense fp8 peak (MAMF, stas00/ml-engineering).
#include <QtTest>

#include <cmath>

#include "planner/hardware/efficiency.h"
#include "planner/hardware/gemm_shapes.h"
#include "planner/hardware/hardware.h"

using namespace tally;

class TestGemmShapes : public QObject {
    Q_OBJECT

private slots:
    void gridPointsAreThePublishedRates();
    void betweenPointsTheRateIsLinear();
    void largeDimensionsFoldIntoTheBatch();
    void outsideTheTableTheCallerDecides();
    void whichPartsReadWhichTable();
    void gemmTimesUseTheTable();
    void fp8OnTheH100TakesTheBf16TableToItsOwnBest();
    void fp4OnTheB200TakesTheFp8TableToItsOwnBest();
    void belowTheTableNoSlowerThanItsSmallestContainingGemm();
};

namespace {

const HardwareProfile& part(const char* id) {
    const HardwareProfile* p = find_builtin_hardware(id);
    if (p == nullptr) {
        qFatal("catalog part %s missing", id);
    }
    return *p;
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::abs(b);
}

}  // namespace

void TestGemmShapes::gridPointsAreThePublishedRates() {
    const GemmShapeRates h100 = gemm_shape_rates(part("h100-sxm"), ComputeType::bf16);
    QVERIFY(h100.table != nullptr);
    QCOMPARE(h100.scale, 1.0);
    QVERIFY(near(gemm_shape_flops_per_s(h100, 1, 4096, 4096, 4096), 780193877565849.0));
    QVERIFY(near(gemm_shape_flops_per_s(h100, 1, 2048, 2048, 2048), 641039894925373.0));
    QVERIFY(near(gemm_shape_flops_per_s(h100, 2, 4096, 4096, 4096), 804185691260323.0));
    QVERIFY(near(gemm_shape_flops_per_s(h100, 4, 4096, 4096, 4096), 788699393418751.0));
    const GemmShapeRates b200 = gemm_shape_rates(part("b200"), ComputeType::fp8);
    QVERIFY(b200.table != nullptr);
    QVERIFY(near(gemm_shape_flops_per_s(b200, 1, 4096, 4096, 4096), 2764981863158106.0));
    const GemmShapeRates b200_bf16 = gemm_shape_rates(part("b200"), ComputeType::bf16);
    QVERIFY(near(gemm_shape_flops_per_s(b200_bf16, 1, 4096, 4096, 4096), 1416867213789406.0));
}

void TestGemmShapes::betweenPointsTheRateIsLinear() {
    const GemmShapeRates h100 = gemm_shape_rates(part("h100-sxm"), ComputeType::bf16);
    // m = 3072 lies halfway from 2048 to 4096: (752315168330705 + 780193877565849) / 2.
    QVERIFY(near(gemm_shape_flops_per_s(h100, 1, 3072, 4096, 4096), 766254522948277.0));
    // A batch of 3 lies halfway from 2 to 4: (804185691260323 + 788699393418751) / 2.
    QVERIFY(near(gemm_shape_flops_per_s(h100, 3, 4096, 4096, 4096), 796442542339537.0));
}

void TestGemmShapes::largeDimensionsFoldIntoTheBatch() {
    const GemmShapeRates h100 = gemm_shape_rates(part("h100-sxm"), ComputeType::bf16);
    // 8192 rows are twice 4096's output tiles: read as b = 2.
    QVERIFY(near(gemm_shape_flops_per_s(h100, 1, 8192, 4096, 4096), 804185691260323.0));
    QVERIFY(near(gemm_shape_flops_per_s(h100, 1, 4096, 8192, 4096), 804185691260323.0));
    // 2 x 8192 rows x 8192 columns: b = 8, beyond the table's 4: its edge.
    QVERIFY(near(gemm_shape_flops_per_s(h100, 2, 8192, 8192, 4096), 788699393418751.0));
    // A longer k takes the table's edge, 4096.
    QVERIFY(near(gemm_shape_flops_per_s(h100, 1, 4096, 4096, 16384), 780193877565849.0));
}

void TestGemmShapes::outsideTheTableTheCallerDecides() {
    const GemmShapeRates h100 = gemm_shape_rates(part("h100-sxm"), ComputeType::bf16);
    QCOMPARE(gemm_shape_flops_per_s(h100, 1, 128, 4096, 4096), 0.0);  // a decode step's rows
    QCOMPARE(gemm_shape_flops_per_s(h100, 1, 4096, 64, 4096), 0.0);
    QCOMPARE(gemm_shape_flops_per_s(h100, 1, 4096, 4096, 255), 0.0);
    QCOMPARE(gemm_shape_flops_per_s(GemmShapeRates{}, 1, 4096, 4096, 4096), 0.0);
}

void TestGemmShapes::whichPartsReadWhichTable() {
    // The H100's fp8 column exceeds its dense peak: not used; its fp8 is derived instead.
    QVERIFY(gemm_shape_rates(part("h100-sxm"), ComputeType::fp8).derived);
    QVERIFY(!gemm_shape_rates(part("h100-sxm"), ComputeType::bf16).derived);
    QVERIFY(!gemm_shape_rates(part("b200"), ComputeType::fp8).derived);
    // No bf16 table, no derived fp8 either.
    QVERIFY(gemm_shape_rates(part("a100-80gb"), ComputeType::fp8).table == nullptr);
    QVERIFY(gemm_shape_rates(part("h100-pcie"), ComputeType::fp8).table == nullptr);
    // fp16 runs at bf16's rate on the same tensor cores (989.5 TFLOP/s both): the bf16 table.
    QVERIFY(gemm_shape_rates(part("h100-sxm"), ComputeType::fp16).table != nullptr);
    // The same GH100 die: H200, H800, GH200. Each runs the H100's rates times its own best
    // published bf16 GEMM over the H100's (both of the same 989.5 TFLOP/s peak): the H100's best
    // is 0.806 (torch.matmul 8192³), the H200's 0.799 (community torch.matmul DB), the GH200's
    // 0.837 (MAMF); the H800 has none of its own, so its peak over the H100's, 1.
    const struct {
        const char* id;
        double scale;
    } gh100[] = {{"h200", 0.799 / 0.806}, {"h800", 1.0}, {"gh200-144gb", 0.837 / 0.806}};
    for (const auto& [id, scale] : gh100) {
        const GemmShapeRates r = gemm_shape_rates(part(id), ComputeType::bf16);
        QVERIFY2(r.table != nullptr, id);
        QVERIFY2(near(r.scale, scale), id);
    }
    // The H100 PCIe has 114 SMs, not the measured part's 132: no table.
    QVERIFY(gemm_shape_rates(part("h100-pcie"), ComputeType::bf16).table == nullptr);
    // No table for Ampere or for parts not measured.
    QVERIFY(gemm_shape_rates(part("a100-80gb"), ComputeType::bf16).table == nullptr);
    QVERIFY(gemm_shape_rates(part("b300"), ComputeType::bf16).table == nullptr);
    // GB200 is the B200's die at 5 PFLOP/s dense fp8 against the B200's 4.5, but its MAMF sweep
    // reached 0.723 of that (3,615.6 TFLOP/s) against the B200's 0.763 (3,432.5): the B200's
    // rates times 5 x 0.723 / (4.5 x 0.763) = 1.0529, not the peaks' 1.111.
    const double gb200_scale = 5.0 * 0.723 / (4.5 * 0.763);
    const GemmShapeRates gb200 = gemm_shape_rates(part("gb200"), ComputeType::fp8);
    QVERIFY(gb200.table != nullptr);
    QVERIFY(near(gb200.scale, gb200_scale));
    QVERIFY(gb200.by_best_gemm);
    QVERIFY(
        near(gemm_shape_flops_per_s(gb200, 1, 4096, 4096, 4096), 2764981863158106.0 * gb200_scale));
    // Without a measurement of its own (a copy whose figures were cleared), the peaks' ratio.
    HardwareProfile unmeasured = part("gb200");
    unmeasured.id = "gb200-unmeasured";
    unmeasured.measured.clear();
    QVERIFY(near(gemm_shape_rates(unmeasured, ComputeType::fp8).scale, 5.0 / 4.5));
    QVERIFY(!gemm_shape_rates(unmeasured, ComputeType::fp8).by_best_gemm);
    // A measured profile's probe timed the card itself: the table does not replace it.
    HardwareProfile measured = part("h100-sxm");
    measured.kind = ProfileKind::measured;
    QVERIFY(gemm_shape_rates(measured, ComputeType::bf16).table == nullptr);
}

void TestGemmShapes::gemmTimesUseTheTable() {
    const HardwareProfile& h100 = part("h100-sxm");
    const AchievedRates rates = achieved_rates(h100, ComputeType::bf16);
    // 2 x 2048³ FLOPs at 641039894925373 FLOP/s: 26.80 us. Tile and wave quantization of the
    // best-shape fraction would give 2 x 2048³ / (0.806 x 989.5e12 x 128 / 132) = 22.21 us.
    const double expected_s = 2.0 * 2048.0 * 2048.0 * 2048.0 / 641039894925373.0;
    QVERIFY(near(gemm_time_shaped(rates, 1, 2048, 2048, 2048, 2).compute_s, expected_s));
    QVERIFY(near(GemmTimer(rates).seconds(1, 2048, 2048, 2048, 2), expected_s));
    // Below the table (64 rows) the quantized best-shape model stays: 132 SMs take the 16 tiles
    // of 64 x 128 in one wave, each 2·k·64·128 FLOPs at 0.806 x 989.5e12 FLOP/s.
    const double wave_s = 2.0 * 2048.0 * 132.0 * 64.0 * 128.0 / (0.806 * 989.5e12);
    QVERIFY(near(gemm_time_shaped(rates, 1, 64, 2048, 2048, 2).compute_s, wave_s));
}

void TestGemmShapes::fp8OnTheH100TakesTheBf16TableToItsOwnBest() {
    const GemmShapeRates fp8 = gemm_shape_rates(part("h100-sxm"), ComputeType::fp8);
    // Scale = best fp8 GEMM / the bf16 table's best = 0.709 x 1979e12 / 804715405124361
    // = 1.403111e15 / 8.047154e14 = 1.743611.
    const double scale = 0.709 * 1979e12 / 804715405124361.0;
    QVERIFY(std::abs(scale - 1.743611) < 1e-6);
    QVERIFY(near(fp8.scale, scale));
    // At the table's best shape, the part's best fp8 GEMM, 1403.1 TFLOP/s.
    QVERIFY(near(gemm_shape_flops_per_s(fp8, 4, 4096, 2048, 4096), 0.709 * 1979e12));
    // One 4096³ GEMM: 780193877565849 x 1.743611 = 1360.4 TFLOP/s; one 2048³:
    // 641039894925373 x 1.743611 = 1117.7 (the best-shape fraction with quantization gave 1.4e15
    // x 128 / 132 = 1360 for the 2048³ as well).
    QVERIFY(near(gemm_shape_flops_per_s(fp8, 1, 4096, 4096, 4096), 780193877565849.0 * scale));
    QVERIFY(std::abs(780193877565849.0 * scale / 1e12 - 1360.4) < 0.1);
    QVERIFY(near(gemm_shape_flops_per_s(fp8, 1, 2048, 2048, 2048), 641039894925373.0 * scale));
    QVERIFY(std::abs(641039894925373.0 * scale / 1e12 - 1117.7) < 0.1);
    // A GEMM timed in fp8 on the H100 takes the derived rate: 2 x 2048³ FLOPs at that rate.
    const AchievedRates rates = achieved_rates(part("h100-sxm"), ComputeType::fp8);
    QVERIFY(near(GemmTimer(rates).seconds(1, 2048, 2048, 2048, 1),
                 2.0 * 2048.0 * 2048.0 * 2048.0 / (641039894925373.0 * scale)));
    // The H200 (same die, best fp8 GEMM 0.734 of the same peak) scales to its own best.
    const GemmShapeRates h200 = gemm_shape_rates(part("h200"), ComputeType::fp8);
    QVERIFY(near(h200.scale, 0.734 * 1979e12 / 804715405124361.0));
}

QTEST_APPLESS_MAIN(TestGemmShapes)
void TestGemmShapes::fp4OnTheB200TakesTheFp8TableToItsOwnBest() {
    // The B200's fp4: its fp8 table scaled to the part's best fp4 GEMM, 0.582 x 9 PFLOP/s =
    // 5.238 PFLOP/s (the catalog's cuBLAS figure at 8192 cubed), at the fp8 table's best shape,
    // 4 x 4096 x 4096 x 4096 (3,279.68 TFLOP/s in gemm_shape_data.h's kB200Fp8).
    const GemmShapeRates b200 = gemm_shape_rates(part("b200"), ComputeType::fp4);
    QVERIFY(b200.table != nullptr);
    QVERIFY(b200.derived);
    const double best_fp4 = 0.582 * 9e15;
    QVERIFY(near(gemm_shape_flops_per_s(b200, 4, 4096, 4096, 4096), best_fp4));
    // One 4096-cubed GEMM: the fp8 table's 2,764.98 TFLOP/s times 5.238 / 3.27968 = 4,416 TFLOP/s,
    // 0.49 of the fp4 peak.
    QVERIFY(near(gemm_shape_flops_per_s(b200, 1, 4096, 4096, 4096),
                 2764981863158106.0 * best_fp4 / 3279676742061148.0));
    // The B300 (Blackwell Ultra, not the B200 die) has no table: its flat fraction applies.
    QVERIFY(gemm_shape_rates(part("b300"), ComputeType::fp4).table == nullptr);
    // A part without an fp4 peak has no fp4 rates.
    QVERIFY(gemm_shape_rates(part("h100-sxm"), ComputeType::fp4).table == nullptr);
}

void TestGemmShapes::belowTheTableNoSlowerThanItsSmallestContainingGemm() {
    const AchievedRates rates = achieved_rates(part("h100-sxm"), ComputeType::bf16);
    const GemmTimer timer(rates);
    // 255 x 4096 x 4096: the wave model gives 32 tiles of 255 x 128 in one wave on 132 SMs,
    // 2 x 4096 x 132 x 255 x 128 / (989.5e12 x 0.806) = 44.3 us; the table's 256 x 4096 x 4096
    // (OpenXLA's measured 418,449,658,612,626 FLOP/s, kH100Bf16 index 24) takes
    // 2 x 256 x 4096 x 4096 / 418.45e12 = 20.5 us, and the smaller GEMM no longer.
    const double padded_s = 2.0 * 256 * 4096 * 4096 / 418449658612626.0;
    QVERIFY(near(gemm_time_shaped(rates, 1, 255, 4096, 4096, 2).compute_s, padded_s));
    QVERIFY(near(timer.seconds(1, 255, 4096, 4096, 2), padded_s));  // above its 12 us of reads
    QVERIFY(timer.seconds(1, 255, 4096, 4096, 2) <= timer.seconds(1, 256, 4096, 4096, 2));
    // A matrix-vector product stays on the wave model, which is faster there: 32 tiles of
    // 1 x 128 in one wave, 2 x 4096 x 132 x 1 x 128 / (989.5e12 x 0.806).
    QVERIFY(near(gemm_time_shaped(rates, 1, 1, 4096, 4096, 2).compute_s,
                 2.0 * 4096 * 132 * 128 / (989.5e12 * 0.806)));
    // Time never falls as the rows grow across the table's edge (a decode batch of 200 to 300
    // sequences on a tp-8 slice of Llama 3 70B's QKV projection: 1280 x 8192).
    double before = 0.0;
    for (int m = 200; m <= 300; ++m) {
        const double t = timer.seconds(1, m, 1280, 8192, 2);
        QVERIFY2(t >= before, qPrintable(QString::number(m)));
        before = t;
    }
}

#include "tst_gemm_shapes.moc"
