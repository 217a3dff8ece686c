#pragma once

#include <QByteArray>
#include <QString>

namespace tally::ui {

// Writes a whole file atomically (QSaveFile: a temporary beside it, renamed over it on success),
// so a crash or a full disk never leaves half a file. On failure returns false and, when error
// is given, a message naming the file and the reason.
bool writeFileAtomically(const QString& path, const QByteArray& contents, QString* error);

// Reads a whole file; false and a message on failure.
bool readWholeFile(const QString& path, QByteArray* contents, QString* error);

}  // namespace tally::ui
