#include "planner/store/workspace.h"

#include <sqlite3.h>

#include <fmt/core.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>
#include <type_traits>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_probe/protocol/probe_collectives.h"
#include "planner/core/errors.h"
#include "planner/io/spec_json.h"
#include "planner/store/workspace_schema.h"

namespace tally {

namespace fs = std::filesystem;
using nlohmann::json;

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

WorkspaceError::WorkspaceError(WorkspaceProblem problem, fs::path path, Text message)
    : std::runtime_error(message.english()),
      m_problem(problem),
      m_path(std::move(path)),
      m_text(std::move(message)) {}

namespace store_detail {

WorkspaceError refuse(WorkspaceProblem problem, const fs::path& path, Text message) {
    return WorkspaceError(problem, path, std::move(message));
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

WorkspaceProblem problem_of_errno(int e) {
    return is_permission_errno(e)  ? WorkspaceProblem::read_only
           : is_disk_full_errno(e) ? WorkspaceProblem::disk_full
                                   : WorkspaceProblem::io;
}

// Turns an SQLite failure during `doing` into a WorkspaceError naming the file and the problem.
// Each message starts "%1%2: workspace %3": what was being done (translated), what it acted on
// (with a space before it, or nothing) and the file; %4 is SQLite's own message. A write says
// "Nothing was saved."; each problem has a template for a read and one for a write.
WorkspaceError translate(const sqlite::Error& e, const fs::path& path, const WorkspaceDoing& doing,
                         bool writing) {
    const auto message = [&](const char* reading_source, const char* writing_source) {
        return Text("tally::workspace", writing ? writing_source : reading_source)
            .arg_translated("tally::workspace", doing.phrase)
            .arg(doing.subject.empty() ? std::string() : " " + doing.subject)
            .arg(path.string())
            .arg(e.what());
    };
    const int code = e.code();
    const int sys = e.system_errno();
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
        return WorkspaceError(
            WorkspaceProblem::busy, path,
            message(QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3 is busy: another Tally process (the app "
                                      "or a `tally` command) is writing to it (%4). Try again."),
                    QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3 is busy: another Tally process (the app "
                                      "or a `tally` command) is writing to it (%4). Nothing was "
                                      "saved. Try again.")));
    }
    // A write that fails with ENOSPC is SQLITE_FULL; one that fails with EFBIG (a file size
    // limit) or EDQUOT is SQLITE_IOERR_WRITE, whose errno SQLite does not always keep.
    if (code == SQLITE_FULL ||
        (code == SQLITE_IOERR &&
         (is_disk_full_errno(sys) || (e.extended_code() == SQLITE_IOERR_WRITE && sys == 0)))) {
        return WorkspaceError(
            WorkspaceProblem::disk_full, path,
            message(QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3: the disk is full, or the file reached a "
                                      "size limit (%4). Free some space and try again."),
                    QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3: the disk is full, or the file reached a "
                                      "size limit (%4). Nothing was saved. Free some space and "
                                      "try again.")));
    }
    if (code == SQLITE_READONLY || code == SQLITE_PERM || code == SQLITE_CANTOPEN ||
        code == SQLITE_AUTH || (code == SQLITE_IOERR && is_permission_errno(sys))) {
        return WorkspaceError(
            WorkspaceProblem::read_only, path,
            message(QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3 cannot be written: the file or its "
                                      "folder is read-only (%4)."),
                    QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3 cannot be written: the file or its "
                                      "folder is read-only (%4). Nothing was saved.")));
    }
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
        return WorkspaceError(
            WorkspaceProblem::corrupt, path,
            message(QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3 is damaged (%4). Restore it from a "
                                      "backup, or pick another file."),
                    QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3 is damaged (%4). Nothing was saved. "
                                      "Restore it from a backup, or pick another file.")));
    }
    if (code == SQLITE_CONSTRAINT) {
        return WorkspaceError(
            WorkspaceProblem::conflict, path,
            message(QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3: another process saved a conflicting "
                                      "row first (%4)."),
                    QT_TRANSLATE_NOOP("tally::workspace",
                                      "%1%2: workspace %3: another process saved a conflicting "
                                      "row first (%4). Nothing was saved.")));
    }
    return WorkspaceError(WorkspaceProblem::io, path,
                          message(QT_TRANSLATE_NOOP("tally::workspace", "%1%2: workspace %3: %4."),
                                  QT_TRANSLATE_NOOP("tally::workspace",
                                                    "%1%2: workspace %3: %4. Nothing was saved.")));
}

}  // namespace store_detail

using namespace store_detail;

namespace {

constexpr std::string_view kNow = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

}  // namespace

