// `tally probe`: runs tally-probe as a child process (ui/session's ProbeRunner, as the GUI's Probe
// panel does), prints progress and each result as it arrives, saves the run in the workspace
// (ProbeRunSaver) and compares each figure with a hardware profile's promised peak and
// bandwidth (planner/roofline/measured_roofline.h). Also the measured roofline of a stored run, for
// `tally roofline --probe-run`.
#include <fcntl.h>
#include <fmt/core.h>
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <QCoreApplication>
#include <QEventLoop>
#include <QSocketNotifier>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/hardware/efficiency.h"
#include "planner/hardware/probe_records.h"
#include "planner/io/spec_json.h"
#include "planner/performance/plan_gemms.h"
#include "planner/roofline/measured_roofline.h"
#include "planner/store/workspace.h"
#include "planner/training/plan.h"
#include "ui/session/probe_process.h"
#include "ui/session/probe_run_saver.h"

namespace tally::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ui::ProbeExit;
using ui::ProbeOutcome;
using ui::ProbeRunner;

fs::path workspace_path(const CliState& state) {
    return state.db_path.empty() ? default_workspace_path() : fs::path(state.db_path);
}

// ---- numbers for people -------------------------------------------------------------------------

// "95.78 GFLOP/s", "11.27 GB/s": decimal prefixes (GB = 1e9 bytes).
std::string si_rate(std::optional<double> value, const char* unit) {
    if (!value) {
        return "-";
    }
    static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    double v = *value;
    std::size_t i = 0;
    while (std::abs(v) >= 1000.0 && i + 1 < std::size(kPrefixes)) {
        v /= 1000.0;
        ++i;
    }
    return fmt::format("{:.4g} {}{}", v, kPrefixes[i], unit);
}

std::string sizes_text(const std::map<std::string, std::int64_t>& sizes) {
    std::string out;
    for (const auto& [name, value] : sizes) {
        out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
    }
    return out.empty() ? "-" : out;
}

// ---- live output --------------------------------------------------------------------------------

// Sizes last: they are as wide as the case needs.
constexpr const char* kRowFormat =
    "{:<16} {:<23} {:<8} {:>16} {:>13} {:>10} {:>7} {:<7} {:<5} {:>7} {:>7}  {}\n";

void print_result_header() {
    fmt::print(kRowFormat, "test", "variant", "dtype", "FLOP/s", "bytes/s", "median s", "stdrel",
               "status", "valid", "% peak", "% bw", "sizes");
}

void print_result_row(const probe::ResultEvent& r, const MeasuredFractions& f) {
    fmt::print(kRowFormat, r.test, r.variant.empty() ? "-" : r.variant,
               r.dtype.empty() ? "-" : r.dtype, si_rate(r.flops_per_s, "FLOP/s"),
               si_rate(r.bytes_per_s, "B/s"),
               r.median_s ? fmt::format("{:.4g}", *r.median_s) : std::string("-"),
               r.stdrel ? fmt::format("{:.3f}", *r.stdrel) : std::string("-"),
               probe::to_string(r.status), r.validated ? "yes" : "no", percent_or_dash(f.of_peak),
               percent_or_dash(f.of_bandwidth), sizes_text(r.sizes));
    if (!r.reason.empty()) {
        fmt::print("    {}: {}\n", probe::to_string(r.status), r.reason);
    }
    std::fflush(stdout);
}

// A live result: the one JSON shape of a result (probe_result_json()), then what only a live run
// has, the probe's note and the fractions of the promised profile.
json result_json(const probe::ResultEvent& r, const MeasuredFractions& f,
                 std::optional<std::int64_t> result_id) {
    ProbeResultRecord record = probe_result_record(r);
    record.id = result_id.value_or(0);
    json out = probe_result_json(record);
    out["note"] = r.note;
    out["fraction_of_peak"] = number_or_null(f.of_peak);
    out["fraction_of_bandwidth"] = number_or_null(f.of_bandwidth);
    out["fraction_of_roof"] = number_or_null(f.of_roof);
    return out;
}

// ---- Ctrl-C -------------------------------------------------------------------------------------

