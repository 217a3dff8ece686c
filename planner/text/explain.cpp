#include "planner/text/explain.h"

#include <algorithm>

#include <fmt/core.h>

#include "planner/core/enum_names.h"
#include "planner/core/quantity_text.h"
#include "planner/hardware/efficiency.h"
#include "planner/performance/calibration.h"
#include "planner/performance/engine.h"
#include "planner/performance/plan_gemms.h"

namespace tally {

namespace {

// Where each optimizer's state count comes from (the same sources as spec.h's
// optimizer_states_per_param and evaluate.cpp's optimizer_bytes_per_param).
std::string_view optimizer_source(Optimizer optimizer) {
    switch (optimizer) {
        case Optimizer::sgd:
            return "SGD keeps no state";
        case Optimizer::momentum:
            return "momentum: one velocity per parameter";
        case Optimizer::adagrad:
            return "AdaGrad: one sum of squared gradients (Duchi et al. 2011)";
        case Optimizer::rmsprop:
            return "RMSProp: one running mean of squared gradients";
        case Optimizer::adam:
            return "Adam: two moments (Kingma & Ba 2015)";
        case Optimizer::adamw:
            return "AdamW: two moments (Loshchilov & Hutter 2019)";
        case Optimizer::adafactor:
            return "Adafactor: factored second moment, r + c per r x c matrix (Shazeer & Stern "
                   "2018, sec. 3)";
        case Optimizer::lion:
            return "Lion: one momentum (Chen et al. 2023, Alg. 1)";
        case Optimizer::adam8bit:
            return "8-bit Adam: two int8 moments + fp32 absmax per 2048 values (Dettmers et al. "
                   "2022, sec. 2)";
    }
    return "?";
}

// "on" or "off", marked for translation under the explanations' context.
const char* on_off(bool on) {
    return on ? QT_TRANSLATE_NOOP("tally::explain", "on")
              : QT_TRANSLATE_NOOP("tally::explain", "off");
}

// What a calibrated profile adds to the source of a time: the note of its calibration.
std::string calibration_suffix(const HardwareProfile& hw) {
    return hw.calibration ? "; " + calibration_note(*hw.calibration) : std::string();
}

// The source of a predicted time: the performance model, and the calibration it carries.
std::vector<Text> performance_model_source(const HardwareProfile& hw) {
    std::vector<Text> source = {
        TALLY_TEXT("tally::source", "the performance model (docs/planner.md)")};
    if (hw.calibration) {
        source.push_back(calibration_note_text(*hw.calibration));
    }
    return source;
}

// What a part's published GEMM table by shape adds to the source of a GEMM time (gemm_shapes.h):
// which table, for GEMMs of 256 or more on every side.
std::string shape_table_suffix(const HardwareProfile& hw, ComputeType type) {
    const GemmShapeRates rates = gemm_shape_rates(hw, type);
    if (rates.table == nullptr) {
        return {};
    }
    return fmt::format(
        "; GEMMs of 256 or more on every side at OpenXLA's measured cuBLAS rate of that shape "
        "({}{}; xla/service/gpu/model/matmul_interpolator_data.h, planner/hardware/gemm_shapes.h)",
        rates.measured_on,
        rates.derived        ? fmt::format(", x {:.4g}", rates.scale)
        : rates.scale == 1.0 ? std::string()
        : rates.by_best_gemm
            ? fmt::format(", x {:.3g}: this part's best published GEMM over the measured part's",
                          rates.scale)
            : fmt::format(", x {:.3g} for this part's peak", rates.scale));
}

// Which fused attention kernel a flash-attention step runs and the head dimension its published
// figures are read at (engine.h).
std::string attention_kernel_suffix(const PlanSpec& spec, const HardwareProfile& hw) {
    if (!spec.training.flash_attention || spec.model.kind != ModelKind::transformer) {
        return {};
    }
    const EnumName<AttentionKernel>* kernel =
        find_enum_name(resolved_attention_kernel(spec.training, hw));
    const ModelSpec& m = spec.model;
    return fmt::format(
        "; attention: {} at head dimension {} (Shah et al. 2024, FlashAttention-3, Figs. 5-6){}",
        kernel ? kernel->label : std::string_view("?"), shortest_text(attention_head_dim(m)),
        m.windowed_layers() > 0 && m.sliding_window < spec.data.seq_len
            ? fmt::format(", in the {} sliding-window layers over the band of {} keys a query, "
                          "at its rate over min(s, 2 W) keys",
                          m.windowed_layers(), m.sliding_window)
            : std::string());
}

// The label of the optimizer implementation a step runs (engine.h), untranslated. The choice is
// Adam's (FusedAdam or torch's foreach kernels); another optimizer's update is timed as one pass
// over its state, and says so without naming Adam's kernel.
// The Activations line's figures; a transformer's names what its loss keeps of the logits
// (training.cross_entropy), part of the output layer's share.
Text activations_value_text(const PlanSpec& spec, const MemoryBreakdown& m) {
    const bool transformer = spec.model.kind == ModelKind::transformer;
    Text text = transformer ? TALLY_TEXT("tally::explain",
                                         "%1 per layer x %2 layers x %3 in flight + %4 "
                                         "output/embedding (the loss: %5) + %6 recompute "
                                         "working set = %7")
                            : TALLY_TEXT("tally::explain",
                                         "%1 per layer x %2 layers x %3 in flight + %4 "
                                         "output/embedding + %5 recompute working set = %6");
    text.arg(four_digits(m.activations.per_layer_bytes))
        .arg(fmt::format("{:g}", m.activations.layers_on_gpu))
        .arg(fmt::format("{:g}", m.activations.microbatches_in_flight))
        .arg(four_digits(m.activations.embedding_output_bytes));
    if (transformer) {
        text.arg_translated("tally::enums",
                            find_enum_name(spec.training.cross_entropy)->label.data());
    }
    text.arg(four_digits(m.activations.working_bytes)).arg(four_digits(m.activations_bytes));
    return text;
}

const char* optimizer_impl_label(const TrainingSpec& training) {
    if (!optimizer_impl_applies(training.optimizer)) {
        return QT_TRANSLATE_NOOP("tally::enums", "one pass over the optimizer state");
    }
    const EnumName<OptimizerImpl>* impl = find_enum_name(resolved_optimizer_impl(training));
    return impl ? impl->label.data() : "?";
}

// The predicted step and each of its terms (performance.h), with the inputs that set them.
void explain_performance(const Plan& p, const PlanSpec& spec, const HardwareProfile& hw,
                         std::vector<Explanation>& out) {
    const PerformanceBreakdown& f = p.performance;
    const double m = static_cast<double>(f.microbatches);
    out.push_back(make_explanation(
        "performance.step_s", QT_TRANSLATE_NOOP("tally::explain", "Predicted step"), f.step_s, "s",
        QT_TRANSLATE_NOOP(
            "tally::formula",
            "compute + recompute + memory-bound + TP + PP comm + PP bubble + DP exposed + "
            "EP + CP + launch gaps + NCCL SMs + offload + optimizer"),
        TALLY_TEXT("tally::explain", "%1 micro-batches of %2 s on the slowest stage, bubble %3")
            .arg(f.microbatches)
            .arg(four_digits(f.microbatch_s))
            .arg(fmt::format("{:.3g}", f.bubble_fraction)),
        QT_TRANSLATE_NOOP("tally::source", "docs/planner.md, the performance model")));
    if (hw.calibration) {
        // Every term below is the model's divided by the profile's fitted efficiency.
        const StepCalibration& c = *hw.calibration;
        out.push_back(make_explanation(
            "performance.calibration_efficiency",
            QT_TRANSLATE_NOOP("tally::explain", "Calibrated efficiency"), f.calibration_efficiency,
            "of the model's speed",
            QT_TRANSLATE_NOOP(
                "tally::formula",
                "predicted step / measured step of the calibrating spec; every time of the "
                "step divided by it"),
            TALLY_TEXT("tally::explain", "%1 s / %2 s = %3; this plan %4 s / %3 = %5 s")
                .arg(four_digits(c.predicted_step_s))
                .arg(four_digits(c.measured_step_s))
                .arg(fmt::format("{:.4f}", c.efficiency))
                .arg(four_digits(f.uncalibrated_step_s))
                .arg(four_digits(f.step_s)),
            fmt::format("{} (spec \"{}\", profile {})", calibration_note(c), c.spec_name,
                        c.base_profile)));
    }
    if (hw.measured_gemms.empty()) {
        out.push_back(make_explanation(
            "performance.compute_s",
            QT_TRANSLATE_NOOP("tally::explain", "GEMMs (forward + backward)"), f.compute_s, "s",
            QT_TRANSLATE_NOOP(
                "tally::formula",
                "sum over the stage's GEMMs of 2mnk / (the measured rate of that shape where "
                "the part has a published table by shape, else peak x GEMM fraction x "
                "quantization), backward = data + weight gradients; with flash attention the "
                "engine's attention kernel at its published throughput"),
            gemm_shape_rates(hw, compute_type(spec.training.compute_dtype)).table == nullptr
                ? TALLY_TEXT("tally::explain", "%1 micro-batches at %2 FLOP/s achieved")
                      .arg(f.microbatches)
                      .arg(four_digits(f.gemm_flops_per_s))
                : TALLY_TEXT("tally::explain",
                             "%1 micro-batches; GEMMs of 256 or more on every side at the "
                             "measured rate of their shape, the others at %2 FLOP/s achieved")
                      .arg(f.microbatches)
                      .arg(four_digits(f.gemm_flops_per_s)),
            "roofline (Williams et al. 2009); efficiency.h; NVIDIA tile/wave quantization" +
                shape_table_suffix(hw, compute_type(spec.training.compute_dtype)) +
                attention_kernel_suffix(spec, hw) + calibration_suffix(hw)));
    } else {
        // A measured profile: say which GEMMs were timed from the probe's measurements.
        const GemmSources sources = gemm_sources(spec, hw);
        std::string uses;
        for (const std::string& use : sources.measured_uses) {
            uses += (uses.empty() ? "" : ", ") + use;
        }
        out.push_back(make_explanation(
            "performance.compute_s",
            QT_TRANSLATE_NOOP("tally::explain", "GEMMs (forward + backward)"), f.compute_s, "s",
            QT_TRANSLATE_NOOP(
                "tally::formula",
                "sum over the stage's GEMMs of the measured time of that GEMM where the profile "
                "has "
                "one, else 2mnk / (peak x GEMM fraction x quantization); backward = data + weight "
                "gradients"),
            [&] {
                Text text =
                    TALLY_TEXT("tally::explain",
                               "%1 micro-batches; %2 of %3 distinct GEMMs measured (%4), the "
                               "others at %5 FLOP/s achieved");
                text.arg(f.microbatches)
                    .arg(sources.measured)
                    .arg(sources.measured + sources.modelled);
                if (uses.empty()) {
                    text.arg_translated("tally::explain",
                                        QT_TRANSLATE_NOOP("tally::explain", "none"));
                } else {
                    text.arg(uses);
                }
                return text.arg(four_digits(f.gemm_flops_per_s));
            }(),
            "tally-probe gemm_shapes (tally probe --plan); roofline (Williams et al. 2009); "
            "efficiency.h" +
                calibration_suffix(hw)));
    }
    out.push_back(make_explanation(
        "performance.recompute_s", QT_TRANSLATE_NOOP("tally::explain", "Recomputation"),
        f.recompute_s, "s",
        QT_TRANSLATE_NOOP("tally::formula", "the forward work recomputation repeats"),
        fmt::format("recompute = {}", to_string(spec.training.recompute)),
        "Korthikanti et al. 2022, sec. 5"));
    out.push_back(make_explanation(
        "performance.memory_bound_s", QT_TRANSLATE_NOOP("tally::explain", "Memory-bound ops"),
        f.memory_bound_s, "s",
        QT_TRANSLATE_NOOP("tally::formula",
                          "bytes moved / (bandwidth x memory fraction); backward 1.5x forward"),
        TALLY_TEXT("tally::explain", "at %1 bytes/s achieved")
            .arg(four_digits(f.memory_bytes_per_s)),
        "roofline; efficiency.h"));
    out.push_back(make_explanation(
        "performance.tp_comm_s", QT_TRANSLATE_NOOP("tally::explain", "Tensor-parallel collectives"),
        f.tp_comm_s, "s",
        QT_TRANSLATE_NOOP(
            "tally::formula",
            "4 all-reduces (or RS + AG) of T x h per layer, ring 2(n-1)/n + NCCL latency"),
        TALLY_TEXT("tally::explain",
                   "tp %1 on %2 bytes/s per GPU, overlap with GEMMs %3 (exposed max(C / tp, C - "
                   "GEMMs x (tp - 1) / tp))")
            .arg(spec.training.tp)
            .arg(four_digits(f.network.network.intra_bytes_per_s))
            .arg_translated("tally::explain", on_off(spec.training.tp_comm_overlap)),
        "Shoeybi et al. 2019, Fig. 4; Korthikanti et al. 2022, sec. 4.2.2; NCCL; Wang et al. "
        "2023 (ASPLOS)"));
    out.push_back(make_explanation(
        "performance.pp_bubble_s", QT_TRANSLATE_NOOP("tally::explain", "Pipeline bubble"),
        f.pp_bubble_s, "s",
        QT_TRANSLATE_NOOP("tally::formula", "(pp - 1) / (v x m) x m x micro-batch time"),
        fmt::format("({} - 1) / ({} x {}) x {} x {} s", spec.training.pp, spec.training.interleave,
                    f.microbatches, m, four_digits(f.microbatch_s)),
        "Narayanan et al. 2021, sec. 2.2"));
    out.push_back(make_explanation(
        "performance.pp_comm_s", QT_TRANSLATE_NOOP("tally::explain", "Pipeline sends"), f.pp_comm_s,
        "s", QT_TRANSLATE_NOOP("tally::formula", "2 x v sends of T x h / tp per micro-batch"),
        TALLY_TEXT("tally::explain",
                   "v %1, %2 micro-batches of T = %3 x %4 tokens, h %5, tp %6, %7")
            .arg(spec.training.interleave)
            .arg(f.microbatches)
            .arg(spec.data.micro_batch)
            .arg(spec.data.seq_len)
            .arg(spec.model.hidden)
            .arg(spec.training.tp)
            .arg(to_string(spec.training.activation_dtype)),
        "Narayanan et al. 2021, sec. 4.1"));
    out.push_back(make_explanation(
        "performance.dp_comm_exposed_s",
        QT_TRANSLATE_NOOP("tally::explain", "Data-parallel, exposed"), f.dp_comm_exposed_s, "s",
        QT_TRANSLATE_NOOP(
            "tally::formula",
            "what the backward (forward) pass does not hide, at least the last bucket"),
        TALLY_TEXT("tally::explain", "of %1 s in all; ZeRO-%2, overlap %3")
            .arg(four_digits(f.dp_comm_s))
            .arg(spec.training.zero)
            .arg_translated("tally::explain", on_off(spec.training.dp_overlap)),
        "Rajbhandari et al. 2020, sec. 7; Li et al. 2020 (PyTorch DDP)"));
    out.push_back(make_explanation(
        "performance.ep_comm_s", QT_TRANSLATE_NOOP("tally::explain", "Expert all-to-all"),
        f.ep_comm_s, "s",
        spec.training.ep_comm_overlap
            ? QT_TRANSLATE_NOOP("tally::formula",
                                "4 exchanges per MoE layer, each beside one sub-module of another "
                                "micro-batch's pass (attention, experts): what that sub-module "
                                "does not hide, plus the passes without a partner")
        : spec.training.moe_dispatcher == MoeDispatcher::flex
            ? QT_TRANSLATE_NOOP("tally::formula",
                                "4 exchanges per MoE layer: T x h to each other node holding a "
                                "token's experts, then over NVLink to the k experts' GPUs")
            : QT_TRANSLATE_NOOP("tally::formula", "4 all-to-alls of T x k x h per MoE layer"),
        TALLY_TEXT("tally::explain",
                   "expert parallel %1, k = %2 of %3 experts, %4 micro-batches, overlap with "
                   "another micro-batch %5, dispatcher %6")
            .arg(spec.training.expert_parallel)
            .arg(spec.model.moe.active_experts)
            .arg(spec.model.moe.experts)
            .arg(f.microbatches)
            .arg_translated("tally::explain", on_off(spec.training.ep_comm_overlap))
            .arg(std::string(to_string(spec.training.moe_dispatcher))),
        spec.training.ep_comm_overlap
            ? "DeepSeek-AI 2024 (DeepSeek-V3), sec. 3.2.1, Fig. 4; Megatron-Core "
              "model_chunk_schedule_plan.py"
        : spec.training.moe_dispatcher == MoeDispatcher::flex
            ? "DeepSeek-AI 2024 (DeepSeek-V3), sec. 2.1.2 and 3.2.2; DeepEP"
            : "Lepikhin et al. 2020"));
    const bool cp_all_gather = spec.model.kind == ModelKind::transformer &&
                               spec.model.windowed_layers() > 0 &&
                               spec.training.context_parallel > 1;
    out.push_back(make_explanation(
        "performance.cp_comm_s", QT_TRANSLATE_NOOP("tally::explain", "Context-parallel exchange"),
        f.cp_comm_s, "s",
        cp_all_gather
            ? QT_TRANSLATE_NOOP("tally::formula",
                                "sliding-window attention: keys and values all-gathered over "
                                "the cp ranks forward, again backward, and their gradients "
                                "reduce-scattered, none of it overlapped")
            : QT_TRANSLATE_NOOP("tally::formula",
                                "ring attention: cp - 1 key/value sends forward, twice backward, "
                                "beyond the attention they overlap"),
        TALLY_TEXT("tally::explain", "context parallel %1, %2 micro-batches")
            .arg(spec.training.context_parallel)
            .arg(f.microbatches),
        cp_all_gather ? "Transformer Engine, attn_forward_func_with_cp (cp_comm_type all_gather: "
                        "AttnFuncWithCPAndKVAllGather)"
                      : "Liu et al. 2023 (Ring Attention); Megatron-Core context parallelism"));
    out.push_back(make_explanation(
        "performance.overhead_s", QT_TRANSLATE_NOOP("tally::explain", "Kernel launch gaps"),
        f.overhead_s, "s",
        QT_TRANSLATE_NOOP("tally::formula", "kernels per layer x layers x micro-batches x 0.9 us"),
        TALLY_TEXT("tally::explain", "engine %1").arg(to_string(spec.training.engine)),
        "NVIDIA, Getting Started with CUDA Graphs (2019)"));
    out.push_back(make_explanation(
        "performance.comm_contention_s", QT_TRANSLATE_NOOP("tally::explain", "SMs taken by NCCL"),
        f.comm_contention_s, "s",
        QT_TRANSLATE_NOOP("tally::formula",
                          "hidden data-, tensor- and expert-parallel traffic x 16 SMs / SMs of "
                          "the part"),
        // The hidden traffic of every kind, back from its charge (performance.cpp).
        TALLY_TEXT("tally::explain", "%1 s of traffic hidden behind compute")
            .arg(four_digits(hw.sm_count > 0
                                 ? f.comm_contention_s * static_cast<double>(hw.sm_count) /
                                       std::min(kNcclSms, static_cast<double>(hw.sm_count))
                                 : f.dp_comm_s - f.dp_comm_exposed_s)),
        "github.com/NVIDIA/nccl/issues/689 (NCCL's SMs are its own)"));
    out.push_back(make_explanation(
        "performance.offload_s", QT_TRANSLATE_NOOP("tally::explain", "Offload traffic"),
        f.offload_s, "s",
        QT_TRANSLATE_NOOP(
            "tally::formula",
            "gradients down, parameters up over the host link; offloaded activations down in the "
            "forward, up in the backward, beyond what each pass hides"),
        TALLY_TEXT("tally::explain",
                   "offload = %1, activations of %2 layers (%3 bytes per micro-batch), host link "
                   "%4 bytes/s, overlap %5")
            .arg(to_string(spec.training.offload))
            .arg(spec.training.activation_offload_layers)
            .arg(four_digits(p.memory.activations.offloaded_bytes))
            .arg(four_digits(host_link_bytes_per_s(hw)))
            .arg_translated("tally::explain", on_off(spec.training.dp_overlap)),
        "Ren et al. 2021; Rajbhandari et al. 2021; Megatron-Core cpu_offload.py"));
    out.push_back(make_explanation(
        "performance.optimizer_s", QT_TRANSLATE_NOOP("tally::explain", "Optimizer update"),
        f.optimizer_s, "s",
        QT_TRANSLATE_NOOP("tally::formula",
                          "shard x bytes read and written per parameter / achieved bandwidth"),
        TALLY_TEXT("tally::explain",
                   "shard = %1 of this GPU's %2 parameters at %3 bytes/s achieved, %4 bytes "
                   "per parameter (%5; gradient clipping included)")
            .arg(four_digits(p.memory.optimizer_shard_params()))
            .arg(four_digits(p.memory.params_on_gpu))
            .arg(four_digits(f.memory_bytes_per_s))
            .arg(shortest_text(f.optimizer_bytes_per_param))
            .arg_translated("tally::enums", optimizer_impl_label(spec.training)),
        optimizer_impl_applies(spec.training.optimizer)
            ? "Kingma & Ba 2015, Alg. 1; torch.optim.AdamW (foreach); Apex / Transformer Engine "
              "FusedAdam"
            : "the optimizer's own update rule, timed as one fused read and write of each "
              "value"));
    out.push_back(with_source(
        make_explanation(
            "performance.mfu", QT_TRANSLATE_NOOP("tally::explain", "Predicted MFU"), f.mfu,
            "of peak",
            QT_TRANSLATE_NOOP("tally::formula", "model FLOPs per step / (step x GPUs x peak)"),
            fmt::format("{} / ({} x {} x {}) = {:.3f}", four_digits(p.flops.per_step),
                        four_digits(f.step_s), spec.cluster.gpus,
                        four_digits(p.time.peak_flops_per_s), f.mfu),
            std::string()),
        {gemm_fraction_source_text(hw, compute_type(spec.training.compute_dtype)),
         memory_fraction_source_text(hw)}));
}

}  // namespace

std::vector<Explanation> explain(const PlanSpec& spec, const HardwareProfile& hw, const Plan& p) {
    const TrainingSpec& t = spec.training;
    const ClusterSpec& c = spec.cluster;
    const MemoryBreakdown& m = p.memory;
    const std::string n_gpu = four_digits(m.params_on_gpu);
    std::vector<Explanation> out;

    Explanation params = make_explanation(
        "params", QT_TRANSLATE_NOOP("tally::explain", "Parameters"), p.params.total, "parameters",
        spec.model.kind == ModelKind::mlp
            ? "N = D^2 x L"
            : (spec.model.kind == ModelKind::params
                   ? QT_TRANSLATE_NOOP("tally::formula", "N (given)")
                   : QT_TRANSLATE_NOOP(
                         "tally::formula",
                         "N = L x (attention + MLP + norms) + embeddings + final norm")),
        TALLY_TEXT("tally::explain", "%1 total, %2 active, %3 embedding")
            .arg(four_digits(p.params.total))
            .arg(four_digits(p.params.active))
            .arg(four_digits(p.params.embedding)),
        spec.model.kind == ModelKind::params ? QT_TRANSLATE_NOOP("tally::source", "the spec")
        : spec.model.kind == ModelKind::mlp
            ? "CS336 lecture 2"
            : "Vaswani et al. 2017; Shazeer 2020 (SwiGLU); Ainslie et al. 2023 (GQA)");
    if (spec.model.kind == ModelKind::mlp) {
        // The lecture's deep network: numbers alone, the same in every language.
        params.substitution = fmt::format("{}^2 x {} = {}", spec.model.hidden, spec.model.layers,
                                          four_digits(p.params.total));
        params.substitution_text = Text();
    }
    out.push_back(std::move(params));

    const bool six = t.flops_formula == FlopsFormula::six_nd;
    out.push_back(make_explanation(
        "flops.per_token", QT_TRANSLATE_NOOP("tally::explain", "FLOPs per token"),
        p.flops.per_token, "FLOPs",
        six                                 ? "6 x N"
        : spec.model.windowed_layers() == 0 ? "6 x N + 6 x L x H x T x (d_qk + d_v)"
                                            // Sliding-window layers score min(T, W) keys.
                                            : "6 x N + 6 x H x (d_qk + d_v) x "
                                              "((L - L_w) x T + L_w x min(T, W))",
        six ? fmt::format("6 x {} = {}", four_digits(p.params.active),
                          four_digits(p.flops.per_token))
            : fmt::format("{} + {} = {}", four_digits(p.flops.per_token_6n),
                          four_digits(p.flops.per_token_attention - p.flops.per_token_6n),
                          four_digits(p.flops.per_token)),
        six ? "CS336 lecture 2 (forward 2N + backward 4N); Kaplan et al. 2020"
        : spec.model.windowed_layers() == 0
            ? "PaLM, Chowdhery et al. 2022, appendix B"
            : "PaLM, Chowdhery et al. 2022, appendix B; Beltagy et al. 2020, sec. 3.1"));
    out.push_back(make_explanation(
        "flops.total", QT_TRANSLATE_NOOP("tally::explain", "Training FLOPs"), p.flops.total,
        "FLOPs", QT_TRANSLATE_NOOP("tally::formula", "FLOPs per token x tokens"),
        fmt::format("{} x {} = {}", four_digits(p.flops.per_token), four_digits(spec.data.tokens),
                    four_digits(p.flops.total)),
        "CS336 lecture 2: total_flops = 6 x 70e9 x 15e12"));
    out.push_back(make_explanation(
        "flops.hardware_total", QT_TRANSLATE_NOOP("tally::explain", "Hardware FLOPs"),
        p.flops.hardware_total, "FLOPs",
        QT_TRANSLATE_NOOP("tally::formula", "model FLOPs + recomputed forward FLOPs x tokens"),
        fmt::format("{} + {} x {} = {}", four_digits(p.flops.total),
                    four_digits(p.flops.recompute_per_token), four_digits(spec.data.tokens),
                    four_digits(p.flops.hardware_total)),
        "Korthikanti et al. 2022, sec. 5; Narayanan et al. 2021, eq. 3"));
    if (p.time.mfu_predicted) {
        out.push_back(with_source(
            make_explanation(
                "time.days", QT_TRANSLATE_NOOP("tally::explain", "Training time"), p.time.days,
                "days",
                QT_TRANSLATE_NOOP("tally::formula", "steps x predicted step time / 86400 s"),
                TALLY_TEXT("tally::explain", "%1 x %2 s / 86400 = %3 days")
                    .arg(four_digits(p.parallel.steps))
                    .arg(four_digits(p.performance.step_s))
                    .arg(days_text(p.time.days)),
                std::string()),
            performance_model_source(hw)));
    } else {
        out.push_back(with_source(
            make_explanation(
                "time.days", QT_TRANSLATE_NOOP("tally::explain", "Training time"), p.time.days,
                "days",
                QT_TRANSLATE_NOOP("tally::formula", "FLOPs / (peak x MFU x GPUs x 86400 s)"),
                TALLY_TEXT("tally::explain", "%1 / (%2 x %3 x %4 x 86400) = %5 days")
                    .arg(four_digits(p.flops.total))
                    .arg(four_digits(p.time.peak_flops_per_s))
                    .arg(fmt::format("{}", c.mfu))
                    .arg(c.gpus)
                    .arg(days_text(p.time.days)),
                std::string()),
            {as_written("CS336 lecture 2"),
             TALLY_TEXT("tally::source", "%1 dense %2 peak from its datasheet")
                 .arg(hw.name)
                 .arg(to_string(compute_type(t.compute_dtype)))}));
    }
    out.push_back(with_formula(
        make_explanation(
            "time.peak_flops_per_s", QT_TRANSLATE_NOOP("tally::explain", "Dense peak, one GPU"),
            p.time.peak_flops_per_s, "FLOP/s", std::string(),
            fmt::format("{} FLOP/s", four_digits(p.time.peak_flops_per_s)),
            hw.sources.empty()
                ? std::string(QT_TRANSLATE_NOOP("tally::source", "the hardware profile"))
                : hw.sources.front()),
        TALLY_TEXT("tally::formula", "dense %1 peak of %2 (no 2:4 sparsity)")
            .arg(to_string(compute_type(t.compute_dtype)))
            .arg(hw.name)));
    out.push_back(make_explanation(
        "time.achieved_flops_per_s", QT_TRANSLATE_NOOP("tally::explain", "Achieved, whole cluster"),
        p.time.achieved_flops_per_s, "FLOP/s",
        QT_TRANSLATE_NOOP("tally::formula", "peak x MFU x GPUs"),
        fmt::format("{} x {:.3g} x {} = {}", four_digits(p.time.peak_flops_per_s), p.time.mfu,
                    c.gpus, four_digits(p.time.achieved_flops_per_s)),
        "CS336 lecture 2 (MFU = achieved / promised FLOP/s)"));
    out.push_back(make_explanation(
        "time.hfu", QT_TRANSLATE_NOOP("tally::explain", "HFU"), p.time.hfu, "of peak",
        QT_TRANSLATE_NOOP("tally::formula", "MFU x hardware FLOPs / model FLOPs"),
        fmt::format("{:.3g} x {} / {} = {:.3f}", p.time.mfu, four_digits(p.flops.hardware_total),
                    four_digits(p.flops.total), p.time.hfu),
        "Korthikanti et al. 2022, sec. 5 (MFU vs HFU)"));
    explain_performance(p, spec, hw, out);
    out.push_back(make_explanation(
        "time.gpu_hours", QT_TRANSLATE_NOOP("tally::explain", "GPU-hours"), p.time.gpu_hours,
        "GPU-hours", QT_TRANSLATE_NOOP("tally::formula", "seconds x GPUs / 3600"),
        fmt::format("{} x {} / 3600 = {}", four_digits(p.time.seconds), c.gpus,
                    four_digits(p.time.gpu_hours)),
        QT_TRANSLATE_NOOP("tally::source", "definition")));
    if (p.time.has_cost) {
        out.push_back(make_explanation(
            "time.cost", QT_TRANSLATE_NOOP("tally::explain", "Cost"), p.time.cost, "currency",
            QT_TRANSLATE_NOOP("tally::formula", "GPU-hours x price per GPU-hour"),
            fmt::format("{} x {} = {}", four_digits(p.time.gpu_hours), p.time.price_per_gpu_hour,
                        four_digits(p.time.cost)),
            p.time.price_from_profile
                ? QT_TRANSLATE_NOOP("tally::source", "the hardware profile's price")
                : "cluster.price_per_gpu_hour"));
    }
    if (p.time.has_energy) {
        out.push_back(with_source(
            make_explanation(
                "time.energy_kwh", QT_TRANSLATE_NOOP("tally::explain", "Energy"), p.time.energy_kwh,
                "kWh",
                QT_TRANSLATE_NOOP("tally::formula", "GPU-hours x TDP / 1000 (GPU boards only)"),
                fmt::format("{} x {} W / 1000 = {}", four_digits(p.time.gpu_hours), hw.tdp_w,
                            four_digits(p.time.energy_kwh)),
                std::string()),
            {TALLY_TEXT("tally::source", "%1 TDP from its hardware profile").arg(hw.name)}));
    }

    // With routed experts the state is sharded two ways: the dense parameters over dp x cp, the
    // routed experts' over their expert-data-parallel group (accounting.h). The substitution
    // then shows both terms.
    const bool experts_apart =
        m.expert_params_on_gpu > 0.0 &&
        (m.expert_param_shards != m.param_shards || m.expert_grad_shards != m.grad_shards ||
         m.expert_optimizer_shards != m.optimizer_shards);
    const std::string n_dense = four_digits(m.params_on_gpu - m.expert_params_on_gpu);
    const std::string n_experts = four_digits(m.expert_params_on_gpu);
    auto sharded = [&](double bytes_per_param, double shards, double expert_shards, double bytes) {
        if (!experts_apart) {
            return fmt::format("{} x {:.4g} / {:g} = {}", n_gpu, bytes_per_param, shards,
                               four_digits(bytes));
        }
        return fmt::format("({} / {:g} + {} / {:g}) x {:.4g} = {}", n_dense, shards, n_experts,
                           expert_shards, bytes_per_param, four_digits(bytes));
    };
    const char* experts_formula_note =
        QT_TRANSLATE_NOOP("tally::formula",
                          "(N_dense / z + N_experts / z_experts) x bytes per parameter: the "
                          "routed experts' state sharded over their expert-data-parallel "
                          "group, gpus / (etp x ep x pp)");
    out.push_back(make_explanation(
        "memory.params_bytes", QT_TRANSLATE_NOOP("tally::explain", "Parameters"), m.params_bytes,
        "bytes",
        experts_apart
            ? experts_formula_note
            : QT_TRANSLATE_NOOP("tally::formula", "N_gpu x bytes(param) / (dp x cp if ZeRO-3)"),
        sharded(m.param_bytes_per_param, m.param_shards, m.expert_param_shards, m.params_bytes),
        "CS336 lecture 2; Rajbhandari et al. 2020 (ZeRO), sec. 5"));
    out.push_back(make_explanation(
        "memory.grads_bytes", QT_TRANSLATE_NOOP("tally::explain", "Gradients"), m.grads_bytes,
        "bytes",
        experts_apart
            ? experts_formula_note
            : QT_TRANSLATE_NOOP("tally::formula", "N_gpu x bytes(grad) / (dp x cp if ZeRO >= 2)"),
        sharded(m.grad_bytes_per_param, m.grad_shards, m.expert_grad_shards, m.grads_bytes),
        "CS336 lecture 2; Rajbhandari et al. 2020, sec. 5"));
    out.push_back(make_explanation(
        "memory.master_bytes", QT_TRANSLATE_NOOP("tally::explain", "Master weights"),
        m.master_bytes, "bytes",
        experts_apart ? experts_formula_note
                      : QT_TRANSLATE_NOOP(
                            "tally::formula",
                            "N_gpu x bytes(master: fp32 copy, or none) / (dp x cp if ZeRO >= 1)"),
        sharded(m.master_bytes_per_param, m.optimizer_shards, m.expert_optimizer_shards,
                m.master_bytes),
        "Micikevicius et al. 2018 (mixed precision); Rajbhandari et al. 2020"));
    out.push_back(make_explanation(
        "memory.optimizer_bytes", QT_TRANSLATE_NOOP("tally::explain", "Optimizer state"),
        m.optimizer_bytes, "bytes",
        experts_apart
            ? experts_formula_note
            : QT_TRANSLATE_NOOP("tally::formula",
                                "N_gpu x bytes of state per parameter / (dp x cp if ZeRO >= 1)"),
        TALLY_TEXT("tally::explain", "%1 (%2, %3 state)")
            .arg(sharded(m.optimizer_bytes_per_param, m.optimizer_shards, m.expert_optimizer_shards,
                         m.optimizer_bytes))
            .arg(to_string(t.optimizer))
            .arg(to_string(t.optimizer_state_dtype)),
        fmt::format("CS336 lecture 2 (Adam 8 bytes/param, AdaGrad 4); {}",
                    optimizer_source(t.optimizer))));
    std::string act_formula;
    switch (spec.model.kind) {
        case ModelKind::params:
            act_formula = QT_TRANSLATE_NOOP("tally::formula", "not counted (no architecture)");
            break;
        case ModelKind::mlp:
            // With sqrt checkpointing a layer's figure is its share of the kept layers' (one in
            // every segment): said, so the substitution's per-layer bytes read right.
            act_formula =
                t.recompute == Recompute::sqrt
                    ? QT_TRANSLATE_NOOP("tally::formula",
                                        "bytes(act) x B x D x (kept layers / layers, sqrt "
                                        "checkpointing) per layer x layers + the recomputed "
                                        "segment's working set")
                    : QT_TRANSLATE_NOOP("tally::formula", "bytes(act) x B x D per layer x layers");
            break;
        case ModelKind::transformer:
            act_formula = QT_TRANSLATE_NOOP(
                "tally::formula",
                "per layer s·b·h·(34 + 5·a·s/h) at 16 bits with dropout (its masks left out "
                "without it), split by TP/SP, minus what flash attention / recomputation drop; "
                "x layers on the GPU x micro-batches in flight; on the output layer's stage, what "
                "the cross-entropy keeps of each logit: its fp32 softmax (4 bytes) or, computed "
                "in place (training.cross_entropy), the gradient over the 16-bit logits (2)");
            break;
    }
    out.push_back(make_explanation(
        "memory.activations_bytes", QT_TRANSLATE_NOOP("tally::explain", "Activations"),
        m.activations_bytes, "bytes", act_formula, activations_value_text(spec, m),
        "Korthikanti et al. 2022, sec. 4-5; Chen et al. 2016 (sqrt); CS336 lecture 2"));
    if (m.zero3_gather_bytes > 0.0) {
        out.push_back(make_explanation(
            "memory.zero3_gather_bytes",
            QT_TRANSLATE_NOOP("tally::explain", "ZeRO-3 gathered layers"), m.zero3_gather_bytes,
            "bytes",
            QT_TRANSLATE_NOOP("tally::formula",
                              "2 layers' full parameters (the one computed, the next prefetched) / "
                              "tp x bytes(param)"),
            TALLY_TEXT("tally::explain", "2 x %1 / %2 x %3 = %4")
                .arg(four_digits(m.zero3_gather_bytes / 2.0 *
                                 static_cast<double>(spec.training.tp) / m.param_bytes_per_param))
                .arg(fmt::format("{}", spec.training.tp))
                .arg(fmt::format("{:g}", m.param_bytes_per_param))
                .arg(four_digits(m.zero3_gather_bytes)),
            "Rajbhandari et al. 2020 (ZeRO), sec. 5.3"));
    }
    if (m.pipeline_buffer_bytes > 0.0) {
        out.push_back(make_explanation(
            "memory.pipeline_buffer_bytes", QT_TRANSLATE_NOOP("tally::explain", "Pipeline buffers"),
            m.pipeline_buffer_bytes, "bytes",
            QT_TRANSLATE_NOOP("tally::formula",
                              "4 x micro-batch x s / cp x h x bytes(act) / (tp with sequence "
                              "parallelism): an activation and a gradient received, two being "
                              "sent"),
            TALLY_TEXT("tally::explain", "4 x %1 x %2 / %3 x %4 x %5 / %6 = %7")
                .arg(fmt::format("{}", spec.data.micro_batch))
                .arg(fmt::format("{}", spec.data.seq_len))
                .arg(fmt::format("{}", spec.training.context_parallel))
                .arg(fmt::format("{}", spec.model.hidden))
                .arg(fmt::format("{:g}", bytes_per_value(spec.training.activation_dtype)))
                .arg(fmt::format("{}", spec.training.sequence_parallel ? spec.training.tp : 1))
                .arg(four_digits(m.pipeline_buffer_bytes)),
            "Narayanan et al. 2021, sec. 4.1 (point-to-point sends between stages)"));
    }
    out.push_back(make_explanation(
        "memory.total_bytes", QT_TRANSLATE_NOOP("tally::explain", "Total per GPU"), m.total_bytes,
        "bytes",
        m.zero3_gather_bytes > 0.0 || m.pipeline_buffer_bytes > 0.0
            ? QT_TRANSLATE_NOOP("tally::formula",
                                "params + grads + master + optimizer + activations + ZeRO-3 "
                                "gathered layers + pipeline buffers")
            : QT_TRANSLATE_NOOP("tally::formula",
                                "params + grads + master + optimizer + activations"),
        TALLY_TEXT("tally::explain", "%1 of %2 capacity (%3)")
            .arg(four_digits(m.total_bytes))
            .arg(four_digits(m.capacity_bytes))
            .arg_translated("tally::explain",
                            m.fits ? QT_TRANSLATE_NOOP("tally::explain", "fits")
                                   : QT_TRANSLATE_NOOP("tally::explain", "does not fit")),
        QT_TRANSLATE_NOOP("tally::source", "sum of the above")));
    out.push_back(make_explanation(
        "parallel.grad_accum_steps", QT_TRANSLATE_NOOP("tally::explain", "Gradient accumulation"),
        static_cast<double>(p.parallel.grad_accum_steps), "micro-batches",
        QT_TRANSLATE_NOOP("tally::formula", "global batch / (micro batch x data-parallel GPUs)"),
        fmt::format("{} / ({} x {}) = {}", p.parallel.global_batch, spec.data.micro_batch,
                    p.parallel.dp, p.parallel.grad_accum_steps),
        "CS336 lecture 2 (gradient accumulation)"));
    out.push_back(make_explanation(
        "parallel.tokens_per_step", QT_TRANSLATE_NOOP("tally::explain", "Tokens per step"),
        p.parallel.tokens_per_step, "tokens",
        QT_TRANSLATE_NOOP("tally::formula", "global batch x sequence length"),
        fmt::format("{} x {} = {}", p.parallel.global_batch,
                    spec.model.kind == ModelKind::mlp ? 1 : spec.data.seq_len,
                    four_digits(p.parallel.tokens_per_step)),
        QT_TRANSLATE_NOOP("tally::source", "definition")));
    out.push_back(make_explanation(
        "parallel.steps", QT_TRANSLATE_NOOP("tally::explain", "Optimizer steps"), p.parallel.steps,
        "steps", QT_TRANSLATE_NOOP("tally::formula", "training tokens / tokens per step"),
        fmt::format("{} / {} = {}", four_digits(spec.data.tokens),
                    four_digits(p.parallel.tokens_per_step), four_digits(p.parallel.steps)),
        QT_TRANSLATE_NOOP("tally::source", "definition")));
    out.push_back(make_explanation(
        "parallel.pipeline_bubble_fraction", QT_TRANSLATE_NOOP("tally::explain", "Pipeline bubble"),
        p.parallel.pipeline_bubble_fraction, "of the ideal step",
        QT_TRANSLATE_NOOP("tally::formula",
                          "(pp - 1) / (v x micro-batches per step) (1F1B schedule, v virtual "
                          "stages each)"),
        fmt::format("({} - 1) / ({} x {}) = {:.3g}", p.parallel.pp,
                    std::max<std::int64_t>(spec.training.interleave, 1),
                    p.parallel.grad_accum_steps, p.parallel.pipeline_bubble_fraction),
        "Narayanan et al. 2021, sec. 2.2.1 and 2.2.2"));
    return out;
}

}  // namespace tally
