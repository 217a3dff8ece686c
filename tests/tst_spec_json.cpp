// Spec JSON: strict parsing with field-naming errors, and round trips.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/training/plan.h"

using namespace tally;
using nlohmann::json;

namespace {

// A valid spec to break one field of at a time.
json base() {
    return json::parse(R"({
      "model": {"layers": 4, "hidden": 1024, "heads": 16, "kv_heads": 4, "ffn_hidden": 2816,
                "ffn": "swiglu", "vocab": 32000},
      "data": {"tokens": 1e9, "seq_len": 2048, "global_batch": 16, "micro_batch": 2},
      "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.4},
      "training": {"tp": 2}
    })");
}

// Parses, resolves and checks, as the CLI does; returns the error's field ("" if accepted).
QString first_error_field(const json& j, QString* message = nullptr) {
    try {
        const PlanSpec s = plan_spec_from_json(j);
        const HardwareProfile& hw = resolve_builtin_hardware(s);
        if (auto e = check(s, hw)) {
            if (message) {
                *message = QString::fromStdString(e->message());
            }
            return QString::fromStdString(e->field);
        }
    } catch (const SpecError& e) {
        if (message) {
            *message = QString::fromUtf8(e.what());
        }
        return QString::fromStdString(e.field());
    }
    return {};
}

}  // namespace

class TestSpecJson : public QObject {
    Q_OBJECT

private slots:
    void longValuesAreShortenedInMessages();
    void utf8IsCheckedAndQuotedSafely();
    void architectureOnly();
    void baseIsValid();
    void opSizeAboveTheLimitSaysTheRange();
    void badInput_data();
    void badInput();
    void notJson();
    void numberOverflowNamesTheField();
    void deepNestingRefusedByField();
    void duplicateKeyNamesTheField();
    void contextLengthRoundTrips();
    void qkNormRoundTrips();
    void mtpLayersRoundTripAndRange();
    void boundsAreInclusive();
    void messageNamesValueAndRule();
    void shortenedGpuIdNamesTheOnesItMeant();
    void presetAndOverrides();
    void roundTrip_data();
    void roundTrip();
    void windowedLayersKeptWhileTheWindowIsOff();
    void descriptionRoundTrips();
    void trainingKeysRoundTrip();
    void planJsonContract();
    void zeroParallelSizesAreErrorsNotCrashes();
    void hugeParallelSizesAreErrorsNotOverflows();
    void integersBeyondTwoToThe53AreRefusedByCheck();
};

void TestSpecJson::baseIsValid() {
    QCOMPARE(first_error_field(base()), QString());
}

// An operation's size of 1e20 is a positive integer, but above the 9e15 Tally takes: the
// message gives the range, not "a positive integer".
void TestSpecJson::opSizeAboveTheLimitSaysTheRange() {
    try {
        (void)plan_spec_from_text(
            R"({"model": {"preset": "llama-2-7b"}, "data": {"tokens": 1e9},
                "cluster": {"gpu": "h100-sxm"},
                "ops": [{"kind": "relu", "n": 1e20}]})",
            "");
        QFAIL("accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("ops[0].n"));
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("from 1 to 9e15")), e.what());
    }
}