// SIGINT and SIGTERM cancel the probe instead of killing tally, so the run row is finished (as
// failed) rather than left "running"; so does SIGPIPE, when what reads tally's output has gone
// (`tally probe | head`). The handler only writes a byte to a pipe (async-signal-safe);
// the event loop reads it and calls ProbeRunner::cancel().
class InterruptWatcher {
public:
    explicit InterruptWatcher(ProbeRunner& runner) {
        if (::pipe2(s_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
            return;  // without the pipe Ctrl-C keeps its default: tally stops at once
        }
        m_notifier = std::make_unique<QSocketNotifier>(s_pipe[0], QSocketNotifier::Read);
        QObject::connect(m_notifier.get(), &QSocketNotifier::activated, &runner, [&runner] {
            char buffer[16];
            while (::read(s_pipe[0], buffer, sizeof buffer) > 0) {
            }
            runner.cancel();
        });
        struct sigaction action {};
        action.sa_handler = &InterruptWatcher::on_signal;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &m_old_int);
        ::sigaction(SIGTERM, &action, &m_old_term);
        ::sigaction(SIGPIPE, &action, &m_old_pipe);
        m_installed = true;
    }
    ~InterruptWatcher() {
        if (m_installed) {
            ::sigaction(SIGINT, &m_old_int, nullptr);
            ::sigaction(SIGTERM, &m_old_term, nullptr);
            ::sigaction(SIGPIPE, &m_old_pipe, nullptr);
            m_notifier.reset();
            ::close(s_pipe[0]);
            ::close(s_pipe[1]);
        }
    }
    InterruptWatcher(const InterruptWatcher&) = delete;
    InterruptWatcher& operator=(const InterruptWatcher&) = delete;

    static bool interrupted() { return s_interrupted != 0; }

private:
    static void on_signal(int) {
        s_interrupted = 1;
        const char byte = 1;
        [[maybe_unused]] const ssize_t written = ::write(s_pipe[1], &byte, 1);
    }

    static inline int s_pipe[2] = {-1, -1};
    static inline volatile std::sig_atomic_t s_interrupted = 0;
    std::unique_ptr<QSocketNotifier> m_notifier;
    struct sigaction m_old_int {};
    struct sigaction m_old_term {};
    struct sigaction m_old_pipe {};
    bool m_installed = false;
};

// ---- the command --------------------------------------------------------------------------------

struct ProbeCommandOptions {
    std::string plan;  // --plan SPEC.json: measure that plan's GEMMs
    std::string backend;
    bool quick = false;
    std::string tests;
    std::optional<int> device;
    double timeout_s = 120.0;
    bool json = false;
    std::string profile;
    std::string probe;
    std::string remote;
    std::string remote_probe;
    std::string launcher;
    std::string bootstrap_file;
};

// `tally probe --plan`: the plan's GEMMs and the profile its model times them on.
struct PlanProbe {
    std::string path;
    std::vector<PlanGemm> gemms;
    std::string dtype;  // the probe's name of the plan's compute type
    HardwareProfile profile;
    double bytes_per_value = 2.0;
};

// The GEMMs of the plan in SPEC, as --gemm-shapes gives them to the probe. SpecError for a spec
// that does not load or check, or whose GEMMs the probe cannot time.
PlanProbe plan_probe(const std::string& path, CliState& state) {
    PlanProbe out;
    out.path = path;
    PlanSpec spec = load_plan_spec(path);
    out.profile = resolve_gpu(spec, state);
    if (auto error = check(spec, out.profile)) {
        throw SpecError(*error);
    }
    const ComputeType type = compute_type(spec.training.compute_dtype);
    const auto dtype = probe_gemm_dtype(type);
    if (!dtype) {
        throw SpecError("training.compute_dtype",
                        "\"" + std::string(to_string(spec.training.compute_dtype)) + "\"",
                        "a dtype tally-probe times GEMMs in (fp64, fp32, tf32, bf16, fp16, fp8) "
                        "for --plan");
    }
    out.dtype = std::string(*dtype);
    out.gemms = plan_gemms(spec);
    if (out.gemms.empty()) {
        throw SpecError("model.kind", "\"" + std::string(to_string(spec.model.kind)) + "\"",
                        "a model with layers (transformer or mlp) for --plan: a model given by "
                        "its parameter count has no GEMM shapes");
    }
    out.bytes_per_value = bytes_per_value(spec.training.compute_dtype);
    return out;
}

// One GEMM of the plan beside what the probe measured for it.
struct PlanGemmRow {
    const PlanGemm* gemm = nullptr;
    std::optional<double> measured_s;  // the median of its passed, validated result
    double model_s = 0.0;              // the model's roofline time on the plan's profile
    std::optional<double> ratio() const {
        return measured_s && model_s > 0.0 ? std::optional<double>(*measured_s / model_s)
                                           : std::nullopt;
    }
};

