// The step-time model against published measured runs (case_accuracy.h).
#include "planner/io/case_accuracy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/training/plan.h"
#include "resources/embedded_resources.h"

namespace tally {

namespace {

constexpr std::string_view kAccuracyResource = "cases/accuracy.json";

CaseResult result_of(const std::string& file, const PlanSpec& spec, const HardwareProfile& hw) {
    CaseResult r;
    r.file = file;
    r.name = spec.name;
    r.engine = spec.training.engine;
    r.generation = gpu_generation(hw);
    r.moe = band_moe(spec);
    const ComputeType compute = compute_type(spec.training.compute_dtype);
    r.precision = compute == ComputeType::fp8   ? "fp8"
                  : compute == ComputeType::fp4 ? "nvfp4"
                                                : "bf16";
    const Plan plan = evaluate(spec, hw);
    const PerformanceBreakdown& p = plan.performance;
    const MeasuredRun& m = spec.measured;
    const double gpus = static_cast<double>(spec.cluster.gpus);
    r.fits = plan.memory.fits;
    r.memory_bytes = plan.memory.total_bytes;
    r.capacity_bytes = plan.memory.capacity_bytes;
    if (m.tokens_per_s_per_gpu > 0.0) {
        r.metric = "tokens/s per GPU";
        r.measured = m.tokens_per_s_per_gpu;
        r.predicted = p.tokens_per_s / gpus;
        r.error = r.predicted / r.measured - 1.0;
    } else if (m.step_s > 0.0) {
        r.metric = "step (s)";
        r.measured = m.step_s;
        r.predicted = p.step_s;
        r.error = r.measured / r.predicted - 1.0;
    } else if (m.mfu > 0.0) {
        r.metric = "MFU";
        r.measured = m.mfu;
        r.predicted = p.mfu;
        r.error = r.predicted / r.measured - 1.0;
    } else {
        r.metric = "HFU (TFLOP/s per GPU)";
        r.measured = m.hardware_flops_per_s_per_gpu / 1e12;
        r.predicted = p.hfu * hw.peak(compute_type(spec.training.compute_dtype)) / 1e12;
        r.error = r.predicted / r.measured - 1.0;
    }
    return r;
}

}  // namespace

std::string engine_label(Engine engine) {
    switch (engine) {
        case Engine::megatron:
            return "Megatron-Core";
        case Engine::fsdp:
            return "PyTorch FSDP";
        case Engine::fsdp_compile:
            return "PyTorch FSDP + compile";
        case Engine::deepspeed:
            return "DeepSpeed";
    }
    return "?";
}

namespace {

std::string percent(double x) {
    return fmt::format("{:+.1f}%", 100.0 * x);
}

std::string unsigned_percent(double x) {
    return fmt::format("{:.1f}%", 100.0 * x);
}

}  // namespace

std::vector<std::filesystem::path> case_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.is_regular_file() && entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<CaseResult> evaluate_cases(const std::filesystem::path& dir) {
    const std::vector<std::filesystem::path> files = case_files(dir);
    std::vector<CaseResult> out;
    for (const auto& path : files) {
        const PlanSpec spec = load_plan_spec(path.string());
        if (spec.measured.empty() || spec.measured.source.empty()) {
            continue;
        }
        const HardwareProfile& hw = resolve_builtin_hardware(spec);
        if (const auto error = check(spec, hw)) {
            throw SpecError(error->field, path.filename().string() + ": " + error->value,
                            error->allowed);
        }
        out.push_back(result_of(path.filename().string(), spec, hw));
    }
    return out;
}

ErrorBand band_of_errors(const std::vector<double>& errors) {
    ErrorBand b;
    for (const double e : errors) {
        ++b.count;
        b.mean_abs_error += std::abs(e);
        b.mean_error += e;
        b.worst_abs_error = std::max(b.worst_abs_error, std::abs(e));
    }
    if (b.count > 0) {
        b.mean_abs_error /= b.count;
        b.mean_error /= b.count;
    }
    return b;
}

ErrorBand band_of(const std::vector<const CaseResult*>& cases) {
    std::vector<double> errors;
    errors.reserve(cases.size());
    for (const CaseResult* c : cases) {
        errors.push_back(c->error);
    }
    return band_of_errors(errors);
}

ErrorBand band_from_json(const nlohmann::json& family) {
    ErrorBand b;
    b.count = family["count"].get<int>();
    b.mean_abs_error = family["mean_abs_error"].get<double>();
    b.worst_abs_error = family["worst_abs_error"].get<double>();
    b.mean_error = family["mean_error"].get<double>();
    return b;
}

nlohmann::json embedded_accuracy_table(std::string_view resource) {
    for (const EmbeddedFile& f : embedded_files()) {
        if (f.path == resource) {
            return nlohmann::json::parse(f.contents);
        }
    }
    return nlohmann::json::object();
}

bool band_moe(const PlanSpec& spec) {
    return spec.model.kind == ModelKind::transformer && spec.model.moe.enabled();
}

nlohmann::json accuracy_json(const std::vector<CaseResult>& results) {
    nlohmann::json cases = nlohmann::json::array();
    std::map<std::pair<Engine, GpuGeneration>, std::vector<const CaseResult*>> families;
    // The same families split into dense and MoE runs (error_band() prefers these).
    std::map<std::tuple<Engine, GpuGeneration, bool>, std::vector<const CaseResult*>> by_model;
    for (const CaseResult& r : results) {
        cases.push_back({{"file", r.file},
                         {"engine", std::string(to_string(r.engine))},
                         {"generation", std::string(to_string(r.generation))},
                         {"moe", r.moe},
                         {"precision", r.precision},
                         {"metric", r.metric},
                         {"measured", r.measured},
                         {"predicted", r.predicted},
                         {"error", r.error},
                         {"fits", r.fits}});
        families[{r.engine, r.generation}].push_back(&r);
        by_model[{r.engine, r.generation, r.moe}].push_back(&r);
    }
    nlohmann::json fams = nlohmann::json::array();
    for (const auto& [key, members] : families) {
        const ErrorBand b = band_of(members);
        fams.push_back({{"engine", std::string(to_string(key.first))},
                        {"generation", std::string(to_string(key.second))},
                        {"count", b.count},
                        {"mean_abs_error", b.mean_abs_error},
                        {"worst_abs_error", b.worst_abs_error},
                        {"mean_error", b.mean_error}});
    }
    for (const auto& [key, members] : by_model) {
        const ErrorBand b = band_of(members);
        fams.push_back({{"engine", std::string(to_string(std::get<0>(key)))},
                        {"generation", std::string(to_string(std::get<1>(key)))},
                        {"model", std::get<2>(key) ? "MoE" : "dense"},
                        {"count", b.count},
                        {"mean_abs_error", b.mean_abs_error},
                        {"worst_abs_error", b.worst_abs_error},
                        {"mean_error", b.mean_error}});
    }
    return {{"about",
             "Generated by tests/tst_case_accuracy (TALLY_REGENERATE_CASES=1) from docs/cases: "
             "the step-time model's predicted throughput against each published run; error = "
             "predicted / measured - 1"},
            {"families", fams},
            {"cases", cases}};
}

std::string accuracy_markdown(const std::vector<CaseResult>& results) {
    std::string out;
    // By family: engine x generation, then dense/MoE and the precision within it.
    std::map<std::tuple<Engine, GpuGeneration, bool, std::string>, std::vector<const CaseResult*>>
        rows;
    std::vector<const CaseResult*> all;
    for (const CaseResult& r : results) {
        rows[{r.engine, r.generation, r.moe, r.precision}].push_back(&r);
        all.push_back(&r);
    }
    out += "| engine | GPU | model | precision | cases | mean abs error | worst | mean signed |\n";
    out += "|---|---|---|---|---|---|---|---|\n";
    for (const auto& [key, members] : rows) {
        const ErrorBand b = band_of(members);
        out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                           engine_label(std::get<0>(key)), to_string(std::get<1>(key)),
                           std::get<2>(key) ? "MoE" : "dense", std::get<3>(key), b.count,
                           unsigned_percent(b.mean_abs_error), unsigned_percent(b.worst_abs_error),
                           percent(b.mean_error));
    }
    const ErrorBand total = band_of(all);
    out += fmt::format("| all | | | | {} | {} | {} | {} |\n\n", total.count,
                       unsigned_percent(total.mean_abs_error),
                       unsigned_percent(total.worst_abs_error), percent(total.mean_error));
    out += "| case | measured | predicted | error | fits |\n";
    out += "|---|---|---|---|---|\n";
    for (const CaseResult& r : results) {
        out += fmt::format("| `{}` | {:.4g} {} | {:.4g} | {} | {} |\n", r.file, r.measured,
                           r.metric, r.predicted, percent(r.error), r.fits ? "yes" : "**no**");
    }
    return out;
}

