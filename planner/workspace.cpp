#include "workspace.h"

#include <sqlite3.h>

#include <fmt/core.h>
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <utility>

#include <sys/stat.h>

#include "errors.h"
#include "spec_json.h"

namespace tally {

namespace fs = std::filesystem;
using nlohmann::json;

// ---- where the workspace lives ------------------------------------------------------------------

namespace {

// Qt's QDir::homePath(): $HOME, or the root folder when it is unset or empty.
fs::path home_dir() {
    const char* home = std::getenv("HOME");
    return (home != nullptr && *home != '\0') ? fs::path(home) : fs::path("/");
}

}  // namespace

fs::path application_data_dir() {
#if defined(_WIN32)
    // Qt: SHGetKnownFolderPath(FOLDERID_RoamingAppData), which %APPDATA% names.
    const char* appdata = std::getenv("APPDATA");
    const fs::path base = (appdata != nullptr && *appdata != '\0')
                              ? fs::path(appdata)
                              : home_dir() / "AppData" / "Roaming";
    return base / "tally";
#elif defined(__APPLE__)
    return home_dir() / "Library" / "Application Support" / "tally";
#else
    // XDG Base Directory Specification: $XDG_DATA_HOME, default $HOME/.local/share; Qt
    // (qstandardpaths_unix.cpp) then appends organisation and application names, and Tally sets
    // no organisation.
    const char* xdg = std::getenv("XDG_DATA_HOME");
    const fs::path base =
        (xdg != nullptr && *xdg != '\0') ? fs::path(xdg) : home_dir() / ".local" / "share";
    return base / "tally";
#endif
}

fs::path default_workspace_path() {
    return application_data_dir() / "workspace.sqlite";
}

// ---- errors -------------------------------------------------------------------------------------

std::string_view to_string(WorkspaceProblem problem) {
    switch (problem) {
        case WorkspaceProblem::not_sqlite:
            return "not_sqlite";
        case WorkspaceProblem::corrupt:
            return "corrupt";
        case WorkspaceProblem::not_workspace:
            return "not_workspace";
        case WorkspaceProblem::newer_schema:
            return "newer_schema";
        case WorkspaceProblem::read_only:
            return "read_only";
        case WorkspaceProblem::disk_full:
            return "disk_full";
        case WorkspaceProblem::busy:
            return "busy";
        case WorkspaceProblem::detached:
            return "detached";
        case WorkspaceProblem::conflict:
            return "conflict";
        case WorkspaceProblem::io:
            return "io";
    }
    return "?";
}

WorkspaceError::WorkspaceError(WorkspaceProblem problem, fs::path path, const std::string& message)
    : std::runtime_error(message), m_problem(problem), m_path(std::move(path)) {}

namespace {

constexpr std::string_view kLeftUntouched =
    " It was left untouched; pick another file or start a new workspace.";

WorkspaceError refuse(WorkspaceProblem problem, const fs::path& path, const std::string& what) {
    return WorkspaceError(
        problem, path,
        "workspace " + path.string() + " " + what + "." + std::string(kLeftUntouched));
}

bool is_disk_full_errno(int e) {
    return e == ENOSPC || e == EFBIG
#ifdef EDQUOT
           || e == EDQUOT
#endif
        ;
}

bool is_permission_errno(int e) {
    return e == EACCES || e == EPERM || e == EROFS;
}

// Turns an SQLite failure during `doing` into a WorkspaceError naming the file and the problem.
WorkspaceError translate(const sqlite::Error& e, const fs::path& path, std::string_view doing,
                         bool writing) {
    const std::string where = std::string(doing) + ": workspace " + path.string();
    const std::string nothing_saved = writing ? " Nothing was saved." : "";
    const int code = e.code();
    const int sys = e.system_errno();
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
        return WorkspaceError(WorkspaceProblem::busy, path,
                              where +
                                  " is busy: another Tally process (the app or a `tally` command) "
                                  "is writing to it (" +
                                  e.what() + ")." + nothing_saved + " Try again.");
    }
    // A write that fails with ENOSPC is SQLITE_FULL; one that fails with EFBIG (a file size
    // limit) or EDQUOT is SQLITE_IOERR_WRITE, whose errno SQLite does not always keep.
    if (code == SQLITE_FULL ||
        (code == SQLITE_IOERR &&
         (is_disk_full_errno(sys) || (e.extended_code() == SQLITE_IOERR_WRITE && sys == 0)))) {
        return WorkspaceError(WorkspaceProblem::disk_full, path,
                              where + ": the disk is full, or the file reached a size limit (" +
                                  e.what() + ")." + nothing_saved +
                                  " Free some space and try again.");
    }
    if (code == SQLITE_READONLY || code == SQLITE_PERM || code == SQLITE_CANTOPEN ||
        code == SQLITE_AUTH || (code == SQLITE_IOERR && is_permission_errno(sys))) {
        return WorkspaceError(WorkspaceProblem::read_only, path,
                              where + " cannot be written: the file or its folder is read-only (" +
                                  e.what() + ")." + nothing_saved);
    }
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
        return WorkspaceError(WorkspaceProblem::corrupt, path,
                              where + " is damaged (" + e.what() + ")." + nothing_saved +
                                  " Restore it from a backup, or pick another file.");
    }
    if (code == SQLITE_CONSTRAINT) {
        return WorkspaceError(WorkspaceProblem::conflict, path,
                              where + ": another process saved a conflicting row first (" +
                                  e.what() + ")." + nothing_saved);
    }
    return WorkspaceError(WorkspaceProblem::io, path,
                          where + ": " + e.what() + "." + nothing_saved);
}

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
constexpr std::string_view kSteps[] = {kSchemaV1, kMigrateToV2, kMigrateToV3};
static_assert(std::size(kSteps) == kWorkspaceSchemaVersion);

constexpr std::string_view kNow = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

// ---- opening ------------------------------------------------------------------------------------

