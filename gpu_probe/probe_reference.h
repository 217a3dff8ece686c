#pragma once
// Reference values the validation compares against, in fp64, usable from host and device code.

#include <cmath>

#include "gpu_probe/probe_pattern.h"

namespace tally::probe {

// GELU, tanh approximation (Hendrycks & Gimpel 2016, "Gaussian Error Linear Units", section 2):
// 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715·x³))).
TALLY_HOST_DEVICE inline double gelu_tanh_reference(double x) {
    const double sqrt_2_over_pi = 0.79788456080286535588;
    return 0.5 * x * (1.0 + tanh(sqrt_2_over_pi * (x + 0.044715 * x * x * x)));
}

TALLY_HOST_DEVICE inline double relu_reference(double x) {
    return x > 0.0 ? x : 0.0;
}

// The u32 pattern of the bandwidth tests: value(i) = seed + i·A (mod 2^32) with A odd, so the
// sum over [0, n) has the closed form n·seed + A·n(n-1)/2 (mod 2^32) and a read kernel can be
// checked without recomputing n values.
inline constexpr unsigned kAffineStep = 0x9E3779B1u;  // odd: the golden-ratio constant
TALLY_HOST_DEVICE inline unsigned affine_u32(unsigned seed, unsigned long long index) {
    return seed + static_cast<unsigned>(index) * kAffineStep;
}
inline unsigned affine_u32_sum(unsigned seed, unsigned long long n) {
    // n(n-1)/2 exactly in 64 bits for n < 2^32, then everything mod 2^32.
    const unsigned long long pairs = n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
    return static_cast<unsigned>(n) * seed + static_cast<unsigned>(pairs) * kAffineStep;
}

}  // namespace tally::probe
