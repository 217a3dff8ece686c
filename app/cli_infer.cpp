// `tally infer`, `tally solve max-batch`: serving plans from the command line.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/errors.h"
#include "planner/core/limits.h"
#include "planner/core/quantity_text.h"
#include "planner/io/serving_case_accuracy.h"
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

// A text of this file's output in the command line's language.
std::string tr(const char* source) {
    return cli_text("tally::cli", source);
}

void print_phase(const std::string& title, const ServingPhase& p) {
    fmt::print("{}\n", title);
    fmt::print("  {:<13} {:>10}  {}\n", tr("weight GEMMs"), seconds_text(p.gemm_s),
               cli_render(TALLY_TEXT("tally::cli", "(compute %1, weights read %2 = %3)")
                              .arg(seconds_text(p.gemm_compute_s))
                              .arg(seconds_text(p.gemm_memory_s))
                              .arg(gb_text(p.weight_bytes))));
    fmt::print("  {:<13} {:>10}  {}\n", tr("attention"), seconds_text(p.attention_s),
               cli_render(TALLY_TEXT("tally::cli", "(compute %1, KV cache %2 = %3)")
                              .arg(seconds_text(p.attention_compute_s))
                              .arg(seconds_text(p.attention_memory_s))
                              .arg(gb_text(p.kv_bytes))));
    fmt::print("  {:<13} {:>10}  {}\n", tr("all-reduces"), seconds_text(p.comm_s),
               cli_render(TALLY_TEXT("tally::cli", "(%1 of %2 B; latency %3, bandwidth %4)")
                              .arg(fmt::format("{:g}", p.all_reduces))
                              .arg(fmt::format("{:.4g}", p.all_reduce_bytes))
                              .arg(seconds_text(p.comm_latency_s))
                              .arg(seconds_text(p.comm_bandwidth_s))));
    fmt::print("  {:<13} {:>10}  {}\n", tr("small kernels"), seconds_text(p.fixed_s),
               tr("(engine's norms, rotary, KV write, MLP activation, sampling: their bytes at the "
                  "bandwidth, each at least a kernel's floor)"));
    fmt::print("  {:<13} {:>10}\n\n", tr("total"), seconds_text(p.seconds));
}

// How close the model came, figure by figure, on the published runs of this engine and GPU
// family (docs/cases/serving; planner/io/serving_case_accuracy.h).
void print_accuracy(const PlanSpec& spec, const HardwareProfile& hw, bool continuous) {
    const std::string gpu = serving_family_gpu(hw);
    const ServingEngine engine = spec.inference.engine;
    const char* batching = continuous ? QT_TRANSLATE_NOOP("tally::cli", "continuous batching")
                                      : QT_TRANSLATE_NOOP("tally::cli", "static batches");
    const std::pair<ServingMetric, const char*> metrics[] = {
        {ServingMetric::output_tokens_per_s, QT_TRANSLATE_NOOP("tally::cli", "output tokens/s")},
        {ServingMetric::ttft, QT_TRANSLATE_NOOP("tally::cli", "time to first token")},
        {ServingMetric::itl, QT_TRANSLATE_NOOP("tally::cli", "inter-token latency")}};
    bool any = false;
    for (const auto& [metric, label] : metrics) {
        any = any || serving_error_band(engine, gpu, continuous, metric).has_value();
    }
    if (!any) {
        fmt::print("{}\n\n",
                   cli_render(TALLY_TEXT("tally::cli",
                                         "Accuracy: no published %1 %2 run with %3 to compare "
                                         "with; these predictions are unchecked against "
                                         "measurements")
                                  .arg(serving_engine_label(engine))
                                  .arg(serving_family_label(hw))
                                  .arg_translated("tally::cli", batching)));
        return;
    }
    fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli",
                                             "Accuracy on published %1 %2 runs with %3 "
                                             "(error = predicted / measured - 1)")
                                      .arg(serving_engine_label(engine))
                                      .arg(serving_family_label(hw))
                                      .arg_translated("tally::cli", batching)));
    for (const auto& [metric, label] : metrics) {
        const auto band = serving_error_band(engine, gpu, continuous, metric);
        const Text text =
            band && band->count > 0
                ? TALLY_TEXT("tally::cli",
                             "±%1% on %2 published figures (worst %3%, mean signed %4%)")
                      .arg(fmt::format("{:.0f}", 100.0 * band->mean_abs_error))
                      .arg(band->count)
                      .arg(fmt::format("{:.0f}", 100.0 * band->worst_abs_error))
                      .arg(fmt::format("{:+.0f}", 100.0 * band->mean_error))
                : TALLY_TEXT("tally::cli", "no published figure to compare with");
        fmt::print("  {:<21} {}\n", tr(label), cli_render(text));
    }
    fmt::print("\n");
}

