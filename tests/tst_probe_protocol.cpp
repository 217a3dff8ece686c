// The tally-probe wire protocol (gpu_probe/protocol/PROTOCOL.md): parsing every event type,
// rejecting broken lines with a reason that names the field, the round trip writer -> parser, the
// line splitter and the run collector.
#include <QtTest>
#include <nlohmann/json.hpp>

#include <string>
#include <variant>

#include "gpu_probe/protocol/probe_protocol.h"

using namespace tally::probe;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// A passed result with every field, as the probe writes it (hand-written, not generated).
const char* const kResultLine =
    R"({"event":"result","test":"matmul","variant":"cublaslt","dtype":"bf16",)"
    R"("sizes":{"m":8192,"k":8192,"n":8192},"flops":1099511627776,"bytes":402653184,)"
    R"("intensity_flops_per_byte":2730.6666666666665,"flops_per_s":7.0e14,"bytes_per_s":2.5e11,)"
    R"("median_s":0.00157,"min_s":0.0015,"max_s":0.0016,"mean_s":0.00156,"stdrel":0.004,)"
    R"("samples":37,"stop_reason":"noise","status":"passed","validated":true,"note":"n"})";

}  // namespace

class TestProbeProtocol : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryEventType_data();
    void parsesEveryEventType();
    void startFields();
    void deviceFieldsCudaAndCpu();
    void resultFields();
    void waivedResultWithoutTiming();
    void errorAndDoneFields();
    void roundTripThroughWriter();
    void writerLeavesOutNonFiniteFigures();
    void rejectsBrokenLines_data();
    void rejectsBrokenLines();
    void messageCutsOnCharacterBoundaries();
    void ignoresUnknownEventsAndBlankLines_data();
    void ignoresUnknownEventsAndBlankLines();
    void lineSplitterJoinsChunks();
    void collectorGathersCompleteRun();
    void collectorNotesWhatDoesNotFit_data();
    void collectorNotesWhatDoesNotFit();
};

void TestProbeProtocol::parsesEveryEventType_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<int>("index");  // position in the Event variant
    QTest::newRow("start") << QStringLiteral(
                                  R"({"event":"start","protocol":1,"tool":"tally-probe",)"
                                  R"("version":"0.1.0","backend":"cpu","host":"h",)"
                                  R"("started_at":"2026-01-01T00:00:00Z","quick":true})")
                           << 0;
    QTest::newRow("device") << QStringLiteral(
                                   R"({"event":"device","backend":"cpu","name":"AMD EPYC"})")
                            << 1;
    QTest::newRow("test") << QStringLiteral(R"({"event":"test","name":"stream","backend":"cpu"})")
                          << 2;
    QTest::newRow("progress") << QStringLiteral(R"({"event":"progress","test":"matmul","index":3,)"
                                                R"("total":20,"message":"m"})")
                              << 3;
    QTest::newRow("result") << QString::fromUtf8(kResultLine) << 4;
    QTest::newRow("error") << QStringLiteral(R"({"event":"error","message":"boom"})") << 5;
    QTest::newRow("done") << QStringLiteral(R"({"event":"done","status":"ok","finished_at":"t",)"
                                            R"("passed":1,"waived":0,"failed":0})")
                          << 6;
    QTest::newRow("with trailing CRLF")
        << QStringLiteral("{\"event\":\"error\",\"message\":\"m\"}\r\n") << 5;
}

void TestProbeProtocol::parsesEveryEventType() {
    QFETCH(QString, line);
    QFETCH(int, index);
    const ParsedLine parsed = parse_line(line.toStdString());
    QVERIFY2(parsed.kind == ParsedLine::Kind::event, parsed.message.c_str());
    QVERIFY(parsed.event.has_value());
    QCOMPARE(static_cast<int>(parsed.event->index()), index);
}

