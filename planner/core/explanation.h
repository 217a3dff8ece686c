#pragma once

#include <string>

#include "planner/core/text.h"

namespace tally {

// "Shows its work": for each headline figure of a plan, the formula, the formula with the
// spec's numbers in it, and the source. The CLI prints these; the GUI shows them as tooltips.
// The labels are marked with QT_TRANSLATE_NOOP(kExplanationContext, ...) where they are written
// (planner/text/explain.cpp): the UI and the CLI show a label in the user's language by looking
// its English up under this context. Formulas, substitutions and sources stay as written.
inline constexpr const char* kExplanationContext = "tally::explain";

struct Explanation {
    std::string key;           // stable id, e.g. "time.days", "memory.optimizer_bytes"
    std::string label;         // short name
    double value = 0.0;        // in the unit below
    std::string unit;          // "days", "bytes", "FLOPs", ...
    std::string formula;       // symbolic
    std::string substitution;  // with numbers
    std::string source;        // paper / seed
};

}  // namespace tally
