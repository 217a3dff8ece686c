#pragma once

#include <QString>
#include <string>

#include "planner/core/errors.h"
#include "planner/core/explanation.h"
#include "planner/core/text.h"

namespace tally::ui {

class Translations;

// The planner's texts (planner/core/text.h) in the user's language: the template looked up under
// its context, then the same arguments substituted. With `translations` null the lookup goes
// through QCoreApplication::translate() (the window's installed catalogues); the command line,
// which has no application object, passes its own.
QString translatedText(const tally::Text& text, const Translations* translations = nullptr);

// A planner text marked with QT_TRANSLATE_NOOP(context, ...) that reached us as its English
// (an explanation's label, a report heading): looked up by that English under `context`.
QString translatedLiteral(const char* context, const std::string& english,
                          const Translations* translations = nullptr);

// An explanation's formula in the user's language: its formula_text translated when it has one,
// else its English looked up under kFormulaContext (a symbolic formula comes back as written).
QString translatedFormula(const tally::Explanation& explanation,
                          const Translations* translations = nullptr);

// An explanation's source in the user's language: its source_texts translated and joined
// (kSourceJoin) when it has them, else its English looked up under kSourceContext (a citation comes
// back as written).
QString translatedSource(const tally::Explanation& explanation,
                         const Translations* translations = nullptr);

// An explanation's line with the numbers (planner/core/explanation.h) in the user's language:
// its substitution_text translated when it has one, else the numbers as written.
QString translatedSubstitution(const tally::Explanation& explanation,
                               const Translations* translations = nullptr);

// A rejected input, as message() writes it, in the user's language: the frame ("%1: got %2;
// %3"), and what is allowed when the error carries it as a Text (FieldError::allowed_text); the
// field (a spec key) and the value stay as written, but for a field in words
// (FieldError::field_text) and the planner's placeholder values (kPlaceholderValues).
QString translatedFieldError(const tally::FieldError& error,
                             const Translations* translations = nullptr);
// What is allowed, alone.
QString translatedAllowed(const tally::FieldError& error,
                          const Translations* translations = nullptr);

// The plan form's texts: its fields' labels and help (ui/plan/spec_fields.cpp's F(), which
// lupdate files under "tally::ui") and the enum labels of planner/core/enum_names.h (marked
// under "tally::enums").
inline constexpr const char* kFormContext = "tally::ui";
inline constexpr const char* kEnumContext = "tally::enums";
QString translatedFormText(const char* text);

// A TextTranslator (planner/core/text.h) for the planner's reports and titles: translatedText()
// through the installed catalogues, as UTF-8.
tally::TextTranslator uiTextTranslator();

}  // namespace tally::ui
