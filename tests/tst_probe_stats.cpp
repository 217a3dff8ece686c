// The probe's sampling statistics (gpu_probe/probe_stats.h): median and spread, the stop rule,
// and the measurement loop driven by a fake sampler and a fake clock. Expected values are worked
// out by hand in the comments.
#include <QtTest>

#include <vector>

#include "gpu_probe/probe_options.h"
#include "gpu_probe/probe_stats.h"

using namespace tally::probe;

Q_DECLARE_METATYPE(std::vector<double>)

class TestProbeStats : public QObject {
    Q_OBJECT

private slots:
    void summarize_data();
    void summarize();
    void shouldStop_data();
    void shouldStop();
    void measureStopsOnTimeLimit();
    void measureStopsOnNoise();
    void measureKeepsOneSampleWhenWarmupUsesTheTime();
    void criterionFromOptions();
};

void TestProbeStats::summarize_data() {
    QTest::addColumn<std::vector<double>>("samples");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("stdrel");
    // {3,1,2}: sorted 1,2,3 -> median 2; mean 2; deviations -1,0,1 -> s² = 2/2 = 1 -> s = 1;
    // stdrel = 1/2.
    QTest::newRow("odd count") << std::vector<double>{3, 1, 2} << 2.0 << 1.0 << 3.0 << 2.0 << 0.5;
    // {4,1,3,2}: median (2+3)/2 = 2.5; mean 2.5; deviations ±1.5, ±0.5 -> s² = (2.25+0.25+0.25+
    // 2.25)/3 = 5/3 -> s = 1.2909944; stdrel = 1.2909944/2.5 = 0.5163978.
    QTest::newRow("even count") << std::vector<double>{4, 1, 3, 2} << 2.5 << 1.0 << 4.0 << 2.5
                                << 0.5163977794943222;
    QTest::newRow("single sample has no spread")
        << std::vector<double>{5} << 5.0 << 5.0 << 5.0 << 5.0 << 0.0;
    QTest::newRow("identical samples")
        << std::vector<double>{0.25, 0.25, 0.25, 0.25} << 0.25 << 0.25 << 0.25 << 0.25 << 0.0;
    QTest::newRow("empty") << std::vector<double>{} << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
}

void TestProbeStats::summarize() {
    QFETCH(std::vector<double>, samples);
    QFETCH(double, median);
    QFETCH(double, min);
    QFETCH(double, max);
    QFETCH(double, mean);
    QFETCH(double, stdrel);
    const SampleSummary s = tally::probe::summarize(samples);
    QCOMPARE(s.samples, static_cast<int>(samples.size()));
    QCOMPARE(s.median_s, median);
    QCOMPARE(s.min_s, min);
    QCOMPARE(s.max_s, max);
    QCOMPARE(s.mean_s, mean);
    QVERIFY2(std::abs(s.stdrel - stdrel) < 1e-12, qPrintable(QString::number(s.stdrel, 'g', 17)));
}

void TestProbeStats::shouldStop_data() {
    QTest::addColumn<std::vector<double>>("samples");
    QTest::addColumn<double>("elapsed");
    QTest::addColumn<int>("reason");  // -1: keep sampling, else a StopReason
    // Criterion used below: min 3 samples, max 10, stdrel <= 0.1 with >= 1 s measured, 5 s limit.
    QTest::newRow("too few samples") << std::vector<double>{1, 1} << 2.0 << -1;
    QTest::newRow("quiet and long enough")
        << std::vector<double>{1, 1, 1} << 3.0 << static_cast<int>(StopReason::noise);
    // {1,2,3}: stdrel 0.5 (odd-count row above) > 0.1.
    QTest::newRow("noisy, keep going") << std::vector<double>{1, 2, 3} << 4.0 << -1;
    QTest::newRow("noisy, time is up")
        << std::vector<double>{1, 2, 3} << 5.0 << static_cast<int>(StopReason::time_limit);
    // Quiet but the samples add up to 0.3 s < 1 s of measured time.
    QTest::newRow("quiet but too short") << std::vector<double>{0.1, 0.1, 0.1} << 0.3 << -1;
    QTest::newRow("sample cap") << std::vector<double>{1, 2, 1, 2, 1, 2, 1, 2, 1, 2} << 4.0
                                << static_cast<int>(StopReason::max_samples);
    QTest::newRow("time is up but no sample yet") << std::vector<double>{} << 100.0 << -1;
}

