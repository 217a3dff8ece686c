// evaluate() speed (the target: under 1 µs per full evaluation on the CI machine).
#include <benchmark/benchmark.h>

#include <algorithm>

#include "planner/hardware/hardware.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/performance/plan_gemms.h"
#include "planner/training/plan.h"

namespace {

tally::PlanSpec llama_2_70b_spec() {
    tally::PlanSpec s;
    s.model = tally::find_model_preset("llama-2-70b")->model;
    s.data.tokens = 2e12;
    s.data.seq_len = 4096;
    s.data.global_batch = 1024;
    s.cluster.gpus = 2048;
    s.training.tp = 8;
    s.training.pp = 4;
    s.training.zero = 1;
    s.training.sequence_parallel = true;
    s.training.recompute = tally::Recompute::selective;
    return s;
}

void BM_EvaluateLlama2_70B(benchmark::State& state) {
    const tally::PlanSpec spec = llama_2_70b_spec();
    const tally::HardwareProfile& hw = *tally::find_builtin_hardware("h100-sxm");
    for (auto _ : state) {
        tally::Plan plan = tally::evaluate(spec, hw);
        benchmark::DoNotOptimize(plan);
    }
}
BENCHMARK(BM_EvaluateLlama2_70B);

void BM_CheckAndEvaluateLlama2_70B(benchmark::State& state) {
    const tally::PlanSpec spec = llama_2_70b_spec();
    const tally::HardwareProfile& hw = *tally::find_builtin_hardware("h100-sxm");
    for (auto _ : state) {
        auto error = tally::check(spec, hw);
        benchmark::DoNotOptimize(error);
        tally::Plan plan = tally::evaluate(spec, hw);
        benchmark::DoNotOptimize(plan);
    }
}
BENCHMARK(BM_CheckAndEvaluateLlama2_70B);

// A measured profile with a time for every GEMM of the plan (as `tally probe --plan` gives): each
// GEMM the model times is a binary search over them.
void BM_EvaluateLlama2_70B_MeasuredGemms(benchmark::State& state) {
    const tally::PlanSpec spec = llama_2_70b_spec();
    tally::HardwareProfile hw = *tally::find_builtin_hardware("h100-sxm");
    for (const tally::PlanGemm& g : tally::plan_gemms(spec)) {
        hw.measured_gemms.push_back(tally::MeasuredGemm{g.type, g.m, g.n, g.k, g.count, 1e-3});
    }
    std::sort(hw.measured_gemms.begin(), hw.measured_gemms.end(), tally::measured_gemm_before);
    for (auto _ : state) {
        tally::Plan plan = tally::evaluate(spec, hw);
        benchmark::DoNotOptimize(plan);
    }
}
BENCHMARK(BM_EvaluateLlama2_70B_MeasuredGemms);

void BM_EvaluateDeepSeekV3(benchmark::State& state) {
    tally::PlanSpec spec = llama_2_70b_spec();
    spec.model = tally::find_model_preset("deepseek-v3")->model;
    spec.training.tp = 1;
    spec.training.pp = 1;
    const tally::HardwareProfile& hw = *tally::find_builtin_hardware("h100-sxm");
    for (auto _ : state) {
        tally::Plan plan = tally::evaluate(spec, hw);
        benchmark::DoNotOptimize(plan);
    }
}
BENCHMARK(BM_EvaluateDeepSeekV3);

}  // namespace

BENCHMARK_MAIN();
