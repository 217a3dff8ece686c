// The layout search: what it enumerates, that its ranking is right, and that a layout it returns
// plans to the same step time on its own.
#include <QtTest>

#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/training/layout_search.h"
#include "planner/training/plan.h"
#include "tests/test_specs.h"

using namespace tally;

namespace {

// 2 layers, 2 heads: a toy that makes the enumeration countable by hand. 4 GPUs in one node of 4,
// 4 sequences per step.
PlanSpec toy_spec() {
    PlanSpec s;
    s.model.kind = ModelKind::transformer;
    s.model.layers = 2;
    s.model.hidden = 64;
    s.model.heads = 2;
    s.model.ffn_hidden = 128;
    s.model.vocab = 100;
    s.data.tokens = 1e9;
    s.data.seq_len = 16;
    s.data.global_batch = 4;
    s.cluster.gpus = 4;
    s.cluster.gpus_per_node = 4;
    s.cluster.mfu_predicted = true;
    s.training.flash_attention = false;  // so that selective recomputation is a choice of its own
    return s;
}

PlanSpec llama_like_spec() {
    return test::llama3_8b_spec(32, 4096, 256);
}

// Llama 3 70B's shape (80 layers, hidden 8192, 64 heads, 8 KV heads, SwiGLU 28672, vocabulary
// 128256) planned at tp 8 x pp 4 with 512 sequences of 8192 tokens a step, ZeRO-1, on `gpus` H100.
PlanSpec llama70b_like_spec(std::int64_t gpus) {
    PlanSpec s = test::llama3_8b_spec(gpus, 8192, 512);
    s.model.layers = 80;
    s.model.hidden = 8192;
    s.model.heads = 64;
    s.model.kv_heads = 8;
    s.model.ffn_hidden = 28672;
    s.training.tp = 8;
    s.training.pp = 4;
    s.training.zero = 1;
    s.training.sequence_parallel = true;
    return s;
}

}  // namespace

class TestLayoutSearch : public QObject {
    Q_OBJECT

private slots:
    void recomputeModulesSearchedAndAppliedWhole();
    void countsEveryLayoutByHand();
    void tensorParallelStaysInABridgedPair();
    void bestIsNeverSlowerThanAnyEnumerated();
    void returnedLayoutPlansToTheSameStep();
    void rankingIsSorted();
    void minGpusMeetsTheDeadline();
    void minGpusAtAnAssumedMfuIsTheLecturesAnswer();
    void searchesAClusterTheSpecsLayoutDoesNotDivide();
    void namesTheGlobalBatchWhenItCannotBeKept();
};

