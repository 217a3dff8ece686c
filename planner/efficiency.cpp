#include "planner/efficiency.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include <fmt/format.h>

namespace tally {

namespace {

// The catalog metrics that measure streaming memory bandwidth: a read-only pass, a copy, and
// STREAM's triad (McCalpin 1995).
bool is_memory_metric(const std::string& metric) {
    return metric == "hbm_read" || metric == "hbm_copy" || metric == "hbm_triad";
}

std::optional<double> best_fraction(const HardwareProfile& p,
                                    bool (*matches)(const std::string&, const std::string&),
                                    const std::string& key) {
    std::optional<double> best;
    for (const MeasuredFigure& m : p.measured) {
        if (matches(m.metric, key) && m.fraction_of_peak &&
            (!best || *m.fraction_of_peak > *best)) {
            best = m.fraction_of_peak;
        }
    }
    return best;
}

bool same_metric(const std::string& metric, const std::string& key) {
    return metric == key;
}

bool memory_metric(const std::string& metric, const std::string&) {
    return is_memory_metric(metric);
}

// The median over the catalog's parts of each part's best fraction for the metric; a fraction
// above 1 (a consumer card boosting past its printed clock) counts as 1, since the planner never
// predicts faster than the peak it was given. nullopt when no part has the metric.
std::optional<double> catalog_median(bool (*matches)(const std::string&, const std::string&),
                                     const std::string& key) {
    std::vector<double> values;
    for (const HardwareProfile& p : builtin_hardware()) {
        if (auto f = best_fraction(p, matches, key)) {
            values.push_back(std::min(*f, 1.0));
        }
    }
    if (values.empty()) {
        return std::nullopt;
    }
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The catalog medians, computed once (the catalog is fixed at build time): one per compute type's
// GEMM metric, then the memory metric.
struct CatalogMedians {
    std::array<std::optional<double>, kComputeTypeCount> gemm;
    std::optional<double> memory;
};

const CatalogMedians& catalog_medians() {
    static const CatalogMedians medians = [] {
        CatalogMedians m;
        for (ComputeType t : kAllComputeTypes) {
            m.gemm[static_cast<std::size_t>(t)] =
                catalog_median(same_metric, std::string(to_string(t)) + "_gemm");
        }
        m.memory = catalog_median(memory_metric, {});
        return m;
    }();
    return medians;
}

enum class Origin { measured_profile, own, median, datasheet };

struct Resolved {
    double fraction = 1.0;
    Origin origin = Origin::datasheet;
};

Resolved resolve(const HardwareProfile& p, bool (*matches)(const std::string&, const std::string&),
                 const std::string& key, std::optional<double> median) {
    if (p.kind == ProfileKind::measured) {
        return {1.0, Origin::measured_profile};
    }
    if (auto own = best_fraction(p, matches, key)) {
        return {std::min(*own, 1.0), Origin::own};
    }
    if (median) {
        return {*median, Origin::median};
    }
    return {1.0, Origin::datasheet};
}

std::string describe(const Resolved& r, const HardwareProfile& p, const std::string& what) {
    switch (r.origin) {
        case Origin::measured_profile:
            return fmt::format("{:.3g}: measured on this card (the profile's {} is the probe's)",
                               r.fraction, what);
        case Origin::own:
            return fmt::format("{:.3g}: the best published {} measurement of {} in the catalog",
                               r.fraction, what, p.name);
        case Origin::median:
            return fmt::format(
                "{:.3g}: no published {} measurement of {}; the median of the catalog's parts",
                r.fraction, what, p.name);
        case Origin::datasheet:
            return fmt::format("1: no published {} measurement in the catalog; the datasheet peak",
                               what);
    }
    return {};
}

std::string gemm_metric(ComputeType type) {
    return std::string(to_string(type)) + "_gemm";
}

Resolved resolve_gemm(const HardwareProfile& profile, ComputeType type) {
    return resolve(profile, same_metric, gemm_metric(type),
                   catalog_medians().gemm[static_cast<std::size_t>(type)]);
}

Resolved resolve_memory(const HardwareProfile& profile) {
    return resolve(profile, memory_metric, {}, catalog_medians().memory);
}

}  // namespace

double gemm_fraction(const HardwareProfile& profile, ComputeType type) {
    return resolve_gemm(profile, type).fraction;
}

std::string gemm_fraction_source(const HardwareProfile& profile, ComputeType type) {
    return describe(resolve_gemm(profile, type), profile, std::string(to_string(type)) + " GEMM");
}

double memory_fraction(const HardwareProfile& profile) {
    return resolve_memory(profile).fraction;
}

std::string memory_fraction_source(const HardwareProfile& profile) {
    return describe(resolve_memory(profile), profile, "memory bandwidth");
}

GemmTime gemm_time(const HardwareProfile& profile, ComputeType type, double m, double n, double k,
                   double bytes_per_value) {
    GemmTime t;
    t.flops = 2.0 * m * n * k;
    t.bytes = (m * k + k * n + m * n) * bytes_per_value;
    const double peak = profile.peak(type) * gemm_fraction(profile, type);
    t.compute_s = peak > 0.0 ? t.flops / peak : 0.0;
    t.memory_s = memory_time_s(profile, t.bytes);
    t.memory_bound = t.memory_s > t.compute_s;
    t.seconds = std::max(t.compute_s, t.memory_s);
    return t;
}

double memory_time_s(const HardwareProfile& profile, double bytes) {
    const double bw = profile.bandwidth_bytes_per_s * memory_fraction(profile);
    return bw > 0.0 ? bytes / bw : 0.0;
}

}  // namespace tally
