#pragma once

// ProbeRunner: `tally-probe` as a child process, its JSON lines turned into signals as they
// arrive (gpu_probe/protocol/PROTOCOL.md). The GUI's Probe panel and `tally probe` both drive it.
//
// (The file is probe_process.h, not probe_runner.h: gpu_probe/probe_runner.h, the probe's own
// run loop, is on the same include path.)

#include <QMetaType>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <optional>
#include <string>

#include "gpu_probe/protocol/probe_protocol.h"

namespace tally::ui {

// What to run. Every field maps to one tally-probe option (probeArguments()).
struct ProbeOptions {
    QString backend;             // "cuda" or "cpu"; empty: the probe's default
    bool quick = false;          // --quick: small sizes, few samples
    QStringList tests;           // --tests a,b; empty: every test of the backend
    std::optional<int> device;   // --device N (CUDA ordinal)
    QStringList extraArguments;  // appended as given (e.g. "--time-limit-s", "0.2")
    QString probePath;           // the executable; empty: findProbeExecutable()
    // Where the probe runs. Empty: this machine. Otherwise an ssh destination ("gpu-box",
    // "me@gpu-box"): the probe runs there through sshProgram(), its output streams back.
    QString remoteHost;
    // The probe on the remote host; empty: "tally-probe" on the remote PATH.
    QString remoteProbe;
    // A cluster launcher's command line ("srun -N 2 --ntasks-per-node 8", "mpirun -np 16"),
    // split into words as a shell would: the probe runs as its ranks (on the remote host's
    // cluster when remoteHost is set). Empty: the probe runs alone.
    QString launcher;
    // A probe that prints nothing (stdout or stderr) for this long is taken as hung and killed.
    // The probe prints a progress line before every measured case, and a case is limited to
    // --time-limit-s (3 s by default), so two minutes of silence is far past any honest case.
    double silenceTimeoutS = 120.0;
    // After cancel() asks the probe to stop (SIGTERM), how long it gets before SIGKILL.
    double killGraceS = 3.0;
};

// The tally-probe command line for `options` (without the program).
QStringList probeArguments(const ProbeOptions& options);

// The file a launcher's ranks meet through (tally-probe --bootstrap-file), a name of its own per
// run. Relative: Slurm and mpirun start every rank in the launch's working folder, which on a
// cluster is a shared filesystem.
QString clusterBootstrapFile();

// Where tally-probe is: `explicitPath` when given, else $TALLY_PROBE, else beside the running
// executable, else ../gpu_probe/tally-probe relative to it (the build tree), else on PATH.
// Exactly one of `path` (absolute) and `error` (what was tried, what to do) is set. An explicit
// path or $TALLY_PROBE that is not an executable file is an error, not a reason to look further.
struct ProbeLocation {
    QString path;
    QString error;
};
ProbeLocation findProbeExecutable(const QString& explicitPath = {});

// The ssh client remote runs go through: $TALLY_SSH when set, else "ssh" (found on PATH).
QString sshProgram();

// A word as a POSIX shell reads it back unchanged: as it is when it holds only characters no
// shell treats specially, else in single quotes. The command ssh hands to the remote shell is
// built from such words.
QString shellQuoted(const QString& word);

// What start() runs for `options`: the program and its arguments, or `error` (exactly one of
// `program` and `error` is set). Local: the probe (findProbeExecutable()), behind the launcher's
// words when there is one. Remote: sshProgram() with "-o BatchMode=yes HOST COMMAND", COMMAND
// the launcher's words, the remote probe and its arguments, each shellQuoted().
struct ProbeCommand {
    QString program;
    QStringList arguments;
    QString error;
};
ProbeCommand probeCommand(const ProbeOptions& options);

// How a run ended.
enum class ProbeOutcome {
    ok,                  // exit 0 after a done event: every result passed or was waived
    testsFailed,         // exit 1 after a done event: at least one result failed
    badArguments,        // exit 2: an unknown option or test name
    backendUnavailable,  // exit 3: no such backend or device (e.g. --backend cuda without a GPU)
    crashed,             // killed by a signal, another exit status, or exit without a done event
    timedOut,            // printed nothing for silenceTimeoutS and was killed
    cancelled,           // cancel() stopped it
    notStarted,          // the executable was not found or could not be started
};
// "ok", "tests_failed", "crashed", ...: the outcome as `tally probe --json` names it.
QString outcomeName(ProbeOutcome outcome);

struct ProbeExit {
    ProbeOutcome outcome = ProbeOutcome::notStarted;
    std::optional<int> exitCode;  // the probe's exit status when it exited by itself
    QString reason;               // for people; empty when ok
};

// Runs one probe at a time. Every signal is emitted from the event loop (the child's output and
// timers), never from inside start() or cancel(), so a receiver may call back into the runner.
//
// Per run: started, deviceAvailable, then progress / resultAvailable / probeError /
// protocolError as lines arrive, and at the end exactly one finished(). When the run did not end
// as ok or testsFailed, failed(reason) comes just before finished(). Results that arrived before a
// crash, hang or cancel stay in the run that finished() carries.
class ProbeRunner : public QObject {
    Q_OBJECT
public:
    explicit ProbeRunner(QObject* parent = nullptr);
    // Kills a probe still running (and waits a moment for it) without emitting anything.
    ~ProbeRunner() override;

