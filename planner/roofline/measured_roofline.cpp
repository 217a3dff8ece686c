#include "planner/roofline/measured_roofline.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>

namespace tally {

namespace {

// The seed lecture's operations (CS336 lecture 2), measured by both backends.
constexpr std::array<std::string_view, 4> kSeedOps{"relu", "gelu", "dot", "matvec"};

bool contains(const auto& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

std::optional<double> ratio(std::optional<double> measured, double promised) {
    if (!measured || !(promised > 0.0)) {
        return std::nullopt;
    }
    return *measured / promised;
}

MeasuredPointKind point_kind(std::string_view test) {
    if (test == "matmul") {
        return MeasuredPointKind::matmul;
    }
    if (contains(kSeedOps, test)) {
        return MeasuredPointKind::seed_op;
    }
    if (test == "intensity_sweep") {
        return MeasuredPointKind::sweep;
    }
    if (is_memory_bandwidth_test(test)) {
        return MeasuredPointKind::stream;
    }
    return MeasuredPointKind::other;
}

// Results that never go on a roofline: the timing lesson's figures (one is wrong on purpose) and
// host<->device copies (PCIe or NVLink-C2C, not device memory).
bool excluded(std::string_view test) {
    return test == "timing_lesson" || test == "host_device_copy";
}

std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::string current;
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
            current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!current.empty()) {
            out.push_back(std::move(current));
            current.clear();
        }
    }
    if (!current.empty()) {
        out.push_back(std::move(current));
    }
    return out;
}

// "h100", "l40s", "mi300x" (a letter and a digit) or "4090" (three digits or more).
std::optional<std::string> model_token(std::string_view name) {
    for (const std::string& w : words(name)) {
        const bool digit =
            std::any_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
        const bool letter =
            std::any_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
        if (digit && (letter || w.size() >= 3)) {
            return w;
        }
    }
    return std::nullopt;
}

}  // namespace

MeasuredFractions measured_fractions(const ProbeResultRecord& result,
                                     const HardwareProfile& promised) {
    MeasuredFractions f;
    f.of_bandwidth = ratio(result.bytes_per_s, promised.bandwidth_bytes_per_s);
    const auto type = probe_compute_type(result.dtype);
    if (!type) {
        return f;
    }
    f.of_peak = ratio(result.flops_per_s, promised.peak(*type));
    const auto roof = roof_for(promised, *type);
    if (roof && result.flops > 0.0 && result.bytes > 0.0) {
        f.of_roof =
            ratio(result.flops_per_s, roof->attainable_flops_per_s(result.flops / result.bytes));
    }
    return f;
}

std::string_view to_string(MeasuredPointKind kind) {
    switch (kind) {
        case MeasuredPointKind::matmul:
            return "matmul";
        case MeasuredPointKind::seed_op:
            return "seed_op";
        case MeasuredPointKind::sweep:
            return "sweep";
        case MeasuredPointKind::stream:
            return "stream";
        case MeasuredPointKind::other:
            break;
    }
    return "other";
}

std::optional<Roof> MeasuredRoofline::roof(ComputeType type) const {
    if (!bandwidth) {
        return std::nullopt;
    }
    for (const MeasuredPeak& p : peaks) {
        if (p.type == type) {
            return Roof{type, p.flops_per_s, bandwidth->bytes_per_s};
        }
    }
    return std::nullopt;
}

std::vector<Roof> MeasuredRoofline::roofs() const {
    std::vector<Roof> out;
    for (const MeasuredPeak& p : peaks) {
        if (auto r = roof(p.type)) {
            out.push_back(*r);
        }
    }
    return out;
}

MeasuredRoofline measured_roofline(const ProbeRunRecord& run, const HardwareProfile* promised) {
    MeasuredRoofline out;
    const BestProbeResults best = best_probe_results(run);
    for (const ProbeResultRecord& r : run.results) {
        if (!is_usable(r) || excluded(r.test)) {
            continue;
        }
        const bool has_flops = r.flops_per_s && *r.flops_per_s > 0.0;
        if (has_flops && r.flops > 0.0 && r.bytes > 0.0) {
            MeasuredPoint p;
            p.result_id = r.id;
            p.test = probe_case_name(r);
            p.variant = r.variant;
            p.dtype = r.dtype;
            p.sizes_json = r.sizes_json;
            p.kind = point_kind(r.test);
            p.intensity_flops_per_byte = r.flops / r.bytes;
            p.flops_per_s = *r.flops_per_s;
            p.bytes_per_s = r.bytes_per_s;
            if (promised != nullptr) {
                p.fractions = measured_fractions(r, *promised);
            }
            out.points.push_back(std::move(p));
        }
    }
    for (ComputeType t : kAllComputeTypes) {
        const ProbeResultRecord* r = best.matmul_of(t);
        if (r == nullptr) {
            continue;
        }
        MeasuredPeak peak{t, r->dtype, *r->flops_per_s, r->id, r->sizes_json, {}, {}};
        if (promised != nullptr && promised->supports(t)) {
            peak.promised_flops_per_s = promised->peak(t);
            peak.fraction_of_peak = peak.flops_per_s / promised->peak(t);
        }
        out.peaks.push_back(std::move(peak));
    }
    if (const ProbeResultRecord* memory = best.memory; memory != nullptr) {
        MeasuredBandwidth bw{*memory->bytes_per_s, probe_case_name(*memory), memory->id, {}, {}};
        if (promised != nullptr && promised->bandwidth_bytes_per_s > 0.0) {
            bw.promised_bytes_per_s = promised->bandwidth_bytes_per_s;
            bw.fraction_of_bandwidth = bw.bytes_per_s / promised->bandwidth_bytes_per_s;
        }
        out.bandwidth = std::move(bw);
    }
    return out;
}

const HardwareProfile* catalog_profile_for_device(std::string_view device_name,
                                                  double memory_bytes) {
    const std::vector<std::string> device_words = words(device_name);
    const auto has_word = [](const std::vector<std::string>& list, std::string_view w) {
        return std::find(list.begin(), list.end(), w) != list.end();
    };
    constexpr std::array<std::string_view, 2> kFormFactorWords{"pcie", "nvl"};
    const HardwareProfile* best = nullptr;
    double best_distance = std::numeric_limits<double>::infinity();
    for (const HardwareProfile& p : builtin_hardware()) {
        const auto token = model_token(p.name);
        if (!token || !has_word(device_words, *token)) {
            continue;
        }
        const std::vector<std::string> name_words = words(p.name);
        const bool same_form =
            std::all_of(kFormFactorWords.begin(), kFormFactorWords.end(), [&](std::string_view w) {
                return has_word(device_words, w) == has_word(name_words, w);
            });
        if (!same_form) {
            continue;
        }
        // Relative memory distance; a device whose memory is more than a quarter away from the
        // entry's is another model (an A100 40GB is not the catalog's A100 PCIe 80GB).
        const double distance = memory_bytes > 0.0 && p.memory_bytes > 0.0
                                    ? std::abs(memory_bytes - p.memory_bytes) / p.memory_bytes
                                    : 0.0;
        if (distance > 0.25) {
            continue;
        }
        if (best == nullptr || distance < best_distance) {
            best = &p;
            best_distance = distance;
        }
    }
    return best;
}

}  // namespace tally
