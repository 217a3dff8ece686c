// `tally plan`, `tally solve`, `tally presets` as a user runs them: the built binary, its
// output and its exit codes.
#include <QtTest>
#include <nlohmann/json.hpp>

#include <fmt/core.h>

#include "planner/io/case_accuracy.h"
#include "planner/performance/engine.h"
#include "tests/cli_test_util.h"

using nlohmann::json;

namespace {

using tally::test::Run;
using tally::test::run_tally;

QString example(const char* name) {
    return QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

std::string readExample(const char* name) {
    QFile file(example(name));
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", name);
    }
    return file.readAll().toStdString();
}

}  // namespace

class TestCliPlan : public QObject {
    Q_OBJECT

private slots:
    void versionIsTheProjects();
    void servingSpecPointsToInfer();
    void seedQuestionOneJson();
    void readsStandardInput();
    void table();
    void tableListsUnevenStages();
    void tableNamesTheSlidingWindow();
    void tableExplainsOptimizerBytes();
    void solveMaxParams();
    void presets();
    void tensor();
    void badInput_data();
    void badInput();
    void planJsonHasThePredictedStep();
    void solveLayoutMatchesPlan();
    void solveLayoutOnAClusterTheLayoutDoesNotDivide();
    void solveLayoutBadOptions();
    void solveMinGpus();
    void solveMinGpusNoClusterExitsOne();
};

void TestCliPlan::seedQuestionOneJson() {
    const Run r = run_tally(
        {QStringLiteral("plan"), example("seed-70b-15t-1024-h100.json"), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    // 6 · 70e9 · 15e12 = 6.3e24; 6.3e24 / (989.5e12 · 0.5 · 1024 · 86400) = 143.93 days.
    QCOMPARE(j["flops"]["total"].get<double>(), 6.3e24);
    QVERIFY(std::abs(j["time"]["days"].get<double>() - 143.93) < 0.01);
    QCOMPARE(j["params"].get<double>(), 70e9);
    // ZeRO-3 over dp = 1024 (no architecture, so no activations): 70e9 · (2 + 2 + 4 + 8) / 1024
    // = 1.09375e9 bytes per GPU, well inside 80 GB.
    QCOMPARE(j["memory"]["total_bytes"].get<double>(), 1.09375e9);
    QCOMPARE(j["memory"]["fits"].get<bool>(), true);
}

void TestCliPlan::readsStandardInput() {
    const Run r = run_tally({QStringLiteral("plan"), QStringLiteral("-"), QStringLiteral("--json")},
                            R"({"model": {"params": 1e9}, "data": {"tokens": 1e11},
                            "cluster": {"gpus": 8}})");
    QCOMPARE(r.exit_code, 0);
    // 6 · 1e9 · 1e11 = 6e20
    QCOMPARE(json::parse(r.out.toStdString())["flops"]["total"].get<double>(), 6e20);
}

void TestCliPlan::versionIsTheProjects() {
    // `tally --version` prints project(VERSION) of CMakeLists.txt (TALLY_PROJECT_VERSION, passed
    // by tests/CMakeLists.txt), not a copy of it.
    const Run r = run_tally({QStringLiteral("--version")});
    QCOMPARE(r.exit_code, 0);
    QCOMPARE(r.out.trimmed(), QByteArray("tally " TALLY_PROJECT_VERSION));
}

void TestCliPlan::table() {
    const Run r = run_tally({QStringLiteral("plan"), example("llama-2-70b-2048-h100.json")});
    QCOMPARE(r.exit_code, 0);
    for (const char* text : {"Memory per GPU", "GiB", "activations", "days", "Korthikanti"}) {
        QVERIFY2(r.out.contains(text), text);
    }
}

// Stages of unequal layers are listed on the layout line: Llama 3 405B's 126 layers on 16
// stages with the embedding and the output counted as a layer each, (126 + 2) / 16 = 8 a stage
// less one at each end (Dubey et al. 2024, sec. 3.3.2): 7, then 14 stages of 8, then 7. Even
// stages (Llama 2 70B's 80 on pp 4, 20 each) list nothing.
void TestCliPlan::tableListsUnevenStages() {
    const Run r = run_tally({QStringLiteral("plan"), QStringLiteral("-")},
                            R"({"model": {"preset": "llama-3-405b"}, "data": {"tokens": 1e12},
                            "cluster": {"gpu": "h100-sxm", "gpus": 2048},
                            "training": {"tp": 8, "pp": 16}})");
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains("; layers by stage 7 / 8 x 14 / 7;"), r.out.constData());
    const Run even = run_tally({QStringLiteral("plan"), example("llama-2-70b-2048-h100.json")});
    QCOMPARE(even.exit_code, 0);
    QVERIFY(!even.out.contains("layers by stage"));
}

