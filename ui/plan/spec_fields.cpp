#include "ui/plan/spec_fields.h"

#include "planner/core/enum_names.h"
#include "planner/core/limits.h"
#include "planner/io/presets.h"
#include "planner/performance/engine.h"
#include "planner/training/plan.h"

#include <QtGlobal>
#include <algorithm>
#include <cmath>

namespace tally::ui {

namespace {

#define F(text) QT_TRANSLATE_NOOP("tally::ui::SpecForm", text)

using S = PlanSpec;

// Integers in a spec; values beyond 2^53 (or not finite) are clamped rather than overflowed, so
// check() sees a number it can name in its message.
std::int64_t whole(double v) {
    constexpr double kLimit = 9007199254740992.0;  // 2^53
    if (!std::isfinite(v)) {
        return v < 0 ? -static_cast<std::int64_t>(kLimit) : static_cast<std::int64_t>(kLimit);
    }
    return static_cast<std::int64_t>(std::llround(std::clamp(v, -kLimit, kLimit)));
}
double num(std::int64_t v) {
    return static_cast<double>(v);
}

bool transformer(const S& s) {
    return s.model.kind == ModelKind::transformer;
}
bool hasLayers(const S& s) {
    return s.model.kind != ModelKind::params;
}
bool paramsOnly(const S& s) {
    return s.model.kind == ModelKind::params;
}
bool moe(const S& s) {
    return transformer(s) && s.model.moe.enabled();
}
// Attention with per-head queries and keys (not multi-head latent attention).
bool headAttention(const S& s) {
    return transformer(s) && !s.model.mla.enabled();
}

// A new architecture keeps what carries over and fills in what it lacks, so the plan stays one
// the planner accepts: a parameter count from the current model; a transformer's or the lecture
// network's dimensions from a preset when the current model has none.
void switchArchitecture(S& s, int value) {
    const auto kind = static_cast<ModelKind>(value);
    if (kind == s.model.kind) {
        return;
    }
    auto fromPreset = [&s](const char* id) {
        if (const ModelPreset* p = find_model_preset(id)) {
            s.model = p->model;
            if (s.model.name.empty()) {
                s.model.name = p->name;
            }
        }
    };
    switch (kind) {
        case ModelKind::params:
            if (!(s.model.params > 0.0)) {
                s.model.params = count_params(s.model).total;
            }
            break;
        case ModelKind::transformer:
            if (s.model.layers < 1 || s.model.hidden < 1 || s.model.heads < 1 ||
                s.model.vocab < 1) {
                fromPreset("llama-2-7b");
            }
            break;
        case ModelKind::mlp:
            if (s.model.layers < 1 || s.model.hidden < 1) {
                fromPreset("cs336-mlp");
            }
            break;
    }
    s.model.kind = kind;
}

// A combo box's choices from the enum's table (enum_names.h): its labels, in its order, valued
// by the enum. SpecForm translates the labels in the "tally::ui::SpecForm" context.
template <typename E>
std::vector<Choice> choicesOf() {
    std::vector<Choice> out;
    for (const EnumName<E>& row : kEnumNames<E>) {
        out.push_back({row.label.data(), static_cast<int>(row.value)});
    }
    return out;
}

// The master weights: none (-1) or a dtype, as the spec reader accepts them.
std::vector<Choice> masterChoices() {
    std::vector<Choice> out;
    for (const EnumName<std::optional<DType>>& row : kMasterDtypeNames) {
        out.push_back({row.label.data(), row.value ? static_cast<int>(*row.value) : -1});
    }
    return out;
}

std::vector<SectionFields> build() {
    std::vector<SectionFields> sections;

    // ---- model ----
    sections.push_back(
        {Section::model,
         {
             ChoiceField{"model.kind", F("Architecture"),
                         F("Transformer: parameters and activations from the dimensions. Deep ReLU "
                           "network: CS336 lecture 2's stack of D x D matmuls. Parameter count "
                           "only: no architecture, so activations are not counted."),
                         choicesOf<ModelKind>(),
                         [](const S& s) { return static_cast<int>(s.model.kind); },
                         switchArchitecture},
             NumberField{"model.params",
                         F("Parameters"),
                         F("Total parameter count N (70B = 70e9)."),
                         {1e6, 1e13, SliderScale::log, 0.0},
                         false,
                         nullptr,
                         [](const S& s) { return s.model.params; },
                         [](S& s, double v) { s.model.params = v; },
                         paramsOnly},
             NumberField{"model.layers",
                         F("Layers"),
                         F("Transformer blocks (L)."),
                         {1, 200, SliderScale::linear, 1},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.model.layers); },
                         [](S& s, double v) { s.model.layers = whole(v); },
                         hasLayers},
             NumberField{"model.hidden",
                         F("Hidden size"),
                         F("Model width (h, d_model; D for the ReLU network)."),
                         {64, 65536, SliderScale::log, 64},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.model.hidden); },
                         [](S& s, double v) { s.model.hidden = whole(v); },
                         hasLayers},
             NumberField{"model.heads",
                         F("Attention heads"),
                         F("Query heads (a)."),
                         {1, 256, SliderScale::linear, 1},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.model.heads); },
                         [](S& s, double v) { s.model.heads = whole(v); },
                         transformer},
             NumberField{"model.kv_heads",
                         F("KV heads"),
                         F("Key/value heads of grouped-query attention (Ainslie et al. 2023); must "
                           "divide the query heads. 0: as many as the query heads (multi-head)."),
                         {0, 256, SliderScale::linear, 1},
                         true,
                         F("= heads"),
                         [](const S& s) { return num(s.model.kv_heads); },
                         [](S& s, double v) { s.model.kv_heads = whole(v); },
                         transformer},
             NumberField{"model.head_dim",
                         F("Head dimension"),
                         F("Width of one head. 0: hidden size / heads."),
                         {0, 512, SliderScale::linear, 8},
                         true,
                         F("auto"),
                         [](const S& s) { return num(s.model.head_dim); },
                         [](S& s, double v) { s.model.head_dim = whole(v); },
                         transformer},
             NumberField{"model.sliding_window",
                         F("Sliding window"),
                         F("Positions a query of a sliding-window layer attends to, itself "
                           "included (Mistral 7B v0.1: 4096; GPT-OSS: 128). Windowed layers "
                           "score, store and read at most this many keys. 0: every layer attends "
                           "to the whole sequence."),
                         {64, 131072, SliderScale::pow2, 0},
                         true,
                         F("none"),
                         [](const S& s) { return num(s.model.sliding_window); },
                         [](S& s, double v) { s.model.sliding_window = whole(v); },
                         transformer},
             NumberField{"model.sliding_window_layers",
                         F("Windowed layers"),
                         F("How many of the layers attend through the sliding window (GPT-OSS: "
                           "18 of 36, alternating; Gemma 3: 5 of every 6); the rest attend to the "
                           "whole sequence. 0: all of them."),
                         {0, 256, SliderScale::linear, 1},
                         true,
                         F("all"),
                         [](const S& s) { return num(s.model.sliding_window_layers); },
                         [](S& s, double v) { s.model.sliding_window_layers = whole(v); },
                         [](const S& s) {
                             return s.model.kind == ModelKind::transformer &&
                                    s.model.sliding_window > 0;
                         }},
             NumberField{
                 "model.context_length",
                 F("Context length"),
                 F("The longest sequence, prompt and output together, the model's "
                   "configuration serves (a config.json's max_position_embeddings; Llama 2: "
                   "4096, Llama 3.1: 131072). Serving past it is warned about: engines "
                   "refuse such requests. It sizes nothing, and training may use a longer "
                   "sequence. 0: not stated."),
                 {512, 1048576, SliderScale::pow2, 0},
                 true,
                 F("unstated"),
                 [](const S& s) { return num(s.model.context_length); },
                 [](S& s, double v) { s.model.context_length = whole(v); },
                 transformer},
             NumberField{"model.ffn_hidden",
                         F("FFN hidden size"),
                         F("Width of the MLP (4h for GELU models; about 8h/3 for SwiGLU)."),
                         {128, 131072, SliderScale::log, 128},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.model.ffn_hidden); },
                         [](S& s, double v) { s.model.ffn_hidden = whole(v); },
                         transformer},
             ChoiceField{"model.ffn", F("FFN kind"),
                         F("GELU or ReLU: two matrices. SwiGLU (Shazeer 2020): three."),
                         choicesOf<FfnKind>(),
                         [](const S& s) { return static_cast<int>(s.model.ffn); },
                         [](S& s, int v) { s.model.ffn = static_cast<FfnKind>(v); }, transformer},
             NumberField{"model.vocab",
                         F("Vocabulary"),
                         F("Tokens in the vocabulary (V)."),
                         {1000, 300000, SliderScale::log, 1},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.model.vocab); },
                         [](S& s, double v) { s.model.vocab = whole(v); },
                         transformer},
             BoolField{"model.tied_embeddings", F("Tied embeddings"),
                       F("The output head shares the input embedding's matrix."),
                       [](const S& s) { return s.model.tied_embeddings; },
                       [](S& s, bool v) { s.model.tied_embeddings = v; }, transformer},
             ChoiceField{"model.norm", F("Norm"), F("LayerNorm has a bias; RMSNorm does not."),
                         choicesOf<NormKind>(),
                         [](const S& s) { return static_cast<int>(s.model.norm); },
                         [](S& s, int v) { s.model.norm = static_cast<NormKind>(v); }, transformer},
             BoolField{"model.qk_norm", F("QK-norm"),
                       F("Each head's query and key normalised before attention (Qwen3, Gemma 3): "
                         "two norms of the head dimension a layer, their traffic, and the queries "
                         "and keys kept for the norms' backward."),
                       [](const S& s) { return s.model.qk_norm; },
                       [](S& s, bool v) { s.model.qk_norm = v; }, headAttention},
             NumberField{"model.mtp_layers",
                         F("MTP depth"),
                         F("Multi-token-prediction modules trained with the model (DeepSeek-V3: "
                           "1). Each adds a layer of the last layer's kind, a 2h x h projection "
                           "and three norms on the last pipeline stage, with its own logits "
                           "through the shared output head. Serving leaves them out. 0: none."),
                         {0, 4, SliderScale::linear, 1},
                         true,
                         F("none"),
                         [](const S& s) { return num(s.model.mtp_layers); },
                         [](S& s, double v) { s.model.mtp_layers = whole(v); },
                         transformer},
             ChoiceField{"model.bias", F("Biases"), F("Which linear layers carry a bias."),
                         choicesOf<BiasKind>(),
                         [](const S& s) { return static_cast<int>(s.model.bias); },
                         [](S& s, int v) { s.model.bias = static_cast<BiasKind>(v); }, transformer},
         }});

    // ---- mixture of experts ----
    sections.push_back(
        {Section::moe,
         {
             NumberField{"model.moe.experts",
                         F("Experts"),
                         F("Routed experts per MoE layer (Shazeer et al. 2017). 0: a dense model."),
                         {0, 256, SliderScale::linear, 1},
                         true,
                         F("dense"),
                         [](const S& s) { return num(s.model.moe.experts); },
                         [](S& s, double v) {
                             s.model.moe.experts = whole(v);
                             if (s.model.moe.experts > 0 && s.model.moe.active_experts == 0) {
                                 s.model.moe.active_experts = 1;
                             }
                         },
                         transformer},
             NumberField{"model.moe.active_experts",
                         F("Active experts"),
                         F("Routed experts each token runs through (top-k)."),
                         {1, 32, SliderScale::linear, 1},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.model.moe.active_experts); },
                         [](S& s, double v) { s.model.moe.active_experts = whole(v); },
                         moe},
             NumberField{"model.moe.shared_experts",
                         F("Shared experts"),
                         F("Experts every token runs through (DeepSeek)."),
                         {0, 8, SliderScale::linear, 1},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.model.moe.shared_experts); },
                         [](S& s, double v) { s.model.moe.shared_experts = whole(v); },
                         moe},
             NumberField{"model.moe.expert_ffn_hidden",
                         F("Expert FFN size"),
                         F("Width of one expert's MLP. 0: the FFN hidden size."),
                         {128, 65536, SliderScale::log, 128},
                         true,
                         F("= FFN"),
                         [](const S& s) { return num(s.model.moe.expert_ffn_hidden); },
                         [](S& s, double v) { s.model.moe.expert_ffn_hidden = whole(v); },
                         moe},
             NumberField{"model.moe.first_dense_layers",
                         F("Dense first layers"),
                         F("Layers at the bottom that keep a dense MLP."),
                         {0, 16, SliderScale::linear, 1},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.model.moe.first_dense_layers); },
                         [](S& s, double v) { s.model.moe.first_dense_layers = whole(v); },
                         moe},
             // Shown for a model with experts, and wherever it is not 1 (so a value check()
             // refuses after the experts are removed stays in sight).
             NumberField{"training.expert_parallel",
                         F("Expert parallel"),
                         F("Data-parallel GPUs the routed experts are spread over, each holding "
                           "experts / this many (GShard, Lepikhin et al. 2020); must divide the "
                           "experts and the data-parallel size."),
                         {1, 256, SliderScale::pow2, 0},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.training.expert_parallel); },
                         [](S& s, double v) { s.training.expert_parallel = whole(v); },
                         [](const S& s) { return moe(s) || s.training.expert_parallel != 1; }},
             NumberField{
                 "training.expert_tensor_parallel",
                 F("Expert tensor parallel"),
                 F("GPUs each routed expert is split over (Megatron-Core's "
                   "--expert-tensor-parallel-size); expert x expert tensor parallel "
                   "must divide tp x cp x dp. 0: the same as tensor parallel."),
                 {0, 64, SliderScale::linear, 1},
                 true,
                 F("= tp"),
                 [](const S& s) { return num(s.training.expert_tensor_parallel); },
                 [](S& s, double v) { s.training.expert_tensor_parallel = whole(v); },
                 [](const S& s) { return moe(s) || s.training.expert_tensor_parallel != 0; }},
             NumberField{"training.moe_imbalance",
                         F("Routing imbalance"),
                         F("Tokens the busiest expert receives over the balanced share: 1 for "
                           "balanced routing (a forced-balance or well-trained aux-loss router); "
                           "with a capacity factor c and padding to it, c. The slowest expert "
                           "sets every MoE layer's time."),
                         {1, 4, SliderScale::linear, 0.05},
                         false,
                         nullptr,
                         [](const S& s) { return s.training.moe_imbalance; },
                         [](S& s, double v) { s.training.moe_imbalance = v; },
                         [](const S& s) { return moe(s) || s.training.moe_imbalance != 1.0; }},
         }});

    // ---- data ----
    sections.push_back(
        {Section::data,
         {
             NumberField{"data.tokens",
                         F("Training tokens"),
                         F("Tokens seen in training, D (15T = 15e12). For the ReLU network: data "
                           "points."),
                         {1e6, 1e15, SliderScale::log, 0.0},
                         false,
                         nullptr,
                         [](const S& s) { return s.data.tokens; },
                         [](S& s, double v) { s.data.tokens = v; }},
             NumberField{"data.seq_len",
                         F("Sequence length"),
                         F("Tokens per sequence (s)."),
                         {1, 1048576, SliderScale::pow2, 0},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.data.seq_len); },
                         [](S& s, double v) { s.data.seq_len = whole(v); }},
             NumberField{"data.global_batch",
                         F("Global batch"),
                         F("Sequences per optimizer step; a whole number of micro-batches x "
                           "data-parallel GPUs. 0: one micro-batch per GPU."),
                         {1, 65536, SliderScale::pow2, 0},
                         true,
                         F("auto"),
                         [](const S& s) { return num(s.data.global_batch); },
                         [](S& s, double v) { s.data.global_batch = whole(v); }},
             NumberField{"data.micro_batch",
                         F("Micro-batch"),
                         F("Sequences per GPU per forward/backward (b); the rest of the global "
                           "batch is gradient accumulation."),
                         {1, 1024, SliderScale::pow2, 0},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.data.micro_batch); },
                         [](S& s, double v) { s.data.micro_batch = whole(v); }},
         }});

    // ---- cluster ----
    sections.push_back(
        {Section::cluster,
         {
             NumberField{"cluster.gpus",
                         F("GPUs"),
                         F("GPUs in the cluster (tp x pp x dp)."),
                         {1, 131072, SliderScale::pow2, 0},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.cluster.gpus); },
                         [](S& s, double v) { s.cluster.gpus = whole(v); }},
             // 0 stands for "predicted": the performance model gives the time, and the number
             // last assumed stays in the spec for when the user assumes one again.
             NumberField{"cluster.mfu",
                         F("MFU"),
                         F("Model FLOPs utilisation: achieved model FLOP/s / dense peak. A number "
                           "assumes it (0.5 is good, CS336 lecture 2); predicted (0, the "
                           "slider's left end): the performance model predicts the step time."),
                         {0.0, 1.0, SliderScale::linear, 0.01},
                         false,
                         F("predicted"),
                         [](const S& s) { return s.cluster.mfu_predicted ? 0.0 : s.cluster.mfu; },
                         [](S& s, double v) {
                             if (v == 0.0) {
                                 s.cluster.mfu_predicted = true;
                             } else {
                                 s.cluster.mfu_predicted = false;
                                 s.cluster.mfu = v;
                             }
                         }},
             NumberField{"cluster.price_per_gpu_hour",
                         F("Price per GPU-hour"),
                         F("In your currency; 0: the GPU profile's price, where it has one "
                           "(else no cost figure)."),
                         {0, 20, SliderScale::linear, 0.05},
                         false,
                         // Most built-in profiles have no price: "the profile's" alone read as
                         // if there were one beside a headline saying "no price".
                         F("the profile's, if any"),
                         [](const S& s) { return s.cluster.price_per_gpu_hour.value_or(0.0); },
                         [](S& s, double v) {
                             if (v == 0.0) {
                                 s.cluster.price_per_gpu_hour.reset();
                             } else {
                                 s.cluster.price_per_gpu_hour = v;
                             }
                         }},
             // The network the performance model times collectives on; 0 keeps the profile's.
             NumberField{"cluster.gpus_per_node",
                         F("GPUs per node"),
                         F("GPUs one scale-up fabric (NVLink/NVSwitch) joins; tensor parallelism "
                           "stays inside it. 0: the GPU profile's node size."),
                         {0, 72, SliderScale::linear, 1},
                         true,
                         F("profile"),
                         [](const S& s) { return num(s.cluster.gpus_per_node); },
                         [](S& s, double v) { s.cluster.gpus_per_node = whole(v); }},
             NumberField{"cluster.intra_node_bytes_per_s",
                         F("Scale-up bytes/s"),
                         F("NVLink/NVSwitch bandwidth per GPU per direction, bytes/s (H100 SXM: "
                           "450e9). 0: the GPU profile's."),
                         {0, 2e12, SliderScale::linear, 1e9},
                         false,
                         F("profile"),
                         [](const S& s) { return s.cluster.intra_node_bytes_per_s; },
                         [](S& s, double v) { s.cluster.intra_node_bytes_per_s = v; }},
             NumberField{"cluster.inter_node_bytes_per_s",
                         F("Scale-out bytes/s"),
                         F("InfiniBand/RoCE bandwidth per GPU per direction, bytes/s (one 400 "
                           "Gb/s NIC per GPU: 50e9). 0: the GPU profile's."),
                         {0, 400e9, SliderScale::linear, 1e9},
                         false,
                         F("profile"),
                         [](const S& s) { return s.cluster.inter_node_bytes_per_s; },
                         [](S& s, double v) { s.cluster.inter_node_bytes_per_s = v; }},
         }});

    // ---- training recipe ----
    const auto dtypes = choicesOf<DType>();
    sections.push_back(
        {Section::recipe,
         {
             ChoiceField{"training.engine", F("Engine"),
                         F("The software that runs the step, each a documented preset of its "
                           "fused kernels, attention kernel and overlaps (docs/planner.md): "
                           "Megatron-Core with Transformer Engine, PyTorch FSDP eager or under "
                           "torch.compile, DeepSpeed ZeRO."),
                         choicesOf<Engine>(),
                         [](const S& s) { return static_cast<int>(s.training.engine); },
                         [](S& s, int v) { s.training.engine = static_cast<Engine>(v); }},
             ChoiceField{"training.param_dtype", F("Parameters dtype"), F("Stored weights."),
                         dtypes,
                         [](const S& s) { return static_cast<int>(s.training.param_dtype); },
                         [](S& s, int v) { s.training.param_dtype = static_cast<DType>(v); }},
             ChoiceField{"training.grad_dtype", F("Gradients dtype"), F("Stored gradients."),
                         dtypes, [](const S& s) { return static_cast<int>(s.training.grad_dtype); },
                         [](S& s, int v) { s.training.grad_dtype = static_cast<DType>(v); }},
             ChoiceField{"training.master_dtype", F("Master weights"),
                         F("A higher-precision copy of the weights the optimizer updates "
                           "(Micikevicius et al. 2018); none: no copy."),
                         masterChoices(),
                         [](const S& s) {
                             return s.training.master_dtype
                                        ? static_cast<int>(*s.training.master_dtype)
                                        : -1;
                         },
                         [](S& s, int v) {
                             if (v < 0) {
                                 s.training.master_dtype.reset();
                             } else {
                                 s.training.master_dtype = static_cast<DType>(v);
                             }
                         }},
             ChoiceField{"training.optimizer", F("Optimizer"),
                         F("States per parameter: SGD 0; momentum, AdaGrad, RMSProp, Lion 1; Adam, "
                           "AdamW, 8-bit Adam 2; Adafactor factored."),
                         choicesOf<Optimizer>(),
                         [](const S& s) { return static_cast<int>(s.training.optimizer); },
                         [](S& s, int v) {
                             // 8-bit Adam keeps its states in int8 (Dettmers et al. 2022) and
                             // check() refuses any other state dtype: picking it sets int8, in
                             // the same edit, and leaving it puts fp32 states back.
                             const Optimizer next = static_cast<Optimizer>(v);
                             if (next == Optimizer::adam8bit) {
                                 s.training.optimizer_state_dtype = DType::int8;
                             } else if (s.training.optimizer == Optimizer::adam8bit &&
                                        s.training.optimizer_state_dtype == DType::int8) {
                                 s.training.optimizer_state_dtype = DType::fp32;
                             }
                             s.training.optimizer = next;
                         }},
             ChoiceField{
                 "training.optimizer_impl", F("Optimizer kernels"),
                 F("How the Adam update runs over the shard: one fused kernel (Apex / "
                   "Transformer Engine FusedAdam, which Megatron-Core and DeepSpeed run), or a "
                   "pass per operation (torch.optim.AdamW's default foreach implementation), "
                   "which moves about 2.8x the bytes. The engine's by default."),
                 choicesOf<OptimizerImpl>(),
                 [](const S& s) { return static_cast<int>(s.training.optimizer_impl); },
                 [](S& s, int v) { s.training.optimizer_impl = static_cast<OptimizerImpl>(v); },
                 [](const S& s) {
                     return optimizer_impl_applies(s.training.optimizer) ||
                            s.training.optimizer_impl != OptimizerImpl::engine;
                 }},
             ChoiceField{
                 "training.optimizer_state_dtype", F("Optimizer state dtype"),
                 F("Each optimizer state value."), dtypes,
                 [](const S& s) { return static_cast<int>(s.training.optimizer_state_dtype); },
                 [](S& s, int v) { s.training.optimizer_state_dtype = static_cast<DType>(v); }},
             ChoiceField{"training.compute_dtype", F("Compute dtype"),
                         F("The dtype whose dense peak sets the time."), dtypes,
                         [](const S& s) { return static_cast<int>(s.training.compute_dtype); },
                         [](S& s, int v) { s.training.compute_dtype = static_cast<DType>(v); }},
             ChoiceField{"training.fp8_recipe", F("FP8 scaling"),
                         F("How FP8 GEMMs scale their tensors (Transformer Engine): delayed and "
                           "current per-tensor scaling, 1x128 / 128x128 blocks (DeepSeek-V3), or "
                           "MXFP8's 32-value blocks (Blackwell). Read for an fp8 compute dtype."),
                         choicesOf<Fp8Recipe>(),
                         [](const S& s) { return static_cast<int>(s.training.fp8_recipe); },
                         [](S& s, int v) { s.training.fp8_recipe = static_cast<Fp8Recipe>(v); },
                         [](const S& s) {
                             return compute_type(s.training.compute_dtype) == ComputeType::fp8 ||
                                    s.training.fp8_recipe != Fp8Recipe::delayed;
                         }},
             ChoiceField{"training.activation_dtype", F("Activations dtype"),
                         F("Stored activations."), dtypes,
                         [](const S& s) { return static_cast<int>(s.training.activation_dtype); },
                         [](S& s, int v) { s.training.activation_dtype = static_cast<DType>(v); }},
             ChoiceField{"training.recompute", F("Recompute"),
                         F("Activation checkpointing: selective recomputes the attention core "
                           "(Korthikanti et al. 2022); full keeps each layer's input; sqrt keeps "
                           "a checkpoint every sqrt(L) layers (Chen et al. 2016)."),
                         choicesOf<Recompute>(),
                         [](const S& s) { return static_cast<int>(s.training.recompute); },
                         [](S& s, int v) {
                             s.training.recompute = static_cast<Recompute>(v);
                             // Megatron-Core's recompute modules go with selective recomputation
                             // only (check()); another choice leaves them, as Undo brings them
                             // back.
                             if (s.training.recompute != Recompute::selective) {
                                 s.training.recompute_modules = {};
                             }
                         }},
             NumberField{"training.recompute_layers",
                         F("Recomputed layers"),
                         F("With full recomputation: the layers of each pipeline stage (each "
                           "virtual stage) that are recomputed; the others keep all their "
                           "activations (Megatron's --recompute-method block "
                           "--recompute-num-layers). 0: every layer."),
                         {0, 128, SliderScale::linear, 1},
                         true,
                         F("all"),
                         [](const S& s) { return num(s.training.recompute_layers); },
                         [](S& s, double v) { s.training.recompute_layers = whole(v); },
                         [](const S& s) {
                             return s.training.recompute == Recompute::full ||
                                    s.training.recompute_layers != 0;
                         }},
             BoolField{"training.recompute_working_set", F("Count recompute working set"),
                       F("Add the activations a recomputed segment re-materialises in backward."),
                       [](const S& s) { return s.training.recompute_working_set; },
                       [](S& s, bool v) { s.training.recompute_working_set = v; }},
             ChoiceField{"training.zero",
                         F("ZeRO stage"),
                         F("Shards over the data-parallel GPUs (Rajbhandari et al. 2020): 1 "
                           "optimizer state and master weights, 2 also gradients, 3 also "
                           "parameters."),
                         {{F("0 (none)"), 0}, {F("1"), 1}, {F("2"), 2}, {F("3"), 3}},
                         [](const S& s) { return s.training.zero; },
                         [](S& s, int v) { s.training.zero = v; }},
             NumberField{"training.tp",
                         F("Tensor parallel"),
                         F("GPUs each layer is split over."),
                         {1, 64, SliderScale::pow2, 0},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.training.tp); },
                         [](S& s, double v) { s.training.tp = whole(v); }},
             NumberField{"training.pp",
                         F("Pipeline parallel"),
                         F("Pipeline stages."),
                         {1, 128, SliderScale::pow2, 0},
                         true,
                         nullptr,
                         [](const S& s) { return num(s.training.pp); },
                         [](S& s, double v) { s.training.pp = whole(v); }},
             NumberField{
                 "training.context_parallel",
                 F("Context parallel"),
                 F("GPUs each sequence is split over; attention runs as a ring over their "
                   "key/value chunks (Megatron-Core; Llama 3, Dubey et al. 2024, sec. "
                   "3.3.2). dp = GPUs / (tp x pp x cp); 2 x cp must divide the "
                   "sequence."),
                 {1, 32, SliderScale::pow2, 0},
                 true,
                 nullptr,
                 [](const S& s) { return num(s.training.context_parallel); },
                 [](S& s, double v) { s.training.context_parallel = whole(v); },
                 [](const S& s) { return transformer(s) || s.training.context_parallel != 1; }},
             NumberField{"training.first_stage_layers",
                         F("First stage layers"),
                         F("Transformer layers on the first pipeline stage, which also holds the "
                           "embedding (Megatron's --decoder-first-pipeline-num-layers). 0 "
                           "(auto): spread evenly, the embedding and the output layer counted as "
                           "a layer each when pp does not divide the layers; under Megatron-Core, "
                           "which builds equal middle stages, the ends take what those leave. The "
                           "Time and cost panel lists the spread (\"Layers by stage\")."),
                         {0, 128, SliderScale::linear, 1},
                         true,
                         F("auto"),
                         [](const S& s) { return num(s.training.first_stage_layers); },
                         [](S& s, double v) { s.training.first_stage_layers = whole(v); },
                         [](const S& s) {
                             return (hasLayers(s) && s.training.pp > 1) ||
                                    s.training.first_stage_layers != 0;
                         }},
             NumberField{"training.last_stage_layers",
                         F("Last stage layers"),
                         F("Transformer layers on the last pipeline stage, which also holds the "
                           "output layer (Megatron's --decoder-last-pipeline-num-layers). 0 "
                           "(auto): as the first stage's auto spreads them."),
                         {0, 128, SliderScale::linear, 1},
                         true,
                         F("auto"),
                         [](const S& s) { return num(s.training.last_stage_layers); },
                         [](S& s, double v) { s.training.last_stage_layers = whole(v); },
                         [](const S& s) {
                             return (hasLayers(s) && s.training.pp > 1) ||
                                    s.training.last_stage_layers != 0;
                         }},
             NumberField{
                 "training.interleave",
                 F("Interleave"),
                 F("Virtual pipeline stages per GPU: the interleaved 1F1B schedule cuts "
                   "the bubble to (pp - 1) / (v x m) (Narayanan et al. 2021, sec. "
                   "2.2.2). 1: plain 1F1B. pp x this must divide the layers."),
                 {1, 32, SliderScale::linear, 1},
                 true,
                 nullptr,
                 [](const S& s) { return num(s.training.interleave); },
                 [](S& s, double v) { s.training.interleave = whole(v); },
                 [](const S& s) { return s.training.pp > 1 || s.training.interleave != 1; }},
             BoolField{"training.sequence_parallel", F("Sequence parallel"),
                       F("Splits the norms' and dropouts' activations over the tensor-parallel "
                         "GPUs (Korthikanti et al. 2022)."),
                       [](const S& s) { return s.training.sequence_parallel; },
                       [](S& s, bool v) { s.training.sequence_parallel = v; }},
             BoolField{"training.tp_comm_overlap", F("Overlap TP traffic"),
                       F("Tensor-parallel all-gathers and reduce-scatters cut into chunks that "
                         "run while the GEMMs beside them compute (Transformer Engine's "
                         "userbuffers, Megatron's --tp-comm-overlap). Needs sequence "
                         "parallelism."),
                       [](const S& s) { return s.training.tp_comm_overlap; },
                       [](S& s, bool v) { s.training.tp_comm_overlap = v; }},
             BoolField{"training.ep_comm_overlap", F("Overlap EP traffic"),
                       F("Expert-parallel all-to-alls of one micro-batch run while another "
                         "micro-batch computes the same layer (Megatron's "
                         "--overlap-moe-expert-parallel-comm; DeepSeek-V3's DualPipe). Needs two "
                         "or more micro-batches per step."),
                       [](const S& s) { return s.training.ep_comm_overlap; },
                       [](S& s, bool v) { s.training.ep_comm_overlap = v; },
                       [](const S& s) {
                           return s.training.expert_parallel > 1 || s.training.ep_comm_overlap;
                       }},
             ChoiceField{
                 "training.moe_dispatcher", F("Token dispatcher"),
                 F("How routed tokens reach their experts: an all-to-all of every token "
                   "copy, or the flex dispatcher (DeepEP, HybridEP), which sends a token "
                   "across the network once per node holding its experts and forwards "
                   "it there over NVLink (Megatron's --moe-token-dispatcher-type)."),
                 choicesOf<MoeDispatcher>(),
                 [](const S& s) { return static_cast<int>(s.training.moe_dispatcher); },
                 [](S& s, int v) { s.training.moe_dispatcher = static_cast<MoeDispatcher>(v); },
                 [](const S& s) {
                     return s.training.expert_parallel > 1 ||
                            s.training.moe_dispatcher != MoeDispatcher::alltoall;
                 }},
             NumberField{"training.activation_offload_layers",
                         F("Offloaded layers"),
                         F("Transformer layers whose activations go to host memory after their "
                           "forward pass and come back for their backward, over the host link "
                           "(Megatron's cpu_offloading_num_layers). One pipeline stage, no "
                           "recomputation. 0: none."),
                         {0, 128, SliderScale::linear, 1},
                         true,
                         F("none"),
                         [](const S& s) { return num(s.training.activation_offload_layers); },
                         [](S& s, double v) { s.training.activation_offload_layers = whole(v); },
                         [](const S& s) {
                             return (transformer(s) && s.training.pp == 1) ||
                                    s.training.activation_offload_layers != 0;
                         }},
             ChoiceField{
                 "training.fsdp_backward_prefetch", F("FSDP backward prefetch"),
                 F("When a fully sharded (ZeRO-3) step gathers the next layer's parameters "
                   "in the backward pass: before the current layer's gradients, so the "
                   "gather runs beside them (PyTorch's BACKWARD_PRE, its default), or after "
                   "them, so every gather waits (BACKWARD_POST, MosaicML Composer's "
                   "default)."),
                 choicesOf<FsdpBackwardPrefetch>(),
                 [](const S& s) { return static_cast<int>(s.training.fsdp_backward_prefetch); },
                 [](S& s, int v) {
                     s.training.fsdp_backward_prefetch = static_cast<FsdpBackwardPrefetch>(v);
                 },
                 [](const S& s) {
                     return s.training.zero >= 3 ||
                            s.training.fsdp_backward_prefetch != FsdpBackwardPrefetch::pre;
                 }},
             BoolField{"training.dp_overlap", F("Overlap DP traffic"),
                       F("Data-parallel gradient (and ZeRO-3 parameter) collectives run in "
                         "buckets behind the backward (forward) pass (PyTorch DDP, Li et al. "
                         "2020); off: after it, all exposed."),
                       [](const S& s) { return s.training.dp_overlap; },
                       [](S& s, bool v) { s.training.dp_overlap = v; }},
             ChoiceField{"training.offload", F("Offload"),
                         F("Optimizer state (ZeRO-Offload, Ren et al. 2021), or also parameters "
                           "and gradients (ZeRO-Infinity, ZeRO-3 only), kept in host memory and "
                           "moved over PCIe."),
                         choicesOf<Offload>(),
                         [](const S& s) { return static_cast<int>(s.training.offload); },
                         [](S& s, int v) { s.training.offload = static_cast<Offload>(v); }},
             BoolField{"training.flash_attention", F("Flash attention"),
                       F("The attention scores are never stored (Dao et al. 2022)."),
                       [](const S& s) { return s.training.flash_attention; },
                       [](S& s, bool v) { s.training.flash_attention = v; }},
             ChoiceField{
                 "training.attention_kernel", F("Attention kernel"),
                 F("The fused attention kernel: the engine's (cuDNN for Megatron-Core, "
                   "FlashAttention-2 for FSDP and DeepSpeed), or FlashAttention-2/-3, "
                   "cuDNN, Triton or the first FlashAttention, each at its published "
                   "throughput."),
                 choicesOf<AttentionKernel>(),
                 [](const S& s) { return static_cast<int>(s.training.attention_kernel); },
                 [](S& s, int v) { s.training.attention_kernel = static_cast<AttentionKernel>(v); },
                 [](const S& s) {
                     return s.training.flash_attention ||
                            s.training.attention_kernel != AttentionKernel::engine;
                 }},
             BoolField{"training.dropout", F("Dropout"), F("Dropout masks are stored."),
                       [](const S& s) { return s.training.dropout; },
                       [](S& s, bool v) { s.training.dropout = v; }},
             ChoiceField{
                 "training.cross_entropy", F("Cross-entropy keeps"),
                 F("What the loss keeps of each logit for the backward pass: an fp32 softmax, "
                   "4 bytes (PyTorch, Megatron-Core's own cross-entropy; Korthikanti et al. "
                   "2022, sec. 4.4), or the gradient written over the 16-bit logits, 2 bytes "
                   "(Transformer Engine's parallel_cross_entropy up to 2.17, Megatron-Core's "
                   "cross_entropy_fusion_impl te)."),
                 choicesOf<CrossEntropy>(),
                 [](const S& s) { return static_cast<int>(s.training.cross_entropy); },
                 [](S& s, int v) { s.training.cross_entropy = static_cast<CrossEntropy>(v); }},
             ChoiceField{
                 "training.flops_formula", F("FLOPs formula"),
                 F("6·N·D (CS336 lecture 2; Kaplan et al. 2020) or with the attention "
                   "term (PaLM, Chowdhery et al. 2022, appendix B)."),
                 choicesOf<FlopsFormula>(),
                 [](const S& s) { return static_cast<int>(s.training.flops_formula); },
                 [](S& s, int v) { s.training.flops_formula = static_cast<FlopsFormula>(v); }},
         }});
    return sections;
}

