#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "planner/core/op_spec.h"

namespace tally {

// The operation list of a spec.
OpSpec op_from_json(const nlohmann::json& json, const std::string& path);
nlohmann::json to_json(const OpSpec& op);

}  // namespace tally
