#pragma once

// Every file dialog of the app is made here, so none of them reads the files it lists.
//
// Why: the workspace is an SQLite file in WAL mode, and SQLite's locks on it are POSIX advisory
// locks, which belong to the process: closing ANY descriptor of the same file in this process
// drops them all (SQLite, "How To Corrupt An SQLite Database File", section 2.2). Qt's file dialog
// fills its list on a helper thread that asks the icon provider for each entry's icon and type,
// and the stock provider (and a platform theme's) sniff a file's content when its name does not
// settle its MIME type: an open() and close() of workspace.sqlite-wal and -shm. After that the
// process holds no lock, a `tally` command that closes the workspace believes it is the last user,
// checkpoints and deletes the write-ahead log, and this process goes on writing into a deleted
// file. The dialogs here are Qt's own widget dialog (a native one would bring its own icon
// lookups into the process) with an icon provider that looks at names and stat() only.

#include <QFileDialog>
#include <QString>

class QWidget;
class QAbstractFileIconProvider;

namespace tally::ui {

// An icon provider that never opens a file: icons and type names come from the file's name
// (QMimeDatabase::MatchExtension) and from stat() (folder, file, link). Shared by every dialog.
const QAbstractFileIconProvider* nameOnlyIconProvider();

// Sets up `dialog` as every dialog of the app is: the widget dialog with nameOnlyIconProvider().
void makeFileDialogSafe(QFileDialog& dialog);

// Modal open and save dialogs; an empty string when the user cancelled.
QString chooseOpenPath(QWidget* parent, const QString& title, const QString& startPath,
                       const QString& filter);
QString chooseSavePath(QWidget* parent, const QString& title, const QString& startPath,
                       const QString& filter, QFileDialog::Options options = {});

}  // namespace tally::ui