void TestProbeProtocol::startFields() {
    const ParsedLine parsed = parse_line(
        R"({"event":"start","protocol":1,"tool":"tally-probe","version":"0.1.0",)"
        R"("backend":"cuda","host":"gpu1","started_at":"2026-11-30T05:08:38Z","quick":false,)"
        R"("tests":["matmul","dot"],"time_limit_s":3,"l2_flush":true,"seed":42,)"
        R"("inject_fault":"dot","future_field":[1,2]})");
    QVERIFY2(parsed.kind == ParsedLine::Kind::event, parsed.message.c_str());
    const auto& e = std::get<StartEvent>(*parsed.event);
    QCOMPARE(e.protocol, 1);
    QCOMPARE(q(e.backend), QStringLiteral("cuda"));
    QCOMPARE(q(e.host), QStringLiteral("gpu1"));
    QCOMPARE(q(e.started_at), QStringLiteral("2026-11-30T05:08:38Z"));
    QCOMPARE(e.quick, false);
    QCOMPARE(e.tests.size(), std::size_t{2});
    QCOMPARE(q(e.tests[1]), QStringLiteral("dot"));
    QCOMPARE(e.time_limit_s.value_or(0.0), 3.0);  // an integer is accepted as a number
    QCOMPARE(e.l2_flush, true);
    QCOMPARE(e.seed.value_or(0), std::uint64_t{42});
    QCOMPARE(q(e.inject_fault.value_or("")), QStringLiteral("dot"));
}

void TestProbeProtocol::deviceFieldsCudaAndCpu() {
    const ParsedLine gpu = parse_line(
        R"({"event":"device","backend":"cuda","name":"NVIDIA H200","index":0,)"
        R"("memory_bytes":150754820096,"compute_capability":"9.0","sm_count":132,)"
        R"("clock_mhz":1980,"l2_bytes":52428800,"driver_version":"13.0","runtime_version":"13.0"})");
    QVERIFY2(gpu.kind == ParsedLine::Kind::event, gpu.message.c_str());
    const auto& d = std::get<DeviceEvent>(*gpu.event);
    QCOMPARE(q(d.name), QStringLiteral("NVIDIA H200"));
    // 150754820096 does not fit in 32 bits: the parser keeps 64.
    QCOMPARE(d.memory_bytes.value_or(0), std::int64_t{150754820096});
    QCOMPARE(q(d.compute_capability.value_or("")), QStringLiteral("9.0"));
    QCOMPARE(d.sm_count.value_or(0), 132);
    QCOMPARE(d.clock_mhz.value_or(0.0), 1980.0);
    QVERIFY(!d.cores.has_value());

    const ParsedLine cpu =
        parse_line(R"({"event":"device","backend":"cpu","name":"AMD EPYC","cores":2,"threads":2,)"
                   R"("memory_bytes":25276514304,"llc_bytes":33554432,"blas":"OpenBLAS 0.3.21",)"
                   R"("simd":"avx2+fma"})");
    QVERIFY2(cpu.kind == ParsedLine::Kind::event, cpu.message.c_str());
    const auto& c = std::get<DeviceEvent>(*cpu.event);
    QCOMPARE(c.cores.value_or(0), 2);
    QCOMPARE(c.llc_bytes.value_or(0), std::int64_t{32} << 20);
    QCOMPARE(q(c.blas.value_or("")), QStringLiteral("OpenBLAS 0.3.21"));
    QVERIFY(!c.compute_capability.has_value());
}

void TestProbeProtocol::resultFields() {
    const ParsedLine parsed = parse_line(kResultLine);
    QVERIFY2(parsed.kind == ParsedLine::Kind::event, parsed.message.c_str());
    const auto& r = std::get<ResultEvent>(*parsed.event);
    QCOMPARE(q(r.test), QStringLiteral("matmul"));
    QCOMPARE(q(r.variant), QStringLiteral("cublaslt"));
    QCOMPARE(q(r.dtype), QStringLiteral("bf16"));
    QCOMPARE(r.sizes.at("m"), std::int64_t{8192});
    // 2·m·k·n = 2·8192³ = 2^41 = 1099511627776.
    QCOMPARE(r.flops.value_or(0.0), 1099511627776.0);
    QCOMPARE(r.median_s.value_or(0.0), 0.00157);
    QCOMPARE(r.samples, 37);
    QCOMPARE(q(r.stop_reason), QStringLiteral("noise"));
    QVERIFY(r.status == ResultStatus::passed);
    QVERIFY(r.validated);
    QVERIFY(r.reason.empty());
}

