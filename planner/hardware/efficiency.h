#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "planner/core/dtype.h"
#include "planner/core/text.h"
#include "planner/hardware/gemm_shapes.h"
#include "planner/hardware/hardware.h"

namespace tally {

// What fraction of a part's datasheet peaks real kernels reach. Predictions of step time and of
// serving latency time every GEMM and every memory-bound operation with these, so both use one
// source of truth. A fraction comes, in this order, from:
//   1. a figure a measured profile's probe run measured: that peak is what the card reached, so
//      1 (a figure the run did not measure keeps its base part's published fraction, below);
//   2. the catalog's published measurements of this part (the best one for the metric, each with
//      its source in resources/hardware/catalog.json);
//   3. the median of every catalog part's published measurement of the same metric (stated as
//      such, so a user sees it is not this part's own figure).
// The *_source functions say which, in words, for a tooltip or `--explain`; the fractions
// themselves allocate nothing (a plan evaluates in well under a microsecond).

// The fraction of the dense `type` peak a large, well-shaped GEMM reaches.
double gemm_fraction(const HardwareProfile& profile, ComputeType type);
std::string gemm_fraction_source(const HardwareProfile& profile, ComputeType type);
Text gemm_fraction_source_text(const HardwareProfile& profile, ComputeType type);
// The part's own best published GEMM fraction in `type` (2. above, as written in the catalog);
// nullopt where gemm_fraction() falls back to the median or the datasheet.
std::optional<double> published_gemm_fraction(const HardwareProfile& profile, ComputeType type);
// The fraction of the memory bandwidth a streaming kernel reaches.
double memory_fraction(const HardwareProfile& profile);
std::string memory_fraction_source(const HardwareProfile& profile);
Text memory_fraction_source_text(const HardwareProfile& profile);

// One GEMM of an (m x k) by (k x n) product in `type`, its operands `bytes_per_value` wide:
// 2·m·n·k FLOPs (CS336 lecture 2: a matmul costs 2 FLOPs per multiply-add) and, at best, each
// operand read once and the result written once, (m·k + k·n + m·n)·bytes bytes. Its time is the
// roofline's (Williams et al. 2009): the larger of the compute time at the achieved GEMM peak
// and the memory time at the achieved bandwidth. A matrix-vector product (n = 1) comes out
// memory-bound, a large square GEMM compute-bound, from the shape alone.
struct GemmTime {
    double flops = 0.0;
    double bytes = 0.0;
    double compute_s = 0.0;
    double memory_s = 0.0;
    double seconds = 0.0;  // max(compute_s, memory_s)
    bool memory_bound = false;
};
GemmTime gemm_time(const HardwareProfile& profile, ComputeType type, double m, double n, double k,
                   double bytes_per_value);

// A memory-bound operation (a norm, an elementwise op, an optimizer update) that moves `bytes`
// to and from memory: bytes / (bandwidth · achieved fraction).
double memory_time_s(const HardwareProfile& profile, double bytes);

// ---- resolved once, used many times ----
// The achieved GEMM rate and memory bandwidth of a part, resolved once, so that a step-time
// prediction timing hundreds of GEMMs (and a layout search timing millions) does not look the
// fractions up each time. The overloads below give the same times as those above.
struct AchievedRates {
    double gemm_flops_per_s = 0.0;    // dense peak x gemm_fraction
    double memory_bytes_per_s = 0.0;  // bandwidth x memory_fraction
    std::int64_t sm_count = 0;        // the profile's; 0: no quantization applied
    GemmShapeRates shapes;            // the part's published rates by shape, if any
};
AchievedRates achieved_rates(const HardwareProfile& profile, ComputeType type);
GemmTime gemm_time(const AchievedRates& rates, double m, double n, double k,
                   double bytes_per_value);
double memory_time_s(const AchievedRates& rates, double bytes);

// Tile and wave quantization (NVIDIA Deep Learning Performance Guide, "Matrix Multiplication
// Background", sections "Tile Quantization" and "Wave Quantization", whose examples use 256 x 128
// output tiles and the A100's 108 SMs): `count` independent m x n outputs are computed in
// ceil(m/256)·ceil(n/128) tiles each (a dimension below the tile's gets a tile of its own size),
// which run on `sm_count` SMs in whole waves; the fraction of the issued tile work that is useful,
// count·m·n / (waves·sm_count·tile area). 1 when sm_count is 0.
// The catalog's GEMM fractions are best-shape measurements (full waves), so this multiplies them.
// Where the part has a published table by shape (gemm_shapes.h) and the GEMM lies on it (every
// dimension at least 256), the table's measured rate times the GEMM instead.
inline constexpr double kGemmTileM = 256.0;
inline constexpr double kGemmTileN = 128.0;
double gemm_quantization_efficiency(std::int64_t sm_count, double count, double m, double n);
// `count` GEMMs of m x n x k with quantization: their time on the roofline at the achieved rate
// times the quantization efficiency.
GemmTime gemm_time_shaped(const AchievedRates& rates, double count, double m, double n, double k,
                          double bytes_per_value);

namespace detail {
// ceil() of a non-negative double without a libm call (evaluate() takes a few hundred of them):
// above 2^52 every double is already a whole number.
inline double ceil_nonnegative(double x) {
    if (!(x < 4503599627370496.0)) {
        return x;
    }
    const double t = static_cast<double>(static_cast<std::int64_t>(x));
    return t < x ? t + 1.0 : t;
}
}  // namespace detail

// A GEMM with a side below the table's smallest (256) on a part that has a table: the time the
// table gives the smallest GEMM on it that contains this one (each side raised to 256), an upper
// bound, for the library can run the smaller problem with the same kernel on zero-padded
// operands. Without it the wave model's single tile shape (a 255-row GEMM of 10 tiles, one wave
// on 132 SMs) timed a GEMM up to twice as long as the table times the next larger one, so a
// decode step grew shorter from batch 255 to 256. 0 when no table applies.
inline double padded_table_compute_s(const GemmShapeRates& shapes, double count, double m, double n,
                                     double k) {
    constexpr double kSide = 256.0;
    if (shapes.table == nullptr || !(count > 0.0) || !(m > 0.0) || !(n > 0.0) || !(k > 0.0)) {
        return 0.0;
    }
    const double mp = m > kSide ? m : kSide;
    const double np = n > kSide ? n : kSide;
    const double kp = k > kSide ? k : kSide;
    const double rate = gemm_shape_flops_per_s(shapes, count, mp, np, kp);
    return rate > 0.0 ? 2.0 * count * mp * np * kp / rate : 0.0;
}

// gemm_time_shaped()'s seconds with the per-part constants worked out once, for the hundreds of
// GEMMs one prediction times (a layout search times millions). Same arithmetic, fewer divisions;
// defined here so that the step model's loops inline it.
class GemmTimer {
public:
    explicit GemmTimer(const AchievedRates& rates);
    // Equal timers time every GEMM alike.
    bool operator==(const GemmTimer&) const = default;
    double seconds(double count, double m, double n, double k, double bytes_per_value) const {
        double compute_s = 0.0;
        const double table_rate =
            m_shapes.table != nullptr ? gemm_shape_flops_per_s(m_shapes, count, m, n, k) : 0.0;
        if (table_rate > 0.0) {
            compute_s = 2.0 * count * m * n * k / table_rate;
        } else if (m_sms > 0.0 && count > 0.0 && m > 0.0 && n > 0.0) {
            // gemm_waves() written out, its one division replaced by the reciprocal and
            // corrected to the exact whole number of waves.
            const double tile_m = m < kGemmTileM ? m : kGemmTileM;
            const double tile_n = n < kGemmTileN ? n : kGemmTileN;
            const double rows =
                m < kGemmTileM ? 1.0 : detail::ceil_nonnegative(m * (1.0 / kGemmTileM));
            const double columns =
                n < kGemmTileN ? 1.0 : detail::ceil_nonnegative(n * (1.0 / kGemmTileN));
            const double tiles = count * rows * columns;
            // tiles x (1 / SMs) is within an ulp of the quotient, so its ceiling is the exact
            // one or off by one; whole multiples of the SM count (exact in doubles) say which. A
            // multiply and two compares cost less than the division on the critical path.
            double waves = detail::ceil_nonnegative(tiles * m_inv_sms);
            if (waves >= 1.0 && (waves - 1.0) * m_sms >= tiles) {
                waves -= 1.0;
            } else if (waves * m_sms < tiles) {
                waves += 1.0;
            }
            compute_s = k * waves * tile_m * tile_n * m_s_per_wave_k;
        } else {
            compute_s = 2.0 * count * m * n * k * m_s_per_flop;
        }
        if (table_rate <= 0.0 && m_shapes.table != nullptr) {
            const double padded_s = padded_table_compute_s(m_shapes, count, m, n, k);
            if (padded_s > 0.0 && padded_s < compute_s) {
                compute_s = padded_s;
            }
        }
        const double memory_s = count * (m * k + k * n + m * n) * bytes_per_value * m_s_per_byte;
        return compute_s > memory_s ? compute_s : memory_s;
    }

private:
    double m_sms = 0.0;           // 0: no quantization
    double m_inv_sms = 0.0;       // 1 / m_sms
    double m_s_per_wave_k = 0.0;  // 2 x sms / rate: one wave, per unit of tile area and of k
    double m_s_per_flop = 0.0;    // 1 / rate
    double m_s_per_byte = 0.0;    // 1 / bandwidth
    GemmShapeRates m_shapes;      // the published rates by shape, if the part has them
};

// The fraction of the scale-up link (NVLink, xGMI) a collective reaches: the catalog's
// point-to-point measurement of the part ("nvlink_p2p"), else the catalog median, in the same
// order as the fractions above (a measured profile: 1).
double scale_up_fraction(const HardwareProfile& profile);
std::string scale_up_fraction_source(const HardwareProfile& profile);

}  // namespace tally
