#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <optional>

#include "planner/core/spec.h"

namespace tally::ui {

class PlanDocument;

// Keeps the last accepted plan in a file (the platform's application-data folder in the app),
// written atomically a moment after the edits stop, and reads it back at start. Beside it
// (PATH.state) it keeps whether the plan had changes not saved to a file, and which file it was
// saved to, so that a plan restored at start is still one File > Open or New asks about.
class Autosave : public QObject {
    Q_OBJECT
public:
    Autosave(PlanDocument* document, QString path, QObject* parent = nullptr);

    struct Restored {
        PlanSpec spec;
        bool modified = true;    // changes not saved to a file (unknown: assumed so)
        QString file;            // the file it was last saved to or opened from ("": none)
        QByteArray file_sha256;  // that file's SHA-256 then (empty: not kept)
    };
    // The saved plan, or nullopt when there is none or it cannot be read (then the app starts on
    // the default plan; the file is left as it is).
    static std::optional<Restored> restore(const QString& path);
    static QString statePath(const QString& path) { return path + QStringLiteral(".state"); }

    // Writes now if an edit is pending (at exit).
    bool flush(QString* error = nullptr);
    QString path() const { return m_path; }

signals:
    // A write after an edit failed (a full disk, a folder that went read-only): the autosave
    // keeps what it last wrote, and tries again at the next edit.
    void writeFailed(const QString& message);
    // A write succeeded after one failed.
    void writeRecovered();

private:
    PlanDocument* m_document;
    QString m_path;
    QTimer m_timer;
    bool m_pending = false;
    bool m_failed = false;
};

}  // namespace tally::ui
