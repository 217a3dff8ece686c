#include "planner/store/workspace_schema.h"

#include <sqlite3.h>

#include <fmt/core.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

namespace tally {

namespace fs = std::filesystem;

using namespace store_detail;

namespace {

// ---- schema -------------------------------------------------------------------------------------

// Version 1: the first workspace. Built-in profiles are never stored: they come from the catalog.
constexpr std::string_view kSchemaV1 = R"sql(
CREATE TABLE profiles (
    id           TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
    name         TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
    kind         TEXT NOT NULL CHECK (kind IN ('custom', 'measured')),
    profile_json TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE TABLE plans (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
    spec_json  TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE probe_runs (
    id          INTEGER PRIMARY KEY,
    backend     TEXT NOT NULL,
    host        TEXT NOT NULL,
    device_json TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed'))
);
CREATE TABLE probe_results (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES probe_runs(id) ON DELETE CASCADE,
    test        TEXT NOT NULL,
    dtype       TEXT NOT NULL,
    sizes_json  TEXT NOT NULL,
    flops       REAL NOT NULL,
    bytes       REAL NOT NULL,
    flops_per_s REAL,
    bytes_per_s REAL,
    median_s    REAL,
    min_s       REAL,
    max_s       REAL,
    samples     INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('passed', 'waived', 'failed')),
    reason      TEXT NOT NULL DEFAULT ''
);
PRAGMA application_id = 1415670905;
PRAGMA user_version = 1;
)sql";
static_assert(kWorkspaceApplicationId == 1415670905);

// Version 2: the probe validates its results and reports the spread of its samples. Rows from
// version 1 were not validated.
constexpr std::string_view kMigrateToV2 = R"sql(
ALTER TABLE probe_results ADD COLUMN stdrel REAL;
ALTER TABLE probe_results ADD COLUMN validated INTEGER NOT NULL DEFAULT 0 CHECK (validated IN (0, 1));
CREATE INDEX probe_results_by_run ON probe_results(run_id);
PRAGMA user_version = 2;
)sql";

// Version 3: a measured profile remembers its run (kept when the run is deleted: the profile
// carries its own copy of the figures).
constexpr std::string_view kMigrateToV3 = R"sql(
ALTER TABLE profiles ADD COLUMN source_run_id INTEGER REFERENCES probe_runs(id) ON DELETE SET NULL;
CREATE INDEX profiles_by_source_run ON profiles(source_run_id);
PRAGMA user_version = 3;
)sql";

// kSteps[v] takes a database from version v to v + 1.
// Version 4: a result keeps the probe's variant in its own column. Before, the app folded it into
// the test name: a memory-bandwidth result was stored under its access pattern ("copy", ...,
// "triad"), any other test with a variant as "test.variant" ("intensity_sweep.tensor_core"), and
// matmul as "matmul" alone (its variant, the library, is not known for those rows and stays
// empty). The pattern becomes the variant of `stream` on a CPU run and of `memory_bandwidth` on
// any other (a CUDA run): each backend has exactly one of the two tests. Every SET expression
// reads the row as it was before the UPDATE.
constexpr std::string_view kMigrateToV4 = R"sql(
ALTER TABLE probe_results ADD COLUMN variant TEXT NOT NULL DEFAULT '';
UPDATE probe_results
   SET variant = test,
       test = CASE (SELECT backend FROM probe_runs WHERE probe_runs.id = probe_results.run_id)
                WHEN 'cpu' THEN 'stream' ELSE 'memory_bandwidth' END
 WHERE test IN ('copy', 'read', 'write', 'scale', 'add', 'triad');
UPDATE probe_results
   SET variant = substr(test, instr(test, '.') + 1),
       test = substr(test, 1, instr(test, '.') - 1)
 WHERE instr(test, '.') > 1;
PRAGMA user_version = 4;
)sql";

// Version 5: collectives (the nccl backend, imported nccl-tests logs) keep their bus bandwidth
// beside the algorithm bandwidth (bytes_per_s), and a run imported from a file keeps a digest of
// the file so that importing it again is refused. Existing rows have neither.
constexpr std::string_view kMigrateToV5 = R"sql(
ALTER TABLE probe_results ADD COLUMN bus_bytes_per_s REAL;
ALTER TABLE probe_runs ADD COLUMN content_digest TEXT;
CREATE INDEX probe_runs_by_digest ON probe_runs(content_digest);
PRAGMA user_version = 5;
)sql";

constexpr std::string_view kSteps[] = {kSchemaV1, kMigrateToV2, kMigrateToV3, kMigrateToV4,
                                       kMigrateToV5};
static_assert(std::size(kSteps) == kWorkspaceSchemaVersion);

// ---- opening ------------------------------------------------------------------------------------

struct Header {
    std::int64_t user_version = 0;
    std::int64_t application_id = 0;
    std::int64_t objects = 0;  // rows of sqlite_master: tables, indexes, views, triggers
};

