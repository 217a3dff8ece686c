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
    {ModelKind::transformer, "transformer", "Transformer"},
    {ModelKind::mlp, "mlp", "Deep ReLU network (lecture 2)"},
    {ModelKind::params, "params", "Parameter count only"},
};

inline constexpr EnumName<FfnKind> kFfnKindNames[] = {
    {FfnKind::gelu, "gelu", "GELU"},
    {FfnKind::swiglu, "swiglu", "SwiGLU"},
    {FfnKind::relu, "relu", "ReLU"},
};

inline constexpr EnumName<NormKind> kNormKindNames[] = {
    {NormKind::rmsnorm, "rmsnorm", "RMSNorm"},
    {NormKind::layernorm, "layernorm", "LayerNorm"},
};

inline constexpr EnumName<BiasKind> kBiasKindNames[] = {
    {BiasKind::none, "none", "none"},
    {BiasKind::qkv, "qkv", "QKV only"},
    {BiasKind::all, "all", "all"},
};

inline constexpr EnumName<Optimizer> kOptimizerNames[] = {
    {Optimizer::sgd, "sgd", "SGD"},
    {Optimizer::momentum, "momentum", "SGD with momentum"},
    {Optimizer::adagrad, "adagrad", "AdaGrad"},
    {Optimizer::rmsprop, "rmsprop", "RMSProp"},
    {Optimizer::adam, "adam", "Adam"},
    {Optimizer::adamw, "adamw", "AdamW"},
    {Optimizer::adafactor, "adafactor", "Adafactor"},
    {Optimizer::lion, "lion", "Lion"},
    {Optimizer::adam8bit, "adam8bit", "8-bit Adam"},
};

inline constexpr EnumName<Recompute> kRecomputeNames[] = {
    {Recompute::none, "none", "none"},
    {Recompute::selective, "selective", "selective"},
    {Recompute::full, "full", "full"},
    {Recompute::sqrt, "sqrt", "every sqrt(L) layers"},
};

inline constexpr EnumName<FlopsFormula> kFlopsFormulaNames[] = {
    {FlopsFormula::six_nd, "6nd", "6 N D"},
    {FlopsFormula::attention, "attention", "6 N D + attention"},
};

inline constexpr EnumName<Offload> kOffloadNames[] = {
    {Offload::none, "none", "none"},
    {Offload::optimizer, "optimizer", "optimizer state to host"},
    {Offload::optimizer_and_params, "optimizer_and_params",
     "optimizer state and parameters to host"},
};

inline constexpr EnumName<ServingEngine> kServingEngineNames[] = {
    {ServingEngine::vllm, "vllm", "vLLM"},
    {ServingEngine::tensorrt_llm, "tensorrt_llm", "TensorRT-LLM"},
    {ServingEngine::sglang, "sglang", "SGLang"},
    {ServingEngine::gpt_fast, "gpt_fast", "gpt-fast (torch.compile)"},
};

inline constexpr EnumName<Engine> kEngineNames[] = {
    {Engine::megatron, "megatron", "Megatron-Core + Transformer Engine"},
    {Engine::fsdp, "fsdp", "PyTorch FSDP (eager)"},
    {Engine::fsdp_compile, "fsdp_compile", "PyTorch FSDP + torch.compile"},
    {Engine::deepspeed, "deepspeed", "DeepSpeed ZeRO"},
};

inline constexpr EnumName<Fp8Recipe> kFp8RecipeNames[] = {
    {Fp8Recipe::delayed, "delayed", "delayed scaling (per tensor)"},
    {Fp8Recipe::current, "current", "current scaling (per tensor)"},
    {Fp8Recipe::block, "block", "blockwise (1x128, 128x128)"},
    {Fp8Recipe::mxfp8, "mxfp8", "MXFP8 (32-value blocks)"},
};

inline constexpr EnumName<AttentionKernel> kAttentionKernelNames[] = {
    {AttentionKernel::engine, "engine", "the engine's"},
    {AttentionKernel::flash2, "flash2", "FlashAttention-2"},
    {AttentionKernel::flash3, "flash3", "FlashAttention-3"},
    {AttentionKernel::cudnn, "cudnn", "cuDNN fused attention"},
    {AttentionKernel::triton, "triton", "Triton flash attention"},
};

inline constexpr EnumName<OpKind> kOpKindNames[] = {
    {OpKind::relu, "relu", "relu"},       {OpKind::gelu, "gelu", "gelu"},
    {OpKind::dot, "dot", "dot"},          {OpKind::matvec, "matvec", "matvec"},
    {OpKind::matmul, "matmul", "matmul"}, {OpKind::einsum, "einsum", "einsum"},
};

// Canonical dtype names (parse_dtype() also accepts a few aliases, listed in dtype.cpp).
inline constexpr EnumName<DType> kDTypeNames[] = {
    {DType::fp64, "fp64", "fp64"},
    {DType::fp32, "fp32", "fp32"},
    {DType::tf32, "tf32", "tf32"},
    {DType::bf16, "bf16", "bf16"},
    {DType::fp16, "fp16", "fp16"},
    {DType::fp8_e4m3, "fp8_e4m3", "fp8_e4m3"},
    {DType::fp8_e5m2, "fp8_e5m2", "fp8_e5m2"},
    {DType::int8, "int8", "int8"},
    {DType::fp4_e2m1, "fp4_e2m1", "fp4_e2m1"},
    {DType::nvfp4, "nvfp4", "nvfp4"},
    {DType::mxfp4, "mxfp4", "mxfp4"},
    {DType::int4, "int4", "int4"},
};

// The master weights a spec may keep: none, or an fp32 copy. The copy exists to hold the weights
// in more precision than the bf16/fp16 parameters (Micikevicius et al. 2018, sec. 3.1); fp32 is
// the only width the planner models (check() refuses others), so reader and form offer just these.
inline constexpr EnumName<std::optional<DType>> kMasterDtypeNames[] = {
    {std::nullopt, "none", "none"},
    {DType::fp32, "fp32", "fp32"},
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
inline constexpr std::span<const EnumName<Fp8Recipe>> kEnumNames<Fp8Recipe>{kFp8RecipeNames};
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