void TestCliPlan::tableNamesTheSlidingWindow() {
    // GPT-OSS 120B's preset: 18 of its 36 layers windowed at 128 positions; the header says so
    // and the FLOPs explanation shows the windowed formula. A model without a window has no
    // such line.
    const Run r = run_tally({QStringLiteral("plan"), QStringLiteral("-")},
                            R"({"model": {"preset": "gpt-oss-120b"}, "data": {"tokens": 1e12},
                            "cluster": {"gpu": "b200", "gpus": 64},
                            "training": {"expert_parallel": 8, "flops_formula": "attention"}})");
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains("a sliding window of 128 positions in 18 of the 36 layers"),
             r.out.constData());
    QVERIFY2(r.out.contains("((L - L_w) x T + L_w x min(T, W))"), r.out.constData());
    // Mistral 7B v0.1 windows every one of its 32 layers at 4096 positions: no others to name.
    const Run all = run_tally({QStringLiteral("plan"), example("mistral-7b-serve-32k-h100.json")});
    QCOMPARE(all.exit_code, 0);
    QVERIFY2(all.out.contains("a sliding window of 4096 positions in all 32 layers\n"),
             all.out.constData());
    QVERIFY(!all.out.contains("the others attend"));
    const Run plain = run_tally({QStringLiteral("plan"), example("llama-2-70b-2048-h100.json")});
    QCOMPARE(plain.exit_code, 0);
    QVERIFY(!plain.out.contains("sliding window"));
}

void TestCliPlan::tableExplainsOptimizerBytes() {
    // 8-bit Adam (Dettmers et al. 2022): two 1-byte states + one fp32 absmax per 2048 values each,
    // 2 · (1 + 4/2048) = 2.00390625 bytes per parameter; 1e9 parameters, no ZeRO: 2.004e9 bytes.
    // The explanation shows those bytes, not a state count times the state dtype (2 x int8 = 2).
    const Run r = run_tally({QStringLiteral("plan"), QStringLiteral("-")},
                            R"({"model": {"params": 1e9}, "data": {"tokens": 1e11},
                            "training": {"optimizer": "adam8bit"}})");
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains("1e+09 x 2.004 / 1 = 2.004e+09 (adam8bit, int8 state)"),
             r.out.constData());
    QVERIFY2(r.out.contains("Dettmers et al. 2022"), r.out.constData());
}

