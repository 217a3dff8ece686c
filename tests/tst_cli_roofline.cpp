// `tally roofline`, `tally hardware list|show` and `tally dtypes` as a user runs them: the
// built binary, its output and its exit codes. Expected values are the lecture's figures and
// hand derivations, never the program's own output.
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/cli_test_util.h"

using nlohmann::json;

namespace {

using tally::test::Run;
using tally::test::run_tally;

QString seed_example() {
    return QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/roofline-seed.json");
}

const json* find_op(const json& ops, const std::string& name) {
    for (const json& op : ops) {
        if (op["name"] == name) {
            return &op;
        }
    }
    return nullptr;
}

// A minimal spec around one operation, for the error cases.
QByteArray spec_with_op(const char* op) {
    return QByteArray(R"({"model": {"preset": "llama-3-8b"}, "data": {"tokens": 1e9},
        "cluster": {"gpu": "h100-sxm"}, "ops": [)") +
           op + "]}";
}

}  // namespace

class TestCliRoofline : public QObject {
    Q_OBJECT

private slots:
    void seedExampleJson();
    void modelLayersByPhase();
    void readsStandardInputAndTable();
    void hardwareList();
    void hardwareShow();
    void hardwareShowUnknownId();
    void dtypesUnderflow();
    void dtypesTable();
    void badInput_data();
    void badInput();
};

void TestCliRoofline::seedExampleJson() {
    const Run r = run_tally({QStringLiteral("roofline"), seed_example(), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    const json& hw = j["hardware"];
    QCOMPARE(hw["id"].get<std::string>(), std::string("h100-sxm"));
    QCOMPARE(hw["dtype"].get<std::string>(), std::string("bf16"));
    // Lecture 2: (1979e12 / 2) / 3.35e12 = 295.37 FLOP/byte.
    QCOMPARE(hw["peak_flops_per_s"].get<double>(), 1979e12 / 2);
    QCOMPARE(hw["bandwidth_bytes_per_s"].get<double>(), 3.35e12);
    QVERIFY(std::abs(hw["ridge_flops_per_byte"].get<double>() - 295.37) < 0.01);

    const json& ops = j["ops"];
    struct Expect {
        const char* name;
        double intensity;
        double tolerance;
        const char* bound;
    };
    // ReLU n / 4n = 0.25; GELU 20n / 4n = 5; dot 2n / (4n + 2) ~ 0.5; matvec 1024/1026 ~ 1;
    // matmul 1024/3 = 341.3: only the matmul is right of the ridge.
    const Expect expected[] = {
        {"ReLU, 1e6 values", 0.25, 1e-12, "memory"},
        {"GELU, 1e6 values", 5.0, 1e-12, "memory"},
        {"dot product, n = 1e6", 0.5, 1e-6, "memory"},
        {"matrix-vector, 1024 x 1024", 1024.0 / 1026.0, 1e-9, "memory"},
        {"matmul, 1024^3", 1024.0 / 3.0, 1e-9, "compute"},
    };
    for (const Expect& e : expected) {
        const json* op = find_op(ops, e.name);
        QVERIFY2(op, e.name);
        QVERIFY2(std::abs((*op)["intensity"].get<double>() - e.intensity) < e.tolerance, e.name);
        QCOMPARE((*op)["bound"].get<std::string>(), std::string(e.bound));
        QCOMPARE((*op)["phase"].get<std::string>(), std::string("spec"));
        QCOMPARE((*op)["dtype"].get<std::string>(), std::string("bf16"));
    }
    // ReLU: 4e6 bytes at 3.35e12 B/s = 1.19e-6 s (lecture: "1e-6"), 0.25 x 3.35e12 FLOP/s.
    const json* relu = find_op(ops, "ReLU, 1e6 values");
    QVERIFY(std::abs((*relu)["seconds"].get<double>() - 4e6 / 3.35e12) < 1e-15);
    QVERIFY(std::abs((*relu)["attainable_flops_per_s"].get<double>() - 8.375e11) < 1.0);
    // The matmul runs at the peak.
    const json* mm = find_op(ops, "matmul, 1024^3");
    QCOMPARE((*mm)["attainable_flops_per_s"].get<double>(), 1979e12 / 2);
    QCOMPARE((*mm)["flops"].get<double>(), 2.0 * 1024 * 1024 * 1024);
    // Linear-layer einsum: 2·B·S·D·K = 2·8·1024·1024·4096 FLOPs;
    // bytes 2·(8·1024·1024 + 1024·4096 + 8·1024·4096).
    const json* lin = find_op(ops, "linear layer (einsum)");
    QVERIFY(lin);
    QCOMPARE((*lin)["kind"].get<std::string>(), std::string("einsum"));
    QCOMPARE((*lin)["flops"].get<double>(), 2.0 * 8 * 1024 * 1024 * 4096);
    QCOMPARE((*lin)["bytes"].get<double>(),
             2.0 * (8.0 * 1024 * 1024 + 1024.0 * 4096 + 8.0 * 1024 * 4096));
    // "..." = [8, 1024] in front of a 1024 x 1024 weight: 2·8·1024·1024·1024 FLOPs.
    const json* ell = find_op(ops, "leading dims (einsum ...)");
    QVERIFY(ell);
    QCOMPARE((*ell)["flops"].get<double>(), 2.0 * 8 * 1024 * 1024 * 1024);
}

void TestCliRoofline::modelLayersByPhase() {
    const Run r = run_tally({QStringLiteral("roofline"), seed_example(), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    std::set<std::string> phases;
    bool saw_backward = false;
    for (const json& op : j["ops"]) {
        const std::string phase = op["phase"];
        phases.insert(phase);
        QVERIFY(op["seconds"].get<double>() >= 0.0);
        QVERIFY(op["bound"] == "memory" || op["bound"] == "compute");
        // Lecture 2: decode is matrix-vector work and memory-bound.
        if (phase == "decode") {
            QCOMPARE(op["bound"].get<std::string>(), std::string("memory"));
        }
        saw_backward = saw_backward || op["pass"] == "backward";
    }
    QCOMPARE(phases, (std::set<std::string>{"spec", "training", "prefill", "decode"}));
    QVERIFY(saw_backward);
    // Llama 2 70B (80 layers, hidden 8192, 64 heads of 128, 8 KV heads): the decode QKV
    // projection is [1 x 8192] @ [8192 x (64 + 2·8)·128 = 10240]: 2·8192·10240 FLOPs, 80 times.
    const json* qkv = nullptr;
    for (const json& op : j["ops"]) {
        if (op["phase"] == "decode" && op["name"] == "QKV projection") {
            qkv = &op;
        }
    }
    QVERIFY(qkv);
    QCOMPARE((*qkv)["flops"].get<double>(), 2.0 * 8192 * 10240);
    QCOMPARE((*qkv)["count"].get<double>(), 80.0);
    QCOMPARE(j["phases"].size(), std::size_t(3));
}

void TestCliRoofline::readsStandardInputAndTable() {
    QFile f(seed_example());
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray spec = f.readAll();
    const Run r = run_tally(
        {QStringLiteral("roofline"), QStringLiteral("-"), QStringLiteral("--json")}, spec);
    QCOMPARE(r.exit_code, 0);
    QCOMPARE(json::parse(r.out.toStdString())["hardware"]["id"].get<std::string>(),
             std::string("h100-sxm"));
    const Run table = run_tally({QStringLiteral("roofline"), seed_example()});
    QCOMPARE(table.exit_code, 0);
    QVERIFY(table.out.contains("ReLU, 1e6 values"));
    QVERIFY(table.out.contains("memory"));
    QVERIFY(table.out.contains("compute"));
}

void TestCliRoofline::hardwareList() {
    const Run r =
        run_tally({QStringLiteral("hardware"), QStringLiteral("list"), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QVERIFY(j.is_array());
    QVERIFY(j.size() >= 20);
    bool saw_v100 = false;
    for (const json& hw : j) {
        for (const char* key : {"id", "name", "memory_bytes", "bandwidth_bytes_per_s"}) {
            QVERIFY2(hw.contains(key), key);
        }
        for (const char* dt : {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8"}) {
            QVERIFY2(hw["peak_flops_per_s"].contains(dt), dt);
        }
        if (hw["id"] == "v100-sxm2-32gb") {
            saw_v100 = true;
            // Volta has no bf16: null, not 0. Its fp16 tensor peak is 125 TFLOPS (dense).
            QVERIFY(hw["peak_flops_per_s"]["bf16"].is_null());
            QCOMPARE(hw["peak_flops_per_s"]["fp16"].get<double>(), 125e12);
        }
    }
    QVERIFY(saw_v100);
    const Run table = run_tally({QStringLiteral("hardware"), QStringLiteral("list")});
    QCOMPARE(table.exit_code, 0);
    QVERIFY(table.out.contains("h100-sxm"));
}

void TestCliRoofline::hardwareShow() {
    const Run r = run_tally({QStringLiteral("hardware"), QStringLiteral("show"),
                             QStringLiteral("h100-sxm"), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["id"].get<std::string>(), std::string("h100-sxm"));
    QVERIFY(j["sources"].size() >= 1);
    QVERIFY(j.contains("figure_sources"));
    QCOMPARE(j["datasheet_printed_flops_per_s"]["bf16"].get<double>(), 1979e12);
    QVERIFY(std::abs(j["ridge_flops_per_byte"]["bf16"].get<double>() - 295.37) < 0.01);
    QVERIFY(j["ridge_flops_per_byte"]["fp4"].is_null());
    const Run table =
        run_tally({QStringLiteral("hardware"), QStringLiteral("show"), QStringLiteral("mi300x")});
    QCOMPARE(table.exit_code, 0);
    QVERIFY(table.out.contains("sources"));
}

void TestCliRoofline::hardwareShowUnknownId() {
    const Run r =
        run_tally({QStringLiteral("hardware"), QStringLiteral("show"), QStringLiteral("h1000")});
    QCOMPARE(r.exit_code, 2);
    // The message lists the valid ids.
    QVERIFY(r.err.contains("h1000"));
    QVERIFY(r.err.contains("h100-sxm"));
    QVERIFY(r.err.contains("tpu-v5p"));
    QVERIFY(!r.err.contains("such as"));
    // "h100" is short for the three H100 parts of the catalog: named first, then all ids.
    const Run shortened =
        run_tally({QStringLiteral("hardware"), QStringLiteral("show"), QStringLiteral("h100")});
    QCOMPARE(shortened.exit_code, 2);
    QVERIFY2(shortened.err.contains("such as h100-sxm, h100-pcie, h100-nvl (all: v100-sxm2-32gb"),
             shortened.err.constData());
}

void TestCliRoofline::dtypesUnderflow() {
    const Run r = run_tally({QStringLiteral("dtypes"), QStringLiteral("--value"),
                             QStringLiteral("1e-8"), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    const char* names[] = {"fp32",     "tf32",     "fp16",  "bf16", "fp8_e4m3",
                           "fp8_e5m2", "fp4_e2m1", "nvfp4", "mxfp4"};
    QCOMPARE(j["formats"].size(), std::size_t(9));
    for (std::size_t i = 0; i < 9; ++i) {
        const json& f = j["formats"][i];
        QCOMPARE(f["name"].get<std::string>(), std::string(names[i]));
        for (const char* key : {"sign_bits", "exponent_bits", "mantissa_bits", "bits_per_value",
                                "max", "min_normal", "min_subnormal", "epsilon", "value"}) {
            QVERIFY2(f.contains(key), key);
        }
    }
    // Lecture 2: 1e-8 in fp16 is 0 (below half of 2^-24); bf16 keeps it: 172 * 2^-34.
    QCOMPARE(j["formats"][2]["value"].get<double>(), 0.0);
    QCOMPARE(j["formats"][2]["conversion"]["status"].get<std::string>(),
             std::string("underflow_zero"));
    QCOMPARE(j["formats"][3]["value"].get<double>(), std::ldexp(172.0, -34));
    // fp32 rounds as the C++ double -> float conversion does.
    QCOMPARE(j["formats"][0]["value"].get<double>(), static_cast<double>(static_cast<float>(1e-8)));
    // fp16 max (2 - 2^-10) * 2^15 = 65504; E4M3 max 1.75 * 2^8 = 448; E5M2 1.75 * 2^15 = 57344.
    QCOMPARE(j["formats"][2]["max"].get<double>(), 65504.0);
    QCOMPARE(j["formats"][4]["max"].get<double>(), 448.0);
    QCOMPARE(j["formats"][5]["max"].get<double>(), 57344.0);
    // Block formats: 4 + 8/16 = 4.5 and 4 + 8/32 = 4.25 bits per value.
    QCOMPARE(j["formats"][7]["bits_per_value"].get<double>(), 4.5);
    QCOMPARE(j["formats"][8]["bits_per_value"].get<double>(), 4.25);
    // Without --value, value is null.
    const Run plain = run_tally({QStringLiteral("dtypes"), QStringLiteral("--json")});
    QCOMPARE(plain.exit_code, 0);
    QVERIFY(json::parse(plain.out.toStdString())["formats"][0]["value"].is_null());
}

void TestCliRoofline::dtypesTable() {
    const Run r =
        run_tally({QStringLiteral("dtypes"), QStringLiteral("--value"), QStringLiteral("1e-8")});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.contains("fp16"));
    // What happened to the value in words, as the window says it; the JSON keeps the identifier.
    QVERIFY(r.out.contains("0 (underflows to zero)"));
    QVERIFY(!r.out.contains("underflow_zero"));
    QVERIFY(r.out.contains("65504"));
}

void TestCliRoofline::badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("message");
    QTest::newRow("einsum without arrow")
        << QStringList{QStringLiteral("roofline"), QStringLiteral("-")}
        << spec_with_op(
               R"({"kind": "einsum", "expr": "a b, b c", "sizes": {"a": 1, "b": 2, "c": 3}})")
        << "ops[0].expr";
    QTest::newRow("einsum size missing")
        << QStringList{QStringLiteral("roofline"), QStringLiteral("-")}
        << spec_with_op(R"({"kind": "einsum", "expr": "a b -> a", "sizes": {"a": 1}})")
        << "ops[0].sizes.b";
    QTest::newRow("fp4 on an H100")
        << QStringList{QStringLiteral("roofline"), QStringLiteral("-")}
        << spec_with_op(R"({"kind": "relu", "dtype": "fp4", "n": 10})") << "ops[0].dtype";
    QTest::newRow("matmul without k")
        << QStringList{QStringLiteral("roofline"), QStringLiteral("-")}
        << spec_with_op(R"({"kind": "matmul", "m": 2, "n": 3})") << "ops[0].k";
    QTest::newRow("not JSON") << QStringList{QStringLiteral("roofline"), QStringLiteral("-")}
                              << QByteArray("{ nope") << "JSON";
    QTest::newRow("value not a number")
        << QStringList{QStringLiteral("dtypes"), QStringLiteral("--value"), QStringLiteral("abc")}
        << QByteArray() << "--value";
    QTest::newRow("hardware without subcommand")
        << QStringList{QStringLiteral("hardware")} << QByteArray() << "";
}

void TestCliRoofline::badInput() {
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    QFETCH(QString, message);
    const Run r = run_tally(args, input);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
}

QTEST_GUILESS_MAIN(TestCliRoofline)
#include "tst_cli_roofline.moc"
