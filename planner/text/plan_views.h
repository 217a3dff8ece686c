#pragma once

// What the desktop app draws for one spec: the plan, its explanations, the memory of each ZeRO
// stage, the sweeps behind the memory-vs-variable and days-vs-GPUs charts, and the roofline's
// roofs and marks. Computed here, Qt-free, so the GUI only draws, and the tests and the report see
// the same numbers.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/errors.h"
#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/roofline/operations.h"
#include "planner/roofline/roofline.h"
#include "planner/serving/inference.h"
#include "planner/text/explain.h"
#include "planner/training/plan.h"
#include "planner/training/solver.h"
#include "planner/training/sweep.h"

namespace tally {

// The memory of the spec under one ZeRO stage (everything else unchanged).
struct ZeroVariant {
    int stage = 0;
    bool valid = false;  // false where check() rejects the spec at this stage
    MemoryBreakdown memory;
};

// The x values a chart sweeps for a spec: powers of two around the spec's own value (micro
// batch 1..1024, sequence length 256..128Ki, GPUs tp·pp·2^k up to 64Ki, each range stretched to
// hold the spec's value), or evenly spaced layer counts in multiples of pp up to twice the
// spec's. The spec's own value is always one of them, so a curve passes through the plan.
std::vector<double> sweep_values(const PlanSpec& spec, SweepVariable variable);

// Which set a roofline mark belongs to.
enum class RooflineGroup {
    seed,      // CS336 lecture 2's operations (ReLU, GELU, dot, matvec, matmul)
    user,      // the spec's "ops" list (the user's einsum and other operations)
    training,  // the model's layers, one training step (forward + backward)
    prefill,   // the model's layers, one prefill (forward over the prompt)
    decode,    // the model's layers, one decode step (one new token per sequence)
};
std::string_view to_string(RooflineGroup group);

struct RooflineMark {
    std::string label;
    RooflineGroup group = RooflineGroup::seed;
    // A whole step of a phase (the sum of its operations) rather than one operation. The chart
    // labels these; single layer operations are small unlabelled marks with a tooltip.
    bool aggregate = false;
    OpCost cost;         // one execution (an aggregate: the whole step)
    double count = 1.0;  // executions per step
    int op_index = -1;   // the user group: the index in spec.ops
    Roof roof;           // the roof it is placed under (its dtype's, else the plan's compute dtype)
    RooflinePoint point;
};

struct RooflineView {
    std::vector<Roof> roofs;                  // one per dtype family the hardware supports
    ComputeType primary = ComputeType::bf16;  // the plan's compute dtype family
    IntensityRange range;
    // Each roof as a polyline over `range` (roof_polyline()), in the order of `roofs`.
    std::vector<std::vector<ChartPoint>> roof_lines;
    std::vector<RooflineMark> marks;
    std::vector<FieldError> op_errors;  // spec.ops entries that could not be costed ("ops[i]...")
};

// CS336 lecture 2's operations in bf16 at the sizes the lecture uses (seed 000, "a vector of a
// million bf16 values"; resources/examples/roofline-seed.json): ReLU and GELU (20 FLOPs a value)
// over 1e6 values, a dot product of two 1e6-vectors, a 1024 x 1024 matvec and a 1024^3 matmul
// (intensity 1024/3 = 341.3).
std::vector<OpCost> seed_operations();

// The roofline of a spec that check() accepted: the hardware's roofs, the seed's operations, the
// spec's ops, and the model's layers for training, prefill and decode (model_ops()).
RooflineView roofline_view(const PlanSpec& spec, const HardwareProfile& hardware);

// A spec planned for serving: its inference block differs from the defaults (a training plan
// leaves the block out, and the spec writer drops a block at its defaults).
bool is_serving_plan(const PlanSpec& spec);

// The serving plan of a serving spec (evaluate_inference()), its explanations and warnings.
struct ServingView {
    ServingPlan plan;
    std::vector<Explanation> explanations;
    std::vector<std::string> warnings;  // in English; warning_texts translatable (core/text.h)
    std::vector<Text> warning_texts;

    const Explanation* explanation(std::string_view key) const;
};

struct PlanViews {
    PlanSpec spec;
    HardwareProfile hardware;
    Plan plan;
    std::vector<Explanation> explanations;
    std::vector<std::string> warnings;  // in English; warning_texts translatable (core/text.h)
    std::vector<Text> warning_texts;
    std::array<ZeroVariant, 4> zero_variants;
    SweepVariable memory_variable = SweepVariable::micro_batch;
    std::vector<SweepPoint> memory_sweep;
    std::vector<SweepPoint> gpu_sweep;
    RooflineView roofline;
    // The largest model the cluster trains under this recipe, model state only (CS336 lecture 2's
    // question 2; solve_max_params() without activations, as `tally solve max-params` prints it
    // for a spec that does not ask for them).
    MaxParamsResult max_params;
    // For a serving plan (is_serving_plan()): what it is for, so the window's headline shows it;
    // serving_error when check_inference() refuses the block. Both empty for a training plan.
    std::optional<ServingView> serving;
    std::optional<FieldError> serving_error;

    // The explanation with this key (explain()'s "time.days", ...), or nullptr.
    const Explanation* explanation(std::string_view key) const;
};

// Everything above for a spec that check() accepted.
PlanViews compute_plan_views(const PlanSpec& spec, const HardwareProfile& hardware,
                             SweepVariable memory_variable);
// Only the spec, the hardware and the serving plan (or serving_error) of a spec with an
// inference block, for a serving spec without the data and training blocks a training plan
// needs (check_inference() accepts it as `tally infer` does); no training plan.
PlanViews compute_serving_views(const PlanSpec& spec, const HardwareProfile& hardware);

}  // namespace tally
