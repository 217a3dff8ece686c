// `tally probe` as a user runs it: the built tally starting the built tally-probe (CPU backend,
// two short tests) against a workspace file of the test's own, then `tally probes` and `tally
// roofline --probe-run` reading the saved run back; the CUDA backend on a machine without a GPU;
// bad input; and fake probes (bash scripts) that crash, hang, or get interrupted.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli_test_util.h"

using nlohmann::json;
using tally::test::Run;
using tally::test::run_tally;

namespace {

json parse(const QByteArray& bytes) {
    return json::parse(bytes.toStdString(), nullptr, false);
}

// The shipped catalog, read by the test itself.
json catalog_entry(const std::string& id) {
    std::ifstream in(TALLY_SOURCE_DIR "/resources/hardware/catalog.json");
    const json catalog = json::parse(in);
    for (const json& item : catalog["hardware"]) {
        if (item["id"] == id) {
            return item;
        }
    }
    return json();
}

bool near(double actual, double expected, double relative = 1e-9) {
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

// Protocol lines written out by hand (gpu_probe/protocol/PROTOCOL.md).
const QByteArray kStart =
    R"({"event":"start","protocol":1,"tool":"tally-probe","version":"0.1.0","backend":"cpu",)"
    R"("host":"fake","started_at":"2026-01-02T03:04:05Z","quick":true,"tests":["relu"]})";
const QByteArray kDevice = R"({"event":"device","backend":"cpu","name":"Fake CPU"})";
// 1e6 FLOPs and 8e6 bytes in 1 ms: 1e9 FLOP/s, 8e9 bytes/s.
const QByteArray kResult =
    R"({"event":"result","test":"relu","dtype":"fp32","sizes":{"elements":1000000},)"
    R"("flops":1000000,"bytes":8000000,"flops_per_s":1e9,"bytes_per_s":8e9,"median_s":0.001,)"
    R"("min_s":0.001,"max_s":0.001,"samples":5,"status":"passed","validated":true})";

}  // namespace

class TestCliProbe : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cpuRunIsSavedAndReadBack();
    void cudaWithoutGpu();
    void badInput_data();
    void badInput();
    void crashAndHangExitOne_data();
    void crashAndHangExitOne();
    void interruptFinishesTheRun();
    void killedRecorderRunIsFailed();
    void closedOutputFinishesTheRun();
    void measuredProfileHasTheMeasuredRoofs();
    void planGemmsMeasuredAndUsed();
    void planBadInput_data();
    void planBadInput();

private:
    // A bash script printing `lines` (start, device, one relu result by default), then `then`.
    QString fakeProbe(const QByteArray& then,
                      const QByteArray& lines = kStart + '\n' + kDevice + '\n' + kResult);
    json savedRuns();
    QStringList db() const { return {QStringLiteral("--db"), m_db}; }

    QTemporaryDir m_dir;
    QString m_db;
    int m_case = 0;
};

void TestCliProbe::init() {
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("ws-%1.sqlite").arg(++m_case));
}

QString TestCliProbe::fakeProbe(const QByteArray& then, const QByteArray& lines) {
    const QString path = m_dir.filePath(QStringLiteral("fake-%1.sh").arg(m_case));
    QFile f(path);
    const QByteArray text = "#!/bin/bash\ncat <<'EOF'\n" + lines + "\nEOF\n" + then + '\n';
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) {
        qFatal("cannot write %s", qPrintable(path));
    }
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

json TestCliProbe::savedRuns() {
    const Run list = run_tally(
        QStringList{QStringLiteral("probes"), QStringLiteral("list"), QStringLiteral("--json")} +
        db());
    if (list.exit_code != 0) {
        qWarning("probes list: %s", list.err.constData());
    }
    return parse(list.out);
}

