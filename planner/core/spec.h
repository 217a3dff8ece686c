#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/dtype.h"
#include "planner/core/op_spec.h"

namespace tally {

// ---- model --------------------------------------------------------------------------------------

enum class ModelKind {
    transformer,  // decoder-only transformer from its dimensions
    mlp,          // CS336 lecture 2's deep ReLU network: `layers` blocks of a D x D matmul + ReLU
    params,       // just a parameter count (no architecture: no activations)
};
enum class FfnKind { gelu, swiglu, relu };
enum class NormKind { layernorm, rmsnorm };
enum class BiasKind { none, qkv, all };

// Mixture of experts (Shazeer et al. 2017; Fedus et al. 2022). Layers [0, first_dense_layers)
// keep a dense MLP of width ffn_hidden; the others have `experts` routed experts of width
// expert_ffn_hidden, of which `active_experts` run per token, plus `shared_experts` that always
// run.
struct MoeSpec {
    std::int64_t experts = 0;
    std::int64_t active_experts = 0;
    std::int64_t shared_experts = 0;
    std::int64_t expert_ffn_hidden = 0;  // 0: same as ffn_hidden
    std::int64_t first_dense_layers = 0;
    // Group-limited routing (DeepSeek-V3's n_group and topk_group, DeepSeek-AI 2024, sec. 2.1.2,
    // "node-limited routing"; Megatron-Core's --moe-router-num-groups and --moe-router-group-topk):
    // the experts fall into router_groups equal groups and each token picks its experts among
    // the router_group_topk groups it scores highest. 0: no groups.
    std::int64_t router_groups = 0;
    std::int64_t router_group_topk = 0;

    bool enabled() const { return experts > 0; }
    bool operator==(const MoeSpec&) const = default;
};

// Multi-head latent attention (DeepSeek-V2, Liu et al. 2024, sec. 2.1; DeepSeek-V3 config):
// queries optionally through a rank-q_lora_rank bottleneck, keys and values from a shared
// rank-kv_lora_rank latent plus a decoupled RoPE key of qk_rope_head_dim shared by all heads.
struct MlaSpec {
    std::int64_t q_lora_rank = 0;  // 0: queries projected directly from the hidden state
    std::int64_t kv_lora_rank = 0;
    std::int64_t qk_nope_head_dim = 0;
    std::int64_t qk_rope_head_dim = 0;
    std::int64_t v_head_dim = 0;

