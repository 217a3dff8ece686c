// ProbeRunner and ProbeRunSaver (ui/session): tally-probe as a child process. Fake probes (bash
// scripts printing canned protocol lines) cover what a real probe does rarely: exiting cleanly,
// failing a test, crashing mid-run, hanging, a cut-off last line, malformed lines, refusing the
// backend, and ignoring SIGTERM on cancel. The real probe runs once, briefly, on the CPU backend.
// Every run is saved into a temporary workspace and read back from it.
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <string>

#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/store/workspace.h"
#include "tests/fake_probe_util.h"
#include "ui/session/probe_process.h"
#include "ui/session/probe_run_saver.h"

using namespace tally;
using namespace tally::probe;
using namespace tally::test;
using tally::ui::ProbeExit;
using tally::ui::ProbeOptions;
using tally::ui::ProbeOutcome;
using tally::ui::ProbeRunner;
using tally::ui::ProbeRunSaver;

namespace {

// The fake runs are of two tests, relu and dot.
const std::vector<std::string> kTests{"relu", "dot"};

// ---- a run, driven and recorded -----------------------------------------------------------------

struct Recorded {
    QStringList sequence;  // signal names in the order they came
    QStringList protocolErrors;
    QString failure;
    ProbeRun run;
    ProbeExit exit;
    bool finished = false;
};

}  // namespace

class TestProbeRunner : public QObject {
    Q_OBJECT

private slots:
    void init();
    void findsTheProbe();
    void optionsBecomeArguments();
    void completeRun();
    void failedTest();
    void crashMidRun_data();
    void crashMidRun();
    void hangIsStoppedAndResultsWereSavedAsTheyCame();
    void truncatedLastLine();
    void malformedLines();
    void backendUnavailable();
    void notFound();
    void failsToStart();
    void cancel();
    void cancelKillsAProbeIgnoringSigterm();
    void realProbeOnCpu();

private:
    // Runs a probe to its end, saving into a fresh workspace; returns what was seen.
    Recorded runToEnd(ProbeOptions options, int timeoutMs = 20000);
    ProbeRunRecord onlySavedRun();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ProbeRunSaver> m_saver;
};

void TestProbeRunner::init() {
    qunsetenv("TALLY_PROBE");
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_saver = std::make_unique<ProbeRunSaver>(
        Workspace::open(m_dir->filePath(QStringLiteral("ws.sqlite")).toStdString()));
}

Recorded TestProbeRunner::runToEnd(ProbeOptions options, int timeoutMs) {
    Recorded rec;
    ProbeRunner runner;
    m_saver->watch(&runner);
    connect(&runner, &ProbeRunner::started, this,
            [&] { rec.sequence << QStringLiteral("started"); });
    connect(&runner, &ProbeRunner::deviceAvailable, this,
            [&] { rec.sequence << QStringLiteral("device"); });
    connect(&runner, &ProbeRunner::progress, this,
            [&] { rec.sequence << QStringLiteral("progress"); });
    connect(&runner, &ProbeRunner::resultAvailable, this,
            [&] { rec.sequence << QStringLiteral("result"); });
    connect(&runner, &ProbeRunner::protocolError, this, [&](const QString& message) {
        rec.sequence << QStringLiteral("protocolError");
        rec.protocolErrors << message;
    });
    connect(&runner, &ProbeRunner::failed, this, [&](const QString& reason) {
        rec.sequence << QStringLiteral("failed");
        rec.failure = reason;
    });
    connect(&runner, &ProbeRunner::finished, this, [&](const ProbeRun& run, const ProbeExit& exit) {
        rec.sequence << QStringLiteral("finished");
        rec.run = run;
        rec.exit = exit;
        rec.finished = true;
    });
    QSignalSpy finished(&runner, &ProbeRunner::finished);
    if (!runner.start(options)) {
        qWarning("start() refused");
        return rec;
    }
    if (!finished.wait(timeoutMs)) {
        qWarning("the run did not finish within %d ms", timeoutMs);
    }
    return rec;
}

ProbeRunRecord TestProbeRunner::onlySavedRun() {
    const std::vector<ProbeRunRecord> runs = m_saver->workspace().list_probe_runs();
    if (runs.size() != 1) {
        qWarning("expected one saved run, found %zu", runs.size());
        return {};
    }
    return runs.front();
}

