#pragma once

// The measured roofline of a stored probe run: the roofs the card reached (best
// validated matmul FLOP/s per dtype, best validated device-memory bandwidth) and the points of
// its seed operations, intensity sweep and matmuls, each with its fraction of the promised
// profile's dense peak and bandwidth. One pure function, so the GUI draws and the CLI prints the
// same numbers.
//
// The roofline model itself is Williams, Waterman & Patterson, CACM 2009
// (planner/roofline/roofline.h).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/dtype.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/probe_records.h"
#include "planner/roofline/roofline.h"

namespace tally {

// ---- what a result is worth against a profile --------------------------------------------------

// A measured figure against the promised profile. Each is absent when the result lacks the rate
// or the profile lacks the figure (no peak for that dtype, no bandwidth).
struct MeasuredFractions {
    std::optional<double> of_peak;       // flops_per_s / the profile's dense peak of the dtype
    std::optional<double> of_bandwidth;  // bytes_per_s / the profile's memory bandwidth
    // flops_per_s / min(peak, intensity x bandwidth): how close to the promised roof the point
    // lies at its own intensity (only when both FLOPs and bytes were counted).
    std::optional<double> of_roof;
};
MeasuredFractions measured_fractions(const ProbeResultRecord& result,
                                     const HardwareProfile& promised);

// ---- the measured roofline ----------------------------------------------------------------------

// The best validated, passed matmul of one dtype family.
struct MeasuredPeak {
    ComputeType type = ComputeType::fp32;
    std::string dtype;  // as the probe named it ("fp8_e4m3")
    double flops_per_s = 0.0;
    std::int64_t result_id = 0;
    std::string sizes_json;  // of the matmul that reached it
    std::optional<double> promised_flops_per_s;
    std::optional<double> fraction_of_peak;  // flops_per_s / promised
};

// The best validated, passed device-memory bandwidth ("copy" or "read", best_probe_results(), as
// measured_profile() takes it, so a profile made from the run has the bandwidth drawn here).
struct MeasuredBandwidth {
    double bytes_per_s = 0.0;
    std::string test;  // probe_case_name(): "copy" or "read"
    std::int64_t result_id = 0;
    std::optional<double> promised_bytes_per_s;
    std::optional<double> fraction_of_bandwidth;  // bytes_per_s / promised
};

enum class MeasuredPointKind {
    matmul,   // "matmul"
    seed_op,  // the seed lecture's relu, gelu, dot, matvec
    sweep,    // intensity_sweep, any variant
    stream,   // memory-bandwidth scale/add/triad (they count FLOPs; copy does not)
    other,    // any other result with FLOPs and bytes
};
std::string_view to_string(MeasuredPointKind kind);

// One validated, passed result with counted FLOPs and bytes, where the chart puts it.
struct MeasuredPoint {
    std::int64_t result_id = 0;
    std::string test;     // probe_case_name(): "matmul", "relu", "intensity_sweep.tensor_core", ...
    std::string variant;  // the probe's variant ("tensor_core"; empty when none)
    std::string dtype;
    std::string sizes_json;
    MeasuredPointKind kind = MeasuredPointKind::other;
    double intensity_flops_per_byte = 0.0;  // flops / bytes of one sample
    double flops_per_s = 0.0;
    std::optional<double> bytes_per_s;
    MeasuredFractions fractions;  // against the promised profile; all absent without one
};

struct MeasuredRoofline {
    std::vector<MeasuredPeak> peaks;  // kAllComputeTypes order
    std::optional<MeasuredBandwidth> bandwidth;
    std::vector<MeasuredPoint> points;  // in the run's order

    bool empty() const { return peaks.empty() && !bandwidth && points.empty(); }
    // The measured roof of a dtype family: its measured peak under the measured bandwidth.
    // nullopt unless both were measured.
    std::optional<Roof> roof(ComputeType type) const;
    // Every measured roof (kAllComputeTypes order).
    std::vector<Roof> roofs() const;
};

// The measured roofline of `run`, with fractions of `promised` (null: no fractions). Only passed,
// validated results count; `timing_lesson` never does (its unsynchronised figure is wrong on
// purpose, gpu_probe/protocol/PROTOCOL.md), nor host<->device copies (not device memory).
MeasuredRoofline measured_roofline(const ProbeRunRecord& run, const HardwareProfile* promised);

// ---- which catalog entry a probed device is -----------------------------------------------------

// The built-in profile a device name (CUDA's device name, e.g. "NVIDIA H100 80GB HBM3") names, or
// null. A catalog entry's model token (the first word of its name with a letter and a digit,
// e.g. "h100", "l40s", "mi300x", or a number like "4090") must be a word of the device name;
// entries whose form factor word ("pcie", "nvl") the device name lacks, or has when they do not,
// are dropped; among what is left the memory size nearest `memory_bytes` (0: unknown) wins.
const HardwareProfile* catalog_profile_for_device(std::string_view device_name,
                                                  double memory_bytes);

}  // namespace tally
