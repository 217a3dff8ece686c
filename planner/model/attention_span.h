#pragma once

// How many keys a model's queries attend to, with sliding-window layers (ModelSpec::
// sliding_window): what the attention FLOPs of training (accounting.cpp, the step-time model),
// the KV cache a server keeps and reads (serving/inference.cpp), and the roofline's model layers
// count. A full causal layer's query at position i (1-based) scores i keys; a windowed layer's
// scores min(i, W) (Beltagy et al. 2020, Longformer, sec. 3.1: O(n·w) work for n tokens and window
// w; Jiang et al. 2023, Mistral 7B, sec. 2: "each hidden state in layer k attends to W tokens of
// the previous layer"). Each function averages over the layers, so that a total over the model is
// the layer count times it.

#include "planner/core/spec.h"

namespace tally {

// The keys a query at `position` attends to, averaged over the layers: `position` in full layers,
// min(position, W) in windowed ones.
double mean_keys_per_query(const ModelSpec& model, double position);

// The query-key pairs of `queries` queries that follow `done` positions already cached (the
// queries at done + 1 .. done + queries), averaged over the layers: full layers
// queries·done + queries·(queries + 1) / 2, windowed ones the same sum of min(position, W).
double mean_key_pairs(const ModelSpec& model, double done, double queries);

// The windowed layers' share of the layers: windowed_layers() / layers, 0 without a window.
double windowed_layer_share(const ModelSpec& model);

// The query-key pairs a fused causal kernel computes in one layer over a sequence of `seq_len`
// (continuous in s, as its blocks are): s²/2 for full attention (`window` 0, or no shorter than
// the sequence), s·W - W²/2 for a window W < s (the band of width W below the diagonal).
double causal_pairs(double seq_len, double window);

// The share of a sequence's s x s score matrix a causal kernel computes, averaged over the layers
// (continuous in s, as the blocks of a fused kernel are): 1/2 for a full layer (Dao 2023,
// FlashAttention-2, sec. 3.1.1: the blocks above the diagonal are skipped), (s·W - W²/2) / s² for
// a windowed layer with W < s (the band of width W below the diagonal).
double causal_score_share(const ModelSpec& model, double seq_len);

}  // namespace tally