// The three are read in one transaction (the caller's, else a read transaction of their own):
// read one by one, a Tally creating the file in another process could commit its schema between
// them, and the file would read as having tables but no schema version, another program's
// database.
Header read_header(sqlite::Database& db) {
    Header h;
    std::optional<sqlite::Transaction> snapshot;
    if (!db.in_transaction()) {
        snapshot.emplace(db, sqlite::Transaction::Mode::deferred);
    }
    h.user_version = db.query_int("PRAGMA user_version");
    h.application_id = db.query_int("PRAGMA application_id");
    h.objects = db.query_int("SELECT count(*) FROM sqlite_master");
    if (snapshot) {
        snapshot->commit();
    }
    return h;
}

// Refuses a header this build must not write to. Returns true when the file is an empty
// database (a new workspace).
bool check_header(const Header& h, const fs::path& path) {
    if (h.user_version > kWorkspaceSchemaVersion) {
        throw refuse(WorkspaceProblem::newer_schema, path,
                     TALLY_TEXT("tally::workspace",
                                "workspace %1 was written by a newer Tally (schema version %2; "
                                "this build reads versions 1 to %3). It was left untouched; pick "
                                "another file or start a new workspace.")
                         .arg(path.string())
                         .arg(std::to_string(h.user_version))
                         .arg(kWorkspaceSchemaVersion));
    }
    if (h.user_version == 0) {
        if (h.objects == 0 && h.application_id == 0) {
            return true;
        }
        throw refuse(WorkspaceProblem::not_workspace, path,
                     TALLY_TEXT("tally::workspace",
                                "workspace %1 is an SQLite database of another program, not a "
                                "Tally workspace (it has tables but no Tally schema version). It "
                                "was left untouched; pick another file or start a new workspace.")
                         .arg(path.string()));
    }
    if (h.application_id != kWorkspaceApplicationId) {
        throw refuse(WorkspaceProblem::not_workspace, path,
                     TALLY_TEXT("tally::workspace",
                                "workspace %1 is an SQLite database of another program, not a "
                                "Tally workspace (application id %2). It was left untouched; pick "
                                "another file or start a new workspace.")
                         .arg(path.string())
                         .arg(std::to_string(h.application_id)));
    }
    return false;
}

std::uint32_t big_endian_u32(const unsigned char* bytes) {
    return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
           (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
}

}  // namespace

namespace store_detail {

std::string file_uri(const fs::path& path, std::string_view query) {
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    const std::string text = (ec ? path : absolute).generic_string();
    std::string uri = text.starts_with('/') ? "file://" : "file:///";
    for (unsigned char c : text) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '/' || c == '-' || c == '.' || c == '_' ||
                           c == '~' || c == ':';
        uri += plain ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
    }
    uri += '?';
    uri += query;
    return uri;
}

}  // namespace store_detail