struct Header {
    std::int64_t user_version = 0;
    std::int64_t application_id = 0;
    std::int64_t objects = 0;  // rows of sqlite_master: tables, indexes, views, triggers
};

Header read_header(sqlite::Database& db) {
    Header h;
    h.user_version = db.query_int("PRAGMA user_version");
    h.application_id = db.query_int("PRAGMA application_id");
    h.objects = db.query_int("SELECT count(*) FROM sqlite_master");
    return h;
}

// Refuses a header this build must not write to. Returns true when the file is an empty
// database (a new workspace).
bool check_header(const Header& h, const fs::path& path) {
    if (h.user_version > kWorkspaceSchemaVersion) {
        throw refuse(WorkspaceProblem::newer_schema, path,
                     "was written by a newer Tally (schema version " +
                         std::to_string(h.user_version) + "; this build reads versions 1 to " +
                         std::to_string(kWorkspaceSchemaVersion) + ")");
    }
    if (h.user_version == 0) {
        if (h.objects == 0 && h.application_id == 0) {
            return true;
        }
        throw refuse(WorkspaceProblem::not_workspace, path,
                     "is an SQLite database of another program, not a Tally workspace (it has "
                     "tables but no Tally schema version)");
    }
    if (h.application_id != kWorkspaceApplicationId) {
        throw refuse(WorkspaceProblem::not_workspace, path,
                     "is an SQLite database of another program, not a Tally workspace "
                     "(application id " +
                         std::to_string(h.application_id) + ")");
    }
    return false;
}

std::uint32_t big_endian_u32(const unsigned char* bytes) {
    return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
           (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
}

// A file: URI for `path` with a query (sqlite.org/uri.html); everything but unreserved
// characters percent-encoded, so '?', '#' and '%' in a folder name stay part of the path.
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
                         "is damaged (integrity check: " + problems.substr(0, 300) + ")");
        }
        check_header(read_header(db), path);
    } catch (const sqlite::Error& e) {
        if (e.code() == SQLITE_CORRUPT || e.code() == SQLITE_NOTADB) {
            throw refuse(WorkspaceProblem::corrupt, path,
                         std::string("is damaged (") + e.what() + ")");
        }
        throw;
    }
}

// Looks at an existing file without writing to it: the SQLite header, then (through a
// read-only connection) its integrity, application id and schema version.
void inspect_read_only(const fs::path& path, int busy_timeout_ms) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) {
        throw refuse(WorkspaceProblem::io, path, "cannot be read (" + ec.message() + ")");
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
                "workspace " + path.string() + " cannot be read (" +
                    (e.system_errno() != 0 ? std::strerror(e.system_errno()) : e.what()) + ").");
        }
        if (!whole || std::memcmp(header, kMagic, sizeof kMagic) != 0) {
            throw refuse(WorkspaceProblem::not_sqlite, path,
                         "is not an SQLite database (it does not start with the SQLite header)");
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
            const WorkspaceProblem problem =
                is_permission_errno(ec.value())  ? WorkspaceProblem::read_only
                : is_disk_full_errno(ec.value()) ? WorkspaceProblem::disk_full
                                                 : WorkspaceProblem::io;
            throw WorkspaceError(problem, path,
                                 "creating workspace " + path.string() + ": cannot create folder " +
                                     path.parent_path().string() + " (" + ec.message() +
                                     "). Nothing was saved.");
        }
    }
    // "x": C11 exclusive mode, O_CREAT | O_EXCL.
    std::FILE* f = std::fopen(path.string().c_str(), "wbx");
    if (f == nullptr) {
        const int e = errno;
        if (e == EEXIST) {
            return false;
        }
        const WorkspaceProblem problem = is_permission_errno(e)  ? WorkspaceProblem::read_only
                                         : is_disk_full_errno(e) ? WorkspaceProblem::disk_full
                                                                 : WorkspaceProblem::io;
        throw WorkspaceError(
            problem, path,
            "creating workspace " + path.string() + ": " + std::strerror(e) +
                (problem == WorkspaceProblem::read_only ? " (the folder is read-only)" : "") +
                ". Nothing was saved.");
    }
    if (std::fclose(f) != 0) {
        throw WorkspaceError(WorkspaceProblem::io, path,
                             "creating workspace " + path.string() + ": " + std::strerror(errno) +
                                 ". Nothing was saved.");
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
                     "is damaged (a row of table " + fk.column_text(0) +
                         " points at a missing row of " + fk.column_text(2) + ")");
    }
    tx.commit();
    return from;
}

}  // namespace

namespace {

std::uint64_t as_u64(auto value) {
    return static_cast<std::uint64_t>(value);
}

}  // namespace

Workspace::Workspace(fs::path path, sqlite::Database db, int opened_version)
    : m_path(std::move(path)), m_db(std::move(db)), m_opened_version(opened_version) {
    // stat(), not lstat(): SQLite opens the file a link points at.
    const auto identity = [](const fs::path& file) {
        struct stat st {};
        if (::stat(file.c_str(), &st) != 0) {
            return FileIdentity{};
        }
        return FileIdentity{true, as_u64(st.st_dev), as_u64(st.st_ino)};
    };
    m_db_file = identity(m_path);
    // In WAL mode the connection opens -wal and -shm on its first read and keeps them open; read
    // once so they exist, then remember which files they are for check_files().
    m_db.query_int("SELECT count(*) FROM sqlite_master");
    if (m_db.query_text("PRAGMA journal_mode") == "wal") {
        m_wal_file = identity(fs::path(m_path.string() + "-wal"));
        m_shm_file = identity(fs::path(m_path.string() + "-shm"));
    }
}

