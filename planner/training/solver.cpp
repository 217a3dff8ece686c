#include "planner/training/solver.h"

#include <fmt/core.h>
#include <algorithm>

#include "planner/core/errors.h"
#include "planner/training/plan.h"

namespace tally {

MaxParamsResult solve_max_params(const PlanSpec& spec, const HardwareProfile& hw) {
    if (auto error = check(spec, hw)) {
        throw SpecError(*error);
    }
    const Plan plan = evaluate(spec, hw);
    const TrainingSpec& t = spec.training;
    MaxParamsResult r;
    r.capacity_bytes = hw.memory_bytes;

    // The model state's bytes per parameter and ZeRO's shards exactly as evaluate() charged them.
    const MemoryBreakdown& mem = plan.memory;
    const double split = static_cast<double>(t.tp * t.pp);
    const double z1 = mem.optimizer_shards;
    const double z2 = mem.grad_shards;
    const double z3 = mem.param_shards;
    const double p = mem.param_bytes_per_param;
    const double g = mem.grad_bytes_per_param;
    const double m = mem.master_bytes_per_param;
    const double o = mem.optimizer_bytes_per_param;
    r.bytes_per_param_per_gpu = (p / z3 + g / z2 + (m + o) / z1) / split;

    if (!spec.solver.include_activations || spec.model.kind == ModelKind::params) {
        r.max_params = r.capacity_bytes / r.bytes_per_param_per_gpu;
        r.formula_text =
            TALLY_TEXT("tally::solver",
                       "max N = capacity / ((param/z3 + grad/z2 + (master + optimizer)/z1) / (tp "
                       "x pp)) = %1; bytes per parameter of each state, zK = the dp GPUs it is "
                       "sharded over from ZeRO stage K on, else 1")
                .arg(
                    fmt::format("{:.4g} / (({}/{:g} + {}/{:g} + ({} + {:g})/{:g}) / {:g}) = {:.4g}",
                                r.capacity_bytes, p, z3, g, z2, m, o, z1, split, r.max_params));
        r.formula = r.formula_text.english();
        return r;
    }

    // With activations: memory grows with depth; find the deepest model (a multiple of pp
    // layers, so stages stay equal) that fits, by bisection.
    r.includes_activations = true;
    PlanSpec trial = spec;
    auto fits = [&](std::int64_t layers) {
        trial.model.layers = layers;
        trial.model.moe.first_dense_layers = std::min(spec.model.moe.first_dense_layers, layers);
        return evaluate(trial, hw).memory.fits;
    };
    const std::int64_t step = t.pp;
    std::int64_t lo = 0;  // fits (0 = none does)
    std::int64_t hi = step;
    while (fits(hi)) {
        lo = hi;
        hi *= 2;
        if (hi > (std::int64_t{1} << 40)) {
            break;
        }
    }
    while (hi - lo > step) {
        const std::int64_t mid = lo + ((hi - lo) / (2 * step)) * step;
        if (mid == lo) {
            break;
        }
        (fits(mid) ? lo : hi) = mid;
    }
    r.layers = lo;
    if (lo > 0) {
        trial.model.layers = lo;
        r.max_params = count_params(trial.model).total;
    }
    r.formula_text = TALLY_TEXT("tally::solver",
                                "deepest model of this width whose params, grads, optimizer "
                                "state and activations fit %1 bytes per GPU: %2 layers, %3 "
                                "parameters")
                         .arg(fmt::format("{:.4g}", r.capacity_bytes))
                         .arg(lo)
                         .arg(fmt::format("{:.4g}", r.max_params));
    r.formula = r.formula_text.english();
    return r;
}

}  // namespace tally