void TestCliProbe::cpuRunIsSavedAndReadBack() {
    const Run r = run_tally(QStringList{QStringLiteral("probe"), QStringLiteral("--backend"),
                                        QStringLiteral("cpu"), QStringLiteral("--quick"),
                                        QStringLiteral("--tests"), QStringLiteral("relu,dot"),
                                        QStringLiteral("--profile"), QStringLiteral("h100-sxm"),
                                        QStringLiteral("--json")} +
                            db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    // Progress went to stderr, the one JSON document to stdout.
    QVERIFY2(r.err.contains("[1/2]") && r.err.contains("[2/2]"), r.err.constData());
    const json out = parse(r.out);
    QVERIFY2(out.is_object(), r.out.constData());
    QCOMPARE(out["outcome"], "ok");
    QCOMPARE(out["status"], "ok");
    QCOMPARE(out["backend"], "cpu");
    QCOMPARE(out["profile"]["id"], "h100-sxm");
    const std::int64_t run_id = out["run_id"].get<std::int64_t>();
    const json& results = out["results"];
    QCOMPARE(results.size(), std::size_t(2));
    QCOMPARE(results[0]["test"], "relu");
    QCOMPARE(results[1]["test"], "dot");

    // Fractions of the H100 SXM's promised figures, from the catalog as the test reads it:
    // fp32 dense peak 67e12 FLOP/s, bandwidth 3.35e12 bytes/s.
    const json h100 = catalog_entry("h100-sxm");
    const double fp32_peak = h100["peak_flops_per_s"]["fp32"].get<double>();
    const double bandwidth = h100["bandwidth_bytes_per_s"].get<double>();
    for (const json& res : results) {
        QCOMPARE(res["status"], "passed");
        QCOMPARE(res["validated"], true);
        QVERIFY(res["result_id"].is_number_integer());
        QVERIFY(near(res["fraction_of_peak"].get<double>(),
                     res["flops_per_s"].get<double>() / fp32_peak));
        QVERIFY(near(res["fraction_of_bandwidth"].get<double>(),
                     res["bytes_per_s"].get<double>() / bandwidth));
    }

    // The measured points sit at the protocol's intensities (PROTOCOL.md, "Counting"), n from the
    // sizes: relu n FLOPs over 2·n·4 bytes = 1/8; dot (2n - 1) FLOPs over (2n + 1)·4 bytes.
    const json& points = out["measured"]["points"];
    QCOMPARE(points.size(), std::size_t(2));
    QCOMPARE(points[0]["test"], "relu");
    QCOMPARE(points[0]["kind"], "seed_op");
    QVERIFY(near(points[0]["intensity_flops_per_byte"].get<double>(), 0.125));
    const double n = results[1]["sizes"]["elements"].get<double>();
    QVERIFY(near(points[1]["intensity_flops_per_byte"].get<double>(),
                 (2.0 * n - 1.0) / ((2.0 * n + 1.0) * 4.0)));
    // No matmul and no copy in this run: no measured roofs.
    QVERIFY(out["measured"]["peaks"].empty());
    QVERIFY(out["measured"]["bandwidth"].is_null());

    // `tally probes list` and `show` read the same run back from the file.
    const json runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0]["id"].get<std::int64_t>(), run_id);
    QCOMPARE(runs[0]["status"], "ok");
    QCOMPARE(runs[0]["backend"], "cpu");
    QCOMPARE(runs[0]["result_count"], 2);
    QVERIFY(!runs[0]["finished_at"].is_null());
    const Run show = run_tally(QStringList{QStringLiteral("probes"), QStringLiteral("show"),
                                           QString::number(run_id), QStringLiteral("--json")} +
                               db());
    QCOMPARE(show.exit_code, 0);
    const json shown = parse(show.out);
    QCOMPARE(shown["results"].size(), std::size_t(2));
    QCOMPARE(shown["results"][0]["test"], "relu");
    QCOMPARE(shown["results"][0]["result_id"], results[0]["result_id"]);
    QCOMPARE(shown["results"][0]["flops_per_s"], results[0]["flops_per_s"]);
    QCOMPARE(shown["results"][1]["validated"], true);
    // One shape of a result (gpu_probe/protocol/PROTOCOL.md, "Results in the app"): the stored one
    // has every field of the live one but what only a live run knows (its note and fractions), with
    // the same values.
    for (std::size_t i = 0; i < 2; ++i) {
        for (const auto& [key, value] : shown["results"][i].items()) {
            QVERIFY2(results[i].contains(key), key.c_str());
            QVERIFY2(results[i][key] == value, key.c_str());
        }
        QCOMPARE(shown["results"][i].size() + 4, results[i].size());  // + note, 3 fractions
    }

    // `tally roofline --probe-run` puts the same points beside the spec's GPU (h100-sxm).
    const Run roof = run_tally(
        QStringList{QStringLiteral("roofline"),
                    QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/roofline-seed.json"),
                    QStringLiteral("--probe-run"), QString::number(run_id),
                    QStringLiteral("--json")} +
        db());
    QVERIFY2(roof.exit_code == 0, roof.err.constData());
    const json measured = parse(roof.out)["measured"];
    QCOMPARE(measured["probe_run"].get<std::int64_t>(), run_id);
    QCOMPARE(measured["points"].size(), std::size_t(2));
    QVERIFY(near(measured["points"][0]["fraction_of_peak"].get<double>(),
                 results[0]["flops_per_s"].get<double>() / fp32_peak));
    // And as text.
    const Run roof_text = run_tally(
        QStringList{QStringLiteral("roofline"),
                    QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/roofline-seed.json"),
                    QStringLiteral("--probe-run"), QString::number(run_id)} +
        db());
    QCOMPARE(roof_text.exit_code, 0);
    QVERIFY(roof_text.out.contains("Measured points"));
}

