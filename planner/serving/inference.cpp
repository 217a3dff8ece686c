// Serving plans (planner/serving/inference.h): KV cache, prefill and decode on the roofline,
// throughput, cost and the batch limits.
#include "planner/serving/inference.h"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>

#include "planner/core/enum_names.h"
#include "planner/core/quantity_text.h"
#include "planner/hardware/efficiency.h"
#include "planner/model/attention_span.h"
#include "planner/model/model_shape.h"
#include "planner/performance/engine.h"
#include "planner/serving/serving_engine.h"
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
    double moe_layers = 0.0;
    double attention_params = 0.0;  // one layer's attention weights
    double head_params = 0.0;       // the output head, vocab x h
    double lookup_params = 0.0;     // looked-up tables: an untied embedding, learned positions

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
    // A served model leaves its multi-token-prediction modules out (DeepSeek-V3 Technical
    // Report, sec. 2.2, "MTP in Inference": "we can directly discard these MTP modules"); Tally
    // does not model the speculative decoding that could use them.
    // (A copy only then: a plan evaluates this on every drag of a slider.)
    const ParamCounts p = m.mtp_layers == 0 ? count_params(m) : [&m] {
        ModelSpec served = m;
        served.mtp_layers = 0;
        return count_params(served);
    }();
    f.params_total = p.total;
    f.params_active = p.active;
    const double lookup =
        (m.tied_embeddings ? 0.0 : f.vocab * f.hidden) + dbl(m.learned_positions) * f.hidden;
    f.matmul_active = p.active - lookup;
    f.attention_params = attention_params(m);
    f.head_params = f.vocab * f.hidden;
    f.lookup_params = lookup;
    if (m.moe.enabled()) {
        f.moe_layers = dbl(m.layers - dense_layer_count(m));
        f.experts = dbl(m.moe.experts);
        f.active_experts = dbl(m.moe.active_experts);
        f.routed_total = f.moe_layers * f.experts * mlp_params(m, m.effective_expert_ffn());
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

// The weights a pass over `tokens` tokens reads, per GPU, in bytes: the output head at
// `head_bytes` a weight (spec.h, OutputHead), the rest at `weight_bytes`.
double weight_bytes_read(const ModelFigures& f, double tokens, double weight_bytes,
                         double head_bytes, double tp) {
    return ((f.read_always - f.head_params + f.routed_total * routed_share(f, tokens)) *
                weight_bytes +
            f.head_params * head_bytes) /
           tp;
}

// Bytes one weight takes in `dtype`: weight-only formats add their group scales. GPTQ (Frantar et
// al. 2023, sec. 4) and AWQ (Lin et al. 2024, sec. 3) store one 16-bit scale per group of
// `group` weights (and AWQ a 4-bit zero point, counted here for both): (2 + 0.5) / group bytes
// per weight on top of the packed values. fp8 and NVFP4 / MXFP4 carry their own scales in
// bytes_per_value (dtype.h).
double stored_weight_bytes(DType dtype, std::int64_t group) {
    const double packed = bytes_per_value(dtype);
    if ((dtype == DType::int4 || dtype == DType::int8) && group > 0) {
        return packed + 2.5 / dbl(group);
    }
    return packed;
}

// The custom all-reduce reads its peers' buffers over NVLink, so engines use it only where every
// GPU of the group reaches every other by NVLink within a node (vLLM's custom_all_reduce.py turns
// it off for more than two PCIe-only GPUs; a 2-GPU bridge joins only pairs): NCCL elsewhere.
AllReduceKind all_reduce_kind(const PlanSpec& spec, const HardwareProfile& hw) {
    const std::string_view link = hw.interconnect_name;
    const std::int64_t tp = spec.inference.tp;
    const bool in_node = !(hw.gpus_per_node > 0 && tp > hw.gpus_per_node);
    const bool nvlink_group =
        link.substr(0, 6) == "NVLink" && in_node && (!hw.nvlink_bridged() || tp <= 2);
    return nvlink_group ? serving_engine_profile(spec.inference.engine).all_reduce
                        : AllReduceKind::nccl;
}

// Everything the phase timings share.
struct Context {
    const PlanSpec& spec;
    const HardwareProfile& hw;
    const ServingEngineProfile& engine;
    ModelFigures f;
    KvCacheShape kv;
    double tp = 1.0;
    double pp = 1.0;
    double ep = 1.0;
    double weight_bytes = 2.0;  // per weight, scales included
    ComputeType gemm_type = ComputeType::bf16;
    ComputeType attention_type = ComputeType::bf16;
    bool native = true;
    bool weight_only = false;  // int4 / int8: dequantized in the GEMM's main loop
    // The output head as the quantized checkpoint keeps it (spec.h, OutputHead): its bytes a
    // weight, the rates of the type it multiplies in and whether it is dequantized; and the
    // looked-up tables' bytes a weight (16-bit whenever the weights are quantized).
    bool head_16bit = false;
    double head_bytes = 2.0;
    AchievedRates head_rates{};
    bool head_weight_only = false;
    double lookup_bytes = 2.0;
    double gemm_peak = 0.0;       // achieved FLOP/s
    double attention_peak = 0.0;  // achieved FLOP/s
    // The prefill attention kernel (the engine's for the part's generation), the 16-bit peak its
    // published fractions are of, and the head dimension they are read at.
    AttentionKernel prefill_kernel = AttentionKernel::flash2;
    GpuGeneration generation = GpuGeneration::other;
    double attention_16bit_peak = 0.0;
    double attention_head_dim = 128.0;
    double dequant_flops_per_s = 0.0;    // CUDA-core rate the dequantization runs at
    AchievedRates rates{};               // the GEMM dtype's, with the part's SM count
    double bandwidth = 0.0;              // achieved bytes/s
    double link_bytes_per_s = 0.0;       // the datasheet's, per direction
    double nccl_link_bytes_per_s = 0.0;  // NCCL's figure for the same link (serving_engine.h)
    CollectiveLink link = CollectiveLink::nvlink;  // what the tp group's collectives cross
    bool spans_nodes = false;
    bool spans_bridge = false;  // more GPUs than an NVLink bridge joins: the ring crosses PCIe
    AllReduceKind all_reduce = AllReduceKind::nccl;  // the engine's, where the link allows it
    double host_step_s = 0.0;  // a step's host pause: inference.host_step_s, else the engine's
    // The positions of KV cache a sequence holds at its final context, prompt + output, averaged
    // over the layers (a sliding-window layer keeps its last W; memory_at()), once per plan:
    // memory_at() runs at every step of the batch searches.
    double cached_positions = 0.0;
};

Context make_context(const PlanSpec& spec, const HardwareProfile& hw) {
    const InferenceSpec& in = spec.inference;
    Context c{spec, hw, serving_engine_profile(in.engine), model_figures(spec.model, in.tp),
              kv_cache_shape(spec.model, in.kv_dtype, in.tp)};
    c.tp = dbl(in.tp);
    c.pp = dbl(in.pp);
    c.ep = dbl(in.ep);
    c.weight_bytes = stored_weight_bytes(in.weight_dtype, in.quant_group_size);
    c.gemm_type = gemm_type_of(in.weight_dtype, hw, &c.native);
    c.weight_only = in.weight_dtype == DType::int4 ||
                    (in.weight_dtype == DType::int8 && c.gemm_type != ComputeType::int8);
    c.attention_type = attention_type_of(hw);
    c.generation = gpu_generation(hw);
    c.prefill_kernel = c.generation == GpuGeneration::hopper ? c.engine.prefill_attention_hopper
                                                             : c.engine.prefill_attention_other;
    c.attention_16bit_peak = hw.peak(c.attention_type);
    c.attention_head_dim = attention_head_dim(spec.model);
    c.cached_positions =
        mean_keys_per_query(spec.model, dbl(in.prompt_tokens) + dbl(in.output_tokens));
    c.dequant_flops_per_s = hw.peak(ComputeType::fp32);
    // The achieved rates, resolved once (efficiency.h): peak x GEMM fraction, bandwidth x memory
    // fraction.
    c.rates = achieved_rates(hw, c.gemm_type);
    c.gemm_peak = c.rates.gemm_flops_per_s;
    const AchievedRates attention_rates =
        c.attention_type == c.gemm_type ? c.rates : achieved_rates(hw, c.attention_type);
    c.attention_peak = attention_rates.gemm_flops_per_s;
    // Weights kept 16-bit by a quantized checkpoint take a bf16 value's bytes.
    const double sixteen_bit = bytes_per_value(DType::bf16);
    const bool quantized = c.weight_bytes < sixteen_bit;
    const bool head_quantized = in.output_head == OutputHead::engine
                                    ? c.engine.quantizes_head
                                    : in.output_head == OutputHead::quantized;
    c.head_16bit = quantized && !head_quantized;
    c.head_bytes = c.head_16bit ? sixteen_bit : c.weight_bytes;
    c.head_rates = c.head_16bit ? attention_rates : c.rates;
    c.head_weight_only = !c.head_16bit && c.weight_only;
    c.lookup_bytes = quantized ? sixteen_bit : c.weight_bytes;
    c.bandwidth = c.rates.memory_bytes_per_s;
    const std::int64_t replica_span = in.tp;
    c.spans_nodes = hw.gpus_per_node > 0 && replica_span > hw.gpus_per_node;
    c.link_bytes_per_s = c.spans_nodes && hw.inter_node_bytes_per_s > 0.0
                             ? hw.inter_node_bytes_per_s
                             : hw.interconnect_bytes_per_s;
    c.link = c.spans_nodes                                   ? CollectiveLink::network
             : hw.interconnect_name.substr(0, 6) == "NVLink" ? CollectiveLink::nvlink
                                                             : CollectiveLink::pci;
    // An NVLink bridge joins two cards: a ring over more of them crosses each card's PCIe link
    // to the host as well, the slowest link in it.
    const bool bridged = hw.nvlink_bridged();
    if (!c.spans_nodes && bridged && in.tp > 2 && hw.host_bytes_per_s > 0.0) {
        c.link_bytes_per_s = hw.host_bytes_per_s;
        c.link = CollectiveLink::pci;
        c.spans_bridge = true;
    }
    const bool pcie = c.link == CollectiveLink::pci &&
                      (bridged || hw.interconnect_name.find("PCIe") != std::string::npos);
    c.nccl_link_bytes_per_s =
        c.link_bytes_per_s *
        (c.link == CollectiveLink::nvlink
             ? (c.generation == GpuGeneration::hopper      ? kNcclNvlinkShareSm90
                : c.generation == GpuGeneration::blackwell ? kNcclNvlinkShareSm100
                                                           : kNcclNvlinkShareSm80)
         : pcie ? kNcclPcieShare
                : 1.0);
    c.all_reduce = all_reduce_kind(spec, hw);
    c.host_step_s = in.host_step_s.value_or(c.engine.host_step_s);
    return c;
}

double compute_s(double flops, double achieved_flops_per_s) {
    return achieved_flops_per_s > 0.0 ? flops / achieved_flops_per_s : 0.0;
}

// The engine's prefill kernel on this part: FlashAttention-3 runs only on Hopper (Shah et al.
// 2024, sec. 1), elsewhere FlashAttention-2.
AttentionKernel resolved_prefill_kernel(const Context& c) {
    return c.prefill_kernel == AttentionKernel::flash3 && c.generation != GpuGeneration::hopper
               ? AttentionKernel::flash2
               : c.prefill_kernel;
}

// The prefill attention kernel's FLOP/s over `keys` keys: its published fraction of the 16-bit
// peak at that length and the model's head dimension (engine.h: the FlashAttention-3 paper's H100
// figures). Prefill attention is bound by its kernel's throughput, not the GEMMs' (FlashAttention-2
// reaches "only 35% utilization on the H100", Shah et al. 2024, abstract).
double prefill_attention_flops_per_s(const Context& c, double keys) {
    const double rate = c.attention_16bit_peak *
                        model_attention_fraction(resolved_prefill_kernel(c), c.generation,
                                                 c.spec.model, keys, c.attention_head_dim, false);
    return rate > 0.0 ? rate : c.attention_peak;
}

double bytes_s(const Context& c, double bytes) {
    return c.bandwidth > 0.0 ? bytes / c.bandwidth : 0.0;
}

// The floor of one kernel: graph-launched while the engine replays this many sequences' step as
// a CUDA graph, stream-launched otherwise (serving_engine.h).
double kernel_floor_s(const Context& c, double sequences) {
    return sequences <= dbl(c.engine.cuda_graph_max_batch) ? kGraphKernelFloorS
                                                           : kStreamKernelFloorS;
}

// `count` GEMMs of `m` tokens by a `k x n` weight matrix read from memory (`weight_elems` weights
// read in all, at c.weight_bytes each; fewer than count·k·n for routed experts that no token
// picks). Compute: whole waves of output tiles on the part's SMs (gemm_time_shaped(),
// planner/hardware/efficiency.h: the NVIDIA Deep Learning Performance Guide's tile and wave
// quantization), or the part's published rate of that shape where it has one (gemm_shapes.h).
// Memory: the weights read once plus the activations in and out, 16-bit. Weight-only formats are
// unpacked and scaled on the CUDA cores for every tile row of 128 tokens the kernel computes
// (Marlin, Frantar et al. 2024, sec. 3: dequantization overlaps the loads and the tensor cores), 2
// operations a weight (a lop3 unpack and a fused scale; Kim et al. 2022, "Who Says Elephants Can't
// Run", sec. 4.2). The three run concurrently, so the slowest sets the time (Williams et al. 2009),
// at least one kernel's floor.
struct GemmParts {
    double compute_s = 0.0;
    double memory_s = 0.0;
    double seconds = 0.0;
};
// The weights' format here: `bytes` a weight, multiplied at `rates`, dequantized if
// `weight_only`; weight_gemm() below uses the transformer layers' (the output head has its own,
// Context::head_*).
GemmParts weight_gemm_as(const Context& c, double bytes, const AchievedRates& rates,
                         bool weight_only, double count, double m, double n, double k,
                         double weight_elems, double floor_s) {
    GemmParts g;
    if (count <= 0.0 || m <= 0.0) {
        return g;
    }
    g.compute_s = gemm_time_shaped(rates, count, m, n, k, kActivationBytes).compute_s;
    const double activations = count * m * (n + k) * kActivationBytes;
    g.memory_s = bytes_s(c, weight_elems * bytes + activations);
    double dequant_s = 0.0;
    if (weight_only && c.dequant_flops_per_s > 0.0) {
        dequant_s = weight_elems * std::ceil(m / 128.0) * 2.0 / c.dequant_flops_per_s;
    }
    g.seconds = std::max({g.compute_s, g.memory_s, dequant_s, floor_s});
    return g;
}
GemmParts weight_gemm(const Context& c, double count, double m, double n, double k,
                      double weight_elems, double floor_s) {
    return weight_gemm_as(c, c.weight_bytes, c.rates, c.weight_only, count, m, n, k, weight_elems,
                          floor_s);
}

// The KV cache one GPU of the tp group keeps for a token it holds, over every layer (a stage
// keeps its 1/pp): its share of the KV heads under tensor parallelism; with data-parallel
// attention, every KV head, since the GPU attends its own sequences whole (LMSYS, "SGLang v0.4",
// 2024). MLA's latent is whole on every GPU either way.
double kv_token_bytes(const Context& c) {
    return c.spec.inference.dp_attention ? c.kv.bytes_per_token : c.kv.bytes_per_token_per_gpu;
}

// The share of the batch's sequences (and tokens) whose KV cache one GPU holds: all of them, or
// its 1/tp with data-parallel attention.
double kv_sequence_share(const Context& c) {
    return c.spec.inference.dp_attention ? 1.0 / c.tp : 1.0;
}

// With data-parallel attention each GPU of the tp group attends whole sequences of its own, and
// a step waits for the busiest: ceil(n / tp) of n sequences, all of them where n <= 1 (a
// fraction of a sequence is a mean over the steps). The others wait: the tp group's MLP or MoE
// layers that follow take every GPU's tokens at once (vLLM's data-parallel deployment guide:
// ranks without a request run dummy passes to keep in step). The factor over the even split
// n / tp that the KV cache, its reads and the attention's FLOPs are otherwise counted at; 1
// without data-parallel attention.
double busiest_attention_share(const Context& c, double sequences) {
    if (!c.spec.inference.dp_attention || !(sequences > 0.0)) {
        return 1.0;
    }
    const double even = sequences / c.tp;
    const double busiest = std::max(even, std::min(sequences, std::ceil(even - 1e-9)));
    return busiest / even;
}

// One pass over `tokens` tokens of `sequences` sequences on one GPU of a replica: every layer of
// its pipeline stage (L / pp of them) runs its weight GEMMs, attention (`attention_flops` of
// decoding queries and `prefill_flops` of prompt tokens over `prefill_keys` keys, `kv_bytes`
// moved, all for the whole stage), the engine's small kernels and two all-reduces of the hidden
// state (Megatron-LM, Shoeybi et al. 2019, sec. 3); the last stage adds the output head for
// `logit_tokens` tokens and the step's own kernels. The parts run one after another.
ServingPhase time_phase(const Context& c, double tokens, double sequences, double logit_tokens,
                        double context, double attention_flops, double kv_bytes,
                        double prefill_flops = 0.0, double prefill_keys = 0.0) {
    const ModelSpec& m = c.spec.model;
    const ModelFigures& f = c.f;
    const double floor = kernel_floor_s(c, sequences);
    const double layers = f.layers / c.pp;
    ServingPhase p;
    p.tokens = tokens;
    p.context = context;

    // The weight GEMMs of one layer. Dense attention: QKV (h -> (a + 2g) d / t) and the output
    // projection (a d / t -> h). MLA and other attention: its parameters as one h -> N / (h t)
    // GEMM (the per-layer weights are what decode reads; the shape only sets the waves).
    const double t = c.tp;
    const double h = f.hidden;
    double attention_s = 0.0, attention_c = 0.0, attention_m = 0.0;
    auto add = [](double& s, double& cs, double& ms, const GemmParts& g) {
        s += g.seconds;
        cs += g.compute_s;
        ms += g.memory_s;
    };
    // Data-parallel attention: each GPU runs the whole attention block on its 1/t of the tokens.
    const bool dp = c.spec.inference.dp_attention;
    const double ta = dp ? 1.0 : t;
    const double attention_tokens =
        dp ? tokens / t * busiest_attention_share(c, sequences) : tokens;
    if (!m.mla.enabled()) {
        const double qkv_n = (f.heads + 2.0 * dbl(m.effective_kv_heads())) * f.d_qk / ta;
        const double o_k = f.heads * f.d_v / ta;
        add(attention_s, attention_c, attention_m,
            weight_gemm(c, 1.0, attention_tokens, qkv_n, h, h * qkv_n, floor));
        add(attention_s, attention_c, attention_m,
            weight_gemm(c, 1.0, attention_tokens, h, o_k, o_k * h, floor));
    } else {
        const double n = f.attention_params / h / ta;
        add(attention_s, attention_c, attention_m,
            weight_gemm(c, 2.0, attention_tokens, n / 2.0, h, h * n, floor));
    }
    // The MLP: up (and gate) h -> gated f / t, down f / t -> h.
    const double gated = m.ffn == FfnKind::swiglu ? 2.0 : 1.0;
    double dense_s = 0.0, dense_c = 0.0, dense_m = 0.0;
    const double f_t = dbl(m.ffn_hidden) / t;
    add(dense_s, dense_c, dense_m,
        weight_gemm(c, 1.0, tokens, gated * f_t, h, h * gated * f_t, floor));
    add(dense_s, dense_c, dense_m, weight_gemm(c, 1.0, tokens, h, f_t, f_t * h, floor));
    // A mixture-of-experts layer: the shared experts as a dense MLP; the routed ones spread over
    // ep GPUs (each split over t / ep), each touched expert getting the tokens routed to it.
    double moe_s = 0.0, moe_c = 0.0, moe_m = 0.0;
    // Values a mixture-of-experts layer's activation writes: its routed and shared experts'
    // widths over their tokens (set below).
    double moe_act_values = 0.0;
    if (f.experts > 0.0) {
        const double fe = dbl(m.effective_expert_ffn());
        const double shared_t = dbl(m.moe.shared_experts) * fe / t;
        if (shared_t > 0.0) {
            add(moe_s, moe_c, moe_m,
                weight_gemm(c, 1.0, tokens, gated * shared_t, h, h * gated * shared_t, floor));
            add(moe_s, moe_c, moe_m, weight_gemm(c, 1.0, tokens, h, shared_t, shared_t * h, floor));
        }
        const double share = routed_share(f, tokens);
        const double local = f.experts / c.ep;
        const double touched = std::max(local * share, 1.0);
        const double per_expert = tokens * f.active_experts / f.experts / std::max(share, 1e-300);
        const double fe_t = fe / (t / c.ep);
        add(moe_s, moe_c, moe_m,
            weight_gemm(c, touched, per_expert, gated * fe_t, h, touched * h * gated * fe_t,
                        floor));
        add(moe_s, moe_c, moe_m,
            weight_gemm(c, touched, per_expert, h, fe_t, touched * fe_t * h, floor));
        moe_act_values = touched * per_expert * fe_t + tokens * shared_t;
    }
    const double moe_layers = f.experts > 0.0 ? f.moe_layers / c.pp : 0.0;
    const double dense_layers = layers - moe_layers;
    // The output head on the last stage, for the tokens whose logits are sampled.
    const GemmParts head = weight_gemm_as(c, c.head_bytes, c.head_rates, c.head_weight_only, 1.0,
                                          logit_tokens, f.vocab / t, h, h * f.vocab / t, floor);

    p.gemm_flops = 2.0 * tokens * (f.matmul_active - f.head_params) / t / c.pp +
                   2.0 * logit_tokens * f.head_params / t;
    p.weight_bytes = weight_bytes_read(f, tokens, c.weight_bytes, c.head_bytes, t) / c.pp +
                     (dp ? layers * f.attention_params * (1.0 - 1.0 / t) * c.weight_bytes : 0.0);
    // The head and the step's own kernels run once a pass, on the last stage: a stage carries
    // 1/pp of them, so pp stage times count them once.
    p.gemm_compute_s =
        layers * attention_c + dense_layers * dense_c + moe_layers * moe_c + head.compute_s / c.pp;
    p.gemm_memory_s =
        layers * attention_m + dense_layers * dense_m + moe_layers * moe_m + head.memory_s / c.pp;
    p.gemm_s =
        layers * attention_s + dense_layers * dense_s + moe_layers * moe_s + head.seconds / c.pp;

    // Attention over the stage's layers, one kernel a layer: decoding queries' FLOPs at the
    // achieved 16-bit rate, prompt tokens' at the prefill kernel's published rate over their
    // keys, the KV cache at the achieved bandwidth (decode kernels stream it: FlashInfer, Ye et
    // al. 2025, sec. 4), at least the floor.
    p.attention_flops = (attention_flops + prefill_flops) / c.pp;
    p.kv_bytes = kv_bytes / c.pp;
    p.attention_compute_s =
        compute_s(attention_flops / c.pp, c.attention_peak) +
        (prefill_flops > 0.0
             ? compute_s(prefill_flops / c.pp, prefill_attention_flops_per_s(c, prefill_keys))
             : 0.0);
    p.attention_memory_s = bytes_s(c, p.kv_bytes);
    p.attention_s = std::max({p.attention_compute_s, p.attention_memory_s, layers * floor});

    // The engine's small kernels (norms, rotary embedding, KV write): each reads and writes the
    // tokens' hidden state once, 16-bit, at least the floor. One of them in every engine's count
    // is the MLP's activation (serving_engine.cpp), which reads the up (and gate) projections'
    // outputs and writes their product: (gated + 1) values of the MLP's width per token, 16-bit,
    // as the training step counts it (planner/performance/performance.cpp,
    // transformer_layer_bytes()). With thousands of prompt tokens in a pass it moves more than
    // the other small kernels together (Llama 2 7B: 3 x 11008 values a token against 2 x 4096).
    // And the step's own kernels, and the host pause the step waits for (once a step: each
    // stage carries 1 / pp of it, and a step counts pp stage times).
    double small = c.engine.small_kernels_per_layer;
    if (c.spec.inference.tp > 1 && c.engine.fused_all_reduce_norm) {
        small = std::max(0.0, small - 2.0);
    }
    const double activation_kernels = std::min(small, 1.0);
    const double small_one = std::max(floor, bytes_s(c, 2.0 * tokens * h * kActivationBytes));
    const double activation_io = (gated + 1.0) * kActivationBytes;
    const double dense_activation_s = std::max(floor, bytes_s(c, tokens * f_t * activation_io));
    const double moe_activation_s = std::max(floor, bytes_s(c, moe_act_values * activation_io));
    // QK-norm (ModelSpec::qk_norm): two more small kernels a layer, the queries' norm and the
    // keys' (vLLM's and SGLang's models/qwen3.py call q_norm and k_norm in turn), each reading and
    // writing the GPU's heads of the tokens attention runs on.
    double qk_norm_s = 0.0;
    if (m.qk_norm && !m.mla.enabled()) {
        const double heads_q = f.heads / ta;
        const double heads_k = std::max(dbl(m.effective_kv_heads()) / ta, 1.0);
        const auto one = [&](double heads_here) {
            return std::max(
                floor, bytes_s(c, 2.0 * attention_tokens * heads_here * f.d_qk * kActivationBytes));
        };
        qk_norm_s = one(heads_q) + one(heads_k);
    }
    p.fixed_s =
        layers * ((small - activation_kernels) * small_one + qk_norm_s) +
        activation_kernels * (dense_layers * dense_activation_s + moe_layers * moe_activation_s) +
        (c.engine.small_kernels_per_step * floor + c.host_step_s) / c.pp;

    if (c.spec.inference.tp > 1) {
        p.all_reduces = 2.0 * layers;
        p.all_reduce_bytes = tokens * h * kActivationBytes;
        const ServingCollective one =
            serving_all_reduce(c.all_reduce, p.all_reduce_bytes, c.spec.inference.tp,
                               c.link_bytes_per_s, c.nccl_link_bytes_per_s, c.link);
        p.comm_bandwidth_s = p.all_reduces * one.bandwidth_s;
        p.comm_latency_s = p.all_reduces * one.latency_s;
        p.comm_s = p.all_reduces * one.seconds;
    }
    p.seconds = p.gemm_s + p.attention_s + p.fixed_s + p.comm_s;
    return p;
}

// Pipeline parallelism: a pass crosses pp stages one after another, each handing the next its
// tokens' hidden state (a point-to-point send: NCCL's base latency and the bytes over the link).
// A token's latency is pp stage times plus the sends; the stages work on pp micro-batches at
// once, so throughput is that of one stage (Narayanan et al. 2021, sec. 2.2).
double pipeline_send_s(const Context& c, double tokens) {
    if (c.pp <= 1.0) {
        return 0.0;
    }
    const double bytes = tokens * c.f.hidden * kActivationBytes;
    return (c.pp - 1.0) * (kServingAllReduceBaseLatencyS +
                           (c.link_bytes_per_s > 0.0 ? bytes / c.link_bytes_per_s : 0.0));
}

// Causal attention over a chunk of `chunk` prompt tokens that follows `done` tokens already
// cached: the query at position i scores i keys (2·d_qk FLOPs each) and sums i values (2·d_v),
// per head and layer, so L·a·(d_qk + d_v)·chunk·(2·done + chunk + 1) FLOPs (the forward third
// of PaLM's 12·L·H·Q·T, Chowdhery et al. 2022, appendix B, halved by the causal mask), split
// over tp by heads; a sliding-window layer's query scores min(i, W) keys (mean_key_pairs(),
// attention_span.h). The chunk writes its KV cache and, after the first, reads the cached part.
double prefill_attention_flops(const Context& c, double done, double chunk) {
    return 2.0 * c.f.layers * c.f.heads * (c.f.d_qk + c.f.d_v) *
           mean_key_pairs(c.spec.model, done, chunk) / c.tp;
}

// Prefill of `prompts` prompts of P tokens together (one pass; logits of each prompt's last
// token only, as engines gather them).
ServingPhase prefill_phase(const Context& c, double prompts) {
    const double p = dbl(c.spec.inference.prompt_tokens);
    const double tokens = prompts * p;
    const double busiest = busiest_attention_share(c, prompts);
    ServingPhase ph = time_phase(c, tokens, prompts, prompts, p, 0.0,
                                 tokens * kv_sequence_share(c) * kv_token_bytes(c) * busiest,
                                 prompts * prefill_attention_flops(c, 0.0, p) * busiest, p);
    const double send = pipeline_send_s(c, tokens);
    ph.seconds = c.pp * ph.seconds + send;
    ph.pipeline_s = send;
    return ph;
}

// A decode kernel that reads the cache once per query head (inference.decode_attention
// per_query_head: TensorRT-LLM's masked multi-head attention launches a thread block per query
// head and sequence, each streaming its KV head, decoderMaskedMultiheadAttentionLaunch.h; NVIDIA's
// XQA kernel exists to load each KV head once for its group, "reducing data loading", TensorRT-LLM
// blog "New XQA-kernel provides 2.4x more Llama-70B throughput", 2024) moves the KV bytes once
// per query head on the GPU: (a / tp) / KV heads per GPU times the cache. MLA's latent is read
// by kernels that serve every head at once.
double kv_reads_per_byte(const Context& c) {
    const InferenceSpec& in = c.spec.inference;
    if (in.decode_attention != DecodeAttention::per_query_head || c.spec.model.mla.enabled() ||
        c.kv.kv_heads_per_gpu <= 0.0) {
        return 1.0;
    }
    const double query_heads = in.dp_attention ? c.f.heads : c.f.heads / c.tp;
    const double kv_heads =
        in.dp_attention ? dbl(c.spec.model.effective_kv_heads()) : c.kv.kv_heads_per_gpu;
    return std::max(1.0, query_heads / kv_heads);
}

// KV cache one GPU reads for `sequences` sequences whose new tokens attend to `keys` keys (a
// mean over the layers, attention_span.h): with data-parallel attention each GPU of the tp group
// attends its own 1/tp of the sequences (LMSYS, "SGLang v0.4", 2024), so the MLA latent is no
// longer copied on every GPU; times the reads above.
double kv_read_bytes(const Context& c, double sequences, double keys) {
    return sequences * kv_sequence_share(c) * busiest_attention_share(c, sequences) * keys *
           kv_token_bytes(c) * kv_reads_per_byte(c);
}

// The keys a decode step's query attends to, averaged over the layers, for the steps after a
// prompt of `prompt` tokens: at step j (1..O) the context is P + j; a full layer attends to all
// of it, a sliding-window layer to min(P + j, W) (attention_span.h). `steps` 1: the step at
// context `prompt` + 1; O: the mean over the O steps (each part of a step is linear in the keys,
// so O steps at the mean keys take what the O steps take).
double decode_keys(const Context& c, double prompt, double steps) {
    return steps > 0.0 ? mean_key_pairs(c.spec.model, prompt, steps) / steps : 0.0;
}

// One decode step of `batch` sequences at `context` tokens whose new token attends to `keys`
// keys (decode_keys(); `context` where no layer is windowed): 2·a·(d_qk + d_v)·keys FLOPs per
// layer and sequence, and the batch's KV cache read once (Pope et al. 2022, sec. 3.1). With pp
// stages the batch runs as pp micro-batches of batch / pp: a token's step is pp stage times (each
// on batch / pp sequences) plus the sends.
ServingPhase decode_phase(const Context& c, double batch, double context, double keys) {
    const double micro = batch / c.pp;
    const double flops = 2.0 * c.f.layers * c.f.heads * (c.f.d_qk + c.f.d_v) * keys * micro / c.tp *
                         busiest_attention_share(c, micro);
    ServingPhase ph =
        time_phase(c, micro, micro, micro, context, flops, kv_read_bytes(c, micro, keys));
    const double send = pipeline_send_s(c, micro);
    ph.seconds = c.pp * ph.seconds + send;
    ph.pipeline_s = send;
    return ph;
}

// The tokens of one prefill pass of a static batch of `batch`: as many whole prompts as
// max_batched_tokens holds, at least one.
double prompts_per_pass(const InferenceSpec& in, double batch) {
    return std::min(batch,
                    std::max(1.0, std::floor(dbl(in.max_batched_tokens) / dbl(in.prompt_tokens))));
}

ServingMemory memory_at(const Context& c, double batch) {
    const InferenceSpec& in = c.spec.inference;
    ServingMemory m;
    // Every matrix is split over tp (Megatron-LM, Shoeybi et al. 2019, sec. 3; the embedding and
    // output head by vocabulary rows) and the layers over pp stages; the norms' few values per
    // channel are split too here, though real engines replicate them (under 0.01 % of a model's
    // weights). Data-parallel attention keeps every attention weight on every GPU of the group.
    // The output head and the looked-up tables at their own bytes (Context).
    m.weights_bytes = ((c.f.params_total - c.f.head_params - c.f.lookup_params) * c.weight_bytes +
                       c.f.head_params * c.head_bytes + c.f.lookup_params * c.lookup_bytes) /
                      (c.tp * c.pp);
    if (in.dp_attention) {
        m.weights_bytes +=
            c.f.layers * c.f.attention_params * (1.0 - 1.0 / c.tp) * c.weight_bytes / c.pp;
    }
    const double sequences = batch * kv_sequence_share(c) * busiest_attention_share(c, batch);
    // Every sequence at its final context; a sliding-window layer keeps only its last W
    // positions (attention_span.h): vLLM's hybrid KV cache manager frees the blocks that leave
    // the window (vllm/v1/core/single_type_kv_cache_manager.py, SlidingWindowManager),
    // TensorRT-LLM sizes each layer's cache by its max_attention_window_size
    // (docs/source/advanced/gpt-attention.md, "Sliding Window Attention, Cyclic (Rolling Buffer)
    // KV Cache").
    m.kv_cache_bytes = sequences * c.cached_positions * kv_token_bytes(c) / c.pp;
    // Inference keeps no activations for a backward pass; what it needs at once is one layer's
    // working set for the tokens in flight: a prefill pass's prompt tokens, or the batch's
    // during decode; plus the fp32 logits of the batch's next tokens, vocabulary split over tp.
    const double tokens = std::max(prompts_per_pass(in, batch) * dbl(in.prompt_tokens), batch);
    m.activation_bytes = tokens * c.f.activation_values_per_token * kActivationBytes +
                         batch * c.f.vocab / c.tp * kLogitBytes;
    m.total_bytes = m.weights_bytes + m.kv_cache_bytes + m.activation_bytes;
    m.capacity_bytes = c.hw.memory_bytes;
    m.headroom_bytes = m.capacity_bytes - m.total_bytes;
    m.fits = m.total_bytes <= m.capacity_bytes;
    return m;
}

// The largest batch in [0, kMaxSearchBatch] that `holds`, which holds up to some batch and not
// beyond (memory grows with the batch): double until it does not, then bisect.
template <typename Holds>
std::int64_t largest_batch(Holds holds) {
    if (!holds(1)) {
        return 0;
    }
    std::int64_t lo = 1, hi = 2;
    while (hi < kMaxSearchBatch && holds(hi)) {
        lo = hi;
        hi *= 2;
    }
    if (holds(hi)) {
        return hi;
    }
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (holds(mid) ? lo : hi) = mid;
    }
    return lo;
}