void TestSpecJson::badInput_data() {
    QTest::addColumn<QString>("pointer");  // JSON pointer of the value to set
    QTest::addColumn<QString>("value");    // JSON text of the new value ("DELETE" removes it)
    QTest::addColumn<QString>("field");    // field the error must name

    QTest::newRow("unknown top-level key") << "/modle"
                                           << "{}"
                                           << "modle";
    QTest::newRow("misspelled model key") << "/model/hiden"
                                          << "1024"
                                          << "model.hiden";
    QTest::newRow("misspelled training key") << "/training/zero_stage"
                                             << "1"
                                             << "training.zero_stage";
    QTest::newRow("wrong type") << "/model/layers"
                                << "\"four\""
                                << "model.layers";
    QTest::newRow("fractional size") << "/model/hidden"
                                     << "1024.5"
                                     << "model.hidden";
    QTest::newRow("negative size") << "/model/layers"
                                   << "-4"
                                   << "model.layers";
    QTest::newRow("zero size") << "/data/seq_len"
                               << "0"
                               << "data.seq_len";
    QTest::newRow("zero tokens") << "/data/tokens"
                                 << "0"
                                 << "data.tokens";
    QTest::newRow("heads do not divide hidden") << "/model/heads"
                                                << "12"
                                                << "model.heads";
    QTest::newRow("kv heads do not divide heads") << "/model/kv_heads"
                                                  << "3"
                                                  << "model.kv_heads";
    QTest::newRow("negative sliding window") << "/model/sliding_window"
                                             << "-1"
                                             << "model.sliding_window";
    QTest::newRow("more windowed layers than layers") << "/model/sliding_window_layers"
                                                      << "1000"
                                                      << "model.sliding_window_layers";
    QTest::newRow("tp does not divide heads") << "/training/tp"
                                              << "3"
                                              << "training.tp";
    // 8 GPUs at tp 8 divide the 16 query heads, but each GPU would need half of one of the 4
    // KV heads: Megatron-Core divides num_query_groups by tp and no training framework
    // replicates KV heads.
    // A RoPE base below 1 makes no rotation frequencies (base^(-2i/d) >= 1); 0 is "unstated".
    QTest::newRow("rope base below 1") << "/model/rope_theta"
                                       << "0.5"
                                       << "model.rope_theta";
    QTest::newRow("tp above the kv heads") << "/training/tp"
                                           << "8"
                                           << "training.tp";
    QTest::newRow("micro batch does not divide global") << "/data/global_batch"
                                                        << "20"
                                                        << "data.global_batch";
    // 2^53 x dp 4 (8 GPUs / tp 2) = 2^55: past the largest exact integer, and named before the
    // global-batch rule multiplies them.
    QTest::newRow("micro batch x dp beyond 2^53") << "/data/micro_batch"
                                                  << "9007199254740992"
                                                  << "data.micro_batch";
    QTest::newRow("gpus not a multiple of tp x pp") << "/cluster/gpus"
                                                    << "7"
                                                    << "cluster.gpus";
    QTest::newRow("unknown gpu") << "/cluster/gpu"
                                 << "\"h900\""
                                 << "cluster.gpu";
    QTest::newRow("mfu above one") << "/cluster/mfu"
                                   << "1.5"
                                   << "cluster.mfu";
    QTest::newRow("unknown dtype") << "/training/param_dtype"
                                   << "\"bf17\""
                                   << "training.param_dtype";
    QTest::newRow("unknown optimizer") << "/training/optimizer"
                                       << "\"adamx\""
                                       << "training.optimizer";
    QTest::newRow("zero stage 4") << "/training/zero"
                                  << "4"
                                  << "training.zero";
    // pp need not divide the layers (uneven stages), but each stage needs one.
    QTest::newRow("pp above the layers") << "/training/pp"
                                         << "5"
                                         << "training.pp";
    QTest::newRow("unknown engine") << "/training/engine"
                                    << "\"jax\""
                                    << "training.engine";
    QTest::newRow("context parallel zero") << "/training/context_parallel"
                                           << "0"
                                           << "training.context_parallel";
    // tp 2 x pp 1 x cp 8 = 16 GPUs needed, 8 given.
    QTest::newRow("tp x pp x cp above the gpus") << "/training/context_parallel"
                                                 << "8"
                                                 << "cluster.gpus";
    QTest::newRow("first stage layers without a pipeline") << "/training/first_stage_layers"
                                                           << "2"
                                                           << "training.first_stage_layers";
    // pp 2: the two ends hold every layer, 3 + 3 != 4.
    QTest::newRow("stage layers not adding up")
        << "/training"
        << R"({"tp": 2, "pp": 2, "first_stage_layers": 3, "last_stage_layers": 3})"
        << "training.first_stage_layers";
    QTest::newRow("routing imbalance on a dense model") << "/training/moe_imbalance"
                                                        << "1.5"
                                                        << "training.moe_imbalance";
    QTest::newRow("routing imbalance below one") << "/training/moe_imbalance"
                                                 << "0.5"
                                                 << "training.moe_imbalance";
    QTest::newRow("unknown fp8 recipe") << "/training/fp8_recipe"
                                        << "\"nvfp4\""
                                        << "training.fp8_recipe";
    QTest::newRow("unknown dispatcher") << "/training/moe_dispatcher"
                                        << "\"deepep\""
                                        << "training.moe_dispatcher";
    QTest::newRow("unknown attention kernel") << "/training/attention_kernel"
                                              << "\"flash4\""
                                              << "training.attention_kernel";
    // tp is 2: an expert tensor parallelism of 1 differs from it, which needs experts.
    QTest::newRow("expert tensor parallel on a dense model") << "/training/expert_tensor_parallel"
                                                             << "1"
                                                             << "training.expert_tensor_parallel";
    QTest::newRow("misspelled measured key") << "/measured"
                                             << R"({"tokens_per_second": 5})"
                                             << "measured.tokens_per_second";
    QTest::newRow("measured figure negative") << "/measured"
                                              << R"({"step_s": -1})"
                                              << "measured.step_s";
    QTest::newRow("unknown preset") << "/model"
                                    << R"({"preset": "llama-9"})"
                                    << "model.preset";
    QTest::newRow("missing tokens") << "/data/tokens"
                                    << "DELETE"
                                    << "data.tokens";
    QTest::newRow("missing model") << "/model"
                                   << "DELETE"
                                   << "model";
    QTest::newRow("tokens beyond 1e30") << "/data/tokens"
                                        << "1e308"
                                        << "data.tokens";
    QTest::newRow("bool for number") << "/cluster/gpus"
                                     << "true"
                                     << "cluster.gpus";
    QTest::newRow("string for bool") << "/training/dropout"
                                     << "\"yes\""
                                     << "training.dropout";
    QTest::newRow("adam8bit with fp32 states")
        << "/training"
        << R"({"optimizer": "adam8bit", "optimizer_state_dtype": "fp32"})"
        << "training.optimizer_state_dtype";
    QTest::newRow("bad op kind") << "/ops"
                                 << R"([{"kind": "conv"}])"
                                 << "ops[0].kind";
    QTest::newRow("op missing size") << "/ops"
                                     << R"([{"kind": "matmul", "m": 4, "k": 4}])"
                                     << "ops[0].n";
    // Accepted before with non-finite figures: 1e30 tokens at MFU 1e-300 take infinitely long
    // (and cost inf x price, NaN for a price of 0); a price of 1e308 costs infinitely much; a GELU
    // at 1e308 FLOPs per element needs infinitely many FLOPs; 21 einsum sizes of 9e15 multiply
    // to 9e15^21 = 1.1e334, beyond a double.
    QTest::newRow("mfu 1e-300") << "/cluster/mfu"
                                << "1e-300"
                                << "cluster.mfu";
    QTest::newRow("mfu just below 0.001") << "/cluster/mfu"
                                          << "0.00099"
                                          << "cluster.mfu";
    QTest::newRow("price 1e308") << "/cluster/price_per_gpu_hour"
                                 << "1e308"
                                 << "cluster.price_per_gpu_hour";
    QTest::newRow("gelu 1e308 flops per element")
        << "/ops"
        << R"([{"kind": "gelu", "n": 1000, "flops_per_element": 1e308}])"
        << "ops[0].flops_per_element";
    QTest::newRow("einsum of 21 sizes of 9e15")
        << "/ops"
        << R"([{"kind": "einsum", "expr": "a b c d e f g h i j k l m n o p q r s t u -> ",
                "sizes": {"a": 9e15, "b": 9e15, "c": 9e15, "d": 9e15, "e": 9e15, "f": 9e15,
                          "g": 9e15, "h": 9e15, "i": 9e15, "j": 9e15, "k": 9e15, "l": 9e15,
                          "m": 9e15, "n": 9e15, "o": 9e15, "p": 9e15, "q": 9e15, "r": 9e15,
                          "s": 9e15, "t": 9e15, "u": 9e15}}])"
        << "ops[0].sizes";
}

