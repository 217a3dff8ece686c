// Runs recorded elsewhere: tally-probe JSON lines and nccl-tests logs read into run records
// (planner/hardware/probe_import.h), imported into a workspace in one transaction, refused when
// damaged or stored already, and the network figures a measured profile takes from them.
//
// The nccl-tests fixtures in tests/data/nccl_tests/ are written in the format nccl-tests prints
// (src/util.cu: writeDeviceReport, writeResultHeader, writeBenchmarkLinePreamble,
// writeBenchmarkLineBody): "#  Rank ..." lines, the out-of-place / in-place column groups, the
// #wrong column (N/A under -c 0), per-iteration columns under -I 1, and an older version's log
// without the "Collective test starting" line. Their figures are worked out by hand below.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gpu_probe/protocol/probe_collectives.h"
#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/probe_import.h"
#include "planner/hardware/user_profiles.h"
#include "planner/store/workspace.h"

using namespace tally;
using nlohmann::json;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(TALLY_SOURCE_DIR) + "/tests/data/nccl_tests/" + name,
                     std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

ProbeRunRecord nccl(const std::string& name, const std::string& collective = {}) {
    return probe_run_from_nccl_tests(fixture(name), name, collective, "2026-12-01T00:00:00Z");
}

json sizes(const ProbeResultRecord& r) {
    return json::parse(r.sizes_json);
}

// The message of the SpecError `f` throws ("" when it throws none).
QString error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const SpecError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

// A small complete run as tally-probe prints it: start, device, one relu result, done.
std::string jsonl_run(const std::string& started_at = "2026-11-30T05:08:38Z") {
    probe::StartEvent s;
    s.backend = "cpu";
    s.host = "far-away";
    s.started_at = started_at;
    s.tests = {"relu"};
    probe::DeviceEvent d;
    d.backend = "cpu";
    d.name = "Remote CPU";
    probe::ResultEvent r;
    r.test = "relu";
    r.dtype = "fp32";
    r.sizes = {{"elements", 1000000}};
    r.flops = 1e6;
    r.bytes = 8e6;
    r.flops_per_s = 1e9;
    r.bytes_per_s = 8e9;
    r.median_s = 1e-3;
    r.min_s = 1e-3;
    r.max_s = 1e-3;
    r.samples = 5;
    r.validated = true;
    probe::DoneEvent done;
    done.finished_at = "2026-11-30T05:08:52Z";
    done.passed = 1;
    return probe::to_json_line(s) + "\n" + probe::to_json_line(d) + "\n" + probe::to_json_line(r) +
           "\n" + probe::to_json_line(done) + "\n";
}

// A run of three relu results, as tally-probe writes it: start, device, the results (the i-th,
// i = 1..3, at i million elements, i GFLOP/s), done. Six lines.
std::string jsonl_three_results() {
    probe::StartEvent s;
    s.backend = "cpu";
    s.host = "far-away";
    s.started_at = "2026-11-30T07:00:00Z";
    s.tests = {"relu"};
    probe::DeviceEvent d;
    d.backend = "cpu";
    d.name = "Remote CPU";
    std::string text = probe::to_json_line(s) + "\n" + probe::to_json_line(d) + "\n";
    for (int i = 1; i <= 3; ++i) {
        probe::ResultEvent r;
        r.test = "relu";
        r.dtype = "fp32";
        r.sizes = {{"elements", i * 1000000}};
        r.flops = i * 1e6;
        r.bytes = i * 8e6;
        r.flops_per_s = i * 1e9;
        r.median_s = 1e-3;
        r.samples = 5;
        r.validated = true;
        text += probe::to_json_line(r) + "\n";
    }
    probe::DoneEvent done;
    done.finished_at = "2026-11-30T07:00:09Z";
    done.passed = 3;
    return text + probe::to_json_line(done) + "\n";
}

// The first `count` lines of `text`.
std::string first_lines(const std::string& text, int count) {
    std::size_t end = 0;
    for (int i = 0; i < count; ++i) {
        end = text.find('\n', end) + 1;
    }
    return text.substr(0, end);
}

}  // namespace

