// The engine presets and the attention kernels' published throughput (engine.h).
#include "planner/performance/engine.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <string>

#include "planner/model/attention_span.h"

namespace tally {

namespace {

// ---- the presets ------------------------------------------------------------------------------
//
// megatron: Megatron-Core with Transformer Engine. TE's LayerNormLinear / LayerNormMLP fuse the
//   norm into the following GEMM's input pass, bias-dropout-add and the SwiGLU are fused kernels
//   (--bias-swiglu-fusion, --bias-dropout-fusion), RoPE is TE's fused kernel (--apply-rope-fusion)
//   and the vocabulary-parallel cross-entropy is fused (--cross-entropy-loss-fusion): the byte
//   counts of performance.cpp, one read and one write per tensor, are what it moves (factors 1).
//   Kernels per layer forward: norm and QKV GEMM, RoPE, attention, output GEMM, bias-dropout-add,
//   norm and FC1, SwiGLU, FC2, bias-dropout-add = 11. Backward: two GEMMs per linear (8), the
//   attention backward and its preprocessing (2), two norm backwards, the SwiGLU's and RoPE's
//   backward and the two residual gradients' adds = 16. Attention: TE's fused attention runs
//   cuDNN's kernel on Hopper and Blackwell and FlashAttention-2 on Ampere (TE's backend
//   selection, transformer_engine/pytorch/attention: FusedAttention on sm90+).
// fsdp: eager PyTorch (torchtitan's Llama, llm-foundry's MPT). Per op, one kernel reading its
//   inputs and writing its output:
//   - RMSNorm as torch composes it, x * rsqrt(mean(x^2) + eps) * w: pow (read x, write x^2),
//     mean (read x^2), mul by the rsqrt (read x, write), mul by w (read, write): 3 reads and
//     3 writes of the hidden tensor where a fused norm makes 1 and 1 = 3x.
//   - SwiGLU as silu(x W1) * (x W3): silu reads and writes f values, the product reads 2f and
//     writes f: 5f against the fused kernel's 3f = 5/3.
//   - RoPE as torchtitan's complex product (torchtitan/models/llama3/model.py
//     apply_rotary_emb): upcast to fp32 (read 2, write 4 bytes per value), complex multiply (read
//     4, write 4), cast back (read 4, write 2) = 20 bytes per value against the fused 2 + 2 = 5x.
//   - Cross-entropy as F.cross_entropy on bf16 logits upcast to fp32: the cast (read 2, write 4),
//     log-softmax (read 4, write 4) = 14 bytes per logit against the fused 2 + 4 = 6: 14/6.
//   Kernels per layer forward: the norm (5), Q, K, V GEMMs (3), RoPE (6), attention (1), output
//   GEMM (1), residual add (1), the norm (5), W1, W3, silu, product, W2 (5), residual add (1),
//   head transposes (4) = 32; backward twice that = 64. Attention: SDPA's flash backend, which is
//   FlashAttention-2 (PyTorch 2.2 release notes: "FlashAttention-2 ... in SDPA").
// fsdp_compile: the same model under torch.compile: Inductor fuses each chain of pointwise ops
//   into one generated kernel (Ansel et al. 2024, PyTorch 2, sec. 4.3): factors 1; kernels: the
//   GEMMs (7 forward, 14 backward), attention (1, 2) and the fused pointwise kernels between them
//   (4 forward, 4 backward) = 12 / 20.
// deepspeed: DeepSpeed ZeRO runs the model's eager PyTorch layers: as fsdp.
// The optimizers: Megatron-Core runs Transformer Engine's (or Apex's) FusedAdam
// (megatron/core/optimizer/__init__.py), DeepSpeed its own FusedAdam for "Adam"/"AdamW" unless
// torch_adam is set (the DeepSpeed config documentation); PyTorch's torch.optim.AdamW defaults to
// the foreach implementation on CUDA ("we will try to use foreach over the for-loop
// implementation on CUDA"; fused is opt-in), and torch.compile leaves the optimizer step eager
// unless it is compiled on its own.
constexpr std::array<EnginePreset, 4> kPresets{{
    {Engine::megatron, "Megatron-Core", 1.0, 1.0, 1.0, 1.0, 11.0, 16.0, AttentionKernel::cudnn,
     AttentionKernel::flash2, OptimizerImpl::fused},
    {Engine::fsdp, "PyTorch FSDP (eager)", 3.0, 5.0 / 3.0, 5.0, 14.0 / 6.0, 32.0, 64.0,
     AttentionKernel::flash2, AttentionKernel::flash2, OptimizerImpl::foreach},
    {Engine::fsdp_compile, "PyTorch FSDP + torch.compile", 1.0, 1.0, 1.0, 1.0, 12.0, 20.0,
     AttentionKernel::flash2, AttentionKernel::flash2, OptimizerImpl::foreach},
    {Engine::deepspeed, "DeepSpeed", 3.0, 5.0 / 3.0, 5.0, 14.0 / 6.0, 32.0, 64.0,
     AttentionKernel::flash2, AttentionKernel::flash2, OptimizerImpl::fused},
}};

// ---- attention throughput ---------------------------------------------------------------------
//
// Shah et al. 2024 (FlashAttention-3), Figures 5 and 6: TFLOP/s on an H100 80GB SXM5, bf16,
// batch x sequence = 16k tokens, at sequence lengths 512, 1k, 2k, 4k, 8k, 16k, as printed above
// the bars; Figure 5 times the forward at head dimensions 64, 128 and 256, with and without the
// causal mask, Figure 6 the backward (without it) at 64 and 128.
constexpr std::array<double, 6> kSeqLens{512, 1024, 2048, 4096, 8192, 16384};
// Their base-2 logarithms (each a power of two), the axis the curves are interpolated on.
constexpr std::array<double, 6> kLog2SeqLens{9, 10, 11, 12, 13, 14};
using SeqCurve = std::array<double, 6>;
// One kernel at head dimensions 64, 128 and 256 (index 0, 1, 2).
struct KernelCurve {
    std::array<SeqCurve, 3> causal_forward;
    std::array<SeqCurve, 3> forward;   // without the causal mask
    std::array<SeqCurve, 2> backward;  // without the causal mask; 64 and 128 only (Figure 6)
};
// FlashAttention-2 (orange bars).
constexpr KernelCurve kFlash2{{{{180, 229, 262, 284, 295, 299},
                                {191, 260, 298, 319, 333, 335},
                                {208, 251, 278, 293, 297, 298}}},
                              {{{282, 306, 318, 321, 322, 324},
                                {309, 350, 362, 368, 370, 370},
                                {275, 313, 321, 323, 324, 326}}},
                              {{{198, 238, 264, 279, 287, 291}, {214, 260, 291, 310, 318, 322}}}};
// cuDNN (red bars).
constexpr KernelCurve kCudnn{{{{225, 288, 334, 363, 379, 388},
                               {315, 410, 484, 518, 529, 539},
                               {308, 391, 450, 483, 497, 509}}},
                             {{{335, 373, 395, 408, 412, 413},
                               {497, 574, 617, 609, 600, 595},
                               {470, 546, 580, 581, 580, 581}}},
                             {{{266, 348, 395, 417, 432, 433}, {305, 408, 465, 499, 518, 516}}}};
// FlashAttention-3 (purple bars).
constexpr KernelCurve kFlash3{{{{197, 265, 371, 420, 460, 473},
                                {292, 423, 521, 579, 602, 616},
                                {286, 427, 537, 612, 628, 642}}},
                              {{{333, 392, 460, 476, 496, 497},
                                {467, 565, 625, 638, 646, 648},
                                {482, 639, 707, 736, 746, 756}}},
                              {{{272, 363, 422, 453, 472, 474}, {316, 424, 501, 542, 559, 561}}}};
// Triton's fused attention (green bars), at 64 and 128; the paper times no Triton kernel at 256
// and no Triton backward. At 256 its 128 figures times FlashAttention-2's ratio of 256 to 128 at
// the same length; its backward is FlashAttention-2's.
constexpr SeqCurve scaled(const SeqCurve& v, const SeqCurve& num, const SeqCurve& den) {
    return {v[0] * num[0] / den[0], v[1] * num[1] / den[1], v[2] * num[2] / den[2],
            v[3] * num[3] / den[3], v[4] * num[4] / den[4], v[5] * num[5] / den[5]};
}
constexpr SeqCurve kTritonCausal128{146, 273, 323, 353, 369, 378};
constexpr SeqCurve kTritonForward128{323, 372, 389, 389, 392, 395};
constexpr KernelCurve kTriton{
    {{{152, 291, 342, 363, 376, 363},
      kTritonCausal128,
      scaled(kTritonCausal128, kFlash2.causal_forward[2], kFlash2.causal_forward[1])}},
    {{{340, 382, 396, 400, 401, 403},
      kTritonForward128,
      scaled(kTritonForward128, kFlash2.forward[2], kFlash2.forward[1])}},
    kFlash2.backward};
// The first FlashAttention at half FlashAttention-2's throughput: FlashAttention-2 "yield[s]
// around 2x speedup compared to FlashAttention" (Dao 2023, abstract; its sec. 1 puts the first
// at 30-50% of the A100's peak forward and 25-35% backward, where the second reaches up to 73%).
// Its 2022 Triton port is "overall ... slightly slower than" it (flash_attn_triton.py's header),
// so this is that port's rate at best. Both issue Ampere's mma instructions, as FlashAttention-2
// does, so the ratio is assumed to hold on Hopper too (no published H100 figure of either), and
// at every head dimension.
constexpr SeqCurve halved(const SeqCurve& v) {
    return {v[0] / 2, v[1] / 2, v[2] / 2, v[3] / 2, v[4] / 2, v[5] / 2};
}
constexpr KernelCurve kFlash1{
    {{halved(kFlash2.causal_forward[0]), halved(kFlash2.causal_forward[1]),
      halved(kFlash2.causal_forward[2])}},
    {{halved(kFlash2.forward[0]), halved(kFlash2.forward[1]), halved(kFlash2.forward[2])}},
    {{halved(kFlash2.backward[0]), halved(kFlash2.backward[1])}}};
// The H100 SXM5's dense bf16 peak the figures are fractions of (its datasheet: 1,979 TFLOP/s
// with sparsity, 989.5 dense).
constexpr double kH100Bf16TflopS = 989.5;
// Ampere: FlashAttention-2 reaches "50-73% of the theoretical maximum FLOPs/s on A100" (Dao 2023,
// abstract). The H100 curves' shapes (over length and head dimension) are kept and scaled so that
// the best non-causal forward at head dimension 128 (370 TFLOP/s, 0.374 of the H100's peak) is
// the A100's 73%.
constexpr double kAmpereFlash2Scale = 0.73 / (370.0 / kH100Bf16TflopS);

// Where a sequence length falls among the figures' lengths: piecewise linear in log2(length),
// clamped at the ends. Found once per length and read off every curve (at() below): all the
// curves share the lengths.
struct SeqPoint {
    std::size_t i = 1;  // between kSeqLens[i - 1] and kSeqLens[i]
    double f = 0.0;     // the share of the way to kSeqLens[i]
    int clamp = 0;      // -1: at or below the first length; +1: at or above the last
};

SeqPoint seq_point(double seq_len) {
    SeqPoint p;
    if (!(seq_len > kSeqLens.front())) {
        p.clamp = -1;
        return p;
    }
    if (seq_len >= kSeqLens.back()) {
        p.clamp = 1;
        return p;
    }
    while (p.i + 1 < kSeqLens.size() && kSeqLens[p.i] < seq_len) {
        ++p.i;
    }
    const double x0 = kLog2SeqLens[p.i - 1];
    const double x1 = kLog2SeqLens[p.i];
    p.f = (std::log2(seq_len) - x0) / (x1 - x0);
    return p;
}

double at(const std::array<double, 6>& values, const SeqPoint& p) {
    if (p.clamp < 0) {
        return values.front();
    }
    if (p.clamp > 0) {
        return values.back();
    }
    return values[p.i - 1] + p.f * (values[p.i] - values[p.i - 1]);
}

const KernelCurve& curve(AttentionKernel kernel) {
    switch (kernel) {
        case AttentionKernel::flash3:
            return kFlash3;
        case AttentionKernel::cudnn:
            return kCudnn;
        case AttentionKernel::triton:
            return kTriton;
        case AttentionKernel::flash1:
            return kFlash1;
        case AttentionKernel::engine:
        case AttentionKernel::flash2:
            break;
    }
    return kFlash2;
}

GpuGeneration generation_from_names(const HardwareProfile& profile) {
    if (names_any(profile, {"b200", "b300", "blackwell"})) {
        return GpuGeneration::blackwell;
    }
    if (names_any(profile, {"h100", "h200", "h800", "h20", "hopper"})) {
        return GpuGeneration::hopper;
    }
    if (names_any(profile, {"a100", "a800", "ampere"})) {
        return GpuGeneration::ampere;
    }
    return GpuGeneration::other;
}

}  // namespace

GpuGeneration gpu_generation(const HardwareProfile& profile) {
    // The last profile asked about, per thread: a plan, and every plan of a layout search, asks
    // about the same part, and comparing two short strings costs less than searching the names
    // (generation_from_names()). Only a new part allocates.
    struct Last {
        bool valid = false;
        std::string id;
        std::string name;
        std::string copied_from;
        GpuGeneration generation = GpuGeneration::other;
    };
    thread_local Last last;
    if (last.valid && last.id == profile.id && last.name == profile.name &&
        last.copied_from == profile.copied_from) {
        return last.generation;
    }
    const GpuGeneration generation = generation_from_names(profile);
    last.valid = true;
    last.id = profile.id;
    last.name = profile.name;
    last.copied_from = profile.copied_from;
    last.generation = generation;
    return generation;
}

std::string_view to_string(GpuGeneration generation) {
    switch (generation) {
        case GpuGeneration::ampere:
            return "A100";
        case GpuGeneration::hopper:
            return "H100/H200";
        case GpuGeneration::blackwell:
            return "Blackwell";
        case GpuGeneration::other:
            return "other";
    }
    return "other";
}

const EnginePreset& engine_preset(Engine engine) {
    for (const EnginePreset& p : kPresets) {
        if (p.engine == engine) {
            return p;
        }
    }
    return kPresets.front();
}

OptimizerImpl resolved_optimizer_impl(const TrainingSpec& training) {
    return training.optimizer_impl == OptimizerImpl::engine
               ? engine_preset(training.engine).optimizer
               : training.optimizer_impl;
}

AttentionKernel resolved_attention_kernel(const TrainingSpec& training,
                                          const HardwareProfile& profile) {
    return resolved_attention_kernel(training, gpu_generation(profile));
}

AttentionKernel resolved_attention_kernel(const TrainingSpec& training, GpuGeneration gen) {
    const EnginePreset& preset = engine_preset(training.engine);
    const AttentionKernel fallback =
        gen == GpuGeneration::hopper ? preset.attention_hopper : preset.attention_other;
    AttentionKernel k = training.attention_kernel;
    if (k == AttentionKernel::engine) {
        k = fallback;
    }
    if (k == AttentionKernel::flash3 && gen != GpuGeneration::hopper) {
        k = gen == GpuGeneration::blackwell ? AttentionKernel::cudnn : AttentionKernel::flash2;
    }
    if (k == AttentionKernel::cudnn && gen != GpuGeneration::hopper &&
        gen != GpuGeneration::blackwell) {
        k = AttentionKernel::flash2;
    }
    return k;
}

double model_attention_fraction(AttentionKernel kernel, GpuGeneration generation,
                                const ModelSpec& model, double seq_len, double head_dim,
                                bool backward) {
    const double full = attention_fraction(kernel, generation, seq_len, head_dim, backward);
    const double share = windowed_layer_share(model);
    const double window = static_cast<double>(model.sliding_window);
    if (share <= 0.0 || window >= seq_len) {
        return full;
    }
    const double windowed =
        attention_fraction(kernel, generation, std::min(seq_len, 2.0 * window), head_dim, backward);
    const double full_pairs = causal_pairs(seq_len, 0.0);
    const double window_pairs = causal_pairs(seq_len, window);
    const double pairs = (1.0 - share) * full_pairs + share * window_pairs;
    const double seconds = (1.0 - share) * full_pairs / full + share * window_pairs / windowed;
    return seconds > 0.0 ? pairs / seconds : full;
}

double attention_head_dim(const ModelSpec& model) {
    if (model.mla.enabled()) {
        return 0.5 * static_cast<double>(model.mla.qk_nope_head_dim + model.mla.qk_rope_head_dim +
                                         model.mla.v_head_dim);
    }
    return static_cast<double>(model.effective_head_dim());
}

double attention_fraction(AttentionKernel kernel, GpuGeneration generation, double seq_len,
                          double head_dim, bool backward) {
    const KernelCurve& c = curve(kernel);
    const SeqPoint seq = seq_point(seq_len);
    // Between the figures' head dimensions: linear in log2(d), clamped at 64 and 256.
    const double x = std::clamp(std::log2(head_dim > 0.0 ? head_dim : 128.0), 6.0, 8.0) - 6.0;
    const std::size_t lo = x >= 1.0 ? 1 : 0;
    const double f = x - static_cast<double>(lo);
    const auto over_dims = [&](const std::array<SeqCurve, 3>& curves) {
        const double a = at(curves[lo], seq);
        return f > 0.0 ? a + f * (at(curves[lo + 1], seq) - a) : a;
    };
    // The papers time the backward only without the mask: the causal backward is taken at the
    // non-causal backward's rate times the forward's causal / non-causal ratio at the same length
    // and head dimension (the masked blocks cost the backward what they cost the forward). Above
    // 128 (no backward figure) the backward at 128 times the non-causal forward's ratio of this
    // head dimension to 128.
    const double forward_causal = over_dims(c.causal_forward);
    double tflops = forward_causal;
    if (backward) {
        const double forward = over_dims(c.forward);
        double non_causal = 0.0;
        if (lo == 0) {
            const double a = at(c.backward[0], seq);
            non_causal = a + f * (at(c.backward[1], seq) - a);
        } else {
            non_causal = at(c.backward[1], seq) * forward / at(c.forward[1], seq);
        }
        tflops = non_causal * forward_causal / forward;
    }
    double fraction = tflops / kH100Bf16TflopS;
    if (generation == GpuGeneration::ampere || generation == GpuGeneration::other) {
        fraction *= kAmpereFlash2Scale;
    }
    // Blackwell: no published per-length figures of these kernels; the H100's fraction of peak
    // stands for them (stated in docs/planner.md).
    return std::min(fraction, 1.0);
}

}  // namespace tally
