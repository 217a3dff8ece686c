// `tally infer` and `tally solve max-batch` as a user runs them: the built binary, its output and
// its exit codes.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "tests/cli_test_util.h"

using nlohmann::json;

namespace {

using tally::test::Run;
using tally::test::run_tally;

QString example(const char* name) {
    return QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

// A Llama 2 7B serving spec read from standard input, with one inference key replaced.
QByteArray llama7b(const char* inference) {
    return QByteArray(R"({"model": {"preset": "llama-2-7b"}, "data": {"tokens": 1e12},
        "cluster": {"gpu": "h100-sxm", "gpus": 1}, "inference": )") +
           inference + "}";
}

}  // namespace

class TestCliInfer : public QObject {
    Q_OBJECT

private slots:
    void llama3Example();
    void deepseekExample();
    void mistralExampleKeepsTheWindow();
    void readsStandardInput();
    void table();
    void accuracyBand();
    void maxBatchIsInfersMaxBatch();
    void servingSpecWithoutData();
    void pastTheModelsContextIsSaid();
    void concurrency();
    void concurrencyMemoryIsTheRequestsInFlight();
    void requestRate();
    void requestRateSetsTheCost();
    void concurrencyOptionsRefused();
    void concurrencySweep();
    void badInput_data();
    void badInput();
};

void TestCliInfer::llama3Example() {
    const Run r = run_tally({QStringLiteral("infer"), example("llama-3-70b-serve-4xh100-fp8.json"),
                             QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    // GQA: 80 layers x 2 x 8 KV heads x 128 x 2 B = 327,680 B per token; tp 4 keeps 2 heads per
    // GPU: 81,920 B.
    QCOMPARE(j["kv_bytes_per_token"].get<double>(), 327680.0);
    QCOMPARE(j["kv_bytes_per_token_per_gpu"].get<double>(), 81920.0);
    // 70,553,706,496 parameters (tst_inference's count): the input embedding and the output head
    // (128,256 x 8192 each) stay 16-bit, the other 68,452,360,192 at 1 B (fp8):
    // (68,452,360,192 + 2 x 2,101,346,304) / 4 = 18,163,763,200 B.
    QCOMPARE(j["memory"]["weights_bytes"].get<double>(), 18163763200.0);
    // KV cache: 32 sequences x (2048 + 512) tokens x 81,920 B = 6,710,886,400 B.
    QCOMPARE(j["memory"]["kv_cache_bytes"].get<double>(), 6710886400.0);
    QCOMPARE(j["memory"]["capacity_bytes"].get<double>(), 80e9);
    QCOMPARE(j["memory"]["fits"].get<bool>(), true);
    QCOMPARE(j["attention"].get<std::string>(), std::string("GQA"));
    QCOMPARE(j["gemm_dtype"].get<std::string>(), std::string("fp8"));
    for (const char* key : {"max_batch", "prefill_s", "decode_step_s", "tokens_per_s",
                            "per_sequence_tokens_per_s", "critical_batch"}) {
        QVERIFY2(j.contains(key), key);
        QVERIFY2(j[key].get<double>() > 0.0, key);
    }
    // The memory left after weights and activations holds at least the 32 sequences asked for.
    QVERIFY(j["max_batch"].get<std::int64_t>() >= 32);
    // A price is given (2.50 per GPU-hour): cost = 2.5 x 4 / 3600 / tokens_per_s x 1e6.
    const double expected = 2.5 * 4.0 / 3600.0 / j["tokens_per_s"].get<double>() * 1e6;
    QVERIFY(qAbs(j["cost_per_million_tokens"].get<double>() - expected) < 1e-9 * expected);
    // The decode step is the sum of its parts.
    const json& d = j["decode"];
    QVERIFY(qAbs(d["seconds"].get<double>() -
                 (d["gemm_s"].get<double>() + d["attention_s"].get<double>() +
                  d["fixed_s"].get<double>() + d["comm_s"].get<double>())) < 1e-15);
    // 2 all-reduces per layer x 80 layers, each of 32 x 8192 x 2 B = 524,288 B.
    QCOMPARE(d["all_reduces"].get<double>(), 160.0);
    QCOMPARE(d["all_reduce_bytes"].get<double>(), 524288.0);
}

void TestCliInfer::deepseekExample() {
    const Run r = run_tally({QStringLiteral("infer"), example("deepseek-v3-serve-8xh200.json"),
                             QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    // MLA latent: (512 + 64) x 61 layers x 2 B = 70,272 B per token, whole on each GPU.
    QCOMPARE(j["kv_bytes_per_token"].get<double>(), 70272.0);
    QCOMPARE(j["kv_bytes_per_token_per_gpu"].get<double>(), 70272.0);
    QCOMPARE(j["attention"].get<std::string>(), std::string("MLA"));
    // 64 x (4096 + 1024) = 327,680 tokens x 70,272 B = 22,937,600,000 + 327,680 x 272
    // (89,128,960) = 23,026,728,960 B of cache per GPU.
    QCOMPARE(j["memory"]["kv_cache_bytes"].get<double>(), 23026728960.0);
    QCOMPARE(j["memory"]["capacity_bytes"].get<double>(), 141e9);
    // No price in the spec, and the catalog's H200 gives none: null.
    QVERIFY(j["cost_per_million_tokens"].is_null() || j["cost_per_million_tokens"].is_number());
}

void TestCliInfer::mistralExampleKeepsTheWindow() {
    const Run r = run_tally({QStringLiteral("infer"), example("mistral-7b-serve-32k-h100.json"),
                             QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    // 32 layers x 2 x 8 KV heads x 128 x 2 B = 131,072 B a token; each layer keeps the last 4096
    // of the 32768 positions: 8 x 4096 x 131,072 = 4,294,967,296 B (1/8 of 34,359,738,368).
    QCOMPARE(j["kv_bytes_per_token"].get<double>(), 131072.0);
    QCOMPARE(j["memory"]["kv_cache_bytes"].get<double>(), 4294967296.0);
    // The table says why the cache is smaller than batch x context.
    const Run table =
        run_tally({QStringLiteral("infer"), example("mistral-7b-serve-32k-h100.json")});
    QCOMPARE(table.exit_code, 0);
    // Mistral 7B v0.1 windows every one of its 32 layers: "all 32", not "32 of the 32".
    QVERIFY2(table.out.contains("Attention: a sliding window of 4096 positions in all 32 layers, "
                                "which keep only that much KV cache\n"),
             qPrintable(table.out));
    // GPT-OSS 120B windows 18 of its 36 layers at 128 positions (its config.json's
    // layer_types alternate sliding and full attention).
    const Run part = run_tally({QStringLiteral("infer"), QStringLiteral("-")},
                               R"({"model": {"preset": "gpt-oss-120b"},
                               "cluster": {"gpu": "h200", "gpus": 8},
                               "inference": {"tp": 8, "batch": 8}})");
    QCOMPARE(part.exit_code, 0);
    QVERIFY2(part.out.contains("Attention: a sliding window of 128 positions in 18 of the 36 "
                               "layers, which keep only that much KV cache\n"),
             qPrintable(part.out));
}

void TestCliInfer::readsStandardInput() {
    const Run r =
        run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json")},
                  llama7b(R"({"batch": 4, "prompt_tokens": 100, "output_tokens": 28})"));
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    // 32 layers x 2 x 4096 x 2 B = 524,288 B per token; 4 x 128 tokens = 268,435,456 B.
    QCOMPARE(j["kv_bytes_per_token"].get<double>(), 524288.0);
    QCOMPARE(j["memory"]["kv_cache_bytes"].get<double>(), 268435456.0);
    QCOMPARE(j["inference"]["batch"].get<int>(), 4);
}

void TestCliInfer::table() {
    const Run r =
        run_tally({QStringLiteral("infer"), example("llama-3-70b-serve-4xh100-fp8.json")});
    QCOMPARE(r.exit_code, 0);
    for (const char* text :
         {"Memory per GPU", "KV cache", "all-reduces", "time to first token", "decode step",
          "per million output tokens", "critical batch", "Pope et al. 2022"}) {
        QVERIFY2(r.out.contains(text), text);
    }
    // The example's kernel reads each KV head once; a spec that says otherwise is told so.
    QVERIFY(!r.out.contains("once per query head"));
    const Run masked =
        run_tally({QStringLiteral("infer"), QStringLiteral("-")},
                  llama7b(R"({"engine": "tensorrt_llm", "decode_attention": "per_query_head"})"));
    QCOMPARE(masked.exit_code, 0);
    QVERIFY2(masked.out.contains("Decode attention: the KV cache read once per query head"),
             qPrintable(masked.out));
    // Nor is there a host-time line unless the spec states one; stated, it is shown with the
    // engine's own (0 for TensorRT-LLM).
    QVERIFY(!masked.out.contains("Host time per step"));
    const Run host = run_tally({QStringLiteral("infer"), QStringLiteral("-")},
                               llama7b(R"({"engine": "tensorrt_llm", "host_step_s": 0.0025})"));
    QCOMPARE(host.exit_code, 0);
    QVERIFY2(host.out.contains("Host time per step: 2.5 ms"), qPrintable(host.out));
}

// The band is the published runs of the plan's engine and GPU family: counted here from the case
// files themselves, every TensorRT-LLM case on an H100 or H200 with a measured throughput (none
// of them is set apart above the speed-of-light bound). vLLM has no published case: the plan
// says its figures are unchecked.
void TestCliInfer::accuracyBand() {
    const QDir dir(QStringLiteral(TALLY_SOURCE_DIR "/docs/cases/serving"));
    // The published H100/H200 throughputs, of static batches and at a concurrency apart.
    int hopper = 0, hopperContinuous = 0;
    for (const QString& file : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QFile f(dir.filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const json c = json::parse(f.readAll().toStdString());
        const std::string gpu = c["cluster"]["gpu"].get<std::string>();
        if ((gpu == "h100-sxm" || gpu == "h200") &&
            c["measured"].value("output_tokens_per_s", 0.0) > 0.0) {
            ++(c["inference"].value("concurrency", 0) > 0 ? hopperContinuous : hopper);
        }
    }
    QVERIFY(hopper > 0);
    QVERIFY(hopperContinuous > 0);
    Run r = run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json")},
                      llama7b(R"({"engine": "tensorrt_llm", "batch": 8})"));
    QCOMPARE(r.exit_code, 0);
    json band = json::parse(r.out.toStdString())["error_band"];
    QCOMPARE(band["output_tokens_per_s"]["gpu"].get<std::string>(), std::string("H100/H200"));
    QCOMPARE(band["output_tokens_per_s"]["batching"].get<std::string>(), std::string("static"));
    QCOMPARE(band["output_tokens_per_s"]["count"].get<int>(), hopper);
    QVERIFY(band["output_tokens_per_s"]["worst_abs_error"].get<double>() >=
            band["output_tokens_per_s"]["mean_abs_error"].get<double>());
    QCOMPARE(band["itl"]["count"].get<int>(), 0);
    QVERIFY(!band["itl"].contains("mean_abs_error"));

    r = run_tally({QStringLiteral("infer"), QStringLiteral("-")},
                  llama7b(R"({"engine": "tensorrt_llm", "batch": 8})"));
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains("Accuracy on published TensorRT-LLM H100/H200 runs"),
             qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("on %1 published figures").arg(hopper).toUtf8()));

    r = run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json")},
                  llama7b(R"({"batch": 8})"));
    band = json::parse(r.out.toStdString())["error_band"];
    QCOMPARE(band["output_tokens_per_s"]["engine"].get<std::string>(), std::string("vllm"));
    QCOMPARE(band["output_tokens_per_s"]["count"].get<int>(), 0);
    r = run_tally({QStringLiteral("infer"), QStringLiteral("-")}, llama7b(R"({"batch": 8})"));
    QVERIFY(r.out.contains("no published vLLM H100/H200 run with static batches to compare with"));
    // At a concurrency the band is continuous batching's: its own published figures.
    r = run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json"),
                   QStringLiteral("--concurrency"), QStringLiteral("8")},
                  llama7b(R"({"engine": "tensorrt_llm", "batch": 8})"));
    band = json::parse(r.out.toStdString())["error_band"];
    QCOMPARE(band["output_tokens_per_s"]["batching"].get<std::string>(), std::string("continuous"));
    QCOMPARE(band["output_tokens_per_s"]["count"].get<int>(), hopperContinuous);
    QCOMPARE(band["itl"]["count"].get<int>(), hopperContinuous);
}

