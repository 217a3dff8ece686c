#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "planner/core/dtype.h"
#include "planner/core/spec.h"
#include "planner/core/text.h"

namespace tally {

// Where a profile comes from: the shipped catalog (read-only), a user's edited copy, or a probe
// run on the user's own card.
enum class ProfileKind { builtin, custom, measured };
std::string_view to_string(ProfileKind kind);
std::optional<ProfileKind> parse_profile_kind(std::string_view name);

// A published measurement of a part (e.g. the best bf16 GEMM a benchmark reached), with its source.
struct MeasuredFigure {
    std::string metric;  // "bf16_gemm", "hbm_read", ...
    double value = 0.0;  // FLOP/s or bytes/s
    std::optional<double> fraction_of_peak;
    std::string method;
    std::string source;
};

// A GEMM the probe timed on this part (its gemm_shapes test): `count` independent products of an
// m x k by a k x n matrix in `type`, all of them in `seconds` (the median of the samples). The
// step-time model uses it in place of its roofline time for a GEMM of exactly this shape and type
// (performance.h, measured_gemm_seconds()).
struct MeasuredGemm {
    ComputeType type = ComputeType::fp32;
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::int64_t count = 1;
    double seconds = 0.0;
    bool operator==(const MeasuredGemm&) const = default;
};
// The order profiles keep measured_gemms in (type, m, n, k, count), so a lookup is a binary search
// (inline: the step-time model searches for every GEMM it times).
inline bool measured_gemm_before(const MeasuredGemm& a, const MeasuredGemm& b) {
    return std::tie(a.type, a.m, a.n, a.k, a.count) < std::tie(b.type, b.m, b.n, b.k, b.count);
}

// The overall efficiency of the step-time model on this part, fitted from a step the user
// measured (`tally calibrate`): efficiency = predicted step / measured step, both of the spec the
// run was made with, the prediction made on this profile without any calibration. Every step
// the model predicts on a calibrated profile is divided by it (planner/performance/calibration.h),
// so the calibrating spec comes out at exactly its measured step and any other spec moves by the
// same factor. A profile without one is not calibrated.
struct StepCalibration {
    double efficiency = 1.0;        // predicted_step_s / measured_step_s
    double measured_step_s = 0.0;   // what the run measured for one optimizer step
    double predicted_step_s = 0.0;  // the uncalibrated prediction of the same spec
    std::string measured_on;        // when it was fitted, UTC date "2026-12-02"
    std::string source;             // where the measured step came from, in words
    std::string spec_name;          // the calibrating spec's name (or title)
    std::string base_profile;       // the profile it was fitted on (its id)
    // The engine the calibrating spec ran (training.engine): the efficiency is that software's
    // on this cluster, and a plan on another engine is told so. Absent in calibrations stored
    // before it was recorded.
    std::optional<Engine> engine;
    bool operator==(const StepCalibration&) const = default;
};
// A fitted efficiency further than 100x from 1 means the run and the spec describe different
// things (another layout, batch or sequence length; milliseconds entered as seconds): refused.
inline constexpr double kMinCalibrationEfficiency = 0.01;
inline constexpr double kMaxCalibrationEfficiency = 100.0;

// One accelerator. Peaks are dense (no 2:4 structured sparsity) in FLOP/s (ops/s for int8);
// 0 means the part has no such path. Memory is in bytes (GB = 1e9 bytes), bandwidth in bytes/s.
struct HardwareProfile {
    std::string id;
    std::string name;
    std::string vendor;
    ProfileKind kind = ProfileKind::builtin;
    // The catalog part a custom or measured profile was copied from (duplicate_profile(), a probe
    // run's base), its id; empty for the catalog's own parts and profiles made from nothing. The
    // part's generation and its published GEMM and attention figures follow it, so a copy of an
    // H100 under a name of the user's plans as the H100 does.
    std::string copied_from;
    std::string form_factor;
    std::string memory_type;
    double memory_bytes = 0.0;
    double bandwidth_bytes_per_s = 0.0;
    std::array<double, kComputeTypeCount> peak_flops_per_s{};
    double tdp_w = 0.0;
    // Streaming multiprocessors (NVIDIA) or compute units (AMD): how many GEMM output tiles run at
    // once, for tile and wave quantization (efficiency.h). 0: not known.
    std::int64_t sm_count = 0;
    std::string interconnect_name;
    double interconnect_bytes_per_s = 0.0;  // per direction
    // The scale-up domain (the GPUs one NVLink/xGMI/ICI fabric joins, usually a node) and the
    // scale-out network each GPU reaches other nodes through, per GPU per direction (e.g. one
    // 400 Gb/s NIC per GPU: 50e9 bytes/s). 0: not known.
    std::int64_t gpus_per_node = 0;
    // The GPUs one host (one operating system, one launcher) drives: a launcher's processes per
    // node. Usually the scale-up domain; fewer where the domain spans several hosts (a GB200 NVL72
    // rack is 18 trays of 4 GPUs). 0: not known, taken as the scale-up domain.
    std::int64_t gpus_per_host = 0;
    double inter_node_bytes_per_s = 0.0;
    // The GPU's link to its host's memory (PCIe), per direction: what offloaded optimizer state
    // and parameters cross. 0: not known.
    double host_bytes_per_s = 0.0;
    // What one GPU-hour of this part costs the user, in their currency; nullopt: not known.
    std::optional<double> price_per_gpu_hour;
    std::string datasheet_printed;  // what the datasheet printed (often "with sparsity")
    std::string verification;       // how direct the sources are
    std::string notes;
    std::vector<std::string> sources;
    std::vector<MeasuredFigure> measured;
    // GEMM times a probe measured on this part, sorted by measured_gemm_before (one per shape,
    // type and count); empty for catalog parts.
    std::vector<MeasuredGemm> measured_gemms;
    // The peaks as the datasheet printed them (often with 2:4 sparsity, 2x dense); 0: not printed.
    std::array<double, kComputeTypeCount> printed_flops_per_s{};
    // Which of `sources` (indices) each figure rests on, keyed by field: "memory_bytes",
    // "bandwidth_bytes_per_s", "peak_flops_per_s.bf16", "tdp_w", "interconnect", ...
    std::vector<std::pair<std::string, std::vector<std::size_t>>> figure_sources;
    // The overall efficiency fitted from a measured step (tally calibrate); nullopt: none.
    std::optional<StepCalibration> calibration;

