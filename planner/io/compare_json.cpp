// One plan on several profiles as `tally compare --json` prints it.
#include "planner/io/compare_json.h"

#include <nlohmann/json.hpp>

namespace tally {

using nlohmann::json;

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
            {"compute_dtype", std::string(to_string(r.compute))},
            {"compute_dtype_fallback_from",
             r.fallback_from ? json(std::string(to_string(*r.fallback_from))) : json(nullptr)},
            {"peak_flops_per_s", r.peak_flops_per_s},
            {"ridge_flops_per_byte", r.ridge_flops_per_byte},
            {"error", ok ? json(nullptr) : json(r.error->message())},
            {"fits", ok ? json(r.plan.memory.fits) : json(nullptr)},
            {"memory_total_bytes", figure(r.plan.memory.total_bytes)},
            {"memory_headroom_bytes", figure(r.plan.memory.headroom_bytes)},
            {"days", figure(r.plan.time.days)},
            {"gpu_hours", figure(r.plan.time.gpu_hours)},
            {"price_per_gpu_hour",
             r.price_per_gpu_hour ? json(*r.price_per_gpu_hour) : json(nullptr)},
            {"price_source", std::string(to_string(r.price_source))},
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