// Why this check exists: SQLite's locks are POSIX advisory locks, which belong to the process, so
// any close() of another descriptor of the same file in this process drops them ("How To Corrupt
// An SQLite Database File", section 2.2). Another process then believes it is the last user,
// checkpoints and deletes the write-ahead log on closing, and this connection would go on
// writing into a deleted file (lost) and later copy stale pages back over the other process's
// writes (a damaged file). In WAL mode an open connection keeps its SHARED lock, so while the
// locks hold nobody removes -wal or -shm: finding them gone or replaced means the locks were lost.
void Workspace::check_files(std::string_view doing, bool after_write) {
    const auto refuse_detached = [&](const std::string& which) {
        std::string message = std::string(doing) + ": workspace " + m_path.string() + ": " + which +
                              " was removed or replaced by another program while Tally had the "
                              "workspace open, so this connection no longer sees the file other "
                              "programs write.";
        message += after_write ? " This change may not have reached the file: check it after "
                                 "opening the workspace again."
                               : " Nothing was read or saved.";
        message += " Everything saved before is in the file; open the workspace again to go on.";
        return WorkspaceError(WorkspaceProblem::detached, m_path, message);
    };
    if (m_detached) {
        throw refuse_detached("the workspace file or its write-ahead log");
    }
    const auto changed = [](const FileIdentity& was, const fs::path& file) {
        if (!was.exists) {
            return false;
        }
        struct stat st {};
        return ::stat(file.c_str(), &st) != 0 || as_u64(st.st_dev) != was.device ||
               as_u64(st.st_ino) != was.inode;
    };
    std::string which;
    if (changed(m_db_file, m_path)) {
        which = "the workspace file";
    } else if (changed(m_wal_file, fs::path(m_path.string() + "-wal"))) {
        which = "its write-ahead log " + m_path.string() + "-wal";
    } else if (changed(m_shm_file, fs::path(m_path.string() + "-shm"))) {
        which = "its shared-memory index " + m_path.string() + "-shm";
    }
    if (which.empty()) {
        return;
    }
    m_detached = true;
    // Closing this connection must not checkpoint its stale log into the file: that would write
    // old pages over what the other program saved since.
    sqlite3_db_config(m_db.handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    throw refuse_detached(which);
}

Workspace Workspace::open(const fs::path& path, const WorkspaceOptions& options) {
    bool created = false;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        created = create_empty_file(path);
    }
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
        throw refuse(WorkspaceProblem::not_sqlite, path, "is not a regular file");
    }
    if (!created) {
        try {
            inspect_read_only(path, options.busy_timeout_ms);
        } catch (const sqlite::Error& e) {
            if (e.extended_code() != SQLITE_READONLY_ROLLBACK) {
                throw translate(e, path, "opening", false);
            }
            // A writer died in the middle of a rollback-journal transaction (a workspace is in
            // that mode while it is created or migrated): its hot journal must be played back
            // before anyone can read the file. That restores the last committed state, as any
            // SQLite client opening the file would; then look again.
            try {
                sqlite::Database recover(path.string(), SQLITE_OPEN_READWRITE);
                recover.set_busy_timeout(options.busy_timeout_ms);
                recover.query_int("SELECT count(*) FROM sqlite_master");
            } catch (const sqlite::Error& again) {
                throw translate(again, path, "recovering an interrupted write to", true);
            }
            try {
                inspect_read_only(path, options.busy_timeout_ms);
            } catch (const sqlite::Error& again) {
                throw translate(again, path, "opening", false);
            }
        }
    }
    // Nothing half-written: when the file this call created still holds nothing, take it away.
    const auto remove_if_still_empty = [&] {
        if (created && fs::file_size(path, ec) == 0 && !ec) {
            fs::remove(path, ec);
        }
    };
    try {
        sqlite::Database db(path.string(), SQLITE_OPEN_READWRITE);
        db.set_busy_timeout(options.busy_timeout_ms);
        db.exec("PRAGMA foreign_keys = ON");
        if (db.query_int("PRAGMA foreign_keys") != 1) {
            throw WorkspaceError(WorkspaceProblem::io, path,
                                 "this build's SQLite does not enforce foreign keys");
        }
        // FULL: a commit reaches the disk before it returns, so a power cut keeps it too.
        db.exec("PRAGMA synchronous = FULL");
        // Any version but this build's goes through migrate(), which reads the header again
        // under the write lock: a file a newer Tally migrated after the inspection above is
        // refused there rather than written to.
        int opened = kWorkspaceSchemaVersion;
        if (db.query_int("PRAGMA user_version") != kWorkspaceSchemaVersion) {
            opened = migrate(db, path);
        }
        // Set after the schema exists, so a file created now is either empty or whole. WAL lets
        // the app read while the CLI writes. Filesystems without shared memory keep the
        // rollback journal, which is as safe, only less concurrent.
        db.query_text("PRAGMA journal_mode = WAL");
        return Workspace(path, std::move(db), opened);
    } catch (const sqlite::Error& e) {
        remove_if_still_empty();
        throw translate(e, path, created ? "creating" : "opening", true);
    } catch (...) {
        remove_if_still_empty();
        throw;
    }
}

template <typename F>
auto Workspace::write(std::string_view doing, F&& body) {
    check_files(doing, false);
    try {
        sqlite::Transaction tx(m_db);
        if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
            body();
            tx.commit();
            check_files(doing, true);
        } else {
            auto result = body();
            tx.commit();
            check_files(doing, true);
            return result;
        }
    } catch (const sqlite::Error& e) {
        throw translate(e, m_path, doing, true);
    }
}

template <typename F>
auto Workspace::read(std::string_view doing, F&& body) {
    check_files(doing, false);
    try {
        // One read transaction: a consistent snapshot across the statements of `body`.
        sqlite::Transaction tx(m_db, sqlite::Transaction::Mode::deferred);
        auto result = body();
        tx.commit();
        return result;
    } catch (const sqlite::Error& e) {
        throw translate(e, m_path, doing, false);
    }
}

// ---- validation ---------------------------------------------------------------------------------

