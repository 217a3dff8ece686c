// Achieved fractions of peak and the roofline time of one GEMM.
#include <QtTest>

#include "planner/core/errors.h"
#include "planner/hardware/efficiency.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/probe_records.h"
#include "planner/hardware/user_profiles.h"

#include <nlohmann/json.hpp>

using namespace tally;

class TestEfficiency : public QObject {
    Q_OBJECT

private slots:
    void ownMeasurementWins();
    void measuredProfileIsItsOwnPeak();
    void measuredProfileKeepsItsBaseFractionsForWhatItDidNotMeasure();
    void missingMeasurementFallsBackToTheCatalogMedian();
    void squareGemmIsComputeBound();
    void matvecIsMemoryBound();
    void networkAndPriceRoundTrip();
    void badNetworkFieldsNameTheField();
};

namespace {

HardwareProfile toy(ProfileKind kind) {
    HardwareProfile p;
    p.id = "toy";
    p.name = "Toy";
    p.kind = kind;
    p.memory_bytes = 80e9;
    p.bandwidth_bytes_per_s = 1e12;
    p.peak_flops_per_s[static_cast<std::size_t>(ComputeType::bf16)] = 1e15;
    return p;
}

}  // namespace

void TestEfficiency::ownMeasurementWins() {
    // The catalog's H100 SXM lists bf16 GEMM measurements of 0.803, 0.806 and 0.728 of peak
    // (stas00/ml-engineering, zzc0721/torch-performance-test-data, pytorch/pytorch#100850): the
    // best is 0.806. Its best streaming read is 0.936 (simveit/effective-reduction-mojo).
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    QVERIFY(h100);
    QCOMPARE(gemm_fraction(*h100, ComputeType::bf16), 0.806);
    QCOMPARE(memory_fraction(*h100), 0.936);
    // No fp16 GEMM measurement: fp16 runs at bf16's dense rate (989.5 TFLOP/s both), so it takes
    // the bf16 figure rather than the datasheet peak.
    QCOMPARE(gemm_fraction(*h100, ComputeType::fp16), 0.806);
    QVERIFY(QString::fromStdString(gemm_fraction_source(*h100, ComputeType::bf16))
                .contains("best published"));
    // A copy whose bf16 peak was removed plans in fp16 on the same tensor cores: its fp16 keeps
    // the bf16 measurement (MI300X: MAMF 668.4 of 1307 TFLOP/s, 0.511), not the catalog median,
    // and its fp16 GEMMs read the H100's bf16 table as before.
    HardwareProfile no_bf16 = *find_builtin_hardware("mi300x");
    no_bf16.id = "mi300x-no-bf16";
    no_bf16.peak_flops_per_s[static_cast<std::size_t>(ComputeType::bf16)] = 0.0;
    QCOMPARE(gemm_fraction(no_bf16, ComputeType::fp16), 0.511);
    HardwareProfile h100_no_bf16 = *h100;
    h100_no_bf16.id = "h100-no-bf16";
    h100_no_bf16.peak_flops_per_s[static_cast<std::size_t>(ComputeType::bf16)] = 0.0;
    QCOMPARE(gemm_fraction(h100_no_bf16, ComputeType::fp16), 0.806);
    const GemmShapeRates rates = gemm_shape_rates(h100_no_bf16, ComputeType::fp16);
    QVERIFY(rates.table != nullptr);
    QCOMPARE(rates.scale, 1.0);
}

void TestEfficiency::measuredProfileIsItsOwnPeak() {
    // What the probe measured is the peak itself: measured_profile() lists it at 1.0 of the peak
    // it sets, and the model takes it at 1.
    HardwareProfile p = toy(ProfileKind::measured);
    p.measured.push_back({"bf16_gemm", 1e15, 1.0, "", ""});
    p.measured.push_back({"memory_copy", 1e12, 1.0, "", ""});
    QCOMPARE(gemm_fraction(p, ComputeType::bf16), 1.0);
    QCOMPARE(memory_fraction(p), 1.0);
    QVERIFY(QString::fromStdString(memory_fraction_source(p)).contains("measured on this card"));
}

