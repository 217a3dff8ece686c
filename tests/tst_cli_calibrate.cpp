// `tally calibrate` as a user runs it: the built binary, a workspace of the test's own (--db),
// specs and training logs written here. A calibration from a measured step, then `tally plan` on
// the calibrated profile: the same spec comes out at the measured step, another spec moves by
// the same factor. Bad input exits 2 and leaves the workspace as it was.
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <nlohmann/json.hpp>

#include "tests/cli_test_util.h"

using nlohmann::json;
using tally::test::Run;
using tally::test::run_tally;

namespace {

json parse(const Run& r) {
    return json::parse(r.out.toStdString());
}

bool close(double a, double b, double rel) {
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

// Llama 3 8B's shape on 64 GPUs, tp 2 x pp 4 x dp 8, 512 sequences of 8192 tokens per step,
// its time from the predicted step.
json run_spec(const std::string& gpu) {
    return {{"name", "8B pilot run"},
            {"model",
             {{"kind", "transformer"},
              {"layers", 32},
              {"hidden", 4096},
              {"heads", 32},
              {"kv_heads", 8},
              {"ffn_hidden", 14336},
              {"ffn", "swiglu"},
              {"vocab", 128256}}},
            {"data", {{"tokens", 1e12}, {"seq_len", 8192}, {"global_batch", 512}}},
            {"cluster", {{"gpu", gpu}, {"gpus", 64}, {"mfu", "predicted"}}},
            {"training", {{"tp", 2}, {"pp", 4}, {"zero", 1}}}};
}

// Megatron-LM iteration lines of ranks 0 and 7 behind torchrun's "[rankN]:" prefixes, each
// iteration's pair in the order given: rank 7's 40000, 25000, 20000, 20200, 20100 ms, rank 0's
// 30000, 15000, 9400, 9500, 9300 ms.
QByteArray two_rank_log(bool rank0_first) {
    const char* rank7[] = {"40000.0", "25000.0", "20000.0", "20200.0", "20100.0"};
    const char* rank0[] = {"30000.0", "15000.0", "9400.0", "9500.0", "9300.0"};
    QByteArray log;
    for (int i = 0; i < 5; ++i) {
        const auto line = [&](int rank, const char* ms) {
            return QByteArray("[rank") + QByteArray::number(rank) +
                   "]: [2026-12-01 10:00:40.0] iteration       " + QByteArray::number(10 * i + 1) +
                   "/     100 | elapsed time per iteration (ms): " + ms +
                   " | global batch size:   512 |\n";
        };
        log += rank0_first ? line(0, rank0[i]) + line(7, rank7[i])
                           : line(7, rank7[i]) + line(0, rank0[i]);
    }
    return log;
}

}  // namespace

class TestCliCalibrate : public QObject {
    Q_OBJECT

private slots:
    void init();
    void stepThenPlan();
    void megatronLog();
    void torchtitanLog();
    void logOfSeveralRanks();
    void calibratedAgainInPlace();
    void badInputChangesNothing_data();
    void badInputChangesNothing();
    void anotherProfileIsNotOverwritten();
    void takenDefaultNameAsksForName();

private:
    QString write(const QString& name, const QByteArray& text);
    QString spec_file(const QString& name, const json& spec);
    double planned_step(const QString& spec);
    QStringList calibrate(const QStringList& args);

    QTemporaryDir m_dir;
    QString m_db;
};

void TestCliCalibrate::init() {
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("ws-%1.sqlite").arg(QTest::currentTestFunction()));
    QFile::remove(m_db);
}

QString TestCliCalibrate::write(const QString& name, const QByteArray& text) {
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size()) {
        return {};
    }
    return path;
}

QString TestCliCalibrate::spec_file(const QString& name, const json& spec) {
    return write(name, QByteArray::fromStdString(spec.dump()));
}

double TestCliCalibrate::planned_step(const QString& spec) {
    const Run r = run_tally(
        {QStringLiteral("plan"), spec, QStringLiteral("--json"), QStringLiteral("--db"), m_db});
    if (r.exit_code != 0) {
        qWarning() << r.err;
        return -1.0;
    }
    return parse(r)["performance"]["step_s"].get<double>();
}

