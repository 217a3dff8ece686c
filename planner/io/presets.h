#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/spec.h"

namespace tally {

// A model that ships in resources/models/, with where its dimensions come from.
struct ModelPreset {
    std::string id;
    std::string name;
    std::string source;
    std::string notes;
    // The Hugging Face repository whose config.json the dimensions were read from (its weights,
    // which a serving command names); empty where the model has none.
    std::string checkpoint;
    // The dtype of that checkpoint's weights where they are quantized (DeepSeek-V3 ships fp8,
    // its config.json's quantization_config); nullopt: 16-bit.
    std::optional<DType> checkpoint_dtype;
    ModelSpec model;
};

// Every preset, sorted by id, parsed once.
const std::vector<ModelPreset>& model_presets();
const ModelPreset* find_model_preset(std::string_view id);
std::string model_preset_ids();  // comma-separated, for error messages

}  // namespace tally
