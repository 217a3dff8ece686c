#pragma once

// The workspace: one SQLite file holding the user's hardware profiles (custom and measured; the
// built-in ones come from the catalog and are never stored), saved plans, and probe runs with
// their results: schema versions, WAL, foreign keys, a transaction per write. The records are the
// domain's (probe_records.h, user_profiles.h); this library only stores them.
//
// Safety: a file is inspected read-only before anything is written to it; one that is not
// SQLite, is damaged, is not a Tally workspace or carries a newer schema is refused with a
// WorkspaceError and left byte-for-byte as it was. Every write is one BEGIN IMMEDIATE
// transaction, so a failure (busy, full disk, read-only folder, a killed process) leaves either
// the whole change or none of it.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/spec.h"
#include "planner/core/text.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/probe_records.h"
#include "planner/hardware/user_profiles.h"
#include "planner/store/data_paths.h"
#include "planner/store/sqlite_db.h"

namespace tally {

// Schema versions (PRAGMA user_version):
//   1  profiles, plans, probe_runs, probe_results
//   2  probe_results gains stdrel and validated (the probe started checking its results)
//   3  profiles gains source_run_id: a measured profile points at the run it came from
//   4  probe_results gains variant; test holds the probe's test name alone
//   5  probe_results gains bus_bytes_per_s; probe_runs gains content_digest (imported files)
inline constexpr int kWorkspaceSchemaVersion = 5;
// PRAGMA application_id of a Tally workspace ("Taly" in ASCII), set from version 1 on.
inline constexpr std::int32_t kWorkspaceApplicationId = 0x5461'6C79;

enum class WorkspaceProblem {
    not_sqlite,     // the file is not an SQLite database
    corrupt,        // an SQLite database that fails its integrity check
    not_workspace,  // an SQLite database of some other program
    newer_schema,   // written by a newer Tally than this one
    read_only,      // the file or its folder cannot be written (or read)
    disk_full,      // no space left (or a file size limit reached)
    busy,           // another process held the write lock longer than the busy timeout
    conflict,       // a name or id another row has (a concurrent writer won the race)
    detached,       // the file or its write-ahead log was removed or replaced under the connection
    io,             // any other failure of the file or of SQLite
};
std::string_view to_string(WorkspaceProblem problem);

// A failure of the workspace file itself (as opposed to bad input, which is a SpecError). The
// message names the file and the problem, and says whether anything was saved. It is a
// translatable text (core/text.h, context "tally::workspace"): what() is its English, and the UI
// and the CLI show its translation. Paths, ids, names and SQLite's or the system's own message
// are its arguments.
class WorkspaceError : public std::runtime_error {
public:
    WorkspaceError(WorkspaceProblem problem, std::filesystem::path path, Text message);

    WorkspaceProblem problem() const noexcept { return m_problem; }
    const std::filesystem::path& path() const noexcept { return m_path; }
    const Text& text() const noexcept { return m_text; }

private:
    WorkspaceProblem m_problem;
    std::filesystem::path m_path;
    Text m_text;
};

// What a read or a write of the workspace was doing, for the message of its failure ("saving
// plan NAME: workspace FILE is busy ..."): a phrase marked with
// QT_TRANSLATE_NOOP("tally::workspace", ...), and what it acted on (a name or an id), empty when
// it acted on no one thing.
struct WorkspaceDoing {
    const char* phrase;
    std::string subject{};
};

// An imported run that the workspace holds already: names the stored run.
class DuplicateProbeRun : public std::runtime_error {
public:
    DuplicateProbeRun(std::int64_t stored_id, const std::string& message)
        : std::runtime_error(message), m_stored_id(stored_id) {}
    std::int64_t stored_id() const noexcept { return m_stored_id; }

private:
    std::int64_t m_stored_id;
};

// What import_probe_run() did: stored the run as a new one, or completed a stored copy of it.
struct ImportedProbeRun {
    std::int64_t id = 0;
    // The stored copy was replaced (same run, fewer results, not ok); its status and result count
    // before. Absent when the run was new.
    std::optional<ProbeRunStatus> replaced_status;
    std::size_t replaced_result_count = 0;
};

// ---- plans --------------------------------------------------------------------------------------

struct StoredPlan {
    std::int64_t id = 0;
    std::string name;
    std::string
        spec_json;  // canonical spec JSON (to_json(PlanSpec)); plan_spec_from_text parses it
    std::string created_at;  // UTC, ISO 8601 ("2025-01-31T12:00:00Z")
    std::string updated_at;
};

// ---- the workspace ------------------------------------------------------------------------------

struct WorkspaceOptions {
    // How long a write waits for another process's write to finish before failing as busy.
    int busy_timeout_ms = 5000;
};

class Workspace {
public:
    // Opens (creating when missing, with its folder) and migrates the workspace at `path`.
    // Throws WorkspaceError; the file is untouched unless it verified as a Tally workspace of
    // this build's schema version or older. A workspace of this build's version that this
    // process cannot write (the file or its folder is read-only) opens read-only: everything
    // reads, every write throws WorkspaceError (read_only) and changes nothing.
    static Workspace open(const std::filesystem::path& path, const WorkspaceOptions& options = {});

