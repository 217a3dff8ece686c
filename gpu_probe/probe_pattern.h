#pragma once
// Seeded, index-addressable patterns for validation (nvbandwidth fills buffers with a seeded
// pattern and compares on the device; memcpy.cpp). Every value is a pure function of
// (seed, index), so a host can recompute any element a device wrote without copying inputs back.
// Usable from CUDA device code too.

#include <cstdint>

#if defined(__CUDACC__)
#define TALLY_HOST_DEVICE __host__ __device__
#else
#define TALLY_HOST_DEVICE
#endif

namespace tally::probe {

// The splitmix64 finaliser (Steele, Lea, Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014; constants from Vigna's reference splitmix64.c).
TALLY_HOST_DEVICE inline std::uint64_t mix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

TALLY_HOST_DEVICE inline std::uint64_t pattern_bits(std::uint64_t seed, std::uint64_t index) {
    return mix64(seed ^ mix64(index));
}

TALLY_HOST_DEVICE inline std::uint32_t pattern_u32(std::uint64_t seed, std::uint64_t index) {
    return static_cast<std::uint32_t>(pattern_bits(seed, index) >> 32);
}

// A value in [-1, 1) on a grid of 2^-20: exact in fp32 and fp64, and so exact after adding up to
// 2^3 in fp32 (24-bit significand), which the FMA-chain kernels rely on.
TALLY_HOST_DEVICE inline float pattern_unit(std::uint64_t seed, std::uint64_t index) {
    const auto grid = static_cast<std::int32_t>(pattern_bits(seed, index) >> 43);  // 21 bits
    return static_cast<float>(grid - (1 << 20)) * (1.0f / (1 << 20));
}

// A value in {-2, -15/8, ..., 15/8, 2}: exact in fp8 E4M3, fp16, bf16, tf32 and fp32, and products
// of two are multiples of 1/64 of magnitude <= 4, so fp32 sums of up to 2^15 of them are exact.
// Matmul inputs use it, so that only the output rounding separates a result from the reference.
TALLY_HOST_DEVICE inline float pattern_dyadic(std::uint64_t seed, std::uint64_t index) {
    const auto step = static_cast<std::int32_t>(pattern_bits(seed, index) % 33u) - 16;
    return static_cast<float>(step) * 0.125f;
}

}  // namespace tally::probe
