// The measured roofline of a stored probe run (planner/roofline/measured_roofline.h): hand-built
// runs with round numbers, expected roofs, points and fractions worked out by hand in the comments.
#include <QtTest>
#include <cmath>
#include <optional>
#include <string>

#include "planner/hardware/hardware.h"
#include "planner/hardware/user_profiles.h"
#include "planner/roofline/measured_roofline.h"

using namespace tally;

namespace {

// A promised profile with round figures: bf16 1000 TFLOP/s, fp32 100 TFLOP/s, 2 TB/s, no fp8.
HardwareProfile promised_profile() {
    HardwareProfile p;
    p.id = "round";
    p.name = "Round numbers";
    p.kind = ProfileKind::custom;
    p.memory_bytes = 80e9;
    p.bandwidth_bytes_per_s = 2e12;
    p.peak_flops_per_s[static_cast<std::size_t>(ComputeType::bf16)] = 1000e12;
    p.peak_flops_per_s[static_cast<std::size_t>(ComputeType::fp32)] = 100e12;
    return p;
}

ProbeResultRecord result(std::int64_t id, const std::string& test, const std::string& variant,
                         const std::string& dtype, double flops, double bytes,
                         std::optional<double> flops_per_s, std::optional<double> bytes_per_s,
                         ProbeResultStatus status = ProbeResultStatus::passed,
                         bool validated = true) {
    ProbeResultRecord r;
    r.id = id;
    r.test = test;
    r.variant = variant;
    r.dtype = dtype;
    r.flops = flops;
    r.bytes = bytes;
    r.flops_per_s = flops_per_s;
    r.bytes_per_s = bytes_per_s;
    r.median_s = 1.0;
    r.min_s = 1.0;
    r.max_s = 1.0;
    r.stdrel = 0.0;
    r.samples = 5;
    r.status = status;
    r.validated = validated;
    return r;
}

// A 4096^3 bf16 matmul: 2 * 4096^3 = 137438953472 FLOPs; (4096*4096 + 4096*4096) * 2 bytes in
// + 4096*4096 * 2 bytes out = 3 * 33554432 = 100663296 bytes; intensity 1365.33 FLOP/byte.
constexpr double kMatmulFlops = 137438953472.0;
constexpr double kMatmulBytes = 100663296.0;

ProbeRunRecord hand_run() {
    ProbeRunRecord run;
    run.id = 7;
    run.backend = "cuda";
    run.host = "node";
    run.started_at = "2026-11-30T05:08:38Z";
    run.finished_at = "2026-11-30T05:09:38Z";
    run.status = ProbeRunStatus::ok;
    run.results = {
        result(1, "matmul", "cublaslt", "bf16", kMatmulFlops, kMatmulBytes, 700e12, std::nullopt),
        result(2, "matmul", "cublaslt", "bf16", kMatmulFlops, kMatmulBytes, 750e12, std::nullopt),
        // Faster, but not validated / failed: never a roof.
        result(3, "matmul", "cublaslt", "bf16", kMatmulFlops, kMatmulBytes, 900e12, std::nullopt,
               ProbeResultStatus::passed, false),
        result(4, "matmul", "cublaslt", "bf16", kMatmulFlops, kMatmulBytes, 950e12, std::nullopt,
               ProbeResultStatus::failed, false),
        result(5, "matmul", "cublaslt", "fp8_e4m3", kMatmulFlops, kMatmulBytes / 2, 1200e12,
               std::nullopt),
        result(6, "matmul", "cublaslt", "fp32", kMatmulFlops, kMatmulBytes * 2, 50e12,
               std::nullopt),
        result(8, "memory_bandwidth", "copy", "u32", 0.0, 1e9, std::nullopt, 1.6e12),
        result(9, "memory_bandwidth", "read", "u32", 0.0, 1e9, std::nullopt, 1.7e12),
        // write is faster here but measured_profile() takes copy or read only, and so do we.
        result(10, "memory_bandwidth", "write", "u32", 0.0, 1e9, std::nullopt, 1.9e12),
        // Wrong on purpose (gpu_probe/protocol/PROTOCOL.md): never a roof nor a point.
        result(11, "timing_lesson", "host_clock_no_sync", "fp32", 1e9, 1e6, 1e18, 50e12),
        // relu: 1e6 FLOPs over 8e6 bytes = 0.125 FLOP/byte.
        result(12, "relu", "", "fp32", 1e6, 8e6, 0.2e12, 1.6e12),
        // tensor-core sweep: 512e6 FLOPs over 1e6 bytes = 512 FLOP/byte.
        result(13, "intensity_sweep", "tensor_core", "bf16", 512e6, 1e6, 600e12, 600e12 / 512),
        result(14, "host_device_copy", "h2d_pinned", "u32", 0.0, 1e9, std::nullopt, 25e9),
        result(15, "dot", "", "fp32", 0.0, 0.0, std::nullopt, std::nullopt,
               ProbeResultStatus::waived, false),
    };
    return run;
}

bool close(double actual, double expected) {
    return std::abs(actual - expected) <= 1e-12 * std::abs(expected);
}

}  // namespace

