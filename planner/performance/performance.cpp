// The step-time model (performance.h): GEMMs on the roofline with achieved peaks, memory-bound
// operations by bytes, collectives on a two-level network, the pipeline schedule and what overlaps.
// Pure, and allocation-free once a thread has met the part (gpu_generation() remembers the last
// one): evaluate() runs it for every plan, the layout search for every layout.
#include "planner/performance/performance.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

#include "planner/hardware/efficiency.h"
#include "planner/model/accounting.h"
#include "planner/model/attention_span.h"
#include "planner/model/model_shape.h"
#include "planner/model/pipeline_stages.h"
#include "planner/performance/calibration.h"
#include "planner/performance/engine.h"
#include "planner/performance/plan_gemms.h"

namespace tally {

namespace {

double dbl(std::int64_t v) {
    return static_cast<double>(v);
}

// Megatron-Core's data-parallel gradient buckets: max(40e6, 1e6 x dp) parameters each
// (megatron/core/distributed/distributed_data_parallel.py, bucket_size). The last bucket's
// collective starts only when the backward pass has produced it, so at least its time is exposed.
double bucket_params(std::int64_t dp) {
    return std::max(40e6, 1e6 * dbl(dp));
}

// The work of one transformer layer (or the output layer) for one micro-batch on one GPU.
struct LayerWork {
    double fwd_gemm_s = 0.0;
    double bwd_gemm_s = 0.0;
    double recompute_s = 0.0;  // repeated forward work (GEMMs and memory-bound ops)
    double mem_fwd_s = 0.0;
    double mem_bwd_s = 0.0;
    double tp_s = 0.0;        // tensor-parallel collectives, forward, backward and recomputed
    double ep_s = 0.0;        // expert-parallel all-to-all
    double cp_s = 0.0;        // context-parallel key/value exchange not hidden behind attention
    double overhead_s = 0.0;  // kernel launch gaps (engine.h)
    // Tensor- and expert-parallel traffic hidden behind compute (tp_comm_overlap,
    // ep_comm_overlap): it still takes SMs.
    double hidden_comm_s = 0.0;
    // FP8 casts (bytes, turned into time by transformer_layer_work): of the GEMM inputs forward,
    // of the output gradients backward, and of the weights once per step.
    double cast_fwd_bytes = 0.0;
    double cast_bwd_bytes = 0.0;
    double cast_weight_bytes = 0.0;
    double cast_weight_s = 0.0;    // once per step, not per micro-batch
    double attention_fwd_s = 0.0;  // the attention core's kernels, inside fwd/bwd_gemm_s
    double attention_bwd_s = 0.0;

    LayerWork& operator+=(const LayerWork& o) {
        fwd_gemm_s += o.fwd_gemm_s;
        bwd_gemm_s += o.bwd_gemm_s;
        recompute_s += o.recompute_s;
        mem_fwd_s += o.mem_fwd_s;
        mem_bwd_s += o.mem_bwd_s;
        tp_s += o.tp_s;
        ep_s += o.ep_s;
        cp_s += o.cp_s;
        overhead_s += o.overhead_s;
        hidden_comm_s += o.hidden_comm_s;
        cast_fwd_bytes += o.cast_fwd_bytes;
        cast_bwd_bytes += o.cast_bwd_bytes;
        cast_weight_bytes += o.cast_weight_bytes;
        cast_weight_s += o.cast_weight_s;
        attention_fwd_s += o.attention_fwd_s;
        attention_bwd_s += o.attention_bwd_s;
        return *this;
    }
    LayerWork scaled(double f) const {
        LayerWork w = *this;
        w.fwd_gemm_s *= f;
        w.bwd_gemm_s *= f;
        w.recompute_s *= f;
        w.mem_fwd_s *= f;
        w.mem_bwd_s *= f;
        w.tp_s *= f;
        w.ep_s *= f;
        w.cp_s *= f;
        w.overhead_s *= f;
        w.hidden_comm_s *= f;
        w.cast_fwd_bytes *= f;
        w.cast_bwd_bytes *= f;
        w.cast_weight_bytes *= f;
        w.cast_weight_s *= f;
        w.attention_fwd_s *= f;
        w.attention_bwd_s *= f;
        return w;
    }
    // One micro-batch (the weights' casts are once per step: not in it).
    double total_s() const {
        return fwd_gemm_s + bwd_gemm_s + recompute_s + mem_fwd_s + mem_bwd_s + tp_s + ep_s + cp_s +
               overhead_s;
    }
};

// The backward pass of an elementwise or normalising op y = f(x) reads the output gradient and
// the saved input and writes the input gradient: three tensors where the forward moves two.
constexpr double kMemoryBoundBackwardFactor = 1.5;

struct Context {
    const PlanSpec& spec;
    AchievedRates rates;  // the compute type's: the linear layers' GEMMs
    Network net;
    double gemm_bytes = 2.0;  // bytes per operand value of the compute dtype
    double act_bytes = 2.0;   // bytes per stored activation value
    double tokens = 0.0;      // one micro-batch on one GPU: micro_batch x seq_len / cp
    GroupPlacement tp_group;
    GroupPlacement ep_group;
    GemmTimer gemm;  // gemm_time_shaped() on `rates`
    // The profile when it carries measured GEMM times (null otherwise, the usual case, so that a
    // plan on a catalog profile does no lookup at all).
    const HardwareProfile* measured = nullptr;
    ComputeType type = ComputeType::bf16;
    // An FP8 or NVFP4 step runs only the linear layers' GEMMs in that format (Transformer
    // Engine's recipes: the router, the output layer and attention stay in bf16;
    // docs/features/low_precision_training, and for NVFP4 its recipe's fp8_dpa = False and
    // Megatron-Core's plain ColumnParallelLinear output layer): those run at the bf16 rate,
    // `wide`.
    bool low_precision = false;
    GemmTimer wide;
    ComputeType wide_type = ComputeType::bf16;
    const EnginePreset* engine = nullptr;
    AttentionKernel attention = AttentionKernel::flash2;
    GpuGeneration generation = GpuGeneration::other;
    double bf16_peak = 0.0;      // the dense bf16 peak the attention fractions are of
    double attention_seq = 0.0;  // the sequence length each attention kernel sees (s / cp)
    // The share of the layers whose forward is recomputed (full_recompute_fraction()).
    double recomputed = 0.0;
    std::int64_t microbatches = 1;  // per step on one GPU (gradient accumulation)
    // The fused attention kernel's achieved FLOP/s at attention_seq and the model's head
    // dimension, forward and backward (model_attention_fraction() of bf16_peak), once per plan.
    double attention_fwd_flops_per_s = 0.0;
    double attention_bwd_flops_per_s = 0.0;
    // The share of the s x s scores a causal fused kernel computes: 1/2, less with sliding-window
    // layers (causal_score_share(), attention_span.h).
    double score_share = 0.5;
    // gemm_timer_id() of `gemm` at gemm_bytes and of `wide` at 2 bytes (gemm_passes()).
    std::uint64_t gemm_id = 0;
    std::uint64_t wide_id = 0;

