#pragma once

// GEMM throughput by shape, from published measurements, for the parts that have them.
//
// One best-shape fraction of the peak times tile and wave quantization (efficiency.h) is how the
// planner times a GEMM on a part it knows nothing more about. For the H100 (bf16) and the B200
// (bf16 and fp8) a measured table by shape exists: OpenXLA's cost model ships cuBLAS GEMM
// throughput for b x (m x k) x (k x n) products with b in {1, 2, 4} and m, n, k in {256, ...,
// 4096} (xla/service/gpu/model/matmul_interpolator_data.h, written by
// xla/tools/matmul_perf_table_gen: 2·b·m·n·k over the median kernel time of 5 runs;
// scripts/import-xla-gemm-table.py copies it into gemm_shape_data.h). Mid-sized GEMMs reach
// well below the best shape there: a 2048³ bf16 GEMM on the H100 641 TFLOP/s, against 780 at
// 4096³, which quantization alone does not predict (128 output tiles of 256 x 128 fill one wave
// of 132 SMs).
//
// How a GEMM is read off the table (gemm_shape_flops_per_s()):
//   - rows or columns beyond 4096 are more output tiles of the same kind, as more GEMMs of a
//     batch are: m = 8192 is read as b = 2 of m = 4096 (and `count` GEMMs as b = count);
//     b beyond 4 and k beyond 4096 take the table's edge (the rate has levelled off there);
//   - between the table's points the rate is linear in each of b, m, n and k;
//   - a dimension below 256 is outside the table: the caller keeps its own model, bounded by
//     the table's time of the smallest GEMM on it that contains this one
//     (padded_table_compute_s(), efficiency.h).
// Which parts: the one measured, and parts of the same silicon (same SM count, or none stated)
// named like it: "h100", "h200", "h800", "gh200" for the H100 table (one GH100 die: 132 SMs,
// 989.5 TFLOP/s dense bf16), "b200" (which includes GB200) for the B200 tables. Their rates
// scale with the part's best published GEMM in the dtype over the measured part's (the catalog's
// fractions of each one's own peak), where the catalog has both: the same die at another power
// limit or clock reaches what its own best-shape measurement shows, not what its datasheet peak
// promises. The GB200's datasheet peak is 1.11x the B200's (5 against 4.5 PFLOP/s fp8), but its
// MAMF sweep reached 3,615.6 TFLOP/s against the B200's 3,432.5 (ml-engineering's MAMF table):
// 1.053x. A part without a published measurement of its own scales with its dense peak over the
// measured part's (the peak is the SM count times the clock). Left out: the H100's fp8
// column, which exceeds its dense FP8 peak (not a GEMM time; see the script), and measured
// profiles, whose probe timed the card itself.
//
// FP8 on the H100's silicon, which has no usable fp8 table, takes the part's bf16 table scaled
// to its own best: at each shape fp8 reaches the same fraction of the part's best fp8 GEMM as
// bf16 reaches of the bf16 table's best,
//   rate_fp8(shape) = rate_bf16,H100(shape) x best fp8 GEMM / best of the bf16 table,
// the best fp8 GEMM being the part's published best fraction of its fp8 peak (efficiency.h;
// 0.709 x 1,979 TFLOP/s on the H100, MAMF). Measured support: on the B200, the one part with
// both tables, fp8 stands at 0.96-0.99 of bf16's fraction of its best from 2048-cubed GEMMs up
// (4 x 2048³: 0.737 of its best against 0.764; 4096³: 0.843 against 0.848), and vLLM's GEMM
// benchmark in its pull request 17126, on a part with the H100's bf16 rates, ran a 256 x 6144 x
// 4096 product at 544 TFLOP/s in bf16 and 956 in fp8: 0.68 of each dtype's best. The B200 falls
// further behind at 256 rows (0.7x: 0.284 of its fp8 best against 0.390), where its higher rate
// leaves the GEMM latency-bound; the H100's measurement at 256 rows does not show that, so no
// such loss is applied. Before, every fp8 GEMM there ran at the best-shape fraction with
// quantization, where the bf16 table shows mid-sized shapes far below their best.
//
// FP4 (NVFP4 training's linear GEMMs) has no table on any part; on the B200's silicon, the part's
// fp8 table is scaled the same way to its best fp4 GEMM (0.582 x 9 PFLOP/s on the B200: cuBLAS at
// 8192³, DeepGEMM pull request 348):
//   rate_fp4(shape) = rate_fp8,B200(shape) x best fp4 GEMM / best of the fp8 table,
// the same rule one step narrower: each shape reaches the fraction of its dtype's best that the
// next wider dtype's table shows. The published fp4 shapes agree on the direction: the cuBLAS
// run of that pull request reaches 3,939 TFLOP/s at 4096 x 4096 x 7168 and 1,399 at 1024 x 7168 x
// 2048, 0.75 and 0.27 of its 8192³ rate.

#include "planner/core/dtype.h"
#include "planner/hardware/hardware.h"

namespace tally {

// A published shape table that applies to a part, and the factor its rates scale by.
struct GemmShapeRates {
    const double* table = nullptr;  // [b][m][n][k], gemm_shape_data.h; null: no table applies
    // The part's best published GEMM / the measured part's (else its dense peak / the measured
    // part's); for derived rates (`derived`), the part's best GEMM in the asked dtype / the
    // wider dtype's table's best.
    double scale = 1.0;
    const char* measured_on = "";  // the part and dtype the table measured, in words
    // Derived rates (fp8 on the H100's silicon, fp4 on the B200's, above): `table` is the part's
    // table of the next wider dtype, scaled to the part's best GEMM in the asked one; false for a
    // table measured in the dtype itself.
    bool derived = false;
    // The scale is the part's best published GEMM over the measured part's (same_silicon_rates),
    // not the ratio of their peaks.
    bool by_best_gemm = false;

    bool operator==(const GemmShapeRates&) const = default;
};

GemmShapeRates gemm_shape_rates(const HardwareProfile& profile, ComputeType type);

// The measured rate of `count` GEMMs of m x n x k on the table, FLOP/s, scaled to the part;
// 0 when no table applies or a dimension is below the table's smallest (256).
double gemm_shape_flops_per_s(const GemmShapeRates& rates, double count, double m, double n,
                              double k);

}  // namespace tally