void TestCliProbe::cudaWithoutGpu() {
    const Run r = run_tally(QStringList{QStringLiteral("probe"), QStringLiteral("--backend"),
                                        QStringLiteral("cuda"), QStringLiteral("--quick"),
                                        QStringLiteral("--tests"), QStringLiteral("relu")} +
                            db());
    if (r.exit_code == 0) {
        QSKIP("a CUDA device answered on this machine; the no-GPU message cannot be seen here");
    }
    QCOMPARE(r.exit_code, 1);
    QVERIFY(r.out.isEmpty());
    // One line that says what happened and what to do instead.
    const QList<QByteArray> lines = r.err.trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains("tally probe --backend cpu"), r.err.constData());
    QVERIFY2(lines[0].contains("CUDA"), r.err.constData());
    QVERIFY(savedRuns().empty());
}

void TestCliProbe::badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("mentions");
    QTest::newRow("unknown backend")
        << QStringList{QStringLiteral("--backend"), QStringLiteral("tpu")} << QByteArray("tpu");
    QTest::newRow("unknown test (the probe refuses it)")
        << QStringList{QStringLiteral("--backend"), QStringLiteral("cpu"),
                       QStringLiteral("--tests"), QStringLiteral("nope")}
        << QByteArray("nope");
    QTest::newRow("unknown profile")
        << QStringList{QStringLiteral("--backend"), QStringLiteral("cpu"),
                       QStringLiteral("--profile"), QStringLiteral("no-such-gpu")}
        << QByteArray("--profile");
    QTest::newRow("timeout not positive")
        << QStringList{QStringLiteral("--timeout-s"), QStringLiteral("0")}
        << QByteArray("--timeout-s");
}

