#include "ui/workspace/user_prompts.h"

#include "ui/common/file_dialogs.h"

#include <QGuiApplication>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <algorithm>

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
    prompts.chooseNewPath = [](QWidget* parent, const QString& title, const QString& filter,
                               const QString& suggestedPath) {
        return chooseSavePath(parent, title, suggestedPath, filter,
                              QFileDialog::DontConfirmOverwrite);
    };
    prompts.askText = [](QWidget* parent, const QString& title, const QString& label,
                         const QString& text) {
        // Wide enough for a plan's name ("Llama 3 70B on 15T tokens, 1024 H100: tp 8, ...");
        // QInputDialog::getText() opened 200 pixels wide, the name cut in its box.
        QInputDialog dialog(parent);
        dialog.setWindowTitle(title);
        dialog.setLabelText(label);
        dialog.setTextValue(text);
        dialog.setInputMode(QInputDialog::TextInput);
        // The dialog's layout sizes it to its contents (QLayout::SetMinAndMaxSize), which
        // overrides a minimum width of the dialog's own: the box is widened instead.
        const int width = std::max(480, dialog.fontMetrics().horizontalAdvance(text) + 40);
        if (auto* box = dialog.findChild<QLineEdit*>()) {
            box->setMinimumWidth(width);
        }
        dialog.setMinimumWidth(width + 40);
        if (dialog.exec() != QDialog::Accepted) {
            return QString();
        }
        // An emptied box, accepted, is an answer of its own (not null), for the caller to
        // refuse by name rather than take as a cancel.
        const QString value = dialog.textValue();
        return value.isNull() ? QStringLiteral("") : value;
    };
    prompts.warn = [](QWidget* parent, const QString& message) {
        QMessageBox::warning(parent, QGuiApplication::applicationDisplayName(), message);
    };
    return prompts;
}

}  // namespace tally::ui
