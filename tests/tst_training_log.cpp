// The training-log reader of `tally calibrate --log`: each framework's timing line as its source
// prints it (planner/performance/training_log.h cites the print statements), the warm-up rule,
// ranks, and the errors a log without such lines gets. Medians are worked out by hand.
#include <QtTest>

#include <string>

#include "planner/core/errors.h"
#include "planner/performance/training_log.h"

using namespace tally;

namespace {

// Megatron-LM's training_log(): " [time] iteration {:8d}/{:8d} | consumed samples: {:12d} |
// elapsed time per iteration (ms): {:.1f} | ..." printed by the last rank; iteration 1 is printed
// alone, then every log_interval (here 1).
const std::string kMegatron =
    "[after dataloaders are built] datetime: 2025-04-13 23:41:00\n"
    "training ...\n"
    " [2025-04-13 23:41:12.123456] iteration        1/      50 | consumed samples:          "
    "128 | elapsed time per iteration (ms): 31234.5 | throughput per GPU (TFLOP/s/GPU): 41.2 | "
    "learning rate: 1.500000E-07 | global batch size:   128 | lm loss: 1.192093E+01 | loss "
    "scale: 1.0 | grad norm: 14.221 | number of skipped iterations:   0 | number of nan "
    "iterations:   0 |\n"
    "[Rank 0] (after 1 iterations) memory (MB) | allocated: 1464.33 | max allocated: 1464.34\n"
    " [2025-04-13 23:41:24.000001] iteration        2/      50 | consumed samples:          "
    "256 | elapsed time per iteration (ms): 16100.0 | learning rate: 3.000000E-07 | global "
    "batch size:   128 |\n"
    " [2025-04-13 23:41:36.000001] iteration        3/      50 | consumed samples:          "
    "384 | elapsed time per iteration (ms): 12010.0 | global batch size:   128 |\n"
    " [2025-04-13 23:41:48.000001] iteration        4/      50 | consumed samples:          "
    "512 | elapsed time per iteration (ms): 12030.0 | global batch size:   128 |\n"
    " [2025-04-13 23:42:00.000001] iteration        5/      50 | consumed samples:          "
    "640 | elapsed time per iteration (ms): 12990.0 | global batch size:   128 |\n"
    " [2025-04-13 23:42:12.000001] iteration        6/      50 | consumed samples:          "
    "768 | elapsed time per iteration (ms): 12020.0 | global batch size:   128 |\n";

// NeMo 2's ProgressPrinter: "Training epoch E, iteration N/M | key: {:.4} | ...", behind a
// launcher prefix; the "[NeMo I ...] train_step_timing in s: [...]" list at the end is a
// summary, not an interval.
const std::string kNemo =
    "retraining/0 [default0]:Training epoch 0, iteration 0/99 | lr: 9.804e-08 | "
    "global_batch_size: 128 | global_step: 0 | reduced_train_loss: 11.96 | train_step_timing in "
    "s: 45.28\n"
    "retraining/0 [default0]:Training epoch 0, iteration 1/99 | lr: 1.961e-07 | "
    "global_batch_size: 128 | global_step: 1 | reduced_train_loss: 11.95 | train_step_timing in "
    "s: 13.02 | consumed_samples: 256\n"
    "retraining/0 [default0]:Training epoch 0, iteration 2/99 | lr: 2.941e-07 | "
    "global_batch_size: 128 | global_step: 2 | reduced_train_loss: 11.94 | train_step_timing in "
    "s: 12.39 | consumed_samples: 384\n"
    "retraining/0 [default0]:Training epoch 0, iteration 3/99 | lr: 3.922e-07 | "
    "global_batch_size: 128 | global_step: 3 | reduced_train_loss: 11.92 | train_step_timing in "
    "s: 12.41 | consumed_samples: 512\n"
    "retraining/0 [default0]:Training epoch 0, iteration 4/99 | lr: 4.902e-07 | "
    "global_batch_size: 128 | global_step: 4 | reduced_train_loss: 11.90 | train_step_timing in "
    "s: 1.24e+01 | consumed_samples: 640\n"
    "[NeMo I 2025-03-04 02:58:29 perf_metrics_utils:56] train_step_timing in s: [45.28, 13.02, "
    "12.39, 12.41, 12.4]\n";

// torchtitan's MetricsProcessor.log: "step: {:2}  loss: {:7.4f}  memory: ...  tps: {:,}  tflops:
// ...  mfu: ...%", each figure in a terminal colour, behind torchrun's "[rank0]:" prefix and the
// logger's "[titan] time - root - INFO - ".
const std::string kTorchtitan =
    "[rank0]:[titan] 2025-06-01 10:00:00,000 - root - INFO - Training starts at step 1.\n"
    "[rank0]:[titan] 2025-06-01 10:00:41,000 - root - INFO - \x1b[31mstep:  1  \x1b[32mloss: "
    "12.2341  \x1b[33mmemory: 41.27GiB(52.16%)  \x1b[34mtps: 812  \x1b[36mtflops: 37.44  "
    "\x1b[35mmfu: 3.79%\x1b[39m\n"
    "[rank0]:[titan] 2025-06-01 10:01:20,000 - root - INFO - \x1b[31mstep: 10  \x1b[32mloss: "
    "10.1102  \x1b[33mmemory: 57.90GiB(73.19%)  \x1b[34mtps: 6,902  \x1b[36mtflops: 318.2  "
    "\x1b[35mmfu: 32.17%\x1b[39m\n"
    "[rank1]:[titan] 2025-06-01 10:01:20,000 - root - INFO - step: 10  loss: 10.1102  memory: "
    "57.90GiB(73.19%)  tps: 6,899  tflops: 318.1  mfu: 32.16%\n"
    "[rank0]:[titan] 2025-06-01 10:01:58,000 - root - INFO - \x1b[31mstep: 20  \x1b[32mloss:  "
    "8.9021  \x1b[33mmemory: 57.90GiB(73.19%)  \x1b[34mtps: 7,104  \x1b[36mtflops: 327.5  "
    "\x1b[35mmfu: 33.11%\x1b[39m\n"
    "[rank0]:[titan] 2025-06-01 10:02:36,000 - root - INFO - \x1b[31mstep: 30  \x1b[32mloss:  "
    "8.1145  \x1b[33mmemory: 57.90GiB(73.19%)  \x1b[34mtps: 7,098  \x1b[36mtflops: 327.2  "
    "\x1b[35mmfu: 33.08%\x1b[39m\n"
    "[rank0]:[titan] 2025-06-01 10:03:14,000 - root - INFO - \x1b[31mstep: 40  \x1b[32mloss:  "
    "7.6620  \x1b[33mmemory: 57.90GiB(73.19%)  \x1b[34mtps: 7,120  \x1b[36mtflops: 328.3  "
    "\x1b[35mmfu: 33.18%\x1b[39m\n";

// A Megatron-LM iteration line behind torchrun's "[rankR]:" prefix.
std::string megatron_line(int rank, int iteration, const char* ms) {
    return "[rank" + std::to_string(rank) + "]: [2025-04-13 23:41:12.000001] iteration        " +
           std::to_string(iteration) + "/      50 | consumed samples:          128 | " +
           "elapsed time per iteration (ms): " + ms + " | global batch size:   128 |\n";
}

// Two ranks' iteration lines, each iteration's pair in the order given: rank 7's step times
// 30000, 15000, 10000, 9998, 10001 ms, rank 0's 20000, 8000, 4700, 4600, 4800 ms.
std::string two_rank_megatron(bool rank0_first) {
    const char* rank7[] = {"30000.0", "15000.0", "10000.0", "9998.0", "10001.0"};
    const char* rank0[] = {"20000.0", "8000.0", "4700.0", "4600.0", "4800.0"};
    std::string text = "training ...\n";
    for (int i = 0; i < 5; ++i) {
        const std::string a = megatron_line(0, i + 1, rank0[i]);
        const std::string b = megatron_line(7, i + 1, rank7[i]);
        text += rank0_first ? a + b : b + a;
    }
    return text;
}

}  // namespace

