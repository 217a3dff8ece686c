// `tally probes import` as a user runs it: a run the built tally-probe recorded into a file
// goes into a workspace and `tally probes show --json` gives its results back as the file had
// them; the same file twice, and damaged files, are refused with nothing written; an
// nccl-tests log becomes a run whose measured profile carries the network figures.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "tests/cli_test_util.h"

using nlohmann::json;
using tally::test::Run;
using tally::test::run_tally;

namespace {

json parse(const QByteArray& bytes) {
    return json::parse(bytes.toStdString(), nullptr, false);
}

QByteArray read_file(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

}  // namespace

class TestCliProbeImport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void recordedRunRoundTrip();
    void sameFileTwiceIsRefused();
    void damagedFileWritesNothing();
    void standardInputIsAFile();
    void ncclTestsLogFeedsAMeasuredProfile();
    void wholeFileCompletesACutCopy();
    void removeARun();

private:
    QStringList db() const { return {QStringLiteral("--db"), m_db}; }
    QTemporaryDir m_dir;
    QString m_db;
    QString m_recorded;
};

void TestCliProbeImport::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("workspace.sqlite"));
    // A run recorded elsewhere: tally-probe's own output, saved to a file.
    QProcess probe;
    probe.setStandardOutputFile(m_dir.filePath(QStringLiteral("run.jsonl")));
    probe.start(QStringLiteral(TALLY_PROBE_PATH),
                {QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--quick"),
                 QStringLiteral("--tests"), QStringLiteral("relu,dot")});
    QVERIFY(probe.waitForFinished(120000));
    QCOMPARE(probe.exitCode(), 0);
    m_recorded = m_dir.filePath(QStringLiteral("run.jsonl"));
}

void TestCliProbeImport::recordedRunRoundTrip() {
    const Run imported = run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("import"),
                                               m_recorded, QStringLiteral("--json")} +
                                   db());
    QVERIFY2(imported.exit_code == 0, imported.err.constData());
    const json summary = parse(imported.out);
    QCOMPARE(summary["format"].get<std::string>(), std::string("tally-probe"));
    const std::int64_t id = summary["id"].get<std::int64_t>();

    // The file's own events, read by the test.
    std::vector<json> results;
    json start;
    for (const QByteArray& line : read_file(m_recorded).split('\n')) {
        if (line.trimmed().isEmpty()) {
            continue;
        }
        const json event = parse(line);
        if (event["event"] == "result") {
            results.push_back(event);
        } else if (event["event"] == "start") {
            start = event;
        }
    }
    QVERIFY(!results.empty());

    const Run shown = run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("show"),
                                            QString::number(id), QStringLiteral("--json")} +
                                db());
    QCOMPARE(shown.exit_code, 0);
    const json run = parse(shown.out);
    QCOMPARE(run["host"], start["host"]);
    QCOMPARE(run["started_at"], start["started_at"]);
    QCOMPARE(run["backend"].get<std::string>(), std::string("cpu"));
    QCOMPARE(run["status"].get<std::string>(), std::string("ok"));
    QCOMPARE(run["results"].size(), results.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
        const json& stored = run["results"][i];
        const json& event = results[i];
        for (const char* key :
             {"test", "dtype", "sizes", "status", "validated", "samples", "flops", "bytes",
              "flops_per_s", "bytes_per_s", "median_s", "min_s", "max_s", "stdrel"}) {
            QVERIFY2(stored[key] == event[key], key);
        }
        QCOMPARE(stored["variant"], event.value("variant", json("")));
    }
}

void TestCliProbeImport::sameFileTwiceIsRefused() {
    const QStringList args{QStringLiteral("probes"), QStringLiteral("import"), m_recorded};
    const Run first = run_tally(args + db());
    // Imported by the round trip already, or now: either way the next one is a repeat.
    const Run again = run_tally(args + db());
    QCOMPARE(again.exit_code, 2);
    QVERIFY2(again.err.contains("stored already as probe run 1"), again.err.constData());
    QVERIFY(again.err.contains("nothing was imported"));
    const Run list = run_tally(
        QStringList{QStringLiteral("probes"), QStringLiteral("list"), QStringLiteral("--json")} +
        db());
    QCOMPARE(parse(list.out).size(), std::size_t{1});
    Q_UNUSED(first);
}