std::optional<ErrorBand> error_band(Engine engine, GpuGeneration generation,
                                    std::optional<bool> moe) {
    static const nlohmann::json table = embedded_accuracy_table(kAccuracyResource);
    if (!table.contains("families")) {
        return std::nullopt;
    }
    // The dense (or MoE) runs of the family when there are enough of them to say something,
    // else the whole family.
    const std::string model = moe ? (*moe ? "MoE" : "dense") : std::string();
    std::optional<ErrorBand> whole;
    for (const auto& f : table["families"]) {
        if (f["engine"].get<std::string>() != to_string(engine) ||
            f["generation"].get<std::string>() != to_string(generation)) {
            continue;
        }
        ErrorBand b = band_from_json(f);
        if (!f.contains("model")) {
            whole = b;
        } else if (!model.empty() && f["model"].get<std::string>() == model &&
                   b.count >= kMinModelBandCases) {
            b.model = model;
            return b;
        }
    }
    return whole;
}

std::string error_band_text(Engine engine, GpuGeneration generation, std::optional<bool> moe) {
    const auto band = error_band(engine, generation, moe);
    if (!band || band->count == 0) {
        return fmt::format("no published {} {} run to compare with", engine_label(engine),
                           to_string(generation));
    }
    std::string text = fmt::format(
        "±{:.0f}% on {} published {} {}{}{} run{} (worst {:.0f}%)", 100.0 * band->mean_abs_error,
        band->count, engine_label(engine), to_string(generation), band->model.empty() ? "" : " ",
        band->model, band->count == 1 ? "" : "s", 100.0 * band->worst_abs_error);
    // Errors all one way are no ±: a run took 1 + e times the predicted time (e = predicted /
    // measured throughput - 1).
    if (band->count > 1 && band->mean_error > 0.0 &&
        band->mean_error >= band->mean_abs_error - 1e-9) {
        text += fmt::format(
            "; every one took longer than predicted: {:.2f}x the predicted time on average, up "
            "to {:.2f}x",
            1.0 + band->mean_error, 1.0 + band->worst_abs_error);
    } else if (band->count > 1 && band->mean_error < 0.0 &&
               -band->mean_error >= band->mean_abs_error - 1e-9) {
        text += fmt::format(
            "; every one ran faster than predicted: in {:.2f}x the predicted time on average",
            1.0 + band->mean_error);
    }
    return text;
}

nlohmann::json error_band_json(Engine engine, GpuGeneration generation, std::optional<bool> moe) {
    const auto band = error_band(engine, generation, moe);
    nlohmann::json j = {{"engine", std::string(to_string(engine))},
                        {"generation", std::string(to_string(generation))},
                        {"model", band && !band->model.empty() ? band->model : "all"},
                        {"count", band ? band->count : 0},
                        {"text", error_band_text(engine, generation, moe)}};
    if (band) {
        j["mean_abs_error"] = band->mean_abs_error;
        j["worst_abs_error"] = band->worst_abs_error;
        j["mean_error"] = band->mean_error;
    }
    return j;
}

}  // namespace tally