void TestCliPlan::solveMaxParams() {
    const Run r =
        run_tally({QStringLiteral("solve"), QStringLiteral("max-params"),
                   example("seed-max-params-adamw-8x80gb.json"), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    // 8 · 80e9 / (2 + 2 + 4 + 4) = 5.333e10
    QVERIFY(std::abs(j["max_params"].get<double>() / (640e9 / 12) - 1) < 1e-12);
    QCOMPARE(j["includes_activations"].get<bool>(), false);
}

void TestCliPlan::presets() {
    const Run r = run_tally({QStringLiteral("presets"), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QVERIFY(j.size() >= 10);
    for (const auto& p : j) {
        QVERIFY(!p["source"].get<std::string>().empty());
    }
}

void TestCliPlan::tensor() {
    // (12288·4) x 12288 fp32 = 2,415,919,104 bytes = 2.25 GiB (seeds 002/003: "about 2.3GB").
    const Run r = run_tally(
        {QStringLiteral("tensor"), QStringLiteral("49152x12288"), QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["bytes"].get<double>(), 2415919104.0);
    QCOMPARE(j["gib"].get<double>(), 2.25);
    QCOMPARE(run_tally({QStringLiteral("tensor"), QStringLiteral("4x-8")}).exit_code, 2);
    // NVFP4 at 4.5 bits a value: 17 values = 17 · 0.5625 = 9.5625 bytes, printed as such (not
    // rounded to a whole 10 bytes).
    const Run nv = run_tally({QStringLiteral("tensor"), QStringLiteral("17"),
                              QStringLiteral("--dtype"), QStringLiteral("nvfp4")});
    QCOMPARE(nv.exit_code, 0);
    QVERIFY2(nv.out.contains("17 elements x 0.5625 bytes (nvfp4) = 9.5625 bytes"),
             nv.out.constData());
}

void TestCliPlan::badInput_data() {
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("field");
    // Where the parser stopped, without the JSON library's exception id
    // ("[json.exception.parse_error.101]").
    QTest::newRow("not JSON") << QByteArray("{model:")
                              << "SPEC: got standard input; is not valid JSON: parse error at "
                                 "line 1, column 2: ";
    QTest::newRow("unknown key") << QByteArray(R"({"model": {"params": 1e9}, "data": {"tokens": 1,
        "tokenz": 2}})") << "data.tokenz";
    QTest::newRow("unknown gpu") << QByteArray(R"({"model": {"params": 1e9}, "data": {"tokens": 1},
        "cluster": {"gpu": "tpu-v99"}})")
                                 << "cluster.gpu";
    QTest::newRow("kv heads") << QByteArray(R"({"model": {"layers": 2, "hidden": 64, "heads": 8,
        "kv_heads": 3, "ffn_hidden": 256, "vocab": 100}, "data": {"tokens": 1}})")
                              << "model.kv_heads";
    QTest::newRow("negative") << QByteArray(R"({"model": {"params": -5}, "data": {"tokens": 1}})")
                              << "model.params";
    // 1e400 overflows a double while the text is parsed; the error names the field holding it
    // and says why, instead of the JSON library's "out_of_range.406".
    QTest::newRow("number beyond a double")
        << QByteArray(R"({"model": {"params": 1e9}, "data": {"tokens": 1e400}})")
        << "data.tokens: got 1e400; a number out of the range of a double";
    QTest::newRow("mfu too small")
        << QByteArray(R"({"model": {"params": 1e9}, "data": {"tokens": 1e30},
                          "cluster": {"mfu": 1e-300}})")
        << "cluster.mfu";
}

void TestCliPlan::badInput() {
    QFETCH(QByteArray, spec);
    QFETCH(QString, field);
    const Run r =
        run_tally({QStringLiteral("plan"), QStringLiteral("-"), QStringLiteral("--json")}, spec);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(field.toUtf8()), r.err.constData());
    QVERIFY(r.out.isEmpty());
    // A file that does not exist: also bad input.
    QCOMPARE(
        run_tally({QStringLiteral("plan"), QStringLiteral("/nonexistent/spec.json")}).exit_code, 2);
}

namespace {

// A small dense transformer on 16 H100: quick to search, with room for several layouts.
const QByteArray kSmallSpec = R"({"model": {"layers": 8, "hidden": 1024, "heads": 16,
    "ffn_hidden": 4096, "vocab": 32000}, "data": {"tokens": 1e10, "seq_len": 2048,
    "global_batch": 64}, "cluster": {"gpu": "h100-sxm", "gpus": 16}})";

}  // namespace

