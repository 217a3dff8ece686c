// Hugging Face config.json import.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/io/hf_config.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/training/plan.h"

using namespace tally;
using nlohmann::json;

class TestHfConfig : public QObject {
    Q_OBJECT

private slots:
    void llamaMatchesPreset();
    void mixtral();
    void qwen2MoeSharedExpert();
    void qwen2HasQkvBias();
    void deepseekV3();
    void slidingWindow_data();
    void slidingWindow();
    void gptOss();
    void gemma();
    void qkNormByArchitecture();
    void deepseekV3MtpDepth();
    void errors_data();
    void errors();
    void specReferencesFile();
    void sizesBeyondTheSpecRangeAreRefused_data();
    void sizesBeyondTheSpecRangeAreRefused();
    void largestSizeIsAccepted();
    void numberOverflowNamesTheKey();
};

namespace {

// Keys as in meta-llama/Llama-2-70b-hf/config.json.
json llama_2_70b() {
    return json::parse(R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64,
        "num_hidden_layers": 80, "num_key_value_heads": 8, "vocab_size": 32000,
        "hidden_act": "silu", "rms_norm_eps": 1e-05, "tie_word_embeddings": false,
        "torch_dtype": "float16"})");
}

}  // namespace

void TestHfConfig::llamaMatchesPreset() {
    const ModelSpec m = model_from_hf_config(llama_2_70b(), "model.hf_config");
    // Same dimensions as the preset, so the same 68,976,648,192 parameters (tst_params).
    QCOMPARE(count_params(m).total, 68976648192.0);
    QCOMPARE(m.kv_heads, std::int64_t{8});
    QCOMPARE(m.ffn, FfnKind::swiglu);
    // No max_position_embeddings in this copy: the context is unstated. The real config's 4096
    // is read, and GPT-2's n_positions where that is the name; it is not architecture, so the
    // model still matches the preset.
    QCOMPARE(m.context_length, std::int64_t{0});
    json with = llama_2_70b();
    with["max_position_embeddings"] = 4096;
    const ModelSpec read = model_from_hf_config(with, "model.hf_config");
    QCOMPARE(read.context_length, std::int64_t{4096});
    QVERIFY(architecture_only(read) == architecture_only(m));
    // The config's rope_theta (10000.0 in Llama 2's) is the model's RoPE base, not architecture.
    QCOMPARE(m.rope_theta, 0.0);
    json rope = llama_2_70b();
    rope["rope_theta"] = 10000.0;
    const ModelSpec based = model_from_hf_config(rope, "model.hf_config");
    QCOMPARE(based.rope_theta, 10000.0);
    QVERIFY(architecture_only(based) == architecture_only(m));
    rope["rope_theta"] = "ten thousand";
    try {
        model_from_hf_config(rope, "model.hf_config");
        QFAIL("a rope_theta of words was read");
    } catch (const SpecError& e) {
        QCOMPARE(e.field(), std::string("model.hf_config.rope_theta"));
    }
    json gpt = llama_2_70b();
    gpt["n_positions"] = 2048;
    QCOMPARE(model_from_hf_config(gpt, "model.hf_config").context_length, std::int64_t{2048});
    with["max_position_embeddings"] = 0;
    try {
        model_from_hf_config(with, "model.hf_config");
        QFAIL("a context of 0 positions was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()),
                 QStringLiteral("model.hf_config.max_position_embeddings"));
    }
}

void TestHfConfig::mixtral() {
    // mistralai/Mixtral-8x7B-v0.1 config.json keys; 46,702,792,704 total (tst_params).
    const json c = json::parse(R"({"model_type": "mixtral", "hidden_size": 4096,
        "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
        "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": 8,
        "num_experts_per_tok": 2, "tie_word_embeddings": false})");
    const ParamCounts p = count_params(model_from_hf_config(c, "model.hf_config"));
    QCOMPARE(p.total, 46702792704.0);
    QCOMPARE(p.active, 12879925248.0);
}