    bool enabled() const { return kv_lora_rank > 0; }
    bool operator==(const MlaSpec&) const = default;
};

struct ModelSpec {
    ModelKind kind = ModelKind::transformer;
    std::string name;  // free text (a preset's name)
    // transformer and mlp
    std::int64_t layers = 0;
    std::int64_t hidden = 0;
    // transformer
    std::int64_t heads = 0;
    std::int64_t kv_heads = 0;  // 0: = heads (multi-head attention)
    std::int64_t head_dim = 0;  // 0: = hidden / heads
    std::int64_t ffn_hidden = 0;
    FfnKind ffn = FfnKind::gelu;
    std::int64_t vocab = 0;
    bool tied_embeddings = false;
    NormKind norm = NormKind::rmsnorm;
    BiasKind bias = BiasKind::none;
    std::int64_t learned_positions = 0;  // rows of a learned position embedding (GPT-2/3); 0: none
    // Sliding-window (local) attention (Child et al. 2019, sec. 4.2; Beltagy et al. 2020,
    // Longformer, sec. 3.1; Jiang et al. 2023, Mistral 7B, sec. 2): in sliding_window_layers of the
    // layers each query attends to the sliding_window most recent positions, itself included (the
    // Hugging Face configs' sliding_window); the others attend to the whole causal prefix.
    // sliding_window 0: every layer attends to the whole prefix (sliding_window_layers is then
    // not read); sliding_window_layers 0 with a window: every layer is windowed (Mistral 7B
    // v0.1), as kv_heads 0 means heads.
    std::int64_t sliding_window = 0;
    std::int64_t sliding_window_layers = 0;
    // The longest sequence, prompt and output together, the model's own configuration serves
    // (a Hugging Face config's max_position_embeddings, GPT's n_ctx); 0: unstated. Serving engines
    // refuse longer requests by default (vLLM derives max_model_len from it), so a serving plan
    // past it is warned about. It sizes nothing: a training plan may train a longer context.
    std::int64_t context_length = 0;
    // The base of the rotary position embedding's frequencies (RoPE: theta_i = base^(-2(i-1)/d),
    // Su et al. 2021, sec. 3.2.2; a Hugging Face config's rope_theta): Llama 2's 10,000, Llama 3's
    // 500,000 (Dubey et al. 2024, Table 3). 0: unstated, and the frameworks' own default runs
    // (10,000 in Megatron-LM and NeMo). It sizes nothing; the launch configurations write it, so
    // that a run trains the positions the model was built with.
    double rope_theta = 0.0;
    // QK-norm: the queries and keys normalised per head before attention (Dehghani et al. 2023,
    // "Scaling Vision Transformers to 22 Billion Parameters", sec. 3.1; Qwen3's and Gemma 3's
    // q_norm and k_norm, a norm of the head dimension shared by the heads; Megatron-Core's
    // qk_layernorm). It adds two norms of d weights a layer, their traffic and the queries' and
    // keys' values before the norm, kept for its backward. Not read with MLA, whose latent norms
    // (DeepSeek-V2 sec. 2.1.2) are counted with it.
    bool qk_norm = false;
    // Multi-token prediction (DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", sec. 2.2;
    // Megatron-Core's --mtp-num-layers, megatron/core/transformer/multi_token_prediction.py): the
    // depth D of sequential modules that each predict one more future token during training. Each
    // holds two norms (of the hidden state and of the next token's embedding), a 2h x h
    // projection, one transformer layer of the kind of the model's last layer and a final norm,
    // and shares the main model's embedding and output head. DeepSeek-V3 trains with D = 1 (sec.
    // 4.2). 0: none. Only training reads it: served models drop the modules (sec. 2.2, "MTP in
    // Inference").
    std::int64_t mtp_layers = 0;
    MoeSpec moe;
    MlaSpec mla;
    // params
    double params = 0.0;

