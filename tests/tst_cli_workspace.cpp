// `tally profiles|plans|probes|compare` as a user runs them: the built binary against a
// workspace file of the test's own (--db), its output and its exit codes.
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "planner/store/sqlite_db.h"
#include "planner/store/workspace.h"
#include "tests/cli_test_util.h"

using nlohmann::json;
using tally::test::Run;
using tally::test::run_tally;

namespace {

json parse(const Run& r) {
    return json::parse(r.out.toStdString());
}

QString example(const char* name) {
    return QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

// The shipped catalog as the test reads it itself.
json catalog() {
    std::ifstream in(TALLY_SOURCE_DIR "/resources/hardware/catalog.json");
    return json::parse(in)["hardware"];
}

json find_id(const json& list, const std::string& id) {
    for (const json& item : list) {
        if (item["id"] == id) {
            return item;
        }
    }
    return json();
}

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// The id the workspace gave the first result of run `run_id`, read through the API.
std::int64_t ws_result_id(const std::string& db, std::int64_t run_id) {
    return tally::Workspace::open(db).find_probe_run(run_id)->results.at(0).id;
}

}  // namespace

class TestCliWorkspace : public QObject {
    Q_OBJECT

private slots:
    void init();
    void listWithoutWorkspaceShowsBuiltins();
    void profilesRoundTrip();
    void profileASavedPlanRunsOnIsKept();
    void exportImportSharesAProfile();
    void plansRoundTrip();
    void plansCompare();
    void probesAndMeasuredProfile();
    void compareAndPlanOnCustomProfile();
    void badInput_data();
    void badInput();
    void notAWorkspaceIsLeftAlone();
    void damagedPlanIsNotBadInput();

private:
    QStringList db() const { return {QStringLiteral("--db"), m_db}; }
    QTemporaryDir m_dir;
    QString m_db;
    int m_case = 0;
};

void TestCliWorkspace::init() {
    QVERIFY(m_dir.isValid());
    m_db = m_dir.path() + QStringLiteral("/ws-%1.sqlite").arg(++m_case);
}

void TestCliWorkspace::listWithoutWorkspaceShowsBuiltins() {
    const Run r = run_tally(QStringList{"profiles", "list", "--json"} + db());
    QCOMPARE(r.exit_code, 0);
    const json list = parse(r);
    QCOMPARE(list.size(), catalog().size());
    for (const json& p : list) {
        QCOMPARE(p["kind"].get<std::string>(), std::string("builtin"));
        QVERIFY(p["id"].is_string() && p["name"].is_string());
    }
    // Looking creates no file.
    QVERIFY(!QFileInfo::exists(m_db));
    QCOMPARE(parse(run_tally(QStringList{"plans", "list", "--json"} + db())), json::array());
    QCOMPARE(parse(run_tally(QStringList{"probes", "list", "--json"} + db())), json::array());
    QVERIFY(!QFileInfo::exists(m_db));
}

// A saved plan names its GPU by profile id; removing that profile would leave the plan unable
// to plan. `profiles rm` refuses, naming the plan, unless --force.
void TestCliWorkspace::profileASavedPlanRunsOnIsKept() {
    QVERIFY(run_tally(QStringList{"profiles", "add", "--from", "h100-sxm", "--id", "mine", "--name",
                                  "Mine"} +
                      db())
                .exit_code == 0);
    const QString spec = m_dir.filePath(QStringLiteral("mine.json"));
    {
        QFile f(spec);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model": {"params": 7e9}, "data": {"tokens": 1e12},
                    "cluster": {"gpu": "mine", "gpus": 8}})");
    }
    QCOMPARE(run_tally(QStringList{"plans", "save", spec, "--name", "on mine"} + db()).exit_code,
             0);
    const Run refused = run_tally(QStringList{"profiles", "rm", "mine"} + db());
    QCOMPARE(refused.exit_code, 2);
    QVERIFY2(refused.err.contains("on mine") && refused.err.contains("--force"),
             refused.err.constData());
    // Shown with the network its collectives are timed on: the H100 SXM's 18 NVLink 4 links,
    // 450 GB/s a direction, 8 GPUs a node, one 400 Gb/s NIC a GPU (50 GB/s), PCIe Gen5 x16
    // (64 GB/s) to the host (the catalog's datasheet figures).
    const Run shown = run_tally(QStringList{"profiles", "show", "mine"} + db());
    QCOMPARE(shown.exit_code, 0);
    for (const char* line :
         {"scale-up     0.45 TB/s per GPU per direction", "node         8 GPUs a scale-up domain",
          "scale-out    0.05 TB/s per GPU per direction",
          "host link    0.064 TB/s per GPU per direction", "SMs          132"}) {
        QVERIFY2(shown.out.contains(line), shown.out.constData());
    }
    QCOMPARE(run_tally(QStringList{"profiles", "rm", "mine", "--force"} + db()).exit_code, 0);
    QCOMPARE(run_tally(QStringList{"profiles", "show", "mine"} + db()).exit_code, 2);
    // A built-in profile a saved plan runs on is refused as read-only, not with the offer of
    // --force, which could not remove it either.
    {
        QFile f(spec);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"model": {"params": 7e9}, "data": {"tokens": 1e12},
                    "cluster": {"gpu": "h100-sxm", "gpus": 8}})");
    }
    QCOMPARE(run_tally(QStringList{"plans", "save", spec, "--name", "on h100"} + db()).exit_code,
             0);
    const Run builtin = run_tally(QStringList{"profiles", "rm", "h100-sxm"} + db());
    QCOMPARE(builtin.exit_code, 2);
    QVERIFY2(builtin.err.contains("read-only") && !builtin.err.contains("--force"),
             builtin.err.constData());
}

