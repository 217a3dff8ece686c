// What the desktop app draws, computed by the planner (planner/text/plan_views.h): checked against
// evaluate() on the same spec and against the seed's figures by hand.
#include <QtTest>
#include <cmath>

#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/text/plan_views.h"

using namespace tally;

class TestPlanViews : public QObject {
    Q_OBJECT

private slots:
    void sqrtCheckpointingSaysItsShare();
    void stepMarkIsTheSumOfItsOperations();
    void optimizerUpdateNamesItsOwnKernel();
    void seedPlanDays();
    void zeroVariantsAreEvaluateAtEachStage();
    void sweepValuesHoldTheSpecsOwn_data();
    void sweepValuesHoldTheSpecsOwn();
    void memorySweepMatchesEvaluate();
    void seedOperationsIntensities();
    void rooflineHasPhasesAndUserOps();
    void badUserOpIsReportedNotThrown();
    void opWithoutAPeakIsReportedNotDrawn();
};

namespace {

PlanSpec llama() {
    PlanSpec s = default_plan_spec();
    s.model = find_model_preset("llama-2-70b")->model;
    s.data.seq_len = 4096;
    s.training.tp = 8;
    s.training.pp = 4;
    s.training.zero = 1;
    s.training.sequence_parallel = true;
    return s;
}

}  // namespace

void TestPlanViews::seedPlanDays() {
    // CS336 lecture 2: 6 x 70e9 x 15e12 / (989.5e12 x 0.5 x 1024 x 86400) = 143.93 days.
    const PlanSpec spec = default_plan_spec();
    const PlanViews v =
        compute_plan_views(spec, resolve_builtin_hardware(spec), SweepVariable::micro_batch);
    const double expected = 6.0 * 70e9 * 15e12 / (989.5e12 * 0.5 * 1024 * 86400);
    QVERIFY(std::abs(v.plan.time.days - expected) < 1e-9 * expected);
    QVERIFY(std::abs(v.plan.time.days - 143.9) < 0.05);
    QVERIFY(v.explanation("time.days") != nullptr);
    QVERIFY(v.explanation("no.such.key") == nullptr);
}

// The optimizer update names the kernel it times: Adam's FusedAdam for AdamW, but AdaGrad's one
// pass over its state (the lecture's MLP example trains with AdaGrad) names no Adam kernel.
void TestPlanViews::optimizerUpdateNamesItsOwnKernel() {
    PlanSpec spec = load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/lecture-mlp.json");
    QVERIFY(spec.training.optimizer == Optimizer::adagrad);
    spec.cluster.mfu_predicted = true;
    const auto substitution = [](const PlanSpec& s) {
        const PlanViews v =
            compute_plan_views(s, resolve_builtin_hardware(s), SweepVariable::micro_batch);
        const Explanation* e = v.explanation("performance.optimizer_s");
        return e ? e->substitution : std::string();
    };
    const std::string adagrad = substitution(spec);
    QVERIFY2(adagrad.find("one pass over the optimizer state") != std::string::npos,
             adagrad.c_str());
    QVERIFY2(adagrad.find("FusedAdam") == std::string::npos, adagrad.c_str());
    const PlanViews views =
        compute_plan_views(spec, resolve_builtin_hardware(spec), SweepVariable::micro_batch);
    QVERIFY(views.explanation("performance.optimizer_s")->source.find("FusedAdam") ==
            std::string::npos);
    spec.training.optimizer = Optimizer::adamw;
    QVERIFY(substitution(spec).find("FusedAdam") != std::string::npos);
}

// A step's mark is timed as tally roofline times the step: the sum over its operations of
// count x seconds, each at its own roof (max(FLOPs / peak, bytes / bandwidth), CS336 lecture 2),
// not its total FLOPs at the roof of its average intensity, which would hide the memory-bound
// operations' time. Its FLOP/s are then at or below the roof at its intensity.
void TestPlanViews::stepMarkIsTheSumOfItsOperations() {
    const PlanSpec spec = load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/roofline-seed.json");
    const RooflineView view = roofline_view(spec, resolve_builtin_hardware(spec));
    int steps = 0;
    for (const RooflineMark& step : view.marks) {
        if (!step.aggregate || step.group == RooflineGroup::seed ||
            step.group == RooflineGroup::user) {
            continue;
        }
        ++steps;
        double seconds = 0.0;
        for (const RooflineMark& op : view.marks) {
            if (!op.aggregate && op.group == step.group) {
                const RooflinePoint alone = place(op.roof, op.cost.flops, op.cost.bytes());
                seconds += op.count * std::max(alone.compute_seconds, alone.memory_seconds);
            }
        }
        QVERIFY(std::abs(step.point.seconds / seconds - 1.0) < 1e-12);
        const RooflinePoint at_roof = place(step.roof, step.cost.flops, step.cost.bytes());
        QVERIFY(step.point.attainable_flops_per_s <= at_roof.attainable_flops_per_s * (1 + 1e-12));
        QVERIFY(step.point.seconds >= at_roof.seconds * (1 - 1e-12));
    }
    QCOMPARE(steps, 3);  // training, prefill, decode
}

