#pragma once

// Plans side by side: several saved plans, each its own spec on its own GPU, checked and evaluated
// as `tally plan` does, and the figures a budget compares (GPUs, layout, memory, step, days,
// GPU-hours, cost, energy) one line each. `tally plans compare` prints these lines and the Saved
// plans panel's Compare shows them, so both show the same numbers. (`tally compare` is the other
// comparison: one plan on several hardware profiles, planner/training/compare.h.)

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/core/spec.h"
#include "planner/core/text.h"
#include "planner/hardware/hardware.h"
#include "planner/training/plan.h"

namespace tally {

inline constexpr std::size_t kMinComparedPlans = 2;
inline constexpr std::size_t kMaxComparedPlans = 6;

struct ComparedPlan {
    std::string name;
    PlanSpec spec;
    HardwareProfile hardware;
    std::optional<FieldError> error;  // check()'s refusal on its GPU; `plan` is empty then
    Plan plan;

    bool evaluated() const { return !error.has_value(); }
};

// The plan `spec` on `hardware` (the profile its cluster.gpu names), as tally plan evaluates it.
ComparedPlan compared_plan(std::string name, const PlanSpec& spec, const HardwareProfile& hardware);

// One figure across the plans: its label (translatable under "tally::compare") and its value in
// each plan, in the order given ("not evaluated: <why>" where check() refused the plan).
struct ComparisonLine {
    const char* label = "";
    std::vector<Text> values;
};

// The lines for 2 to 6 plans; throws SpecError("plans", ...) for fewer or more.
std::vector<ComparisonLine> plan_comparison_lines(const std::vector<ComparedPlan>& plans);

// The same figures as numbers, one object a plan (units in the keys).
nlohmann::json plan_comparison_json(const std::vector<ComparedPlan>& plans);

}  // namespace tally