QStringList TestCliCalibrate::calibrate(const QStringList& args) {
    return QStringList{QStringLiteral("calibrate")} + args +
           QStringList{QStringLiteral("--db"), m_db, QStringLiteral("--json")};
}

void TestCliCalibrate::stepThenPlan() {
    const QString a = spec_file(QStringLiteral("a.json"), run_spec("h100-sxm"));
    const double predicted = planned_step(a);
    QVERIFY(predicted > 0.0);
    // The run measured 1.25 x the prediction: efficiency P / 1.25 P = 0.8.
    const double measured = 1.25 * predicted;
    const Run cal =
        run_tally(calibrate({a, QStringLiteral("--step-s"), QString::number(measured, 'g', 17)}));
    QCOMPARE(cal.exit_code, 0);
    const json out = parse(cal);
    QCOMPARE(out["profile"]["id"].get<std::string>(), std::string("h100-sxm-calibrated"));
    QCOMPARE(out["replaced"].get<bool>(), false);
    QVERIFY(close(out["efficiency"].get<double>(), 0.8, 1e-12));
    QVERIFY(close(out["predicted_step_s"].get<double>(), predicted, 1e-12));

    // The same spec on the calibrated profile: the measured step back.
    json on_cal = run_spec("h100-sxm-calibrated");
    const QString a2 = spec_file(QStringLiteral("a2.json"), on_cal);
    const Run plan = run_tally(
        {QStringLiteral("plan"), a2, QStringLiteral("--json"), QStringLiteral("--db"), m_db});
    QCOMPARE(plan.exit_code, 0);
    const json p = parse(plan);
    QVERIFY(close(p["performance"]["step_s"].get<double>(), measured, 1e-12));
    const std::string note = p["time"]["calibration"].get<std::string>();
    QVERIFY2(note.starts_with("calibrated from a measured step of "), note.c_str());
    QVERIFY(note.find("entered with --step-s") != std::string::npos);
    QVERIFY(close(p["performance"]["calibration"]["efficiency"].get<double>(), 0.8, 1e-12));

    // Another layout and batch: its own prediction Q on h100-sxm, Q / 0.8 = 1.25 Q calibrated.
    json other = run_spec("h100-sxm");
    other["training"]["tp"] = 4;
    other["training"]["pp"] = 2;
    other["data"]["global_batch"] = 1024;
    const double q = planned_step(spec_file(QStringLiteral("b.json"), other));
    other["cluster"]["gpu"] = "h100-sxm-calibrated";
    const double q_cal = planned_step(spec_file(QStringLiteral("b2.json"), other));
    QVERIFY(q > 0.0);
    QVERIFY(close(q_cal, 1.25 * q, 1e-12));

    // The table says so too, in the time and the explanation.
    const Run text = run_tally({QStringLiteral("plan"), a2, QStringLiteral("--db"), m_db});
    QCOMPARE(text.exit_code, 0);
    QVERIFY(text.out.count("calibrated from a measured step of") >= 3);
    QVERIFY(text.out.contains("Calibrated efficiency"));
    QVERIFY(text.out.contains("(predicted, calibrated)"));
    // The published runs' band judges the model before calibration, and says so here.
    QVERIFY2(QString::fromUtf8(text.out).contains(
                 QRegularExpression("accuracy +±\\d+% mean error on \\d+ published .*\\(the "
                                    "model's before calibration\\)")),
             text.out.constData());
}

