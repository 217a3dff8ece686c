#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "planner/core/dtype.h"

namespace tally {

// An operation the user asks the roofline to place (the spec's "ops" list). Sizes used depend on
// the kind: n (relu, gelu, dot); m, n (matvec: m x n matrix times an n-vector); m, k, n (matmul:
// [m x k] @ [k x n]); expr + sizes (+ ellipsis) for einsum.
enum class OpKind { relu, gelu, dot, matvec, matmul, einsum };

struct OpSpec {
    OpKind kind = OpKind::matmul;
    DType dtype = DType::bf16;
    std::string name;  // defaults to the kind's name
    std::int64_t m = 0;
    std::int64_t k = 0;
    std::int64_t n = 0;
    std::string expr;                                         // einsum only
    std::vector<std::pair<std::string, std::int64_t>> sizes;  // einsum: named dimension sizes
    std::vector<std::int64_t> ellipsis;                       // einsum: sizes of "..."
    double gelu_flops_per_element = 20.0;                     // CS336 lecture 2: "about 20"
    bool operator==(const OpSpec&) const = default;
};

}  // namespace tally