void TestCliInfer::maxBatchIsInfersMaxBatch() {
    const Run infer =
        run_tally({QStringLiteral("infer"), example("llama-3-70b-serve-4xh100-fp8.json"),
                   QStringLiteral("--json")});
    const Run solve =
        run_tally({QStringLiteral("solve"), QStringLiteral("max-batch"),
                   example("llama-3-70b-serve-4xh100-fp8.json"), QStringLiteral("--json")});
    QCOMPARE(infer.exit_code, 0);
    QCOMPARE(solve.exit_code, 0);
    const json i = json::parse(infer.out.toStdString());
    const json s = json::parse(solve.out.toStdString());
    QCOMPARE(s["max_batch"].get<std::int64_t>(), i["max_batch"].get<std::int64_t>());
    QCOMPARE(s["context_tokens"].get<std::int64_t>(), std::int64_t{2560});
    QVERIFY(s["total_bytes"].get<double>() <= s["capacity_bytes"].get<double>());
    // Text form.
    const Run text = run_tally({QStringLiteral("solve"), QStringLiteral("max-batch"),
                                example("llama-3-70b-serve-4xh100-fp8.json")});
    QCOMPARE(text.exit_code, 0);
    QVERIFY(text.out.contains("Largest batch"));
    QVERIFY(!text.out.contains("tensor parallel"));  // it fits: nothing else to say

    // Llama 3 70B in bf16 on one H100 (tp 1): 70,553,706,496 x 2 B = 141.1 GB of weights, no
    // sequence fits. At tp 2: 70.55 GB of weights a GPU, each sequence of 2048 + 512 tokens
    // 2560 x 327,680 B / 2 = 419.4 MB of KV cache; 9.45 GB left holds at most 22 of them
    // (before the activations); tp 2 is what the answer names, with its largest batch.
    QByteArray spec = R"({"model": {"preset": "llama-3-70b"},
        "cluster": {"gpu": "h100-sxm", "gpus": 8},
        "inference": {"tp": 1, "prompt_tokens": 2048, "output_tokens": 512}})";
    const Run none = run_tally({QStringLiteral("solve"), QStringLiteral("max-batch"),
                                QStringLiteral("-"), QStringLiteral("--json")},
                               spec);
    QCOMPARE(none.exit_code, 0);
    const json n = json::parse(none.out.toStdString());
    QCOMPARE(n["max_batch"].get<std::int64_t>(), std::int64_t{0});
    QCOMPARE(n["smallest_tp_that_fits"]["tp"].get<std::int64_t>(), std::int64_t{2});
    const std::int64_t at_tp2 = n["smallest_tp_that_fits"]["max_batch"].get<std::int64_t>();
    QVERIFY2(at_tp2 >= 1 && at_tp2 <= 22, qPrintable(QString::number(at_tp2)));
    const Run noneText = run_tally(
        {QStringLiteral("solve"), QStringLiteral("max-batch"), QStringLiteral("-")}, spec);
    QVERIFY2(noneText.out.contains(QStringLiteral("tensor parallel 2 (2 GPUs a replica) holds %1 "
                                                  "sequences")
                                       .arg(at_tp2)
                                       .toUtf8()),
             noneText.out.constData());
    // `tally infer` on it still times the batch, and its heading says the batch does not fit.
    const Run inferNone = run_tally({QStringLiteral("infer"), QStringLiteral("-")}, spec);
    QCOMPARE(inferNone.exit_code, 0);
    QVERIFY2(inferNone.out.contains("Static batch: latency and throughput, were it to fit (it "
                                    "does not: see the warnings)"),
             inferNone.out.constData());
    const Run inferFits =
        run_tally({QStringLiteral("infer"), example("llama-3-70b-serve-4xh100-fp8.json")});
    QVERIFY(inferFits.out.contains("Static batch: latency and throughput\n"));
}

