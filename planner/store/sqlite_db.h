#pragma once

// A small RAII layer over the SQLite C API: a connection, prepared statements and a transaction
// guard. Every call is checked; a failure throws sqlite::Error carrying SQLite's result code, its
// message and what was being done, so callers can turn it into a message a user can act on.
// (Shape after Qt's books example, qtbase/examples/sql/books/initdb.h: schema as raw-string
// constants, prepared statements, every step checked.)

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace tally::sqlite {

class Error : public std::runtime_error {
public:
    Error(int code, int extended_code, int system_errno, const std::string& message);

    int code() const noexcept { return m_code; }                    // primary result code
    int extended_code() const noexcept { return m_extended_code; }  // extended result code
    int system_errno() const noexcept { return m_system_errno; }    // errno of a failed I/O, or 0

private:
    int m_code;
    int m_extended_code;
    int m_system_errno;
};

class Statement;

// One connection. Move-only; closed in the destructor.
class Database {
public:
    // `flags` are SQLITE_OPEN_* flags; with SQLITE_OPEN_URI, `filename` may be a file: URI.
    Database(const std::string& filename, int flags);
    ~Database();
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    sqlite3* handle() const noexcept { return m_db; }

    // Runs one or more statements without results (schema, pragmas that return nothing).
    void exec(std::string_view sql);
    Statement prepare(std::string_view sql);
    // The first column of the first row of `sql` (a pragma's value); throws when there is no row.
    std::int64_t query_int(std::string_view sql);
    std::string query_text(std::string_view sql);

    // Reads `bytes` bytes at `offset` of the main database file through SQLite's own file handle,
    // without parsing them: false (the rest zero-filled) when the file is shorter. Reading the
    // file through a descriptor of one's own would be wrong here: closing it would drop every
    // POSIX lock this process holds on the file, those of its other connections included.
    bool read_main_file(void* buffer, int bytes, std::int64_t offset);

    void set_busy_timeout(int milliseconds);
    std::int64_t last_insert_rowid() const;
    int changes() const;
    bool in_transaction() const;

    // Throws an Error for result code `rc`, with this connection's message and `context`.
    [[noreturn]] void fail(int rc, std::string_view context) const;

private:
    void close() noexcept;

    sqlite3* m_db = nullptr;
};

// A prepared statement; finalized in the destructor. Parameters are 1-based as in SQLite,
// columns 0-based.
class Statement {
public:
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&&) = delete;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, bool value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);  // copied by SQLite (SQLITE_TRANSIENT)
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bind(int index, const std::string& text) {
        return bind(index, std::string_view(text));
    }
    Statement& bind(int index, const std::optional<double>& value);
    Statement& bind(int index, const std::optional<std::int64_t>& value);
    Statement& bind_null(int index);

    // Advances: true when a row is available, false when the statement is done.
    bool step();
    // Steps a statement that returns no rows (INSERT, UPDATE, DELETE); throws if one does.
    void run();
    void reset();

    bool is_null(int column) const;
    std::int64_t column_int(int column) const;
    double column_double(int column) const;
    std::optional<double> column_optional_double(int column) const;
    std::optional<std::int64_t> column_optional_int(int column) const;
    std::string column_text(int column) const;

private:
    Database& m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

// The rows of a statement, each as `from_row(statement)` makes it.
template <typename F>
auto all_rows(Statement& statement, F&& from_row) {
    std::vector<std::invoke_result_t<F&, const Statement&>> rows;
    while (statement.step()) {
        rows.push_back(from_row(std::as_const(statement)));
    }
    return rows;
}

// The first row of a statement, or nullopt when it has none.
template <typename F>
auto first_row(Statement& statement, F&& from_row)
    -> std::optional<std::invoke_result_t<F&, const Statement&>> {
    if (!statement.step()) {
        return std::nullopt;
    }
    return from_row(std::as_const(statement));
}

// BEGIN IMMEDIATE (or DEFERRED for reads) on construction; ROLLBACK in the destructor unless
// commit() succeeded, so an exception anywhere in between leaves the database as it was.
class Transaction {
public:
    enum class Mode { deferred, immediate };
    explicit Transaction(Database& db, Mode mode = Mode::immediate);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    void commit();

private:
    Database& m_db;
    bool m_open = false;
};

}  // namespace tally::sqlite
