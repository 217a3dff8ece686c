#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "planner/core/spec.h"

namespace tally {

// How the transformer layers are spread over the pipeline stages. Stage 0 also holds the
// embedding and stage pp - 1 the output layer; the stages between them ("middle") hold
// `middle` or `middle + 1` layers, the `middle_extra` earliest of them the larger count.
//
// - training.first_stage_layers / last_stage_layers given (Megatron-Core's
//   --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers): those, and the
//   rest spread over the middle stages as evenly as whole layers allow.
// - Neither given and pp divides the layers: L / pp on every stage (Narayanan et al. 2021).
// - Neither given and pp does not divide them: the embedding and the output layer count as one
//   layer each and the L + 2 units are spread evenly, the remainder one each on the earliest
//   middle stages (Megatron-Core's account_for_embedding_in_pipeline_split and
//   account_for_loss_in_pipeline_split, megatron/core/transformer/transformer_block.py
//   get_num_layers_to_build; torchtitan's pipeline split weighs the embedding and the output as
//   one layer each the same way, torchtitan/distributed/pipeline_parallel.py
//   generate_llm_fqn_per_model_part). Llama 3 405B's 126 layers on 16 stages give 7 on the
//   first and the last and 8 on each other, the balance the Llama 3 paper describes (Dubey et
//   al. 2024, sec. 3.3.2).
// - Under Megatron-Core (`even_middle`), which builds the stages between the first and the last
//   with equal layers (the layers left by --decoder-first/last-pipeline-num-layers over pp - 2,
//   which must divide them; the accounting flags need pp to divide layers + 2): where that
//   spread leaves the middle stages unequal, the middle count m and the ends that minimise
//   the most loaded stage, an end counting its embedding or output layer as one more, the first
//   end the larger. Llama 3 405B's 126 layers on 12 stages: 8 / 11 x 10 / 8, where the spread
//   above gives 9 / 11 x 8 / 10 x 2 / 9, which Megatron-Core cannot build.
struct StageLayout {
    std::int64_t pp = 1;
    std::int64_t first = 0;
    std::int64_t last = 0;
    std::int64_t middle = 0;
    std::int64_t middle_extra = 0;
    bool even = true;  // every stage holds the same number of layers

    std::int64_t layers_of(std::int64_t stage) const;
    // The index of the stage's first layer.
    std::int64_t start_of(std::int64_t stage) const;
    std::int64_t fewest() const;
    std::int64_t most() const;
};

// The layout of `layers` over `pp` stages with the given first and last counts (0: not given).
// The counts must be valid (stage_layout_error() is empty); with pp = 1 every layer is on stage 0.
StageLayout stage_layout(std::int64_t layers, std::int64_t pp, std::int64_t first_stage_layers,
                         std::int64_t last_stage_layers, bool even_middle = false);
// The spec's: even middle stages under the megatron engine.
StageLayout stage_layout(const PlanSpec& spec);

// The layers of each stage, first to last, a run of equal middle stages as "layers x count":
// Llama 3 405B's 126 layers on 16 stages are "7 / 8 x 14 / 7". Numbers only, the same in every
// language.
std::string stage_spread_text(const StageLayout& layout);

// The middle stages (1 .. pp - 2) that can be the most loaded or the slowest, given that the
// model's first `dense_layers` of `layers` are dense and the rest MoE: f(stage, start, count) for
// each middle stage whose dense and MoE layers differ from the stage before it (a
// later stage holding the same layers does the same work with fewer micro-batches in flight).
// With one kind of layer only the first middle stage, which holds the most; with even stages
// of one kind none (the first stage holds as many layers, and more in flight).
template <class F>
void for_each_distinct_middle_stage(const StageLayout& layout, double dense_layers, double layers,
                                    F&& f) {
    const bool mixed = dense_layers > 0.0 && dense_layers < layers;
    if (layout.pp <= 2 || (layout.even && !mixed)) {
        return;
    }
    double previous_dense = -1.0;
    std::int64_t previous_count = -1;
    for (std::int64_t stage = 1; stage < layout.pp - 1; ++stage) {
        const std::int64_t start = layout.start_of(stage);
        const std::int64_t count = layout.layers_of(stage);
        const double dense =
            std::clamp(dense_layers - static_cast<double>(start), 0.0, static_cast<double>(count));
        if (dense == previous_dense && count == previous_count) {
            continue;
        }
        previous_dense = dense;
        previous_count = count;
        f(stage, start, count);
        if (!mixed) {
            return;
        }
    }
}

}  // namespace tally