class TestMeasuredRoofline : public QObject {
    Q_OBJECT

private slots:
    void roofsFromBestValidatedResults();
    void roofsWithoutProfile();
    void points();
    void pointFractions_data();
    void pointFractions();
    void emptyRun();
    void caseNames_data();
    void caseNames();
    void computeTypes();
    void catalogMatch_data();
    void catalogMatch();
};

void TestMeasuredRoofline::roofsFromBestValidatedResults() {
    const HardwareProfile promised = promised_profile();
    const MeasuredRoofline m = measured_roofline(hand_run(), &promised);

    // kAllComputeTypes order: fp32, bf16, fp8.
    QCOMPARE(m.peaks.size(), std::size_t(3));
    QCOMPARE(m.peaks[0].type, ComputeType::fp32);
    QCOMPARE(m.peaks[0].flops_per_s, 50e12);
    QCOMPARE(m.peaks[0].result_id, std::int64_t(6));
    // 50 / 100 TFLOP/s.
    QVERIFY(m.peaks[0].fraction_of_peak && close(*m.peaks[0].fraction_of_peak, 0.5));

    // bf16: the best validated passed one is result 2 (750), not 3 (900, unvalidated) or 4 (950,
    // failed). 750 / 1000 = 0.75.
    QCOMPARE(m.peaks[1].type, ComputeType::bf16);
    QCOMPARE(m.peaks[1].flops_per_s, 750e12);
    QCOMPARE(m.peaks[1].result_id, std::int64_t(2));
    QCOMPARE(*m.peaks[1].promised_flops_per_s, 1000e12);
    QVERIFY(close(*m.peaks[1].fraction_of_peak, 0.75));

    // fp8: measured, but the profile has no fp8 peak, so no fraction.
    QCOMPARE(m.peaks[2].type, ComputeType::fp8);
    QCOMPARE(m.peaks[2].dtype, std::string("fp8_e4m3"));
    QCOMPARE(m.peaks[2].flops_per_s, 1200e12);
    QVERIFY(!m.peaks[2].promised_flops_per_s);
    QVERIFY(!m.peaks[2].fraction_of_peak);

    // Bandwidth: best of copy (1.6) and read (1.7) = 1.7 TB/s; write (1.9) and the timing
    // lesson (50) do not count. 1.7 / 2 = 0.85.
    QVERIFY(m.bandwidth);
    QCOMPARE(m.bandwidth->bytes_per_s, 1.7e12);
    QCOMPARE(m.bandwidth->test, std::string("read"));
    QCOMPARE(m.bandwidth->result_id, std::int64_t(9));
    QVERIFY(close(*m.bandwidth->fraction_of_bandwidth, 0.85));

    // Roofs: measured peak over measured bandwidth. bf16 ridge 750e12 / 1.7e12 = 441.18.
    const auto bf16 = m.roof(ComputeType::bf16);
    QVERIFY(bf16);
    QCOMPARE(bf16->peak_flops_per_s, 750e12);
    QCOMPARE(bf16->bandwidth_bytes_per_s, 1.7e12);
    QVERIFY(std::abs(bf16->ridge_flops_per_byte() - 441.176) < 1e-3);
    QVERIFY(!m.roof(ComputeType::fp16));
    QCOMPARE(m.roofs().size(), std::size_t(3));
}

void TestMeasuredRoofline::roofsWithoutProfile() {
    const MeasuredRoofline m = measured_roofline(hand_run(), nullptr);
    QCOMPARE(m.peaks.size(), std::size_t(3));
    QVERIFY(!m.peaks[1].fraction_of_peak);
    QVERIFY(!m.bandwidth->fraction_of_bandwidth);
    for (const MeasuredPoint& p : m.points) {
        QVERIFY(!p.fractions.of_peak && !p.fractions.of_bandwidth && !p.fractions.of_roof);
    }

    // Without a memory result there is no measured roof, only peaks.
    ProbeRunRecord run = hand_run();
    std::erase_if(run.results, [](const ProbeResultRecord& r) {
        return r.variant == "copy" || r.variant == "read";
    });
    const MeasuredRoofline no_memory = measured_roofline(run, nullptr);
    QVERIFY(!no_memory.bandwidth);
    QCOMPARE(no_memory.peaks.size(), std::size_t(3));
    QVERIFY(no_memory.roofs().empty());
}

