#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "planner/core/errors.h"
#include "planner/core/explanation.h"
#include "planner/core/text.h"

namespace tally::cli {

// Whether a language code (--lang, LANG) names a language Tally ships: en, zh_CN.
bool parse_language(const std::string& code);

// The language of the command line's text output and error messages: --lang when given, else
// the environment's (LC_ALL, LC_MESSAGES, LANG, through QLocale::system()); LANG=C is English.
// `--json` output is the same in every language.
void set_cli_language(const std::string& code);

// A text of the command line's own, in its language (UTF-8). lupdate finds
// cli_text("context", "text") as it finds QCoreApplication::translate (the translation targets
// pass -tr-function-alias translate+=cli_text).
std::string cli_text(const char* context, const char* source);
// A label that leads a line ("error:", "assumed:") with the space that separates it from what
// follows: none after a full-width colon ("错误："), which carries its own.
std::string cli_lead(const std::string& label);
// A plan's name as the command line shows it: a shipped example's title (resources/examples,
// translated under "tally::examples" as the window shows it) in the command line's language;
// any other name as given.
std::string cli_plan_name(const std::string& name);
// A planner text (planner/core/text.h) in the command line's language. (Not an overload of
// cli_text: lupdate reads cli_text's first argument as a context and would skip a TALLY_TEXT
// inside it.)
std::string cli_render(const Text& text);
// A rejected input (field, value, what is allowed) in the command line's language.
std::string cli_error(const FieldError& error);
// The columns UTF-8 `text` takes in a terminal: one a character, two for the wide ones (a lead
// byte of U+1000 and above, as Chinese text is), so that translated columns line up.
std::size_t display_columns(const std::string& text);
// An option's whole-number check, for a CLI::Validator: empty when `text` is a whole number of at
// least `least`, else what is wrong in words ("got 0; a whole number >= 1") rather than CLI11's
// range of doubles ("Value 0 not in range 0.000000 to 1.797693e+308").
std::string whole_number_at_least(const std::string& text, std::int64_t least);
// An explanation's label (marked in planner/text/explain.cpp) in the command line's language.
std::string cli_label(const char* context, const std::string& english);
// An explanation's formula in the command line's language.
std::string cli_formula(const Explanation& explanation);
// An explanation's line with the numbers in the command line's language.
std::string cli_substitution(const Explanation& explanation);
// An explanation's source in the command line's language (a citation as written).
std::string cli_source(const Explanation& explanation);

}  // namespace tally::cli
