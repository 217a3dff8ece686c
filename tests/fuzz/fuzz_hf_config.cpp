// A Hugging Face config.json -> model_from_hf_config -> a plan around it -> check -> evaluate.
// An input is refused naming a field or gives a model whose plan (when check() accepts it) has
// only finite figures and whose spec, written back, reads again.
#include <nlohmann/json.hpp>
#include <string>

#include "planner/core/errors.h"
#include "planner/io/hf_config.h"
#include "planner/io/json_reader.h"
#include "planner/io/spec_json.h"
#include "planner/training/plan.h"
#include "tests/fuzz/fuzz_plan.h"

using namespace tally;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    PlanSpec spec = default_plan_spec();
    try {
        json config;
        try {
            config = json::parse(text);
        } catch (const json::exception&) {
            throw_if_number_overflow(text, "model.hf_config");
            return 0;
        }
        spec.model = model_from_hf_config(config, "model.hf_config");
    } catch (const SpecError&) {
        return 0;
    }
    // One GPU per model replica: the config alone decides whether the plan is accepted.
    spec.training.tp = 1;
    spec.training.pp = 1;
    spec.cluster.gpus = 8;
    spec.data.global_batch = 0;
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    if (check(spec, hw)) {
        return 0;
    }
    const Plan plan = evaluate(spec, hw);
    fuzz::require_finite(plan);
    (void)to_json(plan, spec, hw).dump();
    try {
        (void)plan_spec_from_text(to_json(spec).dump(), "/nonexistent");
    } catch (const SpecError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        fuzz::require(false, "an imported model, saved as a spec, no longer reads");
    }
    return 0;
}
