// Layout search speed (the target: a 1T-parameter model on 4096 GPUs, at least 1e4 candidates,
// under 50 ms median on the CI machine).
#include <benchmark/benchmark.h>

#include "planner/hardware/hardware.h"
#include "planner/training/layout_search.h"
#include "planner/training/plan.h"

namespace {

// The 1T-parameter GPT of Narayanan et al. 2021, Table 1 (128 layers, hidden 25600, 160 heads,
// sequence 2048, vocabulary 51200: 1.008e12 parameters; attention without flash, as then) on 4096
// H100 with 16384 sequences (33.6M tokens) per step, on Megatron-Core (ZeRO 0 and 1): 5556 layouts.
tally::PlanSpec trillion_spec() {
    tally::PlanSpec s;
    s.model.kind = tally::ModelKind::transformer;
    s.model.layers = 128;
    s.model.hidden = 25600;
    s.model.heads = 160;
    s.model.ffn_hidden = 4 * 25600;
    s.model.vocab = 51200;
    s.model.ffn = tally::FfnKind::gelu;
    s.model.norm = tally::NormKind::layernorm;
    s.data.tokens = 450e9;
    s.data.seq_len = 2048;
    s.data.global_batch = 16384;
    s.cluster.gpu = "h100-sxm";
    s.cluster.gpus = 4096;
    s.cluster.mfu_predicted = true;
    s.training.tp = 8;
    s.training.pp = 64;
    s.training.flash_attention = false;
    return s;
}

// Searches `spec` on the H100 for the ten best layouts, counting the candidates.
void search(benchmark::State& state, const tally::PlanSpec& spec) {
    const tally::HardwareProfile& hw = *tally::find_builtin_hardware("h100-sxm");
    std::int64_t candidates = 0;
    for (auto _ : state) {
        tally::LayoutSearchResult r =
            tally::search_layouts(spec, hw, 10, tally::LayoutObjective::time);
        candidates = r.candidates;
        benchmark::DoNotOptimize(r);
    }
    state.counters["candidates"] = static_cast<double>(candidates);
}

void BM_SearchLayouts1T4096(benchmark::State& state) {
    search(state, trillion_spec());
}
BENCHMARK(BM_SearchLayouts1T4096)->Unit(benchmark::kMillisecond);

// The same model with flash attention, so that context parallelism (cp 1 to 16, ring attention
// needs the fused kernel) joins the search space.
void BM_SearchLayouts1T4096ContextParallel(benchmark::State& state) {
    tally::PlanSpec spec = trillion_spec();
    spec.training.flash_attention = true;
    search(state, spec);
}
BENCHMARK(BM_SearchLayouts1T4096ContextParallel)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
