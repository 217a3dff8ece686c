// The probe's validation helpers (gpu_probe/probe_validation.h) and operation counts
// (gpu_probe/probe_ops.h): tolerances, the Freivalds matmul check on hand-worked matrices, the
// fault injection, the seeded patterns, and the FLOP/byte counts against the seed lecture.
#include <QtTest>

#include <cstdint>
#include <vector>

#include "gpu_probe/probe_ops.h"
#include "gpu_probe/probe_pattern.h"
#include "gpu_probe/probe_reference.h"
#include "gpu_probe/probe_validation.h"

using namespace tally::probe;

class TestProbeValidation : public QObject {
    Q_OBJECT

private slots:
    void toleranceRejectsNaN();
    void mismatchesKeepFirstIndexAcrossMerges();
    void freivaldsAcceptsCorrectProduct();
    void freivaldsCatchesOneWrongElement();
    void gammaBound();
    void faultInjectionCorruptsTheMiddle();
    void patternsAreExactOnTheirGrids();
    void affineSumClosedForm();
    void seedIntensities_data();
    void seedIntensities();
};

void TestProbeValidation::toleranceRejectsNaN() {
    const Tolerance t{0.5, 0.0};
    QVERIFY(t.accepts(1.4, 1.0));
    QVERIFY(!t.accepts(1.6, 1.0));
    QVERIFY(!t.accepts(std::nan(""), 1.0));
    QVERIFY(!t.accepts(1.0, std::nan("")));
}

void TestProbeValidation::mismatchesKeepFirstIndexAcrossMerges() {
    Mismatches a, b;
    a.add(40, 1.0, 2.0);
    b.add(7, 3.0, 4.0);
    b.add(9, 5.0, 6.0);
    a.merge(b);
    QCOMPARE(a.count, std::size_t{3});
    QCOMPARE(a.first_index, std::size_t{7});
    QCOMPARE(a.first_got, 3.0);
    const Validation v = to_validation(a, 100, "elements", Tolerance{});
    QVERIFY(!v.passed);
    QVERIFY(QString::fromStdString(v.reason).startsWith(QStringLiteral("3 of 100 elements")));
}

namespace {
// A = [[1,2],[3,4]] (m×k = 2×2, row-major), B = [[5,6],[7,8]] (k×n, stored column-major).
// C = A·B = [[1·5+2·7, 1·6+2·8],[3·5+4·7, 3·6+4·8]] = [[19,22],[43,50]], stored column-major.
const double kA[] = {1, 2, 3, 4};
const double kB[] = {5, 7, 6, 8};
}  // namespace

void TestProbeValidation::freivaldsAcceptsCorrectProduct() {
    const double c[] = {19, 43, 22, 50};
    const Validation v = freivalds_check(
        2, 2, 2, [](std::int64_t i, std::int64_t p) { return kA[i * 2 + p]; },
        [](std::int64_t p, std::int64_t j) { return kB[j * 2 + p]; },
        [&](std::int64_t i, std::int64_t j) { return c[j * 2 + i]; }, 0.0, 1);
    QVERIFY2(v.passed, v.reason.c_str());
}

void TestProbeValidation::freivaldsCatchesOneWrongElement() {
    // C[1][0] = 44 instead of 43: row 1 of C·v is off by v_0 >= 1/2.
    const double c[] = {19, 44, 22, 50};
    const Validation v = freivalds_check(
        2, 2, 2, [](std::int64_t i, std::int64_t p) { return kA[i * 2 + p]; },
        [](std::int64_t p, std::int64_t j) { return kB[j * 2 + p]; },
        [&](std::int64_t i, std::int64_t j) { return c[j * 2 + i]; }, 1e-3, 1);
    QVERIFY(!v.passed);
    QVERIFY2(QString::fromStdString(v.reason).contains(QStringLiteral("first at index 1")),
             v.reason.c_str());
}

void TestProbeValidation::gammaBound() {
    // γ_n = n·u/(1 - n·u): n = 1024, u = 2^-24 -> 2^-14 / (1 - 2^-14) = 6.1039e-5.
    QVERIFY(std::abs(gamma_bound(1024, 0x1p-24) - 0x1p-14 / (1 - 0x1p-14)) < 1e-18);
    QCOMPARE(gamma_bound(1 << 23, 0x1p-24), 1.0);  // n·u = 1/2: no useful bound, capped
}