class TestTrainingLog : public QObject {
    Q_OBJECT

private slots:
    void megatronMedianAfterWarmUp();
    void megatronSkipSetting();
    void nemoStepTimes();
    void torchtitanTokensPerSecond();
    void megatronRankWhateverTheOrder_data();
    void megatronRankWhateverTheOrder();
    void torchtitanRankWhateverTheOrder();
    void rankChosen();
    void windowsLineEndings();
    void logWithoutTimingLines_data();
    void logWithoutTimingLines();
    void badTimingValues_data();
    void badTimingValues();
    void mixedFormatsRefused();
    void skipRecordsBounds_data();
    void skipRecordsBounds();
};

void TestTrainingLog::megatronMedianAfterWarmUp() {
    const TrainingLogSummary s = read_training_log(kMegatron);
    QCOMPARE(s.format, TrainingLogFormat::megatron);
    QCOMPARE(s.lines, std::int64_t{9});
    QCOMPARE(s.records, std::int64_t{6});
    // Iterations 1 (31234.5 ms) and 2 (16100.0 ms) dropped; the rest in seconds sorted:
    // 12.010, 12.020, 12.030, 12.990; median (12.020 + 12.030) / 2 = 12.025 s.
    QCOMPARE(s.skipped, std::int64_t{2});
    QCOMPARE(s.used, std::int64_t{4});
    QCOMPARE(s.median, 12.025);
    QCOMPARE(s.min, 12.01);
    QCOMPARE(s.max, 12.99);
    QCOMPARE(s.first_iteration, std::int64_t{3});
    QCOMPARE(s.last_iteration, std::int64_t{6});
    QVERIFY(s.is_step_time());
}

