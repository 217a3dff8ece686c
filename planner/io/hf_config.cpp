#include "planner/io/hf_config.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "planner/core/errors.h"
#include "planner/io/json_reader.h"

namespace tally {

using nlohmann::json;

namespace {

// An integer in [min, 2^53]: the spec reader's range (json_reader.h), so an imported model saves
// as a spec that reads back, and the planner's sums of sizes stay inside an int64.
std::int64_t get_int(const json& c, const char* key, const std::string& field, bool required,
                     std::int64_t fallback = 0, std::int64_t min = 0) {
    auto it = c.find(key);
    if (it == c.end() || it->is_null()) {
        if (required) {
            throw SpecError(field + "." + key, kValueNothing,
                            TALLY_TEXT("tally::hf_config", "the config.json needs this key"));
        }
        return fallback;
    }
    const bool in_range =
        it->is_number_unsigned()
            ? it->get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxJsonInteger) &&
                  static_cast<std::int64_t>(it->get<std::uint64_t>()) >= min
            : it->is_number_integer() && it->get<std::int64_t>() >= min &&
                  it->get<std::int64_t>() <= kMaxJsonInteger;
    if (!in_range) {
        throw SpecError(
            field + "." + key, it->dump(),
            TALLY_TEXT("tally::spec_json", "must be an integer >= %1 and at most 2^53 = %2")
                .arg(min)
                .arg(kMaxJsonInteger));
    }
    return it->get<std::int64_t>();
}

std::string get_string(const json& c, const char* key, const std::string& field,
                       const std::string& fallback) {
    auto it = c.find(key);
    if (it == c.end() || it->is_null()) {
        return fallback;
    }
    if (!it->is_string()) {
        throw SpecError(field + "." + key, it->dump(),
                        TALLY_TEXT("tally::spec_json", "must be a string"));
    }
    return it->get<std::string>();
}

bool get_bool(const json& c, const char* key, const std::string& field, bool fallback) {
    auto it = c.find(key);
    if (it == c.end() || it->is_null()) {
        return fallback;
    }
    if (!it->is_boolean()) {
        throw SpecError(field + "." + key, it->dump(),
                        TALLY_TEXT("tally::spec_json", "must be true or false"));
    }
    return it->get<bool>();
}

// Sliding-window attention (ModelSpec::sliding_window): sliding_window is the positions a
// windowed layer's query attends to, itself included (transformers' sliding-window causal mask
// keeps key j for query i when i - j < sliding_window). Which layers are windowed:
//   layer_types, where the config lists it: each "sliding_attention" entry (the form
//     recent transformers releases write for Qwen2, Qwen3, GPT-OSS, Gemma, ...);
//   else Qwen2 and Qwen3 (dense and MoE) window nothing unless use_sliding_window is true, then
//     the layers from max_window_layers on ("The first max_window_layers layers will use full
//     attention", Qwen2Config);
//   else Gemma 2 windows every other layer from the first (Gemma2Config: "sliding_attention"
//     where (i + 1) % 2), Gemma 3 all but every sliding_window_pattern-th (6 by default:
//     Gemma3TextConfig, "5 local layers for every global layer", Gemma Team 2025, sec. 2);
//   else, with a sliding_window, every layer (MistralConfig: Mistral 7B v0.1 windows all 32).
void read_sliding_window(const json& c, const std::string& field, const std::string& type,
                         ModelSpec& m) {
    // Gemma3TextConfig defaults sliding_window to 4096; the published checkpoints state theirs.
    const std::int64_t window =
        get_int(c, "sliding_window", field, false, type == "gemma3_text" ? 4096 : 0);
    auto types = c.find("layer_types");
    std::int64_t windowed = 0;
    if (types != c.end() && !types->is_null()) {
        if (!types->is_array() || static_cast<std::int64_t>(types->size()) != m.layers) {
            throw SpecError(
                field + ".layer_types", types->dump().substr(0, 80),
                TALLY_TEXT("tally::hf_config",
                           "must list one layer type per layer (num_hidden_layers = %1)")
                    .arg(m.layers));
        }
        for (const json& t : *types) {
            if (!t.is_string()) {
                throw SpecError(field + ".layer_types", t.dump(),
                                TALLY_TEXT("tally::hf_config",
                                           "each entry must be \"full_attention\" or "
                                           "\"sliding_attention\""));
            }
            windowed += t.get<std::string>() == "sliding_attention" ? 1 : 0;
        }
    } else if (type == "gemma2") {
        windowed = (m.layers + 1) / 2;
    } else if (type == "gemma3_text") {
        const std::int64_t pattern = get_int(c, "sliding_window_pattern", field, false, 6, 1);
        windowed = m.layers - m.layers / pattern;
    } else if (type.rfind("qwen", 0) == 0) {
        if (get_bool(c, "use_sliding_window", field, false)) {
            const std::int64_t full = get_int(c, "max_window_layers", field, false, m.layers);
            windowed = std::max<std::int64_t>(0, m.layers - full);
        }
    } else if (window > 0) {
        windowed = m.layers;
    }
    if (windowed == 0) {
        return;
    }
    if (window < 1) {
        throw SpecError(field + ".sliding_window",
                        window == 0 ? std::string(kValueNothing) : std::to_string(window),
                        TALLY_TEXT("tally::hf_config",
                                   "the config's layers use sliding-window attention, which needs "
                                   "a sliding_window of at least 1 position"));
    }
    m.sliding_window = window;
    m.sliding_window_layers = windowed == m.layers ? 0 : windowed;
}

}  // namespace

