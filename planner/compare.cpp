#include "planner/compare.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace tally {

using nlohmann::json;

std::vector<ComparisonRow> compare(const PlanSpec& spec,
                                   const std::vector<HardwareProfile>& profiles) {
    if (profiles.size() < kMinComparedProfiles || profiles.size() > kMaxComparedProfiles) {
        throw SpecError("profiles", std::to_string(profiles.size()) + " profiles",
                        "2 to 6 profiles to compare");
    }
    std::set<std::string> seen;
    for (const HardwareProfile& p : profiles) {
        if (!seen.insert(p.id).second) {
            throw SpecError("profiles", json(p.id).dump(), "each profile once");
        }
    }
    std::vector<ComparisonRow> rows;
    rows.reserve(profiles.size());
    const ComputeType compute = compute_type(spec.training.compute_dtype);
    for (const HardwareProfile& hw : profiles) {
        ComparisonRow row;
        row.hardware = hw;
        row.compute = compute;
        row.peak_flops_per_s = hw.peak(compute);
        row.ridge_flops_per_byte = hw.ridge_flops_per_byte(compute);
        PlanSpec on_this = spec;
        on_this.cluster.gpu = hw.id;
        row.error = check(on_this, hw);
        if (!row.error) {
            row.plan = evaluate(on_this, hw);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

json comparison_to_json(const PlanSpec& spec, const std::vector<ComparisonRow>& rows) {
    json profiles = json::array();
    for (const ComparisonRow& r : rows) {
        const HardwareProfile& hw = r.hardware;
        const bool ok = r.evaluated();
        const auto figure = [ok](double value) { return ok ? json(value) : json(nullptr); };
        profiles.push_back({
            {"id", hw.id},
            {"name", hw.name},
            {"kind", std::string(to_string(hw.kind))},
            {"memory_bytes", hw.memory_bytes},
            {"bandwidth_bytes_per_s", hw.bandwidth_bytes_per_s},
            {"peak_flops_per_s", r.peak_flops_per_s},
            {"ridge_flops_per_byte", r.ridge_flops_per_byte},
            {"error", ok ? json(nullptr) : json(r.error->message())},
            {"fits", ok ? json(r.plan.memory.fits) : json(nullptr)},
            {"memory_total_bytes", figure(r.plan.memory.total_bytes)},
            {"memory_headroom_bytes", figure(r.plan.memory.headroom_bytes)},
            {"days", figure(r.plan.time.days)},
            {"gpu_hours", figure(r.plan.time.gpu_hours)},
            {"cost", ok && r.plan.time.has_cost ? json(r.plan.time.cost) : json(nullptr)},
        });
    }
    return json{
        {"plan", spec.name},
        {"compute_dtype", std::string(to_string(compute_type(spec.training.compute_dtype)))},
        {"profiles", profiles},
    };
}

}  // namespace tally
