// account(): parameters, memory per GPU, FLOPs and the parallel layout of a training step (the
// resource accounting of CS336 lecture 2). Pure, allocation-free.
#include "planner/model/accounting.h"

#include <algorithm>
#include <cmath>

#include "planner/model/activations.h"
#include "planner/model/attention_span.h"
#include "planner/model/model_shape.h"
#include "planner/model/pipeline_stages.h"

namespace tally {

namespace {

double dbl(std::int64_t v) {
    return static_cast<double>(v);
}

// Optimizer state per parameter in bytes, for models whose shapes are not known.
// 8-bit Adam (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization", sec. 2):
// two 8-bit states plus one fp32 absmax per block of 2048 values per state.
double optimizer_bytes_per_param(const TrainingSpec& t) {
    if (t.optimizer == Optimizer::adam8bit) {
        return 2.0 * (1.0 + 4.0 / 2048.0);
    }
    return optimizer_states_per_param(t.optimizer) * bytes_per_value(t.optimizer_state_dtype);
}

// Adafactor (Shazeer & Stern 2018, sec. 3, Alg. 4) keeps a row and a column accumulator per
// weight matrix (r + c values for r x c) and a full accumulator for vectors; no momentum
// (beta1 = 0, the paper's default). Returns the state values of the whole model.
double adafactor_state_values(const ModelSpec& m) {
    if (m.kind == ModelKind::mlp) {
        return dbl(m.layers) * 2.0 * dbl(m.hidden);  // each D x D matrix: D + D
    }
    if (m.kind != ModelKind::transformer) {
        return 0.0;
    }
    const double h = dbl(m.hidden);
    const double a = dbl(m.heads);
    double attn = 0.0;
    if (m.mla.enabled()) {
        const double rq = dbl(m.mla.q_lora_rank);
        const double rkv = dbl(m.mla.kv_lora_rank);
        const double qk = dbl(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
        const double up_kv = a * dbl(m.mla.qk_nope_head_dim + m.mla.v_head_dim);
        attn = (rq > 0 ? (h + rq) + (rq + a * qk) + rq : h + a * qk) +
               (h + rkv + dbl(m.mla.qk_rope_head_dim)) + rkv + (rkv + up_kv) +
               (a * dbl(m.mla.v_head_dim) + h);
    } else {
        const double q = a * dbl(m.effective_head_dim());
        const double kv = dbl(m.effective_kv_heads()) * dbl(m.effective_head_dim());
        attn = (h + q) + 2.0 * (h + kv) + (q + h);
    }
    const double mats = m.ffn == FfnKind::swiglu ? 3.0 : 2.0;
    auto mlp = [&](double width) { return mats * (h + width); };
    const double dense = dbl(dense_layer_count(m));
    const double moe = dbl(m.layers) - dense;
    double layers = dbl(m.layers) * (attn + 2.0 * norm_params(m)) + dense * mlp(dbl(m.ffn_hidden));
    if (m.moe.enabled()) {
        layers += moe * ((h + dbl(m.moe.experts)) + dbl(m.moe.experts + m.moe.shared_experts) *
                                                        mlp(dbl(m.effective_expert_ffn())));
    }
    const double v = dbl(m.vocab);
    double embeddings = (v + h) * (m.tied_embeddings ? 1.0 : 2.0);
    if (m.learned_positions > 0) {
        embeddings += dbl(m.learned_positions) + h;
    }
    return layers + embeddings + norm_params(m);
}

// One pipeline stage of a transformer: which layers it holds and what else.
struct Stage {
    double dense_layers = 0.0;
    double moe_layers = 0.0;
    bool has_embedding = false;
    bool has_output = false;
    double microbatches_in_flight = 1.0;
};

// The multi-token-prediction modules a stage holds: all of them on the stage with the output
// layer, the last (Megatron-Core's get_mtp_num_layers_to_build(): "we only support put all of
// MTP layers on the last pipeline stage", core_v0.12.0 multi_token_prediction.py, and
// Megatron-Bridge's DeepSeek-V3 layouts end in ["mtp"] * mtp_num_layers + ["loss"]).
double mtp_modules_of(const ModelSpec& m, const Stage& st) {
    return st.has_output && m.kind == ModelKind::transformer ? dbl(m.mtp_layers) : 0.0;
}

// Parameters one GPU of a stage holds before ZeRO. Matrices are split by tp (Megatron-LM,
// Shoeybi et al. 2019, sec. 3; vocabulary-parallel embeddings); norm gains are replicated.
// Expert parallelism keeps experts / ep routed experts per GPU, each split over the experts'
// own tensor parallelism etp (Megatron-Core's --expert-tensor-parallel-size, = tp unless set);
// the router and shared experts are on every GPU, split by tp.
struct StageParams {
    double total = 0.0;
    double routed_experts = 0.0;  // the part of total that is routed experts
};
StageParams stage_params_on_gpu(const ModelSpec& m, const Stage& st, double tp, double ep,
                                double etp) {
    const double attn = attention_params(m);
    const double norms = 2.0 * norm_params(m);
    const double dense_mlp = st.dense_layers > 0 ? mlp_params(m, m.ffn_hidden) : 0.0;
    const double expert_mlp = m.moe.enabled() ? mlp_params(m, m.effective_expert_ffn()) : 0.0;
    const double moe_shared = m.moe.enabled() ? dbl(m.hidden) * dbl(m.moe.experts) +
                                                    dbl(m.moe.shared_experts) * expert_mlp
                                              : 0.0;
    const double routed = m.moe.enabled() ? dbl(m.moe.experts) / ep * expert_mlp : 0.0;
    const double layers = st.dense_layers + st.moe_layers;
    double split = layers * attn + st.dense_layers * dense_mlp + st.moe_layers * moe_shared;
    double replicated = layers * norms;
    const double h = dbl(m.hidden);
    const double v = dbl(m.vocab);
    if (st.has_embedding) {
        split += v * h + dbl(m.learned_positions) * h;
    }
    if (st.has_output) {
        replicated += norm_params(m);  // final norm
        // Untied: the output head. Tied with pp > 1: the last stage keeps its own copy of the word
        // embeddings for the head and all-reduces its gradient with the first stage (Narayanan et
        // al. 2021, Megatron-LM's shared embeddings). Tied with pp = 1: already counted.
        if (!m.tied_embeddings || !st.has_embedding) {
            split += v * h;
        }
    }
    // Multi-token prediction (count_params()): per module five norms (hnorm, enorm, the layer's
    // two, final_layernorm) kept whole, the 2h x h projection (a column-parallel linear) and the
    // layer split by tp, its routed experts by ep and etp. Without the embedding on this stage (pp
    // > 1) the stage also holds a copy of the word embeddings for the modules' input: Megatron-Core
    // builds a LanguageModelEmbedding wherever mtp_process is set (core_v0.12.0
    // megatron/core/models/gpt/gpt_model.py:131, "if self.pre_process or self.mtp_process") and
    // keeps it equal to the first stage's as with tied embeddings (language_module.py:118-120,
    // "we also need to maintain duplicated embedding weights in mtp process stage").
    const double mtp = mtp_modules_of(m, st);
    double mtp_experts = 0.0;
    if (mtp > 0.0) {
        const bool moe_layer = mtp_layer_is_moe(m);
        replicated += mtp * 5.0 * norm_params(m);
        split +=
            mtp * (attn + 2.0 * h * h + (moe_layer ? moe_shared : mlp_params(m, m.ffn_hidden)));
        mtp_experts = moe_layer ? mtp * routed / etp : 0.0;
        if (!st.has_embedding) {
            split += v * h;
        }
    }
    const double experts = st.moe_layers * routed / etp + mtp_experts;
    return {split / tp + replicated + experts, experts};
}

struct StageActivations {
    double stored = 0.0;
    double working = 0.0;
    double per_layer = 0.0;
    double per_layer_full = 0.0;
    double embedding_output = 0.0;
    std::int64_t checkpoint_interval = 0;
    // One micro-batch's activations of the offloaded layers (training.activation_offload_layers).
    double offloaded = 0.0;
};

// Chen et al. 2016 ("Training Deep Nets with Sublinear Memory Cost", sec. 4.1): a checkpoint
// every k = ceil(sqrt(n)) layers costs ceil(n/k) stored inputs plus one live segment of k layers.
std::int64_t sqrt_interval(double layers) {
    const auto k = static_cast<std::int64_t>(std::ceil(std::sqrt(layers)));
    return k < 1 ? 1 : k;
}

StageActivations transformer_stage_activations(const PlanSpec& spec, const Stage& stage) {
    const ModelSpec& m = spec.model;
    const TrainingSpec& t = spec.training;
    // A multi-token-prediction module's transformer layer keeps what a layer of its kind keeps,
    // and is recomputed as they are (Megatron-Core's MultiTokenPredictionLayer checkpoints it
    // under full recomputation, core_v0.14.0 multi_token_prediction.py _checkpointed_forward).
    const double mtp = mtp_modules_of(m, stage);
    Stage st = stage;
    (mtp_layer_is_moe(m) ? st.moe_layers : st.dense_layers) += mtp;
    // Context parallelism: each rank keeps the activations of its s / cp tokens (ring attention
    // never materialises the scores; Megatron-Core context_parallel.md).
    const double s = dbl(spec.data.seq_len) / dbl(t.context_parallel);
    const double b = dbl(spec.data.micro_batch);
    const double e = bytes_per_value(t.activation_dtype);
    const double tp = dbl(t.tp);
    const double rep_div = t.sequence_parallel ? tp : 1.0;  // Korthikanti sec. 4.2.2, eq. 4

    auto full_layer = [&](const LayerActivations& x) {
        return x.replicated / rep_div + x.split / tp +
               (t.flash_attention ? x.flash_stats / tp : x.core / tp);
    };
    // What selective recomputation drops of a layer (training.recompute_modules).
    const RecomputeModules modules = selective_recompute(t);
    auto core_of = [&](const LayerActivations& x) {
        double dropped = modules.core_attn && !t.flash_attention ? x.core / tp : 0.0;
        dropped += modules.layernorm ? x.norm_outputs / rep_div : 0.0;
        dropped += modules.mla_up_proj ? x.mla_up / tp : 0.0;
        dropped += modules.moe_act ? x.moe_act / tp : 0.0;
        dropped += modules.mlp ? x.mlp_internal / tp : 0.0;
        return dropped;
    };
    // An FP8 or NVFP4 step keeps its linear layers' inputs in that format (activations.h): FP8
    // one byte a value; NVFP4 the column-wise copy the weight gradient reads, 4 bits and an E4M3
    // scale per 16 values (0.5625 bytes; Transformer Engine's NVFP4 recipe). With 16-bit stored
    // activations only: an fp32 activation_dtype is a plan of its own choosing.
    const ComputeType compute = compute_type(t.compute_dtype);
    const double quantized_input = e != 2.0                      ? 0.0
                                   : compute == ComputeType::fp8 ? 1.0
                                   : compute == ComputeType::fp4 ? bytes_per_value(DType::nvfp4)
                                                                 : 0.0;
    const LayerActivations dense =
        transformer_layer_activations(m, false, s, b, e, t.dropout, quantized_input);
    const LayerActivations moe = m.moe.enabled() ? transformer_layer_activations(
                                                       m, true, s, b, e, t.dropout, quantized_input)
                                                 : dense;
    const double layers = st.dense_layers + st.moe_layers;
    const double full_sum = st.dense_layers * full_layer(dense) + st.moe_layers * full_layer(moe);
    const double core_sum = st.dense_layers * core_of(dense) + st.moe_layers * core_of(moe);
    const double input = dense.input / rep_div;
    const double largest_layer = std::max(st.dense_layers > 0 ? full_layer(dense) : 0.0,
                                          st.moe_layers > 0 ? full_layer(moe) : 0.0);
    const double largest_core = std::max(st.dense_layers > 0 ? core_of(dense) : 0.0,
                                         st.moe_layers > 0 ? core_of(moe) : 0.0);
    const double inflight = st.microbatches_in_flight;

    StageActivations out;
    out.per_layer_full = layers > 0 ? full_sum / layers : 0.0;
    switch (t.recompute) {
        case Recompute::none:
            out.per_layer = out.per_layer_full;
            out.stored = full_sum * inflight;
            break;
        case Recompute::selective:
            // Korthikanti sec. 5, eq. 6: the attention core is recomputed, nothing of it stored;
            // with recompute_modules, what those modules drop (core_of above).
            out.per_layer = layers > 0 ? (full_sum - core_sum) / layers : 0.0;
            out.stored = (full_sum - core_sum) * inflight;
            out.working = t.recompute_working_set ? largest_core : 0.0;
            break;
        case Recompute::full: {
            // Korthikanti sec. 5 / Table 2: only each layer's input is kept (2sbh per layer at 16
            // bits; divided by t under sequence parallelism). Recomputing some of the layers
            // (recompute_layers), the others keep everything.
            const double f = full_recompute_fraction(t, m);
            out.per_layer = f * input + (1.0 - f) * out.per_layer_full;
            out.stored = (f * layers * input + (1.0 - f) * full_sum) * inflight;
            out.working = t.recompute_working_set ? largest_layer : 0.0;
            break;
        }
        case Recompute::sqrt: {
            const std::int64_t k = sqrt_interval(layers);
            const double checkpoints = std::ceil(layers / dbl(k));
            out.checkpoint_interval = k;
            out.per_layer = layers > 0 ? checkpoints * input / layers : 0.0;
            out.stored = checkpoints * input * inflight;
            out.working = std::min(dbl(k), layers) * out.per_layer_full;
            break;
        }
    }
    // Activation offloading (Megatron-Core's cpu_offloading_num_layers; megatron/core/
    // cpu_offload.py): the first N layers' activations go to host memory once the next layer's
    // forward has started and come back one layer ahead of their backward. At the peak (the end
    // of the forward) the GPU holds the layers that were not offloaded; the reloads start when the
    // backward reaches the offloaded layers, after the kept layers' activations were freed. Allowed
    // with one stage and no recomputation only (check()), so one micro-batch is in flight.
    if (t.activation_offload_layers > 0 && t.recompute == Recompute::none) {
        const double n = static_cast<double>(t.activation_offload_layers);
        const double off_dense = std::min(n, st.dense_layers);
        const double off_moe = std::min(n - off_dense, st.moe_layers);
        out.offloaded = off_dense * full_layer(dense) + off_moe * full_layer(moe);
        out.stored -= out.offloaded * inflight;
    }
    // Korthikanti sec. 4.4: the embedding's dropout mask (sbh per micro-batch in flight) on the
    // first stage; on the stage with the output layer, the final norm's input and the output
    // projection's input (sbh each) and what the cross-entropy keeps of each logit, split by tp:
    // its fp32 softmax (4·s·b·v), or, computed in place (training.cross_entropy), the gradient
    // over the 16-bit logits (e·s·b·v).
    const double h = dbl(m.hidden);
    const double logit_bytes = t.cross_entropy == CrossEntropy::in_place ? e : 4.0;
    if (st.has_embedding && t.dropout) {
        out.embedding_output += s * b * h / rep_div * inflight;
    }
    if (st.has_output) {
        out.embedding_output +=
            2.0 * e * s * b * h / rep_div + logit_bytes * s * b * dbl(m.vocab) / tp;
    }
    // Each multi-token-prediction module keeps, besides its layer, the inputs of its two norms
    // (the hidden state and the next tokens' embedding, sbh each) and of its projection (the two
    // normalised, 2sbh), and then what the output layer keeps: its final norm's and the head's
    // inputs and what its own cross-entropy keeps of its logits (DeepSeek-V3 sec. 2.2: every
    // depth computes its own cross-entropy loss over the shared head's output).
    if (mtp > 0.0) {
        out.embedding_output +=
            mtp * (4.0 * e * s * b * h / rep_div + 2.0 * e * s * b * h / rep_div +
                   logit_bytes * s * b * dbl(m.vocab) / tp);
    }
    out.stored += out.embedding_output;
    return out;
}

// CS336 lecture 2's deep network: one B x D activation per layer ("2 x B x D x L" bytes in bf16).
StageActivations mlp_stage_activations(const PlanSpec& spec, double layers, double inflight) {
    const double e = bytes_per_value(spec.training.activation_dtype);
    const double per_layer = e * dbl(spec.data.micro_batch) * dbl(spec.model.hidden);
    StageActivations out;
    out.per_layer_full = per_layer;
    out.per_layer = per_layer;
    out.stored = layers * per_layer * inflight;  // each layer's input is its only stored tensor
    if (spec.training.recompute == Recompute::sqrt) {
        const std::int64_t k = sqrt_interval(layers);
        const double checkpoints = std::ceil(layers / dbl(k));
        out.checkpoint_interval = k;
        out.per_layer = checkpoints * per_layer / layers;
        out.stored = checkpoints * per_layer * inflight;
        out.working = std::min(dbl(k), layers) * per_layer;
    }
    return out;
}

}  // namespace

void account(const PlanSpec& spec, double capacity_bytes, Accounting& plan) {
    plan = Accounting{};
    const ModelSpec& m = spec.model;
    const TrainingSpec& t = spec.training;
    const DataSpec& data = spec.data;

    // ---- parallel layout ----
    Parallelism& par = plan.parallel;
    par.tp = t.tp;
    par.pp = t.pp;
    par.dp = spec.cluster.gpus / (t.tp * t.pp * t.context_parallel);
    par.global_batch = data.global_batch > 0 ? data.global_batch : data.micro_batch * par.dp;
    par.grad_accum_steps = par.global_batch / (data.micro_batch * par.dp);
    const double seq = m.kind == ModelKind::mlp ? 1.0 : dbl(data.seq_len);
    par.tokens_per_step = dbl(par.global_batch) * seq;
    par.steps = data.tokens / par.tokens_per_step;
    // Narayanan et al. 2021, sec. 2.2.1: 1F1B bubble time fraction = (p - 1) / m; interleaved
    // with v virtual stages (sec. 2.2.2), (p - 1) / (v·m).
    par.pipeline_bubble_fraction =
        pipeline_bubble_fraction(t.pp, t.interleave, par.grad_accum_steps);
    // 1F1B: the first stage holds activations of min(p, m) micro-batches (Narayanan et al. 2021,
    // sec. 2.2.1; Korthikanti sec. 4.2.3); interleaving adds (p - 1)/(p·v) of that (Korthikanti
    // sec. 4.2.3).
    const double interleave_factor = interleaved_activation_factor(t.pp, t.interleave);
    const double inflight = dbl(std::min(t.pp, par.grad_accum_steps)) * interleave_factor;

    // ---- parameters ----
    plan.params = count_params(m);
    const double tp = dbl(t.tp);
    const double pp = dbl(t.pp);
    const double dp = dbl(par.dp);
    const double ep = dbl(t.expert_parallel);

    // ---- memory per GPU: the most loaded pipeline stage ----
    // ZeRO (Rajbhandari et al. 2020, sec. 5): stage 1 shards optimizer state (which includes the
    // fp32 master weights), stage 2 also gradients, stage 3 also parameters, over the
    // data-parallel group of dp GPUs, not over all GPUs.
    // Context-parallel ranks hold the same weights, so the sharding group is dp x cp
    // (Megatron-Core's distributed optimizer shards over the data-parallel group with context
    // parallelism, megatron/core/parallel_state.py).
    const double shard_group = dp * dbl(t.context_parallel);
    const double opt_div = t.zero >= 1 ? shard_group : 1.0;
    const double grad_div = t.zero >= 2 ? shard_group : 1.0;
    const double param_div = t.zero >= 3 ? shard_group : 1.0;
    // The routed experts' copies: the tp x cp x dp GPUs of a stage regroup as etp x ep x edp
    // (Megatron-Core's expert groups, megatron/core/parallel_state.py), and the distributed
    // optimizer shards the expert parameters over their expert-data-parallel group of edp.
    const double etp = dbl(t.expert_tensor_parallel > 0 ? t.expert_tensor_parallel : t.tp);
    const double expert_group = tp * shard_group / (etp * ep);
    const double expert_opt_div = t.zero >= 1 ? expert_group : 1.0;
    const double expert_grad_div = t.zero >= 2 ? expert_group : 1.0;
    const double expert_param_div = t.zero >= 3 ? expert_group : 1.0;
    const double param_b = bytes_per_value(t.param_dtype);
    const double grad_b = bytes_per_value(t.grad_dtype);
    const double master_b = t.master_dtype ? bytes_per_value(*t.master_dtype) : 0.0;
    double opt_b = optimizer_bytes_per_param(t);
    if (t.optimizer == Optimizer::adafactor && plan.params.total > 0) {
        opt_b = adafactor_state_values(m) / plan.params.total *
                bytes_per_value(t.optimizer_state_dtype);
    }
    MemoryBreakdown& mem = plan.memory;
    mem.capacity_bytes = capacity_bytes;
    mem.bytes_per_param = param_b + grad_b + master_b + opt_b;
    mem.param_bytes_per_param = param_b;
    mem.grad_bytes_per_param = grad_b;
    mem.master_bytes_per_param = master_b;
    mem.optimizer_bytes_per_param = opt_b;
    mem.param_shards = param_div;
    mem.grad_shards = grad_div;
    mem.optimizer_shards = opt_div;
    mem.expert_param_shards = expert_param_div;
    mem.expert_grad_shards = expert_grad_div;
    mem.expert_optimizer_shards = expert_opt_div;

    auto fill = [&](MemoryBreakdown& out, StageParams params, const StageActivations& act,
                    double layers, double stage_inflight) {
        out.params_on_gpu = params.total;
        out.expert_params_on_gpu = params.routed_experts;
        out.params_bytes = out.sharded_params(param_div, expert_param_div) * param_b;
        out.grads_bytes = out.sharded_params(grad_div, expert_grad_div) * grad_b;
        out.master_bytes = out.optimizer_shard_params() * master_b;
        out.optimizer_bytes = out.optimizer_shard_params() * opt_b;
        out.activations_bytes = act.stored + act.working;
        out.activations.per_layer_bytes = act.per_layer;
        out.activations.per_layer_full_bytes = act.per_layer_full;
        out.activations.stored_bytes = act.stored;
        out.activations.working_bytes = act.working;
        out.activations.embedding_output_bytes = act.embedding_output;
        out.activations.layers_on_gpu = layers;
        out.activations.microbatches_in_flight = stage_inflight;
        out.activations.checkpoint_interval = act.checkpoint_interval;
        out.activations.offloaded_bytes = act.offloaded;
        out.total_bytes = out.model_state_bytes() + out.activations_bytes;
    };

    const double stage_layers = dbl(m.layers) / pp;
    switch (m.kind) {
        case ModelKind::params:
            fill(mem, {plan.params.total / (tp * pp), 0.0}, StageActivations{}, 0.0, inflight);
            break;
        case ModelKind::mlp:
            fill(mem, {plan.params.total / (tp * pp), 0.0},
                 mlp_stage_activations(spec, stage_layers, inflight), stage_layers, inflight);
            break;
        case ModelKind::transformer: {
            const double dense_total = dbl(dense_layer_count(m));
            // The layers of each stage (pipeline_stages.h); with even stages L / pp each. The
            // most loaded GPU is the largest of the first stage (embedding, min(p, m) micro-batches
            // in flight), the last (output layer, one in flight) and the middle stages (1F1B's
            // stage i holds min(p - i, m); Narayanan et al. 2021, sec. 2.2.1), below.
            const StageLayout layout = stage_layout(spec);
            const double first_layers = layout.even ? stage_layers : dbl(layout.first);
            const double last_layers = layout.even ? stage_layers : dbl(layout.last);
            auto stage_at = [&](double start, double count, bool embedding, bool output,
                                double in_flight) {
                Stage st;
                st.dense_layers = std::clamp(dense_total - start, 0.0, count);
                st.moe_layers = count - st.dense_layers;
                st.has_embedding = embedding;
                st.has_output = output;
                st.microbatches_in_flight = in_flight;
                MemoryBreakdown out = mem;
                fill(out, stage_params_on_gpu(m, st, tp, ep, etp),
                     transformer_stage_activations(spec, st), count, in_flight);
                return out;
            };
            mem = stage_at(0.0, first_layers, true, t.pp == 1, inflight);
            if (t.pp > 1) {
                const MemoryBreakdown last =
                    stage_at(dbl(m.layers) - last_layers, last_layers, false, true, 1.0);
                if (last.total_bytes > mem.total_bytes) {
                    mem = last;
                }
                // The middle stages that can be the most loaded (pipeline_stages.h); stage i
                // holds min(p - i, m) micro-batches in flight.
                for_each_distinct_middle_stage(
                    layout, dense_total, dbl(m.layers),
                    [&](std::int64_t s, std::int64_t start, std::int64_t count) {
                        const double in_flight =
                            dbl(std::min(t.pp - s, par.grad_accum_steps)) * interleave_factor;
                        const MemoryBreakdown middle =
                            stage_at(dbl(start), dbl(count), false, false, in_flight);
                        if (middle.total_bytes > mem.total_bytes) {
                            mem = middle;
                        }
                    });
            }
            break;
        }
    }
    mem.activations.interleave_factor = interleave_factor;

    // ZeRO-3's gathered layers (Rajbhandari et al. 2020, sec. 5.3): the layer being computed and
    // the next one prefetched, each split by tp, in the parameter dtype.
    if (t.zero == 3 && par.dp > 1) {
        double layer = 0.0;
        if (m.kind == ModelKind::transformer) {
            const double dense_mlp = dense_layer_count(m) > 0 ? mlp_params(m, m.ffn_hidden) : 0.0;
            // A MoE layer's gathered parameters per GPU: its tp-split part, and its routed
            // experts split by etp.
            const double expert_mlp = mlp_params(m, m.effective_expert_ffn());
            const double moe_mlp = m.moe.enabled() && dense_layer_count(m) < m.layers
                                       ? (dbl(m.hidden) * dbl(m.moe.experts) +
                                          dbl(m.moe.shared_experts) * expert_mlp) +
                                             dbl(m.moe.experts) / ep * expert_mlp * tp / etp
                                       : 0.0;
            layer = attention_params(m) + 2.0 * norm_params(m) + std::max(dense_mlp, moe_mlp);
        } else if (m.kind == ModelKind::mlp) {
            layer = dbl(m.hidden) * dbl(m.hidden);
        }
        mem.zero3_gather_bytes = 2.0 * layer / tp * param_b;
    }
    // Pipeline buffers: a received activation and a received gradient, and the two being sent,
    // each a micro-batch's b x s x h (split by tp under sequence parallelism).
    if (t.pp > 1 && m.kind != ModelKind::params) {
        const double tokens = dbl(data.micro_batch) * seq / dbl(t.context_parallel);
        mem.pipeline_buffer_bytes = 4.0 * tokens * dbl(m.hidden) *
                                    bytes_per_value(t.activation_dtype) /
                                    (t.sequence_parallel ? tp : 1.0);
    }
    // Offload (ZeRO-Offload, Ren et al. 2021, sec. 4: gradients, master weights and optimizer
    // state on the host; ZeRO-Infinity, Rajbhandari et al. 2021: the parameter shards too).
    // Megatron-Core's --optimizer-cpu-offload keeps the gradient buffer on the GPU, where the
    // data-parallel reduction runs, and copies the gradients to pinned host tensors for the
    // host's update (megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py,
    // _set_sub_optimizer_grads: "Sync the grads from GPU to CPU"): there they are in both.
    // The host's update takes the gradients of its optimizer's shard only (ZeRO-1 and the
    // distributed optimizer reduce-scatter them to it; the offload traffic moves that shard).
    if (t.offload != Offload::none) {
        const bool grads_stay = t.engine == Engine::megatron && t.offload == Offload::optimizer;
        mem.host_bytes = std::min(mem.grads_bytes, mem.optimizer_shard_params() * grad_b) +
                         mem.master_bytes + mem.optimizer_bytes;
        if (!grads_stay) {
            mem.grads_bytes = 0.0;
        }
        mem.master_bytes = 0.0;
        mem.optimizer_bytes = 0.0;
        if (t.offload == Offload::optimizer_and_params) {
            mem.host_bytes += mem.params_bytes;
            mem.params_bytes = 0.0;
        }
    }
    mem.total_bytes = mem.model_state_bytes() + mem.activations_bytes + mem.zero3_gather_bytes +
                      mem.pipeline_buffer_bytes;
    mem.headroom_bytes = mem.capacity_bytes - mem.total_bytes;
    mem.fits = mem.total_bytes <= mem.capacity_bytes;

    // ---- FLOPs ----
    FlopsBreakdown& fl = plan.flops;
    const double n = plan.params.active;
    // CS336 lecture 2: forward 2·N per token, backward 4·N (twice the forward): 6·N.
    fl.per_token_6n = 6.0 * n;
    // PaLM (Chowdhery et al. 2022), appendix B: 6N + 12·L·H·Q·T, H heads of width Q, sequence T;
    // written as 6·L·H·T·(d_qk + d_v) so that MLA's different key and value widths fit
    // (d_qk = d_v = Q gives 12·L·H·Q·T). Grouped KV heads do not change it: every query head
    // still forms its own scores. T is the keys each query scores, the whole sequence in PaLM's
    // count (no causal halving); a sliding-window layer's query scores min(T, W) of them
    // (attention_span.h), so L·T becomes the layers' sum of their keys.
    double attn_per_token = 0.0;
    if (m.kind == ModelKind::transformer) {
        const double dqk = m.mla.enabled() ? dbl(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim)
                                           : dbl(m.effective_head_dim());
        const double dv = m.mla.enabled() ? dbl(m.mla.v_head_dim) : dbl(m.effective_head_dim());
        // Multi-token prediction: each module's layer attends over the sequence as a layer of the
        // main model does (its scores taken at the layers' mean span).
        attn_per_token = 6.0 * dbl(m.layers + m.mtp_layers) * dbl(m.heads) *
                         mean_keys_per_query(m, dbl(data.seq_len)) * (dqk + dv);
        // And each module's own logits through the shared head: 6·h·V a token for weights
        // count_params() counts once (Megatron-LM's num_floating_point_operations, core_v0.14.0
        // megatron/training/training.py: "3 * 2 * hidden_size * padded_vocab_size *
        // (mtp_num_layers + 1)"; its MTP layer, norms and projection are in params.active).
        fl.per_token_6n += 6.0 * dbl(m.mtp_layers) * dbl(m.hidden) * dbl(m.vocab);
    }
    fl.per_token_attention = fl.per_token_6n + attn_per_token;
    fl.per_token =
        t.flops_formula == FlopsFormula::six_nd ? fl.per_token_6n : fl.per_token_attention;
    fl.forward_per_token = fl.per_token / 3.0;
    // Recomputation repeats forward work (hardware FLOPs, not model FLOPs; Korthikanti sec. 5):
    // full and sqrt checkpointing one forward of every layer (Narayanan et al. 2021, eq. 3's
    // factor 4 instead of 3; Chen et al. 2016), selective the attention core's forward
    // (2·L·H·T·(d_qk + d_v) per token). The logits are not recomputed. The repeated work is
    // counted the way the model FLOPs are: under 6·N·D, which has no attention-score term, none
    // is added for its recomputation either, so hardware / model FLOPs stays eq. 3's 4/3 for full
    // recomputation and selective recomputation (which repeats only attention scores) adds nothing.
    const double counted_attn_forward =
        t.flops_formula == FlopsFormula::attention ? attn_per_token / 3.0 : 0.0;
    const double layer_forward = 2.0 * (plan.params.active - plan.params.embedding);
    switch (t.recompute) {
        case Recompute::none:
            break;
        case Recompute::selective: {
            // The forward GEMMs of the recomputed modules (training.recompute_modules), 2 FLOPs
            // a weight a token: MLA's up projections in every layer, a dense layer's MLP.
            const RecomputeModules modules = selective_recompute(t);
            fl.recompute_per_token =
                modules.core_attn && !t.flash_attention ? counted_attn_forward : 0.0;
            if (m.kind == ModelKind::transformer) {
                if (modules.mla_up_proj && m.mla.enabled()) {
                    const double heads = dbl(m.heads);
                    fl.recompute_per_token +=
                        2.0 * dbl(m.layers + m.mtp_layers) *
                        (dbl(m.mla.q_lora_rank) * heads *
                             dbl(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim) +
                         dbl(m.mla.kv_lora_rank) * heads *
                             dbl(m.mla.qk_nope_head_dim + m.mla.v_head_dim));
                }
                if (modules.mlp) {
                    const double mtp_dense = mtp_layer_is_moe(m) ? 0.0 : dbl(m.mtp_layers);
                    fl.recompute_per_token +=
                        2.0 * (dbl(dense_layer_count(m)) + mtp_dense) * mlp_params(m, m.ffn_hidden);
                }
            }
            break;
        }
        case Recompute::full:
        case Recompute::sqrt:
            fl.recompute_per_token =
                full_recompute_fraction(t, m) * (layer_forward + counted_attn_forward);
            break;
    }
    fl.per_step = fl.per_token * par.tokens_per_step;
    fl.total = fl.per_token * data.tokens;
    fl.hardware_total = fl.total + fl.recompute_per_token * data.tokens;
}

double full_recompute_fraction(const TrainingSpec& t, const ModelSpec& m) {
    if (t.recompute == Recompute::sqrt ||
        (t.recompute == Recompute::full && t.recompute_layers <= 0)) {
        return 1.0;
    }
    if (t.recompute != Recompute::full || m.layers <= 0) {
        return 0.0;
    }
    // Megatron-LM's block method recomputes the first N layers of each model chunk
    // (megatron/core/transformer/transformer_block.py, _checkpointed_forward): pp x v chunks.
    return std::min(1.0, dbl(t.recompute_layers) * dbl(t.pp) *
                             dbl(std::max<std::int64_t>(t.interleave, 1)) / dbl(m.layers));
}

double pipeline_bubble_fraction(std::int64_t pp, std::int64_t interleave,
                                std::int64_t microbatches) {
    if (pp <= 1 || microbatches < 1) {
        return 0.0;
    }
    return dbl(pp - 1) / (dbl(std::max<std::int64_t>(interleave, 1)) * dbl(microbatches));
}

double interleaved_activation_factor(std::int64_t pp, std::int64_t interleave) {
    if (pp <= 1 || interleave <= 1) {
        return 1.0;
    }
    return 1.0 + dbl(pp - 1) / (dbl(pp) * dbl(interleave));
}

}  // namespace tally
