#pragma once

// One plan on several hardware profiles, side by side (`tally compare` and the GUI's
// Compare view show these rows, so both show the same numbers).

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "planner/core/errors.h"
#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/training/plan.h"

namespace tally {

inline constexpr std::size_t kMinComparedProfiles = 2;
inline constexpr std::size_t kMaxComparedProfiles = 6;

// Where a row's price per GPU-hour comes from: on the plan's own GPU the plan's price when it
// gives one (what its headline costs); on another part the profile's own price wins over the
// plan's, so parts priced differently compare at their prices.
enum class PriceSource { none, plan, profile };
std::string_view to_string(PriceSource source);

// The compute dtype a part runs a plan in when it has no peak for the plan's: the same width in
// the other format first (bf16 <-> fp16, the same tensor-core rate on every part that has both),
// then the next wider format, as mixed-precision frameworks fall back to a wider type; nullopt
// when the part has none of them. Orders: fp4 -> fp8, bf16, fp16, tf32, fp32; fp8 -> bf16,
// fp16, tf32, fp32; int8 -> fp8, bf16, fp16, fp32; bf16 -> fp16, tf32, fp32; fp16 -> bf16,
// tf32, fp32; tf32 -> fp32; fp32 -> tf32; fp64 -> fp32.
std::optional<ComputeType> nearest_compute_type(const HardwareProfile& hardware,
                                                ComputeType wanted);

// The plan evaluated on one profile: the spec with cluster.gpu set to the profile's id (its
// compute dtype the nearest the part has, its price as PriceSource says), then check()
// and evaluate() as for a single plan.
struct ComparisonRow {
    HardwareProfile hardware;
    // check()'s refusal on this hardware; `plan` is then empty.
    std::optional<FieldError> error;
    Plan plan;
    ComputeType compute = ComputeType::bf16;  // the dtype whose dense peak sets the time
    // The plan's own compute dtype when this part has no peak for it and `compute` stands in
    // (nearest_compute_type()); nullopt when the part runs the plan's dtype.
    std::optional<ComputeType> fallback_from;
    double peak_flops_per_s = 0.0;      // that peak on this hardware
    double ridge_flops_per_byte = 0.0;  // peak / bandwidth (Williams et al. 2009)
    std::optional<double> price_per_gpu_hour;
    PriceSource price_source = PriceSource::none;

    bool evaluated() const { return !error.has_value(); }
    bool fits() const { return evaluated() && plan.memory.fits; }
};

// One row per profile, in the order given. Throws SpecError("profiles", ...) unless there are
// 2 to 6 profiles with distinct ids.
std::vector<ComparisonRow> compare(const PlanSpec& spec,
                                   const std::vector<HardwareProfile>& profiles);

}  // namespace tally