std::vector<PlanGemmRow> plan_gemm_rows(const PlanProbe& plan, const probe::ProbeRun& run) {
    std::vector<PlanGemmRow> rows;
    const AchievedRates rates = achieved_rates(plan.profile, plan.gemms.front().type);
    for (const PlanGemm& g : plan.gemms) {
        PlanGemmRow row;
        row.gemm = &g;
        row.model_s = gemm_time_shaped(rates, static_cast<double>(g.count),
                                       static_cast<double>(g.m), static_cast<double>(g.n),
                                       static_cast<double>(g.k), plan.bytes_per_value)
                          .seconds;
        for (const probe::ResultEvent& r : run.results) {
            const auto size = [&r](const char* key, std::int64_t fallback) {
                const auto it = r.sizes.find(key);
                return it == r.sizes.end() ? fallback : it->second;
            };
            if (r.test == "gemm_shapes" && r.dtype == plan.dtype && size("m", 0) == g.m &&
                size("n", 0) == g.n && size("k", 0) == g.k && size("count", 1) == g.count &&
                r.status == probe::ResultStatus::passed && r.validated && r.median_s) {
                row.measured_s = *r.median_s;
            }
        }
        rows.push_back(row);
    }
    return rows;
}

std::string uses_text(const PlanGemm& g) {
    std::string text;
    for (const std::string& use : g.uses) {
        text += (text.empty() ? "" : ", ") + use;
    }
    return text;
}

void print_plan_gemms(const PlanProbe& plan, const std::vector<PlanGemmRow>& rows) {
    fmt::print("\nGEMMs of plan {} ({}), measured beside the model on {} ({})\n", plan.path,
               plan.dtype, plan.profile.name, plan.profile.id);
    fmt::print("  {:<30} {:>12} {:>12} {:>9}  {}\n", "m x n x k x count", "measured s", "model s",
               "ratio", "uses");
    for (const PlanGemmRow& row : rows) {
        const PlanGemm& g = *row.gemm;
        fmt::print(
            "  {:<30} {:>12} {:>12.4g} {:>9}  {}\n",
            fmt::format("{}x{}x{}x{}", g.m, g.n, g.k, g.count),
            row.measured_s ? fmt::format("{:.4g}", *row.measured_s) : std::string("-"), row.model_s,
            row.ratio() ? fmt::format("{:.3g}", *row.ratio()) : std::string("-"), uses_text(g));
    }
}

json plan_gemms_json(const PlanProbe& plan, const std::vector<PlanGemmRow>& rows) {
    json gemms = json::array();
    for (const PlanGemmRow& row : rows) {
        const PlanGemm& g = *row.gemm;
        gemms.push_back({{"dtype", plan.dtype},
                         {"m", g.m},
                         {"n", g.n},
                         {"k", g.k},
                         {"count", g.count},
                         {"flops", g.flops()},
                         {"uses", g.uses},
                         {"measured_s", number_or_null(row.measured_s)},
                         {"model_s", row.model_s},
                         {"ratio", number_or_null(row.ratio())}});
    }
    return {{"spec", plan.path},
            {"profile", {{"id", plan.profile.id}, {"name", plan.profile.name}}},
            {"gemms", gemms}};
}

// What one run of the command saw.
struct LiveRun {
    std::optional<HardwareProfile> profile;  // what fractions compare with
    bool profile_explicit = false;
    json results = json::array();
    std::optional<std::int64_t> pending_result_id;  // the saver's id of the result being printed
    probe::ProbeRun run;
    ProbeExit exit;
    QString save_error;
    std::optional<PlanProbe> plan;  // --plan
};

void report_profile_choice(const LiveRun& live, const probe::DeviceEvent& device) {
    if (live.profile) {
        fmt::print(stderr, "{}{}\n",
                   cli_render(TALLY_TEXT("tally::cli", "device: %1; fractions are of %2 (%3)")
                                  .arg(device.name)
                                  .arg(live.profile->name)
                                  .arg(live.profile->id)),
                   live.profile_explicit
                       ? std::string()
                       : cli_text("tally::cli", ", the catalog entry matching its name"));
    } else {
        fmt::print(stderr, "{}\n",
                   cli_render(TALLY_TEXT("tally::cli",
                                         "device: %1; no catalog profile matches its name, so no "
                                         "fractions of a promised peak are shown (choose one with "
                                         "--profile ID)")
                                  .arg(device.name)));
    }
}