void TestCliPlan::planJsonHasThePredictedStep() {
    const Run r = run_tally({QStringLiteral("plan"), QStringLiteral("-"), QStringLiteral("--json")},
                            kSmallSpec);
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["time"]["mfu_source"].get<std::string>(), std::string("predicted"));
    const json& p = j["performance"];
    double sum = 0.0;
    for (const char* key : {"compute_s", "recompute_s", "memory_bound_s", "tp_comm_s", "pp_comm_s",
                            "pp_bubble_s", "dp_comm_exposed_s", "ep_comm_s", "cp_comm_s",
                            "overhead_s", "comm_contention_s", "offload_s", "optimizer_s"}) {
        sum += p[key].get<double>();
    }
    QVERIFY(std::abs(sum / p["step_s"].get<double>() - 1.0) < 1e-12);
    // How close the model came on published runs of its engine and GPU generation: the small
    // spec is a Megatron-Core plan on the H100, a family docs/cases has runs of, so the band
    // gives a count and its errors (resources/cases/accuracy.json, tst_case_accuracy).
    const json& band = p["error_band"];
    QCOMPARE(band["engine"].get<std::string>(), std::string("megatron"));
    QCOMPARE(band["generation"].get<std::string>(), std::string("H100/H200"));
    QVERIFY(band["count"].get<int>() > 0);
    QVERIFY(band["worst_abs_error"].get<double>() >= band["mean_abs_error"].get<double>());
    // A dense plan: the family's dense runs (there are enough of them to count alone).
    QCOMPARE(band["model"].get<std::string>(), std::string("dense"));
    QVERIFY(band["text"].get<std::string>().find(" published Megatron-Core H100/H200 dense run") !=
            std::string::npos);
    // The H100/H200 dense runs err both ways (docs/planner.md's table: bf16 -12.5%, fp8 +8.9%
    // signed), so the band is a ±; the MoE runs all came out slower than predicted (+95.9% and
    // +86.1% signed, equal to their absolute means), and a run that took 1 + e times the
    // predicted time on average is said so.
    QVERIFY(band["text"].get<std::string>().find("every one") == std::string::npos);
    const json moe =
        tally::error_band_json(tally::Engine::megatron, tally::GpuGeneration::hopper, true);
    const double mean = moe["mean_error"].get<double>();
    QVERIFY(mean > 0.0 && std::abs(mean - moe["mean_abs_error"].get<double>()) < 1e-12);
    QVERIFY2(moe["text"].get<std::string>().find(fmt::format(
                 "every one took longer than predicted: {:.2f}x the predicted time on average",
                 1.0 + mean)) != std::string::npos,
             moe["text"].get<std::string>().c_str());
    // With an assumed MFU the time is the lecture's formula, but the predicted step is still
    // given, and with it its band, as the text output says it beside that step.
    QByteArray at_mfu = kSmallSpec;
    at_mfu.replace(R"("gpus": 16})", R"("gpus": 16, "mfu": 0.4})");
    const Run a =
        run_tally({QStringLiteral("plan"), QStringLiteral("-"), QStringLiteral("--json")}, at_mfu);
    QCOMPARE(a.exit_code, 0);
    const json ja = json::parse(a.out.toStdString());
    QCOMPARE(ja["time"]["mfu_source"].get<std::string>(), std::string("assumed"));
    QCOMPARE(ja["performance"]["error_band"]["text"], band["text"]);
    // The time rests on it: days = steps x step / 86400, steps = 1e10 / (64 x 2048).
    const double days = 1e10 / (64.0 * 2048.0) * p["step_s"].get<double>() / 86400.0;
    QVERIFY(std::abs(j["time"]["days"].get<double>() / days - 1.0) < 1e-12);
    QCOMPARE(j["time"]["mfu"].get<double>(), p["mfu"].get<double>());
    // An assumed MFU keeps the old time and says so.
    const Run assumed = run_tally(
        {QStringLiteral("plan"), example("seed-70b-15t-1024-h100.json"), QStringLiteral("--json")});
    QCOMPARE(json::parse(assumed.out.toStdString())["time"]["mfu_source"].get<std::string>(),
             std::string("assumed"));
    // The table shows the breakdown.
    const Run table = run_tally({QStringLiteral("plan"), QStringLiteral("-")}, kSmallSpec);
    for (const char* text :
         {"Predicted step", "PP bubble", "DP exposed", "(predicted)", "accuracy "}) {
        QVERIFY2(table.out.contains(text), text);
    }
}