class TestProbeImport : public QObject {
    Q_OBJECT

private slots:
    void busBandwidthFactors_data();
    void busBandwidthFactors();
    void allReduceTwoHosts();
    void allGatherUncheckedIsNotValidated();
    void reduceScatterWrongElementsFail();
    void alltoallPerIterationColumns();
    void olderSendrecvLogNamesItsCollectiveByFile();
    void ncclDamagedRowsNameTheLine_data();
    void ncclDamagedRowsNameTheLine();
    void hostNamesBecomeValidUtf8();
    void formatDetection();
    void jsonLinesRoundTrip();
    void jsonLinesDamaged_data();
    void jsonLinesDamaged();
    void runCutShortKeepsItsResults();
    void completeRunWithoutResults();
    void importRefusesTheSameRunTwice();
    void importCompletesACopyCutShort();
    void importKeepsAStoredCopyWithOtherResults();
    void ncclLogCutAtARowIsFailedAndCompleted();
    void measuredProfileTakesNetworkFigures();
};

void TestProbeImport::busBandwidthFactors_data() {
    QTest::addColumn<QString>("collective");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<double>("factor");
    // nccl-tests doc/PERFORMANCE.md, "Summary": AllReduce 2(n-1)/n, ReduceScatter, AllGather and
    // AlltoAll (n-1)/n; src/sendrecv.cu: Send/Recv 1.
    QTest::newRow("all_reduce 8 ranks: 2*7/8") << "all_reduce" << 8 << 1.75;
    QTest::newRow("all_reduce 2 ranks: 2*1/2") << "all_reduce" << 2 << 1.0;
    QTest::newRow("all_reduce 1 rank: no bus") << "all_reduce" << 1 << 0.0;
    QTest::newRow("all_gather 4 ranks: 3/4") << "all_gather" << 4 << 0.75;
    QTest::newRow("reduce_scatter 16 ranks: 15/16") << "reduce_scatter" << 16 << 0.9375;
    QTest::newRow("alltoall 2 ranks: 1/2") << "alltoall" << 2 << 0.5;
    QTest::newRow("sendrecv 2 ranks: 1") << "sendrecv" << 2 << 1.0;
}

void TestProbeImport::busBandwidthFactors() {
    QFETCH(QString, collective);
    QFETCH(int, ranks);
    QFETCH(double, factor);
    const auto c = probe::collective_from_string(collective.toStdString());
    QVERIFY(c.has_value());
    QCOMPARE(probe::bus_bandwidth_factor(*c, ranks), factor);
}

