// Plan specs as JSON: strict parsing (unknown keys, wrong types and bad ranges name the field),
// and writing back.
#include "planner/io/spec_json.h"

#include <fmt/core.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "planner/core/enum_names.h"
#include "planner/core/errors.h"
#include "planner/io/case_accuracy.h"
#include "planner/io/hf_config.h"
#include "planner/io/json_reader.h"
#include "planner/io/presets.h"
#include "planner/performance/calibration.h"
#include "planner/performance/plan_gemms.h"

namespace tally {

using nlohmann::json;

namespace {

DType read_dtype(ObjectReader& r, std::string_view key, DType fallback) {
    const json* v = r.raw(key);
    if (!v) {
        return fallback;
    }
    auto dt = v->is_string() ? parse_dtype(v->get<std::string>()) : std::nullopt;
    if (!dt) {
        throw SpecError(r.field(key), v->dump(),
                        TALLY_TEXT("tally::spec_json", "one of %1").arg(dtype_names()));
    }
    return *dt;
}

// An enum field: one of the JSON names in the enum's table (enum_names.h).
template <typename E>
std::optional<E> read_enum(ObjectReader& r, std::string_view key) {
    const json* v = r.raw(key);
    if (!v) {
        return std::nullopt;
    }
    if (v->is_string()) {
        if (auto value = enum_from_json_name<E>(v->get<std::string>())) {
            return value;
        }
    }
    throw SpecError(r.field(key), v->dump(),
                    TALLY_TEXT("tally::spec_json", "one of %1").arg(json_names<E>()));
}

template <typename T>
void set_if(std::optional<T> value, T& out) {
    if (value) {
        out = *value;
    }
}

void read_transformer_fields(ObjectReader& r, ModelSpec& m) {
    set_if(r.integer("layers", 1), m.layers);
    set_if(r.integer("hidden", 1), m.hidden);
    set_if(r.integer("heads", 1), m.heads);
    set_if(r.integer("kv_heads", 1), m.kv_heads);
    set_if(r.integer("head_dim", 1), m.head_dim);
    set_if(r.integer("ffn_hidden", 1), m.ffn_hidden);
    set_if(read_enum<FfnKind>(r, "ffn"), m.ffn);
    set_if(r.integer("vocab", 1), m.vocab);
    set_if(r.boolean("tied_embeddings"), m.tied_embeddings);
    set_if(read_enum<NormKind>(r, "norm"), m.norm);
    set_if(r.boolean("qk_norm"), m.qk_norm);
    set_if(r.integer("mtp_layers", 0), m.mtp_layers);
    set_if(read_enum<BiasKind>(r, "bias"), m.bias);
    set_if(r.integer("learned_positions", 0), m.learned_positions);
    set_if(r.integer("sliding_window", 0), m.sliding_window);
    set_if(r.integer("sliding_window_layers", 0), m.sliding_window_layers);
    set_if(r.integer("context_length", 0), m.context_length);
    if (const std::optional<double> theta = r.number("rope_theta", true)) {
        if (*theta != 0.0 && (*theta < 1.0 || *theta > 1e12)) {
            throw SpecError(r.field("rope_theta"), fmt::format("{}", *theta),
                            TALLY_TEXT("tally::spec_json",
                                       "must be 0 (unstated: the framework's default) or a RoPE "
                                       "base in [1, 1e12] (Llama 3: 500000)"));
        }
        m.rope_theta = *theta;
    }
    if (auto moe = r.object("moe")) {
        set_if(moe->integer("experts", 1), m.moe.experts);
        set_if(moe->integer("active_experts", 1), m.moe.active_experts);
        set_if(moe->integer("shared_experts", 0), m.moe.shared_experts);
        set_if(moe->integer("expert_ffn_hidden", 1), m.moe.expert_ffn_hidden);
        set_if(moe->integer("first_dense_layers", 0), m.moe.first_dense_layers);
        set_if(moe->integer("router_groups", 0), m.moe.router_groups);
        set_if(moe->integer("router_group_topk", 0), m.moe.router_group_topk);
        if (!moe->has("experts") || !moe->has("active_experts")) {
            throw SpecError(
                moe->field(moe->has("experts") ? "active_experts" : "experts"), kValueNothing,
                TALLY_TEXT("tally::spec_json",
                           "a mixture of experts needs both experts and active_experts"));
        }
        moe->finish({"experts", "active_experts", "shared_experts", "expert_ffn_hidden",
                     "first_dense_layers", "router_groups", "router_group_topk"});
    }
    if (auto mla = r.object("mla")) {
        set_if(mla->integer("q_lora_rank", 0), m.mla.q_lora_rank);
        set_if(mla->integer("kv_lora_rank", 1), m.mla.kv_lora_rank);
        set_if(mla->integer("qk_nope_head_dim", 1), m.mla.qk_nope_head_dim);
        set_if(mla->integer("qk_rope_head_dim", 1), m.mla.qk_rope_head_dim);
        set_if(mla->integer("v_head_dim", 1), m.mla.v_head_dim);
        if (!mla->has("kv_lora_rank")) {
            throw SpecError(
                mla->field("kv_lora_rank"), kValueNothing,
                TALLY_TEXT("tally::spec_json", "multi-head latent attention needs kv_lora_rank"));
        }
        mla->finish(
            {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"});
    }
}

}  // namespace

ModelSpec model_spec_from_json(const json& j, const std::string& path,
                               const std::string& base_dir) {
    ObjectReader r(j, path);
    ModelSpec m;
    // A preset or a Hugging Face config gives the starting point; keys beside it override.
    const bool from_preset = r.has("preset");
    const bool from_hf = r.has("hf_config");
    if (from_preset && from_hf) {
        throw SpecError(r.field("hf_config"), kValueGivenWithPreset,
                        TALLY_TEXT("tally::spec_json", "give either preset or hf_config"));
    }
    if (auto id = r.string("preset")) {
        const ModelPreset* preset = find_model_preset(*id);
        if (!preset) {
            throw SpecError(r.field("preset"), "\"" + *id + "\"",
                            TALLY_TEXT("tally::spec_json", "one of %1").arg(model_preset_ids()));
        }
        m = preset->model;
    }
    if (auto file = r.string("hf_config")) {
        std::filesystem::path p(*file);
        if (p.is_relative()) {
            p = std::filesystem::path(base_dir) / p;
        }
        m = load_hf_config(p.string(), r.field("hf_config"));
    }
    (void)r.string("source");  // presets carry their source; informational
    if (auto kind = read_enum<ModelKind>(r, "kind")) {
        const ModelKind given = *kind;
        if ((from_preset || from_hf) && given != m.kind) {
            throw SpecError(
                r.field("kind"), "\"" + std::string(to_string(given)) + "\"",
                TALLY_TEXT("tally::spec_json",
                           "the preset or hf_config model is a %1; drop kind or match it")
                    .arg(to_string(m.kind)));
        }
        m.kind = given;
    } else if (!from_preset && !from_hf) {
        // No kind: a lone "params" means a parameter count, anything else a transformer.
        m.kind = r.has("params") ? ModelKind::params : ModelKind::transformer;
    }
    set_if(r.string("name"), m.name);
    switch (m.kind) {
        case ModelKind::params:
            set_if(r.number("params", false), m.params);
            if (m.params <= 0) {
                throw SpecError(
                    r.field("params"), kValueNothing,
                    TALLY_TEXT("tally::spec_json", "a 'params' model needs params > 0"));
            }
            r.finish({"kind", "name", "params"});
            break;
        case ModelKind::mlp:
            set_if(r.integer("layers", 1), m.layers);
            set_if(r.integer("hidden", 1), m.hidden);
            for (const char* key : {"layers", "hidden"}) {
                if (!from_preset && !r.has(key)) {
                    throw SpecError(
                        r.field(key), kValueNothing,
                        TALLY_TEXT("tally::spec_json", "an 'mlp' model needs layers and hidden"));
                }
            }
            r.finish({"kind", "name", "layers", "hidden"});
            break;
        case ModelKind::transformer:
            read_transformer_fields(r, m);
            if (!from_preset && !from_hf) {
                for (const char* key : {"layers", "hidden", "heads", "vocab"}) {
                    if (!r.has(key)) {
                        throw SpecError(
                            r.field(key), kValueNothing,
                            TALLY_TEXT("tally::spec_json",
                                       "a transformer needs layers, hidden, heads, ffn_hidden and "
                                       "vocab (or a preset / hf_config)"));
                    }
                }
            }
            r.finish({"kind",
                      "name",
                      "layers",
                      "hidden",
                      "heads",
                      "kv_heads",
                      "head_dim",
                      "ffn_hidden",
                      "ffn",
                      "vocab",
                      "tied_embeddings",
                      "norm",
                      "bias",
                      "learned_positions",
                      "sliding_window",
                      "sliding_window_layers",
                      "context_length",
                      "rope_theta",
                      "qk_norm",
                      "mtp_layers",
                      "moe",
                      "mla",
                      "preset",
                      "hf_config",
                      "source"});
            break;
    }
    return m;
}

PlanSpec plan_spec_from_json(const json& j, const std::string& base_dir) {
    ObjectReader r(j, "");
    PlanSpec s;
    set_if(r.string("name"), s.name);
    set_if(r.string("description"), s.description);

    const json* model = r.raw("model");
    if (!model) {
        throw SpecError("model", kValueNothing,
                        TALLY_TEXT("tally::spec_json",
                                   "a spec needs a model: {\"preset\": ID}, "
                                   "{\"params\": N} or the transformer's dimensions"));
    }
    s.model = model_spec_from_json(*model, "model", base_dir);

    // A serving spec needs no data block (`tally infer` reads none of it); `tally plan` then
    // rejects the missing data.tokens by name (check(), planner/training/check.cpp).
    if (auto data = r.object("data")) {
        set_if(data->number("tokens", false), s.data.tokens);
        if (!data->has("tokens")) {
            throw SpecError(
                "data.tokens", kValueNothing,
                TALLY_TEXT("tally::spec_json", "the number of training tokens is required"));
        }
        set_if(data->integer("seq_len", 1), s.data.seq_len);
        set_if(data->integer("global_batch", 1), s.data.global_batch);
        set_if(data->integer("micro_batch", 1), s.data.micro_batch);
        data->finish({"tokens", "seq_len", "global_batch", "micro_batch"});
    }

    // Without cluster.mfu, or with "predicted", the performance model gives the time; a number
    // is an assumed MFU (the time is FLOPs / (peak x MFU x GPUs)).
    s.cluster.mfu_predicted = true;
    if (auto c = r.object("cluster")) {
        set_if(c->string("gpu"), s.cluster.gpu);
        set_if(c->integer("gpus", 1), s.cluster.gpus);
        if (const json* mfu = c->has("mfu") ? c->raw("mfu") : nullptr; mfu && mfu->is_string()) {
            if (mfu->get<std::string>() != "predicted") {
                throw SpecError(
                    c->field("mfu"), mfu->dump(),
                    TALLY_TEXT("tally::spec_json",
                               "a number in [0.001, 1] (an assumed MFU) or \"predicted\""));
            }
        } else if (mfu) {
            set_if(c->number("mfu", false), s.cluster.mfu);
            s.cluster.mfu_predicted = false;
        }
        // 0 is no price of the plan's own, as the window's box reads it: the profile's, if any.
        if (auto price = c->number("price_per_gpu_hour", true); price && *price > 0.0) {
            s.cluster.price_per_gpu_hour = *price;
        }
        set_if(c->integer("gpus_per_node", 1), s.cluster.gpus_per_node);
        set_if(c->number("intra_node_bytes_per_s", false), s.cluster.intra_node_bytes_per_s);
        set_if(c->number("inter_node_bytes_per_s", false), s.cluster.inter_node_bytes_per_s);
        c->finish({"gpu", "gpus", "mfu", "price_per_gpu_hour", "gpus_per_node",
                   "intra_node_bytes_per_s", "inter_node_bytes_per_s"});
    }

    if (auto t = r.object("training")) {
        TrainingSpec& tr = s.training;
        tr.param_dtype = read_dtype(*t, "param_dtype", tr.param_dtype);
        tr.grad_dtype = read_dtype(*t, "grad_dtype", tr.grad_dtype);
        set_if(read_enum<std::optional<DType>>(*t, "master_dtype"), tr.master_dtype);
        set_if(read_enum<Optimizer>(*t, "optimizer"), tr.optimizer);
        // 8-bit Adam keeps its states in 8 bits by definition; other optimizers default to fp32.
        tr.optimizer_state_dtype = read_dtype(
            *t, "optimizer_state_dtype",
            tr.optimizer == Optimizer::adam8bit ? DType::int8 : tr.optimizer_state_dtype);
        tr.compute_dtype = read_dtype(*t, "compute_dtype", tr.compute_dtype);
        tr.activation_dtype = read_dtype(*t, "activation_dtype", tr.activation_dtype);
        set_if(read_enum<Recompute>(*t, "recompute"), tr.recompute);
        set_if(t->boolean("recompute_working_set"), tr.recompute_working_set);
        set_if(t->integer("recompute_layers", 0), tr.recompute_layers);
        if (const json* modules = t->raw("recompute_modules")) {
            const std::string field = t->field("recompute_modules");
            if (!modules->is_array()) {
                throw SpecError(field, modules->dump(),
                                TALLY_TEXT("tally::spec_json",
                                           "must be an array of module names (core_attn, "
                                           "layernorm, mla_up_proj, moe_act, mlp)"));
            }
            tr.recompute_modules = {};
            for (std::size_t i = 0; i < modules->size(); ++i) {
                const json& name = (*modules)[i];
                const std::string item = field + "[" + std::to_string(i) + "]";
                const std::string text = name.is_string() ? name.get<std::string>() : name.dump();
                if (!add_recompute_module(tr.recompute_modules, text)) {
                    throw SpecError(item, text,
                                    TALLY_TEXT("tally::spec_json",
                                               "must be one of core_attn, layernorm, mla_up_proj, "
                                               "moe_act, mlp (Megatron-Core's recompute "
                                               "modules Tally times)"));
                }
            }
        }
        if (auto z = t->integer("zero", 0)) {
            if (*z > 3) {
                throw SpecError(t->field("zero"), std::to_string(*z),
                                TALLY_TEXT("tally::check", "must be 0, 1, 2 or 3"));
            }
            tr.zero = static_cast<int>(*z);
        }
        set_if(t->integer("tp", 1), tr.tp);
        set_if(t->integer("pp", 1), tr.pp);
        set_if(t->boolean("sequence_parallel"), tr.sequence_parallel);
        set_if(t->boolean("flash_attention"), tr.flash_attention);
        set_if(t->boolean("dropout"), tr.dropout);
        set_if(read_enum<FlopsFormula>(*t, "flops_formula"), tr.flops_formula);
        set_if(t->integer("interleave", 1), tr.interleave);
        set_if(t->integer("expert_parallel", 1), tr.expert_parallel);
        set_if(t->boolean("dp_overlap"), tr.dp_overlap);
        set_if(read_enum<Offload>(*t, "offload"), tr.offload);
        set_if(read_enum<Engine>(*t, "engine"), tr.engine);
        set_if(t->integer("context_parallel", 1), tr.context_parallel);
        set_if(t->integer("first_stage_layers", 0), tr.first_stage_layers);
        set_if(t->integer("last_stage_layers", 0), tr.last_stage_layers);
        set_if(t->integer("expert_tensor_parallel", 0), tr.expert_tensor_parallel);
        set_if(read_enum<Fp8Recipe>(*t, "fp8_recipe"), tr.fp8_recipe);
        set_if(t->number("moe_imbalance", false), tr.moe_imbalance);
        set_if(read_enum<AttentionKernel>(*t, "attention_kernel"), tr.attention_kernel);
        set_if(t->boolean("tp_comm_overlap"), tr.tp_comm_overlap);
        set_if(t->boolean("ep_comm_overlap"), tr.ep_comm_overlap);
        set_if(read_enum<MoeDispatcher>(*t, "moe_dispatcher"), tr.moe_dispatcher);
        set_if(read_enum<FsdpBackwardPrefetch>(*t, "fsdp_backward_prefetch"),
               tr.fsdp_backward_prefetch);
        set_if(read_enum<OptimizerImpl>(*t, "optimizer_impl"), tr.optimizer_impl);
        set_if(read_enum<CrossEntropy>(*t, "cross_entropy"), tr.cross_entropy);
        set_if(t->integer("activation_offload_layers", 0), tr.activation_offload_layers);
        t->finish({"param_dtype",
                   "grad_dtype",
                   "master_dtype",
                   "optimizer",
                   "optimizer_state_dtype",
                   "compute_dtype",
                   "activation_dtype",
                   "recompute",
                   "recompute_working_set",
                   "recompute_layers",
                   "recompute_modules",
                   "zero",
                   "tp",
                   "pp",
                   "sequence_parallel",
                   "flash_attention",
                   "dropout",
                   "flops_formula",
                   "interleave",
                   "expert_parallel",
                   "dp_overlap",
                   "offload",
                   "engine",
                   "context_parallel",
                   "first_stage_layers",
                   "last_stage_layers",
                   "expert_tensor_parallel",
                   "fp8_recipe",
                   "moe_imbalance",
                   "attention_kernel",
                   "tp_comm_overlap",
                   "ep_comm_overlap",
                   "moe_dispatcher",
                   "fsdp_backward_prefetch",
                   "optimizer_impl",
                   "cross_entropy",
                   "activation_offload_layers"});
    }

    if (auto sv = r.object("solver")) {
        set_if(sv->boolean("include_activations"), s.solver.include_activations);
        sv->finish({"include_activations"});
    }

    if (auto inf = r.object("inference")) {
        InferenceSpec& in = s.inference;
        set_if(inf->integer("batch", 1), in.batch);
        set_if(inf->integer("prompt_tokens", 1), in.prompt_tokens);
        set_if(inf->integer("output_tokens", 1), in.output_tokens);
        set_if(inf->integer("tp", 1), in.tp);
        in.weight_dtype = read_dtype(*inf, "weight_dtype", in.weight_dtype);
        in.kv_dtype = read_dtype(*inf, "kv_dtype", in.kv_dtype);
        set_if(read_enum<ServingEngine>(*inf, "engine"), in.engine);
        set_if(inf->integer("quant_group_size", 0), in.quant_group_size);
        set_if(inf->integer("concurrency", 0), in.concurrency);
        set_if(inf->boolean("chunked_prefill"), in.chunked_prefill);
        set_if(inf->integer("max_batched_tokens", 1), in.max_batched_tokens);
        set_if(inf->integer("pp", 1), in.pp);
        set_if(inf->integer("ep", 1), in.ep);
        set_if(inf->boolean("dp_attention"), in.dp_attention);
        set_if(read_enum<DecodeAttention>(*inf, "decode_attention"), in.decode_attention);
        set_if(read_enum<OutputHead>(*inf, "output_head"), in.output_head);
        if (auto host = inf->number("host_step_s", true)) {
            in.host_step_s = *host;
        }
        if (auto share = inf->number("memory_fraction", true)) {
            in.memory_fraction = *share;
        }
        if (auto checkpoint = inf->string("checkpoint")) {
            in.checkpoint = *checkpoint;
        }
        inf->finish({"batch", "prompt_tokens", "output_tokens", "tp", "weight_dtype", "kv_dtype",
                     "engine", "quant_group_size", "concurrency", "chunked_prefill",
                     "max_batched_tokens", "pp", "ep", "dp_attention", "decode_attention",
                     "output_head", "host_step_s", "memory_fraction", "checkpoint"});
    }

    if (const json* ops = r.raw("ops")) {
        if (!ops->is_array()) {
            throw SpecError("ops", ops->dump(),
                            TALLY_TEXT("tally::spec_json", "must be an array of operations"));
        }
        for (std::size_t i = 0; i < ops->size(); ++i) {
            s.ops.push_back(op_from_json((*ops)[i], "ops[" + std::to_string(i) + "]"));
        }
    }
    if (auto me = r.object("measured")) {
        MeasuredRun& run = s.measured;
        set_if(me->number("tokens_per_s_per_gpu", false), run.tokens_per_s_per_gpu);
        set_if(me->number("step_s", false), run.step_s);
        set_if(me->number("mfu", false), run.mfu);
        set_if(me->number("hardware_flops_per_s_per_gpu", false), run.hardware_flops_per_s_per_gpu);
        set_if(me->number("output_tokens_per_s", false), run.output_tokens_per_s);
        set_if(me->number("ttft_s", false), run.ttft_s);
        set_if(me->number("itl_s", false), run.itl_s);
        set_if(me->string("source"), run.source);
        me->finish({"tokens_per_s_per_gpu", "step_s", "mfu", "hardware_flops_per_s_per_gpu",
                    "output_tokens_per_s", "ttft_s", "itl_s", "source"});
    }
    r.finish({"name", "description", "model", "data", "cluster", "training", "solver", "inference",
              "ops", "measured"});
    return s;
}

PlanSpec plan_spec_from_text(const std::string& text, const std::string& base_dir) {
    throw_if_nested_too_deep(text, "spec", "");
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        throw_if_number_overflow(text, "");
        throw SpecError(
            "spec", "text that is not JSON",
            TALLY_TEXT("tally::spec_json", "a JSON object is required (%1)").arg(e.what()));
    }
    throw_if_duplicate_key(text, "");
    return plan_spec_from_json(j, base_dir);
}

PlanSpec load_plan_spec(const std::string& path) {
    std::stringstream buffer;
    std::string base_dir = ".";
    if (path == "-") {
        buffer << std::cin.rdbuf();
    } else {
        std::error_code kind;
        if (std::filesystem::is_directory(path, kind)) {
            throw SpecError("SPEC", "\"" + path + "\"",
                            TALLY_TEXT("tally::spec_json", "is a folder; a spec is a JSON file"));
        }
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            throw SpecError("SPEC", "\"" + path + "\"",
                            TALLY_TEXT("tally::spec_json", "cannot open this file for reading"));
        }
        buffer << in.rdbuf();
        base_dir = std::filesystem::path(path).parent_path().string();
        if (base_dir.empty()) {
            base_dir = ".";
        }
    }
    throw_if_nested_too_deep(buffer.str(), "SPEC",
                             path == "-" ? "standard input" : "\"" + path + "\"");
    json j;
    try {
        j = json::parse(buffer.str());
    } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
        throw_if_number_overflow(buffer.str(), "");
        throw SpecError(
            "SPEC", path == "-" ? "standard input" : "\"" + path + "\"",
            TALLY_TEXT("tally::spec_json", "is not valid JSON: %1").arg(json_error_detail(e)));
    }
    throw_if_duplicate_key(buffer.str(), "");
    return plan_spec_from_json(j, base_dir);
}

