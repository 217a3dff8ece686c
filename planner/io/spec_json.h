#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/io/op_spec_json.h"
#include "planner/training/plan.h"

namespace tally {

// Parses a plan spec (the CLI's SPEC.json, the GUI's saved plans). Strict: an unknown key, a
// wrong type, a non-finite number or a size <= 0 throws SpecError naming the field. A model may be
// {"preset": ID} or {"hf_config": PATH}; relative hf_config paths resolve against base_dir.
PlanSpec plan_spec_from_json(const nlohmann::json& json, const std::string& base_dir = ".");

// Parses the "model" object alone (path names it in errors, e.g. "model").
ModelSpec model_spec_from_json(const nlohmann::json& json, const std::string& path,
                               const std::string& base_dir = ".");
nlohmann::json to_json(const ModelSpec& model);

// Reads a spec file ("-" reads standard input). A file that is not JSON throws SpecError.
PlanSpec load_plan_spec(const std::string& path);

// Parses text as a spec (used by the workspace and the GUI).
PlanSpec plan_spec_from_text(const std::string& text, const std::string& base_dir = ".");

// Writes a spec back; plan_spec_from_json(to_json(s)) == s. The model is written out in full
// (a preset is expanded), so a saved plan does not change when presets do.
nlohmann::json to_json(const PlanSpec& spec);

// The plan as the CLI's --json prints it (the contract scripts rely on: params, params_active,
// params_embedding, memory.{...}, flops.{...}, time.{...}, plus parallelism and warnings).
nlohmann::json to_json(const Plan& plan, const PlanSpec& spec, const HardwareProfile& hardware);
// The predicted step time and its breakdown: `tally plan --json`'s "performance".
nlohmann::json to_json(const PerformanceBreakdown& performance);

// The built-in default plan (CS336 lecture 2: 70B parameters, 15T tokens, 1024 H100, MFU 0.5).
PlanSpec default_plan_spec();

}  // namespace tally
