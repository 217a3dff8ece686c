#pragma once

#include <QString>
#include <functional>

class QWidget;

namespace tally::ui {

// The questions the workspace panels ask a user: a yes/no confirmation, a file to open or save,
// a line of text. The defaults are the usual modal dialogs; tests replace them with functions
// that answer at once, so no test waits on a modal exec().
struct UserPrompts {
    // True when the user agrees.
    std::function<bool(QWidget* parent, const QString& title, const QString& question)> confirm;
    // A path, or empty when the user cancelled. `saving` chooses a save dialog.
    std::function<QString(QWidget* parent, const QString& title, const QString& filter, bool saving,
                          const QString& suggestedPath)>
        choosePath;
    // A path for a file to be made, not one to write over (a new workspace): a save dialog that
    // does not ask about an existing file, which the caller refuses with its own reason. Empty:
    // choosePath with `saving`.
    std::function<QString(QWidget* parent, const QString& title, const QString& filter,
                          const QString& suggestedPath)>
        chooseNewPath;
    // A line of text (a plan's name): a null string when the user cancelled, an empty (not
    // null) one when they accepted an emptied box.
    std::function<QString(QWidget* parent, const QString& title, const QString& label,
                          const QString& text)>
        askText;
    // Tells the user something went wrong.
    std::function<void(QWidget* parent, const QString& message)> warn;
};

// QMessageBox, QFileDialog and QInputDialog.
UserPrompts defaultPrompts();

}  // namespace tally::ui