void TestSpecJson::badInput() {
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, field);
    json j = base();
    const json::json_pointer ptr(pointer.toStdString());
    if (value == QLatin1String("DELETE")) {
        j[ptr.parent_pointer()].erase(ptr.back());
    } else {
        j[ptr] = json::parse(value.toStdString());
    }
    QString message;
    const QString got = first_error_field(j, &message);
    QVERIFY2(got == field, qPrintable(QStringLiteral("got '%1': %2").arg(got, message)));
    QVERIFY(message.contains(field));
}

void TestSpecJson::notJson() {
    // JSON has no NaN or Infinity literals, and 1e999 overflows a double: none of these is a spec.
    for (const char* text : {"{\"model\": ", "NaN", "{\"data\": {\"tokens\": Infinity}}", ""}) {
        try {
            plan_spec_from_text(text);
            QFAIL(text);
        } catch (const SpecError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("spec"));
        }
    }
}

// Arrays and objects nested 100 levels deep are read (the object is level 1, then 99 arrays: the
// reader goes on to refuse the unknown key); one more level is refused before parsing, as is a
// document of 100,000 levels, which used to overflow the stack where its value was quoted. A
// bracket inside a string is text, not nesting.
void TestSpecJson::deepNestingRefusedByField() {
    const auto nested = [](int arrays) {
        return "{\"x\": " + std::string(arrays, '[') + std::string(arrays, ']') + "}";
    };
    const auto refused_for_depth = [](const std::string& text) {
        try {
            plan_spec_from_text(text);
        } catch (const SpecError& e) {
            return std::string(e.what()).find("nest at most 100 levels") != std::string::npos;
        }
        return false;
    };
    QVERIFY(!refused_for_depth(nested(99)));
    QVERIFY(refused_for_depth(nested(100)));
    QVERIFY(refused_for_depth(nested(100000)));
    QVERIFY(!refused_for_depth("{\"name\": \"" + std::string(1000, '[') + "\"}"));
    QVERIFY(!refused_for_depth("{\"name\": \"\\\"" + std::string(1000, '{') + "\"}"));
}

void TestSpecJson::numberOverflowNamesTheField() {
    // 1e999 overflows a double while the text is parsed, before any field is read; the error
    // still names the field that holds it, and says why.
    for (const auto& [text, field] :
         {std::pair{R"({"model": {"params": 1e9}, "data": {"tokens": 1e999}})", "data.tokens"},
          std::pair{R"({"ops": [{"kind": "relu", "n": 4}, {"kind": "relu", "n": -1e400}]})",
                    "ops[1].n"},
          std::pair{R"([1, 2, 1e400])", "[2]"}}) {
        try {
            plan_spec_from_text(text);
            QFAIL(text);
        } catch (const SpecError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString::fromLatin1(field));
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("out of the range")),
                     e.what());
        }
    }
}