void TestHfConfig::qwen2MoeSharedExpert() {
    // Qwen1.5-MoE-A2.7B style: routed experts of width 1408 and one shared expert of 5632 =
    // 4 x 1408, modelled as 4 shared experts of the routed width (an MLP is linear in its width).
    const json c = json::parse(R"({"model_type": "qwen2_moe", "hidden_size": 2048,
        "intermediate_size": 5632, "num_attention_heads": 16, "num_hidden_layers": 24,
        "num_key_value_heads": 16, "vocab_size": 151936, "num_experts": 60,
        "num_experts_per_tok": 4, "moe_intermediate_size": 1408,
        "shared_expert_intermediate_size": 5632, "tie_word_embeddings": false})");
    const ModelSpec m = model_from_hf_config(c, "model.hf_config");
    QCOMPARE(m.moe.shared_experts, std::int64_t{4});
    QCOMPARE(m.bias, BiasKind::qkv);
}

void TestHfConfig::qwen2HasQkvBias() {
    // Qwen2 attention: q, k, v projections with bias, o without (Qwen2Attention). Compared
    // with the same dimensions as llama: + (h + 2·g·d) per layer = 8192 + 2·1024 = 10,240.
    json c = llama_2_70b();
    c["model_type"] = "qwen2";
    const double qwen = count_params(model_from_hf_config(c, "f")).per_layer_attention;
    c["model_type"] = "llama";
    const double llama = count_params(model_from_hf_config(c, "f")).per_layer_attention;
    QCOMPARE(qwen - llama, 10240.0);
}

void TestHfConfig::deepseekV3() {
    // deepseek-ai/DeepSeek-V3 config.json keys give the same model as the preset.
    const json c = json::parse(R"({"model_type": "deepseek_v3", "hidden_size": 7168,
        "intermediate_size": 18432, "moe_intermediate_size": 2048, "num_attention_heads": 128,
        "num_hidden_layers": 61, "num_key_value_heads": 128, "vocab_size": 129280,
        "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8,
        "first_k_dense_replace": 3, "q_lora_rank": 1536, "kv_lora_rank": 512,
        "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
        "n_group": 8, "topk_group": 4, "tie_word_embeddings": false})");
    const ModelSpec m = model_from_hf_config(c, "f");
    QCOMPARE(count_params(m).total, count_params(find_model_preset("deepseek-v3")->model).total);
    // n_group 8, topk_group 4: tokens pick their experts among 4 of 8 groups, as the preset says.
    QCOMPARE(m.moe.router_groups, 8);
    QCOMPARE(m.moe.router_group_topk, 4);
    QVERIFY(m.moe == find_model_preset("deepseek-v3")->model.moe);
}

void TestHfConfig::slidingWindow_data() {
    QTest::addColumn<QString>("config");
    QTest::addColumn<qint64>("window");
    QTest::addColumn<qint64>("windowed");
    const QString mistral = QStringLiteral(
        R"({"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
        "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "vocab_size": 32000, "sliding_window": %1})");
    // mistralai/Mistral-7B-v0.1/config.json: "sliding_window": 4096, every layer windowed
    // (Jiang et al. 2023, sec. 2: W = 4096).
    QTest::newRow("Mistral 7B v0.1") << mistral.arg(4096) << qint64{4096} << qint64{32};
    // Mistral-7B-v0.3/config.json: "sliding_window": null, no window.
    QTest::newRow("Mistral 7B v0.3")
        << mistral.arg(QStringLiteral("null")) << qint64{0} << qint64{0};
    const QString qwen = QStringLiteral(
        R"({"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
        "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4,
        "vocab_size": 152064, "sliding_window": 131072, "max_window_layers": %1,
        "use_sliding_window": %2})");
    // Qwen/Qwen2.5-7B/config.json: a sliding_window, but use_sliding_window false: none.
    QTest::newRow("Qwen2.5 7B") << qwen.arg(28).arg(QStringLiteral("false")) << qint64{0}
                                << qint64{0};
    // With use_sliding_window the layers from max_window_layers on are windowed: 28 - 21 = 7.
    QTest::newRow("Qwen2, windowed from layer 21")
        << qwen.arg(21).arg(QStringLiteral("true")) << qint64{131072} << qint64{7};
    // layer_types overrides the rest: two of four layers listed as sliding.
    QTest::newRow("layer_types")
        << QStringLiteral(
               R"({"model_type": "qwen3", "hidden_size": 1024, "intermediate_size": 3072,
        "num_attention_heads": 16, "num_hidden_layers": 4, "num_key_value_heads": 8,
        "head_dim": 128, "vocab_size": 151936, "sliding_window": 512,
        "use_sliding_window": false, "layer_types": ["sliding_attention", "full_attention",
        "sliding_attention", "full_attention"]})")
        << qint64{512} << qint64{2};
}

