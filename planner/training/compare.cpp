#include "planner/training/compare.h"

#include <set>
#include <string>
#include <vector>

namespace tally {

std::string_view to_string(PriceSource source) {
    switch (source) {
        case PriceSource::none:
            return "none";
        case PriceSource::plan:
            return "plan";
        case PriceSource::profile:
            return "profile";
    }
    return "?";
}

std::optional<ComputeType> nearest_compute_type(const HardwareProfile& hardware,
                                                ComputeType wanted) {
    if (hardware.supports(wanted)) {
        return wanted;
    }
    using C = ComputeType;
    std::vector<C> order;
    switch (wanted) {
        case C::fp4:
            order = {C::fp8, C::bf16, C::fp16, C::tf32, C::fp32};
            break;
        case C::fp8:
            order = {C::bf16, C::fp16, C::tf32, C::fp32};
            break;
        case C::int8:
            order = {C::fp8, C::bf16, C::fp16, C::fp32};
            break;
        case C::bf16:
            order = {C::fp16, C::tf32, C::fp32};
            break;
        case C::fp16:
            order = {C::bf16, C::tf32, C::fp32};
            break;
        case C::tf32:
            order = {C::fp32};
            break;
        case C::fp32:
            order = {C::tf32};
            break;
        case C::fp64:
            order = {C::fp32};
            break;
    }
    for (C c : order) {
        if (hardware.supports(c)) {
            return c;
        }
    }
    return std::nullopt;
}

namespace {

// The storage dtype that computes at a compute type's peak.
DType dtype_of(ComputeType type) {
    switch (type) {
        case ComputeType::fp64:
            return DType::fp64;
        case ComputeType::fp32:
            return DType::fp32;
        case ComputeType::tf32:
            return DType::tf32;
        case ComputeType::bf16:
            return DType::bf16;
        case ComputeType::fp16:
            return DType::fp16;
        case ComputeType::fp8:
            return DType::fp8_e4m3;
        case ComputeType::fp4:
            return DType::nvfp4;  // the 4-bit format that trains (Transformer Engine's NVFP4)
        case ComputeType::int8:
            return DType::int8;
    }
    return DType::bf16;
}

}  // namespace

std::vector<ComparisonRow> compare(const PlanSpec& spec,
                                   const std::vector<HardwareProfile>& profiles) {
    if (profiles.size() < kMinComparedProfiles || profiles.size() > kMaxComparedProfiles) {
        throw SpecError("profiles", std::to_string(profiles.size()) + " profiles",
                        TALLY_TEXT("tally::compare", "2 to 6 profiles to compare"));
    }
    std::set<std::string> seen;
    for (const HardwareProfile& p : profiles) {
        if (!seen.insert(p.id).second) {
            throw SpecError("profiles", "\"" + p.id + "\"",
                            TALLY_TEXT("tally::compare", "each profile once"));
        }
    }
    std::vector<ComparisonRow> rows;
    rows.reserve(profiles.size());
    const ComputeType compute = compute_type(spec.training.compute_dtype);
    for (const HardwareProfile& hw : profiles) {
        ComparisonRow row;
        row.hardware = hw;
        row.compute = compute;
        PlanSpec on_this = spec;
        on_this.cluster.gpu = hw.id;
        if (const auto nearest = nearest_compute_type(hw, compute);
            nearest && *nearest != compute) {
            row.compute = *nearest;
            row.fallback_from = compute;
            on_this.training.compute_dtype = dtype_of(*nearest);
        }
        row.peak_flops_per_s = hw.peak(row.compute);
        row.ridge_flops_per_byte = hw.ridge_flops_per_byte(row.compute);
        // The plan's price is what it pays for its own GPU, as its headline prices it
        // (cluster.price_per_gpu_hour, else the profile's); another part is priced at its
        // profile's price, else at the plan's.
        const bool own_gpu = hw.id == spec.cluster.gpu;
        if (own_gpu && spec.cluster.price_per_gpu_hour) {
            row.price_source = PriceSource::plan;
        } else if (hw.price_per_gpu_hour) {
            on_this.cluster.price_per_gpu_hour = hw.price_per_gpu_hour;
            row.price_source = PriceSource::profile;
        } else if (spec.cluster.price_per_gpu_hour) {
            row.price_source = PriceSource::plan;
        }
        row.price_per_gpu_hour = on_this.cluster.price_per_gpu_hour;
        row.error = check(on_this, hw);
        if (!row.error) {
            row.plan = evaluate(on_this, hw);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace tally
