#include "ui/workspace/user_prompts.h"

#include "ui/common/file_dialogs.h"

#include <QGuiApplication>
#include <QInputDialog>
#include <QMessageBox>

namespace tally::ui {

UserPrompts defaultPrompts() {
    UserPrompts prompts;
    prompts.confirm = [](QWidget* parent, const QString& title, const QString& question) {
        return QMessageBox::question(parent, title, question,
                                     QMessageBox::Yes | QMessageBox::Cancel,
                                     QMessageBox::Cancel) == QMessageBox::Yes;
    };
    prompts.choosePath = [](QWidget* parent, const QString& title, const QString& filter,
                            bool saving, const QString& suggestedPath) {
        return saving ? chooseSavePath(parent, title, suggestedPath, filter)
                      : chooseOpenPath(parent, title, suggestedPath, filter);
    };
    prompts.askText = [](QWidget* parent, const QString& title, const QString& label,
                         const QString& text) {
        bool ok = false;
        const QString answer =
            QInputDialog::getText(parent, title, label, QLineEdit::Normal, text, &ok);
        return ok ? answer : QString();
    };
    prompts.warn = [](QWidget* parent, const QString& message) {
        QMessageBox::warning(parent, QGuiApplication::applicationDisplayName(), message);
    };
    return prompts;
}

}  // namespace tally::ui
