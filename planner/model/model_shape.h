#pragma once

// Building blocks of the transformer's parameter count, shared by params.cpp, the activation
// and FLOP accounting in evaluate.cpp, and the model-layer operations of the roofline.

#include <cstdint>

#include "planner/core/spec.h"

namespace tally {

double attention_params(const ModelSpec& model);
double mlp_params(const ModelSpec& model, std::int64_t width);
double norm_params(const ModelSpec& model);
double moe_params_total(const ModelSpec& model);
double moe_params_active(const ModelSpec& model);
double embedding_params(const ModelSpec& model);
std::int64_t dense_layer_count(const ModelSpec& model);
// Whether a multi-token-prediction module's transformer layer is an MoE layer (the model's last
// layer is), and one module's parameters with every routed expert (all_experts) or the active ones.
bool mtp_layer_is_moe(const ModelSpec& model);
double mtp_module_params(const ModelSpec& model, bool all_experts);

}  // namespace tally