void TestProbeProtocol::waivedResultWithoutTiming() {
    const ParsedLine parsed =
        parse_line(R"({"event":"result","test":"matmul","dtype":"fp8_e4m3","status":"waived",)"
                   R"("validated":false,"reason":"needs compute capability 8.9"})");
    QVERIFY2(parsed.kind == ParsedLine::Kind::event, parsed.message.c_str());
    const auto& r = std::get<ResultEvent>(*parsed.event);
    QVERIFY(r.status == ResultStatus::waived);
    QVERIFY(!r.median_s.has_value());
    QVERIFY(r.sizes.empty());
    QCOMPARE(r.samples, 0);
    QCOMPARE(q(r.reason), QStringLiteral("needs compute capability 8.9"));
}

void TestProbeProtocol::errorAndDoneFields() {
    const ParsedLine error =
        parse_line(R"({"event":"error","message":"no CUDA device","fatal":true,"exit_code":3})");
    QVERIFY2(error.kind == ParsedLine::Kind::event, error.message.c_str());
    const auto& e = std::get<ErrorEvent>(*error.event);
    QVERIFY(e.fatal);
    QCOMPARE(e.exit_code.value_or(0), 3);

    const ParsedLine done =
        parse_line(R"({"event":"done","status":"failed","finished_at":"2026-11-30T05:09:00Z",)"
                   R"("passed":17,"waived":2,"failed":1,"elapsed_s":12.5})");
    QVERIFY2(done.kind == ParsedLine::Kind::event, done.message.c_str());
    const auto& d = std::get<DoneEvent>(*done.event);
    QVERIFY(d.status == RunStatus::failed);
    QCOMPARE(d.passed, 17);
    QCOMPARE(d.waived, 2);
    QCOMPARE(d.failed, 1);
    QCOMPARE(d.elapsed_s.value_or(0.0), 12.5);
}

void TestProbeProtocol::roundTripThroughWriter() {
    ResultEvent r;
    r.test = "stream";
    r.variant = "triad";
    r.dtype = "fp64";
    r.sizes = {{"elements", 16777216}};
    // Triad moves 3 arrays of 16777216 doubles: 3·16777216·8 = 402653184 bytes, 2 FLOPs each.
    r.flops = 2.0 * 16777216;
    r.bytes = 402653184.0;
    r.median_s = 0.02;
    r.min_s = 0.019;
    r.max_s = 0.03;
    r.samples = 20;
    r.status = ResultStatus::failed;
    r.validated = false;
    r.reason = "1 of 16777216 elements differ";
    const std::string line = to_json_line(r);
    QVERIFY(line.find('\n') == std::string::npos);
    const ParsedLine parsed = parse_line(line);
    QVERIFY2(parsed.kind == ParsedLine::Kind::event, parsed.message.c_str());
    const auto& back = std::get<ResultEvent>(*parsed.event);
    QCOMPARE(q(back.variant), QStringLiteral("triad"));
    QCOMPARE(back.sizes.at("elements"), std::int64_t{16777216});
    QCOMPARE(back.bytes.value_or(0.0), 402653184.0);
    QCOMPARE(back.samples, 20);
    QVERIFY(back.status == ResultStatus::failed);
    QVERIFY(!back.validated);
    QCOMPARE(q(back.reason), QStringLiteral("1 of 16777216 elements differ"));

    StartEvent s;
    s.backend = "cpu";
    s.host = "h";
    s.started_at = "2026-11-30T05:08:38Z";
    s.tests = {"stream", "matmul"};
    const ParsedLine start = parse_line(to_json_line(s));
    QVERIFY2(start.kind == ParsedLine::Kind::event, start.message.c_str());
    QCOMPARE(q(std::get<StartEvent>(*start.event).tool), QStringLiteral("tally-probe"));
    QCOMPARE(std::get<StartEvent>(*start.event).protocol, kProtocolVersion);

    DoneEvent d;
    d.finished_at = "t";
    d.passed = 3;
    const ParsedLine done = parse_line(to_json_line(d));
    QVERIFY2(done.kind == ParsedLine::Kind::event, done.message.c_str());
    QCOMPARE(std::get<DoneEvent>(*done.event).passed, 3);
}

