// The probe on another machine: ProbeRunner and `tally probe --remote HOST` through a stand-in
// ssh (a bash script that records its arguments and runs the command it was given here, as the
// remote shell would), the command line handed to the remote shell, the events streaming back
// while the remote probe still runs, and what ssh's own failures read as.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "tests/cli_test_util.h"
#include "tests/fake_probe_util.h"
#include "ui/session/probe_process.h"

using namespace tally;
using namespace tally::test;
using nlohmann::json;

namespace {

// A stand-in for ssh: writes its arguments, one a line, to $TALLY_TEST_SSH_ARGS; skips the
// "-o OPTION" pairs and the destination; then runs the one remaining argument, the remote
// command, with /bin/sh here, exiting with its status (as ssh does with the remote one's).
constexpr const char* kFakeSsh = R"(#!/bin/bash
printf '%s\n' "$@" > "$TALLY_TEST_SSH_ARGS"
while [ "$1" = "-o" ]; do shift 2; done
if [ "$1" = "unreachable" ]; then
  echo "ssh: connect to host unreachable port 22: Connection refused" >&2
  exit 255
fi
shift
exec /bin/sh -c "$1"
)";

QStringList lines_of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QStringList out = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    if (!out.isEmpty() && out.last().isEmpty()) {
        out.removeLast();
    }
    return out;
}

}  // namespace

class TestProbeRemote : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void shellQuoting_data();
    void shellQuoting();
    void commandForARemoteHost();
    void refusesADestinationThatLooksLikeAnOption();
    void eventsStreamWhileTheRemoteProbeRuns();
    void sshFailures_data();
    void sshFailures();
    void cliRemoteRunIsSaved();

private:
    QTemporaryDir m_dir;
    QString m_argsFile;
};

void TestProbeRemote::initTestCase() {
    QVERIFY(m_dir.isValid());
    const QString ssh = writeProbe(m_dir, kFakeSsh);
    m_argsFile = m_dir.filePath(QStringLiteral("ssh-args.txt"));
    qputenv("TALLY_SSH", ssh.toUtf8());
    qputenv("TALLY_TEST_SSH_ARGS", m_argsFile.toUtf8());
}

void TestProbeRemote::shellQuoting_data() {
    QTest::addColumn<QString>("word");
    QTest::addColumn<QString>("quoted");
    QTest::newRow("plain option") << "--backend"
                                  << "--backend";
    QTest::newRow("comma list") << "relu,dot"
                                << "relu,dot";
    QTest::newRow("home-relative path") << "~/bin/tally-probe"
                                        << "~/bin/tally-probe";
    QTest::newRow("space") << "/opt/my probe"
                           << "'/opt/my probe'";
    QTest::newRow("dollar") << "$HOME/x"
                            << "'$HOME/x'";
    QTest::newRow("semicolon") << "x;rm -rf /"
                               << "'x;rm -rf /'";
    // A quote ends the quoted part, adds an escaped quote, and starts again: 'it'\''s'.
    QTest::newRow("single quote") << "it's"
                                  << "'it'\\''s'";
    QTest::newRow("empty") << ""
                           << "''";
    QTest::newRow("tilde not at the start") << "a~b"
                                            << "'a~b'";
}

void TestProbeRemote::shellQuoting() {
    QFETCH(QString, word);
    QFETCH(QString, quoted);
    QCOMPARE(ui::shellQuoted(word), quoted);
    // And a real shell reads it back as the one word.
    QProcess sh;
    sh.start(QStringLiteral("/bin/sh"),
             {QStringLiteral("-c"), QStringLiteral("printf '%s' ") + ui::shellQuoted(word)});
    QVERIFY(sh.waitForFinished(10000));
    if (!word.startsWith(QLatin1Char('~'))) {
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), word);
    }
}

void TestProbeRemote::commandForARemoteHost() {
    ui::ProbeOptions options;
    options.backend = QStringLiteral("cuda");
    options.quick = true;
    options.tests = QStringList{QStringLiteral("matmul"), QStringLiteral("relu")};
    options.remoteHost = QStringLiteral("me@gpu-box");
    const ui::ProbeCommand c = ui::probeCommand(options);
    QCOMPARE(c.program, QString::fromUtf8(qgetenv("TALLY_SSH")));
    QCOMPARE(
        c.arguments,
        (QStringList{QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                     QStringLiteral("me@gpu-box"),
                     QStringLiteral("tally-probe --backend cuda --quick --tests matmul,relu")}));
    options.remoteProbe = QStringLiteral("/opt/tally tools/tally-probe");
    QCOMPARE(ui::probeCommand(options).arguments.last(),
             QStringLiteral("'/opt/tally tools/tally-probe' --backend cuda --quick --tests "
                            "matmul,relu"));
    // Without TALLY_SSH the client is ssh.
    const QByteArray saved = qgetenv("TALLY_SSH");
    qunsetenv("TALLY_SSH");
    QCOMPARE(ui::sshProgram(), QStringLiteral("ssh"));
    qputenv("TALLY_SSH", saved);
}

