#include "planner/hardware/efficiency.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace tally {

namespace {

// The metrics that measure streaming memory bandwidth: the catalog's read-only pass, copy, and
// STREAM's triad (McCalpin 1995), and a measured profile's probe copy or read ("memory_copy").
// Compared as views, which check the length before the bytes: plans resolve their fractions on
// every evaluation.
bool is_memory_metric(const std::string& text) {
    using namespace std::string_view_literals;
    const std::string_view metric = text;
    return metric == "hbm_read"sv || metric == "hbm_copy"sv || metric == "hbm_triad"sv ||
           metric.starts_with("memory_"sv);
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
    return std::string_view(metric) == std::string_view(key);
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

// A measured profile (user_profiles.h, measured_profile()) lists what the probe measured as
// figures at 1.0 of the peak they set, and keeps its base part's published figures for what it
// did not measure: a figure at 1 is the card's own, one below is the base's, and a figure with
// neither falls back to the catalog median like any part's.
Resolved resolve(const HardwareProfile& p, bool (*matches)(const std::string&, const std::string&),
                 const std::string& key, std::optional<double> median) {
    if (auto own = best_fraction(p, matches, key)) {
        if (p.kind == ProfileKind::measured && *own >= 1.0) {
            return {1.0, Origin::measured_profile};
        }
        return {std::min(*own, 1.0), Origin::own};
    }
    if (median) {
        return {*median, Origin::median};
    }
    return {1.0, Origin::datasheet};
}

// What a fraction is a measurement of, in words: "bf16 GEMM" as written, "memory bandwidth"
// looked up under `context` where the source is translated.
struct Measured {
    std::string what;
    const char* context = nullptr;  // null: as written
};

Text& add_what(Text& text, const Measured& m) {
    return m.context != nullptr ? text.arg_translated(m.context, m.what.c_str()) : text.arg(m.what);
}

Text describe(const Resolved& r, const HardwareProfile& p, const Measured& what) {
    Text text;
    switch (r.origin) {
        case Origin::measured_profile:
            text = TALLY_TEXT("tally::source",
                              "%1: measured on this card (the profile's %2 is the probe's)");
            text.arg(fmt::format("{:.3g}", r.fraction));
            return std::move(add_what(text, what));
        case Origin::own:
            if (p.kind == ProfileKind::measured) {
                text = TALLY_TEXT("tally::source",
                                  "%1: not measured on this card; the best published %2 "
                                  "measurement of the part it is based on");
                text.arg(fmt::format("{:.3g}", r.fraction));
                return std::move(add_what(text, what));
            }
            text = TALLY_TEXT("tally::source",
                              "%1: the best published %2 measurement of %3 in the catalog");
            text.arg(fmt::format("{:.3g}", r.fraction));
            return std::move(add_what(text, what).arg(p.name));
        case Origin::median:
            text = TALLY_TEXT("tally::source",
                              "%1: no published %2 measurement of %3; the median of the "
                              "catalog's parts");
            text.arg(fmt::format("{:.3g}", r.fraction));
            return std::move(add_what(text, what).arg(p.name));
        case Origin::datasheet:
            text = TALLY_TEXT("tally::source",
                              "1: no published %1 measurement in the catalog; the datasheet peak");
            return std::move(add_what(text, what));
    }
    return text;
}

// The catalog's metric name of a GEMM in `type` ("bf16_gemm"), built once per type: plans resolve
// their fractions on every evaluation.
const std::string& gemm_metric(ComputeType type) {
    static const std::array<std::string, kComputeTypeCount> names = [] {
        std::array<std::string, kComputeTypeCount> out;
        for (ComputeType t : kAllComputeTypes) {
            out[static_cast<std::size_t>(t)] = std::string(to_string(t)) + "_gemm";
        }
        return out;
    }();
    return names[static_cast<std::size_t>(type)];
}

Resolved resolve_gemm(const HardwareProfile& profile, ComputeType type) {
    // fp16 and bf16 run on the same tensor cores at the same dense rate on every part that has
    // both (the catalog's peaks are equal), and published GEMM benchmarks measure bf16: an fp16
    // plan takes the bf16 figures when the part has no fp16 measurement of its own.
    // A part whose bf16 peak was removed (a custom copy that plans in fp16) keeps its bf16
    // measurements of those tensor cores for fp16 too.
    if (type == ComputeType::fp16 && !best_fraction(profile, same_metric, gemm_metric(type)) &&
        (profile.peak(ComputeType::fp16) == profile.peak(ComputeType::bf16) ||
         profile.peak(ComputeType::bf16) <= 0.0)) {
        type = ComputeType::bf16;
    }
    std::optional<double> median = catalog_medians().gemm[static_cast<std::size_t>(type)];
    if (type == ComputeType::fp16 && !median) {
        // No catalog part publishes an fp16 GEMM: the bf16 median stands for the same tensor
        // cores (a measured profile whose bf16 peak the probe replaced lands here).
        median = catalog_medians().gemm[static_cast<std::size_t>(ComputeType::bf16)];
    }
    return resolve(profile, same_metric, gemm_metric(type), median);
}

Resolved resolve_memory(const HardwareProfile& profile) {
    return resolve(profile, memory_metric, {}, catalog_medians().memory);
}

}  // namespace

double gemm_fraction(const HardwareProfile& profile, ComputeType type) {
    return resolve_gemm(profile, type).fraction;
}

std::optional<double> published_gemm_fraction(const HardwareProfile& profile, ComputeType type) {
    return best_fraction(profile, same_metric, gemm_metric(type));
}

Text gemm_fraction_source_text(const HardwareProfile& profile, ComputeType type) {
    return describe(resolve_gemm(profile, type), profile, {std::string(to_string(type)) + " GEMM"});
}

std::string gemm_fraction_source(const HardwareProfile& profile, ComputeType type) {
    return gemm_fraction_source_text(profile, type).english();
}

double memory_fraction(const HardwareProfile& profile) {
    return resolve_memory(profile).fraction;
}

Text memory_fraction_source_text(const HardwareProfile& profile) {
    return describe(resolve_memory(profile), profile,
                    {QT_TRANSLATE_NOOP("tally::source", "memory bandwidth"), "tally::source"});
}

std::string memory_fraction_source(const HardwareProfile& profile) {
    return memory_fraction_source_text(profile).english();
}

GemmTime gemm_time(const HardwareProfile& profile, ComputeType type, double m, double n, double k,
                   double bytes_per_value) {
    return gemm_time(achieved_rates(profile, type), m, n, k, bytes_per_value);
}

double memory_time_s(const HardwareProfile& profile, double bytes) {
    const double bw = profile.bandwidth_bytes_per_s * memory_fraction(profile);
    return bw > 0.0 ? bytes / bw : 0.0;
}

AchievedRates achieved_rates(const HardwareProfile& profile, ComputeType type) {
    AchievedRates r;
    r.gemm_flops_per_s = profile.peak(type) * gemm_fraction(profile, type);
    r.memory_bytes_per_s = profile.bandwidth_bytes_per_s * memory_fraction(profile);
    r.sm_count = profile.sm_count;
    r.shapes = gemm_shape_rates(profile, type);
    return r;
}

GemmTime gemm_time(const AchievedRates& rates, double m, double n, double k,
                   double bytes_per_value) {
    GemmTime t;
    t.flops = 2.0 * m * n * k;
    t.bytes = (m * k + k * n + m * n) * bytes_per_value;
    t.compute_s = rates.gemm_flops_per_s > 0.0 ? t.flops / rates.gemm_flops_per_s : 0.0;
    t.memory_s = memory_time_s(rates, t.bytes);
    t.memory_bound = t.memory_s > t.compute_s;
    t.seconds = std::max(t.compute_s, t.memory_s);
    return t;
}

double memory_time_s(const AchievedRates& rates, double bytes) {
    return rates.memory_bytes_per_s > 0.0 ? bytes / rates.memory_bytes_per_s : 0.0;
}

namespace {

// Output tiles and the waves they run in. A dimension smaller than the tile gets a tile of its
// own size (a skinny product runs on narrower tiles, down to a matrix-vector kernel), so only
// the waves quantize it.
struct Waves {
    double tile_m = kGemmTileM;
    double tile_n = kGemmTileN;
    double waves = 0.0;
};

Waves gemm_waves(double sms, double count, double m, double n) {
    Waves w;
    w.tile_m = std::min(m, kGemmTileM);
    w.tile_n = std::min(n, kGemmTileN);
    const double rows = m < kGemmTileM ? 1.0 : detail::ceil_nonnegative(m * (1.0 / kGemmTileM));
    const double columns = n < kGemmTileN ? 1.0 : detail::ceil_nonnegative(n * (1.0 / kGemmTileN));
    const double tiles = count * rows * columns;
    w.waves = detail::ceil_nonnegative(tiles / sms);
    return w;
}

}  // namespace

double gemm_quantization_efficiency(std::int64_t sm_count, double count, double m, double n) {
    if (sm_count <= 0 || count <= 0.0 || m <= 0.0 || n <= 0.0) {
        return 1.0;
    }
    const double sms = static_cast<double>(sm_count);
    const Waves w = gemm_waves(sms, count, m, n);
    return count * m * n / (w.waves * sms * w.tile_m * w.tile_n);
}

GemmTime gemm_time_shaped(const AchievedRates& rates, double count, double m, double n, double k,
                          double bytes_per_value) {
    GemmTime t;
    t.flops = 2.0 * count * m * n * k;
    t.bytes = count * (m * k + k * n + m * n) * bytes_per_value;
    const double table_rate = gemm_shape_flops_per_s(rates.shapes, count, m, n, k);
    if (table_rate > 0.0) {
        t.compute_s = t.flops / table_rate;
    } else if (rates.gemm_flops_per_s > 0.0) {
        if (rates.sm_count > 0 && count > 0.0 && m > 0.0 && n > 0.0) {
            // flops / (rate x useful / issued) = 2k x issued tile area / rate: whole waves of
            // tiles, each tile taking 2·k·tile_m·tile_n FLOPs' time.
            const double sms = static_cast<double>(rates.sm_count);
            const Waves w = gemm_waves(sms, count, m, n);
            t.compute_s = 2.0 * k * w.waves * sms * w.tile_m * w.tile_n / rates.gemm_flops_per_s;
        } else {
            t.compute_s = t.flops / rates.gemm_flops_per_s;
        }
        const double padded_s = padded_table_compute_s(rates.shapes, count, m, n, k);
        if (padded_s > 0.0 && padded_s < t.compute_s) {
            t.compute_s = padded_s;
        }
    }
    t.memory_s = memory_time_s(rates, t.bytes);
    t.memory_bound = t.memory_s > t.compute_s;
    t.seconds = std::max(t.compute_s, t.memory_s);
    return t;
}

GemmTimer::GemmTimer(const AchievedRates& rates) {
    if (rates.gemm_flops_per_s > 0.0) {
        m_s_per_flop = 1.0 / rates.gemm_flops_per_s;
        if (rates.sm_count > 0) {
            m_sms = static_cast<double>(rates.sm_count);
            m_inv_sms = 1.0 / m_sms;
            m_s_per_wave_k = 2.0 * m_sms / rates.gemm_flops_per_s;
        }
    }
    m_s_per_byte = rates.memory_bytes_per_s > 0.0 ? 1.0 / rates.memory_bytes_per_s : 0.0;
    m_shapes = rates.shapes;
}

namespace {

bool scale_up_metric(const std::string& text, const std::string&) {
    using namespace std::string_view_literals;
    const std::string_view metric = text;
    return metric == "nvlink_p2p"sv || metric == "xgmi_p2p"sv;
}

Resolved resolve_scale_up(const HardwareProfile& profile) {
    // A measured profile's intra-node figure is a collective's bus bandwidth, already what NCCL
    // reached over the link (measured_profile() sets the interconnect to it).
    if (profile.kind == ProfileKind::measured &&
        std::any_of(profile.measured.begin(), profile.measured.end(), [](const MeasuredFigure& f) {
            return std::string_view(f.metric).starts_with("intra_node_");
        })) {
        return {1.0, Origin::measured_profile};
    }
    static const std::optional<double> median = catalog_median(scale_up_metric, {});
    return resolve(profile, scale_up_metric, {}, median);
}

}  // namespace

double scale_up_fraction(const HardwareProfile& profile) {
    return resolve_scale_up(profile).fraction;
}

std::string scale_up_fraction_source(const HardwareProfile& profile) {
    return describe(
               resolve_scale_up(profile), profile,
               {QT_TRANSLATE_NOOP("tally::source", "scale-up link bandwidth"), "tally::source"})
        .english();
}

}  // namespace tally
