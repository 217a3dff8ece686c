#pragma once
// The CUDA backend's kernels: fills, bandwidth, the seed lecture's operations, FMA chains,
// tensor-core tiles, and the device-side checks that validate their outputs (nvbandwidth
// compares on the device too). Non-template kernels are static: this header is included by more
// than one translation unit. Memory-bound kernels move 16 bytes per thread access (uint4 or
// float4), coalesced across the warp.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstddef>
#include <cstdint>

#include "gpu_probe/probe_pattern.h"
#include "gpu_probe/probe_reference.h"

namespace tally::probe::cuda {

inline constexpr int kBlockThreads = 256;

// ---------------------------------------------------------------------------------------------
// Timing

// Keeps the stream busy for `cycles` SM clock cycles (one thread). time_on_stream launches it
// just before the start event, so that the event, the work and the stop event are all queued
// by the time it ends: the events then time the work alone, not the host's launch latency, which
// is longer than a small kernel (nvbench's blocking_kernel serves the same purpose; a fixed delay
// cannot deadlock behind a copy from pageable memory, which waits for the stream to drain).
// clock64 always advances, so this cannot hang.
static __global__ void hold_stream(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

// ---------------------------------------------------------------------------------------------
// Element conversions

template <typename T>
__host__ __device__ inline float to_float(T value) {
    return static_cast<float>(value);
}
template <>
__host__ __device__ inline float to_float(__nv_bfloat16 value) {
    return __bfloat162float(value);
}
template <>
__host__ __device__ inline float to_float(__half value) {
    return __half2float(value);
}

template <typename T>
__host__ __device__ inline T from_float(float value) {
    return static_cast<T>(value);
}
template <>
__host__ __device__ inline __nv_bfloat16 from_float(float value) {
    return __float2bfloat16_rn(value);
}
template <>
__host__ __device__ inline __half from_float(float value) {
    return __float2half_rn(value);
}
template <>
__host__ __device__ inline __nv_fp8_e4m3 from_float(float value) {
    return __nv_fp8_e4m3(value);
}

// ---------------------------------------------------------------------------------------------
// Fills

// pattern_unit values (a 2^-20 grid in [-1, 1)).
template <typename T>
__global__ void fill_unit(T* out, std::size_t n, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x) {
        out[i] = from_float<T>(pattern_unit(seed, i));
    }
}

// pattern_dyadic values (multiples of 1/8 in [-2, 2]), exact in every matmul input format.
template <typename T>
__global__ void fill_dyadic(T* out, std::size_t n, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x) {
        out[i] = from_float<T>(pattern_dyadic(seed, i));
    }
}

// ---------------------------------------------------------------------------------------------
// Reductions

// Sum over the block; the result is valid in thread 0.
template <typename T>
__device__ inline T block_sum(T value) {
    __shared__ T warp_sums[kBlockThreads / 32];
    for (int offset = 16; offset > 0; offset /= 2) {
        value += __shfl_down_sync(0xFFFFFFFFu, value, offset);
    }
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) {
        warp_sums[warp] = value;
    }
    __syncthreads();
    value = threadIdx.x < blockDim.x / 32 ? warp_sums[lane] : T{};
    if (warp == 0) {
        for (int offset = 16; offset > 0; offset /= 2) {
            value += __shfl_down_sync(0xFFFFFFFFu, value, offset);
        }
    }
    return value;
}

// ---------------------------------------------------------------------------------------------
// Device-memory bandwidth

// Reads every 16-byte vector and adds its words (mod 2^32) into one sum per block, which the
// host adds up and compares with the closed form of the affine pattern.
static __global__ void read_u32x4(const uint4* in, std::size_t n4, unsigned* block_sums) {
    unsigned sum = 0;
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
         i += std::size_t{gridDim.x} * blockDim.x) {
        const uint4 v = in[i];
        sum += v.x + v.y + v.z + v.w;
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) {
        block_sums[blockIdx.x] = sum;
    }
}

static __global__ void write_u32x4(uint4* out, std::size_t n4, unsigned seed) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
         i += std::size_t{gridDim.x} * blockDim.x) {
        const std::size_t e = 4 * i;
        out[i] = make_uint4(affine_u32(seed, e), affine_u32(seed, e + 1), affine_u32(seed, e + 2),
                            affine_u32(seed, e + 3));
    }
}

