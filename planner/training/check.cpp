// check(): the rules a spec must follow before evaluate() runs, as FieldError values.
#include <fmt/core.h>
#include <cmath>
#include <cstdint>
#include <optional>

#include "planner/core/enum_names.h"
#include "planner/core/limits.h"
#include "planner/core/quantity_text.h"
#include "planner/model/pipeline_stages.h"
#include "planner/performance/engine.h"
#include "planner/training/plan.h"

namespace tally {

namespace {

std::string num(double v) {
    return shortest_text(v);
}

// Integer fields go up to 2^53 (the largest a JSON number holds exactly; core/limits.h), so
// the products the planner forms from two of them (tp x pp, micro_batch x dp) can overflow an
// int64: they are checked here before evaluate() multiplies.
constexpr std::int64_t kMaxProduct = kMaxJsonInteger;

// Bounds that keep every figure of an accepted plan finite. With integers at most 2^53, tokens
// at most 1e30 and a peak of at least 1e6 FLOP/s (hardware.h), the FLOPs stay below about 1e95
// and the time below 1e95 / (1e6 x kMinMfu) seconds; a price of at most 1e9 and a TDP of at most
// 1e6 keep cost and energy far from a double's 1.8e308.
// An MFU of 0.1 % is far below any real training run (CS336 lecture 2: 0.5 is good, 0.3 is
// common); below it the time would grow without bound.
constexpr double kMinMfu = 1e-3;
// No GPU rents for a billion (in any currency) per hour; the bound a profile's price has
// (hardware.cpp), so that a plan takes any price a profile holds.
constexpr double kMaxPricePerGpuHour = 1e9;

std::optional<std::int64_t> product(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out) || out > kMaxProduct) {
        return std::nullopt;
    }
    return out;
}

