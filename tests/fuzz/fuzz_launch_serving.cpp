// A serving engine's launch command (vllm serve, sglang.launch_server, trtllm-serve) ->
// import_serving_command: refused naming a flag, or a spec that `tally infer` accepts, whose
// serving plan is finite, that reads back from its JSON, and whose command for the same engine
// (or a refusal naming a field) imports again.
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/launch/serving_launch.h"
#include "planner/io/spec_json.h"
#include "planner/serving/inference.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tally;
    const std::string text(reinterpret_cast<const char*>(data), size);
    ServingImportOptions options;
    options.allow_unknown = size % 2 == 1;
    ServingImport imported;
    try {
        imported = import_serving_command(text, "fuzz", options);
    } catch (const SpecError&) {
        return 0;
    }
    const PlanSpec& spec = imported.spec;
    const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu);
    if (hw == nullptr) {
        return 0;  // a workspace's own profile ("# tally: cluster.gpu"): no catalog part to plan on
    }
    if (const auto error = check_inference(spec, *hw)) {
        std::fprintf(stderr, "%s\n", error->message().c_str());
        fuzz::require(false, "an imported serving spec that tally infer refuses");
    }
    const ServingPlan plan = evaluate_inference(spec, *hw);
    fuzz::require(std::isfinite(plan.prefill_s) && std::isfinite(plan.decode_step_s) &&
                      std::isfinite(plan.memory.total_bytes),
                  "an imported serving plan with a figure that is not finite");
    try {
        (void)plan_spec_from_text(to_json(spec).dump(), "/nonexistent");
    } catch (const SpecError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        fuzz::require(false, "an imported serving spec, saved as JSON, no longer reads");
    }
    std::string again;
    try {
        again = export_serving_command(spec, imported.target, "org/fuzz-checkpoint");
    } catch (const SpecError&) {
        return 0;  // a setting the engine's command has no flag for, refused by name
    }
    ServingImportOptions strict;
    strict.model = spec.model;  // the checkpoint named above is no preset's
    try {
        (void)import_serving_command(again, "fuzz-again", strict);
    } catch (const SpecError& e) {
        std::fprintf(stderr, "%s\n%s\n", e.what(), again.c_str());
        fuzz::require(false, "an exported serving command does not import");
    }
    return 0;
}