void TestProbeValidation::faultInjectionCorruptsTheMiddle() {
    std::vector<float> values{1.0f, 2.0f, 3.0f, 4.0f};
    inject_fault(std::span<float>(values));
    // fault_index(4) = 2: 3 + 1e9·(1 + 3) = 4000000003 (rounded to fp32).
    QCOMPARE(values[0], 1.0f);
    QCOMPARE(values[2], static_cast<float>(3.0 + 4e9));
    std::vector<unsigned> words{0u, 0u, 0u};
    inject_fault(std::span<unsigned>(words));
    QCOMPARE(words[1], 0xA5A5A5A5u);
}

void TestProbeValidation::patternsAreExactOnTheirGrids() {
    for (std::uint64_t i = 0; i < 4096; ++i) {
        const float u = pattern_unit(7, i);
        QVERIFY(u >= -1.0f && u < 1.0f);
        // On the 2^-20 grid: u·2^20 is an integer.
        QCOMPARE(std::floor(u * 1048576.0f), u * 1048576.0f);
        const float d = pattern_dyadic(7, i);
        QVERIFY(d >= -2.0f && d <= 2.0f);
        QCOMPARE(std::floor(d * 8.0f), d * 8.0f);
    }
    // Different seeds give different sequences.
    QVERIFY(pattern_u32(1, 0) != pattern_u32(2, 0));
}

void TestProbeValidation::affineSumClosedForm() {
    // Sum over i < n of (seed + i·A) mod 2^32, by brute force against the closed form.
    for (const unsigned long long n : {0ull, 1ull, 2ull, 5ull, 1000ull, 65537ull}) {
        unsigned brute = 0;
        for (unsigned long long i = 0; i < n; ++i) {
            brute += affine_u32(12345u, i);
        }
        QCOMPARE(affine_u32_sum(12345u, n), brute);
    }
}

void TestProbeValidation::seedIntensities_data() {
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("tolerance");
    // CS336 lecture 2 (seeds/003_*.txt), bf16 = 2 bytes, n = 1024:
    // ReLU: n FLOPs / (2n + 2n) bytes = 0.25.
    const ops::Work relu = ops::relu(1024, 2);
    QTest::newRow("relu bf16") << relu.flops << relu.bytes << 0.25 << 0.0;
    // GELU: 20n / 4n = 5.
    const ops::Work gelu = ops::gelu(1024, 2);
    QTest::newRow("gelu bf16") << gelu.flops << gelu.bytes << 5.0 << 0.0;
    // dot: (2n - 1) / (2n + 2n + 2) = 2047/4098 = 0.4995.
    const ops::Work dot = ops::dot(1024, 2);
    QTest::newRow("dot bf16") << dot.flops << dot.bytes << 2047.0 / 4098.0 << 1e-12;
    // matvec: n(2n - 1) / (2n² + 2n + 2n) = 1024·2047 / (2·1048576 + 4096) = 0.9976.
    const ops::Work matvec = ops::matvec(1024, 1024, 2);
    QTest::newRow("matvec bf16") << matvec.flops << matvec.bytes
                                 << 1024.0 * 2047.0 / (2.0 * 1048576 + 4096) << 1e-12;
    // matmul n×n: 2n³ / (3·2n²) = n/3 = 341.33 at n = 1024.
    const ops::Work matmul = ops::matmul(1024, 1024, 1024, 2, 2);
    QTest::newRow("matmul bf16 1024") << matmul.flops << matmul.bytes << 1024.0 / 3.0 << 1e-9;
    // STREAM triad on doubles: 2 FLOPs per 24 bytes.
    const ops::Work triad = ops::stream(ops::StreamKernel::triad, 1000, 8);
    QTest::newRow("stream triad fp64") << triad.flops << triad.bytes << 2.0 / 24.0 << 1e-15;
    // FMA chain: 64 FMAs = 128 FLOPs per (4 + 4) bytes = 16.
    const ops::Work chain = ops::fma_chain(1000, 64, 4);
    QTest::newRow("fma chain 64 fp32") << chain.flops << chain.bytes << 16.0 << 0.0;
}

void TestProbeValidation::seedIntensities() {
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, intensity);
    QFETCH(double, tolerance);
    QVERIFY2(std::abs(flops / bytes - intensity) <= tolerance,
             qPrintable(QString::number(flops / bytes, 'g', 17)));
}

QTEST_GUILESS_MAIN(TestProbeValidation)
#include "tst_probe_validation.moc"