namespace {

std::uint64_t as_u64(auto value) {
    return static_cast<std::uint64_t>(value);
}

// Puts the file in WAL mode unless it already is. Leaving rollback-journal mode needs the file's
// exclusive lock, which SQLite takes without its busy handler (pager.c, pagerExclusiveLock()):
// while another process only reads the new file, as a second Tally opening it at once does, the
// switch fails at once with SQLITE_BUSY. It is tried again until it holds, another process
// switched the file, or the busy timeout has passed. A file already in WAL mode takes no lock.
void use_wal(sqlite::Database& db, int busy_timeout_ms) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
    for (;;) {
        if (db.query_text("PRAGMA journal_mode") == "wal") {
            return;
        }
        try {
            // Filesystems without shared memory keep the rollback journal (the pragma answers
            // "delete"), which is as safe, only less concurrent.
            db.query_text("PRAGMA journal_mode = WAL");
            return;
        } catch (const sqlite::Error& e) {
            if (e.code() != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline) {
                throw;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace

Workspace::Workspace(fs::path path, sqlite::Database db, int opened_version)
    : m_path(std::move(path)), m_db(std::move(db)), m_opened_version(opened_version) {
    std::error_code ec;
    m_lock_base = fs::weakly_canonical(fs::absolute(m_path, ec), ec);
    if (ec) {
        m_lock_base = m_path;
    }
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
void Workspace::check_files(const WorkspaceDoing& doing, bool after_write) {
    // "%1%2: workspace %3: %4%5 was removed ...": what was being done and on what (as in
    // translate()), the file, which of its files changed and that file's path (with a space
    // before it, or nothing).
    const auto refuse_detached = [&](const char* which, const std::string& which_path) {
        return WorkspaceError(
            WorkspaceProblem::detached, m_path,
            Text("tally::workspace",
                 after_write
                     ? QT_TRANSLATE_NOOP(
                           "tally::workspace",
                           "%1%2: workspace %3: %4%5 was removed or replaced by another program "
                           "while Tally had the workspace open, so this connection no longer "
                           "sees the file other programs write. This change may not have "
                           "reached the file: check it after opening the workspace again. "
                           "Everything saved before is in the file; open the workspace again to "
                           "go on.")
                     : QT_TRANSLATE_NOOP(
                           "tally::workspace",
                           "%1%2: workspace %3: %4%5 was removed or replaced by another program "
                           "while Tally had the workspace open, so this connection no longer "
                           "sees the file other programs write. Nothing was read or saved. "
                           "Everything saved before is in the file; open the workspace again to "
                           "go on."))
                .arg_translated("tally::workspace", doing.phrase)
                .arg(doing.subject.empty() ? std::string() : " " + doing.subject)
                .arg(m_path.string())
                .arg_translated("tally::workspace", which)
                .arg(which_path.empty() ? std::string() : " " + which_path));
    };
    if (m_detached) {
        throw refuse_detached(
            QT_TRANSLATE_NOOP("tally::workspace", "the workspace file or its write-ahead log"), "");
    }
    const auto changed = [](const FileIdentity& was, const fs::path& file) {
        if (!was.exists) {
            return false;
        }
        struct stat st {};
        return ::stat(file.c_str(), &st) != 0 || as_u64(st.st_dev) != was.device ||
               as_u64(st.st_ino) != was.inode;
    };
    const char* which = nullptr;
    std::string which_path;
    if (changed(m_db_file, m_path)) {
        which = QT_TRANSLATE_NOOP("tally::workspace", "the workspace file");
    } else if (changed(m_wal_file, fs::path(m_path.string() + "-wal"))) {
        which = QT_TRANSLATE_NOOP("tally::workspace", "its write-ahead log");
        which_path = m_path.string() + "-wal";
    } else if (changed(m_shm_file, fs::path(m_path.string() + "-shm"))) {
        which = QT_TRANSLATE_NOOP("tally::workspace", "its shared-memory index");
        which_path = m_path.string() + "-shm";
    }
    if (which == nullptr) {
        return;
    }
    m_detached = true;
    // Closing this connection must not checkpoint its stale log into the file: that would write
    // old pages over what the other program saved since.
    sqlite3_db_config(m_db.handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    throw refuse_detached(which, which_path);
}

namespace {

// Whether this process may write the workspace file and create files beside it (SQLite's
// rollback journal, or the -wal and -shm of WAL mode, live in the same folder).
bool writable(const fs::path& path) {
    fs::path folder = path.parent_path();
    if (folder.empty()) {
        folder = ".";
    }
    return ::access(path.c_str(), W_OK) == 0 && ::access(folder.c_str(), W_OK) == 0;
}

}  // namespace

// A workspace this process cannot write is still opened, to be browsed: a connection that never
// writes, whose every write is refused before it starts (write()). SQLite would otherwise open
// it read-write and fail on the first pragma that writes, so that not even its plans could be
// listed.
Workspace Workspace::open_read_only(const fs::path& path, const WorkspaceOptions& options) {
    std::error_code ec;
    // With no write-ahead log beside the file no connection is writing it now, and this one may
    // read it without locks (immutable: SQLite then creates no -shm, which a read-only folder
    // could not hold); a -wal present means another program has it open, so read with locks.
    const bool quiet = !fs::exists(path.string() + "-wal", ec);
    try {
        sqlite::Database db(file_uri(path, quiet ? "immutable=1" : "mode=ro"),
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
        db.set_busy_timeout(options.busy_timeout_ms);
        const int version = db.query_int("PRAGMA user_version");
        if (version != kWorkspaceSchemaVersion) {
            // Newer versions were refused by the inspection; an older one needs a migration,
            // which is a write.
            throw WorkspaceError(
                WorkspaceProblem::read_only, path,
                TALLY_TEXT("tally::workspace",
                           "workspace %1 cannot be written (the file or its folder is read-only) "
                           "and was made by an older Tally (schema version %2, this build reads "
                           "%3): open it once where it can be written, so that it is upgraded.")
                    .arg(path.string())
                    .arg(version)
                    .arg(kWorkspaceSchemaVersion));
        }
        Workspace workspace(path, std::move(db), version);
        workspace.m_read_only = true;
        return workspace;
    } catch (const sqlite::Error& e) {
        throw translate(e, path, {QT_TRANSLATE_NOOP("tally::workspace", "opening")}, false);
    }
}

Workspace Workspace::open(const fs::path& path, const WorkspaceOptions& options) {
    bool created = false;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        created = create_empty_file(path);
    }
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
        throw refuse(WorkspaceProblem::not_sqlite, path,
                     TALLY_TEXT("tally::workspace",
                                "workspace %1 is not a regular file. It was left untouched; pick "
                                "another file or start a new workspace.")
                         .arg(path.string()));
    }
    if (!created) {
        try {
            inspect_read_only(path, options.busy_timeout_ms);
        } catch (const sqlite::Error& e) {
            if (e.extended_code() != SQLITE_READONLY_ROLLBACK) {
                throw translate(e, path, {QT_TRANSLATE_NOOP("tally::workspace", "opening")}, false);
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
                throw translate(
                    again, path,
                    {QT_TRANSLATE_NOOP("tally::workspace", "recovering an interrupted write to")},
                    true);
            }
            try {
                inspect_read_only(path, options.busy_timeout_ms);
            } catch (const sqlite::Error& again) {
                throw translate(again, path, {QT_TRANSLATE_NOOP("tally::workspace", "opening")},
                                false);
            }
        }
    }
    if (!created && !writable(path)) {
        return open_read_only(path, options);
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
                                 TALLY_TEXT("tally::workspace",
                                            "this build's SQLite does not enforce foreign keys"));
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
        // the app read while the CLI writes.
        use_wal(db, options.busy_timeout_ms);
        Workspace workspace(path, std::move(db), opened);
        workspace.settle_interrupted_probe_runs();
        return workspace;
    } catch (const sqlite::Error& e) {
        remove_if_still_empty();
        throw translate(e, path,
                        {created ? QT_TRANSLATE_NOOP("tally::workspace", "creating")
                                 : QT_TRANSLATE_NOOP("tally::workspace", "opening")},
                        true);
    } catch (...) {
        remove_if_still_empty();
        throw;
    }
}

template <typename F>
auto Workspace::write(const WorkspaceDoing& doing, F&& body) {
    if (m_read_only) {
        // %1%2: what was being done and on what (with a space before it, or nothing).
        throw WorkspaceError(
            WorkspaceProblem::read_only, m_path,
            TALLY_TEXT("tally::workspace",
                       "%1%2: workspace %3 is open read-only (the file or its folder cannot be "
                       "written), so it can be browsed but not changed. Nothing was saved: copy "
                       "it to a folder you can write to, or make it writable, to save there.")
                .arg_translated("tally::workspace", doing.phrase)
                .arg(doing.subject.empty() ? std::string() : " " + doing.subject)
                .arg(m_path.string()));
    }
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
auto Workspace::read(const WorkspaceDoing& doing, F&& body) {
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
    return quoted_value(text);
}

bool all_digits(const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(),
                                        [](unsigned char c) { return c >= '0' && c <= '9'; });
}

void validate_plan_name(const std::string& name) {
    validate_display_name(name, "plan.name");
    if (all_digits(name)) {
        throw SpecError("plan.name", quoted(name),
                        TALLY_TEXT("tally::workspace",
                                   "a name that is not only digits (plans are looked up by name "
                                   "or by id)"));
    }
}

// The catalog's rules (hardware_from_json) applied to a profile the user made.
HardwareProfile checked_profile(const HardwareProfile& profile) {
    validate_profile_id(profile.id);
    validate_display_name(profile.name, "profile.name");
    if (profile.kind == ProfileKind::builtin) {
        throw SpecError("profile.kind", "\"builtin\"",
                        TALLY_TEXT("tally::workspace",
                                   "custom or measured: built-in profiles come from the catalog "
                                   "and are read-only"));
    }
    // Stored as JSON, which holds only UTF-8: a byte that is not (a Latin-1 note typed in a
    // terminal) is refused by field rather than failing the write.
    const std::pair<const char*, const std::string*> texts[] = {
        {"profile.vendor", &profile.vendor},
        {"profile.copied_from", &profile.copied_from},
        {"profile.form_factor", &profile.form_factor},
        {"profile.memory_type", &profile.memory_type},
        {"profile.interconnect.name", &profile.interconnect_name},
        {"profile.datasheet_printed", &profile.datasheet_printed},
        {"profile.verification", &profile.verification},
        {"profile.notes", &profile.notes}};
    for (const auto& [field, text] : texts) {
        if (!is_valid_utf8(*text)) {
            throw SpecError(field, quoted(*text), TALLY_TEXT("tally::workspace", "UTF-8 text"));
        }
    }
    for (std::size_t i = 0; i < profile.sources.size(); ++i) {
        if (!is_valid_utf8(profile.sources[i])) {
            throw SpecError(fmt::format("profile.sources[{}]", i), quoted(profile.sources[i]),
                            TALLY_TEXT("tally::workspace", "UTF-8 text"));
        }
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
                             TALLY_TEXT("tally::workspace",
                                        "workspace %1: stored profile %2 does not read back (%3). "
                                        "Was the file edited by hand?")
                                 .arg(path.string())
                                 .arg(quoted(id))
                                 .arg(e.what()));
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
                TALLY_TEXT("tally::workspace",
                           "a name no other profile has (the built-in profile %1 has it)")
                    .arg(b.id));
        }
    }
    sqlite::Statement s(db, "SELECT id FROM profiles WHERE name = ?1 AND id <> ?2");
    s.bind(1, p.name).bind(2, p.id);
    if (s.step()) {
        throw SpecError(
            "profile.name", quoted(p.name),
            TALLY_TEXT("tally::workspace", "a name no other profile has (profile %1 has it)")
                .arg(s.column_text(0)));
    }
}

// Whether two profile ids differ only in letter case ("H100-SXM" and "h100-sxm"): a spec
// naming one would read as the other to a person, so a new id may not be one.
bool same_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

void insert_profile(sqlite::Database& db, const HardwareProfile& profile,
                    std::optional<std::int64_t> source_run_id) {
    const HardwareProfile p = checked_profile(profile);
    for (const HardwareProfile& builtin : builtin_hardware()) {
        if (same_ignoring_case(builtin.id, p.id)) {
            throw SpecError(
                "profile.id", quoted(p.id),
                builtin.id == p.id
                    ? TALLY_TEXT("tally::workspace", "an id no built-in profile has (built-in: %1)")
                          .arg(builtin_hardware_ids())
                    : TALLY_TEXT("tally::workspace",
                                 "an id that differs from the built-in %1 in more than letter "
                                 "case, so that a spec naming either is not read as the other")
                          .arg(quoted(builtin.id)));
        }
    }
    {
        // SQLite's lower() folds ASCII letters, as same_ignoring_case() does.
        sqlite::Statement s(db, "SELECT name, id FROM profiles WHERE lower(id) = lower(?1)");
        s.bind(1, p.id);
        if (s.step()) {
            throw SpecError("profile.id", quoted(p.id),
                            s.column_text(1) == p.id
                                ? TALLY_TEXT("tally::workspace",
                                             "an id no other profile has (%1 has it; edit that "
                                             "one, or remove it first)")
                                      .arg(quoted(s.column_text(0)))
                                : TALLY_TEXT("tally::workspace",
                                             "an id that differs from profile %1's (%2) in more "
                                             "than letter case, so that a spec naming either is "
                                             "not read as the other")
                                      .arg(quoted(s.column_text(0)))
                                      .arg(quoted(s.column_text(1))));
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
                    TALLY_TEXT("tally::workspace",
                               "the id of a profile (built-in: %1; stored ones: tally profiles "
                               "list)")
                        .arg(builtin_hardware_ids()));
}

// What is about to be done to a stored profile, for the refusal of a built-in one.
enum class ProfileChange { edit, remove };

void check_stored(sqlite::Database& db, const std::string& id, ProfileChange change) {
    sqlite::Statement s(db, "SELECT 1 FROM profiles WHERE id = ?1");
    s.bind(1, id);
    if (s.step()) {
        return;
    }
    if (find_builtin_hardware(id) != nullptr) {
        throw SpecError("profile", quoted(id),
                        change == ProfileChange::edit
                            ? TALLY_TEXT("tally::workspace",
                                         "a custom or measured profile: built-in profiles are "
                                         "read-only and cannot be edited (copy one with `tally "
                                         "profiles add --from %1`)")
                                  .arg(id)
                            : TALLY_TEXT("tally::workspace",
                                         "a custom or measured profile: built-in profiles are "
                                         "read-only and cannot be removed (copy one with `tally "
                                         "profiles add --from %1`)")
                                  .arg(id));
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
                        TALLY_TEXT("tally::workspace",
                                   "a name no other plan has (plan %1 has it; remove it first or "
                                   "pick another name)")
                            .arg(s.column_int(0)));
    }
}

[[noreturn]] void throw_no_plan(const std::string& key) {
    throw SpecError(
        "plan", quoted(key),
        TALLY_TEXT("tally::workspace", "the name or id of a saved plan (tally plans list)"));
}

// A plan a list showed that the workspace no longer holds under its id: removed, renamed, or
// removed and its id given to another plan since the list was read.
[[noreturn]] void throw_plan_changed(const StoredPlan& shown) {
    throw SpecError("plan", quoted(shown.name),
                    TALLY_TEXT("tally::workspace",
                               "a plan the workspace still holds as listed; another window or "
                               "program removed or renamed it since the list was read (id %1)")
                        .arg(std::to_string(shown.id)));
}

[[noreturn]] void throw_no_run(std::int64_t id) {
    throw SpecError(
        "probe run", std::to_string(id),
        TALLY_TEXT("tally::workspace", "the id of a stored probe run (tally probes list)"));
}

// ---- probe records ------------------------------------------------------------------------------

void check_json_object(const std::string& text, const std::string& field) {
    json parsed;
    try {
        parsed = json::parse(text);
    } catch (const json::exception&) {
        throw SpecError(field, quoted(text.substr(0, 80)),
                        TALLY_TEXT("tally::workspace", "a JSON object"));
    }
    if (!parsed.is_object()) {
        throw SpecError(field, quoted(text.substr(0, 80)),
                        TALLY_TEXT("tally::workspace", "a JSON object"));
    }
}

void check_figure(double value, const std::string& field) {
    if (!std::isfinite(value) || value < 0.0) {
        throw SpecError(field, fmt::format("{}", value),
                        TALLY_TEXT("tally::workspace", "a finite number >= 0"));
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
        throw SpecError(
            p + ".test", "\"\"",
            TALLY_TEXT("tally::workspace", "the name of the test (matmul, memory_bandwidth, ...)"));
    }
    check_json_object(r.sizes_json, p + ".sizes");
    check_figure(r.flops, p + ".flops");
    check_figure(r.bytes, p + ".bytes");
    check_figure(r.flops_per_s, p + ".flops_per_s");
    check_figure(r.bytes_per_s, p + ".bytes_per_s");
    check_figure(r.bus_bytes_per_s, p + ".bus_bytes_per_s");
    check_figure(r.median_s, p + ".median_s");
    check_figure(r.min_s, p + ".min_s");
    check_figure(r.max_s, p + ".max_s");
    check_figure(r.stdrel, p + ".stdrel");
    if (r.samples < 0) {
        throw SpecError(p + ".samples", std::to_string(r.samples),
                        TALLY_TEXT("tally::workspace", "a count >= 0"));
    }
}

std::int64_t insert_result(sqlite::Database& db, std::int64_t run_id, const ProbeResultRecord& r) {
    check_result(r);
    sqlite::Statement s(db, R"sql(
        INSERT INTO probe_results (run_id, test, dtype, sizes_json, flops, bytes, flops_per_s,
            bytes_per_s, median_s, min_s, max_s, stdrel, samples, status, validated, reason,
            variant, bus_bytes_per_s)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
            ?18))sql");
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
        .bind(16, r.reason)
        .bind(17, r.variant)
        .bind(18, r.bus_bytes_per_s);
    s.run();
    return db.last_insert_rowid();
}