    // Starts a run. False (and nothing emitted) when one is already running; otherwise the
    // outcome, including "not found", arrives through the signals.
    bool start(const ProbeOptions& options);
    // Asks the probe to stop (SIGTERM, then SIGKILL after killGraceS). finished() follows with
    // ProbeOutcome::cancelled. Does nothing when no run is active.
    void cancel();
    bool isRunning() const { return m_active; }

    // What the current (or last) run reported so far.
    const probe::ProbeRun& run() const { return m_collector.run(); }
    // The executable of the current (or last) run; empty when it was not found. For a remote
    // run, the ssh client.
    QString probePath() const { return m_probePath; }

signals:
    void started(const tally::probe::StartEvent& start);
    void deviceAvailable(const tally::probe::DeviceEvent& device);
    void progress(const tally::probe::ProgressEvent& progress);
    void resultAvailable(const tally::probe::ResultEvent& result);
    // An error event of the probe (a test that threw, or a fatal refusal).
    void probeError(const tally::probe::ErrorEvent& error);
    // A line that is not a valid event (malformed, truncated) or an event out of order.
    void protocolError(const QString& message);
    void failed(const QString& reason);
    void finished(const tally::probe::ProbeRun& run, const tally::ui::ProbeExit& exit);

private:
    enum class Stop { none, cancelled, timedOut };

    // Everything the probe wrote to `channel` since the last call.
    QByteArray take(QProcess::ProcessChannel channel);
    void readOutput();
    void readErrors();
    void handleLine(const std::string& line, bool truncated);
    void onProcessFinished(int exitCode, QProcess::ExitStatus status);
    void onProcessError(QProcess::ProcessError error);
    void onSilence();
    void finish(const ProbeExit& exit);
    ProbeExit exitOf(int exitCode, QProcess::ExitStatus status) const;
    QString stderrTail() const;

    QProcess* m_process = nullptr;  // child of this; one per run
    QTimer m_silenceTimer;
    QTimer m_graceTimer;
    probe::LineSplitter m_splitter;
    probe::RunCollector m_collector;
    ProbeOptions m_options;
    QString m_probePath;
    QByteArray m_stderr;  // the last few kB the probe wrote to stderr
    int m_lineCount = 0;
    Stop m_stop = Stop::none;
    bool m_active = false;
};

}  // namespace tally::ui

Q_DECLARE_METATYPE(tally::probe::StartEvent)
Q_DECLARE_METATYPE(tally::probe::DeviceEvent)
Q_DECLARE_METATYPE(tally::probe::ProgressEvent)
Q_DECLARE_METATYPE(tally::probe::ResultEvent)
Q_DECLARE_METATYPE(tally::probe::ErrorEvent)
Q_DECLARE_METATYPE(tally::probe::ProbeRun)
Q_DECLARE_METATYPE(tally::ui::ProbeExit)