void TestCliWorkspace::profilesRoundTrip() {
    Run r = run_tally(QStringList{"profiles", "add", "--from", "h100-sxm", "--id", "my-h100",
                                  "--name", "My H100", "--memory-bytes", "94e9",
                                  "--bandwidth-bytes-per-s", "3e12", "--peak", "bf16=900e12"} +
                      db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    QVERIFY(QFileInfo::exists(m_db));

    const json list = parse(run_tally(QStringList{"profiles", "list", "--json"} + db()));
    QCOMPARE(list.size(), catalog().size() + 1);
    const json mine = find_id(list, "my-h100");
    QCOMPARE(mine["name"].get<std::string>(), std::string("My H100"));
    QCOMPARE(mine["kind"].get<std::string>(), std::string("custom"));
    QCOMPARE(mine["memory_bytes"].get<double>(), 94e9);
    QCOMPARE(mine["bandwidth_bytes_per_s"].get<double>(), 3e12);
    QCOMPARE(mine["peak_flops_per_s"]["bf16"].get<double>(), 900e12);
    // The sources copied from the H100's say what was changed by hand, with the datasheet's
    // figures it replaced (80e9 bytes, 3.35e12 bytes/s, 989.5e12 FLOP/s dense bf16).
    bool said = false;
    for (const auto& source : mine["sources"]) {
        const std::string text = source.get<std::string>();
        if (text.rfind("changed from h100-sxm by hand: ", 0) == 0) {
            said = text.find("memory bytes 9.4e+10 (was 8e+10)") != std::string::npos &&
                   text.find("bandwidth bytes/s 3e+12 (was 3.35e+12)") != std::string::npos &&
                   text.find("bf16 dense peak FLOP/s 9e+14 (was 9.895e+14)") != std::string::npos;
        }
    }
    QVERIFY2(said, mine["sources"].dump().c_str());
    // Not overridden: the catalog's H100 figure (dense FP8 1979 TFLOP/s).
    QCOMPARE(mine["peak_flops_per_s"]["fp8"].get<double>(),
             find_id(catalog(), "h100-sxm")["peak_flops_per_s"]["fp8"].get<double>());

    r = run_tally(QStringList{"profiles", "show", "my-h100", "--json"} + db());
    QCOMPARE(r.exit_code, 0);
    QCOMPARE(parse(r)["memory_bytes"].get<double>(), 94e9);
    QVERIFY(parse(r)["source_run_id"].is_null());

    r = run_tally(QStringList{"profiles", "edit", "my-h100", "--name", "Mine", "--peak", "fp8=0"} +
                  db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const json edited =
        parse(run_tally(QStringList{"profiles", "show", "my-h100", "--json"} + db()));
    QCOMPARE(edited["name"].get<std::string>(), std::string("Mine"));
    QVERIFY(edited["peak_flops_per_s"]["fp8"].is_null());
    QCOMPARE(edited["memory_bytes"].get<double>(), 94e9);

    QCOMPARE(run_tally(QStringList{"profiles", "rm", "my-h100"} + db()).exit_code, 0);
    QCOMPARE(run_tally(QStringList{"profiles", "show", "my-h100"} + db()).exit_code, 2);
    QCOMPARE(parse(run_tally(QStringList{"profiles", "list", "--json"} + db())).size(),
             catalog().size());
}

void TestCliWorkspace::exportImportSharesAProfile() {
    QCOMPARE(run_tally(QStringList{"profiles", "add", "--from", "a100-80gb", "--id", "lab-a100",
                                   "--name", "Lab A100", "--tdp-w", "350"} +
                       db())
                 .exit_code,
             0);
    const Run exported = run_tally(QStringList{"profiles", "export", "lab-a100"} + db());
    QCOMPARE(exported.exit_code, 0);
    json file = json::parse(exported.out.toStdString());
    QCOMPARE(file["id"].get<std::string>(), std::string("lab-a100"));
    QCOMPARE(file["tdp_w"].get<double>(), 350.0);

    // A colleague's workspace takes it under the file's own id and name.
    const QString colleague = m_dir.path() + QStringLiteral("/colleague-%1.sqlite").arg(m_case);
    const QString shared = m_dir.path() + QStringLiteral("/lab-a100.json");
    QVERIFY(write_file(shared, exported.out));
    Run r = run_tally({"profiles", "import", shared, "--db", colleague});
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const json theirs =
        parse(run_tally({"profiles", "show", "lab-a100", "--json", "--db", colleague}));
    QCOMPARE(theirs["name"].get<std::string>(), std::string("Lab A100"));
    QCOMPARE(theirs["kind"].get<std::string>(), std::string("custom"));
    QCOMPARE(theirs["tdp_w"].get<double>(), 350.0);
    QCOMPARE(theirs["memory_bytes"].get<double>(), 80e9);
    // Importing it twice: the id is taken (bad input).
    r = run_tally({"profiles", "import", shared, "--db", colleague});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("lab-a100"), r.err.constData());

    // An exported built-in comes in as a custom profile under a new id.
    const Run builtin = run_tally(QStringList{"profiles", "export", "h200"} + db());
    QCOMPARE(json::parse(builtin.out.toStdString())["kind"].get<std::string>(),
             std::string("builtin"));
    QVERIFY(write_file(shared, builtin.out));
    r = run_tally(QStringList{"profiles", "import", shared, "--id", "h200-copy", "--name",
                              "H200 copy", "--json"} +
                  db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    QCOMPARE(parse(r)["kind"].get<std::string>(), std::string("custom"));
    QCOMPARE(parse(run_tally(QStringList{"profiles", "show", "h200-copy", "--json"} +
                             db()))["memory_bytes"]
                 .get<double>(),
             141e9);
}

void TestCliWorkspace::plansRoundTrip() {
    Run r = run_tally(QStringList{"plans", "save", example("seed-70b-15t-1024-h100.json"), "--name",
                                  "seed 70B", "--json"} +
                      db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const std::int64_t id = parse(r)["id"].get<std::int64_t>();
    QCOMPARE(parse(r)["name"].get<std::string>(), std::string("seed 70B"));

    const json list = parse(run_tally(QStringList{"plans", "list", "--json"} + db()));
    QCOMPARE(list.size(), std::size_t{1});
    QCOMPARE(list[0]["id"].get<std::int64_t>(), id);
    QCOMPARE(list[0]["name"].get<std::string>(), std::string("seed 70B"));
    QVERIFY(list[0]["created_at"].is_string());

    // By name and by id; the stored spec is the file's (1024 GPUs, 15T tokens).
    json shown = parse(run_tally(QStringList{"plans", "show", "seed 70B", "--json"} + db()));
    QCOMPARE(shown["spec"]["cluster"]["gpus"].get<int>(), 1024);
    QCOMPARE(shown["spec"]["data"]["tokens"].get<double>(), 15e12);
    shown = parse(run_tally(QStringList{"plans", "show", QString::number(id), "--json"} + db()));
    QCOMPARE(shown["name"].get<std::string>(), std::string("seed 70B"));

    // The same name again is refused, pointing at --replace, which overwrites it in place.
    const Run taken = run_tally(
        QStringList{"plans", "save", example("llama-2-70b-2048-h100.json"), "--name", "seed 70B"} +
        db());
    QCOMPARE(taken.exit_code, 2);
    QVERIFY2(taken.err.contains("--replace"), taken.err.constData());
    // A plan on a GPU neither the catalog nor the workspace has is refused, naming it.
    QFile bad(m_dir.filePath(QStringLiteral("bad-gpu.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"model": {"preset": "llama-3-8b"}, "data": {"tokens": 1e12},
                 "cluster": {"gpu": "nonexist", "gpus": 8, "mfu": 0.4}})");
    bad.close();
    const Run unknown =
        run_tally(QStringList{"plans", "save", bad.fileName(), "--name", "on nothing"} + db());
    QCOMPARE(unknown.exit_code, 2);
    QVERIFY2(unknown.err.contains("cluster.gpu: got \"nonexist\""), unknown.err.constData());
    QCOMPARE(run_tally(QStringList{"plans", "show", "on nothing"} + db()).exit_code, 2);
    r = run_tally(QStringList{"plans", "save", example("llama-2-70b-2048-h100.json"), "--name",
                              "seed 70B", "--replace", "--json"} +
                  db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    QCOMPARE(parse(r)["id"].get<std::int64_t>(), id);
    shown = parse(run_tally(QStringList{"plans", "show", "seed 70B", "--json"} + db()));
    QCOMPARE(shown["spec"]["cluster"]["gpus"].get<int>(), 2048);

    QCOMPARE(run_tally(QStringList{"plans", "rm", "seed 70B"} + db()).exit_code, 0);
    QCOMPARE(parse(run_tally(QStringList{"plans", "list", "--json"} + db())), json::array());
    QCOMPARE(run_tally(QStringList{"plans", "rm", "seed 70B"} + db()).exit_code, 2);
}

// Two saved plans side by side. The seed question (CS336 lecture 2): 70e9 parameters, 15e12
// tokens at MFU 0.5 on 1024 H100: 6 x 70e9 x 15e12 / (989.5e12 x 0.5 x 1024 x 86400) = 143.93
// days, and GPU-hours = 1024 x 143.93 x 24 = 3.537e6. The other plan is the Llama 2 70B example,
// whose figures are what tally plan --json says of it. A plan count outside 2..6 is refused by
// name.
void TestCliWorkspace::plansCompare() {
    QCOMPARE(run_tally(QStringList{"plans", "save", example("seed-70b-15t-1024-h100.json"),
                                   "--name", "seed"} +
                       db())
                 .exit_code,
             0);
    QCOMPARE(run_tally(QStringList{"plans", "save", example("llama-2-70b-2048-h100.json"), "--name",
                                   "llama2"} +
                       db())
                 .exit_code,
             0);
    const json both =
        parse(run_tally(QStringList{"plans", "compare", "seed", "llama2", "--json"} + db()));
    QCOMPARE(both.size(), std::size_t{2});
    const double days = 6.0 * 70e9 * 15e12 / (989.5e12 * 0.5 * 1024 * 86400);
    QVERIFY(std::abs(both[0]["days"].get<double>() / days - 1.0) < 1e-9);
    QVERIFY(std::abs(both[0]["gpu_hours"].get<double>() / (1024.0 * days * 24.0) - 1.0) < 1e-9);
    QCOMPARE(both[0]["mfu_source"].get<std::string>(), std::string("assumed"));
    const json plan = parse(run_tally({"plan", example("llama-2-70b-2048-h100.json"), "--json"}));
    QCOMPARE(both[1]["days"], plan["time"]["days"]);
    QCOMPARE(both[1]["memory_total_bytes"], plan["memory"]["total_bytes"]);
    QCOMPARE(both[1]["name"].get<std::string>(), std::string("llama2"));
    const Run text = run_tally(QStringList{"plans", "compare", "seed", "llama2"} + db());
    QCOMPARE(text.exit_code, 0);
    QVERIFY2(text.out.contains("143.9 days at the assumed MFU 0.5"), text.out.constData());
    QVERIFY(text.out.contains("llama2\n"));
    QCOMPARE(run_tally(QStringList{"plans", "compare", "seed"} + db()).exit_code, 2);
    QCOMPARE(run_tally(QStringList{"plans", "compare", "seed", "nope"} + db()).exit_code, 2);

    // A saved plan whose custom profile was deleted since: still compared, its reason said once
    // (in its first line, a dash in the others), and the command exits 2.
    QCOMPARE(run_tally(QStringList{"profiles", "add", "--from", "h100-sxm", "--id", "gone-h100",
                                   "--name", "Gone H100"} +
                       db())
                 .exit_code,
             0);
    QFile seed(example("seed-70b-15t-1024-h100.json"));
    QVERIFY(seed.open(QIODevice::ReadOnly));
    QByteArray on_gone = seed.readAll();
    on_gone.replace("\"h100-sxm\"", "\"gone-h100\"");
    const QString spec = QDir(m_dir.path()).filePath(QStringLiteral("on-gone.json"));
    QVERIFY(write_file(spec, on_gone));
    QCOMPARE(run_tally(QStringList{"plans", "save", spec, "--name", "gone"} + db()).exit_code, 0);
    QCOMPARE(run_tally(QStringList{"profiles", "rm", "gone-h100", "--force"} + db()).exit_code, 0);
    const Run refused = run_tally(QStringList{"plans", "compare", "seed", "gone"} + db());
    QCOMPARE(refused.exit_code, 2);
    QCOMPARE(refused.out.count("not evaluated"), 1);
    QVERIFY2(refused.out.contains("the workspace has no profile of this id"),
             refused.out.constData());
}

void TestCliWorkspace::probesAndMeasuredProfile() {
    // The app stores runs through the workspace API; the CLI lists them.
    std::int64_t run_id = 0;
    {
        tally::Workspace ws = tally::Workspace::open(m_db.toStdString());
        tally::ProbeRunRecord run;
        run.backend = "cuda";
        run.host = "gpu01";
        run.device_json = R"({"name":"NVIDIA H100 80GB HBM3"})";
        run.started_at = "2025-03-01T10:00:00Z";
        run.finished_at = "2025-03-01T10:05:00Z";
        run.status = tally::ProbeRunStatus::ok;
        tally::ProbeResultRecord matmul;
        matmul.test = "matmul";
        matmul.variant = "cublaslt";
        matmul.dtype = "bf16";
        matmul.sizes_json = R"({"m":8192,"n":8192,"k":8192})";
        matmul.flops = 2.0 * 8192.0 * 8192.0 * 8192.0;
        matmul.flops_per_s = 7.5e14;
        matmul.median_s = matmul.flops / 7.5e14;
        matmul.samples = 37;
        matmul.validated = true;
        run.results.push_back(matmul);
        run_id = ws.add_probe_run(run);
    }
    const json runs = parse(run_tally(QStringList{"probes", "list", "--json"} + db()));
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0]["id"].get<std::int64_t>(), run_id);
    QCOMPARE(runs[0]["started_at"].get<std::string>(), std::string("2025-03-01T10:00:00Z"));
    QCOMPARE(runs[0]["device"]["name"].get<std::string>(), std::string("NVIDIA H100 80GB HBM3"));
    const json shown =
        parse(run_tally(QStringList{"probes", "show", QString::number(run_id), "--json"} + db()));
    QCOMPARE(shown["results"].size(), std::size_t{1});
    QCOMPARE(shown["results"][0]["flops_per_s"].get<double>(), 7.5e14);
    QCOMPARE(shown["results"][0]["sizes"]["m"].get<int>(), 8192);
    QCOMPARE(shown["results"][0]["validated"].get<bool>(), true);
    // The one JSON shape of a result: its id as result_id, the variant beside the test, and null
    // for what the probe did not count (bytes 0) or measure (no bytes/s).
    QCOMPARE(shown["results"][0]["result_id"].get<std::int64_t>(),
             ws_result_id(m_db.toStdString(), run_id));
    QCOMPARE(shown["results"][0]["test"].get<std::string>(), std::string("matmul"));
    QCOMPARE(shown["results"][0]["variant"].get<std::string>(), std::string("cublaslt"));
    QVERIFY(shown["results"][0]["bytes"].is_null());
    QVERIFY(shown["results"][0]["bytes_per_s"].is_null());
    QVERIFY(shown["results"][0]["intensity_flops_per_byte"].is_null());

    const Run r =
        run_tally(QStringList{"profiles", "add", "--from-run", QString::number(run_id), "--base",
                              "h100-sxm", "--id", "lab-h100", "--name", "Lab H100", "--json"} +
                  db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const json lab = parse(run_tally(QStringList{"profiles", "show", "lab-h100", "--json"} + db()));
    QCOMPARE(lab["kind"].get<std::string>(), std::string("measured"));
    QCOMPARE(lab["peak_flops_per_s"]["bf16"].get<double>(), 7.5e14);
    QCOMPARE(lab["memory_bytes"].get<double>(), 80e9);  // from the base
    QCOMPARE(lab["source_run_id"].get<std::int64_t>(), run_id);
}

void TestCliWorkspace::compareAndPlanOnCustomProfile() {
    QCOMPARE(run_tally(QStringList{"profiles", "add", "--from", "h100-sxm", "--id", "slow-h100",
                                   "--name", "Slow H100", "--peak", "bf16=900e12"} +
                       db())
                 .exit_code,
             0);
    const QString spec = example("seed-70b-15t-1024-h100.json");
    Run r = run_tally(
        QStringList{"compare", spec, "--profiles", "h100-sxm,slow-h100,a100-80gb", "--json"} +
        db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const json rows = parse(r)["profiles"];
    QCOMPARE(rows.size(), std::size_t{3});
    // days = 6 x 70e9 x 15e12 / (peak x 0.5 x 1024 x 86400):
    // H100 989.5e12 -> 143.93; the custom 900e12 -> 158.24; A100 312e12 -> 456.5.
    QVERIFY(std::abs(rows[0]["days"].get<double>() - 143.93) < 0.01);
    QVERIFY(std::abs(rows[1]["days"].get<double>() - 158.24) < 0.01);
    QVERIFY(std::abs(rows[2]["days"].get<double>() - 456.5) < 0.1);
    QCOMPARE(rows[1]["kind"].get<std::string>(), std::string("custom"));
    // Ridge = bf16 peak / bandwidth: 900e12 / 3.35e12 = 268.66 FLOP/byte.
    QVERIFY(std::abs(rows[1]["ridge_flops_per_byte"].get<double>() - 268.66) < 0.01);
    // ZeRO-3 over 1024 GPUs: 16 bytes x 70e9 / 1024 = 1.094e9 bytes per GPU; it fits on all.
    for (const json& row : rows) {
        QVERIFY(std::abs(row["memory_total_bytes"].get<double>() - 16.0 * 70e9 / 1024) < 1e3);
        QCOMPARE(row["fits"].get<bool>(), true);
    }

    // A spec naming the custom profile as its GPU: `tally plan` finds it in the workspace.
    QFile original(spec);
    QVERIFY(original.open(QIODevice::ReadOnly));
    QByteArray text = original.readAll();
    text.replace("\"h100-sxm\"", "\"slow-h100\"");
    const QString on_custom = m_dir.path() + QStringLiteral("/on-custom.json");
    QVERIFY(write_file(on_custom, text));
    r = run_tally(QStringList{"plan", on_custom, "--json"} + db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    QVERIFY(std::abs(parse(r)["time"]["days"].get<double>() - 158.24) < 0.01);
    // The same with --db mistyped: the answer names the missing file, not only the GPU.
    const QString missing = m_dir.path() + QStringLiteral("/no-such-dir/workspace.sqlite");
    r = run_tally(QStringList{"plan", on_custom, "--db", missing});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("--db: got \"" + missing.toUtf8() + "\"; an existing workspace file"),
             r.err.constData());
    // A GPU the workspace does not have (a custom profile deleted since): the answer says the
    // workspace has no such profile, not only that it is no built-in GPU.
    QByteArray gone = text;
    gone.replace("\"slow-h100\"", "\"deleted-h100\"");
    const QString on_gone = m_dir.path() + QStringLiteral("/on-gone.json");
    QVERIFY(write_file(on_gone, gone));
    r = run_tally(QStringList{"plan", on_gone} + db());
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("the workspace has no profile of this id"), r.err.constData());

    // A price on the custom profile: compare costs it at 3 per GPU-hour, the others have none
    // (the seed spec gives no price). GPU-hours = 158.24 days x 24 x 1024 = 3.889e6; x 3.
    QCOMPARE(
        run_tally(QStringList{"profiles", "edit", "slow-h100", "--price-per-gpu-hour", "3"} + db())
            .exit_code,
        0);
    r = run_tally(QStringList{"compare", spec, "--profiles", "h100-sxm,slow-h100", "--json"} +
                  db());
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const json priced = parse(r)["profiles"];
    QVERIFY(priced[0]["cost"].is_null());
    QCOMPARE(priced[1]["price_source"].get<std::string>(), std::string("profile"));
    const double gpu_hours = 6.0 * 70e9 * 15e12 / (900e12 * 0.5 * 1024) * 1024 / 3600.0;
    QVERIFY(std::abs(priced[1]["cost"].get<double>() / (3.0 * gpu_hours) - 1.0) < 1e-9);
    r = run_tally(QStringList{"profiles", "edit", "slow-h100", "--price-per-gpu-hour", "-1"} +
                  db());
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("--price-per-gpu-hour"));
    QCOMPARE(
        run_tally(QStringList{"profiles", "edit", "slow-h100", "--price-per-gpu-hour", "none"} +
                  db())
            .exit_code,
        0);
    r = run_tally(QStringList{"profiles", "show", "slow-h100", "--json"} + db());
    const json shown = parse(r);
    QVERIFY(shown.contains("price_per_gpu_hour") && shown["price_per_gpu_hour"].is_null());
}

void TestCliWorkspace::badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("add without --from")
        << QStringList{"profiles", "add", "--id", "x", "--name", "X"} << "--from";
    QTest::newRow("add with an unknown dtype")
        << QStringList{"profiles", "add",    "--from", "h100-sxm", "--id",
                       "x",        "--name", "X",      "--peak",   "bf17=1e12"}
        << "--peak";
    QTest::newRow("add with negative memory")
        << QStringList{"profiles", "add",    "--from", "h100-sxm",       "--id",
                       "x",        "--name", "X",      "--memory-bytes", "-80e9"}
        << "--memory-bytes";
    QTest::newRow("add with a built-in id")
        << QStringList{"profiles", "add", "--from", "h100-sxm", "--id", "h200", "--name", "X"}
        << "profile.id";
    QTest::newRow("add with an id that is not one")
        << QStringList{"profiles", "add", "--from", "h100-sxm", "--id", "'); DROP TABLE plans;--",
                       "--name",   "X"}
        << "profile.id";
    QTest::newRow("add from an unknown profile")
        << QStringList{"profiles", "add", "--from", "h900", "--id", "x", "--name", "X"}
        << "--from: got \"h900\"";
    QTest::newRow("edit a built-in")
        << QStringList{"profiles", "edit", "h100-sxm", "--memory-bytes", "1e9"} << "read-only";
    QTest::newRow("edit with an empty name")
        << QStringList{"profiles", "edit", "h100-sxm", "--name", ""} << "--name: got \"\"";
    QTest::newRow("show a probe run by a word")
        << QStringList{"probes", "show", "abc"} << "ID: got \"abc\"; a whole number";
    QTest::newRow("edit with no change")
        << QStringList{"profiles", "edit", "h100-sxm"} << "at least one";
    QTest::newRow("remove a built-in") << QStringList{"profiles", "rm", "a100-80gb"} << "read-only";
    QTest::newRow("show an unknown profile") << QStringList{"profiles", "show", "nope"} << "nope";
    QTest::newRow("import a file that is not JSON")
        << QStringList{"profiles", "import", TALLY_SOURCE_DIR "/README.md"} << "JSON";
    // 1e400 overflows a double while the file is parsed: named by its field, not as a JSON
    // library error.
    QTest::newRow("import a number beyond a double")
        << QStringList{"profiles", "import",
                       TALLY_SOURCE_DIR
                       "/tests/fuzz/findings/hardware_profile/memory-number-overflow.json"}
        << "profile.memory_bytes: got 1e400; a number out of the range of a double";
    QTest::newRow("import a missing file")
        << QStringList{"profiles", "import", "/nonexistent/profile.json"}
        << "a readable profile file";
    QTest::newRow("save a plan named by digits")
        << QStringList{"plans", "save", TALLY_SOURCE_DIR "/resources/examples/lecture-mlp.json",
                       "--name", "42"}
        << "plan.name";
    QTest::newRow("show an unknown plan") << QStringList{"plans", "show", "nope"} << "nope";
    QTest::newRow("show an unknown probe run") << QStringList{"probes", "show", "7"} << "probe run";
    QTest::newRow("compare one profile")
        << QStringList{"compare",
                       TALLY_SOURCE_DIR "/resources/examples/seed-70b-15t-1024-h100.json",
                       "--profiles", "h100-sxm"}
        << "2 to 6";
    QTest::newRow("compare an unknown profile")
        << QStringList{"compare",
                       TALLY_SOURCE_DIR "/resources/examples/seed-70b-15t-1024-h100.json",
                       "--profiles", "h100-sxm,h900"}
        << "--profiles: got \"h900\"";
}

void TestCliWorkspace::badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    const Run r = run_tally(args + db());
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestCliWorkspace::notAWorkspaceIsLeftAlone() {
    const QByteArray text = "id,name\nmy-card,My card\n";
    QVERIFY(write_file(m_db, text));
    for (const QStringList& args :
         {QStringList{"profiles", "list"}, QStringList{"plans", "list", "--json"},
          QStringList{"plans", "save", example("seed-70b-15t-1024-h100.json"), "--name", "x"},
          QStringList{"profiles", "add", "--from", "h100-sxm", "--id", "x", "--name", "X"}}) {
        const Run r = run_tally(args + db());
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains(m_db.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("not an SQLite database"), r.err.constData());
    }
    // A plan on a built-in GPU does not need the workspace; one on another id says why not.
    QCOMPARE(run_tally(QStringList{"plan", example("seed-70b-15t-1024-h100.json"), "--json"} + db())
                 .exit_code,
             0);
    const QString on_custom = m_dir.path() + QStringLiteral("/custom-gpu.json");
    QVERIFY(write_file(on_custom, R"({"model": {"kind": "params", "params": 7e9},
        "data": {"tokens": 1e12}, "cluster": {"gpu": "my-card", "gpus": 8}})"));
    const Run custom = run_tally(QStringList{"plan", on_custom} + db());
    QCOMPARE(custom.exit_code, 1);
    QVERIFY2(custom.err.contains("not an SQLite database"), custom.err.constData());
    QFile f(m_db);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), text);

    // A workspace from a newer Tally: refused, untouched.
    const QString newer = m_dir.path() + QStringLiteral("/newer.sqlite");
    { tally::Workspace::open(newer.toStdString()); }
    {
        // Set with the test's own SQLite connection, not through the code under test.
        tally::sqlite::Database raw(newer.toStdString(), SQLITE_OPEN_READWRITE);
        raw.exec("PRAGMA user_version = 42");
    }
    QFile before_file(newer);
    QVERIFY(before_file.open(QIODevice::ReadOnly));
    const QByteArray before = before_file.readAll();
    before_file.close();
    const Run r = run_tally({"plans", "list", "--db", newer});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("newer Tally"), r.err.constData());
    QFile after_file(newer);
    QVERIFY(after_file.open(QIODevice::ReadOnly));
    QCOMPARE(after_file.readAll(), before);
}