void TestCliCalibrate::megatronLog() {
    const QString a = spec_file(QStringLiteral("a.json"), run_spec("h100-sxm"));
    const double predicted = planned_step(a);
    // Records 40000 ms (iteration 1) and 25000 ms (iteration 10, still averaging iteration 1)
    // are warm-up; the rest (ms) 20000, 20200, 20100: median 20100 ms = 20.1 s.
    const QByteArray log =
        " [2026-12-01 10:00:40.0] iteration        1/     100 | consumed samples:          512 "
        "| elapsed time per iteration (ms): 40000.0 | global batch size:   512 |\n"
        " [2026-12-01 10:04:10.0] iteration       10/     100 | consumed samples:         5120 "
        "| elapsed time per iteration (ms): 25000.0 | global batch size:   512 |\n"
        " [2026-12-01 10:07:30.0] iteration       20/     100 | consumed samples:        10240 "
        "| elapsed time per iteration (ms): 20000.0 | global batch size:   512 |\n"
        " [2026-12-01 10:10:52.0] iteration       30/     100 | consumed samples:        15360 "
        "| elapsed time per iteration (ms): 20200.0 | global batch size:   512 |\n"
        " [2026-12-01 10:14:13.0] iteration       40/     100 | consumed samples:        20480 "
        "| elapsed time per iteration (ms): 20100.0 | global batch size:   512 |\n";
    const Run cal =
        run_tally(calibrate({a, QStringLiteral("--log"), write(QStringLiteral("run.log"), log)}));
    QCOMPARE(cal.exit_code, 0);
    const json out = parse(cal);
    QVERIFY(close(out["measured_step_s"].get<double>(), 20.1, 1e-12));
    QVERIFY(close(out["efficiency"].get<double>(), predicted / 20.1, 1e-12));
    QCOMPARE(out["log"]["format"].get<std::string>(), std::string("Megatron-LM"));
    QCOMPARE(out["log"]["used"].get<int>(), 3);
    QCOMPARE(out["log"]["skipped"].get<int>(), 2);
    QCOMPARE(out["source"].get<std::string>(),
             std::string("Megatron-LM log run.log: median of 3 step times (iterations 20 to "
                         "40), 2 dropped as warm-up"));
    // --skip-records 0 keeps all five: 20000, 20100, 20200, 25000, 40000: median 20.2 s.
    const Run all = run_tally(calibrate({a, QStringLiteral("--log"), m_dir.filePath("run.log"),
                                         QStringLiteral("--skip-records"), QStringLiteral("0")}));
    QCOMPARE(all.exit_code, 0);
    QVERIFY(close(parse(all)["measured_step_s"].get<double>(), 20.2, 1e-12));
}

void TestCliCalibrate::torchtitanLog() {
    const QString a = spec_file(QStringLiteral("a.json"), run_spec("h100-sxm"));
    // 512 x 8192 tokens per step / 64 GPUs = 65,536 tokens per GPU; tps median (steps 20-40)
    // 3,277, 3,280, 3,300 -> 3,280; step = 65,536 / 3,280 = 19.980487... s.
    const QByteArray log =
        "[rank0]:[titan] 2026-12-01 10:00:00,000 - root - INFO - step:  1  loss: 12.23  "
        "memory: 61.20GiB(77.36%)  tps: 402  tflops: 20.1  mfu: 2.03%\n"
        "[rank0]:[titan] 2026-12-01 10:03:00,000 - root - INFO - step: 10  loss: 10.11  "
        "memory: 61.20GiB(77.36%)  tps: 3,102  tflops: 150.2  mfu: 15.18%\n"
        "[rank0]:[titan] 2026-12-01 10:06:00,000 - root - INFO - step: 20  loss:  9.90  "
        "memory: 61.20GiB(77.36%)  tps: 3,277  tflops: 158.7  mfu: 16.04%\n"
        "[rank0]:[titan] 2026-12-01 10:09:00,000 - root - INFO - step: 30  loss:  9.51  "
        "memory: 61.20GiB(77.36%)  tps: 3,300  tflops: 159.8  mfu: 16.15%\n"
        "[rank0]:[titan] 2026-12-01 10:12:00,000 - root - INFO - step: 40  loss:  9.12  "
        "memory: 61.20GiB(77.36%)  tps: 3,280  tflops: 158.9  mfu: 16.06%\n";
    const Run cal =
        run_tally(calibrate({a, QStringLiteral("--log"), write(QStringLiteral("titan.log"), log)}));
    QCOMPARE(cal.exit_code, 0);
    const json out = parse(cal);
    QVERIFY(close(out["measured_step_s"].get<double>(), 65536.0 / 3280.0, 1e-12));
    QCOMPARE(out["log"]["median"].get<double>(), 3280.0);
    QCOMPARE(out["log"]["unit"].get<std::string>(), std::string("tokens/s per GPU"));
}

