// The roofline model: attainable = min(peak, intensity x bandwidth), ridge = peak / bandwidth
// (Williams et al. 2009; CS336 lecture 2). Values derived by hand.
#include <QtTest>
#include <cmath>

#include "planner/hardware/hardware.h"
#include "planner/roofline/roofline.h"

using namespace tally;

class TestRoofline : public QObject {
    Q_OBJECT

private slots:
    void h100RidgeMatchesSeed();
    void eitherSideOfRidge_data();
    void eitherSideOfRidge();
    void seedReluAndMatmulOnH100();
    void moveOnlyOperation();
    void rooflinePerDtype();
    void polyline();
    void chartRange();
};

void TestRoofline::h100RidgeMatchesSeed() {
    // Lecture 2: H100 accelerator intensity = (1979e12 / 2) / 3.35e12 = 295.37 FLOP/byte.
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    QVERIFY(h100);
    const auto roof = roof_for(*h100, ComputeType::bf16);
    QVERIFY(roof);
    QCOMPARE(roof->peak_flops_per_s, 1979e12 / 2);
    QCOMPARE(roof->bandwidth_bytes_per_s, 3.35e12);
    QVERIFY(std::abs(roof->ridge_flops_per_byte() - 295.373) < 1e-3);
}

void TestRoofline::eitherSideOfRidge_data() {
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("attainable");
    QTest::addColumn<bool>("memory_bound");
    QTest::addColumn<double>("seconds");
    // A roof of peak 1000 FLOP/s and 10 bytes/s: ridge 100 FLOP/byte.
    // Intensity 50: 50 x 10 = 500 FLOP/s, memory-bound; time max(5000/1000, 100/10) = 10 s.
    QTest::newRow("left of ridge") << 5000.0 << 100.0 << 500.0 << true << 10.0;
    // Intensity 200: capped at the peak 1000, compute-bound; time max(20, 10) = 20 s.
    QTest::newRow("right of ridge") << 20000.0 << 100.0 << 1000.0 << false << 20.0;
    // On the ridge: both limits meet at the peak; counted as compute-bound.
    QTest::newRow("on the ridge") << 10000.0 << 100.0 << 1000.0 << false << 10.0;
    // Just left: intensity 99.9 -> 999 FLOP/s.
    QTest::newRow("just left") << 9990.0 << 100.0 << 999.0 << true << 10.0;
}

void TestRoofline::eitherSideOfRidge() {
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, attainable);
    QFETCH(bool, memory_bound);
    QFETCH(double, seconds);
    const Roof roof{ComputeType::bf16, 1000.0, 10.0};
    QCOMPARE(roof.ridge_flops_per_byte(), 100.0);
    const RooflinePoint p = place(roof, flops, bytes);
    QCOMPARE(p.attainable_flops_per_s, attainable);
    QCOMPARE(roof.attainable_flops_per_s(flops / bytes), attainable);
    QCOMPARE(p.bound, memory_bound ? Bound::memory : Bound::compute);
    QCOMPARE(p.seconds, seconds);
    QCOMPARE(p.intensity_flops_per_byte, flops / bytes);
}

void TestRoofline::seedReluAndMatmulOnH100() {
    const Roof h100{ComputeType::bf16, 1979e12 / 2, 3.35e12};
    // Lecture 2: ReLU over 1e6 bf16 values moves 4e6 bytes: 4e6 / 3.35e12 = 1.19e-6 s ("1e-6");
    // computing takes 1e6 / 989.5e12 = 1.01e-9 s ("1e-9"): memory-bound, time = the transfer.
    const RooflinePoint relu = place(h100, 1e6, 4e6);
    QCOMPARE(relu.bound, Bound::memory);
    QCOMPARE(relu.memory_seconds, 4e6 / 3.35e12);
    QCOMPARE(relu.compute_seconds, 1e6 / (1979e12 / 2));
    QCOMPARE(relu.seconds, relu.memory_seconds);
    // Attainable 0.25 x 3.35e12 = 8.375e11 FLOP/s.
    QCOMPARE(relu.attainable_flops_per_s, 8.375e11);
    // The 1024³ matmul (intensity 341.3 > 295.4) runs at the peak: 2·1024³ / 989.5e12 s.
    const RooflinePoint mm = place(h100, 2.0 * 1024 * 1024 * 1024, 6.0 * 1024 * 1024);
    QCOMPARE(mm.bound, Bound::compute);
    QCOMPARE(mm.attainable_flops_per_s, 1979e12 / 2);
    QCOMPARE(mm.seconds, 2.0 * 1024 * 1024 * 1024 / (1979e12 / 2));
}