int finish_command(const ProbeCommandOptions& opts, LiveRun& live, ui::ProbeRunSaver& saver) {
    const ProbeExit& exit = live.exit;
    const std::string reason = exit.reason.toStdString();
    const std::string error = cli_lead(cli_text("tally::cli", "error:"));
    switch (exit.outcome) {
        case ProbeOutcome::notStarted:
            fmt::print(stderr, "tally: {}{}\n", error, reason);
            return kExitFailure;
        case ProbeOutcome::badArguments:
            fmt::print(
                stderr, "tally: {}{}\n", error,
                cli_render(
                    TALLY_TEXT("tally::cli", "tally-probe refused its arguments: %1").arg(reason)));
            return kExitBadInput;
        case ProbeOutcome::backendUnavailable:
            if (!opts.launcher.empty() || !opts.remote.empty()) {
                fmt::print(
                    stderr, "tally: {}{}\n", error,
                    cli_render(TALLY_TEXT("tally::cli", "%1; nothing was measured").arg(reason)));
            } else {
                fmt::print(stderr, "tally: {}{}\n", error,
                           cli_render(TALLY_TEXT("tally::cli",
                                                 "%1; nothing was measured. To measure this "
                                                 "machine's CPU and memory instead: tally probe "
                                                 "--backend cpu")
                                          .arg(reason)));
            }
            return kExitFailure;
        default:
            break;
    }
    const bool interrupted = InterruptWatcher::interrupted();
    if (exit.outcome != ProbeOutcome::ok) {
        fmt::print(stderr, "tally: {}{}\n", error,
                   interrupted
                       ? cli_text("tally::cli", "interrupted; the results that arrived are kept")
                       : reason);
    }
    if (!live.save_error.isEmpty()) {
        fmt::print(stderr, "tally: {}{}\n", error, live.save_error.toStdString());
    }

    // The measured roofline from the run as stored (with result ids), else as it arrived.
    const std::optional<std::int64_t> run_id = saver.runId();
    std::optional<ProbeRunRecord> stored;
    if (run_id && live.save_error.isEmpty()) {
        stored = saver.workspace().find_probe_run(*run_id);
    }
    const ProbeRunRecord record =
        stored ? *stored
               : probe_run_record(live.run,
                                  probe_run_status(live.run, exit.outcome == ProbeOutcome::ok),
                                  std::string());
    const HardwareProfile* promised = live.profile ? &*live.profile : nullptr;
    const MeasuredRoofline measured = measured_roofline(record, promised);
    const std::string db = saver.workspace().path().string();

    if (opts.json) {
        json out = {
            {"run_id", run_id ? json(*run_id) : json(nullptr)},
            {"workspace", db},
            {"status", to_string(record.status)},
            {"outcome", ui::outcomeName(exit.outcome).toStdString()},
            {"reason", exit.reason.isEmpty() ? json(nullptr) : json(reason)},
            {"probe_exit_code", exit.exitCode ? json(*exit.exitCode) : json(nullptr)},
            {"backend", record.backend},
            {"host", record.host},
            {"started_at", record.started_at},
            {"finished_at", record.finished_at},
            {"device", stored_device_json(record)},
            {"profile", promised != nullptr ? json{{"id", promised->id}, {"name", promised->name}}
                                            : json(nullptr)},
            {"results", live.results},
            {"measured", measured_roofline_json(measured)},
            {"notes", live.run.notes},
        };
        json errors = json::array();
        for (const probe::ErrorEvent& e : live.run.errors) {
            errors.push_back({{"test", e.test}, {"message", e.message}, {"fatal", e.fatal}});
        }
        out["errors"] = errors;
        if (live.plan) {
            out["plan"] = plan_gemms_json(*live.plan, plan_gemm_rows(*live.plan, live.run));
        }
        fmt::print("{}\n", out.dump(2));
    } else {
        fmt::print("\n");
        print_measured_roofline(measured, promised);
        if (live.plan) {
            print_plan_gemms(*live.plan, plan_gemm_rows(*live.plan, live.run));
        }
        if (stored) {
            fmt::print("\n{}\n",
                       cli_render(TALLY_TEXT("tally::cli", "saved as probe run %1 (%2) in %3")
                                      .arg(fmt::format("{}", *run_id))
                                      .arg(to_string(stored->status))
                                      .arg(db)));
            if (live.plan) {
                fmt::print("{} tally profiles add --from-run {} --id ID --name NAME --base {}\n",
                           cli_text("tally::cli", "make a hardware profile with these GEMM times:"),
                           *run_id, live.plan->profile.id);
            } else if (!measured.peaks.empty() || measured.bandwidth) {
                fmt::print("{} tally profiles add --from-run {} --id ID --name NAME{}\n",
                           cli_text("tally::cli", "make a hardware profile from it:"), *run_id,
                           promised != nullptr ? " --base " + promised->id : std::string());
            }
        }
    }
    if (!live.save_error.isEmpty()) {
        return kExitFailure;
    }
    return exit.outcome == ProbeOutcome::ok ? kExitOk : kExitFailure;
}