void TestCliProbeImport::damagedFileWritesNothing() {
    QByteArray bytes = read_file(m_recorded);
    QList<QByteArray> lines = bytes.split('\n');
    QVERIFY(lines.size() > 4);
    lines[2] = lines[2].left(lines[2].size() / 2);  // line 3 cut in the middle
    const QString damaged = m_dir.filePath(QStringLiteral("damaged.jsonl"));
    write_file(damaged, lines.join('\n'));
    const QString fresh = m_dir.filePath(QStringLiteral("fresh.sqlite"));
    const Run r = run_tally({QStringLiteral("probes"), QStringLiteral("import"), damaged,
                             QStringLiteral("--db"), fresh});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("damaged.jsonl line 3"), r.err.constData());
    QVERIFY(r.err.contains("nothing was imported"));
    // The file is refused before the workspace is opened: none was created.
    QVERIFY(!QFile::exists(fresh));
    // A missing file names itself.
    const Run missing = run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("import"),
                                              m_dir.filePath(QStringLiteral("nope.jsonl"))} +
                                  db());
    QCOMPARE(missing.exit_code, 2);
    QVERIFY(missing.err.contains("nope.jsonl"));
    // A folder is no file: said so, as bad input (2), not as a failure of the workspace (1).
    const Run folder = run_tally(
        QStringList{QStringLiteral("probes"), QStringLiteral("import"), m_dir.path()} + db());
    QCOMPARE(folder.exit_code, 2);
    QVERIFY2(folder.err.contains("a file, not a folder"), folder.err.constData());
}

// A run piped from a remote machine (ssh gpu tally-probe ... | tally probes import -) is read from
// standard input as from its file.
void TestCliProbeImport::standardInputIsAFile() {
    const QString fresh = m_dir.filePath(QStringLiteral("stdin.sqlite"));
    const Run r =
        run_tally({QStringLiteral("probes"), QStringLiteral("import"), QStringLiteral("-"),
                   QStringLiteral("--db"), fresh, QStringLiteral("--json")},
                  read_file(m_recorded));
    QVERIFY2(r.exit_code == 0, r.err.constData());
    QCOMPARE(parse(r.out)["format"].get<std::string>(), std::string("tally-probe"));
}

void TestCliProbeImport::ncclTestsLogFeedsAMeasuredProfile() {
    const QString log =
        QStringLiteral(TALLY_SOURCE_DIR "/tests/data/nccl_tests/all_reduce_perf.log");
    const Run imported = run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("import"),
                                               log, QStringLiteral("--json")} +
                                   db());
    QVERIFY2(imported.exit_code == 0, imported.err.constData());
    const json summary = parse(imported.out);
    QCOMPARE(summary["format"].get<std::string>(), std::string("nccl-tests"));
    QCOMPARE(summary["host"].get<std::string>(), std::string("gpu-a,gpu-b"));
    QCOMPARE(summary["result_count"].get<int>(), 6);
    const std::int64_t id = summary["id"].get<std::int64_t>();
    const Run made = run_tally(QStringList{QStringLiteral("profiles"), QStringLiteral("add"),
                                           QStringLiteral("--from-run"), QString::number(id),
                                           QStringLiteral("--base"), QStringLiteral("h100-sxm"),
                                           QStringLiteral("--id"), QStringLiteral("cluster"),
                                           QStringLiteral("--name"), QStringLiteral("Cluster")} +
                               db());
    QVERIFY2(made.exit_code == 0, made.err.constData());
    const Run shown = run_tally(QStringList{QStringLiteral("profiles"), QStringLiteral("show"),
                                            QStringLiteral("cluster"), QStringLiteral("--json")} +
                                db());
    QCOMPARE(shown.exit_code, 0);
    const json p = parse(shown.out);
    // The two hosts' best all-reduce bus bandwidth: the 1 GiB in-place row, 81.34 GB/s.
    QCOMPARE(p["network"]["inter_node_bytes_per_s_per_direction"].get<double>(), 81.34e9);
    // `probes show` gives that bus bandwidth beside the algorithm bandwidth: the 1 GiB in-place
    // row, algbw 54.23 GB/s and busbw 81.34 GB/s, as printed in the log.
    const Run run = run_tally(
        QStringList{QStringLiteral("probes"), QStringLiteral("show"), QString::number(id)} + db());
    QCOMPARE(run.exit_code, 0);
    QVERIFY2(run.out.contains("bus bytes/s"), run.out.constData());
    QVERIFY2(QString::fromUtf8(run.out).contains(QRegularExpression(
                 QStringLiteral("all_reduce.in_place +fp32 +- +5.423e\\+10 +8.134e\\+10 "))),
             run.out.constData());
}