void TestHfConfig::slidingWindow() {
    QFETCH(QString, config);
    QFETCH(qint64, window);
    QFETCH(qint64, windowed);
    const ModelSpec m = model_from_hf_config(json::parse(config.toStdString()), "f");
    QCOMPARE(m.sliding_window, window);
    QCOMPARE(m.windowed_layers(), windowed);
}

void TestHfConfig::gptOss() {
    // openai/gpt-oss-120b config.json keys (36 layers alternating "sliding_attention" and
    // "full_attention", sliding_window 128, 128 experts of width 2880, 4 per token).
    json types = json::array();
    for (int i = 0; i < 36; ++i) {
        types.push_back(i % 2 == 0 ? "sliding_attention" : "full_attention");
    }
    json c = json::parse(R"({"model_type": "gpt_oss", "hidden_size": 2880,
        "intermediate_size": 2880, "num_attention_heads": 64, "num_hidden_layers": 36,
        "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 201088, "num_local_experts": 128,
        "num_experts_per_tok": 4, "sliding_window": 128, "attention_bias": true,
        "tie_word_embeddings": false})");
    c["layer_types"] = types;
    const ModelSpec m = model_from_hf_config(c, "f");
    QCOMPARE(m.sliding_window, std::int64_t{128});
    QCOMPARE(m.windowed_layers(), std::int64_t{18});
    QCOMPARE(m.moe.experts, std::int64_t{128});
    QCOMPARE(m.moe.active_experts, std::int64_t{4});
    QCOMPARE(m.moe.expert_ffn_hidden, std::int64_t{2880});
    QCOMPARE(m.head_dim, std::int64_t{64});
    QCOMPARE(m.bias, BiasKind::qkv);
    // A layer_types list of the wrong length is refused by name.
    c["layer_types"] = json::array({"sliding_attention"});
    try {
        model_from_hf_config(c, "f");
        QFAIL("expected SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("f.layer_types"));
    }
}

// deepseek-ai/DeepSeek-V3's config.json says "num_nextn_predict_layers": 1, its one MTP module
// (the technical report's depth D = 1, sec. 4.2): imported as model.mtp_layers, and said in the
// import's notes. A config without the key (DeepseekV3Config's default is 1, but a config that
// leaves it out is read as the checkpoint without the module's weights) has none.
void TestHfConfig::deepseekV3MtpDepth() {
    json c = json::parse(R"({"model_type": "deepseek_v3", "hidden_size": 7168,
        "intermediate_size": 18432, "moe_intermediate_size": 2048, "num_attention_heads": 128,
        "num_hidden_layers": 61, "num_key_value_heads": 128, "vocab_size": 129280,
        "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8,
        "first_k_dense_replace": 3, "q_lora_rank": 1536, "kv_lora_rank": 512,
        "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
        "num_nextn_predict_layers": 1, "tie_word_embeddings": false})");
    std::vector<Text> notes;
    const ModelSpec m = model_from_hf_config(c, "f", &notes);
    QCOMPARE(m.mtp_layers, std::int64_t{1});
    QCOMPARE(notes.size(), std::size_t{1});
    QVERIFY2(notes[0].english().find("model.mtp_layers = 1") != std::string::npos,
             notes[0].english().c_str());
    QVERIFY(notes[0].english().find("set it to 0") != std::string::npos);
    // 11,610,067,968 weights more than the preset (tst_params deepseekV3MtpModuleByHand).
    QCOMPARE(count_params(m).total - count_params(find_model_preset("deepseek-v3")->model).total,
             11610067968.0);
    c.erase("num_nextn_predict_layers");
    notes.clear();
    QCOMPARE(model_from_hf_config(c, "f", &notes).mtp_layers, std::int64_t{0});
    QVERIFY(notes.empty());
    c["num_nextn_predict_layers"] = -1;
    try {
        (void)model_from_hf_config(c, "f");
        QFAIL("a negative num_nextn_predict_layers was read");
    } catch (const SpecError& e) {
        QCOMPARE(e.field(), std::string("f.num_nextn_predict_layers"));
    }
}

