// One operation of a spec's "ops" list (JSON) -> op_from_json -> op_cost -> placed under every
// roof of the built-in catalog. Refused naming a field, or every figure finite.
#include <nlohmann/json.hpp>
#include <string>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/roofline/operations.h"
#include "planner/roofline/roofline.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tally;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const json doc = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) {
        return 0;
    }
    OpSpec op;
    try {
        op = op_from_json(doc, "ops[0]");
    } catch (const SpecError&) {
        return 0;
    }
    const OpCost cost = op_cost(op, "ops[0]");
    fuzz::require_finite(cost.flops, "op flops");
    fuzz::require_finite(cost.bytes(), "op bytes");
    static const std::vector<Roof> all_roofs = [] {
        std::vector<Roof> out;
        for (const HardwareProfile& h : builtin_hardware()) {
            const std::vector<Roof> r = roofs(h);
            out.insert(out.end(), r.begin(), r.end());
        }
        return out;
    }();
    for (const Roof& roof : all_roofs) {
        const RooflinePoint p = place(roof, cost.flops, cost.bytes());
        fuzz::require_finite(p.intensity_flops_per_byte, "intensity");
        fuzz::require_finite(p.attainable_flops_per_s, "attainable FLOP/s");
        fuzz::require_finite(p.compute_seconds, "compute seconds");
        fuzz::require_finite(p.memory_seconds, "memory seconds");
    }
    // Written back, the op reads again.
    try {
        (void)op_from_json(to_json(op), "ops[0]");
    } catch (const SpecError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        fuzz::require(false, "an accepted op, written back, no longer reads");
    }
    return 0;
}