// Megatron-LM prints its iteration line from the last rank: rank 7's records count, whichever
// rank's lines come first. After the two warm-up records: 20000, 20200, 20100 ms, median 20.1 s
// (rank 0's: 9400, 9500, 9300 ms, median 9.4 s, taken with --rank 0). The output names the rank.
void TestCliCalibrate::logOfSeveralRanks() {
    const QString a = spec_file(QStringLiteral("a.json"), run_spec("h100-sxm"));
    for (bool rank0_first : {true, false}) {
        const Run cal =
            run_tally(calibrate({a, QStringLiteral("--log"),
                                 write(QStringLiteral("ranks.log"), two_rank_log(rank0_first))}));
        QCOMPARE(cal.exit_code, 0);
        const json out = parse(cal);
        QVERIFY(close(out["measured_step_s"].get<double>(), 20.1, 1e-12));
        QCOMPARE(out["log"]["rank"].get<int>(), 7);
        QCOMPARE(out["log"]["other_rank_records"].get<int>(), 5);
        QCOMPARE(out["source"].get<std::string>(),
                 std::string("Megatron-LM log ranks.log: median of 3 step times (iterations 21 "
                             "to 41) of rank 7, 2 dropped as warm-up"));
    }
    const Run zero = run_tally(calibrate({a, QStringLiteral("--log"), m_dir.filePath("ranks.log"),
                                          QStringLiteral("--rank"), QStringLiteral("0")}));
    QCOMPARE(zero.exit_code, 0);
    QVERIFY(close(parse(zero)["measured_step_s"].get<double>(), 9.4, 1e-12));
    // The table names the rank too.
    const Run table = run_tally({QStringLiteral("calibrate"), a, QStringLiteral("--log"),
                                 m_dir.filePath("ranks.log"), QStringLiteral("--db"), m_db});
    QCOMPARE(table.exit_code, 0);
    QVERIFY2(table.out.contains("of rank 7"), table.out.constData());
}

void TestCliCalibrate::calibratedAgainInPlace() {
    const QString a = spec_file(QStringLiteral("a.json"), run_spec("h100-sxm"));
    const double predicted = planned_step(a);
    QCOMPARE(run_tally(calibrate({a, QStringLiteral("--step-s"),
                                  QString::number(2.0 * predicted, 'g', 17)}))
                 .exit_code,
             0);
    // Calibrating from a spec on the calibrated profile replaces its calibration; the fit
    // predicts on the bare figures (P), so 1.6 P gives efficiency 0.625, not 0.625 x 0.5.
    const QString a2 = spec_file(QStringLiteral("a2.json"), run_spec("h100-sxm-calibrated"));
    const Run again = run_tally(
        calibrate({a2, QStringLiteral("--step-s"), QString::number(1.6 * predicted, 'g', 17)}));
    QCOMPARE(again.exit_code, 0);
    const json out = parse(again);
    QCOMPARE(out["replaced"].get<bool>(), true);
    QCOMPARE(out["profile"]["id"].get<std::string>(), std::string("h100-sxm-calibrated"));
    QVERIFY(close(out["efficiency"].get<double>(), 0.625, 1e-12));
    // What it replaced is said before it is gone: the first fit, 0.5 (P / 2 P), and its engine.
    QVERIFY(close(out["previous"]["efficiency"].get<double>(), 0.5, 1e-12));
    QCOMPARE(out["previous"]["engine"].get<std::string>(), std::string("megatron"));
    QCOMPARE(out["engine"].get<std::string>(), std::string("megatron"));
    QVERIFY(close(planned_step(a2), 1.6 * predicted, 1e-12));
}

