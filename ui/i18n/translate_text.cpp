#include "ui/i18n/translate_text.h"

#include <algorithm>
#include <iterator>

#include <QCoreApplication>
#include <vector>

#include "ui/i18n/translations.h"

namespace tally::ui {

namespace {

QString lookUp(const char* context, const char* source, const Translations* translations) {
    if (translations != nullptr) {
        return translations->translate(context, source);
    }
    return QCoreApplication::translate(context, source);
}

// The arguments go in by the planner's own substitution, so the English and every translation
// fill their placeholders the same way.
QString substituted(const QString& pattern, const std::vector<std::string>& args) {
    return QString::fromStdString(substitute_args(pattern.toStdString(), args));
}

}  // namespace

QString translatedText(const tally::Text& text, const Translations* translations) {
    if (text.empty()) {
        return {};
    }
    std::vector<std::string> args = text.args();
    for (std::size_t i = 0; i < args.size() && i < text.arg_contexts().size(); ++i) {
        if (const char* context = text.arg_contexts()[i]) {
            args[i] = lookUp(context, args[i].c_str(), translations).toStdString();
        }
    }
    return substituted(lookUp(text.context(), text.source(), translations), args);
}

QString translatedLiteral(const char* context, const std::string& english,
                          const Translations* translations) {
    return lookUp(context, english.c_str(), translations);
}

QString translatedFormula(const tally::Explanation& explanation, const Translations* translations) {
    if (!explanation.formula_text.empty()) {
        return translatedText(explanation.formula_text, translations);
    }
    return translatedLiteral(kFormulaContext, explanation.formula, translations);
}

QString translatedSource(const tally::Explanation& explanation, const Translations* translations) {
    if (explanation.source_texts.empty()) {
        return translatedLiteral(kSourceContext, explanation.source, translations);
    }
    QString joined;
    for (const tally::Text& part : explanation.source_texts) {
        const QString text = translatedText(part, translations);
        joined = joined.isEmpty()
                     ? text
                     : lookUp(kSourceContext, kSourceJoin, translations).arg(joined, text);
    }
    return joined;
}

QString translatedSubstitution(const tally::Explanation& explanation,
                               const Translations* translations) {
    if (!explanation.substitution_text.empty()) {
        return translatedText(explanation.substitution_text, translations);
    }
    return QString::fromStdString(explanation.substitution);
}

QString translatedFormText(const char* text) {
    const QString source = QString::fromUtf8(text);
    for (const char* context : {kFormContext, kEnumContext}) {
        const QString result = QCoreApplication::translate(context, text);
        if (result != source) {
            return result;
        }
    }
    return source;
}

tally::TextTranslator uiTextTranslator() {
    return [](const tally::Text& text) { return translatedText(text).toStdString(); };
}

QString translatedAllowed(const tally::FieldError& error, const Translations* translations) {
    if (!error.allowed_text.empty()) {
        return translatedText(error.allowed_text, translations);
    }
    return QString::fromStdString(error.allowed);
}

QString translatedFieldError(const tally::FieldError& error, const Translations* translations) {
    const std::string field =
        !error.field_text.empty() ? translatedText(error.field_text, translations).toStdString()
        : error.field.empty()
            ? lookUp(kFieldErrorContext, kFieldErrorNoField, translations).toStdString()
            : error.field;
    const std::string allowed = translatedAllowed(error, translations).toStdString();
    if (error.value.empty()) {
        return substituted(lookUp(kFieldErrorContext, kFieldErrorWithoutValue, translations),
                           {field, allowed});
    }
    // A placeholder for a value the user did not give ("nothing", "absent") is the planner's
    // word and translated; a value the user wrote is shown as written.
    const bool placeholder = std::find(std::begin(kPlaceholderValues), std::end(kPlaceholderValues),
                                       error.value) != std::end(kPlaceholderValues);
    const std::string value =
        placeholder ? lookUp(kFieldErrorContext, error.value.c_str(), translations).toStdString()
                    : shown_error_value(
                          error.value,
                          lookUp(kFieldErrorContext, kValueLength, translations).toStdString());
    return substituted(lookUp(kFieldErrorContext, kFieldErrorWithValue, translations),
                       {field, value, allowed});
}

}  // namespace tally::ui