std::int64_t max_batch_of(const Context& c) {
    return largest_batch([&c](std::int64_t batch) { return memory_at(c, dbl(batch)).fits; });
}

// The most sequences the engine admits: the largest batch that fits whose KV cache the engine's
// pool holds (kv_pool(): its default share of the memory, or the plan's).
std::int64_t admission_batch_of(const Context& c) {
    const KvPool pool = kv_pool(c.spec.inference);
    return largest_batch([&](std::int64_t batch) {
        const ServingMemory m = memory_at(c, dbl(batch));
        return m.fits && m.kv_cache_bytes <= kv_pool_bytes(pool, m.capacity_bytes, m.weights_bytes,
                                                           m.activation_bytes);
    });
}

// The most sequences the step's token budget keeps decoding (ServingPlan::budget_batch). Every
// engine step runs at most max_batched_tokens tokens (vLLM's max_num_batched_tokens,
// TensorRT-LLM's max_num_tokens; Sarathi-Serve's token budget, Agrawal et al. 2024, sec. 4.3),
// and each running sequence's decode takes one of them. With chunked prefill the prompts ride in
// the same steps: in a steady state of R sequences, R / O of them finish a step and as many new
// prompts of P tokens replace them, so a step carries R + R·P/O tokens on average, at most the
// budget: R <= budget·O / (P + O). Beyond it the prompts back up and the running sequences
// drain until the steps can carry them again; the clients above it wait. Without chunked
// prefill the prompts run in steps of their own, and a decode step holds at most the budget's
// sequences. At least one.
std::int64_t budget_batch_of(const Context& c) {
    const InferenceSpec& in = c.spec.inference;
    const double budget = dbl(in.max_batched_tokens);
    if (!in.chunked_prefill) {
        return std::max<std::int64_t>(in.max_batched_tokens, 1);
    }
    const double o = dbl(in.output_tokens);
    const double p = dbl(in.prompt_tokens);
    return std::max<std::int64_t>(static_cast<std::int64_t>(std::floor(budget * o / (p + o))), 1);
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
        const double memory = memory_time_s(
            c.rates, weight_bytes_read(c.f, tokens, c.weight_bytes, c.head_bytes, c.tp));
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

// A static batch: the prompts prefilled together, as many to a pass as max_batched_tokens holds
// (at least one), then O decode steps of the whole batch.
Throughput throughput_at(const Context& c, double batch) {
    const InferenceSpec& in = c.spec.inference;
    Throughput t;
    const double p = dbl(in.prompt_tokens);
    const double o = dbl(in.output_tokens);
    const double per_pass = prompts_per_pass(in, batch);
    const double full = std::floor(batch / per_pass);
    const double rest = batch - full * per_pass;
    t.prefill = prefill_phase(c, per_pass);
    t.prefill_s = full * t.prefill.seconds + (rest > 0.0 ? prefill_phase(c, rest).seconds : 0.0);
    t.decode = decode_phase(c, batch, p + o, decode_keys(c, p + o - 1.0, 1.0));
    // Step j (1..O) attends to P + j tokens. Each part of a step is linear in the keys or
    // constant (the larger of a linear function through 0 and a constant is not, but the KV
    // read dominates the attention floor wherever it matters), so the O steps sum to O steps at
    // the mean keys, P + (O + 1) / 2 without a sliding window.
    t.decode_total_s =
        o * decode_phase(c, batch, p + (o + 1.0) / 2.0, decode_keys(c, p, o)).seconds;
    t.request_s = t.prefill_s + t.decode_total_s;
    const double replicas = dbl(c.spec.cluster.gpus) / (c.tp * c.pp);
    t.tokens_per_s = t.request_s > 0.0 ? replicas * batch * o / t.request_s : 0.0;
    return t;
}

// The prompt tokens a step takes beside `concurrency` decodes: max_batched_tokens less the
// decodes, at least one.
double chunk_budget(const Context& c, double concurrency) {
    return std::max(1.0, dbl(c.spec.inference.max_batched_tokens) - concurrency);
}

// How long a new prompt waits, with chunked prefill, before its first chunk runs, at
// `concurrency` clients that each send a request when their last one completes (a benchmark at a
// fixed concurrency): S = `service_s` (its own ceil(P / k) chunk steps), `itl_s` the mean step,
// `per_step` the whole prompts one step's budget takes.
//   The step in progress: a request arrives as its previous one's last step ends, and the engine
//     has gone on with the other clients' sequences; it waits that step, on average one ITL (none
//     with one client: nothing else runs; between one and two, the share of the time a second
//     is there, C - 1).
//   The prompts ahead: where a step's budget takes one prompt (k - C < 2P), the others' prompts
//     are served one at a time, a queue with one server. Its mean wait is Pollaczek-Khinchine's
//     (Kleinrock 1975, Queueing Systems I, sec. 5.6), W = lambda S^2 / (2 (1 - rho)), rho =
//     lambda S, for a fixed S, with the arrival rate the other n = C - 1 clients make (the
//     arrival theorem of closed networks: Sevcik & Mitrani 1981, Reiser & Lavenberg 1980),
//     lambda = n / x, x a request's whole cycle, S + W + (O - 1) ITL. That is a quadratic in x:
//       (x - a)(x - n S) = n S^2 / 2, a = S + (O - 1) ITL,
//     whose larger root is the cycle (x - a = W >= 0; W = 0 for n = 0), bounded as the queue
//     saturates (n S near x), where a closed loop stops sending faster. W counts the prompt in
//     service at its mean residual, rho S / 2; the step in progress above already waits for the
//     chunk under way, so that share is taken out: W - rho S / 2, the prompts still queued.
//   Where the budget takes two prompts or more, the next step takes the new one: only the step in
//     progress is waited for.
double prefill_wait(double concurrency, double output_tokens, double service_s, double itl_s,
                    double per_step) {
    const double others = std::max(concurrency - 1.0, 0.0);
    if (others <= 0.0) {
        return 0.0;
    }
    const double step_s = std::min(others, 1.0) * itl_s;
    if (per_step >= 2.0) {
        return step_s;
    }
    const double a = service_s + std::max(output_tokens - 1.0, 0.0) * itl_s;
    const double b = others * service_s;
    const double cross = others * service_s * service_s / 2.0;
    const double cycle = 0.5 * (a + b + std::sqrt((a - b) * (a - b) + 4.0 * cross));
    const double waiting = std::max(cycle - a, 0.0);
    const double rho = cycle > 0.0 ? b / cycle : 0.0;
    return step_s + std::max(waiting - 0.5 * rho * service_s, 0.0);
}

// Continuous batching at `concurrency` requests in flight per replica (Yu et al. 2022, Orca,
// iteration-level scheduling): in steady state every step decodes one token of each of the C
// sequences and prefills, on average, the C·P/O prompt tokens of the requests that replace
// those finishing (each brings P prompt tokens per O decode steps).
//   chunked prefill (Agrawal et al. 2024, Sarathi-Serve, sec. 4): the prompt tokens ride in the
//     decode steps, at most max_batched_tokens - C of them a step; a step is one pass over
//     C + C·P/O tokens on average; a new prompt goes in chunks of k = min(P, budget - C) tokens,
//     each in a step over C + k tokens, ceil(P / k) of them before its first token.
//   without it (vLLM's original scheduler, Kwon et al. 2023, sec. 4.5): prompts run in steps of
//     their own; each costs its share of a prefill pass, spread over the O decode steps of its
//     request, and waits for the decode step under way when it arrives (prefill_wait: a
//     whole step in a closed loop, none with one client).
// ITL = the mean time between a request's tokens; end-to-end = TTFT + (O - 1) ITL; throughput
// by Little's law, C·O / end-to-end per replica.
ContinuousBatchingPoint continuous_at(const Context& c, double concurrency) {
    const InferenceSpec& in = c.spec.inference;
    ContinuousBatchingPoint pt;
    pt.concurrency = concurrency;
    const double p = dbl(in.prompt_tokens);
    const double o = dbl(in.output_tokens);
    const double context = p + (o + 1.0) / 2.0;
    const double keys = decode_keys(c, p, o);  // = context without a sliding window
    const double arrivals = concurrency / o;   // new requests a step
    const ServingPhase decode = decode_phase(c, concurrency, context, keys);
    if (in.chunked_prefill) {
        const double micro = concurrency / c.pp;
        const double prompt_tokens = arrivals * p / c.pp;
        const double decode_flops = 2.0 * c.f.layers * c.f.heads * (c.f.d_qk + c.f.d_v) * keys *
                                    micro / c.tp * busiest_attention_share(c, micro);
        const double prompt_flops = arrivals / c.pp * prefill_attention_flops(c, 0.0, p);
        const double kv = kv_read_bytes(c, micro, keys) +
                          prompt_tokens * kv_sequence_share(c) * kv_token_bytes(c);
        // A prompt's chunk is one sequence's: with data-parallel attention one GPU attends it.
        const double chunk_share = busiest_attention_share(c, 1.0);
        // A new prompt goes in chunks of what the step's budget leaves after the decodes; each
        // step that carries a chunk is a pass over the decodes and the chunk.
        const double chunk = std::min(p, chunk_budget(c, concurrency));
        const double chunks = std::ceil(p / chunk);
        // A chunk rides whole in one of the pp micro-batches (an engine schedules a request in
        // one of its virtual engines' batches): that micro-batch's stage time, over its decodes
        // and the chunk.
        const double alone_s =
            time_phase(c, micro, micro, micro, context, decode_flops, kv_read_bytes(c, micro, keys))
                .seconds;
        // The chunk after `done` cached tokens of its prompt scores those keys too and reads
        // their cache (prefill_attention_flops()), beside writing its own.
        auto carrying_stage_s = [&](double tokens, double done) {
            const double chunk_kv =
                kv_read_bytes(c, micro, keys) +
                (tokens + done) * kv_sequence_share(c) * kv_token_bytes(c) * chunk_share;
            return time_phase(c, micro + tokens, micro, micro + 1.0, context, decode_flops,
                              chunk_kv, prefill_attention_flops(c, done, tokens) * chunk_share,
                              done + tokens)
                .seconds;
        };
        // The chunk's own step crosses the pp stages in turn: pp of its stage times. The other
        // micro-batches' steps take the pipeline's cycle, one stage's pass over all of them,
        // (pp - 1) decoding alone and the one carrying the chunk. A step that carries a chunk
        // takes, over the C sequences, the mean of the two (the pp micro-batches each hold
        // C / pp). With pp = 1 both are the one pass. Summed over the prompt's chunks, the
        // k-th of them after (k - 1) x chunk tokens: its latency is the time to first token's
        // service S, its step a share of the steps' mean. A prompt of more than kMaxChunkSamples
        // chunks is timed at that many evenly spread, each standing for its neighbours.
        constexpr double kMaxChunkSamples = 32.0;
        double latency_sum = 0.0;
        double step_sum = 0.0;
        const double samples = std::min(chunks, kMaxChunkSamples);
        for (double j = 0.0; j < samples; j += 1.0) {
            const double done = std::floor((j + 0.5) * chunks / samples) * chunk;
            const double tokens = std::min(chunk, p - done);
            const double carry = carrying_stage_s(tokens, done);
            const double send = pipeline_send_s(c, micro + tokens);
            const double cycle = (c.pp - 1.0) * alone_s + carry;
            latency_sum += c.pp * carry + send;
            step_sum += ((c.pp - 1.0) * cycle + c.pp * carry) / c.pp + send;
        }
        latency_sum *= chunks / samples;
        step_sum *= chunks / samples;
        // Steps are separate passes: a share q = (C / O) x ceil(P / k) of them carries a chunk,
        // the rest decode alone, and the inter-token latency is the mean step (Sarathi-Serve's
        // hybrid batches): (1 - q) decode-only steps and, per new prompt, its chunks' steps.
        // Timing one pass over the average tokens instead would spread each chunk's GEMMs over
        // every step, hiding their compute under the decodes' weight reads. Where the prompts
        // bring more than a chunk a step (q > 1) every step carries prompt tokens, C P / O of
        // them on average, spread over the micro-batches.
        const double q = arrivals * chunks;
        pt.chunk_share = q;
        if (q <= 1.0) {
            const double decode_s = c.pp * alone_s + pipeline_send_s(c, micro);
            pt.step_s = (1.0 - q) * decode_s + arrivals * step_sum;
        } else {
            const ServingPhase mixed = time_phase(c, micro + prompt_tokens, micro, micro, context,
                                                  decode_flops, kv, prompt_flops, p);
            pt.step_s = c.pp * mixed.seconds + pipeline_send_s(c, micro + prompt_tokens);
        }
        pt.itl_s = pt.step_s;
        // The prompt's own chunks, S; then what it waits for before the first of them.
        const double service_s = latency_sum;
        pt.prefill_wait_s =
            prefill_wait(concurrency, o, service_s, pt.itl_s,
                         chunks == 1.0 ? std::floor(chunk_budget(c, concurrency) / p) : 1.0);
        pt.ttft_s = service_s + pt.prefill_wait_s;
    } else {
        const double per_prompt = prefill_phase(c, 1.0).seconds;
        pt.step_s = decode.seconds;
        pt.itl_s = decode.seconds + arrivals * per_prompt;
        pt.prefill_wait_s = std::clamp(concurrency - 1.0, 0.0, 1.0) * decode.seconds;
        pt.ttft_s = per_prompt + pt.prefill_wait_s;
    }
    pt.e2e_s = pt.ttft_s + std::max(o - 1.0, 0.0) * pt.itl_s;
    const double replicas = dbl(c.spec.cluster.gpus) / (c.tp * c.pp);
    pt.requests_per_s = pt.e2e_s > 0.0 ? replicas * concurrency / pt.e2e_s : 0.0;
    pt.tokens_per_s = pt.requests_per_s * o;
    pt.in_flight = concurrency;
    return pt;
}

// Continuous batching as an engine serves `concurrency` clients when its KV cache holds only
// `admitted` full sequences (admission_batch_of). An engine admits a request only while the
// cache has room for it: vLLM's scheduler leaves it waiting until its blocks can be allocated (Kwon
// et al. 2023, sec. 4.5; vllm/v1/core/sched/scheduler.py, allocate_slots), and TensorRT-LLM's
// capacity scheduler, GUARANTEED_NO_EVICT by default, starts one only when the blocks of its whole
// context are free (docs/source/advanced/executor.md, SchedulerConfig). So at most `admitted` run,
// each as in a steady state of that many, and the rest wait. With C clients that each send a
// request when their last one completes (a closed loop, as a benchmark at a fixed concurrency
// runs), Little's law (Little 1961, L = lambda W) over the whole loop gives each request a cycle of
// C / lambda, lambda = admitted / end-to-end at admitted per replica: a mean wait for
// admission of (C / admitted - 1) x that end-to-end, before its time to first token.
// The step's token budget stops admission the same way at `budget` sequences (budget_batch_of).
ContinuousBatchingPoint served_at(const Context& c, double concurrency, std::int64_t admitted,
                                  std::int64_t budget) {
    const bool fits = memory_at(c, concurrency).fits;
    const std::int64_t running_max = admitted >= 1 ? std::min(admitted, budget) : admitted;
    if (running_max < 1) {
        // Not one sequence's KV cache fits the engine's share: no request runs, none completes.
        ContinuousBatchingPoint none;
        none.concurrency = concurrency;
        none.fits = false;
        return none;
    }
    if (concurrency <= dbl(running_max)) {
        ContinuousBatchingPoint pt = continuous_at(c, concurrency);
        pt.fits = fits;
        pt.in_flight = concurrency;
        return pt;
    }
    const double running = dbl(running_max);
    ContinuousBatchingPoint pt = continuous_at(c, running);
    pt.concurrency = concurrency;
    pt.fits = fits;
    pt.in_flight = running;
    pt.budget_bound = budget < admitted;
    pt.queue_s = (concurrency / running - 1.0) * pt.e2e_s;
    pt.ttft_s += pt.queue_s;
    pt.e2e_s += pt.queue_s;
    return pt;
}

// Exact for the spec's own numbers and counts; four significant digits for computed figures.
std::string num(double v) {
    return shortest_text(v);
}
std::string fig(double v) {
    return four_digits(v);
}

}  // namespace

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
    // Serving reads no data and no training recipe: check() sees the spec with those at values
    // it accepts, so a serving spec needs neither block, and the model, cluster and inference
    // rules still name their fields.
    PlanSpec serving = spec;
    serving.data = DataSpec{};
    serving.data.tokens = 1.0;
    serving.training = TrainingSpec{};
    // Nor a training precision: a part without bf16 (a V100) serves in fp16; the inference
    // block's own dtypes are checked below.
    for (const DType d : {DType::bf16, DType::fp16, DType::fp32}) {
        if (hw.supports(compute_type(d))) {
            serving.training.compute_dtype = d;
            break;
        }
    }
    if (auto e = check(serving, hw)) {
        return e;
    }
    const ModelSpec& m = spec.model;
    const InferenceSpec& in = spec.inference;
    auto err = [](std::string field, auto value, Text allowed) {
        return std::optional<FieldError>(
            FieldError::of(std::move(field), fmt::format("{}", value), std::move(allowed)));
    };
    if (m.kind != ModelKind::transformer) {
        return err("model.kind", to_string(m.kind),
                   TALLY_TEXT("tally::check",
                              "serving needs a transformer's dimensions (a preset, hf_config or "
                              "layers, hidden, heads, vocab) to size its KV cache"));
    }
    if (m.heads % in.tp != 0) {
        return err("inference.tp", in.tp,
                   TALLY_TEXT("tally::check",
                              "must divide model.heads (%1) so every GPU holds whole heads")
                       .arg(m.heads));
    }
    const std::int64_t g = m.effective_kv_heads();
    if (!m.mla.enabled() && g % in.tp != 0 && in.tp % g != 0) {
        return err(
            "inference.tp", in.tp,
            TALLY_TEXT("tally::check", "must divide model.kv_heads (%1) or be a multiple of it")
                .arg(g));
    }
    if (spec.cluster.gpus % (in.tp * in.pp) != 0) {
        return err(in.pp > 1 ? "inference.pp" : "inference.tp", in.pp > 1 ? in.pp : in.tp,
                   TALLY_TEXT("tally::check",
                              "tp x pp (%1 x %2) must divide cluster.gpus (%3): each replica of "
                              "the model takes tp x pp GPUs")
                       .arg(in.tp)
                       .arg(in.pp)
                       .arg(spec.cluster.gpus));
    }
    if (m.layers % in.pp != 0) {
        return err("inference.pp", in.pp,
                   TALLY_TEXT("tally::check",
                              "must divide model.layers (%1) so every stage holds whole layers")
                       .arg(m.layers));
    }
    if (in.ep > 1 && !m.moe.enabled()) {
        return err(
            "inference.ep", in.ep,
            TALLY_TEXT("tally::check", "must be 1: the model has no routed experts (model.moe)"));
    }
    if (in.tp % in.ep != 0 || (m.moe.enabled() && m.moe.experts % in.ep != 0)) {
        return err("inference.ep", in.ep,
                   TALLY_TEXT("tally::check",
                              "must divide inference.tp (%1) and model.moe.experts (%2): the "
                              "experts are spread over ep GPUs of the tensor-parallel group")
                       .arg(in.tp)
                       .arg(m.moe.experts));
    }
    // Without chunked prefill a prompt runs in one engine step, which takes at most
    // max_batched_tokens tokens: vLLM refuses a max_num_batched_tokens below the longest
    // sequence it serves unless chunked prefill is on (vllm/config.py,
    // SchedulerConfig._verify_args: "This effectively limits the maximum sequence length to
    // max_num_batched_tokens and makes vLLM reject longer sequences").
    if (!in.chunked_prefill && in.max_batched_tokens < in.prompt_tokens) {
        return err("inference.max_batched_tokens", in.max_batched_tokens,
                   TALLY_TEXT("tally::check",
                              "at least the prompt's %1 tokens without chunked prefill "
                              "(inference.chunked_prefill): an engine runs a prompt in one step "
                              "and refuses one longer than its step")
                       .arg(in.prompt_tokens));
    }
    if (in.memory_fraction && in.engine == ServingEngine::gpt_fast) {
        return err("inference.memory_fraction", num(*in.memory_fraction),
                   TALLY_TEXT("tally::check",
                              "unset for gpt_fast: it sizes its cache for the batch it is asked "
                              "for (setup_caches) and has no memory-share setting"));
    }
    if (in.dp_attention && in.tp < 2) {
        return err("inference.dp_attention", "true",
                   TALLY_TEXT("tally::check",
                              "needs inference.tp >= 2: the attention is "
                              "data-parallel over the tp group"));
    }
    if (in.pp > 1 && !(hw.interconnect_bytes_per_s > 0.0)) {
        return err("inference.pp", in.pp,
                   TALLY_TEXT("tally::check",
                              "%1 lists no interconnect bandwidth for the sends between stages")
                       .arg(hw.name));
    }
    if (in.tp > 1 && !(hw.interconnect_bytes_per_s > 0.0)) {
        return err("inference.tp", in.tp,
                   TALLY_TEXT("tally::check",
                              "%1 lists no interconnect bandwidth, so tensor parallelism cannot "
                              "be timed; use tp 1 or a profile with one")
                       .arg(hw.name));
    }
    return std::nullopt;
}

