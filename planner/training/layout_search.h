#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/training/plan.h"

namespace tally {

// One parallel layout of a spec's model on its cluster: the training keys and the micro-batch the
// search varies. Everything else (model, data, cluster, precision, optimizer) stays the spec's.
struct Layout {
    std::int64_t tp = 1;
    std::int64_t pp = 1;
    std::int64_t dp = 1;  // cluster.gpus / (tp x pp x context_parallel)
    std::int64_t micro_batch = 1;
    std::int64_t interleave = 1;
    std::int64_t expert_parallel = 1;
    std::int64_t context_parallel = 1;
    int zero = 0;
    Recompute recompute = Recompute::none;
    bool sequence_parallel = false;
    bool operator==(const Layout&) const = default;
};

// The spec with a layout applied (training.tp, pp, zero, recompute, sequence_parallel,
// interleave, expert_parallel and data.micro_batch). Its global batch is the base spec's,
// resolved: a layout never changes the tokens per step.
PlanSpec apply_layout(const PlanSpec& base, std::int64_t global_batch, const Layout& layout);

// The layout a spec runs (its training keys and micro-batch; dp = cluster.gpus / (tp x pp)), so a
// listed layout can be recognised as the spec's own: apply_layout(s, g, l) gives back l.
Layout layout_of(const PlanSpec& spec);

enum class LayoutObjective {
    time,  // predicted step time
    cost,  // the whole run's cost: GPUs x step time x steps x price (GPU-hours without a price)
};

struct RankedLayout {
    Layout layout;
    double step_s = 0.0;
    double objective = 0.0;  // what the ranking sorts by (seconds, or cost)
    double memory_bytes = 0.0;
    double mfu = 0.0;
};

struct LayoutSearchResult {
    std::int64_t candidates = 0;  // layouts enumerated (every one check() would accept)
    std::int64_t feasible = 0;    // of those, the ones that fit in memory
    std::int64_t global_batch = 0;
    std::vector<RankedLayout> best;  // the `top` best feasible ones, best first
};

// The global batch (sequences per step) a search keeps: data.global_batch when given, else the
// spec's own micro_batch x dp, which needs the spec's tp x pp x context_parallel to divide
// cluster.gpus. nullopt when neither is known (the spec's layout does not divide the cluster and no
// global batch is given).
std::optional<std::int64_t> search_global_batch(const PlanSpec& spec);

// check() for a layout search: every rule of the spec that does not depend on its layout. The
// layout itself (tp, pp, micro-batch, ZeRO, recomputation, sequence parallelism, interleaving,
// expert parallelism) is what the search chooses, so the spec's own need not fit the cluster:
// a spec planned for 1024 GPUs at tp 8 x pp 4 can be searched on 2560 GPUs, where 8 x 4 does not
// divide the data-parallel size the global batch needs. Names data.global_batch when the batch to
// keep is not known (search_global_batch()).
std::optional<FieldError> check_layout_search(const PlanSpec& spec,
                                              const HardwareProfile& hardware);

// Enumerates every valid layout of the spec's model, data and cluster: tp dividing the heads (and
// within one node), pp dividing the layers, dp the rest; micro-batches dividing the per-rank batch;
// ZeRO 0-3; recomputation none, selective or full; sequence parallelism when tp > 1; interleaving
// when pp > 1; expert parallelism dividing dp and the experts. Evaluates each (allocation-free),
// keeps those that fit, and ranks them. The spec must pass check_layout_search() (its own layout
// need not be valid on its cluster); otherwise it throws SpecError naming the field.
LayoutSearchResult search_layouts(const PlanSpec& spec, const HardwareProfile& hardware,
                                  std::size_t top, LayoutObjective objective);

// The smallest cluster (a multiple of the node size) whose best layout trains the spec's tokens
// within `days`, searching up to `max_gpus`; nullopt when none does. The days are the plan's own
// (evaluate()'s time.days): steps x the predicted step, or, where the spec assumes cluster.mfu,
// FLOPs / (peak x MFU x GPUs), the best layout then only having to fit. The spec must pass
// check_layout_search() (else SpecError); the global batch kept is search_global_batch()'s.
struct MinGpusResult {
    std::int64_t gpus = 0;
    RankedLayout best;
    // The whole run on that cluster as the plan times it: days (steps x the predicted step, or
    // with an assumed cluster.mfu the lecture's formula: time.mfu_predicted false), GPU-hours,
    // cost and energy.
    TimeEstimate time;
    std::int64_t clusters_tried = 0;
};
std::optional<MinGpusResult> solve_min_gpus(const PlanSpec& spec, const HardwareProfile& hardware,
                                            double days, std::int64_t max_gpus);

}  // namespace tally
