#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tally {

// Number formats a spec can name for storage (params, grads, optimizer state, activations) or for
// compute. Block formats (nvfp4, mxfp4) carry a shared scale per block; their storage cost below
// includes it.
enum class DType {
    fp64,
    fp32,
    tf32,
    bf16,
    fp16,
    fp8_e4m3,
    fp8_e5m2,
    int8,
    fp4_e2m1,
    nvfp4,
    mxfp4,
    int4,  // weight-only quantization (GPTQ, AWQ): two values per byte
};

// The dtype families hardware tables give a dense peak for.
enum class ComputeType { fp64, fp32, tf32, bf16, fp16, fp8, fp4, int8 };
inline constexpr std::size_t kComputeTypeCount = 8;
inline constexpr std::array<ComputeType, kComputeTypeCount> kAllComputeTypes{
    ComputeType::fp64, ComputeType::fp32, ComputeType::tf32, ComputeType::bf16,
    ComputeType::fp16, ComputeType::fp8,  ComputeType::fp4,  ComputeType::int8};

std::string_view to_string(DType type);
std::string_view to_string(ComputeType type);

// Accepts the canonical names of to_string() and the aliases "fp8" (= fp8_e4m3), "fp4"
// (= fp4_e2m1), "float32", "float16", "bfloat16". Returns nullopt for anything else.
std::optional<DType> parse_dtype(std::string_view name);
std::optional<ComputeType> parse_compute_type(std::string_view name);

// The list of accepted names, for error messages.
std::string_view dtype_names();

// Storage cost of one value in bytes. tf32 is stored in a 32-bit container. Block formats add
// their scale: NVFP4 = 4 bits + one E4M3 scale (8 bits) per 16 values = 4.5 bits; MXFP4 = 4 bits
// + one E8M0 scale per 32 values = 4.25 bits (OCP Microscaling Formats (MX) v1.0, sec. 5;
// NVIDIA Blackwell NVFP4, "Introducing NVFP4", 2025). int4 is 4 bits, two values per byte
// (GPTQ, Frantar et al. 2023, sec. 5; AWQ, Lin et al. 2024, sec. 3); the per-group scales of
// those methods (one 16-bit scale per 128 weights, 0.125 bits a weight) are not counted, as int8
// counts none.
double bytes_per_value(DType type);

// Memory of a tensor: elements x bytes_per_value (CS336 lecture 2: a 4 x 8 fp32 tensor takes
// 32 x 4 = 128 bytes). Every dimension must be >= 1.
double tensor_bytes(std::span<const std::int64_t> shape, DType type);

// The hardware peak a computation in this dtype runs at.
ComputeType compute_type(DType type);

}  // namespace tally
