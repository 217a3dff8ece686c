// Serving plans (planner/serving/inference.h): KV cache, prefill and decode on the roofline,
// throughput, cost and the batch limits.
#include "planner/serving/inference.h"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>

#include "planner/core/quantity_text.h"
#include "planner/hardware/efficiency.h"
#include "planner/model/model_shape.h"
#include "planner/training/plan.h"

namespace tally {

namespace {

double dbl(std::int64_t v) {
    return static_cast<double>(v);
}

// Activations stay 16-bit under weight-only quantization (the weights are dequantized into the
// GEMM; Frantar et al. 2023, sec. 5), and logits are kept in fp32 for the sampler.
constexpr double kActivationBytes = 2.0;
constexpr double kLogitBytes = 4.0;

// The curve never goes past 2^20 sequences; nor does the critical-batch search.
constexpr std::int64_t kMaxCurveBatch = std::int64_t{1} << 20;
constexpr std::int64_t kMaxSearchBatch = std::int64_t{1} << 40;

// The dtype family the weight GEMMs run in. fp8 weights multiply on the fp8 path (W8A8, as
// TensorRT-LLM and vLLM serve fp8 checkpoints), int8 on int8 (SmoothQuant, Xiao et al. 2023),
// fp4 formats on fp4 where the part has one; anything else (bf16, fp16, int4 as in GPTQ/AWQ
// kernels, or a narrow format the part cannot multiply) is dequantized to 16 bits and multiplied
// in bf16 (or fp16, or fp32 on parts without them).
ComputeType gemm_type_of(DType weight, const HardwareProfile& hw, bool* native) {
    std::optional<ComputeType> narrow;
    switch (weight) {
        case DType::fp8_e4m3:
        case DType::fp8_e5m2:
            narrow = ComputeType::fp8;
            break;
        case DType::int8:
            narrow = ComputeType::int8;
            break;
        case DType::fp4_e2m1:
        case DType::nvfp4:
        case DType::mxfp4:
            narrow = ComputeType::fp4;
            break;
        default:
            break;
    }
    *native = true;
    if (narrow) {
        if (hw.supports(*narrow)) {
            return *narrow;
        }
        *native = false;
    }
    if (weight == DType::fp16 && hw.supports(ComputeType::fp16)) {
        return ComputeType::fp16;
    }
    if (weight == DType::fp32 || weight == DType::fp64) {
        return weight == DType::fp64 && hw.supports(ComputeType::fp64) ? ComputeType::fp64
                                                                       : ComputeType::fp32;
    }
    for (ComputeType t : {ComputeType::bf16, ComputeType::fp16}) {
        if (hw.supports(t)) {
            return t;
        }
    }
    return ComputeType::fp32;
}

// Attention runs on 16-bit activations (FlashAttention-2, Dao 2023).
ComputeType attention_type_of(const HardwareProfile& hw) {
    for (ComputeType t : {ComputeType::bf16, ComputeType::fp16}) {
        if (hw.supports(t)) {
            return t;
        }
    }
    return ComputeType::fp32;
}

// What the serving formulas need from the model, computed once.
struct ModelFigures {
    double layers = 0.0;
    double hidden = 0.0;
    double heads = 0.0;
    double vocab = 0.0;
    double d_qk = 0.0;  // query/key width of a head
    double d_v = 0.0;   // value width of a head
    double params_total = 0.0;
    double params_active = 0.0;
    // Weights a token multiplies by (2 FLOPs each): the active parameters less the input
    // embedding and learned positions, which are looked up, not multiplied (Kaplan et al. 2020,
    // sec. 2.1, count 2·N forward FLOPs per token the same way).
    double matmul_active = 0.0;
    // Weights every pass reads whatever the routing: all but the routed experts and the looked-up
    // tables; and the routed experts of every MoE layer together.
    double read_always = 0.0;
    double routed_total = 0.0;
    double experts = 0.0;
    double active_experts = 0.0;
    // One layer's widest intermediates per token on one GPU, in values (see activation_bytes).
    double activation_values_per_token = 0.0;
};

ModelFigures model_figures(const ModelSpec& m, std::int64_t tp) {
    ModelFigures f;
    f.layers = dbl(m.layers);
    f.hidden = dbl(m.hidden);
    f.heads = dbl(m.heads);
    f.vocab = dbl(m.vocab);
    if (m.mla.enabled()) {
        f.d_qk = dbl(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
        f.d_v = dbl(m.mla.v_head_dim);
    } else {
        f.d_qk = f.d_v = dbl(m.effective_head_dim());
    }
    const ParamCounts p = count_params(m);
    f.params_total = p.total;
    f.params_active = p.active;
    const double lookup =
        (m.tied_embeddings ? 0.0 : f.vocab * f.hidden) + dbl(m.learned_positions) * f.hidden;
    f.matmul_active = p.active - lookup;
    if (m.moe.enabled()) {
        const double moe_layers = dbl(m.layers - dense_layer_count(m));
        f.experts = dbl(m.moe.experts);
        f.active_experts = dbl(m.moe.active_experts);
        f.routed_total = moe_layers * f.experts * mlp_params(m, m.effective_expert_ffn());
    }
    f.read_always = p.total - lookup - f.routed_total;

    // Per token, one layer holds its input and output (2h), the projected queries, keys and
    // values, and the MLP's intermediate (two of them for a gated MLP), the last three split over
    // tp (Megatron-LM, Shoeybi et al. 2019, sec. 3).
    const double gated = m.ffn == FfnKind::swiglu ? 2.0 : 1.0;
    double attention_width = 0.0;
    if (m.mla.enabled()) {
        attention_width = f.heads * (f.d_qk + dbl(m.mla.qk_nope_head_dim) + f.d_v);
    } else {
        attention_width = (f.heads + 2.0 * dbl(m.effective_kv_heads())) * f.d_qk;
    }
    double mlp_width = dense_layer_count(m) > 0 ? gated * dbl(m.ffn_hidden) : 0.0;
    if (m.moe.enabled()) {
        mlp_width = std::max(mlp_width, gated * dbl(m.moe.active_experts + m.moe.shared_experts) *
                                            dbl(m.effective_expert_ffn()));
    }
    f.activation_values_per_token = 2.0 * f.hidden + (attention_width + mlp_width) / dbl(tp);
    return f;
}

// Expected share of a layer's routed experts that `tokens` tokens touch, each routed to k of E
// experts, uniformly and independently: an expert escapes one token with probability 1 - k/E and
// all of them with (1 - k/E)^tokens, so the share touched is 1 - (1 - k/E)^tokens. At batch 1
// only the k active experts are read; a large batch reads them all.
double routed_share(const ModelFigures& f, double tokens) {
    if (f.experts <= 0.0 || tokens <= 0.0) {
        return 0.0;
    }
    return -std::expm1(tokens * std::log1p(-f.active_experts / f.experts));
}

// The weights a pass over `tokens` tokens reads, per GPU, in bytes.
double weight_bytes_read(const ModelFigures& f, double tokens, double weight_bytes, double tp) {
    return (f.read_always + f.routed_total * routed_share(f, tokens)) * weight_bytes / tp;
}

// Everything the phase timings share.
struct Context {
    const PlanSpec& spec;
    const HardwareProfile& hw;
    ModelFigures f;
    KvCacheShape kv;
    double tp = 1.0;
    double weight_bytes = 2.0;  // per weight
    ComputeType gemm_type = ComputeType::bf16;
    ComputeType attention_type = ComputeType::bf16;
    bool native = true;
    double gemm_peak = 0.0;       // achieved FLOP/s
    double attention_peak = 0.0;  // achieved FLOP/s
    double link_bytes_per_s = 0.0;
    double step_latency_s = 0.0;
    bool spans_nodes = false;
};

Context make_context(const PlanSpec& spec, const HardwareProfile& hw) {
    Context c{spec, hw, model_figures(spec.model, spec.inference.tp),
              kv_cache_shape(spec.model, spec.inference.kv_dtype, spec.inference.tp)};
    c.tp = dbl(spec.inference.tp);
    c.weight_bytes = bytes_per_value(spec.inference.weight_dtype);
    c.gemm_type = gemm_type_of(spec.inference.weight_dtype, hw, &c.native);
    c.attention_type = attention_type_of(hw);
    c.gemm_peak = hw.peak(c.gemm_type) * gemm_fraction(hw, c.gemm_type);
    c.attention_peak = hw.peak(c.attention_type) * gemm_fraction(hw, c.attention_type);
    c.spans_nodes = hw.gpus_per_node > 0 && spec.inference.tp > hw.gpus_per_node;
    c.link_bytes_per_s = c.spans_nodes && hw.inter_node_bytes_per_s > 0.0
                             ? hw.inter_node_bytes_per_s
                             : hw.interconnect_bytes_per_s;
    c.step_latency_s = c.spans_nodes ? kServingNetworkStepLatencyS : kServingNvlinkStepLatencyS;
    return c;
}

double compute_s(double flops, double achieved_flops_per_s) {
    return achieved_flops_per_s > 0.0 ? flops / achieved_flops_per_s : 0.0;
}

// One pass over `tokens` tokens: the weight GEMMs (2 FLOPs per weight and token, the weights read
// once), attention (`attention_flops`, `kv_bytes` moved), and two all-reduces of the hidden state
// per layer, one after the attention block and one after the MLP (Megatron-LM, Shoeybi et al.
// 2019, sec. 3). Each part is timed on the roofline (Williams et al. 2009): the larger of its
// compute time at the achieved peak and its memory time at the achieved bandwidth
// (planner/hardware/efficiency.h). The parts run one after another.
ServingPhase time_phase(const Context& c, double tokens, double context, double attention_flops,
                        double kv_bytes) {
    ServingPhase p;
    p.tokens = tokens;
    p.context = context;
    p.gemm_flops = 2.0 * c.f.matmul_active * tokens / c.tp;
    p.weight_bytes = weight_bytes_read(c.f, tokens, c.weight_bytes, c.tp);
    p.gemm_compute_s = compute_s(p.gemm_flops, c.gemm_peak);
    p.gemm_memory_s = memory_time_s(c.hw, p.weight_bytes);
    p.gemm_s = std::max(p.gemm_compute_s, p.gemm_memory_s);
    p.attention_flops = attention_flops;
    p.kv_bytes = kv_bytes;
    p.attention_compute_s = compute_s(attention_flops, c.attention_peak);
    p.attention_memory_s = memory_time_s(c.hw, kv_bytes);
    p.attention_s = std::max(p.attention_compute_s, p.attention_memory_s);
    if (c.spec.inference.tp > 1) {
        p.all_reduces = 2.0 * c.f.layers;
        p.all_reduce_bytes = tokens * c.f.hidden * kActivationBytes;
        const ServingCollective one = serving_ring_all_reduce(
            p.all_reduce_bytes, c.spec.inference.tp, c.link_bytes_per_s, c.step_latency_s);
        p.comm_bandwidth_s = p.all_reduces * one.bandwidth_s;
        p.comm_latency_s = p.all_reduces * one.latency_s;
        p.comm_s = p.all_reduces * one.seconds;
    }
    p.seconds = p.gemm_s + p.attention_s + p.comm_s;
    return p;
}

// Causal attention over a prompt of P tokens: the query at position i scores i keys (2·d_qk
// FLOPs each) and sums i values (2·d_v FLOPs each), per head and layer, so L·a·(d_qk + d_v)·
// P(P+1) FLOPs in all (the forward third of PaLM's 12·L·H·Q·T, Chowdhery et al. 2022, appendix
// B, with causal masking halving the T^2 score matrix), split over tp by heads. The pass writes
// the prompt's KV cache.
ServingPhase prefill_phase(const Context& c) {
    const double p = dbl(c.spec.inference.prompt_tokens);
    const double flops = c.f.layers * c.f.heads * (c.f.d_qk + c.f.d_v) * p * (p + 1.0) / c.tp;
    return time_phase(c, p, p, flops, p * c.kv.bytes_per_token_per_gpu);
}

// One decode step of `batch` sequences whose new token attends to `context` tokens: 2·a·(d_qk +
// d_v)·context FLOPs per layer and sequence (as above, one query), and the whole KV cache of the
// batch read once (Pope et al. 2022, sec. 3.1: decode is bound by loading weights and KV cache).
ServingPhase decode_phase(const Context& c, double batch, double context) {
    const double flops =
        2.0 * c.f.layers * c.f.heads * (c.f.d_qk + c.f.d_v) * context * batch / c.tp;
    return time_phase(c, batch, context, flops, batch * context * c.kv.bytes_per_token_per_gpu);
}

ServingMemory memory_at(const Context& c, double batch) {
    const InferenceSpec& in = c.spec.inference;
    ServingMemory m;
    // Every matrix is split over tp (Megatron-LM, Shoeybi et al. 2019, sec. 3; the embedding and
    // output head by vocabulary rows); the norms' few values per channel are split too here,
    // though real engines replicate them (under 0.01 % of a model's weights).
    m.weights_bytes = c.f.params_total * c.weight_bytes / c.tp;
    const double context = dbl(in.prompt_tokens) + dbl(in.output_tokens);
    m.kv_cache_bytes = batch * context * c.kv.bytes_per_token_per_gpu;
    // Inference keeps no activations for a backward pass; what it needs at once is one layer's
    // working set for the tokens in flight: a prompt's tokens during its prefill (prompts are
    // prefilled one at a time), the batch's during decode; plus the fp32 logits of the batch's
    // next tokens, vocabulary split over tp.
    const double tokens = std::max(dbl(in.prompt_tokens), batch);
    m.activation_bytes = tokens * c.f.activation_values_per_token * kActivationBytes +
                         batch * c.f.vocab / c.tp * kLogitBytes;
    m.total_bytes = m.weights_bytes + m.kv_cache_bytes + m.activation_bytes;
    m.capacity_bytes = c.hw.memory_bytes;
    m.headroom_bytes = m.capacity_bytes - m.total_bytes;
    m.fits = m.total_bytes <= m.capacity_bytes;
    return m;
}

std::int64_t max_batch_of(const Context& c) {
    if (!memory_at(c, 1.0).fits) {
        return 0;
    }
    // Memory grows with the batch; double until it does not fit, then bisect.
    std::int64_t lo = 1, hi = 2;
    while (hi < kMaxSearchBatch && memory_at(c, dbl(hi)).fits) {
        lo = hi;
        hi *= 2;
    }
    if (memory_at(c, dbl(hi)).fits) {
        return hi;
    }
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (memory_at(c, dbl(mid)).fits ? lo : hi) = mid;
    }
    return lo;
}

// The smallest batch at which the decode step's weight GEMMs take longer to compute than to
// read their weights: the roofline's ridge (Williams et al. 2009) reached by the batch's
// arithmetic intensity, 2·N_matmul·B FLOPs over N_read·bytes bytes. A dense model's is
// ceil(N_read·bytes·peak / (2·N_matmul·bandwidth)) at achieved peaks; a mixture of experts reads
// more experts as the batch grows, but the ratio still rises with B, so a bisection finds it.
// 0 when no batch up to 2^40 gets there.
std::int64_t critical_batch_of(const Context& c) {
    auto compute_bound = [&c](std::int64_t b) {
        const double tokens = dbl(b);
        const double compute = compute_s(2.0 * c.f.matmul_active * tokens / c.tp, c.gemm_peak);
        const double memory =
            memory_time_s(c.hw, weight_bytes_read(c.f, tokens, c.weight_bytes, c.tp));
        return compute >= memory;
    };
    if (compute_bound(1)) {
        return 1;
    }
    std::int64_t lo = 1, hi = 2;
    while (!compute_bound(hi)) {
        if (hi >= kMaxSearchBatch) {
            return 0;
        }
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (compute_bound(mid) ? hi : lo) = mid;
    }
    return hi;
}

struct Throughput {
    ServingPhase prefill;
    double prefill_s = 0.0;
    ServingPhase decode;
    double decode_total_s = 0.0;
    double request_s = 0.0;
    double tokens_per_s = 0.0;
};

Throughput throughput_at(const Context& c, double batch) {
    const InferenceSpec& in = c.spec.inference;
    Throughput t;
    t.prefill = prefill_phase(c);
    t.prefill_s = batch * t.prefill.seconds;
    const double p = dbl(in.prompt_tokens);
    const double o = dbl(in.output_tokens);
    t.decode = decode_phase(c, batch, p + o);
    // Step j (1..O) attends to P + j tokens. Each part of a step is linear in the context or
    // constant (the larger of two linear functions through 0 is linear), so the O steps sum to
    // O steps at the mean context P + (O + 1) / 2.
    t.decode_total_s = o * decode_phase(c, batch, p + (o + 1.0) / 2.0).seconds;
    t.request_s = t.prefill_s + t.decode_total_s;
    const double replicas = dbl(c.spec.cluster.gpus) / c.tp;
    t.tokens_per_s = t.request_s > 0.0 ? replicas * batch * o / t.request_s : 0.0;
    return t;
}

// Exact for the spec's own numbers and counts; four significant digits for computed figures.
std::string num(double v) {
    return shortest_text(v);
}
std::string fig(double v) {
    return four_digits(v);
}

}  // namespace

ServingCollective serving_ring_all_reduce(double bytes, std::int64_t ranks, double link_bytes_per_s,
                                          double step_latency_s) {
    ServingCollective c;
    if (ranks <= 1) {
        return c;
    }
    const double p = dbl(ranks);
    c.bandwidth_s = link_bytes_per_s > 0.0 ? 2.0 * (p - 1.0) / p * bytes / link_bytes_per_s : 0.0;
    c.latency_s = kServingAllReduceBaseLatencyS + 2.0 * (p - 1.0) * step_latency_s;
    c.seconds = c.bandwidth_s + c.latency_s;
    return c;
}

std::string_view to_string(AttentionKind kind) {
    switch (kind) {
        case AttentionKind::mha:
            return "MHA";
        case AttentionKind::gqa:
            return "GQA";
        case AttentionKind::mqa:
            return "MQA";
        case AttentionKind::mla:
            return "MLA";
    }
    return "?";
}

KvCacheShape kv_cache_shape(const ModelSpec& m, DType kv_dtype, std::int64_t tp) {
    KvCacheShape k;
    const double bytes = bytes_per_value(kv_dtype);
    const double layers = dbl(m.layers);
    if (m.mla.enabled()) {
        // DeepSeek-V2 (Liu et al. 2024), sec. 2.1.4 and Table 1: MLA caches the compressed latent
        // c^KV (d_c = kv_lora_rank values) and the decoupled RoPE key (d_h^R = qk_rope_head_dim)
        // per token and layer: (d_c + d_h^R)·l elements. The latent serves every head, so tensor
        // parallelism cannot split it: each GPU of the group keeps all of it (LMSYS, "SGLang
        // v0.4", 2024, data-parallel attention: "tensor parallelism ... leads to duplicated KV
        // cache").
        k.kind = AttentionKind::mla;
        k.values_per_token_per_layer = dbl(m.mla.kv_lora_rank + m.mla.qk_rope_head_dim);
        k.bytes_per_token = layers * k.values_per_token_per_layer * bytes;
        k.bytes_per_token_per_gpu = k.bytes_per_token;
        return k;
    }
    // A key and a value of d values per KV head, layer and token (Pope et al. 2022, sec. 2.1):
    // 2·L·g·d elements, g = heads for multi-head attention (Vaswani et al. 2017), 1 for
    // multi-query (Shazeer 2019), the groups of grouped-query attention in between (Ainslie et
    // al. 2023, sec. 2.2).
    const double g = dbl(m.effective_kv_heads());
    const double d = dbl(m.effective_head_dim());
    k.kind = m.effective_kv_heads() == m.heads ? AttentionKind::mha
             : m.effective_kv_heads() == 1     ? AttentionKind::mqa
                                               : AttentionKind::gqa;
    k.values_per_token_per_layer = 2.0 * g * d;
    k.bytes_per_token = layers * k.values_per_token_per_layer * bytes;
    // tp GPUs split the KV heads; with more GPUs than KV heads each head is copied to tp / g GPUs
    // and every GPU keeps one (Megatron-LM and vLLM replicate KV heads this way).
    k.kv_heads_per_gpu = std::max(g / dbl(tp), 1.0);
    k.bytes_per_token_per_gpu = layers * 2.0 * k.kv_heads_per_gpu * d * bytes;
    return k;
}

std::optional<FieldError> check_inference(const PlanSpec& spec, const HardwareProfile& hw) {
    if (auto e = check(spec, hw)) {
        return e;
    }
    const ModelSpec& m = spec.model;
    const InferenceSpec& in = spec.inference;
    auto err = [](std::string field, auto value, std::string allowed) {
        return std::optional<FieldError>(
            FieldError{std::move(field), fmt::format("{}", value), std::move(allowed)});
    };
    if (m.kind != ModelKind::transformer) {
        return err("model.kind", to_string(m.kind),
                   "serving needs a transformer's dimensions (a preset, hf_config or layers, "
                   "hidden, heads, vocab) to size its KV cache");
    }
    if (m.heads % in.tp != 0) {
        return err(
            "inference.tp", in.tp,
            fmt::format("must divide model.heads ({}) so every GPU holds whole heads", m.heads));
    }
    const std::int64_t g = m.effective_kv_heads();
    if (!m.mla.enabled() && g % in.tp != 0 && in.tp % g != 0) {
        return err("inference.tp", in.tp,
                   fmt::format("must divide model.kv_heads ({}) or be a multiple of it", g));
    }
    if (spec.cluster.gpus % in.tp != 0) {
        return err("inference.tp", in.tp,
                   fmt::format("must divide cluster.gpus ({}): each replica of the model takes "
                               "tp GPUs",
                               spec.cluster.gpus));
    }
    if (in.tp > 1 && !(hw.interconnect_bytes_per_s > 0.0)) {
        return err("inference.tp", in.tp,
                   fmt::format("{} lists no interconnect bandwidth, so tensor parallelism cannot "
                               "be timed; use tp 1 or a profile with one",
                               hw.name));
    }
    return std::nullopt;
}

ServingMemory serving_memory(const PlanSpec& spec, const HardwareProfile& hw, std::int64_t batch) {
    return memory_at(make_context(spec, hw), dbl(batch));
}

std::int64_t max_serving_batch(const PlanSpec& spec, const HardwareProfile& hw) {
    return max_batch_of(make_context(spec, hw));
}

ServingPlan evaluate_inference(const PlanSpec& spec, const HardwareProfile& hw) {
    const Context c = make_context(spec, hw);
    const InferenceSpec& in = spec.inference;
    const double batch = dbl(in.batch);
    ServingPlan s;
    s.replicas = spec.cluster.gpus / in.tp;
    s.gemm_type = c.gemm_type;
    s.attention_type = c.attention_type;
    s.gemm_peak_flops_per_s = c.gemm_peak;
    s.attention_peak_flops_per_s = c.attention_peak;
    s.bandwidth_bytes_per_s = hw.bandwidth_bytes_per_s * memory_fraction(hw);
    s.link_bytes_per_s = c.link_bytes_per_s;
    s.params_total = c.f.params_total;
    s.params_active = c.f.params_active;
    s.activation_values_per_token = c.f.activation_values_per_token;
    s.kv = c.kv;
    s.memory = memory_at(c, batch);
    s.max_batch = max_batch_of(c);
    s.critical_batch = critical_batch_of(c);
    const Throughput t = throughput_at(c, batch);
    s.prefill = t.prefill;
    s.prefill_s = t.prefill_s;
    s.decode = t.decode;
    s.decode_step_s = t.decode.seconds;
    s.decode_total_s = t.decode_total_s;
    s.request_s = t.request_s;
    s.tokens_per_s = t.tokens_per_s;
    s.per_sequence_tokens_per_s = s.decode_step_s > 0.0 ? 1.0 / s.decode_step_s : 0.0;
    s.price_per_gpu_hour =
        spec.cluster.price_per_gpu_hour ? spec.cluster.price_per_gpu_hour : hw.price_per_gpu_hour;
    if (s.price_per_gpu_hour && s.tokens_per_s > 0.0) {
        // The deployment's cost per second over the tokens it produces per second.
        const double per_s = *s.price_per_gpu_hour * dbl(spec.cluster.gpus) / 3600.0;
        s.cost_per_million_tokens = per_s / s.tokens_per_s * 1e6;
    }
    auto warn = [&s](ServingWarning w) { s.warnings |= static_cast<std::uint32_t>(w); };
    if (!s.memory.fits) {
        warn(ServingWarning::does_not_fit);
    }
    if (c.spans_nodes) {
        warn(ServingWarning::tp_spans_nodes);
    }
    if (s.decode.comm_s > 0.25 * s.decode_step_s) {
        warn(ServingWarning::comm_dominates);
    }
    if (!c.native) {
        warn(ServingWarning::weight_dtype_not_native);
    }
    return s;
}

std::vector<ServingCurvePoint> serving_curve(const PlanSpec& spec, const HardwareProfile& hw) {
    const Context c = make_context(spec, hw);
    const std::int64_t max_batch = max_batch_of(c);
    const std::int64_t critical = critical_batch_of(c);
    const std::int64_t top = std::min(
        kMaxCurveBatch, 2 * std::max({spec.inference.batch, max_batch, critical, std::int64_t{1}}));
    std::vector<std::int64_t> batches;
    for (std::int64_t b = 1; b <= top; b *= 2) {
        batches.push_back(b);
    }
    for (std::int64_t b : {spec.inference.batch, max_batch, critical}) {
        if (b >= 1 && b <= kMaxCurveBatch) {
            batches.push_back(b);
        }
    }
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    std::vector<ServingCurvePoint> out;
    out.reserve(batches.size());
    for (std::int64_t b : batches) {
        const Throughput t = throughput_at(c, dbl(b));
        const ServingMemory m = memory_at(c, dbl(b));
        out.push_back({b, t.decode.seconds, t.tokens_per_s, m.total_bytes, m.fits});
    }
    return out;
}

std::vector<std::string> serving_warning_messages(const ServingPlan& s, const PlanSpec& spec,
                                                  const HardwareProfile& hw) {
    std::vector<std::string> out;
    if (s.has(ServingWarning::does_not_fit)) {
        out.push_back(fmt::format(
            "does not fit: {:.1f} GB needed per GPU, {} has {:.1f} GB; the largest batch that "
            "fits at {} tokens of context is {}",
            s.memory.total_bytes / 1e9, hw.name, s.memory.capacity_bytes / 1e9,
            spec.inference.prompt_tokens + spec.inference.output_tokens, s.max_batch));
    }
    if (s.has(ServingWarning::tp_spans_nodes)) {
        out.push_back(fmt::format(
            "tp {} spans nodes of {} GPUs: the all-reduces cross the network ({} per GPU)",
            spec.inference.tp, hw.gpus_per_node, tb_per_s_text(s.link_bytes_per_s)));
    }
    if (s.has(ServingWarning::comm_dominates)) {
        out.push_back(fmt::format(
            "tensor-parallel all-reduces take {:.0f}% of a decode step ({:.0f}% of them latency): "
            "at this batch a smaller tp or more replicas serve faster per GPU",
            100.0 * s.decode.comm_s / s.decode_step_s,
            s.decode.comm_s > 0.0 ? 100.0 * s.decode.comm_latency_s / s.decode.comm_s : 0.0));
    }
    if (s.has(ServingWarning::weight_dtype_not_native)) {
        out.push_back(
            fmt::format("{} has no {} peak: {} weights are read at their size but multiplied in {}",
                        hw.name, to_string(compute_type(spec.inference.weight_dtype)),
                        to_string(spec.inference.weight_dtype), to_string(s.gemm_type)));
    }
    return out;
}

std::vector<Explanation> explain_inference(const PlanSpec& spec, const HardwareProfile& hw,
                                           const ServingPlan& s) {
    const InferenceSpec& in = spec.inference;
    const ModelSpec& m = spec.model;
    const double context = dbl(in.prompt_tokens) + dbl(in.output_tokens);
    const double kvb = bytes_per_value(in.kv_dtype);
    const std::string kv_dtype(to_string(in.kv_dtype));
    std::vector<Explanation> out;
    auto add = [&out](std::string key, std::string label, double value, std::string unit,
                      std::string formula, std::string substitution, std::string source) {
        out.push_back({std::move(key), std::move(label), value, std::move(unit), std::move(formula),
                       std::move(substitution), std::move(source)});
    };
    if (s.kv.kind == AttentionKind::mla) {
        add("serving.kv_bytes_per_token", QT_TRANSLATE_NOOP("tally::explain", "KV cache per token"),
            s.kv.bytes_per_token, "bytes", "L x (kv_lora_rank + qk_rope_head_dim) x bytes",
            fmt::format("{} x ({} + {}) x {} B ({}) = {}", m.layers, m.mla.kv_lora_rank,
                        m.mla.qk_rope_head_dim, num(kvb), kv_dtype, num(s.kv.bytes_per_token)),
            "DeepSeek-V2 (Liu et al. 2024), sec. 2.1.4, Table 1; the latent is not split by tp");
    } else {
        add("serving.kv_bytes_per_token", QT_TRANSLATE_NOOP("tally::explain", "KV cache per token"),
            s.kv.bytes_per_token, "bytes", "2 x L x kv_heads x head_dim x bytes",
            fmt::format("2 x {} x {} x {} x {} B ({}) = {} ({})", m.layers, m.effective_kv_heads(),
                        m.effective_head_dim(), num(kvb), kv_dtype, num(s.kv.bytes_per_token),
                        to_string(s.kv.kind)),
            "Pope et al. 2022, sec. 2.1; GQA: Ainslie et al. 2023; MQA: Shazeer 2019");
    }
    add("serving.memory.weights_bytes", QT_TRANSLATE_NOOP("tally::explain", "Weights per GPU"),
        s.memory.weights_bytes, "bytes", "N x bytes(weight_dtype) / tp",
        fmt::format("{} x {} B ({}) / {} = {} GB", num(s.params_total),
                    num(bytes_per_value(in.weight_dtype)), to_string(in.weight_dtype), in.tp,
                    num(s.memory.weights_bytes / 1e9)),
        "Megatron-LM tensor parallelism (Shoeybi et al. 2019, sec. 3)");
    add("serving.memory.kv_cache_bytes", QT_TRANSLATE_NOOP("tally::explain", "KV cache per GPU"),
        s.memory.kv_cache_bytes, "bytes", "batch x (prompt + output) x KV bytes per token per GPU",
        fmt::format("{} x {} x {} B = {} GB", in.batch, num(context),
                    num(s.kv.bytes_per_token_per_gpu), num(s.memory.kv_cache_bytes / 1e9)),
        "the full context of every sequence of the batch");
    add("serving.memory.activation_bytes",
        QT_TRANSLATE_NOOP("tally::explain", "Activations per GPU"), s.memory.activation_bytes,
        "bytes",
        "max(prompt, batch) x (2h + (qkv + MLP widths) / tp) x 2 B + batch x vocab / tp x 4 B",
        fmt::format("max({}, {}) x {} x 2 B + {} x {} / {} x 4 B = {} GB", in.prompt_tokens,
                    in.batch, num(s.activation_values_per_token), in.batch, m.vocab, in.tp,
                    fig(s.memory.activation_bytes / 1e9)),
        "one layer's working set; nothing is kept for a backward pass");
    add("serving.memory.total_bytes", QT_TRANSLATE_NOOP("tally::explain", "Total per GPU"),
        s.memory.total_bytes, "bytes", "weights + KV cache + activations",
        fmt::format("{} + {} + {} = {} GB of {} GB", num(s.memory.weights_bytes / 1e9),
                    num(s.memory.kv_cache_bytes / 1e9), num(s.memory.activation_bytes / 1e9),
                    num(s.memory.total_bytes / 1e9), num(s.memory.capacity_bytes / 1e9)),
        s.memory.fits ? "fits" : "does not fit");
    add("serving.max_batch", QT_TRANSLATE_NOOP("tally::explain", "Largest batch that fits"),
        dbl(s.max_batch), "sequences",
        "largest B with weights + B x context x KV per token per GPU + activations(B) <= capacity",
        fmt::format("context {} tokens, {} GB capacity: B = {}", num(context),
                    num(s.memory.capacity_bytes / 1e9), s.max_batch),
        "bisection on the memory above");
    add("serving.prefill_s", QT_TRANSLATE_NOOP("tally::explain", "Time to first token"),
        s.prefill_s, "s",
        "batch x (max(2 N P / tp / peak, weights / bandwidth) + max(attention FLOPs / peak, KV "
        "written / bandwidth) + 2 L all-reduces)",
        fmt::format("{} x ({} + {} + {} s) = {} s", in.batch, fig(s.prefill.gemm_s),
                    fig(s.prefill.attention_s), fig(s.prefill.comm_s), fig(s.prefill_s)),
        "attention: L a (d_qk + d_v) P (P + 1) FLOPs, causal (PaLM, Chowdhery et al. 2022, app. "
        "B); roofline at achieved peaks (planner/hardware/efficiency.h)");
    add("serving.decode_step_s", QT_TRANSLATE_NOOP("tally::explain", "Decode step"),
        s.decode_step_s, "s",
        "max(2 N B / tp / peak, weights read / bandwidth) + max(attention FLOPs / peak, B x "
        "context x KV per token / bandwidth) + 2 L all-reduces",
        fmt::format("max({}, {}) + max({}, {}) + {} s = {} s", fig(s.decode.gemm_compute_s),
                    fig(s.decode.gemm_memory_s), fig(s.decode.attention_compute_s),
                    fig(s.decode.attention_memory_s), fig(s.decode.comm_s), fig(s.decode_step_s)),
        fmt::format("Pope et al. 2022, sec. 3.1; GEMMs in {} at {} achieved, memory at {} "
                    "achieved",
                    to_string(s.gemm_type), tflops_text(s.gemm_peak_flops_per_s),
                    tb_per_s_text(s.bandwidth_bytes_per_s)));
    add("serving.decode.comm_s", QT_TRANSLATE_NOOP("tally::explain", "All-reduces per decode step"),
        s.decode.comm_s, "s",
        "2 L x (2 (p - 1) / p x B h 2 B / link + 6.6 us + 2 (p - 1) x step latency)",
        fmt::format("{} x ring all-reduce of {} B over {} GPUs at {} = {} s ({} s of it latency)",
                    num(s.decode.all_reduces), num(s.decode.all_reduce_bytes), in.tp,
                    tb_per_s_text(s.link_bytes_per_s), fig(s.decode.comm_s),
                    fig(s.decode.comm_latency_s)),
        "ring all-reduce (Patarasuk & Yuan 2009; Thakur et al. 2005); latencies from NCCL's "
        "tuning model (src/graph/tuning.cc)");
    add("serving.tokens_per_s", QT_TRANSLATE_NOOP("tally::explain", "Throughput"), s.tokens_per_s,
        "tokens/s", "replicas x batch x output / (prefill + output steps)",
        fmt::format("{} x {} x {} / ({} + {} s) = {}", s.replicas, in.batch, in.output_tokens,
                    fig(s.prefill_s), fig(s.decode_total_s), fig(s.tokens_per_s)),
        "output tokens of the whole deployment");
    add("serving.per_sequence_tokens_per_s",
        QT_TRANSLATE_NOOP("tally::explain", "Tokens per second per sequence"),
        s.per_sequence_tokens_per_s, "tokens/s", "1 / decode step",
        fmt::format("1 / {} s = {}", fig(s.decode_step_s), fig(s.per_sequence_tokens_per_s)),
        "at the final context");
    if (s.cost_per_million_tokens) {
        add("serving.cost_per_million_tokens",
            QT_TRANSLATE_NOOP("tally::explain", "Cost per million output tokens"),
            *s.cost_per_million_tokens, "currency",
            "price per GPU-hour x GPUs / 3600 / tokens per s x 1e6",
            fmt::format("{} x {} / 3600 / {} x 1e6 = {}", num(*s.price_per_gpu_hour),
                        spec.cluster.gpus, fig(s.tokens_per_s), fig(*s.cost_per_million_tokens)),
            spec.cluster.price_per_gpu_hour ? "cluster.price_per_gpu_hour"
                                            : "the hardware profile's price");
    }
    add("serving.critical_batch", QT_TRANSLATE_NOOP("tally::explain", "Critical batch"),
        dbl(s.critical_batch), "sequences",
        "smallest B with 2 N_matmul B / peak >= weights read / bandwidth",
        fmt::format(
            "{} ({} at {} over {}: ridge {} FLOP per byte)", s.critical_batch,
            to_string(s.gemm_type), tflops_text(s.gemm_peak_flops_per_s),
            tb_per_s_text(s.bandwidth_bytes_per_s),
            fig(s.bandwidth_bytes_per_s > 0.0 ? s.gemm_peak_flops_per_s / s.bandwidth_bytes_per_s
                                              : 0.0)),
        "roofline ridge (Williams et al. 2009); decode turns compute-bound beyond it");
    (void)hw;
    return out;
}

}  // namespace tally
