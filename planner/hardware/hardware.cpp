#include "planner/hardware/hardware.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <tuple>

#include "planner/core/enum_names.h"
#include "planner/core/errors.h"
#include "resources/embedded_resources.h"

namespace tally {

using nlohmann::json;

std::string_view to_string(ProfileKind kind) {
    switch (kind) {
        case ProfileKind::builtin:
            return "builtin";
        case ProfileKind::custom:
            return "custom";
        case ProfileKind::measured:
            return "measured";
    }
    return "?";
}

std::optional<ProfileKind> parse_profile_kind(std::string_view name) {
    for (ProfileKind k : {ProfileKind::builtin, ProfileKind::custom, ProfileKind::measured}) {
        if (to_string(k) == name) {
            return k;
        }
    }
    return std::nullopt;
}

std::optional<double> HardwareProfile::best_measured_gemm_fraction(ComputeType type) const {
    // "<type>_gemm" compared as views (lengths first): plans ask on every evaluation.
    const std::string_view type_name = to_string(type);
    constexpr std::string_view suffix = "_gemm";
    std::optional<double> best;
    for (const MeasuredFigure& m : measured) {
        const std::string_view metric = m.metric;
        if (metric.size() == type_name.size() + suffix.size() && metric.starts_with(type_name) &&
            metric.ends_with(suffix) && m.fraction_of_peak &&
            (!best || *m.fraction_of_peak > *best)) {
            best = m.fraction_of_peak;
        }
    }
    return best;
}

namespace {

char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Whether `text` contains the lower-case `part`, ignoring the case of `text` (ASCII).
bool contains_ignoring_case(std::string_view text, std::string_view part) {
    if (part.size() > text.size()) {
        return false;
    }
    for (std::size_t i = 0; i + part.size() <= text.size(); ++i) {
        std::size_t j = 0;
        while (j < part.size() && ascii_lower(text[i + j]) == part[j]) {
            ++j;
        }
        if (j == part.size()) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool names_any(const HardwareProfile& profile, std::initializer_list<std::string_view> parts) {
    for (std::string_view part : parts) {
        if (contains_ignoring_case(profile.id, part) ||
            contains_ignoring_case(profile.name, part) ||
            contains_ignoring_case(profile.copied_from, part)) {
            return true;
        }
    }
    return false;
}

std::string supported_compute_types(const HardwareProfile& p) {
    std::string list;
    for (ComputeType t : kAllComputeTypes) {
        if (p.supports(t)) {
            list += (list.empty() ? "" : ", ") + std::string(to_string(t));
        }
    }
    return list;
}

namespace {

std::string dump(const json& value) {
    return value.dump();
}

const json& require(const json& obj, const char* key, const std::string& path) {
    auto it = obj.find(key);
    if (it == obj.end()) {
        throw SpecError(path + "." + key, kValueNothing,
                        TALLY_TEXT("tally::hardware", "this field is required"));
    }
    return *it;
}

std::string get_string(const json& obj, const char* key, const std::string& path, bool required) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
        if (required) {
            throw SpecError(path + "." + key, kValueNothing,
                            TALLY_TEXT("tally::hardware", "a non-empty string is required"));
        }
        return {};
    }
    if (!it->is_string()) {
        throw SpecError(path + "." + key, dump(*it),
                        TALLY_TEXT("tally::hardware", "must be a string"));
    }
    return it->get<std::string>();
}

double get_number(const json& value, const std::string& field, bool allow_zero) {
    if (!value.is_number()) {
        throw SpecError(field, dump(value), TALLY_TEXT("tally::hardware", "must be a number"));
    }
    const double v = value.get<double>();
    if (!std::isfinite(v) || v < 0.0 || (!allow_zero && v == 0.0)) {
        throw SpecError(field, dump(value),
                        allow_zero ? TALLY_TEXT("tally::hardware", "must be a finite number >= 0")
                                   : TALLY_TEXT("tally::hardware", "must be a finite number > 0"));
    }
    return v;
}

// A figure in [min, max] (`allowed` says so); with allow_zero, 0 (not given) too.
double get_bounded(const json& value, const std::string& field, double min, double max,
                   const Text& allowed, bool allow_zero = false) {
    if (!value.is_number()) {
        throw SpecError(field, dump(value), allowed);
    }
    const double v = value.get<double>();
    if (!((v >= min && v <= max) || (allow_zero && v == 0.0))) {
        throw SpecError(field, dump(value), allowed);
    }
    return v;
}

// A profile's calibration: the efficiency within its bounds, the two steps of the fit finite and
// > 0 and agreeing with it (efficiency = predicted / measured, to 1e-6 relative), so a profile
// read back gives the same plans.
StepCalibration calibration_from_json(const json& j, const std::string& path) {
    if (!j.is_object()) {
        throw SpecError(
            path, dump(j),
            TALLY_TEXT("tally::hardware", "must be an object (efficiency, measured_step_s, ...)"));
    }
    StepCalibration c;
    c.efficiency = get_bounded(require(j, "efficiency", path), path + ".efficiency",
                               kMinCalibrationEfficiency, kMaxCalibrationEfficiency,
                               TALLY_TEXT("tally::hardware", "must be a number in [0.01, 100]"));
    c.measured_step_s =
        get_bounded(require(j, "measured_step_s", path), path + ".measured_step_s", 1e-9, 1e9,
                    TALLY_TEXT("tally::hardware", "must be a number in [1e-9, 1e9] seconds"));
    c.predicted_step_s =
        get_bounded(require(j, "predicted_step_s", path), path + ".predicted_step_s", 1e-12, 1e12,
                    TALLY_TEXT("tally::hardware", "must be a number in [1e-12, 1e12] seconds"));
    const double ratio = c.predicted_step_s / c.measured_step_s;
    if (std::abs(ratio - c.efficiency) > 1e-6 * c.efficiency) {
        throw SpecError(path + ".efficiency", dump(require(j, "efficiency", path)),
                        TALLY_TEXT("tally::hardware", "predicted_step_s / measured_step_s (%1)")
                            .arg(std::to_string(ratio)));
    }
    c.measured_on = get_string(j, "measured_on", path, false);
    c.source = get_string(j, "source", path, false);
    c.spec_name = get_string(j, "spec", path, false);
    c.base_profile = get_string(j, "base_profile", path, false);
    if (const auto it = j.find("engine"); it != j.end() && !it->is_null()) {
        const std::optional<Engine> engine =
            it->is_string() ? enum_from_json_name<Engine>(it->get<std::string>()) : std::nullopt;
        if (!engine) {
            throw SpecError(path + ".engine", dump(*it),
                            TALLY_TEXT("tally::hardware",
                                       "must be megatron, fsdp, fsdp_compile or deepspeed (the "
                                       "calibrating run's training.engine)"));
        }
        c.engine = engine;
    }
    return c;
}

}  // namespace

HardwareProfile hardware_from_json(const json& j, const std::string& path) {
    if (!j.is_object()) {
        throw SpecError(path, dump(j),
                        TALLY_TEXT("tally::hardware", "a hardware profile must be a JSON object"));
    }
    HardwareProfile p;
    p.id = get_string(j, "id", path, true);
    if (p.id.empty()) {
        throw SpecError(path + ".id", "\"\"",
                        TALLY_TEXT("tally::hardware", "a non-empty id is required"));
    }
    p.name = get_string(j, "name", path, true);
    p.vendor = get_string(j, "vendor", path, false);
    if (auto it = j.find("kind"); it != j.end()) {
        auto kind = it->is_string() ? parse_profile_kind(it->get<std::string>()) : std::nullopt;
        if (!kind) {
            throw SpecError(path + ".kind", dump(*it),
                            TALLY_TEXT("tally::hardware", "one of builtin, custom, measured"));
        }
        p.kind = *kind;
    }
    p.form_factor = get_string(j, "form_factor", path, false);
    p.memory_type = get_string(j, "memory_type", path, false);
    p.memory_bytes = get_bounded(
        require(j, "memory_bytes", path), path + ".memory_bytes", kMinMemoryBytes, kMaxMemoryBytes,
        TALLY_TEXT("tally::hardware", "must be a number in [1e6, 1e16] bytes"));
    p.bandwidth_bytes_per_s =
        get_bounded(require(j, "bandwidth_bytes_per_s", path), path + ".bandwidth_bytes_per_s",
                    kMinBandwidthBytesPerS, kMaxBandwidthBytesPerS,
                    TALLY_TEXT("tally::hardware", "must be a number in [1e6, 1e16] bytes/s"));
    const json& peaks = require(j, "peak_flops_per_s", path);
    if (!peaks.is_object()) {
        throw SpecError(path + ".peak_flops_per_s", dump(peaks),
                        TALLY_TEXT("tally::hardware", "must be an object of dtype: FLOP/s"));
    }
    for (auto it = peaks.begin(); it != peaks.end(); ++it) {
        auto type = parse_compute_type(it.key());
        if (!type) {
            throw SpecError(
                path + ".peak_flops_per_s." + it.key(), dump(it.value()),
                TALLY_TEXT("tally::hardware",
                           "keys must be fp64, fp32, tf32, bf16, fp16, fp8, fp4, int8"));
        }
        if (!it.value().is_null()) {
            p.peak_flops_per_s[static_cast<std::size_t>(*type)] =
                get_bounded(it.value(), path + ".peak_flops_per_s." + it.key(), kMinPeakFlopsPerS,
                            kMaxPeakFlopsPerS,
                            TALLY_TEXT("tally::hardware",
                                       "must be a number in [1e6, 1e21] FLOP/s (or 0: not given)"),
                            true);
        }
    }
    bool any_peak = false;
    for (double v : p.peak_flops_per_s) {
        any_peak = any_peak || v > 0.0;
    }
    if (!any_peak) {
        throw SpecError(path + ".peak_flops_per_s", dump(peaks),
                        TALLY_TEXT("tally::hardware", "at least one dtype needs a peak > 0"));
    }
    if (auto it = j.find("tdp_w"); it != j.end() && !it->is_null()) {
        p.tdp_w = get_bounded(*it, path + ".tdp_w", 0.0, kMaxTdpW,
                              TALLY_TEXT("tally::hardware", "must be a number in [0, 1e6] W"));
    }
    if (auto it = j.find("sm_count"); it != j.end() && !it->is_null()) {
        const double v =
            get_bounded(*it, path + ".sm_count", 1.0, 1e6,
                        TALLY_TEXT("tally::hardware", "must be a whole number in [1, 1e6]"));
        if (v != std::floor(v)) {
            throw SpecError(path + ".sm_count", dump(*it),
                            TALLY_TEXT("tally::hardware", "must be a whole number in [1, 1e6]"));
        }
        p.sm_count = static_cast<std::int64_t>(v);
    }
    if (auto it = j.find("interconnect"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) {
            throw SpecError(path + ".interconnect", dump(*it),
                            TALLY_TEXT("tally::hardware", "must be an object"));
        }
        p.interconnect_name = get_string(*it, "name", path + ".interconnect", false);
        if (auto bw = it->find("bandwidth_bytes_per_s_per_direction");
            bw != it->end() && !bw->is_null()) {
            p.interconnect_bytes_per_s =
                get_bounded(*bw, path + ".interconnect.bandwidth_bytes_per_s_per_direction", 0.0,
                            kMaxBandwidthBytesPerS,
                            TALLY_TEXT("tally::hardware", "must be a number in [0, 1e16] bytes/s"));
        }
    }
    if (auto it = j.find("network"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) {
            throw SpecError(path + ".network", dump(*it),
                            TALLY_TEXT("tally::hardware", "must be an object"));
        }
        // A count of GPUs: a whole number in [1, 1e6], or absent (0: not known).
        const auto gpu_count = [&](const char* key, std::int64_t& out) {
            const auto n = it->find(key);
            if (n == it->end() || n->is_null()) {
                return;
            }
            const std::string field = path + ".network." + key;
            const double v =
                get_bounded(*n, field, 1.0, 1e6,
                            TALLY_TEXT("tally::hardware", "must be a whole number in [1, 1e6]"));
            if (v != std::floor(v)) {
                throw SpecError(
                    field, dump(*n),
                    TALLY_TEXT("tally::hardware", "must be a whole number in [1, 1e6]"));
            }
            out = static_cast<std::int64_t>(v);
        };
        gpu_count("gpus_per_node", p.gpus_per_node);
        gpu_count("gpus_per_host", p.gpus_per_host);
        if (auto bw = it->find("inter_node_bytes_per_s_per_direction");
            bw != it->end() && !bw->is_null()) {
            p.inter_node_bytes_per_s =
                get_bounded(*bw, path + ".network.inter_node_bytes_per_s_per_direction", 0.0,
                            kMaxBandwidthBytesPerS,
                            TALLY_TEXT("tally::hardware", "must be a number in [0, 1e16] bytes/s"));
        }
        if (auto bw = it->find("host_bytes_per_s_per_direction");
            bw != it->end() && !bw->is_null()) {
            p.host_bytes_per_s = get_bounded(
                *bw, path + ".network.host_bytes_per_s_per_direction", 0.0, kMaxBandwidthBytesPerS,
                TALLY_TEXT("tally::hardware", "must be a number in [0, 1e16] bytes/s"));
        }
    }
    if (auto it = j.find("price_per_gpu_hour"); it != j.end() && !it->is_null()) {
        p.price_per_gpu_hour =
            get_bounded(*it, path + ".price_per_gpu_hour", 0.0, 1e9,
                        TALLY_TEXT("tally::hardware", "must be a number in [0, 1e9] per GPU-hour"));
    }
    p.datasheet_printed = get_string(j, "datasheet_printed", path, false);
    p.verification = get_string(j, "verification", path, false);
    p.notes = get_string(j, "notes", path, false);
    p.copied_from = get_string(j, "copied_from", path, false);
    if (auto it = j.find("sources"); it != j.end()) {
        if (!it->is_array()) {
            throw SpecError(path + ".sources", dump(*it),
                            TALLY_TEXT("tally::hardware", "must be an array of strings"));
        }
        for (const json& s : *it) {
            if (!s.is_string()) {
                throw SpecError(path + ".sources", dump(s),
                                TALLY_TEXT("tally::hardware", "must be an array of strings"));
            }
            p.sources.push_back(s.get<std::string>());
        }
    }
    if (auto it = j.find("measured"); it != j.end()) {
        if (!it->is_array()) {
            throw SpecError(path + ".measured", dump(*it),
                            TALLY_TEXT("tally::hardware", "must be an array"));
        }
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& m = (*it)[i];
            const std::string mpath = path + ".measured[" + std::to_string(i) + "]";
            if (!m.is_object()) {
                throw SpecError(mpath, dump(m), TALLY_TEXT("tally::hardware", "must be an object"));
            }
            MeasuredFigure f;
            f.metric = get_string(m, "metric", mpath, true);
            f.value = get_number(require(m, "value", mpath), mpath + ".value", false);
            if (auto fr = m.find("fraction_of_peak"); fr != m.end() && !fr->is_null()) {
                f.fraction_of_peak = get_number(*fr, mpath + ".fraction_of_peak", true);
            }
            f.method = get_string(m, "method", mpath, false);
            f.source = get_string(m, "source", mpath, false);
            p.measured.push_back(std::move(f));
        }
    }
    if (auto it = j.find("measured_gemms"); it != j.end() && !it->is_null()) {
        if (!it->is_array()) {
            throw SpecError(path + ".measured_gemms", dump(*it),
                            TALLY_TEXT("tally::hardware", "must be an array"));
        }
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& g = (*it)[i];
            const std::string gpath = path + ".measured_gemms[" + std::to_string(i) + "]";
            if (!g.is_object()) {
                throw SpecError(gpath, dump(g), TALLY_TEXT("tally::hardware", "must be an object"));
            }
            MeasuredGemm gemm;
            const std::string dtype = get_string(g, "dtype", gpath, true);
            const auto type = parse_compute_type(dtype);
            if (!type) {
                throw SpecError(gpath + ".dtype", dump(g["dtype"]),
                                TALLY_TEXT("tally::hardware",
                                           "one of fp64, fp32, tf32, bf16, fp16, fp8, fp4, int8"));
            }
            gemm.type = *type;
            const auto whole = [&](const char* key, std::int64_t& out) {
                const json& v = require(g, key, gpath);
                const double d = get_bounded(
                    v, gpath + "." + key, 1.0, 0x1p40,
                    TALLY_TEXT("tally::hardware", "must be a whole number in [1, 2^40]"));
                if (d != std::floor(d)) {
                    throw SpecError(
                        gpath + "." + key, dump(v),
                        TALLY_TEXT("tally::hardware", "must be a whole number in [1, 2^40]"));
                }
                out = static_cast<std::int64_t>(d);
            };
            whole("m", gemm.m);
            whole("n", gemm.n);
            whole("k", gemm.k);
            whole("count", gemm.count);
            gemm.seconds = get_bounded(
                require(g, "seconds", gpath), gpath + ".seconds", 1e-12, 1e6,
                TALLY_TEXT("tally::hardware", "must be a number in [1e-12, 1e6] seconds"));
            p.measured_gemms.push_back(gemm);
        }
        std::sort(p.measured_gemms.begin(), p.measured_gemms.end(), measured_gemm_before);
        for (std::size_t i = 1; i < p.measured_gemms.size(); ++i) {
            const MeasuredGemm& a = p.measured_gemms[i - 1];
            const MeasuredGemm& b = p.measured_gemms[i];
            if (!measured_gemm_before(a, b)) {
                throw SpecError(
                    path + ".measured_gemms",
                    std::string(to_string(b.type)) + " " + std::to_string(b.m) + "x" +
                        std::to_string(b.n) + "x" + std::to_string(b.k) + "x" +
                        std::to_string(b.count),
                    TALLY_TEXT("tally::hardware", "at most one time per dtype, shape and count"));
            }
        }
    }
    if (auto it = j.find("datasheet_printed_flops_per_s"); it != j.end() && !it->is_null()) {
        const std::string field = path + ".datasheet_printed_flops_per_s";
        if (!it->is_object()) {
            throw SpecError(
                field, dump(*it),
                TALLY_TEXT("tally::hardware", "must be an object of dtype: FLOP/s as printed"));
        }
        for (auto v = it->begin(); v != it->end(); ++v) {
            auto type = parse_compute_type(v.key());
            if (!type) {
                throw SpecError(
                    field + "." + v.key(), dump(v.value()),
                    TALLY_TEXT("tally::hardware",
                               "keys must be fp64, fp32, tf32, bf16, fp16, fp8, fp4, int8"));
            }
            if (!v.value().is_null()) {
                p.printed_flops_per_s[static_cast<std::size_t>(*type)] =
                    get_number(v.value(), field + "." + v.key(), true);
            }
        }
    }
    if (auto it = j.find("figure_sources"); it != j.end() && !it->is_null()) {
        const std::string field = path + ".figure_sources";
        if (!it->is_object()) {
            throw SpecError(
                field, dump(*it),
                TALLY_TEXT("tally::hardware", "must be an object of field: [source indices]"));
        }
        for (auto f = it->begin(); f != it->end(); ++f) {
            std::vector<std::size_t> indices;
            if (!f.value().is_array()) {
                throw SpecError(
                    field + "." + f.key(), dump(f.value()),
                    TALLY_TEXT("tally::hardware", "must be an array of indices into sources"));
            }
            for (const json& index : f.value()) {
                if (!index.is_number_unsigned() || index.get<std::size_t>() >= p.sources.size()) {
                    throw SpecError(
                        field + "." + f.key(), dump(index),
                        TALLY_TEXT("tally::hardware", "an index into sources (0 to %1 - 1)")
                            .arg(static_cast<std::int64_t>(p.sources.size())));
                }
                indices.push_back(index.get<std::size_t>());
            }
            p.figure_sources.emplace_back(f.key(), std::move(indices));
        }
    }
    if (auto it = j.find("calibration"); it != j.end() && !it->is_null()) {
        p.calibration = calibration_from_json(*it, path + ".calibration");
    }
    return p;
}