// A key given twice in one object is refused, naming its field: a parser keeps one of the two
// values ({"tokens": 1e12, "tokens": 2e12} planned with 2e12), and the user would not know which.
// The same key in two different objects is fine.
// model.context_length: a preset brings its own (Llama 2 7B: 4096, Touvron et al. 2023,
// Table 1), a spec may give another, it survives a save, and a negative one is refused by name.
void TestSpecJson::qkNormRoundTrips() {
    const PlanSpec plain =
        plan_spec_from_text(R"({"model": {"preset": "llama-3-8b"}, "data": {"tokens": 1e12}})");
    QVERIFY(!plain.model.qk_norm);
    QVERIFY(!to_json(plain)["model"].contains("qk_norm"));  // a default is not written back
    const PlanSpec normed = plan_spec_from_text(
        R"({"model": {"preset": "llama-3-8b", "qk_norm": true}, "data": {"tokens": 1e12}})");
    QVERIFY(normed.model.qk_norm);
    QVERIFY(plan_spec_from_text(to_json(normed).dump()).model.qk_norm);
    // Not a boolean: refused by field.
    try {
        plan_spec_from_text(
            R"({"model": {"preset": "llama-3-8b", "qk_norm": "yes"}, "data": {"tokens": 1e12}})");
        QFAIL("a qk_norm of words was read");
    } catch (const SpecError& e) {
        QCOMPARE(e.field(), std::string("model.qk_norm"));
    }
    // With MLA the flag is not read, and not written back.
    const PlanSpec mla = plan_spec_from_text(
        R"({"model": {"preset": "deepseek-v3", "qk_norm": true}, "data": {"tokens": 1e12}})");
    QVERIFY(!to_json(mla)["model"].contains("qk_norm"));
}

// model.mtp_layers: 0 by default and then not written; a depth survives a save; a negative one
// is refused by name, from a file and from a spec built in code.
void TestSpecJson::mtpLayersRoundTripAndRange() {
    const PlanSpec plain =
        plan_spec_from_text(R"({"model": {"preset": "deepseek-v3"}, "data": {"tokens": 1e12}})");
    QCOMPARE(plain.model.mtp_layers, std::int64_t{0});
    QVERIFY(!to_json(plain)["model"].contains("mtp_layers"));
    const PlanSpec mtp = plan_spec_from_text(
        R"({"model": {"preset": "deepseek-v3", "mtp_layers": 1}, "data": {"tokens": 1e12}})");
    QCOMPARE(mtp.model.mtp_layers, std::int64_t{1});
    QCOMPARE(plan_spec_from_text(to_json(mtp).dump()).model.mtp_layers, std::int64_t{1});
    try {
        plan_spec_from_text(
            R"({"model": {"preset": "deepseek-v3", "mtp_layers": -1}, "data": {"tokens": 1e12}})");
        QFAIL("a negative mtp_layers was read");
    } catch (const SpecError& e) {
        QCOMPARE(e.field(), std::string("model.mtp_layers"));
    }
    PlanSpec built = mtp;
    built.model.mtp_layers = -2;
    const std::optional<FieldError> refused = check(built, *find_builtin_hardware("h100-sxm"));
    QVERIFY(refused);
    QCOMPARE(refused->field, std::string("model.mtp_layers"));
    QCOMPARE(refused->value, std::string("-2"));
    QVERIFY2(refused->message().find("[0, 2^53") != std::string::npos, refused->message().c_str());
}

void TestSpecJson::contextLengthRoundTrips() {
    const PlanSpec preset =
        plan_spec_from_text(R"({"model": {"preset": "llama-2-7b"}, "data": {"tokens": 1e12}})");
    QCOMPARE(preset.model.context_length, std::int64_t{4096});
    const PlanSpec longer = plan_spec_from_text(
        R"({"model": {"preset": "llama-2-7b", "context_length": 32768}, "data": {"tokens": 1e12}})");
    QCOMPARE(longer.model.context_length, std::int64_t{32768});
    QCOMPARE(plan_spec_from_text(to_json(longer).dump()).model.context_length, std::int64_t{32768});
    PlanSpec bad = longer;
    bad.model.context_length = -1;
    const auto error = check(bad, resolve_builtin_hardware(bad));
    QVERIFY(error.has_value());
    QCOMPARE(QString::fromStdString(error->field), QStringLiteral("model.context_length"));
}

