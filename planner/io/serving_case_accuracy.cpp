// The serving model against published measured serving runs (serving_case_accuracy.h).
#include "planner/io/serving_case_accuracy.h"

#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/io/spec_json.h"
#include "planner/performance/engine.h"
#include "planner/serving/serving_engine.h"

namespace tally {

namespace {

constexpr std::string_view kServingAccuracyResource = "cases/serving_accuracy.json";

// How the shipped table names the batching a figure was measured under.
std::string_view batching_key(bool continuous) {
    return continuous ? "continuous" : "static";
}

}  // namespace

std::string_view to_string(ServingMetric metric) {
    switch (metric) {
        case ServingMetric::output_tokens_per_s:
            return "output_tokens_per_s";
        case ServingMetric::ttft:
            return "ttft";
        case ServingMetric::itl:
            return "itl";
    }
    return "?";
}

std::string_view metric_label(ServingMetric metric) {
    switch (metric) {
        case ServingMetric::output_tokens_per_s:
            return "output tokens/s";
        case ServingMetric::ttft:
            return "TTFT (ms)";
        case ServingMetric::itl:
            return "ITL (ms)";
    }
    return "?";
}

std::string serving_family_gpu(const HardwareProfile& hw) {
    const GpuGeneration generation = gpu_generation(hw);
    if (generation == GpuGeneration::other) {
        return hw.id.empty() ? std::string(to_string(generation)) : hw.id;
    }
    return std::string(to_string(generation));
}

std::string serving_family_label(const HardwareProfile& hw) {
    return gpu_generation(hw) == GpuGeneration::other && !hw.name.empty() ? hw.name
                                                                          : serving_family_gpu(hw);
}

std::string serving_engine_label(ServingEngine engine) {
    return std::string(serving_engine_profile(engine).label);
}

double speed_of_light_tokens_per_s(const PlanSpec& spec, const HardwareProfile& hw,
                                   const ServingPlan& plan) {
    const InferenceSpec& in = spec.inference;
    const double b = static_cast<double>(in.batch);
    const double p = static_cast<double>(in.prompt_tokens);
    const double o = static_cast<double>(in.output_tokens);
    // Steps 1..o read the cache at p + 1 .. p + o tokens: o·p + o(o + 1)/2 token-reads a sequence.
    const double kv_reads = b * (o * p + o * (o + 1.0) / 2.0) * plan.kv.bytes_per_token_per_gpu;
    const double bytes = o * plan.decode.weight_bytes + kv_reads;
    const double prefill_flops =
        plan.prefill.tokens > 0.0 ? plan.prefill.gemm_flops * b * p / plan.prefill.tokens : 0.0;
    const double peak = hw.peak(plan.gemm_type);
    const double seconds =
        bytes / hw.bandwidth_bytes_per_s + (peak > 0.0 ? prefill_flops / peak : 0.0);
    return seconds > 0.0 ? static_cast<double>(plan.replicas) * b * o / seconds : 0.0;
}

std::vector<ServingCaseResult> evaluate_serving_cases(const std::filesystem::path& dir) {
    const std::vector<std::filesystem::path> files = case_files(dir);
    std::vector<ServingCaseResult> out;
    for (const auto& path : files) {
        const PlanSpec spec = load_plan_spec(path.string());
        const MeasuredRun& m = spec.measured;
        if (m.output_tokens_per_s <= 0.0 && m.ttft_s <= 0.0 && m.itl_s <= 0.0) {
            continue;
        }
        const HardwareProfile& hw = resolve_builtin_hardware(spec);
        if (const auto error = check_inference(spec, hw)) {
            throw SpecError(error->field, path.filename().string() + ": " + error->value,
                            error->allowed);
        }
        const ServingPlan plan = evaluate_inference(spec, hw);
        ServingCaseResult r;
        r.file = path.filename().string();
        r.name = spec.name;
        r.engine = spec.inference.engine;
        r.gpu = serving_family_gpu(hw);
        r.continuous = plan.continuous.has_value();
        if (m.output_tokens_per_s > 0.0) {
            r.metric = ServingMetric::output_tokens_per_s;
            r.measured = m.output_tokens_per_s;
            // At a stated concurrency the source ran continuous batching; else a static batch.
            r.predicted = plan.continuous ? plan.continuous->tokens_per_s : plan.tokens_per_s;
            r.bound = plan.continuous ? 0.0 : speed_of_light_tokens_per_s(spec, hw, plan);
            out.push_back(r);
        }
        r.bound = 0.0;
        if (m.ttft_s > 0.0) {
            // At a concurrency, the steady state's time to first token; else the batch's prefill
            // (a batch of one prompt with one output token in the published tables).
            r.metric = ServingMetric::ttft;
            r.measured = m.ttft_s * 1e3;
            r.predicted = (plan.continuous ? plan.continuous->ttft_s : plan.prefill_s) * 1e3;
            out.push_back(r);
        }
        if (m.itl_s > 0.0) {
            r.metric = ServingMetric::itl;
            r.measured = m.itl_s * 1e3;
            r.predicted = (plan.continuous ? plan.continuous->itl_s : plan.decode_step_s) * 1e3;
            out.push_back(r);
        }
    }
    return out;
}

nlohmann::json serving_accuracy_json(const std::vector<ServingCaseResult>& results) {
    nlohmann::json cases = nlohmann::json::array();
    std::map<std::tuple<ServingEngine, std::string, bool, ServingMetric>, std::vector<double>>
        families;
    for (const ServingCaseResult& r : results) {
        cases.push_back({{"file", r.file},
                         {"engine", std::string(to_string(r.engine))},
                         {"gpu", r.gpu},
                         {"batching", std::string(batching_key(r.continuous))},
                         {"metric", std::string(to_string(r.metric))},
                         {"measured", r.measured},
                         {"predicted", r.predicted},
                         {"error", r.error()},
                         {"set_apart", r.above_bound()}});
        if (r.above_bound()) {
            continue;
        }
        families[{r.engine, r.gpu, r.continuous, r.metric}].push_back(r.error());
    }
    nlohmann::json fams = nlohmann::json::array();
    for (const auto& [key, errors] : families) {
        const ErrorBand b = band_of_errors(errors);
        fams.push_back({{"engine", std::string(to_string(std::get<0>(key)))},
                        {"gpu", std::get<1>(key)},
                        {"batching", std::string(batching_key(std::get<2>(key)))},
                        {"metric", std::string(to_string(std::get<3>(key)))},
                        {"count", b.count},
                        {"mean_abs_error", b.mean_abs_error},
                        {"worst_abs_error", b.worst_abs_error},
                        {"mean_error", b.mean_error}});
    }
    return {{"about",
             "Generated by tests/tst_serving_cases (scripts/serving-accuracy.sh) from "
             "docs/cases/serving: the serving model's predicted figures against each published "
             "run; error = predicted / measured - 1; figures above the speed-of-light bound are "
             "set apart and counted in no family"},
            {"families", fams},
            {"cases", cases}};
}

std::optional<ErrorBand> serving_error_band(ServingEngine engine, const std::string& gpu,
                                            bool continuous, ServingMetric metric) {
    static const nlohmann::json table = embedded_accuracy_table(kServingAccuracyResource);
    if (!table.contains("families")) {
        return std::nullopt;
    }
    for (const auto& f : table["families"]) {
        if (f["engine"].get<std::string>() == to_string(engine) &&
            f["gpu"].get<std::string>() == gpu &&
            f["batching"].get<std::string>() == batching_key(continuous) &&
            f["metric"].get<std::string>() == to_string(metric)) {
            return band_from_json(f);
        }
    }
    return std::nullopt;
}

nlohmann::json serving_error_band_json(ServingEngine engine, const std::string& gpu,
                                       bool continuous) {
    nlohmann::json out = nlohmann::json::object();
    for (ServingMetric metric : kServingMetrics) {
        const auto band = serving_error_band(engine, gpu, continuous, metric);
        nlohmann::json j = {{"engine", std::string(to_string(engine))},
                            {"gpu", gpu},
                            {"batching", std::string(batching_key(continuous))},
                            {"count", band ? band->count : 0}};
        if (band) {
            j["mean_abs_error"] = band->mean_abs_error;
            j["worst_abs_error"] = band->worst_abs_error;
            j["mean_error"] = band->mean_error;
        }
        out[std::string(to_string(metric))] = std::move(j);
    }
    return out;
}

}  // namespace tally