json to_json(const HardwareProfile& p) {
    json peaks = json::object();
    for (ComputeType t : kAllComputeTypes) {
        const double v = p.peak(t);
        peaks[std::string(to_string(t))] = v > 0.0 ? json(v) : json(nullptr);
    }
    json printed = json::object();
    for (ComputeType t : kAllComputeTypes) {
        const double v = p.printed_flops_per_s[static_cast<std::size_t>(t)];
        printed[std::string(to_string(t))] = v > 0.0 ? json(v) : json(nullptr);
    }
    json figure_sources = json::object();
    for (const auto& [field, indices] : p.figure_sources) {
        figure_sources[field] = indices;
    }
    json measured = json::array();
    for (const MeasuredFigure& m : p.measured) {
        measured.push_back(
            {{"metric", m.metric},
             {"value", m.value},
             {"fraction_of_peak", m.fraction_of_peak ? json(*m.fraction_of_peak) : json(nullptr)},
             {"method", m.method},
             {"source", m.source}});
    }
    json out{
        {"id", p.id},
        {"name", p.name},
        {"vendor", p.vendor},
        {"kind", std::string(to_string(p.kind))},
        {"form_factor", p.form_factor},
        {"memory_type", p.memory_type},
        {"memory_bytes", p.memory_bytes},
        {"bandwidth_bytes_per_s", p.bandwidth_bytes_per_s},
        {"peak_flops_per_s", peaks},
        {"tdp_w", p.tdp_w > 0.0 ? json(p.tdp_w) : json(nullptr)},
        {"sm_count", p.sm_count > 0 ? json(p.sm_count) : json(nullptr)},
        {"interconnect",
         {{"name", p.interconnect_name},
          {"bandwidth_bytes_per_s_per_direction",
           p.interconnect_bytes_per_s > 0.0 ? json(p.interconnect_bytes_per_s) : json(nullptr)}}},
        {"network",
         {{"gpus_per_node", p.gpus_per_node > 0 ? json(p.gpus_per_node) : json(nullptr)},
          {"gpus_per_host", p.gpus_per_host > 0 ? json(p.gpus_per_host) : json(nullptr)},
          {"inter_node_bytes_per_s_per_direction",
           p.inter_node_bytes_per_s > 0.0 ? json(p.inter_node_bytes_per_s) : json(nullptr)},
          {"host_bytes_per_s_per_direction",
           p.host_bytes_per_s > 0.0 ? json(p.host_bytes_per_s) : json(nullptr)}}},
        {"price_per_gpu_hour", p.price_per_gpu_hour ? json(*p.price_per_gpu_hour) : json(nullptr)},
        {"datasheet_printed", p.datasheet_printed},
        {"verification", p.verification},
        {"notes", p.notes},
        {"sources", p.sources},
        {"measured", measured},
        {"datasheet_printed_flops_per_s", printed},
        {"figure_sources", figure_sources},
    };
    // Only copies name the part they were copied from; other profiles' JSON stays as it was.
    if (!p.copied_from.empty()) {
        out["copied_from"] = p.copied_from;
    }
    // Only measured profiles have GEMM times; other profiles' JSON stays as it was.
    if (!p.measured_gemms.empty()) {
        json gemms = json::array();
        for (const MeasuredGemm& g : p.measured_gemms) {
            gemms.push_back({{"dtype", std::string(to_string(g.type))},
                             {"m", g.m},
                             {"n", g.n},
                             {"k", g.k},
                             {"count", g.count},
                             {"seconds", g.seconds}});
        }
        out["measured_gemms"] = std::move(gemms);
    }
    // Only calibrated profiles have a calibration; other profiles' JSON stays as it was.
    if (p.calibration) {
        const StepCalibration& c = *p.calibration;
        out["calibration"] = {{"efficiency", c.efficiency},
                              {"measured_step_s", c.measured_step_s},
                              {"predicted_step_s", c.predicted_step_s},
                              {"measured_on", c.measured_on},
                              {"source", c.source},
                              {"spec", c.spec_name},
                              {"base_profile", c.base_profile}};
        if (c.engine) {
            out["calibration"]["engine"] = std::string(json_name(*c.engine));
        }
    }
    return out;
}