void TestProbeStats::shouldStop() {
    QFETCH(std::vector<double>, samples);
    QFETCH(double, elapsed);
    QFETCH(int, reason);
    StopCriterion c;
    c.min_samples = 3;
    c.max_samples = 10;
    c.target_stdrel = 0.1;
    c.min_time_s = 1.0;
    c.time_limit_s = 5.0;
    const auto got = tally::probe::should_stop(samples, elapsed, c);
    if (reason < 0) {
        QVERIFY(!got.has_value());
    } else {
        QVERIFY(got.has_value());
        QCOMPARE(static_cast<int>(*got), reason);
    }
}

void TestProbeStats::measureStopsOnTimeLimit() {
    // The sampler "takes" 1.0, 1.5, 0.5, 1.0, 1.5, ... seconds (exact in binary) and the fake
    // clock advances by exactly that. Warm-up: 2 runs, 1.0 + 1.5 = 2.5 s. Samples then take
    // 0.5, 1.0, 1.5, 0.5, 1.0, 1.5, 0.5, 1.0: the clock reads 3.0, 4.0, 5.5, 6.0, 7.0, 8.5,
    // 9.0, 10.0 -> the 8th sample reaches the 10 s limit. Their stdrel stays near 0.4, far
    // above the 0.05 target. Sorted: 0.5 ×3, 1.0 ×3, 1.5 ×2 -> median (1.0+1.0)/2 = 1.0.
    const double pattern[] = {1.0, 1.5, 0.5};
    int calls = 0, prepared = 0;
    double clock = 0.0;
    StopCriterion c;
    c.warmup_runs = 2;
    c.min_samples = 5;
    c.max_samples = 1000;
    c.target_stdrel = 0.05;
    c.min_time_s = 0.0;
    c.time_limit_s = 10.0;
    MeasureHooks hooks;
    hooks.before_sample = [&] { ++prepared; };
    hooks.now_s = [&] { return clock; };
    const Measurement m = measure(
        [&] {
            const double t = pattern[calls++ % 3];
            clock += t;
            return t;
        },
        c, hooks);
    QCOMPARE(m.summary.samples, 8);
    QCOMPARE(calls, 10);     // 2 warm-up + 8 samples
    QCOMPARE(prepared, 10);  // before every run, warm-up included
    QVERIFY(m.stop_reason == StopReason::time_limit);
    QCOMPARE(m.elapsed_s, 10.0);
    QCOMPARE(m.summary.median_s, 1.0);
    QCOMPARE(m.summary.min_s, 0.5);
    QCOMPARE(m.summary.max_s, 1.5);
}

void TestProbeStats::measureStopsOnNoise() {
    // Every sample takes 0.25 s: stdrel 0 from the start, measured time reaches 0.5 s after 2
    // samples, but min_samples = 4 -> stops on noise after exactly 4 samples.
    double clock = 0.0;
    StopCriterion c;
    c.warmup_runs = 1;
    c.min_samples = 4;
    c.target_stdrel = 0.01;
    c.min_time_s = 0.5;
    c.time_limit_s = 100.0;
    MeasureHooks hooks;
    hooks.now_s = [&] { return clock; };
    const Measurement m = measure(
        [&] {
            clock += 0.25;
            return 0.25;
        },
        c, hooks);
    QCOMPARE(m.summary.samples, 4);
    QVERIFY(m.stop_reason == StopReason::noise);
    QCOMPARE(m.summary.median_s, 0.25);
    QCOMPARE(m.summary.stdrel, 0.0);
}

void TestProbeStats::measureKeepsOneSampleWhenWarmupUsesTheTime() {
    // A 3 s warm-up against a 1 s limit: the measurement still reports one real sample.
    double clock = 0.0;
    StopCriterion c;
    c.warmup_runs = 1;
    c.time_limit_s = 1.0;
    MeasureHooks hooks;
    hooks.now_s = [&] { return clock; };
    const Measurement m = measure(
        [&] {
            clock += 3.0;
            return 3.0;
        },
        c, hooks);
    QCOMPARE(m.summary.samples, 1);
    QVERIFY(m.stop_reason == StopReason::time_limit);
}

void TestProbeStats::criterionFromOptions() {
    Options quick;
    quick.quick = true;
    const StopCriterion q = stop_criterion(quick);
    const StopCriterion full = stop_criterion(Options{});
    // --quick must take fewer samples and less time than a full run.
    QVERIFY(q.min_samples < full.min_samples);
    QVERIFY(q.time_limit_s < full.time_limit_s);
    Options limited;
    limited.time_limit_s = 0.05;
    limited.target_stdrel = 0.2;
    const StopCriterion l = stop_criterion(limited);
    QCOMPARE(l.time_limit_s, 0.05);
    QCOMPARE(l.target_stdrel, 0.2);
    QVERIFY(l.min_time_s <= l.time_limit_s);
}

QTEST_GUILESS_MAIN(TestProbeStats)
#include "tst_probe_stats.moc"
