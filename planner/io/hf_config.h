#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "planner/core/spec.h"
#include "planner/core/text.h"

namespace tally {

// A Hugging Face `config.json` as a transformer ModelSpec. Understands the keys of the Llama,
// Mistral, Mixtral, Qwen2/Qwen2-MoE/Qwen3/Qwen3-MoE and DeepSeek-V3 configurations; `field`
// names the spec field in error messages (e.g. "model.hf_config").
// `notes`, when given, receives what the import decided that a user may want to change
// (DeepSeek-V3's multi-token-prediction modules, planned with the model).
ModelSpec model_from_hf_config(const nlohmann::json& config, const std::string& field,
                               std::vector<Text>* notes = nullptr);

// Reads and converts a config.json file; SpecError (naming `field`) if it cannot be read or parsed.
ModelSpec load_hf_config(const std::string& path, const std::string& field,
                         std::vector<Text>* notes = nullptr);

}  // namespace tally
