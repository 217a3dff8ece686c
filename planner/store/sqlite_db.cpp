#include "planner/store/sqlite_db.h"

#include <sqlite3.h>

#include <cstring>
#include <utility>

namespace tally::sqlite {

namespace {

std::string describe(int code, const char* message, std::string_view context, int system_errno) {
    std::string text(context);
    text += ": ";
    text += message != nullptr ? message : sqlite3_errstr(code);
    if (system_errno != 0) {
        text += " (";
        text += std::strerror(system_errno);
        text += ")";
    }
    return text;
}

}  // namespace

Error::Error(int code, int extended_code, int system_errno, const std::string& message)
    : std::runtime_error(message),
      m_code(code),
      m_extended_code(extended_code),
      m_system_errno(system_errno) {}

// ---- Database -----------------------------------------------------------------------------------

Database::Database(const std::string& filename, int flags) {
    const int rc = sqlite3_open_v2(filename.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        // sqlite3_open_v2 hands back a handle even on failure (unless out of memory); it carries
        // the message and must be closed.
        const int extended = m_db != nullptr ? sqlite3_extended_errcode(m_db) : rc;
        const int sys = m_db != nullptr ? sqlite3_system_errno(m_db) : 0;
        const std::string message =
            describe(rc, m_db != nullptr ? sqlite3_errmsg(m_db) : nullptr, "cannot open", sys);
        close();
        throw Error(rc & 0xff, extended, sys, message);
    }
    // Extended codes tell SQLITE_IOERR_WRITE from SQLITE_IOERR_READ and SQLITE_BUSY_RECOVERY from
    // SQLITE_BUSY; the return value only fails when the handle is invalid.
    sqlite3_extended_result_codes(m_db, 1);
}

Database::~Database() {
    close();
}

Database::Database(Database&& other) noexcept : m_db(std::exchange(other.m_db, nullptr)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
    }
    return *this;
}

void Database::close() noexcept {
    if (m_db != nullptr) {
        // close_v2 never fails on a valid handle: unfinalized statements only delay the close,
        // and every Statement finalizes itself before its Database goes.
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

bool Database::read_main_file(void* buffer, int bytes, std::int64_t offset) {
    sqlite3_file* file = nullptr;
    const int rc = sqlite3_file_control(m_db, "main", SQLITE_FCNTL_FILE_POINTER, &file);
    if (rc != SQLITE_OK) {
        fail(rc, "reading the file");
    }
    if (file == nullptr || file->pMethods == nullptr) {
        throw Error(SQLITE_CANTOPEN, SQLITE_CANTOPEN, 0, "reading the file: it is not open");
    }
    const int read = file->pMethods->xRead(file, buffer, bytes, offset);
    if (read == SQLITE_IOERR_SHORT_READ) {
        return false;
    }
    if (read != SQLITE_OK) {
        const int sys = sqlite3_system_errno(m_db);
        throw Error(read & 0xff, read, sys, describe(read, nullptr, "reading the file", sys));
    }
    return true;
}

void Database::fail(int rc, std::string_view context) const {
    const int extended = sqlite3_extended_errcode(m_db);
    const int sys = sqlite3_system_errno(m_db);
    throw Error(rc & 0xff, extended, sys, describe(rc, sqlite3_errmsg(m_db), context, sys));
}

void Database::exec(std::string_view sql) {
    const std::string text(sql);
    char* message = nullptr;
    const int rc = sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        const std::string detail = message != nullptr ? message : sqlite3_errstr(rc);
        sqlite3_free(message);
        const int sys = sqlite3_system_errno(m_db);
        throw Error(rc & 0xff, sqlite3_extended_errcode(m_db), sys,
                    describe(rc, detail.c_str(), text.substr(0, 80), sys));
    }
}

Statement Database::prepare(std::string_view sql) {
    return Statement(*this, sql);
}

std::int64_t Database::query_int(std::string_view sql) {
    Statement s(*this, sql);
    if (!s.step()) {
        throw Error(SQLITE_ERROR, SQLITE_ERROR, 0, std::string(sql) + ": returned no row");
    }
    return s.column_int(0);
}

std::string Database::query_text(std::string_view sql) {
    Statement s(*this, sql);
    if (!s.step()) {
        throw Error(SQLITE_ERROR, SQLITE_ERROR, 0, std::string(sql) + ": returned no row");
    }
    return s.column_text(0);
}

void Database::set_busy_timeout(int milliseconds) {
    const int rc = sqlite3_busy_timeout(m_db, milliseconds);
    if (rc != SQLITE_OK) {
        fail(rc, "setting the busy timeout");
    }
}

std::int64_t Database::last_insert_rowid() const {
    return sqlite3_last_insert_rowid(m_db);
}

int Database::changes() const {
    return sqlite3_changes(m_db);
}

bool Database::in_transaction() const {
    return sqlite3_get_autocommit(m_db) == 0;
}

// ---- Statement ----------------------------------------------------------------------------------

Statement::Statement(Database& db, std::string_view sql) : m_db(db) {
    const int rc =
        sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr);
    if (rc != SQLITE_OK) {
        m_db.fail(rc, "preparing " + std::string(sql.substr(0, 80)));
    }
}