void TestProbeRunner::findsTheProbe() {
    // An explicit path wins, as an absolute path.
    const QString fake = writeProbe(*m_dir, "#!/bin/bash\nexit 0\n");
    QCOMPARE(ui::findProbeExecutable(fake).path, fake);
    // An explicit path that is not executable is an error naming it; no fallback.
    const QString missing = m_dir->filePath(QStringLiteral("no-such-probe"));
    const ui::ProbeLocation bad = ui::findProbeExecutable(missing);
    QVERIFY(bad.path.isEmpty());
    QVERIFY2(bad.error.contains(missing), qPrintable(bad.error));
    // $TALLY_PROBE next.
    qputenv("TALLY_PROBE", fake.toLocal8Bit());
    QCOMPARE(ui::findProbeExecutable().path, fake);
    qputenv("TALLY_PROBE", missing.toLocal8Bit());
    QVERIFY(ui::findProbeExecutable().error.contains(QStringLiteral("TALLY_PROBE")));
    qunsetenv("TALLY_PROBE");
    // Then the build tree: this test runs from <build>/tests, the probe is <build>/gpu_probe.
    QCOMPARE(ui::findProbeExecutable().path,
             QFileInfo(QStringLiteral(TALLY_PROBE_PATH)).absoluteFilePath());
}

void TestProbeRunner::optionsBecomeArguments() {
    const QString argsFile = m_dir->filePath(QStringLiteral("args.txt"));
    ProbeOptions options;
    options.probePath =
        writeProbe(*m_dir, fakeProbe({startLine("cpu", kTests), deviceLine("cpu"), doneLine(0, 0)},
                                     "exit 0", {.argsFile = argsFile}));
    options.backend = QStringLiteral("cpu");
    options.quick = true;
    options.tests = {QStringLiteral("relu"), QStringLiteral("dot")};
    options.device = 1;
    options.extraArguments = {QStringLiteral("--time-limit-s"), QStringLiteral("0.2")};
    const Recorded rec = runToEnd(options);
    QVERIFY(rec.finished);
    QCOMPARE(rec.exit.outcome, ProbeOutcome::ok);
    QFile file(argsFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts),
             QStringList({"--backend", "cpu", "--quick", "--tests", "relu,dot", "--device", "1",
                          "--time-limit-s", "0.2"}));
}

void TestProbeRunner::completeRun() {
    ProbeOptions options;
    options.probePath = writeProbe(
        *m_dir, fakeProbe({startLine("cpu", kTests), deviceLine("cpu"), progressLine("relu", 1, 2),
                           to_json_line(reluResult()), progressLine("dot", 2, 2),
                           to_json_line(reluResult(ResultStatus::passed, "dot")), doneLine(2, 0)},
                          "exit 0"));
    QSignalSpy saved(m_saver.get(), &ProbeRunSaver::resultSaved);
    const Recorded rec = runToEnd(options);
    QVERIFY(rec.finished);
    QCOMPARE(rec.sequence, QStringList({"started", "device", "progress", "result", "progress",
                                        "result", "finished"}));
    QCOMPARE(rec.exit.outcome, ProbeOutcome::ok);
    QCOMPARE(rec.exit.exitCode, std::optional<int>(0));
    QVERIFY(rec.exit.reason.isEmpty());
    QVERIFY(rec.run.complete());
    QCOMPARE(rec.run.results.size(), std::size_t(2));
    QCOMPARE(saved.count(), 2);

    const ProbeRunRecord run = onlySavedRun();
    QCOMPARE(run.status, ProbeRunStatus::ok);
    QCOMPARE(run.backend, std::string("cpu"));
    QCOMPARE(run.host, std::string("fake-host"));
    QCOMPARE(run.started_at, std::string("2026-01-02T03:04:05Z"));
    QCOMPARE(run.finished_at, std::string("2026-01-02T03:04:09Z"));
    QVERIFY(run.device_json.find("\"Fake CPU\"") != std::string::npos);
    QCOMPARE(run.results.size(), std::size_t(2));
    // What reluResult() (fake_probe_util.h) put in the line, field by field.
    const ProbeResultRecord& relu = run.results[0];
    QCOMPARE(relu.test, std::string("relu"));
    QCOMPARE(relu.dtype, std::string("fp32"));
    QCOMPARE(relu.sizes_json, std::string(R"({"elements":1000000})"));
    QCOMPARE(relu.flops, 1e6);
    QCOMPARE(relu.bytes, 8e6);
    QCOMPARE(relu.flops_per_s, std::optional(1e9));
    QCOMPARE(relu.bytes_per_s, std::optional(8e9));
    QCOMPARE(relu.median_s, std::optional(1e-3));
    QCOMPARE(relu.samples, std::int64_t(20));
    QCOMPARE(relu.status, ProbeResultStatus::passed);
    QVERIFY(relu.validated);
    QCOMPARE(run.results[1].test, std::string("dot"));
}