void TestHfConfig::qkNormByArchitecture() {
    // Qwen3's, Qwen3-MoE's and Gemma 3's attention always normalise each head's query and key
    // (transformers' Qwen3Attention, Qwen3MoeAttention, Gemma3Attention); Llama's, Qwen2's and
    // Gemma 2's never. Their configs carry no key for it.
    const QString shape = QStringLiteral(
        R"({"model_type": "%1", "hidden_size": 1024, "intermediate_size": 3072,
        "num_attention_heads": 16, "num_hidden_layers": 4, "num_key_value_heads": 8,
        "head_dim": 128, "vocab_size": 151936, "num_experts": 8, "num_experts_per_tok": 2,
        "moe_intermediate_size": 512, "sliding_window": 512})");
    for (const char* type : {"qwen3", "qwen3_moe", "gemma3_text"}) {
        const ModelSpec m =
            model_from_hf_config(json::parse(shape.arg(QLatin1String(type)).toStdString()), "f");
        QVERIFY2(m.qk_norm, type);
    }
    for (const char* type : {"llama", "qwen2", "gemma2", "mistral"}) {
        const ModelSpec m =
            model_from_hf_config(json::parse(shape.arg(QLatin1String(type)).toStdString()), "f");
        QVERIFY2(!m.qk_norm, type);
    }
}