// The network figures, the pipeline schedule, expert parallelism and offload: the keys the
// performance model reads. Called once tp, pp and gpus are known to be valid.
std::optional<FieldError> check_network_and_schedule(const PlanSpec& spec) {
    const TrainingSpec& t = spec.training;
    const ClusterSpec& c = spec.cluster;
    const ModelSpec& m = spec.model;
    auto err = [](std::string field, auto value, Text allowed) {
        return std::optional<FieldError>(
            FieldError::of(std::move(field), fmt::format("{}", value), std::move(allowed)));
    };
    if (c.gpus_per_node < 0 || c.gpus_per_node > kMaxJsonInteger) {
        return err(
            "cluster.gpus_per_node", c.gpus_per_node,
            TALLY_TEXT("tally::check",
                       "must be an integer >= 1 (or absent: the hardware profile's node size)"));
    }
    const std::pair<const char*, double> bandwidths[] = {
        {"cluster.intra_node_bytes_per_s", c.intra_node_bytes_per_s},
        {"cluster.inter_node_bytes_per_s", c.inter_node_bytes_per_s},
    };
    for (const auto& [field, value] : bandwidths) {
        // 0 means "the profile's"; otherwise the same physical range as a profile's bandwidth.
        if (!(value == 0.0 ||
              (value >= kMinBandwidthBytesPerS && value <= kMaxBandwidthBytesPerS))) {
            return err(field, num(value),
                       TALLY_TEXT("tally::check",
                                  "must be a number in [1e6, 1e16] bytes/s per GPU per direction "
                                  "(or absent: the hardware profile's)"));
        }
    }
    const std::int64_t dp = c.gpus / (t.tp * t.pp * t.context_parallel);
    if (t.interleave < 1 || t.interleave > kMaxJsonInteger) {
        return err("training.interleave", t.interleave,
                   TALLY_TEXT("tally::check", "must be an integer >= 1"));
    }
    if (t.interleave > 1) {
        if (t.pp < 2) {
            return err(
                "training.interleave", t.interleave,
                TALLY_TEXT(
                    "tally::check",
                    "must be 1 unless training.pp > 1 (virtual stages interleave a pipeline)"));
        }
        if (m.kind != ModelKind::params) {
            const StageLayout stages = stage_layout(spec);
            if (stages.even) {
                // Narayanan et al. 2021, sec. 2.2.2: each device holds v chunks of whole layers.
                const std::optional<std::int64_t> chunks = product(t.pp, t.interleave);
                if (!chunks || m.layers % *chunks != 0) {
                    return err("training.interleave", t.interleave,
                               TALLY_TEXT("tally::check",
                                          "training.pp x training.interleave (%1 x %2) must divide "
                                          "model.layers (%3)")
                                   .arg(t.pp)
                                   .arg(t.interleave)
                                   .arg(m.layers));
                }
            } else if (t.interleave > stages.fewest() + 1) {
                // Uneven stages: a virtual stage may hold the embedding or the output layer
                // alone (Megatron-Core's account_for_embedding/loss_in_pipeline_split), so a
                // stage of n layers has at most n + 1 of them.
                return err(
                    "training.interleave", t.interleave,
                    TALLY_TEXT(
                        "tally::check",
                        "must be at most %1 (the fewest layers of a pipeline stage, %2, plus one)")
                        .arg(stages.fewest() + 1)
                        .arg(stages.fewest()));
            }
        }
    }
    if (t.recompute_modules.any()) {
        const RecomputeModules& r = t.recompute_modules;
        if (t.recompute != Recompute::selective) {
            return err("training.recompute_modules", recompute_modules_text(r),
                       TALLY_TEXT("tally::check",
                                  "must be absent unless training.recompute is \"selective\" "
                                  "(Megatron-Core recomputes modules with --recompute-granularity "
                                  "selective)"));
        }
        if (r.mla_up_proj && (m.kind != ModelKind::transformer || !m.mla.enabled())) {
            return err("training.recompute_modules", "mla_up_proj",
                       TALLY_TEXT("tally::check",
                                  "mla_up_proj needs a model with multi-head latent attention "
                                  "(model.mla)"));
        }
        if (r.moe_act && (m.kind != ModelKind::transformer || !m.moe.enabled())) {
            return err(
                "training.recompute_modules", "moe_act",
                TALLY_TEXT("tally::check", "moe_act needs a model with experts (model.moe)"));
        }
    }
    if (t.expert_parallel < 1 || t.expert_parallel > kMaxJsonInteger) {
        return err("training.expert_parallel", t.expert_parallel,
                   TALLY_TEXT("tally::check", "must be an integer >= 1"));
    }
    if (t.expert_tensor_parallel < 0 || t.expert_tensor_parallel > kMaxJsonInteger) {
        return err(
            "training.expert_tensor_parallel", t.expert_tensor_parallel,
            TALLY_TEXT("tally::check", "must be an integer >= 1 (or 0: the same as training.tp)"));
    }
    const std::int64_t etp = t.expert_tensor_parallel > 0 ? t.expert_tensor_parallel : t.tp;
    if (t.expert_tensor_parallel > 0 && t.expert_tensor_parallel != t.tp) {
        if (m.kind != ModelKind::transformer || !m.moe.enabled()) {
            return err(
                "training.expert_tensor_parallel", t.expert_tensor_parallel,
                TALLY_TEXT("tally::check",
                           "must be 0 or training.tp for a model without experts (model.moe)"));
        }
        if (m.effective_expert_ffn() % etp != 0) {
            return err("training.expert_tensor_parallel", t.expert_tensor_parallel,
                       TALLY_TEXT("tally::check", "must divide the experts' hidden width (%1)")
                           .arg(m.effective_expert_ffn()));
        }
    }
    if (t.expert_parallel > 1 || etp != t.tp) {
        if (t.expert_parallel > 1 && (m.kind != ModelKind::transformer || !m.moe.enabled())) {
            return err(
                "training.expert_parallel", t.expert_parallel,
                TALLY_TEXT("tally::check", "must be 1 for a model without experts (model.moe)"));
        }
        // Megatron-Core's expert groups (megatron/core/parallel_state.py): the tp x cp x dp ranks
        // of a pipeline stage regroup as expert-tensor x expert x expert-data parallel, so
        // etp x ep must divide tp x cp x dp.
        const std::int64_t stage_ranks = t.tp * t.context_parallel * dp;
        const std::optional<std::int64_t> expert_ranks = product(etp, t.expert_parallel);
        if (!expert_ranks || stage_ranks % *expert_ranks != 0) {
            return err("training.expert_parallel", t.expert_parallel,
                       TALLY_TEXT("tally::check",
                                  "times the experts' tensor parallelism (%1) must divide the GPUs "
                                  "of a pipeline stage (%2 = tp x cp x dp = %3 x %4 x %5): experts "
                                  "are spread over the data- and context-parallel ranks")
                           .arg(etp)
                           .arg(stage_ranks)
                           .arg(t.tp)
                           .arg(t.context_parallel)
                           .arg(dp));
        }
        if (m.moe.experts % t.expert_parallel != 0) {
            return err(
                "training.expert_parallel", t.expert_parallel,
                TALLY_TEXT("tally::check",
                           "must divide model.moe.experts (%1) so every rank holds whole experts")
                    .arg(m.moe.experts));
        }
    }
    if (!(t.moe_imbalance >= 1.0 && t.moe_imbalance <= 1e6)) {
        return err("training.moe_imbalance", num(t.moe_imbalance),
                   TALLY_TEXT("tally::check",
                              "must be a number in [1, 1e6]: the busiest expert's tokens over the "
                              "balanced share"));
    }
    if (t.moe_imbalance != 1.0) {
        if (m.kind != ModelKind::transformer || !m.moe.enabled()) {
            return err(
                "training.moe_imbalance", num(t.moe_imbalance),
                TALLY_TEXT("tally::check", "must be 1 for a model without experts (model.moe)"));
        }
        // The busiest expert receives at most every token once: T tokens against the balanced
        // T x k / E, an imbalance of at most E / k.
        const double most =
            static_cast<double>(m.moe.experts) / static_cast<double>(m.moe.active_experts);
        if (t.moe_imbalance > most) {
            return err("training.moe_imbalance", num(t.moe_imbalance),
                       TALLY_TEXT("tally::check",
                                  "must be at most experts / active_experts (%1 / %2 = %3): an "
                                  "expert receives each token at most once")
                           .arg(m.moe.experts)
                           .arg(m.moe.active_experts)
                           .arg(num(most)));
        }
    }
    if (t.offload == Offload::optimizer_and_params && t.zero != 3) {
        return err(
            "training.offload", to_string(t.offload),
            TALLY_TEXT("tally::check",
                       "optimizer_and_params streams parameter shards, so it needs training.zero = "
                       "3 (ZeRO-Infinity); use \"optimizer\" with ZeRO 0-2"));
    }
    return std::nullopt;
}