void TestSpecJson::duplicateKeyNamesTheField() {
    struct Case {
        const char* text;
        const char* field;
        const char* given;  // the key, both times
    };
    for (const Case& c :
         {Case{R"({"model": {"params": 1e9}, "data": {"tokens": 1e12, "tokens": 2e12}})",
               "data.tokens", R"("tokens", "tokens")"},
          Case{R"({"model": {"params": 1e9}, "model": {"params": 2e9}})", "model",
               R"("model", "model")"},
          Case{R"({"ops": [{"kind": "relu", "n": 4}, {"kind": "relu", "n": 4, "n": 8}]})",
               "ops[1].n", R"("n", "n")"}}) {
        try {
            plan_spec_from_text(c.text);
            QFAIL(c.text);
        } catch (const SpecError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString::fromLatin1(c.field));
            QCOMPARE(QString::fromStdString(e.error().value), QString::fromLatin1(c.given));
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("twice")), e.what());
        }
    }
    const PlanSpec ok = plan_spec_from_text(
        R"({"model": {"params": 1e9, "name": "a"}, "data": {"tokens": 1e12}, "name": "a"})");
    QCOMPARE(ok.data.tokens, 1e12);
}

void TestSpecJson::boundsAreInclusive() {
    // The smallest MFU and the largest price are accepted, and give finite figures: 1e12
    // tokens x 6 x 7e10 params = 4.2e23 FLOPs at 0.001 x 989.5e12 x 8 FLOP/s = 7.9e12 FLOP/s
    // take 5.3e10 s; x 8 GPUs = 1.2e8 GPU-hours, x 1e9 = 1.2e17 in cost. 1e9 is also the
    // largest price a hardware profile holds, so a plan takes whatever price a profile has.
    json j = json::parse(R"({"model": {"params": 7e10}, "data": {"tokens": 1e12},
        "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.001, "price_per_gpu_hour": 1e9}})");
    const PlanSpec s = plan_spec_from_json(j);
    const HardwareProfile& hw = resolve_builtin_hardware(s);
    QVERIFY(!check(s, hw));
    const Plan p = evaluate(s, hw);
    const double seconds = 6.0 * 7e10 * 1e12 / (0.001 * hw.peak(ComputeType::bf16) * 8.0);
    QCOMPARE(p.time.seconds, seconds);
    QCOMPARE(p.time.cost, seconds / 3600.0 * 8.0 * 1e9);
}

void TestSpecJson::messageNamesValueAndRule() {
    json j = base();
    j["model"]["heads"] = 12;
    QString message;
    first_error_field(j, &message);
    // field, value and what is allowed
    QVERIFY2(message.contains(QLatin1String("model.heads")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("12")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("divide model.hidden (1024)")), qPrintable(message));
    // More model-parallel GPUs than the cluster has: the product is said, tp 2 x pp 4 x cp 2
    // = 16 against 8.
    j = base();
    j["training"]["pp"] = 4;
    j["training"]["context_parallel"] = 2;
    QCOMPARE(first_error_field(j, &message), QStringLiteral("cluster.gpus"));
    QVERIFY2(message.contains(QLatin1String("(2 x 4 x 2 = 16)")), qPrintable(message));
}

// "H100" is no catalog id; the ids that spell it once case and '-' are set aside are the three
// H100 parts (catalog.json: h100-sxm, h100-pcie, h100-nvl), and "H100 SXM" is only h100-sxm.
// "gpu9000" is like none of them: the message lists all the ids and suggests nothing.
void TestSpecJson::shortenedGpuIdNamesTheOnesItMeant() {
    const auto similar = similar_builtin_hardware_ids("H100");
    QCOMPARE(similar, (std::vector<std::string>{"h100-sxm", "h100-pcie", "h100-nvl"}));
    QCOMPARE(similar_builtin_hardware_ids("H100 SXM"), std::vector<std::string>{"h100-sxm"});
    QVERIFY(similar_builtin_hardware_ids("gpu9000").empty());
    json j = base();
    j["cluster"]["gpu"] = "H100";
    QString message;
    QCOMPARE(first_error_field(j, &message), QStringLiteral("cluster.gpu"));
    QVERIFY2(message.contains(QLatin1String("such as h100-sxm, h100-pcie, h100-nvl")),
             qPrintable(message));
    j["cluster"]["gpu"] = "gpu9000";
    QCOMPARE(first_error_field(j, &message), QStringLiteral("cluster.gpu"));
    QVERIFY2(!message.contains(QLatin1String("such as")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("one of the built-in GPUs")), qPrintable(message));
}

void TestSpecJson::presetAndOverrides() {
    const PlanSpec s = plan_spec_from_json(json::parse(R"({
        "model": {"preset": "llama-2-70b", "layers": 40},
        "data": {"tokens": 1e12}})"));
    QCOMPARE(s.model.layers, std::int64_t{40});
    QCOMPARE(s.model.hidden, std::int64_t{8192});
    QCOMPARE(s.model.kv_heads, std::int64_t{8});
}

void TestSpecJson::roundTrip_data() {
    QTest::addColumn<QString>("file");
    const QDir dir(QStringLiteral(TALLY_SOURCE_DIR "/resources/examples"));
    for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
}

