#pragma once
// FLOPs and bytes moved by the operations the probe measures. Arithmetic intensity is
// flops / bytes. The counts follow the seed lecture (CS336 lecture 2, seeds/000_*.txt, section
// "arithmetic intensity"): every input read once from memory, every output written once.

#include <cstdint>

namespace tally::probe::ops {

struct Work {
    double flops = 0.0;
    double bytes = 0.0;
};

// C[m×n] = A[m×k]·B[k×n]: m·n dot products of length k, each k multiplies and k adds
// (the seed counts n² dot products of 2n FLOPs for n×n): 2·m·k·n.
constexpr Work matmul(std::int64_t m, std::int64_t k, std::int64_t n, double in_bytes,
                      double out_bytes) {
    const double dm = static_cast<double>(m), dk = static_cast<double>(k),
                 dn = static_cast<double>(n);
    return {2.0 * dm * dk * dn, (dm * dk + dk * dn) * in_bytes + dm * dn * out_bytes};
}

// `count` independent products of the same shape (a batched GEMM): count times one's work.
constexpr Work batched_matmul(std::int64_t count, std::int64_t m, std::int64_t k, std::int64_t n,
                              double in_bytes, double out_bytes) {
    const Work one = matmul(m, k, n, in_bytes, out_bytes);
    const double c = static_cast<double>(count);
    return {c * one.flops, c * one.bytes};
}

// y = max(x, 0): one comparison per element (seed: "n comparisons"), read x, write y.
constexpr Work relu(std::int64_t n, double elem_bytes) {
    return {static_cast<double>(n), 2.0 * static_cast<double>(n) * elem_bytes};
}

// GELU (tanh approximation, Hendrycks & Gimpel 2016, eq. in section 2): the seed counts "about
// 20 FLOPs per element", which gives its intensity of about 5 at 2 bytes per value.
inline constexpr double kGeluFlopsPerElement = 20.0;
constexpr Work gelu(std::int64_t n, double elem_bytes) {
    return {kGeluFlopsPerElement * static_cast<double>(n),
            2.0 * static_cast<double>(n) * elem_bytes};
}

// y = x·w: n multiplies and n - 1 adds; read x and w, write one value (seed: 2n - 1 FLOPs).
constexpr Work dot(std::int64_t n, double elem_bytes) {
    return {2.0 * static_cast<double>(n) - 1.0, (2.0 * static_cast<double>(n) + 1.0) * elem_bytes};
}

// y[rows] = W[rows×cols]·x[cols]: rows dot products of length cols (seed: n dot products);
// read W and x, write y.
constexpr Work matvec(std::int64_t rows, std::int64_t cols, double elem_bytes) {
    const double r = static_cast<double>(rows), c = static_cast<double>(cols);
    return {r * (2.0 * c - 1.0), (r * c + c + r) * elem_bytes};
}

// STREAM (McCalpin, "Memory Bandwidth and Machine Balance", 1995; stream.c's counting):
// copy c=a and scale b=s·c move 2 arrays, add c=a+b and triad a=b+s·c move 3; scale and add do
// one FLOP per element, triad two.
enum class StreamKernel { copy, scale, add, triad };
constexpr Work stream(StreamKernel kernel, std::int64_t n, double elem_bytes) {
    const double dn = static_cast<double>(n);
    switch (kernel) {
        case StreamKernel::copy:
            return {0.0, 2.0 * dn * elem_bytes};
        case StreamKernel::scale:
            return {dn, 2.0 * dn * elem_bytes};
        case StreamKernel::add:
            return {dn, 3.0 * dn * elem_bytes};
        case StreamKernel::triad:
            return {2.0 * dn, 3.0 * dn * elem_bytes};
    }
    return {};
}

// The intensity sweep: read one value, apply `fmas_per_element` dependent fused multiply-adds,
// write one value. Intensity = 2·fmas / (2·elem_bytes), e.g. fp32 with 64 FMAs: 16 FLOP/byte.
constexpr Work fma_chain(std::int64_t n, std::int64_t fmas_per_element, double elem_bytes) {
    const double dn = static_cast<double>(n);
    return {2.0 * dn * static_cast<double>(fmas_per_element), 2.0 * dn * elem_bytes};
}

}  // namespace tally::probe::ops