void print_serving_table(const PlanSpec& spec, const HardwareProfile& hw, const ServingPlan& s) {
    const InferenceSpec& in = spec.inference;
    fmt::print("{}\n",
               cli_render((in.pp > 1 ? TALLY_TEXT("tally::cli",
                                                  "Serving %1 on %2 x %3 (replicas: %4 of tp %5 "
                                                  "x pp %6)")
                                     : TALLY_TEXT("tally::cli",
                                                  "Serving %1 on %2 x %3 (replicas: %4 of tp %5)"))
                              .arg(spec.name.empty() ? spec.model.name : cli_plan_name(spec.name))
                              .arg(spec.cluster.gpus)
                              .arg(hw.name)
                              .arg(fmt::format("{}", s.replicas))
                              .arg(in.tp)
                              .arg(in.pp)));
    fmt::print(
        "{}\n",
        cli_render(TALLY_TEXT("tally::cli",
                              "Batch %1 sequences, prompt %2 + output %3 tokens; weights %4, "
                              "KV cache %5; GEMMs in %6, %7 attention")
                       .arg(in.batch)
                       .arg(in.prompt_tokens)
                       .arg(in.output_tokens)
                       .arg(to_string(in.weight_dtype))
                       .arg(to_string(in.kv_dtype))
                       .arg(to_string(s.gemm_type))
                       .arg(to_string(s.kv.kind))));
    if (spec.model.windowed_layers() > 0) {
        // The sliding window: what shrinks the cache below batch x context x KV per token.
        // Every layer windowed (Mistral 7B v0.1) is "all" of them, not "32 of the 32".
        const Text window =
            spec.model.windowed_layers() == spec.model.layers
                ? TALLY_TEXT("tally::cli",
                             "Attention: a sliding window of %1 positions in all %2 layers, "
                             "which keep only that much KV cache")
                      .arg(spec.model.sliding_window)
                      .arg(spec.model.layers)
                : TALLY_TEXT("tally::cli",
                             "Attention: a sliding window of %1 positions in %2 of the %3 "
                             "layers, which keep only that much KV cache")
                      .arg(spec.model.sliding_window)
                      .arg(spec.model.windowed_layers())
                      .arg(spec.model.layers);
        fmt::print("{}\n", cli_render(window));
    }
    fmt::print("\n");

    const ServingMemory& m = s.memory;
    fmt::print("{}\n",
               tr("Memory per GPU (GB = 1e9 bytes; GiB = 2^30 bytes, as nvidia-smi shows)"));
    fmt::print("  {:<13} {}\n", tr("weights"), gb_gib_columns(m.weights_bytes));
    fmt::print("  {:<13} {}\n", tr("KV cache"), gb_gib_columns(m.kv_cache_bytes));
    fmt::print("  {:<13} {}\n", tr("activations"), gb_gib_columns(m.activation_bytes));
    fmt::print(
        "  {:<13} {}   {}\n", tr("total"), gb_gib_columns(m.total_bytes),
        cli_render(TALLY_TEXT("tally::cli", "of %1 GB: %2")
                       .arg(fmt::format("{:.2f}", to_gb(m.capacity_bytes)))
                       .arg_translated("tally::cli",
                                       m.fits ? QT_TRANSLATE_NOOP("tally::cli", "fits")
                                              : QT_TRANSLATE_NOOP("tally::cli", "DOES NOT FIT"))));
    fmt::print("  {:<13} {}\n", tr("KV per token"),
               cli_render(TALLY_TEXT("tally::cli", "%1 bytes (%2 per GPU)")
                              .arg(fmt::format("{:.10g}", s.kv.bytes_per_token))
                              .arg(fmt::format("{:.10g}", s.kv.bytes_per_token_per_gpu))));
    fmt::print("  {:<13} {}\n", tr("max batch"),
               cli_render(TALLY_TEXT("tally::cli", "%1 (at %2 tokens of context)")
                              .arg(s.max_batch)
                              .arg(in.prompt_tokens + in.output_tokens)));
    fmt::print("  {:<13} {}\n", tr("admitted"),
               cli_render(TALLY_TEXT("tally::cli",
                                     "%1: the engine's KV cache (%2) holds that many; continuous "
                                     "batching queues the rest")
                              .arg(s.admission_batch)
                              .arg(kv_pool_setting(kv_pool(in)))));
    fmt::print("  {:<13} {}\n\n", tr("token budget"),
               cli_render(TALLY_TEXT("tally::cli",
                                     "%1 sequences keep running within max_batched_tokens %2; "
                                     "continuous batching queues the rest")
                              .arg(s.budget_batch)
                              .arg(in.max_batched_tokens)));

    const ServingEngineProfile& engine = serving_engine_profile(in.engine);
    fmt::print(
        "{}\n  [{}]\n\n",
        cli_render(TALLY_TEXT("tally::cli",
                              "Engine %1: CUDA graphs up to batch %2, %3 small kernels a "
                              "layer, %4 attention, %5 all-reduce")
                       .arg(engine.label)
                       .arg(fmt::format("{}", engine.cuda_graph_max_batch))
                       .arg(fmt::format("{}", engine.small_kernels_per_layer))
                       .arg(engine.attention_kernel)
                       .arg_translated("tally::explain", to_string(engine.all_reduce).data())),
        engine.source);
    if (in.host_step_s) {
        fmt::print("{}\n\n",
                   cli_render(TALLY_TEXT("tally::cli",
                                         "Host time per step: %1 each prefill pass and decode "
                                         "step waits for (inference.host_step_s; the engine's "
                                         "own: %2)")
                                  .arg(seconds_text(*in.host_step_s))
                                  .arg(seconds_text(engine.host_step_s))));
    }
    if (in.decode_attention == DecodeAttention::per_query_head) {
        fmt::print("{}\n\n",
                   tr("Decode attention: the KV cache read once per query head, a thread block "
                      "per query head (inference.decode_attention per_query_head: TensorRT-LLM's "
                      "masked MHA kernel where XQA does not apply)"));
    }
    print_phase(tr("One prefill pass (per GPU)"), s.prefill);
    print_phase(tr("Decode step at the final context (per GPU)"), s.decode);

    // The cost is that of how the deployment serves: under continuous batching where it is set,
    // else the static batch (evaluate_inference's cost_per_million_tokens).
    const auto print_cost = [&s] {
        if (s.cost_per_million_tokens) {
            fmt::print("  {:<21} {}\n", tr("cost"),
                       cli_render(TALLY_TEXT("tally::cli", "%1 per million output tokens")
                                      .arg(fmt::format("{:.4g}", *s.cost_per_million_tokens))));
        } else if (s.continuous && !(s.continuous->in_flight > 0.0)) {
            fmt::print("  {:<21} - {}\n", tr("cost"), tr("(nothing is served)"));
        } else {
            fmt::print("  {:<21} - {}\n", tr("cost"),
                       tr("(no price: set cluster.price_per_gpu_hour)"));
        }
    };
    if (s.continuous) {
        const ContinuousBatchingPoint& cb = *s.continuous;
        fmt::print("{}\n",
                   cli_render(TALLY_TEXT("tally::cli",
                                         "Continuous batching at concurrency %1 (%2 prefill, %3 "
                                         "tokens a step)")
                                  .arg(fmt::format("{:.4g}", cb.concurrency))
                                  .arg_translated("tally::cli",
                                                  in.chunked_prefill
                                                      ? QT_TRANSLATE_NOOP("tally::cli", "chunked")
                                                      : QT_TRANSLATE_NOOP("tally::cli", "separate"))
                                  .arg(in.max_batched_tokens)));
        if (!(cb.in_flight > 0.0)) {
            // The engine's KV cache holds not one sequence: no request runs, so none has a
            // latency and nothing is served (the warnings say why).
            fmt::print("  {:<21} {}\n", tr("served"),
                       tr("nothing: the engine's KV cache cannot hold one sequence (see the "
                          "warnings): DOES NOT FIT"));
        } else {
            fmt::print("  {:<21} {}\n", tr("time to first token"), seconds_text(cb.ttft_s));
            if (cb.prefill_wait_s > 0.0) {
                // Part of the TTFT: the step under way when the request arrives, and the other
                // prompts ahead of it where a step's budget takes one.
                fmt::print("  {:<21} {}\n", tr("prefill wait"),
                           cli_render(TALLY_TEXT("tally::cli",
                                                 "%1 for the step under way and the prompts ahead "
                                                 "(part of the time to first token)")
                                          .arg(seconds_text(cb.prefill_wait_s))));
            }
            fmt::print("  {:<21} {}\n", tr("inter-token latency"), seconds_text(cb.itl_s));
            fmt::print("  {:<21} {}\n", tr("request end to end"), seconds_text(cb.e2e_s));
            // The window's headline: memory with the KV caches of the requests running, not of
            // the static batch above; a mean concurrency (--request-rate) as the nearest whole
            // number of requests, as in_flight_memory() counts them.
            const ServingMemory m = in_flight_memory(spec, hw, cb);
            fmt::print("  {:<21} {}\n", tr("memory per GPU"),
                       cli_render(TALLY_TEXT("tally::cli",
                                             "%1 of %2 with the KV caches of %3 requests in "
                                             "flight, each at its full context")
                                      .arg(gb_text(m.total_bytes))
                                      .arg(gb_text(m.capacity_bytes))
                                      .arg(static_cast<std::int64_t>(std::llround(cb.in_flight)))));
            fmt::print("  {:<21} {}\n", tr("throughput"),
                       cli_render(TALLY_TEXT("tally::cli", "%1 output tokens/s (%2 requests/s)")
                                      .arg(fmt::format("{:.4g}", cb.tokens_per_s))
                                      .arg(fmt::format("{:.4g}", cb.requests_per_s))));
            if (cb.queue_s > 0.0) {
                // What admits no more, the step's token budget or the KV cache; the other clients'
                // requests wait.
                Text queued =
                    cb.budget_bound
                        ? TALLY_TEXT("tally::cli",
                                     "the token budget of %4 a step keeps %1 sequences "
                                     "running: the other %2 requests wait %3 on average "
                                     "(part of the time to first token)")
                        : TALLY_TEXT("tally::cli",
                                     "the KV cache holds %1 sequences: %1 run at once, the "
                                     "other %2 requests wait %3 on average (part of the "
                                     "time to first token)");
                queued.arg(fmt::format("{:.4g}", cb.in_flight))
                    .arg(fmt::format("{:.4g}", cb.concurrency - cb.in_flight))
                    .arg(seconds_text(cb.queue_s));
                if (cb.budget_bound) {
                    queued.arg(in.max_batched_tokens);
                }
                fmt::print("  {:<21} {}\n", tr("queued"), cli_render(queued));
            }
        }
        print_cost();
        fmt::print("\n");
    }
    fmt::print("{}\n", s.memory.fits ? tr("Static batch: latency and throughput")
                                     : tr("Static batch: latency and throughput, were it to fit "
                                          "(it does not: see the warnings)"));
    fmt::print("  {:<21} {} {}\n", tr("time to first token"), seconds_text(s.prefill_s),
               tr("(the batch's prefill)"));
    fmt::print("  {:<21} {}\n", tr("decode step"), seconds_text(s.decode_step_s));
    fmt::print("  {:<21} {}\n", tr("per sequence"),
               cli_render(TALLY_TEXT("tally::cli", "%1 tokens/s")
                              .arg(fmt::format("{:.4g}", s.per_sequence_tokens_per_s))));
    fmt::print("  {:<21} {}\n", tr("whole deployment"),
               cli_render(TALLY_TEXT("tally::cli", "%1 output tokens/s")
                              .arg(fmt::format("{:.4g}", s.tokens_per_s))));
    if (!s.continuous) {
        print_cost();
    }
    if (s.critical_batch > 0) {
        fmt::print("  {:<21} {} {}\n\n", tr("critical batch"), s.critical_batch,
                   tr("(decode GEMMs compute-bound from here)"));
    } else {
        fmt::print("  {:<21} - {}\n\n", tr("critical batch"),
                   tr("(decode GEMMs stay memory-bound)"));
    }

    print_accuracy(spec, hw, s.continuous.has_value());

    fmt::print("{}\n", tr("How each figure is computed"));
    for (const Explanation& e : explain_inference(spec, hw, s)) {
        fmt::print("  {:<30} {} = {}\n  {:<30} [{}]\n", cli_label(kExplanationContext, e.label),
                   cli_formula(e), cli_substitution(e), "", cli_source(e));
    }
    const std::vector<Text> warnings = serving_warning_texts(s, spec, hw);
    if (!warnings.empty()) {
        fmt::print("\n{}\n", tr("Warnings"));
        for (const Text& w : warnings) {
            fmt::print("  - {}\n", cli_render(w));
        }
    }
}

