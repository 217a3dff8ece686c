// The max-params solver: the seed's second question and its fp32 variant.
#include <QtTest>

#include "planner/hardware/hardware.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/training/plan.h"
#include "planner/training/solver.h"

using namespace tally;

class TestSolver : public QObject {
    Q_OBJECT

private slots:
    void seedQuestionTwo_data();
    void seedQuestionTwo();
    void shardingAcrossParallelism();
    void withActivationsFindsTheEdge();
};

void TestSolver::seedQuestionTwo_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("maxParams");
    // Seeds 000/003: bf16 params (2) + bf16 grads (2) + AdamW fp32 m and v (4 + 4) = 12 bytes;
    // 8 x 80e9 / 12 = 5.333e10.
    QTest::newRow("2+2+4+4 bytes") << "seed-max-params-adamw-8x80gb.json" << 8 * 80e9 / 12;
    // Seed 002: fp32 params, grads and two states, 4 + 4 + 4 + 4 = 16 bytes: 8 x 80e9 / 16 = 4e10.
    QTest::newRow("4+4+4+4 bytes") << "seed-max-params-fp32-8x80gb.json" << 4e10;
}

void TestSolver::seedQuestionTwo() {
    QFETCH(QString, file);
    QFETCH(double, maxParams);
    const PlanSpec s =
        load_plan_spec(std::string(TALLY_SOURCE_DIR "/resources/examples/") + file.toStdString());
    const MaxParamsResult r = solve_max_params(s, resolve_builtin_hardware(s));
    QVERIFY(!r.includes_activations);
    QVERIFY2(std::abs(r.max_params / maxParams - 1.0) < 1e-12,
             qPrintable(QString::number(r.max_params)));
}

void TestSolver::shardingAcrossParallelism() {
    // 16 GPUs as tp 2 x pp 2 x dp 4, ZeRO-1, bf16/bf16 + fp32 master + AdamW fp32 (2+2+4+8):
    // per GPU per parameter: (2 + 2 + (4 + 8)/4) / (2·2) = 7/4 = 1.75 bytes; 80e9 / 1.75
    // = 4.571e10.
    PlanSpec s;
    s.model.kind = ModelKind::params;
    s.model.params = 1e9;
    s.data.tokens = 1e9;
    s.cluster.gpus = 16;
    s.training.tp = 2;
    s.training.pp = 2;
    s.training.zero = 1;
    const MaxParamsResult r = solve_max_params(s, *find_builtin_hardware("h100-sxm"));
    QCOMPARE(r.bytes_per_param_per_gpu, 1.75);
    QCOMPARE(r.max_params, 80e9 / 1.75);
    // Evaluating a model of exactly that size fills the GPU.
    s.model.params = r.max_params;
    QVERIFY(std::abs(evaluate(s, *find_builtin_hardware("h100-sxm")).memory.total_bytes / 80e9 -
                     1) < 1e-12);
}

void TestSolver::withActivationsFindsTheEdge() {
    // Llama 2 7B's width on 8 H100 with ZeRO-3: the deepest model whose whole memory fits; one
    // layer more must not fit.
    PlanSpec s;
    s.model = find_model_preset("llama-2-7b")->model;
    s.data.tokens = 1e12;
    s.data.seq_len = 4096;
    s.cluster.gpus = 8;
    s.training.zero = 3;
    s.solver.include_activations = true;
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    const MaxParamsResult r = solve_max_params(s, hw);
    QVERIFY(r.includes_activations);
    QVERIFY(r.layers > 0);
    s.model.layers = r.layers;
    QVERIFY(evaluate(s, hw).memory.fits);
    QCOMPARE(r.max_params, count_params(s.model).total);
    s.model.layers = r.layers + 1;
    QVERIFY(!evaluate(s, hw).memory.fits);
}

QTEST_GUILESS_MAIN(TestSolver)
#include "tst_solver.moc"