namespace {

// Checks integrity, application id and schema version through a read-only connection.
// `immutable`: read the file without locks, so SQLite creates no -wal or -shm beside it (only
// safe while no connection has it open: a WAL database with no -wal file).
void check_contents(const fs::path& path, bool immutable, int busy_timeout_ms) {
    try {
        sqlite::Database db(file_uri(path, immutable ? "immutable=1" : "mode=ro"),
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
        db.set_busy_timeout(busy_timeout_ms);
        sqlite::Statement check(db, "PRAGMA quick_check");
        std::string problems;
        while (check.step()) {
            const std::string line = check.column_text(0);
            if (line != "ok") {
                problems += problems.empty() ? line : "; " + line;
            }
        }
        if (!problems.empty()) {
            throw refuse(WorkspaceProblem::corrupt, path,
                         TALLY_TEXT("tally::workspace",
                                    "workspace %1 is damaged (integrity check: %2). It was left "
                                    "untouched; pick another file or start a new workspace.")
                             .arg(path.string())
                             .arg(problems.substr(0, 300)));
        }
        check_header(read_header(db), path);
    } catch (const sqlite::Error& e) {
        if (e.code() == SQLITE_CORRUPT || e.code() == SQLITE_NOTADB) {
            throw refuse(WorkspaceProblem::corrupt, path,
                         TALLY_TEXT("tally::workspace",
                                    "workspace %1 is damaged (%2). It was left untouched; pick "
                                    "another file or start a new workspace.")
                             .arg(path.string())
                             .arg(e.what()));
        }
        throw;
    }
}

}  // namespace

namespace store_detail {

// Looks at an existing file without writing to it: the SQLite header, then (through a
// read-only connection) its integrity, application id and schema version.
void inspect_read_only(const fs::path& path, int busy_timeout_ms) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) {
        throw refuse(WorkspaceProblem::io, path,
                     TALLY_TEXT("tally::workspace",
                                "workspace %1 cannot be read (%2). It was left untouched; pick "
                                "another file or start a new workspace.")
                         .arg(path.string())
                         .arg(ec.message()));
    }
    bool wal_mode = false;
    if (size > 0) {
        // The database header (sqlite.org/fileformat.html, 1.3): 16 magic bytes, the write
        // version at 18 (2: WAL), user_version at 60 and application_id at 68, big-endian.
        // Read through an SQLite handle that runs no statement: SQLite parses nothing, and its
        // descriptor is closed the way SQLite closes descriptors, keeping the locks that other
        // connections of this process hold on the file.
        constexpr char kMagic[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                     'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
        unsigned char header[100] = {};
        bool whole = false;
        try {
            sqlite::Database raw(path.string(), SQLITE_OPEN_READONLY);
            whole = raw.read_main_file(header, sizeof header, 0);
        } catch (const sqlite::Error& e) {
            throw WorkspaceError(
                WorkspaceProblem::read_only, path,
                TALLY_TEXT("tally::workspace", "workspace %1 cannot be read (%2).")
                    .arg(path.string())
                    .arg(e.system_errno() != 0 ? std::strerror(e.system_errno()) : e.what()));
        }
        if (!whole || std::memcmp(header, kMagic, sizeof kMagic) != 0) {
            throw refuse(WorkspaceProblem::not_sqlite, path,
                         TALLY_TEXT("tally::workspace",
                                    "workspace %1 is not an SQLite database (it does not start "
                                    "with the SQLite header). It was left untouched; pick another "
                                    "file or start a new workspace.")
                             .arg(path.string()));
        }
        wal_mode = header[18] == 2;
        // Versions and ids only move forward, so a header that refuses is final even when a
        // WAL holds newer pages: refuse before SQLite reads the file as a database.
        Header h;
        h.user_version = big_endian_u32(header + 60);
        h.application_id = static_cast<std::int32_t>(big_endian_u32(header + 68));
        h.objects = 1;
        if (h.user_version != 0 || h.application_id != 0) {
            check_header(h, path);
        }
    }
    const std::string wal = path.string() + "-wal";
    const bool immutable = wal_mode && !fs::exists(wal, ec);
    try {
        check_contents(path, immutable, busy_timeout_ms);
    } catch (const WorkspaceError& e) {
        // Read without locks, the file may have been checkpointed under us by a process that
        // opened it meanwhile (its -wal now exists): look again, with locks, before calling it
        // damaged.
        if (!immutable || e.problem() != WorkspaceProblem::corrupt || !fs::exists(wal, ec)) {
            throw;
        }
        check_contents(path, false, busy_timeout_ms);
    }
}

// Creates an empty file, failing if one exists. Returns false when another process was first.
bool create_empty_file(const fs::path& path) {
    std::error_code ec;
    if (path.has_parent_path()) {
        fs::create_directories(path.parent_path(), ec);
        if (ec) {
            const WorkspaceProblem problem = problem_of_errno(ec.value());
            throw WorkspaceError(problem, path,
                                 TALLY_TEXT("tally::workspace",
                                            "creating workspace %1: cannot create folder %2 (%3). "
                                            "Nothing was saved.")
                                     .arg(path.string())
                                     .arg(path.parent_path().string())
                                     .arg(ec.message()));
        }
    }
    // "x": C11 exclusive mode, O_CREAT | O_EXCL.
    std::FILE* f = std::fopen(path.string().c_str(), "wbx");
    if (f == nullptr) {
        const int e = errno;
        if (e == EEXIST) {
            return false;
        }
        const WorkspaceProblem problem = problem_of_errno(e);
        // %2: the system's message.
        throw WorkspaceError(
            problem, path,
            Text("tally::workspace",
                 problem == WorkspaceProblem::read_only
                     ? QT_TRANSLATE_NOOP("tally::workspace",
                                         "creating workspace %1: %2 (the folder is read-only). "
                                         "Nothing was saved.")
                     : QT_TRANSLATE_NOOP("tally::workspace",
                                         "creating workspace %1: %2. Nothing was saved."))
                .arg(path.string())
                .arg(std::strerror(e)));
    }
    if (std::fclose(f) != 0) {
        throw WorkspaceError(
            WorkspaceProblem::io, path,
            TALLY_TEXT("tally::workspace", "creating workspace %1: %2. Nothing was saved.")
                .arg(path.string())
                .arg(std::strerror(errno)));
    }
    return true;
}

// Brings a verified database to this build's schema, in one transaction. Returns the version
// it had.
int migrate(sqlite::Database& db, const fs::path& path) {
    sqlite::Transaction tx(db);
    // Read again under the write lock: another process may have created or migrated it since.
    const Header h = read_header(db);
    check_header(h, path);
    const int from = static_cast<int>(h.user_version);
    for (int v = from; v < kWorkspaceSchemaVersion; ++v) {
        db.exec(kSteps[v]);
    }
    sqlite::Statement fk(db, "PRAGMA foreign_key_check");
    if (fk.step()) {
        throw refuse(WorkspaceProblem::corrupt, path,
                     TALLY_TEXT("tally::workspace",
                                "workspace %1 is damaged (a row of table %2 points at a missing "
                                "row of %3). It was left untouched; pick another file or start a "
                                "new workspace.")
                         .arg(path.string())
                         .arg(fk.column_text(0))
                         .arg(fk.column_text(2)));
    }
    tx.commit();
    return from;
}

}  // namespace store_detail

}  // namespace tally
