#pragma once

// The GEMMs a plan runs, as the step-time model times them (performance.h): every layer kind's
// and the output layer's forward GEMM (layer_gemms(), head_gemms()) and its two backward GEMMs,
// each at its own shape. `tally probe --plan` measures exactly these, and a profile carrying
// their measured times (HardwareProfile::measured_gemms) replaces the model's roofline time of
// each with what was measured.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/dtype.h"
#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"

namespace tally {

// Which product of training a GEMM is. For a forward Y[m x n] = X[m x k]·W[k x n], the backward
// pass computes the data gradient dX = dY·W^T, an m x k output over n, and the weight gradient
// dW = X^T·dY, a k x n output over m (CS336 lecture 2: the backward pass is these two matmuls,
// each as many FLOPs as the forward).
enum class GemmPass { forward, data_gradient, weight_gradient };
std::string_view to_string(GemmPass pass);

// One distinct GEMM of a plan: `count` independent products of an m x k by a k x n matrix in the
// plan's compute type, and what in the model runs it ("qkv forward", "mlp_down weight
// gradient", ...). Sizes are whole numbers: a fractional size (the average number of tokens an
// expert receives) is taken to the nearest one, as measured_gemm_seconds() looks it up.
struct PlanGemm {
    ComputeType type = ComputeType::bf16;
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::int64_t count = 1;
    std::vector<std::string> uses;
    double flops() const {
        return 2.0 * static_cast<double>(count) * static_cast<double>(m) * static_cast<double>(n) *
               static_cast<double>(k);
    }
};

// The distinct GEMMs of a spec check() accepted, in the order the model first times them
// (dense layer, MoE layer, output layer; forward, data gradient, weight gradient), each once.
// Empty for a model given only by its parameter count.
std::vector<PlanGemm> plan_gemms(const PlanSpec& spec);

// The size the model and the probe agree on for a GEMM dimension or count: the nearest whole
// number, at least 1.
std::int64_t gemm_whole_size(double size);

// The measured time of `count` GEMMs of m x n x k in `type` on `profile`: the time of a measured
// GEMM of exactly that type and shape (after gemm_whole_size), scaled by count / its count when
// the counts differ (the one of equal count first, else the first of that shape). nullopt when
// the profile has none of that shape. A binary search over the sorted measured_gemms: no
// allocation.
std::optional<double> measured_gemm_seconds(const HardwareProfile& profile, ComputeType type,
                                            double count, double m, double n, double k);

// How many of a plan's distinct GEMMs (plan_gemms()) the model times from `profile`'s measured
// GEMM times, and how many on its roofline; the uses of the measured ones ("qkv forward", ...).
struct GemmSources {
    int measured = 0;
    int modelled = 0;
    std::vector<std::string> measured_uses;
};
GemmSources gemm_sources(const PlanSpec& spec, const HardwareProfile& profile);

// The name tally-probe's --gemm-shapes gives a compute type ("bf16", "fp8_e4m3"); nullopt for
// the types it has no GEMM for (fp4, int8).
std::optional<std::string_view> probe_gemm_dtype(ComputeType type);

// The value of tally-probe's --gemm-shapes that measures exactly `gemms`, in the probe's name of
// their dtype: "bf16:4096x3072x1024,bf16:128x128x64x32" (gpu_probe/protocol/PROTOCOL.md).
std::string gemm_shapes_argument(const std::vector<PlanGemm>& gemms, std::string_view dtype);

}  // namespace tally