void TestProbeProtocol::writerLeavesOutNonFiniteFigures() {
    ResultEvent r;
    r.test = "dot";
    r.status = ResultStatus::failed;
    r.flops_per_s = std::numeric_limits<double>::infinity();
    r.median_s = std::numeric_limits<double>::quiet_NaN();
    const std::string line = to_json_line(r);
    QVERIFY(line.find("flops_per_s") == std::string::npos);
    QVERIFY(line.find("median_s") == std::string::npos);
    QVERIFY(parse_line(line).kind == ParsedLine::Kind::event);
}

void TestProbeProtocol::rejectsBrokenLines_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("reason");  // a fragment the message must contain
    QTest::newRow("truncated line")
        << QStringLiteral(R"({"event":"result","test":"mat)") << QStringLiteral("truncated");
    QTest::newRow("malformed JSON")
        << QStringLiteral(R"(event=result)") << QStringLiteral("malformed JSON");
    QTest::newRow("NaN literal") << QStringLiteral(
                                        R"({"event":"result","test":"t","median_s":NaN})")
                                 << QStringLiteral("malformed JSON");
    QTest::newRow("overflowing number")
        << QStringLiteral(R"({"event":"result","test":"t","median_s":1e999})")
        << QStringLiteral("malformed JSON");
    QTest::newRow("not an object")
        << QStringLiteral(R"([1,2,3])") << QStringLiteral("expected a JSON object");
    QTest::newRow("missing event")
        << QStringLiteral(R"({"test":"matmul"})") << QStringLiteral("missing field 'event'");
    QTest::newRow("event not a string")
        << QStringLiteral(R"({"event":7})") << QStringLiteral("field 'event'");
    QTest::newRow("start without backend")
        << QStringLiteral(R"({"event":"start","protocol":1,"tool":"t","version":"v",)"
                          R"("started_at":"x"})")
        << QStringLiteral("missing field 'backend'");
    QTest::newRow("start from a newer protocol")
        << QStringLiteral(R"({"event":"start","protocol":2,"tool":"t","version":"v",)"
                          R"("backend":"cpu","started_at":"x"})")
        << QStringLiteral("protocol 2 is not supported");
    QTest::newRow("device name a number")
        << QStringLiteral(R"({"event":"device","backend":"cpu","name":5})")
        << QStringLiteral("field 'name': expected a string");
    QTest::newRow("progress index past total")
        << QStringLiteral(R"({"event":"progress","test":"t","index":4,"total":3})")
        << QStringLiteral("field 'index'");
    QTest::newRow("result unknown status")
        << QStringLiteral(R"({"event":"result","test":"t","status":"great","validated":true})")
        << QStringLiteral("field 'status'");
    QTest::newRow("result without validated")
        << QStringLiteral(R"({"event":"result","test":"t","status":"waived"})")
        << QStringLiteral("missing field 'validated'");
    QTest::newRow("result NaN as a string")
        << QStringLiteral(R"({"event":"result","test":"t","status":"passed","validated":true,)"
                          R"("samples":3,"median_s":"NaN"})")
        << QStringLiteral("field 'median_s': expected a finite number");
    QTest::newRow("result negative time")
        << QStringLiteral(R"({"event":"result","test":"t","status":"passed","validated":true,)"
                          R"("samples":3,"median_s":-0.5})")
        << QStringLiteral("field 'median_s': must not be negative");
    QTest::newRow("result samples not an integer")
        << QStringLiteral(R"({"event":"result","test":"t","status":"passed","validated":true,)"
                          R"("samples":2.5,"median_s":0.1})")
        << QStringLiteral("field 'samples': expected an integer");
    QTest::newRow("passed result without timing")
        << QStringLiteral(R"({"event":"result","test":"t","status":"passed","validated":true})")
        << QStringLiteral("must carry 'median_s'");
    QTest::newRow("result min above median")
        << QStringLiteral(R"({"event":"result","test":"t","status":"passed","validated":true,)"
                          R"("samples":3,"median_s":1,"min_s":2,"max_s":3})")
        << QStringLiteral("'min_s' is larger than 'median_s'");
    QTest::newRow("result sizes not an object")
        << QStringLiteral(R"({"event":"result","test":"t","status":"waived","validated":false,)"
                          R"("sizes":[1]})")
        << QStringLiteral("field 'sizes'");
    QTest::newRow("result size a string")
        << QStringLiteral(R"({"event":"result","test":"t","status":"waived","validated":false,)"
                          R"("sizes":{"m":"big"}})")
        << QStringLiteral("field 'sizes.m'");
    QTest::newRow("done negative count")
        << QStringLiteral(R"({"event":"done","status":"ok","finished_at":"t","passed":-1,)"
                          R"("waived":0,"failed":0})")
        << QStringLiteral("field 'passed': must be at least 0");
    QTest::newRow("done unknown status")
        << QStringLiteral(R"({"event":"done","status":"meh","finished_at":"t","passed":0,)"
                          R"("waived":0,"failed":0})")
        << QStringLiteral("field 'status'");
    QTest::newRow("error without message")
        << QStringLiteral(R"({"event":"error"})") << QStringLiteral("missing field 'message'");
}