json to_json(const ModelSpec& m) {
    json j{{"kind", std::string(to_string(m.kind))}};
    if (!m.name.empty()) {
        j["name"] = m.name;
    }
    switch (m.kind) {
        case ModelKind::params:
            j["params"] = m.params;
            break;
        case ModelKind::mlp:
            j["layers"] = m.layers;
            j["hidden"] = m.hidden;
            break;
        case ModelKind::transformer:
            j["layers"] = m.layers;
            j["hidden"] = m.hidden;
            j["heads"] = m.heads;
            if (m.kv_heads > 0)
                j["kv_heads"] = m.kv_heads;
            if (m.head_dim > 0)
                j["head_dim"] = m.head_dim;
            if (m.ffn_hidden > 0)
                j["ffn_hidden"] = m.ffn_hidden;
            j["ffn"] = std::string(to_string(m.ffn));
            j["vocab"] = m.vocab;
            j["tied_embeddings"] = m.tied_embeddings;
            j["norm"] = std::string(to_string(m.norm));
            if (m.qk_norm && !m.mla.enabled())
                j["qk_norm"] = true;
            if (m.mtp_layers > 0)
                j["mtp_layers"] = m.mtp_layers;
            j["bias"] = std::string(to_string(m.bias));
            if (m.learned_positions > 0)
                j["learned_positions"] = m.learned_positions;
            // The count of windowed layers is kept while the window is off (0), as the form
            // keeps it, so that a saved plan turns it on again as it was.
            if (m.sliding_window > 0)
                j["sliding_window"] = m.sliding_window;
            if (m.sliding_window_layers > 0)
                j["sliding_window_layers"] = m.sliding_window_layers;
            if (m.context_length > 0)
                j["context_length"] = m.context_length;
            if (m.rope_theta > 0.0)
                j["rope_theta"] = m.rope_theta;
            if (m.moe.enabled()) {
                j["moe"] = {{"experts", m.moe.experts},
                            {"active_experts", m.moe.active_experts},
                            {"shared_experts", m.moe.shared_experts},
                            {"first_dense_layers", m.moe.first_dense_layers}};
                if (m.moe.expert_ffn_hidden > 0) {
                    j["moe"]["expert_ffn_hidden"] = m.moe.expert_ffn_hidden;
                }
                if (m.moe.router_groups > 0 || m.moe.router_group_topk > 0) {
                    j["moe"]["router_groups"] = m.moe.router_groups;
                    j["moe"]["router_group_topk"] = m.moe.router_group_topk;
                }
            }
            if (m.mla.enabled()) {
                j["mla"] = {{"q_lora_rank", m.mla.q_lora_rank},
                            {"kv_lora_rank", m.mla.kv_lora_rank},
                            {"qk_nope_head_dim", m.mla.qk_nope_head_dim},
                            {"qk_rope_head_dim", m.mla.qk_rope_head_dim},
                            {"v_head_dim", m.mla.v_head_dim}};
            }
            break;
    }
    return j;
}