void TestProbeRemote::refusesADestinationThatLooksLikeAnOption() {
    ui::ProbeOptions options;
    options.remoteHost = QStringLiteral("-oProxyCommand=evil");
    const ui::ProbeCommand c = ui::probeCommand(options);
    QVERIFY(c.program.isEmpty());
    QVERIFY(c.error.contains(QStringLiteral("not an ssh destination")));
}

void TestProbeRemote::eventsStreamWhileTheRemoteProbeRuns() {
    // The remote probe prints its start, device and one result, then measures for 3 s more
    // before done: the result must arrive while it still runs.
    const QString remoteProbe = writeProbe(
        m_dir, fakeProbe({startLine("cpu", {"relu"}), deviceLine("cpu"),
                          probe::to_json_line(reluResult())},
                         "sleep 3\necho '" + QByteArray::fromStdString(doneLine(1, 0)) + "'"));
    ui::ProbeRunner runner;
    bool runningAtResult = false;
    connect(&runner, &ui::ProbeRunner::resultAvailable, this,
            [&] { runningAtResult = runner.isRunning(); });
    QSignalSpy finished(&runner, &ui::ProbeRunner::finished);
    ui::ProbeOptions options;
    options.backend = QStringLiteral("cpu");
    options.remoteHost = QStringLiteral("gpu-box");
    options.remoteProbe = remoteProbe;
    QVERIFY(runner.start(options));
    QVERIFY(finished.wait(20000));
    QVERIFY(runningAtResult);
    const auto exit = finished.at(0).at(1).value<ui::ProbeExit>();
    QCOMPARE(exit.outcome, ui::ProbeOutcome::ok);
    QCOMPARE(runner.run().results.size(), std::size_t{1});
    // What ssh was given: the options, the destination, and one command for the remote shell.
    const QStringList args = lines_of(m_argsFile);
    QCOMPARE(args.size(), 4);
    QCOMPARE(args[0], QStringLiteral("-o"));
    QCOMPARE(args[1], QStringLiteral("BatchMode=yes"));
    QCOMPARE(args[2], QStringLiteral("gpu-box"));
    QCOMPARE(args[3], remoteProbe + QStringLiteral(" --backend cpu"));
}

void TestProbeRemote::sshFailures_data() {
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("remoteProbe");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no connection: ssh exits 255") << "unreachable"
                                                  << ""
                                                  << "could not run the probe on unreachable";
    QTest::newRow("no tally-probe there: the shell exits 127") << "gpu-box"
                                                               << "/nonexistent/tally-probe"
                                                               << "was not found on gpu-box";
}

void TestProbeRemote::sshFailures() {
    QFETCH(QString, host);
    QFETCH(QString, remoteProbe);
    QFETCH(QString, expected);
    ui::ProbeRunner runner;
    QSignalSpy finished(&runner, &ui::ProbeRunner::finished);
    ui::ProbeOptions options;
    options.remoteHost = host;
    options.remoteProbe = remoteProbe;
    QVERIFY(runner.start(options));
    QVERIFY(finished.wait(20000));
    const auto exit = finished.at(0).at(1).value<ui::ProbeExit>();
    QCOMPARE(exit.outcome, ui::ProbeOutcome::notStarted);
    QVERIFY2(exit.reason.contains(expected), qPrintable(exit.reason));
}

void TestProbeRemote::cliRemoteRunIsSaved() {
    // The real probe, "remote" through the stand-in ssh: saved like a local run.
    const QString db = m_dir.filePath(QStringLiteral("remote.sqlite"));
    const Run r =
        run_tally({QStringLiteral("probe"), QStringLiteral("--remote"), QStringLiteral("gpu-box"),
                   QStringLiteral("--remote-probe"), QStringLiteral(TALLY_PROBE_PATH),
                   QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--quick"),
                   QStringLiteral("--tests"), QStringLiteral("relu"), QStringLiteral("--db"), db,
                   QStringLiteral("--json")});
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const json out = json::parse(r.out.toStdString());
    QVERIFY(out["run_id"].is_number_integer());
    QVERIFY(!out["results"].empty());
    const QStringList args = lines_of(m_argsFile);
    QCOMPARE(args.value(2), QStringLiteral("gpu-box"));
    QCOMPARE(args.value(3), QStringLiteral(TALLY_PROBE_PATH) +
                                QStringLiteral(" --backend cpu --quick --tests relu"));
    const Run list = run_tally({QStringLiteral("probes"), QStringLiteral("list"),
                                QStringLiteral("--json"), QStringLiteral("--db"), db});
    const json runs = json::parse(list.out.toStdString());
    QCOMPARE(runs.size(), std::size_t{1});
    // The host is the one the probe's start event named (here: this machine's own name).
    QCOMPARE(runs[0]["host"], out["host"]);
    QVERIFY(!runs[0]["host"].get<std::string>().empty());
    // --probe is this machine's probe: it makes no sense with --remote.
    const Run both = run_tally({QStringLiteral("probe"), QStringLiteral("--remote"),
                                QStringLiteral("gpu-box"), QStringLiteral("--probe"),
                                QStringLiteral(TALLY_PROBE_PATH), QStringLiteral("--db"), db});
    QCOMPARE(both.exit_code, 2);
}

QTEST_GUILESS_MAIN(TestProbeRemote)
#include "tst_probe_remote.moc"