// The lecture's MLP (D = 2048, 16 layers, B = 1024, fp32 activations) with sqrt checkpointing
// keeps one layer's activations in every segment of sqrt(16) = 4 layers: 4 of 16, so a layer's
// share is 4 x 1024 x 2048 x 4 / 16 = 2,097,152 bytes, and the formula says it is a share.
void TestPlanViews::sqrtCheckpointingSaysItsShare() {
    PlanSpec spec = load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/lecture-mlp.json");
    spec.training.recompute = Recompute::sqrt;
    const PlanViews v =
        compute_plan_views(spec, resolve_builtin_hardware(spec), SweepVariable::micro_batch);
    const Explanation* e = v.explanation("memory.activations_bytes");
    QVERIFY(e);
    QVERIFY2(e->formula.find("kept layers / layers") != std::string::npos, e->formula.c_str());
    QCOMPARE(v.plan.memory.activations.per_layer_bytes, 4.0 * 1024 * 2048 * 4 / 16);
}

void TestPlanViews::zeroVariantsAreEvaluateAtEachStage() {
    const PlanSpec spec = llama();
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    const PlanViews v = compute_plan_views(spec, hw, SweepVariable::micro_batch);
    for (int stage = 0; stage < 4; ++stage) {
        PlanSpec s = spec;
        s.training.zero = stage;
        const MemoryBreakdown expected = evaluate(s, hw).memory;
        const ZeroVariant& z = v.zero_variants[static_cast<std::size_t>(stage)];
        QCOMPARE(z.stage, stage);
        QVERIFY(z.valid);
        QCOMPARE(z.memory.total_bytes, expected.total_bytes);
        QCOMPARE(z.memory.optimizer_bytes, expected.optimizer_bytes);
    }
    // The plan's own stage is the plan.
    QCOMPARE(v.zero_variants[1].memory.total_bytes, v.plan.memory.total_bytes);
}

void TestPlanViews::sweepValuesHoldTheSpecsOwn_data() {
    QTest::addColumn<int>("variable");
    QTest::addColumn<double>("own");
    QTest::newRow("micro batch 3 (not a power of two)") << int(SweepVariable::micro_batch) << 3.0;
    QTest::newRow("seq len 4096") << int(SweepVariable::seq_len) << 4096.0;
    QTest::newRow("layers 80") << int(SweepVariable::layers) << 80.0;
    QTest::newRow("gpus 2048") << int(SweepVariable::gpus) << 2048.0;
    QTest::newRow("gpus 1000 (not tp x pp x 2^k)") << int(SweepVariable::gpus) << 1000.0;
}

void TestPlanViews::sweepValuesHoldTheSpecsOwn() {
    QFETCH(int, variable);
    QFETCH(double, own);
    PlanSpec spec = llama();
    const auto v = static_cast<SweepVariable>(variable);
    switch (v) {
        case SweepVariable::micro_batch:
            spec.data.micro_batch = std::llround(own);
            break;
        case SweepVariable::seq_len:
            spec.data.seq_len = std::llround(own);
            break;
        case SweepVariable::layers:
            spec.model.layers = std::llround(own);
            break;
        case SweepVariable::gpus:
            spec.cluster.gpus = std::llround(own);
            break;
    }
    QCOMPARE(sweep_value(spec, v), own);
    const std::vector<double> xs = sweep_values(spec, v);
    QVERIFY(std::find(xs.begin(), xs.end(), own) != xs.end());
    QVERIFY(std::is_sorted(xs.begin(), xs.end()));
    QVERIFY(xs.size() >= 8);
    if (v == SweepVariable::layers) {
        // Whole pipeline stages: every layer count a multiple of pp = 4 (but the spec's own).
        for (double x : xs) {
            QVERIFY(x == own || std::fmod(x, 4.0) == 0.0);
        }
    }
    if (v == SweepVariable::gpus) {
        // tp x pp = 32 GPUs hold one model replica: the sweep starts there.
        QCOMPARE(xs.front(), 32.0);
    }
}

void TestPlanViews::memorySweepMatchesEvaluate() {
    const PlanSpec spec = llama();
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    const PlanViews v = compute_plan_views(spec, hw, SweepVariable::seq_len);
    QCOMPARE(v.memory_variable, SweepVariable::seq_len);
    QVERIFY(!v.memory_sweep.empty());
    for (const SweepPoint& p : v.memory_sweep) {
        PlanSpec s = spec;
        s.data.seq_len = std::llround(p.x);
        QCOMPARE(p.valid, !check(s, hw).has_value());
        if (p.valid) {
            QCOMPARE(p.plan.memory.total_bytes, evaluate(s, hw).memory.total_bytes);
        }
    }
}