void TestHfConfig::gemma() {
    // google/gemma-2-9b config.json keys; Gemma2Config ties the embeddings by default and windows
    // every other layer from the first (Gemma Team 2024, Gemma 2, sec. 2: "every other layer",
    // 4096 tokens): 21 of 42.
    const json g2 = json::parse(R"({"model_type": "gemma2", "hidden_size": 3584,
        "intermediate_size": 14336, "num_attention_heads": 16, "num_key_value_heads": 8,
        "head_dim": 256, "num_hidden_layers": 42, "vocab_size": 256000, "sliding_window": 4096,
        "hidden_activation": "gelu_pytorch_tanh"})");
    const ModelSpec m2 = model_from_hf_config(g2, "f");
    QCOMPARE(m2.sliding_window, std::int64_t{4096});
    QCOMPARE(m2.windowed_layers(), std::int64_t{21});
    QVERIFY(m2.tied_embeddings);
    // attention Q 3584·4096 + K, V 2·3584·2048 + O 4096·3584 = 44,040,192; gated MLP
    // 3·3584·14336 = 154,140,672; two norms 7,168; layer 198,188,032 x 42 = 8,323,897,344;
    // embedding 256000·3584 = 917,504,000 (tied); final norm 3,584: 9,241,404,928, the published
    // 9,241,705,984 less Gemma 2's two further norms a layer (2·3584·42 = 301,056).
    QCOMPARE(count_params(m2).total, 9241404928.0);
    // google/gemma-3-1b-pt (gemma3_text): 26 layers, window 512, five local layers to a global
    // one (sliding_window_pattern 6): 26 - floor(26 / 6) = 22 windowed.
    const json g3 = json::parse(R"({"model_type": "gemma3_text", "hidden_size": 1152,
        "intermediate_size": 6912, "num_attention_heads": 4, "num_key_value_heads": 1,
        "head_dim": 256, "num_hidden_layers": 26, "vocab_size": 262144, "sliding_window": 512,
        "sliding_window_pattern": 6})");
    const ModelSpec m3 = model_from_hf_config(g3, "f");
    QCOMPARE(m3.sliding_window, std::int64_t{512});
    QCOMPARE(m3.windowed_layers(), std::int64_t{22});
    // google/gemma-3-27b-it (gemma3, multimodal): the language model in text_config, 62 layers,
    // window 1024, the default pattern 6: 62 - 10 = 52 windowed.
    const json mm = json::parse(R"({"model_type": "gemma3", "text_config": {
        "model_type": "gemma3_text", "hidden_size": 5376, "intermediate_size": 21504,
        "num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 128,
        "num_hidden_layers": 62, "vocab_size": 262208, "sliding_window": 1024}})");
    const ModelSpec m27 = model_from_hf_config(mm, "f");
    QCOMPARE(m27.layers, std::int64_t{62});
    QCOMPARE(m27.windowed_layers(), std::int64_t{52});
    // The published file's text_config states no vocabulary, context or RoPE base (nor, in some,
    // a window): they are Gemma3TextConfig's defaults, vocab_size 262_208,
    // max_position_embeddings 131_072, rope_theta 1_000_000, sliding_window 4096.
    const json bare = json::parse(R"({"model_type": "gemma3", "text_config": {
        "model_type": "gemma3_text", "hidden_size": 5376, "intermediate_size": 21504,
        "num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 128,
        "num_hidden_layers": 62, "query_pre_attn_scalar": 168,
        "rope_scaling": {"factor": 8.0, "rope_type": "linear"}}})");
    const ModelSpec defaults = model_from_hf_config(bare, "f");
    QCOMPARE(defaults.vocab, std::int64_t{262208});
    QCOMPARE(defaults.context_length, std::int64_t{131072});
    QCOMPARE(defaults.rope_theta, 1e6);
    QCOMPARE(defaults.sliding_window, std::int64_t{4096});
    QCOMPARE(defaults.windowed_layers(), std::int64_t{52});
    // Other types state their vocabulary: left out, it is refused by name.
    try {
        model_from_hf_config(json::parse(R"({"model_type": "llama", "hidden_size": 4096,
            "intermediate_size": 11008, "num_attention_heads": 32, "num_hidden_layers": 32})"),
                             "f");
        QFAIL("a llama config without vocab_size was read");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("f.vocab_size"));
    }
    // A gemma3 config without its text_config is refused by name.
    try {
        model_from_hf_config(json::parse(R"({"model_type": "gemma3"})"), "f");
        QFAIL("expected SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("f.text_config"));
    }
}

void TestHfConfig::errors_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("field");
    QTest::newRow("unsupported model_type") << "model_type"
                                            << "\"bert\""
                                            << "f.model_type";
    QTest::newRow("missing hidden_size") << "hidden_size"
                                         << "DELETE"
                                         << "f.hidden_size";
    QTest::newRow("string layers") << "num_hidden_layers"
                                   << "\"80\""
                                   << "f.num_hidden_layers";
    // Wrong types in the optional keys are named too, never ignored or thrown as JSON errors.
    QTest::newRow("numeric model_type") << "model_type"
                                        << "5"
                                        << "f.model_type";
    QTest::newRow("numeric name") << "_name_or_path"
                                  << "7"
                                  << "f._name_or_path";
    QTest::newRow("string tie_word_embeddings") << "tie_word_embeddings"
                                                << "\"true\""
                                                << "f.tie_word_embeddings";
    QTest::newRow("string attention_bias") << "attention_bias"
                                           << "\"yes\""
                                           << "f.attention_bias";
}

void TestHfConfig::errors() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, field);
    json c = llama_2_70b();
    if (value == QLatin1String("DELETE")) {
        c.erase(key.toStdString());
    } else {
        c[key.toStdString()] = json::parse(value.toStdString());
    }
    try {
        model_from_hf_config(c, "f");
        QFAIL("expected SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
    }
}

