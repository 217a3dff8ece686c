// A serving plan as `tally infer --json` prints it (docs/serving.md).
#include "planner/io/serving_json.h"

#include <nlohmann/json.hpp>

#include "planner/core/quantity_text.h"
#include "planner/hardware/efficiency.h"
#include "planner/io/serving_case_accuracy.h"

namespace tally {

nlohmann::json to_json(const ContinuousBatchingPoint& p) {
    // Where nothing is served (in_flight 0) no request has a latency: null, not 0.
    const auto latency = [&p](double s) {
        return p.in_flight > 0.0 ? nlohmann::json(s) : nlohmann::json(nullptr);
    };
    return nlohmann::json{{"concurrency", p.concurrency},   {"step_s", latency(p.step_s)},
                          {"ttft_s", latency(p.ttft_s)},    {"itl_s", latency(p.itl_s)},
                          {"e2e_s", latency(p.e2e_s)},      {"requests_per_s", p.requests_per_s},
                          {"tokens_per_s", p.tokens_per_s}, {"fits", p.fits},
                          {"in_flight", p.in_flight},       {"budget_bound", p.budget_bound},
                          {"queue_s", p.queue_s},           {"prefill_wait_s", p.prefill_wait_s}};
}

nlohmann::json to_json(const ServingPlan& s, const PlanSpec& spec, const HardwareProfile& hw) {
    using nlohmann::json;
    const InferenceSpec& in = spec.inference;
    auto phase = [](const ServingPhase& p) {
        return json{{"tokens", p.tokens},
                    {"context", p.context},
                    {"gemm_flops", p.gemm_flops},
                    {"weight_bytes", p.weight_bytes},
                    {"gemm_compute_s", p.gemm_compute_s},
                    {"gemm_memory_s", p.gemm_memory_s},
                    {"gemm_s", p.gemm_s},
                    {"attention_flops", p.attention_flops},
                    {"kv_bytes", p.kv_bytes},
                    {"attention_compute_s", p.attention_compute_s},
                    {"attention_memory_s", p.attention_memory_s},
                    {"attention_s", p.attention_s},
                    {"all_reduces", p.all_reduces},
                    {"all_reduce_bytes", p.all_reduce_bytes},
                    {"comm_bandwidth_s", p.comm_bandwidth_s},
                    {"comm_latency_s", p.comm_latency_s},
                    {"comm_s", p.comm_s},
                    {"fixed_s", p.fixed_s},
                    {"pipeline_s", p.pipeline_s},
                    {"seconds", p.seconds}};
    };
    json j;
    j["name"] = spec.name;
    j["gpu"] = {{"id", hw.id}, {"name", hw.name}, {"kind", std::string(to_string(hw.kind))}};
    j["inference"] = {{"batch", in.batch},
                      {"prompt_tokens", in.prompt_tokens},
                      {"output_tokens", in.output_tokens},
                      {"tp", in.tp},
                      {"weight_dtype", std::string(to_string(in.weight_dtype))},
                      {"kv_dtype", std::string(to_string(in.kv_dtype))},
                      {"engine", std::string(to_string(in.engine))},
                      {"quant_group_size", in.quant_group_size},
                      {"concurrency", in.concurrency},
                      {"chunked_prefill", in.chunked_prefill},
                      {"max_batched_tokens", in.max_batched_tokens},
                      {"pp", in.pp},
                      {"ep", in.ep},
                      {"dp_attention", in.dp_attention},
                      {"decode_attention", std::string(to_string(in.decode_attention))},
                      {"output_head", std::string(to_string(in.output_head))}};
    if (in.host_step_s) {
        j["inference"]["host_step_s"] = *in.host_step_s;
    }
    const ServingEngineProfile& engine = serving_engine_profile(in.engine);
    j["engine"] = {{"name", std::string(engine.label)},
                   {"cuda_graph_max_batch", engine.cuda_graph_max_batch},
                   {"small_kernels_per_layer", engine.small_kernels_per_layer},
                   {"small_kernels_per_step", engine.small_kernels_per_step},
                   {"host_step_s", engine.host_step_s},
                   {"attention_kernel", std::string(engine.attention_kernel)},
                   {"all_reduce", std::string(to_string(engine.all_reduce))},
                   {"fused_all_reduce_norm", engine.fused_all_reduce_norm},
                   {"quantizes_head", engine.quantizes_head},
                   {"source", std::string(engine.source)}};
    j["gpus"] = spec.cluster.gpus;
    j["replicas"] = s.replicas;
    j["params"] = s.params_total;
    j["params_active"] = s.params_active;
    j["attention"] = std::string(to_string(s.kv.kind));
    j["gemm_dtype"] = std::string(to_string(s.gemm_type));
    // Quantized weights: whether the output head stays 16-bit, and the weights kept at 2 B.
    j["output_head_16bit"] = s.output_head_16bit;
    j["sixteen_bit_params"] = s.sixteen_bit_params;
    // The host pause every engine execution waits for: the spec's, else the engine's.
    j["host_step_s"] = s.host_step_s;
    j["memory"] = {{"weights_bytes", s.memory.weights_bytes},
                   {"kv_cache_bytes", s.memory.kv_cache_bytes},
                   {"activation_bytes", s.memory.activation_bytes},
                   {"total_bytes", s.memory.total_bytes},
                   {"capacity_bytes", s.memory.capacity_bytes},
                   {"headroom_bytes", s.memory.headroom_bytes},
                   {"fits", s.memory.fits}};
    j["kv_bytes_per_token"] = s.kv.bytes_per_token;
    j["kv_bytes_per_token_per_gpu"] = s.kv.bytes_per_token_per_gpu;
    j["max_batch"] = s.max_batch;
    j["admission_batch"] = s.admission_batch;
    j["budget_batch"] = s.budget_batch;
    j["critical_batch"] = s.critical_batch;
    j["prefill_s"] = s.prefill_s;
    j["decode_step_s"] = s.decode_step_s;
    j["decode_total_s"] = s.decode_total_s;
    j["request_s"] = s.request_s;
    j["tokens_per_s"] = s.tokens_per_s;
    j["per_sequence_tokens_per_s"] = s.per_sequence_tokens_per_s;
    j["price_per_gpu_hour"] = number_or_null(s.price_per_gpu_hour);
    j["cost_per_million_tokens"] = number_or_null(s.cost_per_million_tokens);
    if (s.continuous) {
        j["continuous"] = to_json(*s.continuous);
        // Memory per GPU with the KV caches of the requests running (the static batch's is
        // j["memory"]); none where none runs.
        j["continuous"]["memory_total_bytes"] =
            s.continuous->in_flight > 0.0
                ? nlohmann::json(in_flight_memory(spec, hw, *s.continuous).total_bytes)
                : nlohmann::json(nullptr);
    } else {
        j["continuous"] = nullptr;
    }
    j["prefill"] = phase(s.prefill);
    j["decode"] = phase(s.decode);
    j["achieved"] = {{"gemm_flops_per_s", s.gemm_peak_flops_per_s},
                     {"attention_flops_per_s", s.attention_peak_flops_per_s},
                     {"prefill_attention_kernel", to_string(s.prefill_attention_kernel)},
                     {"prefill_attention_flops_per_s", s.prefill_attention_flops_per_s},
                     {"bandwidth_bytes_per_s", s.bandwidth_bytes_per_s},
                     {"link_bytes_per_s", s.link_bytes_per_s},
                     {"nccl_link_bytes_per_s", s.nccl_link_bytes_per_s},
                     {"gemm_fraction_source", gemm_fraction_source(hw, s.gemm_type)},
                     {"memory_fraction_source", memory_fraction_source(hw)}};
    // How close the model came on the published runs of this engine and GPU family, per metric.
    j["error_band"] = serving_error_band_json(spec.inference.engine, serving_family_gpu(hw),
                                              s.continuous.has_value());
    j["warnings"] = serving_warning_messages(s, spec, hw);
    return j;
}

}  // namespace tally