int run_probe_command(const ProbeCommandOptions& opts, CliState& state) {
    LiveRun live;
    if (!opts.plan.empty()) {
        live.plan = plan_probe(opts.plan, state);
    }
    if (!opts.profile.empty()) {
        live.profile = find_workspace_profile(opts.profile, state);
        if (!live.profile) {
            throw SpecError("--profile", "\"" + opts.profile + "\"",
                            "the id of a profile (built-in: " + builtin_hardware_ids() +
                                "; stored ones: tally profiles list)");
        }
        live.profile_explicit = true;
        if (live.plan) {
            live.plan->profile = *live.profile;  // the model's times on the profile asked for
        }
    }
    // Open (create, migrate) the workspace before measuring: a file that cannot take the run
    // fails now, not after minutes of measuring.
    Workspace workspace = Workspace::open(workspace_path(state));

    std::optional<QCoreApplication> app;
    if (QCoreApplication::instance() == nullptr) {
        static int argc = 1;
        static char name[] = "tally";
        static char* argv[] = {name, nullptr};
        app.emplace(argc, argv);
    }

    ui::ProbeOptions options;
    options.backend = QString::fromStdString(opts.backend);
    options.quick = opts.quick;
    for (const QString& t : QString::fromStdString(opts.tests).split(QLatin1Char(','))) {
        if (!t.trimmed().isEmpty()) {
            options.tests << t.trimmed();
        }
    }
    if (live.plan) {
        // Exactly the plan's GEMMs, nothing else.
        options.tests = QStringList{QStringLiteral("gemm_shapes")};
        options.extraArguments << QStringLiteral("--gemm-shapes")
                               << QString::fromStdString(
                                      gemm_shapes_argument(live.plan->gemms, live.plan->dtype));
    }
    options.device = opts.device;
    options.silenceTimeoutS = opts.timeout_s;
    options.probePath = QString::fromStdString(opts.probe);
    options.remoteHost = QString::fromStdString(opts.remote);
    options.remoteProbe = QString::fromStdString(opts.remote_probe);
    options.launcher = QString::fromStdString(opts.launcher);
    if (!opts.launcher.empty()) {
        // The ranks meet through a file in the launch's working folder (Slurm and mpirun start
        // every rank there; on a cluster it is a shared filesystem). A name of its own per run.
        options.extraArguments << QStringLiteral("--bootstrap-file")
                               << (opts.bootstrap_file.empty()
                                       ? ui::clusterBootstrapFile()
                                       : QString::fromStdString(opts.bootstrap_file));
        if (options.backend.isEmpty()) {
            options.backend = QStringLiteral("nccl");
        }
    }

    ProbeRunner runner;
    ui::ProbeRunSaver saver(std::move(workspace));
    saver.watch(&runner);  // first: the saver has saved a result before it is printed
    QEventLoop loop;
    const bool table = !opts.json;

    QObject::connect(&saver, &ui::ProbeRunSaver::resultSaved, &loop,
                     [&live](qint64, qint64 result_id) { live.pending_result_id = result_id; });
    QObject::connect(&saver, &ui::ProbeRunSaver::saveFailed, &loop, [&live](const QString& reason) {
        live.save_error = reason;
        fmt::print(stderr, "tally: {}{}\n", cli_lead(cli_text("tally::cli", "error:")),
                   reason.toStdString());
    });
    QObject::connect(&runner, &ProbeRunner::started, &loop, [](const probe::StartEvent& s) {
        fmt::print(
            stderr, "{} {}: {}{}\n", s.tool, s.version,
            cli_render(TALLY_TEXT("tally::cli", "%1 backend on %2")
                           .arg(s.backend)
                           .arg(s.host.empty() ? cli_text("tally::cli", "this machine") : s.host)),
            s.quick ? cli_text("tally::cli", " (quick)") : std::string());
    });
    QObject::connect(
        &runner, &ProbeRunner::deviceAvailable, &loop,
        [&live, table](const probe::DeviceEvent& device) {
            if (!live.profile_explicit && !live.profile) {
                const double memory = static_cast<double>(device.memory_bytes.value_or(0));
                if (const HardwareProfile* p = catalog_profile_for_device(device.name, memory)) {
                    live.profile = *p;
                }
            }
            report_profile_choice(live, device);
            if (table) {
                print_result_header();
            }
        });
    QObject::connect(&runner, &ProbeRunner::progress, &loop, [](const probe::ProgressEvent& p) {
        fmt::print(stderr, "[{}/{}] {}\n", p.index, p.total, p.message);
    });
    QObject::connect(
        &runner, &ProbeRunner::resultAvailable, &loop, [&live, table](const probe::ResultEvent& r) {
            const MeasuredFractions f =
                live.profile ? measured_fractions(probe_result_record(r), *live.profile)
                             : MeasuredFractions{};
            live.results.push_back(
                result_json(r, f, std::exchange(live.pending_result_id, std::nullopt)));
            if (table) {
                print_result_row(r, f);
            }
        });
    QObject::connect(&runner, &ProbeRunner::probeError, &loop, [](const probe::ErrorEvent& e) {
        if (!e.fatal) {  // a fatal one is the run's outcome, reported at the end
            fmt::print(stderr, "tally-probe: error: {}\n", e.message);
        }
    });
    QObject::connect(&runner, &ProbeRunner::protocolError, &loop, [](const QString& message) {
        fmt::print(stderr, "tally: warning: tally-probe output: {}\n", message.toStdString());
    });
    QObject::connect(&runner, &ProbeRunner::finished, &loop,
                     [&live, &loop](const probe::ProbeRun& run, const ProbeExit& exit) {
                         live.run = run;
                         live.exit = exit;
                         loop.quit();
                     });

    InterruptWatcher interrupts(runner);
    runner.start(options);
    loop.exec();
    return finish_command(opts, live, saver);
}

}  // namespace

