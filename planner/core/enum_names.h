#pragma once

// The names of the spec's enums, one table per enum: each row pairs a value with the name JSON
// specs use and the label the GUI's form shows. to_string(), the spec reader and the form's combo
// boxes all read these tables, so the order of an enum's values never decides what a name means.
// Labels are English; the GUI translates them in the "tally::ui::SpecForm" context. A table's
// row order is the order the form lists the choices in.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "planner/core/text.h"

#include "planner/core/dtype.h"
#include "planner/core/op_spec.h"
#include "planner/core/spec.h"

namespace tally {

template <typename E>
struct EnumName {
    E value;
    std::string_view json_name;
    std::string_view label;
};

inline constexpr EnumName<ModelKind> kModelKindNames[] = {
    {ModelKind::transformer, "transformer", QT_TRANSLATE_NOOP("tally::enums", "Transformer")},
    {ModelKind::mlp, "mlp", QT_TRANSLATE_NOOP("tally::enums", "Deep ReLU network (lecture 2)")},
    {ModelKind::params, "params", QT_TRANSLATE_NOOP("tally::enums", "Parameter count only")},
};

inline constexpr EnumName<FfnKind> kFfnKindNames[] = {
    {FfnKind::gelu, "gelu", QT_TRANSLATE_NOOP("tally::enums", "GELU")},
    {FfnKind::swiglu, "swiglu", QT_TRANSLATE_NOOP("tally::enums", "SwiGLU")},
    {FfnKind::relu, "relu", QT_TRANSLATE_NOOP("tally::enums", "ReLU")},
};

inline constexpr EnumName<NormKind> kNormKindNames[] = {
    {NormKind::rmsnorm, "rmsnorm", QT_TRANSLATE_NOOP("tally::enums", "RMSNorm")},
    {NormKind::layernorm, "layernorm", QT_TRANSLATE_NOOP("tally::enums", "LayerNorm")},
};

inline constexpr EnumName<BiasKind> kBiasKindNames[] = {
    {BiasKind::none, "none", QT_TRANSLATE_NOOP("tally::enums", "none")},
    {BiasKind::qkv, "qkv", QT_TRANSLATE_NOOP("tally::enums", "QKV only")},
    {BiasKind::all, "all", QT_TRANSLATE_NOOP("tally::enums", "all")},
};

inline constexpr EnumName<Optimizer> kOptimizerNames[] = {
    {Optimizer::sgd, "sgd", QT_TRANSLATE_NOOP("tally::enums", "SGD")},
    {Optimizer::momentum, "momentum", QT_TRANSLATE_NOOP("tally::enums", "SGD with momentum")},
    {Optimizer::adagrad, "adagrad", QT_TRANSLATE_NOOP("tally::enums", "AdaGrad")},
    {Optimizer::rmsprop, "rmsprop", QT_TRANSLATE_NOOP("tally::enums", "RMSProp")},
    {Optimizer::adam, "adam", QT_TRANSLATE_NOOP("tally::enums", "Adam")},
    {Optimizer::adamw, "adamw", QT_TRANSLATE_NOOP("tally::enums", "AdamW")},
    {Optimizer::adafactor, "adafactor", QT_TRANSLATE_NOOP("tally::enums", "Adafactor")},
    {Optimizer::lion, "lion", QT_TRANSLATE_NOOP("tally::enums", "Lion")},
    {Optimizer::adam8bit, "adam8bit", QT_TRANSLATE_NOOP("tally::enums", "8-bit Adam")},
};

inline constexpr EnumName<Recompute> kRecomputeNames[] = {
    {Recompute::none, "none", QT_TRANSLATE_NOOP("tally::enums", "none")},
    {Recompute::selective, "selective", QT_TRANSLATE_NOOP("tally::enums", "selective")},
    {Recompute::full, "full", QT_TRANSLATE_NOOP("tally::enums", "full")},
    {Recompute::sqrt, "sqrt", QT_TRANSLATE_NOOP("tally::enums", "every sqrt(L) layers")},
};

inline constexpr EnumName<FlopsFormula> kFlopsFormulaNames[] = {
    {FlopsFormula::six_nd, "6nd", QT_TRANSLATE_NOOP("tally::enums", "6 N D")},
    {FlopsFormula::attention, "attention", QT_TRANSLATE_NOOP("tally::enums", "6 N D + attention")},
};

inline constexpr EnumName<Offload> kOffloadNames[] = {
    {Offload::none, "none", QT_TRANSLATE_NOOP("tally::enums", "none")},
    {Offload::optimizer, "optimizer", QT_TRANSLATE_NOOP("tally::enums", "optimizer state to host")},
    {Offload::optimizer_and_params, "optimizer_and_params",
     QT_TRANSLATE_NOOP("tally::enums", "optimizer state and parameters to host")},
};

inline constexpr EnumName<ServingEngine> kServingEngineNames[] = {
    {ServingEngine::vllm, "vllm", "vLLM"},
    {ServingEngine::tensorrt_llm, "tensorrt_llm", "TensorRT-LLM"},
    {ServingEngine::sglang, "sglang", "SGLang"},
    {ServingEngine::gpt_fast, "gpt_fast", "gpt-fast (torch.compile)"},
};

inline constexpr EnumName<DecodeAttention> kDecodeAttentionNames[] = {
    {DecodeAttention::grouped, "grouped",
     QT_TRANSLATE_NOOP("tally::enums", "each KV head read once for its query heads")},
    {DecodeAttention::per_query_head, "per_query_head",
     QT_TRANSLATE_NOOP("tally::enums", "KV read once per query head (masked MHA)")},
};

inline constexpr EnumName<OutputHead> kOutputHeadNames[] = {
    {OutputHead::engine, "engine",
     QT_TRANSLATE_NOOP("tally::enums", "as the engine's checkpoints store it")},
    {OutputHead::quantized, "quantized",
     QT_TRANSLATE_NOOP("tally::enums", "quantized like the other weights")},
    {OutputHead::sixteen_bit, "16bit", QT_TRANSLATE_NOOP("tally::enums", "16-bit")},
};

inline constexpr EnumName<Engine> kEngineNames[] = {
    {Engine::megatron, "megatron",
     QT_TRANSLATE_NOOP("tally::enums", "Megatron-Core + Transformer Engine")},
    {Engine::fsdp, "fsdp", QT_TRANSLATE_NOOP("tally::enums", "PyTorch FSDP (eager)")},
    {Engine::fsdp_compile, "fsdp_compile",
     QT_TRANSLATE_NOOP("tally::enums", "PyTorch FSDP + torch.compile")},
    {Engine::deepspeed, "deepspeed", QT_TRANSLATE_NOOP("tally::enums", "DeepSpeed ZeRO")},
};

inline constexpr EnumName<Fp8Recipe> kFp8RecipeNames[] = {
    {Fp8Recipe::delayed, "delayed",
     QT_TRANSLATE_NOOP("tally::enums", "delayed scaling (per tensor)")},
    {Fp8Recipe::current, "current",
     QT_TRANSLATE_NOOP("tally::enums", "current scaling (per tensor)")},
    {Fp8Recipe::block, "block", QT_TRANSLATE_NOOP("tally::enums", "blockwise (1x128, 128x128)")},
    {Fp8Recipe::mxfp8, "mxfp8", QT_TRANSLATE_NOOP("tally::enums", "MXFP8 (32-value blocks)")},
};

inline constexpr EnumName<MoeDispatcher> kMoeDispatcherNames[] = {
    {MoeDispatcher::alltoall, "alltoall",
     QT_TRANSLATE_NOOP("tally::enums", "all-to-all (every token copy)")},
    {MoeDispatcher::flex, "flex",
     QT_TRANSLATE_NOOP("tally::enums", "flex: DeepEP / HybridEP (once per node)")},
};
inline constexpr EnumName<FsdpBackwardPrefetch> kFsdpBackwardPrefetchNames[] = {
    {FsdpBackwardPrefetch::pre, "pre",
     QT_TRANSLATE_NOOP("tally::enums", "before each layer's gradients (BACKWARD_PRE)")},
    {FsdpBackwardPrefetch::post, "post",
     QT_TRANSLATE_NOOP("tally::enums", "after each layer's gradients (BACKWARD_POST)")},
};
inline constexpr EnumName<CrossEntropy> kCrossEntropyNames[] = {
    {CrossEntropy::fp32, "fp32", QT_TRANSLATE_NOOP("tally::enums", "fp32 softmax, 4 B a logit")},
    {CrossEntropy::in_place, "in_place",
     QT_TRANSLATE_NOOP("tally::enums", "in place, 2 B a logit")},
};
inline constexpr EnumName<OptimizerImpl> kOptimizerImplNames[] = {
    {OptimizerImpl::engine, "engine", QT_TRANSLATE_NOOP("tally::enums", "the engine's")},
    {OptimizerImpl::fused, "fused",
     QT_TRANSLATE_NOOP("tally::enums", "fused: one pass (FusedAdam)")},
    {OptimizerImpl::foreach, "foreach",
     QT_TRANSLATE_NOOP("tally::enums", "foreach: a pass per operation (torch.optim.AdamW)")},
};
inline constexpr EnumName<AttentionKernel> kAttentionKernelNames[] = {
    {AttentionKernel::engine, "engine", QT_TRANSLATE_NOOP("tally::enums", "the engine's")},
    {AttentionKernel::flash2, "flash2", QT_TRANSLATE_NOOP("tally::enums", "FlashAttention-2")},
    {AttentionKernel::flash3, "flash3", QT_TRANSLATE_NOOP("tally::enums", "FlashAttention-3")},
    {AttentionKernel::cudnn, "cudnn", QT_TRANSLATE_NOOP("tally::enums", "cuDNN fused attention")},
    {AttentionKernel::triton, "triton",
     QT_TRANSLATE_NOOP("tally::enums", "Triton flash attention")},
    {AttentionKernel::flash1, "flash1",
     QT_TRANSLATE_NOOP("tally::enums", "FlashAttention (v1, or its 2022 Triton port)")},
};

inline constexpr EnumName<OpKind> kOpKindNames[] = {
    {OpKind::relu, "relu", QT_TRANSLATE_NOOP("tally::enums", "relu")},
    {OpKind::gelu, "gelu", QT_TRANSLATE_NOOP("tally::enums", "gelu")},
    {OpKind::dot, "dot", QT_TRANSLATE_NOOP("tally::enums", "dot")},
    {OpKind::matvec, "matvec", QT_TRANSLATE_NOOP("tally::enums", "matvec")},
    {OpKind::matmul, "matmul", QT_TRANSLATE_NOOP("tally::enums", "matmul")},
    {OpKind::einsum, "einsum", QT_TRANSLATE_NOOP("tally::enums", "einsum")},
};

// Canonical dtype names (parse_dtype() also accepts a few aliases, listed in dtype.cpp).
inline constexpr EnumName<DType> kDTypeNames[] = {
    {DType::fp64, "fp64", QT_TRANSLATE_NOOP("tally::enums", "fp64")},
    {DType::fp32, "fp32", QT_TRANSLATE_NOOP("tally::enums", "fp32")},
    {DType::tf32, "tf32", QT_TRANSLATE_NOOP("tally::enums", "tf32")},
    {DType::bf16, "bf16", QT_TRANSLATE_NOOP("tally::enums", "bf16")},
    {DType::fp16, "fp16", QT_TRANSLATE_NOOP("tally::enums", "fp16")},
    {DType::fp8_e4m3, "fp8_e4m3", QT_TRANSLATE_NOOP("tally::enums", "fp8_e4m3")},
    {DType::fp8_e5m2, "fp8_e5m2", QT_TRANSLATE_NOOP("tally::enums", "fp8_e5m2")},
    {DType::int8, "int8", QT_TRANSLATE_NOOP("tally::enums", "int8")},
    {DType::fp4_e2m1, "fp4_e2m1", QT_TRANSLATE_NOOP("tally::enums", "fp4_e2m1")},
    {DType::nvfp4, "nvfp4", QT_TRANSLATE_NOOP("tally::enums", "nvfp4")},
    {DType::mxfp4, "mxfp4", QT_TRANSLATE_NOOP("tally::enums", "mxfp4")},
    {DType::int4, "int4", QT_TRANSLATE_NOOP("tally::enums", "int4")},
};

// The master weights a spec may keep: none, or an fp32 copy. The copy exists to hold the weights
// in more precision than the bf16/fp16 parameters (Micikevicius et al. 2018, sec. 3.1); fp32 is
// the only width the planner models (check() refuses others), so reader and form offer just these.
inline constexpr EnumName<std::optional<DType>> kMasterDtypeNames[] = {
    {std::nullopt, "none", QT_TRANSLATE_NOOP("tally::enums", "none")},
    {DType::fp32, "fp32", QT_TRANSLATE_NOOP("tally::enums", "fp32")},
};

// The table of an enum, for the generic look-ups below.
template <typename E>
inline constexpr std::span<const EnumName<E>> kEnumNames{};
template <>
inline constexpr std::span<const EnumName<ModelKind>> kEnumNames<ModelKind>{kModelKindNames};
template <>
inline constexpr std::span<const EnumName<FfnKind>> kEnumNames<FfnKind>{kFfnKindNames};
template <>
inline constexpr std::span<const EnumName<NormKind>> kEnumNames<NormKind>{kNormKindNames};
template <>
inline constexpr std::span<const EnumName<BiasKind>> kEnumNames<BiasKind>{kBiasKindNames};
template <>
inline constexpr std::span<const EnumName<Optimizer>> kEnumNames<Optimizer>{kOptimizerNames};
template <>
inline constexpr std::span<const EnumName<Recompute>> kEnumNames<Recompute>{kRecomputeNames};
template <>
inline constexpr std::span<const EnumName<FlopsFormula>> kEnumNames<FlopsFormula>{
    kFlopsFormulaNames};
template <>
inline constexpr std::span<const EnumName<Offload>> kEnumNames<Offload>{kOffloadNames};
template <>
inline constexpr std::span<const EnumName<Engine>> kEnumNames<Engine>{kEngineNames};
template <>
inline constexpr std::span<const EnumName<ServingEngine>> kEnumNames<ServingEngine>{
    kServingEngineNames};
template <>
inline constexpr std::span<const EnumName<DecodeAttention>> kEnumNames<DecodeAttention>{
    kDecodeAttentionNames};
template <>
inline constexpr std::span<const EnumName<OutputHead>> kEnumNames<OutputHead>{kOutputHeadNames};
template <>
inline constexpr std::span<const EnumName<Fp8Recipe>> kEnumNames<Fp8Recipe>{kFp8RecipeNames};
template <>
inline constexpr std::span<const EnumName<MoeDispatcher>> kEnumNames<MoeDispatcher>{
    kMoeDispatcherNames};
template <>
inline constexpr std::span<const EnumName<FsdpBackwardPrefetch>> kEnumNames<FsdpBackwardPrefetch>{
    kFsdpBackwardPrefetchNames};
template <>
inline constexpr std::span<const EnumName<CrossEntropy>> kEnumNames<CrossEntropy>{
    kCrossEntropyNames};
template <>
inline constexpr std::span<const EnumName<OptimizerImpl>> kEnumNames<OptimizerImpl>{
    kOptimizerImplNames};
template <>
inline constexpr std::span<const EnumName<AttentionKernel>> kEnumNames<AttentionKernel>{
    kAttentionKernelNames};
template <>
inline constexpr std::span<const EnumName<OpKind>> kEnumNames<OpKind>{kOpKindNames};
template <>
inline constexpr std::span<const EnumName<DType>> kEnumNames<DType>{kDTypeNames};
template <>
inline constexpr std::span<const EnumName<std::optional<DType>>> kEnumNames<std::optional<DType>>{
    kMasterDtypeNames};

// The row of `value`, or nullptr when the table lacks it.
template <typename E>
constexpr const EnumName<E>* find_enum_name(E value) {
    for (const EnumName<E>& row : kEnumNames<E>) {
        if (row.value == value) {
            return &row;
        }
    }
    return nullptr;
}

// The JSON name of `value`; "?" when the table lacks it.
template <typename E>
constexpr std::string_view json_name(E value) {
    const EnumName<E>* row = find_enum_name(value);
    return row ? row->json_name : std::string_view("?");
}

// The value whose JSON name is `name`, or nullopt.
template <typename E>
constexpr std::optional<E> enum_from_json_name(std::string_view name) {
    for (const EnumName<E>& row : kEnumNames<E>) {
        if (row.json_name == name) {
            return row.value;
        }
    }
    return std::nullopt;
}

// "a, b, c": the JSON names, for error messages.
template <typename E>
std::string json_names() {
    std::string list;
    for (const EnumName<E>& row : kEnumNames<E>) {
        if (!list.empty()) {
            list += ", ";
        }
        list += row.json_name;
    }
    return list;
}

}  // namespace tally