void TestProbeRunner::failedTest() {
    ProbeOptions options;
    options.probePath = writeProbe(
        *m_dir, fakeProbe({startLine("cpu", kTests), deviceLine("cpu"), to_json_line(reluResult()),
                           to_json_line(reluResult(ResultStatus::failed, "dot")), doneLine(1, 1)},
                          "exit 1"));
    const Recorded rec = runToEnd(options);
    QVERIFY(rec.finished);
    // A failed test is a finished run, not a failure of the runner.
    QVERIFY(!rec.sequence.contains(QStringLiteral("failed")));
    QCOMPARE(rec.exit.outcome, ProbeOutcome::testsFailed);
    QCOMPARE(rec.exit.exitCode, std::optional<int>(1));
    const ProbeRunRecord run = onlySavedRun();
    QCOMPARE(run.status, ProbeRunStatus::failed);
    QCOMPARE(run.results.size(), std::size_t(2));
    QCOMPARE(run.results[1].status, ProbeResultStatus::failed);
    QCOMPARE(run.results[1].reason, std::string("3 elements differ, first at index 7"));
}

void TestProbeRunner::crashMidRun_data() {
    QTest::addColumn<QByteArray>("then");
    QTest::addColumn<int>("exitCode");  // -1: killed by a signal, no exit status
    QTest::addColumn<QString>("reasonMentions");
    QTest::newRow("SIGSEGV") << QByteArray("echo 'Segmentation fault' >&2\nkill -SEGV $$") << -1
                             << QStringLiteral("Segmentation fault");
    // A shell reports a child killed by signal 11 as status 128 + 11.
    QTest::newRow("exit 139") << QByteArray("exit 139") << 139 << QStringLiteral("signal 11");
}

void TestProbeRunner::crashMidRun() {
    QFETCH(QByteArray, then);
    QFETCH(int, exitCode);
    QFETCH(QString, reasonMentions);
    ProbeOptions options;
    options.probePath =
        writeProbe(*m_dir, fakeProbe({startLine("cpu", kTests), deviceLine("cpu"),
                                      to_json_line(reluResult()), progressLine("dot", 2, 2)},
                                     then));
    const Recorded rec = runToEnd(options);
    QVERIFY(rec.finished);
    QCOMPARE(rec.exit.outcome, ProbeOutcome::crashed);
    QCOMPARE(rec.exit.exitCode, exitCode < 0 ? std::nullopt : std::optional<int>(exitCode));
    QVERIFY2(rec.failure.contains(reasonMentions), qPrintable(rec.failure));
    QVERIFY2(rec.failure.contains(QStringLiteral("kept (1)")), qPrintable(rec.failure));
    QCOMPARE(rec.sequence.mid(rec.sequence.size() - 2), QStringList({"failed", "finished"}));
    // What arrived is kept, in the run and in the workspace.
    QCOMPARE(rec.run.results.size(), std::size_t(1));
    const ProbeRunRecord run = onlySavedRun();
    QCOMPARE(run.status, ProbeRunStatus::failed);
    QVERIFY(!run.finished_at.empty());
    QCOMPARE(run.results.size(), std::size_t(1));
    QCOMPARE(run.results[0].test, std::string("relu"));
}

void TestProbeRunner::hangIsStoppedAndResultsWereSavedAsTheyCame() {
    ProbeOptions options;
    options.silenceTimeoutS = 0.5;
    options.probePath = writeProbe(
        *m_dir, fakeProbe({startLine("cpu", kTests), deviceLine("cpu"), to_json_line(reluResult())},
                          "exec sleep 30"));
    ProbeRunner runner;
    m_saver->watch(&runner);
    QSignalSpy resultSaved(m_saver.get(), &ProbeRunSaver::resultSaved);
    QSignalSpy finished(&runner, &ProbeRunner::finished);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(runner.start(options));

    // Before the run ends, another connection (as another process would) already sees the run,
    // still running, with the result that arrived.
    QVERIFY(resultSaved.wait(10000));
    {
        Workspace other =
            Workspace::open(m_dir->filePath(QStringLiteral("ws.sqlite")).toStdString());
        const auto runs = other.list_probe_runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].status, ProbeRunStatus::running);
        QVERIFY(runs[0].finished_at.empty());
        QCOMPARE(runs[0].results.size(), std::size_t(1));
    }

    QVERIFY(finished.wait(10000));
    // Silence of 0.5 s, not the script's 30 s sleep.
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    const auto exit = finished.at(0).at(1).value<ProbeExit>();
    QCOMPARE(exit.outcome, ProbeOutcome::timedOut);
    QVERIFY2(exit.reason.contains(QStringLiteral("0.5 s")), qPrintable(exit.reason));
    const ProbeRunRecord run = onlySavedRun();
    QCOMPARE(run.status, ProbeRunStatus::failed);
    QCOMPARE(run.results.size(), std::size_t(1));
}