void TestSpecJson::roundTrip() {
    QFETCH(QString, file);
    const PlanSpec a = load_plan_spec(file.toStdString());
    const json once = to_json(a);
    const PlanSpec b = plan_spec_from_json(once);
    QCOMPARE(QString::fromStdString(to_json(b).dump()), QString::fromStdString(once.dump()));
    // And the round-tripped spec evaluates to the same plan.
    const HardwareProfile& hw = resolve_builtin_hardware(a);
    QCOMPARE(evaluate(b, hw).memory.total_bytes, evaluate(a, hw).memory.total_bytes);
    QCOMPARE(evaluate(b, hw).time.days, evaluate(a, hw).time.days);
}

// The description is free text the planner never reads, but a save must not drop it: an example's
// explanation and a user's notes survive to_json -> plan_spec_from_json byte for byte.
void TestSpecJson::windowedLayersKeptWhileTheWindowIsOff() {
    // The form keeps the count of windowed layers while the window is off; a save keeps it too,
    // and it changes nothing until the window is on again.
    json j = base();
    j["model"]["sliding_window_layers"] = 2;
    const PlanSpec off = plan_spec_from_json(j);
    QCOMPARE(off.model.windowed_layers(), std::int64_t{0});
    QCOMPARE(to_json(off)["model"]["sliding_window_layers"].get<int>(), 2);
    QVERIFY(!to_json(off)["model"].contains("sliding_window"));
    PlanSpec on = plan_spec_from_json(to_json(off));
    on.model.sliding_window = 512;
    QCOMPARE(on.model.windowed_layers(), std::int64_t{2});
}

void TestSpecJson::descriptionRoundTrips() {
    const std::string path = TALLY_SOURCE_DIR "/resources/examples/lecture-mlp.json";
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const json raw = json::parse(f.readAll().toStdString());
    const std::string text = raw.at("description").get<std::string>();
    QVERIFY(!text.empty());
    const PlanSpec spec = load_plan_spec(path);
    QCOMPARE(spec.description, text);
    QCOMPARE(to_json(spec).at("description").get<std::string>(), text);

    PlanSpec notes = default_plan_spec();
    notes.description = "Line one, \"quoted\"\nline two: 激活检查点";
    QCOMPARE(plan_spec_from_json(to_json(notes)).description, notes.description);
    // No description, no key: a spec without one writes what it wrote before.
    QVERIFY(!to_json(default_plan_spec()).contains("description"));
}

// The new training keys and the measured run survive a save, and a spec that sets none of the
// optional ones writes none of them.
void TestSpecJson::trainingKeysRoundTrip() {
    json j = base();
    j["model"]["moe"] = {{"experts", 8},
                         {"active_experts", 2},
                         {"expert_ffn_hidden", 512},
                         {"router_groups", 4},
                         {"router_group_topk", 2}};
    j["training"] = {{"tp", 2},
                     {"pp", 2},
                     {"engine", "fsdp_compile"},
                     {"context_parallel", 2},
                     {"first_stage_layers", 1},
                     {"last_stage_layers", 3},
                     {"expert_tensor_parallel", 1},
                     {"compute_dtype", "fp8_e4m3"},
                     {"fp8_recipe", "mxfp8"},
                     {"moe_imbalance", 1.25},
                     {"attention_kernel", "flash3"},
                     {"moe_dispatcher", "flex"}};
    j["measured"] = {{"tokens_per_s_per_gpu", 1234.5}, {"source", "a table"}};
    const PlanSpec a = plan_spec_from_json(j);
    QVERIFY(a.training.engine == Engine::fsdp_compile);
    QCOMPARE(a.training.context_parallel, std::int64_t{2});
    QCOMPARE(a.training.first_stage_layers, std::int64_t{1});
    QCOMPARE(a.training.last_stage_layers, std::int64_t{3});
    QCOMPARE(a.training.expert_tensor_parallel, std::int64_t{1});
    QVERIFY(a.training.fp8_recipe == Fp8Recipe::mxfp8);
    QCOMPARE(a.training.moe_imbalance, 1.25);
    QVERIFY(a.training.attention_kernel == AttentionKernel::flash3);
    QVERIFY(a.training.moe_dispatcher == MoeDispatcher::flex);
    QCOMPARE(a.model.moe.router_groups, std::int64_t{4});
    QCOMPARE(a.model.moe.router_group_topk, std::int64_t{2});
    QCOMPARE(a.measured.tokens_per_s_per_gpu, 1234.5);
    QCOMPARE(a.measured.source, std::string("a table"));
    QVERIFY(plan_spec_from_json(to_json(a)) == a);
    // 8 GPUs / (tp 2 x pp 2 x cp 2) = dp 1; ep 1 x etp 1 divides tp x cp x dp = 4.
    QVERIFY(!check(a, resolve_builtin_hardware(a)));

    const json plain = to_json(plan_spec_from_json(base()));
    for (const char* key : {"first_stage_layers", "last_stage_layers", "expert_tensor_parallel",
                            "fp8_recipe", "moe_imbalance", "attention_kernel", "moe_dispatcher"}) {
        QVERIFY2(!plain.at("training").contains(key), key);
    }
    QCOMPARE(plain.at("training").at("engine").get<std::string>(), std::string("megatron"));
    QCOMPARE(plain.at("training").at("context_parallel").get<std::int64_t>(), std::int64_t{1});
    QVERIFY(!plain.contains("measured"));
}

