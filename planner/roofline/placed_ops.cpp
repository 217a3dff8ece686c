#include "planner/roofline/placed_ops.h"

namespace tally {

PlacedOps place_plan_ops(const PlanSpec& spec, const HardwareProfile& hw, PlacementPolicy policy) {
    const bool strict = policy == PlacementPolicy::strict;
    const ModelOpsOptions options = model_ops_options(spec);
    const std::vector<Roof> all = roofs(hw);
    // The plan's own roof: its compute dtype's (check() makes sure the hardware has it).
    Roof compute = all.empty() ? Roof{} : all.front();
    if (auto r = roof_for(hw, compute_type(options.dtype))) {
        compute = *r;
    }
    auto no_peak = [&](DType dtype, const std::string& field) {
        // Appended rather than `"\"" + std::string(...)`: GCC 12 -O3 reports a false
        // -Wrestrict on that operator+ (GCC bug 105329).
        return FieldError::of(field, std::string("\"").append(to_string(dtype)).append("\""),
                              TALLY_TEXT("tally::check", "%1 has no %2 peak; it has: %3")
                                  .arg(hw.id)
                                  .arg(to_string(compute_type(dtype)))
                                  .arg(supported_compute_types(hw)));
    };
    auto roof_of = [&](DType dtype, const std::string& field) {
        if (auto r = roof_for(hw, compute_type(dtype))) {
            return *r;
        }
        if (strict) {
            throw SpecError(no_peak(dtype, field));
        }
        return compute;
    };

    PlacedOps out;
    for (std::size_t i = 0; i < spec.ops.size(); ++i) {
        const std::string path = "ops[" + std::to_string(i) + "]";
        PlacedOp p;
        try {
            p.cost = op_cost(spec.ops[i], path);
        } catch (const SpecError& e) {
            if (strict) {
                throw;
            }
            out.errors.push_back(e.error());
            continue;
        }
        if (!spec.ops[i].name.empty()) {
            p.cost.name = spec.ops[i].name;
        }
        p.op_index = static_cast<int>(i);
        if (!strict && !roof_for(hw, compute_type(p.cost.dtype))) {
            // Not placed under another dtype's roof, where it would show a rate it cannot
            // have (an fp8 matmul at an A100's bf16 peak): listed as the command line refuses it.
            out.errors.push_back(no_peak(p.cost.dtype, path + ".dtype"));
            continue;
        }
        p.roof = roof_of(p.cost.dtype, path + ".dtype");
        p.point = place(p.roof, p.cost.flops, p.cost.bytes());
        out.ops.push_back(std::move(p));
    }
    const Roof layer_roof = roof_of(options.dtype, "training.compute_dtype");
    for (Phase phase : kAllPhases) {
        for (const LayerOp& op : model_ops(spec.model, phase, options)) {
            PlacedOp p;
            p.cost = op.cost;
            p.phase = op.phase;
            p.pass = op.pass;
            p.count = op.count;
            p.roof = layer_roof;
            p.point = place(layer_roof, op.cost.flops, op.cost.bytes());
            out.ops.push_back(std::move(p));
        }
    }
    return out;
}

}  // namespace tally
