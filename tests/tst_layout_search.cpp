// The layout search: what it enumerates, that its ranking is right, and that a layout it returns
// plans to the same step time on its own.
#include <QtTest>

#include "planner/hardware/hardware.h"
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

}  // namespace

class TestLayoutSearch : public QObject {
    Q_OBJECT

private slots:
    void countsEveryLayoutByHand();
    void bestIsNeverSlowerThanAnyEnumerated();
    void returnedLayoutPlansToTheSameStep();
    void rankingIsSorted();
    void minGpusMeetsTheDeadline();
};

void TestLayoutSearch::countsEveryLayoutByHand() {
    // tp in {1, 2} (divides the 2 heads, within the node of 4); pp in {1, 2} (divides 2 layers);
    // ZeRO 0-3 when dp > 1 (only 0 when dp = 1); recompute none/selective/full; SP when tp > 1;
    // micro-batches dividing the per-rank batch 4 / dp; interleave only with pp > 1 and at most
    // layers / pp = 1 virtual stage here.
    //   tp 1 pp 1: dp 4, mb {1}:            1 x 4 zero x 3 rc        = 12
    //   tp 1 pp 2: dp 2, mb {1, 2}:         2 x 4 x 3                = 24
    //   tp 2 pp 1: dp 2, mb {1, 2}:         2 x 4 x 3 x 2 SP         = 48
    //   tp 2 pp 2: dp 1, mb {1, 2, 4}:      3 x 1 x 3 x 2            = 18
    // 102 in all.
    const LayoutSearchResult r =
        search_layouts(toy_spec(), *find_builtin_hardware("h100-sxm"), 5, LayoutObjective::time);
    QCOMPARE(r.candidates, std::int64_t{102});
    QCOMPARE(r.feasible, std::int64_t{102});  // a toy fits anywhere
    QCOMPARE(r.best.size(), std::size_t{5});
    QCOMPARE(r.global_batch, std::int64_t{4});
    // With flash attention selective recomputation keeps what none keeps (there are no scores to
    // drop), so it is not a layout of its own: 2 recompute choices instead of 3, 102 x 2/3 = 68.
    PlanSpec flash = toy_spec();
    flash.training.flash_attention = true;
    QCOMPARE(search_layouts(flash, *find_builtin_hardware("h100-sxm"), 5, LayoutObjective::time)
                 .candidates,
             std::int64_t{68});
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
    QVERIFY(r->days <= 30.0);
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

QTEST_GUILESS_MAIN(TestLayoutSearch)
#include "tst_layout_search.moc"