void TestCliProbe::badInput() {
    QFETCH(QStringList, args);
    QFETCH(QByteArray, mentions);
    const Run r = run_tally(QStringList{QStringLiteral("probe")} + args + db());
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(mentions), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestCliProbe::crashAndHangExitOne_data() {
    QTest::addColumn<QByteArray>("then");
    QTest::addColumn<QString>("outcome");
    QTest::newRow("crash") << QByteArray("kill -SEGV $$") << QStringLiteral("crashed");
    QTest::newRow("hang") << QByteArray("exec sleep 30") << QStringLiteral("timed_out");
}

void TestCliProbe::crashAndHangExitOne() {
    QFETCH(QByteArray, then);
    QFETCH(QString, outcome);
    const Run r = run_tally(QStringList{QStringLiteral("probe"), QStringLiteral("--probe"),
                                        fakeProbe(then), QStringLiteral("--timeout-s"),
                                        QStringLiteral("0.5"), QStringLiteral("--json")} +
                            db());
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("tally: error:"), r.err.constData());
    const json out = parse(r.out);
    QCOMPARE(out["outcome"], outcome.toStdString());
    QCOMPARE(out["status"], "failed");
    // The result that arrived before the end is printed and saved.
    QCOMPARE(out["results"].size(), std::size_t(1));
    // 1e9 FLOP/s against no profile ("Fake CPU" matches no catalog entry): no fractions.
    QVERIFY(out["results"][0]["fraction_of_peak"].is_null());
    const json runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0]["status"], "failed");
    QCOMPARE(runs[0]["result_count"], 1);
}

void TestCliProbe::interruptFinishesTheRun() {
    QProcess tally;
    tally.start(QStringLiteral(TALLY_BIN),
                QStringList{QStringLiteral("probe"), QStringLiteral("--probe"),
                            fakeProbe("exec sleep 30")} +
                    db());
    QVERIFY(tally.waitForStarted(10000));
    // Wait until the result is in (its row is printed on stdout), then interrupt as a user would.
    QByteArray out;
    QElapsedTimer clock;
    clock.start();
    while (!out.contains("relu") && clock.elapsed() < 20000) {
        tally.waitForReadyRead(200);
        out += tally.readAllStandardOutput();
    }
    QVERIFY2(out.contains("relu"), out.constData());
    tally.terminate();  // SIGTERM, handled like Ctrl-C's SIGINT
    QVERIFY(tally.waitForFinished(20000));
    QCOMPARE(tally.exitStatus(), QProcess::NormalExit);
    QCOMPARE(tally.exitCode(), 1);
    QVERIFY(tally.readAllStandardError().contains("interrupted"));
    // The run is finished as failed, not left running.
    const json runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0]["status"], "failed");
    QCOMPARE(runs[0]["result_count"], 1);
}

// SIGKILL gives tally no chance to finish the run: the next look finds its recorder gone and
// stores the run as failed; a profile is made from it only when asked for.
void TestCliProbe::killedRecorderRunIsFailed() {
    // A stream copy of 8e6 bytes at 1e10 bytes/s: a result a measured profile takes its
    // bandwidth from.
    const QByteArray copy =
        R"({"event":"result","test":"stream","variant":"copy","dtype":"fp32",)"
        R"("sizes":{"elements":1000000},"bytes":8000000,"bytes_per_s":1e10,"median_s":0.0008,)"
        R"("min_s":0.0008,"max_s":0.0008,"samples":5,"status":"passed","validated":true})";
    QProcess tally;
    tally.start(QStringLiteral(TALLY_BIN),
                QStringList{QStringLiteral("probe"), QStringLiteral("--probe"),
                            fakeProbe("exec sleep 5", kStart + '\n' + kDevice + '\n' + copy)} +
                    db());
    QVERIFY(tally.waitForStarted(10000));
    QByteArray out;
    QElapsedTimer clock;
    clock.start();
    while (!out.contains("copy") && clock.elapsed() < 20000) {
        tally.waitForReadyRead(200);
        out += tally.readAllStandardOutput();
    }
    QVERIFY2(out.contains("copy"), out.constData());
    tally.kill();
    QVERIFY(tally.waitForFinished(20000));
    QCOMPARE(tally.exitStatus(), QProcess::CrashExit);
    const json runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0]["status"], "failed");
    QCOMPARE(runs[0]["result_count"], 1);
    QVERIFY(runs[0]["finished_at"].is_null());

    const QStringList add{QStringLiteral("profiles"),   QStringLiteral("add"),
                          QStringLiteral("--from-run"), QStringLiteral("1"),
                          QStringLiteral("--base"),     QStringLiteral("h100-sxm"),
                          QStringLiteral("--id"),       QStringLiteral("cut"),
                          QStringLiteral("--name"),     QStringLiteral("Cut")};
    const Run refused = run_tally(add + db());
    QCOMPARE(refused.exit_code, 2);
    QVERIFY2(refused.err.contains("--from-run: got 1") &&
                 refused.err.contains("probe run 1 (cpu on fake, started 2026-01-02T03:04:05Z) "
                                      "is failed, with 1 results") &&
                 refused.err.contains("--allow-failed-run"),
             refused.err.constData());
    const Run allowed = run_tally(add + QStringList{QStringLiteral("--allow-failed-run")} + db());
    QVERIFY2(allowed.exit_code == 0, allowed.err.constData());
    // Its bandwidth is the copy's 1e10 bytes/s.
    const Run shown = run_tally(QStringList{QStringLiteral("profiles"), QStringLiteral("show"),
                                            QStringLiteral("cut"), QStringLiteral("--json")} +
                                db());
    QCOMPARE(parse(shown.out)["bandwidth_bytes_per_s"].get<double>(), 1e10);
}

