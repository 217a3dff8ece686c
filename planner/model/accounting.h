#pragma once

#include <cstdint>

#include "planner/core/spec.h"
#include "planner/model/params.h"

namespace tally {

// What one training step of a spec needs before anything is timed: its parameters, the memory of
// its most loaded GPU, its FLOPs and its parallel layout (CS336 lecture 2's resource accounting).
// The performance model (performance/) times it; evaluate() (training/) adds time, cost and
// warnings to make the Plan.

// Activations of one GPU, in bytes, with the pieces that explain them.
struct ActivationBreakdown {
    double per_layer_bytes = 0.0;         // one layer, one micro-batch, after TP/SP/recompute
    double per_layer_full_bytes = 0.0;    // one layer, one micro-batch, nothing recomputed
    double stored_bytes = 0.0;            // kept from forward to backward
    double working_bytes = 0.0;           // re-materialised during backward (recompute segment)
    double embedding_output_bytes = 0.0;  // Korthikanti sec. 4.4: embedding dropout, output layer
    double layers_on_gpu = 0.0;           // layers held by the pipeline stage
    double microbatches_in_flight = 0.0;  // 1F1B: min(pp, micro-batches per step)
    // Korthikanti et al. 2022, sec. 4.2.3: interleaving makes the first stage keep
    // 1 + (p - 1)/(p·v) times more (1 without interleaving); in microbatches_in_flight.
    double interleave_factor = 1.0;
    std::int64_t checkpoint_interval = 0;  // sqrt mode: layers per segment
    // training.activation_offload_layers: the offloaded layers' activations of one micro-batch,
    // held in host memory between forward and backward (not in stored_bytes).
    double offloaded_bytes = 0.0;
};

// Memory per GPU, bytes (GB = 1e9 bytes). The figures are those of the most loaded GPU.
struct MemoryBreakdown {
    double params_bytes = 0.0;
    double grads_bytes = 0.0;
    double master_bytes = 0.0;
    double optimizer_bytes = 0.0;
    double activations_bytes = 0.0;
    // ZeRO-3 gathers a layer's full parameters to compute it, and the next layer's ahead of use
    // (Rajbhandari et al. 2020, sec. 5.3): two layers' parameters beside the shard.
    double zero3_gather_bytes = 0.0;
    // Pipeline send and receive buffers: activations forward, gradients back.
    double pipeline_buffer_bytes = 0.0;
    double total_bytes = 0.0;  // model state + activations + ZeRO-3 gather + pipeline buffers
    // Offloaded to the host (training.offload), per GPU: not in total_bytes.
    double host_bytes = 0.0;
    double capacity_bytes = 0.0;
    double headroom_bytes = 0.0;  // capacity - total (negative when it does not fit)
    bool fits = false;
    double params_on_gpu = 0.0;    // parameters held by this GPU before ZeRO sharding
    double bytes_per_param = 0.0;  // model-state bytes per parameter, unsharded
    // Its parts, and how many GPUs ZeRO shards each over (dp or 1; Rajbhandari et al. 2020).
    double param_bytes_per_param = 0.0;
    double grad_bytes_per_param = 0.0;
    double master_bytes_per_param = 0.0;
    double optimizer_bytes_per_param = 0.0;
    double param_shards = 1.0;      // ZeRO-3
    double grad_shards = 1.0;       // ZeRO >= 2
    double optimizer_shards = 1.0;  // ZeRO >= 1: optimizer state and master weights
    // The routed experts' share of params_on_gpu, and the GPUs ZeRO shards their state over:
    // the expert-data-parallel group (gpus / (etp x ep x pp), Megatron-Core's parallel_state.py),
    // smaller than the dense parameters' dp x cp whenever ep x etp > tp. Equal to the dense
    // shards, and 0 parameters, for a model without experts.
    double expert_params_on_gpu = 0.0;
    double expert_param_shards = 1.0;
    double expert_grad_shards = 1.0;
    double expert_optimizer_shards = 1.0;
    ActivationBreakdown activations;

    // Parameters of this GPU after sharding by `dense` and (the routed experts) by `expert`.
    double sharded_params(double dense, double expert) const {
        return (params_on_gpu - expert_params_on_gpu) / dense + expert_params_on_gpu / expert;
    }
    // The shard of the optimizer state (and master weights) this GPU updates, in parameters.
    double optimizer_shard_params() const {
        return sharded_params(optimizer_shards, expert_optimizer_shards);
    }

    // Parameters, gradients, master weights and optimizer state: everything but activations.
    double model_state_bytes() const {
        return params_bytes + grads_bytes + master_bytes + optimizer_bytes;
    }
};

// FLOPs. "Model" FLOPs are what the maths of one training step needs (MFU counts these);
// "hardware" FLOPs add what recomputation repeats (HFU; Korthikanti et al. 2022, sec. 5).
struct FlopsBreakdown {
    double per_token_6n = 0.0;         // 6·N (N = active parameters)
    double per_token_attention = 0.0;  // 6·N + 6·L·H·T·(d_qk + d_v) (PaLM appendix B)
    double per_token = 0.0;            // the one the spec's flops_formula picks
    double forward_per_token = 0.0;    // per_token / 3: backward = 2 x forward (CS336 lecture 2)
    double recompute_per_token = 0.0;  // forward work recomputation repeats
    double per_step = 0.0;             // per_token x tokens per step
    double total = 0.0;                // per_token x training tokens
    double hardware_total = 0.0;       // total + recompute x tokens
};

struct Parallelism {
    std::int64_t dp = 1;
    std::int64_t tp = 1;
    std::int64_t pp = 1;
    std::int64_t global_batch = 1;      // sequences per step (resolved)
    std::int64_t grad_accum_steps = 1;  // global_batch / (micro_batch x dp)
    double tokens_per_step = 0.0;
    double steps = 0.0;  // tokens / tokens_per_step
    // (pp - 1) / (v·m): 1F1B with v = training.interleave (Narayanan et al. 2021, sec. 2.2)
    double pipeline_bubble_fraction = 0.0;
};

struct Accounting {
    ParamCounts params;
    MemoryBreakdown memory;
    FlopsBreakdown flops;
    Parallelism parallel;
};

// The accounting of a spec check() accepted, against a GPU of `capacity_bytes` (which sets
// memory.capacity_bytes, headroom_bytes and fits). Pure and allocation-free: evaluate() calls it
// on every slider move. Writes into `out` so that the Plan it is part of is filled in place.
void account(const PlanSpec& spec, double capacity_bytes, Accounting& out);

// ---- pipeline schedule ----------------------------------------------------------------------

// Narayanan et al. 2021, sec. 2.2.1: the 1F1B bubble is (p - 1) / m of the ideal time;
// sec. 2.2.2: with v virtual stages per GPU (interleaved 1F1B), (p - 1) / (v·m).
double pipeline_bubble_fraction(std::int64_t pp, std::int64_t interleave,
                                std::int64_t microbatches);
// Korthikanti et al. 2022, sec. 4.2.3: the interleaved schedule makes the first stage keep
// activations of L·(1 + (p - 1)/(p·v)) layers instead of L: this factor (1 for v = 1).
double interleaved_activation_factor(std::int64_t pp, std::int64_t interleave);

// The share of the transformer layers whose forward pass is recomputed: 1 for full (every
// layer) and sqrt checkpointing, recompute_layers x pp x interleave / layers (at most 1) for
// full recomputation of some layers of each (virtual) stage, 0 otherwise. Selective
// recomputation repeats only the attention core: not counted here.
double full_recompute_fraction(const TrainingSpec& training, const ModelSpec& model);

}  // namespace tally
