#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/model/accounting.h"
#include "planner/performance/collectives.h"

namespace tally {

// ---- the GEMMs of a layer -------------------------------------------------------------------

enum class GemmRole {
    qkv,               // fused Q, K, V projection
    q_down,            // MLA: hidden -> q_lora_rank
    q_up,              // MLA: q_lora_rank -> heads x (d_nope + d_rope)
    kv_down,           // MLA: hidden -> kv_lora_rank + d_rope
    kv_up,             // MLA: kv_lora_rank -> heads x (d_nope + d_v)
    attention_scores,  // Q K^T per head
    attention_values,  // softmax(...) V per head
    out_proj,          // heads x d_v -> hidden
    mlp_up,            // hidden -> ffn (gate and up together for SwiGLU)
    mlp_down,          // ffn -> hidden
    router,            // hidden -> experts
    expert_up,         // each routed expert held by this GPU
    expert_down,
    shared_expert_up,
    shared_expert_down,
    lm_head,   // hidden -> vocabulary (the last pipeline stage)
    mtp_proj,  // multi-token prediction: [norm(h); norm(embedding)] 2h -> hidden (last stage)
};
std::string_view to_string(GemmRole role);

// `count` identical (m x k) by (k x n) products of one GPU's forward pass for one micro-batch,
// after tensor parallelism split them (Megatron-LM, Shoeybi et al. 2019, sec. 3: QKV and the
// MLP's first matrix split by columns, the output projection and the MLP's second by rows).
// No default member values: GemmList's slots past its size are left unwritten, as they are
// never read.
struct LayerGemm {
    GemmRole role;
    double count;
    double m;
    double n;
    double k;
    double flops() const { return 2.0 * count * m * n * k; }  // 2 FLOPs per multiply-add
};

// A fixed-capacity list (no allocation: evaluate() builds it for every plan; nor zeroing: only
// the first `size` items are ever written or read).
struct GemmList {
    std::array<LayerGemm, 16> items;
    int size = 0;
    void add(GemmRole role, double count, double m, double n, double k) {
        if (size < static_cast<int>(items.size()) && count > 0.0 && m > 0.0 && n > 0.0 && k > 0.0) {
            items[static_cast<std::size_t>(size++)] = LayerGemm{role, count, m, n, k};
        }
    }
    const LayerGemm* begin() const { return items.data(); }
    const LayerGemm* end() const { return items.data() + size; }
    double flops() const;
};

// The forward GEMMs of one transformer layer (dense or MoE) on one GPU for one micro-batch of
// data.micro_batch x data.seq_len tokens, split by training.tp (and, for routed experts, spread
// by training.expert_parallel). The attention core's products are listed at their full s x s
// size; flash attention's causal kernels skip the masked half when timed.
GemmList layer_gemms(const PlanSpec& spec, bool moe_layer);
// The output layer's GEMM (logits), held by the last pipeline stage.
GemmList head_gemms(const PlanSpec& spec);

// ---- the network a plan runs on -------------------------------------------------------------

// The cluster's network with the spec's overrides (cluster.gpus_per_node,
// cluster.intra_node_bytes_per_s, cluster.inter_node_bytes_per_s) over the profile's figures,
// and the achieved fraction of the scale-up link applied (efficiency.h). A profile without a
// node size puts the whole cluster in one scale-up domain; without a scale-out figure, the
// scale-out network runs at the scale-up bandwidth (both said in `assumption`).
struct ResolvedNetwork {
    Network network;
    double intra_link_bytes_per_s = 0.0;  // before the achieved fraction
    double inter_link_bytes_per_s = 0.0;
    double scale_up_fraction = 1.0;
    bool node_size_known = true;
    bool inter_node_known = true;
};
ResolvedNetwork resolve_network(const ClusterSpec& cluster, const HardwareProfile& hardware);

// The host link (PCIe) offloaded state crosses, per direction: the profile's, else PCIe 4.0 x16
// (16 GT/s x 16 lanes x 128/130 encoding / 8 bits = 31.5e9 bytes/s; PCI-SIG PCIe 4.0 base
// specification), the slowest host link of the catalog's data-center parts.
double host_link_bytes_per_s(const HardwareProfile& hardware);
inline constexpr double kPcie4x16BytesPerS = 16e9 * 16.0 * 128.0 / 130.0 / 8.0;

// ---- expert-parallel overlap ----------------------------------------------------------------

// One layer's sub-modules as Megatron-Core's --overlap-moe-expert-parallel-comm schedules them
// (after DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", sec. 3.2.1, Fig. 4): one micro-batch's
// forward of the layer beside another's backward of it, on two streams
// (TransformerLayerSchedulePlan.run, megatron/core/models/common/model_chunk_schedule_plan.py):
//   communication: combine bwd | dispatch fwd -> dispatch bwd    | combine fwd
//   computation:   attn fwd    | mlp bwd -> mlp wgrad -> mlp fwd | attn bwd
// Seconds of each computation; every all-to-all (dispatch or combine, either pass) takes
// `all_to_all_s`.
struct ExpertOverlapPair {
    double attn_fwd_s = 0.0;   // attention block, norm, router and permutation, forward
    double mlp_dgrad_s = 0.0;  // the experts' backward up to their input gradient
    double mlp_wgrad_s = 0.0;  // the experts' weight gradients
    double mlp_fwd_s = 0.0;
    double attn_bwd_s = 0.0;
    double all_to_all_s = 0.0;
};
// The pair's time: the critical path of the two streams, each running its sub-modules in order,
// each sub-module also waiting for the one whose output it takes (mlp bwd for combine bwd,
// dispatch fwd for attn fwd, dispatch bwd for mlp bwd, mlp fwd for dispatch fwd, combine fwd for
// mlp fwd, attn bwd for dispatch bwd).
double expert_overlap_pair_s(const ExpertOverlapPair& pair);
// The share of a GPU's layer passes that have a partner in that schedule: each chunk
// sequence's first forward and the pipeline's warm-up forwards (with their cool-down backwards)
// run alone. Warm-up per rank, averaged over the ranks: (p - 1) / 2 for 1F1B, (p - 1) + (v - 1) p
// for the interleaved schedule (Megatron-Core schedules.py, get_pp_rank_microbatches:
// 2 (p - rank - 1) + (v - 1) p). `microbatches` per step, v = `interleave` virtual stages.
double expert_overlap_paired_share(std::int64_t pp, std::int64_t interleave,
                                   std::int64_t microbatches);

// ---- the step time --------------------------------------------------------------------------

// One optimizer step on the most loaded GPU (the slowest pipeline stage), predicted bottom-up.
// The terms marked "critical path" add up to step_s:
//   step_s = compute_s + recompute_s + memory_bound_s + tp_comm_s + pp_comm_s + pp_bubble_s
//          + dp_comm_exposed_s + ep_comm_s + cp_comm_s + overhead_s + comm_contention_s
//          + offload_s + optimizer_s.
// dp_comm_s is the whole data-parallel traffic time, of which dp_comm_exposed_s is not hidden
// behind the backward (or forward) pass.
struct PerformanceBreakdown {
    double step_s = 0.0;
    double tokens_per_s = 0.0;             // tokens per step / step_s, the whole cluster
    double mfu = 0.0;                      // model FLOPs per step / (step_s x GPUs x dense peak)
    double hfu = 0.0;                      // hardware FLOPs (recomputation included) likewise
    double hardware_flops_per_step = 0.0;  // model FLOPs + recomputed FLOPs, the whole cluster
    // critical path
    double compute_s = 0.0;    // forward + backward GEMMs and attention kernels, all micro-batches
    double recompute_s = 0.0;  // the forward work recomputation repeats
    double memory_bound_s = 0.0;  // norms, activations, residuals, softmax, dropout, ...
    double tp_comm_s = 0.0;       // tensor-parallel collectives (recomputed ones included)
    double pp_comm_s = 0.0;       // pipeline point-to-point sends
    double pp_bubble_s = 0.0;     // pipeline fill and drain
    double dp_comm_exposed_s = 0.0;
    double ep_comm_s = 0.0;   // expert-parallel all-to-all (dispatch and combine)
    double cp_comm_s = 0.0;   // context-parallel key/value exchange beyond the attention it hides
    double overhead_s = 0.0;  // kernel launch gaps: the engine's kernels x kKernelLaunchGapS
    // Compute slowed by the SMs the overlapped data-parallel collectives occupy (engine.h).
    double comm_contention_s = 0.0;
    double offload_s = 0.0;    // PCIe traffic of offloaded state not hidden
    double optimizer_s = 0.0;  // the optimizer update on the GPU
    // What that update reads and writes per parameter of the shard (gradient clipping included).
    double optimizer_bytes_per_param = 0.0;
    // not on the critical path as a whole
    double dp_comm_s = 0.0;
    // inputs, for explanations
    double microbatch_s = 0.0;  // one micro-batch's forward + backward on the slowest stage
    // The stage with the output layer (and any multi-token-prediction modules) is the slowest.
    bool head_stage_slowest = false;
    double bubble_fraction = 0.0;
    std::int64_t microbatches = 1;
    double gemm_flops_per_s = 0.0;  // achieved GEMM rate used
    double memory_bytes_per_s = 0.0;
    ResolvedNetwork network;
    // A calibrated profile (hardware.h, StepCalibration): every time above is the model's
    // divided by `calibration_efficiency` (apply_calibration(), calibration.h); 1 and equal to
    // step_s when the profile is not calibrated.
    double calibration_efficiency = 1.0;
    double uncalibrated_step_s = 0.0;
};

// The prediction for a spec check() accepted, from the plan evaluate() computed for it (its
// parameters, memory and FLOPs). Pure and allocation-free; evaluate() calls it and stores the
// result in Plan::performance.
PerformanceBreakdown predict_performance(const PlanSpec& spec, const HardwareProfile& hardware,
                                         const Accounting& accounting);

}  // namespace tally
