#pragma once

// Serving plans: the memory of a deployment (weights, KV cache, activations), the time to first
// token, the time of one decode step, throughput, cost per token and the batch limits, from a
// spec's model, cluster and inference block. GEMMs and memory traffic are timed with the achieved
// fractions of planner/hardware/efficiency.h, the same ones the training performance model uses.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/errors.h"
#include "planner/core/explanation.h"
#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/serving/serving_engine.h"

namespace tally {

// ---- KV cache ----------------------------------------------------------------------------------

enum class AttentionKind { mha, gqa, mqa, mla };
std::string_view to_string(AttentionKind kind);

// What one token adds to the KV cache.
struct KvCacheShape {
    AttentionKind kind = AttentionKind::mha;
    double values_per_token_per_layer = 0.0;  // 2·g·d, or MLA's r_kv + d_rope
    double bytes_per_token = 0.0;             // the whole model, every layer, one copy
    // kv_cache_shape(): what one GPU of a tp group holds over every layer. In a ServingPlan:
    // what one GPU keeps for a token of the batch (its stage's layers; with data-parallel
    // attention all the KV heads for its 1/tp of the sequences).
    double bytes_per_token_per_gpu = 0.0;
    double kv_heads_per_gpu = 0.0;  // 0 for MLA (one latent, not split by heads)
};
KvCacheShape kv_cache_shape(const ModelSpec& model, DType kv_dtype, std::int64_t tp);

// ---- the serving plan --------------------------------------------------------------------------

// Memory of one GPU of a replica, bytes (GB = 1e9 bytes).
struct ServingMemory {
    double weights_bytes = 0.0;
    double kv_cache_bytes = 0.0;
    double activation_bytes = 0.0;
    double total_bytes = 0.0;
    double capacity_bytes = 0.0;
    double headroom_bytes = 0.0;
    bool fits = false;
};

// The time of one forward pass (a prefill of one prompt, or one decode step of the batch) on one
// GPU of a replica: the weight GEMMs on the roofline, attention on the roofline, and the
// tensor-parallel all-reduces, one after another.
struct ServingPhase {
    double tokens = 0.0;   // tokens the pass processes (prompt tokens, or the batch)
    double context = 0.0;  // tokens each query attends to at the end of the pass
    double gemm_flops = 0.0;
    double weight_bytes = 0.0;  // weights read
    double gemm_compute_s = 0.0;
    double gemm_memory_s = 0.0;
    double gemm_s = 0.0;
    double attention_flops = 0.0;
    double kv_bytes = 0.0;  // KV cache read (decode) or written (prefill)
    double attention_compute_s = 0.0;
    double attention_memory_s = 0.0;
    double attention_s = 0.0;
    double all_reduces = 0.0;       // per pass: 2 per layer (Megatron)
    double all_reduce_bytes = 0.0;  // each
    double comm_bandwidth_s = 0.0;
    double comm_latency_s = 0.0;
    double comm_s = 0.0;
    // The engine's small kernels (norms, rotary embedding, KV write, the MLP's activation,
    // sampling), each its bytes at the bandwidth and at least a kernel's floor, and its host
    // time per step (serving_engine.h).
    double fixed_s = 0.0;
    double pipeline_s = 0.0;  // sends between pipeline stages
    // gemm_s + attention_s + fixed_s + comm_s of one stage; with pp stages, pp of those plus the
    // sends.
    double seconds = 0.0;
};

// Continuous batching at a concurrency (requests in flight per replica), steady state.
struct ContinuousBatchingPoint {
    double concurrency = 0.0;
    double step_s = 0.0;          // one engine step (decode of every sequence, plus prefill chunks)
    double ttft_s = 0.0;          // time to first token
    double itl_s = 0.0;           // mean inter-token latency (TPOT)
    double e2e_s = 0.0;           // a request end to end: TTFT + (O - 1) ITL
    double requests_per_s = 0.0;  // every replica
    double tokens_per_s = 0.0;    // output tokens per second, every replica
    // The KV cache of `concurrency` full sequences fits; false, with every time and rate 0,
    // where the engine's share holds not one sequence (in_flight 0: nothing is served).
    bool fits = true;
    // Requests the engine runs at once: the concurrency, or the largest batch whose KV cache fits
    // when that is smaller (the rest wait for admission); 0 when not even one fits.
    double in_flight = 0.0;
    // The step's token budget (ServingPlan::budget_batch), not the KV cache, set in_flight
    // below the concurrency.
    bool budget_bound = false;
    double queue_s = 0.0;  // mean wait for admission, part of ttft_s
    // The mean wait of a new prompt before its prefill starts, part of ttft_s: the step the
    // engine is running when it arrives and, with chunked prefill where a step takes one prompt,
    // the other prompts ahead of it.
    double prefill_wait_s = 0.0;
    // With chunked prefill, the share of steps that carry a prompt chunk, (C / O) ceil(P / k);
    // above 1 every step carries prompt tokens. 0 without chunked prefill.
    double chunk_share = 0.0;
};

enum class ServingWarning : std::uint32_t {
    does_not_fit = 1u << 0,
    tp_spans_nodes = 1u << 1,
    comm_dominates = 1u << 2,           // the all-reduces take over a quarter of a decode step
    weight_dtype_not_native = 1u << 3,  // no tensor-core path: dequantized to 16-bit for the GEMMs
    tp_spans_bridge = 1u << 4,  // more GPUs than an NVLink bridge joins: the ring crosses PCIe
    // prompt + output past the model's context (model.context_length): engines refuse it
    beyond_context = 1u << 5,
    // continuous batching asked for (inference.concurrency) while the engine's KV cache cannot
    // hold one sequence: the engine admits no request, and nothing is served
    cache_holds_none = 1u << 6,
};

struct ServingPlan {
    std::int64_t replicas = 1;  // cluster.gpus / tp
    ComputeType gemm_type = ComputeType::bf16;
    ComputeType attention_type = ComputeType::bf16;
    double gemm_peak_flops_per_s = 0.0;  // achieved: dense peak x GEMM fraction
    double attention_peak_flops_per_s = 0.0;
    // The prefill attention kernel (the engine's for the part) and its published rate over the
    // prompt's keys at the model's head dimension.
    AttentionKernel prefill_attention_kernel = AttentionKernel::flash2;
    double prefill_attention_flops_per_s = 0.0;
    double prefill_attention_head_dim = 0.0;  // (d_qk + d_v) / 2
    double bandwidth_bytes_per_s = 0.0;       // achieved: datasheet x memory fraction
    double link_bytes_per_s = 0.0;            // the tp group's per-direction link
    double nccl_link_bytes_per_s = 0.0;       // NCCL's figure for it (its ring's bandwidth)
    double params_total = 0.0;
    double params_active = 0.0;
    // Quantized weights: the output head when it stays 16-bit (spec.h, OutputHead) and the
    // looked-up tables, which are stored at 2 B a weight; 0 for 16-bit weights.
    bool output_head_16bit = false;
    double sixteen_bit_params = 0.0;
    // The host time each engine execution waits for (inference.host_step_s, else the engine's).
    double host_step_s = 0.0;
    // One layer's widest values per token on one GPU: 2h + (q, k, v + MLP intermediates) / tp.
    double activation_values_per_token = 0.0;
    KvCacheShape kv;
    ServingMemory memory;
    std::int64_t max_batch = 0;  // the largest batch that fits at the full context
    // The most sequences at the full context the engine's KV cache holds (kv_pool(): its default
    // share of the memory, or inference.memory_fraction); continuous batching admits no more. At
    // most max_batch.
    std::int64_t admission_batch = 0;
    // The most sequences continuous batching keeps decoding within the step's token budget
    // (inference.max_batched_tokens): with chunked prefill, floor(budget x O / (P + O)), where
    // every step is full of their decodes and the prompts of the requests that replace them;
    // without it, the budget (a decode step takes one token a sequence). Admission stops here too.
    std::int64_t budget_batch = 0;
    std::int64_t critical_batch = 0;  // decode GEMMs compute-bound from here; 0: never
    ServingPhase prefill;             // one prompt
    double prefill_s = 0.0;           // every prompt of the batch, one after another
    ServingPhase decode;              // one step at the final context
    double decode_step_s = 0.0;
    double decode_total_s = 0.0;  // all output_tokens steps
    double request_s = 0.0;       // prefill_s + decode_total_s
    double tokens_per_s = 0.0;    // output tokens per second, every replica
    double per_sequence_tokens_per_s = 0.0;
    std::optional<double> price_per_gpu_hour;
    std::optional<double> cost_per_million_tokens;
    // inference.concurrency > 0: continuous batching at that concurrency.
    std::optional<ContinuousBatchingPoint> continuous;
    std::uint32_t warnings = 0;