    Workspace(Workspace&&) noexcept = default;
    Workspace& operator=(Workspace&&) noexcept = default;

    const std::filesystem::path& path() const noexcept { return m_path; }
    // The schema version the file had when opened (0: it was created now).
    int opened_schema_version() const noexcept { return m_opened_version; }

    // True once an operation found that the workspace file, its write-ahead log (-wal) or its
    // shared-memory index (-shm) is no longer the file this connection has open: another program
    // removed or replaced it. Every later operation is refused with WorkspaceProblem::detached
    // (nothing is read from or written to the stale files) and closing the connection copies
    // nothing back into the file; open the workspace again to go on.
    bool detached() const noexcept { return m_detached; }
    // True when the file or its folder could not be written when it was opened: reads work,
    // writes are refused (see open()).
    bool read_only() const noexcept { return m_read_only; }
    // True when another connection (`tally` in a terminal, another window) has committed a
    // change to the file since the last call (SQLite's PRAGMA data_version, which this
    // connection's own commits leave alone); false the first time, and when it cannot be read.
    bool changed_elsewhere();

    // Profiles: the built-in ones (catalog order) followed by the stored ones (by name); a stored
    // profile with an id a later catalog also uses replaces the built-in, here and in
    // find_profile() (profiles_with_stored(), user_profiles.h).
    std::vector<HardwareProfile> list_profiles();
    std::vector<HardwareProfile> stored_profiles();
    std::optional<HardwareProfile> find_profile(const std::string& id);
    // Adds a custom or measured profile. Throws SpecError when it is invalid (hardware_from_json's
    // rules), its kind is builtin, or its id or name is taken.
    void add_profile(const HardwareProfile& profile);
    // Replaces the stored profile with the same id. Built-in profiles are read-only.
    void update_profile(const HardwareProfile& profile);
    // The same, only while the stored profile is still `expected` (what an editor started from):
    // another window or `tally profiles edit` may have changed it since. Otherwise throws
    // SpecError naming "profile" and changes nothing.
    void update_profile(const HardwareProfile& profile, const HardwareProfile& expected);
    void remove_profile(const std::string& id);
    // Stores a calibrated profile (calibrated_profile(), planner/training/calibration_fit.h) in
    // one transaction: added when its id is new; replacing the stored profile of that id when
    // that one is the profile the calibration was fitted on or an earlier calibration of the
    // same part (its calibration's base_profile), whose notes, price and board power it keeps
    // as stored at that moment. Returns true when it replaced one. Throws
    // SpecError naming "profile.id" when the id is a built-in's or another stored profile's,
    // and as add_profile() does for an invalid profile or a taken name.
    bool save_calibrated_profile(const HardwareProfile& profile);
    // The probe run a measured profile came from, if it still exists.
    std::optional<std::int64_t> profile_source_run(const std::string& id);
    // Makes a measured profile from run `run_id` (see measured_profile()) on top of the profile
    // `base_id` (empty: none) and stores it, linked to the run.
    HardwareProfile add_measured_profile(std::int64_t run_id, const std::string& base_id,
                                         const std::string& id, const std::string& name);

    // Plans, by name. Names are unique, non-empty and not all digits (ids are numbers).
    std::vector<StoredPlan> list_plans();
    std::optional<StoredPlan> find_plan(std::int64_t id);
    // A plan by name, or by id when `key` is all digits.
    std::optional<StoredPlan> find_plan(const std::string& key);
    std::int64_t save_plan(const std::string& name, const PlanSpec& spec);
    void update_plan(std::int64_t id, const PlanSpec& spec);
    void rename_plan(std::int64_t id, const std::string& name);
    void remove_plan(std::int64_t id);
    // The same on a plan as a list showed it (its id, name and creation time): SQLite gives a new
    // plan the largest id + 1, so once the newest plan is deleted its id goes to the next one
    // saved, and a row read before another window or `tally plans` changed the workspace may
    // name another plan by now. These act only while the id still holds the plan shown, and
    // otherwise refuse, naming it ("plan" field), and change nothing.
    void update_plan(const StoredPlan& shown, const PlanSpec& spec);
    // The names of the saved plans whose GPU is profile `id` (cluster.gpu), by name: they no
    // longer plan once it is removed.
    std::vector<std::string> plans_on_profile(const std::string& id);
    void rename_plan(const StoredPlan& shown, const std::string& name);
    void remove_plan(const StoredPlan& shown);