json to_json(const PlanSpec& s) {
    const TrainingSpec& t = s.training;
    json j;
    if (!s.name.empty()) {
        j["name"] = s.name;
    }
    if (!s.description.empty()) {
        j["description"] = s.description;
    }
    j["model"] = to_json(s.model);
    // A serving spec read without data has no training tokens: it is written back without data.
    if (s.data.tokens > 0.0 || s.data != DataSpec{}) {
        j["data"] = {{"tokens", s.data.tokens},
                     {"seq_len", s.data.seq_len},
                     {"micro_batch", s.data.micro_batch}};
        if (s.data.global_batch > 0) {
            j["data"]["global_batch"] = s.data.global_batch;
        }
    }
    j["cluster"] = {{"gpu", s.cluster.gpu},
                    {"gpus", s.cluster.gpus},
                    {"mfu", s.cluster.mfu_predicted ? json("predicted") : json(s.cluster.mfu)}};
    if (s.cluster.price_per_gpu_hour) {
        j["cluster"]["price_per_gpu_hour"] = *s.cluster.price_per_gpu_hour;
    }
    if (s.cluster.gpus_per_node > 0) {
        j["cluster"]["gpus_per_node"] = s.cluster.gpus_per_node;
    }
    if (s.cluster.intra_node_bytes_per_s > 0.0) {
        j["cluster"]["intra_node_bytes_per_s"] = s.cluster.intra_node_bytes_per_s;
    }
    if (s.cluster.inter_node_bytes_per_s > 0.0) {
        j["cluster"]["inter_node_bytes_per_s"] = s.cluster.inter_node_bytes_per_s;
    }
    j["training"] = {
        {"param_dtype", std::string(to_string(t.param_dtype))},
        {"grad_dtype", std::string(to_string(t.grad_dtype))},
        {"master_dtype", t.master_dtype ? std::string(to_string(*t.master_dtype)) : "none"},
        {"optimizer", std::string(to_string(t.optimizer))},
        {"optimizer_state_dtype", std::string(to_string(t.optimizer_state_dtype))},
        {"compute_dtype", std::string(to_string(t.compute_dtype))},
        {"activation_dtype", std::string(to_string(t.activation_dtype))},
        {"recompute", std::string(to_string(t.recompute))},
        {"recompute_working_set", t.recompute_working_set},
        {"zero", t.zero},
        {"tp", t.tp},
        {"pp", t.pp},
        {"sequence_parallel", t.sequence_parallel},
        {"flash_attention", t.flash_attention},
        {"dropout", t.dropout},
        {"flops_formula", std::string(to_string(t.flops_formula))},
        {"interleave", t.interleave},
        {"expert_parallel", t.expert_parallel},
        {"dp_overlap", t.dp_overlap},
        {"offload", std::string(to_string(t.offload))},
        {"engine", std::string(to_string(t.engine))},
        {"context_parallel", t.context_parallel},
    };
    // Written only when set, so a plan that does not use them keeps the JSON it had.
    if (t.first_stage_layers > 0) {
        j["training"]["first_stage_layers"] = t.first_stage_layers;
    }
    if (t.last_stage_layers > 0) {
        j["training"]["last_stage_layers"] = t.last_stage_layers;
    }
    if (t.expert_tensor_parallel > 0) {
        j["training"]["expert_tensor_parallel"] = t.expert_tensor_parallel;
    }
    if (compute_type(t.compute_dtype) == ComputeType::fp8 || t.fp8_recipe != Fp8Recipe::delayed) {
        j["training"]["fp8_recipe"] = std::string(to_string(t.fp8_recipe));
    }
    if (t.moe_imbalance != 1.0) {
        j["training"]["moe_imbalance"] = t.moe_imbalance;
    }
    if (t.recompute_layers > 0) {
        j["training"]["recompute_layers"] = t.recompute_layers;
    }
    if (t.recompute_modules.any()) {
        json names = json::array();
        for (const std::string_view name : recompute_module_names(t.recompute_modules)) {
            names.push_back(std::string(name));
        }
        j["training"]["recompute_modules"] = names;
    }
    if (t.tp_comm_overlap) {
        j["training"]["tp_comm_overlap"] = true;
    }
    if (t.ep_comm_overlap) {
        j["training"]["ep_comm_overlap"] = true;
    }
    if (t.moe_dispatcher != MoeDispatcher::alltoall) {
        j["training"]["moe_dispatcher"] = std::string(to_string(t.moe_dispatcher));
    }
    if (t.fsdp_backward_prefetch != FsdpBackwardPrefetch::pre) {
        j["training"]["fsdp_backward_prefetch"] = std::string(to_string(t.fsdp_backward_prefetch));
    }
    if (t.optimizer_impl != OptimizerImpl::engine) {
        j["training"]["optimizer_impl"] = std::string(to_string(t.optimizer_impl));
    }
    if (t.cross_entropy != CrossEntropy::fp32) {
        j["training"]["cross_entropy"] = std::string(to_string(t.cross_entropy));
    }
    if (t.activation_offload_layers > 0) {
        j["training"]["activation_offload_layers"] = t.activation_offload_layers;
    }
    if (t.attention_kernel != AttentionKernel::engine) {
        j["training"]["attention_kernel"] = std::string(to_string(t.attention_kernel));
    }
    if (s.solver.include_activations) {
        j["solver"] = {{"include_activations", true}};
    }
    // Written only when it differs from the defaults, so a training plan's JSON stays as it was.
    if (s.inference != InferenceSpec{}) {
        const InferenceSpec& in = s.inference;
        j["inference"] = {{"batch", in.batch},
                          {"prompt_tokens", in.prompt_tokens},
                          {"output_tokens", in.output_tokens},
                          {"tp", in.tp},
                          {"weight_dtype", std::string(to_string(in.weight_dtype))},
                          {"kv_dtype", std::string(to_string(in.kv_dtype))}};
        const InferenceSpec defaults;
        auto& out = j["inference"];
        if (in.engine != defaults.engine) {
            out["engine"] = std::string(to_string(in.engine));
        }
        const std::pair<const char*, std::int64_t> integers[] = {
            {"quant_group_size", in.quant_group_size},
            {"concurrency", in.concurrency},
            {"max_batched_tokens", in.max_batched_tokens},
            {"pp", in.pp},
            {"ep", in.ep}};
        const std::int64_t integer_defaults[] = {defaults.quant_group_size, defaults.concurrency,
                                                 defaults.max_batched_tokens, defaults.pp,
                                                 defaults.ep};
        for (std::size_t i = 0; i < std::size(integers); ++i) {
            if (integers[i].second != integer_defaults[i]) {
                out[integers[i].first] = integers[i].second;
            }
        }
        if (in.chunked_prefill != defaults.chunked_prefill) {
            out["chunked_prefill"] = in.chunked_prefill;
        }
        if (in.dp_attention != defaults.dp_attention) {
            out["dp_attention"] = in.dp_attention;
        }
        if (in.decode_attention != defaults.decode_attention) {
            out["decode_attention"] = std::string(to_string(in.decode_attention));
        }
        if (in.output_head != defaults.output_head) {
            out["output_head"] = std::string(to_string(in.output_head));
        }
        if (in.host_step_s) {
            out["host_step_s"] = *in.host_step_s;
        }
        if (in.memory_fraction) {
            out["memory_fraction"] = *in.memory_fraction;
        }
        if (!in.checkpoint.empty()) {
            out["checkpoint"] = in.checkpoint;
        }
    }
    if (!s.measured.empty()) {
        json me = json::object();
        const MeasuredRun& run = s.measured;
        for (const auto& [key, value] :
             {std::pair{"tokens_per_s_per_gpu", run.tokens_per_s_per_gpu},
              std::pair{"step_s", run.step_s}, std::pair{"mfu", run.mfu},
              std::pair{"hardware_flops_per_s_per_gpu", run.hardware_flops_per_s_per_gpu},
              std::pair{"output_tokens_per_s", run.output_tokens_per_s},
              std::pair{"ttft_s", run.ttft_s}, std::pair{"itl_s", run.itl_s}}) {
            if (value > 0.0) {
                me[key] = value;
            }
        }
        if (!run.source.empty()) {
            me["source"] = run.source;
        }
        j["measured"] = me;
    }
    if (!s.ops.empty()) {
        json ops = json::array();
        for (const OpSpec& op : s.ops) {
            ops.push_back(to_json(op));
        }
        j["ops"] = ops;
    }
    return j;
}

