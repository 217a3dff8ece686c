#include "ui/session/probe_process.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>
#include <cmath>
#include <variant>

namespace tally::ui {

namespace {

// How much of the probe's stderr is kept for messages.
constexpr qsizetype kStderrKeepBytes = 4096;

QString translate(const char* text) {
    return QCoreApplication::translate("tally::ui::ProbeRunner", text);
}

int milliseconds(double seconds) {
    return static_cast<int>(std::clamp(std::ceil(seconds * 1000.0), 1.0, 2.0e9));
}

bool isExecutableFile(const QString& path) {
    const QFileInfo info(path);
    return info.isFile() && info.isExecutable();
}

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

// The message of the probe's fatal error event, if it printed one.
std::optional<QString> fatalMessage(const probe::ProbeRun& run) {
    for (const probe::ErrorEvent& e : run.errors) {
        if (e.fatal) {
            return fromStd(e.message);
        }
    }
    return std::nullopt;
}

}  // namespace

QString clusterBootstrapFile() {
    return QStringLiteral(".tally-probe-bootstrap-%1-%2")
        .arg(QCoreApplication::applicationPid())
        .arg(QDateTime::currentMSecsSinceEpoch());
}

QStringList probeArguments(const ProbeOptions& options) {
    QStringList args;
    if (!options.backend.isEmpty()) {
        args << QStringLiteral("--backend") << options.backend;
    }
    if (options.quick) {
        args << QStringLiteral("--quick");
    }
    if (!options.tests.isEmpty()) {
        args << QStringLiteral("--tests") << options.tests.join(QLatin1Char(','));
    }
    if (options.device) {
        args << QStringLiteral("--device") << QString::number(*options.device);
    }
    args << options.extraArguments;
    return args;
}

ProbeLocation findProbeExecutable(const QString& explicitPath) {
    const QString name = QStringLiteral("tally-probe");
    if (!explicitPath.isEmpty()) {
        if (isExecutableFile(explicitPath)) {
            return {QFileInfo(explicitPath).absoluteFilePath(), {}};
        }
        return {{}, translate("the probe %1 is not an executable file").arg(explicitPath)};
    }
    const QString fromEnvironment = qEnvironmentVariable("TALLY_PROBE");
    if (!fromEnvironment.isEmpty()) {
        if (isExecutableFile(fromEnvironment)) {
            return {QFileInfo(fromEnvironment).absoluteFilePath(), {}};
        }
        return {{},
                translate("TALLY_PROBE=%1 is not an executable file; unset it to look beside "
                          "tally and on PATH")
                    .arg(fromEnvironment)};
    }
    QStringList tried;
    if (QCoreApplication::instance() != nullptr) {
        const QDir dir(QCoreApplication::applicationDirPath());
        for (const QString& candidate :
             {dir.filePath(name), dir.filePath(QStringLiteral("../gpu_probe/") + name)}) {
            if (isExecutableFile(candidate)) {
                return {QFileInfo(candidate).absoluteFilePath(), {}};
            }
            tried << QDir::cleanPath(candidate);
        }
    }
    const QString onPath = QStandardPaths::findExecutable(name);
    if (!onPath.isEmpty()) {
        return {onPath, {}};
    }
    tried << translate("PATH");
    return {{},
            translate("tally-probe was not found (looked in $TALLY_PROBE, %1); build the "
                      "tally-probe target or set TALLY_PROBE to its path")
                .arg(tried.join(QStringLiteral(", ")))};
}

QString sshProgram() {
    const QString fromEnvironment = qEnvironmentVariable("TALLY_SSH");
    return fromEnvironment.isEmpty() ? QStringLiteral("ssh") : fromEnvironment;
}

QString shellQuoted(const QString& word) {
    // Characters that no POSIX shell splits on, expands or globs ('~' too: a leading "~/" is
    // left for the remote shell to expand to the home folder, which is what a user means).
    static const QString kPlain =
        QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%~");
    const bool safeCharacters =
        !word.isEmpty() &&
        std::all_of(word.begin(), word.end(), [](QChar c) { return kPlain.contains(c); });
    const qsizetype tildes = word.count(QLatin1Char('~'));
    const bool plain =
        safeCharacters && (tildes == 0 || (tildes == 1 && word.startsWith(QStringLiteral("~/"))));
    if (plain) {
        return word;
    }
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

ProbeCommand probeCommand(const ProbeOptions& options) {
    QStringList launcherWords;
    if (!options.launcher.trimmed().isEmpty()) {
        launcherWords = QProcess::splitCommand(options.launcher);
        if (launcherWords.isEmpty()) {
            return {{}, {}, translate("the launcher \"%1\" has no program").arg(options.launcher)};
        }
    }
    if (options.remoteHost.isEmpty()) {
        const ProbeLocation where = findProbeExecutable(options.probePath);
        if (where.path.isEmpty()) {
            return {{}, {}, where.error};
        }
        if (launcherWords.isEmpty()) {
            return {where.path, probeArguments(options), {}};
        }
        const QString program = launcherWords.takeFirst();
        return {program, launcherWords + QStringList{where.path} + probeArguments(options), {}};
    }
    // A destination that starts with '-' would be read by ssh as an option.
    if (options.remoteHost.startsWith(QLatin1Char('-')) ||
        options.remoteHost.contains(QRegularExpression(QStringLiteral("\\s")))) {
        return {{},
                {},
                translate("the remote host \"%1\" is not an ssh destination (a host name or "
                          "user@host, without spaces, not starting with '-')")
                    .arg(options.remoteHost)};
    }
    QStringList words = launcherWords;
    words << (options.remoteProbe.isEmpty() ? QStringLiteral("tally-probe") : options.remoteProbe);
    words << probeArguments(options);
    QStringList quoted;
    for (const QString& w : words) {
        quoted << shellQuoted(w);
    }
    // BatchMode: a password prompt has no terminal to ask on; fail at once instead.
    return {sshProgram(),
            {QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), options.remoteHost,
             quoted.join(QLatin1Char(' '))},
            {}};
}

QString outcomeName(ProbeOutcome outcome) {
    switch (outcome) {
        case ProbeOutcome::ok:
            return QStringLiteral("ok");
        case ProbeOutcome::testsFailed:
            return QStringLiteral("tests_failed");
        case ProbeOutcome::badArguments:
            return QStringLiteral("bad_arguments");
        case ProbeOutcome::backendUnavailable:
            return QStringLiteral("backend_unavailable");
        case ProbeOutcome::crashed:
            return QStringLiteral("crashed");
        case ProbeOutcome::timedOut:
            return QStringLiteral("timed_out");
        case ProbeOutcome::cancelled:
            return QStringLiteral("cancelled");
        case ProbeOutcome::notStarted:
            break;
    }
    return QStringLiteral("not_started");
}

ProbeRunner::ProbeRunner(QObject* parent) : QObject(parent) {
    m_silenceTimer.setSingleShot(true);
    m_graceTimer.setSingleShot(true);
    connect(&m_silenceTimer, &QTimer::timeout, this, &ProbeRunner::onSilence);
    connect(&m_graceTimer, &QTimer::timeout, this, [this] {
        if (m_process != nullptr && m_process->state() != QProcess::NotRunning) {
            m_process->kill();
        }
    });
}

ProbeRunner::~ProbeRunner() {
    if (m_process != nullptr) {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
}

bool ProbeRunner::start(const ProbeOptions& options) {
    if (m_active) {
        return false;
    }
    m_active = true;
    m_options = options;
    m_splitter = {};
    m_collector = {};
    m_stderr.clear();
    m_lineCount = 0;
    m_stop = Stop::none;
    if (m_process != nullptr) {
        m_process->deleteLater();
        m_process = nullptr;
    }

    const ProbeCommand command = probeCommand(options);
    m_probePath = command.program;
    if (command.program.isEmpty()) {
        QTimer::singleShot(0, this, [this, reason = command.error] {
            finish({ProbeOutcome::notStarted, std::nullopt, reason});
        });
        return true;
    }
    m_process = new QProcess(this);
    m_process->setProgram(command.program);
    m_process->setArguments(command.arguments);
    m_process->setStandardInputFile(QProcess::nullDevice());
    connect(m_process, &QProcess::readyReadStandardOutput, this, &ProbeRunner::readOutput);
    connect(m_process, &QProcess::readyReadStandardError, this, &ProbeRunner::readErrors);
    connect(m_process, &QProcess::finished, this, &ProbeRunner::onProcessFinished);
    connect(m_process, &QProcess::errorOccurred, this, &ProbeRunner::onProcessError);
    m_silenceTimer.start(milliseconds(options.silenceTimeoutS));
    m_process->start();
    return true;
}

void ProbeRunner::cancel() {
    if (!m_active || m_process == nullptr || m_process->state() == QProcess::NotRunning) {
        return;
    }
    if (m_stop == Stop::none) {
        m_stop = Stop::cancelled;
    }
    m_silenceTimer.stop();
    m_process->terminate();
    m_graceTimer.start(milliseconds(m_options.killGraceS));
}

QByteArray ProbeRunner::take(QProcess::ProcessChannel channel) {
    if (m_process == nullptr) {
        return {};
    }
    m_process->setReadChannel(channel);
    const QByteArray bytes = m_process->readAll();
    // Any output is a sign of life: the silence clock starts again (not while stopping).
    if (!bytes.isEmpty() && m_stop == Stop::none) {
        m_silenceTimer.start(milliseconds(m_options.silenceTimeoutS));
    }
    return bytes;
}

void ProbeRunner::readOutput() {
    const QByteArray bytes = take(QProcess::StandardOutput);
    for (const std::string& line : m_splitter.feed(std::string_view(bytes.data(), bytes.size()))) {
        handleLine(line, false);
    }
}

void ProbeRunner::readErrors() {
    m_stderr += take(QProcess::StandardError);
    if (m_stderr.size() > kStderrKeepBytes) {
        m_stderr = m_stderr.right(kStderrKeepBytes);
    }
}

void ProbeRunner::handleLine(const std::string& line, bool truncated) {
    ++m_lineCount;
    const probe::ParsedLine parsed = probe::parse_line(line);
    const probe::ProbeRun& before = m_collector.run();
    const bool hadStart = before.start.has_value();
    const std::size_t notesBefore = before.notes.size();
    m_collector.add(parsed);
    const probe::ProbeRun& after = m_collector.run();

    if (parsed.kind == probe::ParsedLine::Kind::invalid) {
        const QString what = fromStd(parsed.message);
        emit protocolError(truncated ? tr("line %1 was cut off (the output ended inside it): %2")
                                           .arg(m_lineCount)
                                           .arg(what)
                                     : tr("line %1: %2").arg(m_lineCount).arg(what));
        return;
    }
    if (parsed.kind != probe::ParsedLine::Kind::event || !parsed.event) {
        return;  // a blank line or an event of a newer protocol: readers ignore those
    }
    // Events out of order (before start, after done) are kept but reported.
    for (std::size_t i = notesBefore; i < after.notes.size(); ++i) {
        emit protocolError(fromStd(after.notes[i]));
    }
    std::visit(
        [&](const auto& event) {
            using T = std::decay_t<decltype(event)>;
            if constexpr (std::is_same_v<T, probe::StartEvent>) {
                if (!hadStart) {
                    emit started(event);
                }
            } else if constexpr (std::is_same_v<T, probe::DeviceEvent>) {
                emit deviceAvailable(event);
            } else if constexpr (std::is_same_v<T, probe::ProgressEvent>) {
                emit progress(event);
            } else if constexpr (std::is_same_v<T, probe::ResultEvent>) {
                emit resultAvailable(event);
            } else if constexpr (std::is_same_v<T, probe::ErrorEvent>) {
                emit probeError(event);
            }
            // done reaches receivers through finished(); test events (--list) carry nothing a
            // run needs and stay in run().tests.
        },
        *parsed.event);
}

void ProbeRunner::onProcessError(QProcess::ProcessError error) {
    // A crash, timeout or I/O error is followed by finished(); only a failed start is not.
    if (error != QProcess::FailedToStart || m_process == nullptr) {
        return;
    }
    finish({ProbeOutcome::notStarted, std::nullopt,
            tr("could not start %1: %2").arg(m_probePath, m_process->errorString())});
}

void ProbeRunner::onSilence() {
    if (m_process == nullptr || m_process->state() == QProcess::NotRunning) {
        return;
    }
    // A hung probe gets no grace: it has already been silent for silenceTimeoutS.
    m_stop = Stop::timedOut;
    m_process->kill();
}

void ProbeRunner::onProcessFinished(int exitCode, QProcess::ExitStatus status) {
    readOutput();
    readErrors();
    if (auto tail = m_splitter.finish()) {
        handleLine(*tail, true);
    }
    m_collector.finish();
    finish(exitOf(exitCode, status));
}

ProbeExit ProbeRunner::exitOf(int exitCode, QProcess::ExitStatus status) const {
    const probe::ProbeRun& r = run();
    const int results = static_cast<int>(r.results.size());
    const QString kept = tr("the results that arrived before it are kept (%1)").arg(results);
    const QString diagnostics = stderrTail();
    const QString withDiagnostics =
        diagnostics.isEmpty() ? QString() : tr(" (its last words: %1)").arg(diagnostics);
    if (m_stop == Stop::cancelled) {
        return {ProbeOutcome::cancelled, std::nullopt, tr("cancelled; %1").arg(kept)};
    }
    if (m_stop == Stop::timedOut) {
        return {ProbeOutcome::timedOut, std::nullopt,
                tr("tally-probe printed nothing for %1 s and was stopped as hung; %2")
                    .arg(m_options.silenceTimeoutS)
                    .arg(kept)};
    }
    if (status == QProcess::CrashExit) {
        return {
            ProbeOutcome::crashed, std::nullopt,
            tr("tally-probe crashed (it was killed by a signal)%1; %2").arg(withDiagnostics, kept)};
    }
    const std::optional<QString> fatal = fatalMessage(r);
    if (!m_options.remoteHost.isEmpty() && !r.start && !fatal) {
        // ssh's own failures: 255 (no connection, refused key, unknown host), and the remote
        // shell's 127 (command not found) and 126 (not executable).
        const QString host = m_options.remoteHost;
        const QString probe =
            m_options.remoteProbe.isEmpty() ? QStringLiteral("tally-probe") : m_options.remoteProbe;
        if (exitCode == 255) {
            return {ProbeOutcome::notStarted, exitCode,
                    tr("%1 could not run the probe on %2%3; check that `%1 %2` logs in without "
                       "a password prompt (a key or an agent)")
                        .arg(m_probePath, host, withDiagnostics)};
        }
        if (exitCode == 127 || exitCode == 126) {
            return {ProbeOutcome::notStarted, exitCode,
                    tr("%1 %2 on %3%4; copy tally-probe there, or name it with --remote-probe "
                       "PATH")
                        .arg(probe, exitCode == 127 ? tr("was not found") : tr("is not executable"),
                             host, withDiagnostics)};
        }
    }
    if (exitCode == 2 || exitCode == 3) {
        const QString message = fatal ? *fatal : diagnostics;
        return {
            exitCode == 2 ? ProbeOutcome::badArguments : ProbeOutcome::backendUnavailable, exitCode,
            message.isEmpty() ? tr("tally-probe exited with status %1").arg(exitCode) : message};
    }
    if ((exitCode == 0 || exitCode == 1) && r.complete()) {
        if (exitCode == 0) {
            return {ProbeOutcome::ok, exitCode, {}};
        }
        const int failedCount = r.done->failed;
        return {ProbeOutcome::testsFailed, exitCode,
                fatal ? *fatal : tr("%1 of %2 results failed").arg(failedCount).arg(results)};
    }
    // Any other status, or an exit without a done event: the run did not finish.
    QString what = exitCode > 128
                       ? tr("tally-probe exited with status %1 (a shell's report of signal %2)")
                             .arg(exitCode)
                             .arg(exitCode - 128)
                       : tr("tally-probe exited with status %1").arg(exitCode);
    if (!r.complete()) {
        what += tr(" before the end of the run");
    }
    if (fatal) {
        what += QStringLiteral(": ") + *fatal;
    }
    return {ProbeOutcome::crashed, exitCode,
            QString(what + withDiagnostics + QStringLiteral("; ") + kept)};
}

QString ProbeRunner::stderrTail() const {
    // The last non-empty line the probe wrote to stderr.
    const QList<QByteArray> lines = m_stderr.trimmed().split('\n');
    return lines.isEmpty() ? QString() : QString::fromUtf8(lines.last().trimmed());
}

void ProbeRunner::finish(const ProbeExit& exit) {
    if (!m_active) {
        return;
    }
    m_active = false;
    m_silenceTimer.stop();
    m_graceTimer.stop();
    if (exit.outcome != ProbeOutcome::ok && exit.outcome != ProbeOutcome::testsFailed) {
        emit failed(exit.reason);
    }
    emit finished(run(), exit);
}

}  // namespace tally::ui