    double peak(ComputeType type) const { return peak_flops_per_s[static_cast<std::size_t>(type)]; }
    bool supports(ComputeType type) const { return peak(type) > 0.0; }
    // Roofline ridge point: peak / bandwidth, FLOP per byte (Williams et al. 2009).
    double ridge_flops_per_byte(ComputeType type) const {
        return bandwidth_bytes_per_s > 0.0 ? peak(type) / bandwidth_bytes_per_s : 0.0;
    }
    // The best published matmul fraction of peak for this dtype, if the catalog has one.
    std::optional<double> best_measured_gemm_fraction(ComputeType type) const;
    // Whether the part's NVLink is a bridge between two cards (the PCIe parts' "NVLink bridge
    // (2-GPU)"): a group of more of them crosses each card's PCIe link to the host as well.
    bool nvlink_bridged() const { return interconnect_name.find("bridge") != std::string::npos; }
};

// Whether the part's id or name contains any of `parts` (each lower case), ignoring the case of
// the id and name (ASCII), without allocating: plans ask it on every evaluation (which GPU
// generation a part is, which published GEMM table applies).
bool names_any(const HardwareProfile& profile, std::initializer_list<std::string_view> parts);

// The dtype families the part has a peak for, comma-separated ("fp64, fp32, tf32, bf16, ..."),
// for error messages.
std::string supported_compute_types(const HardwareProfile& profile);

// The physical range of a profile's figures. Wide enough for any part from a laptop CPU to a
// rack-scale accelerator (a B200's dense fp4 peak is about 9e15 FLOP/s and its HBM3e 8e12
// bytes/s and 192e9 bytes; its TDP 1000 W), narrow enough that every figure a plan or a roofline
// computes from them stays finite (a peak of 1e-300 FLOP/s would make any training time
// infinite).
inline constexpr double kMinPeakFlopsPerS = 1e6;   // each given peak
inline constexpr double kMaxPeakFlopsPerS = 1e21;  // 1 zettaFLOP/s
inline constexpr double kMinBandwidthBytesPerS = 1e6;
inline constexpr double kMaxBandwidthBytesPerS = 1e16;  // memory and interconnect
inline constexpr double kMinMemoryBytes = 1e6;
inline constexpr double kMaxMemoryBytes = 1e16;
inline constexpr double kMaxTdpW = 1e6;

// JSON form (the catalog's and `tally profiles export`'s). from_json throws SpecError naming the
// field for missing or malformed values, or values outside the bounds above; `path` prefixes field
// names in messages.
HardwareProfile hardware_from_json(const nlohmann::json& json,
                                   const std::string& path = "hardware");
nlohmann::json to_json(const HardwareProfile& profile);

// The shipped catalog (resources/hardware/catalog.json), parsed once.
const std::vector<HardwareProfile>& builtin_hardware();
const HardwareProfile* find_builtin_hardware(std::string_view id);
// Comma-separated ids, for error messages.
std::string builtin_hardware_ids();
// The built-in ids a shortened or differently spelled one most likely meant: those that contain
// it once case, '-', '_' and spaces are set aside in both ("h100" -> h100-sxm, h100-pcie,
// h100-nvl; "H100_SXM" -> h100-sxm). Empty when none does, or it is under two characters.
std::vector<std::string> similar_builtin_hardware_ids(std::string_view id);
// What an error about an unknown GPU id allows when similar ids exist: "the id of a built-in
// GPU, such as h100-sxm, h100-pcie, h100-nvl (all: ...)"; nullopt when none is similar.
std::optional<Text> similar_builtin_hardware_rule(std::string_view id);

// The spec's GPU: a built-in profile id. Throws SpecError("cluster.gpu", ...) for unknown ids.
// (The workspace adds custom and measured profiles on top of this.)
const HardwareProfile& resolve_builtin_hardware(const PlanSpec& spec);

}  // namespace tally
