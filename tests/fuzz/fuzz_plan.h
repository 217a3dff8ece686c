#pragma once

// The plan invariant of the planner harnesses: every figure of an accepted plan is finite.

#include "planner/training/plan.h"
#include "tests/fuzz/fuzz_support.h"

namespace tally::fuzz {

// Every double a Plan holds.
inline void require_finite(const Plan& p) {
#define TALLY_FUZZ_FINITE(x) require_finite(x, #x)
    TALLY_FUZZ_FINITE(p.params.total);
    TALLY_FUZZ_FINITE(p.params.embedding);
    TALLY_FUZZ_FINITE(p.params.non_embedding);
    TALLY_FUZZ_FINITE(p.params.active);
    TALLY_FUZZ_FINITE(p.params.per_layer_attention);
    TALLY_FUZZ_FINITE(p.params.per_layer_mlp);
    TALLY_FUZZ_FINITE(p.params.per_layer_norms);
    const MemoryBreakdown& m = p.memory;
    TALLY_FUZZ_FINITE(m.params_bytes);
    TALLY_FUZZ_FINITE(m.grads_bytes);
    TALLY_FUZZ_FINITE(m.master_bytes);
    TALLY_FUZZ_FINITE(m.optimizer_bytes);
    TALLY_FUZZ_FINITE(m.activations_bytes);
    TALLY_FUZZ_FINITE(m.total_bytes);
    TALLY_FUZZ_FINITE(m.capacity_bytes);
    TALLY_FUZZ_FINITE(m.headroom_bytes);
    TALLY_FUZZ_FINITE(m.params_on_gpu);
    TALLY_FUZZ_FINITE(m.bytes_per_param);
    TALLY_FUZZ_FINITE(m.param_bytes_per_param);
    TALLY_FUZZ_FINITE(m.grad_bytes_per_param);
    TALLY_FUZZ_FINITE(m.master_bytes_per_param);
    TALLY_FUZZ_FINITE(m.optimizer_bytes_per_param);
    TALLY_FUZZ_FINITE(m.param_shards);
    TALLY_FUZZ_FINITE(m.grad_shards);
    TALLY_FUZZ_FINITE(m.optimizer_shards);
    TALLY_FUZZ_FINITE(m.activations.per_layer_bytes);
    TALLY_FUZZ_FINITE(m.activations.per_layer_full_bytes);
    TALLY_FUZZ_FINITE(m.activations.stored_bytes);
    TALLY_FUZZ_FINITE(m.activations.working_bytes);
    TALLY_FUZZ_FINITE(m.activations.embedding_output_bytes);
    TALLY_FUZZ_FINITE(m.activations.layers_on_gpu);
    TALLY_FUZZ_FINITE(m.activations.microbatches_in_flight);
    const FlopsBreakdown& f = p.flops;
    TALLY_FUZZ_FINITE(f.per_token_6n);
    TALLY_FUZZ_FINITE(f.per_token_attention);
    TALLY_FUZZ_FINITE(f.per_token);
    TALLY_FUZZ_FINITE(f.forward_per_token);
    TALLY_FUZZ_FINITE(f.recompute_per_token);
    TALLY_FUZZ_FINITE(f.per_step);
    TALLY_FUZZ_FINITE(f.total);
    TALLY_FUZZ_FINITE(f.hardware_total);
    TALLY_FUZZ_FINITE(p.parallel.tokens_per_step);
    TALLY_FUZZ_FINITE(p.parallel.steps);
    TALLY_FUZZ_FINITE(p.parallel.pipeline_bubble_fraction);
    const TimeEstimate& t = p.time;
    TALLY_FUZZ_FINITE(t.peak_flops_per_s);
    TALLY_FUZZ_FINITE(t.achieved_flops_per_s);
    TALLY_FUZZ_FINITE(t.seconds);
    TALLY_FUZZ_FINITE(t.days);
    TALLY_FUZZ_FINITE(t.gpu_hours);
    TALLY_FUZZ_FINITE(t.cost);
    TALLY_FUZZ_FINITE(t.energy_kwh);
    TALLY_FUZZ_FINITE(t.hfu);
    TALLY_FUZZ_FINITE(t.mfu);
    TALLY_FUZZ_FINITE(m.zero3_gather_bytes);
    TALLY_FUZZ_FINITE(m.pipeline_buffer_bytes);
    TALLY_FUZZ_FINITE(m.host_bytes);
    TALLY_FUZZ_FINITE(m.activations.interleave_factor);
    // The performance model, whether or not the time rests on it.
    const PerformanceBreakdown& r = p.performance;
    TALLY_FUZZ_FINITE(r.step_s);
    TALLY_FUZZ_FINITE(r.tokens_per_s);
    TALLY_FUZZ_FINITE(r.mfu);
    TALLY_FUZZ_FINITE(r.hfu);
    TALLY_FUZZ_FINITE(r.hardware_flops_per_step);
    TALLY_FUZZ_FINITE(r.compute_s);
    TALLY_FUZZ_FINITE(r.recompute_s);
    TALLY_FUZZ_FINITE(r.memory_bound_s);
    TALLY_FUZZ_FINITE(r.tp_comm_s);
    TALLY_FUZZ_FINITE(r.pp_comm_s);
    TALLY_FUZZ_FINITE(r.pp_bubble_s);
    TALLY_FUZZ_FINITE(r.dp_comm_s);
    TALLY_FUZZ_FINITE(r.dp_comm_exposed_s);
    TALLY_FUZZ_FINITE(r.ep_comm_s);
    TALLY_FUZZ_FINITE(r.cp_comm_s);
    TALLY_FUZZ_FINITE(r.overhead_s);
    TALLY_FUZZ_FINITE(r.comm_contention_s);
    TALLY_FUZZ_FINITE(r.offload_s);
    TALLY_FUZZ_FINITE(r.optimizer_s);
    TALLY_FUZZ_FINITE(r.microbatch_s);
#undef TALLY_FUZZ_FINITE
}

}  // namespace tally::fuzz