void TestCliCalibrate::badInputChangesNothing_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("named");
    QTest::newRow("step 0") << QStringList{QStringLiteral("--step-s"), QStringLiteral("0")}
                            << QStringLiteral("--step-s");
    QTest::newRow("step negative")
        << QStringList{QStringLiteral("--step-s=-4")} << QStringLiteral("--step-s");
    QTest::newRow("step nan") << QStringList{QStringLiteral("--step-s"), QStringLiteral("nan")}
                              << QStringLiteral("--step-s");
    QTest::newRow("step text") << QStringList{QStringLiteral("--step-s"), QStringLiteral("12s")}
                               << QStringLiteral("--step-s");
    // strtod's hexadecimal: 0x10 is not 16 s.
    QTest::newRow("step hexadecimal")
        << QStringList{QStringLiteral("--step-s"), QStringLiteral("0x10")}
        << QStringLiteral(
               "--step-s: got \"0x10\"; a measured step time as a decimal number of "
               "seconds");
    QTest::newRow("rank without lines")
        << QStringList{QStringLiteral("--log"), QStringLiteral("@ranks.log"),
                       QStringLiteral("--rank"), QStringLiteral("3")}
        << QStringLiteral("--rank: got 3; a rank whose timing lines the log holds: 0, 7");
    QTest::newRow("rank negative")
        << QStringList{QStringLiteral("--log"), QStringLiteral("@ranks.log"),
                       QStringLiteral("--rank=-2")}
        << QStringLiteral("--rank: got -2");
    QTest::newRow("step in ms") << QStringList{QStringLiteral("--step-s"), QStringLiteral("20000")}
                                << QStringLiteral("[0.01, 100]");
    QTest::newRow("neither") << QStringList{} << QStringLiteral("--step-s");
    QTest::newRow("log without timing lines")
        << QStringList{QStringLiteral("--log"), QStringLiteral("@plain.log")}
        << QStringLiteral("elapsed time per iteration (ms)");
    QTest::newRow("log missing") << QStringList{QStringLiteral("--log"),
                                                QStringLiteral("@nothing-here.log")}
                                 << QStringLiteral("--log");
    QTest::newRow("skip all") << QStringList{QStringLiteral("--log"), QStringLiteral("@one.log"),
                                             QStringLiteral("--skip-records"), QStringLiteral("1")}
                              << QStringLiteral("--skip-records");
    // Two records and the default warm-up of two: the error says the default dropped them and
    // how to keep them, since no --skip-records was typed.
    QTest::newRow("default skip leaves none")
        << QStringList{QStringLiteral("--log"), QStringLiteral("@two.log")}
        << QStringLiteral("give --skip-records 0");
    // Megatron-LM's lines say their run's global batch: 128 is another run than the spec's
    // 512, and 128 then 512 (a ramp-up) times no one spec.
    QTest::newRow("log of another batch")
        << QStringList{QStringLiteral("--log"), QStringLiteral("@batch128.log")}
        << QStringLiteral(
               "data.global_batch: got 512; the global batch of the run that wrote "
               "the log, 128");
    QTest::newRow("log of a batch ramp-up")
        << QStringList{QStringLiteral("--log"), QStringLiteral("@ramp.log"),
                       QStringLiteral("--skip-records"), QStringLiteral("0")}
        << QStringLiteral(
               "global batch size 128 to 512; timing records at one global batch: the "
               "first 2 records print another than the last's (a batch ramp-up); "
               "skip them as warm-up (--skip-records 2)");
    QTest::newRow("assumed mfu") << QStringList{QStringLiteral("@assumed"),
                                                QStringLiteral("--step-s"), QStringLiteral("10")}
                                 << QStringLiteral("cluster.mfu");
    QTest::newRow("bad profile id")
        << QStringList{QStringLiteral("--step-s"), QStringLiteral("20"),
                       QStringLiteral("--profile"), QStringLiteral("a b")}
        << QStringLiteral("--profile");
}

void TestCliCalibrate::badInputChangesNothing() {
    QFETCH(QStringList, args);
    QFETCH(QString, named);
    const QString a = spec_file(QStringLiteral("a.json"), run_spec("h100-sxm"));
    json assumed = run_spec("h100-sxm");
    assumed["cluster"]["mfu"] = 0.4;
    const QString b = spec_file(QStringLiteral("assumed.json"), assumed);
    write(QStringLiteral("plain.log"), "training ...\nloss 3.2\n");
    write(QStringLiteral("one.log"), "step: 10  tps: 3,000\n");
    write(QStringLiteral("two.log"), "step: 10  tps: 3,000\nstep: 20  tps: 3,100\n");
    write(QStringLiteral("ranks.log"), two_rank_log(true));
    const auto megatron_lines = [](std::initializer_list<int> batches) {
        QByteArray log;
        int iteration = 10;
        for (int batch : batches) {
            log += " iteration       " + QByteArray::number(iteration) +
                   "/     100 | elapsed time per iteration (ms): 20000.0 | global batch size: " +
                   QByteArray::number(batch) + " |\n";
            iteration += 10;
        }
        return log;
    };
    write(QStringLiteral("batch128.log"), megatron_lines({128, 128, 128, 128}));
    write(QStringLiteral("ramp.log"), megatron_lines({128, 256, 512, 512}));
    QString spec = a;
    for (QString& arg : args) {
        if (arg == QStringLiteral("@assumed")) {
            spec = b;
            arg.clear();
        } else if (arg.startsWith(u'@')) {
            arg = m_dir.filePath(arg.mid(1));
        }
    }
    args.removeAll(QString());
    const Run r = run_tally(calibrate(QStringList{spec} + args));
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(named.toUtf8()), r.err.constData());
    // Nothing was written: not even the workspace file was created.
    QVERIFY(!QFileInfo::exists(m_db));
}

