#pragma once

// FLOPs, bytes moved and arithmetic intensity of single operations (CS336 lecture 2,
// "arithmetic intensity": an operation reads its inputs from memory, computes, and writes its
// output back; intensity = FLOPs / bytes moved).

#include <cstdint>
#include <string>

#include "planner/core/dtype.h"
#include "planner/core/op_spec.h"

namespace tally {

struct OpCost {
    std::string name;
    std::string kind;  // relu, gelu, dot, matvec, matmul, einsum; model layers add more
    DType dtype = DType::bf16;
    double flops = 0.0;
    double read_bytes = 0.0;
    double write_bytes = 0.0;

    double bytes() const { return read_bytes + write_bytes; }
    // FLOP per byte; 0 for an operation that moves nothing.
    double intensity() const { return bytes() > 0.0 ? flops / bytes() : 0.0; }
};

// Every function below takes sizes >= 1 and counts bytes as values x bytes_per_value(dtype).
// Multiply-add counts follow the lecture's convention: 2 FLOPs per multiply-accumulate, the
// "-1" of a sum of n terms (n - 1 adds) dropped.

// y = max(x, 0) over n values: reads n, writes n, n FLOPs (one comparison each).
// bf16: 2n + 2n bytes, intensity n / 4n = 0.25 (lecture 2).
OpCost relu_cost(std::int64_t n, DType dtype);

// GELU over n values at flops_per_element each (lecture 2: "about 20"): reads n, writes n.
// bf16, 20 FLOPs: 20n / 4n = 5 (lecture 2).
OpCost gelu_cost(std::int64_t n, DType dtype, double flops_per_element = 20.0);

// y = x . w for two n-vectors: reads 2n values, writes 1, 2n FLOPs (n multiplies, n - 1 adds,
// rounded to 2n). bf16: 2n / (4n + 2) -> 0.5 (lecture 2).
OpCost dot_cost(std::int64_t n, DType dtype);

// y = W x, W m x n, x an n-vector: reads m·n + n, writes m, 2·m·n FLOPs (m dot products).
// Square bf16: 2n² / (2n² + 4n) -> 1 (lecture 2).
OpCost matvec_cost(std::int64_t m, std::int64_t n, DType dtype);

// C = A B, A m x k, B k x n: reads m·k + k·n, writes m·n, 2·m·k·n FLOPs (lecture 2: 2 x the
// product of the three dimensions). Square: 2n³ / 6n² = n/3 in bf16 (341.3 at n = 1024).
OpCost matmul_cost(std::int64_t m, std::int64_t k, std::int64_t n, DType dtype);

// The operation a spec's "ops" entry names (einsum through einsum_cost()). SpecError for a
// malformed einsum names `path` + ".expr" or ".sizes...".
OpCost op_cost(const OpSpec& op, const std::string& path = "op");

}  // namespace tally
