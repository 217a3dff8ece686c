#include "planner/roofline/operations.h"

#include "planner/core/spec.h"
#include "planner/roofline/einsum.h"

namespace tally {

namespace {

OpCost make(std::string kind, DType dtype, double flops, double read_values, double write_values) {
    OpCost c;
    c.name = kind;
    c.kind = std::move(kind);
    c.dtype = dtype;
    c.flops = flops;
    c.read_bytes = read_values * bytes_per_value(dtype);
    c.write_bytes = write_values * bytes_per_value(dtype);
    return c;
}

double d(std::int64_t v) {
    return static_cast<double>(v);
}

}  // namespace

// CS336 lecture 2 (seed 000, "arithmetic intensity"): ReLU reads 2n, writes 2n bytes in bf16
// and does n FLOPs.
OpCost relu_cost(std::int64_t n, DType dtype) {
    return make("relu", dtype, d(n), d(n), d(n));
}

// Lecture 2: GELU moves the same 2n + 2n bytes and does about 20n FLOPs.
OpCost gelu_cost(std::int64_t n, DType dtype, double flops_per_element) {
    return make("gelu", dtype, flops_per_element * d(n), d(n), d(n));
}

// Lecture 2: dot product reads x (2n) and w (2n), writes y (2), 2n - 1 FLOPs (~2n).
OpCost dot_cost(std::int64_t n, DType dtype) {
    return make("dot", dtype, 2.0 * d(n), 2.0 * d(n), 1.0);
}

// Lecture 2: matrix-vector reads x (2n) and W (2n²), writes y (2n); n dot products of 2n FLOPs.
OpCost matvec_cost(std::int64_t m, std::int64_t n, DType dtype) {
    return make("matvec", dtype, 2.0 * d(m) * d(n), d(m) * d(n) + d(n), d(m));
}

// Lecture 2: matmul reads 2n² + 2n², writes 2n², 2n³ FLOPs; generalised to m x k @ k x n.
OpCost matmul_cost(std::int64_t m, std::int64_t k, std::int64_t n, DType dtype) {
    return make("matmul", dtype, 2.0 * d(m) * d(k) * d(n), d(m) * d(k) + d(k) * d(n), d(m) * d(n));
}

OpCost op_cost(const OpSpec& op, const std::string& path) {
    OpCost c;
    switch (op.kind) {
        case OpKind::relu:
            c = relu_cost(op.n, op.dtype);
            break;
        case OpKind::gelu:
            c = gelu_cost(op.n, op.dtype, op.gelu_flops_per_element);
            break;
        case OpKind::dot:
            c = dot_cost(op.n, op.dtype);
            break;
        case OpKind::matvec:
            c = matvec_cost(op.m, op.n, op.dtype);
            break;
        case OpKind::matmul:
            c = matmul_cost(op.m, op.k, op.n, op.dtype);
            break;
        case OpKind::einsum: {
            const EinsumExpr expr = parse_einsum(op.expr, path + ".expr");
            const EinsumCost e =
                einsum_cost(expr, op.sizes, op.ellipsis, op.dtype, path + ".sizes");
            c.kind = "einsum";
            c.dtype = op.dtype;
            c.flops = e.flops;
            c.read_bytes = e.read_bytes;
            c.write_bytes = e.write_bytes;
            break;
        }
    }
    c.name = op.name.empty() ? std::string(to_string(op.kind)) : op.name;
    return c;
}

}  // namespace tally