    std::int64_t effective_kv_heads() const { return kv_heads > 0 ? kv_heads : heads; }
    std::int64_t effective_head_dim() const {
        return head_dim > 0 ? head_dim : (heads > 0 ? hidden / heads : 0);
    }
    // The layers that attend through the window (none without one).
    std::int64_t windowed_layers() const {
        if (sliding_window <= 0) {
            return 0;
        }
        return sliding_window_layers > 0 ? sliding_window_layers : layers;
    }
    std::int64_t effective_expert_ffn() const {
        return moe.expert_ffn_hidden > 0 ? moe.expert_ffn_hidden : ffn_hidden;
    }
    bool operator==(const ModelSpec&) const = default;
};

// The model with the fields its kind never reads at their defaults, and no name: a parameter
// count keeps only params; the ReLU network layers and hidden; a transformer everything but
// params, its moe and mla only when enabled. Two models with equal results describe the same
// network (a form compares the plan's model with the presets this way).
ModelSpec architecture_only(const ModelSpec& model);

// ---- data ---------------------------------------------------------------------------------------

struct DataSpec {
    double tokens = 0.0;            // training tokens (data points for the mlp kind)
    std::int64_t seq_len = 4096;    // tokens per sequence (1 for the mlp kind)
    std::int64_t global_batch = 0;  // sequences per optimizer step; 0: micro_batch x data-parallel
    std::int64_t micro_batch = 1;   // sequences per GPU per forward/backward
    bool operator==(const DataSpec&) const = default;
};

// ---- cluster ------------------------------------------------------------------------------------

struct ClusterSpec {
    std::string gpu = "h100-sxm";  // a hardware profile id
    std::int64_t gpus = 1;
    double mfu = 0.5;  // model FLOPs utilisation: achieved model FLOP/s / dense peak
    // true: the time comes from the performance model (planner/performance/performance.h) and `mfu`
    // is not read; false: from the assumed `mfu` (FLOPs / (peak x mfu x GPUs)). A JSON spec without
    // cluster.mfu, or with "predicted", is predicted; one with a number is assumed.
    bool mfu_predicted = false;
    // In the user's currency; absent (a spec's 0 reads as absent): the profile's, if any.
    std::optional<double> price_per_gpu_hour;
    // The network the performance model times collectives on; 0: the hardware profile's figure.
    std::int64_t gpus_per_node = 0;       // GPUs one scale-up fabric (NVLink/NVSwitch) joins
    double intra_node_bytes_per_s = 0.0;  // scale-up bandwidth per GPU per direction
    double inter_node_bytes_per_s = 0.0;  // scale-out (InfiniBand/RoCE) per GPU per direction
    bool operator==(const ClusterSpec&) const = default;
};

// ---- training recipe ----------------------------------------------------------------------------

enum class Optimizer { sgd, momentum, adagrad, rmsprop, adam, adamw, adafactor, lion, adam8bit };
enum class Recompute {
    none,       // keep every activation
    selective,  // Korthikanti et al. 2022 sec. 5: recompute the attention core (QK^T, softmax, AV)
    full,       // Korthikanti et al. 2022 / Megatron: keep each layer's input, recompute the layer
    sqrt,       // Chen et al. 2016: a checkpoint every ceil(sqrt(L)) layers (CS336 lecture 2)
};
struct RecomputeModules {
    bool core_attn = false;
    bool layernorm = false;
    bool mla_up_proj = false;
    bool moe_act = false;
    bool mlp = false;
    bool any() const { return core_attn || layernorm || mla_up_proj || moe_act || mlp; }
    // Modules that drop more than the attention core (which flash attention never keeps).
    bool beyond_core() const { return layernorm || mla_up_proj || moe_act || mlp; }
    bool operator==(const RecomputeModules&) const = default;
};
// Where optimizer state (and parameters) live between steps (ZeRO-Offload, Ren et al. 2021;
// ZeRO-Infinity, Rajbhandari et al. 2021): `optimizer` keeps master weights and optimizer state in
// host memory and runs the update on the CPU; `optimizer_and_params` also keeps the parameter and
// gradient shards there and streams parameters in over PCIe as layers need them (ZeRO-3 only).
enum class Offload { none, optimizer, optimizer_and_params };
enum class FlopsFormula {
    six_nd,     // 6·N·D (CS336 lecture 2; Kaplan et al. 2020)
    attention,  // 6·N + 12·L·H·Q·T per token (PaLM, Chowdhery et al. 2022, appendix B)
};

// The software that runs the step (planner/performance/engine.h): each is a documented preset of
// which operations it fuses, how many kernels a layer launches, which attention kernel it runs and
// what it overlaps.
enum class Engine {
    megatron,      // Megatron-Core with Transformer Engine's fused kernels (NeMo, Megatron-Bridge)
    fsdp,          // PyTorch FSDP / FSDP2, eager (llm-foundry, torchtitan without compile)
    fsdp_compile,  // the same under torch.compile (Inductor's fused kernels)
    deepspeed,     // DeepSpeed ZeRO with its fused Adam, eager PyTorch layers
};
// How an FP8 step scales its tensors (Transformer Engine's recipes, docs/features/
// low_precision_training): `delayed` takes each tensor's scale from the amax history of earlier
// steps, so the cast is one pass; `current` reduces this step's amax first (one more read);
// `block` scales 1 x 128 activation tiles and 128 x 128 weight blocks (DeepSeek-V3, sec. 3.3.2);
// `mxfp8` one E8M0 scale per 32 values (OCP Microscaling; Blackwell tensor cores).
enum class Fp8Recipe { delayed, current, block, mxfp8 };
// How the routed tokens reach their experts (Megatron-Core's --moe-token-dispatcher-type): an
// all-to-all of every token copy, or the "flex" dispatcher (DeepEP, HybridEP), which sends a
// token across the network once per node holding its experts and forwards it inside the node.
enum class MoeDispatcher { alltoall, flex };
// When a fully sharded (ZeRO-3 / FSDP) step gathers the next layer's parameters in the backward
// pass (PyTorch FSDP's backward_prefetch): `pre` before the current layer's gradient computation,
// so the gather runs beside it (BACKWARD_PRE, PyTorch's default); `post` after it, so the gather
// waits for it and only the reduce-scatter runs beside the next layer's gradients
// (BACKWARD_POST, "less overlap": the torch.distributed.fsdp.BackwardPrefetch documentation;
// MosaicML Composer's default, composer set_fsdp_default()).
enum class FsdpBackwardPrefetch { pre, post };
// What the cross-entropy keeps of each logit for its backward pass: `fp32`, an fp32 softmax (or
// its gradient), 4 bytes (Korthikanti et al. 2022, sec. 4.4; PyTorch's cross_entropy, Megatron-
// Core's vocab_parallel_cross_entropy and its native fusion, which cast the logits to fp32 and
// keep exp_logits; Transformer Engine's parallel_cross_entropy from 2.18, whose fp32 grad_input
// it keeps); `in_place`, the gradient written over the logits in their own 16-bit dtype, which are
// kept, 2 bytes (Transformer Engine's parallel_cross_entropy up to 2.17: cross_entropy_kernel
// writes into X_ptr and the function saves its input; Megatron-Core's cross_entropy_fusion_impl
// "te", which Megatron-Bridge's performance recipes set).
enum class CrossEntropy { fp32, in_place };
// How the optimizer update runs over this rank's shard (what the memory-bound update moves):
// `fused`, one kernel that reads every value once and writes it once (Apex's and Transformer
// Engine's FusedAdam, which Megatron-Core and DeepSpeed run; torch.optim.AdamW(fused=True));
// `foreach`, one pass over the shard per elementwise operation (torch.optim.AdamW's default on
// CUDA, its _multi_tensor_adamw; MosaicML Composer's DecoupledAdamW makes the same passes a
// tensor at a time); `engine`: the engine preset's (engine.h).
enum class OptimizerImpl { engine, fused, foreach };
// The fused attention kernel when training.flash_attention is on; `engine`: the engine preset's.
// `flash1`: the first FlashAttention (Dao et al. 2022) and its 2022 Triton port (HazyResearch
// flash_attn_triton.py, which llm-foundry's attn_impl "triton" runs).
enum class AttentionKernel { engine, flash2, flash3, cudnn, triton, flash1 };

struct TrainingSpec {
    DType param_dtype = DType::bf16;
    DType grad_dtype = DType::bf16;
    std::optional<DType> master_dtype = DType::fp32;  // nullopt: "none" (no master copy)
    Optimizer optimizer = Optimizer::adamw;
    DType optimizer_state_dtype = DType::fp32;
    DType compute_dtype = DType::bf16;     // the dtype whose peak sets the time
    DType activation_dtype = DType::bf16;  // stored activations
    Recompute recompute = Recompute::none;
    // Korthikanti's tables count only what is stored between forward and backward; with this on,
    // the activations a recomputed segment re-materialises during backward are added (one layer for
    // full, the attention core of one layer for selective). sqrt always counts its segment, since
    // that is the method's own memory cost (Chen et al. 2016, sec. 4.1).
    bool recompute_working_set = false;
    // With recompute full: the layers of each pipeline stage (of each virtual stage with
    // interleaving) that are recomputed, the others keeping all their activations (Megatron's
    // --recompute-method block --recompute-num-layers N). 0: every layer.
    std::int64_t recompute_layers = 0;
    // With recompute selective: what each layer recomputes in its backward instead of keeping
    // (Megatron-Core's --recompute-modules, megatron/core/transformer/transformer_config.py):
    // core_attn the attention core (Korthikanti et al. 2022, sec. 5); layernorm the outputs of the
    // two norms; mla_up_proj MLA's up projections (the queries, keys and values from their
    // latents); moe_act the routed experts' activation function output; mlp a dense layer's whole
    // MLP. None given: core_attn, Megatron-Core's default.
    RecomputeModules recompute_modules;
    int zero = 0;  // ZeRO stage 0-3 (Rajbhandari et al. 2020), over the data-parallel group
    std::int64_t tp = 1;
    std::int64_t pp = 1;
    bool sequence_parallel = false;
    bool flash_attention = true;
    bool dropout = false;
    FlopsFormula flops_formula = FlopsFormula::six_nd;
    // Virtual pipeline stages per GPU: the interleaved 1F1B schedule (Narayanan et al. 2021,
    // sec. 2.2.2); 1 is plain 1F1B.
    std::int64_t interleave = 1;
    // Expert parallelism: the routed experts are spread over this many data-parallel ranks, each
    // holding experts / expert_parallel of them (Lepikhin et al. 2020, GShard; Fedus et al. 2022).
    std::int64_t expert_parallel = 1;
    // Data-parallel gradient (and ZeRO-3 parameter) collectives overlap the backward (forward)
    // pass in buckets (Li et al. 2020, PyTorch DDP, sec. 3.2.3); false: they run after it.
    bool dp_overlap = true;
    Offload offload = Offload::none;
    Engine engine = Engine::megatron;
    // Context parallelism (Megatron-Core; Dubey et al. 2024, sec. 3.3.2): each sequence split over
    // this many GPUs, attention run as a ring over their key/value chunks. dp = gpus / (tp·pp·cp).
    std::int64_t context_parallel = 1;
    // Transformer layers on the first and the last pipeline stage (Megatron's
    // --decoder-first/last-pipeline-num-layers); 0: the layers spread as evenly as Megatron does,
    // the remainder one each on the last stages.
    std::int64_t first_stage_layers = 0;
    std::int64_t last_stage_layers = 0;
    // Tensor parallelism of the routed experts (Megatron-Core's --expert-tensor-parallel-size); 0:
    // the same as tp.
    std::int64_t expert_tensor_parallel = 0;
    Fp8Recipe fp8_recipe = Fp8Recipe::delayed;  // read only when compute_dtype is an fp8 type
    // Routed tokens the busiest expert receives, as a multiple of the balanced share (1: balanced,
    // as a forced-balance or aux-loss router approaches; with a capacity factor c and padding to
    // it, c).
    double moe_imbalance = 1.0;
    AttentionKernel attention_kernel = AttentionKernel::engine;
    // Tensor-parallel communication overlapped with the GEMMs beside it (Transformer Engine's
    // userbuffers, Megatron-Core's --tp-comm-overlap; Wang et al. 2023, "Overlap Communication
    // with Dependent Computation via Decomposition", ASPLOS): each all-gather / reduce-scatter is
    // cut into tp chunks exchanged while the GEMM works on the chunk it has. Needs sequence
    // parallelism, as Megatron-Core requires.
    bool tp_comm_overlap = false;
    // Expert-parallel all-to-alls of one micro-batch overlapped with another micro-batch's
    // compute (Megatron-Core's --overlap-moe-expert-parallel-comm, Megatron-Bridge's
    // moe_a2a_overlap; the forward of one micro-batch beside the backward of another, as
    // DeepSeek-V3's DualPipe pairs them: DeepSeek-AI 2024, sec. 3.2.1). Needs two or more
    // micro-batches per step.
    bool ep_comm_overlap = false;
    MoeDispatcher moe_dispatcher = MoeDispatcher::alltoall;
    FsdpBackwardPrefetch fsdp_backward_prefetch = FsdpBackwardPrefetch::pre;
    CrossEntropy cross_entropy = CrossEntropy::fp32;
    OptimizerImpl optimizer_impl = OptimizerImpl::engine;
    // Activations of this many transformer layers (the first ones) copied to host memory after
    // their forward pass and brought back for their backward (Megatron-Core's
    // cpu_offloading_num_layers, megatron/core/cpu_offload.py), over the host link while the
    // other layers compute. 0: none. Megatron-Core allows it with one pipeline stage and no
    // recomputation.
    std::int64_t activation_offload_layers = 0;
    bool operator==(const TrainingSpec&) const = default;
};

// Megatron-Core's names of the modules set, in a fixed order (core_attn, layernorm, mla_up_proj,
// moe_act, mlp).
std::vector<std::string_view> recompute_module_names(const RecomputeModules& modules);
// The same names joined by ", ", as an error quotes them.
std::string recompute_modules_text(const RecomputeModules& modules);
// Sets the module Megatron-Core names `name` in `modules`; false for a name that is none of them.
bool add_recompute_module(RecomputeModules& modules, std::string_view name);

// The modules a selective recomputation repeats: recompute_modules, or the attention core when
// none is given; nothing without selective recomputation.
inline RecomputeModules selective_recompute(const TrainingSpec& t) {
    if (t.recompute != Recompute::selective) {
        return {};
    }
    if (!t.recompute_modules.any()) {
        RecomputeModules core;
        core.core_attn = true;
        return core;
    }
    return t.recompute_modules;
}

// ---- solver -------------------------------------------------------------------------------------

struct SolverSpec {
    // false: model state only (params, grads, master, optimizer), as CS336's question asks.
    // true: activations too; the transformer is deepened or made shallower (layers scaled, width
    // kept) to find the largest that fits.
    bool include_activations = false;
    bool operator==(const SolverSpec&) const = default;
};

// ---- serving ----------------------------------------------------------------------------------

// Serving the model (`tally infer`, the Inference panel): `batch` sequences decoded together, each
// a prompt of `prompt_tokens` followed by `output_tokens` generated one at a time, on replicas of
// `tp` tensor-parallel GPUs (cluster.gpus / tp replicas). Weights are stored in `weight_dtype`
// (weight-only quantization reads fewer bytes per weight) and the KV cache in `kv_dtype`. The
// price is the cluster's (cluster.price_per_gpu_hour), else the hardware profile's.
// The serving engine (planner/serving/serving_engine.h): each a documented preset of CUDA graphs,
// per-step host cost, fused kernels per layer, attention kernel and all-reduce.
enum class ServingEngine { vllm, tensorrt_llm, sglang, gpt_fast };
// How the decode attention kernel reads a grouped-query model's KV cache: once per KV head for
// all the query heads that share it (XQA, FlashInfer, FlashAttention's decode), or once per
// query head, a thread block per query head and sequence streaming its KV head by itself
// (TensorRT-LLM's masked multi-head attention kernel, which runs where XQA does not apply:
// before release 0.8, and in 0.9 for other than 8 query heads per KV head or head sizes other
// than 128 and 256; decoderMaskedMultiheadAttentionLaunch.h and decoderXQARunner.h).
enum class DecodeAttention { grouped, per_query_head };

// The precision of the output head (the vocabulary projection) when the weights are quantized:
// as the engine's usual checkpoints store it (`engine`), quantized like the other weights, or kept
// 16-bit. NVIDIA's Model Optimizer, which makes TensorRT-LLM's FP8, INT8 and INT4 checkpoints,
// leaves every `*lm_head*` quantizer disabled (modelopt/torch/quantization/config.py,
// _default_disabled_quantizer_cfg), as GPTQ and AWQ checkpoints leave lm_head in 16 bits;
// gpt-fast's quantize.py replaces every nn.Linear, the output projection included. Embedding
// tables are looked up, not multiplied, and stay 16-bit in all of them.
enum class OutputHead { engine, quantized, sixteen_bit };

struct InferenceSpec {
    std::int64_t batch = 1;
    std::int64_t prompt_tokens = 1024;
    std::int64_t output_tokens = 256;
    std::int64_t tp = 1;
    DType weight_dtype = DType::bf16;
    DType kv_dtype = DType::bf16;
    ServingEngine engine = ServingEngine::vllm;
    // Weights per quantization group of int4 / int8 weight-only formats (GPTQ, AWQ): one 16-bit
    // scale (and, for AWQ, a 4-bit zero point) per group; 0: one scale per output channel.
    std::int64_t quant_group_size = 128;
    // Continuous batching: this many requests in flight (0: a static batch of `batch`), new
    // prompts prefilled in the decode steps in chunks of at most max_batched_tokens tokens a step
    // (chunked prefill), or, with chunked_prefill false, in steps of their own.
    std::int64_t concurrency = 0;
    bool chunked_prefill = true;
    std::int64_t max_batched_tokens = 8192;
    // Pipeline stages of a replica, routed-expert parallelism within the tp group, and
    // data-parallel attention (each GPU of the tp group attends its own share of the batch).
    std::int64_t pp = 1;
    std::int64_t ep = 1;
    bool dp_attention = false;
    DecodeAttention decode_attention = DecodeAttention::grouped;
    OutputHead output_head = OutputHead::engine;
    // Host time per engine execution (a decode step, a prefill pass) that the GPU waits for, in
    // seconds: a runtime that synchronises with the host after every step and prepares the next
    // one before launching it pays it once a step. Unset: the engine preset's
    // (planner/serving/serving_engine.cpp), 0 for every preset, since no published figure
    // gives one; a measured runtime's own value (a profiler's gap between steps) goes here.
    std::optional<double> host_step_s;
    // The engine's memory-share setting, where the run sets it (vLLM's gpu_memory_utilization,
    // TensorRT-LLM's free_gpu_memory_fraction, SGLang's mem_fraction_static), in (0, 1]; unset:
    // the engine's default (kv_pool(), planner/serving/serving_engine.cpp). gpt-fast has none.
    std::optional<double> memory_fraction;
    // The checkpoint the engine serves (a Hugging Face id or a local path) where it is not the
    // model preset's own: a tuned or quantized copy, or a model read from a config.json. Empty:
    // the preset's. Only a launch command names it; the planner does not read it.
    std::string checkpoint;
    bool operator==(const InferenceSpec&) const = default;
};

// ---- a measured run ---------------------------------------------------------------------------

// What a published (or the user's own) run of exactly this spec measured: one figure or more, and
// where it comes from. The planner never reads it; the accuracy table (docs/planner.md) compares
// the prediction with it. 0: not measured.
struct MeasuredRun {
    double tokens_per_s_per_gpu = 0.0;
    double step_s = 0.0;
    double mfu = 0.0;  // model FLOPs utilisation as the source counts it
    // Hardware FLOP/s per GPU (recomputation included), as Narayanan et al. 2021 count them.
    double hardware_flops_per_s_per_gpu = 0.0;
    // Serving (docs/cases/serving/): output tokens per second of the whole deployment, time to
    // first token and inter-token latency, as the source reports them.
    double output_tokens_per_s = 0.0;
    double ttft_s = 0.0;
    double itl_s = 0.0;
    std::string source;
    bool empty() const {
        return tokens_per_s_per_gpu == 0.0 && step_s == 0.0 && mfu == 0.0 &&
               hardware_flops_per_s_per_gpu == 0.0 && output_tokens_per_s == 0.0 && ttft_s == 0.0 &&
               itl_s == 0.0 && source.empty();
    }
    bool operator==(const MeasuredRun&) const = default;
};

// ---- the whole plan -----------------------------------------------------------------------------

struct PlanSpec {
    std::string name;
    // Free text: what the plan is for, the examples' explanation, a user's notes. The planner
    // never reads it; every writer keeps it.
    std::string description;
    ModelSpec model;
    DataSpec data;
    ClusterSpec cluster;
    TrainingSpec training;
    SolverSpec solver;
    InferenceSpec inference;
    std::vector<OpSpec> ops;  // extra operations for the roofline
    MeasuredRun measured;
    bool operator==(const PlanSpec&) const = default;
};

std::string_view to_string(ModelKind kind);
std::string_view to_string(FfnKind kind);
std::string_view to_string(NormKind kind);
std::string_view to_string(BiasKind kind);
std::string_view to_string(Optimizer optimizer);
std::string_view to_string(Recompute recompute);
std::string_view to_string(FlopsFormula formula);
std::string_view to_string(Offload offload);
std::string_view to_string(Engine engine);
std::string_view to_string(Fp8Recipe recipe);
std::string_view to_string(MoeDispatcher dispatcher);
std::string_view to_string(FsdpBackwardPrefetch prefetch);
std::string_view to_string(CrossEntropy kept);
std::string_view to_string(OptimizerImpl impl);
std::string_view to_string(AttentionKernel kernel);
std::string_view to_string(ServingEngine engine);
std::string_view to_string(DecodeAttention attention);
std::string_view to_string(OutputHead head);
std::string_view to_string(OpKind kind);

// Optimizer state values kept per parameter (CS336 lecture 2: AdaGrad 1, Adam 2; Kingma & Ba
// 2015; Loshchilov & Hutter 2019; Chen et al. 2023 (Lion) 1; Dettmers et al. 2022 (8-bit Adam) 2).
// Adafactor's factored second moment is not per parameter; see optimizer_state_bytes().
int optimizer_states_per_param(Optimizer optimizer);

}  // namespace tally
