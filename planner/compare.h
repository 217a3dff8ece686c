#pragma once

// One plan on several hardware profiles, side by side (`tally compare` and the GUI's
// Compare view show these rows, so both show the same numbers).

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <vector>

#include "planner/errors.h"
#include "planner/hardware.h"
#include "planner/plan.h"
#include "planner/spec.h"

namespace tally {

inline constexpr std::size_t kMinComparedProfiles = 2;
inline constexpr std::size_t kMaxComparedProfiles = 6;

// The plan evaluated on one profile: the spec with cluster.gpu set to the profile's id, then
// check() and evaluate() as for a single plan.
struct ComparisonRow {
    HardwareProfile hardware;
    // check()'s refusal on this hardware (e.g. it has no peak for the compute dtype); `plan` is
    // then empty.
    std::optional<FieldError> error;
    Plan plan;
    ComputeType compute = ComputeType::bf16;  // the dtype whose dense peak sets the time
    double peak_flops_per_s = 0.0;            // that peak on this hardware
    double ridge_flops_per_byte = 0.0;        // peak / bandwidth (Williams et al. 2009)

    bool evaluated() const { return !error.has_value(); }
    bool fits() const { return evaluated() && plan.memory.fits; }
};

// One row per profile, in the order given. Throws SpecError("profiles", ...) unless there are
// 2 to 6 profiles with distinct ids.
std::vector<ComparisonRow> compare(const PlanSpec& spec,
                                   const std::vector<HardwareProfile>& profiles);

// The rows as `tally compare --json` prints them: {"plan", "compute_dtype", "profiles": [{id,
// name, kind, memory_bytes, bandwidth_bytes_per_s, peak_flops_per_s, ridge_flops_per_byte,
// error, fits, memory_total_bytes, memory_headroom_bytes, days, gpu_hours, cost}]} (cost null
// without a price; the plan figures null where `error` is set).
nlohmann::json comparison_to_json(const PlanSpec& spec, const std::vector<ComparisonRow>& rows);

}  // namespace tally