void TestCliInfer::badInput_data() {
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("field");
    QTest::newRow("batch 0") << llama7b(R"({"batch": 0})") << "inference.batch";
    QTest::newRow("prompt 0") << llama7b(R"({"prompt_tokens": 0})") << "inference.prompt_tokens";
    QTest::newRow("unknown dtype")
        << llama7b(R"({"weight_dtype": "int3"})") << "inference.weight_dtype";
    QTest::newRow("unknown kv dtype") << llama7b(R"({"kv_dtype": "fp7"})") << "inference.kv_dtype";
    QTest::newRow("unknown key") << llama7b(R"({"beams": 2})") << "inference.beams";
    // 32 heads: tp 3 does not divide them.
    QTest::newRow("tp heads") << llama7b(R"({"tp": 3})") << "inference.tp";
    // tp 2 on one GPU.
    QTest::newRow("tp gpus") << llama7b(R"({"tp": 2})") << "inference.tp";
    QTest::newRow("unknown engine") << llama7b(R"({"engine": "triton"})") << "inference.engine";
    QTest::newRow("pp not dividing layers") << llama7b(R"({"pp": 3})") << "inference.pp";
    QTest::newRow("negative host time")
        << llama7b(R"({"host_step_s": -0.001})") << "inference.host_step_s";
    QTest::newRow("host time over a minute")
        << llama7b(R"({"host_step_s": 75})") << "inference.host_step_s";
    QTest::newRow("params model") << QByteArray(
                                         R"({"model": {"params": 7e9}, "data": {"tokens": 1}})")
                                  << "model.kind";
}