void TestLayoutSearch::countsEveryLayoutByHand() {
    // On DeepSpeed, whose zero_optimization.stage runs 0 to 3:
    // tp in {1, 2} (divides the 2 heads, within the node of 4); pp in {1, 2} (divides 2 layers);
    // ZeRO 0-3 when dp > 1 (only 0 when dp = 1); recompute none/selective/full; SP when tp > 1;
    // micro-batches dividing the per-rank batch 4 / dp; interleave only with pp > 1 and at most
    // layers / pp = 1 virtual stage here.
    //   tp 1 pp 1: dp 4, mb {1}:            1 x 4 zero x 3 rc        = 12
    //   tp 1 pp 2: dp 2, mb {1, 2}:         2 x 4 x 3                = 24
    //   tp 2 pp 1: dp 2, mb {1, 2}:         2 x 4 x 3 x 2 SP         = 48
    //   tp 2 pp 2: dp 1, mb {1, 2, 4}:      3 x 1 x 3 x 2            = 18
    // 102 in all.
    PlanSpec deepspeed = toy_spec();
    deepspeed.training.engine = Engine::deepspeed;
    const LayoutSearchResult r =
        search_layouts(deepspeed, *find_builtin_hardware("h100-sxm"), 5, LayoutObjective::time);
    QCOMPARE(r.candidates, std::int64_t{102});
    QCOMPARE(r.feasible, std::int64_t{102});  // a toy fits anywhere
    QCOMPARE(r.best.size(), std::size_t{5});
    QCOMPARE(r.global_batch, std::int64_t{4});
    // With flash attention selective recomputation keeps what none keeps (there are no scores to
    // drop), so it is not a layout of its own: 2 recompute choices instead of 3, 102 x 2/3 = 68
    // with cp = 1. Context parallelism (ring attention, which needs the fused kernel) joins: cp
    // a power of two dividing GPUs / (tp x pp), with 2 x cp dividing the 16 tokens. ZeRO
    // shards over dp x cp, so every stage is offered where dp = 1 but cp > 1:
    //   tp 1 pp 1 cp 2: dp 2, mb {1, 2}:     2 x 4 zero x 2 rc       = 16
    //   tp 1 pp 1 cp 4: dp 1, mb {1, 2, 4}:  3 x 4 x 2               = 24
    //   tp 1 pp 2 cp 2: dp 1, mb {1, 2, 4}:  3 x 4 x 2               = 24
    //   tp 2 pp 1 cp 2: dp 1, mb {1, 2, 4}:  3 x 4 x 2 x 2 SP       = 48
    // 68 + 112 = 180.
    PlanSpec flash = deepspeed;
    flash.training.flash_attention = true;
    QCOMPARE(search_layouts(flash, *find_builtin_hardware("h100-sxm"), 5, LayoutObjective::time)
                 .candidates,
             std::int64_t{180});

    // Megatron-Core has ZeRO 0 and 1 only (DDP, the distributed optimizer): 2 stages where dp >
    // 1 instead of 4: 1 x 2 x 3 = 6, 2 x 2 x 3 = 12, 2 x 2 x 3 x 2 = 24, and the 18 of dp 1: 60.
    const PlanSpec megatron = toy_spec();
    QCOMPARE(megatron.training.engine, Engine::megatron);
    const LayoutSearchResult m =
        search_layouts(megatron, *find_builtin_hardware("h100-sxm"), 200, LayoutObjective::time);
    QCOMPARE(m.candidates, std::int64_t{60});
    for (const RankedLayout& l : m.best) {
        QVERIFY(l.layout.zero <= 1);
    }
    // PyTorch FSDP has NO_SHARD, SHARD_GRAD_OP and FULL_SHARD (0, 2, 3), no ZeRO-1: 3 stages,
    // 1 x 3 x 3 = 9, 2 x 3 x 3 = 18, 2 x 3 x 3 x 2 = 36, and 18: 81.
    PlanSpec fsdp = toy_spec();
    fsdp.training.engine = Engine::fsdp;
    const LayoutSearchResult f =
        search_layouts(fsdp, *find_builtin_hardware("h100-sxm"), 200, LayoutObjective::time);
    QCOMPARE(f.candidates, std::int64_t{81});
    for (const RankedLayout& l : f.best) {
        QVERIFY(l.layout.zero != 1);
    }
    // An MoE model: Megatron-Core stops an MoE layer under tensor parallelism without sequence
    // parallelism (core_v0.12.0 moe_layer.py), so every tp 2 layout it is offered has it; FSDP
    // still offers both.
    PlanSpec moe = toy_spec();
    moe.model.moe.experts = 4;
    moe.model.moe.active_experts = 2;
    const LayoutSearchResult mm =
        search_layouts(moe, *find_builtin_hardware("h100-sxm"), 1000, LayoutObjective::time);
    QCOMPARE(mm.feasible, static_cast<std::int64_t>(mm.best.size()));
    QVERIFY(std::any_of(mm.best.begin(), mm.best.end(),
                        [](const RankedLayout& l) { return l.layout.tp > 1; }));
    for (const RankedLayout& l : mm.best) {
        QVERIFY(l.layout.tp == 1 || l.layout.sequence_parallel);
    }
    moe.training.engine = Engine::fsdp;
    const LayoutSearchResult mf =
        search_layouts(moe, *find_builtin_hardware("h100-sxm"), 1000, LayoutObjective::time);
    QVERIFY(std::any_of(mf.best.begin(), mf.best.end(), [](const RankedLayout& l) {
        return l.layout.tp > 1 && !l.layout.sequence_parallel;
    }));
}