static __global__ void copy_u32x4(uint4* out, const uint4* in, std::size_t n4) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
         i += std::size_t{gridDim.x} * blockDim.x) {
        out[i] = in[i];
    }
}

// ---------------------------------------------------------------------------------------------
// Device-side validation: counts elements outside tolerance and keeps the first one's index.

struct CheckCounters {
    unsigned long long mismatches;
    unsigned long long first_index;
};

__device__ inline void record_mismatch(CheckCounters* counters, std::size_t index) {
    atomicAdd(&counters->mismatches, 1ull);
    atomicMin(&counters->first_index, static_cast<unsigned long long>(index));
}

static __global__ void check_affine_u32(const unsigned* data, std::size_t n, unsigned seed,
                                        CheckCounters* counters) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x) {
        if (data[i] != affine_u32(seed, i)) {
            record_mismatch(counters, i);
        }
    }
}

// The expected value of element i of an elementwise test, in fp64, from its input.
enum class Elementwise { relu, gelu, fma_chain };

struct ElementwiseSpec {
    Elementwise op;
    int fmas;       // fma_chain: FMAs per element
    float fma_mul;  // fma_chain: v = fma(v, mul, add)
    float fma_add;
};

__host__ __device__ inline double elementwise_reference(const ElementwiseSpec& spec, double x) {
    switch (spec.op) {
        case Elementwise::relu:
            return relu_reference(x);
        case Elementwise::gelu:
            return gelu_tanh_reference(x);
        case Elementwise::fma_chain:
            break;
    }
    // fma(v, 1, c) on the 2^-20 grid is exact: v + fmas·c.
    return x + static_cast<double>(spec.fmas) * spec.fma_add;
}

