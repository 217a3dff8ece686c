// workspace_writer: a child process for tst_workspace_safety. It writes to a workspace the way
// the app and the CLI do, and reports on stdout (one line per committed row, flushed before the
// next write starts) so the test can kill it at any moment and know what was committed.
//
//   workspace_writer [options] loop DB [COUNT]        commit rows (plan, probe run, profile in
//                                                      turn) until COUNT (default: forever);
//                                                      prints "plan ID", "run ID", "profile ID"
//   workspace_writer [options] hold DB MS             take the write lock for MS milliseconds;
//                                                      prints "locked" once it holds it
//   workspace_writer [options] save-plan DB NAME      open, save one plan; prints "plan ID"
//   workspace_writer [options] list-plans DB          open, list the plans; prints "plan NAME"
//                                                      each, then "read-only" or "read-write"
//   workspace_writer [options] big-profile DB BYTES   add a profile whose notes are BYTES long
//   workspace_writer spill DB                         die inside a rollback-journal transaction
//                                                      whose pages reached the file (hot journal)
//
// Options: --busy-timeout MS, --fsize-limit BYTES (RLIMIT_FSIZE: every file this process writes
// stops growing there, as on a full disk), --drop-privileges (when root, become nobody, so
// permissions apply).
// Exit status: 0 done, 1 WorkspaceError (stderr: "error PROBLEM: MESSAGE"), 2 SpecError, 4 usage.
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <sqlite3.h>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/store/sqlite_db.h"
#include "planner/store/workspace.h"

using namespace tally;

