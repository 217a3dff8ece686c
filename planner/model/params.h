#pragma once

#include "planner/core/spec.h"

namespace tally {

// Parameter counts. For a mixture of experts, `total` counts every expert and `active` those a
// token runs through (routed top-k + shared); for dense models active == total.
struct ParamCounts {
    double total = 0.0;
    double embedding = 0.0;      // input embedding + untied output head + learned positions
    double non_embedding = 0.0;  // total - embedding
    double active = 0.0;
    double per_layer_attention = 0.0;
    double per_layer_mlp = 0.0;  // dense layer MLP (or, for MoE layers, all experts + router)
    double per_layer_norms = 0.0;
    // The multi-token-prediction modules (ModelSpec::mtp_layers), all of their weights and those a
    // token runs through; in total and active. The embedding and output head they share with the
    // main model are counted once, in embedding.
    double mtp = 0.0;
    double mtp_active = 0.0;
};

// Parameter counts alone (used by evaluate, presets and the solver).
ParamCounts count_params(const ModelSpec& model);

}  // namespace tally
