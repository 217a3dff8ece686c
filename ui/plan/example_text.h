#pragma once

#include "planner/core/spec.h"

namespace tally::ui {

// The catalogue context of the shipped examples' names and descriptions.
inline constexpr const char* kExampleContext = "tally::examples";

// A shipped example (or the start plan) with its name and description in the user's language,
// where the catalogue has them; a plan opened from it keeps them as its own name and notes.
PlanSpec localizedExample(PlanSpec spec);

}  // namespace tally::ui
