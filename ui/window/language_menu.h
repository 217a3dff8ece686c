#pragma once

#include <QString>

namespace tally::ui {

class AppSettings;
class MainWindow;
class Translations;

// The language the window starts in: `requested` (--lang) when it names a shipped language,
// else the one picked in View > Language last time, else the system locale's.
QString startLanguage(const QString& requested, const AppSettings& settings);

// View > Language: English and 简体中文, as checkable actions; picking one switches the window
// at once (switchLanguage) and remembers it in the settings.
void installLanguageMenu(MainWindow* window, Translations* translations);

// Loads `code` and puts the window's texts into it: the lookups on screen are looked up again
// (common/retranslate.h) and the texts made from the plan are rebuilt (MainWindow::refreshTexts).
// The plan, its undo history and the panels' choices are left alone.
void switchLanguage(MainWindow* window, Translations* translations, const QString& code);

}  // namespace tally::ui
