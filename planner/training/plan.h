#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/core/errors.h"
#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/model/accounting.h"
#include "planner/model/params.h"
#include "planner/performance/performance.h"

namespace tally {

struct TimeEstimate {
    double peak_flops_per_s = 0.0;      // dense peak of the compute dtype, one GPU
    double achieved_flops_per_s = 0.0;  // peak x mfu x gpus (model FLOP/s of the cluster)
    double seconds = 0.0;
    double days = 0.0;
    double gpu_hours = 0.0;
    double cost = 0.0;  // gpu_hours x price; 0 when no price is given
    bool has_cost = false;
    // The price per GPU-hour the cost is at: the spec's cluster.price_per_gpu_hour, else the
    // hardware profile's (price_from_profile), as the layout search, compare and serving take it.
    double price_per_gpu_hour = 0.0;
    bool price_from_profile = false;
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
    // An assumed cluster.mfu more than kMfuAssumedOverPredicted times the performance model's.
    mfu_above_predicted = 1u << 8,
    // Tensor parallelism over more GPUs than one scale-up domain joins (the node, or a bridged
    // pair): its all-reduces cross the slower link between domains.
    tp_spans_nodes = 1u << 9,
    // Full recomputation of the deep ReLU network (the mlp kind): its layers keep only their
    // inputs, which the checkpoints keep too, so it saves nothing and repeats the forward.
    recompute_saves_nothing = 1u << 10,
    // Fewer training tokens than one optimizer step takes (data.tokens < global batch x sequence):
    // the time is a fraction of a step, which no run takes.
    less_than_one_step = 1u << 11,
    // The profile's calibration was fitted on a run of another engine (StepCalibration::engine):
    // its efficiency is that software's, applied to this plan's.
    calibration_other_engine = 1u << 12,
    // An MoE model under the megatron engine at tp > 1 without sequence parallelism, which
    // Megatron-Core stops in training (core_v0.12.0 moe_layer.py, MoELayer.forward).
    moe_tp_without_sp = 1u << 13,
    // Multi-token-prediction modules on the last pipeline stage, whose layers are the default
    // split's, make it the slowest stage: fewer layers there would even the pipeline.
    mtp_last_stage_slowest = 1u << 14,
    // ZeRO-1 under a PyTorch FSDP engine, which has no stage that shards the optimizer state
    // alone (engine_has_zero_stage()): the plan times it, the exports refuse it.
    zero_stage_not_in_engine = 1u << 15,
};

// How far an assumed MFU may exceed the predicted one before the plan warns. The model's error
// on the published cases it is checked against is within -28% .. +20% (docs/planner.md, "Against
// published measurements"), so an assumption twice the prediction is far outside what the model
// gets wrong: the layout itself is likely to be slower than assumed (an exposed collective, a
// bubble), and the days shown rest on the assumption alone.
inline constexpr double kMfuAssumedOverPredicted = 2.0;

// A training plan: the accounting of one step (model/accounting.h: parameters, memory per GPU,
// FLOPs, the parallel layout), and what it takes in time and money.
struct Plan : Accounting {
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

// The warnings of a plan, translatable (core/text.h), and the same in English.
std::vector<Text> warning_texts(const Plan& plan, const PlanSpec& spec,
                                const HardwareProfile& hardware);
std::vector<std::string> warning_messages(const Plan& plan, const PlanSpec& spec,
                                          const HardwareProfile& hardware);

}  // namespace tally