void TestProbeProtocol::rejectsBrokenLines() {
    QFETCH(QString, line);
    QFETCH(QString, reason);
    const ParsedLine parsed = parse_line(line.toStdString());
    QVERIFY(parsed.kind == ParsedLine::Kind::invalid);
    QVERIFY(!parsed.event.has_value());
    QVERIFY2(q(parsed.message).contains(reason), parsed.message.c_str());
}

void TestProbeProtocol::messageCutsOnCharacterBoundaries() {
    // A JSON string of 25 "é" (2 bytes each): its dump is '"' + 50 bytes. The message keeps the
    // first 40 bytes of the dump; byte 40 is the second byte of the 20th "é", so a cut at 40
    // bytes splits it. The cut must step back to byte 39: '"' + 19 "é" + "...".
    std::string line = "\"";
    for (int i = 0; i < 25; ++i) {
        line += "\xc3\xa9";
    }
    line += "\"";
    const ParsedLine parsed = parse_line(line);
    QVERIFY(parsed.kind == ParsedLine::Kind::invalid);
    std::string expected = "expected a JSON object, got string \"";
    for (int i = 0; i < 19; ++i) {
        expected += "\xc3\xa9";
    }
    expected += "...";
    QCOMPARE(parsed.message, expected);
    // Valid UTF-8 at every cut position (a strict dump, as `tally probe --json` does, throws
    // type_error 316 on anything else): strings of "€" (3 bytes) shifted by 0, 1 or 2 ASCII bytes.
    for (int shift = 0; shift < 3; ++shift) {
        std::string text = "\"" + std::string(static_cast<std::size_t>(shift), 'x');
        for (int i = 0; i < 20; ++i) {
            text += "\xe2\x82\xac";
        }
        text += "\"";
        const ParsedLine p = parse_line(text);
        QVERIFY(p.kind == ParsedLine::Kind::invalid);
        try {
            (void)nlohmann::json(p.message).dump();
        } catch (const nlohmann::json::exception& e) {
            QFAIL(e.what());
        }
    }
}

void TestProbeProtocol::ignoresUnknownEventsAndBlankLines_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("note");
    QTest::newRow("unknown event") << QStringLiteral(R"({"event":"telemetry","watts":300})")
                                   << QStringLiteral("unknown event 'telemetry'");
    QTest::newRow("blank line") << QStringLiteral("   ") << QStringLiteral("blank line");
    QTest::newRow("empty line") << QString() << QStringLiteral("blank line");
}

void TestProbeProtocol::ignoresUnknownEventsAndBlankLines() {
    QFETCH(QString, line);
    QFETCH(QString, note);
    const ParsedLine parsed = parse_line(line.toStdString());
    QVERIFY(parsed.kind == ParsedLine::Kind::ignored);
    QVERIFY2(q(parsed.message).contains(note), parsed.message.c_str());
}