    bool has(ServingWarning w) const { return (warnings & static_cast<std::uint32_t>(w)) != 0; }
};

// The rules that tie the inference block to the model and the cluster (check() has already
// checked the block's own ranges): a transformer with its dimensions, tp dividing the heads and
// the KV heads (or a multiple of the KV heads) and cluster.gpus. Runs check() first.
std::optional<FieldError> check_inference(const PlanSpec& spec, const HardwareProfile& hardware);

// The serving plan of a spec check_inference() accepted. Computes when it does not fit (and says
// so in memory.fits and the warnings).
ServingPlan evaluate_inference(const PlanSpec& spec, const HardwareProfile& hardware);

// Memory per GPU at `batch` sequences of the spec's full context.
ServingMemory serving_memory(const PlanSpec& spec, const HardwareProfile& hardware,
                             std::int64_t batch);
// Memory per GPU with the KV caches of the requests a continuous-batching point runs at once
// (its in_flight, a whole number of sequences); at the point's concurrency where not even one
// fits, so the figure shows how far it is from fitting.
ServingMemory in_flight_memory(const PlanSpec& spec, const HardwareProfile& hardware,
                               const ContinuousBatchingPoint& point);
// The largest batch whose memory fits (0: not even one sequence).
std::int64_t max_serving_batch(const PlanSpec& spec, const HardwareProfile& hardware);

// One point of the latency / throughput curve: the spec at another batch.
struct ServingCurvePoint {
    std::int64_t batch = 0;
    double decode_step_s = 0.0;
    double tokens_per_s = 0.0;
    double total_bytes = 0.0;
    bool fits = false;
};
// Batches 1, 2, 4, ... up to twice the largest of the spec's batch, its max_batch and its
// critical batch (at most 2^20), plus those three batches themselves, in increasing order.
std::vector<ServingCurvePoint> serving_curve(const PlanSpec& spec, const HardwareProfile& hardware);

// Continuous batching (inference.chunked_prefill, max_batched_tokens) at `concurrency` requests
// in flight per replica; and a sweep over several concurrencies (one context, no allocation per
// point beyond the result).
ContinuousBatchingPoint continuous_batching_at(const PlanSpec& spec,
                                               const HardwareProfile& hardware, double concurrency);
std::vector<ContinuousBatchingPoint> concurrency_sweep(const PlanSpec& spec,
                                                       const HardwareProfile& hardware,
                                                       const std::vector<double>& concurrencies);
// The concurrency at which the deployment completes `requests_per_s` (Little's law: C = rate x
// end-to-end latency, solved by bisection); nullopt when even the largest batch that fits
// cannot serve that rate.
std::optional<ContinuousBatchingPoint> continuous_batching_at_rate(const PlanSpec& spec,
                                                                   const HardwareProfile& hardware,
                                                                   double requests_per_s);
// Why continuous_batching_at_rate() found no concurrency, for the message that says so: whether
// the engine's KV cache admits a sequence at the full context at all, and the most requests per
// second the deployment completes with the largest batch that fits running.
struct ServingRateLimit {
    bool admits = false;
    double most_requests_per_s = 0.0;
};
ServingRateLimit serving_rate_limit(const PlanSpec& spec, const HardwareProfile& hardware);
// The plan served at `point` (found, say, by continuous_batching_at_rate): the point becomes
// plan.continuous and, being how the deployment then serves, sets cost_per_million_tokens.
void serve_at(ServingPlan& plan, const PlanSpec& spec, const ContinuousBatchingPoint& point);

// The smallest tensor parallelism within a node (above the spec's) whose GPUs hold the spec's
// batch at its full context: what a plan that does not fit most simply changes. Each candidate
// is a spec check_inference() accepts with as many GPUs as one replica takes (tp x pp); none
// when no tp up to the node's size fits, or the node's size is not known.
struct ServingTpThatFits {
    std::int64_t tp = 0;
    double total_bytes = 0.0;  // per GPU at that tp
    // The spec with only inference.tp changed to it is accepted: the spec's own GPUs make whole
    // replicas of tp x pp (what a one-click change of tp can offer).
    bool fits_spec_gpus = false;
};
std::optional<ServingTpThatFits> serving_tp_that_fits(const PlanSpec& spec,
                                                      const HardwareProfile& hardware);

// The warnings of a serving plan, translatable (core/text.h), and the same in English.
std::vector<Text> serving_warning_texts(const ServingPlan& plan, const PlanSpec& spec,
                                        const HardwareProfile& hardware);
std::vector<std::string> serving_warning_messages(const ServingPlan& plan, const PlanSpec& spec,
                                                  const HardwareProfile& hardware);

// Each headline figure with its formula, the spec's numbers in it, and its source
// ("serving.decode_step_s", "serving.memory.kv_cache_bytes", ...).
std::vector<Explanation> explain_inference(const PlanSpec& spec, const HardwareProfile& hardware,
                                           const ServingPlan& plan);

}  // namespace tally
