#pragma once

#include "planner/core/spec.h"

namespace tally::ui {

// The catalogue context of the shipped examples' names and descriptions.
inline constexpr const char* kExampleContext = "tally::examples";

// A shipped example (or the start plan) with its name and description in the user's language,
// where the catalogue has them; a plan opened from it keeps them as its own name and notes.
PlanSpec localizedExample(PlanSpec spec);

// After a language switch: a name or description that is a shipped example's, as written or as
// localizedExample() gave it in a language used before, in the language now; any other text
// (the user's own) as it is.
std::string relocalizedExampleText(const std::string& text);

}  // namespace tally::ui