void TestTrainingLog::megatronSkipSetting() {
    // Keeping every record: 12.01, 12.02, 12.03, 12.99, 16.1, 31.2345; median (12.03 + 12.99)/2
    // = 12.51 s.
    const TrainingLogSummary all = read_training_log(kMegatron, {0});
    QCOMPARE(all.used, std::int64_t{6});
    QCOMPARE(all.median, 12.51);
    QCOMPARE(all.first_iteration, std::int64_t{1});
    // Dropping five leaves iteration 6 alone: 12.02 s.
    QCOMPARE(read_training_log(kMegatron, {5}).median, 12.02);
}

void TestTrainingLog::nemoStepTimes() {
    const TrainingLogSummary s = read_training_log(kNemo);
    QCOMPARE(s.format, TrainingLogFormat::nemo);
    // Five interval lines (the closing list is not one); iterations 0 and 1 dropped; 12.39,
    // 12.41 and 1.24e+01 = 12.40: median 12.40 s.
    QCOMPARE(s.records, std::int64_t{5});
    QCOMPARE(s.used, std::int64_t{3});
    QCOMPARE(s.median, 12.4);
    QCOMPARE(s.first_iteration, std::int64_t{2});
    QCOMPARE(s.last_iteration, std::int64_t{4});
}

void TestTrainingLog::torchtitanTokensPerSecond() {
    const TrainingLogSummary s = read_training_log(kTorchtitan);
    QCOMPARE(s.format, TrainingLogFormat::torchtitan);
    QVERIFY(!s.is_step_time());
    // Rank 0's five records (steps 1, 10, 20, 30, 40); rank 1's one line is ignored. Steps 1
    // and 10 dropped; 7,098, 7,104 and 7,120 tokens/s per GPU: median 7104.
    QCOMPARE(s.records, std::int64_t{5});
    QCOMPARE(s.other_rank_records, std::int64_t{1});
    QCOMPARE(s.median, 7104.0);
    QCOMPARE(s.min, 7098.0);
    QCOMPARE(s.max, 7120.0);
    QCOMPARE(s.first_iteration, std::int64_t{20});
    QCOMPARE(s.last_iteration, std::int64_t{40});
    QCOMPARE(s.rank, std::int64_t{0});
}

