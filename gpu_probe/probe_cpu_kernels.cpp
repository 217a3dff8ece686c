#include "gpu_probe/probe_cpu_kernels.h"

#include <cmath>

namespace tally::probe::cpu {

// Run-time choice between copies of a kernel built for different instruction sets. The body is
// a template inlined into each copy, so each copy is vectorised for its own target.
#if defined(__x86_64__) && defined(__GNUC__)
#define TALLY_X86_DISPATCH 1
#define TALLY_TARGET_V3 __attribute__((target("arch=x86-64-v3")))
#define TALLY_TARGET_V4 __attribute__((target("arch=x86-64-v4,prefer-vector-width=512")))
#else
#define TALLY_X86_DISPATCH 0
#endif
#define TALLY_ALWAYS_INLINE inline __attribute__((always_inline))

namespace {

enum class Simd { baseline, avx2, avx512 };

Simd detect_simd() {
#if TALLY_X86_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4")) {
        return Simd::avx512;
    }
    if (__builtin_cpu_supports("x86-64-v3")) {
        return Simd::avx2;
    }
#endif
    return Simd::baseline;
}

Simd simd() {
    static const Simd level = detect_simd();
    return level;
}

// Accumulators per kernel call: 8 vector registers' worth or more, which covers an FMA latency
// of 4 cycles on 2 FMA pipes, while leaving registers for the two operands (16 registers with
// AVX2, 32 with AVX-512).
constexpr std::size_t kLanesF32Baseline = 48;  // 12 SSE registers
constexpr std::size_t kLanesF32Avx2 = 96;      // 12 AVX registers
constexpr std::size_t kLanesF32Avx512 = 256;   // 16 AVX-512 registers
constexpr std::size_t kLanesF64Baseline = 24;
constexpr std::size_t kLanesF64Avx2 = 48;
constexpr std::size_t kLanesF64Avx512 = 128;

template <typename T, std::size_t N>
TALLY_ALWAYS_INLINE void fma_peak_body(T* acc, long iterations, T a, T c) {
    T v[N];
    for (std::size_t j = 0; j < N; ++j) {
        v[j] = acc[j];
    }
    for (long it = 0; it < iterations; ++it) {
        for (std::size_t j = 0; j < N; ++j) {
            v[j] = std::fma(v[j], a, c);
        }
    }
    for (std::size_t j = 0; j < N; ++j) {
        acc[j] = v[j];
    }
}

TALLY_ALWAYS_INLINE void fma_chain_body(float* out, const float* in, long fmas, float a, float c,
                                        std::size_t begin, std::size_t end) {
    std::size_t i = begin;
    for (; i + kFmaChainBlock <= end; i += kFmaChainBlock) {
        float v[kFmaChainBlock];
        for (std::size_t j = 0; j < kFmaChainBlock; ++j) {
            v[j] = in[i + j];
        }
        for (long k = 0; k < fmas; ++k) {
            for (std::size_t j = 0; j < kFmaChainBlock; ++j) {
                v[j] = std::fma(v[j], a, c);
            }
        }
        for (std::size_t j = 0; j < kFmaChainBlock; ++j) {
            out[i + j] = v[j];
        }
    }
    for (; i < end; ++i) {
        float v = in[i];
        for (long k = 0; k < fmas; ++k) {
            v = std::fma(v, a, c);
        }
        out[i] = v;
    }
}

// tanh as Eigen's 13/6-degree rational interpolant (Eigen, Core/MathFunctionsImpl.h,
// generic_fast_tanh_float: "accurate up to a couple of ulp in the range [-9, 9]", ±1 outside).
// Unlike libm's tanhf it vectorises, so GELU runs at the speed vector code gets on this CPU.
TALLY_ALWAYS_INLINE float tanh_rational(float x) {
    x = x > 9.0f ? 9.0f : x;
    x = x < -9.0f ? -9.0f : x;
    const float x2 = x * x;
    float p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
    p = x2 * p + -8.60467152213735e-11f;
    p = x2 * p + 5.12229709037114e-08f;
    p = x2 * p + 1.48572235717979e-05f;
    p = x2 * p + 6.37261928875436e-04f;
    p = x2 * p + 4.89352455891786e-03f;
    p = x * p;
    float q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
    q = x2 * q + 2.26843463243900e-03f;
    q = x2 * q + 4.89352518554385e-03f;
    return p / q;
}

TALLY_ALWAYS_INLINE void gelu_body(float* out, const float* in, std::size_t begin,
                                   std::size_t end) {
    constexpr float kSqrt2OverPi = 0.7978845608028654f;  // sqrt(2/π)
    for (std::size_t i = begin; i < end; ++i) {
        const float x = in[i];
        out[i] = 0.5f * x * (1.0f + tanh_rational(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
    }
}

#if TALLY_X86_DISPATCH
TALLY_TARGET_V4 void fma_peak_f32_v4(float* acc, long n, float a, float c) {
    fma_peak_body<float, kLanesF32Avx512>(acc, n, a, c);
}
TALLY_TARGET_V3 void fma_peak_f32_v3(float* acc, long n, float a, float c) {
    fma_peak_body<float, kLanesF32Avx2>(acc, n, a, c);
}
TALLY_TARGET_V4 void fma_peak_f64_v4(double* acc, long n, double a, double c) {
    fma_peak_body<double, kLanesF64Avx512>(acc, n, a, c);
}
TALLY_TARGET_V3 void fma_peak_f64_v3(double* acc, long n, double a, double c) {
    fma_peak_body<double, kLanesF64Avx2>(acc, n, a, c);
}
TALLY_TARGET_V4 void fma_chain_f32_v4(float* out, const float* in, long fmas, float a, float c,
                                      std::size_t begin, std::size_t end) {
    fma_chain_body(out, in, fmas, a, c, begin, end);
}
TALLY_TARGET_V4 void gelu_f32_v4(float* out, const float* in, std::size_t begin, std::size_t end) {
    gelu_body(out, in, begin, end);
}
TALLY_TARGET_V3 void gelu_f32_v3(float* out, const float* in, std::size_t begin, std::size_t end) {
    gelu_body(out, in, begin, end);
}
TALLY_TARGET_V3 void fma_chain_f32_v3(float* out, const float* in, long fmas, float a, float c,
                                      std::size_t begin, std::size_t end) {
    fma_chain_body(out, in, fmas, a, c, begin, end);
}
#endif

}  // namespace

std::string_view simd_level() {
    switch (simd()) {
        case Simd::avx512:
            return "avx512";
        case Simd::avx2:
            return "avx2+fma";
        case Simd::baseline:
            break;
    }
    return "baseline";
}

std::size_t fma_peak_lanes_f32() {
    switch (simd()) {
        case Simd::avx512:
            return kLanesF32Avx512;
        case Simd::avx2:
            return kLanesF32Avx2;
        case Simd::baseline:
            break;
    }
    return kLanesF32Baseline;
}

std::size_t fma_peak_lanes_f64() {
    switch (simd()) {
        case Simd::avx512:
            return kLanesF64Avx512;
        case Simd::avx2:
            return kLanesF64Avx2;
        case Simd::baseline:
            break;
    }
    return kLanesF64Baseline;
}

void fma_peak_f32(float* acc, long iterations, float a, float c) {
#if TALLY_X86_DISPATCH
    if (simd() == Simd::avx512) {
        return fma_peak_f32_v4(acc, iterations, a, c);
    }
    if (simd() == Simd::avx2) {
        return fma_peak_f32_v3(acc, iterations, a, c);
    }
#endif
    fma_peak_body<float, kLanesF32Baseline>(acc, iterations, a, c);
}

void fma_peak_f64(double* acc, long iterations, double a, double c) {
#if TALLY_X86_DISPATCH
    if (simd() == Simd::avx512) {
        return fma_peak_f64_v4(acc, iterations, a, c);
    }
    if (simd() == Simd::avx2) {
        return fma_peak_f64_v3(acc, iterations, a, c);
    }
#endif
    fma_peak_body<double, kLanesF64Baseline>(acc, iterations, a, c);
}

void fma_chain_f32(float* out, const float* in, long fmas, float a, float c, std::size_t begin,
                   std::size_t end) {
#if TALLY_X86_DISPATCH
    if (simd() == Simd::avx512) {
        return fma_chain_f32_v4(out, in, fmas, a, c, begin, end);
    }
    if (simd() == Simd::avx2) {
        return fma_chain_f32_v3(out, in, fmas, a, c, begin, end);
    }
#endif
    fma_chain_body(out, in, fmas, a, c, begin, end);
}

void stream_copy(double* c, const double* a, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        c[i] = a[i];
    }
}

void stream_scale(double* b, const double* c, double s, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        b[i] = s * c[i];
    }
}