void TestProbeProtocol::lineSplitterJoinsChunks() {
    LineSplitter splitter;
    QVERIFY(splitter.feed(R"({"event":"err)").empty());
    const auto first = splitter.feed("or\",\"message\":\"a\"}\r\n{\"event\"");
    QCOMPARE(first.size(), std::size_t{1});
    QCOMPARE(q(first[0]), QStringLiteral(R"({"event":"error","message":"a"})"));
    const auto second = splitter.feed(":\"error\",\"message\":\"b\"}\n\n{\"eve");
    QCOMPARE(second.size(), std::size_t{2});
    QVERIFY(second[1].empty());
    // The stream ends in the middle of a line: finish() hands the truncated tail over.
    const auto tail = splitter.finish();
    QVERIFY(tail.has_value());
    QCOMPARE(q(*tail), QStringLiteral("{\"eve"));
    QVERIFY(parse_line(*tail).kind == ParsedLine::Kind::invalid);
    QVERIFY(!splitter.finish().has_value());
}

void TestProbeProtocol::collectorGathersCompleteRun() {
    RunCollector collector;
    collector.add_line(R"({"event":"start","protocol":1,"tool":"tally-probe","version":"0.1.0",)"
                       R"("backend":"cpu","host":"h","started_at":"s"})");
    collector.add_line(R"({"event":"device","backend":"cpu","name":"c"})");
    collector.add_line(R"({"event":"progress","test":"dot","index":1,"total":1})");
    collector.add_line(R"({"event":"result","test":"dot","status":"passed","validated":true,)"
                       R"("samples":5,"median_s":0.01})");
    collector.add_line(R"({"event":"result","test":"dot","status":"waived","validated":false})");
    collector.add_line("");
    collector.add_line(R"({"event":"done","status":"ok","finished_at":"f","passed":1,)"
                       R"("waived":1,"failed":0})");
    const ProbeRun& run = collector.finish();
    QVERIFY(run.complete());
    QCOMPARE(run.devices.size(), std::size_t{1});
    QCOMPARE(run.progress.size(), std::size_t{1});
    QCOMPARE(run.results.size(), std::size_t{2});
    QVERIFY2(run.notes.empty(), run.notes.empty() ? "" : run.notes.front().c_str());
}

void TestProbeProtocol::collectorNotesWhatDoesNotFit_data() {
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<QString>("note");
    const QString start = QStringLiteral(
        R"({"event":"start","protocol":1,"tool":"t","version":"v","backend":"cpu","started_at":"s"})");
    const QString result =
        QStringLiteral(R"({"event":"result","test":"dot","status":"failed","validated":false})");
    const QString done = QStringLiteral(
        R"({"event":"done","status":"failed","finished_at":"f","passed":0,"waived":0,"failed":1})");
    QTest::newRow("no done event (probe killed)")
        << QStringList{start, result} << QStringLiteral("without a done event");
    QTest::newRow("result before start")
        << QStringList{result, start, done} << QStringLiteral("line 1: result event before start");
    QTest::newRow("done counts disagree")
        << QStringList{start, done} << QStringLiteral("disagree with the results seen 0/0/0");
    QTest::newRow("event after done") << QStringList{start, result, done, result}
                                      << QStringLiteral("line 4: result event after done");
    QTest::newRow("second start") << QStringList{start, start}
                                  << QStringLiteral("line 2: a second start event ignored");
    QTest::newRow("invalid line kept as a note")
        << QStringList{start, QStringLiteral("{\"event\":\"res"), result, done}
        << QStringLiteral("line 2: malformed JSON");
}

void TestProbeProtocol::collectorNotesWhatDoesNotFit() {
    QFETCH(QStringList, lines);
    QFETCH(QString, note);
    RunCollector collector;
    for (const QString& line : lines) {
        collector.add_line(line.toStdString());
    }
    const ProbeRun& run = collector.finish();
    bool found = false;
    for (const auto& n : run.notes) {
        found = found || q(n).contains(note);
    }
    QVERIFY2(found, qPrintable(QStringLiteral("no note containing '%1'").arg(note)));
}

QTEST_GUILESS_MAIN(TestProbeProtocol)
#include "tst_probe_protocol.moc"