template <typename T>
__global__ void check_elementwise(const T* in, const T* out, std::size_t n, ElementwiseSpec spec,
                                  double abs_tol, double rel_tol, CheckCounters* counters) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x) {
        const double want = elementwise_reference(spec, to_float(in[i]));
        const double got = to_float(out[i]);
        if (!(fabs(got - want) <= abs_tol + rel_tol * fabs(want))) {
            record_mismatch(counters, i);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The seed lecture's operations

struct ReluOp {
    __device__ float operator()(float x) const { return fmaxf(x, 0.0f); }
};

struct GeluOp {
    __device__ float operator()(float x) const {
        constexpr float kSqrt2OverPi = 0.7978845608028654f;
        return 0.5f * x * (1.0f + tanhf(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
    }
};

// out[i] = op(in[i]), 16 bytes per access: 4 fp32 or 8 bf16 values.
template <typename T, typename Op>
__global__ void elementwise_x16(const T* in, T* out, std::size_t n, Op op) {
    constexpr int kPerVector = 16 / sizeof(T);
    union Vector {
        uint4 raw;
        T values[kPerVector];
    };
    const std::size_t vectors = n / kPerVector;
    const uint4* in4 = reinterpret_cast<const uint4*>(in);
    uint4* out4 = reinterpret_cast<uint4*>(out);
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
    const std::size_t first = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    for (std::size_t v = first; v < vectors; v += stride) {
        Vector x;
        x.raw = in4[v];
#pragma unroll
        for (int j = 0; j < kPerVector; ++j) {
            x.values[j] = from_float<T>(op(to_float(x.values[j])));
        }
        out4[v] = x.raw;
    }
    for (std::size_t i = vectors * kPerVector + first; i < n; i += stride) {
        out[i] = from_float<T>(op(to_float(in[i])));
    }
}

// Partial dot products, one per block; fp32 accumulation per thread.
static __global__ void dot_partial(const float4* x, const float4* y, std::size_t n4,
                                   float* partials) {
    float sum = 0.0f;
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
         i += std::size_t{gridDim.x} * blockDim.x) {
        const float4 a = x[i], b = y[i];
        sum += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
    }
}

// One block adds the partials.
static __global__ void sum_partials(const float* partials, int count, float* result) {
    float sum = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) {
        sum += partials[i];
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) {
        *result = sum;
    }
}

// y = W·x with W row-major rows×cols (cols a multiple of 4): one warp per row.
static __global__ void matvec_warp_per_row(const float* w, const float* x, float* y,
                                           std::size_t rows, std::size_t cols) {
    const std::size_t warps_per_block = blockDim.x / 32;
    const std::size_t lane = threadIdx.x % 32;
    const std::size_t cols4 = cols / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    for (std::size_t row = blockIdx.x * warps_per_block + threadIdx.x / 32; row < rows;
         row += std::size_t{gridDim.x} * warps_per_block) {
        const float4* w4 = reinterpret_cast<const float4*>(w + row * cols);
        float sum = 0.0f;
        for (std::size_t c = lane; c < cols4; c += 32) {
            const float4 a = w4[c], b = x4[c];
            sum += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
        }
        for (int offset = 16; offset > 0; offset /= 2) {
            sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
        }
        if (lane == 0) {
            y[row] = sum;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The intensity sweep

// CUDA cores: 4 independent chains per thread (one float4), `fmas` dependent FMAs each.
static __global__ void fma_chain_x4(const float4* in, float4* out, std::size_t n4, int fmas,
                                    float mul, float add) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
         i += std::size_t{gridDim.x} * blockDim.x) {
        float4 v = in[i];
#pragma unroll 8
        for (int k = 0; k < fmas; ++k) {
            v.x = fmaf(v.x, mul, add);
            v.y = fmaf(v.y, mul, add);
            v.z = fmaf(v.z, mul, add);
            v.w = fmaf(v.w, mul, add);
        }
        out[i] = v;
    }
}

// Tensor cores through WMMA (mma.sync): each warp loads one 16×16 bf16 tile of A per step and
// multiplies it `reps` times by each of two fixed 16×16 B tiles into two fp32 accumulators,
// then stores their sum as a 16×16 fp32 tile. FLOPs per tile: 2 · reps · 2·16·16·16.
inline constexpr int kTile = 16;
inline constexpr int kTileElements = kTile * kTile;

static __global__ void mma_chain_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* out,
                                      std::size_t tiles, int reps) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __nv_bfloat16, wmma::row_major> b0, b1;
    wmma::load_matrix_sync(b0, b, kTile);
    wmma::load_matrix_sync(b1, b + kTileElements, kTile);
    const std::size_t warps = std::size_t{gridDim.x} * (blockDim.x / 32);
    for (std::size_t t = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) / 32; t < tiles;
         t += warps) {
        wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __nv_bfloat16, wmma::row_major> fa;
        wmma::load_matrix_sync(fa, a + t * kTileElements, kTile);
        wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> c0, c1;
        wmma::fill_fragment(c0, 0.0f);
        wmma::fill_fragment(c1, 0.0f);
        for (int r = 0; r < reps; ++r) {
            wmma::mma_sync(c0, fa, b0, c0);
            wmma::mma_sync(c1, fa, b1, c1);
        }
        for (int e = 0; e < c0.num_elements; ++e) {
            c0.x[e] += c1.x[e];
        }
        wmma::store_matrix_sync(out + t * kTileElements, c0, kTile, wmma::mem_row_major);
    }
#else
    // Tensor-core bf16 needs sm_80; the host never launches this below compute capability 8.0.
    (void)a, (void)b, (void)out, (void)tiles, (void)reps;
#endif
}

// The expected element (row r, column c) of tile t: reps · sum_k A_t[r][k]·(B0[k][c] + B1[k][c]).
// With dyadic inputs every partial sum is exact in fp32, so the expectation is exact too.
__host__ __device__ inline double mma_chain_reference(std::uint64_t seed_a, std::uint64_t seed_b,
                                                      std::size_t t, int r, int c, int reps) {
    double sum = 0.0;
    for (int k = 0; k < kTile; ++k) {
        const double av = pattern_dyadic(seed_a, t * kTileElements + r * kTile + k);
        const double bv = static_cast<double>(pattern_dyadic(seed_b, k * kTile + c)) +
                          pattern_dyadic(seed_b, kTileElements + k * kTile + c);
        sum += av * bv;
    }
    return reps * sum;
}

static __global__ void check_mma_chain(const float* out, std::size_t tiles, std::uint64_t seed_a,
                                       std::uint64_t seed_b, int reps, CheckCounters* counters) {
    const std::size_t n = tiles * kTileElements;
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x) {
        const std::size_t t = i / kTileElements;
        const int r = static_cast<int>(i % kTileElements) / kTile;
        const int c = static_cast<int>(i % kTile);
        if (static_cast<double>(out[i]) != mma_chain_reference(seed_a, seed_b, t, r, c, reps)) {
            record_mismatch(counters, i);
        }
    }
}

}  // namespace tally::probe::cuda