void TestMeasuredRoofline::points() {
    const HardwareProfile promised = promised_profile();
    const MeasuredRoofline m = measured_roofline(hand_run(), &promised);
    // Validated, passed, with FLOPs and bytes, not the timing lesson: results 1, 2, 5, 6 (matmul),
    // 12 (relu), 13 (sweep), in run order.
    QCOMPARE(m.points.size(), std::size_t(6));
    const std::int64_t ids[] = {1, 2, 5, 6, 12, 13};
    for (std::size_t i = 0; i < m.points.size(); ++i) {
        QCOMPARE(m.points[i].result_id, ids[i]);
    }
    QCOMPARE(m.points[0].kind, MeasuredPointKind::matmul);
    QCOMPARE(m.points[4].kind, MeasuredPointKind::seed_op);
    QCOMPARE(m.points[5].kind, MeasuredPointKind::sweep);
    // 137438953472 / 100663296 = 1365.33 FLOP/byte.
    QVERIFY(std::abs(m.points[0].intensity_flops_per_byte - 1365.333) < 1e-3);
    QCOMPARE(m.points[4].intensity_flops_per_byte, 0.125);
    QCOMPARE(m.points[5].intensity_flops_per_byte, 512.0);
}

void TestMeasuredRoofline::pointFractions_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<double>("of_peak");       // < 0: absent
    QTest::addColumn<double>("of_bandwidth");  // < 0: absent
    QTest::addColumn<double>("of_roof");       // < 0: absent
    // Promised: bf16 1000 TFLOP/s, fp32 100 TFLOP/s, 2 TB/s.
    // relu fp32 at 0.125 FLOP/byte: 0.2 TFLOP/s / 100 = 0.002 of the peak; 1.6 / 2 TB/s = 0.8;
    // the promised roof there is min(100e12, 0.125 x 2e12 = 0.25e12) = 0.25e12, 0.2 / 0.25 = 0.8.
    QTest::newRow("relu, memory-bound") << 4 << 0.002 << 0.8 << 0.8;
    // tensor-core sweep bf16 at 512 FLOP/byte: 600 / 1000 = 0.6 of the peak; bytes/s 600e12/512
    // = 1.171875e12, / 2e12 = 0.5859375; roof min(1000e12, 512 x 2e12 = 1024e12) = 1000e12: 0.6.
    QTest::newRow("sweep, compute-bound") << 5 << 0.6 << 0.5859375 << 0.6;
    // matmul bf16 (result 2) at 1365 FLOP/byte: 750 / 1000 = 0.75, roof is the peak: 0.75; it
    // reports no bytes/s.
    QTest::newRow("matmul bf16") << 1 << 0.75 << -1.0 << 0.75;
    // matmul fp8: the profile has no fp8 peak, so nothing to compare with.
    QTest::newRow("matmul fp8, no promised peak") << 2 << -1.0 << -1.0 << -1.0;
}

void TestMeasuredRoofline::pointFractions() {
    QFETCH(int, index);
    QFETCH(double, of_peak);
    QFETCH(double, of_bandwidth);
    QFETCH(double, of_roof);
    const HardwareProfile promised = promised_profile();
    const MeasuredRoofline m = measured_roofline(hand_run(), &promised);
    const MeasuredFractions& f = m.points.at(static_cast<std::size_t>(index)).fractions;
    const auto check = [](const std::optional<double>& actual, double expected) {
        return expected < 0.0 ? !actual.has_value() : (actual && close(*actual, expected));
    };
    QVERIFY(check(f.of_peak, of_peak));
    QVERIFY(check(f.of_bandwidth, of_bandwidth));
    QVERIFY(check(f.of_roof, of_roof));
}

void TestMeasuredRoofline::emptyRun() {
    ProbeRunRecord run;
    run.results = {result(1, "matmul", "cublaslt", "bf16", kMatmulFlops, kMatmulBytes, 700e12,
                          std::nullopt, ProbeResultStatus::failed, false)};
    const MeasuredRoofline m = measured_roofline(run, nullptr);
    QVERIFY(m.empty());
    QVERIFY(m.roofs().empty());
}

