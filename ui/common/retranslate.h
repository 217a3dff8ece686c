#pragma once

class QWidget;

namespace tally::ui {

class Translations;

// Puts every text on screen that came from a translation lookup into the language `translations`
// has just loaded: the text, tooltip, status tip, placeholder and title of every widget, the
// items of combo boxes and list widgets, tab texts, every action (menus included), and the titles,
// axis titles and series names of charts. A text built from a template with arguments is not
// one a lookup produced; the panels rebuild those when the plan's results are announced again,
// which the language switch does after this. Nothing here edits the plan or any panel's choices
// (combo boxes keep their index; their signals are blocked while an item's text changes).
void retranslateWidgets(const Translations& translations);

}  // namespace tally::ui
