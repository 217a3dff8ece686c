#pragma once

// Activation memory of one transformer layer, split the way Korthikanti et al. 2022 ("Reducing
// Activation Recomputation in Large Transformer Models", sec. 4) split it, so that tensor
// parallelism, sequence parallelism, selective recomputation and flash attention each act on
// the terms they change.

#include "planner/core/spec.h"

namespace tally {

// Bytes of one layer for one micro-batch, before any parallel split.
struct LayerActivations {
    double replicated = 0.0;  // outside the tensor-parallel region: split only by sequence parallel
    double split = 0.0;       // inside it: divided by tp
    double core = 0.0;        // attention scores/softmax/dropout (the a·s² terms): divided by tp;
                              // dropped by flash attention and by selective recomputation
    double flash_stats = 0.0;  // flash attention's per-row softmax statistics: divided by tp
    double input = 0.0;        // the layer's input, what full recomputation keeps
    // Parts of the above that a selective recomputation of Megatron-Core's modules drops
    // (training.recompute_modules): the two norm outputs kept at the activation dtype (in
    // replicated), MLA's up-projected queries, keys and values (in split), the routed experts'
    // activation function output (in split) and a dense layer's MLP internals (in split).
    double norm_outputs = 0.0;
    double mla_up = 0.0;
    double moe_act = 0.0;
    double mlp_internal = 0.0;
};

// s = sequence length, b = micro-batch, e = bytes of a stored activation value.
// low_precision_input_bytes: the linear layers run in FP8 or NVFP4 (Transformer Engine), which
// keeps the quantized copy of each linear layer's input for its weight gradient, this many bytes
// a value (low_precision_input_bytes()); 0: they run in the activation dtype.
LayerActivations transformer_layer_activations(const ModelSpec& model, bool moe_layer, double s,
                                               double b, double e, bool dropout,
                                               double low_precision_input_bytes = 0.0);

}  // namespace tally
