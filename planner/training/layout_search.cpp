// The layout search (layout_search.h): every valid parallel layout of a spec, evaluated with the
// performance model, the best kept. One evaluate() per candidate and no allocation in the loop.
#include "planner/training/layout_search.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "planner/performance/engine.h"
#include "planner/performance/performance.h"

namespace tally {

namespace {

// Up to this many micro-batch sizes per layout: the divisors of the per-rank batch up to 16
// sequences (a larger micro-batch only adds activation memory once GEMMs are large).
constexpr std::int64_t kMaxMicroBatch = 16;
// Context parallelism up to 16 ranks per sequence: Llama 3 used cp 16 for its 128k-token stage
// (Dubey et al. 2024, Table 4); a larger ring only splits sequences further than any published
// run did.
constexpr std::int64_t kMaxContextParallel = 16;

// The divisors of n up to `limit`, ascending, into `out`; returns how many.
template <std::size_t N>
std::size_t divisors(std::int64_t n, std::int64_t limit, std::array<std::int64_t, N>& out) {
    std::size_t count = 0;
    for (std::int64_t d = 1; d <= limit && d <= n && count < N; ++d) {
        if (n % d == 0) {
            out[count++] = d;
        }
    }
    return count;
}

bool tp_valid(const ModelSpec& m, std::int64_t tp) {
    switch (m.kind) {
        case ModelKind::params:
            return true;
        case ModelKind::mlp:
            return m.hidden % tp == 0;
        case ModelKind::transformer:
            if (m.heads % tp != 0) {
                return false;
            }
            if (!m.mla.enabled()) {
                return m.effective_kv_heads() % tp == 0;  // check.cpp: KV heads not replicated
            }
            return true;
    }
    return false;
}

// The scale-up domain the plan's network has (resolve_network(): the cluster's node, else the
// profile's, else a bridged pair); 0 where neither says.
std::int64_t node_size(const PlanSpec& spec, const HardwareProfile& hw) {
    const ResolvedNetwork network = resolve_network(spec.cluster, hw);
    return network.node_size_known ? network.network.gpus_per_node : 0;
}

double objective_of(const PlanSpec& spec, const HardwareProfile& hw, const Plan& plan,
                    LayoutObjective objective) {
    const double step = plan.performance.step_s;
    if (objective == LayoutObjective::time) {
        return step;
    }
    const double gpu_hours =
        step * plan.parallel.steps * static_cast<double>(spec.cluster.gpus) / 3600.0;
    const std::optional<double> price =
        spec.cluster.price_per_gpu_hour ? spec.cluster.price_per_gpu_hour : hw.price_per_gpu_hour;
    return price ? gpu_hours * *price : gpu_hours;
}

}  // namespace

PlanSpec apply_layout(const PlanSpec& base, std::int64_t global_batch, const Layout& layout) {
    PlanSpec s = base;
    s.data.global_batch = global_batch;
    s.data.micro_batch = layout.micro_batch;
    s.training.tp = layout.tp;
    s.training.pp = layout.pp;
    s.training.zero = layout.zero;
    s.training.recompute = layout.recompute;
    // The spec's recompute modules go with selective recomputation only (check()).
    if (layout.recompute != Recompute::selective) {
        s.training.recompute_modules = {};
    }
    s.training.sequence_parallel = layout.sequence_parallel;
    s.training.interleave = layout.interleave;
    s.training.expert_parallel = layout.expert_parallel;
    s.training.context_parallel = layout.context_parallel;
    if (layout.pp != base.training.pp) {
        // The base's own first/last stage sizes were for its pipeline: another spreads the layers
        // as the engines do (pipeline_stages.h).
        s.training.first_stage_layers = 0;
        s.training.last_stage_layers = 0;
    }
    return s;
}

Layout layout_of(const PlanSpec& spec) {
    const TrainingSpec& t = spec.training;
    Layout l;
    l.tp = t.tp;
    l.pp = t.pp;
    l.dp = t.tp > 0 && t.pp > 0 && t.context_parallel > 0
               ? spec.cluster.gpus / (t.tp * t.pp * t.context_parallel)
               : 0;
    l.micro_batch = spec.data.micro_batch;
    l.interleave = t.interleave;
    l.expert_parallel = t.expert_parallel;
    l.context_parallel = t.context_parallel;
    l.zero = t.zero;
    l.recompute = t.recompute;
    l.sequence_parallel = t.sequence_parallel;
    return l;
}

std::optional<std::int64_t> search_global_batch(const PlanSpec& spec) {
    if (spec.data.global_batch > 0) {
        return spec.data.global_batch;
    }
    const std::int64_t tp = spec.training.tp, pp = spec.training.pp;
    const std::int64_t cp = spec.training.context_parallel;
    if (tp < 1 || pp < 1 || cp < 1 || spec.cluster.gpus < 1 || spec.data.micro_batch < 1 ||
        spec.cluster.gpus % tp != 0 || (spec.cluster.gpus / tp) % pp != 0 ||
        (spec.cluster.gpus / (tp * pp)) % cp != 0) {
        return std::nullopt;
    }
    std::int64_t global = 0;
    if (__builtin_mul_overflow(spec.data.micro_batch, spec.cluster.gpus / (tp * pp * cp),
                               &global)) {
        return std::nullopt;
    }
    return global;
}

std::optional<FieldError> check_layout_search(const PlanSpec& spec, const HardwareProfile& hw) {
    if (spec.data.global_batch < 0) {
        return FieldError::of("data.global_batch", std::to_string(spec.data.global_batch),
                              TALLY_TEXT("tally::check", "must be an integer >= 1"));
    }
    const std::optional<std::int64_t> global = search_global_batch(spec);
    if (!global) {
        return FieldError::of(
            "data.global_batch", kValueAbsent,
            TALLY_TEXT("tally::check",
                       "must be given to search layouts when training.tp x training.pp (%1 x %2) "
                       "does not divide cluster.gpus (%3): the search keeps the sequences per "
                       "step, and without it they are micro_batch x data-parallel size of the "
                       "spec's own layout")
                .arg(spec.training.tp)
                .arg(spec.training.pp)
                .arg(spec.cluster.gpus));
    }
    // The spec with a layout every cluster has (one GPU per model copy, one sequence per
    // micro-batch, no sharding or schedule of its own): what check() then refuses is not the
    // layout's doing.
    PlanSpec neutral = spec;
    TrainingSpec& t = neutral.training;
    t.tp = 1;
    t.pp = 1;
    t.interleave = 1;
    t.expert_parallel = 1;
    t.context_parallel = 1;
    t.first_stage_layers = 0;
    t.last_stage_layers = 0;
    t.sequence_parallel = false;
    neutral.data.micro_batch = 1;
    neutral.data.global_batch = 0;  // micro_batch x dp: whole by construction
    return check(neutral, hw);
}

LayoutSearchResult search_layouts(const PlanSpec& spec, const HardwareProfile& hw, std::size_t top,
                                  LayoutObjective objective) {
    if (auto error = check_layout_search(spec, hw)) {
        throw SpecError(*error);
    }
    LayoutSearchResult result;
    const ModelSpec& m = spec.model;
    const std::int64_t gpus = spec.cluster.gpus;
    result.global_batch = *search_global_batch(spec);
    const std::int64_t global = result.global_batch;
    result.best.reserve(top + 1);

    // Tensor parallelism stays inside one scale-up domain (Narayanan et al. 2021, sec. 3.3:
    // across nodes its all-reduces would cross the slower network).
    const std::int64_t node = node_size(spec, hw);
    const std::int64_t tp_limit = node > 0 ? std::min(node, gpus) : gpus;
    const std::int64_t layers = m.kind == ModelKind::params ? 0 : m.layers;
    const bool moe = m.kind == ModelKind::transformer && m.moe.enabled();
    const bool zero3_only = spec.training.offload == Offload::optimizer_and_params;
    const bool modules_beyond_core = spec.training.recompute_modules.beyond_core();

    std::array<std::int64_t, 64> tps{};
    const std::size_t n_tp = divisors(gpus, tp_limit, tps);
    PlanSpec candidate = spec;
    candidate.data.global_batch = global;

    for (std::size_t i_tp = 0; i_tp < n_tp; ++i_tp) {
        const std::int64_t tp = tps[i_tp];
        if (!tp_valid(m, tp)) {
            continue;
        }
        for (std::int64_t pp = 1; pp <= gpus / tp; ++pp) {
            if (layers > 0 && pp > layers) {
                break;
            }
            // Stages need not hold equal layers: pipeline_stages.h spreads the remainder as
            // Megatron-Core does (interleaving only with even stages).
            if ((gpus / tp) % pp != 0) {
                continue;
            }
            const bool even = layers == 0 || layers % pp == 0;
            candidate.training.first_stage_layers =
                pp == spec.training.pp ? spec.training.first_stage_layers : 0;
            candidate.training.last_stage_layers =
                pp == spec.training.pp ? spec.training.last_stage_layers : 0;
            // Context parallelism (ring attention) in powers of two up to kMaxContextParallel,
            // each rank taking two of 2·cp equal chunks of a sequence (check()): transformers
            // with a fused attention kernel only.
            for (std::int64_t cp = 1; cp <= kMaxContextParallel; cp *= 2) {
                if (cp > 1 && (m.kind != ModelKind::transformer || !spec.training.flash_attention ||
                               spec.data.seq_len % (2 * cp) != 0)) {
                    break;
                }
                if ((gpus / (tp * pp)) % cp != 0) {
                    break;
                }
                const std::int64_t dp = gpus / (tp * pp * cp);
                candidate.training.context_parallel = cp;
                if (global % dp != 0) {
                    continue;
                }
                std::array<std::int64_t, 32> mbs{};
                const std::size_t n_mb = divisors(global / dp, kMaxMicroBatch, mbs);
                for (std::size_t i_mb = 0; i_mb < n_mb; ++i_mb) {
                    const std::int64_t mb = mbs[i_mb];
                    const std::int64_t microbatches = global / (mb * dp);
                    std::array<std::int64_t, 32> vs{};
                    std::size_t n_v = 1;
                    vs[0] = 1;
                    if (pp > 1 && layers > 0 && even && microbatches % pp == 0) {
                        n_v = divisors(layers / pp, layers / pp, vs);
                    }
                    std::array<std::int64_t, 32> eps{};
                    std::size_t n_ep = 1;
                    eps[0] = 1;
                    if (moe) {
                        n_ep = 0;
                        for (std::int64_t e = 1; e <= dp && n_ep < eps.size(); ++e) {
                            if (dp % e == 0 && m.moe.experts % e == 0) {
                                eps[n_ep++] = e;
                            }
                        }
                    }
                    for (std::size_t i_v = 0; i_v < n_v; ++i_v) {
                        for (std::size_t i_ep = 0; i_ep < n_ep; ++i_ep) {
                            for (int zero = zero3_only ? 3 : 0; zero <= 3; ++zero) {
                                // ZeRO shards over the data- and context-parallel ranks
                                // together (Megatron-Core's distributed optimizer over its
                                // dp x cp group; accounting.cpp): only dp = cp = 1 leaves
                                // nothing to shard over.
                                if (zero > 0 && dp * cp == 1) {
                                    break;
                                }
                                // The stages the engine's framework has (offloading the
                                // parameters asks for ZeRO-3 whatever the engine).
                                if (!zero3_only &&
                                    !engine_has_zero_stage(spec.training.engine, zero)) {
                                    continue;
                                }
                                for (Recompute rc :
                                     {Recompute::none, Recompute::selective, Recompute::full}) {
                                    // Selective recomputation drops the attention scores, which
                                    // flash attention (and a model without attention) never keeps:
                                    // the same layout as none (Korthikanti et al. 2022, sec. 5).
                                    // The spec's recompute modules beyond the core do drop
                                    // activations, with or without flash attention.
                                    if (rc == Recompute::selective && !modules_beyond_core &&
                                        (m.kind != ModelKind::transformer ||
                                         spec.training.flash_attention)) {
                                        continue;
                                    }
                                    for (int sp = 0; sp <= (tp > 1 ? 1 : 0); ++sp) {
                                        if (sp == 1 && m.kind != ModelKind::transformer) {
                                            continue;
                                        }
                                        // Megatron-Core stops an MoE layer that trains under
                                        // tensor parallelism without sequence parallelism
                                        // (core_v0.12.0 moe_layer.py, MoELayer.forward).
                                        if (sp == 0 && tp > 1 && m.moe.enabled() &&
                                            spec.training.engine == Engine::megatron) {
                                            continue;
                                        }
                                        Layout l;
                                        l.tp = tp;
                                        l.pp = pp;
                                        l.dp = dp;
                                        l.micro_batch = mb;
                                        l.interleave = vs[i_v];
                                        l.expert_parallel = eps[i_ep];
                                        l.context_parallel = cp;
                                        l.zero = zero;
                                        l.recompute = rc;
                                        l.sequence_parallel = sp == 1;
                                        TrainingSpec& t = candidate.training;
                                        candidate.data.micro_batch = mb;
                                        t.tp = tp;
                                        t.pp = pp;
                                        t.zero = zero;
                                        t.recompute = rc;
                                        t.sequence_parallel = l.sequence_parallel;
                                        t.interleave = l.interleave;
                                        t.expert_parallel = l.expert_parallel;
                                        ++result.candidates;
                                        const Plan plan = evaluate(candidate, hw);
                                        if (!plan.memory.fits) {
                                            continue;
                                        }
                                        ++result.feasible;
                                        RankedLayout r{l, plan.performance.step_s,
                                                       objective_of(candidate, hw, plan, objective),
                                                       plan.memory.total_bytes,
                                                       plan.performance.mfu};
                                        if (result.best.size() == top &&
                                            (top == 0 ||
                                             r.objective >= result.best.back().objective)) {
                                            continue;
                                        }
                                        auto at = std::upper_bound(
                                            result.best.begin(), result.best.end(), r,
                                            [](const RankedLayout& a, const RankedLayout& b) {
                                                return a.objective < b.objective;
                                            });
                                        result.best.insert(at, r);
                                        if (result.best.size() > top) {
                                            result.best.pop_back();
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    return result;
}

std::optional<MinGpusResult> solve_min_gpus(const PlanSpec& spec, const HardwareProfile& hw,
                                            double days, std::int64_t max_gpus) {
    const std::int64_t node = std::max<std::int64_t>(node_size(spec, hw), 1);
    if (auto error = check_layout_search(spec, hw)) {
        throw SpecError(*error);
    }
    const std::int64_t global = *search_global_batch(spec);
    std::int64_t tried = 0;
    // The best layout's training days on `nodes` nodes, or nullopt when no layout fits.
    auto attempt = [&](std::int64_t nodes) -> std::optional<MinGpusResult> {
        PlanSpec s = spec;
        s.cluster.gpus = nodes * node;
        // The layout the spec gives may not divide a different cluster; start from tp = pp = 1
        // (the search varies them anyway) with the spec's global batch.
        s.training.tp = 1;
        s.training.pp = 1;
        s.training.interleave = 1;
        s.training.expert_parallel = 1;
        s.training.context_parallel = 1;
        s.training.first_stage_layers = 0;
        s.training.last_stage_layers = 0;
        s.data.global_batch = global;
        ++tried;
        const LayoutSearchResult r = search_layouts(s, hw, 1, LayoutObjective::time);
        if (r.best.empty()) {
            return std::nullopt;
        }
        const Plan plan = evaluate(apply_layout(s, r.global_batch, r.best.front().layout), hw);
        MinGpusResult out;
        out.gpus = s.cluster.gpus;
        out.best = r.best.front();
        // The days as the plan times them: the predicted step, or with an assumed cluster.mfu
        // the lecture's FLOPs / (peak x MFU x GPUs) (the layout then only has to fit).
        out.time = plan.time;
        return out;
    };
    auto meets = [&](const std::optional<MinGpusResult>& r) { return r && r->time.days <= days; };
    // Doubling to bracket the answer, up to the largest whole number of nodes max_gpus allows,
    // then bisection, assuming that more nodes never make the best layout slower.
    const std::int64_t max_nodes = max_gpus / node;
    if (max_nodes < 1) {
        return std::nullopt;
    }
    std::int64_t low = 0;  // nodes known too few
    std::int64_t high = 1;
    std::optional<MinGpusResult> found = attempt(high);
    while (!meets(found)) {
        if (high >= max_nodes) {
            return std::nullopt;
        }
        low = high;
        high = std::min(high * 2, max_nodes);
        found = attempt(high);
    }
    while (high - low > 1) {
        const std::int64_t mid = low + (high - low) / 2;
        std::optional<MinGpusResult> r = attempt(mid);
        if (meets(r)) {
            high = mid;
            found = r;
        } else {
            low = mid;
        }
    }
    found->clusters_tried = tried;
    return found;
}

}  // namespace tally