// "1,16,64,256" -> {1, 16, 64, 256}: each an integer of requests in flight per replica, >= 1.
std::vector<double> parse_concurrencies(const std::string& text) {
    const auto refuse = [&text]() {
        return SpecError("--concurrency-sweep", text,
                         TALLY_TEXT("tally::cli",
                                    "a comma-separated list of integers from 1 to %1 "
                                    "(requests in flight per replica), e.g. 1,16,64,256")
                             .arg(kMaxConcurrency));
    };
    std::vector<double> out;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        const std::string item = text.substr(begin, end - begin);
        std::size_t used = 0;
        long long n = 0;
        try {
            n = std::stoll(item, &used);
        } catch (const std::exception&) {
            throw refuse();
        }
        if (used != item.size() || n < 1 || n > kMaxConcurrency) {
            throw refuse();
        }
        out.push_back(static_cast<double>(n));
        begin = end + 1;
    }
    return out;
}

// One row a concurrency: what the engine runs at once, and the figures a client sees.
void print_concurrency_sweep(const std::vector<ContinuousBatchingPoint>& sweep) {
    fmt::print("\n{}\n", tr("Concurrency sweep (continuous batching; each client sends its next "
                            "request when its last completes)"));
    fmt::print("  {:>11} {:>10} {:>12} {:>12} {:>12} {:>16} {:>12}\n", tr("concurrency"),
               tr("in flight"), tr("TTFT"), tr("ITL"), tr("end to end"), tr("output tokens/s"),
               tr("waiting"));
    for (const ContinuousBatchingPoint& p : sweep) {
        // Nothing served has no latency.
        const auto latency = [&p](double s) {
            return p.in_flight > 0.0 ? seconds_text(s) : std::string("-");
        };
        fmt::print("  {:>11} {:>10} {:>12} {:>12} {:>12} {:>16} {:>12}\n",
                   fmt::format("{:.4g}", p.concurrency), fmt::format("{:.4g}", p.in_flight),
                   latency(p.ttft_s), latency(p.itl_s), latency(p.e2e_s),
                   fmt::format("{:.4g}", p.tokens_per_s),
                   p.in_flight <= 0.0 ? tr("DOES NOT FIT")
                   : p.queue_s > 0.0  ? seconds_text(p.queue_s)
                                      : std::string("-"));
    }
}

}  // namespace

