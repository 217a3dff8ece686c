#pragma once

#include <nlohmann/json_fwd.hpp>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/serving/inference.h"

namespace tally {

// One continuous-batching point: concurrency, step_s, ttft_s, itl_s, e2e_s, requests_per_s,
// tokens_per_s, fits.
nlohmann::json to_json(const ContinuousBatchingPoint& point);

// `tally infer --json`: the keys of docs/serving.md.
nlohmann::json to_json(const ServingPlan& plan, const PlanSpec& spec,
                       const HardwareProfile& hardware);

}  // namespace tally
