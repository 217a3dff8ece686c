#pragma once

// Reading a fuzzed spec the way the planner harnesses share: JSON text -> plan_spec_from_text ->
// resolve_builtin_hardware.

#include <nlohmann/json.hpp>
#include <string>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"

namespace tally::fuzz {

// The spec and its built-in part, or false for text the reader refuses (a SpecError). A model
// that names a config.json to read ({"model": {"hf_config": PATH}}) is left out: files are the
// config harness's business (and a path such as /dev/zero would never end).
inline bool read_spec(const std::string& text, PlanSpec& spec, const HardwareProfile*& hw) {
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_object() && doc.contains("model") && doc["model"].is_object() &&
        doc["model"].contains("hf_config")) {
        return false;
    }
    try {
        spec = plan_spec_from_text(text, "/nonexistent");
        hw = &resolve_builtin_hardware(spec);
    } catch (const SpecError&) {
        return false;
    }
    return true;
}

}  // namespace tally::fuzz