void TestProbeImport::allReduceTwoHosts() {
    const ProbeRunRecord run = nccl("all_reduce_perf.log");
    QCOMPARE(run.backend, std::string("nccl-tests"));
    QCOMPARE(run.host, std::string("gpu-a,gpu-b"));
    QCOMPARE(run.status, ProbeRunStatus::ok);
    QCOMPARE(run.started_at, std::string("2026-12-01T00:00:00Z"));
    QVERIFY(run.content_digest.starts_with("fnv1a64:"));
    const json device = json::parse(run.device_json);
    QCOMPARE(device["name"].get<std::string>(), std::string("NVIDIA H100 80GB HBM3"));
    QCOMPARE(device["ranks"].get<int>(), 4);
    QCOMPARE(device["nodes"].get<int>(), 2);
    // Three rows, each out-of-place then in-place.
    QCOMPARE(run.results.size(), std::size_t{6});
    const ProbeResultRecord& big = run.results[4];
    QCOMPARE(big.test, std::string("all_reduce"));
    QCOMPARE(big.variant, std::string("out_of_place"));
    QCOMPARE(big.dtype, std::string("fp32"));
    QCOMPARE(sizes(big)["bytes"].get<std::int64_t>(), std::int64_t{1073741824});
    QCOMPARE(sizes(big)["count"].get<std::int64_t>(), std::int64_t{268435456});
    QCOMPARE(sizes(big)["ranks"].get<int>(), 4);
    QCOMPARE(sizes(big)["nodes"].get<int>(), 2);
    QCOMPARE(big.bytes, 1073741824.0);
    // 20000.0 us; algbw 53.69 GB/s (2^30 B / 0.02 s = 53.687e9), busbw 80.53 GB/s
    // (53.687e9 * 2*3/4 = 80.53e9) as printed.
    QCOMPARE(*big.median_s, 0.02);
    QCOMPARE(*big.bytes_per_s, 53.69e9);
    QCOMPARE(*big.bus_bytes_per_s, 80.53e9);
    // The printed figures follow the definitions: busbw / algbw = 1.5 within the rounding of
    // two decimals.
    QVERIFY(std::abs(*big.bus_bytes_per_s / *big.bytes_per_s - 1.5) < 0.01 / 53.69 * 2);
    QCOMPARE(big.samples, std::int64_t{20});  // "iters: 20"
    QCOMPARE(big.status, ProbeResultStatus::passed);
    QVERIFY(big.validated);
    const ProbeResultRecord& big_in_place = run.results[5];
    QCOMPARE(big_in_place.variant, std::string("in_place"));
    QCOMPARE(*big_in_place.median_s, 0.0198);
    QCOMPARE(*big_in_place.bus_bytes_per_s, 81.34e9);
    // The smallest row prints 0.00 GB/s: kept as 0, not dropped.
    QCOMPARE(*run.results[0].bytes_per_s, 0.0);
    QCOMPARE(*run.results[0].median_s, 30.12e-6);
}

void TestProbeImport::allGatherUncheckedIsNotValidated() {
    const ProbeRunRecord run = nccl("all_gather_perf.log");
    QCOMPARE(run.host, std::string("dgx01"));
    QCOMPARE(run.results.size(), std::size_t{2});
    const ProbeResultRecord& r = run.results[0];
    QCOMPARE(r.test, std::string("all_gather"));
    QCOMPARE(r.dtype, std::string("bf16"));
    QCOMPARE(sizes(r)["ranks"].get<int>(), 8);
    QCOMPARE(sizes(r)["nodes"].get<int>(), 1);
    // 8388608 B / 100 us = 83.89 GB/s; * 7/8 = 73.40 GB/s.
    QCOMPARE(*r.bus_bytes_per_s, 73.40e9);
    // #wrong N/A: nccl-tests ran with -c 0, so nothing was checked.
    QCOMPARE(r.status, ProbeResultStatus::passed);
    QVERIFY(!r.validated);
    QVERIFY(QString::fromStdString(r.reason).contains(QStringLiteral("-c 0")));
    QCOMPARE(run.status, ProbeRunStatus::ok);
}

void TestProbeImport::reduceScatterWrongElementsFail() {
    const ProbeRunRecord run = nccl("reduce_scatter_perf.log");
    QCOMPARE(run.results.size(), std::size_t{2});
    QCOMPARE(run.results[0].status, ProbeResultStatus::passed);
    QVERIFY(run.results[0].validated);
    // 2097152 B / 50 us = 41.94 GB/s; * 1/2 = 20.97 GB/s.
    QCOMPARE(*run.results[0].bus_bytes_per_s, 20.97e9);
    // The in-place column says 3 elements were wrong.
    QCOMPARE(run.results[1].status, ProbeResultStatus::failed);
    QVERIFY(!run.results[1].validated);
    QVERIFY(QString::fromStdString(run.results[1].reason).contains(QStringLiteral("3 wrong")));
    QCOMPARE(run.status, ProbeRunStatus::failed);
}

