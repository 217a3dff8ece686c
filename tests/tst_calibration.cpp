// Calibration of the step-time model on a measured run: the fit (efficiency = predicted step /
// measured step), its application to every term of the step, the profile record and its JSON,
// what plans on a calibrated profile say, and the errors bad input gets. The arithmetic is
// worked out by hand in the comments; the model's own uncalibrated step is an input of the fit,
// never its expectation.
#include <QtTest>

#include <cmath>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/performance/calibration.h"
#include "planner/performance/training_log.h"
#include "planner/text/explain.h"
#include "planner/training/calibration_fit.h"
#include "planner/training/plan.h"
#include "tests/test_specs.h"

using namespace tally;

namespace {

bool close(double a, double b, double rel = 1e-12) {
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

const HardwareProfile& h100() {
    return *find_builtin_hardware("h100-sxm");
}

// Llama 3 8B on 64 H100, tp 2 x pp 4 x dp 8, 512 sequences of 8192 tokens per step.
PlanSpec run_spec() {
    PlanSpec s = test::llama3_8b_spec(64, 8192, 512);
    s.name = "8B pilot run";
    s.training.tp = 2;
    s.training.pp = 4;
    s.training.zero = 1;
    return s;
}

StepCalibration fit_at(double measured_step_s) {
    return fit_calibration(run_spec(), h100(), measured_step_s, "--step-s", "entered",
                           "2026-12-02");
}

}  // namespace

class TestCalibration : public QObject {
    Q_OBJECT

private slots:
    void applyDividesEveryTerm();
    void uncalibratedProfileIsUntouched();
    void fitGivesTheMeasuredStepBack();
    void otherSpecsMoveByTheSameFactor();
    void calibratingACalibratedProfileSetsItsOwnAside();
    void tokensPerSecondToStep();
    void badMeasuredSteps_data();
    void badMeasuredSteps();
    void assumedMfuIsRefused();
    void farOffStepIsRefused();
    void stepFasterThanThePeakIsRefused();
    void profileJsonRoundTrips();
    void badCalibrationJson_data();
    void badCalibrationJson();
    void calibrationOfAnotherEngineIsSaid();
    void planJsonAndExplanationSaySo();
    void defaultIdsAndCopies();
};

void TestCalibration::applyDividesEveryTerm() {
    PerformanceBreakdown b;
    b.compute_s = 2.0;
    b.memory_bound_s = 0.5;
    b.tp_comm_s = 0.25;
    b.pp_bubble_s = 0.25;
    b.step_s = 3.0;  // 2 + 0.5 + 0.25 + 0.25
    b.dp_comm_s = 1.0;
    b.microbatch_s = 0.125;
    HardwareProfile hw = h100();
    StepCalibration c;
    c.efficiency = 0.75;  // the model was 4/3 too fast
    c.measured_step_s = 4.0;
    c.predicted_step_s = 3.0;
    hw.calibration = c;
    apply_calibration(b, hw);
    // Each time / 0.75: 2 -> 8/3, 0.5 -> 2/3, 0.25 -> 1/3, step 3 -> 4, DP 1 -> 4/3,
    // micro-batch 0.125 -> 1/6; the terms still add up: 8/3 + 2/3 + 1/3 + 1/3 = 4.
    QVERIFY(close(b.compute_s, 8.0 / 3.0));
    QVERIFY(close(b.memory_bound_s, 2.0 / 3.0));
    QVERIFY(close(b.tp_comm_s, 1.0 / 3.0));
    QVERIFY(close(b.pp_bubble_s, 1.0 / 3.0));
    QVERIFY(close(b.step_s, 4.0));
    QVERIFY(close(b.dp_comm_s, 4.0 / 3.0));
    QVERIFY(close(b.microbatch_s, 1.0 / 6.0));
    QVERIFY(close(b.compute_s + b.memory_bound_s + b.tp_comm_s + b.pp_bubble_s, b.step_s));
    QCOMPARE(b.uncalibrated_step_s, 3.0);
    QCOMPARE(b.calibration_efficiency, 0.75);
}

void TestCalibration::uncalibratedProfileIsUntouched() {
    PerformanceBreakdown b;
    b.compute_s = 2.0;
    b.step_s = 2.0;
    apply_calibration(b, h100());
    QCOMPARE(b.step_s, 2.0);
    QCOMPARE(b.compute_s, 2.0);
    QCOMPARE(b.uncalibrated_step_s, 2.0);
    QCOMPARE(b.calibration_efficiency, 1.0);
}

void TestCalibration::fitGivesTheMeasuredStepBack() {
    const PlanSpec s = run_spec();
    const Plan bare = evaluate(s, h100());
    const double predicted = bare.performance.step_s;
    QVERIFY(predicted > 0.0);
    // The run measured a step 25% longer than predicted: efficiency = P / (1.25 P) = 0.8.
    const StepCalibration c = fit_at(1.25 * predicted);
    QVERIFY(close(c.efficiency, 0.8));
    QCOMPARE(c.predicted_step_s, predicted);
    QCOMPARE(c.measured_step_s, 1.25 * predicted);
    QCOMPARE(c.base_profile, std::string("h100-sxm"));
    QCOMPARE(c.spec_name, std::string("8B pilot run"));
    QCOMPARE(c.measured_on, std::string("2026-12-02"));

    HardwareProfile calibrated = h100();
    calibrated.calibration = c;
    const Plan p = evaluate(s, calibrated);
    // The calibrating spec: P / 0.8 = 1.25 P, the measured step; tokens/s and MFU x 0.8;
    // the training time (steps x step) x 1.25.
    QVERIFY(close(p.performance.step_s, 1.25 * predicted));
    QVERIFY(close(p.performance.uncalibrated_step_s, predicted));
    QVERIFY(close(p.performance.tokens_per_s, 0.8 * bare.performance.tokens_per_s));
    QVERIFY(close(p.performance.mfu, 0.8 * bare.performance.mfu));
    QVERIFY(close(p.time.seconds, 1.25 * bare.time.seconds));
    QVERIFY(close(p.time.days, 1.25 * bare.time.days));
    const PerformanceBreakdown& f = p.performance;
    QVERIFY(close(f.compute_s + f.recompute_s + f.memory_bound_s + f.tp_comm_s + f.pp_comm_s +
                      f.pp_bubble_s + f.dp_comm_exposed_s + f.ep_comm_s + f.cp_comm_s +
                      f.overhead_s + f.comm_contention_s + f.offload_s + f.optimizer_s,
                  f.step_s, 1e-12));
}

void TestCalibration::otherSpecsMoveByTheSameFactor() {
    const double predicted = evaluate(run_spec(), h100()).performance.step_s;
    HardwareProfile calibrated = h100();
    calibrated.calibration = fit_at(2.0 * predicted);  // efficiency 1/2
    // Another layout and batch on the calibrated profile: its own prediction Q, calibrated Q / 0.5.
    PlanSpec other = run_spec();
    other.training.tp = 4;
    other.training.pp = 2;
    other.data.global_batch = 1024;
    QVERIFY(!check(other, calibrated));
    const double q = evaluate(other, h100()).performance.step_s;
    QVERIFY(close(evaluate(other, calibrated).performance.step_s, 2.0 * q));
}

void TestCalibration::calibratingACalibratedProfileSetsItsOwnAside() {
    const double predicted = evaluate(run_spec(), h100()).performance.step_s;
    HardwareProfile calibrated = h100();
    calibrated.id = "h100-sxm-calibrated";
    calibrated.calibration = fit_at(2.0 * predicted);
    // Calibrated again from a step of 1.6 P: the fit predicts on the bare figures (P, not 2P),
    // so the efficiency is P / 1.6 P = 0.625 and it keeps naming the part it was fitted on.
    const StepCalibration again = fit_calibration(run_spec(), calibrated, 1.6 * predicted,
                                                  "--step-s", "entered", "2026-12-03");
    QVERIFY(close(again.efficiency, 0.625));
    QCOMPARE(again.base_profile, std::string("h100-sxm"));
}

void TestCalibration::tokensPerSecondToStep() {
    // 512 sequences x 8192 tokens = 4,194,304 tokens per step over 64 GPUs = 65,536 tokens per
    // GPU; at 5,120 tokens/s per GPU one step is 65,536 / 5,120 = 12.8 s.
    TrainingLogSummary log;
    log.format = TrainingLogFormat::torchtitan;
    log.median = 5120.0;
    QVERIFY(close(measured_step_from_log(log, run_spec(), h100()), 12.8));
    // A step-time log is taken as it is.
    log.format = TrainingLogFormat::megatron;
    log.median = 9.5;
    QCOMPARE(measured_step_from_log(log, run_spec(), h100()), 9.5);
}

void TestCalibration::badMeasuredSteps_data() {
    QTest::addColumn<double>("step");
    QTest::newRow("zero") << 0.0;
    QTest::newRow("negative") << -3.0;
    QTest::newRow("nan") << std::nan("");
    QTest::newRow("infinite") << HUGE_VAL;
    QTest::newRow("above 1e9") << 2e9;
}

void TestCalibration::badMeasuredSteps() {
    QFETCH(double, step);
    try {
        fit_at(step);
        QFAIL("a bad measured step was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("--step-s"));
        QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("seconds")));
    }
}