ModelSpec model_from_hf_config(const json& c, const std::string& field, std::vector<Text>* notes) {
    if (!c.is_object()) {
        throw SpecError(field, c.dump().substr(0, 80),
                        TALLY_TEXT("tally::hf_config", "a config.json must hold a JSON object"));
    }
    // Gemma 3's multimodal checkpoints (model_type "gemma3") nest the language model's keys in
    // text_config (Gemma3Config); its text-only ones are "gemma3_text" at the top level.
    if (get_string(c, "model_type", field, "") == "gemma3") {
        auto text = c.find("text_config");
        if (text == c.end() || !text->is_object()) {
            throw SpecError(field + ".text_config", kValueNothing,
                            TALLY_TEXT("tally::hf_config",
                                       "a gemma3 config.json holds its language model in "
                                       "text_config"));
        }
        json inner = *text;
        inner["model_type"] = "gemma3_text";
        if (!inner.contains("_name_or_path") && c.contains("_name_or_path")) {
            inner["_name_or_path"] = c["_name_or_path"];
        }
        return model_from_hf_config(inner, field + ".text_config", notes);
    }
    static const char* const kSupported[] = {"llama",     "mistral",     "mixtral",    "qwen2",
                                             "qwen2_moe", "qwen3",       "qwen3_moe",  "gpt_oss",
                                             "gemma2",    "gemma3_text", "deepseek_v3"};
    const std::string type = get_string(c, "model_type", field, "");
    bool supported = false;
    for (const char* s : kSupported) {
        supported = supported || type == s;
    }
    if (!supported) {
        throw SpecError(field + ".model_type",
                        type.empty() ? std::string(kValueNothing) : "\"" + type + "\"",
                        TALLY_TEXT("tally::hf_config",
                                   "supported: llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, "
                                   "qwen3_moe, gpt_oss, gemma2, gemma3 / gemma3_text, "
                                   "deepseek_v3"));
    }
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.name = get_string(c, "_name_or_path", field, type);
    m.layers = get_int(c, "num_hidden_layers", field, true);
    m.hidden = get_int(c, "hidden_size", field, true);
    m.heads = get_int(c, "num_attention_heads", field, true);
    m.kv_heads = get_int(c, "num_key_value_heads", field, false, m.heads);
    m.head_dim = get_int(c, "head_dim", field, false, 0);
    m.ffn_hidden = get_int(c, "intermediate_size", field, true);
    // A key left out takes the configuration class's default, as transformers loads it. Gemma 3's
    // published configs leave out the three below (google/gemma-3-27b-it's text_config states
    // neither vocab_size nor max_position_embeddings nor rope_theta); Gemma3TextConfig gives
    // vocab_size 262_208, max_position_embeddings 131_072 and rope_theta 1_000_000 (its global
    // layers' base; the windowed ones' rope_local_base_freq does not travel to a launch file).
    // The other types' configs state them, and a missing vocabulary is refused.
    const bool gemma3 = type == "gemma3_text";
    m.vocab = gemma3 ? get_int(c, "vocab_size", field, false, 262208)
                     : get_int(c, "vocab_size", field, true);
    // These architectures' configs default to untied embeddings (LlamaConfig, MistralConfig,
    // Qwen2Config: tie_word_embeddings=False) unless the file says otherwise; Gemma's to tied
    // (Gemma2Config, Gemma3TextConfig: tie_word_embeddings=True). Gemma's two extra norms a layer
    // (after attention and after the MLP, h each) are not counted: Tally's layer has two norms
    // around its blocks (docs/planner.md, Parameters).
    const bool gemma = type == "gemma2" || type == "gemma3_text";
    m.tied_embeddings = get_bool(c, "tie_word_embeddings", field, gemma);
    // QK-norm (ModelSpec::qk_norm): Qwen3's and Gemma 3's attention normalise every head's query
    // and key with an RMSNorm of head_dim weights (transformers' Qwen3Attention, Qwen3MoeAttention
    // and Gemma3Attention: q_norm, k_norm), unconditionally: their configs have no key for it.
    m.qk_norm = type == "qwen3" || type == "qwen3_moe" || type == "gemma3_text";
    // All of them use a gated MLP (gate, up, down projections: LlamaMLP, Qwen2MLP, ...); its
    // parameters and stored activations do not depend on which activation gates it, so "swiglu"
    // stands for any of them.
    m.ffn = FfnKind::swiglu;
    m.norm = NormKind::rmsnorm;
    // Qwen2 always has Q, K, V biases (Qwen2Attention: bias=True); Llama-family configs say so
    // with attention_bias.
    if (type == "qwen2" || type == "qwen2_moe" || get_bool(c, "attention_bias", field, false)) {
        m.bias = BiasKind::qkv;
    }
    if (type == "mixtral" || type == "gpt_oss") {
        // GptOssConfig names them as MixtralConfig does: num_local_experts experts of width
        // intermediate_size, num_experts_per_tok of them per token. Its attention projections
        // carry biases (attention_bias true, read above).
        m.moe.experts = get_int(c, "num_local_experts", field, true);
        m.moe.active_experts = get_int(c, "num_experts_per_tok", field, true);
        m.moe.expert_ffn_hidden = m.ffn_hidden;
    } else if (type == "qwen2_moe" || type == "qwen3_moe") {
        m.moe.experts = get_int(c, "num_experts", field, true);
        m.moe.active_experts = get_int(c, "num_experts_per_tok", field, true);
        // At least 1: the shared expert's width is counted in multiples of it below.
        m.moe.expert_ffn_hidden = get_int(c, "moe_intermediate_size", field, true, 0, 1);
        // Qwen2-MoE has one shared expert of its own width; an MLP's parameters and activations
        // are linear in its width, so it counts as width_shared / width_routed routed-size experts.
        const std::int64_t shared = get_int(c, "shared_expert_intermediate_size", field, false, 0);
        if (shared > 0) {
            if (shared % m.moe.expert_ffn_hidden != 0) {
                throw SpecError(field + ".shared_expert_intermediate_size", std::to_string(shared),
                                TALLY_TEXT("tally::hf_config",
                                           "Tally models shared experts as multiples of "
                                           "moe_intermediate_size (%1)")
                                    .arg(m.moe.expert_ffn_hidden));
            }
            m.moe.shared_experts = shared / m.moe.expert_ffn_hidden;
        }
    } else if (type == "deepseek_v3") {
        m.moe.experts = get_int(c, "n_routed_experts", field, true);
        m.moe.active_experts = get_int(c, "num_experts_per_tok", field, true);
        m.moe.shared_experts = get_int(c, "n_shared_experts", field, false, 0);
        m.moe.expert_ffn_hidden = get_int(c, "moe_intermediate_size", field, true);
        m.moe.first_dense_layers = get_int(c, "first_k_dense_replace", field, false, 0);
        // Group-limited routing (n_group groups, the top topk_group of them per token); a config
        // with one group has none.
        const std::int64_t groups = get_int(c, "n_group", field, false, 0);
        if (groups > 1) {
            m.moe.router_groups = groups;
            m.moe.router_group_topk = get_int(c, "topk_group", field, false, groups);
        }
        m.mla.q_lora_rank = get_int(c, "q_lora_rank", field, false, 0);
        m.mla.kv_lora_rank = get_int(c, "kv_lora_rank", field, true);
        m.mla.qk_nope_head_dim = get_int(c, "qk_nope_head_dim", field, true);
        m.mla.qk_rope_head_dim = get_int(c, "qk_rope_head_dim", field, true);
        m.mla.v_head_dim = get_int(c, "v_head_dim", field, true);
        // Multi-token prediction (ModelSpec::mtp_layers): DeepseekV3Config's
        // num_nextn_predict_layers, 1 in deepseek-ai/DeepSeek-V3's config.json (the technical
        // report's MTP depth D = 1, sec. 4.2); the checkpoint holds the module as layer 61.
        // Training runs it, so the plan counts it; a user planning without it sets 0.
        m.mtp_layers = get_int(c, "num_nextn_predict_layers", field, false, 0);
        if (m.mtp_layers > 0 && notes != nullptr) {
            notes->push_back(
                TALLY_TEXT("tally::hf_config",
                           "model.mtp_layers = %1: the config's num_nextn_predict_layers, "
                           "multi-token-prediction modules trained with the model; set it to 0 "
                           "to plan without them")
                    .arg(m.mtp_layers));
        }
        m.head_dim = 0;
    }
    read_sliding_window(c, field, type, m);
    // The context the configuration serves (ModelSpec::context_length), under the first of its
    // names the config has: max_position_embeddings (LlamaConfig, MistralConfig, Qwen2Config,
    // DeepseekV3Config, GptOssConfig), n_positions (GPT2Config, GPTJConfig), n_ctx (older
    // GPT-2 configs). A config with none leaves it unstated.
    for (const char* key : {"max_position_embeddings", "n_positions", "n_ctx"}) {
        if (const auto it = c.find(key); it != c.end() && !it->is_null()) {
            m.context_length = get_int(c, key, field, false, 0, 1);
            break;
        }
    }
    if (gemma3) {
        if (m.context_length == 0) {
            m.context_length = 131072;
        }
        m.rope_theta = 1e6;  // replaced below where the config states its own
    }
    // The RoPE base (ModelSpec::rope_theta): rope_theta in LlamaConfig, MistralConfig,
    // Qwen2/Qwen3Config, DeepseekV3Config, GptOssConfig; absent in configs with learned positions.
    if (const auto it = c.find("rope_theta"); it != c.end() && !it->is_null()) {
        if (!it->is_number() || !(it->get<double>() >= 1.0 && it->get<double>() <= 1e12)) {
            throw SpecError(field + ".rope_theta", it->dump(),
                            TALLY_TEXT("tally::hf_config", "a RoPE base in [1, 1e12]"));
        }
        m.rope_theta = it->get<double>();
    }
    return m;
}

ModelSpec load_hf_config(const std::string& path, const std::string& field,
                         std::vector<Text>* notes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw SpecError(field, "\"" + path + "\"",
                        TALLY_TEXT("tally::spec_json", "cannot open this file for reading"));
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    throw_if_nested_too_deep(buffer.str(), field, "\"" + path + "\"");
    json config;
    try {
        config = json::parse(buffer.str());
    } catch (const json::exception& e) {
        throw_if_number_overflow(buffer.str(), field);
        throw SpecError(
            field, "\"" + path + "\"",
            TALLY_TEXT("tally::spec_json", "is not valid JSON: %1").arg(json_error_detail(e)));
    }
    return model_from_hf_config(config, field, notes);
}

}  // namespace tally
