// Slider positions and the values they stand for (linear, log, powers of two).
#include <QtTest>
#include <cmath>

#include "ui/plan/slider_scale.h"

using namespace tally::ui;

class TestSliderScale : public QObject {
    Q_OBJECT

private slots:
    void powersOfTwo();
    void logEnds();
    void logRoundsToThreeDigits();
    void linearSteps();
    void positionsClamp();
    void roundTrip_data();
    void roundTrip();
};

void TestSliderScale::powersOfTwo() {
    // GPUs 1..131072 = 2^0..2^17: 17 steps, position 10 = 1024 GPUs.
    const SliderRange gpus{1, 131072, SliderScale::pow2, 0};
    QCOMPARE(gpus.positions(), 17);
    QCOMPARE(gpus.valueAt(10), 1024.0);
    QCOMPARE(gpus.positionOf(1024), 10);
    // 1000 GPUs is nearest to 2^10.
    QCOMPARE(gpus.positionOf(1000), 10);
}

void TestSliderScale::logEnds() {
    const SliderRange params{1e6, 1e13, SliderScale::log, 0};
    QCOMPARE(params.positions(), 1000);
    QCOMPARE(params.valueAt(0), 1e6);
    QCOMPARE(params.valueAt(1000), 1e13);
    // The middle of a log scale is the geometric mean: sqrt(1e6 x 1e13) = 10^9.5 = 3.16e9.
    QCOMPARE(params.valueAt(500), 3.16e9);
}

void TestSliderScale::logRoundsToThreeDigits() {
    const SliderRange params{1e6, 1e13, SliderScale::log, 0};
    for (int p = 0; p <= 1000; p += 37) {
        const double v = params.valueAt(p);
        const double digits = v / std::pow(10.0, std::floor(std::log10(v)) - 2.0);
        QCOMPARE(digits, std::round(digits));
    }
}

void TestSliderScale::linearSteps() {
    // MFU 0.01..1 in steps of 0.01: every position is a whole number of hundredths, the ends
    // are the ends, and position 100 is 0.01 + 0.1 x 0.99 = 0.109 -> 0.11.
    const SliderRange mfu{0.01, 1.0, SliderScale::linear, 0.01};
    for (int p = 0; p <= 1000; ++p) {
        const double hundredths = mfu.valueAt(p) * 100.0;
        QVERIFY(std::abs(hundredths - std::round(hundredths)) < 1e-9);
    }
    QCOMPARE(mfu.valueAt(0), 0.01);
    QCOMPARE(mfu.valueAt(1000), 1.0);
    QCOMPARE(mfu.valueAt(100), 0.11);
}

void TestSliderScale::positionsClamp() {
    const SliderRange layers{1, 200, SliderScale::linear, 1};
    QCOMPARE(layers.positionOf(-5), 0);
    QCOMPARE(layers.positionOf(1e9), 1000);
    QCOMPARE(layers.positionOf(std::nan("")), 0);
    QCOMPARE(layers.valueAt(5000), 200.0);
}

void TestSliderScale::roundTrip_data() {
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<int>("scale");
    QTest::addColumn<double>("step");
    QTest::newRow("hidden log, step 64") << 64.0 << 65536.0 << int(SliderScale::log) << 64.0;
    QTest::newRow("tokens log") << 1e6 << 1e15 << int(SliderScale::log) << 0.0;
    QTest::newRow("layers linear") << 1.0 << 200.0 << int(SliderScale::linear) << 1.0;
    QTest::newRow("seq pow2") << 1.0 << 1048576.0 << int(SliderScale::pow2) << 0.0;
}

void TestSliderScale::roundTrip() {
    // A value a slider produced maps back onto a position that gives the same value (several
    // positions can round to one value), or onto the position beside it: reading the box back
    // never makes the thumb jump.
    QFETCH(double, min);
    QFETCH(double, max);
    QFETCH(int, scale);
    QFETCH(double, step);
    const SliderRange r{min, max, static_cast<SliderScale>(scale), step};
    for (int p = 0; p <= r.positions(); ++p) {
        const int back = r.positionOf(r.valueAt(p));
        QVERIFY2(r.valueAt(back) == r.valueAt(p) || std::abs(back - p) <= 1,
                 qPrintable(QStringLiteral("%1 -> %2").arg(p).arg(back)));
        if (r.scale == SliderScale::pow2) {
            QCOMPARE(back, p);
        }
    }
}

QTEST_GUILESS_MAIN(TestSliderScale)
#include "tst_ui_slider_scale.moc"