void TestProbeRunner::truncatedLastLine() {
    const std::string done = doneLine(1, 0);
    ProbeOptions options;
    // The done line stops halfway, with no newline: the probe died while writing it.
    options.probePath = writeProbe(
        *m_dir,
        fakeProbe({startLine("cpu", kTests), deviceLine("cpu"), to_json_line(reluResult())},
                  "printf '%s' '" + QByteArray::fromStdString(done.substr(0, done.size() / 2)) +
                      "'\nexit 0"));
    const Recorded rec = runToEnd(options);
    QVERIFY(rec.finished);
    QCOMPARE(rec.protocolErrors.size(), 1);
    QVERIFY2(rec.protocolErrors[0].contains(QStringLiteral("cut off")),
             qPrintable(rec.protocolErrors[0]));
    // No done event: the run did not finish, whatever the exit status says.
    QCOMPARE(rec.exit.outcome, ProbeOutcome::crashed);
    QCOMPARE(rec.run.results.size(), std::size_t(1));
    QCOMPARE(onlySavedRun().status, ProbeRunStatus::failed);
}

void TestProbeRunner::malformedLines() {
    ProbeOptions options;
    options.probePath = writeProbe(
        *m_dir, fakeProbe({startLine("cpu", kTests), deviceLine("cpu"), "this is not JSON",
                           R"({"event":"result"})", R"({"event":"from_a_newer_probe","x":1})", "",
                           to_json_line(reluResult()), doneLine(1, 0)},
                          "exit 0"));
    const Recorded rec = runToEnd(options);
    QVERIFY(rec.finished);
    // Two invalid lines, reported with their line numbers (3 and 4); the unknown event and the
    // blank line are ignored, as the protocol asks of readers.
    QCOMPARE(rec.protocolErrors.size(), 2);
    QVERIFY2(rec.protocolErrors[0].startsWith(QStringLiteral("line 3:")),
             qPrintable(rec.protocolErrors[0]));
    QVERIFY2(rec.protocolErrors[1].startsWith(QStringLiteral("line 4:")),
             qPrintable(rec.protocolErrors[1]));
    QCOMPARE(rec.exit.outcome, ProbeOutcome::ok);
    QCOMPARE(rec.run.results.size(), std::size_t(1));
    QCOMPARE(onlySavedRun().results.size(), std::size_t(1));
}

void TestProbeRunner::backendUnavailable() {
    const std::string message = "no CUDA device: cudaGetDeviceCount returned cudaErrorNoDevice";
    ProbeOptions options;
    options.probePath = writeProbe(*m_dir, fakeProbe({noCudaLine()}, "exit 3"));
    const Recorded rec = runToEnd(options);
    QVERIFY(rec.finished);
    QCOMPARE(rec.exit.outcome, ProbeOutcome::backendUnavailable);
    QCOMPARE(rec.exit.exitCode, std::optional<int>(3));
    QCOMPARE(rec.failure, QString::fromStdString(message));
    // Nothing started, so nothing is saved.
    QVERIFY(m_saver->workspace().list_probe_runs().empty());
    QVERIFY(!m_saver->runId());
}

void TestProbeRunner::notFound() {
    ProbeRunner runner;
    QSignalSpy failed(&runner, &ProbeRunner::failed);
    QSignalSpy finished(&runner, &ProbeRunner::finished);
    ProbeOptions options;
    options.probePath = m_dir->filePath(QStringLiteral("missing/tally-probe"));
    QVERIFY(runner.start(options));
    // Reported from the event loop, not from inside start().
    QCOMPARE(finished.count(), 0);
    QVERIFY(runner.isRunning());
    QVERIFY(!runner.start(options));  // one run at a time
    QVERIFY(finished.wait(5000));
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(options.probePath));
    QCOMPARE(finished.at(0).at(1).value<ProbeExit>().outcome, ProbeOutcome::notStarted);
    QVERIFY(!runner.isRunning());
}

void TestProbeRunner::failsToStart() {
    // Executable, but exec() fails: its interpreter does not exist.
    ProbeOptions options;
    options.probePath = writeProbe(*m_dir, "#!/nonexistent/interpreter\n");
    const Recorded rec = runToEnd(options);
    QVERIFY(rec.finished);
    QCOMPARE(rec.exit.outcome, ProbeOutcome::notStarted);
    QCOMPARE(rec.sequence, QStringList({"failed", "finished"}));
    QVERIFY2(rec.failure.contains(options.probePath), qPrintable(rec.failure));
    QVERIFY(m_saver->workspace().list_probe_runs().empty());
}

