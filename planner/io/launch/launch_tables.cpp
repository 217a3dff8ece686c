// One table of fields per framework: each row is a name in that framework, its kind, the spec
// field it carries and how it is read and laid on. The spec side of a row (how a recomputation,
// a precision or a ZeRO stage reads in a framework's terms) is written once below and shared by
// every table that needs it.
//
// The names come from the frameworks' own definitions, read at these commits:
// - Megatron-LM core_v0.12.0 (d580efc68a9f0dbf1945f834f6f6200cd01d3343),
//   megatron/training/arguments.py (the command line) and
//   megatron/core/transformer/transformer_config.py (the fields NeMo's model.config carries);
// - NeMo 8cfedd7203462cb251a914e700e5605444277561: nemo/collections/llm/recipes/llama3_70b.py
//   (trainer, data), nemo/lightning/pytorch/strategies/megatron_strategy.py (the strategy's
//   parallel sizes), nemo/collections/llm/gpt/model/base.py (GPTConfig), nemo/lightning/pytorch/
//   plugins/mixed_precision.py (fp8), nemo/collections/llm/recipes/optim/adam.py;
// - torchtitan v0.2.2 (73a0e6979dd10b6b1904098eb3c8f62c18ab87ce): torchtitan/config/
//   job_config.py, torchtitan/models/llama3/__init__.py (the flavours);
// - DeepSpeed docs/_pages/config-json.md (00376da49967bc6a15d70a550200ac67277b1fb4);
// - accelerate 16cb6eb80dd9aa8b4df1a63ef57863e455d53b83: src/accelerate/commands/config/
//   config_args.py and src/accelerate/utils/launch.py (the fsdp_config keys).
// tests/tst_launch_config.cpp checks every name written against lists taken from those files.
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <regex>
#include <sstream>

#include "planner/hardware/hardware.h"
#include "planner/io/launch/launch_fields.h"
#include "planner/model/params.h"
#include "planner/model/pipeline_stages.h"
#include "planner/performance/engine.h"