void register_infer_commands(CLI::App& app, CliState& state) {
    struct Options {
        std::string spec;
        bool json = false;
        std::int64_t concurrency = 0;
        double request_rate = 0.0;
        std::string concurrency_sweep;
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
    infer->add_option("--concurrency-sweep", opts->concurrency_sweep,
                      "Continuous batching at each of these concurrencies, e.g. 1,16,64,256: "
                      "TTFT, ITL and throughput in one table (JSON: concurrency_sweep)");
    infer->callback([opts, infer, &state] {
        auto [spec, hw] = load_servable(opts->spec, state);
        const bool has_concurrency = infer->count("--concurrency") > 0;
        const bool has_rate = infer->count("--request-rate") > 0;
        if (has_concurrency && has_rate) {
            // Each sets the concurrency: one as given, the other solved for from the rate.
            throw SpecError("--request-rate", fmt::format("{}", opts->request_rate),
                            TALLY_TEXT("tally::cli",
                                       "either --concurrency or --request-rate, not both (the "
                                       "rate sets the concurrency)"));
        }
        if (has_concurrency) {
            if (opts->concurrency < 1 || opts->concurrency > kMaxConcurrency) {
                throw SpecError("--concurrency", std::to_string(opts->concurrency),
                                TALLY_TEXT("tally::cli",
                                           "an integer from 1 to %1 (requests in flight per "
                                           "replica)")
                                    .arg(kMaxConcurrency));
            }
            spec.inference.concurrency = opts->concurrency;
        }
        std::optional<ContinuousBatchingPoint> at_rate;
        if (has_rate) {
            if (!(opts->request_rate > 0.0) || !std::isfinite(opts->request_rate)) {
                throw SpecError("--request-rate", fmt::format("{}", opts->request_rate),
                                TALLY_TEXT("tally::cli", "a number of requests per second > 0"));
            }
            at_rate = continuous_batching_at_rate(spec, hw, opts->request_rate);
            if (!at_rate) {
                const ServingRateLimit limit = serving_rate_limit(spec, hw);
                throw SpecError(
                    "--request-rate", fmt::format("{}", opts->request_rate),
                    !limit.admits
                        ? TALLY_TEXT("tally::cli",
                                     "none: the engine's KV cache holds no sequence at the full "
                                     "context, so no request is admitted (more GPUs, a narrower "
                                     "weight dtype or a larger engine share of the memory, "
                                     "inference.memory_fraction, leave it room)")
                        : TALLY_TEXT("tally::cli",
                                     "at most %1 requests/s: what the engine serves with as many "
                                     "sequences running as its KV cache and its token budget "
                                     "allow")
                              .arg(fmt::format("{:.4g}", limit.most_requests_per_s)));
            }
        }
        const bool has_sweep = infer->count("--concurrency-sweep") > 0;
        std::vector<ContinuousBatchingPoint> sweep;
        if (has_sweep) {
            sweep = concurrency_sweep(spec, hw, parse_concurrencies(opts->concurrency_sweep));
        }
        ServingPlan plan = evaluate_inference(spec, hw);
        if (at_rate) {
            serve_at(plan, spec, *at_rate);
        }
        if (opts->json) {
            nlohmann::json out = to_json(plan, spec, hw);
            if (has_sweep) {
                out["concurrency_sweep"] = nlohmann::json::array();
                for (const ContinuousBatchingPoint& p : sweep) {
                    out["concurrency_sweep"].push_back(to_json(p));
                }
            }
            fmt::print("{}\n", out.dump(2));
        } else {
            print_serving_table(spec, hw, plan);
            if (!sweep.empty()) {
                print_concurrency_sweep(sweep);
            }
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
        // Where not even one sequence fits: the smallest tensor parallelism within a node that
        // holds one, and the largest batch there.
        std::optional<ServingTpThatFits> wider;
        std::int64_t wider_batch = 0;
        if (batch == 0) {
            PlanSpec one = spec;
            one.inference.batch = 1;
            wider = serving_tp_that_fits(one, hw);
            if (wider) {
                one.inference.tp = wider->tp;
                one.cluster.gpus = wider->tp * one.inference.pp;
                wider_batch = max_serving_batch(one, hw);
            }
        }
        if (opts->json) {
            nlohmann::json out{{"max_batch", batch},
                               {"context_tokens", context},
                               {"tp", spec.inference.tp},
                               {"gpu", hw.id},
                               {"total_bytes", at.total_bytes},
                               {"capacity_bytes", at.capacity_bytes}};
            if (batch == 0) {
                out["smallest_tp_that_fits"] =
                    wider ? nlohmann::json{{"tp", wider->tp}, {"max_batch", wider_batch}}
                          : nlohmann::json(nullptr);
            }
            fmt::print("{}\n", out.dump(2));
        } else {
            fmt::print("{}\n  {}\n",
                       cli_render(TALLY_TEXT("tally::cli",
                                             "Largest batch on %1 (tp %2) at %3 tokens of "
                                             "context: %4 sequences")
                                      .arg(hw.name)
                                      .arg(spec.inference.tp)
                                      .arg(context)
                                      .arg(batch)),
                       cli_render(TALLY_TEXT("tally::cli",
                                             "weights + batch x context x KV per token per GPU + "
                                             "activations = %1 GB of %2 GB")
                                      .arg(fmt::format("{:.4g}", to_gb(at.total_bytes)))
                                      .arg(fmt::format("{:.4g}", to_gb(at.capacity_bytes)))));
            if (wider) {
                fmt::print("  {}\n", cli_render(TALLY_TEXT("tally::cli",
                                                           "tensor parallel %1 (%2 GPUs a "
                                                           "replica) holds %3 sequences")
                                                    .arg(wider->tp)
                                                    .arg(wider->tp * spec.inference.pp)
                                                    .arg(wider_batch)));
            } else if (batch == 0 && hw.gpus_per_node > spec.inference.tp) {
                fmt::print("  {}\n",
                           cli_render(TALLY_TEXT("tally::cli",
                                                 "no tensor parallel within a node of %1 GPUs "
                                                 "holds one sequence")
                                          .arg(hw.gpus_per_node)));
            }
        }
        state.exit_code = kExitOk;
    });
}

}  // namespace tally::cli