void TestLayoutSearch::tensorParallelStaysInABridgedPair() {
    // The toy with 4 heads on four A100 PCIe cards, no node size stated: their NVLink bridge
    // joins pairs, so the scale-up domain is 2 (resolve_network) and tp stays in {1, 2} though
    // 4 heads would allow tp 4: tp {1, 2} x pp {1, 2}, the 102 layouts of the count by hand.
    PlanSpec s = toy_spec();
    s.training.engine = Engine::deepspeed;  // ZeRO 0-3, as counted there
    s.cluster.gpu = "a100-pcie-80gb";
    s.cluster.gpus_per_node = 0;
    s.model.heads = 4;
    const HardwareProfile& a100 = *find_builtin_hardware("a100-pcie-80gb");
    const LayoutSearchResult r = search_layouts(s, a100, 200, LayoutObjective::time);
    QCOMPARE(r.candidates, std::int64_t{102});
    for (const RankedLayout& l : r.best) {
        QVERIFY(l.layout.tp <= 2);
    }
    // On SXM cards the profile's node of 8 lets tp 4 in: tp 4 pp 1, dp 1, mb {1, 2, 4}:
    // 3 x 1 zero x 3 recompute x 2 SP = 18 more, 120.
    s.cluster.gpu = "a100-80gb";
    QCOMPARE(
        search_layouts(s, *find_builtin_hardware("a100-80gb"), 5, LayoutObjective::time).candidates,
        std::int64_t{120});
}

void TestLayoutSearch::bestIsNeverSlowerThanAnyEnumerated() {
    const PlanSpec spec = llama_like_spec();
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    const LayoutSearchResult r = search_layouts(spec, hw, 1, LayoutObjective::time);
    QVERIFY(!r.best.empty());
    const double best = r.best.front().step_s;
    // Walk the layouts by hand over the main axes and check each one that fits.
    int checked = 0;
    for (std::int64_t tp : {1, 2, 4, 8}) {
        for (std::int64_t pp : {1, 2, 4}) {
            for (int zero : {0, 1, 2, 3}) {
                for (Recompute rc : {Recompute::none, Recompute::selective, Recompute::full}) {
                    for (bool sp : {false, true}) {
                        if (sp && tp == 1) {
                            continue;
                        }
                        Layout l;
                        l.tp = tp;
                        l.pp = pp;
                        l.dp = 32 / (tp * pp);
                        l.zero = zero;
                        l.recompute = rc;
                        l.sequence_parallel = sp;
                        const PlanSpec s = apply_layout(spec, 256, l);
                        QVERIFY(!check(s, hw));
                        const Plan p = evaluate(s, hw);
                        if (p.memory.fits) {
                            QVERIFY2(best <= p.performance.step_s,
                                     qPrintable(QStringLiteral("tp %1 pp %2 zero %3")
                                                    .arg(tp)
                                                    .arg(pp)
                                                    .arg(zero)));
                            ++checked;
                        }
                    }
                }
            }
        }
    }
    QVERIFY(checked > 10);
}

// A spec that recomputes Megatron-Core modules beyond the attention core (moe_act here): its
// selective layouts are searched although flash attention keeps no scores (they drop the
// experts' activation output), and a layout without selective recomputation is applied
// without the modules, which check() allows only with it.
void TestLayoutSearch::recomputeModulesSearchedAndAppliedWhole() {
    const PlanSpec spec = plan_spec_from_text(R"({"model": {"layers": 4, "hidden": 1024,
        "heads": 8, "ffn_hidden": 4096, "ffn": "swiglu", "vocab": 1000,
        "moe": {"experts": 8, "active_experts": 2, "expert_ffn_hidden": 1024}},
        "data": {"tokens": 1e9, "seq_len": 2048, "global_batch": 16, "micro_batch": 1},
        "cluster": {"gpu": "h100-sxm", "gpus": 8},
        "training": {"recompute": "selective", "recompute_modules": ["moe_act"]}})");
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check(spec, hw));
    const LayoutSearchResult r = search_layouts(spec, hw, 100000, LayoutObjective::time);
    bool selective = false;
    bool other = false;
    for (const RankedLayout& l : r.best) {
        const PlanSpec s = apply_layout(spec, r.global_batch, l.layout);
        QVERIFY2(!check(s, hw), to_string(l.layout.recompute).data());
        if (l.layout.recompute == Recompute::selective) {
            selective = true;
            QCOMPARE(s.training.recompute_modules, spec.training.recompute_modules);
        } else {
            other = true;
            QVERIFY(!s.training.recompute_modules.any());
        }
    }
    QVERIFY(selective && other);
}