json measured_roofline_json(const MeasuredRoofline& measured) {
    json peaks = json::array();
    for (const MeasuredPeak& p : measured.peaks) {
        peaks.push_back({{"dtype", std::string(to_string(p.type))},
                         {"probe_dtype", p.dtype},
                         {"flops_per_s", p.flops_per_s},
                         {"result_id", p.result_id},
                         {"sizes", json::parse(p.sizes_json, nullptr, false)},
                         {"promised_flops_per_s", number_or_null(p.promised_flops_per_s)},
                         {"fraction_of_peak", number_or_null(p.fraction_of_peak)}});
    }
    json bandwidth = nullptr;
    if (measured.bandwidth) {
        const MeasuredBandwidth& b = *measured.bandwidth;
        bandwidth = {{"bytes_per_s", b.bytes_per_s},
                     {"test", b.test},
                     {"result_id", b.result_id},
                     {"promised_bytes_per_s", number_or_null(b.promised_bytes_per_s)},
                     {"fraction_of_bandwidth", number_or_null(b.fraction_of_bandwidth)}};
    }
    json roofs = json::array();
    for (const Roof& r : measured.roofs()) {
        roofs.push_back({{"dtype", std::string(to_string(r.type))},
                         {"peak_flops_per_s", r.peak_flops_per_s},
                         {"bandwidth_bytes_per_s", r.bandwidth_bytes_per_s},
                         {"ridge_flops_per_byte", r.ridge_flops_per_byte()}});
    }
    json points = json::array();
    for (const MeasuredPoint& p : measured.points) {
        points.push_back({{"result_id", p.result_id},
                          {"test", p.test},
                          {"kind", std::string(to_string(p.kind))},
                          {"dtype", p.dtype},
                          {"sizes", json::parse(p.sizes_json, nullptr, false)},
                          {"intensity_flops_per_byte", p.intensity_flops_per_byte},
                          {"flops_per_s", p.flops_per_s},
                          {"bytes_per_s", number_or_null(p.bytes_per_s)},
                          {"fraction_of_peak", number_or_null(p.fractions.of_peak)},
                          {"fraction_of_bandwidth", number_or_null(p.fractions.of_bandwidth)},
                          {"fraction_of_roof", number_or_null(p.fractions.of_roof)}});
    }
    return {{"peaks", peaks}, {"bandwidth", bandwidth}, {"roofs", roofs}, {"points", points}};
}

