#pragma once

// The roofline model (Williams, Waterman & Patterson, "Roofline: an insightful visual
// performance model", CACM 2009; CS336 lecture 2): an operation of arithmetic intensity I
// (FLOP/byte) attains min(peak, I x bandwidth) FLOP/s; the ridge point peak / bandwidth
// separates memory-bound (left) from compute-bound (right) operations.

#include <optional>
#include <string_view>
#include <vector>

#include "planner/core/dtype.h"
#include "planner/hardware/hardware.h"

namespace tally {

enum class Bound { memory, compute };
std::string_view to_string(Bound bound);

// One roof: a hardware's dense peak for one dtype family and its memory bandwidth.
struct Roof {
    ComputeType type = ComputeType::bf16;
    double peak_flops_per_s = 0.0;
    double bandwidth_bytes_per_s = 0.0;

    // peak / bandwidth (H100 SXM bf16: (1979e12 / 2) / 3.35e12 = 295.4 FLOP/byte, lecture 2).
    double ridge_flops_per_byte() const;
    // min(peak, intensity x bandwidth).
    double attainable_flops_per_s(double intensity_flops_per_byte) const;
};

// The roof of a dtype family on a hardware; nullopt when the hardware has no peak for it.
std::optional<Roof> roof_for(const HardwareProfile& hardware, ComputeType type);
// One roof per dtype family the hardware supports, in kAllComputeTypes order.
std::vector<Roof> roofs(const HardwareProfile& hardware);

// Where an operation lands under a roof.
struct RooflinePoint {
    double intensity_flops_per_byte = 0.0;
    double attainable_flops_per_s = 0.0;  // flops / seconds = min(peak, intensity x bandwidth)
    Bound bound = Bound::memory;          // memory when intensity < ridge
    double compute_seconds = 0.0;         // flops / peak
    double memory_seconds = 0.0;          // bytes / bandwidth
    // max(compute, memory): lecture 2 assumes moving data and computing overlap perfectly, so
    // the slower of the two sets the time. Equals flops / attainable when flops > 0.
    double seconds = 0.0;
};
RooflinePoint place(const Roof& roof, double flops, double bytes);

// A point of a chart (log-log: x intensity in FLOP/byte, y FLOP/s).
struct ChartPoint {
    double intensity_flops_per_byte = 0.0;
    double flops_per_s = 0.0;
};

// The roof as a polyline over [min, max] intensity (min > 0): the bandwidth slope up to the
// ridge, then the flat peak. Three points when the ridge lies inside the range, two otherwise.
std::vector<ChartPoint> roof_polyline(const Roof& roof, double min_intensity_flops_per_byte,
                                      double max_intensity_flops_per_byte);

// An x range for a chart: whole decades that hold every given intensity (> 0) and ridge, with
// one decade of margin on each side. Defaults to [0.1, 1000] when nothing is given.
struct IntensityRange {
    double min_flops_per_byte = 0.1;
    double max_flops_per_byte = 1000.0;
};
IntensityRange chart_intensity_range(const std::vector<Roof>& roofs,
                                     const std::vector<double>& intensities_flops_per_byte);

}  // namespace tally