void TestCalibration::assumedMfuIsRefused() {
    PlanSpec s = run_spec();
    s.cluster.mfu_predicted = false;
    s.cluster.mfu = 0.4;
    try {
        fit_calibration(s, h100(), 10.0, "--step-s", "", "");
        QFAIL("a spec with an assumed MFU was calibrated");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("cluster.mfu"));
        QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("predicted")));
    }
}

void TestCalibration::farOffStepIsRefused() {
    const double predicted = evaluate(run_spec(), h100()).performance.step_s;
    // A step in milliseconds entered as seconds: 1000 x the prediction, efficiency 0.001.
    try {
        fit_at(1000.0 * predicted);
        QFAIL("a step 1000 times the prediction was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("--step-s"));
        QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("[0.01, 100]")));
    }
    // 99x is inside the bounds: efficiency 1/99.
    QVERIFY(close(fit_at(99.0 * predicted).efficiency, 1.0 / 99.0));
}

// A measured step shorter than the hardware can run the spec's FLOPs in is refused: it would
// put every plan on the profile past the part's peak. Llama 3 8B has N = 8,030,261,248
// parameters (embedding and head 2 x 128256 x 4096 = 1,050,673,152; 32 layers of 4096^2 x 2
// + 2 x 4096 x 1024 + 3 x 4096 x 14336 + 2 x 4096 = 218,112,000; the final norm 4096); a step
// of 512 x 8192 = 4,194,304 tokens is 6 N x tokens = 2.02088e17 FLOPs (CS336 lecture 2's 6N,
// Tally's default; no recomputation), which 64 H100 at the dense bf16 peak of 989.5 TFLOP/s
// run in 2.02088e17 / (64 x 9.895e14) = 3.1911 s.
void TestCalibration::stepFasterThanThePeakIsRefused() {
    PlanSpec spec = run_spec();
    spec.training.recompute = Recompute::none;
    const double fastest_s = 6.0 * 8030261248.0 * 512.0 * 8192.0 / (64.0 * 9.895e14);
    const auto fit = [&](double step_s) {
        return fit_calibration(spec, h100(), step_s, "--step-s", "entered", "2026-12-02");
    };
    try {
        fit(0.99 * fastest_s);
        QFAIL("a step faster than the part's peak was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("--step-s"));
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("at least 3.191 s")),
                 e.what());
    }
    // Just slower than the peak: accepted, an HFU just under 1.
    const StepCalibration c = fit(1.01 * fastest_s);
    QVERIFY(close(c.measured_step_s, 1.01 * fastest_s));
    // But doubtful: HFU 1 / 1.01 = 0.990 is above the H100's best published bf16 GEMM, 0.806
    // of its peak (efficiency.h). At fastest / 0.8 (HFU 0.8) nothing is doubtful.
    const std::optional<Text> doubt = calibration_doubt(spec, h100(), c);
    QVERIFY(doubt.has_value());
    QVERIFY2(QString::fromStdString(doubt->english()).contains(QStringLiteral("HFU 0.990")),
             doubt->english().c_str());
    QVERIFY(QString::fromStdString(doubt->english()).contains(QStringLiteral("0.806")));
    QVERIFY(!calibration_doubt(spec, h100(), fit(fastest_s / 0.8)).has_value());
}