void TestPlanViews::seedOperationsIntensities() {
    // CS336 lecture 2 (seed 003): ReLU 0.25, GELU 5, dot ~0.5, matvec ~1, matmul 1024 ~341.
    const std::vector<OpCost> ops = seed_operations();
    QCOMPARE(ops.size(), std::size_t{5});
    QCOMPARE(ops[0].intensity(), 0.25);                  // 1e6 / (2e6 + 2e6)
    QCOMPARE(ops[1].intensity(), 5.0);                   // 20e6 / 4e6
    QVERIFY(std::abs(ops[2].intensity() - 0.5) < 1e-6);  // 2e6 / (4e6 + 2)
    // 2 x 1024^2 / (2 x 1024^2 + 4 x 1024) = 0.99805
    QVERIFY(std::abs(ops[3].intensity() - 2.0 * 1024 * 1024 / (2.0 * 1024 * 1024 + 4.0 * 1024)) <
            1e-12);
    QVERIFY(std::abs(ops[4].intensity() - 1024.0 / 3.0) < 1e-9);
}

void TestPlanViews::rooflineHasPhasesAndUserOps() {
    PlanSpec spec = llama();
    OpSpec op;
    op.kind = OpKind::matmul;
    op.m = op.k = op.n = 4096;
    op.name = "big matmul";
    spec.ops.push_back(op);
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    const RooflineView r = roofline_view(spec, hw);
    QCOMPARE(r.roofs.size(), r.roof_lines.size());
    QCOMPARE(r.primary, ComputeType::bf16);
    int steps = 0, layerOps = 0, users = 0, seeds = 0;
    for (const RooflineMark& m : r.marks) {
        if (m.group == RooflineGroup::seed) {
            ++seeds;
        } else if (m.group == RooflineGroup::user) {
            ++users;
            QCOMPARE(m.label, std::string("big matmul"));
            QCOMPARE(m.op_index, 0);
            // 4096^3 bf16 matmul: intensity 4096/3 = 1365 > ridge 295: compute-bound at peak.
            QCOMPARE(m.point.bound, Bound::compute);
            QCOMPARE(m.point.attainable_flops_per_s, 989.5e12);
        } else if (m.aggregate) {
            ++steps;
        } else {
            ++layerOps;
        }
        QVERIFY(m.cost.intensity() >= r.range.min_flops_per_byte);
        QVERIFY(m.cost.intensity() <= r.range.max_flops_per_byte);
    }
    QCOMPARE(seeds, 5);
    QCOMPARE(users, 1);
    QCOMPARE(steps, 3);  // training, prefill, decode
    QVERIFY(layerOps > 10);
    // Lecture 2: decode reads the weights for every token, so its step is memory-bound; a
    // training step of 4096-token sequences is compute-bound.
    for (const RooflineMark& m : r.marks) {
        if (m.aggregate && m.group == RooflineGroup::decode) {
            QCOMPARE(m.point.bound, Bound::memory);
        }
        if (m.aggregate && m.group == RooflineGroup::training) {
            QCOMPARE(m.point.bound, Bound::compute);
        }
    }
}

void TestPlanViews::badUserOpIsReportedNotThrown() {
    PlanSpec spec = llama();
    OpSpec op;
    op.kind = OpKind::einsum;
    op.expr = "a b, b c -> a c";
    op.sizes = {{"a", 2}, {"b", 3}};  // c has no size
    spec.ops.push_back(op);
    const RooflineView r = roofline_view(spec, resolve_builtin_hardware(spec));
    QCOMPARE(r.op_errors.size(), std::size_t{1});
    QVERIFY(r.op_errors[0].field.rfind("ops[0]", 0) == 0);
}

// An fp8 matmul on an A100 (no fp8 peak): the window lists it as `tally roofline` refuses it, and
// does not draw it at the bf16 peak (312 TFLOP/s) as if it ran in bf16.
void TestPlanViews::opWithoutAPeakIsReportedNotDrawn() {
    PlanSpec spec = llama();
    spec.cluster.gpu = "a100-80gb";
    OpSpec op;
    op.kind = OpKind::matmul;
    op.m = op.k = op.n = 8192;
    op.dtype = DType::fp8_e4m3;
    op.name = "fp8 gemm";
    spec.ops.push_back(op);
    const RooflineView r = roofline_view(spec, resolve_builtin_hardware(spec));
    QCOMPARE(r.op_errors.size(), std::size_t{1});
    QCOMPARE(r.op_errors[0].field, std::string("ops[0].dtype"));
    QVERIFY2(r.op_errors[0].message().find("a100-80gb has no fp8 peak") != std::string::npos,
             r.op_errors[0].message().c_str());
    for (const RooflineMark& m : r.marks) {
        QVERIFY(m.group != RooflineGroup::user);
    }
}

QTEST_GUILESS_MAIN(TestPlanViews)
#include "tst_plan_views.moc"