    // `count` GEMMs of m x n x k: the profile's measured time of exactly that GEMM when it has
    // one (plan_gemms.h), else the roofline time with quantization. `linear`: a linear layer's
    // GEMM (FP8 in an FP8 step); otherwise one that stays in bf16.
    double gemm_s(double count, double m, double n, double k, bool linear = true) const {
        const bool narrow = linear || !low_precision;
        if (measured != nullptr) {
            if (const auto s =
                    measured_gemm_seconds(*measured, narrow ? type : wide_type, count, m, n, k)) {
                return *s;
            }
        }
        return narrow ? gemm.seconds(count, m, n, k, gemm_bytes)
                      : wide.seconds(count, m, n, k, 2.0);
    }
};

// Bytes one Transformer Engine FP8 cast moves per value of a tensor that a forward GEMM and a
// backward GEMM both read (docs/features/low_precision_training; the quantizers of
// transformer_engine/pytorch/csrc/quantizer.cpp): it reads the 16-bit tensor (2 bytes) and writes
// an FP8 copy (1) laid out for the forward GEMM, and, where that copy cannot serve the backward
// GEMM, a second one for it (1).
//   delayed, current: one per-tensor scale serves both layouts. Blackwell's FP8 GEMMs take any
//     operand layout (nvte_is_non_tn_fp8_gemm_supported(): compute capability 10.x to 11.x, or
//     13.0 and later; transformer_engine/common/transformer_engine.cpp), so the one copy does;
//     cuBLASLt's FP8 GEMMs elsewhere take only the TN layout, so Float8Quantizer writes a
//     transposed copy too (create_transpose). Current scaling first reads the tensor once more
//     for its amax (+2).
//   block: a 1 x 128 tile scales activations along the row, so the backward's copy is quantized
//     along the other dimension, a copy of its own, each with an fp32 scale per 128 values
//     (4 / 128 bytes per value); weights take 128 x 128 blocks, 4 bytes per 16384 values a copy
//     (DeepSeek-AI 2024, sec. 3.3.2; Float8BlockQuantizer).
//   mxfp8: one E8M0 scale (1 byte) per 32 consecutive values along the GEMM's reduction
//     dimension (OCP Microscaling Formats (MX) Specification v1.0), which differs between the
//     forward and the backward GEMMs: MXFP8Quantizer writes a rowwise and a columnwise copy, each
//     with its scales (1 / 32 bytes per value), weights included.
double fp8_cast_bytes_per_value(Fp8Recipe recipe, GpuGeneration generation, bool weight) {
    const double read_and_write = 2.0 + 1.0;
    switch (recipe) {
        case Fp8Recipe::delayed:
        case Fp8Recipe::current: {
            const double transpose = generation == GpuGeneration::blackwell ? 0.0 : 1.0;
            const double amax = recipe == Fp8Recipe::current ? 2.0 : 0.0;
            return read_and_write + transpose + amax;
        }
        case Fp8Recipe::block:
            return read_and_write + 1.0 + 2.0 * (weight ? 4.0 / (128.0 * 128.0) : 4.0 / 128.0);
        case Fp8Recipe::mxfp8:
            return read_and_write + 1.0 + 2.0 * (1.0 / 32.0);
    }
    return read_and_write + 1.0;
}

// Bytes Transformer Engine's NVFP4 recipe (NVFP4BlockScaling, transformer_engine/common/recipe;
// the quantizer of transformer_engine/pytorch/csrc/quantizer.cpp) moves per value of a tensor a
// linear layer quantizes. Every value is stored as a 4-bit E2M1 (0.5 bytes) with one E4M3 scale
// per 16 values (1 / 16 bytes), in a row-wise copy for one GEMM and a column-wise, transposed
// copy for the other (NVFP4 GEMMs take only the TN layout), each with its scales. Its per-tensor
// FP32 scale comes from the tensor's amax, which a kernel of its own reads first (current
// scaling): the 16-bit tensor is read twice.
//   activations and output gradients: the amax kernel (nvte_hadamard_transform_amax) reads the
//     tensor once for both copies' amaxes, the second of them after the 16 x 16 random Hadamard
//     transform the recipe applies to the weight gradient's operands; the fused kernel
//     (nvte_quantize_with_hadamard_transform) reads it again and writes both copies. The fused
//     norm and activation kernels do not write NVFP4 themselves when the transform is on.
//   weights: no transform, 16 x 16 blocks (2D quantization): an amax kernel, then one
//     quantize-and-transpose kernel writing both copies; once per step, as FP8's (the first
//     micro-batch's copy is cached).
double nvfp4_cast_bytes_per_value() {
    const double reads = 2.0 * 2.0;                  // the amax pass and the cast, 16 bits each
    const double copies = 2.0 * (0.5 + 1.0 / 16.0);  // row-wise and column-wise, with scales
    return reads + copies;
}

// The bytes per value one low-precision cast of the step's recipe moves (fp8_cast_bytes_per_value()
// or nvfp4_cast_bytes_per_value()).
double cast_bytes_per_value(ComputeType type, Fp8Recipe recipe, GpuGeneration generation,
                            bool weight) {
    return type == ComputeType::fp4 ? nvfp4_cast_bytes_per_value()
                                    : fp8_cast_bytes_per_value(recipe, generation, weight);
}

bool is_attention_core(GemmRole role) {
    return role == GemmRole::attention_scores || role == GemmRole::attention_values;
}

// The GEMMs of the attention block (projections and core), the same in a dense and an MoE layer.
bool is_attention_gemm(GemmRole role) {
    switch (role) {
        case GemmRole::qkv:
        case GemmRole::q_down:
        case GemmRole::q_up:
        case GemmRole::kv_down:
        case GemmRole::kv_up:
        case GemmRole::attention_scores:
        case GemmRole::attention_values:
        case GemmRole::out_proj:
            return true;
        default:
            return false;
    }
}

// Which GEMMs of a list to time: the attention block's (timed once, shared by every layer kind),
// the rest (the MLP or the experts), or all of them.
enum class GemmPart { all, attention, rest };

// The GEMMs that are a linear layer's (FP8 in an FP8 step): not the attention core, the router
// (Megatron-Core keeps it in fp32/bf16) or the output layer (not a Transformer Engine module).
bool is_linear_gemm(GemmRole role) {
    return !is_attention_core(role) && role != GemmRole::router && role != GemmRole::lm_head;
}

// Which passes of a GEMM Transformer Engine's tensor-parallel overlap cuts into tp chunks of rows
// (Megatron-Bridge's userbuffers settings, src/megatron/bridge/training/comm_overlap.py: the
// forward of QKV, the output projection and both MLP projections by ring exchange or pipelining,
// and the data gradients of the output projection and the second MLP projection by ring
// exchange; the other backward GEMMs overlap their collective in bulk, whole).
enum class ChunkedGemm { none, forward, forward_and_data_gradient };

ChunkedGemm tp_overlap_chunking(const TrainingSpec& t, GemmRole role) {
    if (!t.tp_comm_overlap || !t.sequence_parallel || t.tp < 2) {
        return ChunkedGemm::none;
    }
    switch (role) {
        case GemmRole::qkv:
        case GemmRole::mlp_up:
            return ChunkedGemm::forward;
        case GemmRole::out_proj:
        case GemmRole::mlp_down:
            return ChunkedGemm::forward_and_data_gradient;
        default:
            return ChunkedGemm::none;
    }
}

// The forward and backward time of one GEMM of a layer (not the fused attention core).
struct GemmPasses {
    double fwd_s = 0.0;
    double bwd_s = 0.0;
};

GemmPasses timed_passes(const Context& c, const LayerGemm& g, bool linear, ChunkedGemm chunked) {
    // Forward: Y = X·W, the m x n output over k. Backward (CS336 lecture 2: twice the forward's
    // FLOPs) is two GEMMs of their own shapes, each quantized on its output: the data gradient
    // dX = dY·Wᵀ, an m x k output over n, and the weight gradient dW = Xᵀ·dY, a k x n output
    // over m.
    const double weight_gradient_s = c.gemm_s(g.count, g.k, g.n, g.m, linear);
    if (chunked == ChunkedGemm::none) {
        return {c.gemm_s(g.count, g.m, g.n, g.k, linear),
                c.gemm_s(g.count, g.m, g.k, g.n, linear) + weight_gradient_s};
    }
    // Overlapped with its all-gather or reduce-scatter (tp_comm_overlap), the GEMM runs as tp
    // GEMMs of m / tp rows each, one per chunk of the ring exchange (Wang et al. 2023, sec. 3),
    // each quantized on its own smaller output.
    const double tp = dbl(c.spec.training.tp);
    const double data_gradient_s = chunked == ChunkedGemm::forward_and_data_gradient
                                       ? c.gemm_s(g.count * tp, g.m / tp, g.k, g.n, linear)
                                       : c.gemm_s(g.count, g.m, g.k, g.n, linear);
    return {c.gemm_s(g.count * tp, g.m / tp, g.n, g.k, linear),
            data_gradient_s + weight_gradient_s};
}

// The id of a GEMM timer and the operand width it times at, for the pass-time memo below: the
// last few timers a thread met, each under an id that is never given again, so that a memo entry
// of a timer since forgotten can never match.
std::uint64_t gemm_timer_id(const GemmTimer& timer, double bytes_per_value) {
    struct Known {
        GemmTimer timer;
        double bytes_per_value = 0.0;
        std::uint64_t id = 0;
    };
    thread_local std::array<std::optional<Known>, 8> known;
    thread_local std::uint64_t next_id = 1;
    thread_local std::size_t next_slot = 0;
    for (const std::optional<Known>& k : known) {
        if (k && k->bytes_per_value == bytes_per_value && k->timer == timer) {
            return k->id;
        }
    }
    std::optional<Known>& slot = known[next_slot];
    next_slot = (next_slot + 1) % known.size();
    slot = Known{timer, bytes_per_value, next_id++};
    return slot->id;
}

// timed_passes(), remembered per thread by timer and shape. A plan times the same GEMMs again on
// every evaluation that leaves their shapes alone (a slider on the data, the price or the
// cluster's size), and a layout search times a few hundred shapes over thousands of layouts, so
// a direct-mapped memo of 256 entries answers most of them without timing three GEMMs. A profile
// with measured GEMM times is not remembered: its lookups are the profile's own.
GemmPasses gemm_passes(const Context& c, const LayerGemm& g, bool linear, ChunkedGemm chunked) {
    if (c.measured != nullptr) {
        return timed_passes(c, g, linear, chunked);
    }
    const std::uint64_t timer = linear || !c.low_precision ? c.gemm_id : c.wide_id;
    const double tp = chunked == ChunkedGemm::none ? 1.0 : dbl(c.spec.training.tp);
    struct Remembered {
        std::uint64_t timer = 0;  // 0: empty
        double count = 0.0;
        double m = 0.0;
        double n = 0.0;
        double k = 0.0;
        double tp = 0.0;
        ChunkedGemm chunked = ChunkedGemm::none;
        GemmPasses passes;
    };
    thread_local std::array<Remembered, 256> memo{};
    std::uint64_t h = timer * 0x9e3779b97f4a7c15ULL;
    for (double x : {g.count, g.m, g.n, g.k, tp}) {
        h = (h ^ std::bit_cast<std::uint64_t>(x)) * 0x9e3779b97f4a7c15ULL;
    }
    h = (h ^ static_cast<std::uint64_t>(chunked)) * 0x9e3779b97f4a7c15ULL;
    Remembered& slot = memo[static_cast<std::size_t>(h >> 56)];
    if (slot.timer != timer || slot.count != g.count || slot.m != g.m || slot.n != g.n ||
        slot.k != g.k || slot.tp != tp || slot.chunked != chunked) {
        slot = {timer, g.count, g.m, g.n, g.k, tp, chunked, timed_passes(c, g, linear, chunked)};
    }
    return slot.passes;
}

// Forward, backward and recomputed GEMM time of a list.
void time_gemms(const Context& c, const GemmList& list, LayerWork& w,
                GemmPart part = GemmPart::all) {
    const TrainingSpec& t = c.spec.training;
    const RecomputeModules modules = selective_recompute(t);
    for (const LayerGemm& g : list) {
        if (part != GemmPart::all && (part == GemmPart::attention) != is_attention_gemm(g.role)) {
            continue;
        }
        const bool core = is_attention_core(g.role);
        const bool linear = is_linear_gemm(g.role);
        double fwd = 0.0;
        double bwd = 0.0;
        const std::optional<double> measured_core =
            core && t.flash_attention && c.measured != nullptr
                ? measured_gemm_seconds(*c.measured, c.wide_type, g.count, g.m, g.n, g.k)
                : std::nullopt;
        if (measured_core) {
            // The card's own time of the scores (or values) product: causal blocks above the
            // diagonal skipped, half of it (Dao 2023, sec. 3.1.1), less outside a sliding window;
            // the backward recomputes the scores, 2.5x the forward (sec. 4.1).
            fwd = c.score_share * *measured_core;
            bwd = 2.5 * fwd;
            w.attention_fwd_s += fwd;
            w.attention_bwd_s += bwd;
        } else if (core && t.flash_attention) {
            // A fused attention kernel at its published throughput (engine.h): causal blocks
            // above the diagonal are skipped, half the s x s products (Dao 2023, sec. 3.1.1),
            // and a sliding window's blocks outside the band (c.score_share); its backward
            // recomputes the scores, 2.5x the forward's FLOPs (sec. 4.1).
            const double flops = c.score_share * g.flops();
            const double fwd_rate = c.attention_fwd_flops_per_s;
            const double bwd_rate = c.attention_bwd_flops_per_s;
            fwd = fwd_rate > 0.0 ? flops / fwd_rate : 0.0;
            bwd = bwd_rate > 0.0 ? 2.5 * flops / bwd_rate : 0.0;
            w.attention_fwd_s += fwd;
            w.attention_bwd_s += bwd;
        } else {
            const GemmPasses passes = gemm_passes(c, g, linear, tp_overlap_chunking(t, g.role));
            fwd = passes.fwd_s;
            bwd = passes.bwd_s;
        }
        w.fwd_gemm_s += fwd;
        w.bwd_gemm_s += bwd;
        if (c.low_precision && linear) {
            // Transformer Engine's FP8 or NVFP4 casts (cast_bytes_per_value()): forward, the
            // input X (m x k); backward, the output gradient dY (m x n). The weights (k x n) are
            // cast once per step: the first micro-batch's cast is cached (is_first_microbatch).
            const double activation =
                cast_bytes_per_value(c.type, t.fp8_recipe, c.generation, false);
            w.cast_fwd_bytes += g.count * g.m * g.k * activation;
            w.cast_bwd_bytes += g.count * g.m * g.n * activation;
            w.cast_weight_bytes += g.count * g.k * g.n *
                                   cast_bytes_per_value(c.type, t.fp8_recipe, c.generation, true);
        }
        // Korthikanti et al. 2022, sec. 5: full recomputation repeats the layer's forward;
        // selective repeats only the attention core (which flash attention's backward already
        // recomputes, counted above).
        // Recomputing some of the layers (recompute_layers) repeats the forward of that share.
        // Selective recomputation of Megatron-Core's modules (training.recompute_modules)
        // repeats their forward GEMMs: mla_up_proj the query and key/value up projections, mlp
        // a dense layer's MLP.
        if (t.recompute == Recompute::full || t.recompute == Recompute::sqrt) {
            w.recompute_s += c.recomputed * fwd;
        } else if (t.recompute == Recompute::selective) {
            const bool repeated =
                (modules.core_attn && core && !t.flash_attention) ||
                (modules.mla_up_proj && (g.role == GemmRole::q_up || g.role == GemmRole::kv_up)) ||
                (modules.mlp && (g.role == GemmRole::mlp_up || g.role == GemmRole::mlp_down));
            if (repeated) {
                w.recompute_s += fwd;
            }
        }
    }
}

// Memory-bound bytes of one transformer layer's forward pass on one GPU.
struct LayerBytes {
    double total = 0.0;
    double attention_core = 0.0;  // softmax and attention dropout (selective recomputes these)
    // The MLP block's part of total: its norm and residual add, its dropout, the activation and
    // the MoE permutations. The rest belongs to the attention block.
    double mlp = 0.0;
    // Parts of total that selective recomputation of Megatron-Core's modules repeats: the two
    // norms (layernorm), a dense MLP's activation function (mlp) and the routed experts' (moe_act).
    double norms = 0.0;
    double dense_act = 0.0;
    double routed_act = 0.0;
};

LayerBytes transformer_layer_bytes(const Context& c, bool moe_layer) {
    const ModelSpec& m = c.spec.model;
    const TrainingSpec& t = c.spec.training;
    const double tp = dbl(t.tp);
    const double e = c.act_bytes;
    const double T = c.tokens;
    const double b = dbl(c.spec.data.micro_batch);
    const double s = dbl(c.spec.data.seq_len);
    const double cp = dbl(t.context_parallel);
    const double h = dbl(m.hidden);
    const double heads = dbl(m.heads) / tp;
    const EnginePreset& engine = *c.engine;
    // The hidden-state tensors (norm inputs and outputs, residual sums) are replicated over the
    // tensor-parallel ranks, or split by them with sequence parallelism (Korthikanti sec. 4.2.2).
    const double hidden_bytes = T * h * e / (t.sequence_parallel ? tp : 1.0);
    LayerBytes out;
    // Two norms (read x, write y; an unfused RMSNorm more, engine.h) and two residual adds (read
    // two, write one).
    const double norm = m.norm == NormKind::rmsnorm ? engine.rmsnorm_traffic : 1.0;
    out.norms = 2.0 * 2.0 * hidden_bytes * norm;
    out.total += out.norms + 2.0 * 3.0 * hidden_bytes;
    if (t.dropout) {
        // Two hidden dropouts: read, write, and a one-byte mask per value.
        out.total += 2.0 * (2.0 * hidden_bytes + hidden_bytes / e);
    }
    out.mlp = 0.5 * out.total;  // one norm, one residual add and one dropout of the two
    // Rotary embeddings on queries and keys (read, write) unless positions are learned.
    if (m.learned_positions == 0) {
        const double rotated = m.mla.enabled()
                                   ? (heads + 1.0) * dbl(m.mla.qk_rope_head_dim)
                                   : (heads + std::max(dbl(m.effective_kv_heads()) / tp, 1.0)) *
                                         dbl(m.effective_head_dim());
        out.total += 2.0 * T * rotated * e * engine.rope_traffic;
    }
    // QK-norm: a norm over each query and key head (read, write; an unfused RMSNorm more), on the
    // GPU's heads and its KV heads (one where tp exceeds them, as the rotation above).
    if (m.qk_norm && !m.mla.enabled()) {
        const double normed =
            (heads + std::max(dbl(m.effective_kv_heads()) / tp, 1.0)) * dbl(m.effective_head_dim());
        out.total += 2.0 * T * normed * e * norm;
    }
    if (!t.flash_attention) {
        // The s x s scores are materialised: softmax reads and writes them (Korthikanti sec. 4.1
        // counts the 2·a·s²·b softmax output); dropout on them reads, writes and keeps a mask.
        const double scores = b * heads * s * s / cp;
        out.attention_core = 2.0 * scores * e + (t.dropout ? scores * (2.0 * e + 1.0) : 0.0);
        out.total += out.attention_core;
    }
    const bool gated = m.ffn == FfnKind::swiglu;
    // SwiGLU reads gate and up, writes one (unfused: more, engine.h).
    const double act_io = gated ? 3.0 * engine.swiglu_traffic : 2.0;
    const double before_mlp = out.total;
    if (!moe_layer) {
        out.dense_act = act_io * T * dbl(m.ffn_hidden) / tp * e;
        out.total += out.dense_act;
    } else {
        const double fe = dbl(m.effective_expert_ffn());
        // The busiest rank's share of the routed tokens (training.moe_imbalance).
        const double routed = T * dbl(m.moe.active_experts) * t.moe_imbalance;
        out.routed_act = act_io * routed * fe / tp * e;
        out.total += out.routed_act + act_io * T * dbl(m.moe.shared_experts) * fe / tp * e;
        // Dispatch and combine permute the routed tokens (read and write each): with sequence
        // parallelism a rank's own s / tp slice (the all-to-all's, below).
        out.total += 2.0 * 2.0 * routed / (t.sequence_parallel ? tp : 1.0) * h * e;
    }
    out.mlp += out.total - before_mlp;
    return out;
}

// C(a, r) / C(b, r) = the product over i < r of (a - i) / (b - i): the chance that r distinct
// picks out of b all fall among a given a of them.
double all_among(double a, double b, double r) {
    double p = 1.0;
    for (double i = 0.0; i < r; i += 1.0) {
        if (a - i <= 0.0) {
            return 0.0;
        }
        p *= (a - i) / (b - i);
    }
    return p;
}

// The other nodes of the expert-parallel group that one token's k routed experts sit on, on
// average, with the experts spread evenly over the group's ranks and routing uniform (the
// balanced routing the rest of the model assumes). A node is missed when none of the token's
// experts is on it: C(E - E_node, k) / C(E, k) for k experts among E, E_node of them on the node.
// With group-limited routing whose groups each lie within one node (DeepSeek-V3's node-limited
// routing: 8 groups of 32 experts, 4 chosen; DeepSeek-AI 2024, sec. 2.1.2), a node is missed when
// none of its groups is among the chosen: C(G - G_node, g) / C(G, g), taking every chosen group to
// receive one of the token's experts at least.
double remote_nodes_per_token(const MoeSpec& moe, const GroupPlacement& ep) {
    const double nodes = dbl(ep.nodes);
    const double experts = dbl(moe.experts);
    const double on_node = experts * dbl(ep.members_per_node) / dbl(ep.ranks);
    double missed = all_among(experts - on_node, experts, dbl(moe.active_experts));
    if (moe.router_groups > 0 && moe.router_group_topk > 0) {
        const double groups = dbl(moe.router_groups);
        const double groups_on_node = groups * dbl(ep.members_per_node) / dbl(ep.ranks);
        if (groups_on_node >= 1.0 && groups_on_node == std::floor(groups_on_node)) {
            missed = all_among(groups - groups_on_node, groups, dbl(moe.router_group_topk));
        }
    }
    return (nodes - 1.0) * (1.0 - missed);
}

// The context-parallel exchange of one layer and micro-batch not hidden behind its attention
// (cp > 1, a transformer); `w` holds the layer's attention times.
double context_parallel_exchange_s(const Context& c, const LayerWork& w) {
    const ModelSpec& m = c.spec.model;
    const TrainingSpec& t = c.spec.training;
    // Context parallelism as ring attention (Megatron-Core's context parallelism, docs/user-guide/
    // features/context_parallel.md; Liu et al. 2023, "Ring Attention", sec. 3; Dubey et al. 2024,
    // sec. 3.3.2): in each of cp - 1 steps a rank sends the key/value chunk it holds to the next
    // rank of the ring while its attention kernel runs on the chunk it has; the backward sends
    // the keys and values again and their gradients (twice the bytes). A step's send hides
    // behind that step's attention, so what is exposed is the exchange beyond the attention time
    // of the cp - 1 steps that overlap it. The ring runs on cp ranks tp apart (Megatron's rank
    // order tp, cp, dp, pp); one that spans nodes runs at the scale-out link.
    const double cp = dbl(t.context_parallel);
    const double heads = dbl(m.heads) / dbl(t.tp);
    const double kv_width =
        m.mla.enabled()
            ? heads * dbl(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim + m.mla.v_head_dim)
            : 2.0 * std::max(dbl(m.effective_kv_heads()) / dbl(t.tp), 1.0) *
                  dbl(m.effective_head_dim());
    const double bytes = c.tokens * kv_width * c.act_bytes;
    const GroupPlacement ring = place_group(t.context_parallel, t.tp, c.net.gpus_per_node);
    if (m.windowed_layers() > 0) {
        // Sliding-window attention does not run on the ring: Transformer Engine's
        // attn_forward_func_with_cp asserts cp_comm_type "a2a" or "all_gather" whenever a
        // window is set ("The context parallel running configs cannot support sliding window
        // attention"), and the launch configurations Tally writes set "all_gather"
        // (launch_tables.cpp). AttnFuncWithCPAndKVAllGather gathers every rank's keys and
        // values before its attention runs, gathers them again in the backward and
        // reduce-scatters their gradients after it: the same bytes as the ring's cp - 1
        // steps, none of it overlapping the attention. One exchange type serves every layer.
        const double gather =
            collective_time(Collective::all_gather, cp * bytes, ring, c.net).seconds;
        const double scatter =
            collective_time(Collective::reduce_scatter, cp * bytes, ring, c.net).seconds;
        return (1.0 + c.recomputed) * gather + gather + scatter;
    }
    const std::int64_t stride = ring.nodes > 1 ? c.net.gpus_per_node : t.tp;
    const double step = p2p_time_s(bytes, stride, c.net);
    const double overlap = (cp - 1.0) / cp;
    const double fwd = std::max(0.0, (cp - 1.0) * step - overlap * w.attention_fwd_s);
    const double bwd = std::max(0.0, 2.0 * (cp - 1.0) * step - overlap * w.attention_bwd_s);
    return (1.0 + c.recomputed) * fwd + bwd;
}

// `attention`: the attention block's GEMM time (time_gemms() of GemmPart::attention), which
// dense and MoE layers share, so a model with both times it once.
// `gemms`: the layer's GEMMs (layer_gemms() for this kind of layer).
LayerWork transformer_layer_work(const Context& c, bool moe_layer, const GemmList& gemms,
                                 const LayerWork& attention) {
    const TrainingSpec& t = c.spec.training;
    const ModelSpec& m = c.spec.model;
    LayerWork w = attention;
    time_gemms(c, gemms, w, GemmPart::rest);
    const LayerBytes bytes = transformer_layer_bytes(c, moe_layer);
    w.mem_fwd_s = memory_time_s(c.rates, bytes.total);
    w.mem_bwd_s = kMemoryBoundBackwardFactor * w.mem_fwd_s;
    // FP8 casts (time_gemms()): with the forward's memory-bound work, so full recomputation
    // repeats them too.
    w.mem_fwd_s += memory_time_s(c.rates, w.cast_fwd_bytes);
    w.mem_bwd_s += memory_time_s(c.rates, w.cast_bwd_bytes);
    w.cast_weight_s = memory_time_s(c.rates, w.cast_weight_bytes);
    // Kernel launch gaps: the engine's kernels per layer, each FP8 linear GEMM adding a cast
    // forward and backward (an NVFP4 cast is two kernels, its amax pass and the cast), a full
    // recomputation the forward's again.
    double kernels = c.engine->kernels_forward * (1.0 + c.recomputed) + c.engine->kernels_backward;
    if (c.low_precision) {
        kernels += (c.type == ComputeType::fp4 ? 4.0 : 2.0) * (m.mla.enabled() ? 6.0 : 4.0);
    }
    // QK-norm: a norm kernel for the queries and one for the keys each way (Megatron-Core's
    // q_layernorm and k_layernorm are separate modules; eager PyTorch launches more, which the
    // engine's norm traffic above counts as memory, not as kernels).
    if (m.qk_norm && !m.mla.enabled()) {
        kernels += 2.0 * (1.0 + c.recomputed) + 2.0;
    }
    w.overhead_s = kernels * kKernelLaunchGapS;
    if (t.recompute == Recompute::full || t.recompute == Recompute::sqrt) {
        w.recompute_s += c.recomputed * w.mem_fwd_s;
    } else if (t.recompute == Recompute::selective) {
        const RecomputeModules modules = selective_recompute(t);
        w.recompute_s += memory_time_s(c.rates, (modules.core_attn ? bytes.attention_core : 0.0) +
                                                    (modules.layernorm ? bytes.norms : 0.0) +
                                                    (modules.mlp ? bytes.dense_act : 0.0) +
                                                    (modules.moe_act ? bytes.routed_act : 0.0));
    }
    // Megatron-LM (Shoeybi et al. 2019, sec. 3, Fig. 4): two all-reduces of the b x s x h
    // activations forward (after attention, after the MLP) and two backward; with sequence
    // parallelism each becomes a reduce-scatter plus an all-gather of the same tensor
    // (Korthikanti sec. 4.2.2), which moves the same bytes. Full recomputation repeats the
    // forward's (Korthikanti sec. 5).
    if (t.tp > 1) {
        const double activation_bytes = c.tokens * dbl(m.hidden) * c.act_bytes;
        double one = 0.0;
        if (t.sequence_parallel) {
            one = collective_time(Collective::reduce_scatter, activation_bytes, c.tp_group, c.net)
                      .seconds +
                  collective_time(Collective::all_gather, activation_bytes, c.tp_group, c.net)
                      .seconds;
        } else {
            one = collective_time(Collective::all_reduce, activation_bytes, c.tp_group, c.net)
                      .seconds;
        }
        w.tp_s = (4.0 + 2.0 * c.recomputed) * one;
        if (t.sequence_parallel) {
            // The inputs of the two column-parallel GEMMs (QKV and the MLP's first) are kept
            // split along the sequence, as the memory model counts them (Korthikanti sec. 4.2.2),
            // so the backward all-gathers each again before its weight-gradient GEMM.
            w.tp_s +=
                2.0 * collective_time(Collective::all_gather, activation_bytes, c.tp_group, c.net)
                          .seconds;
        }
        if (t.tp_comm_overlap && t.sequence_parallel) {
            // Transformer Engine's userbuffers (Wang et al. 2023, ASPLOS, sec. 3; Megatron-Core
            // --tp-comm-overlap): each all-gather or reduce-scatter beside a linear layer is cut
            // into tp chunks sent around the ring while the GEMM computes on the chunk it already
            // has (forward, data gradient), or runs in bulk beside the other backward GEMM. Of
            // the tp chunk GEMMs, tp - 1 can hide a transfer; one chunk's transfer (1/tp of the
            // collective) is never hidden. So a block's traffic C beside its GEMMs G is exposed
            // by max(C / tp, C - G (tp - 1) / tp). Half of the layer's collectives belong to the
            // attention block, half to the MLP; an MoE layer's experts sit behind the token
            // dispatcher's all-to-alls, so its MLP half stays exposed.
            const double tpd = dbl(t.tp);
            auto exposed = [&](double comm, double gemm) {
                return std::min(comm, std::max(comm / tpd, comm - gemm * (tpd - 1.0) / tpd));
            };
            const double repeat = 1.0 + c.recomputed;  // a recomputed forward repeats its GEMMs
            const double attention_gemm =
                repeat * (attention.fwd_gemm_s - attention.attention_fwd_s) +
                (attention.bwd_gemm_s - attention.attention_bwd_s);
            const double mlp_gemm = repeat * (w.fwd_gemm_s - attention.fwd_gemm_s) +
                                    (w.bwd_gemm_s - attention.bwd_gemm_s);
            const double half = 0.5 * w.tp_s;
            const double shown =
                exposed(half, attention_gemm) + (moe_layer ? half : exposed(half, mlp_gemm));
            w.hidden_comm_s = w.tp_s - shown;
            w.tp_s = shown;
        }
    }
    // Expert parallelism (GShard, Lepikhin et al. 2020, sec. 2.2): an all-to-all dispatches each
    // token's hidden state to its k experts and another combines the results, forward and
    // backward (and again in a recomputed forward).
    if (moe_layer && t.expert_parallel > 1) {
        // The busiest rank receives moe_imbalance times the balanced share. With sequence
        // parallelism each tensor-parallel rank dispatches its own s / tp slice of the tokens
        // (Megatron-Core's MoEAlltoAllTokenDispatcher takes hidden states of [S/TP, B, H] and
        // gathers over the expert-tensor-parallel group only after the all-to-all,
        // megatron/core/transformer/moe/token_dispatcher.py).
        const double dispatched = c.tokens / (t.sequence_parallel ? dbl(t.tp) : 1.0);
        const double routed_bytes =
            dispatched * dbl(m.moe.active_experts) * dbl(m.hidden) * c.act_bytes * t.moe_imbalance;
        const double one =
            t.moe_dispatcher == MoeDispatcher::flex && c.ep_group.nodes > 1
                ? flex_dispatch_time(dispatched * dbl(m.hidden) * c.act_bytes * t.moe_imbalance,
                                     dbl(m.moe.active_experts),
                                     remote_nodes_per_token(m.moe, c.ep_group), c.ep_group, c.net)
                      .seconds
                : collective_time(Collective::all_to_all, routed_bytes, c.ep_group, c.net).seconds;
        w.ep_s = (4.0 + 2.0 * c.recomputed) * one;
        if (t.ep_comm_overlap && c.microbatches > 1) {
            // Megatron-Core's --overlap-moe-expert-parallel-comm: each all-to-all hides only
            // behind the sub-module of the other micro-batch beside it (expert_overlap_pair_s);
            // the recomputed forward's are exposed (model_chunk_schedule_plan.py: "The A2A
            // communications issued here are exposed"). The MLP block's memory-bound work goes
            // with its sub-module, the rest with attention.
            const double mlp_mem_fwd = memory_time_s(c.rates, bytes.mlp);
            const double mlp_gemm_b = w.bwd_gemm_s - attention.bwd_gemm_s;
            ExpertOverlapPair pair;
            pair.attn_fwd_s = attention.fwd_gemm_s + std::max(0.0, w.mem_fwd_s - mlp_mem_fwd);
            pair.attn_bwd_s = attention.bwd_gemm_s +
                              std::max(0.0, w.mem_bwd_s - kMemoryBoundBackwardFactor * mlp_mem_fwd);
            pair.mlp_fwd_s = (w.fwd_gemm_s - attention.fwd_gemm_s) + mlp_mem_fwd;
            // A linear layer's backward is a data-gradient and a weight-gradient GEMM of equal
            // FLOPs; the memory-bound backward goes with the data gradient.
            pair.mlp_dgrad_s = 0.5 * mlp_gemm_b + kMemoryBoundBackwardFactor * mlp_mem_fwd;
            pair.mlp_wgrad_s = 0.5 * mlp_gemm_b;
            pair.all_to_all_s = one;
            const double computed = pair.attn_fwd_s + pair.attn_bwd_s + pair.mlp_fwd_s +
                                    pair.mlp_dgrad_s + pair.mlp_wgrad_s;
            const double shown_pair =
                std::clamp(expert_overlap_pair_s(pair) - computed, 0.0, 4.0 * one);
            const double paired = expert_overlap_paired_share(t.pp, t.interleave, c.microbatches);
            const double shown =
                paired * shown_pair + (1.0 - paired) * 4.0 * one + 2.0 * c.recomputed * one;
            w.hidden_comm_s += w.ep_s - shown;
            w.ep_s = shown;
        }
    }
    if (t.context_parallel > 1 && m.kind == ModelKind::transformer) {
        w.cp_s = context_parallel_exchange_s(c, w);
    }
    return w;
}

// The output layer: logits GEMM and the fp32 cross-entropy over them (Korthikanti sec. 4.4).
LayerWork head_work(const Context& c) {
    const ModelSpec& m = c.spec.model;
    LayerWork w;
    time_gemms(c, head_gemms(c.spec), w);
    // The final norm, and the softmax cross-entropy reading the logits and writing fp32
    // probabilities (4 bytes each), forward and backward.
    const double logits = c.tokens * dbl(m.vocab) / dbl(c.spec.training.tp);
    const double bytes = 2.0 * c.tokens * dbl(m.hidden) * c.act_bytes +
                         logits * (c.act_bytes + 4.0) * c.engine->cross_entropy_traffic;
    w.mem_fwd_s = memory_time_s(c.rates, bytes);
    w.mem_bwd_s = memory_time_s(c.rates, bytes);
    // The output layer is not recomputed (Narayanan et al. 2021, eq. 3 counts only the layers).
    w.recompute_s = 0.0;
    return w;
}

// The multi-token-prediction modules of the last stage (ModelSpec::mtp_layers; DeepSeek-V3
// Technical Report, sec. 2.2; Megatron-Core's MultiTokenPredictionBlock.forward, core_v0.12.0
// multi_token_prediction.py): per module the next tokens' embedding, the norms of it and of the
// hidden state, their concatenation through the 2h -> h projection M, one transformer layer of the
// kind of the model's last (`layer`), and the shared output layer's logits and cross-entropy again
// (`head`: "mtp_logits, _ = output_layer(...)", then compute_language_model_loss).
LayerWork mtp_modules_work(const Context& c, const LayerWork& layer, const LayerWork& head) {
    const ModelSpec& m = c.spec.model;
    const TrainingSpec& t = c.spec.training;
    LayerWork w;
    if (m.kind != ModelKind::transformer || m.mtp_layers <= 0) {
        return w;
    }
    const double h = dbl(m.hidden);
    const double tp = dbl(t.tp);
    GemmList proj;
    // eh_proj: a column-parallel linear of 2h inputs and h outputs, split by tp.
    proj.add(GemmRole::mtp_proj, 1.0, c.tokens, h / tp, 2.0 * h);
    time_gemms(c, proj, w);
    // The embedding's output written (h), the two norms reading and writing h each, the
    // concatenation reading 2h and writing 2h, in the activation dtype; its FP8 casts as a
    // layer's (transformer_layer_work()).
    const double bytes = c.tokens * h * c.act_bytes * (1.0 + 4.0 + 4.0);
    w.mem_fwd_s = memory_time_s(c.rates, bytes + w.cast_fwd_bytes);
    w.mem_bwd_s = kMemoryBoundBackwardFactor * memory_time_s(c.rates, bytes) +
                  memory_time_s(c.rates, w.cast_bwd_bytes);
    w.cast_weight_s = memory_time_s(c.rates, w.cast_weight_bytes);
    // Embedding, two norms, concatenation, projection each way.
    w.overhead_s = 2.0 * 5.0 * kKernelLaunchGapS;
    if (t.tp > 1) {
        // The vocabulary-parallel embedding all-reduces its output (Shoeybi et al. 2019, sec.
        // 3); the projection's output is all-gathered over tp ("For tensor parallel, all gather
        // after linear_fc"), its gradient split back in the backward; under sequence
        // parallelism its 2h input is all-gathered and its gradient reduce-scattered.
        const double one = c.tokens * h * c.act_bytes;
        w.tp_s += collective_time(Collective::all_reduce, one, c.tp_group, c.net).seconds +
                  2.0 * collective_time(Collective::all_gather, one, c.tp_group, c.net).seconds;
        if (t.sequence_parallel) {
            w.tp_s +=
                collective_time(Collective::all_gather, 2.0 * one, c.tp_group, c.net).seconds +
                collective_time(Collective::reduce_scatter, 2.0 * one, c.tp_group, c.net).seconds;
        }
    }
    w += layer;
    w += head;
    return w.scaled(dbl(m.mtp_layers));
}

// One pipeline stage: which layers it runs.
struct StageLayers {
    double dense = 0.0;
    double moe = 0.0;
    bool embedding = false;
    bool head = false;
};

// `head`: the output layer, and the multi-token-prediction modules that run beside it on the
// last stage (mtp_modules_work()).
LayerWork transformer_stage_work(const Context& c, const StageLayers& st, const LayerWork& dense,
                                 const LayerWork& moe, const LayerWork& head) {
    LayerWork w = dense.scaled(st.dense);
    w += moe.scaled(st.moe);
    if (st.head) {
        w += head;
    }
    if (st.embedding && c.spec.training.tp > 1) {
        // The vocabulary-parallel embedding all-reduces its output once, forward (Megatron-LM,
        // Shoeybi et al. 2019, sec. 3).
        const double bytes = c.tokens * dbl(c.spec.model.hidden) * c.act_bytes;
        w.tp_s += collective_time(Collective::all_reduce, bytes, c.tp_group, c.net).seconds;
    }
    return w;
}

}  // namespace

double expert_overlap_pair_s(const ExpertOverlapPair& p) {
    const double one = p.all_to_all_s;
    // attn fwd | combine bwd, both from the start.
    const double start = std::max(p.attn_fwd_s, one);
    const double dgrad_end = start + p.mlp_dgrad_s;  // after combine bwd
    const double dispatch_f_end = start + one;       // after attn fwd
    const double wgrad_end = dgrad_end + p.mlp_wgrad_s;
    const double dispatch_b_end = std::max(dispatch_f_end, dgrad_end) + one;
    const double mlp_f_end = std::max(wgrad_end, dispatch_f_end) + p.mlp_fwd_s;
    const double combine_f_end = std::max(dispatch_b_end, mlp_f_end) + one;
    const double attn_b_end = std::max(mlp_f_end, dispatch_b_end) + p.attn_bwd_s;
    return std::max(combine_f_end, attn_b_end);
}

double expert_overlap_paired_share(std::int64_t pp, std::int64_t interleave,
                                   std::int64_t microbatches) {
    const double p = dbl(std::max<std::int64_t>(pp, 1));
    const double v = dbl(std::max<std::int64_t>(interleave, 1));
    const double warmup = v > 1.0 ? (p - 1.0) + (v - 1.0) * p : 0.5 * (p - 1.0);
    const double passes = dbl(std::max<std::int64_t>(microbatches, 1)) * v;
    return std::clamp((passes - warmup - 1.0) / passes, 0.0, 1.0);
}

std::string_view to_string(GemmRole role) {
    switch (role) {
        case GemmRole::qkv:
            return "qkv";
        case GemmRole::q_down:
            return "q_down";
        case GemmRole::q_up:
            return "q_up";
        case GemmRole::kv_down:
            return "kv_down";
        case GemmRole::kv_up:
            return "kv_up";
        case GemmRole::attention_scores:
            return "attention_scores";
        case GemmRole::attention_values:
            return "attention_values";
        case GemmRole::out_proj:
            return "out_proj";
        case GemmRole::mlp_up:
            return "mlp_up";
        case GemmRole::mlp_down:
            return "mlp_down";
        case GemmRole::router:
            return "router";
        case GemmRole::expert_up:
            return "expert_up";
        case GemmRole::expert_down:
            return "expert_down";
        case GemmRole::shared_expert_up:
            return "shared_expert_up";
        case GemmRole::shared_expert_down:
            return "shared_expert_down";
        case GemmRole::lm_head:
            return "lm_head";
        case GemmRole::mtp_proj:
            return "mtp_proj";
    }
    return "?";
}

double GemmList::flops() const {
    double total = 0.0;
    for (const LayerGemm& g : *this) {
        total += g.flops();
    }
    return total;
}

GemmList layer_gemms(const PlanSpec& spec, bool moe_layer) {
    GemmList list;
    const ModelSpec& m = spec.model;
    const double tp = dbl(spec.training.tp);
    const double b = dbl(spec.data.micro_batch);
    if (m.kind == ModelKind::mlp) {
        // CS336 lecture 2's layer: a batch of B rows through a D x D weight, split by columns.
        const double d = dbl(m.hidden);
        list.add(GemmRole::mlp_up, 1.0, b, d / tp, d);
        return list;
    }
    if (m.kind != ModelKind::transformer) {
        return list;
    }
    const double s = dbl(spec.data.seq_len);
    // Context parallelism splits each sequence over cp ranks: each runs the layer's GEMMs on its
    // s / cp tokens, and attention of its s / cp queries over all s keys (ring attention).
    const double cp = dbl(spec.training.context_parallel);
    const double q = s / cp;
    const double T = b * q;
    const double h = dbl(m.hidden);
    const double heads = dbl(m.heads) / tp;  // check(): tp divides the heads
    if (m.mla.enabled()) {
        // DeepSeek-V2 (Liu et al. 2024), sec. 2.1.2-2.1.3: low-rank query and key-value paths.
        const double rq = dbl(m.mla.q_lora_rank);
        const double rkv = dbl(m.mla.kv_lora_rank);
        const double nope = dbl(m.mla.qk_nope_head_dim);
        const double rope = dbl(m.mla.qk_rope_head_dim);
        const double dv = dbl(m.mla.v_head_dim);
        if (rq > 0) {
            list.add(GemmRole::q_down, 1.0, T, rq, h);
            list.add(GemmRole::q_up, 1.0, T, heads * (nope + rope), rq);
        } else {
            list.add(GemmRole::q_up, 1.0, T, heads * (nope + rope), h);
        }
        list.add(GemmRole::kv_down, 1.0, T, rkv + rope, h);
        list.add(GemmRole::kv_up, 1.0, T, heads * (nope + dv), rkv);
        list.add(GemmRole::attention_scores, b * heads, q, s, nope + rope);
        list.add(GemmRole::attention_values, b * heads, q, dv, s);
        list.add(GemmRole::out_proj, 1.0, T, h, heads * dv);
    } else {
        const double d = dbl(m.effective_head_dim());
        // Fewer KV heads than tp ranks: each rank keeps a copy of one (Megatron-LM's GQA).
        const double kv = std::max(dbl(m.effective_kv_heads()) / tp, 1.0);
        list.add(GemmRole::qkv, 1.0, T, (heads + 2.0 * kv) * d, h);
        list.add(GemmRole::attention_scores, b * heads, q, s, d);
        list.add(GemmRole::attention_values, b * heads, q, d, s);
        list.add(GemmRole::out_proj, 1.0, T, h, heads * d);
    }
    const double up = m.ffn == FfnKind::swiglu ? 2.0 : 1.0;  // SwiGLU: gate and up together
    if (!moe_layer) {
        const double f = dbl(m.ffn_hidden);
        list.add(GemmRole::mlp_up, 1.0, T, up * f / tp, h);
        list.add(GemmRole::mlp_down, 1.0, T, h, f / tp);
        return list;
    }
    const double experts = dbl(m.moe.experts);
    const double ep = dbl(spec.training.expert_parallel);
    const double fe = dbl(m.effective_expert_ffn());
    list.add(GemmRole::router, 1.0, T, experts, h);
    // Each of the ep ranks routes its T tokens to k experts; a rank holds experts / ep of them,
    // each receiving T·k·ep / experts tokens on average (balanced routing, Fedus et al. 2022).
    const double held = experts / ep;
    // The busiest rank's experts receive moe_imbalance times that (training.moe_imbalance).
    const double tokens_per_expert =
        T * dbl(m.moe.active_experts) * ep / experts * spec.training.moe_imbalance;
    list.add(GemmRole::expert_up, held, tokens_per_expert, up * fe / tp, h);
    list.add(GemmRole::expert_down, held, tokens_per_expert, h, fe / tp);
    if (m.moe.shared_experts > 0) {
        const double shared = dbl(m.moe.shared_experts) * fe;
        list.add(GemmRole::shared_expert_up, 1.0, T, up * shared / tp, h);
        list.add(GemmRole::shared_expert_down, 1.0, T, h, shared / tp);
    }
    return list;
}

GemmList head_gemms(const PlanSpec& spec) {
    GemmList list;
    const ModelSpec& m = spec.model;
    if (m.kind != ModelKind::transformer) {
        return list;
    }
    const double T =
        dbl(spec.data.micro_batch) * dbl(spec.data.seq_len) / dbl(spec.training.context_parallel);
    list.add(GemmRole::lm_head, 1.0, T, dbl(m.vocab) / dbl(spec.training.tp), dbl(m.hidden));
    return list;
}

ResolvedNetwork resolve_network(const ClusterSpec& cluster, const HardwareProfile& hw) {
    ResolvedNetwork r;
    std::int64_t node = cluster.gpus_per_node > 0 ? cluster.gpus_per_node : hw.gpus_per_node;
    // An NVLink bridge joins two PCIe cards (the catalog's "NVLink bridge (2-GPU)" parts): those
    // two are the scale-up domain, and a group of more crosses each card's PCIe link to its host.
    // That link stands for the one between domains unless the cluster states another (a
    // cluster of several servers also crosses their network, which the catalog does not know).
    const bool bridged_pairs = node <= 0 && hw.nvlink_bridged() && hw.host_bytes_per_s > 0.0;
    if (bridged_pairs) {
        node = 2;
    }
    if (node <= 0) {
        node = std::max<std::int64_t>(cluster.gpus, 1);
        r.node_size_known = false;
    }
    r.intra_link_bytes_per_s = cluster.intra_node_bytes_per_s > 0.0 ? cluster.intra_node_bytes_per_s
                                                                    : hw.interconnect_bytes_per_s;
    r.inter_link_bytes_per_s = cluster.inter_node_bytes_per_s > 0.0 ? cluster.inter_node_bytes_per_s
                               : bridged_pairs                      ? hw.host_bytes_per_s
                                                                    : hw.inter_node_bytes_per_s;
    if (r.inter_link_bytes_per_s <= 0.0) {
        r.inter_link_bytes_per_s = r.intra_link_bytes_per_s;
        r.inter_node_known = false;
    }
    r.scale_up_fraction = scale_up_fraction(hw);
    r.network.gpus_per_node = node;
    r.network.intra_bytes_per_s = r.intra_link_bytes_per_s * r.scale_up_fraction;
    // No catalog part has a published collective measurement over its scale-out network: the
    // link's figure is used as given.
    r.network.inter_bytes_per_s = r.inter_link_bytes_per_s;
    return r;
}

double host_link_bytes_per_s(const HardwareProfile& hw) {
    return hw.host_bytes_per_s > 0.0 ? hw.host_bytes_per_s : kPcie4x16BytesPerS;
}

PerformanceBreakdown predict_performance(const PlanSpec& spec, const HardwareProfile& hw,
                                         const Accounting& plan) {
    PerformanceBreakdown out;
    const ModelSpec& m = spec.model;
    const TrainingSpec& t = spec.training;
    const Parallelism& par = plan.parallel;
    const ComputeType type = compute_type(t.compute_dtype);
    const double peak = hw.peak(type);
    const std::int64_t microbatches = par.grad_accum_steps;
    const double mb = dbl(microbatches);

    out.network = resolve_network(spec.cluster, hw);
    const AchievedRates rates = achieved_rates(hw, type);
    const bool low_precision = type == ComputeType::fp8 || type == ComputeType::fp4;
    const ComputeType wide_type = low_precision ? ComputeType::bf16 : type;
    const AchievedRates wide_rates = low_precision ? achieved_rates(hw, wide_type) : rates;
    const double cp = dbl(t.context_parallel);
    const GpuGeneration generation = gpu_generation(hw);
    Context c{
        spec, rates, out.network.network, bytes_per_value(t.compute_dtype),
        bytes_per_value(t.activation_dtype),
        dbl(spec.data.micro_batch) * (m.kind == ModelKind::mlp ? 1.0 : dbl(spec.data.seq_len) / cp),
        place_group(t.tp, 1, out.network.network.gpus_per_node),
        // The expert-parallel group's members sit etp ranks apart: Megatron-Core orders the
        // experts' ranks expert-tensor, expert, then expert-data parallel
        // (megatron/core/parallel_state.py, the expert RankGenerator), so at etp 1 an ep 8
        // group is eight neighbouring GPUs, one node, whatever the attention's tp.
        place_group(t.expert_parallel,
                    t.expert_tensor_parallel > 0 ? t.expert_tensor_parallel : t.tp,
                    out.network.network.gpus_per_node),
        GemmTimer(rates), hw.measured_gemms.empty() ? nullptr : &hw, type, low_precision,
        GemmTimer(wide_rates), wide_type, &engine_preset(t.engine),
        resolved_attention_kernel(t, generation), generation,
        // The attention fractions are of the bf16 peak; a part without one (an fp32-only
        // profile) times attention at its compute type's.
        hw.peak(ComputeType::bf16) > 0.0 ? hw.peak(ComputeType::bf16) : peak,
        dbl(spec.data.seq_len) / cp, full_recompute_fraction(t, m), microbatches};
    c.gemm_id = gemm_timer_id(c.gemm, c.gemm_bytes);
    c.wide_id = gemm_timer_id(c.wide, 2.0);
    const double head_dim = attention_head_dim(m);
    c.attention_fwd_flops_per_s =
        c.bf16_peak *
        model_attention_fraction(c.attention, c.generation, m, c.attention_seq, head_dim, false);
    c.attention_bwd_flops_per_s =
        c.bf16_peak *
        model_attention_fraction(c.attention, c.generation, m, c.attention_seq, head_dim, true);
    c.score_share = causal_score_share(m, dbl(spec.data.seq_len));
    out.gemm_flops_per_s = c.rates.gemm_flops_per_s;
    out.memory_bytes_per_s = c.rates.memory_bytes_per_s;
    out.microbatches = microbatches;

    // ---- one micro-batch on the slowest pipeline stage ----
    LayerWork stage;
    const double stage_layers = dbl(m.layers) / dbl(t.pp);
    switch (m.kind) {
        case ModelKind::transformer: {
            LayerWork attention;
            const GemmList dense_gemms = layer_gemms(spec, false);
            time_gemms(c, dense_gemms, attention, GemmPart::attention);
            const LayerWork dense = transformer_layer_work(c, false, dense_gemms, attention);
            const LayerWork moe = m.moe.enabled() ? transformer_layer_work(
                                                        c, true, layer_gemms(spec, true), attention)
                                                  : dense;
            LayerWork head = head_work(c);
            head += mtp_modules_work(c, mtp_layer_is_moe(m) ? moe : dense, head);
            const double dense_total = dbl(dense_layer_count(m));
            // The stages' layers (pipeline_stages.h: uneven when pp does not divide them or
            // first/last_stage_layers say so); the dense layers come first (DeepSeek's first
            // three). The slowest stage sets the pace of the pipeline (Narayanan et al. 2021,
            // sec. 2.2: every stage runs each micro-batch in turn).
            const StageLayout layout = stage_layout(spec);
            auto stage_at = [&](std::int64_t start, std::int64_t count, bool embedding,
                                bool has_head) {
                StageLayers st;
                st.dense = std::clamp(dense_total - dbl(start), 0.0, dbl(count));
                st.moe = dbl(count) - st.dense;
                st.embedding = embedding;
                st.head = has_head;
                return transformer_stage_work(c, st, dense, moe, head);
            };
            if (layout.even) {
                // Even stages (interleaved or not): every GPU holds L / pp layers.
                StageLayers first;
                first.dense = std::min(dense_total, stage_layers);
                first.moe = stage_layers - first.dense;
                first.embedding = true;
                first.head = t.pp == 1;
                stage = transformer_stage_work(c, first, dense, moe, head);
                out.head_stage_slowest = t.pp == 1;
                if (t.pp > 1) {
                    const LayerWork other =
                        stage_at(m.layers - layout.last, layout.last, false, true);
                    if (other.total_s() > stage.total_s()) {
                        stage = other;
                        out.head_stage_slowest = true;
                    }
                }
            } else {
                stage = stage_at(0, layout.first, true, false);
                const LayerWork last = stage_at(m.layers - layout.last, layout.last, false, true);
                if (last.total_s() > stage.total_s()) {
                    stage = last;
                    out.head_stage_slowest = true;
                }
            }
            // The middle stages that can be the slowest (pipeline_stages.h): a MoE layer's
            // all-to-alls and routed experts against a dense MLP.
            for_each_distinct_middle_stage(
                layout, dense_total, dbl(m.layers),
                [&](std::int64_t, std::int64_t start, std::int64_t count) {
                    const LayerWork middle = stage_at(start, count, false, false);
                    if (middle.total_s() > stage.total_s()) {
                        stage = middle;
                        out.head_stage_slowest = false;
                    }
                });
            break;
        }
        case ModelKind::mlp: {
            LayerWork layer;
            time_gemms(c, layer_gemms(spec, false), layer);
            // The ReLU reads and writes the B x D/tp output.
            layer.mem_fwd_s =
                memory_time_s(c.rates, 2.0 * c.tokens * dbl(m.hidden) / dbl(t.tp) * c.act_bytes);
            layer.mem_bwd_s = kMemoryBoundBackwardFactor * layer.mem_fwd_s;
            if (t.recompute == Recompute::sqrt) {
                layer.recompute_s += layer.mem_fwd_s;
            }
            if (t.tp > 1) {
                // Column-split layers all-gather their B x D output to feed the next layer, and
                // reduce-scatter its gradient on the way back.
                const double bytes = c.tokens * dbl(m.hidden) * c.act_bytes;
                layer.tp_s =
                    collective_time(Collective::all_gather, bytes, c.tp_group, c.net).seconds +
                    collective_time(Collective::reduce_scatter, bytes, c.tp_group, c.net).seconds;
            }
            stage = layer.scaled(stage_layers);
            break;
        }
        case ModelKind::params: {
            // No architecture: the step's FLOPs as large GEMMs at the achieved rate, split over
            // the model-parallel GPUs (forward 1/3 of 6N, backward 2/3).
            const double per_gpu = plan.flops.per_token * c.tokens / dbl(t.tp * t.pp);
            const double seconds =
                c.rates.gemm_flops_per_s > 0.0 ? per_gpu / c.rates.gemm_flops_per_s : 0.0;
            stage.fwd_gemm_s = seconds / 3.0;
            stage.bwd_gemm_s = seconds * 2.0 / 3.0;
            const double recompute_flops =
                plan.flops.recompute_per_token * c.tokens / dbl(t.tp * t.pp);
            stage.recompute_s =
                c.rates.gemm_flops_per_s > 0.0 ? recompute_flops / c.rates.gemm_flops_per_s : 0.0;
            break;
        }
    }

    // Pipeline sends (Narayanan et al. 2021, sec. 4.1): each micro-batch's activations go forward
    // and their gradients back across every stage boundary, once per virtual stage; the
    // scatter/gather optimisation sends 1/tp of the b x s x h tensor per tensor-parallel rank.
    double p2p_s = 0.0;
    if (t.pp > 1 && m.kind != ModelKind::params) {
        const double bytes = c.tokens * dbl(m.hidden) * c.act_bytes / dbl(t.tp);
        p2p_s =
            2.0 * dbl(t.interleave) * p2p_time_s(bytes, t.tp * t.context_parallel * par.dp, c.net);
    }
    out.microbatch_s = stage.total_s() + p2p_s;
    out.compute_s = mb * (stage.fwd_gemm_s + stage.bwd_gemm_s);
    out.recompute_s = mb * stage.recompute_s;
    out.memory_bound_s = mb * (stage.mem_fwd_s + stage.mem_bwd_s);
    out.tp_comm_s = mb * stage.tp_s;
    out.ep_comm_s = mb * stage.ep_s;
    out.cp_comm_s = mb * stage.cp_s;
    out.overhead_s = mb * stage.overhead_s;
    // Tensor-parallel traffic hidden behind GEMMs (tp_comm_overlap) still takes SMs from them:
    // Megatron-Bridge's userbuffers settings give the overlapped GEMMs' communication 1 to 24 SMs
    // each (src/megatron/bridge/training/comm_overlap.py, userbuffers_bf16_h100_h8192_tp4_*);
    // charged like an NCCL collective's kNcclSms (engine.h), as are the hidden all-to-alls
    // (ep_comm_overlap), which are NCCL's.
    if (hw.sm_count > 0) {
        const double sms = dbl(hw.sm_count);
        out.comm_contention_s += mb * stage.hidden_comm_s * std::min(kNcclSms, sms) / sms;
    }
    // The FP8 weight casts, once per step (the first micro-batch's, cached for the others).
    out.memory_bound_s += stage.cast_weight_s;
    out.pp_comm_s = mb * p2p_s;
    out.bubble_fraction = pipeline_bubble_fraction(t.pp, t.interleave, microbatches);
    // Narayanan et al. 2021, sec. 2.2: the bubble is (p - 1)/v micro-batch times of the stage.
    out.pp_bubble_s = out.bubble_fraction * mb * out.microbatch_s;

    // ---- data parallelism (Rajbhandari et al. 2020, sec. 7) ----
    // ZeRO-0 all-reduces the gradients once per step (2Ψ per rank); ZeRO-1 and -2 reduce-scatter
    // them and all-gather the updated parameters (Ψ + Ψ, sec. 7.2.1), ZeRO-2 reducing every
    // micro-batch into its gradient shard; ZeRO-3 all-gathers the parameters in each forward and
    // backward and reduce-scatters the gradients, every micro-batch (3Ψ, sec. 7.2.2).
    // Context-parallel ranks hold the same weights: gradients are reduced, and the distributed
    // optimizer's state sharded, over the dp x cp ranks (Megatron-Core's data-parallel group
    // "with context parallelism", megatron/core/parallel_state.py).
    const std::int64_t dp = par.dp * t.context_parallel;
    const double psi = plan.memory.params_on_gpu;
    const double grad_b = plan.memory.grad_bytes_per_param;
    const double param_b = plan.memory.param_bytes_per_param;
    const double fwd_window = stage.fwd_gemm_s + stage.mem_fwd_s;
    const double bwd_window = stage.bwd_gemm_s + stage.mem_bwd_s + stage.recompute_s;
    // The routed experts' gradients are reduced, and their state sharded, over the
    // expert-data-parallel group instead (accounting.h): edp GPUs whose consecutive members sit
    // etp x ep ranks apart (Megatron-Core's expert rank order: expert-tensor, expert, then
    // expert-data parallel, megatron/core/parallel_state.py). With edp = 1 they are not reduced.
    const std::int64_t etp = t.expert_tensor_parallel > 0 ? t.expert_tensor_parallel : t.tp;
    const std::int64_t edp = t.tp * dp / std::max<std::int64_t>(etp * t.expert_parallel, 1);
    const double psi_experts = edp > 1 ? plan.memory.expert_params_on_gpu : 0.0;
    const double psi_dense = psi - plan.memory.expert_params_on_gpu;
    if (dp > 1 && psi > 0.0) {
        const GroupPlacement group = place_group(dp, t.tp, c.net.gpus_per_node);
        const GroupPlacement expert_group = place_group(
            std::max<std::int64_t>(edp, 1), etp * t.expert_parallel, c.net.gpus_per_node);
        // A step's data-parallel traffic goes out as several collectives, each paying NCCL's
        // latency (collectives.cpp; a ring's grows with its ranks): `count` collectives moving
        // `bytes_per_param` of every parameter between them take the bandwidth time of the
        // bytes, the dense parameters' over dp and the experts' over edp, plus count latencies.
        auto time_of = [&](Collective kind, double bytes_per_param, double count) {
            const CollectiveTime one =
                collective_time(kind, psi_dense * bytes_per_param, group, c.net);
            double bandwidth_s = one.bandwidth_s;
            if (psi_experts > 0.0) {
                bandwidth_s +=
                    collective_time(kind, psi_experts * bytes_per_param, expert_group, c.net)
                        .bandwidth_s;
            }
            return bandwidth_s + std::max(1.0, count) * one.latency_s;
        };
        // One bucket of `bytes` over the data-parallel group.
        auto time = [&](Collective kind, double bytes) {
            const CollectiveTime one = collective_time(kind, bytes, group, c.net);
            return one.bandwidth_s + one.latency_s;
        };
        const double bucket = std::min(psi, bucket_params(dp));
        // ZeRO-1/-2 and plain data parallelism reduce (and gather) bucket by bucket.
        const double buckets = std::ceil(psi / bucket);
        // ZeRO-3 gathers and reduces each wrapped unit on its own: FSDP's units are the
        // transformer blocks (the per-block auto-wrap policy llm-foundry and torchtitan apply)
        // and the root module holding the embeddings, final norm and head ("FSDP all-gathers the
        // parameters of each FSDP unit before its forward", the torch.distributed.fsdp
        // documentation). Models without blocks gather per layer.
        const double units =
            m.kind == ModelKind::params ? 1.0 : std::ceil(dbl(m.layers) / dbl(t.pp)) + 1.0;
        // What overlap hides: a collective running beside a window of compute is exposed by
        // what exceeds the window, and never by less than its last bucket (PyTorch DDP, Li et al.
        // 2020, sec. 3.2.3; Megatron-Core's overlapped gradient reduce).
        auto exposed = [&](double comm, double bucket_comm, double window) {
            if (!t.dp_overlap) {
                return comm;
            }
            return std::min(comm, std::max(bucket_comm, comm - window));
        };
        double total = 0.0;
        double hidden_not = 0.0;
        switch (t.zero) {
            case 0: {
                const double ar = time_of(Collective::all_reduce, grad_b, buckets);
                total = ar;
                hidden_not = exposed(ar, time(Collective::all_reduce, bucket * grad_b), bwd_window);
                break;
            }
            case 1:
            case 2: {
                const double rs = time_of(Collective::reduce_scatter, grad_b, buckets);
                const double rs_bucket = time(Collective::reduce_scatter, bucket * grad_b);
                const double ag = time_of(Collective::all_gather, param_b, buckets);
                const double ag_bucket = time(Collective::all_gather, bucket * param_b);
                const double reductions = t.zero == 2 ? mb : 1.0;
                total = reductions * rs + ag;
                // The parameter all-gather overlaps the next step's first forward
                // (Megatron-Core's overlap_param_gather).
                hidden_not = reductions * exposed(rs, rs_bucket, bwd_window) +
                             exposed(ag, ag_bucket, fwd_window);
                break;
            }
            default: {
                const double ag = time_of(Collective::all_gather, param_b, units);
                const double ag_bucket = time(Collective::all_gather, psi / units * param_b);
                const double rs = time_of(Collective::reduce_scatter, grad_b, units);
                const double rs_bucket = time(Collective::reduce_scatter, psi / units * grad_b);
                total = mb * (2.0 * ag + rs);
                // The backward's gathers run beside the gradient computation only when each is
                // issued before the current layer's gradients (training.fsdp_backward_prefetch
                // pre, PyTorch's BACKWARD_PRE). Issued after them (post, BACKWARD_POST), a
                // layer's gather starts when the layer above is done and the layer waits for it:
                // every gather is exposed, and only the reduce-scatters run beside the next
                // layer's gradients (the torch.distributed.fsdp.BackwardPrefetch documentation).
                const double backward_exposed =
                    t.fsdp_backward_prefetch == FsdpBackwardPrefetch::post
                        ? ag + exposed(rs, rs_bucket, bwd_window)
                        : exposed(ag + rs, ag_bucket + rs_bucket, bwd_window);
                hidden_not = mb * (exposed(ag, ag_bucket, fwd_window) + backward_exposed);
                break;
            }
        }
        out.dp_comm_s = total;
        out.dp_comm_exposed_s = hidden_not;
        // The collectives hidden behind compute still take NCCL's SMs from it while they run
        // (engine.h, kNcclSms): the compute beside them runs on the other SMs, losing
        // kNcclSms / SMs of the hidden time.
        if (hw.sm_count > 0) {
            const double sms = dbl(hw.sm_count);
            out.comm_contention_s += (total - hidden_not) * std::min(kNcclSms, sms) / sms;
        }
    }

    // ---- optimizer update and offload ----
    const double shard = plan.memory.optimizer_shard_params();
    const double master_b = plan.memory.master_bytes_per_param;
    const double opt_b = plan.memory.optimizer_bytes_per_param;
    if (t.offload == Offload::none) {
        // Memory-bound update of this rank's shard (Adam's update is a few FLOPs per value:
        // Kingma & Ba 2015, Alg. 1), after clipping the gradients by their global norm, which
        // every recipe here does (Megatron-LM's --clip-grad 1.0, torchtitan's max_norm 1.0,
        // llm-foundry's gradient_clipping). The weights updated are the master copy, else the
        // parameters themselves; with a master copy the low-precision parameters are written too.
        const double weights_b = master_b > 0.0 ? master_b : param_b;
        const double low_b = master_b > 0.0 ? param_b : 0.0;
        double per_param = 0.0;
        if (resolved_optimizer_impl(t) == OptimizerImpl::foreach &&
            optimizer_impl_applies(t.optimizer)) {
            // torch.optim.AdamW's _multi_tensor_adamw, a pass per operation, each moment s bytes
            // and its temporaries in the moments' type: decay the weights (read, write), lerp the
            // first moment to the gradient (read m and g, write m), scale the second (read,
            // write), addcmul the squared gradient into it (read v and g, write v), its sqrt
            // (read v, write t), divide by the bias correction (read t, write t), add eps (read,
            // write), addcdiv into the weights (read w, m and t, write w): 4w + 2g + 14s.
            // torch.nn.utils.clip_grad_norm_ reads the gradients for their norm and scales them
            // in place (read, write): 3g.
            const double s = opt_b / 2.0;
            per_param = 4.0 * weights_b + 2.0 * grad_b + 14.0 * s + low_b + 3.0 * grad_b;
        } else {
            // Fused: one kernel reads the gradient, the weights and the state and writes the
            // weights and the state back; the clipping reads the gradients once for their norm
            // (scaling them only when it exceeds the threshold).
            per_param = grad_b + 2.0 * opt_b + 2.0 * weights_b + low_b + grad_b;
        }
        out.optimizer_bytes_per_param = per_param;
        out.optimizer_s = memory_time_s(c.rates, shard * per_param);
    } else {
        // ZeRO-Offload (Ren et al. 2021, sec. 4.2): gradients go down to the host during the
        // backward pass and updated parameters come back up after the CPU's update, over the
        // host link, each direction at once. The CPU's update itself is not timed (the profile
        // gives no host figures).
        const double pcie = host_link_bytes_per_s(hw);
        const double down = shard * grad_b / pcie;
        const double up = shard * param_b / pcie;
        if (t.offload == Offload::optimizer) {
            out.offload_s = (t.dp_overlap ? std::max(0.0, down - bwd_window) : down) + up;
        } else {
            // ZeRO-Infinity (Rajbhandari et al. 2021, sec. 5): parameter shards also live on the
            // host and are fetched for each forward and backward of every micro-batch.
            const double fetch = 2.0 *
                                 plan.memory.sharded_params(plan.memory.param_shards,
                                                            plan.memory.expert_param_shards) *
                                 param_b / pcie;
            const double per_mb = std::max(fetch, down);
            const double window = fwd_window + bwd_window;
            out.offload_s = mb * (t.dp_overlap ? std::max(0.0, per_mb - window) : per_mb);
        }
    }

    // Activation offloading (training.activation_offload_layers; Megatron-Core's
    // megatron/core/cpu_offload.py): each micro-batch's offloaded activations go down the host
    // link on a side stream during the forward pass and come back during the backward, one layer
    // ahead. What the pass's compute does not hide is exposed.
    if (plan.memory.activations.offloaded_bytes > 0.0) {
        const double link = host_link_bytes_per_s(hw);
        const double copy = plan.memory.activations.offloaded_bytes / link;
        out.offload_s += mb * (std::max(0.0, copy - fwd_window) + std::max(0.0, copy - bwd_window));
    }

    out.step_s = out.compute_s + out.recompute_s + out.memory_bound_s + out.tp_comm_s +
                 out.pp_comm_s + out.pp_bubble_s + out.dp_comm_exposed_s + out.ep_comm_s +
                 out.cp_comm_s + out.overhead_s + out.comm_contention_s + out.offload_s +
                 out.optimizer_s;

    // ---- calibration: the profile's overall efficiency fitted from a measured step ----
    apply_calibration(out, hw);

    const double gpus = dbl(spec.cluster.gpus);
    out.hardware_flops_per_step =
        plan.flops.per_step + plan.flops.recompute_per_token * par.tokens_per_step;
    if (out.step_s > 0.0) {
        out.tokens_per_s = par.tokens_per_step / out.step_s;
        if (peak > 0.0) {
            out.mfu = plan.flops.per_step / (out.step_s * gpus * peak);
            out.hfu = out.hardware_flops_per_step / (out.step_s * gpus * peak);
        }
    }
    return out;
}

}  // namespace tally