    // Probe runs, newest first, each with its results in the order they were added.
    //
    // A run added with status running is being recorded through this object: in the same
    // transaction that stores its row, this object takes its recorder lock, an exclusive flock()
    // on the file "WORKSPACE-probe-run-ID.lock" beside the workspace, and holds it until
    // finish_probe_run() or until this object is destroyed or its process ends (the kernel
    // drops the lock of a process that was killed). A running run whose lock nobody holds
    // therefore has no recorder any more: list_probe_runs(), find_probe_run() and open() store it
    // as failed (finished_at stays empty: nobody saw it end), so a recorder killed with SIGKILL
    // does not leave a run "running" forever. A lock rather than a process id: it cannot be
    // fooled by a reused pid or a process of another host, and needs no change to the schema.
    std::int64_t add_probe_run(const ProbeRunRecord& run);  // with its results, in one transaction
    std::int64_t add_probe_result(std::int64_t run_id, const ProbeResultRecord& result);
    // The stored run `run` repeats: one with the same content_digest (the same file imported
    // before), or, for a run of tally-probe, one with the same backend, host, start time and
    // device (the run saved live, or imported from another copy of its output). nullopt: none.
    std::optional<std::int64_t> find_same_probe_run(const ProbeRunRecord& run);
    // Adds a run recorded elsewhere, with its results, in one transaction. When
    // find_same_probe_run() finds it stored already:
    //   - a stored copy that did not end ok (failed, or cut short) and whose results are the first
    //     results of `run`, which has more of them, is completed in place: its row takes `run`'s
    //     status, finish time and digest, and the results it lacked are added (its id, its results'
    //     ids and the measured profiles linked to it stay);
    //   - anything else (a stored run that ended ok, one still being recorded, a file that holds
    //     no more of the run, or other results) is refused with DuplicateProbeRun, nothing
    //     written.
    ImportedProbeRun import_probe_run(const ProbeRunRecord& run);
    // Sets the final status of a run recorded through this object and releases its recorder
    // lock.
    void finish_probe_run(std::int64_t run_id, ProbeRunStatus status,
                          const std::string& finished_at);
    std::vector<ProbeRunRecord> list_probe_runs();
    std::optional<ProbeRunRecord> find_probe_run(std::int64_t id);
    // Removes a run and its results. Refused with a SpecError naming the run while it is being
    // recorded, and while a measured profile was made from it (the profiles are named: remove
    // them first), so that a profile never loses the run it came from without a word.
    void remove_probe_run(std::int64_t id);
    // Stores as failed every run stored as running whose recorder is gone (see add_probe_run()).
    // Returns their ids; nothing when the workspace is read-only or busy (the runs are then
    // shown as failed by list_probe_runs() and find_probe_run() without being stored so).
    std::vector<std::int64_t> settle_interrupted_probe_runs();
    // True while the recorder of run `id` (this object or another process) holds its lock.
    bool probe_run_recorder_alive(std::int64_t id);

private:
    // Which file a path names (device and inode on POSIX systems); `exists` false when none.
    struct FileIdentity {
        bool exists = false;
        std::uint64_t device = 0;
        std::uint64_t inode = 0;
        bool operator==(const FileIdentity&) const = default;
    };

    Workspace(std::filesystem::path path, sqlite::Database db, int opened_version);
    static Workspace open_read_only(const std::filesystem::path& path,
                                    const WorkspaceOptions& options);

    // Refuses (WorkspaceError, detached) when the files this connection opened are no longer
    // the ones at their paths. `after_write`: the check that follows a commit.
    void check_files(const WorkspaceDoing& doing, bool after_write);

    template <typename F>
    auto write(const WorkspaceDoing& doing, F&& body);
    template <typename F>
    auto read(const WorkspaceDoing& doing, F&& body);

    // The recorder lock of a run recorded through this object: an open descriptor holding an
    // exclusive flock() on the run's lock file. Move-only; closing it releases the lock.
    class RecorderLock {
    public:
        RecorderLock(int fd, std::filesystem::path path) : m_fd(fd), m_path(std::move(path)) {}
        RecorderLock(RecorderLock&& other) noexcept;
        RecorderLock& operator=(RecorderLock&& other) noexcept;
        RecorderLock(const RecorderLock&) = delete;
        RecorderLock& operator=(const RecorderLock&) = delete;
        ~RecorderLock();
        // Removes the lock file, then releases the lock: the run's row says it ended already.
        void remove_file();

    private:
        int m_fd = -1;
        std::filesystem::path m_path;
    };

    // The lock file of run `id`, beside the workspace file as SQLite's -wal is (the file's
    // canonical path, so that every process finds the same lock whatever path it opened).
    std::filesystem::path recorder_lock_path(std::int64_t id) const;
    // Takes run `id`'s recorder lock (WorkspaceError when the lock file cannot be made).
    RecorderLock take_recorder_lock(std::int64_t id, const WorkspaceDoing& doing);
    // Marks failed, in memory, the runs of `runs` stored as running whose recorder is gone.
    void show_interrupted(std::vector<ProbeRunRecord>& runs);

    std::filesystem::path m_path;
    std::filesystem::path m_lock_base;  // canonical path of the file: lock files are named from it
    std::map<std::int64_t, RecorderLock> m_recording;  // the runs recorded through this object
    sqlite::Database m_db;
    int m_opened_version = 0;
    std::optional<std::int64_t> m_data_version;  // changed_elsewhere()'s last reading
    // The files as they were right after opening; -wal and -shm only in WAL mode.
    FileIdentity m_db_file;
    FileIdentity m_wal_file;
    FileIdentity m_shm_file;
    bool m_detached = false;
    bool m_read_only = false;
};

}  // namespace tally
