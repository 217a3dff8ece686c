#pragma once
// Small plans whose figures the tests work out by hand.

#include <cstdint>

#include "planner/core/spec.h"

namespace tally::test {

// Two layers, hidden 64, 4 heads of 16, GELU MLP of 256, vocabulary 100; micro-batches of 2
// sequences of 8 tokens (T = 16 tokens), on one GPU.
inline PlanSpec two_layer_spec() {
    PlanSpec s;
    s.model.kind = ModelKind::transformer;
    s.model.layers = 2;
    s.model.hidden = 64;
    s.model.heads = 4;
    s.model.ffn_hidden = 256;
    s.model.ffn = FfnKind::gelu;
    s.model.vocab = 100;
    s.data.tokens = 1e6;
    s.data.seq_len = 8;
    s.data.micro_batch = 2;
    s.cluster.gpus = 1;
    return s;
}

// Llama 3 8B's shape (32 layers, hidden 4096, 32 heads, 8 KV heads, SwiGLU 14336, vocabulary
// 128256), predicted on `gpus` GPUs; sequence length and batch are the test's.
inline PlanSpec llama3_8b_spec(std::int64_t gpus, std::int64_t seq_len, std::int64_t global_batch) {
    PlanSpec s;
    s.model.kind = ModelKind::transformer;
    s.model.layers = 32;
    s.model.hidden = 4096;
    s.model.heads = 32;
    s.model.kv_heads = 8;
    s.model.ffn_hidden = 14336;
    s.model.ffn = FfnKind::swiglu;
    s.model.vocab = 128256;
    s.data.tokens = 1e12;
    s.data.seq_len = seq_len;
    s.data.global_batch = global_batch;
    s.cluster.gpus = gpus;
    s.cluster.mfu_predicted = true;
    return s;
}

// CS336 lecture 2's deep MLP: `layers` blocks of a D x D matmul, one micro-batch of B rows per
// step on one GPU, for ten steps; its time comes from the performance model.
inline PlanSpec lecture_mlp_spec(std::int64_t d, std::int64_t b, std::int64_t layers) {
    PlanSpec s;
    s.model.kind = ModelKind::mlp;
    s.model.hidden = d;
    s.model.layers = layers;
    s.data.tokens = static_cast<double>(b) * 10.0;
    s.data.micro_batch = b;
    s.data.global_batch = b;
    s.cluster.mfu_predicted = true;
    return s;
}

}  // namespace tally::test