void TestEfficiency::measuredProfileKeepsItsBaseFractionsForWhatItDidNotMeasure() {
    // A run with only GEMM shape timings, on the H100 SXM's other figures: its peaks and its
    // bandwidth stay the datasheet's, so they keep the H100's published fractions (bf16 GEMM
    // 0.806, streaming read 0.936, see ownMeasurementWins), not 1.
    ProbeRunRecord run;
    run.id = 3;
    run.backend = "cuda";
    run.started_at = "2026-01-02T03:04:05Z";
    ProbeResultRecord shape;
    shape.test = "gemm_shapes";
    shape.variant = "cublaslt";
    shape.dtype = "bf16";
    shape.sizes_json = R"({"m":4096,"n":4096,"k":4096,"count":1})";
    shape.median_s = 2e-4;
    shape.samples = 5;
    shape.validated = true;
    run.results = {shape};
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    QVERIFY(h100);
    const HardwareProfile shapes_only = measured_profile(run, h100, "m", "Measured");
    QCOMPARE(gemm_fraction(shapes_only, ComputeType::bf16), 0.806);
    QCOMPARE(gemm_fraction(shapes_only, ComputeType::fp16), 0.806);
    QCOMPARE(memory_fraction(shapes_only), 0.936);
    QCOMPARE(scale_up_fraction(shapes_only), scale_up_fraction(*h100));
    QVERIFY(QString::fromStdString(gemm_fraction_source(shapes_only, ComputeType::bf16))
                .contains("not measured on this card"));
    // With a measured bf16 matmul and copy the run's figures become the peaks, at 1.
    ProbeResultRecord matmul;
    matmul.test = "matmul";
    matmul.variant = "cublaslt";
    matmul.dtype = "bf16";
    matmul.sizes_json = R"({"m":8192,"n":8192,"k":8192})";
    matmul.flops = 2.0 * 8192.0 * 8192.0 * 8192.0;
    matmul.flops_per_s = 7.5e14;
    matmul.median_s = matmul.flops / 7.5e14;
    matmul.samples = 5;
    matmul.validated = true;
    ProbeResultRecord copy;
    copy.test = "memory_bandwidth";
    copy.variant = "copy";
    copy.dtype = "u32";
    copy.bytes = 1e9;
    copy.bytes_per_s = 3e12;
    copy.median_s = 1e9 / 3e12;
    copy.samples = 5;
    copy.validated = true;
    run.results = {shape, matmul, copy};
    const HardwareProfile measured = measured_profile(run, h100, "m", "Measured");
    QCOMPARE(measured.peak(ComputeType::bf16), 7.5e14);
    QCOMPARE(gemm_fraction(measured, ComputeType::bf16), 1.0);
    QCOMPARE(memory_fraction(measured), 1.0);
    // fp16 kept the datasheet peak (989.5e12), now unlike bf16's: it takes no bf16 figure, and
    // the H100 publishes no fp16 one, so the catalog median applies.
    QVERIFY(gemm_fraction(measured, ComputeType::fp16) < 1.0);
}

void TestEfficiency::missingMeasurementFallsBackToTheCatalogMedian() {
    // The V100 has no published bf16 GEMM or bandwidth figure in the catalog: it takes the
    // median of the parts that have one. Bandwidth: the catalog's streaming figures are A100
    // 0.868, H100 0.936, H100 NVL 0.847, GH200 0.904, MI300X 0.803: sorted 0.803 0.847 0.868
    // 0.904 0.936, median 0.868.
    const HardwareProfile* v100 = find_builtin_hardware("v100-sxm2-32gb");
    QVERIFY(v100);
    QCOMPARE(memory_fraction(*v100), 0.868);
    QVERIFY(QString::fromStdString(memory_fraction_source(*v100)).contains("median"));
    const double bf16 = gemm_fraction(*v100, ComputeType::bf16);
    QVERIFY(bf16 > 0.4 && bf16 <= 1.0);
}

void TestEfficiency::squareGemmIsComputeBound() {
    // 4096^3 in bf16 on a custom part with no measurements (median fractions apply). FLOPs
    // 2·4096^3 = 137,438,953,472; bytes 3·4096^2·2 = 100,663,296.
    const HardwareProfile p = toy(ProfileKind::custom);
    const GemmTime t = gemm_time(p, ComputeType::bf16, 4096, 4096, 4096, 2.0);
    QCOMPARE(t.flops, 137438953472.0);
    QCOMPARE(t.bytes, 100663296.0);
    QVERIFY(!t.memory_bound);
    QCOMPARE(t.seconds, t.flops / (1e15 * gemm_fraction(p, ComputeType::bf16)));
}

void TestEfficiency::matvecIsMemoryBound() {
    // 8192 x 8192 matrix times a vector in bf16 on a measured part (fractions 1): FLOPs
    // 2·8192·8192 = 134,217,728; bytes (8192·8192 + 8192 + 8192)·2 = 134,250,496; at 1e12 B/s
    // 1.34250496e-4 s, against 1.342e-7 s of compute.
    HardwareProfile p = toy(ProfileKind::measured);
    p.measured.push_back({"bf16_gemm", 1e15, 1.0, "", ""});
    p.measured.push_back({"memory_copy", 1e12, 1.0, "", ""});
    const GemmTime t = gemm_time(p, ComputeType::bf16, 8192, 1, 8192, 2.0);
    QVERIFY(t.memory_bound);
    QCOMPARE(t.seconds, 1.34250496e-4);
}

void TestEfficiency::networkAndPriceRoundTrip() {
    HardwareProfile p = toy(ProfileKind::custom);
    p.gpus_per_node = 8;
    p.inter_node_bytes_per_s = 50e9;
    p.price_per_gpu_hour = 2.5;
    const HardwareProfile back = hardware_from_json(to_json(p));
    QCOMPARE(back.gpus_per_node, std::int64_t{8});
    QCOMPARE(back.inter_node_bytes_per_s, 50e9);
    QVERIFY(back.price_per_gpu_hour.has_value());
    QCOMPARE(*back.price_per_gpu_hour, 2.5);
    // Absent stays absent.
    const HardwareProfile plain = hardware_from_json(to_json(toy(ProfileKind::custom)));
    QCOMPARE(plain.gpus_per_node, std::int64_t{0});
    QVERIFY(!plain.price_per_gpu_hour.has_value());
}

void TestEfficiency::badNetworkFieldsNameTheField() {
    nlohmann::json j = to_json(toy(ProfileKind::custom));
    j["network"]["gpus_per_node"] = 2.5;
    try {
        hardware_from_json(j);
        QFAIL("a fractional GPU count was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()),
                 QStringLiteral("hardware.network.gpus_per_node"));
    }
    j = to_json(toy(ProfileKind::custom));
    j["price_per_gpu_hour"] = -1;
    try {
        hardware_from_json(j);
        QFAIL("a negative price was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("hardware.price_per_gpu_hour"));
    }
}

QTEST_APPLESS_MAIN(TestEfficiency)
#include "tst_efficiency.moc"
