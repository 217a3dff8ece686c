#pragma once

// How close the serving model comes to published measured serving runs: every
// docs/cases/serving/*.json is planned and each figure its source measured (output tokens/s,
// time to first token, inter-token latency) compared with the prediction. The results, by family
// (serving engine x GPU), ship as resources/cases/serving_accuracy.json (regenerated and checked
// by tests/tst_serving_cases.cpp, with docs/serving.md's table), so that a serving plan can say
// how sure each figure is: "output tokens/s ±25% on 48 published TensorRT-LLM H100/H200 runs".

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/io/case_accuracy.h"
#include "planner/serving/inference.h"

namespace tally {

// The figures a serving source measures.
enum class ServingMetric { output_tokens_per_s, ttft, itl };
inline constexpr ServingMetric kServingMetrics[] = {ServingMetric::output_tokens_per_s,
                                                    ServingMetric::ttft, ServingMetric::itl};
// The key in JSON: "output_tokens_per_s", "ttft", "itl".
std::string_view to_string(ServingMetric metric);
// How docs/serving.md names it: "output tokens/s", "TTFT (ms)", "ITL (ms)".
std::string_view metric_label(ServingMetric metric);

// The GPUs a serving family groups: the GPU generation ("A100", "H100/H200", "Blackwell"), or
// the part's own id for a part of no generation Tally groups (an L40S is judged by L40S runs).
std::string serving_family_gpu(const HardwareProfile& hw);
// The same family as a reader names it: the generation, or the part's name ("L40S 48GB").
std::string serving_family_label(const HardwareProfile& hw);

struct ServingCaseResult {
    std::string file;  // the case's file name
    std::string name;
    ServingEngine engine = ServingEngine::vllm;
    std::string gpu;  // serving_family_gpu() of the case's part
    // Measured under continuous batching at a stated concurrency; else a static batch.
    bool continuous = false;
    ServingMetric metric = ServingMetric::output_tokens_per_s;
    double measured = 0.0;   // tokens/s, or milliseconds for TTFT and ITL
    double predicted = 0.0;  // the same unit
    // For output tokens/s only: the most a static batch can reach on the part's datasheet
    // peaks (speed_of_light_tokens_per_s()); 0 for the latencies.
    double bound = 0.0;
    // Predicted / measured - 1: positive when the model gives more tokens/s (or a longer
    // latency) than measured.
    double error() const { return predicted / measured - 1.0; }
    // A published figure no run can reach on the stated part (the wrong precision, part or
    // lengths): set apart, left out of every band.
    bool above_bound() const { return bound > 0.0 && measured > bound; }
};

// The most output tokens/s a static batch can reach on the part's datasheet peaks, whatever the
// engine does: every decode step reads its GPU's weights (decode.weight_bytes: for a mixture of
// experts, the experts the batch touches) and the batch's KV cache, which grows by a token a
// step, and the prompts' GEMM FLOPs run once (Williams et al. 2009's roofline with the two costs
// added, as a step cannot overlap its own reads with another step's).
double speed_of_light_tokens_per_s(const PlanSpec& spec, const HardwareProfile& hw,
                                   const ServingPlan& plan);

// Every case in `dir` with a measured serving figure, planned on its built-in profile: one result
// per figure the source measured. Throws SpecError for a case that is not a valid serving spec.
std::vector<ServingCaseResult> evaluate_serving_cases(const std::filesystem::path& dir);

// The shipped table: {"about", "families": [{"engine", "gpu", "batching", "metric", "count",
// "mean_abs_error", "worst_abs_error", "mean_error"}], "cases": [...]}; batching is "static" or
// "continuous". Set-apart figures are
// listed among the cases and counted in no family.
nlohmann::json serving_accuracy_json(const std::vector<ServingCaseResult>& results);

// The published figures of this engine, GPU family, batching (continuous or static) and metric,
// from the shipped table; nullopt when there is none.
std::optional<ErrorBand> serving_error_band(ServingEngine engine, const std::string& gpu,
                                            bool continuous, ServingMetric metric);
// The engine as its makers name it: "vLLM", "TensorRT-LLM", ...
std::string serving_engine_label(ServingEngine engine);
// `tally infer --json`'s `error_band`: one entry per metric, each {engine, gpu, batching, count,
// and, when there are published figures, mean_abs_error, worst_abs_error, mean_error}.
nlohmann::json serving_error_band_json(ServingEngine engine, const std::string& gpu,
                                       bool continuous);

}  // namespace tally
