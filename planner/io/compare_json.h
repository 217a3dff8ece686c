#pragma once

#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "planner/core/spec.h"
#include "planner/training/compare.h"

namespace tally {

// The rows as `tally compare --json` prints them: {"plan", "compute_dtype", "profiles": [{id,
// name, kind, memory_bytes, bandwidth_bytes_per_s, compute_dtype, compute_dtype_fallback_from,
// peak_flops_per_s, ridge_flops_per_byte, error, fits, memory_total_bytes,
// memory_headroom_bytes, days, gpu_hours, price_per_gpu_hour, price_source, cost}]} (cost null
// without a price; the plan figures null where `error` is set).
nlohmann::json comparison_to_json(const PlanSpec& spec, const std::vector<ComparisonRow>& rows);

}  // namespace tally
