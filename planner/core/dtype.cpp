#include "planner/core/dtype.h"

#include "planner/core/enum_names.h"

namespace tally {

std::string_view to_string(DType type) {
    return json_name(type);
}

std::string_view to_string(ComputeType type) {
    switch (type) {
        case ComputeType::fp64:
            return "fp64";
        case ComputeType::fp32:
            return "fp32";
        case ComputeType::tf32:
            return "tf32";
        case ComputeType::bf16:
            return "bf16";
        case ComputeType::fp16:
            return "fp16";
        case ComputeType::fp8:
            return "fp8";
        case ComputeType::fp4:
            return "fp4";
        case ComputeType::int8:
            return "int8";
    }
    return "?";
}

std::optional<DType> parse_dtype(std::string_view name) {
    if (auto canonical = enum_from_json_name<DType>(name)) {
        return canonical;
    }
    struct Alias {
        std::string_view name;
        DType type;
    };
    static constexpr Alias kAliases[] = {
        {"float64", DType::fp64}, {"float32", DType::fp32}, {"bfloat16", DType::bf16},
        {"float16", DType::fp16}, {"fp8", DType::fp8_e4m3}, {"fp4", DType::fp4_e2m1},
    };
    for (const Alias& a : kAliases) {
        if (a.name == name) {
            return a.type;
        }
    }
    return std::nullopt;
}

std::optional<ComputeType> parse_compute_type(std::string_view name) {
    for (ComputeType t : kAllComputeTypes) {
        if (to_string(t) == name) {
            return t;
        }
    }
    return std::nullopt;
}

std::string_view dtype_names() {
    return "fp64, fp32, tf32, bf16, fp16, fp8 (= fp8_e4m3), fp8_e4m3, fp8_e5m2, int8, fp4 "
           "(= fp4_e2m1), nvfp4, mxfp4, int4";
}

double bytes_per_value(DType type) {
    switch (type) {
        case DType::fp64:
            return 8.0;
        case DType::fp32:
        case DType::tf32:
            return 4.0;
        case DType::bf16:
        case DType::fp16:
            return 2.0;
        case DType::fp8_e4m3:
        case DType::fp8_e5m2:
        case DType::int8:
            return 1.0;
        case DType::fp4_e2m1:
        case DType::int4:
            return 0.5;
        case DType::nvfp4:
            return (4.0 + 8.0 / 16.0) / 8.0;  // 4.5 bits
        case DType::mxfp4:
            return (4.0 + 8.0 / 32.0) / 8.0;  // 4.25 bits
    }
    return 0.0;
}

double tensor_bytes(std::span<const std::int64_t> shape, DType type) {
    double elements = 1.0;
    for (std::int64_t d : shape) {
        elements *= static_cast<double>(d);
    }
    return elements * bytes_per_value(type);
}

ComputeType compute_type(DType type) {
    switch (type) {
        case DType::fp64:
            return ComputeType::fp64;
        case DType::fp32:
            return ComputeType::fp32;
        case DType::tf32:
            return ComputeType::tf32;
        case DType::bf16:
            return ComputeType::bf16;
        case DType::fp16:
            return ComputeType::fp16;
        case DType::fp8_e4m3:
        case DType::fp8_e5m2:
            return ComputeType::fp8;
        case DType::int8:
            return ComputeType::int8;
        // The catalog lists no int4 peak (Hopper has no int4 tensor-core path); int4 weights
        // are dequantized and multiplied on the narrowest integer path it has.
        case DType::int4:
            return ComputeType::int8;
        case DType::fp4_e2m1:
        case DType::nvfp4:
        case DType::mxfp4:
            return ComputeType::fp4;
    }
    return ComputeType::fp32;
}

}  // namespace tally