void TestLayoutSearch::returnedLayoutPlansToTheSameStep() {
    const PlanSpec spec = llama_like_spec();
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    const LayoutSearchResult r = search_layouts(spec, hw, 5, LayoutObjective::time);
    QCOMPARE(r.best.size(), std::size_t{5});
    for (const RankedLayout& l : r.best) {
        const PlanSpec s = apply_layout(spec, r.global_batch, l.layout);
        QVERIFY(!check(s, hw));
        const Plan p = evaluate(s, hw);
        QCOMPARE(p.performance.step_s, l.step_s);
        QCOMPARE(p.memory.total_bytes, l.memory_bytes);
        QVERIFY(p.memory.fits);
    }
}

void TestLayoutSearch::rankingIsSorted() {
    const PlanSpec spec = llama_like_spec();
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    for (LayoutObjective objective : {LayoutObjective::time, LayoutObjective::cost}) {
        const LayoutSearchResult r = search_layouts(spec, hw, 50, objective);
        QVERIFY(r.feasible >= 50);
        for (std::size_t i = 1; i < r.best.size(); ++i) {
            QVERIFY(r.best[i - 1].objective <= r.best[i].objective);
        }
    }
    // On a fixed cluster the cost is GPUs x step x steps x price: the same order as the time.
    const LayoutSearchResult time = search_layouts(spec, hw, 1, LayoutObjective::time);
    const LayoutSearchResult cost = search_layouts(spec, hw, 1, LayoutObjective::cost);
    QVERIFY(time.best.front().layout == cost.best.front().layout);
}

void TestLayoutSearch::minGpusMeetsTheDeadline() {
    PlanSpec spec = llama_like_spec();
    spec.data.tokens = 1e11;
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    const auto r = solve_min_gpus(spec, hw, 30.0, 1 << 16);
    QVERIFY(r.has_value());
    QVERIFY(r->time.days <= 30.0);
    QCOMPARE(r->gpus % 8, std::int64_t{0});  // whole 8-GPU nodes (the catalog's DGX H100)
    // Half as many nodes (when there are at least two) miss the deadline.
    if (r->gpus > 8) {
        PlanSpec smaller = spec;
        smaller.cluster.gpus = r->gpus / 2;
        smaller.training.tp = 1;
        smaller.training.pp = 1;
        const LayoutSearchResult s = search_layouts(smaller, hw, 1, LayoutObjective::time);
        if (!s.best.empty()) {
            const Plan p =
                evaluate(apply_layout(smaller, s.global_batch, s.best.front().layout), hw);
            QVERIFY(p.parallel.steps * p.performance.step_s / 86400.0 > 30.0);
        }
    }
}

// CS336 lecture 2's first question turned around: 70B parameters on 15T tokens at MFU 0.5 on
// H100s, in 30 days. 6 x 70e9 x 15e12 = 6.3e24 FLOPs; one GPU-day does 989.5e12 x 0.5 x 86400
// = 4.27464e19, so 30 days take 6.3e24 / (30 x 4.27464e19) = 4912.5 GPUs: 4920 in whole 8-GPU
// nodes (615), at 6.3e24 / (4920 x 4.27464e19) = 29.955 days. With an assumed MFU the days are
// the formula's, whatever the layout's predicted step.
void TestLayoutSearch::minGpusAtAnAssumedMfuIsTheLecturesAnswer() {
    PlanSpec spec;
    spec.model.kind = ModelKind::params;
    spec.model.params = 70e9;
    spec.data.tokens = 15e12;
    spec.cluster.gpu = "h100-sxm";
    spec.cluster.gpus = 1024;
    spec.cluster.mfu = 0.5;
    spec.cluster.mfu_predicted = false;
    spec.training.zero = 3;
    spec.training.flops_formula = FlopsFormula::six_nd;
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check(spec, hw));
    const auto r = solve_min_gpus(spec, hw, 30.0, 1 << 20);
    QVERIFY(r.has_value());
    QCOMPARE(r->gpus, std::int64_t{4920});
    QVERIFY(!r->time.mfu_predicted);
    QVERIFY2(std::abs(r->time.days - 6.3e24 / (4920.0 * 989.5e12 * 0.5 * 86400.0)) < 1e-9,
             qPrintable(QString::number(r->time.days, 'g', 12)));
    QVERIFY(r->time.days > 29.95 && r->time.days <= 30.0);
    // --max-gpus bounds the clusters tried, whole nodes within it: 4920 allowed finds the 615
    // nodes; 4919 allows 614 nodes (4912 GPUs, 29.955 x 4920 / 4912 = 30.004 days), too few;
    // 7 allows no node of 8 at all.
    const auto bounded = solve_min_gpus(spec, hw, 30.0, 4920);
    QVERIFY(bounded.has_value());
    QCOMPARE(bounded->gpus, std::int64_t{4920});
    QVERIFY(!solve_min_gpus(spec, hw, 30.0, 4919).has_value());
    QVERIFY(!solve_min_gpus(spec, hw, 3000.0, 7).has_value());
}