void TestHfConfig::specReferencesFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile f(dir.filePath(QStringLiteral("config.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(llama_2_70b().dump()));
    f.close();
    QFile spec(dir.filePath(QStringLiteral("spec.json")));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(R"({"model": {"hf_config": "config.json"}, "data": {"tokens": 1e12}})");
    spec.close();
    // A relative hf_config path resolves against the spec's folder.
    const PlanSpec s = load_plan_spec(spec.fileName().toStdString());
    QCOMPARE(count_params(s.model).total, 68976648192.0);
    // A missing file names the field.
    try {
        plan_spec_from_text(R"({"model": {"hf_config": "nope.json"}, "data": {"tokens": 1}})",
                            dir.path().toStdString());
        QFAIL("expected SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("model.hf_config"));
    }
}

void TestHfConfig::sizesBeyondTheSpecRangeAreRefused_data() {
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("field");
    // Before: 0 reached `shared % moe_intermediate_size` (a division by zero).
    QTest::newRow("qwen2_moe expert width 0")
        << R"({"model_type": "qwen2_moe", "hidden_size": 2048, "intermediate_size": 5632,
              "num_attention_heads": 16, "num_hidden_layers": 24, "vocab_size": 151936,
              "num_experts": 60, "num_experts_per_tok": 4, "moe_intermediate_size": 0,
              "shared_expert_intermediate_size": 5632})"
        << "f.moe_intermediate_size";
    // Before: 2^63 - 1 was imported and d_nope + d_rope overflowed an int64 in the planner.
    const QString deepseek =
        R"({"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
            "num_attention_heads": 128, "num_hidden_layers": 61, "vocab_size": 129280,
            "n_routed_experts": 256, "num_experts_per_tok": 8, "moe_intermediate_size": 2048,
            "kv_lora_rank": 512, "qk_rope_head_dim": 64, "v_head_dim": 128, %1})";
    QTest::newRow("deepseek_v3 qk_nope_head_dim 2^63 - 1")
        << deepseek.arg(R"("q_lora_rank": 1536, "qk_nope_head_dim": 9223372036854775807)")
        << "f.qk_nope_head_dim";
    QTest::newRow("deepseek_v3 q_lora_rank 2^63 - 1")
        << deepseek.arg(R"("q_lora_rank": 9223372036854775807, "qk_nope_head_dim": 128)")
        << "f.q_lora_rank";
    // An unsigned 64-bit value above int64's range.
    QTest::newRow("deepseek_v3 q_lora_rank 2^64 - 1")
        << deepseek.arg(R"("q_lora_rank": 18446744073709551615, "qk_nope_head_dim": 128)")
        << "f.q_lora_rank";
    // 2^53 + 1: the spec reader refuses it, so a plan holding it could never be read again.
    QTest::newRow("intermediate_size 2^53 + 1")
        << R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 9007199254740993,
              "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 128256})"
        << "f.intermediate_size";
}

void TestHfConfig::sizesBeyondTheSpecRangeAreRefused() {
    QFETCH(QString, config);
    QFETCH(QString, field);
    try {
        model_from_hf_config(json::parse(config.toStdString()), "f");
        QFAIL("expected SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
        // The message says what is allowed.
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral(">= ")), e.what());
    }
}

void TestHfConfig::largestSizeIsAccepted() {
    // 2^53 = 9007199254740992 is the largest integer the spec reader takes; it imports, and the
    // spec written from it reads back with the same value.
    json c = llama_2_70b();
    c["intermediate_size"] = 9007199254740992LL;
    const ModelSpec m = model_from_hf_config(c, "f");
    QCOMPARE(m.ffn_hidden, std::int64_t{9007199254740992});
    QCOMPARE(model_spec_from_json(to_json(m), "model").ffn_hidden, std::int64_t{9007199254740992});
}

void TestHfConfig::numberOverflowNamesTheKey() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile f(dir.filePath(QStringLiteral("config.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 1e400})");
    f.close();
    try {
        load_hf_config(f.fileName().toStdString(), "model.hf_config");
        QFAIL("expected SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()),
                 QStringLiteral("model.hf_config.intermediate_size"));
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("out of the range")),
                 e.what());
    }
}

QTEST_GUILESS_MAIN(TestHfConfig)
#include "tst_hf_config.moc"
