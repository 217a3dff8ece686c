// The serving engine presets and the all-reduce of serving (planner/serving/serving_engine.h).
#include "planner/serving/serving_engine.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>

#include "planner/core/text.h"

namespace tally {

namespace {

// Kernels per layer besides GEMMs, attention and all-reduces, counted from each engine's Llama
// decoder layer; a step's own: embedding lookup, final norm and the sampler's kernels (logit
// processing, softmax / top-k, the draw), about five in each engine.
constexpr double kStepKernels = 5.0;

const std::array<ServingEngineProfile, 4> kProfiles{{
    {ServingEngine::vllm, "vLLM", 512,
     // vllm/model_executor/models/llama.py: fused_add_rms_norm (2), rotary_embedding,
     // reshape_and_cache_flash, silu_and_mul.
     // Prefill: vllm-flash-attn's FlashAttention-3 on compute capability 9.x, FlashAttention-2
     // elsewhere (vllm/v1/attention/backends/fa_utils.py, get_flash_attn_version()).
     5.0, kStepKernels, 0.0, "FlashAttention (paged KV cache)", AttentionKernel::flash3,
     AttentionKernel::flash2, AllReduceKind::custom, false,
     "vLLM V1: CUDA graphs captured up to batch 512 (CompilationConfig max_capture_size); the "
     "scheduler overlaps the GPU; custom all-reduce (csrc/custom_all_reduce.cuh) over NVLink",
     // Quantized checkpoints from Model Optimizer, llm-compressor, GPTQ or AWQ keep lm_head in
     // 16 bits.
     false},
    {ServingEngine::tensorrt_llm, "TensorRT-LLM", 0,
     // tensorrt_llm/models/llama/model.py: RMSNorm (2) and the gated-MLP activation; bias, RoPE
     // and the KV-cache write run inside the GPT attention plugin.
     // Prefill: the plugin's context FMHA, which "uses the Flash Attention algorithm as described
     // in" FlashAttention and FlashAttention-2 (docs/source/advanced/gpt-attention.md, Context
     // Phase); no throughput of its own is published: FlashAttention-2's figures.
     3.0, kStepKernels, 0.0, "XQA / fused multi-head attention (attention plugin)",
     AttentionKernel::flash2, AttentionKernel::flash2, AllReduceKind::custom, true,
     "TensorRT-LLM C++ runtime (gptSessionBenchmark, trtllm-bench): engine enqueued from C++ "
     "without CUDA graphs by default; custom all-reduce plugin with the residual and RMSNorm "
     "fused",
     // Model Optimizer, its quantizer, leaves lm_head disabled.
     false},
    {ServingEngine::sglang, "SGLang", 160,
     // python/sglang/srt/models/llama.py: fused_add_rmsnorm (2), rotary embedding, KV-cache
     // store, silu_and_mul.
     // Prefill: FlashInfer picks its FlashAttention-3 template on sm90a and its
     // FlashAttention-2 one elsewhere (flashinfer/utils.py, determine_attention_backend()).
     5.0, kStepKernels, 0.0, "FlashInfer (paged KV cache)", AttentionKernel::flash3,
     AttentionKernel::flash2, AllReduceKind::custom, false,
     "SGLang: CUDA graphs up to cuda_graph_max_bs (160 by default, server_args.py); the "
     "zero-overhead scheduler overlaps the next batch's CPU work (LMSYS, SGLang v0.4, 2024); "
     "custom all-reduce",
     false},
    {ServingEngine::gpt_fast, "gpt-fast", std::int64_t{1} << 40,
     // model.py under torch.compile: Inductor fuses each norm and the SwiGLU product into one
     // kernel and the rotary embedding with the KV-cache update into one.
     // Prefill: SDPA's flash backend, FlashAttention-2 (PyTorch 2.2 release notes).
     4.0, kStepKernels, 0.0, "PyTorch SDPA", AttentionKernel::flash2, AttentionKernel::flash2,
     AllReduceKind::nccl, false,
     "pytorch-labs/gpt-fast: torch.compile(mode=\"reduce-overhead\") replays every decode step "
     "as a CUDA graph; tensor parallelism through torch.distributed (NCCL) all-reduces (tp.py)",
     // quantize.py replaces every nn.Linear with its int8 / int4 version, the output included.
     true},
}};

}  // namespace

std::string_view to_string(AllReduceKind kind) {
    // Marked for translation: the serving explanations name the kind in the user's language.
    return kind == AllReduceKind::nccl
               ? QT_TRANSLATE_NOOP("tally::explain", "NCCL ring")
               : QT_TRANSLATE_NOOP("tally::explain", "custom one-shot / two-shot");
}

const ServingEngineProfile& serving_engine_profile(ServingEngine engine) {
    for (const ServingEngineProfile& p : kProfiles) {
        if (p.engine == engine) {
            return p;
        }
    }
    return kProfiles[0];
}

KvPool kv_pool(ServingEngine engine, std::int64_t tp) {
    switch (engine) {
        case ServingEngine::vllm:
            // vllm/engine/arg_utils.py, EngineArgs.gpu_memory_utilization = 0.9: "the fraction of
            // GPU memory to be used for the model executor"; the KV cache gets what the weights
            // and the profiled activations leave of it.
            return {KvPoolRule::executor_share, 0.9, "gpu_memory_utilization 0.9"};
        case ServingEngine::tensorrt_llm:
            // tensorrt_llm/llmapi KvCacheConfig.free_gpu_memory_fraction = 0.9 (the C++
            // executor's KvCacheConfig default too): the share of the memory free after the
            // engine's weights and activation buffers are allocated.
            return {KvPoolRule::free_share, 0.9, "free_gpu_memory_fraction 0.9"};
        case ServingEngine::sglang:
            // python/sglang/srt/server_args.py (the releases whose cuda_graph_max_bs defaults to
            // 160): mem_fraction_static, the share of the GPU's memory for weights and the KV
            // pool, by tensor-parallel size: 0.88 alone, 0.87 from tp 2, 0.85 from 4, 0.81 from
            // 8, 0.79 from 16.
            if (tp >= 16) {
                return {KvPoolRule::static_share, 0.79, "mem_fraction_static 0.79 (tp >= 16)"};
            }
            if (tp >= 8) {
                return {KvPoolRule::static_share, 0.81, "mem_fraction_static 0.81 (tp >= 8)"};
            }
            if (tp >= 4) {
                return {KvPoolRule::static_share, 0.85, "mem_fraction_static 0.85 (tp >= 4)"};
            }
            if (tp >= 2) {
                return {KvPoolRule::static_share, 0.87, "mem_fraction_static 0.87 (tp >= 2)"};
            }
            return {KvPoolRule::static_share, 0.88, "mem_fraction_static 0.88"};
        case ServingEngine::gpt_fast:
            // generate.py: model.setup_caches(max_batch_size, max_seq_length) allocates the cache
            // for the batch it is asked for; no share is held back.
            return {KvPoolRule::whole_memory, 1.0, "setup_caches(max_batch_size, max_seq_length)"};
    }
    return {};
}

KvPool kv_pool(const InferenceSpec& in) {
    KvPool pool = kv_pool(in.engine, in.tp);
    if (in.memory_fraction && pool.rule != KvPoolRule::whole_memory) {
        pool.fraction = *in.memory_fraction;
        pool.set_by_plan = true;
    }
    return pool;
}

std::string kv_pool_setting(const KvPool& pool) {
    if (!pool.set_by_plan) {
        return std::string(pool.setting);
    }
    // The setting's name, without the default's value and its tp note.
    return fmt::format("{} {} (inference.memory_fraction)",
                       pool.setting.substr(0, pool.setting.find(' ')), pool.fraction);
}

double kv_pool_bytes(const KvPool& pool, double capacity_bytes, double weights_bytes,
                     double activation_bytes) {
    switch (pool.rule) {
        case KvPoolRule::whole_memory:
            return capacity_bytes - weights_bytes - activation_bytes;
        case KvPoolRule::executor_share:
            return pool.fraction * capacity_bytes - weights_bytes - activation_bytes;
        case KvPoolRule::static_share:
            return pool.fraction * capacity_bytes - weights_bytes;
        case KvPoolRule::free_share:
            return pool.fraction * (capacity_bytes - weights_bytes - activation_bytes);
    }
    return 0.0;
}

ServingCollective serving_ring_all_reduce(double bytes, std::int64_t ranks, double link_bytes_per_s,
                                          CollectiveLink link) {
    ServingCollective best;
    if (ranks <= 1) {
        return best;
    }
    const double p = static_cast<double>(ranks);
    const double steps = 2.0 * (p - 1.0);
    const double bus[kNcclProtocols] = {std::min(kNcclLlMaxBusBytesPerS, link_bytes_per_s / 4.0),
                                        kNcclLl128LinkShare * link_bytes_per_s, link_bytes_per_s};
    const auto& step_latency = kNcclRingStepLatencyS[static_cast<int>(link)];
    for (int protocol = 0; protocol < kNcclProtocols; ++protocol) {
        ServingCollective c;
        c.bandwidth_s = bus[protocol] > 0.0 ? steps / p * bytes / bus[protocol] : 0.0;
        c.latency_s = kNcclRingBaseLatencyS[protocol] + steps * step_latency[protocol];
        c.seconds = c.bandwidth_s + c.latency_s;
        if (protocol == 0 || c.seconds < best.seconds) {
            best = c;
        }
    }
    return best;
}

ServingCollective serving_all_reduce(AllReduceKind kind, double bytes, std::int64_t ranks,
                                     double link_bytes_per_s, double nccl_link_bytes_per_s,
                                     CollectiveLink link) {
    const ServingCollective ring =
        serving_ring_all_reduce(bytes, ranks, nccl_link_bytes_per_s, link);
    if (kind == AllReduceKind::nccl || ranks <= 1 || bytes > kCustomAllReduceMaxBytes) {
        return ring;
    }
    const double p = static_cast<double>(ranks);
    const double share = link_bytes_per_s * kCustomAllReduceLinkFraction;
    auto custom = [&](double message) {
        ServingCollective c;
        c.latency_s = ranks >= 8 ? kCustomAllReduceLatency8S : kCustomAllReduceLatencySmallS;
        c.bandwidth_s = share > 0.0 ? 2.0 * (p - 1.0) / p * message / share : 0.0;
        c.seconds = c.latency_s + c.bandwidth_s;
        return c;
    };
    const ServingCollective c = custom(bytes);
    if (bytes <= kCustomAllReduceMeasuredMaxBytes || c.seconds <= ring.seconds) {
        return c;
    }
    // Past the measurements and slower than the ring: the ring's time, or the largest measured
    // message's where that is longer.
    const ServingCollective floor = custom(kCustomAllReduceMeasuredMaxBytes);
    return floor.seconds > ring.seconds ? floor : ring;
}

}  // namespace tally
