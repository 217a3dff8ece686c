#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/errors.h"
#include "planner/hardware.h"
#include "planner/performance.h"
#include "planner/spec.h"

namespace tally {

// Parameter counts. For a mixture of experts, `total` counts every expert and `active` those a
// token runs through (routed top-k + shared); for dense models active == total.
struct ParamCounts {
    double total = 0.0;
    double embedding = 0.0;      // input embedding + untied output head + learned positions
    double non_embedding = 0.0;  // total - embedding
    double active = 0.0;
    double per_layer_attention = 0.0;
    double per_layer_mlp = 0.0;  // dense layer MLP (or, for MoE layers, all experts + router)
    double per_layer_norms = 0.0;
};

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
    ActivationBreakdown activations;

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

struct TimeEstimate {
    double peak_flops_per_s = 0.0;      // dense peak of the compute dtype, one GPU
    double achieved_flops_per_s = 0.0;  // peak x mfu x gpus (model FLOP/s of the cluster)
    double seconds = 0.0;
    double days = 0.0;
    double gpu_hours = 0.0;
    double cost = 0.0;  // gpu_hours x price; 0 when no price is given
    bool has_cost = false;
    double energy_kwh = 0.0;  // gpu_hours x TDP (GPU board power only); 0 when no TDP is known
    bool has_energy = false;  // the hardware profile gives a TDP
    double hfu = 0.0;         // hardware FLOPs utilisation implied by mfu
    // Where the time comes from: false, the assumed cluster.mfu; true, the performance model
    // (Plan::performance), whose MFU `mfu` then is.
    bool mfu_predicted = false;
    double mfu = 0.0;  // the MFU the time rests on (assumed or predicted)
};

enum class Warning : std::uint32_t {
    does_not_fit = 1u << 0,
    mfu_above_measured = 1u << 1,
    hfu_above_one = 1u << 2,
    no_architecture = 1u << 3,  // params kind: activations not counted
    master_duplicates_fp32 = 1u << 4,
    adafactor_unshaped = 1u << 5,  // params kind: factored state not counted
    large_pipeline_bubble = 1u << 6,
    selective_without_attention = 1u << 7,
};

struct Plan {
    ParamCounts params;
    MemoryBreakdown memory;
    FlopsBreakdown flops;
    Parallelism parallel;
    TimeEstimate time;
    // The predicted step time and its breakdown, whether or not the time rests on it.
    PerformanceBreakdown performance;
    std::uint32_t warnings = 0;  // Warning bits; warning_messages() renders them

    bool has(Warning w) const { return (warnings & static_cast<std::uint32_t>(w)) != 0; }
};

// Checks a spec against the hardware it will run on; returns the first problem as a value.
std::optional<FieldError> check(const PlanSpec& spec, const HardwareProfile& hardware);

// Evaluates a spec that check() accepted. Pure and allocation-free: every slider move calls it.
Plan evaluate(const PlanSpec& spec, const HardwareProfile& hardware);

// Human-readable warnings of a plan.
std::vector<std::string> warning_messages(const Plan& plan, const PlanSpec& spec,
                                          const HardwareProfile& hardware);

// Parameter counts alone (used by evaluate, presets and the solver).
ParamCounts count_params(const ModelSpec& model);

}  // namespace tally
