#include "ui/common/launch_copy.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHash>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "planner/core/errors.h"
#include "ui/common/file_dialogs.h"
#include "ui/common/file_io.h"
#include "ui/i18n/translate_text.h"

namespace tally::ui {

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

}  // namespace

QString launchTargetTitle(LaunchTarget target) {
    return QCoreApplication::translate("tally::launch", launch_target_title(target).data());
}

namespace {

QString fileFilter(LaunchTarget target) {
    const QString ext = qs(launch_target_extension(target));
    return QObject::tr("%1 (*.%2);;All files (*)").arg(launchTargetTitle(target), ext);
}

}  // namespace

std::optional<QString> copyLaunchConfig(const PlanSpec& spec, LaunchTarget target, QString* error) {
    try {
        const QString text = QString::fromStdString(export_launch_config(spec, target));
        QApplication::clipboard()->setText(text);
        return text;
    } catch (const SpecError& e) {
        if (error) {
            *error = translatedFieldError(e.error());
        }
        return std::nullopt;
    }
}

LaunchConfigDialog::LaunchConfigDialog(const QString& text, LaunchTarget target,
                                       const QString& suggestedName, const QStringList& notes,
                                       QWidget* parent)
    : QDialog(parent),
      m_text(new QPlainTextEdit(this)),
      m_target(target),
      m_filter(fileFilter(target)),
      m_suggestedName(suggestedName) {
    build(text, launchTargetTitle(target), notes);
}

LaunchConfigDialog::LaunchConfigDialog(const QString& text, const QString& title,
                                       const QString& extension, const QString& suggestedName,
                                       QWidget* parent)
    : QDialog(parent),
      m_text(new QPlainTextEdit(this)),
      m_filter(QObject::tr("%1 (*.%2);;All files (*)").arg(title, extension)),
      m_suggestedName(suggestedName) {
    build(text, title, {});
}