// The dtypes a serving plan stores weights in (weight-only quantization) and its KV cache in.
std::vector<Choice> dtypeChoices(std::initializer_list<DType> types) {
    std::vector<Choice> out;
    for (DType t : types) {
        out.push_back({find_enum_name(t)->label.data(), static_cast<int>(t)});
    }
    return out;
}

std::vector<FieldDescriptor> buildInference() {
    return {
        NumberField{"inference.batch",
                    F("Batch"),
                    F("Sequences decoded together on each replica."),
                    {1, 4096, SliderScale::pow2, 0},
                    true,
                    nullptr,
                    [](const S& s) { return num(s.inference.batch); },
                    [](S& s, double v) { s.inference.batch = whole(v); }},
        NumberField{"inference.prompt_tokens",
                    F("Prompt tokens"),
                    F("Tokens of each prompt (the prefill)."),
                    {1, 131072, SliderScale::pow2, 0},
                    true,
                    nullptr,
                    [](const S& s) { return num(s.inference.prompt_tokens); },
                    [](S& s, double v) { s.inference.prompt_tokens = whole(v); }},
        NumberField{"inference.output_tokens",
                    F("Output tokens"),
                    F("Tokens generated per sequence, one decode step each."),
                    {1, 32768, SliderScale::pow2, 0},
                    true,
                    nullptr,
                    [](const S& s) { return num(s.inference.output_tokens); },
                    [](S& s, double v) { s.inference.output_tokens = whole(v); }},
        NumberField{"inference.tp",
                    F("Tensor parallel"),
                    F("GPUs of one replica; cluster.gpus / tp replicas serve side by side."),
                    {1, 64, SliderScale::pow2, 0},
                    true,
                    nullptr,
                    [](const S& s) { return num(s.inference.tp); },
                    [](S& s, double v) { s.inference.tp = whole(v); }},
        ChoiceField{"inference.weight_dtype", F("Weight dtype"),
                    F("How the weights are stored: weight-only quantization reads fewer bytes "
                      "per weight in every decode step."),
                    dtypeChoices({DType::bf16, DType::fp16, DType::fp8_e4m3, DType::int8,
                                  DType::int4, DType::nvfp4, DType::mxfp4}),
                    [](const S& s) { return static_cast<int>(s.inference.weight_dtype); },
                    [](S& s, int v) { s.inference.weight_dtype = static_cast<DType>(v); }},
        ChoiceField{
            "inference.kv_dtype", F("KV cache dtype"),
            F("How the keys and values (or MLA's latent) are cached."),
            dtypeChoices({DType::bf16, DType::fp16, DType::fp8_e4m3, DType::fp8_e5m2, DType::fp32}),
            [](const S& s) { return static_cast<int>(s.inference.kv_dtype); },
            [](S& s, int v) { s.inference.kv_dtype = static_cast<DType>(v); }},
        ChoiceField{"inference.engine", F("Serving engine"),
                    F("The engine that serves, each a documented preset of CUDA graphs, fused "
                      "kernels, attention kernel and all-reduce (docs/serving.md)."),
                    choicesOf<ServingEngine>(),
                    [](const S& s) { return static_cast<int>(s.inference.engine); },
                    [](S& s, int v) { s.inference.engine = static_cast<ServingEngine>(v); }},
        NumberField{"inference.concurrency",
                    F("Concurrency"),
                    F("Continuous batching: requests in flight per replica (0: a static batch)."),
                    {0, 512, SliderScale::linear, 1},
                    true,
                    nullptr,
                    [](const S& s) { return num(s.inference.concurrency); },
                    [](S& s, double v) { s.inference.concurrency = whole(v); }},
        NumberField{"inference.pp",
                    F("Pipeline stages"),
                    F("Pipeline-parallel stages of one replica; cluster.gpus / (tp x pp) "
                      "replicas."),
                    {1, 64, SliderScale::pow2, 0},
                    true,
                    nullptr,
                    [](const S& s) { return num(s.inference.pp); },
                    [](S& s, double v) { s.inference.pp = whole(v); }},
        NumberField{"inference.ep",
                    F("Expert parallel"),
                    F("GPUs of the tensor-parallel group the routed experts are spread over "
                      "(vLLM's --enable-expert-parallel, SGLang's --ep-size); divides tp and the "
                      "experts."),
                    {1, 64, SliderScale::pow2, 0},
                    true,
                    nullptr,
                    [](const S& s) { return num(s.inference.ep); },
                    [](S& s, double v) { s.inference.ep = whole(v); },
                    moe},
        ChoiceField{"inference.dp_attention",
                    F("Data-parallel attention"),
                    F("Each GPU of the tensor-parallel group attends its own share of the batch "
                      "with all the attention weights (SGLang's --enable-dp-attention), so an MLA "
                      "cache is not copied to every GPU."),
                    {{F("off"), 0}, {F("on"), 1}},
                    [](const S& s) { return s.inference.dp_attention ? 1 : 0; },
                    [](S& s, int v) { s.inference.dp_attention = v != 0; },
                    moe},
        ChoiceField{"inference.chunked_prefill",
                    F("Chunked prefill"),
                    F("Continuous batching: new prompts are prefilled in chunks inside the "
                      "decode steps (vLLM's enable_chunked_prefill); off, each prompt runs whole "
                      "in a step of its own and may not be longer than a step's tokens."),
                    {{F("on"), 1}, {F("off"), 0}},
                    [](const S& s) { return s.inference.chunked_prefill ? 1 : 0; },
                    [](S& s, int v) { s.inference.chunked_prefill = v != 0; }},
        NumberField{"inference.max_batched_tokens",
                    F("Tokens a step"),
                    F("The most tokens one engine step runs, decodes and prompt chunks together "
                      "(vLLM's max_num_batched_tokens, TensorRT-LLM's max_num_tokens)."),
                    {1, 65536, SliderScale::pow2, 0},
                    true,
                    nullptr,
                    [](const S& s) { return num(s.inference.max_batched_tokens); },
                    [](S& s, double v) { s.inference.max_batched_tokens = whole(v); }},
        NumberField{"inference.quant_group_size",
                    F("Quantization group"),
                    F("Weights that share one scale in int4 / int8 weight-only formats (GPTQ, "
                      "AWQ: 128); 0: one scale per output channel."),
                    {0, 1024, SliderScale::linear, 32},
                    true,
                    F("per channel"),
                    [](const S& s) { return num(s.inference.quant_group_size); },
                    [](S& s, double v) { s.inference.quant_group_size = whole(v); },
                    [](const S& s) {
                        return s.inference.weight_dtype == DType::int4 ||
                               s.inference.weight_dtype == DType::int8;
                    }},
        // 0 leaves the share to the engine's default, so a plan that never set it writes nothing.
        NumberField{"inference.memory_fraction",
                    F("Memory share"),
                    F("The engine's memory-share setting the KV cache is sized in: vLLM's "
                      "gpu_memory_utilization (of the whole memory, default 0.9), TensorRT-LLM's "
                      "free_gpu_memory_fraction (of what the weights leave, 0.9), SGLang's "
                      "mem_fraction_static (0.88 to 0.79 by tp); 0: the engine's default."),
                    {0, 1, SliderScale::linear, 0.01},
                    false,
                    F("engine's"),
                    [](const S& s) { return s.inference.memory_fraction.value_or(0.0); },
                    [](S& s, double v) {
                        if (v == 0.0) {
                            s.inference.memory_fraction.reset();
                        } else {
                            s.inference.memory_fraction = v;
                        }
                    },
                    [](const S& s) { return s.inference.engine != ServingEngine::gpt_fast; },
                    0.0,
                    1.0},
        // Shown in milliseconds, stored in seconds; 0 leaves it to the engine preset (0 in every
        // preset), so a plan that never set it writes nothing.
        NumberField{"inference.host_step_s",
                    F("Host time a step (ms)"),
                    F("Host time, in milliseconds, that every decode step and prefill pass waits "
                      "for: a runtime that synchronises with the host after each step and "
                      "prepares the next before launching it. No published figure gives one for "
                      "any engine, so each preset's is 0; enter your runtime's own (a profiler's "
                      "GPU-idle gap between steps)."),
                    {0, 20, SliderScale::linear, 0.1},
                    false,
                    F("engine's"),
                    [](const S& s) { return s.inference.host_step_s.value_or(0.0) * 1e3; },
                    [](S& s, double v) {
                        if (v == 0.0) {
                            s.inference.host_step_s.reset();
                        } else {
                            s.inference.host_step_s = v / 1e3;
                        }
                    },
                    nullptr,
                    0.0,
                    kMaxHostStepS * 1e3},
    };
}

#undef F

}  // namespace

const std::vector<SectionFields>& specFields() {
    static const std::vector<SectionFields> fields = build();
    return fields;
}

const std::vector<FieldDescriptor>& inferenceFields() {
    static const std::vector<FieldDescriptor> fields = buildInference();
    return fields;
}

const char* pathOf(const FieldDescriptor& field) {
    return std::visit([](const auto& f) { return f.path; }, field);
}

}  // namespace tally::ui
