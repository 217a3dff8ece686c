#pragma once

#include <string>
#include <vector>

#include "planner/core/explanation.h"
#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/training/plan.h"

namespace tally {

std::vector<Explanation> explain(const PlanSpec& spec, const HardwareProfile& hardware,
                                 const Plan& plan);

}  // namespace tally