void print_measured_roofline(const MeasuredRoofline& measured, const HardwareProfile* promised) {
    if (measured.empty()) {
        fmt::print("{}\n",
                   cli_text("tally::cli", "Measured: no validated, passed result to draw."));
        return;
    }
    // "   promised 989.5 TFLOP/s =  9.7%": only with a profile to compare with.
    const auto beside = [promised](std::optional<double> promised_value, const char* unit,
                                   std::optional<double> fraction) {
        if (promised == nullptr) {
            return std::string();
        }
        return fmt::format("   promised {:>16} = {:>7}", si_rate(promised_value, unit),
                           percent_or_dash(fraction));
    };
    fmt::print("{}\n", promised != nullptr
                           ? cli_render(TALLY_TEXT("tally::cli", "Measured roofs beside %1 (%2)")
                                            .arg(promised->name)
                                            .arg(promised->id))
                           : cli_text("tally::cli", "Measured roofs"));
    for (const MeasuredPeak& p : measured.peaks) {
        fmt::print("  {:<6} matmul peak      {:>16}{}\n", to_string(p.type),
                   si_rate(p.flops_per_s, "FLOP/s"),
                   beside(p.promised_flops_per_s, "FLOP/s", p.fraction_of_peak));
    }
    if (measured.bandwidth) {
        const MeasuredBandwidth& b = *measured.bandwidth;
        fmt::print("  memory bandwidth ({:<4}) {:>16}{}\n", b.test, si_rate(b.bytes_per_s, "B/s"),
                   beside(b.promised_bytes_per_s, "B/s", b.fraction_of_bandwidth));
    }
    for (const Roof& r : measured.roofs()) {
        const std::optional<Roof> promised_roof =
            promised != nullptr ? roof_for(*promised, r.type) : std::nullopt;
        fmt::print(
            "  {:<6} ridge {:.4g} FLOP/byte{}\n", to_string(r.type), r.ridge_flops_per_byte(),
            promised_roof ? fmt::format(" (promised {:.4g})", promised_roof->ridge_flops_per_byte())
                          : std::string());
    }
    if (measured.points.empty()) {
        return;
    }
    fmt::print("{}\n",
               promised != nullptr
                   ? cli_text("tally::cli",
                              "Measured points (% of the promised peak, bandwidth, and roof at "
                              "the point's intensity)")
                   : cli_text("tally::cli", "Measured points"));
    // The fractions only when there is a profile to be a fraction of.
    const auto fractions = [promised](const std::string& peak, const std::string& bandwidth,
                                      const std::string& roof) {
        return promised != nullptr ? fmt::format(" {:>8} {:>8} {:>8}", peak, bandwidth, roof)
                                   : std::string();
    };
    fmt::print("  {:<28} {:<8} {:<8} {:>10} {:>16}{}\n", "test", "kind", "dtype", "FLOP/byte",
               "FLOP/s", fractions("% peak", "% bw", "% roof"));
    for (const MeasuredPoint& p : measured.points) {
        fmt::print("  {:<28} {:<8} {:<8} {:>10.4g} {:>16}{}\n", p.test, to_string(p.kind), p.dtype,
                   p.intensity_flops_per_byte, si_rate(p.flops_per_s, "FLOP/s"),
                   fractions(percent_or_dash(p.fractions.of_peak),
                             percent_or_dash(p.fractions.of_bandwidth),
                             percent_or_dash(p.fractions.of_roof)));
    }
}

MeasuredRoofline stored_measured_roofline(std::int64_t run_id, const HardwareProfile* promised,
                                          CliState& state) {
    const fs::path path = workspace_path(state);
    std::error_code ec;
    std::optional<ProbeRunRecord> run;
    if (fs::exists(path, ec)) {
        run = Workspace::open(path).find_probe_run(run_id);
    }
    if (!run) {
        throw SpecError("--probe-run", std::to_string(run_id),
                        "the id of a stored probe run (tally probes list)");
    }
    return measured_roofline(*run, promised);
}