void TestSpecJson::planJsonContract() {
    // The --json contract: the fields a script may rely on.
    const PlanSpec s = default_plan_spec();
    const HardwareProfile& hw = resolve_builtin_hardware(s);
    const json j = to_json(evaluate(s, hw), s, hw);
    for (const char* key : {"params", "params_active", "params_embedding"}) {
        QVERIFY2(j.at(key).is_number(), key);
    }
    for (const char* key : {"params_bytes", "grads_bytes", "master_bytes", "optimizer_bytes",
                            "activations_bytes", "total_bytes", "capacity_bytes"}) {
        QVERIFY2(j.at("memory").at(key).is_number(), key);
    }
    QVERIFY(j.at("memory").at("fits").is_boolean());
    for (const char* key : {"per_token_6n", "per_token_attention", "per_token", "per_step", "total",
                            "hardware_total"}) {
        QVERIFY2(j.at("flops").at(key).is_number(), key);
    }
    for (const char* key : {"seconds", "days", "gpu_hours"}) {
        QVERIFY2(j.at("time").at(key).is_number(), key);
    }
    QCOMPARE(j.at("flops").at("total").get<double>(), 6.3e24);
}

void TestSpecJson::zeroParallelSizesAreErrorsNotCrashes() {
    // The JSON reader refuses tp = 0, but a spec built in code (the GUI's form) can hold it:
    // check() must name the field before any rule divides by it.
    PlanSpec s = plan_spec_from_json(base());
    const HardwareProfile& hw = resolve_builtin_hardware(s);
    s.training.tp = 0;
    QCOMPARE(QString::fromStdString(check(s, hw)->field), QStringLiteral("training.tp"));
    s.training.tp = 1;
    s.training.pp = 0;
    QCOMPARE(QString::fromStdString(check(s, hw)->field), QStringLiteral("training.pp"));
    s.training.pp = 1;
    s.data.micro_batch = 0;
    QCOMPARE(QString::fromStdString(check(s, hw)->field), QStringLiteral("data.micro_batch"));
    s.data.micro_batch = 1;
    s.cluster.gpus = 0;
    QCOMPARE(QString::fromStdString(check(s, hw)->field), QStringLiteral("cluster.gpus"));
}

void TestSpecJson::hugeParallelSizesAreErrorsNotOverflows() {
    // A 'params' model has no heads or layers for tp and pp to divide, so only the cluster rule
    // sees them: tp x pp = 2^53 x 2^53 = 2^106 wraps an int64 (to 0: a division by zero after),
    // so the rule must name cluster.gpus without forming the product.
    PlanSpec s = plan_spec_from_json(base());
    s.model.kind = ModelKind::params;
    s.model.params = 7e10;
    const HardwareProfile& hw = resolve_builtin_hardware(s);
    QVERIFY(!check(s, hw));
    s.training.tp = std::int64_t{1} << 53;
    s.training.pp = std::int64_t{1} << 53;
    const std::optional<FieldError> e = check(s, hw);
    QVERIFY(e);
    QCOMPARE(QString::fromStdString(e->field), QStringLiteral("cluster.gpus"));
    QVERIFY2(QString::fromStdString(e->message()).contains(QStringLiteral("9007199254740992")),
             e->message().c_str());
    // tp alone larger than the cluster: the same rule, the same field.
    s.training.tp = 16;
    s.training.pp = 1;
    QCOMPARE(QString::fromStdString(check(s, hw)->field), QStringLiteral("cluster.gpus"));
}

void TestSpecJson::integersBeyondTwoToThe53AreRefusedByCheck() {
    // A spec built in code (the GUI, presets) skips the reader's 2^53 bound; check() applies it,
    // so that the planner's int64 sums (q_lora_rank + kv_lora_rank + d_rope, d_nope + d_rope)
    // cannot overflow. 2^62 + 2^62 would already wrap an int64.
    PlanSpec s =
        plan_spec_from_text(R"({"model": {"preset": "deepseek-v3"}, "data": {"tokens": 1e12},
        "cluster": {"gpu": "h100-sxm", "gpus": 8}})");
    const HardwareProfile& hw = resolve_builtin_hardware(s);
    QVERIFY(!check(s, hw));
    s.model.mla.q_lora_rank = std::int64_t{1} << 62;
    std::optional<FieldError> e = check(s, hw);
    QVERIFY(e);
    QCOMPARE(QString::fromStdString(e->field), QStringLiteral("model.mla.q_lora_rank"));
    QVERIFY2(QString::fromStdString(e->message()).contains(QStringLiteral("9007199254740992")),
             e->message().c_str());
    // 2^53 itself is allowed by this rule (the model may still break another).
    s.model.mla.q_lora_rank = std::int64_t{1} << 53;
    e = check(s, hw);
    QVERIFY(!e || e->field != "model.mla.q_lora_rank");
    // A negative size is refused with the range the field really has: a transformer's layers
    // start at 1, the parameter-count model does not use them (0 allowed), kv_heads 0 = heads.
    s.model.mla.q_lora_rank = 1536;
    s.model.layers = -5;
    e = check(s, hw);
    QVERIFY(e);
    QCOMPARE(QString::fromStdString(e->field), QStringLiteral("model.layers"));
    QVERIFY2(QString::fromStdString(e->message()).contains(QStringLiteral("[1, 2^53")),
             e->message().c_str());
    s.model.layers = 61;
    s.model.kv_heads = -1;
    e = check(s, hw);
    QVERIFY(e);
    QVERIFY2(QString::fromStdString(e->message()).contains(QStringLiteral("[0, 2^53")),
             e->message().c_str());
}