namespace {

std::vector<HardwareProfile> load_catalog() {
    for (const EmbeddedFile& f : embedded_files()) {
        if (f.path != "hardware/catalog.json") {
            continue;
        }
        const json doc = json::parse(f.contents);
        std::vector<HardwareProfile> out;
        const json& list = doc.at("hardware");
        for (std::size_t i = 0; i < list.size(); ++i) {
            out.push_back(
                hardware_from_json(list[i], "catalog.hardware[" + std::to_string(i) + "]"));
            out.back().kind = ProfileKind::builtin;
        }
        return out;
    }
    throw std::runtime_error("hardware/catalog.json is missing from the embedded resources");
}

}  // namespace

const std::vector<HardwareProfile>& builtin_hardware() {
    static const std::vector<HardwareProfile> catalog = load_catalog();
    return catalog;
}

const HardwareProfile* find_builtin_hardware(std::string_view id) {
    for (const HardwareProfile& p : builtin_hardware()) {
        if (p.id == id) {
            return &p;
        }
    }
    return nullptr;
}

std::string builtin_hardware_ids() {
    std::string ids;
    for (const HardwareProfile& p : builtin_hardware()) {
        if (!ids.empty()) {
            ids += ", ";
        }
        ids += p.id;
    }
    return ids;
}

