#pragma once

// The software that runs a training step (training.engine), as the step-time model charges it:
// which operations the engine fuses (so how many bytes its memory-bound operations move), how many
// kernels a transformer layer launches forward and backward (each paying a fixed gap), which fused
// attention kernel it runs and at what throughput, and what its communication takes from compute.
//
// The presets (engine.cpp derives each figure):
//   megatron      norm + residual, activation, RoPE and cross-entropy fused (Transformer
//                 Engine); 11 kernels forward, 16 backward; cuDNN attention on Hopper,
//                 FlashAttention-2 elsewhere; fused Adam.
//   fsdp          eager PyTorch: RMSNorm 3x the fused bytes, SwiGLU 5/3, RoPE 5x, cross-entropy
//                 14/6; 32 kernels forward, 64 backward; FlashAttention-2 (SDPA); torch's
//                 foreach AdamW.
//   fsdp_compile  the same under torch.compile: Inductor fuses the pointwise chains (1x each);
//                 12 kernels forward, 20 backward; FlashAttention-2 (SDPA); foreach AdamW (the
//                 optimizer step is not compiled).
//   deepspeed     eager PyTorch layers, as fsdp; FlashAttention-2; DeepSpeed's FusedAdam.
//
// The factors multiply the fused byte counts of performance.cpp; each is derived in engine.cpp
// from the passes the eager operations make. None is fitted to a measured run.

#include <cstdint>
#include <string_view>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"

namespace tally {

// The GPU generation a part belongs to, from its catalog id: what decides which attention kernels
// run on it (FlashAttention-3 is Hopper-only: Shah et al. 2024, sec. 1) and which published cases
// are comparable (performance.error_band).
enum class GpuGeneration { ampere, hopper, blackwell, other };
GpuGeneration gpu_generation(const HardwareProfile& profile);
std::string_view to_string(GpuGeneration generation);

struct EnginePreset {
    Engine engine = Engine::megatron;
    std::string_view name;
    // Multipliers of the fused byte counts of a layer's memory-bound operations.
    double rmsnorm_traffic = 1.0;  // an RMSNorm (a LayerNorm is one kernel in every engine)
    double swiglu_traffic = 1.0;   // the gated activation
    double rope_traffic = 1.0;     // rotary embeddings on queries and keys
    double cross_entropy_traffic = 1.0;
    // Kernels one transformer layer launches per micro-batch (bf16; an fp8 step adds its casts).
    double kernels_forward = 0.0;
    double kernels_backward = 0.0;
    AttentionKernel attention_hopper = AttentionKernel::flash2;
    AttentionKernel attention_other = AttentionKernel::flash2;
    // How its optimizer update runs (training.optimizer_impl): fused or a pass per operation.
    OptimizerImpl optimizer = OptimizerImpl::fused;
};
const EnginePreset& engine_preset(Engine engine);

// Whether the engine's data parallelism runs ZeRO stage `zero` (training.zero), as the layout
// search offers only what the team's framework can launch: Megatron-Core has plain DDP (0) and
// its distributed optimizer, which shards the optimizer state alone (1: Megatron-LM
// --use-distributed-optimizer); PyTorch FSDP has NO_SHARD (0), SHARD_GRAD_OP (2) and FULL_SHARD
// (3) and nothing that shards the optimizer state alone (torch.distributed.fsdp.ShardingStrategy);
// DeepSpeed has stages 0 to 3 (its zero_optimization.stage).
constexpr bool engine_has_zero_stage(Engine engine, int zero) {
    switch (engine) {
        case Engine::megatron:
            return zero == 0 || zero == 1;
        case Engine::fsdp:
        case Engine::fsdp_compile:
            return zero == 0 || zero == 2 || zero == 3;
        case Engine::deepspeed:
            return zero >= 0 && zero <= 3;
    }
    return false;
}

// The optimizer implementation a step runs: training.optimizer_impl, else the engine's.
OptimizerImpl resolved_optimizer_impl(const TrainingSpec& training);
// Whether the implementation changes an optimizer's update: Adam and AdamW, whose passes
// performance.cpp counts; the others are timed as one fused pass either way.
constexpr bool optimizer_impl_applies(Optimizer optimizer) {
    return optimizer == Optimizer::adam || optimizer == Optimizer::adamw;
}

// The attention kernel a step runs: training.attention_kernel, else the engine's for the part's
// generation; FlashAttention-3 off Hopper falls back to the engine's kernel for that generation.
AttentionKernel resolved_attention_kernel(const TrainingSpec& training,
                                          const HardwareProfile& profile);
// The same for a generation already known (gpu_generation() of the profile).
AttentionKernel resolved_attention_kernel(const TrainingSpec& training, GpuGeneration generation);

// The fraction of the part's dense bf16 peak a fused attention kernel reaches on a causal
// sequence of `seq_len` keys at head dimension `head_dim` (the figures' 64, 128 and 256, linear in
// log2 of each between them, clamped outside), forward or backward (FLOPs counted as the papers
// count them: 4·s²·d per head forward, halved for causal; backward 2.5x the forward).
double attention_fraction(AttentionKernel kernel, GpuGeneration generation, double seq_len,
                          double head_dim, bool backward);

// attention_fraction() over a model whose layers mix full causal attention and a sliding window
// (ModelSpec::sliding_window) on a sequence of `seq_len`: the full layers at that length, the
// windowed ones at min(seq_len, 2·W), weighted by the score pairs each computes (s²/2 and
// s·W - W²/2, attention_span.h). A windowed kernel's query block loops over about W / block
// keys, as a causal kernel's does on average at length 2·W (Dao 2023, sec. 3.1.1: the blocks the
// mask empties are skipped); the figures hold the tokens per kernel fixed (16k), so the length
// sets only that loop. The model without windowed layers: attention_fraction() at seq_len.
double model_attention_fraction(AttentionKernel kernel, GpuGeneration generation,
                                const ModelSpec& model, double seq_len, double head_dim,
                                bool backward);

// The head dimension a model's attention is read at in attention_fraction(): its head width, or
// for MLA the mean of the query-key width (nope + rope) and the value width, since the scores and
// the output take half the FLOPs each (DeepSeek-V2, Liu et al. 2024, sec. 2.1.3).
double attention_head_dim(const ModelSpec& model);

// The gap one kernel launch adds on the GPU when kernels are queued back to back: NVIDIA's
// "Getting Started with CUDA Graphs" (A. Gray, NVIDIA Developer Blog, 2019) times 2.9 us kernels at
// 3.8 us each when launched asynchronously one after another: 0.9 us per kernel.
inline constexpr double kKernelLaunchGapS = 3.8e-6 - 2.9e-6;

// SMs an NCCL collective occupies while it runs: one CUDA block per channel, each on an SM of its
// own that compute kernels cannot share, and "on DGX with 8 NICs ... it would use 16 SMs"
// (S. Jeaugey, NCCL maintainer, github.com/NVIDIA/nccl/issues/689). Compute overlapping a
// collective runs on the other SMs.
inline constexpr double kNcclSms = 16.0;

}  // namespace tally
