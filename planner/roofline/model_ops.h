#pragma once

// The operations of a model's own layers, for the roofline: what one training step, one prefill
// and one decode step execute, with FLOPs and bytes of each (CS336 lecture 2: "training is large
// matmuls that fill the accelerator; decode is like matrix-vector and reads the weights and the
// KV cache again for every token, so it is memory-bound").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/dtype.h"
#include "planner/core/spec.h"
#include "planner/core/text.h"
#include "planner/roofline/operations.h"

namespace tally {

enum class Phase {
    training,  // forward + backward over batch x seq tokens
    prefill,   // forward over batch x seq prompt tokens, logits for the last position only
    decode,    // one new token per sequence, attending to seq tokens in the KV cache
};
inline constexpr Phase kAllPhases[] = {Phase::training, Phase::prefill, Phase::decode};
std::string_view to_string(Phase phase);

enum class Pass { forward, backward };
std::string_view to_string(Pass pass);

struct LayerOp {
    OpCost cost;  // one execution
    Phase phase = Phase::prefill;
    Pass pass = Pass::forward;
    double count = 1.0;  // executions per step (e.g. one per layer)
};

struct ModelOpsOptions {
    std::int64_t batch = 1;     // sequences
    std::int64_t seq = 1;       // tokens per sequence; decode: the context length in the KV cache
    DType dtype = DType::bf16;  // every tensor (weights, activations, cache) in this dtype
    bool flash_attention = true;
    double gelu_flops_per_element = 20.0;  // CS336 lecture 2: "about 20"
};

// The operations of one step of a phase. Shapes are of the whole model on one device (tensor
// and pipeline parallelism do not split them here). Transformer layers:
//   norm -> QKV projection -> attention -> output projection -> norm -> MLP (or router + experts)
// and, once, a final norm and the logits. Kinds: "norm", "matmul", "einsum", "softmax", "relu",
// "gelu", "swiglu", "flash_attention". The "mlp" model kind (lecture 2's deep ReLU network) gives
// its D x D matmul and ReLU per layer for training and prefill, nothing for decode; the "params"
// kind has no architecture and gives nothing.
std::vector<LayerOp> model_ops(const ModelSpec& model, Phase phase, const ModelOpsOptions& options);

// The options a plan implies: batch = data.micro_batch, seq = data.seq_len (1 for the mlp kind,
// whose data points are rows), dtype = training.compute_dtype, flash_attention =
// training.flash_attention.
ModelOpsOptions model_ops_options(const PlanSpec& spec);

// A model operation's name (model_ops(), and the lecture's operations the roofline shows) in the
// caller's language: its parts ("MLP " + "up projection" + " (backward)") each looked up under
// "tally::ops" through `translate`; a name that is none of them (an operation the user named)
// comes back as it is. An empty translator gives the English.
std::string model_op_name(const std::string& name, const TextTranslator& translate);

}  // namespace tally