void TestCliWorkspace::damagedPlanIsNotBadInput() {
    QCOMPARE(run_tally(QStringList{"plans", "save", example("seed-70b-15t-1024-h100.json"),
                                   "--name", "damaged"} +
                       db())
                 .exit_code,
             0);
    {
        // A hand edit, with the test's own connection, cuts the stored spec short.
        tally::sqlite::Database raw(m_db.toStdString(), SQLITE_OPEN_READWRITE);
        raw.exec("UPDATE plans SET spec_json = '{\"model\": {' WHERE name = 'damaged'");
    }
    // The text form prints what is stored; the JSON form cannot, and says the file is damaged
    // (exit 1: not the user's input) naming the file and the plan.
    Run r = run_tally(QStringList{"plans", "show", "damaged"} + db());
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains("{\"model\": {"), r.out.constData());
    r = run_tally(QStringList{"plans", "show", "damaged", "--json"} + db());
    QCOMPARE(r.exit_code, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(m_db.toUtf8()), r.err.constData());
    QVERIFY2(r.err.contains("\"damaged\""), r.err.constData());
    QVERIFY2(r.err.contains("does not read back"), r.err.constData());
    // The other plans' commands still work on it.
    QCOMPARE(run_tally(QStringList{"plans", "rm", "damaged"} + db()).exit_code, 0);
}

QTEST_GUILESS_MAIN(TestCliWorkspace)
#include "tst_cli_workspace.moc"