void TestTrainingLog::megatronRankWhateverTheOrder_data() {
    QTest::addColumn<bool>("rank0First");
    QTest::newRow("rank 0's lines first") << true;
    QTest::newRow("rank 7's lines first") << false;
}

// Megatron-LM prints its iteration line from the last rank (print_rank_last): of ranks 0 and 7,
// rank 7's lines count, whichever came first. Its records after the two warm-up ones: 10.000,
// 9.998, 10.001 s; sorted 9.998, 10.000, 10.001: median 10.000 s. (Rank 0's would be 4.7 s.)
void TestTrainingLog::megatronRankWhateverTheOrder() {
    QFETCH(bool, rank0First);
    const TrainingLogSummary s = read_training_log(two_rank_megatron(rank0First));
    QCOMPARE(s.rank, std::int64_t{7});
    QCOMPARE(s.records, std::int64_t{5});
    QCOMPARE(s.other_rank_records, std::int64_t{5});
    QCOMPARE(s.median, 10.0);
    QCOMPARE(s.min, 9.998);
    QCOMPARE(s.max, 10.001);
    QCOMPARE(s.first_iteration, std::int64_t{3});
}

// torchtitan: rank 0's lines count (its run_train.sh shows rank 0), also when rank 1's line
// comes first: the same five records and median 7104 tokens/s as in kTorchtitan.
void TestTrainingLog::torchtitanRankWhateverTheOrder() {
    const std::string rank1 =
        "[rank1]:[titan] 2025-06-01 10:01:20,000 - root - INFO - step: 10  loss: 10.1102  memory: "
        "57.90GiB(73.19%)  tps: 6,899  tflops: 318.1  mfu: 32.16%\n";
    std::string text = kTorchtitan;
    text.erase(text.find(rank1), rank1.size());
    const TrainingLogSummary s = read_training_log(rank1 + text);
    QCOMPARE(s.rank, std::int64_t{0});
    QCOMPARE(s.records, std::int64_t{5});
    QCOMPARE(s.other_rank_records, std::int64_t{1});
    QCOMPARE(s.median, 7104.0);
}

// A rank asked for: rank 0's records after the warm-up, 4.7, 4.6, 4.8 s: median 4.7 s. A rank
// the log has no timing line of is refused naming the ranks it has.
void TestTrainingLog::rankChosen() {
    TrainingLogSettings settings;
    settings.rank = 0;
    const TrainingLogSummary s = read_training_log(two_rank_megatron(false), settings);
    QCOMPARE(s.rank, std::int64_t{0});
    QCOMPARE(s.median, 4.7);
    settings.rank = 3;
    try {
        read_training_log(two_rank_megatron(true), settings);
        QFAIL("a rank without timing lines was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("rank"));
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("holds: 0, 7")), e.what());
    }
    // Lines that name no rank: none can be asked for.
    try {
        read_training_log(kMegatron, settings);
        QFAIL("a rank was accepted in a log without ranks");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("rank"));
    }
    QCOMPARE(read_training_log(kMegatron).rank, std::int64_t{-1});
}

void TestTrainingLog::windowsLineEndings() {
    std::string crlf;
    for (char c : kNemo) {
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    QCOMPARE(read_training_log(crlf).median, 12.4);
}

// The error counts the log's lines: "its one line", else "its N lines".
void TestTrainingLog::logWithoutTimingLines_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("value");
    QTest::newRow("empty") << QString() << QStringLiteral("none of its 0 lines is one");
    QTest::newRow("one line") << QStringLiteral("training ...\n")
                              << QStringLiteral("its one line is not one");
    QTest::newRow("start-up only")
        << QStringLiteral(
               "training ...\n[before the start of training step] datetime: 2025-04-13 23:41:00\n")
        << QStringLiteral("none of its 2 lines is one");
    // "elapsed time per iteration" without "(ms):", "tps" as part of a longer word.
    QTest::newRow("near misses")
        << QStringLiteral(
               "elapsed time per iteration 12.0\nsteps: 4 tps 100\nmaxtps: 5\nthroughput(tps): "
               "7\n")
        << QStringLiteral("none of its 4 lines is one");
}

