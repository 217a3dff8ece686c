#include "ui/common/file_dialogs.h"

#include <QCoreApplication>
#include <QFileIconProvider>
#include <QFileInfo>
#include <QIcon>
#include <QMimeDatabase>
#include <QMimeType>
#include <QRegularExpression>

namespace tally::ui {

namespace {

// QFileIconProvider gives the style's standard icons by kind; only the per-file lookups, which
// may read the file, are replaced.
class NameOnlyIconProvider final : public QFileIconProvider {
public:
    QIcon icon(IconType type) const override { return QFileIconProvider::icon(type); }

    QIcon icon(const QFileInfo& info) const override {
        // isDir()/isFile()/isSymLink() are answered by stat() and lstat().
        if (info.isDir()) {
            return icon(QAbstractFileIconProvider::Folder);
        }
        const QIcon standard = icon(QAbstractFileIconProvider::File);
        const QMimeType mime = byName(info);
        if (mime.isValid() && !mime.isDefault()) {
            return QIcon::fromTheme(mime.iconName(),
                                    QIcon::fromTheme(mime.genericIconName(), standard));
        }
        return standard;
    }

    QString type(const QFileInfo& info) const override {
        if (!info.isFile()) {
            // Folders, drives and links to them: the base class names them without reading.
            return QFileIconProvider::type(info);
        }
        const QMimeType mime = byName(info);
        if (!mime.isValid() || mime.isDefault()) {
            return info.suffix().isEmpty()
                       ? QCoreApplication::translate("tally::ui::FileDialogs", "File")
                       : QCoreApplication::translate("tally::ui::FileDialogs", "%1 File")
                             .arg(info.suffix());
        }
        return mime.comment().isEmpty() ? mime.name() : mime.comment();
    }

private:
    static QMimeType byName(const QFileInfo& info) {
        // MatchExtension: the name's glob patterns only; the file is never opened.
        return QMimeDatabase().mimeTypeForFile(info, QMimeDatabase::MatchExtension);
    }
};

}  // namespace

const QAbstractFileIconProvider* nameOnlyIconProvider() {
    // Made on first use (after the QApplication exists) and kept for the process's life: a
    // dialog's model holds the pointer and its gatherer thread may still use it while the dialog
    // is being destroyed.
    static const NameOnlyIconProvider provider;
    return &provider;
}

void makeFileDialogSafe(QFileDialog& dialog) {
    dialog.setOption(QFileDialog::DontUseNativeDialog, true);
    dialog.setIconProvider(const_cast<QAbstractFileIconProvider*>(nameOnlyIconProvider()));
}

namespace {

QString runDialog(QWidget* parent, const QString& title, const QString& startPath,
                  const QString& filter, QFileDialog::AcceptMode mode,
                  QFileDialog::Options options) {
    QFileDialog dialog(parent, title, startPath, filter);
    dialog.setOptions(options);
    makeFileDialogSafe(dialog);
    dialog.setAcceptMode(mode);
    dialog.setFileMode(mode == QFileDialog::AcceptOpen ? QFileDialog::ExistingFile
                                                       : QFileDialog::AnyFile);
    if (mode == QFileDialog::AcceptSave) {
        // A name typed without an extension gets the filter's ("*.sh": "run" becomes run.sh).
        static const QRegularExpression pattern(QStringLiteral(R"(\*\.([A-Za-z0-9]+))"));
        if (const QRegularExpressionMatch m = pattern.match(filter); m.hasMatch()) {
            dialog.setDefaultSuffix(m.captured(1));
        }
    }
    if (dialog.exec() != QDialog::Accepted) {
        return {};
    }
    const QStringList files = dialog.selectedFiles();
    return files.isEmpty() ? QString() : files.constFirst();
}

}  // namespace

QString chooseOpenPath(QWidget* parent, const QString& title, const QString& startPath,
                       const QString& filter) {
    return runDialog(parent, title, startPath, filter, QFileDialog::AcceptOpen, {});
}

QString chooseSavePath(QWidget* parent, const QString& title, const QString& startPath,
                       const QString& filter, QFileDialog::Options options) {
    return runDialog(parent, title, startPath, filter, QFileDialog::AcceptSave, options);
}

}  // namespace tally::ui
