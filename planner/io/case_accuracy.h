#pragma once

// How close the step-time model comes to published measured runs: every docs/cases/*.json with
// a `measured` block is planned and its predicted throughput compared with what was measured.
// The results, by family (engine x GPU generation), ship as resources/cases/accuracy.json
// (regenerated and checked by tests/tst_case_accuracy.cpp), so that a plan can say how sure the
// prediction is: performance.error_band, "±8% on 12 published Megatron-Core H100 runs".

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "planner/core/spec.h"
#include "planner/performance/engine.h"

namespace tally {

struct CaseResult {
    std::string file;  // the case's file name
    std::string name;
    Engine engine = Engine::megatron;
    GpuGeneration generation = GpuGeneration::other;
    bool moe = false;
    // What the linear layers' GEMMs run in: "bf16" (the 16-bit or wider runs), "fp8", "nvfp4".
    std::string precision = "bf16";
    std::string metric;  // what the source measured: "tokens/s per GPU", "step", "MFU", "HFU"
    double measured = 0.0;
    double predicted = 0.0;
    // Predicted throughput / measured throughput - 1 (positive: the model is too fast). For a
    // step time, measured step / predicted step - 1; for MFU or hardware FLOP/s, their ratio.
    double error = 0.0;
    bool fits = true;
    double memory_bytes = 0.0;    // the plan's most loaded GPU
    double capacity_bytes = 0.0;  // the part's
};

// The JSON files of a cases folder, sorted by name.
std::vector<std::filesystem::path> case_files(const std::filesystem::path& dir);

// Every case in `dir` with a measured figure, planned on its built-in profile. Throws SpecError
// for a case that is not a valid spec (every case must stay one).
std::vector<CaseResult> evaluate_cases(const std::filesystem::path& dir);

// Mean and worst absolute error of a set of cases.
struct ErrorBand {
    int count = 0;
    std::string model;  // "dense" or "MoE" when only those runs of the family count; else empty
    double mean_abs_error = 0.0;
    double worst_abs_error = 0.0;
    double mean_error = 0.0;  // signed
};
ErrorBand band_of(const std::vector<const CaseResult*>& cases);
// The same of a set of errors (predicted / measured - 1), for tables of other figures.
ErrorBand band_of_errors(const std::vector<double>& errors);
// A family of a shipped accuracy table ({"count", "mean_abs_error", "worst_abs_error",
// "mean_error"}) as a band.
ErrorBand band_from_json(const nlohmann::json& family);
// A shipped accuracy table (resources/cases/...), parsed; an empty object when it is missing.
nlohmann::json embedded_accuracy_table(std::string_view resource);

// The shipped table: {"cases": [...], "families": [{"engine", "generation", "count",
// "mean_abs_error", "worst_abs_error", "mean_error"}]}.
nlohmann::json accuracy_json(const std::vector<CaseResult>& results);
// The tables docs/planner.md shows: by family (engine x generation, dense/MoE, precision) and
// every case.
std::string accuracy_markdown(const std::vector<CaseResult>& results);

// The published cases of the same engine and GPU generation, from the shipped table; nullopt
// when there is none. Given whether the plan is MoE, only the family's MoE (or dense) runs count
// when there are at least kMinModelBandCases of them: a dense plan is not judged by MoE runs.
inline constexpr int kMinModelBandCases = 3;
std::optional<ErrorBand> error_band(Engine engine, GpuGeneration generation,
                                    std::optional<bool> moe = std::nullopt);
// The engine as the sources name it: "Megatron-Core", "PyTorch FSDP", ...
std::string engine_label(Engine engine);
// The sentence the Time panel shows beside the predicted step: "±8% on 12 published
// Megatron-Core H100/H200 runs (worst 15%)", or that there is no comparable case.
std::string error_band_text(Engine engine, GpuGeneration generation,
                            std::optional<bool> moe = std::nullopt);
nlohmann::json error_band_json(Engine engine, GpuGeneration generation,
                               std::optional<bool> moe = std::nullopt);
// Whether a plan counts as MoE for the band (as the cases are sorted).
bool band_moe(const PlanSpec& spec);

}  // namespace tally