constexpr std::string_view kRunColumns =
    "id, backend, host, device_json, started_at, finished_at, status, content_digest";
constexpr std::string_view kResultColumns =
    "run_id, id, test, dtype, sizes_json, flops, bytes, flops_per_s, bytes_per_s, median_s, min_s, "
    "max_s, stdrel, samples, status, validated, reason, variant, bus_bytes_per_s";

ProbeRunRecord run_from_row(const sqlite::Statement& s) {
    ProbeRunRecord run;
    run.id = s.column_int(0);
    run.backend = s.column_text(1);
    run.host = s.column_text(2);
    run.device_json = s.column_text(3);
    run.started_at = s.column_text(4);
    run.finished_at = s.column_text(5);
    run.status = parse_probe_run_status(s.column_text(6)).value_or(ProbeRunStatus::failed);
    run.content_digest = s.column_text(7);
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
    r.variant = s.column_text(17);
    r.bus_bytes_per_s = s.column_optional_double(18);
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

// ---- recorder locks -----------------------------------------------------------------------------

Workspace::RecorderLock::RecorderLock(RecorderLock&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_path(std::move(other.m_path)) {}

Workspace::RecorderLock& Workspace::RecorderLock::operator=(RecorderLock&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        m_fd = std::exchange(other.m_fd, -1);
        m_path = std::move(other.m_path);
    }
    return *this;
}

Workspace::RecorderLock::~RecorderLock() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

void Workspace::RecorderLock::remove_file() {
    if (m_fd < 0) {
        return;
    }
    // Removed while still locked: a process that opens the file meanwhile either finds the lock
    // held or the row finished, never a running row with a free lock.
    std::error_code ec;
    fs::remove(m_path, ec);
    ::close(m_fd);
    m_fd = -1;
}

fs::path Workspace::recorder_lock_path(std::int64_t id) const {
    return fs::path(m_lock_base.string() + "-probe-run-" + std::to_string(id) + ".lock");
}

Workspace::RecorderLock Workspace::take_recorder_lock(std::int64_t id,
                                                      const WorkspaceDoing& doing) {
    const fs::path lock_path = recorder_lock_path(id);
    // O_CLOEXEC: a child (tally-probe) must not inherit the descriptor and keep the lock alive
    // after this process has gone.
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    const auto fail = [&](int e) {
        const WorkspaceProblem problem = problem_of_errno(e);
        // %1%2: what was being done and on what (as in translate()); %4 the lock file.
        return WorkspaceError(
            problem, m_path,
            TALLY_TEXT("tally::workspace",
                       "%1%2: workspace %3: cannot lock %4, the file that tells other Tally "
                       "processes the run is being recorded (%5). Nothing was saved.")
                .arg_translated("tally::workspace", doing.phrase)
                .arg(doing.subject.empty() ? std::string() : " " + doing.subject)
                .arg(m_path.string())
                .arg(lock_path.string())
                .arg(std::strerror(e)));
    };
    if (fd < 0) {
        throw fail(errno);
    }
    RecorderLock lock(fd, lock_path);
    // Another process may hold it for an instant to look whether the recorder is alive
    // (probe_run_recorder_alive()): wait that out, up to 2 s.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int e = errno;
        if ((e != EWOULDBLOCK && e != EINTR) || std::chrono::steady_clock::now() > deadline) {
            throw fail(e);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return lock;
}

bool Workspace::probe_run_recorder_alive(std::int64_t id) {
    if (m_recording.contains(id)) {
        return true;
    }
    const fs::path lock_path = recorder_lock_path(id);
    const int fd = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        // No lock file: the recorder finished (and removed it) or never made one (a build before
        // recorder locks, whose process is gone by now). Any other failure: cannot tell, so the
        // run is left as it is.
        return errno != ENOENT;
    }
    // A shared lock is granted only when no recorder holds its exclusive one; the kernel released
    // that when the recorder's process ended, however it ended. A failure other than "held"
    // (a filesystem without locks) cannot tell either.
    const bool free = ::flock(fd, LOCK_SH | LOCK_NB) == 0;
    ::close(fd);
    return !free;
}

void Workspace::show_interrupted(std::vector<ProbeRunRecord>& runs) {
    for (ProbeRunRecord& run : runs) {
        if (run.status == ProbeRunStatus::running && !probe_run_recorder_alive(run.id)) {
            run.status = ProbeRunStatus::failed;
        }
    }
}

std::vector<std::int64_t> Workspace::settle_interrupted_probe_runs() {
    if (m_read_only || m_detached) {
        return {};
    }
    const WorkspaceDoing doing{
        QT_TRANSLATE_NOOP("tally::workspace", "finishing interrupted probe runs")};
    try {
        // Most workspaces have no running run: one cheap read, and no write lock taken.
        std::vector<std::int64_t> gone = read(doing, [&] {
            sqlite::Statement s(m_db, "SELECT id FROM probe_runs WHERE status = 'running'");
            return sqlite::all_rows(s,
                                    [](const sqlite::Statement& row) { return row.column_int(0); });
        });
        std::erase_if(gone, [&](std::int64_t id) { return probe_run_recorder_alive(id); });
        if (gone.empty()) {
            return {};
        }
        return write(doing, [&] {
            // Again under the write lock: the recorder may have finished the run meanwhile, and
            // no recorder can start (and lock) a run while this transaction holds the lock.
            std::vector<std::int64_t> settled;
            for (std::int64_t id : gone) {
                if (probe_run_recorder_alive(id)) {
                    continue;
                }
                sqlite::Statement s(m_db,
                                    "UPDATE probe_runs SET status = 'failed' WHERE id = ?1 AND "
                                    "status = 'running'");
                s.bind(1, id);
                s.run();
                if (m_db.changes() == 0) {
                    continue;
                }
                std::error_code ec;
                fs::remove(recorder_lock_path(id), ec);
                settled.push_back(id);
            }
            return settled;
        });
    } catch (const WorkspaceError&) {
        // Busy or refused: the runs are shown as failed (show_interrupted()) and stored so by the
        // next process that can.
        return {};
    }
}

// ---- profiles -----------------------------------------------------------------------------------

std::vector<HardwareProfile> Workspace::list_profiles() {
    return profiles_with_stored(stored_profiles());
}

std::vector<HardwareProfile> Workspace::stored_profiles() {
    return read({QT_TRANSLATE_NOOP("tally::workspace", "listing profiles")}, [&] {
        sqlite::Statement s(
            m_db, "SELECT " + std::string(kProfileColumns) + " FROM profiles ORDER BY name, id");
        return sqlite::all_rows(
            s, [&](const sqlite::Statement& row) { return profile_from_row(row, m_path); });
    });
}

std::optional<HardwareProfile> Workspace::find_profile(const std::string& id) {
    return read({QT_TRANSLATE_NOOP("tally::workspace", "reading profile"), id},
                [&] { return load_profile(m_db, id, m_path); });
}

void Workspace::add_profile(const HardwareProfile& profile) {
    write({QT_TRANSLATE_NOOP("tally::workspace", "saving profile"), profile.id},
          [&] { insert_profile(m_db, profile, std::nullopt); });
}

namespace {

// Rewrites the stored row of `profile`'s id with it (checked, its name free).
void rewrite_profile(sqlite::Database& db, const HardwareProfile& profile) {
    const HardwareProfile p = checked_profile(profile);
    check_profile_name_free(db, p);
    sqlite::Statement s(db,
                        "UPDATE profiles SET name = ?2, kind = ?3, profile_json = ?4, "
                        "updated_at = " +
                            std::string(kNow) + " WHERE id = ?1");
    s.bind(1, p.id).bind(2, p.name).bind(3, to_string(p.kind)).bind(4, to_json(p).dump());
    s.run();
}

}  // namespace

void Workspace::update_profile(const HardwareProfile& profile) {
    write({QT_TRANSLATE_NOOP("tally::workspace", "saving profile"), profile.id}, [&] {
        check_stored(m_db, profile.id, ProfileChange::edit);
        rewrite_profile(m_db, profile);
    });
}

void Workspace::update_profile(const HardwareProfile& profile, const HardwareProfile& expected) {
    write({QT_TRANSLATE_NOOP("tally::workspace", "saving profile"), profile.id}, [&] {
        check_stored(m_db, profile.id, ProfileChange::edit);
        // Compared as stored: both written the way rewrite_profile() writes a profile.
        const std::optional<HardwareProfile> stored = load_stored_profile(m_db, profile.id, m_path);
        if (!stored || to_json(*stored).dump() != to_json(expected).dump()) {
            throw SpecError("profile", quoted(profile.id),
                            TALLY_TEXT("tally::workspace",
                                       "the profile as the editor read it; another window or "
                                       "program changed it since (open the editor again to "
                                       "edit what is stored now)"));
        }
        rewrite_profile(m_db, profile);
    });
}

bool Workspace::save_calibrated_profile(const HardwareProfile& profile) {
    if (!profile.calibration) {
        throw SpecError("profile.calibration", kValueNothing,
                        TALLY_TEXT("tally::workspace", "a calibrated profile"));
    }
    return write({QT_TRANSLATE_NOOP("tally::workspace", "saving calibrated profile"), profile.id},
                 [&] {
                     const std::optional<HardwareProfile> stored =
                         load_stored_profile(m_db, profile.id, m_path);
                     if (!stored) {
                         insert_profile(m_db, profile, std::nullopt);
                         return false;
                     }
                     const std::string& base = profile.calibration->base_profile;
                     const bool same_part =
                         stored->id == base ||
                         (stored->calibration && stored->calibration->base_profile == base);
                     if (!same_part) {
                         throw SpecError(
                             "profile.id", quoted(profile.id),
                             TALLY_TEXT("tally::workspace",
                                        "a new id, or the id of this part's own profile (%1 or one "
                                        "calibrated from it): %2 is another profile")
                                 .arg(quoted(base))
                                 .arg(quoted(stored->name)));
                     }
                     // The fit rests on the part's figures, which the new profile carries; what
                     // the user wrote about the stored one (its notes, price and board power)
                     // is kept, read here in the same transaction, so that an edit made since
                     // the caller read the profile is not undone.
                     HardwareProfile merged = profile;
                     merged.notes = stored->notes;
                     merged.price_per_gpu_hour = stored->price_per_gpu_hour;
                     merged.tdp_w = stored->tdp_w;
                     rewrite_profile(m_db, merged);
                     return true;
                 });
}

void Workspace::remove_profile(const std::string& id) {
    write({QT_TRANSLATE_NOOP("tally::workspace", "removing profile"), id}, [&] {
        check_stored(m_db, id, ProfileChange::remove);
        sqlite::Statement s(m_db, "DELETE FROM profiles WHERE id = ?1");
        s.bind(1, id);
        s.run();
    });
}

bool Workspace::changed_elsewhere() {
    if (m_detached) {
        return false;
    }
    try {
        sqlite::Statement s(m_db, "PRAGMA data_version");
        if (!s.step()) {
            return false;
        }
        const std::int64_t version = s.column_int(0);
        const bool changed = m_data_version && *m_data_version != version;
        m_data_version = version;
        return changed;
    } catch (const std::exception&) {
        return false;  // busy or unreadable now: asked again later
    }
}

std::optional<std::int64_t> Workspace::profile_source_run(const std::string& id) {
    return read({QT_TRANSLATE_NOOP("tally::workspace", "reading profile"), id}, [&] {
        sqlite::Statement s(m_db, "SELECT source_run_id FROM profiles WHERE id = ?1");
        s.bind(1, id);
        return sqlite::first_row(
                   s, [](const sqlite::Statement& row) { return row.column_optional_int(0); })
            .value_or(std::nullopt);
    });
}

HardwareProfile Workspace::add_measured_profile(std::int64_t run_id, const std::string& base_id,
                                                const std::string& id, const std::string& name) {
    settle_interrupted_probe_runs();
    return write({QT_TRANSLATE_NOOP("tally::workspace", "saving measured profile"), id}, [&] {
        const std::optional<ProbeRunRecord> run = load_run(m_db, run_id);
        if (!run) {
            throw_no_run(run_id);
        }
        // Settled above: a run still running has a live recorder, and more results to come.
        if (run->status == ProbeRunStatus::running && probe_run_recorder_alive(run_id)) {
            throw SpecError("probe run", std::to_string(run_id),
                            TALLY_TEXT("tally::workspace",
                                       "a run that has ended: run %1 is being recorded now "
                                       "(status running, %2 results so far); make the profile "
                                       "once it has ended")
                                .arg(std::to_string(run_id))
                                .arg(std::to_string(run->results.size())));
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

// ---- plans --------------------------------------------------------------------------------------

std::vector<StoredPlan> Workspace::list_plans() {
    return read({QT_TRANSLATE_NOOP("tally::workspace", "listing plans")}, [&] {
        sqlite::Statement s(
            m_db, "SELECT " + std::string(kPlanColumns) + " FROM plans ORDER BY name, id");
        return sqlite::all_rows(s, plan_from_row);
    });
}

std::optional<StoredPlan> Workspace::find_plan(std::int64_t id) {
    return read({QT_TRANSLATE_NOOP("tally::workspace", "reading plan"), std::to_string(id)}, [&] {
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
    return read({QT_TRANSLATE_NOOP("tally::workspace", "reading plan"), key}, [&] {
        sqlite::Statement s(m_db,
                            "SELECT " + std::string(kPlanColumns) + " FROM plans WHERE name = ?1");
        s.bind(1, key);
        return sqlite::first_row(s, plan_from_row);
    });
}

std::int64_t Workspace::save_plan(const std::string& name, const PlanSpec& spec) {
    validate_plan_name(name);
    const std::string text = canonical_spec_json(spec);
    return write({QT_TRANSLATE_NOOP("tally::workspace", "saving plan"), name}, [&] {
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
    write({QT_TRANSLATE_NOOP("tally::workspace", "saving plan"), std::to_string(id)}, [&] {
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
    write({QT_TRANSLATE_NOOP("tally::workspace", "renaming plan"), std::to_string(id)}, [&] {
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
    write({QT_TRANSLATE_NOOP("tally::workspace", "removing plan"), std::to_string(id)}, [&] {
        sqlite::Statement s(m_db, "DELETE FROM plans WHERE id = ?1");
        s.bind(1, id);
        s.run();
        if (m_db.changes() == 0) {
            throw_no_plan(std::to_string(id));
        }
    });
}

std::vector<std::string> Workspace::plans_on_profile(const std::string& id) {
    std::vector<std::string> names;
    for (const StoredPlan& p : list_plans()) {
        // Read as JSON, not as a plan: a stored spec that no longer reads still names its GPU.
        const nlohmann::json spec = nlohmann::json::parse(p.spec_json, nullptr, false);
        if (spec.is_object() && spec.contains("cluster") && spec["cluster"].is_object() &&
            spec["cluster"].value("gpu", std::string()) == id) {
            names.push_back(p.name);
        }
    }
    return names;
}

// The condition that the row is still the plan a list showed (Workspace::update_plan(const
// StoredPlan&, ...)): its name and creation time, with the id bound as ?1.
constexpr std::string_view kShownPlan = " WHERE id = ?1 AND name = ?8 AND created_at = ?9";

void Workspace::update_plan(const StoredPlan& shown, const PlanSpec& spec) {
    const std::string text = canonical_spec_json(spec);
    write({QT_TRANSLATE_NOOP("tally::workspace", "saving plan"), shown.name}, [&] {
        // Replacing a plan writes over what the list showed, and only that: a plan another
        // window or `tally plans save --replace` stored under the same id and name since is
        // theirs (updated_at has whole seconds, so the contents themselves are compared).
        sqlite::Statement s(m_db,
                            "UPDATE plans SET spec_json = ?2, updated_at = " + std::string(kNow) +
                                std::string(kShownPlan) + " AND spec_json = ?10");
        s.bind(1, shown.id)
            .bind(2, text)
            .bind(8, shown.name)
            .bind(9, shown.created_at)
            .bind(10, shown.spec_json);
        s.run();
        if (m_db.changes() == 0) {
            sqlite::Statement still(m_db, "SELECT 1 FROM plans" + std::string(kShownPlan));
            still.bind(1, shown.id).bind(8, shown.name).bind(9, shown.created_at);
            if (still.step()) {
                throw SpecError("plan", quoted(shown.name),
                                TALLY_TEXT("tally::workspace",
                                           "the plan as listed; another window or program "
                                           "replaced it since the list was read (id %1): read "
                                           "the list again to see it before replacing it")
                                    .arg(std::to_string(shown.id)));
            }
            throw_plan_changed(shown);
        }
    });
}

void Workspace::rename_plan(const StoredPlan& shown, const std::string& name) {
    validate_plan_name(name);
    write({QT_TRANSLATE_NOOP("tally::workspace", "renaming plan"), shown.name}, [&] {
        check_plan_name_free(m_db, name, shown.id);
        sqlite::Statement s(m_db, "UPDATE plans SET name = ?2, updated_at = " + std::string(kNow) +
                                      std::string(kShownPlan));
        s.bind(1, shown.id).bind(2, name).bind(8, shown.name).bind(9, shown.created_at);
        s.run();
        if (m_db.changes() == 0) {
            throw_plan_changed(shown);
        }
    });
}

void Workspace::remove_plan(const StoredPlan& shown) {
    write({QT_TRANSLATE_NOOP("tally::workspace", "removing plan"), shown.name}, [&] {
        sqlite::Statement s(m_db, "DELETE FROM plans" + std::string(kShownPlan));
        s.bind(1, shown.id).bind(8, shown.name).bind(9, shown.created_at);
        s.run();
        if (m_db.changes() == 0) {
            throw_plan_changed(shown);
        }
    });
}

namespace {

void check_run(const ProbeRunRecord& run) {
    if (run.started_at.empty()) {
        throw SpecError("run.started_at", "\"\"",
                        TALLY_TEXT("tally::workspace", "the time the run started (ISO 8601)"));
    }
    check_json_object(run.device_json, "run.device");
    for (const ProbeResultRecord& r : run.results) {
        check_result(r);
    }
}

std::int64_t insert_run(sqlite::Database& db, const ProbeRunRecord& run) {
    sqlite::Statement s(db,
                        "INSERT INTO probe_runs (backend, host, device_json, started_at, "
                        "finished_at, status, content_digest) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    s.bind(1, run.backend).bind(2, run.host).bind(3, run.device_json).bind(4, run.started_at);
    if (run.finished_at.empty()) {
        s.bind_null(5);
    } else {
        s.bind(5, run.finished_at);
    }
    s.bind(6, to_string(run.status));
    if (run.content_digest.empty()) {
        s.bind_null(7);
    } else {
        s.bind(7, run.content_digest);
    }
    s.run();
    const std::int64_t id = db.last_insert_rowid();
    for (const ProbeResultRecord& r : run.results) {
        insert_result(db, id, r);
    }
    return id;
}

// True when `run` holds the whole of `stored` and more: `stored` did not end ok, and its results
// are the first results of `run`, field for field (a file cut short, or a run whose recorder
// died, beside a complete copy of the same output).
bool completes(const ProbeRunRecord& stored, const ProbeRunRecord& run) {
    if (stored.status == ProbeRunStatus::ok || run.results.size() <= stored.results.size()) {
        return false;
    }
    for (std::size_t i = 0; i < stored.results.size(); ++i) {
        ProbeResultRecord kept = stored.results[i];
        kept.id = run.results[i].id;
        if (!(kept == run.results[i])) {
            return false;
        }
    }
    return true;
}

std::optional<std::int64_t> same_run(sqlite::Database& db, const ProbeRunRecord& run) {
    if (!run.content_digest.empty()) {
        sqlite::Statement s(db, "SELECT id FROM probe_runs WHERE content_digest = ?1 LIMIT 1");
        s.bind(1, run.content_digest);
        if (s.step()) {
            return s.column_int(0);
        }
    }
    // A run of tally-probe is known by where and when it started: its start event names the
    // host and the second it started, and a run takes far longer than a second. An imported
    // nccl-tests log has no start time of its own: besides its digest, only a stored log of the
    // same hosts and GPUs that was cut short and whose rows this one starts with is the same run.
    if (run.backend == probe::kNcclTestsBackend) {
        sqlite::Statement cut(db,
                              "SELECT id FROM probe_runs WHERE backend = ?1 AND host = ?2 AND "
                              "device_json = ?3 AND status <> ?4 ORDER BY id");
        cut.bind(1, run.backend)
            .bind(2, run.host)
            .bind(3, run.device_json)
            .bind(4, std::string(to_string(ProbeRunStatus::ok)));
        std::vector<std::int64_t> ids;
        while (cut.step()) {
            ids.push_back(cut.column_int(0));
        }
        for (std::int64_t id : ids) {
            const std::optional<ProbeRunRecord> stored = load_run(db, id);
            if (stored && completes(*stored, run)) {
                return id;
            }
        }
        return std::nullopt;
    }
    sqlite::Statement s(db,
                        "SELECT id FROM probe_runs WHERE backend = ?1 AND host = ?2 AND "
                        "started_at = ?3 AND device_json = ?4 ORDER BY id LIMIT 1");
    s.bind(1, run.backend).bind(2, run.host).bind(3, run.started_at).bind(4, run.device_json);
    if (s.step()) {
        return s.column_int(0);
    }
    return std::nullopt;
}

}  // namespace

std::int64_t Workspace::add_probe_run(const ProbeRunRecord& run) {
    check_run(run);
    const WorkspaceDoing doing{QT_TRANSLATE_NOOP("tally::workspace", "saving probe run")};
    std::optional<RecorderLock> lock;
    try {
        const std::int64_t id = write(doing, [&] {
            const std::int64_t new_id = insert_run(m_db, run);
            if (run.status == ProbeRunStatus::running) {
                // Locked before the row commits: no other process sees the run running without
                // its recorder's lock.
                lock.emplace(take_recorder_lock(new_id, doing));
            }
            return new_id;
        });
        if (lock) {
            m_recording.insert_or_assign(id, std::move(*lock));
        }
        return id;
    } catch (...) {
        if (lock) {
            lock->remove_file();  // the row was not stored
        }
        throw;
    }
}

std::optional<std::int64_t> Workspace::find_same_probe_run(const ProbeRunRecord& run) {
    return read({QT_TRANSLATE_NOOP("tally::workspace", "looking for the same probe run")},
                [&] { return same_run(m_db, run); });
}

ImportedProbeRun Workspace::import_probe_run(const ProbeRunRecord& run) {
    check_run(run);
    return write({QT_TRANSLATE_NOOP("tally::workspace", "importing probe run")}, [&] {
        // Inside the write transaction: two imports of one file cannot both pass the check, and
        // no recorder can add a result to the stored copy while it is completed.
        const std::optional<std::int64_t> stored = same_run(m_db, run);
        if (!stored) {
            return ImportedProbeRun{insert_run(m_db, run), std::nullopt, 0};
        }
        const std::optional<ProbeRunRecord> other = load_run(m_db, *stored);
        const std::string what =
            fmt::format("probe run {} ({}{}, started {}, {}, {} results)", *stored,
                        other ? other->backend : run.backend,
                        other && !other->host.empty() ? " on " + other->host : std::string(),
                        other ? other->started_at : run.started_at,
                        other ? to_string(other->status) : std::string_view("?"),
                        other ? other->results.size() : std::size_t{0});
        if (other && probe_run_recorder_alive(*stored)) {
            throw DuplicateProbeRun(
                *stored, fmt::format("this run is being recorded now as {}; nothing was imported: "
                                     "import the file again once that run has ended",
                                     what));
        }
        if (!other || !completes(*other, run)) {
            throw DuplicateProbeRun(
                *stored,
                fmt::format("this run is stored already as {}{}; nothing was imported (tally "
                            "probes show {})",
                            what,
                            other && other->status != ProbeRunStatus::ok
                                ? fmt::format(", and this file does not hold more of it (its "
                                              "{} results do not start with the stored ones)",
                                              run.results.size())
                                : std::string(),
                            *stored));
        }
        // The stored copy is the start of this one: it takes the file's ending and the results
        // it lacked; its id and the ids of its results stay, so measured profiles and result ids
        // printed before still name the same rows.
        sqlite::Statement s(m_db,
                            "UPDATE probe_runs SET status = ?2, finished_at = ?3, "
                            "content_digest = ?4 WHERE id = ?1");
        s.bind(1, *stored).bind(2, to_string(run.status));
        if (run.finished_at.empty()) {
            s.bind_null(3);
        } else {
            s.bind(3, run.finished_at);
        }
        if (run.content_digest.empty()) {
            s.bind_null(4);
        } else {
            s.bind(4, run.content_digest);
        }
        s.run();
        for (std::size_t i = other->results.size(); i < run.results.size(); ++i) {
            insert_result(m_db, *stored, run.results[i]);
        }
        std::error_code ec;
        fs::remove(recorder_lock_path(*stored), ec);  // a dead recorder's, if it left one
        return ImportedProbeRun{*stored, other->status, other->results.size()};
    });
}

std::int64_t Workspace::add_probe_result(std::int64_t run_id, const ProbeResultRecord& result) {
    check_result(result);
    return write({QT_TRANSLATE_NOOP("tally::workspace", "saving probe result")}, [&] {
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
    write({QT_TRANSLATE_NOOP("tally::workspace", "saving probe run"), std::to_string(run_id)}, [&] {
        sqlite::Statement s(m_db,
                            "UPDATE probe_runs SET status = ?2, finished_at = ?3 WHERE id = ?1");
        s.bind(1, run_id).bind(2, to_string(status)).bind(3, finished_at);
        s.run();
        if (m_db.changes() == 0) {
            throw_no_run(run_id);
        }
    });
    // After the commit: the row says the run ended before the lock says its recorder has gone.
    if (auto it = m_recording.find(run_id); it != m_recording.end()) {
        it->second.remove_file();
        m_recording.erase(it);
    }
}

std::vector<ProbeRunRecord> Workspace::list_probe_runs() {
    settle_interrupted_probe_runs();
    std::vector<ProbeRunRecord> listed =
        read({QT_TRANSLATE_NOOP("tally::workspace", "listing probe runs")}, [&] {
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
    show_interrupted(listed);
    return listed;
}

std::optional<ProbeRunRecord> Workspace::find_probe_run(std::int64_t id) {
    settle_interrupted_probe_runs();
    std::optional<ProbeRunRecord> run =
        read({QT_TRANSLATE_NOOP("tally::workspace", "reading probe run"), std::to_string(id)},
             [&] { return load_run(m_db, id); });
    if (run) {
        std::vector<ProbeRunRecord> one{std::move(*run)};
        show_interrupted(one);
        run = std::move(one.front());
    }
    return run;
}

void Workspace::remove_probe_run(std::int64_t id) {
    write({QT_TRANSLATE_NOOP("tally::workspace", "removing probe run"), std::to_string(id)}, [&] {
        const std::optional<ProbeRunRecord> run = load_run(m_db, id);
        if (!run) {
            throw_no_run(id);
        }
        if (run->status == ProbeRunStatus::running && probe_run_recorder_alive(id)) {
            throw SpecError("probe run", std::to_string(id),
                            TALLY_TEXT("tally::workspace",
                                       "a run that is not being recorded: run %1 is being "
                                       "recorded now (status running); cancel it or let it end, "
                                       "then remove it")
                                .arg(std::to_string(id)));
        }
        // A measured profile carries its own figures, but its link to the run is what says where
        // they came from: the run stays while a profile names it.
        sqlite::Statement p(m_db,
                            "SELECT id, name FROM profiles WHERE source_run_id = ?1 ORDER BY id");
        p.bind(1, id);
        std::string profiles;
        std::string first_id;
        while (p.step()) {
            if (first_id.empty()) {
                first_id = p.column_text(0);
            }
            profiles += (profiles.empty() ? "" : ", ") + p.column_text(0) + " (" +
                        quoted(p.column_text(1)) + ")";
        }
        if (!profiles.empty()) {
            throw SpecError("probe run", std::to_string(id),
                            TALLY_TEXT("tally::workspace",
                                       "a run no measured profile was made from: run %2 made "
                                       "%1; remove those first (in the Profiles panel, or tally "
                                       "profiles rm %3), then the run")
                                .arg(profiles)
                                .arg(std::to_string(id))
                                .arg(first_id));
        }
        sqlite::Statement s(m_db, "DELETE FROM probe_runs WHERE id = ?1");
        s.bind(1, id);
        s.run();
        std::error_code ec;
        fs::remove(recorder_lock_path(id), ec);  // a dead recorder's, if it left one
    });
}

}  // namespace tally