void TestMeasuredRoofline::caseNames_data() {
    QTest::addColumn<QString>("test");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("name");
    QTest::newRow("stream copy") << "stream"
                                 << "copy"
                                 << "copy";
    QTest::newRow("stream triad") << "stream"
                                  << "triad"
                                  << "triad";
    QTest::newRow("cuda read") << "memory_bandwidth"
                               << "read"
                               << "read";
    QTest::newRow("matmul cublaslt") << "matmul"
                                     << "cublaslt"
                                     << "matmul";
    QTest::newRow("matmul blas") << "matmul"
                                 << "blas"
                                 << "matmul";
    QTest::newRow("relu") << "relu"
                          << ""
                          << "relu";
    QTest::newRow("tensor-core sweep") << "intensity_sweep"
                                       << "tensor_core"
                                       << "intensity_sweep.tensor_core";
    QTest::newRow("timing lesson") << "timing_lesson"
                                   << "host_clock_no_sync"
                                   << "timing_lesson.host_clock_no_sync";
}

void TestMeasuredRoofline::caseNames() {
    QFETCH(QString, test);
    QFETCH(QString, variant);
    QFETCH(QString, name);
    QCOMPARE(QString::fromStdString(probe_case_name(test.toStdString(), variant.toStdString())),
             name);
}

void TestMeasuredRoofline::computeTypes() {
    QCOMPARE(probe_compute_type("fp8_e4m3"), std::optional(ComputeType::fp8));
    QCOMPARE(probe_compute_type("tf32"), std::optional(ComputeType::tf32));
    QCOMPARE(probe_compute_type("fp64"), std::optional(ComputeType::fp64));
    QVERIFY(!probe_compute_type("u32"));
    QVERIFY(!probe_compute_type(""));
}

void TestMeasuredRoofline::catalogMatch_data() {
    QTest::addColumn<QString>("device");
    QTest::addColumn<double>("memory_bytes");
    QTest::addColumn<QString>("expected");  // empty: no match
    // Names as cudaGetDeviceProperties reports them; memory as totalGlobalMem (a little above the
    // marketing GB: 81559 MiB = 85.5e9 bytes on an H100 80GB).
    QTest::newRow("H100 SXM") << "NVIDIA H100 80GB HBM3" << 85.5e9 << "h100-sxm";
    QTest::newRow("H100 SXM, memory unknown") << "NVIDIA H100 80GB HBM3" << 0.0 << "h100-sxm";
    QTest::newRow("H100 PCIe") << "NVIDIA H100 PCIe" << 85.5e9 << "h100-pcie";
    QTest::newRow("H100 NVL") << "NVIDIA H100 NVL" << 100.5e9 << "h100-nvl";
    QTest::newRow("H200 (not GH200)") << "NVIDIA H200" << 150.8e9 << "h200";
    QTest::newRow("A100 40GB by memory") << "NVIDIA A100-SXM4-40GB" << 42.5e9 << "a100-40gb";
    QTest::newRow("A100 80GB by memory") << "NVIDIA A100-SXM4-80GB" << 85.1e9 << "a100-80gb";
    QTest::newRow("A100 PCIe 80GB") << "NVIDIA A100 80GB PCIe" << 85.1e9 << "a100-pcie-80gb";
    // The catalog has no A100 PCIe 40GB: the 80GB one is twice the memory, not this card.
    QTest::newRow("A100 PCIe 40GB: none") << "NVIDIA A100-PCIE-40GB" << 42.5e9 << "";
    QTest::newRow("RTX 4090") << "NVIDIA GeForce RTX 4090" << 25.3e9 << "rtx-4090";
    QTest::newRow("L4 (not L40S)") << "NVIDIA L4" << 23.8e9 << "l4";
    QTest::newRow("L40S (not L4)") << "NVIDIA L40S" << 47.7e9 << "l40s";
    QTest::newRow("GH200 96GB") << "NVIDIA GH200 480GB" << 102.6e9 << "gh200-96gb";
    QTest::newRow("V100") << "Tesla V100-SXM2-32GB" << 34.1e9 << "v100-sxm2-32gb";
    QTest::newRow("a CPU: none") << "AMD EPYC" << 25.3e9 << "";
}

void TestMeasuredRoofline::catalogMatch() {
    QFETCH(QString, device);
    QFETCH(double, memory_bytes);
    QFETCH(QString, expected);
    const HardwareProfile* p = catalog_profile_for_device(device.toStdString(), memory_bytes);
    QCOMPARE(p != nullptr ? QString::fromStdString(p->id) : QString(), expected);
}

QTEST_GUILESS_MAIN(TestMeasuredRoofline)
#include "tst_measured_roofline.moc"
