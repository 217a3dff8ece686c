#pragma once

#include <nlohmann/json_fwd.hpp>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/serving/inference.h"

namespace tally {

// `tally infer --json`: the keys of docs/serving.md.
nlohmann::json to_json(const ServingPlan& plan, const PlanSpec& spec,
                       const HardwareProfile& hardware);

}  // namespace tally