void TestTrainingLog::logWithoutTimingLines() {
    QFETCH(QString, text);
    QFETCH(QString, value);
    try {
        read_training_log(text.toStdString());
        QFAIL("a log without timing lines was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("log"));
        QVERIFY2(QString::fromUtf8(e.what()).contains(value), e.what());
        QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("tps")));
    }
}

void TestTrainingLog::badTimingValues_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("field");
    QTest::newRow("zero ms") << QStringLiteral(
                                    " iteration 3/10 | elapsed time per iteration (ms): 0.0 |")
                             << QStringLiteral("log line 2");
    QTest::newRow("nan") << QStringLiteral(
                                "iteration 3/10 | elapsed time per iteration (ms): nan |")
                         << QStringLiteral("log line 2");
    QTest::newRow("negative") << QStringLiteral(
                                     "Training epoch 0, iteration 3/9 | "
                                     "train_step_timing in s: -1.5")
                              << QStringLiteral("log line 2");
    QTest::newRow("missing") << QStringLiteral("step: 10  loss: 3.1  tps:   tflops: 2")
                             << QStringLiteral("log line 2");
    QTest::newRow("overflow") << QStringLiteral("step: 10  tps: 1e999")
                              << QStringLiteral("log line 2");
    QTest::newRow("text") << QStringLiteral("step: 10  tps: fast") << QStringLiteral("log line 2");
    // Outside the physical range: 65,536 tokens per GPU / 1e-320 tokens/s was an infinite step
    // (tests/fuzz/findings/training_log/tps-subnormal-infinite-step.log).
    QTest::newRow("subnormal rate")
        << QStringLiteral("step: 20  tps: 1e-320") << QStringLiteral("log line 2");
    QTest::newRow("rate above 1e12")
        << QStringLiteral("step: 20  tps: 2e12") << QStringLiteral("log line 2");
    // 2e12 ms = 2e9 s, above 1e9 s; 1e-10 s is below 1e-9 s.
    QTest::newRow("step above 1e9 s")
        << QStringLiteral("iteration 3/10 | elapsed time per iteration (ms): 2e12 |")
        << QStringLiteral("log line 2");
    QTest::newRow("step below 1e-9 s")
        << QStringLiteral("Training epoch 0, iteration 3/9 | train_step_timing in s: 1e-10")
        << QStringLiteral("log line 2");
}

void TestTrainingLog::badTimingValues() {
    QFETCH(QString, line);
    QFETCH(QString, field);
    try {
        read_training_log("training ...\n" + line.toStdString() + "\n");
        QFAIL("a bad timing value was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
    }
}

void TestTrainingLog::mixedFormatsRefused() {
    try {
        read_training_log(kMegatron + kTorchtitan);
        QFAIL("two formats were accepted as one run");
    } catch (const SpecError& e) {
        // The Megatron log has 9 lines; torchtitan's first timing line is the 11th.
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("log line 11"));
        QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("Megatron-LM")));
    }
}

void TestTrainingLog::skipRecordsBounds_data() {
    QTest::addColumn<qint64>("skip");
    QTest::newRow("negative") << qint64{-1};
    QTest::newRow("all six") << qint64{6};
    QTest::newRow("huge") << qint64{1'000'000'000};
}

void TestTrainingLog::skipRecordsBounds() {
    QFETCH(qint64, skip);
    try {
        read_training_log(kMegatron, {skip});
        QFAIL("a skip that leaves no record was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("skip_records"));
        QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("6 timing records")));
    }
}

QTEST_APPLESS_MAIN(TestTrainingLog)
#include "tst_training_log.moc"
