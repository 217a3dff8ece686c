#pragma once

// What the Compare view shows, computed from the planner: the plan on each chosen profile
// (planner/training/compare.h, the rows `tally compare` prints) and each profile's roof for the
// plan's compute dtype over one shared intensity range (planner/roofline/roofline.h). Not Qt: the
// view draws these, the tests check them.

#include <optional>
#include <string>
#include <vector>

#include "planner/roofline/roofline.h"
#include "planner/training/compare.h"

namespace tally::ui {

struct ComparedRoof {
    std::string profile_id;
    std::optional<Roof> roof;      // none when the profile has no peak for the compute dtype
    std::vector<ChartPoint> line;  // roof_polyline() over the shared range; empty without a roof
};

struct ProfileComparisonResults {
    ComputeType compute = ComputeType::bf16;
    std::vector<ComparisonRow> rows;  // one per profile, in the order given
    std::vector<ComparedRoof> roofs;  // same order
    IntensityRange range;             // whole decades holding every ridge, a decade each side
};

// Throws SpecError("profiles", ...) unless there are 2 to 6 profiles with distinct ids.
ProfileComparisonResults compareProfiles(const PlanSpec& spec,
                                         const std::vector<HardwareProfile>& profiles);

}  // namespace tally::ui
