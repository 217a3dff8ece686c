// Sweeps: a chart's curve must pass through the plan it is drawn for. The point at the spec's own
// value of the swept variable is the plan itself, for every variable and every kind of layout.
#include <QtTest>

#include <cmath>
#include <string>

#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/training/plan.h"
#include "planner/training/sweep.h"

using namespace tally;

Q_DECLARE_METATYPE(tally::SweepVariable)

namespace {

PlanSpec example(const char* name) {
    return load_plan_spec(std::string(TALLY_SOURCE_DIR "/resources/examples/") + name);
}

// Llama 2 70B on 2048 H100: tp 8, pp 4, ZeRO-1, selective recomputation, sequence parallel,
// global batch 1024, micro-batch 4 (the layout whose marker sat off its curve).
PlanSpec llama70bMicro4() {
    PlanSpec spec = example("llama-2-70b-2048-h100.json");
    spec.data.micro_batch = 4;
    return spec;
}

}  // namespace

class TestSweep : public QObject {
    Q_OBJECT
private slots:
    void pointAtSpecIsThePlan_data();
    void pointAtSpecIsThePlan();
    void microBatchSweepKeepsTheSchedule();
};

void TestSweep::pointAtSpecIsThePlan_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<SweepVariable>("variable");
    const QStringList specs{
        QStringLiteral("llama-2-70b pp4 micro 4"), QStringLiteral("seed-70b-15t-1024-h100.json"),
        QStringLiteral("lecture-mlp.json"), QStringLiteral("deepseek-v3-h800.json")};
    for (const QString& spec : specs) {
        for (SweepVariable v : {SweepVariable::micro_batch, SweepVariable::seq_len,
                                SweepVariable::layers, SweepVariable::gpus}) {
            QTest::addRow("%s, %s", qPrintable(spec), std::string(to_string(v)).c_str())
                << spec << v;
        }
    }
}

void TestSweep::pointAtSpecIsThePlan() {
    QFETCH(QString, spec);
    QFETCH(SweepVariable, variable);
    const PlanSpec s = spec.startsWith(QStringLiteral("llama"))
                           ? llama70bMicro4()
                           : example(spec.toStdString().c_str());
    const HardwareProfile& hw = resolve_builtin_hardware(s);
    QVERIFY(!check(s, hw).has_value());
    const Plan plan = evaluate(s, hw);
    const double x = sweep_value(s, variable);
    const auto points = sweep(s, hw, variable, {x / 2, x, x * 2});
    QCOMPARE(points.size(), std::size_t{3});
    QCOMPARE(points[1].x, x);
    QVERIFY(points[1].valid);
    QCOMPARE(points[1].plan.memory.total_bytes, plan.memory.total_bytes);
    QCOMPARE(points[1].plan.memory.activations_bytes, plan.memory.activations_bytes);
    QCOMPARE(points[1].plan.time.seconds, plan.time.seconds);
}

void TestSweep::microBatchSweepKeepsTheSchedule() {
    const PlanSpec s = llama70bMicro4();
    const HardwareProfile& hw = resolve_builtin_hardware(s);
    const auto points = sweep(s, hw, SweepVariable::micro_batch, {1, 4, 16, 32});
    // dp = 2048 / (tp 8 x pp 4) = 64. The global batch 1024 is kept:
    //   micro 1:  1024 / (1 x 64)  = 16 accumulation steps, in flight min(pp 4, 16) = 4
    //   micro 4:  1024 / (4 x 64)  = 4 steps,               in flight min(4, 4)     = 4
    //   micro 16: 1024 / (16 x 64) = 1 step,                in flight min(4, 1)     = 1
    //   micro 32: 32 x 64 = 2048 does not divide 1024: no such plan.
    QVERIFY(points[0].valid && points[1].valid && points[2].valid);
    QVERIFY(!points[3].valid);
    QCOMPARE(points[0].plan.memory.activations.microbatches_in_flight, 4.0);
    QCOMPARE(points[1].plan.memory.activations.microbatches_in_flight, 4.0);
    QCOMPARE(points[2].plan.memory.activations.microbatches_in_flight, 1.0);
    QCOMPARE(points[1].plan.parallel.grad_accum_steps, std::int64_t{4});
    // Four micro-batches of 4 sequences in flight store 4x the activations of four of 1.
    const double ratio = points[1].plan.memory.activations.stored_bytes /
                         points[0].plan.memory.activations.stored_bytes;
    QVERIFY2(std::abs(ratio - 4.0) < 1e-9, qPrintable(QString::number(ratio)));
}

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