void TestLayoutSearch::searchesAClusterTheSpecsLayoutDoesNotDivide() {
    // 1024 GPUs at tp 8 x pp 4 moved to 2560: dp = 2560 / 32 = 80, and 512 sequences are not a
    // multiple of 80, so check() refuses the spec; the search must still run, since choosing tp
    // and pp is its job. tp 8 x pp 5 gives dp = 2560 / 40 = 64, 512 / 64 = 8 sequences per rank,
    // and 5 divides the 80 layers: a layout of this cluster.
    const PlanSpec spec = llama70b_like_spec(2560);
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    const std::optional<FieldError> refused = check(spec, hw);
    QVERIFY(refused);
    QCOMPARE(refused->field, std::string("data.global_batch"));
    QVERIFY(!check_layout_search(spec, hw));
    const LayoutSearchResult r = search_layouts(spec, hw, 100000, LayoutObjective::time);
    QCOMPARE(r.global_batch, std::int64_t{512});
    QVERIFY(r.feasible > 0);
    bool tp8pp5 = false;
    for (const RankedLayout& l : r.best) {
        // Every listed layout divides the new cluster and keeps the 512 sequences.
        QCOMPARE(l.layout.tp * l.layout.pp * l.layout.context_parallel * l.layout.dp,
                 std::int64_t{2560});
        QCOMPARE(std::int64_t{512} % (l.layout.dp * l.layout.micro_batch), std::int64_t{0});
        QVERIFY(!check(apply_layout(spec, r.global_batch, l.layout), hw));
        tp8pp5 = tp8pp5 || (l.layout.tp == 8 && l.layout.pp == 5 && l.layout.dp == 64);
    }
    QVERIFY(tp8pp5);
}

void TestLayoutSearch::namesTheGlobalBatchWhenItCannotBeKept() {
    // Without data.global_batch the sequences per step are micro_batch x dp of the spec's own
    // layout: at 2560 GPUs tp 8 x pp 4 gives dp 80 (2560 / 32), a whole number, so they are
    // 1 x 80 = 80.
    PlanSpec spec = llama70b_like_spec(2560);
    spec.data.global_batch = 0;
    QCOMPARE(search_global_batch(spec), std::optional<std::int64_t>(80));
    // At 2500 GPUs 8 x 4 = 32 does not divide 2500 (2500 / 32 = 78.125): nothing to keep, and the
    // search says which field to give.
    spec.cluster.gpus = 2500;
    QVERIFY(!search_global_batch(spec));
    const HardwareProfile& hw = *find_builtin_hardware("h100-sxm");
    const std::optional<FieldError> error = check_layout_search(spec, hw);
    QVERIFY(error);
    QCOMPARE(error->field, std::string("data.global_batch"));
    QVERIFY_THROWS_EXCEPTION(SpecError, search_layouts(spec, hw, 5, LayoutObjective::time));
    // A rule that is not the layout's (here the model's) is still refused, by its own field.
    PlanSpec bad = llama70b_like_spec(2560);
    bad.model.kv_heads = 7;
    QCOMPARE(check_layout_search(bad, hw)->field, std::string("model.kv_heads"));
}

QTEST_GUILESS_MAIN(TestLayoutSearch)
#include "tst_layout_search.moc"
