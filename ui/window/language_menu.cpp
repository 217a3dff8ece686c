#include "ui/window/language_menu.h"

#include <QAction>
#include <QActionGroup>
#include <QLocale>
#include <QMenu>

#include "ui/common/retranslate.h"
#include "ui/i18n/translations.h"
#include "ui/window/app_settings.h"
#include "ui/window/main_window.h"

namespace tally::ui {

QString startLanguage(const QString& requested, const AppSettings& settings) {
    if (const std::optional<QString> code = parseLanguage(requested)) {
        return *code;
    }
    const QString remembered = settings.language();
    if (shippedLanguages().contains(remembered)) {
        return remembered;
    }
    return languageForLocale(QLocale::system());
}

void switchLanguage(MainWindow* window, Translations* translations, const QString& code) {
    if (translations->language() == code) {
        return;
    }
    applyNumberLocale(code);
    translations->load(code);
    retranslateWidgets(*translations);
    window->refreshTexts();
}

void installLanguageMenu(MainWindow* window, Translations* translations) {
    QMenu* menu = window->viewMenu()->addMenu(MainWindow::tr("&Language"));
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(menu);
    group->setExclusive(true);
    for (const QString& code : shippedLanguages()) {
        // Each language in its own words, as language menus do, so a user who cannot read the
        // current one still finds theirs.
        QAction* action = menu->addAction(languageName(code));
        action->setObjectName(QStringLiteral("language_") + code);
        action->setCheckable(true);
        action->setChecked(code == translations->language());
        group->addAction(action);
        QObject::connect(action, &QAction::triggered, window, [window, translations, code] {
            window->appSettings()->setLanguage(code);
            switchLanguage(window, translations, code);
        });
    }
}

}  // namespace tally::ui
