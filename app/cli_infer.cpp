// `tally infer`, `tally solve max-batch`: serving plans from the command line.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli.h"
#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/io/serving_json.h"
#include "planner/io/spec_json.h"
#include "planner/serving/inference.h"
#include "planner/text/report.h"

namespace tally::cli {

namespace {

// Loads, resolves and checks a spec for serving; SpecError on any problem.
std::pair<PlanSpec, HardwareProfile> load_servable(const std::string& path, CliState& state) {
    PlanSpec spec = load_plan_spec(path);
    HardwareProfile hw = resolve_gpu(spec, state);
    if (auto error = check_inference(spec, hw)) {
        throw SpecError(*error);
    }
    return {std::move(spec), std::move(hw)};
}

std::string seconds_text(double s) {
    if (s < 1e-3) {
        return fmt::format("{:.4g} us", s * 1e6);
    }
    if (s < 1.0) {
        return fmt::format("{:.4g} ms", s * 1e3);
    }
    return fmt::format("{:.4g} s", s);
}

void print_phase(const char* title, const ServingPhase& p) {
    fmt::print("{}\n", title);
    fmt::print("  weight GEMMs  {:>10}  (compute {}, weights read {} = {})\n",
               seconds_text(p.gemm_s), seconds_text(p.gemm_compute_s),
               seconds_text(p.gemm_memory_s), gb_text(p.weight_bytes));
    fmt::print("  attention     {:>10}  (compute {}, KV cache {} = {})\n",
               seconds_text(p.attention_s), seconds_text(p.attention_compute_s),
               seconds_text(p.attention_memory_s), gb_text(p.kv_bytes));
    fmt::print("  all-reduces   {:>10}  ({:g} of {:.4g} B; latency {}, bandwidth {})\n",
               seconds_text(p.comm_s), p.all_reduces, p.all_reduce_bytes,
               seconds_text(p.comm_latency_s), seconds_text(p.comm_bandwidth_s));
    fmt::print(
        "  small kernels {:>10}  (engine's norms, rotary, KV write, sampling at their floors)\n",
        seconds_text(p.fixed_s));
    fmt::print("  total         {:>10}\n\n", seconds_text(p.seconds));
}

void print_serving_table(const PlanSpec& spec, const HardwareProfile& hw, const ServingPlan& s) {
    const InferenceSpec& in = spec.inference;
    fmt::print("Serving {} on {} x {} (replicas: {} of tp {})\n",
               spec.name.empty() ? spec.model.name : spec.name, spec.cluster.gpus, hw.name,
               s.replicas, in.tp);
    fmt::print(
        "Batch {} sequences, prompt {} + output {} tokens; weights {}, KV cache {}; GEMMs in {}, "
        "{} attention\n\n",
        in.batch, in.prompt_tokens, in.output_tokens, to_string(in.weight_dtype),
        to_string(in.kv_dtype), to_string(s.gemm_type), to_string(s.kv.kind));

    const ServingMemory& m = s.memory;
    fmt::print("Memory per GPU (GB = 1e9 bytes; GiB = 2^30 bytes, as nvidia-smi shows)\n");
    fmt::print("  weights       {}\n", gb_gib_columns(m.weights_bytes));
    fmt::print("  KV cache      {}\n", gb_gib_columns(m.kv_cache_bytes));
    fmt::print("  activations   {}\n", gb_gib_columns(m.activation_bytes));
    fmt::print("  total         {}   of {:.2f} GB: {}\n", gb_gib_columns(m.total_bytes),
               to_gb(m.capacity_bytes), m.fits ? "fits" : "DOES NOT FIT");
    fmt::print("  KV per token  {:.10g} bytes ({:.10g} per GPU)\n", s.kv.bytes_per_token,
               s.kv.bytes_per_token_per_gpu);
    fmt::print("  max batch     {} (at {} tokens of context)\n\n", s.max_batch,
               in.prompt_tokens + in.output_tokens);

    const ServingEngineProfile& engine = serving_engine_profile(in.engine);
    fmt::print(
        "Engine {}: CUDA graphs up to batch {}, {} small kernels a layer, {} attention, {} "
        "all-reduce\n  [{}]\n\n",
        engine.label, engine.cuda_graph_max_batch, engine.small_kernels_per_layer,
        engine.attention_kernel, to_string(engine.all_reduce), engine.source);
    print_phase("One prefill pass (per GPU)", s.prefill);
    print_phase("Decode step at the final context (per GPU)", s.decode);

    if (s.continuous) {
        const ContinuousBatchingPoint& cb = *s.continuous;
        fmt::print("Continuous batching at concurrency {:.4g} ({} prefill, {} tokens a step)\n",
                   cb.concurrency, in.chunked_prefill ? "chunked" : "separate",
                   in.max_batched_tokens);
        fmt::print("  time to first token   {}\n", seconds_text(cb.ttft_s));
        fmt::print("  inter-token latency   {}\n", seconds_text(cb.itl_s));
        fmt::print("  request end to end    {}\n", seconds_text(cb.e2e_s));
        fmt::print("  throughput            {:.4g} output tokens/s ({:.4g} requests/s){}\n\n",
                   cb.tokens_per_s, cb.requests_per_s,
                   cb.fits ? "" : "; the KV cache of that many sequences DOES NOT FIT");
    }
    fmt::print("Static batch: latency and throughput\n");
    fmt::print("  time to first token   {} (the batch's prefill)\n", seconds_text(s.prefill_s));
    fmt::print("  decode step           {}\n", seconds_text(s.decode_step_s));
    fmt::print("  per sequence          {:.4g} tokens/s\n", s.per_sequence_tokens_per_s);
    fmt::print("  whole deployment      {:.4g} output tokens/s\n", s.tokens_per_s);
    if (s.cost_per_million_tokens) {
        fmt::print("  cost                  {:.4g} per million output tokens\n",
                   *s.cost_per_million_tokens);
    } else {
        fmt::print("  cost                  - (no price: set cluster.price_per_gpu_hour)\n");
    }
    if (s.critical_batch > 0) {
        fmt::print("  critical batch        {} (decode GEMMs compute-bound from here)\n\n",
                   s.critical_batch);
    } else {
        fmt::print("  critical batch        - (decode GEMMs stay memory-bound)\n\n");
    }

    fmt::print("How each figure is computed\n");
    for (const Explanation& e : explain_inference(spec, hw, s)) {
        fmt::print("  {:<30} {} = {}\n  {:<30} [{}]\n", e.label, e.formula, e.substitution, "",
                   e.source);
    }
    const auto warnings = serving_warning_messages(s, spec, hw);
    if (!warnings.empty()) {
        fmt::print("\nWarnings\n");
        for (const std::string& w : warnings) {
            fmt::print("  - {}\n", w);
        }
    }
}

}  // namespace

void register_infer_commands(CLI::App& app, CliState& state) {
    struct Options {
        std::string spec;
        bool json = false;
        std::int64_t concurrency = 0;
        double request_rate = 0.0;
    };
    auto opts = std::make_shared<Options>();

    auto* infer = app.add_subcommand(
        "infer",
        "Plan serving: memory per GPU, KV cache, time to first token, decode step, throughput, "
        "cost per token");
    infer->add_option("SPEC", opts->spec, "Plan spec with an inference block (- reads stdin)")
        ->required();
    infer->add_flag("--json", opts->json, "Print one JSON object instead of a table");
    infer->add_option("--db", state.db_path, "Workspace database (for custom and measured GPUs)");
    infer->add_option("--concurrency", opts->concurrency,
                      "Continuous batching: requests in flight per replica (sets "
                      "inference.concurrency)");
    infer->add_option("--request-rate", opts->request_rate,
                      "Continuous batching: requests per second the deployment must complete; "
                      "the concurrency that does it is solved for");
    infer->callback([opts, &state] {
        auto [spec, hw] = load_servable(opts->spec, state);
        if (opts->concurrency != 0) {
            if (opts->concurrency < 1) {
                throw SpecError("--concurrency", std::to_string(opts->concurrency),
                                "an integer >= 1 (requests in flight per replica)");
            }
            spec.inference.concurrency = opts->concurrency;
        }
        std::optional<ContinuousBatchingPoint> at_rate;
        if (opts->request_rate != 0.0) {
            if (!(opts->request_rate > 0.0) || !std::isfinite(opts->request_rate)) {
                throw SpecError("--request-rate", fmt::format("{}", opts->request_rate),
                                "a number of requests per second > 0");
            }
            at_rate = continuous_batching_at_rate(spec, hw, opts->request_rate);
            if (!at_rate) {
                throw SpecError(
                    "--request-rate", fmt::format("{}", opts->request_rate),
                    fmt::format("at most what the largest batch that fits serves, "
                                "{:.4g} requests/s",
                                continuous_batching_at(spec, hw,
                                                       static_cast<double>(std::max<std::int64_t>(
                                                           max_serving_batch(spec, hw), 1)))
                                    .requests_per_s));
            }
        }
        ServingPlan plan = evaluate_inference(spec, hw);
        if (at_rate) {
            plan.continuous = at_rate;
        }
        if (opts->json) {
            fmt::print("{}\n", to_json(plan, spec, hw).dump(2));
        } else {
            print_serving_table(spec, hw, plan);
        }
        state.exit_code = kExitOk;
    });

    // `solve` is created by register_plan_commands.
    CLI::App* solve = app.get_subcommand("solve");
    auto* max_batch = solve->add_subcommand(
        "max-batch",
        "The largest batch of sequences that fits at the full context (prompt + output tokens)");
    max_batch->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    max_batch->add_flag("--json", opts->json, "Print one JSON object");
    max_batch->add_option("--db", state.db_path, "Workspace database");
    max_batch->callback([opts, &state] {
        auto [spec, hw] = load_servable(opts->spec, state);
        const std::int64_t batch = max_serving_batch(spec, hw);
        const std::int64_t context = spec.inference.prompt_tokens + spec.inference.output_tokens;
        const ServingMemory at = serving_memory(spec, hw, std::max<std::int64_t>(batch, 1));
        if (opts->json) {
            fmt::print("{}\n", nlohmann::json{{"max_batch", batch},
                                              {"context_tokens", context},
                                              {"tp", spec.inference.tp},
                                              {"gpu", hw.id},
                                              {"total_bytes", at.total_bytes},
                                              {"capacity_bytes", at.capacity_bytes}}
                                   .dump(2));
        } else {
            fmt::print(
                "Largest batch on {} (tp {}) at {} tokens of context: {} sequences\n  weights + "
                "batch x context x KV per token per GPU + activations = {:.4g} GB of {:.4g} GB\n",
                hw.name, spec.inference.tp, context, batch, to_gb(at.total_bytes),
                to_gb(at.capacity_bytes));
        }
        state.exit_code = kExitOk;
    });
}

}  // namespace tally::cli
