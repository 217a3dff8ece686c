// Serving planner speed: one serving plan (target under 2 us) and a 64-point concurrency sweep
// (target under 1 ms median), Llama 3 70B on 8 H100 in vLLM.
#include <benchmark/benchmark.h>

#include <vector>

#include "planner/hardware/hardware.h"
#include "planner/io/presets.h"
#include "planner/serving/inference.h"

namespace {

tally::PlanSpec llama_3_70b_serving() {
    tally::PlanSpec s;
    s.model = tally::find_model_preset("llama-3-70b")->model;
    s.cluster.gpu = "h100-sxm";
    s.cluster.gpus = 8;
    s.inference.tp = 8;
    s.inference.batch = 64;
    s.inference.prompt_tokens = 1024;
    s.inference.output_tokens = 256;
    return s;
}

void BM_ServingPlan(benchmark::State& state) {
    const tally::PlanSpec spec = llama_3_70b_serving();
    const tally::HardwareProfile& hw = *tally::find_builtin_hardware("h100-sxm");
    for (auto _ : state) {
        tally::ServingPlan plan = tally::evaluate_inference(spec, hw);
        benchmark::DoNotOptimize(plan);
    }
}
BENCHMARK(BM_ServingPlan);

void BM_ConcurrencySweep64(benchmark::State& state) {
    const tally::PlanSpec spec = llama_3_70b_serving();
    const tally::HardwareProfile& hw = *tally::find_builtin_hardware("h100-sxm");
    std::vector<double> concurrencies;
    for (int i = 1; i <= 64; ++i) {
        concurrencies.push_back(4.0 * i);  // 4 .. 256
    }
    for (auto _ : state) {
        auto sweep = tally::concurrency_sweep(spec, hw, concurrencies);
        benchmark::DoNotOptimize(sweep);
    }
}
BENCHMARK(BM_ConcurrencySweep64);

}  // namespace

BENCHMARK_MAIN();