void TestProbeImport::alltoallPerIterationColumns() {
    const ProbeRunRecord run = nccl("alltoall_perf.log");
    QCOMPARE(run.results.size(), std::size_t{2});
    // The per-iteration columns (i_min ...) sit between the placements; the in-place group
    // starts after them: 210.00 us, 19.97 GB/s, 9.99 GB/s (4194304 B / 210 us * 1/2).
    QCOMPARE(*run.results[0].median_s, 200e-6);
    QCOMPARE(*run.results[0].bus_bytes_per_s, 10.49e9);
    QCOMPARE(run.results[1].variant, std::string("in_place"));
    QCOMPARE(*run.results[1].median_s, 210e-6);
    QCOMPARE(*run.results[1].bytes_per_s, 19.97e9);
    QCOMPARE(*run.results[1].bus_bytes_per_s, 9.99e9);
    QCOMPARE(sizes(run.results[1])["nodes"].get<int>(), 2);
}

void TestProbeImport::olderSendrecvLogNamesItsCollectiveByFile() {
    const ProbeRunRecord run = nccl("nccl_sendrecv_perf.txt");
    QCOMPARE(run.results.size(), std::size_t{2});
    QCOMPARE(run.results[0].test, std::string("sendrecv"));
    QCOMPARE(run.results[0].samples, std::int64_t{50});
    // Send/recv: busbw = algbw (1048576 B / 20 us = 52.43 GB/s).
    QCOMPARE(*run.results[0].bus_bytes_per_s, 52.43e9);
    QCOMPARE(json::parse(run.device_json)["name"].get<std::string>(),
             std::string("NVIDIA A100-SXM4-80GB"));
    // Under another file name the log does not say which test it was: --collective names it.
    const std::string text = fixture("nccl_sendrecv_perf.txt");
    QVERIFY(error_of([&] {
                probe_run_from_nccl_tests(text, "job-1234.out", "", "t");
            }).contains(QStringLiteral("--collective")));
    const ProbeRunRecord named = probe_run_from_nccl_tests(text, "job-1234.out", "sendrecv", "t");
    QCOMPARE(named.results[1].test, std::string("sendrecv"));
    QVERIFY(error_of([&] {
                probe_run_from_nccl_tests(text, "x.out", "broadcast", "t");
            }).contains(QStringLiteral("--collective")));
}

void TestProbeImport::ncclDamagedRowsNameTheLine_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("expected");
    // The all_reduce fixture's rows are lines 14 to 16.
    QTest::newRow("time not a number") << "  20000.0   53.69"
                                       << "  2x000.0   53.69"
                                       << "all_reduce_perf.log line 16; time";
    QTest::newRow("row cut short") << "   81.34       0\n"
                                   << "\n"
                                   << "all_reduce_perf.log line 16; a result row of 11 columns";
    QTest::newRow("bandwidth beyond any rate") << "   80.53       0"
                                               << "   1e300       0"
                                               << "all_reduce_perf.log line 16; busbw";
    QTest::newRow("wrong count garbled") << "   15.73       0"
                                         << "   15.73      x0"
                                         << "all_reduce_perf.log line 15; #wrong";
}

void TestProbeImport::ncclDamagedRowsNameTheLine() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, expected);
    std::string text = fixture("all_reduce_perf.log");
    const std::size_t at = text.find(from.toStdString());
    QVERIFY(at != std::string::npos);
    text.replace(at, from.size(), to.toStdString());
    const QString message =
        error_of([&] { probe_run_from_nccl_tests(text, "all_reduce_perf.log", "", "t"); });
    QVERIFY2(message.startsWith(expected), qPrintable(message));
    QVERIFY(message.contains(QStringLiteral("nothing was imported")));
}

void TestProbeImport::hostNamesBecomeValidUtf8() {
    // A host name with a byte that is not UTF-8 is kept with U+FFFD in its place, so the run
    // prints as JSON.
    std::string text = fixture("all_reduce_perf.log");
    std::size_t at = 0;
    while ((at = text.find("gpu-b", at)) != std::string::npos) {
        text.replace(at, 5, "gpu-\xff");
    }
    const ProbeRunRecord run = probe_run_from_nccl_tests(text, "all_reduce_perf.log", "", "t");
    QCOMPARE(run.host, std::string("gpu-a,gpu-\xef\xbf\xbd"));
}