void LaunchConfigDialog::build(const QString& text, const QString& title,
                               const QStringList& notes) {
    setObjectName(QStringLiteral("launchConfigDialog"));
    setWindowTitle(tr("%1 of the plan").arg(title));
    auto* note = new QLabel(
        tr("Copied to the clipboard. Every setting the plan runs with is written in the "
           "framework's own names; a setting it cannot express is refused, never left out, and "
           "one the framework fixes otherwise is said below and in the file's header."),
        this);
    note->setWordWrap(true);
    QLabel* otherwise = nullptr;
    if (!notes.isEmpty()) {
        otherwise = new QLabel(tr("Where %1 will run the plan otherwise:").arg(title) +
                                   QStringLiteral("\n• ") + notes.join(QStringLiteral("\n• ")),
                               this);
        otherwise->setObjectName(QStringLiteral("launchConfigNotes"));
        otherwise->setWordWrap(true);
        otherwise->setTextInteractionFlags(Qt::TextSelectableByMouse);
        otherwise->setStyleSheet(QStringLiteral("color: #8a5a00;"));
    }
    m_text->setObjectName(QStringLiteral("launchConfigText"));
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setPlainText(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* save = buttons->addButton(tr("Save…"), QDialogButtonBox::ActionRole);
    save->setObjectName(QStringLiteral("saveLaunchConfig"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save, &QPushButton::clicked, this, [this] {
        // The file dialog's own question would not say what a replaced launch file loses. "No"
        // to it goes back to the file dialog, at the name chosen, to pick another.
        QString path = m_suggestedName;
        while (true) {
            path = chooseSavePath(this, tr("Save the launch configuration"), path, m_filter,
                                  QFileDialog::DontConfirmOverwrite);
            if (path.isEmpty()) {
                return;
            }
            const QString question = replaceQuestion(path);
            if (question.isEmpty()) {
                break;
            }
            QMessageBox box(QMessageBox::Warning, tr("Tally"), question,
                            QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel, this);
            box.setDefaultButton(QMessageBox::No);
            const int answer = box.exec();
            if (answer == QMessageBox::Yes) {
                break;
            }
            if (answer != QMessageBox::No) {
                return;
            }
        }
        QString error;
        if (!saveTo(path, &error)) {
            QMessageBox::warning(this, tr("Tally"), error);
        }
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    if (otherwise) {
        layout->addWidget(otherwise);
    }
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(760, 520);
}

QString LaunchConfigDialog::text() const {
    return m_text->toPlainText();
}

bool LaunchConfigDialog::saveTo(const QString& path, QString* error) const {
    return writeFileAtomically(path, m_text->toPlainText().toUtf8(), error);
}

QString LaunchConfigDialog::replaceQuestion(const QString& path) const {
    const QFileInfo info(path);
    if (!info.exists()) {
        return {};
    }
    const QString plain = tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path));
    QFile file(path);
    // A launch file is a few kilobytes; a large one is not read to find out.
    if (!m_target || info.size() > 4 * 1024 * 1024 || !file.open(QIODevice::ReadOnly)) {
        return plain;
    }
    const QByteArray bytes = file.readAll();
    if (bytes == m_text->toPlainText().toUtf8()) {
        return plain;
    }
    // Parsed only, not imported: a run file the import refuses (one that leaves --vocab-size to
    // its tokenizer) holds settings the plan's text would lose all the same.
    std::vector<LaunchSetting> lost;
    try {
        lost = launch_settings_not_read(bytes.toStdString(), *m_target);
    } catch (const SpecError&) {
        return plain;  // not a file of this framework's form: nothing to name
    }
    if (lost.empty()) {
        return plain;
    }
    QStringList names;
    for (const LaunchSetting& l : lost) {
        const QString name = QString::fromStdString(l.key);
        if (!names.contains(name)) {
            names.append(name);
        }
    }
    constexpr int kNamed = 8;
    QString named = names.mid(0, kNamed).join(QStringLiteral(", "));
    if (names.size() > kNamed) {
        named = tr("%1 and %2 more").arg(named).arg(names.size() - kNamed);
    }
    return tr("%1 is a %2 file with %3 settings Tally does not write (%4). Written over, it "
              "holds the plan's settings only, and those are lost: save under another name and "
              "copy the plan's settings into it. Replace it anyway?")
        .arg(QDir::toNativeSeparators(path), launchTargetTitle(*m_target))
        .arg(names.size())
        .arg(named);
}

namespace {

// The spec a Copy as… action exports, or nullopt once the user has been told why there is none.
std::optional<PlanSpec> specToCopy(const LaunchSpecSource& source, QWidget* dialogParent) {
    QString reason;
    std::optional<PlanSpec> spec = source(&reason);
    if (!spec) {
        QMessageBox::information(dialogParent, QObject::tr("Tally"), reason);
    }
    return spec;
}

}  // namespace

void fillCopyAsMenu(QMenu* menu, QWidget* dialogParent, LaunchSpecSource source) {
    for (LaunchTarget target : launch_targets()) {
        QAction* action = menu->addAction(launchTargetTitle(target));
        action->setObjectName(QStringLiteral("copyAs_") + qs(to_string(target)));
        action->setToolTip(
            QObject::tr("Copy the plan as %1 to the clipboard").arg(launchTargetTitle(target)));
        QObject::connect(action, &QAction::triggered, dialogParent, [dialogParent, source, target] {
            const std::optional<PlanSpec> spec = specToCopy(source, dialogParent);
            if (!spec) {
                return;
            }
            QString error;
            const std::optional<QString> text = copyLaunchConfig(*spec, target, &error);
            if (!text) {
                QMessageBox::warning(dialogParent, QObject::tr("Tally"),
                                     QObject::tr("%1 cannot run this plan as it is: %2")
                                         .arg(launchTargetTitle(target), error));
                return;
            }
            const QString name = QStringLiteral("launch.") + qs(launch_target_extension(target));
            QStringList notes;
            for (const Text& n : launch_export_notes(*spec, target)) {
                notes << translatedText(n);
            }
            auto* dialog = new LaunchConfigDialog(*text, target, name, notes, dialogParent);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->open();
        });
    }
}

QString servingTargetTitle(ServingTarget target) {
    return QCoreApplication::translate("tally::launch", serving_target_title(target).data());
}

void fillServingCopyAsMenu(QMenu* menu, QWidget* dialogParent, LaunchSpecSource source) {
    for (ServingTarget target : serving_targets()) {
        QAction* action = menu->addAction(servingTargetTitle(target));
        action->setObjectName(QStringLiteral("copyAs_") + qs(to_string(target)));
        action->setToolTip(QObject::tr("Copy the serving plan as %1 to the clipboard")
                               .arg(servingTargetTitle(target)));
        QObject::connect(action, &QAction::triggered, dialogParent, [dialogParent, source, target] {
            const std::optional<PlanSpec> spec = specToCopy(source, dialogParent);
            if (!spec) {
                return;
            }
            QString text;
            try {
                try {
                    text = QString::fromStdString(export_serving_command(*spec, target));
                } catch (const SpecError& e) {
                    if (e.field() != "--model") {
                        throw;
                    }
                    // A model of no preset, or weights that come quantized in their checkpoint:
                    // the checkpoint is asked for, as the command line's --model gives it (why,
                    // in the error's words without the option's name), starting from the one
                    // given last for this model.
                    static QHash<QString, QString> lastCheckpoint;
                    const QString modelKey = qs(spec->model.name);
                    const FieldError& why = e.error();
                    QString reason = why.allowed_text.empty() ? qs(why.allowed)
                                                              : translatedText(why.allowed_text);
                    if (!reason.isEmpty()) {
                        reason[0] = reason[0].toUpper();  // a sentence of its own here
                    }
                    bool ok = false;
                    const QString given = QInputDialog::getText(
                        dialogParent, servingTargetTitle(target),
                        reason + QStringLiteral("\n\n") +
                            QObject::tr("Checkpoint (a Hugging Face id or a local path):"),
                        QLineEdit::Normal, lastCheckpoint.value(modelKey), &ok);
                    if (!ok || given.trimmed().isEmpty()) {
                        return;
                    }
                    lastCheckpoint.insert(modelKey, given.trimmed());
                    text = QString::fromStdString(
                        export_serving_command(*spec, target, given.trimmed().toStdString()));
                }
            } catch (const SpecError& e) {
                QMessageBox::warning(
                    dialogParent, QObject::tr("Tally"),
                    QObject::tr("%1 cannot run this plan as it is: %2")
                        .arg(servingTargetTitle(target), translatedFieldError(e.error())));
                return;
            }
            QApplication::clipboard()->setText(text);
            auto* dialog =
                new LaunchConfigDialog(text, servingTargetTitle(target), QStringLiteral("sh"),
                                       qs(to_string(target)) + QStringLiteral(".sh"), dialogParent);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->open();
        });
    }
}

}  // namespace tally::ui