namespace {

int usage() {
    std::fputs(
        "usage: workspace_writer [--busy-timeout MS] [--fsize-limit BYTES] "
        "[--drop-privileges] loop|hold|save-plan|list-plans|big-profile|spill DB [ARG]\n",
        stderr);
    return 4;
}

void say(const std::string& line) {
    std::fputs(line.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

ProbeRunRecord sample_run(long i) {
    ProbeRunRecord run;
    run.backend = "cpu";
    run.host = "writer-" + std::to_string(getpid());
    run.device_json = R"({"name":"test device","memory_bytes":1e9})";
    run.started_at = "2025-01-01T00:00:" + std::to_string(10 + i % 50) + "Z";
    run.finished_at = "2025-01-01T00:01:00Z";
    run.status = ProbeRunStatus::ok;
    for (int k = 0; k < 2; ++k) {
        ProbeResultRecord r;
        r.test = k == 0 ? "matmul" : "stream";
        r.variant = k == 0 ? "blas" : "copy";
        r.dtype = "fp32";
        r.sizes_json = R"({"m":256,"n":256,"k":256})";
        r.flops = 2.0 * 256 * 256 * 256;
        r.bytes = 3.0 * 4 * 256 * 256;
        r.flops_per_s = 1e11 + i;
        r.bytes_per_s = 1e10 + i;
        r.median_s = 1e-3;
        r.min_s = 9e-4;
        r.max_s = 2e-3;
        r.stdrel = 0.01;
        r.samples = 20;
        r.validated = true;
        run.results.push_back(r);
    }
    return run;
}

int loop(const std::string& db, long count, const WorkspaceOptions& options) {
    Workspace ws = Workspace::open(db, options);
    const PlanSpec spec = default_plan_spec();
    const HardwareProfile& base = builtin_hardware().front();
    const std::string tag = std::to_string(getpid());
    for (long i = 0; count < 0 || i < count; ++i) {
        switch (i % 3) {
            case 0: {
                const std::int64_t id =
                    ws.save_plan("writer " + tag + " #" + std::to_string(i), spec);
                say("plan " + std::to_string(id));
                break;
            }
            case 1: {
                const std::int64_t id = ws.add_probe_run(sample_run(i));
                say("run " + std::to_string(id));
                break;
            }
            default: {
                const std::string id = "w" + tag + "-" + std::to_string(i);
                ws.add_profile(duplicate_profile(base, id, "Writer " + id));
                say("profile " + id);
                break;
            }
        }
    }
    return 0;
}

// Holds the write lock the way a long transaction of another process would.
int hold(const std::string& db, int ms) {
    sqlite::Database conn(db, SQLITE_OPEN_READWRITE);
    conn.set_busy_timeout(10000);
    sqlite::Transaction tx(conn);  // BEGIN IMMEDIATE: the write lock a real writer holds
    say("locked");
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    tx.commit();
    say("released");
    return 0;
}

// Dies in the middle of a rollback-journal transaction whose pages already reached the file:
// a tiny cache makes SQLite spill dirty pages (after journaling them) before the commit, and
// _exit() skips every cleanup, leaving a hot journal as a crash would.
int spill(const std::string& db) {
    sqlite::Database conn(db, SQLITE_OPEN_READWRITE);
    conn.exec("PRAGMA journal_mode = DELETE");
    conn.exec("PRAGMA cache_size = 2");
    conn.exec("BEGIN IMMEDIATE");
    const std::string filler(3000, 'x');
    for (int i = 0; i < 200; ++i) {
        sqlite::Statement s(conn,
                            "INSERT INTO plans (name, spec_json, created_at, updated_at) "
                            "VALUES (?1, ?2, 'now', 'now')");
        s.bind(1, "spilled " + std::to_string(i)).bind(2, filler);
        s.run();
    }
    say("spilled");
    std::_Exit(0);
}

int big_profile(const std::string& db, long bytes, const WorkspaceOptions& options) {
    Workspace ws = Workspace::open(db, options);
    HardwareProfile p = duplicate_profile(builtin_hardware().front(), "big", "Big profile");
    p.notes.assign(static_cast<std::size_t>(bytes), 'x');
    ws.add_profile(p);
    say("profile big");
    return 0;
}

bool drop_privileges() {
    if (geteuid() != 0) {
        return true;
    }
    // nobody/nogroup on Debian and most Linux systems.
    const uid_t nobody = 65534;
    const gid_t nogroup = 65534;
    return setgroups(0, nullptr) == 0 && setgid(nogroup) == 0 && setuid(nobody) == 0 &&
           geteuid() == nobody;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    WorkspaceOptions options;
    std::size_t i = 0;
    for (; i < args.size() && args[i].starts_with("--"); ++i) {
        if (args[i] == "--busy-timeout" && i + 1 < args.size()) {
            options.busy_timeout_ms = std::atoi(args[++i].c_str());
        } else if (args[i] == "--fsize-limit" && i + 1 < args.size()) {
            const rlim_t limit = std::strtoull(args[++i].c_str(), nullptr, 10);
            // Past the limit write() fails with EFBIG instead of killing the process.
            signal(SIGXFSZ, SIG_IGN);
            struct rlimit rl {
                limit, limit
            };
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0) {
                std::perror("setrlimit");
                return 4;
            }
        } else if (args[i] == "--drop-privileges") {
            if (!drop_privileges()) {
                std::perror("dropping privileges");
                return 4;
            }
        } else {
            return usage();
        }
    }
    if (args.size() < i + 2) {
        return usage();
    }
    const std::string command = args[i];
    const std::string db = args[i + 1];
    const std::string arg = args.size() > i + 2 ? args[i + 2] : std::string();
    try {
        if (command == "loop") {
            return loop(db, arg.empty() ? -1 : std::atol(arg.c_str()), options);
        }
        if (command == "hold" && !arg.empty()) {
            return hold(db, std::atoi(arg.c_str()));
        }
        if (command == "save-plan" && !arg.empty()) {
            Workspace ws = Workspace::open(db, options);
            say("plan " + std::to_string(ws.save_plan(arg, default_plan_spec())));
            return 0;
        }
        if (command == "list-plans") {
            Workspace ws = Workspace::open(db, options);
            for (const StoredPlan& plan : ws.list_plans()) {
                say("plan " + plan.name);
            }
            say(ws.read_only() ? "read-only" : "read-write");
            return 0;
        }
        if (command == "spill") {
            return spill(db);
        }
        if (command == "big-profile" && !arg.empty()) {
            return big_profile(db, std::atol(arg.c_str()), options);
        }
        return usage();
    } catch (const WorkspaceError& e) {
        std::fprintf(stderr, "error %s: %s\n", std::string(to_string(e.problem())).c_str(),
                     e.what());
        return 1;
    } catch (const SpecError& e) {
        std::fprintf(stderr, "error input: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error other: %s\n", e.what());
        return 1;
    }
}