ServingMemory serving_memory(const PlanSpec& spec, const HardwareProfile& hw, std::int64_t batch) {
    return memory_at(make_context(spec, hw), dbl(batch));
}

ServingMemory in_flight_memory(const PlanSpec& spec, const HardwareProfile& hw,
                               const ContinuousBatchingPoint& point) {
    const double running = point.in_flight >= 1.0 ? point.in_flight : point.concurrency;
    return serving_memory(spec, hw, std::llround(running));
}

std::int64_t max_serving_batch(const PlanSpec& spec, const HardwareProfile& hw) {
    return max_batch_of(make_context(spec, hw));
}

namespace {

// The cost of a million output tokens at the throughput the deployment serves at: continuous
// batching's where it is set (that is how the deployment then serves), else the static batch's.
void set_cost(ServingPlan& s, const PlanSpec& spec) {
    s.cost_per_million_tokens.reset();
    // Continuous batching whose engine admits no request serves nothing: no cost per token.
    const double served = !s.continuous                   ? s.tokens_per_s
                          : s.continuous->in_flight > 0.0 ? s.continuous->tokens_per_s
                                                          : 0.0;
    if (s.price_per_gpu_hour && served > 0.0) {
        // The deployment's cost per second over the tokens it produces per second.
        const double per_s = *s.price_per_gpu_hour * dbl(spec.cluster.gpus) / 3600.0;
        s.cost_per_million_tokens = per_s / served * 1e6;
    }
}

}  // namespace

