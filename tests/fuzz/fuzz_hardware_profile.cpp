// A hardware profile as `tally profiles import` reads it: JSON text -> hardware_from_json. An
// input is refused naming a field, or gives a profile that writes back and reads again, whose
// roofs are finite, and under which the built-in default plan (70B parameters, 15T tokens) has
// only finite figures.
#include <nlohmann/json.hpp>
#include <string>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/json_reader.h"
#include "planner/io/spec_json.h"
#include "planner/roofline/roofline.h"
#include "planner/training/plan.h"
#include "tests/fuzz/fuzz_plan.h"

using namespace tally;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    HardwareProfile hw;
    try {
        json doc;
        try {
            doc = json::parse(text);
        } catch (const json::exception&) {
            throw_if_number_overflow(text, "profile");
            return 0;
        }
        hw = hardware_from_json(doc, "profile");
    } catch (const SpecError&) {
        return 0;
    }
    try {
        (void)hardware_from_json(to_json(hw), "profile");
    } catch (const SpecError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        fuzz::require(false, "an accepted profile, written back, no longer reads");
    }
    for (const Roof& r : roofs(hw)) {
        fuzz::require_finite(r.ridge_flops_per_byte(), "ridge");
        fuzz::require_finite(r.attainable_flops_per_s(1.0), "attainable at 1 FLOP/byte");
    }
    PlanSpec spec = default_plan_spec();
    for (DType d : {DType::bf16, DType::fp16, DType::fp32, DType::fp8_e4m3, DType::fp64,
                    DType::tf32, DType::int8, DType::fp4_e2m1}) {
        if (hw.supports(compute_type(d))) {
            spec.training.compute_dtype = d;
            break;
        }
    }
    if (check(spec, hw)) {
        return 0;
    }
    const Plan plan = evaluate(spec, hw);
    fuzz::require_finite(plan);
    (void)warning_messages(plan, spec, hw);
    return 0;
}