namespace tally::launch {

namespace {

// ---- helpers ------------------------------------------------------------------------------------

std::int64_t as_int(const Value& v) {
    return std::get<std::int64_t>(v);
}
bool as_bool(const Value& v) {
    return std::get<bool>(v);
}
double as_real(const Value& v) {
    return std::get<double>(v);
}
const std::string& as_text(const Value& v) {
    return std::get<std::string>(v);
}

[[noreturn]] void refuse_value(const Value& v, Text allowed) {
    throw SpecError("", value_text(v), std::move(allowed));
}

// A refusal's text ends with "(%N cannot express it)", its last argument the framework's title.
FieldError refusal(std::string field, std::string value, Text allowed) {
    return FieldError::of(std::move(field), std::move(value), std::move(allowed));
}

// References to the spec's integer fields, so that one template reads and writes them all.
template <auto M>
std::int64_t& model_ref(PlanSpec& s) {
    return s.model.*M;
}
template <auto M>
std::int64_t& moe_ref(PlanSpec& s) {
    return s.model.moe.*M;
}
template <auto M>
std::int64_t& mla_ref(PlanSpec& s) {
    return s.model.mla.*M;
}
template <auto M>
std::int64_t& data_ref(PlanSpec& s) {
    return s.data.*M;
}
template <auto M>
std::int64_t& training_ref(PlanSpec& s) {
    return s.training.*M;
}

enum class Write { always, nonzero, if_moe, if_mla };

template <std::int64_t& (*Ref)(PlanSpec&), Write W, std::int64_t Min>
std::optional<Value> get_integer(const PlanSpec& s) {
    const std::int64_t v = Ref(const_cast<PlanSpec&>(s));
    if ((W == Write::nonzero && v == 0) || (W == Write::if_moe && !s.model.moe.enabled()) ||
        (W == Write::if_mla && !s.model.mla.enabled())) {
        return std::nullopt;
    }
    return Value{v};
}

template <std::int64_t& (*Ref)(PlanSpec&), Write W, std::int64_t Min>
void set_integer(PlanSpec& s, const Value& v) {
    if (W == Write::if_moe && !s.model.moe.enabled()) {
        return;  // a dense model: the MoE settings do not apply
    }
    if (as_int(v) < Min) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= %1").arg(Min));
    }
    Ref(s) = as_int(v);
}

// A row that carries one integer spec field as it is.
template <std::int64_t& (*Ref)(PlanSpec&), Write W = Write::always, std::int64_t Min = 1>
Field integer(std::string_view key, std::string_view spec_field,
              std::optional<std::int64_t> absent = std::nullopt, std::string_view log_name = {}) {
    Field f{key, Kind::integer, spec_field, &get_integer<Ref, W, Min>, &set_integer<Ref, W, Min>};
    if (absent) {
        f.absent = Value{*absent};
    }
    f.log_name = log_name;
    return f;
}

// A row whose spec side is written by hand (the composite fields below).
// Not inlined: GCC 12 at -O3, inlining it into a table's long initializer list, took the
// default argument's empty optional for an uninitialized variant (-Wmaybe-uninitialized).
[[gnu::noinline]] Field custom(std::string_view key, Kind kind, std::string_view spec_field,
                               std::optional<Value> (*get)(const PlanSpec&),
                               void (*set)(PlanSpec&, const Value&),
                               std::optional<Value> absent = std::nullopt) {
    return Field{key, kind, spec_field, get, set, std::move(absent)};
}

// A constant the framework needs to run as the plan says; read back only to check it.
template <const char* Text>
std::optional<Value> get_constant(const PlanSpec&) {
    return Value{std::string(Text)};
}
template <const char* Text>
void set_constant(PlanSpec&, const Value& v) {
    if (as_text(v) != Text) {
        refuse_value(
            v, TALLY_TEXT("tally::launch", "\"%1\", the only setting Tally plans with").arg(Text));
    }
}

// A framework's names for the values of one enum: the first row of a value is the one written;
// further rows are spellings read.
template <typename E>
struct Named {
    const char* name;
    E value;
};

template <typename E, std::size_t N>
Value name_of(const Named<E> (&names)[N], E value) {
    for (const Named<E>& n : names) {
        if (n.value == value) {
            return Value{std::string(n.name)};
        }
    }
    return Value{std::string(names[0].name)};
}

// The list "%1 or %2" or "%1, %2 or %3" for N names.
template <std::size_t N>
Text names_or() {
    static_assert(N == 2 || N == 3, "a list of 2 or 3 names");
    return N == 2 ? TALLY_TEXT("tally::launch", "%1 or %2")
                  : TALLY_TEXT("tally::launch", "%1, %2 or %3");
}

// The value a name stands for; refused, listing the names (one argument each of `allowed`), when
// it is none of them.
template <typename E, std::size_t N>
E pick(const Named<E> (&names)[N], const Value& v, Text allowed = names_or<N>()) {
    for (const Named<E>& n : names) {
        if (n.name == as_text(v)) {
            return n.value;
        }
    }
    for (const Named<E>& n : names) {
        allowed.arg(n.name);
    }
    refuse_value(v, std::move(allowed));
}

constexpr Named<NormKind> kNorms[] = {{"LayerNorm", NormKind::layernorm},
                                      {"RMSNorm", NormKind::rmsnorm}};
constexpr Named<Optimizer> kMegatronOptimizers[] = {{"adam", Optimizer::adamw},
                                                    {"sgd", Optimizer::sgd}};
constexpr Named<Optimizer> kDeepSpeedOptimizers[] = {
    {"AdamW", Optimizer::adamw}, {"Adam", Optimizer::adam}, {"SGD", Optimizer::sgd}};
constexpr Named<OptimizerImpl> kTorchtitanOptimizerImpls[] = {{"fused", OptimizerImpl::fused},
                                                              {"foreach", OptimizerImpl::foreach},
                                                              {"for-loop", OptimizerImpl::foreach}};
constexpr Named<Recompute> kTorchtitanModes[] = {
    {"none", Recompute::none}, {"selective", Recompute::selective}, {"full", Recompute::full}};
// Megatron-LM's --fp8-recipe: tensorwise is Transformer Engine's current scaling.
constexpr Named<Fp8Recipe> kFp8Recipes[] = {{"delayed", Fp8Recipe::delayed},
                                            {"tensorwise", Fp8Recipe::current},
                                            {"mxfp8", Fp8Recipe::mxfp8}};

// ---- the spec side, shared by the tables --------------------------------------------------------

// Data-parallel ranks: GPUs / (tp x pp x cp), as check() requires them to divide.
std::int64_t data_parallel(const PlanSpec& s) {
    const std::int64_t model = s.training.tp * s.training.pp * s.training.context_parallel;
    return model > 0 && s.cluster.gpus % model == 0 ? s.cluster.gpus / model : 1;
}
// Sequences per optimizer step: the spec's, or one micro-batch per data-parallel rank (0).
std::int64_t global_batch(const PlanSpec& s) {
    return s.data.global_batch > 0 ? s.data.global_batch : s.data.micro_batch * data_parallel(s);
}
// Whole nodes of the launcher, one process a GPU (host_gpus()); a cluster that is not whole
// hosts is one node of all its GPUs.
std::int64_t gpus_per_node(const PlanSpec& s) {
    const std::int64_t per = host_gpus(s);
    return s.cluster.gpus % per == 0 ? per : s.cluster.gpus;
}

// Precision as the frameworks name it: mixed bf16/fp16 (half-precision params and gradients, an
// fp32 master copy and fp32 Adam state: Micikevicius et al. 2018) or plain fp32. Megatron-LM and
// NeMo keep the gradients of a mixed run in fp32 unless told otherwise (fp32_grads below).
enum class Precision { fp32, bf16, fp16 };

bool is_fp8(DType d) {
    return d == DType::fp8_e4m3 || d == DType::fp8_e5m2;
}

// The linear layers in Transformer Engine's FP8 or NVFP4 over a 16-bit run.
bool is_low_precision(DType d) {
    return is_fp8(d) || d == DType::nvfp4;
}

// `fp32_grads`: a mixed run may keep its gradients in fp32 (Megatron-LM's and NeMo's main grads).
std::optional<Precision> precision_of(const PlanSpec& s, bool fp32_grads = false) {
    const TrainingSpec& t = s.training;
    if (t.param_dtype == DType::fp32) {
        const bool plain = t.grad_dtype == DType::fp32 && t.compute_dtype == DType::fp32 &&
                           t.activation_dtype == DType::fp32 && !t.master_dtype &&
                           t.optimizer_state_dtype == DType::fp32;
        return plain ? std::optional(Precision::fp32) : std::nullopt;
    }
    if (t.param_dtype != DType::bf16 && t.param_dtype != DType::fp16) {
        return std::nullopt;
    }
    const DType half = t.param_dtype;
    const bool grads = t.grad_dtype == half || (fp32_grads && t.grad_dtype == DType::fp32);
    // NVFP4 over bf16 only (Megatron-Bridge's bf16_with_nvfp4_mixed is its one recipe).
    const bool mixed = grads && t.activation_dtype == half &&
                       (t.compute_dtype == half || is_fp8(t.compute_dtype) ||
                        (t.compute_dtype == DType::nvfp4 && half == DType::bf16)) &&
                       t.master_dtype == DType::fp32 && t.optimizer_state_dtype == DType::fp32;
    if (!mixed) {
        return std::nullopt;
    }
    return half == DType::bf16 ? Precision::bf16 : Precision::fp16;
}

void set_precision(PlanSpec& s, Precision p) {
    TrainingSpec& t = s.training;
    const DType d = p == Precision::fp32   ? DType::fp32
                    : p == Precision::bf16 ? DType::bf16
                                           : DType::fp16;
    const bool low =
        is_fp8(t.compute_dtype) || (t.compute_dtype == DType::nvfp4 && p == Precision::bf16);
    t.param_dtype = t.grad_dtype = t.activation_dtype = d;
    t.compute_dtype = low && p != Precision::fp32 ? t.compute_dtype : d;
    t.master_dtype = p == Precision::fp32 ? std::nullopt : std::optional(DType::fp32);
    t.optimizer_state_dtype = DType::fp32;
}

// A precision the table cannot write: `fp32_grads` for Megatron-LM and NeMo, whose mixed runs
// keep fp32 gradients by default.
std::optional<FieldError> refuse_precision_of(const PlanSpec& s, std::string_view title,
                                              bool fp32_grads) {
    if (precision_of(s, fp32_grads)) {
        return std::nullopt;
    }
    Text allowed =
        fp32_grads
            ? TALLY_TEXT("tally::launch",
                         "a launch configuration holds one precision: bf16 or fp16 mixed (grads "
                         "in the same type or in fp32, fp32 master weights and optimizer state, "
                         "compute in it, in fp8, or in nvfp4 over bf16) or plain fp32 (no master "
                         "copy) (%1 cannot express it)")
            : TALLY_TEXT("tally::launch",
                         "a launch configuration holds one precision: bf16 or fp16 mixed (grads in "
                         "the same type, fp32 master weights and optimizer state, compute in it, "
                         "in fp8, or in nvfp4 over bf16) or plain fp32 (no master copy) (%1 "
                         "cannot express it)");
    return refusal("training.param_dtype", std::string(to_string(s.training.param_dtype)),
                   std::move(allowed).arg_translated("tally::launch", title.data()));
}
std::optional<FieldError> refuse_precision(const PlanSpec& s, std::string_view title) {
    return refuse_precision_of(s, title, false);
}
std::optional<FieldError> refuse_precision_fp32_grads(const PlanSpec& s, std::string_view title) {
    return refuse_precision_of(s, title, true);
}

std::optional<FieldError> refuse_not_transformer(const PlanSpec& s, std::string_view title) {
    if (s.model.kind == ModelKind::transformer) {
        return std::nullopt;
    }
    return refusal(
        "model.kind", std::string(to_string(s.model.kind)),
        TALLY_TEXT("tally::launch",
                   "a transformer: the training frameworks build decoder-only transformers from "
                   "their dimensions (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

std::optional<FieldError> refuse_fp8(const PlanSpec& s, std::string_view title) {
    if (!is_low_precision(s.training.compute_dtype)) {
        return std::nullopt;
    }
    return refusal(
        "training.compute_dtype", std::string(to_string(s.training.compute_dtype)),
        TALLY_TEXT("tally::launch",
                   "bf16, fp16 or fp32 for this framework: its fp8 and fp4 recipes are not the "
                   "ones Tally plans (Transformer Engine's) (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

// NeMo 2's MegatronMixedPrecision plugin sets fp8 only; NVFP4 training is Megatron-Bridge's
// (bf16_with_nvfp4_mixed) or Megatron-LM's --fp4-format.
std::optional<FieldError> refuse_nvfp4(const PlanSpec& s, std::string_view title) {
    if (s.training.compute_dtype != DType::nvfp4) {
        return std::nullopt;
    }
    return refusal("training.compute_dtype", std::string(to_string(s.training.compute_dtype)),
                   TALLY_TEXT("tally::launch",
                              "bf16, fp16 or fp8 for this framework: its precision plugin has no "
                              "NVFP4 recipe (%1 cannot express it; Megatron-LM's --fp4-format "
                              "does)")
                       .arg_translated("tally::launch", title.data()));
}

template <auto Member, std::int64_t Allowed>
std::optional<FieldError> refuse_above(const PlanSpec& s, std::string_view title) {
    const std::int64_t v = s.training.*Member;
    if (v <= Allowed) {
        return std::nullopt;
    }
    static constexpr std::string_view names[] = {"training.tp", "training.pp",
                                                 "training.context_parallel",
                                                 "training.expert_parallel", "training.interleave"};
    std::string_view name = "training";
    if constexpr (Member == &TrainingSpec::tp) {
        name = names[0];
    } else if constexpr (Member == &TrainingSpec::pp) {
        name = names[1];
    } else if constexpr (Member == &TrainingSpec::context_parallel) {
        name = names[2];
    } else if constexpr (Member == &TrainingSpec::expert_parallel) {
        name = names[3];
    } else if constexpr (Member == &TrainingSpec::interleave) {
        name = names[4];
    }
    return refusal(std::string(name), std::to_string(v),
                   TALLY_TEXT("tally::launch",
                              "%1 for this framework: its configuration has no such degree (%2 "
                              "cannot express it)")
                       .arg(Allowed)
                       .arg_translated("tally::launch", title.data()));
}

std::optional<FieldError> refuse_stage_layers(const PlanSpec& s, std::string_view title) {
    if (s.training.first_stage_layers == 0 && s.training.last_stage_layers == 0) {
        return std::nullopt;
    }
    // Named by the field that is set (the first when both are).
    return refusal(
        s.training.first_stage_layers != 0 ? "training.first_stage_layers"
                                           : "training.last_stage_layers",
        fmt::format("{} / {}", s.training.first_stage_layers, s.training.last_stage_layers),
        TALLY_TEXT("tally::launch", "0 (even stages) for this framework (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

std::optional<FieldError> refuse_etp(const PlanSpec& s, std::string_view title) {
    if (s.training.expert_tensor_parallel == 0 || s.training.expert_tensor_parallel == 1) {
        return std::nullopt;
    }
    return refusal("training.expert_tensor_parallel",
                   std::to_string(s.training.expert_tensor_parallel),
                   TALLY_TEXT("tally::launch", "0 or 1 for this framework (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}

std::optional<FieldError> refuse_sqrt_recompute(const PlanSpec& s, std::string_view title) {
    if (s.training.recompute != Recompute::sqrt) {
        return std::nullopt;
    }
    return refusal(
        "training.recompute", "sqrt",
        TALLY_TEXT("tally::launch",
                   "none, selective or full: the frameworks checkpoint per layer, not every "
                   "ceil(sqrt(L)) layers (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

// Recompute modules beyond the attention core, where a framework has no setting for them
// (torchtitan's selective checkpointing picks operators, not Megatron-Core's modules).
std::optional<FieldError> refuse_recompute_modules(const PlanSpec& s, std::string_view title) {
    const RecomputeModules& m = s.training.recompute_modules;
    if (!m.beyond_core()) {
        return std::nullopt;
    }
    return refusal("training.recompute_modules", recompute_modules_text(m),
                   TALLY_TEXT("tally::launch",
                              "absent or [\"core_attn\"] for this framework (%1 as Tally writes "
                              "it recomputes the attention core only)")
                       .arg_translated("tally::launch", title.data()));
}

// Recomputation where a framework names only whole layers (DeepSpeed, accelerate).
std::optional<FieldError> refuse_selective_recompute(const PlanSpec& s, std::string_view title) {
    if (s.training.recompute != Recompute::selective && s.training.recompute != Recompute::sqrt) {
        return std::nullopt;
    }
    return refusal(
        "training.recompute", std::string(to_string(s.training.recompute)),
        TALLY_TEXT(
            "tally::launch",
            "none or full for this framework: it checkpoints whole layers (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

// Megatron-LM: the distributed optimizer shards the optimizer state over the data-parallel
// ranks (ZeRO-1); it has no sharding of gradients or parameters.
std::optional<FieldError> refuse_zero_above_1(const PlanSpec& s, std::string_view title) {
    if (s.training.zero <= 1) {
        return std::nullopt;
    }
    return refusal(
        "training.zero", std::to_string(s.training.zero),
        TALLY_TEXT("tally::launch",
                   "0 or 1: Megatron-LM's distributed optimizer (--use-distributed-optimizer) "
                   "shards optimizer state only, as ZeRO-1 does (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

// torchtitan shards over the context-parallel ranks whenever cp > 1 (shard_over_context_parallel()
// below): it cannot keep parameters, gradients and optimizer state whole with context parallelism.
std::optional<FieldError> refuse_replicated_with_cp(const PlanSpec& s, std::string_view title) {
    if (s.training.zero != 0 || s.training.context_parallel <= 1) {
        return std::nullopt;
    }
    return refusal("training.zero", "0",
                   TALLY_TEXT("tally::launch",
                              "2 or 3 with context parallelism (cp %1): its FSDP shards over the "
                              "data-parallel and context-parallel ranks whenever cp > 1 (%2 "
                              "cannot express it)")
                       .arg(s.training.context_parallel)
                       .arg_translated("tally::launch", title.data()));
}

// FSDP shards parameters, gradients and optimizer state together (ZeRO-3) or keeps parameters
// whole between forward and backward (ZeRO-2); it has no sharding of the optimizer state alone.
std::optional<FieldError> refuse_zero_1(const PlanSpec& s, std::string_view title) {
    if (s.training.zero != 1) {
        return std::nullopt;
    }
    return refusal("training.zero", "1",
                   TALLY_TEXT("tally::launch",
                              "0 (replicated), 2 or 3: FSDP has no sharding of optimizer state "
                              "alone (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}

std::optional<FieldError> refuse_offload_params(const PlanSpec& s, std::string_view title) {
    if (s.training.offload != Offload::optimizer_and_params) {
        return std::nullopt;
    }
    return refusal(
        "training.offload", "optimizer_and_params",
        TALLY_TEXT("tally::launch", "none or optimizer for this framework (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

std::optional<FieldError> refuse_offload_optimizer_only(const PlanSpec& s, std::string_view title) {
    if (s.training.offload != Offload::optimizer) {
        return std::nullopt;
    }
    return refusal("training.offload", "optimizer",
                   TALLY_TEXT("tally::launch",
                              "none or optimizer_and_params: FSDP's CPU offload moves parameters, "
                              "gradients and the optimizer step together (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}

std::optional<FieldError> refuse_optimizer_not_adamw(const PlanSpec& s, std::string_view title) {
    if (s.training.optimizer == Optimizer::adamw || s.training.optimizer == Optimizer::sgd) {
        return std::nullopt;
    }
    return refusal(
        "training.optimizer", std::string(to_string(s.training.optimizer)),
        TALLY_TEXT("tally::launch",
                   "adamw or sgd (Megatron-LM's --optimizer adam applies decoupled weight "
                   "decay, as AdamW does) (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

// torchtitan builds Adam or AdamW (its optimizer.name, AdamW by default; torchtitan/components/
// optimizer.py): another optimizer cannot run.
std::optional<FieldError> refuse_optimizer_not_adam_or_adamw(const PlanSpec& s,
                                                             std::string_view title) {
    if (s.training.optimizer == Optimizer::adamw || s.training.optimizer == Optimizer::adam) {
        return std::nullopt;
    }
    return refusal("training.optimizer", std::string(to_string(s.training.optimizer)),
                   TALLY_TEXT("tally::launch",
                              "adamw or adam for this framework: its file names no other "
                              "optimizer (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}

// torchtitan's optimizer.name: "Adam" or "AdamW".
std::optional<Value> get_tt_optimizer(const PlanSpec& s) {
    return Value{std::string(s.training.optimizer == Optimizer::adam ? "Adam" : "AdamW")};
}
void set_tt_optimizer(PlanSpec& s, const Value& v) {
    if (as_text(v) == "AdamW") {
        s.training.optimizer = Optimizer::adamw;
    } else if (as_text(v) == "Adam") {
        s.training.optimizer = Optimizer::adam;
    } else {
        refuse_value(v, TALLY_TEXT("tally::launch", "AdamW or Adam"));
    }
}

// torchtitan's model.converters swap modules before training: "quantize.linear.float8" (or
// "float8" before v0.2) turns the linear layers into torchao's Float8Linear, and the MX
// converters into MXLinear (torchtitan/components/quantization/). Tally times fp8 as Transformer
// Engine's recipes run it, which torchtitan does not: such a file is refused, not planned in
// bf16 without a word. Other converters leave the plan as it is.
void set_tt_converters(PlanSpec&, const Value& v) {
    const std::string& text = as_text(v);
    if (text.find("float8") != std::string::npos || text.find(".mx") != std::string::npos ||
        text.find("\"mx") != std::string::npos) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "no float8 or MX converter: Tally times fp8 training as "
                                   "Transformer Engine's recipes, not torchao's Float8Linear "
                                   "or MXLinear; without the converter the run is planned in "
                                   "bf16"));
    }
}

// What a framework fixes by its design where the plan says otherwise, each with no setting in
// its file: the export writes the file and says so in its notes (an import of the file reads the
// framework's value and lists it among its assumptions).
enum FixedByFramework : unsigned {
    kFixesFlashAttention = 1u << 0,  // a fused attention kernel: the s x s scores never kept
    kFixesDpOverlap = 1u << 1,       // the gradient reduction overlaps the backward
    kFixesDropout = 1u << 2,         // dropout is the model code's
    kFixesOptimizer = 1u << 3,       // the training script makes the optimizer
};
// What an import of such a file reads for each (the notes below say so): the framework's own
// value, never the current plan's, which the framework does not run. Each table lists the same
// fields as implied, so the generic fill leaves them to this, which says each among the
// assumptions.
void apply_fixed(PlanSpec& s, LaunchImport& out, unsigned fixes) {
    const std::string_view title = launch_target_title(out.target);
    const auto said = [&](const char* field, const char* value) {
        out.guesses.push_back(TALLY_TEXT("tally::launch",
                                         "%1 = %2: %3 runs it so by design, with no setting "
                                         "in its file")
                                  .arg(field)
                                  .arg(value)
                                  .arg_translated("tally::launch", title.data()));
    };
    if ((fixes & kFixesFlashAttention) != 0) {
        s.training.flash_attention = true;
        said("training.flash_attention", "true");
    }
    if ((fixes & kFixesDpOverlap) != 0) {
        s.training.dp_overlap = true;
        said("training.dp_overlap", "true");
    }
    if ((fixes & kFixesDropout) != 0) {
        s.training.dropout = false;
        said("training.dropout", "false");
    }
    if ((fixes & kFixesOptimizer) != 0) {
        s.training.optimizer = Optimizer::adamw;
        s.training.optimizer_impl = OptimizerImpl::engine;
        said("training.optimizer", "adamw");
        said("training.optimizer_impl", "engine");
    }
}
constexpr unsigned kNemoFixes = kFixesFlashAttention;
constexpr unsigned kTorchtitanFixes = kFixesFlashAttention | kFixesDpOverlap | kFixesDropout;
constexpr unsigned kDeepspeedFixes = kFixesFlashAttention | kFixesDropout;
constexpr unsigned kAccelerateFixes =
    kFixesFlashAttention | kFixesDpOverlap | kFixesDropout | kFixesOptimizer;

void add_fixed_notes(const PlanSpec& s, std::string_view title, unsigned fixes,
                     std::vector<Text>& notes) {
    if ((fixes & kFixesFlashAttention) != 0 && !s.training.flash_attention) {
        notes.push_back(
            TALLY_TEXT("tally::launch",
                       "this plan has training.flash_attention false, but %1 runs a "
                       "fused attention kernel and its file has no setting that keeps "
                       "the scores: the run keeps fewer activations per GPU than the plan "
                       "counts, and an import of this file reads true")
                .arg_translated("tally::launch", title.data()));
    }
    if ((fixes & kFixesDpOverlap) != 0 && !s.training.dp_overlap) {
        notes.push_back(
            TALLY_TEXT("tally::launch",
                       "this plan has training.dp_overlap false, but %1 overlaps the "
                       "gradient reduction with the backward and its file has no "
                       "setting to stop it: the run's step is shorter than the plan's, and an "
                       "import of this file reads true")
                .arg_translated("tally::launch", title.data()));
    }
    if ((fixes & kFixesDropout) != 0 && s.training.dropout) {
        notes.push_back(
            TALLY_TEXT("tally::launch",
                       "this plan has training.dropout true; dropout is the model "
                       "code's, not a setting of %1's file: turn it on there (an import of "
                       "this file reads false)")
                .arg_translated("tally::launch", title.data()));
    }
    if ((fixes & kFixesOptimizer) != 0 && (s.training.optimizer != Optimizer::adamw ||
                                           s.training.optimizer_impl != OptimizerImpl::engine)) {
        notes.push_back(TALLY_TEXT("tally::launch",
                                   "this plan's optimizer is %2 (implementation %3); %1's file "
                                   "names none, the training script makes it: make it so there (an "
                                   "import of this file reads adamw, engine)")
                            .arg_translated("tally::launch", title.data())
                            .arg(to_string(s.training.optimizer))
                            .arg(to_string(s.training.optimizer_impl)));
    }
}

std::optional<FieldError> refuse_fp8_block(const PlanSpec& s, std::string_view title) {
    if (!is_fp8(s.training.compute_dtype) || s.training.fp8_recipe != Fp8Recipe::block) {
        return std::nullopt;
    }
    return refusal(
        "training.fp8_recipe", "block",
        TALLY_TEXT("tally::launch",
                   "delayed, current or mxfp8 (Megatron-LM's --fp8-recipe delayed, tensorwise, "
                   "mxfp8) (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}

std::optional<FieldError> refuse_ffn_relu(const PlanSpec& s, std::string_view title) {
    if (s.model.ffn != FfnKind::relu) {
        return std::nullopt;
    }
    return refusal("model.ffn", "relu",
                   TALLY_TEXT("tally::launch", "gelu or swiglu (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}

// Megatron-Core stops an MoE layer that trains under tensor parallelism without sequence
// parallelism (core_v0.12.0 moe_layer.py, MoELayer.forward: ValueError).
std::optional<FieldError> refuse_moe_tp_without_sp(const PlanSpec& s, std::string_view title) {
    if (!s.model.moe.enabled() || s.training.tp <= 1 || s.training.sequence_parallel) {
        return std::nullopt;
    }
    return refusal("training.sequence_parallel", "false",
                   TALLY_TEXT("tally::launch",
                              "true for an MoE model at tp > 1: Megatron-Core stops training an "
                              "MoE layer under tensor parallelism without sequence parallelism "
                              "(%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}

// Multi-token prediction (ModelSpec::mtp_layers) is Megatron-Core's (--mtp-num-layers,
// TransformerConfig.mtp_num_layers); the other frameworks' configurations have no setting for it,
// and a run written without it would train a different model from the plan's.
std::optional<FieldError> refuse_mtp(const PlanSpec& s, std::string_view title) {
    if (s.model.kind != ModelKind::transformer || s.model.mtp_layers == 0) {
        return std::nullopt;
    }
    return refusal("model.mtp_layers", std::to_string(s.model.mtp_layers),
                   TALLY_TEXT("tally::launch",
                              "0 for this framework: it has no multi-token-prediction modules "
                              "(%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}

// Megatron-LM core_v0.12.0's command line has no sliding-window attention (its arguments.py
// defines no --window-size; TransformerConfig's window_size is reachable through NeMo only).
std::optional<FieldError> refuse_sliding_window(const PlanSpec& s, std::string_view title) {
    if (s.model.windowed_layers() == 0) {
        return std::nullopt;
    }
    return refusal("model.sliding_window", std::to_string(s.model.sliding_window),
                   TALLY_TEXT("tally::launch",
                              "0 for this framework: Megatron-LM core_v0.12.0's arguments have no "
                              "sliding-window attention (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}

// NeMo's model.config.window_size windows every layer (TransformerConfig, core_v0.12.0, has no
// per-layer pattern): a model with full layers beside windowed ones cannot be written.
std::optional<FieldError> refuse_partial_window(const PlanSpec& s, std::string_view title) {
    const std::int64_t windowed = s.model.windowed_layers();
    if (windowed == 0 || windowed >= s.model.layers) {
        return std::nullopt;
    }
    return refusal("model.sliding_window_layers", std::to_string(windowed),
                   TALLY_TEXT("tally::launch",
                              "0 or %1 (every layer) for this framework: "
                              "model.config.window_size windows every layer (%2 cannot express "
                              "it)")
                       .arg(s.model.layers)
                       .arg_translated("tally::launch", title.data()));
}

// -- model
std::optional<Value> get_gqa(const PlanSpec& s) {
    return Value{s.model.kv_heads > 0 && s.model.kv_heads != s.model.heads};
}
void set_gqa(PlanSpec&, const Value&) {}  // the group count is the next row
std::optional<Value> get_query_groups(const PlanSpec& s) {
    if (s.model.kv_heads > 0 && s.model.kv_heads != s.model.heads) {
        return Value{s.model.kv_heads};
    }
    return std::nullopt;
}
void set_query_groups(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.model.kv_heads = as_int(v) == s.model.heads ? 0 : as_int(v);
}

std::optional<Value> get_swiglu(const PlanSpec& s) {
    return Value{s.model.ffn == FfnKind::swiglu};
}
void set_swiglu(PlanSpec& s, const Value& v) {
    s.model.ffn = as_bool(v) ? FfnKind::swiglu : FfnKind::gelu;
}

std::optional<Value> get_norm(const PlanSpec& s) {
    return name_of(kNorms, s.model.norm);
}
void set_norm(PlanSpec& s, const Value& v) {
    s.model.norm = pick(kNorms, v);
}

// Megatron's --disable-bias-linear (dest add_bias_linear) and --add-qkv-bias; NeMo's
// add_bias_linear carries the same without the negation.
std::optional<Value> get_no_bias(const PlanSpec& s) {
    return Value{s.model.bias != BiasKind::all};
}
void set_no_bias(PlanSpec& s, const Value& v) {
    s.model.bias = as_bool(v) ? BiasKind::none : BiasKind::all;
}
std::optional<Value> get_bias(const PlanSpec& s) {
    return Value{s.model.bias == BiasKind::all};
}
void set_bias(PlanSpec& s, const Value& v) {
    s.model.bias = as_bool(v) ? BiasKind::all : BiasKind::none;
}
std::optional<Value> get_qkv_bias(const PlanSpec& s) {
    return Value{s.model.bias == BiasKind::qkv};
}
void set_qkv_bias(PlanSpec& s, const Value& v) {
    if (as_bool(v)) {
        if (s.model.bias == BiasKind::all) {
            refuse_value(
                v, TALLY_TEXT("tally::launch",
                              "false with biases on every linear layer: Tally's bias kinds are "
                              "none, qkv only, or all"));
        }
        s.model.bias = BiasKind::qkv;
    }
}

std::optional<Value> get_untied(const PlanSpec& s) {
    return Value{!s.model.tied_embeddings};
}
void set_untied(PlanSpec& s, const Value& v) {
    s.model.tied_embeddings = !as_bool(v);
}
std::optional<Value> get_tied(const PlanSpec& s) {
    return Value{s.model.tied_embeddings};
}
void set_tied(PlanSpec& s, const Value& v) {
    s.model.tied_embeddings = as_bool(v);
}

// Positions: rotary (no parameters) or a learned table of max-position-embeddings rows.
// The RoPE base (ModelSpec::rope_theta): Megatron-LM's --rotary-base and NeMo's
// model.config.rotary_base, both integers defaulting to 10000 (core_v0.12.0 arguments.py;
// GPTConfig's rotary_base). Written when the model states one, so that a Llama 3 run is not
// trained at Megatron's 10000 where the model has 500000; left out, the framework's default runs.
std::optional<Value> get_rotary_base(const PlanSpec& s) {
    if (s.model.kind != ModelKind::transformer || s.model.learned_positions > 0 ||
        !(s.model.rope_theta > 0.0)) {
        return std::nullopt;
    }
    return Value{static_cast<std::int64_t>(std::llround(s.model.rope_theta))};
}
void set_rotary_base(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.model.rope_theta = static_cast<double>(as_int(v));
}
std::optional<FieldError> refuse_fractional_rope(const PlanSpec& s, std::string_view title) {
    if (s.model.rope_theta == std::round(s.model.rope_theta)) {
        return std::nullopt;
    }
    return refusal("model.rope_theta", fmt::format("{}", s.model.rope_theta),
                   TALLY_TEXT("tally::launch",
                              "a whole number: the framework's rotary base is an integer (%1 "
                              "cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}
// torchtitan's llama3 flavours fix the base at 500000 (torchtitan/models/llama3/__init__.py,
// rope_theta=500000 in every flavour): a model stating another is not one of them.
constexpr double kTorchtitanLlama3RopeTheta = 500000.0;
std::optional<FieldError> refuse_rope_not_flavours(const PlanSpec& s, std::string_view title) {
    if (!(s.model.rope_theta > 0.0) || s.model.rope_theta == kTorchtitanLlama3RopeTheta) {
        return std::nullopt;
    }
    return refusal("model.rope_theta", fmt::format("{}", s.model.rope_theta),
                   TALLY_TEXT("tally::launch",
                              "500000 or unstated: torchtitan's llama3 flavours fix the RoPE base "
                              "(%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}
std::optional<Value> get_position_type(const PlanSpec& s) {
    return Value{std::string(s.model.learned_positions > 0 ? "learned_absolute" : "rope")};
}
void set_position_type(PlanSpec& s, const Value& v) {
    const std::string& t = as_text(v);
    if (t == "rope" || t == "none") {
        s.model.learned_positions = 0;
    } else if (t == "learned_absolute") {
        s.model.learned_positions = -1;  // the table's rows come with max-position-embeddings
    } else {
        refuse_value(v, TALLY_TEXT("tally::launch", "rope, none or learned_absolute"));
    }
}
// Megatron-LM requires --max-position-embeddings (arguments.py's required arguments) and checks
// it is at least --seq-length. With rotary positions it sizes nothing Tally counts: it is the
// context the model is built for (a Hugging Face config's max_position_embeddings, Tally's
// model.context_length), written as the model's where it states one longer than the sequence.
std::optional<Value> get_max_positions(const PlanSpec& s) {
    if (s.model.learned_positions > 0) {
        return Value{s.model.learned_positions};
    }
    return Value{std::max(s.data.seq_len, s.model.context_length)};
}
void set_max_positions(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    if (s.model.learned_positions == -1) {
        s.model.learned_positions = as_int(v);
    } else {
        s.model.context_length = as_int(v);
    }
}

// Dropout: Tally records whether the masks are stored; the frameworks give probabilities
// (Megatron-LM's and Megatron-Core's default 0.1 each).
std::optional<Value> get_dropout(const PlanSpec& s) {
    return Value{s.training.dropout ? 0.1 : 0.0};
}
void set_hidden_dropout(PlanSpec& s, const Value& v) {
    if (!(as_real(v) >= 0.0 && as_real(v) < 1.0)) {
        refuse_value(v, TALLY_TEXT("tally::launch", "a probability in [0, 1)"));
    }
    s.training.dropout = as_real(v) > 0.0;
}
void set_attention_dropout(PlanSpec& s, const Value& v) {
    if (!(as_real(v) >= 0.0 && as_real(v) < 1.0)) {
        refuse_value(v, TALLY_TEXT("tally::launch", "a probability in [0, 1)"));
    }
    s.training.dropout = s.training.dropout || as_real(v) > 0.0;
}

// -- mixture of experts
std::optional<Value> get_experts(const PlanSpec& s) {
    return s.model.moe.enabled() ? std::optional(Value{s.model.moe.experts}) : std::nullopt;
}
void set_experts(PlanSpec& s, const Value& v) {
    if (as_int(v) < 0) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 0"));
    }
    s.model.moe.experts = as_int(v);
}
std::optional<Value> get_shared_size(const PlanSpec& s) {
    if (!s.model.moe.enabled() || s.model.moe.shared_experts == 0) {
        return std::nullopt;
    }
    return Value{s.model.moe.shared_experts * s.model.effective_expert_ffn()};
}
void set_shared_size(PlanSpec& s, const Value& v) {
    if (!s.model.moe.enabled()) {
        return;
    }
    if (as_int(v) == 0) {
        s.model.moe.shared_experts = 0;  // none, whatever the (perhaps still unknown) width
        return;
    }
    const std::int64_t width = s.model.effective_expert_ffn();
    if (as_int(v) < 0 || width <= 0 || as_int(v) % width != 0) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "a multiple of the expert width %1: Tally counts shared "
                                   "experts of that width")
                            .arg(width));
    }
    s.model.moe.shared_experts = as_int(v) / width;
}
// TransformerConfig.window_size, (W - 1, 0): each query attends to the W - 1 positions before it
// and itself, none after (megatron/core/transformer/transformer_config.py: "(left, right)"
// window sizes in tokens); a left window of -1 (Transformer Engine's "no window") or None is
// none.
std::optional<Value> get_window_size(const PlanSpec& s) {
    if (s.model.windowed_layers() == 0) {
        return std::nullopt;
    }
    return Value{fmt::format("({},0)", s.model.sliding_window - 1)};
}
// TransformerConfig.cp_comm_type: how context-parallel ranks exchange keys and values. Transformer
// Engine refuses its default ring ("p2p") for sliding-window attention (attn_forward_func_with_cp:
// "a2a" or "all_gather" only), so a windowed model under context parallelism is written with
// "all_gather", which the step-time model times (performance.cpp); otherwise the default ring,
// not written. Read back: "p2p" and "all_gather" are what Tally times; the all-to-all variants
// are not modelled.
std::optional<Value> get_cp_comm_type(const PlanSpec& s) {
    if (s.training.context_parallel <= 1 || s.model.windowed_layers() == 0) {
        return std::nullopt;
    }
    return Value{std::string("all_gather")};
}
// Megatron-LM's --cp-comm-type takes one type, or one per layer (nargs='+'), and its printed
// argument block shows the list: "['p2p']". The types given, as one when every layer has the
// same; "" when they differ.
std::string one_cp_comm_type(std::string_view raw) {
    std::string text(raw);
    std::erase_if(text, [](char c) { return c == '[' || c == ']' || c == '\'' || c == '"'; });
    std::replace(text.begin(), text.end(), ',', ' ');
    std::istringstream words(text);
    std::string first, word;
    words >> first;
    while (words >> word) {
        if (word != first) {
            return {};
        }
    }
    return first;
}
void set_cp_comm_type(PlanSpec&, const Value& v) {
    const std::string t = one_cp_comm_type(as_text(v));
    if (t != "p2p" && t != "all_gather") {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "p2p (the ring) or all_gather: Tally times context parallelism "
                                   "as the ring, or as the all-gather that sliding-window "
                                   "attention needs; the all-to-all exchanges are not modelled"));
    }
}
void set_window_size(PlanSpec& s, const Value& v) {
    static const std::regex pattern(R"(^\(?\s*(-1|\d{1,15})\s*,\s*(-?\d{1,15})\s*\)?$)");
    std::smatch m;
    const std::string& t = as_text(v);
    const bool none = t == "None" || (std::regex_match(t, m, pattern) && m[1].str() == "-1");
    if (none) {
        s.model.sliding_window = 0;
        s.model.sliding_window_layers = 0;
        return;
    }
    if (!std::regex_match(t, m, pattern) || std::stoll(m[2].str()) != 0) {
        refuse_value(
            v, TALLY_TEXT("tally::launch",
                          "(left, 0): a window over the positions before each query (a causal "
                          "model looks at none after it), (-1, 0) or None for none"));
    }
    s.model.sliding_window = std::stoll(m[1].str()) + 1;
    s.model.sliding_window_layers = 0;
}

// Megatron's --moe-layer-freq as a Python list expression: k dense layers, then MoE layers.
std::optional<Value> get_layer_freq(const PlanSpec& s) {
    if (!s.model.moe.enabled() || s.model.moe.first_dense_layers == 0) {
        return std::nullopt;
    }
    const std::int64_t k = s.model.moe.first_dense_layers;
    return Value{fmt::format("([0]*{}+[1]*{})", k, s.model.layers - k)};
}
void set_layer_freq(PlanSpec& s, const Value& v) {
    if (!s.model.moe.enabled()) {
        return;
    }
    static const std::regex pattern(R"(^\(?\[0\]\*(\d{1,9})\+\[1\]\*(\d{1,9})\)?$)");
    std::smatch m;
    const std::string& t = as_text(v);
    if (t == "1") {
        s.model.moe.first_dense_layers = 0;
    } else if (std::regex_match(t, m, pattern) &&
               std::stoll(m[1].str()) + std::stoll(m[2].str()) == s.model.layers) {
        s.model.moe.first_dense_layers = std::stoll(m[1].str());
    } else {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "1 (every layer MoE) or ([0]*k+[1]*m) with k + m = %1 "
                                   "layers: Tally's MoE keeps its dense layers first")
                            .arg(s.model.layers));
    }
}
std::optional<Value> get_mla(const PlanSpec& s) {
    return Value{s.model.mla.enabled()};
}
void set_mla(PlanSpec& s, const Value& v) {
    if (!as_bool(v)) {
        s.model.mla = MlaSpec{};
    }
}

// QK-norm (ModelSpec::qk_norm) and MLA's latent norms: Megatron-LM's --qk-layernorm and NeMo's
// model.config.qk_layernorm (TransformerConfig.qk_layernorm, default False). With it Megatron-Core
// builds a per-head q_layernorm and k_layernorm, and with multi-latent attention the norms of the
// query and key-value latents instead, fused into linear_q_up_proj and linear_kv_up_proj
// (core_v0.12.0 gpt_layer_specs.py): DeepSeek's q_a_layernorm and kv_a_layernorm, which Tally's
// MLA always has. Without it a Qwen3 or DeepSeek-V3 run trains a model without those norms.
std::optional<Value> get_qk_layernorm(const PlanSpec& s) {
    return Value{s.model.kind == ModelKind::transformer &&
                 (s.model.qk_norm || s.model.mla.enabled())};
}
void set_qk_layernorm(PlanSpec& s, const Value& v) {
    s.model.qk_norm = as_bool(v);
}

// -- data and layout
// Megatron-LM runs train_samples // global_batch_size iterations (training.py,
// update_train_iters): the samples are whole steps, the same number of steps the other targets
// write (get_steps() below), not the tokens' samples rounded on their own (762,939 samples at a
// global batch of 32 ran 23,841 steps where NeMo's max_steps ran 23,842).
std::optional<Value> get_steps(const PlanSpec& s);
std::optional<Value> get_samples(const PlanSpec& s) {
    const std::optional<Value> steps = get_steps(s);
    if (!steps) {
        return std::nullopt;
    }
    return Value{as_int(*steps) * global_batch(s)};
}
void set_samples(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.data.tokens = static_cast<double>(as_int(v)) * static_cast<double>(s.data.seq_len);
}
// Optimizer steps: tokens / (global batch x sequence), rounded, and at least one: a run takes
// whole steps (the plan warns of fewer tokens than one step), and every framework refuses zero.
std::optional<Value> get_steps(const PlanSpec& s) {
    const double per_step = static_cast<double>(global_batch(s)) * s.data.seq_len;
    if (!(s.data.tokens > 0.0) || !(per_step > 0.0)) {
        return std::nullopt;
    }
    return Value{std::max<std::int64_t>(1, std::llround(s.data.tokens / per_step))};
}
void set_steps(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.data.tokens = static_cast<double>(as_int(v)) * static_cast<double>(global_batch(s)) *
                    static_cast<double>(s.data.seq_len);
}
std::optional<Value> get_global_or_unset(const PlanSpec& s) {
    return Value{s.data.global_batch > 0 ? s.data.global_batch : std::int64_t{-1}};
}
void set_global_or_unset(PlanSpec& s, const Value& v) {
    if (as_int(v) != -1 && as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "-1 (local batch x data-parallel degree) or an integer >= 1"));
    }
    s.data.global_batch = as_int(v) == -1 ? 0 : as_int(v);
}

std::optional<Value> get_nodes(const PlanSpec& s) {
    return Value{s.cluster.gpus / gpus_per_node(s)};
}
void set_nodes(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.cluster.gpus = as_int(v);
}
std::optional<Value> get_per_node(const PlanSpec& s) {
    return Value{gpus_per_node(s)};
}
void set_per_node(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.cluster.gpus *= as_int(v);
}
std::optional<Value> get_gpus(const PlanSpec& s) {
    return Value{s.cluster.gpus};
}
void set_gpus(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.cluster.gpus = as_int(v);
}

// The layers of the first and the last pipeline stage as Megatron-Core's
// --decoder-first/last-pipeline-num-layers (NeMo's num_layers_in_first/last_pipeline_stage):
// those the plan gives, or, when pp does not divide the layers, those of the spread the plan
// times (pipeline_stages.h), so that the run builds the stages the plan counts. Megatron
// refuses layers that pp does not divide without them.
bool uneven_default_stages(const PlanSpec& s) {
    const TrainingSpec& t = s.training;
    return t.pp > 1 && s.model.kind == ModelKind::transformer && t.first_stage_layers == 0 &&
           t.last_stage_layers == 0 && s.model.layers % t.pp != 0;
}
template <std::int64_t TrainingSpec::*Given, std::int64_t StageLayout::*Spread>
std::optional<Value> get_end_stage_layers(const PlanSpec& s) {
    if (s.training.*Given > 0) {
        return Value{s.training.*Given};
    }
    return uneven_default_stages(s) ? std::optional(Value{stage_layout(s).*Spread}) : std::nullopt;
}
template <std::int64_t TrainingSpec::*Given>
void set_end_stage_layers(PlanSpec& s, const Value& v) {
    if (as_int(v) < 0) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 0"));
    }
    s.training.*Given = as_int(v);
}
// Megatron-Core's other way of saying uneven end stages, the one an interleaved schedule needs:
// account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split count the
// embedding (the loss) as one more layer, spread layers + e + l evenly over pp x v virtual
// stages, and leave the first (last) stage one layer short (megatron/core/transformer/
// transformer_block.py, get_num_layers_to_build). With v > 1 Megatron-Core refuses end-stage
// counts that v does not divide (transformer_config.py), which is what the spread of 126 layers
// over 8 stages is (15 / 16 / 15) but for those two flags: (126 + 2) / 8 = 16, less one at each
// end. The flags (e, l) that give the plan's stages where v > 1, if any; (1, 1) first.
struct AccountSplit {
    bool embedding = false;
    bool loss = false;
};
// The layers of each middle stage where they are all equal (middle_extra of them hold one more:
// none or all), else nullopt; with pp <= 2 there is no middle stage (0).
std::optional<std::int64_t> uniform_middle(const StageLayout& layout, std::int64_t pp) {
    if (pp <= 2) {
        return 0;
    }
    if (layout.middle_extra == 0) {
        return layout.middle;
    }
    if (layout.middle_extra == pp - 2) {
        return layout.middle + 1;
    }
    return std::nullopt;
}
std::optional<AccountSplit> account_split(const PlanSpec& s) {
    const TrainingSpec& t = s.training;
    if (t.interleave <= 1 || t.pp <= 1 || s.model.kind != ModelKind::transformer ||
        (t.first_stage_layers == 0 && t.last_stage_layers == 0 && !uneven_default_stages(s))) {
        return std::nullopt;
    }
    const StageLayout layout = stage_layout(s);
    for (const AccountSplit a :
         {AccountSplit{true, true}, AccountSplit{true, false}, AccountSplit{false, true}}) {
        const std::int64_t counted = s.model.layers + (a.embedding ? 1 : 0) + (a.loss ? 1 : 0);
        if (counted % (t.pp * t.interleave) != 0) {
            continue;
        }
        const std::int64_t per_stage = counted / t.pp;
        const std::optional<std::int64_t> middle = uniform_middle(layout, t.pp);
        if (layout.first == per_stage - (a.embedding ? 1 : 0) &&
            layout.last == per_stage - (a.loss ? 1 : 0) &&
            (t.pp <= 2 || (middle && *middle == per_stage))) {
            return a;
        }
    }
    return std::nullopt;
}
std::optional<Value> get_account_embedding(const PlanSpec& s) {
    const std::optional<AccountSplit> a = account_split(s);
    return a && a->embedding ? std::optional(Value{true}) : std::nullopt;
}
std::optional<Value> get_account_loss(const PlanSpec& s) {
    const std::optional<AccountSplit> a = account_split(s);
    return a && a->loss ? std::optional(Value{true}) : std::nullopt;
}
// Read as a boolean here; finish_megatron() turns the two into the end stages' layers, once the
// layers, pp and v are all known.
void set_account_flag(PlanSpec&, const Value& v) {
    (void)as_bool(v);
}
template <std::int64_t TrainingSpec::*Given, std::int64_t StageLayout::*Spread>
std::optional<Value> get_end_stage_layers_unless_accounted(const PlanSpec& s) {
    return account_split(s) ? std::nullopt : get_end_stage_layers<Given, Spread>(s);
}

// With v > 1 Megatron-Core needs each stage's layers divisible by v (transformer_config.py):
// end stages that neither that nor the two accounting flags express are refused.
std::optional<FieldError> refuse_interleaved_uneven_ends(const PlanSpec& s,
                                                         std::string_view title) {
    const TrainingSpec& t = s.training;
    if (t.interleave <= 1 || t.pp <= 1 || s.model.kind != ModelKind::transformer ||
        (t.first_stage_layers == 0 && t.last_stage_layers == 0 && !uneven_default_stages(s)) ||
        account_split(s)) {
        return std::nullopt;
    }
    const StageLayout layout = stage_layout(s);
    const std::optional<std::int64_t> middle = uniform_middle(layout, t.pp);
    const bool divisible = layout.first % t.interleave == 0 && layout.last % t.interleave == 0 &&
                           middle && *middle % t.interleave == 0;
    if (divisible) {
        return std::nullopt;
    }
    return refusal("training.first_stage_layers", fmt::format("{} / {}", layout.first, layout.last),
                   TALLY_TEXT("tally::launch",
                              "with interleaving (v %1), stage layers that v divides, or the "
                              "spread of layers + 1 or + 2 over pp x v virtual stages less one "
                              "at an end (%2 cannot express other end stages)")
                       .arg(t.interleave)
                       .arg_translated("tally::launch", title.data()));
}

constexpr auto get_first_stage_layers =
    get_end_stage_layers<&TrainingSpec::first_stage_layers, &StageLayout::first>;
constexpr auto set_first_stage_layers = set_end_stage_layers<&TrainingSpec::first_stage_layers>;
constexpr auto get_last_stage_layers =
    get_end_stage_layers<&TrainingSpec::last_stage_layers, &StageLayout::last>;
constexpr auto set_last_stage_layers = set_end_stage_layers<&TrainingSpec::last_stage_layers>;

// Megatron-Core builds the stages between the first and the last with equal layers (the rest
// over pp - 2, which must divide it): a spread whose middle stages differ it cannot express.
std::optional<FieldError> refuse_uneven_middle_stages(const PlanSpec& s, std::string_view title) {
    const TrainingSpec& t = s.training;
    if (t.pp <= 2 || s.model.kind != ModelKind::transformer) {
        return std::nullopt;
    }
    const StageLayout layout = stage_layout(s);
    // The spread the plan times when pp does not divide the layers may leave an end stage with
    // the embedding or the output layer alone, which the two flags cannot say (0 is "not set").
    if (uneven_default_stages(s) && (layout.first == 0 || layout.last == 0)) {
        return refusal("training.first_stage_layers",
                       fmt::format("{} / {}", layout.first, layout.last),
                       TALLY_TEXT("tally::launch",
                                  "first and last stage layers of at least 1 each, set in the "
                                  "plan (%1 cannot leave a stage without transformer layers)")
                           .arg_translated("tally::launch", title.data()));
    }
    // middle_extra of the pp - 2 middle stages hold one layer more: all or none is even.
    if (layout.even || layout.middle_extra == 0 || layout.middle_extra == t.pp - 2) {
        return std::nullopt;
    }
    return refusal("training.first_stage_layers", fmt::format("{} / {}", layout.first, layout.last),
                   TALLY_TEXT("tally::launch",
                              "first and last stage layers that leave each of the other %1 "
                              "stages the same number of layers: %2 spreads the %3 layers "
                              "between the first and the last stage evenly or not at all (set "
                              "training.first_stage_layers and last_stage_layers, or another pp)")
                       .arg(t.pp - 2)
                       .arg_translated("tally::launch", title.data())
                       .arg(s.model.layers - layout.first - layout.last));
}

// Megatron-LM names the interleave by layers per virtual stage, counting the embedding and the
// loss as layers where the accounting flags say so: (layers + e + l) / (pp x v)
// (megatron/training/arguments.py, core_v0.12.0: num_layers += 1 for each flag, then
// num_layers / pp / num_layers_per_virtual_pipeline_stage virtual stages). End stages given by
// their counts instead need --num-virtual-stages-per-pipeline-rank (arguments.py refuses
// --decoder-first/last-pipeline-num-layers beside layers per virtual stage).
std::optional<Value> get_layers_per_virtual(const PlanSpec& s) {
    const TrainingSpec& t = s.training;
    if (t.interleave <= 1) {
        return std::nullopt;
    }
    if (const std::optional<AccountSplit> a = account_split(s)) {
        const std::int64_t counted = s.model.layers + (a->embedding ? 1 : 0) + (a->loss ? 1 : 0);
        return Value{counted / (t.pp * t.interleave)};
    }
    if (!stage_layout(s).even) {
        return std::nullopt;  // --num-virtual-stages-per-pipeline-rank says it
    }
    return Value{s.model.layers / (t.pp * t.interleave)};
}
// Read as given; finish_megatron() turns it into v once the accounting flags are known (the
// layers per stage they count differ). Kept negative until then.
void set_layers_per_virtual(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.training.interleave = -as_int(v);
}
std::optional<Value> get_virtual_stages_per_rank(const PlanSpec& s) {
    const TrainingSpec& t = s.training;
    if (t.interleave <= 1 || account_split(s) || stage_layout(s).even) {
        return std::nullopt;
    }
    return Value{t.interleave};
}
std::optional<Value> get_virtual_stages(const PlanSpec& s) {
    return s.training.interleave > 1 ? std::optional(Value{s.training.interleave}) : std::nullopt;
}
void set_virtual_stages(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.training.interleave = as_int(v);
}

std::optional<Value> get_sequence_parallel(const PlanSpec& s) {
    return Value{s.training.sequence_parallel};
}
void set_sequence_parallel(PlanSpec& s, const Value& v) {
    s.training.sequence_parallel = as_bool(v);
}

// -- recomputation (Korthikanti et al. 2022: selective = the attention core; full = each layer
// from its input, Megatron's "uniform" method with one layer per checkpoint)
std::optional<Value> get_granularity(const PlanSpec& s) {
    switch (s.training.recompute) {
        case Recompute::selective:
            return Value{std::string("selective")};
        case Recompute::full:
            return Value{std::string("full")};
        default:
            return std::nullopt;
    }
}
void set_granularity(PlanSpec& s, const Value& v) {
    const std::string& t = as_text(v);
    if (t == "full") {
        s.training.recompute = Recompute::full;
    } else if (t == "selective") {
        s.training.recompute = Recompute::selective;
    } else if (t == "None" || t == "none" || t.empty()) {
        s.training.recompute = Recompute::none;
    } else {
        refuse_value(v, TALLY_TEXT("tally::launch", "full or selective"));
    }
}
// Megatron-Core's recompute modules (--recompute-modules, NeMo's recompute_modules;
// TransformerConfig, core_v0.12.0): the modules a selective recomputation repeats, written where
// they are more than the attention core, its default. Read back as given; finish_megatron() drops
// them where the granularity is not selective, as Megatron-Core ignores them there.
std::optional<Value> get_recompute_modules(const PlanSpec& s) {
    const RecomputeModules& m = s.training.recompute_modules;
    if (s.training.recompute != Recompute::selective || !m.beyond_core()) {
        return std::nullopt;
    }
    Words words;
    for (const std::string_view name : recompute_module_names(m)) {
        words.items.emplace_back(name);
    }
    return Value{words};
}
void set_recompute_modules(PlanSpec& s, const Value& v) {
    RecomputeModules m;
    for (const std::string& name : std::get<Words>(v).items) {
        if (!add_recompute_module(m, name)) {
            refuse_value(Value{name},
                         TALLY_TEXT("tally::launch",
                                    "core_attn, layernorm, mla_up_proj, moe_act or mlp (the "
                                    "recompute modules Tally times)"));
        }
    }
    s.training.recompute_modules = m;
}

// Megatron's --recompute-method: uniform (with --recompute-num-layers 1: every layer, its
// input kept) or block (the first --recompute-num-layers layers of each model chunk recomputed,
// the others keeping everything: training.recompute_layers). The method is read before the
// count: block leaves -1 in recompute_layers until the count arrives.
std::optional<Value> get_recompute_method(const PlanSpec& s) {
    if (s.training.recompute != Recompute::full) {
        return std::nullopt;
    }
    return Value{std::string(s.training.recompute_layers > 0 ? "block" : "uniform")};
}
void set_recompute_method(PlanSpec& s, const Value& v) {
    if (s.training.recompute != Recompute::full) {
        return;
    }
    if (as_text(v) == "block") {
        s.training.recompute_layers = -1;
    } else if (as_text(v) != "uniform") {
        refuse_value(v, TALLY_TEXT("tally::launch", "uniform or block"));
    }
}
// Megatron-LM's arguments: validate_args() asserts that no method is given with selective
// recomputation ("recompute method is not yet supported for selective recomputing
// granularity"), so such a launch stops before training. Megatron-Core's TransformerConfig (NeMo's
// model.config) lets the method be and ignores it.
void set_recompute_method_argument(PlanSpec& s, const Value& v) {
    if (s.training.recompute == Recompute::selective) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "no method with selective recomputation: Megatron-LM stops on "
                                   "one (\"recompute method is not yet supported for selective "
                                   "recomputing granularity\")"));
    }
    set_recompute_method(s, v);
}
std::optional<Value> get_recompute_layers(const PlanSpec& s) {
    if (s.training.recompute != Recompute::full) {
        return std::nullopt;
    }
    return Value{s.training.recompute_layers > 0 ? s.training.recompute_layers : std::int64_t{1}};
}
void set_recompute_layers(PlanSpec& s, const Value& v) {
    if (s.training.recompute == Recompute::selective) {
        // Megatron-Core's TransformerConfig.__post_init__: "When using recompute_granularity:
        // selective recompute_num_layers must be None."
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "no layer count with selective recomputation: Megatron-Core "
                                   "stops on one (\"recompute_num_layers must be None\")"));
    }
    if (s.training.recompute != Recompute::full) {
        return;
    }
    if (s.training.recompute_layers == -1) {
        if (as_int(v) < 1) {
            refuse_value(v,
                         TALLY_TEXT("tally::launch",
                                    "at least 1: the layers of each model chunk the block method "
                                    "recomputes"));
        }
        s.training.recompute_layers = as_int(v);
    } else if (as_int(v) != 1) {
        refuse_value(v,
                     TALLY_TEXT("tally::launch",
                                "1 with the uniform method: Tally's full recomputation keeps every "
                                "layer's input (the block method recomputes some layers)"));
    }
}
std::optional<FieldError> refuse_partial_recompute(const PlanSpec& s, std::string_view title) {
    if (s.training.recompute != Recompute::full || s.training.recompute_layers <= 0) {
        return std::nullopt;
    }
    return refusal(
        "training.recompute_layers", std::to_string(s.training.recompute_layers),
        TALLY_TEXT("tally::launch",
                   "0 for this framework: it recomputes every layer or none (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}
// torchtitan's activation_checkpoint.mode.
std::optional<Value> get_ac_mode(const PlanSpec& s) {
    return name_of(kTorchtitanModes, s.training.recompute);
}
void set_ac_mode(PlanSpec& s, const Value& v) {
    s.training.recompute = pick(
        kTorchtitanModes, v,
        TALLY_TEXT("tally::launch", "%1, %2 or %3 (memory_budget has no layer rule Tally plans)"));
}
// A whole-layer switch (accelerate's fsdp_activation_checkpointing).
std::optional<Value> get_full_recompute(const PlanSpec& s) {
    return Value{s.training.recompute == Recompute::full};
}
void set_full_recompute(PlanSpec& s, const Value& v) {
    s.training.recompute = as_bool(v) ? Recompute::full : Recompute::none;
}
// DeepSpeed's activation_checkpointing section: present when full (DeepSpeed's checkpointing
// API checkpoints what the model wraps, a layer each).
std::optional<Value> get_ds_checkpointing(const PlanSpec& s) {
    return s.training.recompute == Recompute::full ? std::optional(Value{false}) : std::nullopt;
}
void set_ds_checkpointing(PlanSpec& s, const Value&) {
    s.training.recompute = Recompute::full;
}

// -- optimizer sharding, offload, optimizer
std::optional<Value> get_distributed_optimizer(const PlanSpec& s) {
    return Value{s.training.zero == 1};
}
void set_distributed_optimizer(PlanSpec& s, const Value& v) {
    s.training.zero = as_bool(v) ? 1 : 0;
}
std::optional<Value> get_zero(const PlanSpec& s) {
    return Value{static_cast<std::int64_t>(s.training.zero)};
}
void set_zero(PlanSpec& s, const Value& v) {
    if (as_int(v) < 0 || as_int(v) > 3) {
        refuse_value(v, TALLY_TEXT("tally::launch", "0, 1, 2 or 3"));
    }
    s.training.zero = static_cast<int>(as_int(v));
}
std::optional<Value> get_overlap(const PlanSpec& s) {
    return Value{s.training.dp_overlap};
}
void set_overlap(PlanSpec& s, const Value& v) {
    s.training.dp_overlap = as_bool(v);
}
std::optional<Value> get_tp_comm_overlap(const PlanSpec& s) {
    return Value{s.training.tp_comm_overlap};
}
void set_tp_comm_overlap(PlanSpec& s, const Value& v) {
    s.training.tp_comm_overlap = as_bool(v);
}
// NeMo 2's model.config.cpu_offloading: the switch beside cpu_offloading_num_layers, which
// the table reads first, so that a switch turned off clears the count.
std::optional<Value> get_cpu_offloading(const PlanSpec& s) {
    return s.training.activation_offload_layers > 0 ? std::optional(Value{true}) : std::nullopt;
}
void set_cpu_offloading(PlanSpec& s, const Value& v) {
    if (!as_bool(v)) {
        s.training.activation_offload_layers = 0;
    }
}
// What the offloaded layers leave in host memory: Tally plans their activations only. Megatron-
// Core's cpu_offloading_weights defaulted to True before it turned False (ModelParallelConfig),
// so the export says false, and a file that offloads weights too is refused.
std::optional<Value> get_cpu_offloading_weights(const PlanSpec& s) {
    return s.training.activation_offload_layers > 0 ? std::optional(Value{false}) : std::nullopt;
}
void set_cpu_offloading_weights(PlanSpec& s, const Value& v) {
    if (as_bool(v) && s.training.activation_offload_layers > 0) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "false: Tally plans the offloaded layers' activations, not "
                                   "their weights"));
    }
}
std::optional<FieldError> refuse_activation_offload(const PlanSpec& s, std::string_view title) {
    if (s.training.activation_offload_layers == 0) {
        return std::nullopt;
    }
    return refusal("training.activation_offload_layers",
                   std::to_string(s.training.activation_offload_layers),
                   TALLY_TEXT("tally::launch",
                              "0 for this framework: it has no setting that offloads a layer's "
                              "activations (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}
std::optional<FieldError> refuse_ep_comm_overlap(const PlanSpec& s, std::string_view title) {
    if (!s.training.ep_comm_overlap) {
        return std::nullopt;
    }
    // Megatron-LM names it --overlap-moe-expert-parallel-comm after core_v0.12.0, the release
    // whose arguments these tables follow.
    return refusal(
        "training.ep_comm_overlap", "true",
        TALLY_TEXT("tally::launch",
                   "false for this framework's arguments here: they have no expert-parallel "
                   "overlap setting (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}
// Megatron-Core's token dispatcher (--moe-token-dispatcher-type): "flex" is the node-deduplicating
// one, run with DeepEP (--moe-enable-deepep, core_v0.12.0); alltoall sends each token copy to its
// expert's rank, which is what Tally times. A mixture of experts is written with its dispatcher
// always: left out, Megatron-Core runs allgather (arguments.py and TransformerConfig's default),
// which gathers every rank's tokens instead. Read back, allgather and alltoall_seq are timed as
// the all-to-all, and the import says so.
std::optional<Value> get_dispatcher_type(const PlanSpec& s) {
    if (s.model.kind != ModelKind::transformer || s.model.moe.experts == 0) {
        return std::nullopt;
    }
    return Value{
        std::string(s.training.moe_dispatcher == MoeDispatcher::flex ? "flex" : "alltoall")};
}
void set_dispatcher_type(PlanSpec& s, const Value& v) {
    const std::string t = as_text(v);
    if (t == "flex") {
        s.training.moe_dispatcher = MoeDispatcher::flex;
    } else if (t == "allgather" || t == "alltoall" || t == "alltoall_seq") {
        s.training.moe_dispatcher = MoeDispatcher::alltoall;
    } else {
        refuse_value(v, TALLY_TEXT("tally::launch", "allgather, alltoall, alltoall_seq or flex"));
    }
}
// Megatron-LM runs a rank's experts as one grouped GEMM only with --moe-grouped-gemm (its
// default is off: SequentialMLP, each local expert's GEMMs one after another,
// megatron/core/models/gpt/gpt_layer_specs.py); Tally times the experts' GEMMs grouped, so a
// mixture of experts is written with it; NeMo's overrides too (TransformerConfig.moe_grouped_gemm,
// default False), whatever the recipe they lie over sets.
std::optional<Value> get_grouped_gemm(const PlanSpec& s) {
    return s.model.kind == ModelKind::transformer && s.model.moe.experts > 0
               ? std::optional(Value{true})
               : std::nullopt;
}
void set_grouped_gemm(PlanSpec&, const Value& v) {
    (void)as_bool(v);  // how the experts run, not what the plan holds
}
std::optional<Value> get_enable_deepep(const PlanSpec& s) {
    return s.training.moe_dispatcher == MoeDispatcher::flex ? std::optional(Value{true})
                                                            : std::nullopt;
}
void set_enable_deepep(PlanSpec& s, const Value& v) {
    if (as_bool(v)) {
        s.training.moe_dispatcher = MoeDispatcher::flex;
    }
}
std::optional<FieldError> refuse_flex_dispatcher(const PlanSpec& s, std::string_view title) {
    if (s.training.moe_dispatcher != MoeDispatcher::flex) {
        return std::nullopt;
    }
    return refusal("training.moe_dispatcher", "flex",
                   TALLY_TEXT("tally::launch",
                              "alltoall for this framework: it has no node-deduplicating token "
                              "dispatcher (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}
// PyTorch FSDP's backward prefetch (accelerate's fsdp_backward_prefetch): BACKWARD_PRE issues
// the next layer's gather before the current layer's gradients, BACKWARD_POST after them;
// NO_PREFETCH issues it only when the next layer's backward starts, so its gather is exposed as
// BACKWARD_POST's is.
std::optional<Value> get_backward_prefetch(const PlanSpec& s) {
    if (s.training.zero == 0) {
        return std::nullopt;
    }
    return Value{std::string(s.training.fsdp_backward_prefetch == FsdpBackwardPrefetch::post
                                 ? "BACKWARD_POST"
                                 : "BACKWARD_PRE")};
}
void set_backward_prefetch(PlanSpec& s, const Value& v) {
    const std::string& t = as_text(v);
    if (t == "BACKWARD_PRE") {
        s.training.fsdp_backward_prefetch = FsdpBackwardPrefetch::pre;
    } else if (t == "BACKWARD_POST" || t == "NO_PREFETCH") {
        s.training.fsdp_backward_prefetch = FsdpBackwardPrefetch::post;
    } else {
        refuse_value(v, TALLY_TEXT("tally::launch", "BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH"));
    }
}
// The other frameworks' fully sharded modes gather ahead of the backward by design (FSDP2's
// implicit prefetch, Megatron-FSDP, DeepSpeed ZeRO-3's prefetch bucket): none has a setting that
// waits for the current layer's gradients first.
std::optional<FieldError> refuse_backward_prefetch_post(const PlanSpec& s, std::string_view title) {
    if (s.training.zero < 3 || s.training.fsdp_backward_prefetch != FsdpBackwardPrefetch::post) {
        return std::nullopt;
    }
    return refusal("training.fsdp_backward_prefetch", "post",
                   TALLY_TEXT("tally::launch",
                              "pre for this framework: its sharded mode gathers the next layer's "
                              "parameters before the current layer's gradients, with no setting to "
                              "wait (%1 cannot express it)")
                       .arg_translated("tally::launch", title.data()));
}
// Megatron-LM and NeMo run Transformer Engine's or Apex's FusedAdam
// (megatron/core/optimizer/__init__.py): no setting makes the update a pass per operation. A
// plan that asks for foreach itself is refused; one that takes its engine's is written as these
// frameworks run it.
std::optional<FieldError> refuse_optimizer_foreach(const PlanSpec& s, std::string_view title) {
    if (s.training.optimizer_impl != OptimizerImpl::foreach) {
        return std::nullopt;
    }
    return refusal(
        "training.optimizer_impl", "foreach",
        TALLY_TEXT("tally::launch",
                   "fused or engine for this framework: it runs Transformer Engine's or Apex's "
                   "FusedAdam (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}
// Megatron-Core computes the loss with Transformer Engine's parallel_cross_entropy under
// --cross-entropy-loss-fusion with --cross-entropy-fusion-impl te (language_module.py
// compute_language_model_loss), which up to Transformer Engine 2.17 writes the gradient over the
// 16-bit logits it keeps (training.cross_entropy in_place); the native fusion and the unfused
// vocab_parallel_cross_entropy keep an fp32 softmax. Written for in_place only; read by
// finish_megatron(), which needs both settings.
std::optional<Value> get_ce_fusion(const PlanSpec& s) {
    return s.training.cross_entropy == CrossEntropy::in_place ? std::optional(Value{true})
                                                              : std::nullopt;
}
void set_ce_fusion(PlanSpec&, const Value& v) {
    (void)as_bool(v);
}
std::optional<Value> get_ce_impl(const PlanSpec& s) {
    return s.training.cross_entropy == CrossEntropy::in_place
               ? std::optional(Value{std::string("te")})
               : std::nullopt;
}
void set_ce_impl(PlanSpec&, const Value& v) {
    const std::string t = as_text(v);
    if (t != "native" && t != "te") {
        refuse_value(v, TALLY_TEXT("tally::launch", "native or te"));
    }
}
// Frameworks whose loss is PyTorch's cross-entropy (an fp32 softmax kept per logit).
std::optional<FieldError> refuse_in_place_cross_entropy(const PlanSpec& s, std::string_view title) {
    if (s.training.cross_entropy != CrossEntropy::in_place) {
        return std::nullopt;
    }
    return refusal(
        "training.cross_entropy", "in_place",
        TALLY_TEXT("tally::launch",
                   "fp32 for this framework: its loss is PyTorch's cross-entropy, which keeps an "
                   "fp32 softmax per logit (%1 cannot express Transformer Engine's in-place one)")
            .arg_translated("tally::launch", title.data()));
}
std::optional<FieldError> refuse_tp_comm_overlap(const PlanSpec& s, std::string_view title) {
    if (!s.training.tp_comm_overlap) {
        return std::nullopt;
    }
    return refusal(
        "training.tp_comm_overlap", "true",
        TALLY_TEXT("tally::launch",
                   "false for this framework: it has no setting for Transformer Engine's "
                   "tensor-parallel overlap (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}
std::optional<Value> get_offload_optimizer(const PlanSpec& s) {
    return Value{s.training.offload != Offload::none};
}
void set_offload_optimizer(PlanSpec& s, const Value& v) {
    s.training.offload = as_bool(v) ? Offload::optimizer : Offload::none;
}
std::optional<Value> get_offload_all(const PlanSpec& s) {
    return Value{s.training.offload == Offload::optimizer_and_params};
}
void set_offload_all(PlanSpec& s, const Value& v) {
    s.training.offload = as_bool(v) ? Offload::optimizer_and_params : Offload::none;
}
// DeepSpeed: zero_optimization.offload_optimizer.device and offload_param.device.
std::optional<Value> get_ds_offload_optimizer(const PlanSpec& s) {
    return Value{std::string(s.training.offload == Offload::none ? "none" : "cpu")};
}
void set_ds_offload_optimizer(PlanSpec& s, const Value& v) {
    if (as_text(v) != "cpu" && as_text(v) != "none") {
        refuse_value(v, TALLY_TEXT("tally::launch", "cpu or none (nvme is not planned)"));
    }
    s.training.offload = as_text(v) == "cpu" ? Offload::optimizer : Offload::none;
}
std::optional<Value> get_ds_offload_param(const PlanSpec& s) {
    return Value{std::string(s.training.offload == Offload::optimizer_and_params ? "cpu" : "none")};
}
void set_ds_offload_param(PlanSpec& s, const Value& v) {
    if (as_text(v) != "cpu" && as_text(v) != "none") {
        refuse_value(v, TALLY_TEXT("tally::launch", "cpu or none (nvme is not planned)"));
    }
    if (as_text(v) == "cpu") {
        if (s.training.offload != Offload::optimizer) {
            refuse_value(
                v, TALLY_TEXT("tally::launch", "none unless offload_optimizer.device is cpu too"));
        }
        s.training.offload = Offload::optimizer_and_params;
    }
}
std::optional<Value> get_megatron_optimizer(const PlanSpec& s) {
    return name_of(kMegatronOptimizers, s.training.optimizer);
}
void set_megatron_optimizer(PlanSpec& s, const Value& v) {
    s.training.optimizer = pick(kMegatronOptimizers, v);
}
std::optional<Value> get_ds_optimizer(const PlanSpec& s) {
    return name_of(kDeepSpeedOptimizers, s.training.optimizer);
}
void set_ds_optimizer(PlanSpec& s, const Value& v) {
    s.training.optimizer = pick(kDeepSpeedOptimizers, v);
}

// -- precision
std::optional<Value> get_bf16(const PlanSpec& s) {
    return Value{precision_of(s) == Precision::bf16};
}
void set_bf16(PlanSpec& s, const Value& v) {
    set_precision(s, as_bool(v) ? Precision::bf16 : Precision::fp32);
}
void set_fp16(PlanSpec& s, const Value& v) {
    if (as_bool(v)) {
        if (s.training.param_dtype == DType::bf16) {
            refuse_value(
                v, TALLY_TEXT("tally::launch", "false when bf16 is on: one precision per run"));
        }
        set_precision(s, Precision::fp16);
    }
}
// Megatron-LM's --bf16 and --fp16, whose gradients may be fp32 (below).
std::optional<Value> get_megatron_bf16(const PlanSpec& s) {
    return Value{precision_of(s, true) == Precision::bf16};
}
std::optional<Value> get_megatron_fp16(const PlanSpec& s) {
    return Value{precision_of(s, true) == Precision::fp16};
}
// Megatron-LM's gradient precision (megatron/training/arguments.py, validate_args): under --bf16
// the gradients are accumulated and all-reduced in fp32 ("bfloat16 requires gradient
// accumulation and all-reduce to be done in fp32") unless --grad-reduce-in-bf16; under --fp16
// they stay fp16 unless --accumulate-allreduce-grads-in-fp32.
std::optional<Value> get_accumulate_in_fp32(const PlanSpec& s) {
    return Value{precision_of(s, true) == Precision::fp16 && s.training.grad_dtype == DType::fp32};
}
void set_accumulate_in_fp32(PlanSpec& s, const Value& v) {
    if (as_bool(v) && s.training.param_dtype == DType::fp16) {
        s.training.grad_dtype = DType::fp32;
    }
}
std::optional<Value> get_grad_reduce_in_bf16(const PlanSpec& s) {
    return Value{precision_of(s, true) == Precision::bf16 && s.training.grad_dtype == DType::bf16};
}
void set_grad_reduce_in_bf16(PlanSpec& s, const Value& v) {
    if (s.training.param_dtype != DType::bf16) {
        if (as_bool(v)) {
            refuse_value(v, TALLY_TEXT("tally::launch", "given only with --bf16"));
        }
        return;
    }
    s.training.grad_dtype = as_bool(v) ? DType::bf16 : DType::fp32;
}
// NeMo 2's bf16-mixed plugin: MegatronMixedPrecision(grad_reduce_in_fp32=True) by default
// (nemo/lightning/pytorch/plugins/mixed_precision.py), which overrides the DDP config's.
std::optional<Value> get_grad_reduce_in_fp32(const PlanSpec& s) {
    if (precision_of(s, true) != Precision::bf16) {
        return std::nullopt;
    }
    return Value{s.training.grad_dtype == DType::fp32};
}
void set_grad_reduce_in_fp32(PlanSpec& s, const Value& v) {
    if (s.training.param_dtype == DType::bf16) {
        s.training.grad_dtype = as_bool(v) ? DType::fp32 : DType::bf16;
    }
}

// A single name for the precision (accelerate's mixed_precision; torchtitan's
// training.mixed_precision_param).
template <const char* Fp32, const char* Bf16, const char* Fp16>
std::optional<Value> get_precision_name(const PlanSpec& s) {
    const std::optional<Precision> p = precision_of(s);
    if (p == Precision::fp16 && Fp16[0] == '\0') {
        return std::nullopt;
    }
    return Value{std::string(p == Precision::bf16 ? Bf16 : p == Precision::fp16 ? Fp16 : Fp32)};
}
template <const char* Fp32, const char* Bf16, const char* Fp16>
void set_precision_name(PlanSpec& s, const Value& v) {
    const std::string& t = as_text(v);
    if (t == Bf16) {
        set_precision(s, Precision::bf16);
    } else if (t == Fp32) {
        set_precision(s, Precision::fp32);
    } else if (Fp16[0] != '\0' && t == Fp16) {
        set_precision(s, Precision::fp16);
    } else {
        refuse_value(v,
                     Fp16[0] != '\0'
                         ? TALLY_TEXT("tally::launch", "%1, %2 or %3").arg(Bf16).arg(Fp16).arg(Fp32)
                         : TALLY_TEXT("tally::launch", "%1 or %2").arg(Bf16).arg(Fp32));
    }
}
// Transformer Engine's fp8 as Megatron names it: "hybrid" (E4M3 forward, E5M2 gradients, TE's
// default format) or "e4m3".
std::optional<Value> get_fp8_format(const PlanSpec& s) {
    return is_fp8(s.training.compute_dtype) ? std::optional(Value{std::string("hybrid")})
                                            : std::nullopt;
}
void set_fp8_format(PlanSpec& s, const Value& v) {
    if (as_text(v) == "None") {
        return;
    }
    if (as_text(v) != "hybrid" && as_text(v) != "e4m3") {
        refuse_value(v, TALLY_TEXT("tally::launch", "hybrid or e4m3"));
    }
    if (s.training.param_dtype == DType::fp32) {
        refuse_value(
            v, TALLY_TEXT("tally::launch", "fp8 with bf16 or fp16 parameters (--bf16 or --fp16)"));
    }
    s.training.compute_dtype = DType::fp8_e4m3;
}
// Transformer Engine's NVFP4 as Megatron-LM names it (core_v0.15.0 on: --fp4-format e2m1,
// --fp4-recipe nvfp4, its only recipe).
std::optional<Value> get_fp4_format(const PlanSpec& s) {
    return s.training.compute_dtype == DType::nvfp4 ? std::optional(Value{std::string("e2m1")})
                                                    : std::nullopt;
}
void set_fp4_format(PlanSpec& s, const Value& v) {
    if (as_text(v) == "None") {
        return;
    }
    if (as_text(v) != "e2m1") {
        refuse_value(v, TALLY_TEXT("tally::launch", "e2m1"));
    }
    if (s.training.param_dtype != DType::bf16) {
        refuse_value(v, TALLY_TEXT("tally::launch", "fp4 with bf16 parameters (--bf16)"));
    }
    if (is_fp8(s.training.compute_dtype)) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "fp4 or fp8, not both (Megatron-LM refuses --fp4-format "
                                   "beside --fp8-format)"));
    }
    s.training.compute_dtype = DType::nvfp4;
}
std::optional<Value> get_fp4_recipe(const PlanSpec& s) {
    return s.training.compute_dtype == DType::nvfp4 ? std::optional(Value{std::string("nvfp4")})
                                                    : std::nullopt;
}
void set_fp4_recipe(PlanSpec&, const Value& v) {
    if (as_text(v) != "nvfp4") {
        refuse_value(v, TALLY_TEXT("tally::launch", "nvfp4"));
    }
}
std::optional<Value> get_fp8_recipe(const PlanSpec& s) {
    if (!is_fp8(s.training.compute_dtype)) {
        return std::nullopt;
    }
    return name_of(kFp8Recipes, s.training.fp8_recipe);
}
void set_fp8_recipe(PlanSpec& s, const Value& v) {
    s.training.fp8_recipe = pick(kFp8Recipes, v);
}
// Megatron-Core's --attention-backend (megatron/core/transformer/enums.py, AttnBackend) picks
// Transformer Engine's attention: flash (FlashAttention, -2 or -3 as installed), fused (cuDNN's
// fused attention), unfused or local (no fused kernel), auto (Transformer Engine chooses, which
// the megatron engine's default kernel stands for: engine.cpp). The kernel the plan times is the
// one written: its engine default as auto, cuDNN as fused, FlashAttention-2 or -3 as flash.
std::optional<Value> get_attention_backend(const PlanSpec& s) {
    if (!s.training.flash_attention) {
        return Value{std::string("unfused")};
    }
    switch (s.training.attention_kernel) {
        case AttentionKernel::cudnn:
            return Value{std::string("fused")};
        case AttentionKernel::flash2:
        case AttentionKernel::flash3:
        case AttentionKernel::triton:  // refused (refuse_attention_kernel_not_te)
        case AttentionKernel::flash1:
            return Value{std::string("flash")};
        case AttentionKernel::engine:
            break;
    }
    return Value{std::string("auto")};
}
void set_attention_backend(PlanSpec& s, const Value& v) {
    // Megatron-LM's AttnBackend (megatron/core/transformer/enums.py) prints as AttnBackend.x.
    std::string t = as_text(v);
    if (t.rfind("AttnBackend.", 0) == 0) {
        t = t.substr(12);
    }
    AttentionKernel& kernel = s.training.attention_kernel;
    if (t == "flash") {
        s.training.flash_attention = true;
        if (kernel != AttentionKernel::flash2 && kernel != AttentionKernel::flash3) {
            kernel = AttentionKernel::flash2;
        }
    } else if (t == "fused") {
        s.training.flash_attention = true;
        kernel = AttentionKernel::cudnn;
    } else if (t == "auto") {
        s.training.flash_attention = true;
        kernel = AttentionKernel::engine;
    } else if (t == "unfused" || t == "local") {
        s.training.flash_attention = false;
    } else {
        refuse_value(v, TALLY_TEXT("tally::launch", "flash, fused, unfused, local or auto"));
    }
}
// Transformer Engine runs FlashAttention or cuDNN's kernel, not the first FlashAttention nor
// its Triton port.
std::optional<FieldError> refuse_attention_kernel_not_te(const PlanSpec& s,
                                                         std::string_view title) {
    const AttentionKernel k = s.training.attention_kernel;
    if (!s.training.flash_attention ||
        (k != AttentionKernel::triton && k != AttentionKernel::flash1)) {
        return std::nullopt;
    }
    return refusal("training.attention_kernel", std::string(to_string(k)),
                   TALLY_TEXT("tally::launch",
                              "engine, flash2, flash3 or cudnn: %1 runs Transformer Engine's "
                              "attention, FlashAttention or cuDNN's fused kernel")
                       .arg_translated("tally::launch", title.data()));
}

// -- torchtitan: the model by flavour; FSDP's degrees
std::optional<Value> get_tt_name(const PlanSpec&) {
    return Value{std::string("llama3")};
}
void set_tt_name(PlanSpec& s, const Value& v) {
    s.model.name = as_text(v);  // the flavour row below resolves name + flavour
}
std::optional<Value> get_tt_flavour(const PlanSpec& s) {
    for (const char* f : {"8B", "70B", "405B"}) {
        if (architecture_only(*torchtitan_flavour("llama3", f)) == architecture_only(s.model)) {
            return Value{std::string(f)};
        }
    }
    return std::nullopt;  // refused by refuse_not_a_flavour
}
void set_tt_flavour(PlanSpec& s, const Value& v) {
    std::optional<ModelSpec> m = torchtitan_flavour(s.model.name, as_text(v));
    if (!m) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "a flavour of llama3 Tally has dimensions for (8B, 70B, "
                                   "405B); model %1 has none here, give the model's "
                                   "config.json instead")
                            .arg(s.model.name));
    }
    s.model = *m;
}
std::optional<FieldError> refuse_not_a_flavour(const PlanSpec& s, std::string_view title) {
    if (s.model.kind != ModelKind::transformer || get_tt_flavour(s)) {
        return std::nullopt;
    }
    return refusal(
        "model", s.model.name.empty() ? std::string("this model") : s.model.name,
        TALLY_TEXT("tally::launch",
                   "a torchtitan model flavour: torchtitan names its model by flavour, and this "
                   "model's dimensions match none of llama3 8B, 70B, 405B (%1 cannot express it)")
            .arg_translated("tally::launch", title.data()));
}
// FSDP2 over the data-parallel ranks: replicated (ZeRO-0), sharded (ZeRO-3), or sharded and kept
// whole after forward (reshard_after_forward "never": gradients and optimizer state sharded,
// ZeRO-2).
std::optional<Value> get_tt_replicate(const PlanSpec& s) {
    return Value{s.training.zero == 0 ? data_parallel(s) : std::int64_t{1}};
}
void set_tt_replicate(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.cluster.gpus = as_int(v);  // the data-parallel degree, multiplied out by the rows below
    s.training.zero = 0;
}
std::optional<Value> get_tt_shard(const PlanSpec& s) {
    return Value{s.training.zero == 0 ? std::int64_t{1} : data_parallel(s)};
}
void set_tt_shard(PlanSpec& s, const Value& v) {
    if (as_int(v) == -1) {
        s.cluster.gpus = -s.cluster.gpus;  // marks "all the remaining ranks" for finish()
        s.training.zero = 3;
        return;
    }
    if (as_int(v) < 1) {
        refuse_value(v,
                     TALLY_TEXT("tally::launch", "-1 (every remaining rank) or an integer >= 1"));
    }
    s.cluster.gpus *= as_int(v);
    s.training.zero = as_int(v) > 1 ? 3 : 0;
}
std::optional<Value> get_tt_reshard(const PlanSpec& s) {
    return Value{std::string(s.training.zero == 2 ? "never" : "default")};
}
void set_tt_reshard(PlanSpec& s, const Value& v) {
    const std::string& t = as_text(v);
    if (t != "default" && t != "always" && t != "never") {
        refuse_value(v, TALLY_TEXT("tally::launch", "default, always or never"));
    }
    if (t == "never" && s.training.zero == 3) {
        s.training.zero = 2;
    }
}
// A model-parallel degree multiplies the world size torchtitan is launched with.
template <auto Member>
std::optional<Value> get_tt_degree(const PlanSpec& s) {
    return Value{s.training.*Member};
}
template <auto Member>
void set_tt_degree(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.training.*Member = as_int(v);
    if constexpr (Member != &TrainingSpec::expert_parallel) {
        s.cluster.gpus *= as_int(v);
    }
}
// torchtitan's local batch is one data-parallel rank's share of the step; with a pipeline it is
// cut into pipeline_parallel_microbatch_size micro-batches (one pipeline flush per step).
std::optional<Value> get_tt_local_batch(const PlanSpec& s) {
    return Value{s.training.pp > 1 ? global_batch(s) / data_parallel(s) : s.data.micro_batch};
}
void set_tt_local_batch(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    s.data.micro_batch = as_int(v);
}
std::optional<Value> get_tt_pp_micro(const PlanSpec& s) {
    return s.training.pp > 1 ? std::optional(Value{s.data.micro_batch}) : std::nullopt;
}
void set_tt_pp_micro(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    if (s.training.pp > 1) {
        s.data.micro_batch = as_int(v);
    }
}
std::optional<Value> get_tt_compile(const PlanSpec& s) {
    return Value{s.training.engine == Engine::fsdp_compile};
}
void set_tt_compile(PlanSpec& s, const Value& v) {
    s.training.engine = as_bool(v) ? Engine::fsdp_compile : Engine::fsdp;
}
// torchtitan's optimizer.implementation ("fused" by default, torchtitan's job_config.py):
// "foreach" and "for-loop" make a pass over the parameters per operation, "fused" one.
std::optional<Value> get_tt_optimizer_impl(const PlanSpec& s) {
    return name_of(kTorchtitanOptimizerImpls, resolved_optimizer_impl(s.training));
}
void set_tt_optimizer_impl(PlanSpec& s, const Value& v) {
    s.training.optimizer_impl = pick(kTorchtitanOptimizerImpls, v);
}
// DeepSpeed's optimizer.params.torch_adam (false by default: DeepSpeed's FusedAdam; true:
// torch's Adam / AdamW, whose default on CUDA is the foreach implementation). Only Adam and AdamW
// take it.
std::optional<Value> get_ds_torch_adam(const PlanSpec& s) {
    if (!optimizer_impl_applies(s.training.optimizer)) {
        return std::nullopt;
    }
    return Value{resolved_optimizer_impl(s.training) == OptimizerImpl::foreach};
}
void set_ds_torch_adam(PlanSpec& s, const Value& v) {
    s.training.optimizer_impl = as_bool(v) ? OptimizerImpl::foreach : OptimizerImpl::fused;
}
std::optional<Value> get_tt_cpu_offload(const PlanSpec& s) {
    return Value{s.training.offload == Offload::optimizer_and_params};
}

// -- DeepSpeed batch: train_batch_size = micro x accumulation x GPUs (config-json.md)
std::optional<Value> get_accumulation(const PlanSpec& s) {
    const std::int64_t per_step = s.data.micro_batch * data_parallel(s);
    return Value{per_step > 0 ? global_batch(s) / per_step : std::int64_t{1}};
}
void set_accumulation(PlanSpec& s, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
    const std::int64_t per_gpu = s.data.micro_batch * as_int(v);
    if (s.data.global_batch <= 0) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "given with train_batch_size: Tally reads the GPU count from "
                                   "train_batch_size / (train_micro_batch_size_per_gpu x this)"));
    }
    if (s.data.global_batch % per_gpu != 0) {
        refuse_value(v, TALLY_TEXT("tally::launch",
                                   "a divisor of train_batch_size / "
                                   "train_micro_batch_size_per_gpu (%1 / %2): their quotient is "
                                   "the GPU count")
                            .arg(s.data.global_batch)
                            .arg(s.data.micro_batch));
    }
    s.cluster.gpus = s.data.global_batch / per_gpu;
}
std::optional<Value> get_ds_fp16(const PlanSpec& s) {
    return Value{precision_of(s) == Precision::fp16};
}

// -- accelerate
std::optional<Value> get_distributed_type(const PlanSpec& s) {
    return Value{std::string(s.training.zero == 0 ? "MULTI_GPU" : "FSDP")};
}
void set_distributed_type(PlanSpec& s, const Value& v) {
    const std::string& t = as_text(v);
    if (t == "MULTI_GPU") {
        s.training.zero = 0;
    } else if (t == "FSDP") {
        s.training.zero = 3;
    } else {
        refuse_value(
            v, TALLY_TEXT("tally::launch",
                          "FSDP or MULTI_GPU (a DeepSpeed run imports from its JSON config)"));
    }
}
std::optional<Value> get_sharding(const PlanSpec& s) {
    if (s.training.zero == 0) {
        return std::nullopt;
    }
    return Value{std::string(s.training.zero == 2 ? "SHARD_GRAD_OP" : "FULL_SHARD")};
}
void set_sharding(PlanSpec& s, const Value& v) {
    const std::string& t = as_text(v);
    if (t == "FULL_SHARD" || t == "1") {
        s.training.zero = s.training.zero == 0 ? 0 : 3;
    } else if (t == "SHARD_GRAD_OP" || t == "2") {
        s.training.zero = s.training.zero == 0 ? 0 : 2;
    } else if (t == "NO_SHARD" || t == "3") {
        s.training.zero = 0;
    } else {
        refuse_value(
            v, TALLY_TEXT("tally::launch",
                          "FULL_SHARD, SHARD_GRAD_OP or NO_SHARD (HYBRID_SHARD shards within a "
                          "node only, which Tally does not plan)"));
    }
}
std::optional<Value> get_machines(const PlanSpec& s) {
    return Value{s.cluster.gpus / gpus_per_node(s)};
}
void set_machines(PlanSpec&, const Value& v) {
    if (as_int(v) < 1) {
        refuse_value(v, TALLY_TEXT("tally::launch", "an integer >= 1"));
    }
}

std::optional<Value> get_fsdp_offload(const PlanSpec& s) {
    return s.training.zero == 0 ? std::nullopt : get_offload_all(s);
}
std::optional<Value> get_fsdp_checkpointing(const PlanSpec& s) {
    return s.training.zero == 0 ? std::nullopt : get_full_recompute(s);
}

// -- finishing
// The setting read for a row's key. A Megatron-LM log's argument block names its rows by their
// argparse dest, the key with underscores ("moe_token_dispatcher_type"): found by either.
const LaunchSetting* find_read(const LaunchImport& out, std::string_view key) {
    std::string dest(key);
    std::replace(dest.begin(), dest.end(), '-', '_');
    for (const LaunchSetting& r : out.read) {
        if (r.key == key || r.key == dest) {
            return &r;
        }
    }
    return nullptr;
}

// An error naming a read setting as the file wrote it, with its line where it has one
// ("recompute-granularity (line 12)"), translatable as the other setting errors are.
FieldError read_setting_error(const LaunchSetting& r, std::string value, Text allowed) {
    FieldError error =
        FieldError::of(r.line > 0 ? fmt::format("{} (line {})", r.key, r.line) : r.key,
                       std::move(value), std::move(allowed));
    if (r.line > 0) {
        error.field_text = TALLY_TEXT("tally::launch", "%1 (line %2)").arg(r.key).arg(r.line);
    }
    return error;
}

// A switch as a read setting holds it: a flag given bare ("on"), a printed block's True, a
// file's true or 1.
bool switched_on(const LaunchSetting& r) {
    return r.value == "on" || r.value == "True" || r.value == "true" || r.value == "1";
}

// Megatron-LM's --rampup-batch-size START INCREMENT SAMPLES (core_v0.12.0
// megatron/core/num_microbatches_calculator.py, RampupBatchsizeNumMicroBatchesCalculator): the
// global batch grows from START by INCREMENT until SAMPLES samples have been consumed, then stays
// at --global-batch-size. A plan has one global batch, so the import says the ramp is not timed
// and checks its numbers as Megatron-LM does (START and INCREMENT whole and positive, the batch's
// growth a whole number of increments).
void note_batch_rampup(const PlanSpec& s, LaunchImport& out) {
    const auto it = std::find_if(out.ignored.begin(), out.ignored.end(), [](const auto& r) {
        return r.key == "rampup-batch-size" || r.key == "rampup_batch_size";
    });
    if (it == out.ignored.end()) {
        return;
    }
    const LaunchSetting ramp = *it;
    // A printed argument block lists it as None when unset, as ['16', '16', '5859375'] when set.
    std::string value = ramp.value;
    std::replace_if(
        value.begin(), value.end(),
        [](char c) { return c == '[' || c == ']' || c == ',' || c == '\'' || c == '"'; }, ' ');
    if (value.find_first_not_of(' ') == std::string::npos || value == "None") {
        return;
    }
    std::istringstream words(value);
    std::vector<std::string> parts;
    for (std::string w; words >> w;) {
        parts.push_back(w);
    }
    const auto whole = [](const std::string& t) -> std::optional<std::int64_t> {
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (ec != std::errc() || end != t.data() + t.size()) {
            return std::nullopt;
        }
        return v;
    };
    const auto refuse = [&](Text allowed) {
        throw SpecError(read_setting_error(ramp, ramp.value, std::move(allowed)));
    };
    const std::optional<std::int64_t> start = parts.size() == 3 ? whole(parts[0]) : std::nullopt;
    const std::optional<std::int64_t> increment =
        parts.size() == 3 ? whole(parts[1]) : std::nullopt;
    const std::optional<std::int64_t> samples = parts.size() == 3 ? whole(parts[2]) : std::nullopt;
    if (!start || !increment || !samples || *start < 1 || *increment < 1 || *samples < 0) {
        refuse(TALLY_TEXT("tally::launch",
                          "three whole numbers: the start batch and the increment (1 or more) "
                          "and the samples the ramp takes (0 or more)"));
    }
    const std::int64_t global = s.data.global_batch;
    if (*start > global || (global - *start) % *increment != 0) {
        refuse(TALLY_TEXT("tally::launch",
                          "a start batch up to --global-batch-size (%1) that grows to it by whole "
                          "increments, as Megatron-LM requires")
                   .arg(global));
    }
    out.guesses.push_back(TALLY_TEXT("tally::launch",
                                     "data.global_batch = %1 from the first step: the file ramps "
                                     "the batch from %2 by %3 over its first %4 samples "
                                     "(rampup-batch-size); the plan times every step at the full "
                                     "batch, so the ramp's steps, slower a token, are not counted")
                              .arg(global)
                              .arg(*start)
                              .arg(*increment)
                              .arg(*samples));
}

void finish_megatron(PlanSpec& s, LaunchImport& out, const LaunchImportOptions&) {
    s.training.engine = Engine::megatron;
    if (out.target == LaunchTarget::nemo) {
        apply_fixed(s, out, kNemoFixes);
    }
    note_batch_rampup(s, out);
    // Without multi-latent attention Megatron-Core reads none of its ranks, which a printed
    // argument block lists anyway, at their defaults (kv_lora_rank 32): the model has no MLA.
    // A NeMo file that leaves it out keeps its recipe's.
    {
        const LaunchSetting* mla = find_read(out, "multi-latent-attention");
        if (mla == nullptr) {
            mla = find_read(out, "model.config.multi_latent_attention");
        }
        const bool off = mla != nullptr ? !switched_on(*mla) : out.target == LaunchTarget::megatron;
        if (off) {
            s.model.mla = MlaSpec{};
            // Its ranks, read, reached no field: listed with the settings that change nothing.
            for (auto it = out.read.begin(); it != out.read.end();) {
                if (it->spec_field.rfind("model.mla.", 0) == 0) {
                    out.ignored.push_back(LaunchSetting{it->key, it->value, it->line, {}});
                    it = out.read.erase(it);
                } else {
                    ++it;
                }
            }
        }
    }
    // With multi-latent attention qk_layernorm gives the latents' norms, part of Tally's MLA
    // (get_qk_layernorm()), not a per-head QK-norm. A file that says it is off (Megatron-LM's
    // default when the flag is left out) trains MLA without them.
    if (s.model.mla.enabled()) {
        const LaunchSetting* qk = find_read(out, "model.config.qk_layernorm");
        if (!s.model.qk_norm && (out.target == LaunchTarget::megatron || qk != nullptr)) {
            out.guesses.push_back(TALLY_TEXT(
                "tally::launch",
                "model.mla = with its latents' norms: the file runs multi-latent attention "
                "without qk_layernorm, which in Megatron-Core also leaves out the norms of the "
                "query and key-value latents; Tally counts them, as DeepSeek-V2 and V3 have "
                "them"));
        }
        s.model.qk_norm = false;
    }
    // Megatron-Core refuses full recomputation without a method (core_v0.12.0
    // transformer_config.py: "recompute_method must be \"block\" or \"uniform\""): a command line
    // that gives the granularity alone does not run.
    if (out.target == LaunchTarget::megatron && s.training.recompute == Recompute::full &&
        find_read(out, "recompute-method") == nullptr) {
        if (const LaunchSetting* g = find_read(out, "recompute-granularity")) {
            throw SpecError(read_setting_error(
                *g, g->value,
                TALLY_TEXT("tally::launch",
                           "full with --recompute-method uniform or block (and "
                           "--recompute-num-layers): Megatron-Core refuses full recomputation "
                           "without a method")));
        }
    }
    // Megatron-Core reads the recompute modules only with selective granularity.
    if (s.training.recompute != Recompute::selective && s.training.recompute_modules.any()) {
        out.guesses.push_back(TALLY_TEXT("tally::launch",
                                         "training.recompute_modules = none: %1 are given "
                                         "without selective recompute granularity, which "
                                         "Megatron-Core then ignores")
                                  .arg(recompute_modules_text(s.training.recompute_modules)));
        s.training.recompute_modules = {};
    }
    // The loss: Transformer Engine's in-place cross-entropy needs both the fusion and its te
    // implementation. Megatron-LM's arguments leave the fusion off by default (arguments.py);
    // NeMo 2's GPTConfig turns it on (cross_entropy_loss_fusion = True), with the native
    // implementation by default (TransformerConfig.cross_entropy_fusion_impl).
    {
        const LaunchSetting* fusion = find_read(out, "cross-entropy-loss-fusion");
        if (fusion == nullptr) {
            fusion = find_read(out, "model.config.cross_entropy_loss_fusion");
        }
        const LaunchSetting* impl = find_read(out, "cross-entropy-fusion-impl");
        if (impl == nullptr) {
            impl = find_read(out, "model.config.cross_entropy_fusion_impl");
        }
        if (fusion != nullptr || impl != nullptr) {
            const bool fused =
                fusion != nullptr ? switched_on(*fusion) : out.target == LaunchTarget::nemo;
            const bool te = fused && impl != nullptr && impl->value == "te";
            s.training.cross_entropy = te ? CrossEntropy::in_place : CrossEntropy::fp32;
            if (te) {
                out.guesses.push_back(TALLY_TEXT(
                    "tally::launch",
                    "training.cross_entropy = in_place: Transformer Engine's cross-entropy up to "
                    "2.17 writes the gradient over the 16-bit logits and keeps them; from 2.18 it "
                    "keeps an fp32 gradient, as the other losses keep an fp32 softmax (set fp32 "
                    "for a newer Transformer Engine)"));
            }
        }
    }
    const LaunchSetting* dispatcher = find_read(out, "moe-token-dispatcher-type");
    if (dispatcher == nullptr) {
        dispatcher = find_read(out, "model.config.moe_token_dispatcher_type");
    }
    if (dispatcher != nullptr &&
        (dispatcher->value == "allgather" || dispatcher->value == "alltoall_seq")) {
        out.guesses.push_back(TALLY_TEXT("tally::launch",
                                         "training.moe_dispatcher = alltoall: the %1 "
                                         "dispatcher is timed as the all-to-all, each token "
                                         "copy sent to its expert's rank")
                                  .arg(dispatcher->value));
    } else if (dispatcher == nullptr && s.model.moe.experts > 0 &&
               s.training.moe_dispatcher == MoeDispatcher::alltoall) {
        // Left out, Megatron-Core runs its default, allgather (core_v0.12.0 arguments.py).
        out.guesses.push_back(TALLY_TEXT("tally::launch",
                                         "training.moe_dispatcher = alltoall: the file names no "
                                         "dispatcher, so Megatron-Core runs its default, "
                                         "allgather, which is timed as the all-to-all"));
    }
    // Megatron-Core's cpu_offloading_weights defaulted to True before it turned False
    // (ModelParallelConfig): a file that offloads layers without saying leaves it to the release.
    if (s.training.activation_offload_layers > 0 &&
        find_read(out, "model.config.cpu_offloading_weights") == nullptr) {
        out.guesses.push_back(TALLY_TEXT("tally::launch",
                                         "model.config.cpu_offloading_weights = false: the file "
                                         "does not say, and Megatron-Core releases differ (True "
                                         "in earlier ones offloads the weights too, which Tally "
                                         "does not plan)"));
    }
    // Without a virtual-pipeline setting neither runs an interleaved schedule: Megatron-LM's
    // --num-layers-per-virtual-pipeline-stage and NeMo's virtual_pipeline_model_parallel_size
    // default to None, one model chunk a stage (megatron/training/arguments.py; nemo/lightning/
    // pytorch/strategies/megatron_strategy.py). A window's import keeps no other plan's.
    if (std::none_of(out.read.begin(), out.read.end(), [](const LaunchSetting& r) {
            return r.spec_field == "training.interleave";
        })) {
        s.training.interleave = 1;
    }
    // The end stages the accounting flags give (account_split()), with v as the file gives it
    // (above): layers + e + l over pp
    // stages, one layer fewer on the first (last). Megatron-Core refuses them beside explicit
    // end-stage counts, and where pp (x v) does not divide the sum.
    const auto flag_set = [&](std::string_view key) {
        const LaunchSetting* r = find_read(out, key);
        return r != nullptr && switched_on(*r);
    };
    const bool embedding = flag_set("trainer.strategy.account_for_embedding_in_pipeline_split") ||
                           flag_set("account-for-embedding-in-pipeline-split");
    const bool loss = flag_set("trainer.strategy.account_for_loss_in_pipeline_split") ||
                      flag_set("account-for-loss-in-pipeline-split");
    // Megatron-LM's layers per virtual stage (set_layers_per_virtual()): v = (layers + e + l) /
    // pp / the layers per virtual stage, which must divide them (arguments.py's asserts).
    if (s.training.interleave < 0) {
        TrainingSpec& t = s.training;
        const std::int64_t per = -t.interleave;
        const std::int64_t counted = s.model.layers + (embedding ? 1 : 0) + (loss ? 1 : 0);
        if (t.pp < 1 || counted % (t.pp * per) != 0) {
            throw SpecError(FieldError::of(
                "num-layers-per-virtual-pipeline-stage", std::to_string(per),
                TALLY_TEXT("tally::launch",
                           "a divisor of the layers a pipeline stage holds, the embedding and "
                           "the loss counted where the accounting flags say so ((%1 + %2) / "
                           "%3)")
                    .arg(s.model.layers)
                    .arg((embedding ? 1 : 0) + (loss ? 1 : 0))
                    .arg(t.pp)));
        }
        t.interleave = counted / (t.pp * per);
    }
    if (embedding || loss) {
        TrainingSpec& t = s.training;
        const std::int64_t counted = s.model.layers + (embedding ? 1 : 0) + (loss ? 1 : 0);
        const std::int64_t stages = t.pp * std::max<std::int64_t>(t.interleave, 1);
        const bool nemo = find_read(out, "account-for-embedding-in-pipeline-split") == nullptr &&
                          find_read(out, "account-for-loss-in-pipeline-split") == nullptr;
        const std::string field =
            nemo ? (embedding ? "trainer.strategy.account_for_embedding_in_pipeline_split"
                              : "trainer.strategy.account_for_loss_in_pipeline_split")
                 : (embedding ? "account-for-embedding-in-pipeline-split"
                              : "account-for-loss-in-pipeline-split");
        if (find_read(out, "trainer.strategy.num_layers_in_first_pipeline_stage") != nullptr ||
            find_read(out, "trainer.strategy.num_layers_in_last_pipeline_stage") != nullptr ||
            find_read(out, "decoder-first-pipeline-num-layers") != nullptr ||
            find_read(out, "decoder-last-pipeline-num-layers") != nullptr) {
            throw SpecError(FieldError::of(
                field, "true",
                TALLY_TEXT("tally::launch",
                           "false beside num_layers_in_first/last_pipeline_stage (Megatron-Core "
                           "takes one of the two)")));
        }
        if (t.pp <= 1 || counted % stages != 0) {
            throw SpecError(FieldError::of(
                field, "true",
                TALLY_TEXT("tally::launch",
                           "true only where pp x v (%1) divides the layers with the embedding "
                           "and the loss counted (%2)")
                    .arg(stages)
                    .arg(counted)));
        }
        t.first_stage_layers = counted / t.pp - (embedding ? 1 : 0);
        t.last_stage_layers = counted / t.pp - (loss ? 1 : 0);
    }
    // Without end-stage counts or the accounting flags Megatron-LM asserts that pp divides the
    // layers (core_v0.12.0 arguments.py: "Number of layers should be divisible by the
    // pipeline-model-parallel size"); Tally's own even spread of the remainder is not what it
    // runs.
    if (out.target == LaunchTarget::megatron && !embedding && !loss && s.training.pp > 1 &&
        s.training.first_stage_layers == 0 && s.training.last_stage_layers == 0 &&
        s.model.layers % s.training.pp != 0) {
        const LaunchSetting* pp = find_read(out, "pipeline-model-parallel-size");
        throw SpecError(read_setting_error(
            pp != nullptr ? *pp : LaunchSetting{"pipeline-model-parallel-size", {}, 0, {}},
            std::to_string(s.training.pp),
            TALLY_TEXT("tally::launch",
                       "a divisor of num-layers (%1), or the end stages' layers given "
                       "(--decoder-first/last-pipeline-num-layers) or the embedding and the "
                       "loss counted (--account-for-embedding/loss-in-pipeline-split): "
                       "Megatron-LM refuses layers that pp does not divide")
                .arg(s.model.layers)));
    }
    // The exchange type must be the one the step is timed with (set_cp_comm_type()): the ring
    // for full attention, the all-gather for a window (which Transformer Engine's ring refuses).
    const LaunchSetting* type = find_read(out, "model.config.cp_comm_type");
    if (type == nullptr) {
        type = find_read(out, "cp-comm-type");
    }
    if (type != nullptr && s.training.context_parallel > 1) {
        const bool windowed = s.model.windowed_layers() > 0;
        if (one_cp_comm_type(type->value) != (windowed ? "all_gather" : "p2p")) {
            throw SpecError(read_setting_error(
                *type, type->value,
                windowed ? TALLY_TEXT("tally::launch",
                                      "all_gather with a sliding window: Transformer Engine runs "
                                      "no ring (p2p) exchange for windowed attention")
                         : TALLY_TEXT("tally::launch",
                                      "p2p with full attention: Tally times its context "
                                      "parallelism as the ring, not as an all-gather")));
        }
    }
    if (s.model.learned_positions == -1) {
        const LaunchSetting* type = find_read(out, "position-embedding-type");
        throw SpecError(
            "max-position-embeddings", kValueMissing,
            type ? TALLY_TEXT("tally::launch", "required with learned_absolute positions (line %1)")
                       .arg(type->line)
                 : TALLY_TEXT("tally::launch",
                              "required with learned_absolute positions (Megatron-LM's "
                              "default position type)"));
    }
}
void finish_deepspeed(PlanSpec& s, LaunchImport& out, const LaunchImportOptions&) {
    s.training.engine = Engine::deepspeed;
    apply_fixed(s, out, kDeepspeedFixes);
}
void finish_fsdp(PlanSpec& s, LaunchImport& out, const LaunchImportOptions&) {
    s.training.engine = Engine::fsdp;
    apply_fixed(s, out, kAccelerateFixes);
}
// torchtitan runs FSDP whenever context parallelism is on, over the shard x cp ranks
// (ParallelDims.fsdp_enabled is dp_shard_enabled or cp_enabled; the FSDP mesh is "dp_shard_cp":
// torchtitan/distributed/parallel_dims.py): a shard degree of 1 with cp > 1 is ZeRO-3 (ZeRO-2 with
// reshard_after_forward "never") over the cp ranks, not replication. With a replicate degree
// above 1 as well, that is hybrid sharding within each replica, which the plan cannot say.
void shard_over_context_parallel(PlanSpec& s, const LaunchImport& out) {
    if (s.training.context_parallel <= 1 || s.training.zero != 0) {
        return;
    }
    if (const LaunchSetting* replicate =
            find_read(out, "parallelism.data_parallel_replicate_degree");
        replicate && replicate->value != "1") {
        throw SpecError(FieldError::of(
            "parallelism.data_parallel_replicate_degree", replicate->value,
            TALLY_TEXT("tally::launch",
                       "1 with context parallelism: torchtitan then shards parameters, gradients "
                       "and optimizer state over each replica's shard x cp ranks (hybrid "
                       "sharding), which Tally does not plan")));
    }
    const LaunchSetting* reshard = find_read(out, "parallelism.fsdp_reshard_after_forward");
    s.training.zero = reshard && reshard->value == "never" ? 2 : 3;
}

// torchtitan's data_parallel_shard_degree -1 takes every rank the launcher starts that the
// other degrees leave: the world size is not in the file.
//
// torchtitan's tensor parallelism is always sequence parallel: its plan shards the norms'
// inputs and outputs along the sequence (SequenceParallel() on attention_norm, ffn_norm and the
// final norm, the row-parallel wo and w2 writing Shard(1), the sequence dimension), and its job
// config has no setting to turn that off (torchtitan v0.2.2,
// torchtitan/models/llama3/infra/parallelize.py, apply_tp; torchtitan/config/job_config.py).
void finish_torchtitan(PlanSpec& s, LaunchImport& out, const LaunchImportOptions& options) {
    if (s.training.engine != Engine::fsdp_compile) {
        s.training.engine = Engine::fsdp;
    }
    s.training.sequence_parallel = s.training.tp > 1;
    apply_fixed(s, out, kTorchtitanFixes);
    shard_over_context_parallel(s, out);
    if (s.cluster.gpus >= 0) {
        return;
    }
    const std::int64_t others = -s.cluster.gpus;
    if (options.gpus) {
        if (*options.gpus < 1 || *options.gpus % others != 0) {
            throw SpecError(
                "--gpus", std::to_string(*options.gpus),
                TALLY_TEXT("tally::launch", "a multiple of %1 (replicate x tp x pp x cp)")
                    .arg(others));
        }
        s.cluster.gpus = *options.gpus;
    } else {
        s.cluster.gpus = 8 % others == 0 ? 8 : others;
        out.guesses.push_back(TALLY_TEXT("tally::launch",
                                         "cluster.gpus = %1: data_parallel_shard_degree -1 "
                                         "leaves the world size to the launcher; assumed one "
                                         "node of %1 GPUs")
                                  .arg(s.cluster.gpus));
    }
    if (s.cluster.gpus == others) {
        s.training.zero = 0;  // a shard degree of 1: replicated, unless cp shards it
        shard_over_context_parallel(s, out);
    }
    if (const LaunchSetting* steps = find_read(out, "training.steps")) {
        set_steps(s, Value{std::stoll(steps->value)});
    }
}

// What a torchtitan run does other than the plan says (see finish_torchtitan()).
std::vector<Text> torchtitan_notes(const PlanSpec& s) {
    std::vector<Text> notes;
    if (s.training.tp > 1 && !s.training.sequence_parallel) {
        notes.push_back(TALLY_TEXT("tally::launch",
                                   "torchtitan's tensor parallelism always shards the norms' "
                                   "activations along the sequence (sequence parallelism); this "
                                   "plan has training.sequence_parallel false, so the run keeps "
                                   "fewer activations per GPU than the plan counts, and an "
                                   "import of this file reads it as true"));
    }
    if (s.model.kind == ModelKind::transformer && !(s.model.rope_theta > 0.0)) {
        notes.push_back(TALLY_TEXT("tally::launch",
                                   "this plan leaves model.rope_theta unstated; torchtitan's "
                                   "llama3 flavours run a RoPE base of 500000, which an import of "
                                   "this file reads"));
    }
    add_fixed_notes(s, "torchtitan", kTorchtitanFixes, notes);
    return notes;
}

constexpr char kFp32[] = "float32";
constexpr char kBf16[] = "bfloat16";
constexpr char kNone[] = "";
constexpr char kNo[] = "no";
constexpr char kBf16Short[] = "bf16";
constexpr char kFp16Short[] = "fp16";
constexpr char kLocalMachine[] = "LOCAL_MACHINE";
constexpr char kTransformerWrap[] = "TRANSFORMER_BASED_WRAP";
constexpr char kSelectiveOp[] = "op";

// ---- the tables ---------------------------------------------------------------------------------

using I = std::int64_t;

Table megatron_table() {
    return Table{
        LaunchTarget::megatron,
        "megatron",
        QT_TRANSLATE_NOOP("tally::launch", "Megatron-LM arguments"),
        "sh",
        Form::arguments,
        {
            custom("torchrun.nnodes", Kind::integer, "cluster.gpus", get_nodes, set_nodes),
            custom("torchrun.nproc-per-node", Kind::integer, "cluster.gpus", get_per_node,
                   set_per_node),
            [] {
                Field f = custom("world-size", Kind::integer, "cluster.gpus", get_gpus, set_gpus);
                f.log_name = "world_size";
                f.log_only = true;
                return f;
            }(),
            integer<model_ref<&ModelSpec::layers>>("num-layers", "model.layers"),
            integer<model_ref<&ModelSpec::hidden>>("hidden-size", "model.hidden"),
            integer<model_ref<&ModelSpec::heads>>("num-attention-heads", "model.heads"),
            custom("group-query-attention", Kind::flag, "model.kv_heads", get_gqa, set_gqa),
            custom("num-query-groups", Kind::integer, "model.kv_heads", get_query_groups,
                   set_query_groups),
            integer<model_ref<&ModelSpec::head_dim>, Write::nonzero, 0>("kv-channels",
                                                                        "model.head_dim", 0),
            integer<model_ref<&ModelSpec::ffn_hidden>>("ffn-hidden-size", "model.ffn_hidden"),
            integer<model_ref<&ModelSpec::vocab>>("vocab-size", "model.vocab"),
            custom("swiglu", Kind::flag, "model.ffn", get_swiglu, set_swiglu, Value{false}),
            custom("normalization", Kind::text, "model.norm", get_norm, set_norm,
                   Value{std::string("LayerNorm")}),
            custom("qk-layernorm", Kind::flag, "model.qk_norm", get_qk_layernorm, set_qk_layernorm,
                   Value{false}),
            // Multi-token prediction (ModelSpec::mtp_layers): --mtp-num-layers, None by default
            // (core_v0.12.0 megatron/training/arguments.py), printed as mtp_num_layers.
            integer<model_ref<&ModelSpec::mtp_layers>, Write::nonzero, 0>("mtp-num-layers",
                                                                          "model.mtp_layers", 0),
            [] {
                Field f = custom("disable-bias-linear", Kind::flag, "model.bias", get_no_bias,
                                 set_no_bias, Value{false});
                f.log_name = "add_bias_linear";
                f.log_inverted = true;
                return f;
            }(),
            custom("add-qkv-bias", Kind::flag, "model.bias", get_qkv_bias, set_qkv_bias,
                   Value{false}),
            custom("untie-embeddings-and-output-weights", Kind::flag, "model.tied_embeddings",
                   get_untied, set_untied, Value{false}),
            custom("position-embedding-type", Kind::text, "model.learned_positions",
                   get_position_type, set_position_type, Value{std::string("learned_absolute")}),
            custom("max-position-embeddings", Kind::integer, "model.learned_positions",
                   get_max_positions, set_max_positions),
            custom("rotary-base", Kind::integer, "model.rope_theta", get_rotary_base,
                   set_rotary_base),
            custom("num-experts", Kind::integer, "model.moe.experts", get_experts, set_experts,
                   Value{I{0}}),
            integer<moe_ref<&MoeSpec::active_experts>, Write::if_moe>(
                "moe-router-topk", "model.moe.active_experts", 2),
            integer<moe_ref<&MoeSpec::expert_ffn_hidden>, Write::if_moe, 0>(
                "moe-ffn-hidden-size", "model.moe.expert_ffn_hidden", 0),
            // Group-limited routing (Megatron-LM's --moe-router-num-groups and
            // --moe-router-group-topk): written when set.
            integer<moe_ref<&MoeSpec::router_groups>, Write::nonzero, 0>(
                "moe-router-num-groups", "model.moe.router_groups", 0),
            integer<moe_ref<&MoeSpec::router_group_topk>, Write::nonzero, 0>(
                "moe-router-group-topk", "model.moe.router_group_topk", 0),
            custom("moe-shared-expert-intermediate-size", Kind::integer, "model.moe.shared_experts",
                   get_shared_size, set_shared_size, Value{I{0}}),
            custom("moe-layer-freq", Kind::text, "model.moe.first_dense_layers", get_layer_freq,
                   set_layer_freq, Value{std::string("1")}),
            custom("multi-latent-attention", Kind::flag, "model.mla", get_mla, set_mla,
                   Value{false}),
            integer<mla_ref<&MlaSpec::q_lora_rank>, Write::if_mla, 0>("q-lora-rank",
                                                                      "model.mla.q_lora_rank"),
            integer<mla_ref<&MlaSpec::kv_lora_rank>, Write::if_mla>("kv-lora-rank",
                                                                    "model.mla.kv_lora_rank"),
            integer<mla_ref<&MlaSpec::qk_nope_head_dim>, Write::if_mla>(
                "qk-head-dim", "model.mla.qk_nope_head_dim"),
            integer<mla_ref<&MlaSpec::qk_rope_head_dim>, Write::if_mla>(
                "qk-pos-emb-head-dim", "model.mla.qk_rope_head_dim"),
            integer<mla_ref<&MlaSpec::v_head_dim>, Write::if_mla>("v-head-dim",
                                                                  "model.mla.v_head_dim"),
            custom("hidden-dropout", Kind::real, "training.dropout", get_dropout,
                   set_hidden_dropout, Value{0.1}),
            custom("attention-dropout", Kind::real, "training.dropout", get_dropout,
                   set_attention_dropout, Value{0.1}),
            integer<data_ref<&DataSpec::seq_len>>("seq-length", "data.seq_len"),
            integer<data_ref<&DataSpec::micro_batch>>("micro-batch-size", "data.micro_batch"),
            integer<data_ref<&DataSpec::global_batch>, Write::nonzero>("global-batch-size",
                                                                       "data.global_batch"),
            custom("train-samples", Kind::integer, "data.tokens", get_samples, set_samples),
            integer<training_ref<&TrainingSpec::tp>>("tensor-model-parallel-size", "training.tp",
                                                     1),
            integer<training_ref<&TrainingSpec::pp>>("pipeline-model-parallel-size", "training.pp",
                                                     1),
            custom("num-layers-per-virtual-pipeline-stage", Kind::integer, "training.interleave",
                   get_layers_per_virtual, set_layers_per_virtual),
            custom("num-virtual-stages-per-pipeline-rank", Kind::integer, "training.interleave",
                   get_virtual_stages_per_rank, set_virtual_stages),
            custom("decoder-first-pipeline-num-layers", Kind::integer,
                   "training.first_stage_layers",
                   get_end_stage_layers_unless_accounted<&TrainingSpec::first_stage_layers,
                                                         &StageLayout::first>,
                   set_first_stage_layers, Value{std::int64_t{0}}),
            custom("decoder-last-pipeline-num-layers", Kind::integer, "training.last_stage_layers",
                   get_end_stage_layers_unless_accounted<&TrainingSpec::last_stage_layers,
                                                         &StageLayout::last>,
                   set_last_stage_layers, Value{std::int64_t{0}}),
            custom("account-for-embedding-in-pipeline-split", Kind::flag,
                   "training.first_stage_layers", get_account_embedding, set_account_flag),
            custom("account-for-loss-in-pipeline-split", Kind::flag, "training.last_stage_layers",
                   get_account_loss, set_account_flag),
            integer<training_ref<&TrainingSpec::context_parallel>>("context-parallel-size",
                                                                   "training.context_parallel", 1),
            custom("cp-comm-type", Kind::text, "training.context_parallel", get_cp_comm_type,
                   set_cp_comm_type),
            integer<training_ref<&TrainingSpec::expert_parallel>>("expert-model-parallel-size",
                                                                  "training.expert_parallel", 1),
            integer<training_ref<&TrainingSpec::expert_tensor_parallel>, Write::nonzero, 0>(
                "expert-tensor-parallel-size", "training.expert_tensor_parallel"),
            custom("sequence-parallel", Kind::flag, "training.sequence_parallel",
                   get_sequence_parallel, set_sequence_parallel, Value{false}),
            // --train-iters is the other way Megatron-LM counts a run (one of the two); read,
            // never written.
            custom(
                "train-iters", Kind::integer, "data.tokens",
                [](const PlanSpec&) -> std::optional<Value> { return std::nullopt; }, set_steps),
            custom("recompute-granularity", Kind::text, "training.recompute", get_granularity,
                   set_granularity, Value{std::string("none")}),
            // --recompute-activations: Megatron-LM's validate_args() sets recompute_granularity
            // to 'selective' when it is given, whatever --recompute-granularity says, and then
            // deletes it (so a printed argument block never holds it). Read, never written.
            custom(
                "recompute-activations", Kind::flag, "training.recompute",
                [](const PlanSpec&) -> std::optional<Value> { return std::nullopt; },
                [](PlanSpec& s, const Value& v) {
                    if (as_bool(v)) {
                        s.training.recompute = Recompute::selective;
                    }
                }),
            custom("recompute-modules", Kind::words, "training.recompute_modules",
                   get_recompute_modules, set_recompute_modules),
            custom("recompute-method", Kind::text, "training.recompute", get_recompute_method,
                   set_recompute_method_argument),
            custom("recompute-num-layers", Kind::integer, "training.recompute",
                   get_recompute_layers, set_recompute_layers),
            custom("use-distributed-optimizer", Kind::flag, "training.zero",
                   get_distributed_optimizer, set_distributed_optimizer, Value{false}),
            custom("overlap-grad-reduce", Kind::flag, "training.dp_overlap", get_overlap,
                   set_overlap, Value{false}),
            custom("optimizer-cpu-offload", Kind::flag, "training.offload", get_offload_optimizer,
                   set_offload_optimizer, Value{false}),
            custom("tp-comm-overlap", Kind::flag, "training.tp_comm_overlap", get_tp_comm_overlap,
                   set_tp_comm_overlap, Value{false}),
            custom("cross-entropy-loss-fusion", Kind::flag, "training.cross_entropy", get_ce_fusion,
                   set_ce_fusion, Value{false}),
            custom("cross-entropy-fusion-impl", Kind::text, "training.cross_entropy", get_ce_impl,
                   set_ce_impl, Value{std::string("native")}),
            custom("moe-token-dispatcher-type", Kind::text, "training.moe_dispatcher",
                   get_dispatcher_type, set_dispatcher_type),
            custom("moe-enable-deepep", Kind::flag, "training.moe_dispatcher", get_enable_deepep,
                   set_enable_deepep),
            custom("moe-grouped-gemm", Kind::flag, "model.moe.experts", get_grouped_gemm,
                   set_grouped_gemm),
            custom("optimizer", Kind::text, "training.optimizer", get_megatron_optimizer,
                   set_megatron_optimizer, Value{std::string("adam")}),
            custom("bf16", Kind::flag, "training.param_dtype", get_megatron_bf16, set_bf16,
                   Value{false}),
            custom("fp16", Kind::flag, "training.param_dtype", get_megatron_fp16, set_fp16,
                   Value{false}),
            custom("accumulate-allreduce-grads-in-fp32", Kind::flag, "training.grad_dtype",
                   get_accumulate_in_fp32, set_accumulate_in_fp32, Value{false}),
            custom("grad-reduce-in-bf16", Kind::flag, "training.grad_dtype",
                   get_grad_reduce_in_bf16, set_grad_reduce_in_bf16, Value{false}),
            [] {
                Field f = custom("fp8-format", Kind::text, "training.compute_dtype", get_fp8_format,
                                 set_fp8_format);
                f.log_name = "fp8";
                return f;
            }(),
            custom("fp8-recipe", Kind::text, "training.fp8_recipe", get_fp8_recipe, set_fp8_recipe),
            [] {
                Field f = custom("fp4-format", Kind::text, "training.compute_dtype", get_fp4_format,
                                 set_fp4_format);
                f.log_name = "fp4";
                return f;
            }(),
            custom("fp4-recipe", Kind::text, "training.compute_dtype", get_fp4_recipe,
                   set_fp4_recipe),
            custom("attention-backend", Kind::text, "training.flash_attention",
                   get_attention_backend, set_attention_backend, Value{std::string("auto")}),
            // --use-flash-attn asks for FlashAttention (arguments.py: "use FlashAttention
            // implementation of attention"); core_v0.12.0 reads it in the legacy model only
            // (megatron/legacy/model/transformer.py), Megatron-Core models follow
            // --attention-backend. With the backend's default (auto) it is flash attention;
            // beside a backend that runs none (unfused, local) it contradicts it. Read, never
            // written: --attention-backend flash says it.
            custom(
                "use-flash-attn", Kind::flag, "training.flash_attention",
                [](const PlanSpec&) -> std::optional<Value> { return std::nullopt; },
                [](PlanSpec& s, const Value& v) {
                    if (as_bool(v) && !s.training.flash_attention) {
                        refuse_value(v, TALLY_TEXT("tally::launch",
                                                   "not given beside --attention-backend "
                                                   "unfused or local, which run no "
                                                   "FlashAttention (Megatron-Core follows "
                                                   "--attention-backend): give one of the two"));
                    }
                    if (as_bool(v)) {
                        s.training.flash_attention = true;
                    }
                }),
        },
        {refuse_not_transformer, refuse_fractional_rope, refuse_precision_fp32_grads,
         refuse_zero_above_1, refuse_offload_params, refuse_sqrt_recompute,
         refuse_attention_kernel_not_te, refuse_uneven_middle_stages, refuse_optimizer_not_adamw,
         refuse_fp8_block, refuse_ffn_relu, refuse_interleaved_uneven_ends,
         refuse_activation_offload, refuse_ep_comm_overlap, refuse_optimizer_foreach,
         refuse_sliding_window, refuse_moe_tp_without_sp},
        // Megatron-LM arguments that do not change the plan (learning rate, data, checkpoints,
        // logging, kernels' fusions, initialisation).
        {"lr", "min-lr", "lr-decay-style", "lr-decay-iters", "lr-decay-samples", "lr-warmup-iters",
         "lr-warmup-samples", "lr-warmup-fraction", "weight-decay", "clip-grad", "adam-beta1",
         "adam-beta2", "adam-eps", "init-method-std", "seed", "data-path", "split",
         "tokenizer-type", "tokenizer-model", "vocab-file", "merge-file", "save", "load",
         "save-interval", "eval-interval", "eval-iters", "log-interval", "tensorboard-dir",
         "norm-epsilon", "rotary-percent", "make-vocab-size-divisible-by", "transformer-impl",
         "use-mcore-models", "distributed-backend", "distributed-timeout-minutes",
         "overlap-param-gather", "num-workers", "mock-data", "log-throughput",
         "moe-router-load-balancing-type", "moe-aux-loss-coeff",
         // How the router scores and balances (DeepSeek-V3's sigmoid scores and expert bias),
         // and YaRN's position scaling: what is learned, not what a step holds or takes.
         "moe-z-loss-coeff", "moe-input-jitter-eps", "moe-router-dtype",
         "moe-router-score-function", "moe-router-enable-expert-bias",
         "moe-router-bias-update-rate", "moe-router-topk-scaling-factor", "moe-router-pre-softmax",
         "rotary-scaling-factor", "mscale", "mscale-all-dim", "attention-softmax-in-fp32",
         "accumulate-allreduce-grads-in-fp32", "no-masked-softmax-fusion", "no-bias-gelu-fusion",
         "no-bias-swiglu-fusion", "no-gradient-accumulation-fusion", "torchrun.",
         // The batch-size ramp: finish_megatron() says what the plan does with it.
         "rampup-batch-size"},
        finish_megatron,
        // --attention-backend, given or left at its auto, picks the attention kernel.
        {"training.attention_kernel"},
    };
}

Table nemo_table() {
    return Table{
        LaunchTarget::nemo,
        "nemo",
        QT_TRANSLATE_NOOP("tally::launch", "NeMo 2 recipe overrides"),
        "txt",
        Form::overrides,
        {
            custom("trainer.num_nodes", Kind::integer, "cluster.gpus", get_nodes, set_nodes),
            custom("trainer.devices", Kind::integer, "cluster.gpus", get_per_node, set_per_node),
            integer<model_ref<&ModelSpec::layers>>("model.config.num_layers", "model.layers"),
            integer<model_ref<&ModelSpec::hidden>>("model.config.hidden_size", "model.hidden"),
            integer<model_ref<&ModelSpec::heads>>("model.config.num_attention_heads",
                                                  "model.heads"),
            custom("model.config.num_query_groups", Kind::integer, "model.kv_heads",
                   get_query_groups, set_query_groups),
            integer<model_ref<&ModelSpec::head_dim>, Write::nonzero, 0>("model.config.kv_channels",
                                                                        "model.head_dim", 0),
            integer<model_ref<&ModelSpec::ffn_hidden>>("model.config.ffn_hidden_size",
                                                       "model.ffn_hidden"),
            integer<model_ref<&ModelSpec::vocab>>("model.config.vocab_size", "model.vocab"),
            custom("model.config.rotary_base", Kind::integer, "model.rope_theta", get_rotary_base,
                   set_rotary_base),
            custom("model.config.gated_linear_unit", Kind::boolean, "model.ffn", get_swiglu,
                   set_swiglu),
            custom("model.config.normalization", Kind::text, "model.norm", get_norm, set_norm),
            custom("model.config.qk_layernorm", Kind::boolean, "model.qk_norm", get_qk_layernorm,
                   set_qk_layernorm),
            // TransformerConfig.mtp_num_layers (None by default), the field Megatron-Bridge's
            // DeepSeek-V3 recipe sets to 1 (src/megatron/bridge/recipes/deepseek/deepseek_v3.py,
            // v0.2.0 to v0.6.0: "mtp_num_layers: Optional[int] = 1").
            integer<model_ref<&ModelSpec::mtp_layers>, Write::nonzero, 0>(
                "model.config.mtp_num_layers", "model.mtp_layers"),
            custom("model.config.add_bias_linear", Kind::boolean, "model.bias", get_bias, set_bias),
            custom("model.config.add_qkv_bias", Kind::boolean, "model.bias", get_qkv_bias,
                   set_qkv_bias),
            custom("model.config.share_embeddings_and_output_weights", Kind::boolean,
                   "model.tied_embeddings", get_tied, set_tied),
            custom("model.config.position_embedding_type", Kind::text, "model.learned_positions",
                   get_position_type, set_position_type),
            custom("model.config.max_position_embeddings", Kind::integer, "model.learned_positions",
                   get_max_positions, set_max_positions),
            custom("model.config.window_size", Kind::text, "model.sliding_window", get_window_size,
                   set_window_size),
            custom("model.config.cross_entropy_loss_fusion", Kind::boolean,
                   "training.cross_entropy", get_ce_fusion, set_ce_fusion),
            custom("model.config.cross_entropy_fusion_impl", Kind::text, "training.cross_entropy",
                   get_ce_impl, set_ce_impl),
            custom("model.config.cp_comm_type", Kind::text, "training.context_parallel",
                   get_cp_comm_type, set_cp_comm_type),
            custom("model.config.num_moe_experts", Kind::integer, "model.moe.experts", get_experts,
                   set_experts),
            custom("model.config.moe_grouped_gemm", Kind::boolean, "model.moe.experts",
                   get_grouped_gemm, set_grouped_gemm),
            integer<moe_ref<&MoeSpec::active_experts>, Write::if_moe>(
                "model.config.moe_router_topk", "model.moe.active_experts"),
            integer<moe_ref<&MoeSpec::expert_ffn_hidden>, Write::if_moe, 0>(
                "model.config.moe_ffn_hidden_size", "model.moe.expert_ffn_hidden"),
            integer<moe_ref<&MoeSpec::router_groups>, Write::nonzero, 0>(
                "model.config.moe_router_num_groups", "model.moe.router_groups", 0),
            integer<moe_ref<&MoeSpec::router_group_topk>, Write::nonzero, 0>(
                "model.config.moe_router_group_topk", "model.moe.router_group_topk", 0),
            custom("model.config.moe_shared_expert_intermediate_size", Kind::integer,
                   "model.moe.shared_experts", get_shared_size, set_shared_size),
            custom("model.config.moe_layer_freq", Kind::text, "model.moe.first_dense_layers",
                   get_layer_freq, set_layer_freq),
            custom("model.config.multi_latent_attention", Kind::boolean, "model.mla", get_mla,
                   set_mla),
            integer<mla_ref<&MlaSpec::q_lora_rank>, Write::if_mla, 0>("model.config.q_lora_rank",
                                                                      "model.mla.q_lora_rank"),
            integer<mla_ref<&MlaSpec::kv_lora_rank>, Write::if_mla>("model.config.kv_lora_rank",
                                                                    "model.mla.kv_lora_rank"),
            integer<mla_ref<&MlaSpec::qk_nope_head_dim>, Write::if_mla>(
                "model.config.qk_head_dim", "model.mla.qk_nope_head_dim"),
            integer<mla_ref<&MlaSpec::qk_rope_head_dim>, Write::if_mla>(
                "model.config.qk_pos_emb_head_dim", "model.mla.qk_rope_head_dim"),
            integer<mla_ref<&MlaSpec::v_head_dim>, Write::if_mla>("model.config.v_head_dim",
                                                                  "model.mla.v_head_dim"),
            custom("model.config.hidden_dropout", Kind::real, "training.dropout", get_dropout,
                   set_hidden_dropout),
            custom("model.config.attention_dropout", Kind::real, "training.dropout", get_dropout,
                   set_attention_dropout),
            integer<data_ref<&DataSpec::seq_len>>("data.seq_length", "data.seq_len"),
            integer<data_ref<&DataSpec::micro_batch>>("data.micro_batch_size", "data.micro_batch"),
            integer<data_ref<&DataSpec::global_batch>, Write::nonzero>("data.global_batch_size",
                                                                       "data.global_batch"),
            integer<training_ref<&TrainingSpec::tp>>("trainer.strategy.tensor_model_parallel_size",
                                                     "training.tp"),
            integer<training_ref<&TrainingSpec::pp>>(
                "trainer.strategy.pipeline_model_parallel_size", "training.pp"),
            custom("trainer.strategy.virtual_pipeline_model_parallel_size", Kind::integer,
                   "training.interleave", get_virtual_stages, set_virtual_stages),
            custom("trainer.strategy.num_layers_in_first_pipeline_stage", Kind::integer,
                   "training.first_stage_layers",
                   get_end_stage_layers_unless_accounted<&TrainingSpec::first_stage_layers,
                                                         &StageLayout::first>,
                   set_first_stage_layers),
            custom("trainer.strategy.num_layers_in_last_pipeline_stage", Kind::integer,
                   "training.last_stage_layers",
                   get_end_stage_layers_unless_accounted<&TrainingSpec::last_stage_layers,
                                                         &StageLayout::last>,
                   set_last_stage_layers),
            custom("trainer.strategy.account_for_embedding_in_pipeline_split", Kind::boolean,
                   "training.first_stage_layers", get_account_embedding, set_account_flag),
            custom("trainer.strategy.account_for_loss_in_pipeline_split", Kind::boolean,
                   "training.last_stage_layers", get_account_loss, set_account_flag),
            integer<training_ref<&TrainingSpec::context_parallel>>(
                "trainer.strategy.context_parallel_size", "training.context_parallel"),
            integer<training_ref<&TrainingSpec::expert_parallel>>(
                "trainer.strategy.expert_model_parallel_size", "training.expert_parallel"),
            integer<training_ref<&TrainingSpec::expert_tensor_parallel>, Write::nonzero, 0>(
                "trainer.strategy.expert_tensor_parallel_size", "training.expert_tensor_parallel"),
            custom("trainer.strategy.sequence_parallel", Kind::boolean,
                   "training.sequence_parallel", get_sequence_parallel, set_sequence_parallel),
            custom("trainer.max_steps", Kind::integer, "data.tokens", get_steps, set_steps),
            custom("model.config.recompute_granularity", Kind::text, "training.recompute",
                   get_granularity, set_granularity),
            custom("model.config.recompute_modules", Kind::words, "training.recompute_modules",
                   get_recompute_modules, set_recompute_modules),
            custom("model.config.recompute_method", Kind::text, "training.recompute",
                   get_recompute_method, set_recompute_method),
            custom("model.config.recompute_num_layers", Kind::integer, "training.recompute",
                   get_recompute_layers, set_recompute_layers),
            custom("model.config.tp_comm_overlap", Kind::boolean, "training.tp_comm_overlap",
                   get_tp_comm_overlap, set_tp_comm_overlap),
            custom("model.config.moe_token_dispatcher_type", Kind::text, "training.moe_dispatcher",
                   get_dispatcher_type, set_dispatcher_type),
            custom("model.config.moe_enable_deepep", Kind::boolean, "training.moe_dispatcher",
                   get_enable_deepep, set_enable_deepep),
            integer<training_ref<&TrainingSpec::activation_offload_layers>, Write::nonzero, 0>(
                "model.config.cpu_offloading_num_layers", "training.activation_offload_layers"),
            custom("model.config.cpu_offloading", Kind::boolean,
                   "training.activation_offload_layers", get_cpu_offloading, set_cpu_offloading),
            custom("model.config.cpu_offloading_weights", Kind::boolean,
                   "training.activation_offload_layers", get_cpu_offloading_weights,
                   set_cpu_offloading_weights),
            custom("optim.config.use_distributed_optimizer", Kind::boolean, "training.zero",
                   get_distributed_optimizer, set_distributed_optimizer),
            // Megatron-Core's OptimizerConfig.optimizer: "adam" (decoupled weight decay, as
            // AdamW) or "sgd", as Megatron-LM's --optimizer.
            custom("optim.config.optimizer", Kind::text, "training.optimizer",
                   get_megatron_optimizer, set_megatron_optimizer),
            // The recipes' trainer.strategy.ddp = DistributedDataParallelConfig(...,
            // overlap_grad_reduce=True, ...) (nemo/collections/llm/recipes/llama3_70b.py).
            custom("trainer.strategy.ddp.overlap_grad_reduce", Kind::boolean, "training.dp_overlap",
                   get_overlap, set_overlap),
            custom("trainer.plugins.grad_reduce_in_fp32", Kind::boolean, "training.grad_dtype",
                   get_grad_reduce_in_fp32, set_grad_reduce_in_fp32, Value{true}),
            custom("trainer.plugins.fp8", Kind::text, "training.compute_dtype", get_fp8_format,
                   set_fp8_format),
            custom("trainer.plugins.fp8_recipe", Kind::text, "training.fp8_recipe", get_fp8_recipe,
                   set_fp8_recipe),
        },
        {refuse_not_transformer, refuse_fractional_rope, refuse_precision_fp32_grads, refuse_nvfp4,
         // NeMo 2's recipes train in bf16-mixed (their trainer's plugins); fp16 and fp32 are
         // other plugins, not an override of a field.
         [](const PlanSpec& s, std::string_view title) -> std::optional<FieldError> {
             if (precision_of(s, true) == Precision::bf16) {
                 return std::nullopt;
             }
             return refusal("training.param_dtype", std::string(to_string(s.training.param_dtype)),
                            TALLY_TEXT("tally::launch",
                                       "bf16: NeMo 2's recipes train with the bf16-mixed plugin "
                                       "(%1 cannot express it)")
                                .arg_translated("tally::launch", title.data()));
         },
         refuse_zero_above_1, refuse_offload_params, refuse_ep_comm_overlap,
         [](const PlanSpec& s, std::string_view title) -> std::optional<FieldError> {
             if (s.training.offload == Offload::none) {
                 return std::nullopt;
             }
             return refusal("training.offload", std::string(to_string(s.training.offload)),
                            TALLY_TEXT("tally::launch",
                                       "none: a NeMo recipe's optimizer offload is not a field "
                                       "override (%1 cannot express it)")
                                .arg_translated("tally::launch", title.data()));
         },
         refuse_sqrt_recompute, refuse_uneven_middle_stages, refuse_interleaved_uneven_ends,
         refuse_optimizer_not_adamw, refuse_fp8_block, refuse_ffn_relu, refuse_optimizer_foreach,
         refuse_partial_window, refuse_moe_tp_without_sp},
        {"trainer.val_check_interval", "trainer.limit_val_batches", "trainer.log_every_n_steps",
         "trainer.accumulate_grad_batches", "optim.config.lr", "optim.config.min_lr",
         "optim.config.weight_decay", "optim.config.adam_beta1", "optim.config.adam_beta2",
         "data.tokenizer"},
        finish_megatron,
        {"training.flash_attention"},
        [](const PlanSpec& spec) {
            std::vector<Text> notes;
            add_fixed_notes(spec, "NeMo 2", kNemoFixes, notes);
            return notes;
        },
    };
}

Table torchtitan_table() {
    return Table{
        LaunchTarget::torchtitan,
        "torchtitan",
        QT_TRANSLATE_NOOP("tally::launch", "torchtitan TOML"),
        "toml",
        Form::toml,
        {
            custom("model.name", Kind::text, "model", get_tt_name, set_tt_name),
            custom("model.flavor", Kind::text, "model", get_tt_flavour, set_tt_flavour),
            custom("parallelism.data_parallel_replicate_degree", Kind::integer, "training.zero",
                   get_tt_replicate, set_tt_replicate, Value{I{1}}),
            custom("parallelism.data_parallel_shard_degree", Kind::integer, "training.zero",
                   get_tt_shard, set_tt_shard, Value{I{-1}}),
            custom("parallelism.fsdp_reshard_after_forward", Kind::text, "training.zero",
                   get_tt_reshard, set_tt_reshard, Value{std::string("default")}),
            custom("parallelism.tensor_parallel_degree", Kind::integer, "training.tp",
                   get_tt_degree<&TrainingSpec::tp>, set_tt_degree<&TrainingSpec::tp>, Value{I{1}}),
            custom("parallelism.pipeline_parallel_degree", Kind::integer, "training.pp",
                   get_tt_degree<&TrainingSpec::pp>, set_tt_degree<&TrainingSpec::pp>, Value{I{1}}),
            custom("parallelism.context_parallel_degree", Kind::integer,
                   "training.context_parallel", get_tt_degree<&TrainingSpec::context_parallel>,
                   set_tt_degree<&TrainingSpec::context_parallel>, Value{I{1}}),
            custom("parallelism.expert_parallel_degree", Kind::integer, "training.expert_parallel",
                   get_tt_degree<&TrainingSpec::expert_parallel>,
                   set_tt_degree<&TrainingSpec::expert_parallel>, Value{I{1}}),
            integer<data_ref<&DataSpec::seq_len>>("training.seq_len", "data.seq_len", 2048),
            custom("training.local_batch_size", Kind::integer, "data.micro_batch",
                   get_tt_local_batch, set_tt_local_batch, Value{I{8}}),
            custom("parallelism.pipeline_parallel_microbatch_size", Kind::integer,
                   "data.micro_batch", get_tt_pp_micro, set_tt_pp_micro, Value{I{1}}),
            custom("training.global_batch_size", Kind::integer, "data.global_batch",
                   get_global_or_unset, set_global_or_unset, Value{I{-1}}),
            custom("training.mixed_precision_param", Kind::text, "training.param_dtype",
                   get_precision_name<kFp32, kBf16, kNone>, set_precision_name<kFp32, kBf16, kNone>,
                   Value{std::string(kBf16)}),
            custom("training.enable_cpu_offload", Kind::boolean, "training.offload",
                   get_tt_cpu_offload, set_offload_all, Value{false}),
            custom("activation_checkpoint.mode", Kind::text, "training.recompute", get_ac_mode,
                   set_ac_mode, Value{std::string("selective")}),
            custom(
                "activation_checkpoint.selective_ac_option", Kind::text, "training.recompute",
                [](const PlanSpec& s) -> std::optional<Value> {
                    return s.training.recompute == Recompute::selective
                               ? std::optional(Value{std::string(kSelectiveOp)})
                               : std::nullopt;
                },
                [](PlanSpec& s, const Value& v) {
                    // "op": recompute all but the matmuls (the attention core among them);
                    // a number N checkpoints every N-th layer whole, which Tally does not
                    // plan.
                    if (s.training.recompute == Recompute::selective &&
                        as_text(v) != kSelectiveOp) {
                        refuse_value(v, TALLY_TEXT("tally::launch",
                                                   "op (per-operator selective recomputation)"));
                    }
                }),
            custom("compile.enable", Kind::boolean, "training.engine", get_tt_compile,
                   set_tt_compile, Value{false}),
            custom("optimizer.name", Kind::text, "training.optimizer", get_tt_optimizer,
                   set_tt_optimizer, Value{std::string("AdamW")}),
            custom("optimizer.implementation", Kind::text, "training.optimizer_impl",
                   get_tt_optimizer_impl, set_tt_optimizer_impl, Value{std::string("fused")}),
            custom(
                "model.converters", Kind::text, "training.compute_dtype",
                [](const PlanSpec&) -> std::optional<Value> { return std::nullopt; },
                set_tt_converters),
            custom("training.steps", Kind::integer, "data.tokens", get_steps, set_steps),
        },
        {refuse_not_transformer,
         refuse_mtp,
         refuse_not_a_flavour,
         refuse_rope_not_flavours,
         refuse_precision,
         refuse_fp8,
         refuse_zero_1,
         refuse_replicated_with_cp,
         refuse_offload_optimizer_only,
         refuse_sqrt_recompute,
         refuse_recompute_modules,
         refuse_above<&TrainingSpec::interleave, 1>,
         refuse_stage_layers,
         refuse_etp,
         refuse_optimizer_not_adam_or_adamw,
         refuse_activation_offload,
         refuse_tp_comm_overlap,
         refuse_in_place_cross_entropy,
         refuse_partial_recompute,
         refuse_ep_comm_overlap,
         refuse_flex_dispatcher,
         refuse_backward_prefetch_post},
        {"job.",
         "profiling.",
         "metrics.",
         "optimizer.",
         "lr_scheduler.",
         "checkpoint.",
         "validation.",
         "comm.",
         "fault_tolerance.",
         "memory_estimation.",
         "experimental.",
         "quantize.",
         "debug.",
         "model.hf_assets_path",
         "model.tokenizer_path",
         "model.print_after_conversion",
         "training.dataset",
         "training.dataset_path",
         "training.max_norm",
         "training.gc_freq",
         "training.dtype",
         "training.mixed_precision_reduce",
         "training.dataloader.",
         "compile.components",
         "compile.backend",
         "parallelism.enable_async_tensor_parallel",
         "parallelism.disable_loss_parallel",
         "parallelism.pipeline_parallel_schedule",
         "parallelism.context_parallel_rotate_method",
         "parallelism.expert_tensor_parallel_degree",
         "activation_checkpoint.early_stop",
         "activation_checkpoint.preserve_rng_state"},
        finish_torchtitan,
        {"training.sequence_parallel", "training.flash_attention", "training.dp_overlap",
         "training.dropout"},
        torchtitan_notes,
    };
}

Table deepspeed_table() {
    return Table{
        LaunchTarget::deepspeed,
        "deepspeed",
        QT_TRANSLATE_NOOP("tally::launch", "DeepSpeed JSON"),
        "json",
        Form::json,
        {
            custom(
                "train_batch_size", Kind::integer, "data.global_batch",
                [](const PlanSpec& s) -> std::optional<Value> { return Value{global_batch(s)}; },
                set_integer<data_ref<&DataSpec::global_batch>, Write::always, 1>),
            integer<data_ref<&DataSpec::micro_batch>>("train_micro_batch_size_per_gpu",
                                                      "data.micro_batch"),
            custom("gradient_accumulation_steps", Kind::integer, "cluster.gpus", get_accumulation,
                   set_accumulation, Value{I{1}}),
            custom("bf16.enabled", Kind::boolean, "training.param_dtype", get_bf16, set_bf16,
                   Value{false}),
            custom("fp16.enabled", Kind::boolean, "training.param_dtype", get_ds_fp16, set_fp16,
                   Value{false}),
            custom("zero_optimization.stage", Kind::integer, "training.zero", get_zero, set_zero,
                   Value{I{0}}),
            custom("zero_optimization.offload_optimizer.device", Kind::text, "training.offload",
                   get_ds_offload_optimizer, set_ds_offload_optimizer, Value{std::string("none")}),
            custom("zero_optimization.offload_param.device", Kind::text, "training.offload",
                   get_ds_offload_param, set_ds_offload_param, Value{std::string("none")}),
            custom("zero_optimization.overlap_comm", Kind::boolean, "training.dp_overlap",
                   get_overlap, set_overlap, Value{false}),
            custom("activation_checkpointing.partition_activations", Kind::boolean,
                   "training.recompute", get_ds_checkpointing, set_ds_checkpointing),
            custom("optimizer.type", Kind::text, "training.optimizer", get_ds_optimizer,
                   set_ds_optimizer),
            custom("optimizer.params.torch_adam", Kind::boolean, "training.optimizer_impl",
                   get_ds_torch_adam, set_ds_torch_adam, Value{false}),
        },
        {refuse_not_transformer, refuse_mtp, refuse_precision, refuse_fp8,
         refuse_above<&TrainingSpec::tp, 1>, refuse_activation_offload, refuse_tp_comm_overlap,
         refuse_in_place_cross_entropy, refuse_partial_recompute, refuse_ep_comm_overlap,
         refuse_flex_dispatcher, refuse_backward_prefetch_post, refuse_above<&TrainingSpec::pp, 1>,
         refuse_above<&TrainingSpec::interleave, 1>, refuse_stage_layers,
         refuse_above<&TrainingSpec::context_parallel, 1>,
         refuse_above<&TrainingSpec::expert_parallel, 1>, refuse_selective_recompute,
         [](const PlanSpec& s, std::string_view title) -> std::optional<FieldError> {
             const Optimizer o = s.training.optimizer;
             if (o == Optimizer::adamw || o == Optimizer::adam || o == Optimizer::sgd) {
                 return std::nullopt;
             }
             return refusal("training.optimizer", std::string(to_string(o)),
                            TALLY_TEXT("tally::launch", "adamw, adam or sgd (%1 cannot express it)")
                                .arg_translated("tally::launch", title.data()));
         }},
        {"optimizer.params.",
         "scheduler.",
         "gradient_clipping",
         "steps_per_print",
         "wall_clock_breakdown",
         "prescale_gradients",
         "zero_allow_untested_optimizer",
         "zero_optimization.contiguous_gradients",
         "zero_optimization.reduce_scatter",
         "zero_optimization.reduce_bucket_size",
         "zero_optimization.allgather_bucket_size",
         "zero_optimization.allgather_partitions",
         "zero_optimization.round_robin_gradients",
         "zero_optimization.stage3_prefetch_bucket_size",
         "zero_optimization.stage3_param_persistence_threshold",
         "zero_optimization.stage3_max_live_parameters",
         "zero_optimization.stage3_max_reuse_distance",
         "zero_optimization.stage3_gather_16bit_weights_on_model_save",
         "zero_optimization.sub_group_size",
         "zero_optimization.offload_optimizer.pin_memory",
         "zero_optimization.offload_param.pin_memory",
         "activation_checkpointing.",
         "bf16.",
         "fp16.",
         "communication_data_type"},
        finish_deepspeed,
        {"training.flash_attention", "training.dropout"},
        [](const PlanSpec& spec) {
            std::vector<Text> notes;
            add_fixed_notes(spec, "DeepSpeed", kDeepspeedFixes, notes);
            // The config's activation_checkpointing section configures
            // deepspeed.checkpointing.checkpoint(); only a model whose layers call it recompute
            // (DeepSpeed's activation-checkpointing documentation): a Hugging Face model turns it
            // on with gradient_checkpointing_enable(), which no config key does.
            if (spec.training.recompute == Recompute::full) {
                notes.push_back(TALLY_TEXT("tally::launch",
                                           "full recomputation: the activation_checkpointing "
                                           "section configures DeepSpeed's checkpoint(); the "
                                           "training script must checkpoint each layer with it "
                                           "(a Hugging Face model: "
                                           "model.gradient_checkpointing_enable()), or the run "
                                           "keeps every activation the plan recomputes"));
            }
            return notes;
        },
        // The training script's data loader cuts the sequences (DeepSpeedConfig has no length).
        {"data.seq_len"},
    };
}

Table accelerate_table() {
    return Table{
        LaunchTarget::accelerate,
        "accelerate",
        QT_TRANSLATE_NOOP("tally::launch", "accelerate FSDP YAML"),
        "yaml",
        Form::yaml,
        {
            custom("compute_environment", Kind::text, "", get_constant<kLocalMachine>,
                   set_constant<kLocalMachine>),
            custom("distributed_type", Kind::text, "training.zero", get_distributed_type,
                   set_distributed_type),
            custom("fsdp_config.fsdp_sharding_strategy", Kind::text, "training.zero", get_sharding,
                   set_sharding),
            custom("fsdp_config.fsdp_offload_params", Kind::boolean, "training.offload",
                   get_fsdp_offload, set_offload_all, Value{false}),
            custom("fsdp_config.fsdp_activation_checkpointing", Kind::boolean, "training.recompute",
                   get_fsdp_checkpointing, set_full_recompute),
            custom("fsdp_config.fsdp_backward_prefetch", Kind::text,
                   "training.fsdp_backward_prefetch", get_backward_prefetch, set_backward_prefetch),
            custom(
                "fsdp_config.fsdp_auto_wrap_policy", Kind::text, "",
                [](const PlanSpec& s) -> std::optional<Value> {
                    return s.training.zero == 0 ? std::nullopt : get_constant<kTransformerWrap>(s);
                },
                set_constant<kTransformerWrap>),
            custom("mixed_precision", Kind::text, "training.param_dtype",
                   get_precision_name<kNo, kBf16Short, kFp16Short>,
                   set_precision_name<kNo, kBf16Short, kFp16Short>, Value{std::string(kNo)}),
            custom("num_machines", Kind::integer, "cluster.gpus", get_machines, set_machines,
                   Value{I{1}}),
            custom("num_processes", Kind::integer, "cluster.gpus", get_gpus, set_gpus),
        },
        {refuse_not_transformer,
         refuse_mtp,
         refuse_precision,
         refuse_fp8,
         refuse_zero_1,
         refuse_activation_offload,
         refuse_tp_comm_overlap,
         refuse_in_place_cross_entropy,
         refuse_partial_recompute,
         refuse_ep_comm_overlap,
         refuse_flex_dispatcher,
         refuse_offload_optimizer_only,
         refuse_selective_recompute,
         refuse_above<&TrainingSpec::tp, 1>,
         refuse_above<&TrainingSpec::pp, 1>,
         refuse_above<&TrainingSpec::interleave, 1>,
         refuse_stage_layers,
         refuse_above<&TrainingSpec::context_parallel, 1>,
         refuse_above<&TrainingSpec::expert_parallel, 1>,
         [](const PlanSpec& s, std::string_view title) -> std::optional<FieldError> {
             if (s.training.zero == 0 &&
                 (s.training.offload != Offload::none || s.training.recompute != Recompute::none)) {
                 return refusal(
                     "training.zero", "0",
                     TALLY_TEXT("tally::launch",
                                "2 or 3 with offload or recomputation: accelerate sets them in "
                                "fsdp_config (%1 cannot express it)")
                         .arg_translated("tally::launch", title.data()));
             }
             return std::nullopt;
         }},
        {"machine_rank",
         "main_process_ip",
         "main_process_port",
         "main_training_function",
         "rdzv_backend",
         "same_network",
         "use_cpu",
         "debug",
         "gpu_ids",
         "tpu_env",
         "tpu_use_cluster",
         "tpu_use_sudo",
         "downcast_bf16",
         "enable_cpu_affinity",
         "fsdp_config.fsdp_forward_prefetch",
         "fsdp_config.fsdp_cpu_ram_efficient_loading",
         "fsdp_config.fsdp_sync_module_states",
         "fsdp_config.fsdp_use_orig_params",
         "fsdp_config.fsdp_state_dict_type",
         "fsdp_config.fsdp_transformer_layer_cls_to_wrap",
         "fsdp_config.fsdp_min_num_params",
         "fsdp_config.fsdp_version",
         "fsdp_config.fsdp_reshard_after_forward"},
        finish_fsdp,
        {"training.flash_attention", "training.dp_overlap", "training.dropout",
         "training.optimizer", "training.optimizer_impl"},
        [](const PlanSpec& spec) {
            std::vector<Text> notes;
            add_fixed_notes(spec, "accelerate", kAccelerateFixes, notes);
            return notes;
        },
        // The training script's data loader sets the sequences and the batch
        // (config_args.py's ClusterConfig has neither).
        {"data.seq_len", "data.micro_batch", "data.global_batch"},
    };
}

}  // namespace

std::int64_t host_gpus(const PlanSpec& s) {
    const HardwareProfile* part = find_builtin_hardware(s.cluster.gpu);
    return part != nullptr && part->gpus_per_host > 0 ? part->gpus_per_host
           : s.cluster.gpus_per_node > 0              ? s.cluster.gpus_per_node
                                                      : 8;
}

const Table& table(LaunchTarget target) {
    static const std::vector<Table> tables = [] {
        std::vector<Table> t;
        t.push_back(megatron_table());
        t.push_back(nemo_table());
        t.push_back(torchtitan_table());
        t.push_back(deepspeed_table());
        t.push_back(accelerate_table());
        return t;
    }();
    return tables.at(static_cast<std::size_t>(target));
}

}  // namespace tally::launch

namespace tally {

// torchtitan/models/llama3/__init__.py (v0.2.2, 73a0e69): dim, n_layers, n_heads, n_kv_heads,
// ffn_dim_multiplier, multiple_of; vocab_size 128256 (torchtitan/models/llama3/model/args.py).
// The SwiGLU width follows its FeedForward (model/model.py): hidden = int(2 * 4 * dim / 3), then
// int(multiplier * hidden), then rounded up to a multiple of multiple_of.
std::optional<ModelSpec> torchtitan_flavour(std::string_view model_name, std::string_view flavour) {
    struct Flavour {
        std::string_view name;
        std::int64_t dim, layers, heads, kv_heads;
        double multiplier;
        std::int64_t multiple_of;
    };
    static constexpr Flavour llama3[] = {
        {"8B", 4096, 32, 32, 8, 1.3, 1024},
        {"70B", 8192, 80, 64, 8, 1.3, 4096},
        {"405B", 16384, 126, 128, 8, 1.2, 4096},
    };
    if (model_name != "llama3") {
        return std::nullopt;
    }
    for (const Flavour& f : llama3) {
        if (f.name != flavour) {
            continue;
        }
        std::int64_t hidden = 2 * (4 * f.dim) / 3;
        hidden = static_cast<std::int64_t>(f.multiplier * static_cast<double>(hidden));
        hidden = f.multiple_of * ((hidden + f.multiple_of - 1) / f.multiple_of);
        ModelSpec m;
        m.kind = ModelKind::transformer;
        m.name = fmt::format("Llama 3 {} (torchtitan llama3 {})", f.name, f.name);
        m.layers = f.layers;
        m.hidden = f.dim;
        m.heads = f.heads;
        m.kv_heads = f.kv_heads;
        m.ffn_hidden = hidden;
        m.ffn = FfnKind::swiglu;
        m.vocab = 128256;
        m.tied_embeddings = false;
        m.norm = NormKind::rmsnorm;
        m.bias = BiasKind::none;
        m.rope_theta = launch::kTorchtitanLlama3RopeTheta;
        return m;
    }
    return std::nullopt;
}

}  // namespace tally