void TestCliCalibrate::anotherProfileIsNotOverwritten() {
    // A custom profile of the user's; calibrating an H100 run into its id is refused.
    QCOMPARE(run_tally({QStringLiteral("profiles"), QStringLiteral("add"), QStringLiteral("--from"),
                        QStringLiteral("a100-80gb"), QStringLiteral("--id"),
                        QStringLiteral("my-a100"), QStringLiteral("--name"),
                        QStringLiteral("My A100"), QStringLiteral("--db"), m_db})
                 .exit_code,
             0);
    const QString a = spec_file(QStringLiteral("a.json"), run_spec("h100-sxm"));
    const Run r = run_tally(calibrate({a, QStringLiteral("--step-s"), QStringLiteral("20"),
                                       QStringLiteral("--profile"), QStringLiteral("my-a100")}));
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("profile.id"), r.err.constData());
    const Run show =
        run_tally({QStringLiteral("profiles"), QStringLiteral("show"), QStringLiteral("my-a100"),
                   QStringLiteral("--json"), QStringLiteral("--db"), m_db});
    QCOMPARE(show.exit_code, 0);
    QVERIFY(!parse(show).contains("calibration"));
}

void TestCliCalibrate::takenDefaultNameAsksForName() {
    // The first calibration makes h100-sxm-calibrated, named "H100 SXM5 80GB (calibrated)"; a
    // second into another id would take the same default name: refused, pointing at --name,
    // and nothing stored. With --name it is stored.
    const QString a = spec_file(QStringLiteral("a.json"), run_spec("h100-sxm"));
    QCOMPARE(run_tally(calibrate({a, QStringLiteral("--step-s"), QStringLiteral("20")})).exit_code,
             0);
    const QStringList second{a, QStringLiteral("--step-s"), QStringLiteral("25"),
                             QStringLiteral("--profile"), QStringLiteral("h100-run2")};
    const Run r = run_tally(calibrate(second));
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("--name: got \"H100 SXM5 80GB (calibrated)\""), r.err.constData());
    QVERIFY2(r.err.contains("profile h100-sxm-calibrated has this one"), r.err.constData());
    QVERIFY2(r.err.contains("give one with --name"), r.err.constData());
    const auto show = [this](const char* id) {
        return run_tally({QStringLiteral("profiles"), QStringLiteral("show"),
                          QString::fromLatin1(id), QStringLiteral("--db"), m_db});
    };
    QVERIFY(show("h100-run2").exit_code != 0);
    const Run named = run_tally(
        calibrate(second + QStringList{QStringLiteral("--name"), QStringLiteral("Second run")}));
    QCOMPARE(named.exit_code, 0);
    QCOMPARE(show("h100-run2").exit_code, 0);
    // Calibrated again into the same id without --name: the profile keeps its name ("Second
    // run"), and nothing asks for one.
    const Run again =
        run_tally(calibrate({a, QStringLiteral("--step-s"), QStringLiteral("22"),
                             QStringLiteral("--profile"), QStringLiteral("h100-run2")}));
    QCOMPARE(again.exit_code, 0);
    const json stored = json::parse(again.out.toStdString());
    QCOMPARE(stored["profile"]["name"].get<std::string>(), std::string("Second run"));
    QCOMPARE(stored["replaced"].get<bool>(), true);
}

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_cli_calibrate.moc"
