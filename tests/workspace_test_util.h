#pragma once

// Helpers the workspace tests share: raw looks at a database file, beside the Workspace API,
// so a test checks what is on disk rather than what the code under test says is there.

#include <QByteArray>
#include <QFile>
#include <QString>

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <string>

#include "planner/core/errors.h"
#include "planner/store/sqlite_db.h"

namespace wstest {

inline QByteArray file_bytes(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) {
        return QByteArray("<unreadable>");
    }
    return f.readAll();
}

// A read-only connection of the test's own.
inline tally::sqlite::Database raw_read(const std::string& path) {
    tally::sqlite::Database db(path, SQLITE_OPEN_READONLY);
    db.set_busy_timeout(10000);
    return db;
}

inline std::int64_t count_rows(const std::string& path, const std::string& table) {
    tally::sqlite::Database db = raw_read(path);
    return db.query_int("SELECT count(*) FROM " + table);
}

// PRAGMA integrity_check's report: "ok" when the file is sound.
inline std::string integrity(const std::string& path) {
    tally::sqlite::Database db = raw_read(path);
    tally::sqlite::Statement s(db, "PRAGMA integrity_check");
    std::string report;
    while (s.step()) {
        report += report.empty() ? s.column_text(0) : "; " + s.column_text(0);
    }
    return report;
}

inline bool row_exists(const std::string& path, const std::string& sql, const std::string& key) {
    tally::sqlite::Database db = raw_read(path);
    tally::sqlite::Statement s(db, sql);
    s.bind(1, key);
    return s.step();
}

// The field a SpecError names, or "<no error>" / "<other: ...>".
inline QString spec_error_field(const std::function<void()>& f, QString* message = nullptr) {
    try {
        f();
    } catch (const tally::SpecError& e) {
        if (message) {
            *message = QString::fromUtf8(e.what());
        }
        return QString::fromStdString(e.field());
    } catch (const std::exception& e) {
        return QStringLiteral("<other: %1>").arg(QString::fromUtf8(e.what()));
    }
    return QStringLiteral("<no error>");
}

}  // namespace wstest
