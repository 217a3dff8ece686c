// Spec JSON text -> check_layout_search -> search_layouts. For a spec the search accepts (kept
// small: at most 64 GPUs and 64 layers, so that one input searches in milliseconds), every
// returned layout fits in memory, has a finite positive step, is ranked no worse than the one
// after it, and planned alone (apply_layout, check, evaluate) is accepted and gives the same step
// and memory.
#include <string>

#include "planner/training/layout_search.h"
#include "planner/training/plan.h"
#include "tests/fuzz/fuzz_plan.h"
#include "tests/fuzz/fuzz_spec.h"

using namespace tally;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    PlanSpec spec;
    const HardwareProfile* hw = nullptr;
    if (!fuzz::read_spec(text, spec, hw) || spec.cluster.gpus > 64 ||
        (spec.model.kind != ModelKind::params && spec.model.layers > 64) ||
        check_layout_search(spec, *hw)) {
        return 0;
    }
    const LayoutSearchResult r = search_layouts(spec, *hw, 8, LayoutObjective::time);
    fuzz::require(r.feasible <= r.candidates, "feasible <= candidates");
    fuzz::require(r.best.size() <= 8 && static_cast<std::int64_t>(r.best.size()) <= r.feasible,
                  "at most top and at most the feasible layouts");
    for (std::size_t i = 0; i < r.best.size(); ++i) {
        const RankedLayout& l = r.best[i];
        fuzz::require_finite(l.step_s, "layout step");
        fuzz::require_finite(l.memory_bytes, "layout memory");
        fuzz::require(l.step_s > 0.0, "layout step > 0");
        if (i + 1 < r.best.size()) {
            fuzz::require(l.objective <= r.best[i + 1].objective, "ranked by step time");
        }
        const PlanSpec alone = apply_layout(spec, r.global_batch, l.layout);
        fuzz::require(!check(alone, *hw), "a returned layout passes check()");
        const Plan plan = evaluate(alone, *hw);
        fuzz::require_finite(plan);
        fuzz::require(plan.memory.fits, "a returned layout fits");
        fuzz::require(plan.performance.step_s == l.step_s, "planned alone: the same step");
        fuzz::require(plan.memory.total_bytes == l.memory_bytes, "planned alone: the same memory");
    }
    return 0;
}