void TestCliInfer::badInput() {
    QFETCH(QByteArray, spec);
    QFETCH(QString, field);
    for (const QStringList& args :
         {QStringList{QStringLiteral("infer"), QStringLiteral("-")},
          QStringList{QStringLiteral("solve"), QStringLiteral("max-batch"), QStringLiteral("-")}}) {
        const Run r = run_tally(args, spec);
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains(field.toUtf8()), r.err.constData());
    }
}

void TestCliInfer::servingSpecWithoutData() {
    // No data, no training block: a serving spec.
    const Run r =
        run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json")},
                  QByteArray(R"({"model": {"preset": "llama-2-7b"},
                                "cluster": {"gpu": "h100-sxm"}, "inference": {"batch": 2}})"));
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["inference"]["engine"].get<std::string>(), std::string("vllm"));
    QVERIFY(j["continuous"].is_null());
    // `tally plan` on the same spec asks for the training tokens by name.
    const Run plan = run_tally({QStringLiteral("plan"), QStringLiteral("-")},
                               QByteArray(R"({"model": {"preset": "llama-2-7b"}})"));
    QCOMPARE(plan.exit_code, 2);
    QVERIFY2(plan.err.contains("data.tokens"), plan.err.constData());
}

// At a concurrency the memory per GPU is that of the requests in flight, as the window's headline
// gives it, beside the static batch's. Llama 3 70B at fp8 on 4 H100 (the shipped example), worked
// in tst_mainwindow's servingExampleHeadlineIsServing for its batch of 32; at 64 in flight:
//   weights   18,163,763,200 B (unchanged)
//   KV cache  81,920 B a token per GPU x 64 x (2048 + 512) = 13,421,772,800 B
//   activations  545,259,520 B (one prefill pass) + 64 x 128256 / 4 logits x 4 B = 8,208,384 B
//   total 32,139,003,904 B = 32.14 GB.
void TestCliInfer::concurrencyMemoryIsTheRequestsInFlight() {
    const QString spec =
        QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/llama-3-70b-serve-4xh100-fp8.json");
    const Run r = run_tally({QStringLiteral("infer"), spec, QStringLiteral("--json"),
                             QStringLiteral("--concurrency"), QStringLiteral("64")});
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["continuous"]["in_flight"].get<double>(), 64.0);
    QCOMPARE(j["continuous"]["memory_total_bytes"].get<double>(),
             18163763200.0 + 13421772800.0 + 545259520.0 + 8208384.0);
    const Run table = run_tally(
        {QStringLiteral("infer"), spec, QStringLiteral("--concurrency"), QStringLiteral("64")});
    QVERIFY2(table.out.contains("32.14 GB of 80 GB with the KV caches of 64 requests in flight"),
             table.out.constData());
}

