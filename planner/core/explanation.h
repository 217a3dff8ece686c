#pragma once

#include <string>
#include <utility>
#include <vector>

#include "planner/core/text.h"

namespace tally {

// "Shows its work": for each headline figure of a plan, the formula, the formula with the
// spec's numbers in it, and the source. The CLI prints these; the GUI shows them as tooltips.
// The labels are marked with QT_TRANSLATE_NOOP(kExplanationContext, ...) where they are written
// (planner/text/explain.cpp): the UI and the CLI show a label in the user's language by looking
// its English up under this context. A formula written in words is marked the same way under
// kFormulaContext and shown translated; a formula in words with values in it ("dense bf16 peak
// of H100") carries them as a text (formula_text); symbolic formulas stay as written. A source in
// words ("definition", "sum of the above") is marked the same way under kSourceContext; one with
// values in it ("H100 TDP from its hardware profile") carries them as texts (source_texts); a
// citation stays as written, its paper and section reading the same in every language.
inline constexpr const char* kExplanationContext = "tally::explain";
inline constexpr const char* kFormulaContext = "tally::formula";
inline constexpr const char* kSourceContext = "tally::source";
// How the parts of a source are joined (source_texts), under kSourceContext.
inline constexpr const char* kSourceJoin = QT_TRANSLATE_NOOP("tally::source", "%1; %2");

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
    // The source as translatable texts, shown joined (kSourceJoin), when it has values in it; empty
    // when the source is looked up by its English under kSourceContext (or is a citation).
    std::vector<Text> source_texts{};
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

// A part of a source that reads the same in every language (a citation), for with_source().
inline Text as_written(std::string text) {
    return Text("", "%1").arg(std::move(text));
}

// Gives an explanation a source in words with values in it: the texts joined (kSourceJoin) as
// its English, the texts beside it.
inline Explanation with_source(Explanation explanation, std::vector<Text> source) {
    explanation.source.clear();
    for (const Text& part : source) {
        explanation.source =
            explanation.source.empty()
                ? part.english()
                : substitute_args(kSourceJoin, {explanation.source, part.english()});
    }
    explanation.source_texts = std::move(source);
    return explanation;
}

}  // namespace tally