void TestCalibration::profileJsonRoundTrips() {
    HardwareProfile p = h100();
    p.id = "h100-sxm-calibrated";
    p.kind = ProfileKind::custom;
    StepCalibration c;
    c.efficiency = 0.8;
    c.measured_step_s = 12.5;
    c.predicted_step_s = 10.0;
    c.measured_on = "2026-12-02";
    c.source = "Megatron-LM log run.log: median of 48 step times";
    c.spec_name = "8B pilot run";
    c.base_profile = "h100-sxm";
    c.engine = Engine::fsdp_compile;
    p.calibration = c;
    const nlohmann::json j = to_json(p);
    QCOMPARE(j["calibration"]["engine"].get<std::string>(), std::string("fsdp_compile"));
    QCOMPARE(j["calibration"]["efficiency"].get<double>(), 0.8);
    const HardwareProfile back = hardware_from_json(j, "profile");
    QVERIFY(back.calibration);
    QVERIFY(*back.calibration == c);
    // A profile without one writes no key.
    QVERIFY(!to_json(h100()).contains("calibration"));
}

void TestCalibration::badCalibrationJson_data() {
    QTest::addColumn<QString>("calibration");
    QTest::addColumn<QString>("field");
    QTest::newRow("not an object") << QStringLiteral("3") << QStringLiteral("p.calibration");
    QTest::newRow("no efficiency")
        << QStringLiteral(R"({"measured_step_s": 2, "predicted_step_s": 1})")
        << QStringLiteral("p.calibration.efficiency");
    QTest::newRow("efficiency 0")
        << QStringLiteral(R"({"efficiency": 0, "measured_step_s": 2, "predicted_step_s": 1})")
        << QStringLiteral("p.calibration.efficiency");
    QTest::newRow("efficiency 1000")
        << QStringLiteral(
               R"({"efficiency": 1000, "measured_step_s": 0.001, "predicted_step_s": 1})")
        << QStringLiteral("p.calibration.efficiency");
    // 1 / 2 = 0.5, not the 0.6 given: the record contradicts itself.
    QTest::newRow("disagrees")
        << QStringLiteral(R"({"efficiency": 0.6, "measured_step_s": 2, "predicted_step_s": 1})")
        << QStringLiteral("p.calibration.efficiency");
    QTest::newRow("measured 0")
        << QStringLiteral(R"({"efficiency": 0.5, "measured_step_s": 0, "predicted_step_s": 1})")
        << QStringLiteral("p.calibration.measured_step_s");
    QTest::newRow("engine unknown")
        << QStringLiteral(
               R"({"efficiency": 0.5, "measured_step_s": 2, "predicted_step_s": 1, "engine": "jax"})")
        << QStringLiteral("p.calibration.engine");
    QTest::newRow("source a number")
        << QStringLiteral(
               R"({"efficiency": 0.5, "measured_step_s": 2, "predicted_step_s": 1, "source": 4})")
        << QStringLiteral("p.calibration.source");
}