// The steps of a user who imported a cut copy first: `head -n 5 run.jsonl > cut.jsonl`, import
// it, then import the whole file.
void TestCliProbeImport::wholeFileCompletesACutCopy() {
    const QByteArray whole = read_file(m_recorded);
    const QList<QByteArray> lines = whole.split('\n');
    QVERIFY(lines.size() > 6);
    QByteArray cut;
    int cut_results = 0;  // the result events among the first 5 lines, counted here
    for (int i = 0; i < 5; ++i) {
        cut += lines[i] + '\n';
        cut_results += parse(lines[i])["event"] == "result" ? 1 : 0;
    }
    int whole_results = 0;
    for (const QByteArray& line : lines) {
        whole_results += !line.trimmed().isEmpty() && parse(line)["event"] == "result" ? 1 : 0;
    }
    QVERIFY(cut_results >= 1 && whole_results > cut_results);
    const QString cut_path = m_dir.filePath(QStringLiteral("cut.jsonl"));
    write_file(cut_path, cut);
    const QStringList ws{QStringLiteral("--db"), m_dir.filePath(QStringLiteral("cut.sqlite"))};

    const Run first = run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("import"),
                                            cut_path, QStringLiteral("--json")} +
                                ws);
    QVERIFY2(first.exit_code == 0, first.err.constData());
    QCOMPARE(parse(first.out)["status"].get<std::string>(), std::string("failed"));
    QCOMPARE(parse(first.out)["result_count"].get<int>(), cut_results);
    QVERIFY(parse(first.out)["replaced"].is_null());

    const Run second =
        run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("import"), m_recorded} + ws);
    QVERIFY2(second.exit_code == 0, second.err.constData());
    QVERIFY2(second.out.contains(QStringLiteral("this file completes probe run 1, which was "
                                                "stored with %1 results (status failed)")
                                     .arg(cut_results)
                                     .toUtf8()),
             second.out.constData());
    const json runs = parse(run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("list"),
                                                  QStringLiteral("--json")} +
                                      ws)
                                .out);
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0]["id"].get<int>(), 1);
    QCOMPARE(runs[0]["status"].get<std::string>(), std::string("ok"));
    QCOMPARE(runs[0]["result_count"].get<int>(), whole_results);

    // Complete now: the whole file a third time is refused, nothing written.
    const Run third =
        run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("import"), m_recorded} + ws);
    QCOMPARE(third.exit_code, 2);
    QVERIFY2(third.err.contains("stored already as probe run 1"), third.err.constData());
}

void TestCliProbeImport::removeARun() {
    const QStringList ws{QStringLiteral("--db"), m_dir.filePath(QStringLiteral("rm.sqlite"))};
    // A run with a stream copy (8e6 bytes at 1e10 bytes/s), something a profile is made of.
    const QString file = m_dir.filePath(QStringLiteral("copy.jsonl"));
    write_file(
        file,
        R"({"event":"start","protocol":1,"tool":"tally-probe","version":"0.1.0","backend":"cpu",)"
        R"("host":"lab","started_at":"2026-01-02T03:04:05Z","quick":true,"tests":["stream"]})"
        "\n"
        R"({"event":"device","backend":"cpu","name":"Lab CPU"})"
        "\n"
        R"({"event":"result","test":"stream","variant":"copy","dtype":"fp32",)"
        R"("sizes":{"elements":1000000},"bytes":8000000,"bytes_per_s":1e10,"median_s":0.0008,)"
        R"("min_s":0.0008,"max_s":0.0008,"samples":5,"status":"passed","validated":true})"
        "\n"
        R"({"event":"done","status":"ok","finished_at":"2026-01-02T03:04:09Z","passed":1,)"
        R"("waived":0,"failed":0,"elapsed_s":4})"
        "\n");
    const Run imported =
        run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("import"), file} + ws);
    QVERIFY2(imported.exit_code == 0, imported.err.constData());
    const Run made = run_tally(QStringList{QStringLiteral("profiles"), QStringLiteral("add"),
                                           QStringLiteral("--from-run"), QStringLiteral("1"),
                                           QStringLiteral("--base"), QStringLiteral("h100-sxm"),
                                           QStringLiteral("--id"), QStringLiteral("lab-cpu"),
                                           QStringLiteral("--name"), QStringLiteral("Lab CPU")} +
                               ws);
    QVERIFY2(made.exit_code == 0, made.err.constData());
    const QStringList rm{QStringLiteral("probes"), QStringLiteral("rm"), QStringLiteral("1")};
    // A measured profile was made from it: refused, naming the profile.
    const Run refused = run_tally(rm + ws);
    QCOMPARE(refused.exit_code, 2);
    QVERIFY2(refused.err.contains("probe run: got 1") &&
                 refused.err.contains("run 1 made lab-cpu (\"Lab CPU\"); remove those first"),
             refused.err.constData());
    QCOMPARE(run_tally(QStringList{QStringLiteral("profiles"), QStringLiteral("rm"),
                                   QStringLiteral("lab-cpu")} +
                       ws)
                 .exit_code,
             0);
    const Run removed = run_tally(rm + ws);
    QVERIFY2(removed.exit_code == 0, removed.err.constData());
    QVERIFY2(removed.out.startsWith("removed probe run 1 (cpu on lab, started "
                                    "2026-01-02T03:04:05Z, ok, 1 results)"),
             removed.out.constData());
    const Run list = run_tally(
        QStringList{QStringLiteral("probes"), QStringLiteral("list"), QStringLiteral("--json")} +
        ws);
    QCOMPARE(parse(list.out).size(), std::size_t{0});
    // Gone: the id is refused as one no stored run has.
    const Run again = run_tally(rm + ws);
    QCOMPARE(again.exit_code, 2);
    QVERIFY2(again.err.contains("probe run: got 1"), again.err.constData());
}

QTEST_MAIN(TestCliProbeImport)
#include "tst_cli_probe_import.moc"