json to_json(const Plan& p, const PlanSpec& spec, const HardwareProfile& hw) {
    const MemoryBreakdown& m = p.memory;
    const ActivationBreakdown& a = m.activations;
    json j;
    j["name"] = spec.name;
    j["gpu"] = {{"id", hw.id}, {"name", hw.name}, {"kind", std::string(to_string(hw.kind))}};
    j["params"] = p.params.total;
    j["params_active"] = p.params.active;
    j["params_embedding"] = p.params.embedding;
    j["params_non_embedding"] = p.params.non_embedding;
    j["memory"] = {
        {"params_bytes", m.params_bytes},
        {"grads_bytes", m.grads_bytes},
        {"master_bytes", m.master_bytes},
        {"optimizer_bytes", m.optimizer_bytes},
        {"activations_bytes", m.activations_bytes},
        {"total_bytes", m.total_bytes},
        {"capacity_bytes", m.capacity_bytes},
        {"headroom_bytes", m.headroom_bytes},
        {"zero3_gather_bytes", m.zero3_gather_bytes},
        {"pipeline_buffer_bytes", m.pipeline_buffer_bytes},
        {"host_bytes", m.host_bytes},
        {"fits", m.fits},
        {"params_on_gpu", m.params_on_gpu},
        {"expert_params_on_gpu", m.expert_params_on_gpu},
        {"bytes_per_param", m.bytes_per_param},
        {"bytes_per_param_by_component",
         {{"params", m.param_bytes_per_param},
          {"grads", m.grad_bytes_per_param},
          {"master", m.master_bytes_per_param},
          {"optimizer", m.optimizer_bytes_per_param}}},
        {"zero_shards",
         {{"params", m.param_shards},
          {"grads", m.grad_shards},
          {"optimizer_and_master", m.optimizer_shards}}},
        {"expert_zero_shards",
         {{"params", m.expert_param_shards},
          {"grads", m.expert_grad_shards},
          {"optimizer_and_master", m.expert_optimizer_shards}}},
        {"activations",
         {{"per_layer_bytes", a.per_layer_bytes},
          {"per_layer_full_bytes", a.per_layer_full_bytes},
          {"stored_bytes", a.stored_bytes},
          {"working_bytes", a.working_bytes},
          {"embedding_output_bytes", a.embedding_output_bytes},
          {"layers_on_gpu", a.layers_on_gpu},
          {"microbatches_in_flight", a.microbatches_in_flight},
          {"interleave_factor", a.interleave_factor},
          {"checkpoint_interval", a.checkpoint_interval}}},
    };
    const FlopsBreakdown& f = p.flops;
    j["flops"] = {{"formula", std::string(to_string(spec.training.flops_formula))},
                  {"per_token_6n", f.per_token_6n},
                  {"per_token_attention", f.per_token_attention},
                  {"per_token", f.per_token},
                  {"forward_per_token", f.forward_per_token},
                  {"recompute_per_token", f.recompute_per_token},
                  {"per_step", f.per_step},
                  {"total", f.total},
                  {"hardware_total", f.hardware_total}};
    const TimeEstimate& t = p.time;
    j["time"] = {{"seconds", t.seconds},
                 {"days", t.days},
                 {"gpu_hours", t.gpu_hours},
                 {"cost", t.has_cost ? json(t.cost) : json(nullptr)},
                 {"energy_kwh", t.has_energy ? json(t.energy_kwh) : json(nullptr)},
                 {"peak_flops_per_s", t.peak_flops_per_s},
                 {"achieved_flops_per_s", t.achieved_flops_per_s},
                 {"mfu", t.mfu},
                 {"mfu_source", t.mfu_predicted ? "predicted" : "assumed"},
                 {"hfu", t.hfu}};
    j["performance"] = to_json(p.performance);
    // A calibrated profile: the step above is the model's divided by the fitted efficiency,
    // and the time says what it rests on.
    if (hw.calibration) {
        const StepCalibration& c = *hw.calibration;
        j["time"]["calibration"] = t.mfu_predicted ? json(calibration_note(c)) : json(nullptr);
        j["performance"]["calibration"] = {
            {"efficiency", c.efficiency},
            {"uncalibrated_step_s", p.performance.uncalibrated_step_s},
            {"measured_step_s", c.measured_step_s},
            {"predicted_step_s", c.predicted_step_s},
            {"measured_on", c.measured_on},
            {"source", c.source},
            {"spec", c.spec_name},
            {"base_profile", c.base_profile},
            {"engine", c.engine ? json(std::string(json_name(*c.engine))) : json(nullptr)},
            {"note", calibration_note(c)}};
    } else {
        j["time"]["calibration"] = nullptr;
        j["performance"]["calibration"] = nullptr;
    }
    // Which of the plan's distinct GEMMs were timed from the profile's measured GEMM times
    // (a profile made from `tally probe --plan`) and which on the roofline.
    const GemmSources gemms = gemm_sources(spec, hw);
    j["performance"]["gemms_measured"] = gemms.measured;
    j["performance"]["gemms_modelled"] = gemms.modelled;
    const Parallelism& par = p.parallel;
    j["parallel"] = {{"dp", par.dp},
                     {"tp", par.tp},
                     {"pp", par.pp},
                     {"global_batch", par.global_batch},
                     {"micro_batch", spec.data.micro_batch},
                     {"grad_accum_steps", par.grad_accum_steps},
                     {"tokens_per_step", par.tokens_per_step},
                     {"steps", par.steps},
                     {"pipeline_bubble_fraction", par.pipeline_bubble_fraction},
                     {"interleave", spec.training.interleave},
                     {"expert_parallel", spec.training.expert_parallel}};
    j["warnings"] = warning_messages(p, spec, hw);
    if (j.contains("performance")) {
        // How close the model came on the published runs of this engine and GPU generation: a
        // figure of the predicted step, given with it whether or not the time uses it (the text
        // of tally plan says it either way).
        j["performance"]["error_band"] =
            error_band_json(spec.training.engine, gpu_generation(hw), band_moe(spec));
    }
    return j;
}

