#include "planner/roofline/roofline.h"

#include <algorithm>
#include <cmath>

namespace tally {

std::string_view to_string(Bound bound) {
    return bound == Bound::memory ? "memory" : "compute";
}

double Roof::ridge_flops_per_byte() const {
    return bandwidth_bytes_per_s > 0.0 ? peak_flops_per_s / bandwidth_bytes_per_s : 0.0;
}

double Roof::attainable_flops_per_s(double intensity_flops_per_byte) const {
    return std::min(peak_flops_per_s, intensity_flops_per_byte * bandwidth_bytes_per_s);
}

std::optional<Roof> roof_for(const HardwareProfile& hardware, ComputeType type) {
    if (!hardware.supports(type) || hardware.bandwidth_bytes_per_s <= 0.0) {
        return std::nullopt;
    }
    return Roof{type, hardware.peak(type), hardware.bandwidth_bytes_per_s};
}

std::vector<Roof> roofs(const HardwareProfile& hardware) {
    std::vector<Roof> out;
    for (ComputeType t : kAllComputeTypes) {
        if (auto r = roof_for(hardware, t)) {
            out.push_back(*r);
        }
    }
    return out;
}

RooflinePoint place(const Roof& roof, double flops, double bytes) {
    RooflinePoint p;
    p.intensity_flops_per_byte = bytes > 0.0 ? flops / bytes : 0.0;
    p.compute_seconds = roof.peak_flops_per_s > 0.0 ? flops / roof.peak_flops_per_s : 0.0;
    p.memory_seconds = roof.bandwidth_bytes_per_s > 0.0 ? bytes / roof.bandwidth_bytes_per_s : 0.0;
    p.seconds = std::max(p.compute_seconds, p.memory_seconds);
    p.attainable_flops_per_s = p.seconds > 0.0 ? flops / p.seconds : 0.0;
    // An operation that moves nothing is limited by compute alone.
    const bool memory_bound =
        bytes > 0.0 && p.intensity_flops_per_byte < roof.ridge_flops_per_byte();
    p.bound = memory_bound ? Bound::memory : Bound::compute;
    return p;
}

std::vector<ChartPoint> roof_polyline(const Roof& roof, double min_intensity,
                                      double max_intensity) {
    std::vector<ChartPoint> pts;
    if (!(min_intensity > 0.0) || !(max_intensity > min_intensity)) {
        return pts;
    }
    const double ridge = roof.ridge_flops_per_byte();
    pts.push_back({min_intensity, roof.attainable_flops_per_s(min_intensity)});
    if (ridge > min_intensity && ridge < max_intensity) {
        pts.push_back({ridge, roof.peak_flops_per_s});
    }
    pts.push_back({max_intensity, roof.attainable_flops_per_s(max_intensity)});
    return pts;
}

IntensityRange chart_intensity_range(const std::vector<Roof>& roof_list,
                                     const std::vector<double>& intensities) {
    double lo = 0.0;
    double hi = 0.0;
    auto take = [&](double v) {
        if (!(v > 0.0) || !std::isfinite(v)) {
            return;
        }
        lo = lo == 0.0 ? v : std::min(lo, v);
        hi = std::max(hi, v);
    };
    for (const Roof& r : roof_list) {
        take(r.ridge_flops_per_byte());
    }
    for (double v : intensities) {
        take(v);
    }
    if (lo == 0.0) {
        return {};
    }
    return {std::pow(10.0, std::floor(std::log10(lo)) - 1.0),
            std::pow(10.0, std::ceil(std::log10(hi)) + 1.0)};
}

}  // namespace tally