void stream_add(double* c, const double* a, const double* b, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        c[i] = a[i] + b[i];
    }
}

void stream_triad(double* a, const double* b, const double* c, double s, std::size_t begin,
                  std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        a[i] = b[i] + s * c[i];
    }
}

void relu_f32(float* out, const float* in, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        out[i] = in[i] > 0.0f ? in[i] : 0.0f;
    }
}

void gelu_f32(float* out, const float* in, std::size_t begin, std::size_t end) {
#if TALLY_X86_DISPATCH
    if (simd() == Simd::avx512) {
        return gelu_f32_v4(out, in, begin, end);
    }
    if (simd() == Simd::avx2) {
        return gelu_f32_v3(out, in, begin, end);
    }
#endif
    gelu_body(out, in, begin, end);
}

float dot_f32(const float* x, const float* y, std::size_t begin, std::size_t end) {
    float partial[kDotLanes] = {};
    std::size_t i = begin;
    for (; i + kDotLanes <= end; i += kDotLanes) {
        for (std::size_t j = 0; j < kDotLanes; ++j) {
            partial[j] += x[i + j] * y[i + j];
        }
    }
    for (std::size_t j = 0; i < end; ++i, ++j) {
        partial[j] += x[i] * y[i];
    }
    float sum = 0.0f;
    for (const float p : partial) {
        sum += p;
    }
    return sum;
}

void matvec_f32(float* y, const float* w, const float* x, std::size_t cols, std::size_t begin,
                std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
        y[r] = dot_f32(w + r * cols, x, 0, cols);
    }
}

}  // namespace tally::probe::cpu
