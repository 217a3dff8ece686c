#include "ui/i18n/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QMutex>
#include <QMutexLocker>
#include <algorithm>

namespace tally::ui {

QStringList shippedLanguages() {
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString languageName(const QString& code) {
    if (code == QLatin1String("zh_CN")) {
        return QStringLiteral("简体中文");
    }
    return QStringLiteral("English");
}

QString languageForLocale(const QLocale& locale) {
    return locale.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

std::optional<QString> parseLanguage(const QString& text) {
    QString code = text.trimmed();
    // "zh_CN.UTF-8", "en_US@euro": the encoding and the modifier say nothing of the language.
    code = code.section(QLatin1Char('.'), 0, 0).section(QLatin1Char('@'), 0, 0);
    code.replace(QLatin1Char('-'), QLatin1Char('_'));
    if (code.isEmpty()) {
        return std::nullopt;
    }
    if (code == QLatin1String("C") || code == QLatin1String("POSIX")) {
        return QStringLiteral("en");
    }
    const QLocale locale(code);
    if (locale.language() == QLocale::C) {
        return std::nullopt;
    }
    if (locale.language() == QLocale::Chinese || locale.language() == QLocale::English) {
        return languageForLocale(locale);
    }
    return std::nullopt;
}

QLocale numberLocale(const QString& language, const QLocale& system) {
    if (languageForLocale(system) == language) {
        return system;
    }
    if (language == QLatin1String("zh_CN")) {
        return QLocale(QLocale::Chinese, QLocale::SimplifiedHanScript, QLocale::China);
    }
    return QLocale(QLocale::English, QLocale::UnitedStates);
}

void applyNumberLocale(const QString& language) {
    QLocale::setDefault(numberLocale(language, QLocale::system()));
}

// Tally's catalogue as QCoreApplication sees it: answers every lookup of our contexts (the source
// text in English) and remembers which lookup produced which text.
class Translations::Recorder : public QTranslator {
public:
    QString translate(const char* context, const char* source, const char* disambiguation,
                      int n) const override {
        QString result =
            m_catalogue ? m_catalogue->translate(context, source, disambiguation, n) : QString();
        const QString shown = result.isEmpty() ? QString::fromUtf8(source) : result;
        if (!shown.isEmpty()) {
            // One text may come from several lookups (the plan form tries the field context,
            // then the enums'); each is kept, and retranslated() takes the first the next
            // catalogue has.
            TranslationKey key{QByteArray(context), QByteArray(source), QByteArray(disambiguation),
                               n};
            QMutexLocker lock(&m_mutex);
            QList<TranslationKey>& keys = m_keys[shown];
            const bool known = std::any_of(keys.cbegin(), keys.cend(), [&key](const auto& k) {
                return k.context == key.context && k.source == key.source &&
                       k.disambiguation == key.disambiguation && k.n == key.n;
            });
            if (!known) {
                keys.append(std::move(key));
            }
        }
        return result;
    }
    bool isEmpty() const override { return false; }

    // Loads a catalogue; an empty path: none (English, the source texts).
    bool load(const QString& path) {
        m_catalogue.reset();
        if (path.isEmpty()) {
            return true;
        }
        auto catalogue = std::make_unique<QTranslator>();
        if (!catalogue->load(path)) {
            return false;
        }
        m_catalogue = std::move(catalogue);
        return true;
    }
    // The catalogue's translation of a key; empty when it has none.
    QString lookUp(const TranslationKey& key) const {
        if (!m_catalogue) {
            return {};
        }
        return m_catalogue->translate(
            key.context.constData(), key.source.constData(),
            key.disambiguation.isEmpty() ? nullptr : key.disambiguation.constData(), key.n);
    }
    // Remembers that `shown` is what `keys` give, for a text put on screen without a lookup
    // through QCoreApplication (a retranslated one), so the next switch finds it too.
    void remember(const QString& shown, const QList<TranslationKey>& keys) const {
        QMutexLocker lock(&m_mutex);
        QList<TranslationKey>& known = m_keys[shown];
        for (const TranslationKey& key : keys) {
            const bool have = std::any_of(known.cbegin(), known.cend(), [&key](const auto& k) {
                return k.context == key.context && k.source == key.source &&
                       k.disambiguation == key.disambiguation && k.n == key.n;
            });
            if (!have) {
                known.append(key);
            }
        }
    }
    QList<TranslationKey> keysOf(const QString& shown) const {
        QMutexLocker lock(&m_mutex);
        return m_keys.value(shown);
    }

private:
    std::unique_ptr<QTranslator> m_catalogue;
    mutable QMutex m_mutex;
    mutable QHash<QString, QList<TranslationKey>> m_keys;
};

Translations::Translations()
    : m_tally(std::make_unique<Recorder>()), m_qt(std::make_unique<QTranslator>()) {}

Translations::~Translations() {
    if (m_installed && QCoreApplication::instance() != nullptr) {
        QCoreApplication::removeTranslator(m_qt.get());
        QCoreApplication::removeTranslator(m_tally.get());
    }
}

bool Translations::load(const QString& code) {
    const bool known = shippedLanguages().contains(code);
    const QString language = known ? code : QStringLiteral("en");
    QCoreApplication* app = QCoreApplication::instance();
    if (m_installed && app != nullptr) {
        QCoreApplication::removeTranslator(m_qt.get());
        QCoreApplication::removeTranslator(m_tally.get());
        m_installed = false;
    }
    bool ok = true;
    if (language == QLatin1String("en")) {
        // The source texts, with the plural forms of those that count ("1 result").
        ok = m_tally->load(QStringLiteral(":/i18n/tally_en.qm"));
        m_qt = std::make_unique<QTranslator>();
    } else {
        ok = m_tally->load(QStringLiteral(":/i18n/tally_%1.qm").arg(language));
        m_qt = std::make_unique<QTranslator>();
        // Qt's own texts (the standard buttons, the file dialog): missing is not an error, the
        // window then shows Qt's English for those few.
        (void)m_qt->load(QStringLiteral("qtbase_%1").arg(language),
                         QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    }
    m_language = ok ? language : QStringLiteral("en");
    if (app != nullptr) {
        // The last one installed is asked first.
        QCoreApplication::installTranslator(m_qt.get());
        QCoreApplication::installTranslator(m_tally.get());
        m_installed = true;
    }
    return known && ok;
}

QString Translations::translate(const char* context, const char* source, const char* disambiguation,
                                int n) const {
    const QString result = m_tally->translate(context, source, disambiguation, n);
    return result.isEmpty() ? QString::fromUtf8(source) : result;
}

std::optional<TranslationKey> Translations::keyOf(const QString& shown) const {
    const QList<TranslationKey> keys = m_tally->keysOf(shown);
    if (keys.isEmpty()) {
        return std::nullopt;
    }
    return keys.first();
}

QString Translations::retranslated(const QString& shown, const QList<QByteArray>& contexts,
                                   const QSet<QByteArray>* widgetClasses) const {
    QList<TranslationKey> keys = m_tally->keysOf(shown);
    if (keys.isEmpty()) {
        return shown;
    }
    // The likeliest lookup first: one in the showing widget's own class or a parent's, then one
    // in no widget's class, then the rest (another panel's word for the same text).
    const auto rank = [&](const TranslationKey& key) {
        if (contexts.contains(key.context)) {
            return 0;
        }
        if (widgetClasses == nullptr || !widgetClasses->contains(key.context)) {
            return 1;
        }
        return 2;
    };
    std::stable_sort(
        keys.begin(), keys.end(),
        [&](const TranslationKey& a, const TranslationKey& b) { return rank(a) < rank(b); });
    for (const TranslationKey& key : keys) {
        QString result = m_tally->lookUp(key);
        if (result.isEmpty()) {
            // Qt's own contexts (a standard button's "OK") are in Qt's catalogue.
            result = m_qt->translate(
                key.context.constData(), key.source.constData(),
                key.disambiguation.isEmpty() ? nullptr : key.disambiguation.constData(), key.n);
        }
        if (!result.isEmpty()) {
            m_tally->remember(result, keys);
            return result;
        }
    }
    const QString source = QString::fromUtf8(keys.first().source);
    m_tally->remember(source, keys);
    return source;
}

}  // namespace tally::ui