void TestProbeImport::formatDetection() {
    QCOMPARE(detect_probe_file_format(jsonl_run(), "a"), ProbeFileFormat::tally_probe);
    QCOMPARE(detect_probe_file_format(fixture("alltoall_perf.log"), "b"),
             ProbeFileFormat::nccl_tests);
    QVERIFY(error_of([] {
                detect_probe_file_format("hello\nworld\n", "c.txt");
            }).startsWith(QStringLiteral("c.txt")));
}

void TestProbeImport::jsonLinesRoundTrip() {
    const ProbeRunRecord run = probe_run_from_json_lines(jsonl_run(), "run.jsonl");
    QCOMPARE(run.backend, std::string("cpu"));
    QCOMPARE(run.host, std::string("far-away"));
    QCOMPARE(run.started_at, std::string("2026-11-30T05:08:38Z"));
    QCOMPARE(run.finished_at, std::string("2026-11-30T05:08:52Z"));
    QCOMPARE(run.status, ProbeRunStatus::ok);
    QCOMPARE(run.results.size(), std::size_t{1});
    QCOMPARE(*run.results[0].flops_per_s, 1e9);
    QCOMPARE(json::parse(run.device_json)["name"].get<std::string>(), std::string("Remote CPU"));
    // Blank lines (an editor's trailing newline) and CRLF line ends change nothing.
    std::string crlf;
    for (char c : jsonl_run()) {
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    QCOMPARE(probe_run_from_json_lines(crlf + "\n\n", "run.jsonl").results, run.results);
}

void TestProbeImport::jsonLinesDamaged_data() {
    QTest::addColumn<int>("line");  // the line to replace (1-based), or 0: cut after line 3
    QTest::addColumn<QString>("replacement");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not JSON") << 3 << "{\"event\":\"result\",\"test\":"
                              << "run.jsonl line 3; malformed JSON";
    QTest::newRow("result without status")
        << 3 << R"({"event":"result","test":"relu","validated":true})"
        << "run.jsonl line 3; result event: ";
    QTest::newRow("negative time")
        << 3
        << R"({"event":"result","test":"relu","status":"passed","validated":true,"median_s":-1})"
        << "run.jsonl line 3; result event: ";
    QTest::newRow("device before start") << 1 << R"({"event":"device","backend":"cpu","name":"x"})"
                                         << "run.jsonl line 1; ";
    QTest::newRow("done counts disagree")
        << 4
        << R"({"event":"done","status":"ok","finished_at":"x","passed":2,"waived":0,"failed":0})"
        << "run.jsonl line 4; done counts 2/0/0";
}

// A run stopped before its done event (a killed job), its results whole: stored as failed with
// the two results that arrived (the start, the device and two results of the four lines kept),
// as a live run that crashed is; without any result it is refused.
void TestProbeImport::runCutShortKeepsItsResults() {
    const QStringList lines = QString::fromStdString(jsonl_run()).split(QLatin1Char('\n'));
    QVERIFY(lines.size() >= 4);
    bool ended = false;
    const ProbeRunRecord full = probe_run_from_json_lines(jsonl_run(), "run.jsonl", &ended);
    QVERIFY(!ended);
    int results_before_done = 0;
    for (const QString& line : lines) {
        results_before_done += line.contains(QStringLiteral("\"event\":\"result\"")) ? 1 : 0;
    }
    QVERIFY(results_before_done >= 1);
    QStringList cut;
    for (const QString& line : lines) {
        if (!line.contains(QStringLiteral("\"event\":\"done\""))) {
            cut << line;
        }
    }
    const ProbeRunRecord run =
        probe_run_from_json_lines(cut.join(QLatin1Char('\n')).toStdString(), "run.jsonl", &ended);
    QVERIFY(ended);
    QCOMPARE(run.status, ProbeRunStatus::failed);
    QCOMPARE(static_cast<int>(run.results.size()), results_before_done);
    QCOMPARE(run.results, full.results);
    // Only the start: nothing to keep.
    const QString message = error_of(
        [&] { probe_run_from_json_lines(lines.first().toStdString(), "start.jsonl", &ended); });
    QVERIFY2(message.contains(QStringLiteral("without any result")), qPrintable(message));
}

void TestProbeImport::jsonLinesDamaged() {
    QFETCH(int, line);
    QFETCH(QString, replacement);
    QFETCH(QString, expected);
    QStringList lines = QString::fromStdString(jsonl_run()).split(QLatin1Char('\n'));
    if (line == 0) {
        lines = lines.mid(0, 3);
    } else {
        lines[line - 1] = replacement;
    }
    const std::string text = lines.join(QLatin1Char('\n')).toStdString();
    const QString message = error_of([&] { probe_run_from_json_lines(text, "run.jsonl"); });
    QVERIFY2(message.startsWith(expected), qPrintable(message));
    QVERIFY(message.contains(QStringLiteral("nothing was imported")));
}

void TestProbeImport::completeRunWithoutResults() {
    // The fuzzer's finding: start, an event of an unknown name (skipped), done counting no
    // result. Complete, and empty: refused.
    std::ifstream in(std::string(TALLY_SOURCE_DIR) +
                     "/tests/fuzz/findings/probe_import/complete-run-without-results.jsonl");
    std::ostringstream text;
    text << in.rdbuf();
    QVERIFY(!text.str().empty());
    const QString message = error_of([&] { probe_run_from_json_lines(text.str(), "empty.jsonl"); });
    QVERIFY2(message.startsWith(QStringLiteral("empty.jsonl; a complete run without any result")),
             qPrintable(message));
}

void TestProbeImport::importCompletesACopyCutShort() {
    QTemporaryDir dir;
    Workspace ws = Workspace::open(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
    const std::string whole = jsonl_three_results();
    // Start, device and the first result: a run without done, stored as failed with 1 result.
    const ImportedProbeRun cut =
        ws.import_probe_run(probe_run_from_json_lines(first_lines(whole, 3), "cut.jsonl"));
    QVERIFY(!cut.replaced_status.has_value());
    const ProbeRunRecord before = *ws.find_probe_run(cut.id);
    QCOMPARE(before.status, ProbeRunStatus::failed);
    QCOMPARE(before.results.size(), std::size_t{1});

    // The whole file: the same run (host, backend, start, device), results 1..3 of which the
    // stored copy is result 1. It completes the stored run in place: one run, same id, status ok
    // from the done event, three results, the first keeping its row.
    const ProbeRunRecord full = probe_run_from_json_lines(whole, "run.jsonl");
    const ImportedProbeRun completed = ws.import_probe_run(full);
    QCOMPARE(completed.id, cut.id);
    QCOMPARE(completed.replaced_status, std::optional<ProbeRunStatus>(ProbeRunStatus::failed));
    QCOMPARE(completed.replaced_result_count, std::size_t{1});
    const std::vector<ProbeRunRecord> runs = ws.list_probe_runs();
    QCOMPARE(runs.size(), std::size_t{1});
    const ProbeRunRecord& after = runs[0];
    QCOMPARE(after.id, cut.id);
    QCOMPARE(after.status, ProbeRunStatus::ok);
    QCOMPARE(after.finished_at, std::string("2026-11-30T07:00:09Z"));
    QCOMPARE(after.content_digest, full.content_digest);
    QCOMPARE(after.results.size(), std::size_t{3});
    QCOMPARE(after.results[0].id, before.results[0].id);
    // Result 3: 3 million elements at 3 GFLOP/s.
    QCOMPARE(*after.results[2].flops_per_s, 3e9);
    QCOMPARE(after.results[2].sizes_json, std::string(R"({"elements":3000000})"));

    // The run ended ok now: neither the whole file again nor a cut copy replaces it.
    for (const std::string& text : {whole, first_lines(whole, 4)}) {
        try {
            ws.import_probe_run(probe_run_from_json_lines(text, "again.jsonl"));
            QFAIL("a complete stored run was replaced");
        } catch (const DuplicateProbeRun& e) {
            QCOMPARE(e.stored_id(), cut.id);
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("nothing was imported")),
                     e.what());
        }
    }
    QCOMPARE(ws.find_probe_run(cut.id)->results.size(), std::size_t{3});
}

// nccl-tests ends each test with "# Avg bus bandwidth"; a log cut after its 1 MiB row (the
// fixture's second of three) lacks it and the 1 GiB row: stored as failed with 4 results (two
// rows, out-of-place and in-place), not as an ok run whose largest size is 1 MiB. The whole log
// then completes that run in place: its id stays, status ok, 6 results.
void TestProbeImport::ncclLogCutAtARowIsFailedAndCompleted() {
    const std::string whole = fixture("all_reduce_perf.log");
    const std::string cut = whole.substr(0, whole.find("  1073741824"));
    bool unsummarised = false;
    const ProbeRunRecord part =
        probe_run_from_nccl_tests(cut, "all_reduce_perf.log", "", "t1", &unsummarised);
    QVERIFY(unsummarised);
    QCOMPARE(part.status, ProbeRunStatus::failed);
    QCOMPARE(part.results.size(), std::size_t{4});
    bool whole_unsummarised = true;
    const ProbeRunRecord full =
        probe_run_from_nccl_tests(whole, "all_reduce_perf.log", "", "t2", &whole_unsummarised);
    QVERIFY(!whole_unsummarised);
    QCOMPARE(full.status, ProbeRunStatus::ok);

    QTemporaryDir dir;
    Workspace ws = Workspace::open(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
    const ImportedProbeRun first = ws.import_probe_run(part);
    const ImportedProbeRun completed = ws.import_probe_run(full);
    QCOMPARE(completed.id, first.id);
    QCOMPARE(completed.replaced_status, std::optional<ProbeRunStatus>(ProbeRunStatus::failed));
    QCOMPARE(ws.list_probe_runs().size(), std::size_t{1});
    const ProbeRunRecord after = *ws.find_probe_run(first.id);
    QCOMPARE(after.status, ProbeRunStatus::ok);
    QCOMPARE(after.results.size(), std::size_t{6});
}

void TestProbeImport::importKeepsAStoredCopyWithOtherResults() {
    QTemporaryDir dir;
    Workspace ws = Workspace::open(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
    const std::string whole = jsonl_three_results();
    // A cut copy whose one result says 1.5 GFLOP/s where the whole file says 1 GFLOP/s: not the
    // start of the file's results, so not replaced.
    std::string edited = first_lines(whole, 3);
    const std::size_t at = edited.find("\"flops_per_s\":1000000000");
    QVERIFY(at != std::string::npos);
    edited.replace(at, std::string("\"flops_per_s\":1000000000").size(),
                   "\"flops_per_s\":1500000000");
    const std::int64_t id = ws.import_probe_run(probe_run_from_json_lines(edited, "cut.jsonl")).id;
    QCOMPARE(*ws.find_probe_run(id)->results[0].flops_per_s, 1.5e9);
    try {
        ws.import_probe_run(probe_run_from_json_lines(whole, "run.jsonl"));
        QFAIL("a stored run with other results was replaced");
    } catch (const DuplicateProbeRun& e) {
        QCOMPARE(e.stored_id(), id);
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("does not hold more of it")),
                 e.what());
    }
    const ProbeRunRecord kept = *ws.find_probe_run(id);
    QCOMPARE(kept.status, ProbeRunStatus::failed);
    QCOMPARE(kept.results.size(), std::size_t{1});
}

void TestProbeImport::importRefusesTheSameRunTwice() {
    QTemporaryDir dir;
    Workspace ws = Workspace::open(dir.filePath(QStringLiteral("w.sqlite")).toStdString());
    const ProbeRunRecord first = probe_run_from_json_lines(jsonl_run(), "run.jsonl");
    const std::int64_t id = ws.import_probe_run(first).id;
    QCOMPARE(ws.find_probe_run(id)->content_digest, first.content_digest);
    QCOMPARE(ws.find_same_probe_run(first), std::optional<std::int64_t>(id));
    // The same file again: refused, naming the stored run; nothing added.
    try {
        ws.import_probe_run(first);
        QFAIL("the same run was imported twice");
    } catch (const DuplicateProbeRun& e) {
        QCOMPARE(e.stored_id(), id);
        QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("probe run %1").arg(id)));
    }
    // The same run from another copy of its output (a trailing blank line: another digest) is
    // found by host, backend, start time and device.
    const ProbeRunRecord copy = probe_run_from_json_lines(jsonl_run() + "\n", "copy.jsonl");
    QVERIFY(copy.content_digest != first.content_digest);
    QCOMPARE(ws.find_same_probe_run(copy), std::optional<std::int64_t>(id));
    QCOMPARE(ws.list_probe_runs().size(), std::size_t{1});
    // Another run of the same machine is not a repeat.
    const ProbeRunRecord later =
        probe_run_from_json_lines(jsonl_run("2026-11-30T06:00:00Z"), "later.jsonl");
    ws.import_probe_run(later);
    // An nccl-tests log twice: the log has no start time, its digest finds it.
    const std::int64_t log = ws.import_probe_run(nccl("all_reduce_perf.log")).id;
    ProbeRunRecord again = nccl("all_reduce_perf.log");
    again.started_at = "2026-12-02T00:00:00Z";  // imported a day later
    QCOMPARE(ws.find_same_probe_run(again), std::optional<std::int64_t>(log));
    // Another log imported in the same second from the same hosts is another run.
    ProbeRunRecord other = nccl("all_reduce_perf.log");
    other.content_digest = "fnv1a64:0000000000000001";
    QCOMPARE(ws.find_same_probe_run(other), std::optional<std::int64_t>());
    QCOMPARE(ws.list_probe_runs().size(), std::size_t{3});
    const ProbeRunRecord stored = *ws.find_probe_run(log);
    QCOMPARE(stored.results.size(), std::size_t{6});
    QCOMPARE(stored.results[4].bus_bytes_per_s, std::optional<double>(80.53e9));
}

