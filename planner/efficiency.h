#pragma once

#include <string>

#include "planner/dtype.h"
#include "planner/hardware.h"

namespace tally {

// What fraction of a part's datasheet peaks real kernels reach. Predictions of step time and of
// serving latency time every GEMM and every memory-bound operation with these, so both use one
// source of truth. A fraction comes, in this order, from:
//   1. a measured profile: its peaks are what the probe measured on the card, so 1;
//   2. the catalog's published measurements of this part (the best one for the metric, each with
//      its source in resources/hardware/catalog.json);
//   3. the median of every catalog part's published measurement of the same metric (stated as
//      such, so a user sees it is not this part's own figure).
// The *_source functions say which, in words, for a tooltip or `--explain`; the fractions
// themselves allocate nothing (a plan evaluates in well under a microsecond).

// The fraction of the dense `type` peak a large, well-shaped GEMM reaches.
double gemm_fraction(const HardwareProfile& profile, ComputeType type);
std::string gemm_fraction_source(const HardwareProfile& profile, ComputeType type);
// The fraction of the memory bandwidth a streaming kernel reaches.
double memory_fraction(const HardwareProfile& profile);
std::string memory_fraction_source(const HardwareProfile& profile);

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

}  // namespace tally