namespace {

// An id with case, '-', '_' and spaces set aside: how "H100 SXM" and "h100-sxm" compare alike.
std::string id_letters(std::string_view id) {
    std::string out;
    for (const char c : id) {
        if (c == '-' || c == '_' || c == ' ') {
            continue;
        }
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

}  // namespace

std::vector<std::string> similar_builtin_hardware_ids(std::string_view id) {
    const std::string wanted = id_letters(id);
    std::vector<std::string> out;
    if (wanted.size() < 2) {
        return out;  // one letter is in nearly every id
    }
    for (const HardwareProfile& p : builtin_hardware()) {
        if (id_letters(p.id).find(wanted) != std::string::npos) {
            out.push_back(p.id);
        }
    }
    return out;
}

std::optional<Text> similar_builtin_hardware_rule(std::string_view id) {
    const std::vector<std::string> similar = similar_builtin_hardware_ids(id);
    if (similar.empty()) {
        return std::nullopt;
    }
    std::string ids;
    for (const std::string& s : similar) {
        ids += (ids.empty() ? "" : ", ") + s;
    }
    return TALLY_TEXT("tally::hardware", "the id of a built-in GPU, such as %1 (all: %2)")
        .arg(ids)
        .arg(builtin_hardware_ids());
}

const HardwareProfile& resolve_builtin_hardware(const PlanSpec& spec) {
    const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu);
    if (!hw) {
        if (std::optional<Text> rule = similar_builtin_hardware_rule(spec.cluster.gpu)) {
            throw SpecError("cluster.gpu", "\"" + spec.cluster.gpu + "\"", std::move(*rule));
        }
        throw SpecError("cluster.gpu", "\"" + spec.cluster.gpu + "\"",
                        TALLY_TEXT("tally::hardware", "one of the built-in GPUs: %1")
                            .arg(builtin_hardware_ids()));
    }
    return *hw;
}

}  // namespace tally
