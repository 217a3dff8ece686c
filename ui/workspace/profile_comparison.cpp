#include "ui/workspace/profile_comparison.h"

namespace tally::ui {

ProfileComparisonResults compareProfiles(const PlanSpec& spec,
                                         const std::vector<HardwareProfile>& profiles) {
    ProfileComparisonResults out;
    out.rows = compare(spec, profiles);
    out.compute = compute_type(spec.training.compute_dtype);
    std::vector<Roof> present;
    for (const ComparisonRow& row : out.rows) {
        ComparedRoof r;
        r.profile_id = row.hardware.id;
        // A part without the plan's dtype is drawn at the one it stands in with (row.compute).
        r.roof = roof_for(row.hardware, row.compute);
        if (r.roof) {
            present.push_back(*r.roof);
        }
        out.roofs.push_back(std::move(r));
    }
    out.range = chart_intensity_range(present, {});
    for (ComparedRoof& r : out.roofs) {
        if (r.roof) {
            r.line =
                roof_polyline(*r.roof, out.range.min_flops_per_byte, out.range.max_flops_per_byte);
        }
    }
    return out;
}

}  // namespace tally::ui