void TestSpecJson::architectureOnly() {
    // A parameter count is only its count: leftover dimensions and the name do not matter.
    ModelSpec a;
    a.kind = ModelKind::params;
    a.params = 70e9;
    ModelSpec b = a;
    b.layers = 80;
    b.name = "70B";
    QVERIFY(!(a == b));
    QVERIFY(architecture_only(a) == architecture_only(b));
    b.params = 7e9;
    QVERIFY(!(architecture_only(a) == architecture_only(b)));

    // A transformer ignores a leftover parameter count and a disabled mixture of experts, but
    // not a dimension.
    ModelSpec t = find_model_preset("llama-2-7b")->model;
    ModelSpec u = t;
    u.params = 70e9;
    u.moe.expert_ffn_hidden = 1408;  // experts = 0: no mixture of experts
    QVERIFY(architecture_only(t) == architecture_only(u));
    u.heads = t.heads * 2;
    QVERIFY(!(architecture_only(t) == architecture_only(u)));
}

// A value pasted into a field comes back in the error whole up to 80 characters; past that as
// its first 48 characters, "…", its last 16 and its length, so that a 300-letter name does not
// make a message (and the dialog showing it) 300 letters wide. Characters, not bytes: 100 "数"
// are 300 bytes and 100 characters.
void TestSpecJson::longValuesAreShortenedInMessages() {
    const std::string eighty(80, 'N');
    QCOMPARE(shown_error_value(eighty), eighty);
    const std::string long_name = std::string(200, 'A') + std::string(100, 'Z');
    QCOMPARE(shown_error_value(long_name),
             std::string(48, 'A') + "…" + std::string(16, 'Z') + " (300 characters)");
    std::string han;
    for (int i = 0; i < 100; ++i) {
        han += "数";
    }
    std::string han48;
    std::string han16;
    for (int i = 0; i < 48; ++i) {
        han48 += "数";
    }
    for (int i = 0; i < 16; ++i) {
        han16 += "数";
    }
    QCOMPARE(shown_error_value(han), han48 + "…" + han16 + " (100 characters)");
    const FieldError e{"profile.name", long_name, "at most 200 bytes", {}};
    QCOMPARE(e.message(), "profile.name: got " + std::string(48, 'A') + "…" + std::string(16, 'Z') +
                              " (300 characters); at most 200 bytes");
}

// RFC 3629, sec. 4's syntax, case by case: "é" is C3 A9 and "中" E4 B8 AD (well formed);
// C0 AF is "/" in an overlong two-byte form, ED A0 80 the surrogate U+D800, F4 90 80 80 is
// U+110000 (past U+10FFFF), E4 B8 a three-byte sequence cut short, 80 a continuation byte with
// no lead, FF a byte UTF-8 never uses. The quoted form of a bad text replaces its bytes with
// U+FFFD (EF BF BD) instead of failing.
void TestSpecJson::utf8IsCheckedAndQuotedSafely() {
    QVERIFY(is_valid_utf8(""));
    QVERIFY(is_valid_utf8("plain"));
    QVERIFY(is_valid_utf8("caf\xc3\xa9 \xe4\xb8\xad"));
    QVERIFY(is_valid_utf8("\xf0\x9f\x98\x80"));  // U+1F600
    QVERIFY(!is_valid_utf8("\xc0\xaf"));
    QVERIFY(!is_valid_utf8("\xed\xa0\x80"));
    QVERIFY(!is_valid_utf8("\xf4\x90\x80\x80"));
    QVERIFY(!is_valid_utf8("\xe4\xb8"));
    QVERIFY(!is_valid_utf8("a\x80"));
    QVERIFY(!is_valid_utf8("\xff"));
    QCOMPARE(quoted_value("a\"b"), std::string("\"a\\\"b\""));
    QCOMPARE(quoted_value("x\xff"), std::string("\"x\xef\xbf\xbd\""));
}

QTEST_GUILESS_MAIN(TestSpecJson)
#include "tst_spec_json.moc"