void register_probe_commands(CLI::App& app, CliState& state) {
    auto opts = std::make_shared<ProbeCommandOptions>();
    auto* probe = app.add_subcommand(
        "probe",
        "Measure this machine, or an ssh host (--remote), with tally-probe (a GPU through CUDA, "
        "or the CPU), print each result as it arrives, and save the run in the workspace");
    probe
        ->add_option("--backend", opts->backend,
                     "cuda (an NVIDIA GPU), cpu (this machine's cores and memory), nccl (the "
                     "collectives between the GPUs a --launcher starts) or tcp (the same on CPU "
                     "ranks, without GPUs). Default: nccl with --launcher; else cuda when the "
                     "probe was built with CUDA and a GPU answers, else cpu. "
                     "Without a GPU or driver, --backend cuda says so in one line, measures "
                     "nothing and exits 1: use --backend cpu there")
        ->check(CLI::IsMember({"cuda", "cpu", "nccl", "tcp"}));
    probe->add_flag("--quick", opts->quick, "Small sizes and few samples (a CPU run takes ~15 s)");
    auto* tests = probe->add_option("--tests", opts->tests,
                                    "Only these tests, comma-separated (tally-probe --list "
                                    "--backend B names them)");
    auto* plan = probe->add_option(
        "--plan", opts->plan,
        "Measure exactly the GEMMs this plan spec runs (forward, data and weight gradients of "
        "every layer and the output layer, at their tensor-parallel shapes, in its compute "
        "dtype) with the gemm_shapes test, and print each one's measured time beside the "
        "model's on the spec's profile (or --profile). A profile made from the run (tally "
        "profiles add --from-run RUN --base ID) makes predictions use those times");
    plan->excludes(tests);
    probe->add_option("--device", opts->device, "CUDA device ordinal (default 0)")
        ->check(CLI::Validator([](std::string& text) { return whole_number_at_least(text, 0); },
                               "INT >= 0"));
    probe
        ->add_option("--timeout-s", opts->timeout_s,
                     "Stop the probe as hung when it prints nothing for this many seconds")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    probe->add_option("--profile", opts->profile,
                      "Profile whose dense peaks and bandwidth each result is a fraction of "
                      "(built-in or stored; default: the catalog entry matching the device "
                      "name, if any)");
    auto* local_probe = probe->add_option(
        "--probe", opts->probe,
        "The tally-probe executable (default: $TALLY_PROBE, beside tally, the build "
        "tree's gpu_probe/, then PATH)");
    auto* remote = probe->add_option(
        "--remote", opts->remote,
        "Run tally-probe on this ssh host (HOST or USER@HOST) instead of here; the results "
        "stream back and are saved here. The ssh client is $TALLY_SSH when set, else ssh; it "
        "must log in without a password prompt (a key or an agent)");
    remote->excludes(local_probe);
    auto* launcher = probe->add_option(
        "--launcher", opts->launcher,
        "Run tally-probe as the ranks of a cluster launcher, e.g. \"srun -N 2 --ntasks-per-node "
        "8 --gpus-per-node 8\" or \"mpirun -np 16\" (one rank per GPU; with --remote, on that "
        "host's cluster). The backend defaults to nccl (collectives across the GPUs); tcp runs "
        "the same on CPU ranks. The ranks meet through a file in the working folder, which must "
        "be on a filesystem every node shares");
    launcher->excludes(plan);
    probe
        ->add_option("--bootstrap-file", opts->bootstrap_file,
                     "With --launcher: the file the ranks meet through (default: "
                     ".tally-probe-bootstrap-PID-TIME in the working folder)")
        ->needs(launcher);
    probe
        ->add_option("--remote-probe", opts->remote_probe,
                     "With --remote: the tally-probe executable on the remote host (default: "
                     "tally-probe on its PATH)")
        ->needs(remote);
    probe->add_option("--db", state.db_path,
                      "Workspace file (default: " + default_workspace_path().string() + ")");
    probe->add_flag("--json", opts->json,
                    "Print one JSON document at the end instead of a table (progress still goes "
                    "to stderr)");
    probe->footer(
        "Exit status: 0 every result passed or was waived; 1 a test failed, the probe crashed, "
        "hung, was interrupted, the backend or device does not exist here, or the workspace "
        "could not save the run; 2 bad input (an option, a test name or a profile id).");
    probe->callback([opts, &state] { state.exit_code = run_probe_command(*opts, state); });
}

}  // namespace tally::cli