void TestCliPlan::solveLayoutMatchesPlan() {
    const Run r =
        run_tally({QStringLiteral("solve"), QStringLiteral("layout"), QStringLiteral("-"),
                   QStringLiteral("--top"), QStringLiteral("3"), QStringLiteral("--json")},
                  kSmallSpec);
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QVERIFY(j["candidates"].get<std::int64_t>() >= j["feasible"].get<std::int64_t>());
    QCOMPARE(j["layouts"].size(), std::size_t{3});
    double previous = 0.0;
    for (const json& layout : j["layouts"]) {
        // The spec with the layout's sections, planned on its own, gives the same sections.
        json spec = json::parse(kSmallSpec.toStdString());
        spec["training"] = layout["training"];
        spec["data"]["micro_batch"] = layout["data"]["micro_batch"];
        const Run plan =
            run_tally({QStringLiteral("plan"), QStringLiteral("-"), QStringLiteral("--json")},
                      QByteArray::fromStdString(spec.dump()));
        QCOMPARE(plan.exit_code, 0);
        const json planned = json::parse(plan.out.toStdString());
        QVERIFY(planned["performance"] == layout["performance"]);
        QVERIFY(planned["memory"] == layout["memory"]);
        QVERIFY(planned["parallel"] == layout["parallel"]);
        const double step = layout["performance"]["step_s"].get<double>();
        QVERIFY(step >= previous);
        previous = step;
    }
}

void TestCliPlan::solveLayoutOnAClusterTheLayoutDoesNotDivide() {
    // The Llama 3 70B start plan (tp 8 x pp 4, 512 sequences a step) moved to 2560 GPUs: dp =
    // 2560 / 32 = 80 does not divide 512, so `tally plan` refuses it; the search picks its own tp
    // and pp, and tp 8 x pp 5 x dp 64 (512 / 64 = 8 sequences per rank) is one of them.
    json spec = json::parse(readExample("llama-3-70b-15t-1024-h100.json"));
    spec["cluster"]["gpus"] = 2560;
    const QByteArray text = QByteArray::fromStdString(spec.dump());
    const Run plan = run_tally({QStringLiteral("plan"), QStringLiteral("-")}, text);
    QCOMPARE(plan.exit_code, 2);
    QVERIFY2(plan.err.contains("data.global_batch"), plan.err.constData());
    const Run r =
        run_tally({QStringLiteral("solve"), QStringLiteral("layout"), QStringLiteral("-"),
                   QStringLiteral("--top"), QStringLiteral("200"), QStringLiteral("--json")},
                  text);
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["global_batch"].get<std::int64_t>(), std::int64_t{512});
    QVERIFY(!j["layouts"].empty());
    bool found = false;
    for (const json& layout : j["layouts"]) {
        found = found || (layout["training"]["tp"] == 8 && layout["training"]["pp"] == 5);
    }
    QVERIFY(found);
}

