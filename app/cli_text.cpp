#include "app/cli_text.h"

#include <QLocale>
#include <QString>
#include <charconv>
#include <memory>

#include "ui/i18n/translate_text.h"
#include "ui/i18n/translations.h"

namespace tally::cli {

namespace {

// The process's one catalogue for text output: loaded on first use, in the language --lang set
// or the environment gives.
std::string& requested_language() {
    static std::string code;
    return code;
}

const ui::Translations& translations() {
    static const std::unique_ptr<ui::Translations> loaded = [] {
        auto t = std::make_unique<ui::Translations>();
        const std::optional<QString> code =
            ui::parseLanguage(QString::fromStdString(requested_language()));
        t->load(code ? *code : ui::languageForLocale(QLocale::system()));
        return t;
    }();
    return *loaded;
}

}  // namespace

bool parse_language(const std::string& code) {
    return ui::parseLanguage(QString::fromStdString(code)).has_value();
}

void set_cli_language(const std::string& code) {
    requested_language() = code;
}

std::string cli_text(const char* context, const char* source) {
    return translations().translate(context, source).toStdString();
}

std::string cli_lead(const std::string& label) {
    static const std::string full_width_colon = "\xEF\xBC\x9A";  // U+FF1A
    const bool ends_full_width = label.size() >= full_width_colon.size() &&
                                 label.compare(label.size() - full_width_colon.size(),
                                               full_width_colon.size(), full_width_colon) == 0;
    return ends_full_width ? label : label + " ";
}

std::string cli_plan_name(const std::string& name) {
    return name.empty() ? name : cli_text("tally::examples", name.c_str());
}

std::string cli_render(const Text& text) {
    return ui::translatedText(text, &translations()).toStdString();
}

std::size_t display_columns(const std::string& text) {
    std::size_t width = 0;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte & 0xC0) != 0x80) {  // not a continuation byte
            width += byte >= 0xE1 ? 2 : 1;
        }
    }
    return width;
}

std::string cli_error(const FieldError& error) {
    return ui::translatedFieldError(error, &translations()).toStdString();
}

std::string cli_label(const char* context, const std::string& english) {
    return ui::translatedLiteral(context, english, &translations()).toStdString();
}

std::string cli_formula(const Explanation& explanation) {
    return ui::translatedFormula(explanation, &translations()).toStdString();
}

std::string cli_substitution(const Explanation& explanation) {
    return ui::translatedSubstitution(explanation, &translations()).toStdString();
}

std::string cli_source(const Explanation& explanation) {
    return ui::translatedSource(explanation, &translations()).toStdString();
}

std::string whole_number_at_least(const std::string& text, std::int64_t least) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (!text.empty() && ec == std::errc() && ptr == end && value >= least) {
        return {};
    }
    return cli_render(
        TALLY_TEXT("tally::cli", "got %1; a whole number >= %2").arg(text).arg(least));
}

}  // namespace tally::cli
