#pragma once

// Planner texts a person reads, in a form the UI and the CLI can translate while the planner
// stays Qt-free.
//
// A text is written once, in English, as a template with Qt-style placeholders %1 .. %9, inside
// TALLY_TEXT("context", "template"); its arguments are added with arg(). english() substitutes
// them into the template (what JSON, logs and the English UI show). The UI and the CLI look the
// template up in Qt Linguist's catalogue under (context, template), then substitute the same
// arguments into the translation (ui/i18n/translate.h). lupdate finds the templates because the
// translation targets run it with `-tr-function-alias QT_TRANSLATE_NOOP+=TALLY_TEXT`
// (resources/translations/CMakeLists.txt); a text with no arguments may also be marked with
// QT_TRANSLATE_NOOP("context", "text"), which expands to the literal itself.
//
// Contexts name the part of the planner a text comes from ("tally::check", "tally::warnings",
// "tally::explain", "tally::report"), so a translator sees related texts together.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

// lupdate reads QT_TRANSLATE_NOOP by name and does not expand macros; here it expands to the
// text, exactly as Qt's own definition (qglobal.h) does, so a file may include both.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, x) x
#endif

#define TALLY_TEXT(context, source) ::tally::Text(context, source)

namespace tally {

class Text {
public:
    Text() = default;
    Text(const char* context, const char* source) : m_context(context), m_source(source) {}

    // Adds the next argument (%1, then %2, ...), already written as a person reads it.
    Text& arg(std::string value) &;
    Text&& arg(std::string value) &&;
    Text& arg(std::string_view value) & { return arg(std::string(value)); }
    Text&& arg(std::string_view value) && { return std::move(*this).arg(std::string(value)); }
    Text& arg(const char* value) & { return arg(std::string(value)); }
    Text&& arg(const char* value) && { return std::move(*this).arg(std::string(value)); }
    // Whole numbers in full; other numbers through shortest_text() (core/quantity_text.h).
    Text& arg(std::int64_t value) &;
    Text&& arg(std::int64_t value) &&;
    Text& arg(int value) & { return arg(static_cast<std::int64_t>(value)); }
    Text&& arg(int value) && { return std::move(*this).arg(static_cast<std::int64_t>(value)); }
    Text& arg(double value) &;
    Text&& arg(double value) &&;
    // An argument that is itself a text to translate (marked with QT_TRANSLATE_NOOP(context,
    // source)): English here, looked up under `context` where the template is translated.
    Text& arg_translated(const char* context, const char* source) &;
    Text&& arg_translated(const char* context, const char* source) &&;

    bool empty() const { return m_source == nullptr || *m_source == '\0'; }
    const char* context() const { return m_context; }
    const char* source() const { return m_source; }
    const std::vector<std::string>& args() const { return m_args; }
    // For each argument, the context to translate it under (arg_translated), else nullptr.
    const std::vector<const char*>& arg_contexts() const { return m_arg_contexts; }

    // The template with its arguments, in English.
    std::string english() const;

private:
    const char* m_context = "";
    const char* m_source = "";
    std::vector<std::string> m_args;
    std::vector<const char*> m_arg_contexts;
};

// How a caller that translates renders a text in its language (the UI and the CLI pass one built
// on Qt's catalogue); an empty one gives the English.
using TextTranslator = std::function<std::string(const Text&)>;
std::string render(const Text& text, const TextTranslator& translate);

// Replaces %1 .. %9 in `pattern` by args[0] .. args[8] in one pass (an argument's own "%2" is
// left alone); a placeholder without an argument stays as written. "%%" is not special.
std::string substitute_args(std::string_view pattern, const std::vector<std::string>& args);

}  // namespace tally