ServingPlan evaluate_inference(const PlanSpec& spec, const HardwareProfile& hw) {
    const Context c = make_context(spec, hw);
    const InferenceSpec& in = spec.inference;
    const double batch = dbl(in.batch);
    ServingPlan s;
    s.replicas = spec.cluster.gpus / (in.tp * in.pp);
    s.gemm_type = c.gemm_type;
    s.attention_type = c.attention_type;
    s.gemm_peak_flops_per_s = c.gemm_peak;
    s.attention_peak_flops_per_s = c.attention_peak;
    s.prefill_attention_kernel = resolved_prefill_kernel(c);
    s.prefill_attention_head_dim = c.attention_head_dim;
    s.prefill_attention_flops_per_s =
        prefill_attention_flops_per_s(c, dbl(spec.inference.prompt_tokens));
    s.bandwidth_bytes_per_s = hw.bandwidth_bytes_per_s * memory_fraction(hw);
    s.link_bytes_per_s = c.link_bytes_per_s;
    s.nccl_link_bytes_per_s = c.nccl_link_bytes_per_s;
    s.params_total = c.f.params_total;
    s.output_head_16bit = c.head_16bit;
    s.host_step_s = c.host_step_s;
    if (c.lookup_bytes != c.weight_bytes) {
        s.sixteen_bit_params = c.f.lookup_params + (c.head_16bit ? c.f.head_params : 0.0);
    }
    s.params_active = c.f.params_active;
    s.activation_values_per_token = c.f.activation_values_per_token;
    // What one GPU keeps for a token of the batch: its stage's layers, its share of the heads
    // or, with data-parallel attention, all of them for the busiest GPU's share of the
    // sequences (ceil(batch / tp) of them).
    s.kv = c.kv;
    s.kv.bytes_per_token_per_gpu =
        kv_sequence_share(c) * busiest_attention_share(c, batch) * kv_token_bytes(c) / c.pp;
    if (in.dp_attention && s.kv.kind != AttentionKind::mla) {
        s.kv.kv_heads_per_gpu = dbl(spec.model.effective_kv_heads());
    }
    s.memory = memory_at(c, batch);
    s.max_batch = max_batch_of(c);
    s.admission_batch = admission_batch_of(c);
    s.budget_batch = budget_batch_of(c);
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
    if (in.concurrency > 0) {
        s.continuous = served_at(c, dbl(in.concurrency), s.admission_batch, s.budget_batch);
    }
    s.price_per_gpu_hour =
        spec.cluster.price_per_gpu_hour ? spec.cluster.price_per_gpu_hour : hw.price_per_gpu_hour;
    set_cost(s, spec);
    auto warn = [&s](ServingWarning w) { s.warnings |= static_cast<std::uint32_t>(w); };
    if (!s.memory.fits) {
        warn(ServingWarning::does_not_fit);
    }
    if (c.spans_nodes) {
        warn(ServingWarning::tp_spans_nodes);
    }
    if (c.spans_bridge) {
        warn(ServingWarning::tp_spans_bridge);
    }
    if (s.decode.comm_s > 0.25 * s.decode_step_s) {
        warn(ServingWarning::comm_dominates);
    }
    if (!c.native) {
        warn(ServingWarning::weight_dtype_not_native);
    }
    if (spec.model.context_length > 0 &&
        in.prompt_tokens + in.output_tokens > spec.model.context_length) {
        warn(ServingWarning::beyond_context);
    }
    if (s.continuous && !(s.continuous->in_flight > 0.0)) {
        warn(ServingWarning::cache_holds_none);
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

ContinuousBatchingPoint continuous_batching_at(const PlanSpec& spec, const HardwareProfile& hw,
                                               double concurrency) {
    const Context c = make_context(spec, hw);
    return served_at(c, concurrency, admission_batch_of(c), budget_batch_of(c));
}

std::vector<ContinuousBatchingPoint> concurrency_sweep(const PlanSpec& spec,
                                                       const HardwareProfile& hw,
                                                       const std::vector<double>& concurrencies) {
    const Context c = make_context(spec, hw);
    const std::int64_t admitted = admission_batch_of(c);
    const std::int64_t budget = budget_batch_of(c);
    std::vector<ContinuousBatchingPoint> out;
    out.reserve(concurrencies.size());
    for (double n : concurrencies) {
        out.push_back(served_at(c, n, admitted, budget));
    }
    return out;
}

std::optional<ContinuousBatchingPoint> continuous_batching_at_rate(const PlanSpec& spec,
                                                                   const HardwareProfile& hw,
                                                                   double requests_per_s) {
    const Context c = make_context(spec, hw);
    // Completed requests per second rise with the concurrency while each step serves more
    // sequences for less than proportionally more time, and fall again where the prompts queue
    // for a step budget the decodes have nearly filled (prefill_wait); the batch the engine's KV
    // cache holds and the one the step's token budget keeps running bound it. The lowest
    // concurrency that completes the rate: the first of 64 concurrencies spaced evenly in log
    // from 1 to the smaller of those batches that does, then bisection below it.
    const std::int64_t admitted = admission_batch_of(c);
    const std::int64_t budget = budget_batch_of(c);
    // An engine whose KV cache holds no sequence admits no request: it completes none.
    if (admitted < 1 || budget < 1) {
        return std::nullopt;
    }
    const double top = dbl(std::min(admitted, budget));
    constexpr int kGrid = 64;
    double lo = 0.0, hi = 0.0;
    for (int i = 0; i <= kGrid; ++i) {
        const double n = std::pow(top, static_cast<double>(i) / kGrid);
        if (continuous_at(c, n).requests_per_s >= requests_per_s) {
            hi = n;
            break;
        }
        lo = n;
    }
    if (hi <= 0.0) {
        return std::nullopt;
    }
    for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (continuous_at(c, mid).requests_per_s < requests_per_s ? lo : hi) = mid;
    }
    return served_at(c, hi, admitted, budget);
}

ServingRateLimit serving_rate_limit(const PlanSpec& spec, const HardwareProfile& hw) {
    ServingRateLimit out;
    out.admits = admission_batch_of(make_context(spec, hw)) >= 1;
    out.most_requests_per_s =
        continuous_batching_at(spec, hw,
                               dbl(std::max<std::int64_t>(max_serving_batch(spec, hw), 1)))
            .requests_per_s;
    return out;
}

void serve_at(ServingPlan& plan, const PlanSpec& spec, const ContinuousBatchingPoint& point) {
    plan.continuous = point;
    set_cost(plan, spec);
}

std::optional<ServingTpThatFits> serving_tp_that_fits(const PlanSpec& spec,
                                                      const HardwareProfile& hw) {
    PlanSpec wider = spec;
    for (std::int64_t tp = spec.inference.tp + 1; tp <= hw.gpus_per_node; ++tp) {
        wider.inference.tp = tp;
        wider.cluster.gpus = tp * spec.inference.pp;
        if (check_inference(wider, hw)) {
            continue;
        }
        const ServingMemory m = serving_memory(wider, hw, spec.inference.batch);
        if (m.fits) {
            PlanSpec same_gpus = spec;
            same_gpus.inference.tp = tp;
            return ServingTpThatFits{tp, m.total_bytes, !check_inference(same_gpus, hw)};
        }
    }
    return std::nullopt;
}

std::vector<Text> serving_warning_texts(const ServingPlan& s, const PlanSpec& spec,
                                        const HardwareProfile& hw) {
    std::vector<Text> out;
    auto fixed = [](int digits, double value) { return fmt::format("{:.{}f}", value, digits); };
    if (s.has(ServingWarning::does_not_fit)) {
        out.push_back(
            TALLY_TEXT("tally::warnings",
                       "does not fit: %1 GB needed per GPU, %2 has %3 GB; the largest "
                       "batch that fits at %4 tokens of context is %5")
                .arg(fixed(1, s.memory.total_bytes / 1e9))
                .arg(hw.name)
                .arg(fixed(1, s.memory.capacity_bytes / 1e9))
                .arg(fmt::format("{}", spec.inference.prompt_tokens + spec.inference.output_tokens))
                .arg(fmt::format("{}", s.max_batch)));
        if (const std::optional<ServingTpThatFits> wider = serving_tp_that_fits(spec, hw)) {
            out.push_back(TALLY_TEXT("tally::warnings",
                                     "tensor parallel %1 (%2 GPUs a replica) fits the batch of "
                                     "%3: %4 GB per GPU of %5 GB")
                              .arg(fmt::format("{}", wider->tp))
                              .arg(fmt::format("{}", wider->tp * spec.inference.pp))
                              .arg(fmt::format("{}", spec.inference.batch))
                              .arg(fixed(1, wider->total_bytes / 1e9))
                              .arg(fixed(1, s.memory.capacity_bytes / 1e9)));
        } else if (hw.gpus_per_node > spec.inference.tp) {
            out.push_back(TALLY_TEXT("tally::warnings",
                                     "no tensor parallel within a node of %1 GPUs fits the batch "
                                     "of %2: add pipeline stages (inference.pp), or store the "
                                     "weights or the KV cache in fewer bytes")
                              .arg(fmt::format("{}", hw.gpus_per_node))
                              .arg(fmt::format("{}", spec.inference.batch)));
        }
    }
    if (s.has(ServingWarning::cache_holds_none)) {
        // What the engine's pool leaves for the KV cache beside one sequence's weights and
        // activations (kv_pool(): its share of the memory), against one sequence.
        const KvPool pool = kv_pool(spec.inference);
        const ServingMemory one = serving_memory(spec, hw, 1);
        const double pool_bytes = std::max(
            0.0, kv_pool_bytes(pool, one.capacity_bytes, one.weights_bytes, one.activation_bytes));
        out.push_back(
            TALLY_TEXT("tally::warnings",
                       "continuous batching does not run: the engine's KV cache (%1) has %2 GB "
                       "per GPU, and one sequence of %3 tokens takes %4 GB; no request is "
                       "admitted and nothing is served")
                .arg(kv_pool_setting(pool))
                .arg(fixed(2, pool_bytes / 1e9))
                .arg(fmt::format("{}", spec.inference.prompt_tokens + spec.inference.output_tokens))
                .arg(fixed(2, one.kv_cache_bytes / 1e9)));
    }
    if (s.has(ServingWarning::beyond_context)) {
        // vLLM's --max-model-len, "if unspecified, will be automatically derived from the model
        // config" (its engine arguments), and a longer request is refused; TensorRT-LLM's engine
        // is built for a max_seq_len (trtllm-build --max_seq_len).
        out.push_back(
            TALLY_TEXT("tally::warnings",
                       "prompt + output = %1 tokens is past the %2 tokens of the "
                       "model's context (model.context_length): the model was not "
                       "trained on sequences this long, and engines refuse such a "
                       "request unless told to (vLLM's max_model_len)")
                .arg(fmt::format("{}", spec.inference.prompt_tokens + spec.inference.output_tokens))
                .arg(fmt::format("{}", spec.model.context_length)));
    }
    if (s.has(ServingWarning::tp_spans_nodes)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "tp %1 spans nodes of %2 GPUs: the all-reduces cross the network "
                                 "(%3 per GPU)")
                          .arg(fmt::format("{}", spec.inference.tp))
                          .arg(fmt::format("{}", hw.gpus_per_node))
                          .arg(tb_per_s_text(s.link_bytes_per_s)));
    }
    if (s.has(ServingWarning::tp_spans_bridge)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "tp %1 spans more than the 2 cards an NVLink bridge joins: the "
                                 "all-reduces cross PCIe (%2 per GPU), with NCCL")
                          .arg(fmt::format("{}", spec.inference.tp))
                          .arg(tb_per_s_text(s.link_bytes_per_s)));
    }
    if (s.has(ServingWarning::comm_dominates)) {
        out.push_back(
            TALLY_TEXT("tally::warnings",
                       "tensor-parallel all-reduces take %1% of a decode step (%2% of them "
                       "latency): at this batch a smaller tp or more replicas serve faster per GPU")
                .arg(fixed(0, 100.0 * s.decode.comm_s / s.decode_step_s))
                .arg(fixed(0, s.decode.comm_s > 0.0
                                  ? 100.0 * s.decode.comm_latency_s / s.decode.comm_s
                                  : 0.0)));
    }
    if (s.has(ServingWarning::weight_dtype_not_native)) {
        out.push_back(TALLY_TEXT("tally::warnings",
                                 "%1 has no %2 peak: %3 weights are read at their size but "
                                 "multiplied in %4")
                          .arg(hw.name)
                          .arg(to_string(compute_type(spec.inference.weight_dtype)))
                          .arg(to_string(spec.inference.weight_dtype))
                          .arg(to_string(s.gemm_type)));
    }
    return out;
}