json to_json(const PerformanceBreakdown& p) {
    return {{"step_s", p.step_s},
            {"tokens_per_s", p.tokens_per_s},
            {"mfu", p.mfu},
            {"hfu", p.hfu},
            {"hardware_flops_per_step", p.hardware_flops_per_step},
            {"compute_s", p.compute_s},
            {"recompute_s", p.recompute_s},
            {"memory_bound_s", p.memory_bound_s},
            {"tp_comm_s", p.tp_comm_s},
            {"pp_comm_s", p.pp_comm_s},
            {"pp_bubble_s", p.pp_bubble_s},
            {"dp_comm_s", p.dp_comm_s},
            {"dp_comm_exposed_s", p.dp_comm_exposed_s},
            {"ep_comm_s", p.ep_comm_s},
            {"cp_comm_s", p.cp_comm_s},
            {"overhead_s", p.overhead_s},
            {"comm_contention_s", p.comm_contention_s},
            {"offload_s", p.offload_s},
            {"optimizer_s", p.optimizer_s},
            {"microbatch_s", p.microbatch_s},
            {"microbatches", p.microbatches},
            {"bubble_fraction", p.bubble_fraction},
            {"gemm_flops_per_s", p.gemm_flops_per_s},
            {"memory_bytes_per_s", p.memory_bytes_per_s},
            {"network",
             {{"gpus_per_node", p.network.network.gpus_per_node},
              {"intra_node_bytes_per_s", p.network.network.intra_bytes_per_s},
              {"inter_node_bytes_per_s", p.network.network.inter_bytes_per_s},
              {"scale_up_fraction", p.network.scale_up_fraction},
              {"node_size_known", p.network.node_size_known},
              {"inter_node_known", p.network.inter_node_known}}}};
}

PlanSpec default_plan_spec() {
    // CS336 lecture 2's first question: a 70B model on 15T tokens on 1024 H100 at MFU 0.5
    // (seeds 002 and 003). The recipe is the lecture's mixed precision (bf16 params and grads,
    // fp32 master and AdamW states) with ZeRO-3 sharding it over the 1024 GPUs.
    PlanSpec s;
    // No name: the plan is called by what it is (plan_title()), so its title follows its edits.
    // resources/examples/seed-70b-15t-1024-h100.json is the same plan under the lecture's name.
    s.model.kind = ModelKind::params;
    s.model.name = "70B parameters";
    s.model.params = 70e9;
    s.data.tokens = 15e12;
    s.data.seq_len = 4096;
    s.data.micro_batch = 1;
    s.cluster.gpu = "h100-sxm";
    s.cluster.gpus = 1024;
    s.cluster.mfu = 0.5;
    s.training.zero = 3;
    return s;
}

}  // namespace tally