void TestCliProbe::closedOutputFinishesTheRun() {
    // `tally probe | head -n 2`: the reader goes away while the probe measures. The next line
    // tally writes raises SIGPIPE, which cancels the probe like Ctrl-C instead of killing tally,
    // so the run is finished (as failed) with the result that arrived, not left running. A second
    // result comes a second after the first, so tally writes into the closed pipe.
    const QString probe = fakeProbe("sleep 1\ncat <<'EOF'\n" + kResult + "\nEOF\nexec sleep 30");
    QStringList command{QStringLiteral(TALLY_BIN), QStringLiteral("probe"),
                        QStringLiteral("--probe"), probe};
    command += db();
    QProcess shell;
    shell.start(QStringLiteral("/bin/sh"),
                QStringList{QStringLiteral("-c"), QStringLiteral("\"$@\" | head -n 2"),
                            QStringLiteral("sh")} +
                    command);
    QVERIFY(shell.waitForFinished(20000));
    QVERIFY(shell.readAllStandardOutput().contains("relu"));
    QVERIFY(shell.readAllStandardError().contains("interrupted"));
    const json runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0]["status"], "failed");
    QVERIFY(runs[0]["result_count"] >= 1);
}

void TestCliProbe::measuredProfileHasTheMeasuredRoofs() {
    // A run with a STREAM copy at 10 GB/s and a 256^3 fp32 matmul at 50 GFLOP/s (2·256^3 =
    // 33554432 FLOPs, 3·256^2·4 = 786432 bytes), both validated.
    const QByteArray copy =
        R"({"event":"result","test":"stream","variant":"copy","dtype":"fp64",)"
        R"("sizes":{"elements":1000000},"flops":0,"bytes":16000000,"bytes_per_s":1e10,)"
        R"("median_s":0.0016,"min_s":0.0016,"max_s":0.0016,"samples":5,"status":"passed",)"
        R"("validated":true})";
    const QByteArray matmul =
        R"({"event":"result","test":"matmul","variant":"blas","dtype":"fp32",)"
        R"("sizes":{"m":256,"k":256,"n":256},"flops":33554432,"bytes":786432,)"
        R"("flops_per_s":5e10,"bytes_per_s":1171875000,"median_s":0.00067108864,)"
        R"("min_s":0.00067108864,"max_s":0.00067108864,"samples":5,"status":"passed",)"
        R"("validated":true})";
    const QByteArray device =
        R"({"event":"device","backend":"cpu","name":"Fake CPU","memory_bytes":16000000000})";
    const QByteArray done =
        R"({"event":"done","status":"ok","finished_at":"2026-01-02T03:04:09Z","passed":2,)"
        R"("waived":0,"failed":0})";
    const Run r = run_tally(QStringList{QStringLiteral("probe"), QStringLiteral("--probe"),
                                        fakeProbe("exit 0", kStart + '\n' + device + '\n' + copy +
                                                                '\n' + matmul + '\n' + done),
                                        QStringLiteral("--json")} +
                            db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const json out = parse(r.out);
    // The measured fp32 roof: 50e9 FLOP/s over 10e9 bytes/s, ridge 5 FLOP/byte.
    const json& roofs = out["measured"]["roofs"];
    QCOMPARE(roofs.size(), std::size_t(1));
    QCOMPARE(roofs[0]["dtype"], "fp32");
    QCOMPARE(roofs[0]["peak_flops_per_s"].get<double>(), 5e10);
    QCOMPARE(roofs[0]["bandwidth_bytes_per_s"].get<double>(), 1e10);
    QCOMPARE(roofs[0]["ridge_flops_per_byte"].get<double>(), 5.0);

    // The profile made from the run has the same figures: the stream copy is the device-memory
    // bandwidth a measured profile reads (best_probe_results()).
    const QString run_id = QString::number(out["run_id"].get<std::int64_t>());
    const Run add = run_tally(QStringList{QStringLiteral("profiles"), QStringLiteral("add"),
                                          QStringLiteral("--from-run"), run_id,
                                          QStringLiteral("--id"), QStringLiteral("fake-cpu"),
                                          QStringLiteral("--name"), QStringLiteral("Fake CPU")} +
                              db());
    QVERIFY2(add.exit_code == 0, add.err.constData());
    const Run show = run_tally(QStringList{QStringLiteral("profiles"), QStringLiteral("show"),
                                           QStringLiteral("fake-cpu"), QStringLiteral("--json")} +
                               db());
    const json profile = parse(show.out);
    QCOMPARE(profile["bandwidth_bytes_per_s"].get<double>(), 1e10);
    QCOMPARE(profile["peak_flops_per_s"]["fp32"].get<double>(), 5e10);
    QCOMPARE(profile["memory_bytes"].get<double>(), 16e9);
}

// Two layers, hidden 64, 4 heads of 16, GELU MLP of 256, vocabulary 100, micro-batches of 2 x 8
// tokens, fp32 compute: GEMMs small enough for the CPU backend to measure in a second.
QByteArray tiny_fp32_spec(const std::string& gpu) {
    return QByteArray::fromStdString(
        R"({"model": {"layers": 2, "hidden": 64, "heads": 4, "ffn_hidden": 256, "ffn": "gelu",)"
        R"( "vocab": 100},)"
        R"( "data": {"tokens": 1e6, "seq_len": 8, "micro_batch": 2, "global_batch": 2},)"
        R"( "cluster": {"gpu": ")" +
        gpu +
        R"(", "gpus": 1},)"
        R"( "training": {"compute_dtype": "fp32", "param_dtype": "fp32", "grad_dtype": "fp32",)"
        R"( "activation_dtype": "fp32"}})");
}