namespace {

std::string quoted(const std::string& text) {
    return json(text).dump();
}

bool all_digits(const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(),
                                        [](unsigned char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void validate_profile_id(const std::string& id, const std::string& field) {
    constexpr std::size_t kMaxId = 64;
    const auto allowed = [](unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-';
    };
    const bool ok = !id.empty() && id.size() <= kMaxId &&
                    std::all_of(id.begin(), id.end(), allowed) && id.front() != '.' &&
                    id.front() != '-' && id.front() != '_';
    if (!ok) {
        throw SpecError(field, quoted(id),
                        "an id of 1 to 64 letters, digits, '.', '_' or '-', starting with a letter "
                        "or digit (e.g. my-h100)");
    }
}

void validate_display_name(const std::string& name, const std::string& field) {
    constexpr std::size_t kMaxName = 200;
    const bool blank = std::all_of(name.begin(), name.end(),
                                   [](unsigned char c) { return c == ' ' || c == '\t'; });
    const bool control = std::any_of(name.begin(), name.end(),
                                     [](unsigned char c) { return c < 0x20 || c == 0x7f; });
    if (blank || control || name.size() > kMaxName) {
        throw SpecError(field, quoted(name),
                        "a non-empty name of at most 200 bytes without control characters");
    }
}

namespace {

void validate_plan_name(const std::string& name) {
    validate_display_name(name, "plan.name");
    if (all_digits(name)) {
        throw SpecError("plan.name", quoted(name),
                        "a name that is not only digits (plans are looked up by name or by id)");
    }
}

// The catalog's rules (hardware_from_json) applied to a profile the user made.
HardwareProfile checked_profile(const HardwareProfile& profile) {
    validate_profile_id(profile.id);
    validate_display_name(profile.name, "profile.name");
    if (profile.kind == ProfileKind::builtin) {
        throw SpecError("profile.kind", "\"builtin\"",
                        "custom or measured: built-in profiles come from the catalog and are "
                        "read-only");
    }
    HardwareProfile checked = hardware_from_json(to_json(profile), "profile");
    checked.kind = profile.kind;
    return checked;
}

// ---- rows ---------------------------------------------------------------------------------------

constexpr std::string_view kProfileColumns = "id, kind, profile_json";

HardwareProfile profile_from_row(const sqlite::Statement& row, const fs::path& path) {
    const std::string id = row.column_text(0);
    try {
        HardwareProfile p = hardware_from_json(json::parse(row.column_text(2)), "profile " + id);
        p.kind = parse_profile_kind(row.column_text(1)).value_or(ProfileKind::custom);
        return p;
    } catch (const std::exception& e) {
        throw WorkspaceError(WorkspaceProblem::corrupt, path,
                             "workspace " + path.string() + ": stored profile " + quoted(id) +
                                 " does not read back (" + e.what() +
                                 "). Was the file edited by hand?");
    }
}

std::optional<HardwareProfile> load_stored_profile(sqlite::Database& db, const std::string& id,
                                                   const fs::path& path) {
    sqlite::Statement s(db,
                        "SELECT " + std::string(kProfileColumns) + " FROM profiles WHERE id = ?1");
    s.bind(1, id);
    return sqlite::first_row(
        s, [&](const sqlite::Statement& row) { return profile_from_row(row, path); });
}

std::optional<HardwareProfile> load_profile(sqlite::Database& db, const std::string& id,
                                            const fs::path& path) {
    if (auto stored = load_stored_profile(db, id, path)) {
        return stored;
    }
    if (const HardwareProfile* builtin = find_builtin_hardware(id)) {
        return *builtin;
    }
    return std::nullopt;
}

// Name taken by a built-in or another stored profile?
void check_profile_name_free(sqlite::Database& db, const HardwareProfile& p) {
    for (const HardwareProfile& b : builtin_hardware()) {
        if (b.name == p.name) {
            throw SpecError(
                "profile.name", quoted(p.name),
                "a name no other profile has (the built-in profile " + b.id + " has it)");
        }
    }
    sqlite::Statement s(db, "SELECT id FROM profiles WHERE name = ?1 AND id <> ?2");
    s.bind(1, p.name).bind(2, p.id);
    if (s.step()) {
        throw SpecError("profile.name", quoted(p.name),
                        "a name no other profile has (profile " + s.column_text(0) + " has it)");
    }
}

void insert_profile(sqlite::Database& db, const HardwareProfile& profile,
                    std::optional<std::int64_t> source_run_id) {
    const HardwareProfile p = checked_profile(profile);
    if (find_builtin_hardware(p.id) != nullptr) {
        throw SpecError("profile.id", quoted(p.id),
                        "an id no built-in profile has (built-in: " + builtin_hardware_ids() + ")");
    }
    {
        sqlite::Statement s(db, "SELECT name FROM profiles WHERE id = ?1");
        s.bind(1, p.id);
        if (s.step()) {
            throw SpecError("profile.id", quoted(p.id),
                            "an id no other profile has (" + quoted(s.column_text(0)) +
                                " has it; edit that one, or remove it first)");
        }
    }
    check_profile_name_free(db, p);
    sqlite::Statement insert(
        db,
        "INSERT INTO profiles (id, name, kind, profile_json, source_run_id, created_at, "
        "updated_at) VALUES (?1, ?2, ?3, ?4, ?5, " +
            std::string(kNow) + ", " + std::string(kNow) + ")");
    insert.bind(1, p.id)
        .bind(2, p.name)
        .bind(3, to_string(p.kind))
        .bind(4, to_json(p).dump())
        .bind(5, source_run_id);
    insert.run();
}

[[noreturn]] void throw_no_profile(const std::string& id) {
    throw SpecError("profile", quoted(id),
                    "the id of a profile (built-in: " + builtin_hardware_ids() +
                        "; stored ones: tally profiles list)");
}

void check_stored(sqlite::Database& db, const std::string& id, std::string_view verb) {
    sqlite::Statement s(db, "SELECT 1 FROM profiles WHERE id = ?1");
    s.bind(1, id);
    if (s.step()) {
        return;
    }
    if (find_builtin_hardware(id) != nullptr) {
        throw SpecError("profile", quoted(id),
                        "a custom or measured profile: built-in profiles are read-only and cannot "
                        "be " +
                            std::string(verb) + " (copy one with `tally profiles add --from " + id +
                            "`)");
    }
    throw_no_profile(id);
}

constexpr std::string_view kPlanColumns = "id, name, spec_json, created_at, updated_at";

StoredPlan plan_from_row(const sqlite::Statement& s) {
    return StoredPlan{s.column_int(0), s.column_text(1), s.column_text(2), s.column_text(3),
                      s.column_text(4)};
}

// The canonical text of a spec, checked to read back (a stored plan always parses).
std::string canonical_spec_json(const PlanSpec& spec) {
    const std::string text = to_json(spec).dump(2);
    try {
        plan_spec_from_text(text);
    } catch (const SpecError& e) {
        throw std::runtime_error(std::string("the plan's JSON does not read back, so it was not "
                                             "saved (a bug in Tally; please report it): ") +
                                 e.what());
    }
    return text;
}

void check_plan_name_free(sqlite::Database& db, const std::string& name, std::int64_t except_id) {
    sqlite::Statement s(db, "SELECT id FROM plans WHERE name = ?1 AND id <> ?2");
    s.bind(1, name).bind(2, except_id);
    if (s.step()) {
        throw SpecError("plan.name", quoted(name),
                        "a name no other plan has (plan " + std::to_string(s.column_int(0)) +
                            " has it; remove it first or pick another name)");
    }
}

[[noreturn]] void throw_no_plan(const std::string& key) {
    throw SpecError("plan", quoted(key), "the name or id of a saved plan (tally plans list)");
}

[[noreturn]] void throw_no_run(std::int64_t id) {
    throw SpecError("probe run", std::to_string(id),
                    "the id of a stored probe run (tally probes list)");
}

// ---- probe records ------------------------------------------------------------------------------

void check_json_object(const std::string& text, const std::string& field) {
    json parsed;
    try {
        parsed = json::parse(text);
    } catch (const json::exception&) {
        throw SpecError(field, quoted(text.substr(0, 80)), "a JSON object");
    }
    if (!parsed.is_object()) {
        throw SpecError(field, quoted(text.substr(0, 80)), "a JSON object");
    }
}

void check_figure(double value, const std::string& field) {
    if (!std::isfinite(value) || value < 0.0) {
        throw SpecError(field, fmt::format("{}", value), "a finite number >= 0");
    }
}

void check_figure(const std::optional<double>& value, const std::string& field) {
    if (value) {
        check_figure(*value, field);
    }
}

void check_result(const ProbeResultRecord& r) {
    const std::string p = "result";
    if (r.test.empty()) {
        throw SpecError(p + ".test", "\"\"", "the name of the test (matmul, copy, ...)");
    }
    check_json_object(r.sizes_json, p + ".sizes");
    check_figure(r.flops, p + ".flops");
    check_figure(r.bytes, p + ".bytes");
    check_figure(r.flops_per_s, p + ".flops_per_s");
    check_figure(r.bytes_per_s, p + ".bytes_per_s");
    check_figure(r.median_s, p + ".median_s");
    check_figure(r.min_s, p + ".min_s");
    check_figure(r.max_s, p + ".max_s");
    check_figure(r.stdrel, p + ".stdrel");
    if (r.samples < 0) {
        throw SpecError(p + ".samples", std::to_string(r.samples), "a count >= 0");
    }
}

std::int64_t insert_result(sqlite::Database& db, std::int64_t run_id, const ProbeResultRecord& r) {
    check_result(r);
    sqlite::Statement s(db, R"sql(
        INSERT INTO probe_results (run_id, test, dtype, sizes_json, flops, bytes, flops_per_s,
            bytes_per_s, median_s, min_s, max_s, stdrel, samples, status, validated, reason)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16))sql");
    s.bind(1, run_id)
        .bind(2, r.test)
        .bind(3, r.dtype)
        .bind(4, r.sizes_json)
        .bind(5, r.flops)
        .bind(6, r.bytes)
        .bind(7, r.flops_per_s)
        .bind(8, r.bytes_per_s)
        .bind(9, r.median_s)
        .bind(10, r.min_s)
        .bind(11, r.max_s)
        .bind(12, r.stdrel)
        .bind(13, r.samples)
        .bind(14, to_string(r.status))
        .bind(15, r.validated)
        .bind(16, r.reason);
    s.run();
    return db.last_insert_rowid();
}

constexpr std::string_view kRunColumns =
    "id, backend, host, device_json, started_at, finished_at, status";
constexpr std::string_view kResultColumns =
    "run_id, id, test, dtype, sizes_json, flops, bytes, flops_per_s, bytes_per_s, median_s, min_s, "
    "max_s, stdrel, samples, status, validated, reason";

ProbeRunRecord run_from_row(const sqlite::Statement& s) {
    ProbeRunRecord run;
    run.id = s.column_int(0);
    run.backend = s.column_text(1);
    run.host = s.column_text(2);
    run.device_json = s.column_text(3);
    run.started_at = s.column_text(4);
    run.finished_at = s.column_text(5);
    run.status = parse_probe_run_status(s.column_text(6)).value_or(ProbeRunStatus::failed);
    return run;
}

ProbeResultRecord result_from_row(const sqlite::Statement& s) {
    ProbeResultRecord r;
    r.id = s.column_int(1);
    r.test = s.column_text(2);
    r.dtype = s.column_text(3);
    r.sizes_json = s.column_text(4);
    r.flops = s.column_double(5);
    r.bytes = s.column_double(6);
    r.flops_per_s = s.column_optional_double(7);
    r.bytes_per_s = s.column_optional_double(8);
    r.median_s = s.column_optional_double(9);
    r.min_s = s.column_optional_double(10);
    r.max_s = s.column_optional_double(11);
    r.stdrel = s.column_optional_double(12);
    r.samples = s.column_int(13);
    r.status = parse_probe_result_status(s.column_text(14)).value_or(ProbeResultStatus::failed);
    r.validated = s.column_int(15) != 0;
    r.reason = s.column_text(16);
    return r;
}

std::optional<ProbeRunRecord> load_run(sqlite::Database& db, std::int64_t id) {
    sqlite::Statement s(db,
                        "SELECT " + std::string(kRunColumns) + " FROM probe_runs WHERE id = ?1");
    s.bind(1, id);
    if (!s.step()) {
        return std::nullopt;
    }
    ProbeRunRecord run = run_from_row(s);
    sqlite::Statement r(db, "SELECT " + std::string(kResultColumns) +
                                " FROM probe_results WHERE run_id = ?1 ORDER BY id");
    r.bind(1, id);
    run.results = sqlite::all_rows(r, result_from_row);
    return run;
}

}  // namespace

// ---- profiles -----------------------------------------------------------------------------------

std::vector<HardwareProfile> Workspace::list_profiles() {
    std::vector<HardwareProfile> all = builtin_hardware();
    std::vector<HardwareProfile> stored = stored_profiles();
    all.insert(all.end(), std::make_move_iterator(stored.begin()),
               std::make_move_iterator(stored.end()));
    return all;
}

std::vector<HardwareProfile> Workspace::stored_profiles() {
    return read("listing profiles", [&] {
        sqlite::Statement s(
            m_db, "SELECT " + std::string(kProfileColumns) + " FROM profiles ORDER BY name, id");
        return sqlite::all_rows(
            s, [&](const sqlite::Statement& row) { return profile_from_row(row, m_path); });
    });
}

std::optional<HardwareProfile> Workspace::find_profile(const std::string& id) {
    return read("reading profile " + id, [&] { return load_profile(m_db, id, m_path); });
}

void Workspace::add_profile(const HardwareProfile& profile) {
    write("saving profile " + profile.id, [&] { insert_profile(m_db, profile, std::nullopt); });
}

void Workspace::update_profile(const HardwareProfile& profile) {
    write("saving profile " + profile.id, [&] {
        check_stored(m_db, profile.id, "edited");
        const HardwareProfile p = checked_profile(profile);
        check_profile_name_free(m_db, p);
        sqlite::Statement s(m_db,
                            "UPDATE profiles SET name = ?2, kind = ?3, profile_json = ?4, "
                            "updated_at = " +
                                std::string(kNow) + " WHERE id = ?1");
        s.bind(1, p.id).bind(2, p.name).bind(3, to_string(p.kind)).bind(4, to_json(p).dump());
        s.run();
    });
}

void Workspace::remove_profile(const std::string& id) {
    write("removing profile " + id, [&] {
        check_stored(m_db, id, "removed");
        sqlite::Statement s(m_db, "DELETE FROM profiles WHERE id = ?1");
        s.bind(1, id);
        s.run();
    });
}

std::optional<std::int64_t> Workspace::profile_source_run(const std::string& id) {
    return read("reading profile " + id, [&] {
        sqlite::Statement s(m_db, "SELECT source_run_id FROM profiles WHERE id = ?1");
        s.bind(1, id);
        return sqlite::first_row(
                   s, [](const sqlite::Statement& row) { return row.column_optional_int(0); })
            .value_or(std::nullopt);
    });
}

HardwareProfile Workspace::add_measured_profile(std::int64_t run_id, const std::string& base_id,
                                                const std::string& id, const std::string& name) {
    return write("saving measured profile " + id, [&] {
        const std::optional<ProbeRunRecord> run = load_run(m_db, run_id);
        if (!run) {
            throw_no_run(run_id);
        }
        std::optional<HardwareProfile> base;
        if (!base_id.empty()) {
            base = load_profile(m_db, base_id, m_path);
            if (!base) {
                throw_no_profile(base_id);
            }
        }
        HardwareProfile p = measured_profile(*run, base ? &*base : nullptr, id, name);
        insert_profile(m_db, p, run_id);
        return p;
    });
}

HardwareProfile duplicate_profile(const HardwareProfile& base, const std::string& id,
                                  const std::string& name) {
    HardwareProfile copy = base;
    copy.id = id;
    copy.name = name;
    copy.kind = ProfileKind::custom;
    copy.sources.insert(copy.sources.begin(),
                        "copied from profile " + base.id + " (" + base.name + ")");
    return copy;
}

// ---- plans --------------------------------------------------------------------------------------

std::vector<StoredPlan> Workspace::list_plans() {
    return read("listing plans", [&] {
        sqlite::Statement s(
            m_db, "SELECT " + std::string(kPlanColumns) + " FROM plans ORDER BY name, id");
        return sqlite::all_rows(s, plan_from_row);
    });
}

std::optional<StoredPlan> Workspace::find_plan(std::int64_t id) {
    return read("reading plan " + std::to_string(id), [&] {
        sqlite::Statement s(m_db,
                            "SELECT " + std::string(kPlanColumns) + " FROM plans WHERE id = ?1");
        s.bind(1, id);
        return sqlite::first_row(s, plan_from_row);
    });
}

std::optional<StoredPlan> Workspace::find_plan(const std::string& key) {
    if (all_digits(key)) {
        if (key.size() > 18) {
            return std::nullopt;
        }
        return find_plan(static_cast<std::int64_t>(std::stoll(key)));
    }
    return read("reading plan " + key, [&] {
        sqlite::Statement s(m_db,
                            "SELECT " + std::string(kPlanColumns) + " FROM plans WHERE name = ?1");
        s.bind(1, key);
        return sqlite::first_row(s, plan_from_row);
    });
}

std::int64_t Workspace::save_plan(const std::string& name, const PlanSpec& spec) {
    validate_plan_name(name);
    const std::string text = canonical_spec_json(spec);
    return write("saving plan " + name, [&] {
        check_plan_name_free(m_db, name, -1);
        sqlite::Statement s(m_db,
                            "INSERT INTO plans (name, spec_json, created_at, updated_at) "
                            "VALUES (?1, ?2, " +
                                std::string(kNow) + ", " + std::string(kNow) + ")");
        s.bind(1, name).bind(2, text);
        s.run();
        return m_db.last_insert_rowid();
    });
}

void Workspace::update_plan(std::int64_t id, const PlanSpec& spec) {
    const std::string text = canonical_spec_json(spec);
    write("saving plan " + std::to_string(id), [&] {
        sqlite::Statement s(m_db, "UPDATE plans SET spec_json = ?2, updated_at = " +
                                      std::string(kNow) + " WHERE id = ?1");
        s.bind(1, id).bind(2, text);
        s.run();
        if (m_db.changes() == 0) {
            throw_no_plan(std::to_string(id));
        }
    });
}

void Workspace::rename_plan(std::int64_t id, const std::string& name) {
    validate_plan_name(name);
    write("renaming plan " + std::to_string(id), [&] {
        check_plan_name_free(m_db, name, id);
        sqlite::Statement s(m_db, "UPDATE plans SET name = ?2, updated_at = " + std::string(kNow) +
                                      " WHERE id = ?1");
        s.bind(1, id).bind(2, name);
        s.run();
        if (m_db.changes() == 0) {
            throw_no_plan(std::to_string(id));
        }
    });
}

void Workspace::remove_plan(std::int64_t id) {
    write("removing plan " + std::to_string(id), [&] {
        sqlite::Statement s(m_db, "DELETE FROM plans WHERE id = ?1");
        s.bind(1, id);
        s.run();
        if (m_db.changes() == 0) {
            throw_no_plan(std::to_string(id));
        }
    });
}

// ---- probe runs ---------------------------------------------------------------------------------

std::string_view to_string(ProbeRunStatus status) {
    switch (status) {
        case ProbeRunStatus::running:
            return "running";
        case ProbeRunStatus::ok:
            return "ok";
        case ProbeRunStatus::failed:
            return "failed";
    }
    return "?";
}

std::string_view to_string(ProbeResultStatus status) {
    switch (status) {
        case ProbeResultStatus::passed:
            return "passed";
        case ProbeResultStatus::waived:
            return "waived";
        case ProbeResultStatus::failed:
            return "failed";
    }
    return "?";
}

std::optional<ProbeRunStatus> parse_probe_run_status(std::string_view text) {
    for (ProbeRunStatus s : {ProbeRunStatus::running, ProbeRunStatus::ok, ProbeRunStatus::failed}) {
        if (to_string(s) == text) {
            return s;
        }
    }
    return std::nullopt;
}

std::optional<ProbeResultStatus> parse_probe_result_status(std::string_view text) {
    for (ProbeResultStatus s :
         {ProbeResultStatus::passed, ProbeResultStatus::waived, ProbeResultStatus::failed}) {
        if (to_string(s) == text) {
            return s;
        }
    }
    return std::nullopt;
}

std::int64_t Workspace::add_probe_run(const ProbeRunRecord& run) {
    if (run.started_at.empty()) {
        throw SpecError("run.started_at", "\"\"", "the time the run started (ISO 8601)");
    }
    check_json_object(run.device_json, "run.device");
    for (const ProbeResultRecord& r : run.results) {
        check_result(r);
    }
    return write("saving probe run", [&] {
        sqlite::Statement s(m_db,
                            "INSERT INTO probe_runs (backend, host, device_json, started_at, "
                            "finished_at, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        s.bind(1, run.backend).bind(2, run.host).bind(3, run.device_json).bind(4, run.started_at);
        if (run.finished_at.empty()) {
            s.bind_null(5);
        } else {
            s.bind(5, run.finished_at);
        }
        s.bind(6, to_string(run.status));
        s.run();
        const std::int64_t id = m_db.last_insert_rowid();
        for (const ProbeResultRecord& r : run.results) {
            insert_result(m_db, id, r);
        }
        return id;
    });
}

std::int64_t Workspace::add_probe_result(std::int64_t run_id, const ProbeResultRecord& result) {
    check_result(result);
    return write("saving probe result", [&] {
        sqlite::Statement s(m_db, "SELECT 1 FROM probe_runs WHERE id = ?1");
        s.bind(1, run_id);
        if (!s.step()) {
            throw_no_run(run_id);
        }
        return insert_result(m_db, run_id, result);
    });
}

void Workspace::finish_probe_run(std::int64_t run_id, ProbeRunStatus status,
                                 const std::string& finished_at) {
    write("saving probe run " + std::to_string(run_id), [&] {
        sqlite::Statement s(m_db,
                            "UPDATE probe_runs SET status = ?2, finished_at = ?3 WHERE id = ?1");
        s.bind(1, run_id).bind(2, to_string(status)).bind(3, finished_at);
        s.run();
        if (m_db.changes() == 0) {
            throw_no_run(run_id);
        }
    });
}

std::vector<ProbeRunRecord> Workspace::list_probe_runs() {
    return read("listing probe runs", [&] {
        std::vector<ProbeRunRecord> runs;
        std::map<std::int64_t, std::size_t> index;
        sqlite::Statement s(m_db, "SELECT " + std::string(kRunColumns) +
                                      " FROM probe_runs ORDER BY started_at DESC, id DESC");
        while (s.step()) {
            runs.push_back(run_from_row(s));
            index[runs.back().id] = runs.size() - 1;
        }
        sqlite::Statement r(m_db, "SELECT " + std::string(kResultColumns) +
                                      " FROM probe_results ORDER BY run_id, id");
        while (r.step()) {
            if (auto it = index.find(r.column_int(0)); it != index.end()) {
                runs[it->second].results.push_back(result_from_row(r));
            }
        }
        return runs;
    });
}

std::optional<ProbeRunRecord> Workspace::find_probe_run(std::int64_t id) {
    return read("reading probe run " + std::to_string(id), [&] { return load_run(m_db, id); });
}

void Workspace::remove_probe_run(std::int64_t id) {
    write("removing probe run " + std::to_string(id), [&] {
        sqlite::Statement s(m_db, "DELETE FROM probe_runs WHERE id = ?1");
        s.bind(1, id);
        s.run();
        if (m_db.changes() == 0) {
            throw_no_run(id);
        }
    });
}

// ---- measured profiles --------------------------------------------------------------------------

namespace {

bool usable(const ProbeResultRecord& r) {
    return r.status == ProbeResultStatus::passed && r.validated;
}

std::optional<ComputeType> result_compute_type(const std::string& dtype) {
    if (auto t = parse_compute_type(dtype)) {
        return t;
    }
    if (auto d = parse_dtype(dtype)) {
        return compute_type(*d);
    }
    return std::nullopt;
}

}  // namespace

HardwareProfile measured_profile(const ProbeRunRecord& run, const HardwareProfile* base,
                                 const std::string& id, const std::string& name) {
    HardwareProfile p;
    if (base != nullptr) {
        p = *base;
    } else {
        p.vendor = "";
        // The device event may carry the memory size; a base profile is needed otherwise.
        const json device = json::parse(run.device_json, nullptr, false);
        if (device.is_object()) {
            if (auto it = device.find("memory_bytes"); it != device.end() && it->is_number()) {
                p.memory_bytes = it->get<double>();
            }
            if (auto it = device.find("name"); it != device.end() && it->is_string()) {
                p.notes = "device: " + it->get<std::string>();
            }
        }
    }
    p.id = id;
    p.name = name;
    p.kind = ProfileKind::measured;

    // The best validated, passed result per dtype (matmul) and for memory (copy, read).
    std::array<const ProbeResultRecord*, kComputeTypeCount> best_matmul{};
    const ProbeResultRecord* best_memory = nullptr;
    for (const ProbeResultRecord& r : run.results) {
        if (!usable(r)) {
            continue;
        }
        if (r.test == "matmul" && r.flops_per_s && *r.flops_per_s > 0.0) {
            if (auto type = result_compute_type(r.dtype)) {
                const ProbeResultRecord*& best = best_matmul[static_cast<std::size_t>(*type)];
                if (best == nullptr || *r.flops_per_s > *best->flops_per_s) {
                    best = &r;
                }
            }
        } else if ((r.test == "copy" || r.test == "read") && r.bytes_per_s &&
                   *r.bytes_per_s > 0.0) {
            if (best_memory == nullptr || *r.bytes_per_s > *best_memory->bytes_per_s) {
                best_memory = &r;
            }
        }
    }
    const bool any_matmul = std::any_of(best_matmul.begin(), best_matmul.end(),
                                        [](const ProbeResultRecord* r) { return r != nullptr; });
    if (!any_matmul && best_memory == nullptr) {
        throw SpecError("probe run", std::to_string(run.id),
                        "a run with at least one validated, passed matmul, copy or read result");
    }

    const std::string run_label = "tally-probe run " + std::to_string(run.id) + " (" + run.backend +
                                  (run.host.empty() ? "" : " on " + run.host) + ", " +
                                  run.started_at +
                                  (run.finished_at.empty() ? "" : " to " + run.finished_at) + ")";
    std::string measured_list;
    const auto note = [&](std::string_view what) {
        measured_list += measured_list.empty() ? "" : ", ";
        measured_list += what;
    };
    // Figures of the base that measured ones replace would refer to the wrong peak.
    std::vector<MeasuredFigure> kept;
    for (const MeasuredFigure& f : p.measured) {
        const bool memory_metric = f.metric.starts_with("hbm_") || f.metric.starts_with("memory_");
        bool replaced = memory_metric && best_memory != nullptr;
        for (ComputeType t : kAllComputeTypes) {
            replaced = replaced || (best_matmul[static_cast<std::size_t>(t)] != nullptr &&
                                    f.metric == std::string(to_string(t)) + "_gemm");
        }
        if (!replaced) {
            kept.push_back(f);
        }
    }
    p.measured = std::move(kept);
    const auto method = [](const ProbeResultRecord& r) {
        return "tally-probe " + r.test + " " + r.dtype + " sizes " + r.sizes_json + ", median of " +
               std::to_string(r.samples) + " samples";
    };
    for (ComputeType t : kAllComputeTypes) {
        const ProbeResultRecord* r = best_matmul[static_cast<std::size_t>(t)];
        if (r == nullptr) {
            continue;
        }
        // The peak becomes what the card reached, so that figure is 100% of it.
        p.peak_flops_per_s[static_cast<std::size_t>(t)] = *r->flops_per_s;
        p.measured.push_back(MeasuredFigure{std::string(to_string(t)) + "_gemm", *r->flops_per_s,
                                            1.0, method(*r), run_label});
        note(std::string(to_string(t)) + " peak");
    }
    if (best_memory != nullptr) {
        p.bandwidth_bytes_per_s = *best_memory->bytes_per_s;
        p.measured.push_back(MeasuredFigure{"memory_" + best_memory->test,
                                            *best_memory->bytes_per_s, 1.0, method(*best_memory),
                                            run_label});
        note("memory bandwidth");
    }
    p.sources.insert(p.sources.begin(), run_label);
    p.verification = "measured";
    std::string notes = "Measured by " + run_label + ": " + measured_list + ".";
    if (base != nullptr) {
        notes += " Other figures from profile " + base->id + " (" + base->name + ").";
    }
    if (!p.notes.empty()) {
        notes += " " + p.notes;
    }
    p.notes = notes;
    if (base == nullptr) {
        // Without a base, what the run did not give is missing: say how to supply it.
        const char* missing = p.memory_bytes <= 0.0 ? "the device event gives no memory_bytes"
                              : best_memory == nullptr
                                  ? "the run has no validated copy or read result for the bandwidth"
                              : !any_matmul ? "the run has no validated matmul result for a peak"
                                            : nullptr;
        if (missing != nullptr) {
            throw SpecError("base", "none",
                            std::string("a base profile to start from: ") + missing);
        }
    }
    // The catalog's rules, naming the field that breaks them.
    HardwareProfile checked = hardware_from_json(to_json(p), "measured profile");
    checked.kind = ProfileKind::measured;
    return checked;
}

}  // namespace tally
