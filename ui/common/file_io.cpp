#include "ui/common/file_io.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace tally::ui {

namespace {

// lupdate files the bare tr() calls of this file under "tally::ui" (the namespace they are in),
// so the lookup uses that context too.
QString tr(const char* text) {
    return QCoreApplication::translate("tally::ui", text);
}

}  // namespace

bool writeFileAtomically(const QString& path, const QByteArray& contents, QString* error) {
    // A file no one may write (its mode has no write bit) is kept as it is, also for a user whom
    // the system would let write it (root): the mode says the file is not to change.
    const QFileInfo existing(path);
    const bool existed = existing.exists();
    const QFileDevice::Permissions mode =
        existed ? existing.permissions() : QFileDevice::Permissions();
    // The mode's own bits (WriteUser says what this user may do, which for root is anything).
    constexpr QFileDevice::Permissions kAnyWrite =
        QFileDevice::WriteOwner | QFileDevice::WriteGroup | QFileDevice::WriteOther;
    if (existed && existing.isFile() && (mode & kAnyWrite) == 0) {
        if (error) {
            *error = tr("Cannot write %1: the file is read-only").arg(path);
        }
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) {
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        }
        return false;
    }
    if (file.write(contents) != contents.size()) {
        if (error) {
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        }
        file.cancelWriting();
        return false;
    }
    // QSaveFile buffers what it is given and writes it out when it commits; a write that fails
    // there (a full disk, a file-size limit) sets the device's error but, in Qt 6.4, not the
    // one commit() checks, so commit() would rename a short temporary over the file. Flushing
    // first makes that failure one this function sees, and the old file stays.
    if (!file.flush() || file.error() != QFileDevice::NoError) {
        if (error) {
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        }
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        if (error) {
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        }
        return false;
    }
    // The new file has the old one's mode (QSaveFile gives the temporary the owner's write bit it
    // needs); a failure here leaves the contents written and is not one.
    if (existed && QFile::permissions(path) != mode) {
        QFile::setPermissions(path, mode);
    }
    return true;
}

bool readWholeFile(const QString& path, QByteArray* contents, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) {
            *error = tr("Cannot read %1: %2").arg(path, file.errorString());
        }
        return false;
    }
    *contents = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        if (error) {
            *error = tr("Cannot read %1: %2").arg(path, file.errorString());
        }
        return false;
    }
    return true;
}

}  // namespace tally::ui