void TestCliPlan::solveLayoutBadOptions() {
    const Run r = run_tally({QStringLiteral("solve"), QStringLiteral("layout"), QStringLiteral("-"),
                             QStringLiteral("--objective"), QStringLiteral("speed")},
                            kSmallSpec);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("--objective"), r.err.constData());
    const Run days = run_tally({QStringLiteral("solve"), QStringLiteral("min-gpus"),
                                QStringLiteral("-"), QStringLiteral("--days"), QStringLiteral("0")},
                               kSmallSpec);
    QCOMPARE(days.exit_code, 2);
    QVERIFY2(days.err.contains("--days"), days.err.constData());
    // A negative count is refused like 0, not read as "all of them".
    const Run top = run_tally({QStringLiteral("solve"), QStringLiteral("layout"),
                               QStringLiteral("-"), QStringLiteral("--top"), QStringLiteral("-1")},
                              kSmallSpec);
    QCOMPARE(top.exit_code, 2);
    QVERIFY2(top.err.contains("--top"), top.err.constData());
}

// No cluster up to --max-gpus trains it in time: said in words (JSON gpus null), exit status 1
// so that a script can tell it got no cluster. By hand: the 8 layers alone hold 8 x 12 x 1024^2
// = 1.0e8 parameters, so 1e10 tokens take at least 6 x 1.0e8 x 1e10 = 6.0e18 FLOPs; 8 H100 at
// their full dense peak (8 x 989.5e12 FLOP/s) need 760 s = 0.0088 days for that, over 0.001.
void TestCliPlan::solveMinGpusNoClusterExitsOne() {
    const Run r =
        run_tally({QStringLiteral("solve"), QStringLiteral("min-gpus"), QStringLiteral("-"),
                   QStringLiteral("--days"), QStringLiteral("0.001"), QStringLiteral("--max-gpus"),
                   QStringLiteral("8"), QStringLiteral("--json")},
                  kSmallSpec);
    QCOMPARE(r.exit_code, 1);
    QVERIFY(json::parse(r.out.toStdString())["gpus"].is_null());
}

void TestCliPlan::solveMinGpus() {
    const Run r =
        run_tally({QStringLiteral("solve"), QStringLiteral("min-gpus"), QStringLiteral("-"),
                   QStringLiteral("--days"), QStringLiteral("1"), QStringLiteral("--json")},
                  kSmallSpec);
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QVERIFY(j["days"].get<double>() <= 1.0);
    QCOMPARE(j["gpus"].get<std::int64_t>() % 8, std::int64_t{0});  // whole DGX H100 nodes
    QVERIFY(j.contains("performance"));
    // The budget of the answer: GPU-hours = GPUs x days x 24 (planner.md: seconds x GPUs /
    // 3600), and the text says them too. The small spec gives no price and the profile's none.
    const double gpu_hours = j["gpus"].get<double>() * j["days"].get<double>() * 24.0;
    QVERIFY(std::abs(j["time"]["gpu_hours"].get<double>() / gpu_hours - 1.0) < 1e-12);
    const Run text = run_tally({QStringLiteral("solve"), QStringLiteral("min-gpus"),
                                QStringLiteral("-"), QStringLiteral("--days"), QStringLiteral("1")},
                               kSmallSpec);
    QCOMPARE(text.exit_code, 0);
    QVERIFY2(text.out.contains(QByteArray::fromStdString(
                 fmt::format("GPU-hours {:.4g}", j["time"]["gpu_hours"].get<double>()))),
             text.out.constData());
}

// A serving example planned with `tally plan` is its training plan; the command says so and
// names `tally infer` on the same file. A training example has no such note.
void TestCliPlan::servingSpecPointsToInfer() {
    const QString serving = example("llama-3-70b-serve-4xh100-fp8.json");
    const Run r = run_tally({QStringLiteral("plan"), serving});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.err.contains(("tally infer " + serving + " plans its serving").toUtf8()),
             r.err.constData());
    const Run training =
        run_tally({QStringLiteral("plan"), example("llama-3-70b-15t-1024-h100.json")});
    QCOMPARE(training.exit_code, 0);
    QVERIFY2(!training.err.contains("inference block"), training.err.constData());
}

QTEST_GUILESS_MAIN(TestCliPlan)
#include "tst_cli_plan.moc"
