#pragma once

// The invariant of the launch-configuration importers (planner/io/launch): a file is refused
// naming a setting, or it gives a spec that check() accepts, whose plan is finite, that reads back
// from its JSON, and that exports to the same target again (or is refused naming a field) with
// the export reading back.

#include <nlohmann/json.hpp>
#include <string>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/launch/launch_config.h"
#include "planner/io/spec_json.h"
#include "planner/training/plan.h"
#include "tests/fuzz/fuzz_plan.h"

namespace tally::fuzz {

inline int import_launch(LaunchTarget target, const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    LaunchImportOptions options;
    options.from = target;
    // DeepSpeed and accelerate configs leave the model to its config.json: Llama 3 8B.
    if (target == LaunchTarget::deepspeed || target == LaunchTarget::accelerate) {
        options.model = torchtitan_flavour("llama3", "8B");
    }
    options.allow_unknown = size % 2 == 1;
    LaunchImport imported;
    try {
        imported = import_launch_config(text, "fuzz", options);
    } catch (const SpecError&) {
        return 0;
    }
    const PlanSpec& spec = imported.spec;
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    if (const auto error = check(spec, hw)) {
        std::fprintf(stderr, "%s\n", error->message().c_str());
        require(false, "an imported spec that check() refuses");
    }
    const Plan plan = evaluate(spec, hw);
    require_finite(plan);
    try {
        (void)plan_spec_from_text(to_json(spec).dump(), "/nonexistent");
    } catch (const SpecError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        require(false, "an imported spec, saved as JSON, no longer reads");
    }
    std::string again;
    try {
        again = export_launch_config(spec, target);
    } catch (const SpecError&) {
        return 0;  // the file held a setting the export refuses by name
    }
    options.allow_unknown = false;
    try {
        (void)import_launch_config(again, "fuzz-again", options);
    } catch (const SpecError& e) {
        std::fprintf(stderr, "%s\n%s\n", e.what(), again.c_str());
        require(false, "an exported configuration does not import");
    }
    return 0;
}

}  // namespace tally::fuzz