void TestProbeRunner::cancel() {
    ProbeOptions options;
    options.probePath = writeProbe(
        *m_dir, fakeProbe({startLine("cpu", kTests), deviceLine("cpu"), to_json_line(reluResult())},
                          "exec sleep 30"));
    ProbeRunner runner;
    m_saver->watch(&runner);
    QSignalSpy result(&runner, &ProbeRunner::resultAvailable);
    QSignalSpy failed(&runner, &ProbeRunner::failed);
    QSignalSpy finished(&runner, &ProbeRunner::finished);
    QVERIFY(runner.start(options));
    QVERIFY(result.wait(10000));
    QElapsedTimer clock;
    clock.start();
    runner.cancel();
    QCOMPARE(finished.count(), 0);  // finished() comes once the probe has exited
    QVERIFY(finished.wait(10000));
    QVERIFY(clock.elapsed() < 5000);
    QCOMPARE(finished.at(0).at(1).value<ProbeExit>().outcome, ProbeOutcome::cancelled);
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("cancelled")));
    QCOMPARE(finished.at(0).at(0).value<ProbeRun>().results.size(), std::size_t(1));
    const ProbeRunRecord run = onlySavedRun();
    QCOMPARE(run.status, ProbeRunStatus::failed);
    QCOMPARE(run.results.size(), std::size_t(1));
}

void TestProbeRunner::cancelKillsAProbeIgnoringSigterm() {
    ProbeOptions options;
    options.killGraceS = 0.3;
    // SIGTERM is ignored from the first line on, before anything is printed.
    options.probePath =
        writeProbe(*m_dir, fakeProbe({startLine("cpu", kTests), deviceLine("cpu")},
                                     "while true; do sleep 0.05; done", {.first = "trap '' TERM"}));
    ProbeRunner runner;
    QSignalSpy device(&runner, &ProbeRunner::deviceAvailable);
    QSignalSpy finished(&runner, &ProbeRunner::finished);
    QVERIFY(runner.start(options));
    QVERIFY(device.wait(10000));
    QElapsedTimer clock;
    clock.start();
    runner.cancel();
    QVERIFY(finished.wait(10000));
    // SIGTERM is ignored; SIGKILL follows after the 0.3 s grace.
    QVERIFY2(clock.elapsed() >= 250, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(finished.at(0).at(1).value<ProbeExit>().outcome, ProbeOutcome::cancelled);
}

void TestProbeRunner::realProbeOnCpu() {
    ProbeOptions options;
    options.probePath = QStringLiteral(TALLY_PROBE_PATH);
    options.backend = QStringLiteral("cpu");
    options.quick = true;
    options.tests = {QStringLiteral("relu"), QStringLiteral("dot")};
    // Short cases: this checks the plumbing, not the machine.
    options.extraArguments = {QStringLiteral("--time-limit-s"), QStringLiteral("0.1")};
    const Recorded rec = runToEnd(options, 60000);
    QVERIFY(rec.finished);
    QVERIFY2(rec.exit.outcome == ProbeOutcome::ok, qPrintable(rec.exit.reason));
    QVERIFY(rec.protocolErrors.isEmpty());
    QCOMPARE(rec.sequence.first(), QStringLiteral("started"));
    QCOMPARE(rec.sequence.last(), QStringLiteral("finished"));
    QCOMPARE(rec.sequence.count(QStringLiteral("result")), 2);

    const ProbeRunRecord run = onlySavedRun();
    QCOMPARE(run.status, ProbeRunStatus::ok);
    QCOMPARE(run.backend, std::string("cpu"));
    QVERIFY(!run.finished_at.empty());
    QCOMPARE(run.results.size(), std::size_t(2));
    QCOMPARE(run.results[0].test, std::string("relu"));
    QCOMPARE(run.results[1].test, std::string("dot"));
    for (const ProbeResultRecord& r : run.results) {
        QCOMPARE(r.status, ProbeResultStatus::passed);
        QVERIFY(r.validated);
        QVERIFY(r.flops_per_s && *r.flops_per_s > 0.0);
        // PROTOCOL.md: flops_per_s = flops / median_s.
        QVERIFY(std::abs(*r.flops_per_s - r.flops / *r.median_s) <= 1e-9 * *r.flops_per_s);
    }
}

QTEST_GUILESS_MAIN(TestProbeRunner)
#include "tst_probe_runner.moc"
