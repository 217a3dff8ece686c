#pragma once

#include <cstdint>
#include <string>

#include "planner/core/spec.h"
#include "planner/core/text.h"
#include "planner/hardware/hardware.h"

namespace tally {

// The largest model a cluster can train under a spec's recipe.
struct MaxParamsResult {
    double max_params = 0.0;
    bool includes_activations = false;
    // Model-state bytes each GPU spends per parameter of the whole model, after tp·pp splitting
    // and ZeRO sharding: capacity / this = max_params (model state only).
    double bytes_per_param_per_gpu = 0.0;
    double capacity_bytes = 0.0;
    std::int64_t layers = 0;  // with activations: the deepest transformer that fits (0 otherwise)
    std::string formula;      // the arithmetic, for the CLI and tooltips (English)
    Text formula_text{};      // the same, translatable (core/text.h)
};

// Model state only (CS336 lecture 2's question: params + grads + optimizer state, "no
// activations, so an upper bound"): max N = capacity / (bytes per parameter per GPU), with
// bytes per parameter per GPU = (p/z3 + g/z2 + (m + o)/z1) / (tp·pp), z_i = dp when ZeRO stage
// >= i, else 1.
// With spec.solver.include_activations (transformer or mlp kinds): the model's layer count is
// searched, width kept, for the deepest model whose whole memory fits.
// Throws SpecError for specs check() rejects.
MaxParamsResult solve_max_params(const PlanSpec& spec, const HardwareProfile& hardware);

}  // namespace tally
