// The built tally-probe, run as a child process: the CPU quick run end to end, the --list and
// argument errors, the fault injection that proves validation compares, and the CUDA backend's
// refusal on a machine without a GPU.
#include <QtTest>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "gpu_probe/protocol/probe_protocol.h"

using namespace tally::probe;

namespace {

struct ProbeOutput {
    int exit_code = -1;
    QProcess::ExitStatus exit_status = QProcess::CrashExit;
    QByteArray stdout_bytes;
    QByteArray stderr_bytes;
    std::vector<std::string> lines;
    ProbeRun run;
};

ProbeOutput run_probe(const QStringList& arguments, int timeout_ms = 180000) {
    ProbeOutput out;
    QProcess process;
    process.start(QStringLiteral(TALLY_PROBE_PATH), arguments);
    if (!process.waitForStarted(10000)) {
        qWarning("could not start %s", TALLY_PROBE_PATH);
        return out;
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(timeout_ms)) {
        process.kill();
        process.waitForFinished();
    }
    out.exit_status = process.exitStatus();
    out.exit_code = process.exitCode();
    out.stdout_bytes = process.readAllStandardOutput();
    out.stderr_bytes = process.readAllStandardError();
    LineSplitter splitter;
    out.lines = splitter.feed(out.stdout_bytes.toStdString());
    if (auto tail = splitter.finish()) {
        out.lines.push_back(*tail);
    }
    RunCollector collector;
    for (const auto& line : out.lines) {
        collector.add_line(line);
    }
    out.run = collector.finish();
    return out;
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

class TestProbeCpu : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void quickRunEventsParse();
    void quickRunCoversEveryTestAndPasses();
    void quickRunCountsAreConsistent();
    void quickRunMatmulWorkMatchesFormula();
    void quickRunRatesFollowFromMedian();
    void listPrintsTests();
    void injectedFaultFailsValidation_data();
    void injectedFaultFailsValidation();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
    void cudaBackendWithoutDeviceExitsThree();
    void gemmShapesMeasuresGivenShapes();

private:
    ProbeOutput m_quick;
    std::set<std::string> m_listed;
};

void TestProbeCpu::initTestCase() {
    const ProbeOutput list =
        run_probe({QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--list")});
    QCOMPARE(list.exit_code, 0);
    for (const auto& t : list.run.tests) {
        m_listed.insert(t.name);
    }
    QVERIFY(!m_listed.empty());
    // One quick CPU run shared by the checks below.
    QElapsedTimer timer;
    timer.start();
    m_quick =
        run_probe({QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--quick")});
    qInfo("quick CPU run: %.1f s, %zu lines", timer.elapsed() / 1000.0, m_quick.lines.size());
}

void TestProbeCpu::quickRunEventsParse() {
    QCOMPARE(m_quick.exit_status, QProcess::NormalExit);
    QVERIFY2(m_quick.exit_code == 0, m_quick.stderr_bytes.constData());
    QVERIFY(!m_quick.lines.empty());
    for (const auto& line : m_quick.lines) {
        const ParsedLine parsed = parse_line(line);
        QVERIFY2(parsed.kind == ParsedLine::Kind::event,
                 qPrintable(q(parsed.message) + QStringLiteral(": ") + q(line)));
    }
    // First line start, second device, last done.
    QVERIFY(std::holds_alternative<StartEvent>(*parse_line(m_quick.lines.front()).event));
    QVERIFY(std::holds_alternative<DeviceEvent>(*parse_line(m_quick.lines[1]).event));
    QVERIFY(std::holds_alternative<DoneEvent>(*parse_line(m_quick.lines.back()).event));
    QVERIFY(m_quick.run.complete());
    QVERIFY2(m_quick.run.notes.empty(),
             m_quick.run.notes.empty() ? "" : m_quick.run.notes.front().c_str());
    QCOMPARE(q(m_quick.run.start->backend), QStringLiteral("cpu"));
    QVERIFY(m_quick.run.start->quick);
    QCOMPARE(m_quick.run.devices.size(), std::size_t{1});
    QVERIFY(m_quick.run.devices[0].threads.value_or(0) >= 1);
    QVERIFY(m_quick.run.devices[0].memory_bytes.value_or(0) > 0);
    QVERIFY(m_quick.run.devices[0].blas.has_value());
}

void TestProbeCpu::quickRunCoversEveryTestAndPasses() {
    std::set<std::string> seen;
    for (const auto& r : m_quick.run.results) {
        seen.insert(r.test);
        QVERIFY2(r.status == ResultStatus::passed || r.status == ResultStatus::waived,
                 qPrintable(q(r.test) + QStringLiteral(" ") + q(r.variant) + QStringLiteral(": ") +
                            q(r.reason)));
        if (r.status == ResultStatus::passed) {
            QVERIFY2(r.validated, qPrintable(q(r.test)));
            QVERIFY(r.samples >= 1);
            QVERIFY(r.median_s.value_or(0.0) > 0.0);
        }
    }
    QCOMPARE(seen, m_listed);
    QCOMPARE(m_quick.run.start->tests.size(), m_listed.size());
}

void TestProbeCpu::quickRunCountsAreConsistent() {
    const DoneEvent& done = *m_quick.run.done;
    int passed = 0, waived = 0, failed = 0;
    for (const auto& r : m_quick.run.results) {
        passed += r.status == ResultStatus::passed;
        waived += r.status == ResultStatus::waived;
        failed += r.status == ResultStatus::failed;
    }
    QCOMPARE(done.passed, passed);
    QCOMPARE(done.waived, waived);
    QCOMPARE(done.failed, 0);
    QCOMPARE(failed, 0);
    QVERIFY(done.status == RunStatus::ok);
    // Every progress event places its test within the run.
    for (const auto& p : m_quick.run.progress) {
        QVERIFY(p.index >= 1 && p.index <= p.total);
        QCOMPARE(p.total, static_cast<int>(m_listed.size()));
    }
}

void TestProbeCpu::quickRunMatmulWorkMatchesFormula() {
    // C = A·B with A m×k and B k×n: m·n dot products of length k, 2·m·k·n FLOPs; bytes: A, B and
    // C once each, (m·k + k·n + m·n)·elem. E.g. fp32 1024³: 2·1024³ = 2147483648 FLOPs,
    // 3·1024²·4 = 12582912 bytes, intensity 170.67 FLOP/byte (= 1024/6).
    int checked = 0;
    for (const auto& r : m_quick.run.results) {
        if (r.test != "matmul") {
            continue;
        }
        const double m = r.sizes.at("m"), k = r.sizes.at("k"), n = r.sizes.at("n");
        const double elem = r.dtype == "fp64" ? 8.0 : 4.0;
        QCOMPARE(r.flops.value_or(0.0), 2.0 * m * k * n);
        QCOMPARE(r.bytes.value_or(0.0), (m * k + k * n + m * n) * elem);
        QVERIFY(std::abs(r.intensity_flops_per_byte.value_or(0.0) -
                         2.0 * m * k * n / ((m * k + k * n + m * n) * elem)) < 1e-9);
        if (r.dtype == "fp32" && m == 1024) {
            QVERIFY(std::abs(r.intensity_flops_per_byte.value_or(0.0) - 1024.0 / 6.0) < 1e-9);
        }
        ++checked;
    }
    QVERIFY(checked >= 2);
}

void TestProbeCpu::quickRunRatesFollowFromMedian() {
    for (const auto& r : m_quick.run.results) {
        if (r.status != ResultStatus::passed) {
            continue;
        }
        const double median = *r.median_s;
        QVERIFY(r.min_s.value_or(0.0) <= median && median <= r.max_s.value_or(0.0));
        if (r.flops && *r.flops > 0.0) {
            QVERIFY(std::abs(*r.flops_per_s * median / *r.flops - 1.0) < 1e-9);
        }
        if (r.bytes && *r.bytes > 0.0) {
            QVERIFY(std::abs(*r.bytes_per_s * median / *r.bytes - 1.0) < 1e-9);
        }
    }
}

void TestProbeCpu::listPrintsTests() {
    const ProbeOutput out =
        run_probe({QStringLiteral("--list"), QStringLiteral("--backend"), QStringLiteral("cpu")});
    QCOMPARE(out.exit_code, 0);
    QCOMPARE(out.run.tests.size(), out.lines.size());  // nothing but test events
    QVERIFY(!out.run.start.has_value());
    for (const auto& t : out.run.tests) {
        QCOMPARE(q(t.backend), QStringLiteral("cpu"));
        QVERIFY(!t.description.empty());
    }
    // The tests the CPU backend must have.
    for (const char* name : {"stream", "fma_peak", "matmul", "gemm_shapes", "relu", "gelu", "dot",
                             "matvec", "intensity_sweep"}) {
        QVERIFY2(m_listed.count(name) == 1, name);
    }
}

void TestProbeCpu::injectedFaultFailsValidation_data() {
    QTest::addColumn<QString>("test");
    // Every CPU test: each one's validation must be able to fail.
    QTest::newRow("stream") << QStringLiteral("stream");
    QTest::newRow("relu") << QStringLiteral("relu");
    QTest::newRow("gelu") << QStringLiteral("gelu");
    QTest::newRow("dot") << QStringLiteral("dot");
    QTest::newRow("matvec") << QStringLiteral("matvec");
    QTest::newRow("fma_peak") << QStringLiteral("fma_peak");
    QTest::newRow("intensity_sweep") << QStringLiteral("intensity_sweep");
    QTest::newRow("matmul") << QStringLiteral("matmul");
    QTest::newRow("gemm_shapes") << QStringLiteral("gemm_shapes");
}

void TestProbeCpu::injectedFaultFailsValidation() {
    QFETCH(QString, test);
    const ProbeOutput out =
        run_probe({QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--quick"),
                   QStringLiteral("--time-limit-s"), QStringLiteral("0.1"),
                   QStringLiteral("--tests"), test, QStringLiteral("--inject-fault"), test});
    QCOMPARE(out.exit_code, 1);  // a test failed
    QVERIFY(out.run.complete());
    QVERIFY(!out.run.results.empty());
    for (const auto& r : out.run.results) {
        QCOMPARE(q(r.test), test);
        QVERIFY(r.status == ResultStatus::failed);
        QVERIFY(!r.validated);
        QVERIFY2(q(r.reason).contains(QStringLiteral("differ")), r.reason.c_str());
    }
    QCOMPARE(out.run.done->failed, static_cast<int>(out.run.results.size()));
    QVERIFY(out.run.done->status == RunStatus::failed);
}

void TestProbeCpu::badArgumentsExitTwo_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown option")
        << QStringList{QStringLiteral("--bogus")} << QStringLiteral("unknown option '--bogus'");
    QTest::newRow("unknown backend")
        << QStringList{QStringLiteral("--backend"), QStringLiteral("tpu")}
        << QStringLiteral("--backend: 'tpu' is not a backend");
    QTest::newRow("unknown test") << QStringList{QStringLiteral("--backend"), QStringLiteral("cpu"),
                                                 QStringLiteral("--tests"), QStringLiteral("nope")}
                                  << QStringLiteral("unknown test 'nope'");
    QTest::newRow("negative time limit")
        << QStringList{QStringLiteral("--time-limit-s=-1")}
        << QStringLiteral("--time-limit-s: '-1' is not a positive number");
    QTest::newRow("missing value") << QStringList{QStringLiteral("--device")}
                                   << QStringLiteral("option --device needs a value");
    QTest::newRow("fault in an unknown test")
        << QStringList{QStringLiteral("--backend"), QStringLiteral("cpu"),
                       QStringLiteral("--inject-fault"), QStringLiteral("nope")}
        << QStringLiteral("--inject-fault: unknown test 'nope'");
    QTest::newRow("gemm shape with two sizes")
        << QStringList{QStringLiteral("--gemm-shapes"), QStringLiteral("fp32:64x32")}
        << QStringLiteral("--gemm-shapes: 'fp32:64x32' gives 2 sizes; give DTYPE:MxNxK");
    QTest::newRow("gemm shape of an unknown dtype")
        << QStringList{QStringLiteral("--gemm-shapes"), QStringLiteral("fp32:8x8x8,int8:8x8x8")}
        << QStringLiteral("'int8:8x8x8' has the unknown dtype 'int8'; give DTYPE:MxNxK");
    QTest::newRow("gemm shape of size zero")
        << QStringList{QStringLiteral("--gemm-shapes=fp32:8x0x8")}
        << QStringLiteral("'fp32:8x0x8' has the size '0'");
    QTest::newRow("gemm shape without a dtype")
        << QStringList{QStringLiteral("--gemm-shapes"), QStringLiteral("8x8x8")}
        << QStringLiteral("'8x8x8' has no DTYPE: before its sizes");
    QTest::newRow("gemm shape too large")
        << QStringList{QStringLiteral("--gemm-shapes"), QStringLiteral("fp32:8x8x16777217")}
        << QStringLiteral("has the size '16777217'");
    QTest::newRow("gemm shapes without the test")
        << QStringList{QStringLiteral("--backend"),     QStringLiteral("cpu"),
                       QStringLiteral("--tests"),       QStringLiteral("dot"),
                       QStringLiteral("--gemm-shapes"), QStringLiteral("fp32:8x8x8")}
        << QStringLiteral("--gemm-shapes: the selected tests do not include gemm_shapes");
}

void TestProbeCpu::badArgumentsExitTwo() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const ProbeOutput out = run_probe(arguments);
    QCOMPARE(out.exit_code, 2);
    QCOMPARE(out.lines.size(), std::size_t{1});
    QCOMPARE(out.run.errors.size(), std::size_t{1});
    const ErrorEvent& e = out.run.errors.front();
    QVERIFY(e.fatal);
    QCOMPARE(e.exit_code.value_or(0), 2);
    QVERIFY2(q(e.message).contains(message), e.message.c_str());
    QVERIFY(QString::fromUtf8(out.stderr_bytes).contains(message));
}

void TestProbeCpu::cudaBackendWithoutDeviceExitsThree() {
    const ProbeOutput out =
        run_probe({QStringLiteral("--backend"), QStringLiteral("cuda"), QStringLiteral("--quick"),
                   QStringLiteral("--tests"), QStringLiteral("timing_lesson")});
    if (out.exit_code == 0) {
        QSKIP("a CUDA device is present: the no-device path cannot be seen here");
    }
    QCOMPARE(out.exit_code, 3);
    QCOMPARE(out.lines.size(), std::size_t{1});  // one clear line
    QCOMPARE(out.run.errors.size(), std::size_t{1});
    const ErrorEvent& e = out.run.errors.front();
    QVERIFY(e.fatal);
    QCOMPARE(e.exit_code.value_or(0), 3);
    // Built with CUDA: "no CUDA device: cudaGetDeviceCount returned ..."; without: "this
    // tally-probe was built without CUDA ...".
    const QString message = q(e.message);
    QVERIFY2(message.startsWith(QStringLiteral("no CUDA device")) ||
                 message.startsWith(QStringLiteral("this tally-probe was built without CUDA")),
             e.message.c_str());
    QVERIFY(QString::fromUtf8(out.stderr_bytes).contains(message));
}

void TestProbeCpu::gemmShapesMeasuresGivenShapes() {
    const ProbeOutput out = run_probe(
        {QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--quick"),
         QStringLiteral("--time-limit-s"), QStringLiteral("0.1"), QStringLiteral("--tests"),
         QStringLiteral("gemm_shapes"), QStringLiteral("--gemm-shapes"),
         QStringLiteral("fp32:64x32x16,fp64:8x8x4x3,bf16:8x8x8")});
    QVERIFY2(out.exit_code == 0, out.stderr_bytes.constData());
    QVERIFY(out.run.complete());
    QCOMPARE(out.run.results.size(), std::size_t{3});
    // fp32 64x32x16: 2·64·32·16 = 65536 FLOPs; A 64x16, B 16x32, C 64x32 once each,
    // (1024 + 512 + 2048)·4 = 14336 bytes.
    const ResultEvent& one = out.run.results[0];
    QCOMPARE(q(one.test), QStringLiteral("gemm_shapes"));
    QCOMPARE(q(one.variant), QStringLiteral("blas"));
    QCOMPARE(q(one.dtype), QStringLiteral("fp32"));
    QVERIFY(one.status == ResultStatus::passed);
    QVERIFY(one.validated);
    QCOMPARE(one.sizes.at("m"), std::int64_t{64});
    QCOMPARE(one.sizes.at("n"), std::int64_t{32});
    QCOMPARE(one.sizes.at("k"), std::int64_t{16});
    QCOMPARE(one.sizes.at("count"), std::int64_t{1});
    QCOMPARE(one.flops.value_or(0.0), 65536.0);
    QCOMPARE(one.bytes.value_or(0.0), 14336.0);
    // fp64 3 x (8x8x4): 3·2·8·8·4 = 1536 FLOPs; 3·(8·4 + 4·8 + 8·8)·8 = 3072 bytes.
    const ResultEvent& batch = out.run.results[1];
    QCOMPARE(q(batch.dtype), QStringLiteral("fp64"));
    QVERIFY(batch.status == ResultStatus::passed);
    QVERIFY(batch.validated);
    QCOMPARE(batch.sizes.at("count"), std::int64_t{3});
    QCOMPARE(batch.flops.value_or(0.0), 1536.0);
    QCOMPARE(batch.bytes.value_or(0.0), 3072.0);
    // The BLAS has no bf16 GEMM: waived, with the reason.
    const ResultEvent& bf16 = out.run.results[2];
    QVERIFY(bf16.status == ResultStatus::waived);
    QVERIFY2(q(bf16.reason).contains(QStringLiteral("fp32 and fp64 only")), bf16.reason.c_str());
    QCOMPARE(out.run.done->passed, 2);
    QCOMPARE(out.run.done->waived, 1);
}

QTEST_GUILESS_MAIN(TestProbeCpu)
#include "tst_probe_cpu.moc"
