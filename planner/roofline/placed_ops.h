#pragma once

// The operations of a plan placed on the hardware's roofs: the spec's own "ops" list and the
// model's layers for a training step, a prefill and a decode step. `tally roofline` prints these
// and the desktop app's roofline chart draws them, so both show the same numbers.

#include <optional>
#include <vector>

#include "planner/core/errors.h"
#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/roofline/model_ops.h"
#include "planner/roofline/operations.h"
#include "planner/roofline/roofline.h"

namespace tally {

struct PlacedOp {
    OpCost cost;                 // one execution
    std::optional<Phase> phase;  // nullopt: an operation of the spec's "ops" list
    std::optional<Pass> pass;    // model layers only
    double count = 1.0;          // executions per step
    int op_index = -1;           // the spec's "ops" index (nullopt phase only)
    Roof roof;                   // the roof it is placed under
    RooflinePoint point;
};

// What to do with an operation whose dtype the hardware has no peak for, or whose sizes are bad.
enum class PlacementPolicy {
    strict,   // throw SpecError naming the field (the command line)
    lenient,  // report it in errors and leave it out (the live chart)
};

struct PlacedOps {
    std::vector<PlacedOp> ops;
    std::vector<FieldError> errors;  // lenient only: spec ops that could not be costed or placed
};

// For a spec check() accepted. Each operation sits under the roof of its own dtype; model layers
// under the spec's compute dtype (model_ops_options()).
PlacedOps place_plan_ops(const PlanSpec& spec, const HardwareProfile& hardware,
                         PlacementPolicy policy);

}  // namespace tally