// Llama 2 7B serves 4096 tokens (its preset's context_length, the config's
// max_position_embeddings): a 6144-token prompt with 2048 output tokens (8192 > 4096) is warned
// about, by the numbers and the field; 2048 + 2048 = 4096 is not.
void TestCliInfer::pastTheModelsContextIsSaid() {
    const Run past = run_tally({QStringLiteral("infer"), QStringLiteral("-")},
                               llama7b(R"({"prompt_tokens": 6144, "output_tokens": 2048})"));
    QCOMPARE(past.exit_code, 0);
    QVERIFY2(past.out.contains("prompt + output = 8192 tokens is past the 4096 tokens of the "
                               "model's context (model.context_length)"),
             past.out.constData());
    const Run within = run_tally({QStringLiteral("infer"), QStringLiteral("-")},
                                 llama7b(R"({"prompt_tokens": 2048, "output_tokens": 2048})"));
    QCOMPARE(within.exit_code, 0);
    QVERIFY2(!within.out.contains("model's context"), within.out.constData());
}

void TestCliInfer::concurrency() {
    const Run r = run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json"),
                             QStringLiteral("--concurrency"), QStringLiteral("16")},
                            llama7b(R"({"prompt_tokens": 512, "output_tokens": 128})"));
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    const json& c = j["continuous"];
    QCOMPARE(c["concurrency"].get<double>(), 16.0);
    // End to end = TTFT + (O - 1) ITL; throughput = C x O / end to end (one replica).
    const double e2e = c["ttft_s"].get<double>() + 127.0 * c["itl_s"].get<double>();
    QVERIFY(qAbs(c["e2e_s"].get<double>() - e2e) < 1e-12 * e2e);
    QVERIFY(qAbs(c["tokens_per_s"].get<double>() - 16.0 * 128.0 / e2e) < 1e-9 * 16.0 * 128.0 / e2e);
    // The table shows it too.
    const Run table = run_tally({QStringLiteral("infer"), QStringLiteral("-"),
                                 QStringLiteral("--concurrency"), QStringLiteral("16")},
                                llama7b(R"({"prompt_tokens": 512})"));
    QVERIFY(table.out.contains("Continuous batching at concurrency 16"));
    QVERIFY(table.out.contains("inter-token latency"));
    // More clients than the KV cache holds: Llama 2 7B keeps 2 x 32 x 4096 x 2 B = 524,288 B a
    // token, 2.1 GB for a 4096-token context, so an 80 GB H100 holds a few dozen; at 64 the
    // engine runs the largest batch that fits and the rest wait, by Little's law over the closed
    // loop (C / B - 1) x the end to end at B.
    const QByteArray longContext = llama7b(R"({"prompt_tokens": 4000, "output_tokens": 96})");
    const Run queued =
        run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json"),
                   QStringLiteral("--concurrency"), QStringLiteral("64")},
                  longContext);
    QCOMPARE(queued.exit_code, 0);
    const json q = json::parse(queued.out.toStdString());
    const double running = q["continuous"]["in_flight"].get<double>();
    // vLLM keeps 10% of the memory (gpu_memory_utilization 0.9), so it admits fewer than fit.
    QCOMPARE(running, q["admission_batch"].get<double>());
    QVERIFY(running > 1.0 && running < q["max_batch"].get<double>());
    QVERIFY(!q["continuous"]["fits"].get<bool>());
    const double wait = q["continuous"]["queue_s"].get<double>();
    const double cycle = q["continuous"]["e2e_s"].get<double>();
    QVERIFY(qAbs(wait - (64.0 / running - 1.0) * (cycle - wait)) < 1e-12 * cycle);
    const Run queuedTable = run_tally({QStringLiteral("infer"), QStringLiteral("-"),
                                       QStringLiteral("--concurrency"), QStringLiteral("64")},
                                      longContext);
    QVERIFY2(queuedTable.out.contains("queued"), queuedTable.out.constData());
    QVERIFY(queuedTable.out.contains(
        QStringLiteral("the KV cache holds %1 sequences").arg(running).toUtf8()));
    // Not a count of requests.
    const Run bad = run_tally({QStringLiteral("infer"), QStringLiteral("-"),
                               QStringLiteral("--concurrency"), QStringLiteral("-3")},
                              llama7b(R"({"batch": 1})"));
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.contains("--concurrency"), bad.err.constData());
}