void TestProbeImport::measuredProfileTakesNetworkFigures() {
    // Intra-node figures from the all_gather log (one host) would do, but the measured
    // profile prefers all-reduce: combine an all_reduce run on two hosts with one on one host.
    ProbeRunRecord run = nccl("all_reduce_perf.log");
    ProbeResultRecord intra = run.results[4];
    intra.sizes_json = R"({"bytes":1073741824,"count":268435456,"ranks":2,"nodes":1})";
    intra.bus_bytes_per_s = 370e9;
    run.results.push_back(intra);
    run.id = 7;
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    QVERIFY(h100 != nullptr);
    const HardwareProfile p = measured_profile(run, h100, "lab", "Lab");
    QCOMPARE(p.interconnect_bytes_per_s, 370e9);
    // Across gpu-a and gpu-b the best all-reduce busbw is the 1 GiB in-place row's 81.34 GB/s.
    QCOMPARE(p.inter_node_bytes_per_s, 81.34e9);
    // Peaks and memory bandwidth stay the base's: the run measured no GEMM or copy.
    QCOMPARE(p.bandwidth_bytes_per_s, h100->bandwidth_bytes_per_s);
    bool said = false;
    for (const MeasuredFigure& f : p.measured) {
        if (f.metric == "inter_node_all_reduce_busbw") {
            said = QString::fromStdString(f.method).contains(
                QStringLiteral("all_reduce in_place fp32 of 1073741824 bytes across 4 ranks on 2"));
        }
    }
    QVERIFY(said);
    // The profile's JSON carries them under the catalog's keys.
    const json j = to_json(p);
    QCOMPARE(j["interconnect"]["bandwidth_bytes_per_s_per_direction"].get<double>(), 370e9);
    QCOMPARE(j["network"]["inter_node_bytes_per_s_per_direction"].get<double>(), 81.34e9);
}

QTEST_APPLESS_MAIN(TestProbeImport)
#include "tst_probe_import.moc"