Statement::~Statement() {
    if (m_stmt != nullptr) {
        // finalize returns the statement's last error, which step() already reported.
        sqlite3_finalize(m_stmt);
    }
}

Statement::Statement(Statement&& other) noexcept
    : m_db(other.m_db), m_stmt(std::exchange(other.m_stmt, nullptr)) {}

namespace {
void check_bind(Database& db, int rc, int index) {
    if (rc != SQLITE_OK) {
        db.fail(rc, "binding parameter " + std::to_string(index));
    }
}
}  // namespace

Statement& Statement::bind(int index, std::int64_t value) {
    check_bind(m_db, sqlite3_bind_int64(m_stmt, index, value), index);
    return *this;
}

Statement& Statement::bind(int index, double value) {
    check_bind(m_db, sqlite3_bind_double(m_stmt, index, value), index);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    // A non-null pointer even for "": a null pointer would bind NULL, not an empty string.
    check_bind(m_db,
               sqlite3_bind_text64(m_stmt, index, text.empty() ? "" : text.data(), text.size(),
                                   SQLITE_TRANSIENT, SQLITE_UTF8),
               index);
    return *this;
}

Statement& Statement::bind(int index, const std::optional<double>& value) {
    return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind(int index, const std::optional<std::int64_t>& value) {
    return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind_null(int index) {
    check_bind(m_db, sqlite3_bind_null(m_stmt, index), index);
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc == SQLITE_DONE) {
        return false;
    }
    const char* sql = sqlite3_sql(m_stmt);
    m_db.fail(rc, std::string(sql != nullptr ? std::string_view(sql).substr(0, 80) : ""));
}

void Statement::run() {
    if (step()) {
        throw Error(SQLITE_MISUSE, SQLITE_MISUSE, 0,
                    std::string(sqlite3_sql(m_stmt)) + ": returned rows where none were expected");
    }
}

void Statement::reset() {
    // reset returns the error of the last step, which step() already reported; bindings are kept
    // and replaced by the next bind calls.
    sqlite3_reset(m_stmt);
}

bool Statement::is_null(int column) const {
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::int64_t Statement::column_int(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}

double Statement::column_double(int column) const {
    return sqlite3_column_double(m_stmt, column);
}

std::optional<double> Statement::column_optional_double(int column) const {
    if (is_null(column)) {
        return std::nullopt;
    }
    return column_double(column);
}

std::optional<std::int64_t> Statement::column_optional_int(int column) const {
    if (is_null(column)) {
        return std::nullopt;
    }
    return column_int(column);
}

std::string Statement::column_text(int column) const {
    const unsigned char* text = sqlite3_column_text(m_stmt, column);
    if (text == nullptr) {
        return {};
    }
    return std::string(reinterpret_cast<const char*>(text),
                       static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column)));
}

// ---- Transaction --------------------------------------------------------------------------------

Transaction::Transaction(Database& db, Mode mode) : m_db(db) {
    m_db.exec(mode == Mode::immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
    m_open = true;
}

Transaction::~Transaction() {
    if (m_open && m_db.in_transaction()) {
        // After some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY in a statement) SQLite may
        // already have rolled back; in_transaction() tells. A failing ROLLBACK leaves nothing more
        // to do: the journal (or WAL) makes the next connection discard the transaction.
        sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
}

void Transaction::commit() {
    m_db.exec("COMMIT");
    m_open = false;
}

}  // namespace tally::sqlite