std::vector<std::string> serving_warning_messages(const ServingPlan& s, const PlanSpec& spec,
                                                  const HardwareProfile& hw) {
    std::vector<std::string> out;
    for (const Text& text : serving_warning_texts(s, spec, hw)) {
        out.push_back(text.english());
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
    const Context context_of_plan = make_context(spec, hw);
    const double kv_reads = kv_reads_per_byte(context_of_plan);
    // GEMMs of 256 or more rows on a part with a published table by shape take its measured rate
    // (planner/hardware/gemm_shapes.h): the prompt's, and a decode step's at large batches.
    const std::string shape_table_note =
        context_of_plan.rates.shapes.table == nullptr
            ? std::string()
            : std::string(
                  "; GEMMs of 256 or more on every side at OpenXLA's measured cuBLAS "
                  "rate of that shape (") +
                  context_of_plan.rates.shapes.measured_on + ", planner/hardware/gemm_shapes.h)";
    std::vector<Explanation> out;
    // `substitution`: a string of numbers and symbols, or a Text when it has words in it.
    auto add = [&out](std::string key, std::string label, double value, std::string unit,
                      std::string formula, auto substitution, std::string source) {
        out.push_back(make_explanation(std::move(key), std::move(label), value, std::move(unit),
                                       std::move(formula), std::move(substitution),
                                       std::move(source)));
    };
    // An argument of a text as fmt writes it, so the English reads as before.
    auto str = [](auto value) { return fmt::format("{}", value); };
    if (s.kv.kind == AttentionKind::mla) {
        add("serving.kv_bytes_per_token", QT_TRANSLATE_NOOP("tally::explain", "KV cache per token"),
            s.kv.bytes_per_token, "bytes",
            QT_TRANSLATE_NOOP("tally::formula", "L x (kv_lora_rank + qk_rope_head_dim) x bytes"),
            fmt::format("{} x ({} + {}) x {} B ({}) = {}", m.layers, m.mla.kv_lora_rank,
                        m.mla.qk_rope_head_dim, num(kvb), kv_dtype, num(s.kv.bytes_per_token)),
            QT_TRANSLATE_NOOP("tally::source",
                              "DeepSeek-V2 (Liu et al. 2024), sec. 2.1.4, Table 1; the latent is "
                              "not split by tp"));
    } else {
        add("serving.kv_bytes_per_token", QT_TRANSLATE_NOOP("tally::explain", "KV cache per token"),
            s.kv.bytes_per_token, "bytes",
            QT_TRANSLATE_NOOP("tally::formula", "2 x L x kv_heads x head_dim x bytes"),
            fmt::format("2 x {} x {} x {} x {} B ({}) = {} ({})", m.layers, m.effective_kv_heads(),
                        m.effective_head_dim(), num(kvb), kv_dtype, num(s.kv.bytes_per_token),
                        to_string(s.kv.kind)),
            "Pope et al. 2022, sec. 2.1; GQA: Ainslie et al. 2023; MQA: Shazeer 2019");
    }
    // Quantized weights keep some at 2 B (the looked-up tables, and the head where the engine's
    // checkpoints do): the sum then says which.
    const bool some_16bit = s.sixteen_bit_params > 0.0;
    const double stored_bytes = stored_weight_bytes(in.weight_dtype, in.quant_group_size);
    const std::string tensor_parallel =
        "Megatron-LM tensor parallelism (Shoeybi et al. 2019, sec. 3)";
    // With data-parallel attention every GPU keeps the attention weights whole (memory_at()):
    // the split share, then what that adds.
    const double split_weights_bytes =
        (some_16bit
             ? (s.params_total - s.sixteen_bit_params) * stored_bytes + s.sixteen_bit_params * 2.0
             : s.params_total * stored_bytes) /
        dbl(in.tp * in.pp);
    const std::string copied_attention =
        in.dp_attention ? fmt::format(" + {} GB (attention, dp_attention)",
                                      fig((s.memory.weights_bytes - split_weights_bytes) / 1e9))
                        : std::string();
    add("serving.memory.weights_bytes", QT_TRANSLATE_NOOP("tally::explain", "Weights per GPU"),
        s.memory.weights_bytes, "bytes",
        in.dp_attention
            ? (some_16bit ? QT_TRANSLATE_NOOP(
                                "tally::formula",
                                "((N - N_16) x bytes(weight_dtype) + N_16 x 2 B) / (tp x pp) + "
                                "L / pp x attention weights x (1 - 1 / tp) x bytes, N_16 the "
                                "weights kept 16-bit; data-parallel attention keeps the "
                                "attention weights whole on every GPU")
                          : QT_TRANSLATE_NOOP("tally::formula",
                                              "N x bytes(weight_dtype) / (tp x pp) + L / pp x "
                                              "attention weights x (1 - 1 / tp) x bytes: "
                                              "data-parallel attention keeps the attention "
                                              "weights whole on every GPU"))
        : some_16bit ? QT_TRANSLATE_NOOP("tally::formula",
                                         "((N - N_16) x bytes(weight_dtype) + N_16 x 2 B) / (tp x "
                                         "pp), N_16 the weights kept 16-bit: looked-up embeddings "
                                         "and, as the engine's checkpoints keep it, the output "
                                         "head")
                     : "N x bytes(weight_dtype) / (tp x pp)",
        some_16bit ? fmt::format("(({} - {}) x {} B ({}) + {} x 2 B) / {}{} = {} GB",
                                 num(s.params_total), num(s.sixteen_bit_params), num(stored_bytes),
                                 to_string(in.weight_dtype), num(s.sixteen_bit_params),
                                 in.tp * in.pp, copied_attention, fig(s.memory.weights_bytes / 1e9))
                   : fmt::format("{} x {} B ({}) / {}{} = {} GB", num(s.params_total),
                                 num(stored_bytes), to_string(in.weight_dtype), in.tp * in.pp,
                                 copied_attention, fig(s.memory.weights_bytes / 1e9)),
        some_16bit ? tensor_parallel +
                         "; lm_head left unquantized by Model Optimizer's configs "
                         "(modelopt/torch/quantization/config.py), GPTQ and AWQ; quantized by "
                         "gpt-fast's quantize.py (inference.output_head)"
                   : tensor_parallel);
    if (m.windowed_layers() == 0) {
        add("serving.memory.kv_cache_bytes",
            QT_TRANSLATE_NOOP("tally::explain", "KV cache per GPU"), s.memory.kv_cache_bytes,
            "bytes",
            QT_TRANSLATE_NOOP("tally::formula",
                              "batch x (prompt + output) x KV bytes per token per GPU"),
            fmt::format("{} x {} x {} B = {} GB", in.batch, num(context),
                        num(s.kv.bytes_per_token_per_gpu), fig(s.memory.kv_cache_bytes / 1e9)),
            QT_TRANSLATE_NOOP("tally::source", "the full context of every sequence of the batch"));
    } else {
        // Sliding-window layers keep their last W positions only (memory_at()).
        const double kept = context_of_plan.cached_positions;
        add("serving.memory.kv_cache_bytes",
            QT_TRANSLATE_NOOP("tally::explain", "KV cache per GPU"), s.memory.kv_cache_bytes,
            "bytes",
            QT_TRANSLATE_NOOP("tally::formula",
                              "batch x ((L - L_w) x context + L_w x min(context, W)) / L x KV "
                              "bytes per token per GPU"),
            fmt::format("{} x (({} - {}) x {} + {} x {}) / {} x {} B = {} GB", in.batch, m.layers,
                        m.windowed_layers(), num(context), m.windowed_layers(),
                        num(std::min(context, dbl(m.sliding_window))), m.layers,
                        num(s.kv.bytes_per_token_per_gpu), fig(s.memory.kv_cache_bytes / 1e9)),
            std::string());
        out.back() = with_source(
            std::move(out.back()),
            {TALLY_TEXT("tally::source",
                        "the whole context in full layers, the last %1 positions in the %2 "
                        "sliding-window layers: %3 positions a sequence on average")
                 .arg(fmt::format("{}", m.sliding_window))
                 .arg(fmt::format("{}", m.windowed_layers()))
                 .arg(fig(kept))});
    }
    add("serving.memory.activation_bytes",
        QT_TRANSLATE_NOOP("tally::explain", "Activations per GPU"), s.memory.activation_bytes,
        "bytes",
        QT_TRANSLATE_NOOP("tally::formula",
                          "max(prompts a pass x prompt, batch) x (2h + (qkv + MLP widths) / tp) x "
                          "2 B + batch x vocab / tp x 4 B; prompts a pass = min(batch, "
                          "max_batched_tokens / prompt rounded down, at least 1)"),
        fmt::format("max({} x {}, {}) x {} x 2 B + {} x {} / {} x 4 B = {} GB",
                    num(prompts_per_pass(in, dbl(in.batch))), in.prompt_tokens, in.batch,
                    num(s.activation_values_per_token), in.batch, m.vocab, in.tp,
                    fig(s.memory.activation_bytes / 1e9)),
        QT_TRANSLATE_NOOP("tally::source",
                          "one layer's working set; nothing is kept for a backward pass"));
    add("serving.memory.total_bytes", QT_TRANSLATE_NOOP("tally::explain", "Total per GPU"),
        s.memory.total_bytes, "bytes",
        QT_TRANSLATE_NOOP("tally::formula", "weights + KV cache + activations"),
        TALLY_TEXT("tally::explain", "%1 + %2 + %3 = %4 GB of %5 GB (%6)")
            .arg(fig(s.memory.weights_bytes / 1e9))
            .arg(fig(s.memory.kv_cache_bytes / 1e9))
            .arg(fig(s.memory.activation_bytes / 1e9))
            .arg(fig(s.memory.total_bytes / 1e9))
            .arg(num(s.memory.capacity_bytes / 1e9))
            .arg_translated("tally::explain",
                            s.memory.fits ? QT_TRANSLATE_NOOP("tally::explain", "fits")
                                          : QT_TRANSLATE_NOOP("tally::explain", "does not fit")),
        // Whether it fits is said with the numbers, in the user's language; the source is
        // the sum itself, as the training plan's total says.
        QT_TRANSLATE_NOOP("tally::source", "sum of the above"));
    add("serving.max_batch", QT_TRANSLATE_NOOP("tally::explain", "Largest batch that fits"),
        dbl(s.max_batch), "sequences",
        m.windowed_layers() > 0
            ? QT_TRANSLATE_NOOP("tally::formula",
                                "largest B with weights + B x cached positions (KV cache above) "
                                "x KV per token per GPU + activations(B) <= capacity")
            : QT_TRANSLATE_NOOP("tally::formula",
                                "largest B with weights + B x context x KV per token per GPU + "
                                "activations(B) <= capacity"),
        TALLY_TEXT("tally::explain", "context %1 tokens, %2 GB capacity: B = %3")
            .arg(num(context))
            .arg(num(s.memory.capacity_bytes / 1e9))
            .arg(str(s.max_batch)),
        QT_TRANSLATE_NOOP("tally::source", "bisection on the memory above"));
    {
        const KvPool pool = kv_pool(in);
        const char* formula = nullptr;
        switch (pool.rule) {
            case KvPoolRule::whole_memory:
                formula = QT_TRANSLATE_NOOP(
                    "tally::formula",
                    "largest B whose KV cache fits in capacity - weights - activations(B)");
                break;
            case KvPoolRule::executor_share:
                formula = QT_TRANSLATE_NOOP(
                    "tally::formula",
                    "largest B whose KV cache fits in f x capacity - weights - activations(B)");
                break;
            case KvPoolRule::static_share:
                formula = QT_TRANSLATE_NOOP(
                    "tally::formula", "largest B whose KV cache fits in f x capacity - weights");
                break;
            case KvPoolRule::free_share:
                formula = QT_TRANSLATE_NOOP(
                    "tally::formula",
                    "largest B whose KV cache fits in f x (capacity - weights - activations(B))");
                break;
        }
        add("serving.admission_batch",
            QT_TRANSLATE_NOOP("tally::explain", "Admitted by the KV cache"), dbl(s.admission_batch),
            "sequences", formula,
            TALLY_TEXT("tally::explain", "%1, f = %2, context %3 tokens: B = %4")
                .arg(kv_pool_setting(pool))
                .arg(num(pool.fraction))
                .arg(num(context))
                .arg(str(s.admission_batch)),
            QT_TRANSLATE_NOOP(
                "tally::source",
                "the engine's default share of the memory for its KV cache (vLLM "
                "gpu_memory_utilization, TensorRT-LLM free_gpu_memory_fraction, SGLang "
                "mem_fraction_static); continuous batching admits no more"));
    }
    if (in.chunked_prefill) {
        add("serving.budget_batch",
            QT_TRANSLATE_NOOP("tally::explain", "Sequences the token budget keeps running"),
            dbl(s.budget_batch), "sequences",
            QT_TRANSLATE_NOOP("tally::formula",
                              "floor(max_batched_tokens x O / (P + O)): a step carries each "
                              "running sequence's decode and, on average, P / O prompt tokens "
                              "for each"),
            fmt::format("floor({} x {} / ({} + {})) = {}", num(dbl(in.max_batched_tokens)),
                        num(dbl(in.output_tokens)), num(dbl(in.prompt_tokens)),
                        num(dbl(in.output_tokens)), str(s.budget_batch)),
            QT_TRANSLATE_NOOP(
                "tally::source",
                "a step runs at most max_batched_tokens tokens (Sarathi-Serve's token budget, "
                "Agrawal et al. 2024, sec. 4.3); continuous batching keeps no more running"));
    } else {
        add("serving.budget_batch",
            QT_TRANSLATE_NOOP("tally::explain", "Sequences the token budget keeps running"),
            dbl(s.budget_batch), "sequences",
            QT_TRANSLATE_NOOP("tally::formula",
                              "max_batched_tokens: a decode step takes one token a sequence"),
            fmt::format("{}", str(s.budget_batch)),
            QT_TRANSLATE_NOOP(
                "tally::source",
                "a step runs at most max_batched_tokens tokens (vLLM max_num_batched_tokens, "
                "TensorRT-LLM max_num_tokens); continuous batching keeps no more running"));
    }
    const ServingEngineProfile& engine = serving_engine_profile(in.engine);
    const AllReduceKind all_reduce = all_reduce_kind(spec, hw);
    // A stated host pause is part of each pass's small kernels; say where it comes from.
    const std::string host_note =
        s.host_step_s > 0.0 ? fmt::format("; small kernels include {} ms of host time a pass ({})",
                                          num(s.host_step_s * 1e3),
                                          in.host_step_s ? "inference.host_step_s" : engine.label)
                            : std::string();
    add("serving.prefill_s", QT_TRANSLATE_NOOP("tally::explain", "Prefill of the batch"),
        s.prefill_s, "s",
        QT_TRANSLATE_NOOP("tally::formula",
                          "ceil(batch / floor(max_batched_tokens / prompt)) x (GEMMs in waves of "
                          "tiles: max(compute, weights read, dequantization, kernel floor) + "
                          "attention + small kernels + 2 L all-reduces)"),
        // Over pp stages the parts are one stage's: the pass is pp of them and the sends.
        (in.pp > 1 ? TALLY_TEXT("tally::explain",
                                "one pass of %1 tokens: %8 stages x (%2 + %3 + %4 + %5 s) + %9 s "
                                "of sends = %6 s; the batch: %7 s")
                   : TALLY_TEXT("tally::explain",
                                "one pass of %1 tokens: %2 + %3 + %4 + %5 s = %6 s; the batch: "
                                "%7 s"))
            .arg(num(s.prefill.tokens))
            .arg(fig(s.prefill.gemm_s))
            .arg(fig(s.prefill.attention_s))
            .arg(fig(s.prefill.fixed_s))
            .arg(fig(s.prefill.comm_s))
            .arg(fig(s.prefill.seconds))
            .arg(fig(s.prefill_s))
            .arg(str(in.pp))
            .arg(fig(s.prefill.pipeline_s)),
        fmt::format("attention: L a (d_qk + d_v) P (P + 1) FLOPs, causal (PaLM, Chowdhery et "
                    "al. 2022, app. B){}, at {}'s published {} over {} keys at head dimension {} "
                    "(Shah et al. 2024, Figs. 5-6){}; tile and wave quantization (NVIDIA Deep "
                    "Learning Performance Guide); achieved peaks (planner/hardware/efficiency.h)",
                    m.windowed_layers() > 0
                        ? fmt::format(", the query at i scoring min(i, {}) keys in the {} "
                                      "sliding-window layers",
                                      m.sliding_window, m.windowed_layers())
                        : std::string(),
                    find_enum_name(s.prefill_attention_kernel)->label,
                    tflops_text(s.prefill_attention_flops_per_s), num(dbl(in.prompt_tokens)),
                    num(s.prefill_attention_head_dim),
                    m.windowed_layers() > 0
                        ? std::string(", the windowed layers' kernel at its rate over "
                                      "min(P, 2 W) keys, weighted by their FLOPs")
                        : std::string()) +
            host_note + shape_table_note);
    add("serving.decode_step_s", QT_TRANSLATE_NOOP("tally::explain", "Decode step"),
        s.decode_step_s, "s",
        QT_TRANSLATE_NOOP("tally::formula",
                          "GEMMs (max of compute in waves, weights read / bandwidth, floor) + "
                          "max(attention FLOPs / peak, KV read / bandwidth, L floors) + small "
                          "kernels + 2 L all-reduces"),
        (in.pp > 1 ? TALLY_TEXT("tally::explain",
                                "%8 stages x (%1 + %2 + %3 + %4 s) + %9 s of sends = %5 s (a "
                                "stage's GEMMs: compute %6 s, weights %7 s)")
                   : TALLY_TEXT("tally::explain",
                                "%1 + %2 + %3 + %4 s = %5 s (GEMMs: compute %6 s, weights %7 s)"))
            .arg(fig(s.decode.gemm_s))
            .arg(fig(s.decode.attention_s))
            .arg(fig(s.decode.fixed_s))
            .arg(fig(s.decode.comm_s))
            .arg(fig(s.decode_step_s))
            .arg(fig(s.decode.gemm_compute_s))
            .arg(fig(s.decode.gemm_memory_s))
            .arg(str(in.pp))
            .arg(fig(s.decode.pipeline_s)),
        fmt::format(
            "Pope et al. 2022, sec. 3.1; GEMMs in {} at {} achieved, memory at {} "
            "achieved; {}: {} small kernels a layer at >= {} us each{}",
            to_string(s.gemm_type), tflops_text(s.gemm_peak_flops_per_s),
            tb_per_s_text(s.bandwidth_bytes_per_s), engine.label,
            num(engine.small_kernels_per_layer),
            num(1e6 * (dbl(in.batch) <= dbl(engine.cuda_graph_max_batch) ? kGraphKernelFloorS
                                                                         : kStreamKernelFloorS)),
            kv_reads > 1.0
                ? fmt::format("; KV cache read {} times a step, once per query head "
                              "(decode_attention per_query_head: TensorRT-LLM's masked MHA, "
                              "a thread block per query head)",
                              num(kv_reads))
                : std::string()) +
            host_note + (dbl(in.batch) >= 256.0 ? shape_table_note : std::string()));
    add("serving.decode.comm_s", QT_TRANSLATE_NOOP("tally::explain", "All-reduces per decode step"),
        s.decode.comm_s, "s",
        all_reduce == AllReduceKind::nccl
            ? QT_TRANSLATE_NOOP("tally::formula",
                                "2 L x min over NCCL's protocols (base latency + 2 (p - 1) x step "
                                "latency + 2 (p - 1) / p x B h 2 B / protocol's share of the "
                                "link)")
            : QT_TRANSLATE_NOOP("tally::formula",
                                "2 L x min(custom latency + 2 (p - 1) / p x B h 2 B / (0.16 "
                                "link), NCCL ring); NCCL ring above 8 MiB"),
        // One GPU a replica (tp 1) reduces nothing: said, rather than "0 x ... over 1 GPUs".
        in.tp == 1 ? TALLY_TEXT("tally::explain",
                                "none: tp 1, each replica on one GPU, reduces nothing = 0 s")
                   : TALLY_TEXT("tally::explain",
                                "%1 x %2 all-reduce of %3 B over %4 GPUs at %5 (NCCL counts %6 "
                                "for the link) = %7 s (%8 s of it latency)")
                         .arg(num(s.decode.all_reduces))
                         .arg_translated("tally::explain", to_string(all_reduce).data())
                         .arg(num(s.decode.all_reduce_bytes))
                         .arg(str(in.tp))
                         .arg(tb_per_s_text(s.link_bytes_per_s))
                         .arg(tb_per_s_text(s.nccl_link_bytes_per_s))
                         .arg(fig(s.decode.comm_s))
                         .arg(fig(s.decode.comm_latency_s)),
        all_reduce == AllReduceKind::nccl
            ? "ring all-reduce (Patarasuk & Yuan 2009; Thakur et al. 2005); NCCL's tuning "
              "model, LL / LL128 / Simple (src/graph/tuning.cc), at NCCL's link bandwidth "
              "(src/graph/topo.h: 20.0 / 20.6 / 40.1 GB/s per NVLink of SM80 / SM90 / SM100, "
              "PCIe width x speed / 80)"
            : "custom all-reduce measured on A100 NVLink (sgl-project/sglang pull request "
              "2688); NCCL's tuning model above vLLM's 8 MiB limit, at NCCL's link bandwidth "
              "(src/graph/topo.h)");
    // Continuous batching whose engine admits no request has no latency or throughput to
    // explain (ServingWarning::cache_holds_none says why).
    if (s.continuous && s.continuous->in_flight > 0.0) {
        const ContinuousBatchingPoint& cb = *s.continuous;
        // Past the batch the engine admits, the steps run over the B admitted (C = B).
        const double share = cb.chunk_share;
        const std::string who = cb.queue_s > 0.0 ? fmt::format("C = B = {}", num(cb.in_flight))
                                                 : fmt::format("C = {}", fig(cb.concurrency));
        add("serving.continuous.itl_s", QT_TRANSLATE_NOOP("tally::explain", "Inter-token latency"),
            cb.itl_s, "s",
            !in.chunked_prefill
                ? QT_TRANSLATE_NOOP("tally::formula",
                                    "decode step of C + C / O prefills of one prompt")
            : share <= 1.0
                ? QT_TRANSLATE_NOOP("tally::formula",
                                    "the mean step: (1 - q) x a decode of C alone + q x a pass "
                                    "over C and a chunk of P / ceil(P / k) tokens, q = (C / O) "
                                    "ceil(P / k), k = min(P, max_batched_tokens - C)")
                : QT_TRANSLATE_NOOP("tally::formula",
                                    "one step over C + C P / O tokens (decode plus prompt chunks)"),
            in.chunked_prefill && share <= 1.0
                ? fmt::format("{}, q = {}: {} s", who, fig(share), fig(cb.itl_s))
                : fmt::format("{}: {} s", who, fig(cb.itl_s)),
            "continuous batching (Orca, Yu et al. 2022); chunked prefill (Sarathi-Serve, "
            "Agrawal et al. 2024)");
        add("serving.continuous.ttft_s", QT_TRANSLATE_NOOP("tally::explain", "Time to first token"),
            cb.ttft_s, "s",
            cb.queue_s > 0.0
                ? (in.chunked_prefill
                       ? QT_TRANSLATE_NOOP("tally::formula",
                                           "ceil(P / k) steps over B + k tokens, k = min(P, "
                                           "max_batched_tokens - B), + the prefill wait + the "
                                           "wait for admission")
                       : QT_TRANSLATE_NOOP("tally::formula",
                                           "prefill of one prompt + the decode step under way + "
                                           "the wait for admission"))
            : in.chunked_prefill
                ? QT_TRANSLATE_NOOP("tally::formula",
                                    "ceil(P / k) steps over C + k tokens, k = min(P, "
                                    "max_batched_tokens - C), + the prefill wait")
                : QT_TRANSLATE_NOOP("tally::formula",
                                    "prefill of one prompt + the decode step under way (none "
                                    "with one client)"),
            cb.queue_s > 0.0 ? fmt::format("{} s + {} s + {} s = {} s",
                                           fig(cb.ttft_s - cb.queue_s - cb.prefill_wait_s),
                                           fig(cb.prefill_wait_s), fig(cb.queue_s), fig(cb.ttft_s))
            : in.chunked_prefill
                ? fmt::format("{} s + {} s = {} s", fig(cb.ttft_s - cb.prefill_wait_s),
                              fig(cb.prefill_wait_s), fig(cb.ttft_s))
                : fmt::format("{} s", fig(cb.ttft_s)),
            QT_TRANSLATE_NOOP("tally::source", "steady state, requests in flight = C"));
        if (in.chunked_prefill) {
            add("serving.continuous.prefill_wait_s",
                QT_TRANSLATE_NOOP("tally::explain", "Prefill wait"), cb.prefill_wait_s, "s",
                QT_TRANSLATE_NOOP("tally::formula",
                                  "the step under way when the request arrives (one ITL; none "
                                  "with one client) + where a step's budget takes one prompt, "
                                  "the prompts queued ahead: W - rho S / 2, W = "
                                  "Pollaczek-Khinchine's wait for the other C - 1 clients' "
                                  "prompts of S each (the prompt's own chunk steps), rho = "
                                  "(C - 1) S / cycle; part of the time to first token"),
                fmt::format("{} s", fig(cb.prefill_wait_s)),
                QT_TRANSLATE_NOOP("tally::source",
                                  "closed loop: a request arrives as its previous one's last step "
                                  "ends; Pollaczek-Khinchine (Kleinrock 1975, sec. 5.6) with the "
                                  "arrival theorem (Sevcik & Mitrani 1981)"));
        }
        if (cb.queue_s > 0.0) {
            // What stops admission: the step's token budget, or the engine's KV cache.
            const bool budget = cb.budget_bound;
            Text substitution =
                budget ? TALLY_TEXT("tally::explain",
                                    "(%1 / %2 - 1) x %3 s = %4 s; the token budget of %6 a step "
                                    "keeps %2 sequences running, the other %5 requests wait")
                       : TALLY_TEXT("tally::explain",
                                    "(%1 / %2 - 1) x %3 s = %4 s; the KV cache holds %2 "
                                    "sequences, the other %5 requests wait");
            substitution.arg(fig(cb.concurrency))
                .arg(num(cb.in_flight))
                .arg(fig(cb.e2e_s - cb.queue_s))
                .arg(fig(cb.queue_s))
                .arg(fig(cb.concurrency - cb.in_flight));
            if (budget) {
                substitution.arg(num(dbl(in.max_batched_tokens)));
            }
            add("serving.continuous.queue_s",
                QT_TRANSLATE_NOOP("tally::explain", "Wait for admission"), cb.queue_s, "s",
                budget ? QT_TRANSLATE_NOOP("tally::formula",
                                           "(C / B - 1) x end-to-end at B, B = the sequences the "
                                           "step's token budget keeps running; part of the time "
                                           "to first token")
                       : QT_TRANSLATE_NOOP("tally::formula",
                                           "(C / B - 1) x end-to-end at B, B = the sequences the "
                                           "engine's KV cache holds; part of the time to first "
                                           "token"),
                std::move(substitution),
                budget ? QT_TRANSLATE_NOOP("tally::source",
                                           "a step runs at most max_batched_tokens tokens; closed "
                                           "loop, Little's law (Little 1961)")
                       : QT_TRANSLATE_NOOP("tally::source",
                                           "engines admit a request only while its KV cache fits "
                                           "(vLLM scheduler; TensorRT-LLM GUARANTEED_NO_EVICT); "
                                           "closed loop, Little's law (Little 1961)"));
        }
        add("serving.continuous.tokens_per_s",
            QT_TRANSLATE_NOOP("tally::explain", "Throughput at concurrency"), cb.tokens_per_s,
            "tokens/s",
            QT_TRANSLATE_NOOP("tally::formula", "replicas x C x O / (TTFT + (O - 1) ITL)"),
            fmt::format("{} x {} x {} / {} s = {}", s.replicas, fig(cb.concurrency),
                        in.output_tokens, fig(cb.e2e_s), fig(cb.tokens_per_s)),
            QT_TRANSLATE_NOOP("tally::source", "Little's law"));
        // What the deployment holds while it serves at that concurrency: the KV caches of
        // the requests running, not of the static batch above (in_flight_memory()).
        const ServingMemory mem = in_flight_memory(spec, hw, cb);
        add("serving.continuous.memory_total_bytes",
            QT_TRANSLATE_NOOP("tally::explain", "Total per GPU, requests in flight"),
            mem.total_bytes, "bytes",
            QT_TRANSLATE_NOOP("tally::formula",
                              "weights + requests in flight x one sequence's KV cache per "
                              "GPU (as above) + activations at that batch"),
            TALLY_TEXT("tally::explain",
                       "%1 + %2 + %3 = %4 GB of %5 GB with %6 requests in "
                       "flight (%7)")
                .arg(fig(mem.weights_bytes / 1e9))
                .arg(fig(mem.kv_cache_bytes / 1e9))
                .arg(fig(mem.activation_bytes / 1e9))
                .arg(fig(mem.total_bytes / 1e9))
                .arg(num(mem.capacity_bytes / 1e9))
                .arg(num(dbl(std::llround(cb.in_flight >= 1.0 ? cb.in_flight : cb.concurrency))))
                .arg_translated("tally::explain",
                                mem.fits ? QT_TRANSLATE_NOOP("tally::explain", "fits")
                                         : QT_TRANSLATE_NOOP("tally::explain", "does not fit")),
            QT_TRANSLATE_NOOP(
                "tally::source",
                "each request at its full context, as the engine reserves it; the sum as the "
                "static batch's total"));
    }
    add("serving.tokens_per_s", QT_TRANSLATE_NOOP("tally::explain", "Throughput (static batch)"),
        s.tokens_per_s, "tokens/s",
        QT_TRANSLATE_NOOP("tally::formula", "replicas x batch x output / (prefill + output steps)"),
        fmt::format("{} x {} x {} / ({} + {} s) = {}", s.replicas, in.batch, in.output_tokens,
                    fig(s.prefill_s), fig(s.decode_total_s), fig(s.tokens_per_s)),
        QT_TRANSLATE_NOOP("tally::source", "output tokens of the whole deployment"));
    add("serving.per_sequence_tokens_per_s",
        QT_TRANSLATE_NOOP("tally::explain", "Tokens per second per sequence"),
        s.per_sequence_tokens_per_s, "tokens/s",
        QT_TRANSLATE_NOOP("tally::formula", "1 / decode step"),
        fmt::format("1 / {} s = {}", fig(s.decode_step_s), fig(s.per_sequence_tokens_per_s)),
        QT_TRANSLATE_NOOP("tally::source", "at the final context"));
    if (s.cost_per_million_tokens) {
        add("serving.cost_per_million_tokens",
            QT_TRANSLATE_NOOP("tally::explain", "Cost per million output tokens"),
            *s.cost_per_million_tokens, "currency",
            QT_TRANSLATE_NOOP("tally::formula",
                              "price per GPU-hour x GPUs / 3600 / tokens per s x 1e6"),
            fmt::format("{} x {} / 3600 / {} x 1e6 = {}", num(*s.price_per_gpu_hour),
                        spec.cluster.gpus,
                        fig(s.continuous ? s.continuous->tokens_per_s : s.tokens_per_s),
                        fig(*s.cost_per_million_tokens)),
            spec.cluster.price_per_gpu_hour
                ? "cluster.price_per_gpu_hour"
                : QT_TRANSLATE_NOOP("tally::source", "the hardware profile's price"));
    }
    add("serving.critical_batch", QT_TRANSLATE_NOOP("tally::explain", "Critical batch"),
        dbl(s.critical_batch), "sequences",
        QT_TRANSLATE_NOOP("tally::formula",
                          "smallest B with 2 N_matmul B / peak >= weights read / bandwidth"),
        TALLY_TEXT("tally::explain", "%1 (%2 at %3 over %4: ridge %5 FLOP per byte)")
            .arg(str(s.critical_batch))
            .arg(to_string(s.gemm_type))
            .arg(tflops_text(s.gemm_peak_flops_per_s))
            .arg(tb_per_s_text(s.bandwidth_bytes_per_s))
            .arg(fig(s.bandwidth_bytes_per_s > 0.0
                         ? s.gemm_peak_flops_per_s / s.bandwidth_bytes_per_s
                         : 0.0)),
        QT_TRANSLATE_NOOP(
            "tally::source",
            "roofline ridge (Williams et al. 2009); decode turns compute-bound beyond it"));
    return out;
}

}  // namespace tally