void TestRoofline::moveOnlyOperation() {
    // A transpose: bytes but no FLOPs. Memory-bound, 0 FLOP/s, time = bytes / bandwidth.
    const Roof roof{ComputeType::bf16, 1000.0, 10.0};
    const RooflinePoint p = place(roof, 0.0, 50.0);
    QCOMPARE(p.bound, Bound::memory);
    QCOMPARE(p.attainable_flops_per_s, 0.0);
    QCOMPARE(p.seconds, 5.0);
}

void TestRoofline::rooflinePerDtype() {
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    QVERIFY(h100);
    // H100 has no fp4 path.
    QVERIFY(!roof_for(*h100, ComputeType::fp4));
    const std::vector<Roof> all = roofs(*h100);
    QCOMPARE(all.size(), std::size_t(7));  // fp64, fp32, tf32, bf16, fp16, fp8, int8
    for (const Roof& r : all) {
        QVERIFY(r.type != ComputeType::fp4);
        QCOMPARE(r.ridge_flops_per_byte(), h100->peak(r.type) / h100->bandwidth_bytes_per_s);
    }
    // fp8 doubles the peak, so doubles the ridge: 1979e12 / 3.35e12 = 590.7.
    QVERIFY(std::abs(roof_for(*h100, ComputeType::fp8)->ridge_flops_per_byte() - 590.746) < 1e-3);
}

void TestRoofline::polyline() {
    const Roof roof{ComputeType::bf16, 1000.0, 10.0};  // ridge 100
    const auto pts = roof_polyline(roof, 0.1, 1000.0);
    QCOMPARE(pts.size(), std::size_t(3));
    QCOMPARE(pts[0].intensity_flops_per_byte, 0.1);
    QCOMPARE(pts[0].flops_per_s, 1.0);  // 0.1 x 10
    QCOMPARE(pts[1].intensity_flops_per_byte, 100.0);
    QCOMPARE(pts[1].flops_per_s, 1000.0);
    QCOMPARE(pts[2].intensity_flops_per_byte, 1000.0);
    QCOMPARE(pts[2].flops_per_s, 1000.0);
    // The ridge outside the range: just the two ends.
    const auto slope = roof_polyline(roof, 0.1, 10.0);
    QCOMPARE(slope.size(), std::size_t(2));
    QCOMPARE(slope[1].flops_per_s, 100.0);
    QVERIFY(roof_polyline(roof, 0.0, 10.0).empty());
}

void TestRoofline::chartRange() {
    const Roof h100{ComputeType::bf16, 1979e12 / 2, 3.35e12};
    // Ridge 295 and ReLU 0.25: decades [0.1, 1000] widened by one on each side.
    const IntensityRange r = chart_intensity_range({h100}, {0.25});
    QCOMPARE(r.min_flops_per_byte, 0.01);
    QCOMPARE(r.max_flops_per_byte, 10000.0);
    const IntensityRange empty = chart_intensity_range({}, {});
    QCOMPARE(empty.min_flops_per_byte, 0.1);
    QCOMPARE(empty.max_flops_per_byte, 1000.0);
}

QTEST_GUILESS_MAIN(TestRoofline)
#include "tst_roofline.moc"