void TestCliInfer::concurrencySweep() {
    // Each point of the sweep is the plan at that concurrency: the same figures as
    // --concurrency C gives, in the order asked, queued ones included.
    const QByteArray spec = llama7b(R"({"prompt_tokens": 4000, "output_tokens": 96})");
    const Run r = run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json"),
                             QStringLiteral("--concurrency-sweep"), QStringLiteral("64,1,16")},
                            spec);
    QCOMPARE(r.exit_code, 0);
    const json sweep = json::parse(r.out.toStdString())["concurrency_sweep"];
    QCOMPARE(sweep.size(), std::size_t{3});
    const double concurrencies[] = {64.0, 1.0, 16.0};
    for (std::size_t i = 0; i < 3; ++i) {
        const Run one =
            run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json"),
                       QStringLiteral("--concurrency"), QString::number(concurrencies[i])},
                      spec);
        const json c = json::parse(one.out.toStdString())["continuous"];
        QCOMPARE(sweep[i]["concurrency"].get<double>(), concurrencies[i]);
        for (const char* key :
             {"ttft_s", "itl_s", "e2e_s", "tokens_per_s", "in_flight", "queue_s"}) {
            QCOMPARE(sweep[i][key].get<double>(), c[key].get<double>());
        }
    }
    // 64 clients are more than the cache holds (concurrency()): some wait; 1 and 16 do not.
    QVERIFY(sweep[0]["queue_s"].get<double>() > 0.0);
    QCOMPARE(sweep[1]["queue_s"].get<double>(), 0.0);
    // The table has a row a concurrency.
    const Run table = run_tally({QStringLiteral("infer"), QStringLiteral("-"),
                                 QStringLiteral("--concurrency-sweep"), QStringLiteral("1,16")},
                                spec);
    QCOMPARE(table.exit_code, 0);
    QVERIFY(table.out.contains("Concurrency sweep"));
    // Not a list of counts of requests.
    for (const char* bad : {"0", "1,x", "4,", "2.5", "1,2000000"}) {
        const Run refused =
            run_tally({QStringLiteral("infer"), QStringLiteral("-"),
                       QStringLiteral("--concurrency-sweep"), QString::fromLatin1(bad)},
                      spec);
        QCOMPARE(refused.exit_code, 2);
        QVERIFY2(refused.err.contains("--concurrency-sweep"), refused.err.constData());
    }
}