void TestCliProbe::planGemmsMeasuredAndUsed() {
    const QString spec = m_dir.filePath(QStringLiteral("tiny_fp32_spec.json"));
    {
        QFile f(spec);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(tiny_fp32_spec("h100-sxm"));
    }
    const Run r = run_tally(QStringList{QStringLiteral("probe"), QStringLiteral("--plan"), spec,
                                        QStringLiteral("--backend"), QStringLiteral("cpu"),
                                        QStringLiteral("--quick"), QStringLiteral("--json")} +
                            db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const json out = parse(r.out);
    QVERIFY2(out.is_object(), r.out.constData());
    // The plan's distinct GEMMs with flash attention (the default), written out in
    // tst_plan_gemms: 14, each measured once by gemm_shapes and validated.
    const json& gemms = out["plan"]["gemms"];
    QCOMPARE(gemms.size(), std::size_t(14));
    QCOMPARE(out["results"].size(), std::size_t(14));
    for (const json& result : out["results"]) {
        QCOMPARE(result["test"], "gemm_shapes");
        QCOMPARE(result["status"], "passed");
        QCOMPARE(result["validated"], true);
    }
    // qkv forward, 16 x 192 over 64: 2·16·192·64 = 393216 FLOPs; the ratio is measured / model.
    QCOMPARE(gemms[0]["m"].get<int>(), 16);
    QCOMPARE(gemms[0]["n"].get<int>(), 192);
    QCOMPARE(gemms[0]["k"].get<int>(), 64);
    QCOMPARE(gemms[0]["dtype"], "fp32");
    QCOMPARE(gemms[0]["flops"].get<double>(), 393216.0);
    for (const json& g : gemms) {
        QVERIFY(g["measured_s"].get<double>() > 0.0);
        QVERIFY(g["model_s"].get<double>() > 0.0);
        QVERIFY(near(g["ratio"].get<double>(),
                     g["measured_s"].get<double>() / g["model_s"].get<double>()));
    }
    QCOMPARE(out["plan"]["profile"]["id"], "h100-sxm");

    // A profile from the run, on the H100's other figures, and the plan on it: every GEMM of the
    // plan is timed as measured.
    const QString run_id = QString::number(out["run_id"].get<std::int64_t>());
    const Run add = run_tally(QStringList{QStringLiteral("profiles"), QStringLiteral("add"),
                                          QStringLiteral("--from-run"), run_id,
                                          QStringLiteral("--id"), QStringLiteral("tiny-cpu"),
                                          QStringLiteral("--name"), QStringLiteral("Tiny CPU"),
                                          QStringLiteral("--base"), QStringLiteral("h100-sxm")} +
                              db());
    QVERIFY2(add.exit_code == 0, add.err.constData());
    const Run plan = run_tally(
        QStringList{QStringLiteral("plan"), QStringLiteral("-"), QStringLiteral("--json")} + db(),
        tiny_fp32_spec("tiny-cpu"));
    QVERIFY2(plan.exit_code == 0, plan.err.constData());
    const json planned = parse(plan.out);
    QCOMPARE(planned["performance"]["gemms_measured"].get<int>(), 14);
    QCOMPARE(planned["performance"]["gemms_modelled"].get<int>(), 0);
    // On the catalog profile the same plan measures none.
    const Run catalog = run_tally(
        QStringList{QStringLiteral("plan"), QStringLiteral("-"), QStringLiteral("--json")} + db(),
        tiny_fp32_spec("h100-sxm"));
    QCOMPARE(parse(catalog.out)["performance"]["gemms_measured"].get<int>(), 0);
    QCOMPARE(parse(catalog.out)["performance"]["gemms_modelled"].get<int>(), 14);
}

void TestCliProbe::planBadInput_data() {
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown gpu") << tiny_fp32_spec("no-such-gpu") << QStringLiteral("cluster.gpu");
    QTest::newRow("params-only model")
        << QByteArray(R"({"model": {"params": 1e9}, "data": {"tokens": 1e11},)"
                      R"( "cluster": {"gpu": "h100-sxm", "gpus": 8}})")
        << QStringLiteral("model.kind");
    QTest::newRow("int8 compute")
        << QByteArray(R"({"model": {"layers": 2, "hidden": 64, "heads": 4, "ffn_hidden": 256,)"
                      R"( "vocab": 100}, "data": {"tokens": 1e6, "seq_len": 8},)"
                      R"( "cluster": {"gpu": "h100-sxm", "gpus": 1},)"
                      R"( "training": {"compute_dtype": "int8"}})")
        << QStringLiteral("training.compute_dtype");
}

void TestCliProbe::planBadInput() {
    QFETCH(QByteArray, spec);
    QFETCH(QString, message);
    const QString path = m_dir.filePath(QStringLiteral("bad-%1.json").arg(m_case));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(spec);
    }
    const Run r = run_tally(QStringList{QStringLiteral("probe"), QStringLiteral("--plan"), path,
                                        QStringLiteral("--backend"), QStringLiteral("cpu")} +
                            db());
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
}

QTEST_GUILESS_MAIN(TestCliProbe)
#include "tst_cli_probe.moc"
