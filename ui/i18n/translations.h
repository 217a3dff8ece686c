#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QLocale>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTranslator>
#include <memory>
#include <optional>

namespace tally::ui {

// The languages Tally ships, by code: "en" (the source texts) and "zh_CN".
QStringList shippedLanguages();
// A language's name in that language ("English", "简体中文"), for the language menu.
QString languageName(const QString& code);
// The shipped language for a locale: any Chinese locale gives "zh_CN", all others "en".
QString languageForLocale(const QLocale& locale);
// A language code as a user types it (--lang, LANG): "zh_CN", "zh_CN.UTF-8", "zh-CN", "zh",
// "en_US", "C"; nullopt when it names no shipped language.
std::optional<QString> parseLanguage(const QString& text);

// The locale of the numbers a person reads in the window (grouping, decimal mark) with the
// window in `language`: the system's own (`system`), unless the language is not the system's,
// then that language's (en_US, zh_CN). A German desktop in English keeps "1.234,5"; a
// C-locale or English desktop switched to 简体中文 reads numbers as zh_CN writes them.
QLocale numberLocale(const QString& language, const QLocale& system);
// Makes numberLocale(language, QLocale::system()) QLocale's default, which the window's number
// text (ui/common/number_text.h) follows; called where the language is applied, before the
// texts are rebuilt.
void applyNumberLocale(const QString& language);

// Where a text on screen came from: the lookup QCoreApplication::translate() made.
struct TranslationKey {
    QByteArray context;
    QByteArray source;
    QByteArray disambiguation;
    int n = -1;
};

// Tally's catalogue in one language (embedded :/i18n/tally_<code>.qm) and Qt's own
// (qtbase_<code>.qm from QLibraryInfo::TranslationsPath, for the standard buttons and dialogs).
// With an application running, load() installs both, which sends every widget a
// QEvent::LanguageChange. Every lookup made through it is remembered by its result, so a text
// already on screen can be looked up again in the next language (retranslated()).
class Translations {
public:
    Translations();
    ~Translations();
    Translations(const Translations&) = delete;
    Translations& operator=(const Translations&) = delete;

    // Loads a shipped language; false (and English) for any other code.
    bool load(const QString& code);
    QString language() const { return m_language; }

    // Looks a text up in the loaded language; the source text itself when it has no translation.
    QString translate(const char* context, const char* source, const char* disambiguation = nullptr,
                      int n = -1) const;
    // The lookup that produced `shown`, if this process made one.
    std::optional<TranslationKey> keyOf(const QString& shown) const;
    // `shown` in the loaded language when it is a text an earlier lookup produced; else itself.
    // One text may come from lookups of different sources (参数 is the headline's "Parameters"
    // and the memory legend's "Params"): the lookup made in one of `contexts` (the classes of
    // the widget showing it and of its parents) is taken first, then one made in a context that
    // is no widget class of `widgetClasses` (a namespace's, tally::ui or tally::explain), then
    // the first.
    QString retranslated(const QString& shown, const QList<QByteArray>& contexts = {},
                         const QSet<QByteArray>* widgetClasses = nullptr) const;

private:
    class Recorder;
    std::unique_ptr<Recorder> m_tally;
    std::unique_ptr<QTranslator> m_qt;
    QString m_language = QStringLiteral("en");
    bool m_installed = false;
};

}  // namespace tally::ui