// The layers of the first and last pipeline stages (pipeline_stages.h) and context parallelism.
// Called once the sizes are known to be in range.
std::optional<FieldError> check_stage_layers(const PlanSpec& spec) {
    const TrainingSpec& t = spec.training;
    const ModelSpec& m = spec.model;
    auto err = [](std::string field, auto value, Text allowed) {
        return std::optional<FieldError>(
            FieldError::of(std::move(field), fmt::format("{}", value), std::move(allowed)));
    };
    const std::pair<const char*, std::int64_t> ends[] = {
        {"training.first_stage_layers", t.first_stage_layers},
        {"training.last_stage_layers", t.last_stage_layers},
    };
    for (const auto& [field, value] : ends) {
        if (value == 0) {
            continue;
        }
        if (m.kind == ModelKind::params) {
            return err(field, value,
                       TALLY_TEXT("tally::check",
                                  "must be 0 for a model without layers (a 'params' model)"));
        }
        if (t.pp < 2) {
            return err(field, value,
                       TALLY_TEXT("tally::check", "must be 0 unless training.pp > 1"));
        }
        if (value > m.layers) {
            return err(
                field, value,
                TALLY_TEXT("tally::check", "must be at most model.layers (%1)").arg(m.layers));
        }
    }
    if (m.kind != ModelKind::params && t.pp > 1 &&
        (t.first_stage_layers > 0 || t.last_stage_layers > 0)) {
        const std::int64_t given = t.first_stage_layers + t.last_stage_layers;
        const std::int64_t others =
            t.pp - (t.first_stage_layers > 0 ? 1 : 0) - (t.last_stage_layers > 0 ? 1 : 0);
        const bool last_only = t.last_stage_layers > 0 && t.first_stage_layers == 0;
        const char* field =
            last_only ? "training.last_stage_layers" : "training.first_stage_layers";
        const std::int64_t value = last_only ? t.last_stage_layers : t.first_stage_layers;
        if (others == 0 && given != m.layers) {
            return err(field, value,
                       TALLY_TEXT("tally::check",
                                  "with training.pp = 2, first_stage_layers + last_stage_layers "
                                  "(%1 + %2) must equal model.layers (%3)")
                           .arg(t.first_stage_layers)
                           .arg(t.last_stage_layers)
                           .arg(m.layers));
        }
        if (others > 0 && m.layers - given < others) {
            return err(field, value,
                       TALLY_TEXT("tally::check",
                                  "leaves %1 layers for the other %2 pipeline stages; each needs "
                                  "at least one (model.layers = %3)")
                           .arg(m.layers - given)
                           .arg(others)
                           .arg(m.layers));
        }
    }
    if (t.recompute_layers < 0 || t.recompute_layers > m.layers) {
        return err("training.recompute_layers", t.recompute_layers,
                   TALLY_TEXT("tally::check",
                              "must be 0 to model.layers (%1): the layers of a stage that full "
                              "recomputation repeats; 0: all of them")
                       .arg(m.layers));
    }
    if (t.tp_comm_overlap && t.tp > 1 && !t.sequence_parallel) {
        // Transformer Engine's userbuffers overlap the all-gathers and reduce-scatters of
        // sequence parallelism; Megatron-Core refuses --tp-comm-overlap without
        // --sequence-parallel (megatron/training/arguments.py).
        return err("training.tp_comm_overlap", "true",
                   TALLY_TEXT("tally::check",
                              "needs training.sequence_parallel = true: the overlap splits "
                              "sequence parallelism's all-gathers and reduce-scatters"));
    }
    if (t.activation_offload_layers != 0) {
        const char* field = "training.activation_offload_layers";
        if (t.activation_offload_layers < 0 || m.kind != ModelKind::transformer ||
            t.activation_offload_layers >= m.layers) {
            return err(field, t.activation_offload_layers,
                       TALLY_TEXT("tally::check",
                                  "must be 0, or between 1 and model.layers - 1 (%1) for a "
                                  "transformer: at least one layer keeps its activations")
                           .arg(m.layers - 1));
        }
        // Megatron-Core's TransformerConfig refuses CPU offloading with pipeline parallelism
        // and with activation recomputation (megatron/core/transformer/transformer_config.py).
        if (t.pp > 1) {
            return err(field, t.activation_offload_layers,
                       TALLY_TEXT("tally::check",
                                  "must be 0 with training.pp > 1: activation offloading runs "
                                  "with one pipeline stage"));
        }
        if (t.recompute != Recompute::none) {
            return err(field, t.activation_offload_layers,
                       TALLY_TEXT("tally::check",
                                  "must be 0 with training.recompute set: offloaded activations "
                                  "are not recomputed"));
        }
    }
    if (t.context_parallel > 1) {
        if (m.kind != ModelKind::transformer) {
            return err("training.context_parallel", t.context_parallel,
                       TALLY_TEXT("tally::check",
                                  "must be 1 for a model without attention (context parallelism "
                                  "splits sequences over attention's ring)"));
        }
        // The ring runs inside the fused attention kernels: Megatron-Core's own (unfused)
        // attention stops on cp > 1 ("Context parallelism is only supported by
        // TEDotProductAttention!", dot_product_attention.py), and torchtitan's needs SDPA's flash
        // or memory-efficient backend.
        if (!t.flash_attention) {
            return err("training.context_parallel", t.context_parallel,
                       TALLY_TEXT("tally::check",
                                  "1 without training.flash_attention: context parallelism runs "
                                  "its ring inside the fused attention kernels, which never "
                                  "store the scores"));
        }
        // Megatron-Core splits each sequence into 2 x cp chunks, rank i taking chunks i and
        // 2cp - 1 - i, so that causal attention's work is balanced (docs/user-guide/features/
        // context_parallel.md; Dubey et al. 2024, sec. 3.3.2).
        const std::optional<std::int64_t> chunks = product(2, t.context_parallel);
        if (!chunks || spec.data.seq_len % *chunks != 0) {
            return err("training.context_parallel", t.context_parallel,
                       TALLY_TEXT("tally::check",
                                  "2 x context_parallel must divide data.seq_len (%1): each rank "
                                  "takes two of 2 x cp equal chunks of a sequence")
                           .arg(spec.data.seq_len));
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<FieldError> check(const PlanSpec& spec, const HardwareProfile& hw) {
    const ModelSpec& m = spec.model;
    const TrainingSpec& t = spec.training;
    const DataSpec& d = spec.data;
    const ClusterSpec& c = spec.cluster;
    auto err = [](std::string field, auto value, Text allowed) {
        return std::optional<FieldError>(
            FieldError::of(std::move(field), fmt::format("{}", value), std::move(allowed)));
    };

    // ---- parallel sizes first: the model rules below divide by them ----
    if (t.tp < 1)
        return err("training.tp", t.tp, TALLY_TEXT("tally::check", "must be an integer >= 1"));
    if (t.pp < 1)
        return err("training.pp", t.pp, TALLY_TEXT("tally::check", "must be an integer >= 1"));
    if (t.context_parallel < 1)
        return err("training.context_parallel", t.context_parallel,
                   TALLY_TEXT("tally::check", "must be an integer >= 1"));
    if (d.micro_batch < 1)
        return err("data.micro_batch", d.micro_batch,
                   TALLY_TEXT("tally::check", "must be an integer >= 1"));
    if (c.gpus < 1)
        return err("cluster.gpus", c.gpus, TALLY_TEXT("tally::check", "must be an integer >= 1"));

    // ---- model ----
    // The spec reader and the config.json import refuse integers above 2^53; a spec built in
    // code must follow the same rule, so that the planner's sums of sizes (d_nope + d_rope,
    // experts + shared experts, ...) cannot overflow an int64.
    // The smallest value each may take: 1 where the field is a size the plan always uses (or
    // this model kind uses), 0 where 0 means "none" or "not used" (kv_heads 0 = heads, ...).
    const std::int64_t arch = m.kind == ModelKind::params ? 0 : 1;
    const std::int64_t tf = m.kind == ModelKind::transformer ? 1 : 0;
    struct IntegerField {
        const char* field;
        std::int64_t value;
        std::int64_t min;
    };
    const IntegerField integers[] = {
        {"model.layers", m.layers, arch},
        {"model.hidden", m.hidden, arch},
        {"model.heads", m.heads, tf},
        {"model.kv_heads", m.kv_heads, 0},
        {"model.head_dim", m.head_dim, 0},
        {"model.ffn_hidden", m.ffn_hidden, 0},
        {"model.vocab", m.vocab, tf},
        {"model.learned_positions", m.learned_positions, 0},
        {"model.sliding_window", m.sliding_window, 0},
        {"model.sliding_window_layers", m.sliding_window_layers, 0},
        {"model.context_length", m.context_length, 0},
        {"model.mtp_layers", m.mtp_layers, 0},
        {"model.moe.experts", m.moe.experts, 0},
        {"model.moe.active_experts", m.moe.active_experts, 0},
        {"model.moe.shared_experts", m.moe.shared_experts, 0},
        {"model.moe.expert_ffn_hidden", m.moe.expert_ffn_hidden, 0},
        {"model.moe.first_dense_layers", m.moe.first_dense_layers, 0},
        {"model.moe.router_groups", m.moe.router_groups, 0},
        {"model.moe.router_group_topk", m.moe.router_group_topk, 0},
        {"model.mla.q_lora_rank", m.mla.q_lora_rank, 0},
        {"model.mla.kv_lora_rank", m.mla.kv_lora_rank, 0},
        {"model.mla.qk_nope_head_dim", m.mla.qk_nope_head_dim, 0},
        {"model.mla.qk_rope_head_dim", m.mla.qk_rope_head_dim, 0},
        {"model.mla.v_head_dim", m.mla.v_head_dim, 0},
        {"data.seq_len", d.seq_len, 1},
        {"data.global_batch", d.global_batch, 0},
        {"data.micro_batch", d.micro_batch, 1},
        {"cluster.gpus", c.gpus, 1},
        {"training.tp", t.tp, 1},
        {"training.pp", t.pp, 1},
        {"training.context_parallel", t.context_parallel, 1},
        {"training.first_stage_layers", t.first_stage_layers, 0},
        {"training.last_stage_layers", t.last_stage_layers, 0},
    };
    for (const auto& [field, value, min] : integers) {
        if (value < min || value > kMaxJsonInteger) {
            return err(field, value,
                       TALLY_TEXT("tally::check", "must be an integer in [%1, 2^53 = %2]")
                           .arg(min)
                           .arg(kMaxJsonInteger));
        }
    }
    switch (m.kind) {
        case ModelKind::params:
            if (!std::isfinite(m.params) || m.params <= 0 || m.params > 1e18) {
                return err("model.params", num(m.params),
                           TALLY_TEXT("tally::check", "must be a number in (0, 1e18]"));
            }
            break;
        case ModelKind::mlp:
            if (m.layers < 1)
                return err("model.layers", m.layers,
                           TALLY_TEXT("tally::check", "must be an integer >= 1"));
            if (m.hidden < 1)
                return err("model.hidden", m.hidden,
                           TALLY_TEXT("tally::check", "must be an integer >= 1"));
            break;
        case ModelKind::transformer: {
            if (m.layers < 1)
                return err("model.layers", m.layers,
                           TALLY_TEXT("tally::check", "must be an integer >= 1"));
            if (m.hidden < 1)
                return err("model.hidden", m.hidden,
                           TALLY_TEXT("tally::check", "must be an integer >= 1"));
            if (m.heads < 1)
                return err("model.heads", m.heads,
                           TALLY_TEXT("tally::check", "must be an integer >= 1"));
            if (m.vocab < 1)
                return err("model.vocab", m.vocab,
                           TALLY_TEXT("tally::check", "must be an integer >= 1"));
            if (m.head_dim == 0 && !m.mla.enabled() && m.hidden % m.heads != 0) {
                return err(
                    "model.heads", m.heads,
                    TALLY_TEXT("tally::check",
                               "must divide model.hidden (%1) when model.head_dim is not given")
                        .arg(m.hidden));
            }
            if (m.kv_heads < 0 || (m.kv_heads > 0 && m.heads % m.kv_heads != 0)) {
                return err("model.kv_heads", m.kv_heads,
                           TALLY_TEXT("tally::check", "must divide model.heads (%1)").arg(m.heads));
            }
            // Without a window the count of windowed layers is not read (windowed_layers()), so
            // that turning the window off and on again keeps it.
            if (m.sliding_window_layers > m.layers) {
                return err("model.sliding_window_layers", m.sliding_window_layers,
                           TALLY_TEXT("tally::check", "must be between 0 and model.layers (%1)")
                               .arg(m.layers));
            }
            const bool needs_dense = !m.moe.enabled() || m.moe.first_dense_layers > 0;
            if (needs_dense && m.ffn_hidden < 1) {
                return err("model.ffn_hidden", m.ffn_hidden,
                           TALLY_TEXT("tally::check", "must be an integer >= 1"));
            }
            if (m.moe.enabled()) {
                if (m.moe.active_experts < 1 || m.moe.active_experts > m.moe.experts) {
                    return err(
                        "model.moe.active_experts", m.moe.active_experts,
                        TALLY_TEXT("tally::check", "must be between 1 and model.moe.experts (%1)")
                            .arg(m.moe.experts));
                }
                if (m.moe.first_dense_layers > m.layers) {
                    return err("model.moe.first_dense_layers", m.moe.first_dense_layers,
                               TALLY_TEXT("tally::check", "must be at most model.layers (%1)")
                                   .arg(m.layers));
                }
                if (m.effective_expert_ffn() < 1) {
                    return err("model.moe.expert_ffn_hidden", m.moe.expert_ffn_hidden,
                               TALLY_TEXT("tally::check",
                                          "must be an integer >= 1 (or give model.ffn_hidden)"));
                }
                if (m.moe.router_groups > 0 && m.moe.experts % m.moe.router_groups != 0) {
                    return err("model.moe.router_groups", m.moe.router_groups,
                               TALLY_TEXT("tally::check", "must divide model.moe.experts (%1)")
                                   .arg(m.moe.experts));
                }
                if ((m.moe.router_groups > 0) != (m.moe.router_group_topk > 0) ||
                    m.moe.router_group_topk > m.moe.router_groups) {
                    return err("model.moe.router_group_topk", m.moe.router_group_topk,
                               TALLY_TEXT("tally::check",
                                          "must be between 1 and model.moe.router_groups (%1), "
                                          "and given with it")
                                   .arg(m.moe.router_groups));
                }
            }
            if (m.mla.enabled() && (m.mla.qk_nope_head_dim < 1 || m.mla.qk_rope_head_dim < 1 ||
                                    m.mla.v_head_dim < 1)) {
                return err(
                    "model.mla", "incomplete",
                    TALLY_TEXT("tally::check",
                               "qk_nope_head_dim, qk_rope_head_dim and v_head_dim must be >= 1"));
            }
            if (m.heads % t.tp != 0) {
                return err("training.tp", t.tp,
                           TALLY_TEXT("tally::check",
                                      "must divide model.heads (%1) so every GPU holds whole heads")
                               .arg(m.heads));
            }
            // Training frameworks split the key and value heads over the tensor-parallel GPUs
            // and do not replicate them: Megatron-Core's attention divides num_query_groups by
            // the tp size (megatron/core/transformer/attention.py, divide() asserts), and
            // torchtitan's column-parallel wk / wv leave each GPU n_kv_heads / tp heads. (A
            // serving engine may replicate them: inference.cpp.)
            if (!m.mla.enabled() && m.effective_kv_heads() % t.tp != 0) {
                return err("training.tp", t.tp,
                           TALLY_TEXT("tally::check",
                                      "must divide model.kv_heads (%1): the training frameworks "
                                      "split the key and value heads over the tensor-parallel "
                                      "GPUs, none replicates them")
                               .arg(m.effective_kv_heads()));
            }
            break;
        }
    }
    if (m.kind != ModelKind::params && t.pp > m.layers) {
        return err(
            "training.pp", t.pp,
            TALLY_TEXT(
                "tally::check",
                "must be at most model.layers (%1): every pipeline stage holds at least one layer")
                .arg(m.layers));
    }
    if (auto e = check_stage_layers(spec)) {
        return e;
    }

    // ---- cluster and parallel layout ----
    if (!c.mfu_predicted && !(c.mfu >= kMinMfu && c.mfu <= 1.0)) {
        return err("cluster.mfu", num(c.mfu),
                   TALLY_TEXT("tally::check", "must be in [%1, 1]: a fraction of the dense peak")
                       .arg(kMinMfu));
    }
    if (c.price_per_gpu_hour &&
        !(*c.price_per_gpu_hour >= 0.0 && *c.price_per_gpu_hour <= kMaxPricePerGpuHour)) {
        return err("cluster.price_per_gpu_hour", num(*c.price_per_gpu_hour),
                   TALLY_TEXT("tally::check", "must be a number in [0, 1e9] per GPU-hour"));
    }
    const std::optional<std::int64_t> tp_pp = product(t.tp, t.pp);
    const std::optional<std::int64_t> model_parallel =
        tp_pp ? product(*tp_pp, t.context_parallel) : std::nullopt;
    if (!model_parallel) {  // a product past the largest integer: no cluster is that large
        return err("cluster.gpus", c.gpus,
                   TALLY_TEXT("tally::check",
                              "must be a multiple of training.tp x training.pp x "
                              "training.context_parallel (%1 x %2 x %3), so at least their product")
                       .arg(t.tp)
                       .arg(t.pp)
                       .arg(t.context_parallel));
    }
    // A product above the GPUs is no divisor of them either; the message gives the product.
    if (c.gpus % *model_parallel != 0 || *model_parallel > c.gpus) {
        return err("cluster.gpus", c.gpus,
                   TALLY_TEXT("tally::check",
                              "must be a multiple of training.tp x training.pp x "
                              "training.context_parallel (%1 x %2 x %3 = %4)")
                       .arg(t.tp)
                       .arg(t.pp)
                       .arg(t.context_parallel)
                       .arg(*model_parallel));
    }
    if (t.zero < 0 || t.zero > 3)
        return err("training.zero", t.zero, TALLY_TEXT("tally::check", "must be 0, 1, 2 or 3"));
    if (auto e = check_network_and_schedule(spec)) {
        return e;
    }
    if (!hw.supports(compute_type(t.compute_dtype))) {
        const std::string have = supported_compute_types(hw);
        return err("training.compute_dtype", to_string(t.compute_dtype),
                   TALLY_TEXT("tally::check", "%1 has no %2 peak; it has: %3")
                       .arg(hw.name)
                       .arg(to_string(compute_type(t.compute_dtype)))
                       .arg(have));
    }
    // 4-bit training is Transformer Engine's NVFP4 recipe (NVFP4BlockScaling: E2M1 values with an
    // E4M3 scale per 16 and a per-tensor FP32 scale); it has no MXFP4 or unscaled FP4 recipe, so
    // the step is planned only for what it runs.
    if (t.compute_dtype == DType::fp4_e2m1 || t.compute_dtype == DType::mxfp4) {
        return err("training.compute_dtype", to_string(t.compute_dtype),
                   TALLY_TEXT("tally::check",
                              "4-bit training runs Transformer Engine's NVFP4 recipe (an E4M3 "
                              "scale per 16 values): use nvfp4"));
    }
    // Transformer Engine's NVFP4 training runs on the data-center Blackwell parts (its NVFP4
    // documentation lists compute capabilities 10.0 and 10.3: B200, GB200, B300, GB300); another
    // part with an FP4 peak (an AMD Instinct's MXFP4, a GeForce Blackwell) has no such recipe.
    if (t.compute_dtype == DType::nvfp4 && gpu_generation(hw) != GpuGeneration::blackwell) {
        return err("training.compute_dtype", to_string(t.compute_dtype),
                   TALLY_TEXT("tally::check",
                              "NVFP4 training (Transformer Engine) runs on B200, GB200, B300 and "
                              "GB300; %1 is not one: bf16 or fp8")
                       .arg(hw.name));
    }
    // The recipe's random Hadamard transform of the weight gradient's operands takes bf16 only
    // ("RHT is supported only for BF16 inputs/gradients", Transformer Engine's
    // docs/features/low_precision_training/nvfp4/nvfp4.rst): NVFP4 trains over bf16.
    // (fp32 parameters under bf16 activations are mixed precision's bf16 autocast: allowed.)
    if (t.compute_dtype == DType::nvfp4 &&
        (t.activation_dtype != DType::bf16 || t.param_dtype == DType::fp16)) {
        const bool activations = t.activation_dtype != DType::bf16;
        return err(activations ? "training.activation_dtype" : "training.param_dtype",
                   to_string(activations ? t.activation_dtype : t.param_dtype),
                   TALLY_TEXT("tally::check",
                              "bf16 under nvfp4 compute: the NVFP4 recipe's random Hadamard "
                              "transform takes only bf16 inputs and gradients (Transformer "
                              "Engine)"));
    }
    if (t.optimizer == Optimizer::adam8bit && t.optimizer_state_dtype != DType::int8) {
        return err("training.optimizer_state_dtype", to_string(t.optimizer_state_dtype),
                   TALLY_TEXT("tally::check", "adam8bit keeps its states in int8"));
    }
    if (t.master_dtype && *t.master_dtype != DType::fp32) {
        return err("training.master_dtype", to_string(*t.master_dtype),
                   TALLY_TEXT("tally::check", "must be \"fp32\" or \"none\""));
    }

    // ---- serving: the inference block's own ranges (the rules that relate it to the model are
    // check_inference()'s, planner/serving/inference.h, since a training plan need not be servable)
    // ----
    const std::pair<const char*, std::int64_t> serving[] = {
        {"inference.batch", spec.inference.batch},
        {"inference.prompt_tokens", spec.inference.prompt_tokens},
        {"inference.output_tokens", spec.inference.output_tokens},
        {"inference.tp", spec.inference.tp},
        {"inference.pp", spec.inference.pp},
        {"inference.ep", spec.inference.ep},
        {"inference.max_batched_tokens", spec.inference.max_batched_tokens},
    };
    for (const auto& [field, value] : serving) {
        if (value < 1 || value > kMaxJsonInteger) {
            return err(field, value,
                       TALLY_TEXT("tally::check", "must be an integer in [1, 2^53 = %1]")
                           .arg(kMaxJsonInteger));
        }
    }

    if (spec.inference.concurrency < 0 || spec.inference.concurrency > kMaxConcurrency) {
        return err("inference.concurrency", spec.inference.concurrency,
                   TALLY_TEXT("tally::check",
                              "must be an integer in [0, %1] (0: a static batch; else the "
                              "clients in flight)")
                       .arg(kMaxConcurrency));
    }
    const std::pair<const char*, std::int64_t> serving_counts[] = {
        {"inference.quant_group_size", spec.inference.quant_group_size},
    };
    for (const auto& [field, value] : serving_counts) {
        if (value < 0 || value > kMaxJsonInteger) {
            return err(field, value,
                       TALLY_TEXT("tally::check", "must be an integer in [0, 2^53 = %1]")
                           .arg(kMaxJsonInteger));
        }
    }

    if (const auto& host = spec.inference.host_step_s;
        host && !(*host >= 0.0 && *host <= kMaxHostStepS)) {
        return err("inference.host_step_s", num(*host),
                   TALLY_TEXT("tally::check", "must be a number of seconds in [0, %1]")
                       .arg(num(kMaxHostStepS)));
    }
    if (const auto& share = spec.inference.memory_fraction;
        share && !(*share > 0.0 && *share <= 1.0)) {
        return err("inference.memory_fraction", num(*share),
                   TALLY_TEXT("tally::check",
                              "must be a share of the GPU's memory in (0, 1], as the engine's "
                              "setting takes it (vLLM gpu_memory_utilization, TensorRT-LLM "
                              "free_gpu_memory_fraction, SGLang mem_fraction_static)"));
    }

    // ---- data ----
    // Upper bounds keep every derived figure finite (1e30 tokens is 1e15 times Llama 3's data).
    if (!std::isfinite(d.tokens) || d.tokens <= 0 || d.tokens > 1e30) {
        return err("data.tokens", num(d.tokens),
                   TALLY_TEXT("tally::check", "must be a number in (0, 1e30]"));
    }
    if (d.seq_len < 1)
        return err("data.seq_len", d.seq_len,
                   TALLY_TEXT("tally::check", "must be an integer >= 1"));
    const std::int64_t dp = c.gpus / (t.tp * t.pp * t.context_parallel);
    if (d.global_batch < 0) {
        return err("data.global_batch", d.global_batch,
                   TALLY_TEXT("tally::check", "must be an integer >= 1"));
    }
    if (!product(d.micro_batch, dp)) {
        return err("data.micro_batch", d.micro_batch,
                   TALLY_TEXT("tally::check",
                              "times the data-parallel size (%1) must be at most 2^53 = %2")
                       .arg(dp)
                       .arg(kMaxProduct));
    }
    if (d.global_batch > 0 && d.global_batch % (d.micro_batch * dp) != 0) {
        return err("data.global_batch", d.global_batch,
                   TALLY_TEXT("tally::check",
                              "must be a multiple of data.micro_batch x data-parallel size (%1 x "
                              "%2 = %3; data-parallel = cluster.gpus / (tp x pp x cp)), so that "
                              "gradient accumulation takes a whole number of micro-batches")
                       .arg(d.micro_batch)
                       .arg(dp)
                       .arg(d.micro_batch * dp));
    }
    if (t.interleave > 1) {
        // Megatron-LM's interleaved schedule runs micro-batches in groups of pp (Narayanan et al.
        // 2021, sec. 2.2.2, Fig. 4), so their number must be a multiple of pp.
        const std::int64_t global = d.global_batch > 0 ? d.global_batch : d.micro_batch * dp;
        const std::int64_t microbatches = global / (d.micro_batch * dp);
        if (microbatches % t.pp != 0) {
            return err("data.global_batch", global,
                       TALLY_TEXT("tally::check",
                                  "gives %1 micro-batches per step; the interleaved schedule "
                                  "(training.interleave = %2) needs a multiple of training.pp (%3)")
                           .arg(microbatches)
                           .arg(t.interleave)
                           .arg(t.pp));
        }
    }
    return std::nullopt;
}

std::vector<Text> warning_texts(const Plan& plan, const PlanSpec& spec, const HardwareProfile& hw) {
    std::vector<Text> out;
    const double gb = 1e9;
    auto fixed = [](int digits, double value) { return fmt::format("{:.{}f}", value, digits); };
    auto g3 = [](double value) { return fmt::format("{:.3g}", value); };
    if (plan.has(Warning::does_not_fit)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "does not fit: %1 GB needed per GPU, %2 has %3 GB (%4 GB over)")
                          .arg(fixed(1, plan.memory.total_bytes / gb))
                          .arg(hw.name)
                          .arg(fixed(1, plan.memory.capacity_bytes / gb))
                          .arg(fixed(1, -plan.memory.headroom_bytes / gb)));
    }
    if (plan.has(Warning::mfu_above_measured)) {
        const auto best = hw.best_measured_gemm_fraction(compute_type(spec.training.compute_dtype));
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "MFU %1 is above the best published %2 matmul on %3 (%4 of "
                                 "peak): no model runs faster than a plain matmul")
                          .arg(fixed(2, spec.cluster.mfu))
                          .arg(to_string(compute_type(spec.training.compute_dtype)))
                          .arg(hw.name)
                          .arg(fixed(3, best.value_or(0.0))));
    }
    if (plan.has(Warning::mfu_above_predicted)) {
        // Why the prediction is lower: the largest term of the predicted step other than the
        // GEMMs themselves (planner/performance/performance.h's critical path).
        const PerformanceBreakdown& f = plan.performance;
        const std::pair<const char*, double> terms[] = {
            {QT_TRANSLATE_NOOP("tally::warnings", "recomputation"), f.recompute_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "memory-bound operations"), f.memory_bound_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "tensor-parallel communication"), f.tp_comm_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "pipeline sends"), f.pp_comm_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "the pipeline bubble"), f.pp_bubble_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "exposed data-parallel communication"),
             f.dp_comm_exposed_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "expert-parallel all-to-all"), f.ep_comm_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "context-parallel key/value exchange"),
             f.cp_comm_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "kernel launch gaps"), f.overhead_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "the SMs communication takes from compute"),
             f.comm_contention_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "offload traffic"), f.offload_s},
            {QT_TRANSLATE_NOOP("tally::warnings", "the optimizer step"), f.optimizer_s},
        };
        const auto* largest = &terms[0];
        for (const auto& term : terms) {
            if (term.second > largest->second) {
                largest = &term;
            }
        }
        const double share = f.step_s > 0.0 ? largest->second / f.step_s : 0.0;
        out.push_back(
            TALLY_TEXT("tally::warnings",
                       "the assumed MFU %1 is %2 times the %3 the performance model predicts for "
                       "this layout: its step of %4 s is %5% %6 (%7 s) against %8 s of GEMMs, so "
                       "the time shown rests on the assumption; set cluster.mfu to "
                       "\"predicted\" or try the layouts the search finds")
                .arg(fixed(2, spec.cluster.mfu))
                .arg(fixed(1, spec.cluster.mfu / f.mfu))
                .arg(fixed(3, f.mfu))
                .arg(g3(f.step_s))
                .arg(fixed(0, 100.0 * share))
                .arg_translated("tally::warnings", largest->first)
                .arg(g3(largest->second))
                .arg(g3(f.compute_s)));
    }
    if (plan.has(Warning::hfu_above_one)) {
        // A predicted step runs no faster than the peak unless a calibration divided it: then
        // the efficiency fitted on another run does not carry to this one.
        out.push_back(
            plan.time.mfu_predicted && hw.calibration
                ? TALLY_TEXT("tally::warnings",
                             "the calibrated step puts the hardware at %1 of its peak (HFU > 1): "
                             "the profile's efficiency (%2), fitted on another run, does not "
                             "carry to this plan; calibrate on a run like it")
                      .arg(fixed(2, plan.time.hfu))
                      .arg(fmt::format("{:.4f}", hw.calibration->efficiency))
                : TALLY_TEXT("tally::warnings",
                             "with recomputation the hardware would run at %1 of its peak "
                             "(HFU > 1): lower the MFU")
                      .arg(fixed(2, plan.time.hfu)));
    }
    if (plan.has(Warning::no_architecture)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "activations not counted: a parameter-count model (kind "
                                 "\"params\") has no architecture (pick a preset or give the "
                                 "dimensions)"));
    }
    if (plan.has(Warning::adafactor_unshaped)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "Adafactor's factored state (rows + columns per matrix) needs the "
                                 "model's shapes; counted as 0 bytes per parameter"));
    }
    if (plan.has(Warning::master_duplicates_fp32)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "the fp32 master copy duplicates fp32 parameters; set "
                                 "training.master_dtype to \"none\""));
    }
    if (plan.has(Warning::large_pipeline_bubble)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "the pipeline bubble is %1% of the step's busy time ((pp - 1) / "
                                 "(v x micro-batches) = (%2 - 1) / (%3 x %4)); raise the global "
                                 "batch or lower pp")
                          .arg(fixed(0, 100.0 * plan.parallel.pipeline_bubble_fraction))
                          .arg(plan.parallel.pp)
                          .arg(std::max<std::int64_t>(spec.training.interleave, 1))
                          .arg(plan.parallel.grad_accum_steps));
    }
    if (plan.has(Warning::tp_spans_nodes)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "tp %1 spans scale-up domains of %2 GPUs: its all-reduces cross "
                                 "the %3 GB/s link between them (Narayanan et al. 2021, sec. "
                                 "3.3: keep tp within a node)")
                          .arg(spec.training.tp)
                          .arg(plan.performance.network.network.gpus_per_node)
                          .arg(g3(plan.performance.network.network.inter_bytes_per_s / gb)));
    }
    if (plan.has(Warning::moe_tp_without_sp)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "Megatron-Core stops an MoE layer that trains at tp %1 without "
                                 "sequence parallelism (moe_layer.py): set "
                                 "training.sequence_parallel, as its exports require")
                          .arg(spec.training.tp));
    }
    if (plan.has(Warning::zero_stage_not_in_engine)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "PyTorch FSDP has no stage that shards the optimizer state "
                                 "alone (its ShardingStrategy NO_SHARD, SHARD_GRAD_OP and "
                                 "FULL_SHARD are training.zero 0, 2 and 3): ZeRO-1 is planned as "
                                 "asked, but no FSDP run does it, and the exports refuse it"));
    }
    if (plan.has(Warning::mtp_last_stage_slowest)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "the last pipeline stage runs the %1 multi-token-prediction "
                                 "module(s) beside the output layer and is the slowest: fewer "
                                 "layers there (training.last_stage_layers, Megatron's "
                                 "--decoder-last-pipeline-num-layers) even the pipeline, as "
                                 "Megatron-Bridge's DeepSeek-V3 layouts do")
                          .arg(spec.model.mtp_layers));
    }
    if (plan.has(Warning::selective_without_attention)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "selective recomputation changes nothing here: flash attention "
                                 "(or a model without attention) already keeps no attention "
                                 "scores"));
    }
    // The profile the plan was evaluated on carries the calibration the bit was set from.
    if (plan.has(Warning::calibration_other_engine) && hw.calibration && hw.calibration->engine) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "the profile's calibration (efficiency %1) was fitted on a run "
                                 "of %2 and this plan runs %3: the efficiency is the other "
                                 "software's, whose kernels and overlaps differ; calibrate on a "
                                 "run of this engine for a step to plan with")
                          .arg(fmt::format("{:.4f}", hw.calibration->efficiency))
                          .arg_translated("tally::enums",
                                          find_enum_name(*hw.calibration->engine)->label.data())
                          .arg_translated("tally::enums",
                                          find_enum_name(spec.training.engine)->label.data()));
    }
    if (plan.has(Warning::less_than_one_step)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "%1 training tokens are %2 of one optimizer step of %3 tokens "
                                 "(global batch %4 x sequence %5): a run takes whole steps, so "
                                 "it takes at least one, %6 s, where the time shown is a "
                                 "fraction of it")
                          .arg(fmt::format("{:.4g}", spec.data.tokens))
                          .arg(g3(plan.parallel.steps))
                          .arg(fmt::format("{:.4g}", plan.parallel.tokens_per_step))
                          .arg(plan.parallel.global_batch)
                          .arg(spec.model.kind == ModelKind::mlp ? 1 : spec.data.seq_len)
                          .arg(g3(plan.time.seconds / plan.parallel.steps)));
    }
    if (plan.has(Warning::recompute_saves_nothing)) {
        // PyTorch's ReLU saves its output for the backward (torch.nn.functional.relu's
        // derivative reads `result`), which is the next layer's input: each block of a linear
        // layer and a ReLU leaves one B x D tensor, and a checkpoint per block keeps that same
        // input. CS336 lecture 2's "half" counts the pre-ReLU values as kept as well.
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "full recomputation saves no memory on this ReLU network: each "
                                 "layer keeps only its input, as a checkpoint would (ReLU's "
                                 "backward reads its output, the next layer's input), and the "
                                 "forward runs twice. It halves the memory only where the "
                                 "pre-ReLU values are kept too, as the lecture counts them; sqrt "
                                 "keeps every k-th layer's input (k about sqrt(L))"));
    }
    return out;
}

std::vector<std::string> warning_messages(const Plan& plan, const PlanSpec& spec,
                                          const HardwareProfile& hw) {
    std::vector<std::string> out;
    for (const Text& text : warning_texts(plan, spec, hw)) {
        out.push_back(text.english());
    }
    return out;
}

}  // namespace tally