void TestCalibration::badCalibrationJson() {
    QFETCH(QString, calibration);
    QFETCH(QString, field);
    nlohmann::json j = to_json(h100());
    j["calibration"] = nlohmann::json::parse(calibration.toStdString());
    try {
        hardware_from_json(j, "p");
        QFAIL("a bad calibration was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
    }
}

// The fit records the engine the run was made with; a plan of another engine on the profile is
// warned that the efficiency is the other software's, one of the same engine is not, and a
// calibration stored before engines were recorded warns nobody.
void TestCalibration::calibrationOfAnotherEngineIsSaid() {
    const PlanSpec s = run_spec();  // Megatron-Core, the default engine
    const double predicted = evaluate(s, h100()).performance.step_s;
    HardwareProfile hw = h100();
    hw.calibration = fit_at(1.25 * predicted);
    QCOMPARE(hw.calibration->engine, std::optional<Engine>(Engine::megatron));
    QVERIFY(!evaluate(s, hw).has(Warning::calibration_other_engine));
    PlanSpec fsdp = s;
    fsdp.training.engine = Engine::fsdp;
    const Plan p = evaluate(fsdp, hw);
    QVERIFY(p.has(Warning::calibration_other_engine));
    const std::vector<std::string> messages = warning_messages(p, fsdp, hw);
    QVERIFY(std::any_of(messages.begin(), messages.end(), [](const std::string& m) {
        return m.find(
                   "fitted on a run of Megatron-Core + Transformer Engine and this plan runs "
                   "PyTorch FSDP (eager)") != std::string::npos;
    }));
    hw.calibration->engine.reset();
    QVERIFY(!evaluate(fsdp, hw).has(Warning::calibration_other_engine));
    // An efficiency that takes this plan past the peak (HFU > 1, the predicted step 10 times
    // shorter) blames the calibration, not an MFU the plan does not assume.
    hw.calibration->efficiency = 10.0;
    const Plan fast = evaluate(s, hw);
    QVERIFY(fast.time.hfu > 1.0);
    const std::vector<std::string> said = warning_messages(fast, s, hw);
    QVERIFY(std::any_of(said.begin(), said.end(), [](const std::string& m) {
        return m.starts_with("the calibrated step puts the hardware at ");
    }));
}

void TestCalibration::planJsonAndExplanationSaySo() {
    const PlanSpec s = run_spec();
    const double predicted = evaluate(s, h100()).performance.step_s;
    HardwareProfile hw = h100();
    hw.calibration = fit_at(1.25 * predicted);
    hw.calibration->source = "Megatron-LM log run.log: median of 48 step times";
    const Plan p = evaluate(s, hw);
    const nlohmann::json j = to_json(p, s, hw);
    const std::string note = j["time"]["calibration"].get<std::string>();
    QVERIFY(note.starts_with("calibrated from a measured step of "));
    QVERIFY(note.find("(2026-12-02 / Megatron-LM log run.log") != std::string::npos);
    QVERIFY(close(j["performance"]["calibration"]["efficiency"].get<double>(), 0.8));
    QVERIFY(close(j["performance"]["step_s"].get<double>(), 1.25 * predicted));
    QVERIFY(close(j["performance"]["calibration"]["uncalibrated_step_s"].get<double>(), predicted));
    bool explained = false;
    for (const Explanation& e : explain(s, hw, p)) {
        if (e.key == "performance.compute_s" || e.key == "time.days") {
            QVERIFY2(e.source.find(note) != std::string::npos, e.key.c_str());
        }
        if (e.key == "performance.calibration_efficiency") {
            explained = true;
            QVERIFY(close(e.value, 0.8));
        }
    }
    QVERIFY(explained);
    // Without a calibration: null, and no such explanation.
    const nlohmann::json plain = to_json(evaluate(s, h100()), s, h100());
    QVERIFY(plain["time"]["calibration"].is_null());
    QVERIFY(plain["performance"]["calibration"].is_null());
}

void TestCalibration::defaultIdsAndCopies() {
    QCOMPARE(default_calibrated_id(h100()), std::string("h100-sxm-calibrated"));
    QCOMPARE(default_calibrated_name(h100()), h100().name + " (calibrated)");
    StepCalibration c = fit_at(evaluate(run_spec(), h100()).performance.step_s);
    const HardwareProfile copy =
        calibrated_profile(h100(), c, "h100-sxm-calibrated", "H100 (calibrated)");
    QCOMPARE(copy.kind, ProfileKind::custom);
    QCOMPARE(copy.peak(ComputeType::bf16), h100().peak(ComputeType::bf16));
    QVERIFY(copy.calibration && *copy.calibration == c);
    // A calibrated profile is calibrated again in place, under its own id and name.
    QCOMPARE(default_calibrated_id(copy), std::string("h100-sxm-calibrated"));
    QCOMPARE(default_calibrated_name(copy), std::string("H100 (calibrated)"));
    c.efficiency = 0.9;
    const HardwareProfile again = calibrated_profile(copy, c, copy.id, copy.name);
    QCOMPARE(again.sources, copy.sources);
    QCOMPARE(again.calibration->efficiency, 0.9);
}

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
