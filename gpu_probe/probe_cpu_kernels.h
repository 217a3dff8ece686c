#pragma once
// The CPU backend's loops. Each works on a range [begin, end) so that a ThreadTeam can split it.
// Compiled with -O3 (see CMakeLists.txt); the compute-bound ones are built three times for
// x86-64 (baseline, x86-64-v3 with AVX2+FMA, x86-64-v4 with AVX-512) and picked at run time.

#include <cstddef>
#include <string_view>

namespace tally::probe::cpu {

// The vector instruction set the compute-bound kernels run with: "avx512", "avx2+fma" or
// "baseline".
std::string_view simd_level();

// STREAM kernels (McCalpin's stream.c): copy c=a, scale b=s·c, add c=a+b, triad a=b+s·c.
void stream_copy(double* c, const double* a, std::size_t begin, std::size_t end);
void stream_scale(double* b, const double* c, double s, std::size_t begin, std::size_t end);
void stream_add(double* c, const double* a, const double* b, std::size_t begin, std::size_t end);
void stream_triad(double* a, const double* b, const double* c, double s, std::size_t begin,
                  std::size_t end);

// Peak FMA throughput: `lanes()` independent accumulators, each updated `iterations` times with
// acc = fma(acc, a, c). The accumulator count fills the vector registers of the chosen
// instruction set, enough independent chains to hide the FMA latency.
std::size_t fma_peak_lanes_f32();
std::size_t fma_peak_lanes_f64();
void fma_peak_f32(float* acc, long iterations, float a, float c);
void fma_peak_f64(double* acc, long iterations, double a, double c);

// The intensity sweep: out[i] = in[i] after `fmas` dependent v = fma(v, a, c), for a block of
// independent elements at a time so the FMAs of different elements overlap.
inline constexpr std::size_t kFmaChainBlock = 64;
void fma_chain_f32(float* out, const float* in, long fmas, float a, float c, std::size_t begin,
                   std::size_t end);

// The seed lecture's operations, fp32.
void relu_f32(float* out, const float* in, std::size_t begin, std::size_t end);
// GELU, tanh approximation (Hendrycks & Gimpel 2016, section 2):
// 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715·x³))).
void gelu_f32(float* out, const float* in, std::size_t begin, std::size_t end);
// Sum of x[i]·y[i] over the range, with kDotLanes partial sums (fp32) added at the end.
inline constexpr std::size_t kDotLanes = 16;
float dot_f32(const float* x, const float* y, std::size_t begin, std::size_t end);
// y[r] = sum_c W[r·cols + c]·x[c] for rows [begin, end).
void matvec_f32(float* y, const float* w, const float* x, std::size_t cols, std::size_t begin,
                std::size_t end);

}  // namespace tally::probe::cpu