void TestCliInfer::requestRate() {
    // One request a second is far below what an H100 serves a 7B model at: a small concurrency
    // does it, and by Little's law C = rate x end to end.
    const Run r = run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json"),
                             QStringLiteral("--request-rate"), QStringLiteral("1")},
                            llama7b(R"({"prompt_tokens": 512, "output_tokens": 128})"));
    QCOMPARE(r.exit_code, 0);
    const json c = json::parse(r.out.toStdString())["continuous"];
    QVERIFY(qAbs(c["requests_per_s"].get<double>() - 1.0) < 1e-6);
    QVERIFY(qAbs(c["concurrency"].get<double>() - c["e2e_s"].get<double>()) < 1e-6);
    // A billion requests a second: no concurrency that fits serves it.
    const Run bad = run_tally({QStringLiteral("infer"), QStringLiteral("-"),
                               QStringLiteral("--request-rate"), QStringLiteral("1e9")},
                              llama7b(R"({"batch": 1})"));
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.contains("--request-rate"), bad.err.constData());
}

// Served at a request rate, the deployment's cost is that of the throughput it then serves at:
// price x GPUs / 3600 per second over its output tokens per second, x 1e6 (at 2 per GPU-hour on
// 1 GPU: 2 / 3600 / tokens per s x 1e6), the same figure the explanation's arithmetic shows.
void TestCliInfer::requestRateSetsTheCost() {
    const QByteArray spec = R"({"model": {"preset": "llama-2-7b"},
        "cluster": {"gpu": "h100-sxm", "gpus": 1, "price_per_gpu_hour": 2},
        "inference": {"prompt_tokens": 512, "output_tokens": 128}})";
    const Run r = run_tally({QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--json"),
                             QStringLiteral("--request-rate"), QStringLiteral("1")},
                            spec);
    QCOMPARE(r.exit_code, 0);
    const json j = json::parse(r.out.toStdString());
    const double served = j["continuous"]["tokens_per_s"].get<double>();
    // Little's law: a request a second of 128 output tokens is 128 tokens/s.
    QVERIFY(qAbs(served - 128.0) < 1e-3);
    const double cost = 2.0 / 3600.0 / served * 1e6;
    QVERIFY2(qAbs(j["cost_per_million_tokens"].get<double>() / cost - 1.0) < 1e-9,
             r.out.constData());
    // The explanation names the concurrency the rate gave (not 0) and that cost.
    const Run table = run_tally({QStringLiteral("infer"), QStringLiteral("-"),
                                 QStringLiteral("--request-rate"), QStringLiteral("1")},
                                spec);
    QCOMPARE(table.exit_code, 0);
    QVERIFY2(!table.out.contains(" x 0 x 128 / "), table.out.constData());
    QVERIFY2(table.out.contains("= " + QByteArray::number(cost, 'g', 4)), table.out.constData());
    // The static batch's block has no cost line then: the cost is shown once, with the
    // continuous batching it belongs to.
    const QByteArray out = table.out;
    const qsizetype staticAt = out.indexOf("Static batch");
    QVERIFY(staticAt > 0);
    const qsizetype costAt = out.indexOf("  cost  ");
    QVERIFY2(costAt > 0 && costAt < staticAt, out.constData());
}

// --concurrency and --request-rate each set the concurrency; 0 is not a count of requests, nor
// an empty list a sweep.
void TestCliInfer::concurrencyOptionsRefused() {
    const QByteArray spec = llama7b(R"({"prompt_tokens": 512, "output_tokens": 128})");
    const QList<QStringList> refused = {
        {QStringLiteral("--concurrency"), QStringLiteral("0")},
        {QStringLiteral("--request-rate"), QStringLiteral("0")},
        {QStringLiteral("--concurrency"), QStringLiteral("4"), QStringLiteral("--request-rate"),
         QStringLiteral("2")},
        {QStringLiteral("--concurrency-sweep"), QString()},
    };
    for (const QStringList& args : refused) {
        const Run r =
            run_tally(QStringList{QStringLiteral("infer"), QStringLiteral("-")} + args, spec);
        QCOMPARE(r.exit_code, 2);
        const QByteArray option = args[args.size() - 2].toUtf8();
        QVERIFY2(r.err.contains(option), r.err.constData());
    }
}

QTEST_GUILESS_MAIN(TestCliInfer)
#include "tst_cli_infer.moc"
