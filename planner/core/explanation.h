#pragma once

#include <string>
#include <utility>

#include "planner/core/text.h"

namespace tally {

// "Shows its work": for each headline figure of a plan, the formula, the formula with the
// spec's numbers in it, and the source. The CLI prints these; the GUI shows them as tooltips.
// The labels are marked with QT_TRANSLATE_NOOP(kExplanationContext, ...) where they are written
// (planner/text/explain.cpp): the UI and the CLI show a label in the user's language by looking
// its English up under this context. A formula written in words is marked the same way under
// kFormulaContext and shown translated; a formula in words with values in it ("dense bf16 peak
// of H100") carries them as a text (formula_text); symbolic formulas and the sources stay as
// written.
inline constexpr const char* kExplanationContext = "tally::explain";
inline constexpr const char* kFormulaContext = "tally::formula";

struct Explanation {
    std::string key;           // stable id, e.g. "time.days", "memory.optimizer_bytes"
    std::string label;         // short name
    double value = 0.0;        // in the unit below
    std::string unit;          // "days", "bytes", "FLOPs", ...
    std::string formula;       // symbolic
    std::string substitution;  // with numbers, in English
    std::string source;        // paper / seed
    // The substitution as a translatable text (core/text.h) when it has words in it ("8
    // micro-batches of 0.5 s"), so the UI and the CLI show it in the user's language; empty when
    // it is numbers and symbols alone, which read the same in every language.
    Text substitution_text;
    // The formula as a translatable text (core/text.h) when it has values in it; empty when the
    // formula is looked up by its English under kFormulaContext (or is symbols alone).
    Text formula_text{};
};

// An explanation whose substitution is numbers and symbols alone.
inline Explanation make_explanation(std::string key, std::string label, double value,
                                    std::string unit, std::string formula, std::string substitution,
                                    std::string source) {
    return {std::move(key),          std::move(label),  value, std::move(unit), std::move(formula),
            std::move(substitution), std::move(source), Text()};
}

// An explanation whose substitution has words in it: its English is kept beside the text.
inline Explanation make_explanation(std::string key, std::string label, double value,
                                    std::string unit, std::string formula, Text substitution,
                                    std::string source) {
    std::string english = substitution.english();
    return {std::move(key),    std::move(label),       value,
            std::move(unit),   std::move(formula),     std::move(english),
            std::move(source), std::move(substitution)};
}

// Gives an explanation a formula with values in it: its English beside the text.
inline Explanation with_formula(Explanation explanation, Text formula) {
    explanation.formula = formula.english();
    explanation.formula_text = std::move(formula);
    return explanation;
}

}  // namespace tally
