// `tally plan`, `tally solve`, `tally presets`: the planner from the command line.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <charconv>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/io/case_accuracy.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/model/pipeline_stages.h"
#include "planner/performance/calibration.h"
#include "planner/store/data_paths.h"
#include "planner/text/explain.h"
#include "planner/text/report.h"
#include "planner/training/plan.h"
#include "planner/training/solver.h"

namespace tally::cli {

namespace {

// The predicted step and its terms; those above the rule add up to the step time.
void print_performance(const Plan& plan, const PlanSpec& spec, const HardwareProfile& hw) {
    const PerformanceBreakdown& p = plan.performance;
    fmt::print("{}\n",
               cli_text("tally::cli", "Predicted step (performance model; docs/planner.md)"));
    const std::pair<std::string, double> terms[] = {
        {cli_text("tally::cli", "compute"), p.compute_s},
        {cli_text("tally::cli", "recompute"), p.recompute_s},
        {cli_text("tally::cli", "memory-bound"), p.memory_bound_s},
        {cli_text("tally::cli", "TP comm"), p.tp_comm_s},
        {cli_text("tally::cli", "PP comm"), p.pp_comm_s},
        {cli_text("tally::cli", "PP bubble"), p.pp_bubble_s},
        {cli_text("tally::cli", "DP exposed"), p.dp_comm_exposed_s},
        {cli_text("tally::cli", "EP comm"), p.ep_comm_s},
        {cli_text("tally::cli", "CP comm"), p.cp_comm_s},
        {cli_text("tally::cli", "launch gaps"), p.overhead_s},
        {cli_text("tally::cli", "NCCL SMs"), p.comm_contention_s},
        {cli_text("tally::cli", "offload"), p.offload_s},
        {cli_text("tally::cli", "optimizer"), p.optimizer_s},
    };
    for (const auto& [name, seconds] : terms) {
        fmt::print("  {:<13} {:>10.4g} s  {:5.1f}%\n", name, seconds,
                   p.step_s > 0 ? 100.0 * seconds / p.step_s : 0.0);
    }
    fmt::print(
        "  {:<13} {:>10.4g} s  (MFU {:.3f}, HFU {:.3f}, {})\n", cli_text("tally::cli", "step"),
        p.step_s, p.mfu, p.hfu,
        cli_render(
            TALLY_TEXT("tally::cli", "%1 tokens/s").arg(fmt::format("{:.4g}", p.tokens_per_s))));
    fmt::print("  {:<13} {:>10.4g} s  ({})\n", cli_text("tally::cli", "DP comm"), p.dp_comm_s,
               cli_render(TALLY_TEXT("tally::cli", "%1 s hidden behind compute")
                              .arg(fmt::format("{:.4g}", p.dp_comm_s - p.dp_comm_exposed_s))));
    if (!plan.time.mfu_predicted && p.tokens_per_s > 0.0) {
        // The time below rests on the assumed MFU; what the predicted step would make of it, so
        // that the two are not read as one figure (the Time panel says the same).
        fmt::print(
            "  {:<13} {}\n", cli_text("tally::cli", "time from"),
            cli_render(TALLY_TEXT("tally::cli",
                                  "the assumed MFU %1 sets the time below; at this "
                                  "predicted step the run would take %2 days (%3 s)")
                           .arg(fmt::format("{:.3g}", spec.cluster.mfu))
                           .arg(fmt::format("{:.4g}", spec.data.tokens / p.tokens_per_s / 86400.0))
                           .arg(fmt::format("{:.4g}", spec.data.tokens / p.tokens_per_s))));
    }
    if (hw.calibration) {
        fmt::print("  {:<13} {:>10.4g} s  {}\n", cli_text("tally::cli", "uncalibrated"),
                   p.uncalibrated_step_s,
                   cli_render(TALLY_TEXT("tally::cli", "/ efficiency %1: %2")
                                  .arg(fmt::format("{:.4f}", p.calibration_efficiency))
                                  .arg(cli_render(calibration_note_text(*hw.calibration)))));
    }
    // How close the model came on the published runs of this engine and GPU generation.
    const GpuGeneration generation = gpu_generation(hw);
    const std::string engine = std::string(engine_label(spec.training.engine));
    const auto band = error_band(spec.training.engine, generation, band_moe(spec));
    // Only the family's dense (or MoE) runs when there are enough of them (error_band()).
    const bool one = band && band->count == 1;
    const char* runs =
        band && band->model == "MoE"     ? (one ? QT_TRANSLATE_NOOP("tally::cli", "MoE run")
                                                : QT_TRANSLATE_NOOP("tally::cli", "MoE runs"))
        : band && band->model == "dense" ? (one ? QT_TRANSLATE_NOOP("tally::cli", "dense run")
                                                : QT_TRANSLATE_NOOP("tally::cli", "dense runs"))
                                         : (one ? QT_TRANSLATE_NOOP("tally::cli", "run")
                                                : QT_TRANSLATE_NOOP("tally::cli", "runs"));
    const Text accuracy =
        band && band->count > 0
            ? TALLY_TEXT("tally::cli", "±%1% mean error on %2 published %3 %4 %5 (worst %6%)")
                  .arg(fmt::format("{:.0f}", 100.0 * band->mean_abs_error))
                  .arg(band->count)
                  .arg(engine)
                  .arg(std::string(to_string(generation)))
                  .arg_translated("tally::cli", runs)
                  .arg(fmt::format("{:.0f}", 100.0 * band->worst_abs_error))
        : generation == GpuGeneration::other
            ? TALLY_TEXT("tally::cli", "no published %1 run on this GPU to compare with")
                  .arg(engine)
            : TALLY_TEXT("tally::cli", "no published %1 %2 run to compare with")
                  .arg(engine)
                  .arg(std::string(to_string(generation)));
    std::string said = cli_render(accuracy);
    // A band whose errors all lie one way is no ± at all: say which way. An error e is the
    // predicted throughput over the measured one, minus 1, so a run took 1 + e times the
    // predicted time.
    if (band && band->count > 1 && band->mean_error > 0.0 &&
        band->mean_error >= band->mean_abs_error - 1e-9) {
        // The clauses join with the language's own semicolon ("；" in Chinese).
        said += cli_text("tally::cli", "; ") +
                cli_render(TALLY_TEXT("tally::cli",
                                      "every one took longer than predicted: %1x the "
                                      "predicted time on average, up to %2x")
                               .arg(fmt::format("{:.2f}", 1.0 + band->mean_error))
                               .arg(fmt::format("{:.2f}", 1.0 + band->worst_abs_error)));
    } else if (band && band->count > 1 && band->mean_error < 0.0 &&
               -band->mean_error >= band->mean_abs_error - 1e-9) {
        said += cli_text("tally::cli", "; ") +
                cli_render(TALLY_TEXT("tally::cli",
                                      "every one ran faster than predicted: in %1x the "
                                      "predicted time on average")
                               .arg(fmt::format("{:.2f}", 1.0 + band->mean_error)));
    }
    if (hw.calibration && band && band->count > 0) {
        // The published runs judge the model as it predicts before a calibration; this plan's
        // step is fitted to the user's own run instead.
        said += cli_text("tally::cli", " (the model's before calibration)");
    }
    fmt::print("  {:<13} {}\n\n", cli_text("tally::cli", "accuracy"), said);
}

void print_plan_table(const PlanSpec& spec, const HardwareProfile& hw, const Plan& plan) {
    const TrainingSpec& t = spec.training;
    const TextTranslator translate = [](const Text& text) { return cli_render(text); };
    fmt::print("{}\n",
               spec.name.empty() ? plan_title(spec, hw, translate) : cli_plan_name(spec.name));
    fmt::print(
        "{:<10} {}\n", "GPU",
        cli_render(TALLY_TEXT("tally::cli", "%1 (%2) x %3, MFU %4 (%5), dense %6 peak %7 FLOP/s")
                       .arg(hw.name)
                       .arg(hw.id)
                       .arg(spec.cluster.gpus)
                       .arg(fmt::format("{:.3g}", plan.time.mfu))
                       .arg_translated("tally::cli", mfu_source_label(plan.time.mfu_predicted, hw))
                       .arg(to_string(compute_type(t.compute_dtype)))
                       .arg(fmt::format("{:.4g}", plan.time.peak_flops_per_s))));
    // The factors multiply to the GPUs: context parallelism is said when it splits sequences,
    // and expert parallelism, a regrouping of those same GPUs for the experts, beside them.
    std::string layout = cli_render(t.context_parallel > 1
                                        ? TALLY_TEXT("tally::cli", "dp %1 x tp %2 x pp %3 x cp %4")
                                              .arg(plan.parallel.dp)
                                              .arg(plan.parallel.tp)
                                              .arg(plan.parallel.pp)
                                              .arg(t.context_parallel)
                                        : TALLY_TEXT("tally::cli", "dp %1 x tp %2 x pp %3")
                                              .arg(plan.parallel.dp)
                                              .arg(plan.parallel.tp)
                                              .arg(plan.parallel.pp));
    if (t.expert_parallel > 1 ||
        (t.expert_tensor_parallel > 0 && t.expert_tensor_parallel != t.tp)) {
        layout +=
            cli_render(TALLY_TEXT("tally::cli", "; experts over ep %1 x expert tp %2")
                           .arg(t.expert_parallel)
                           .arg(t.expert_tensor_parallel > 0 ? t.expert_tensor_parallel : t.tp));
    }
    // Stages that hold different numbers of layers are listed, first to last ("11 / 12 x 6 /
    // 11"): the most loaded sets the memory and the slowest the step.
    if (spec.model.kind != ModelKind::params && t.pp > 1) {
        const StageLayout stages = stage_layout(spec);
        if (!stages.even) {
            layout += cli_render(
                TALLY_TEXT("tally::cli", "; layers by stage %1").arg(stage_spread_text(stages)));
        }
    }
    fmt::print("{:<10} {}{}\n", cli_text("tally::cli", "Layout"), layout,
               cli_render(TALLY_TEXT("tally::cli",
                                     "; global batch %1 = micro-batch %2 x dp %3 x accumulation "
                                     "%4; ZeRO-%5")
                              .arg(plan.parallel.global_batch)
                              .arg(spec.data.micro_batch)
                              .arg(plan.parallel.dp)
                              .arg(plan.parallel.grad_accum_steps)
                              .arg(t.zero)));
    fmt::print("{:<10} {}\n", cli_text("tally::cli", "Parameters"),
               cli_render(TALLY_TEXT("tally::cli", "%1 total, %2 active, %3 embedding")
                              .arg(fmt::format("{:.4g}", plan.params.total))
                              .arg(fmt::format("{:.4g}", plan.params.active))
                              .arg(fmt::format("{:.4g}", plan.params.embedding))));
    if (spec.model.windowed_layers() > 0) {
        // Every layer windowed (Mistral 7B v0.1) leaves no others to name.
        const Text window =
            spec.model.windowed_layers() == spec.model.layers
                ? TALLY_TEXT("tally::cli", "a sliding window of %1 positions in all %2 layers")
                      .arg(spec.model.sliding_window)
                      .arg(spec.model.layers)
                : TALLY_TEXT("tally::cli",
                             "a sliding window of %1 positions in %2 of the %3 layers; the "
                             "others attend to the whole sequence")
                      .arg(spec.model.sliding_window)
                      .arg(spec.model.windowed_layers())
                      .arg(spec.model.layers);
        fmt::print("{:<10} {}\n", cli_text("tally::cli", "Attention"), cli_render(window));
    }
    fmt::print("\n");

    const MemoryBreakdown& m = plan.memory;
    fmt::print("{}\n",
               cli_text("tally::cli",
                        "Memory per GPU (GB = 1e9 bytes; GiB = 2^30 bytes, as nvidia-smi shows)"));
    fmt::print("  {:<15} {}\n", cli_text("tally::cli", "params"), gb_gib_columns(m.params_bytes));
    fmt::print("  {:<15} {}\n", cli_text("tally::cli", "gradients"), gb_gib_columns(m.grads_bytes));
    fmt::print("  {:<15} {}\n", cli_text("tally::cli", "master"), gb_gib_columns(m.master_bytes));
    fmt::print("  {:<15} {}\n", cli_text("tally::cli", "optimizer state"),
               gb_gib_columns(m.optimizer_bytes));
    fmt::print("  {:<15} {}\n", cli_text("tally::cli", "activations"),
               gb_gib_columns(m.activations_bytes));
    if (m.zero3_gather_bytes > 0) {
        fmt::print("  {:<15} {}\n", cli_text("tally::cli", "ZeRO-3 gather"),
                   gb_gib_columns(m.zero3_gather_bytes));
    }
    if (m.pipeline_buffer_bytes > 0) {
        fmt::print("  {:<15} {}\n", cli_text("tally::cli", "PP buffers"),
                   gb_gib_columns(m.pipeline_buffer_bytes));
    }
    fmt::print(
        "  {:<15} {}   {}\n", cli_text("tally::cli", "total"), gb_gib_columns(m.total_bytes),
        cli_render(TALLY_TEXT("tally::cli", "of %1 GB: %2")
                       .arg(fmt::format("{:.2f}", to_gb(m.capacity_bytes)))
                       .arg_translated("tally::cli",
                                       m.fits ? QT_TRANSLATE_NOOP("tally::cli", "fits")
                                              : QT_TRANSLATE_NOOP("tally::cli", "DOES NOT FIT"))));
    if (m.host_bytes > 0) {
        fmt::print("  {:<15} {}   {}\n", cli_text("tally::cli", "host memory"),
                   gb_gib_columns(m.host_bytes), cli_text("tally::cli", "(offloaded, per GPU)"));
    }
    fmt::print("\n");

    fmt::print("{}\n", cli_text("tally::cli", "Compute"));
    fmt::print("  {:<13} {}\n", cli_text("tally::cli", "FLOPs/token"),
               cli_render(TALLY_TEXT("tally::cli", "%1 (6N %2, with attention %3; formula %4)")
                              .arg(fmt::format("{:.4g}", plan.flops.per_token))
                              .arg(fmt::format("{:.4g}", plan.flops.per_token_6n))
                              .arg(fmt::format("{:.4g}", plan.flops.per_token_attention))
                              .arg(to_string(t.flops_formula))));
    fmt::print("  {:<13} {:.4g}\n", cli_text("tally::cli", "FLOPs/step"), plan.flops.per_step);
    fmt::print("  {:<13} {}\n\n", cli_text("tally::cli", "FLOPs total"),
               cli_render(TALLY_TEXT("tally::cli", "%1 model, %2 hardware (HFU %3)")
                              .arg(fmt::format("{:.4g}", plan.flops.total))
                              .arg(fmt::format("{:.4g}", plan.flops.hardware_total))
                              .arg(fmt::format("{:.3f}", plan.time.hfu))));

    print_performance(plan, spec, hw);

    fmt::print("{}\n", cli_text("tally::cli", "Time and cost"));
    fmt::print("  {:<13} {}\n", cli_text("tally::cli", "time"),
               cli_render(TALLY_TEXT("tally::cli", "%1 days (%2 s)")
                              .arg(days_text(plan.time.days))
                              .arg(fmt::format("{:.4g}", plan.time.seconds))));
    if (hw.calibration && plan.time.mfu_predicted) {
        fmt::print("                {}\n", cli_render(calibration_note_text(*hw.calibration)));
    }
    fmt::print("  {:<13} {:.4g}\n", cli_text("tally::cli", "GPU-hours"), plan.time.gpu_hours);
    if (plan.time.has_cost) {
        fmt::print("  {:<13} {:.4g}\n", cli_text("tally::cli", "cost"), plan.time.cost);
    }
    if (plan.time.has_energy) {
        fmt::print("  {:<13} {:.4g} kWh {}\n\n", cli_text("tally::cli", "energy"),
                   plan.time.energy_kwh, cli_text("tally::cli", "(GPU boards at TDP)"));
    } else {
        fmt::print("  {:<13} - {}\n\n", cli_text("tally::cli", "energy"),
                   cli_text("tally::cli", "(the hardware profile gives no TDP)"));
    }

    fmt::print("{}\n", cli_text("tally::cli", "How each figure is computed"));
    for (const Explanation& e : explain(spec, hw, plan)) {
        fmt::print("  {:<22} {} = {}\n  {:<22} [{}]\n", cli_label(kExplanationContext, e.label),
                   cli_formula(e), cli_substitution(e), "", cli_source(e));
    }
    const std::vector<Text> warnings = warning_texts(plan, spec, hw);
    if (!warnings.empty()) {
        fmt::print("\n{}\n", cli_text("tally::cli", "Warnings"));
        for (const Text& w : warnings) {
            fmt::print("  - {}\n", cli_render(w));
        }
    }
}

// Loads, resolves and checks a spec; SpecError on any problem.
std::pair<PlanSpec, HardwareProfile> load_checked(const std::string& path, CliState& state) {
    PlanSpec spec = load_plan_spec(path);
    HardwareProfile hw = resolve_gpu(spec, state);
    if (auto error = check(spec, hw)) {
        throw SpecError(*error);
    }
    return {std::move(spec), std::move(hw)};
}

}  // namespace

const char* mfu_source_label(bool predicted, const HardwareProfile& hw) {
    return !predicted       ? QT_TRANSLATE_NOOP("tally::cli", "assumed")
           : hw.calibration ? QT_TRANSLATE_NOOP("tally::cli", "predicted, calibrated")
                            : QT_TRANSLATE_NOOP("tally::cli", "predicted");
}

HardwareProfile resolve_gpu(const PlanSpec& spec, CliState& state) {
    if (auto profile = find_workspace_profile(spec.cluster.gpu, state)) {
        return *profile;
    }
    // A GPU no catalog part has, looked for in a --db file that is not there (a mistyped path):
    // say so, rather than only that the GPU is no built-in one.
    std::error_code ec;
    if (!state.db_path.empty() && !std::filesystem::exists(state.db_path, ec)) {
        throw SpecError("--db", "\"" + state.db_path + "\"",
                        TALLY_TEXT("tally::cli",
                                   "an existing workspace file: there is none at this path, so "
                                   "cluster.gpu \"%1\" (no built-in GPU) is not found")
                            .arg(spec.cluster.gpu));
    }
    // An id that reads like no built-in part, in a workspace without that profile: a custom
    // profile deleted (or kept in another workspace file) since the plan was saved.
    if (find_builtin_hardware(spec.cluster.gpu) == nullptr &&
        !similar_builtin_hardware_rule(spec.cluster.gpu)) {
        const std::filesystem::path workspace =
            state.db_path.empty() ? default_workspace_path() : std::filesystem::path(state.db_path);
        if (std::filesystem::exists(workspace, ec)) {
            throw SpecError("cluster.gpu", "\"" + spec.cluster.gpu + "\"",
                            TALLY_TEXT("tally::cli",
                                       "a profile of the workspace %1 or a built-in GPU: the "
                                       "workspace has no profile of this id (deleted, or kept in "
                                       "another workspace file, given with --db); built-in: %2")
                                .arg(workspace.string())
                                .arg(builtin_hardware_ids()));
        }
    }
    return resolve_builtin_hardware(spec);  // throws SpecError naming cluster.gpu
}

void register_plan_commands(CLI::App& app, CliState& state) {
    struct Options {
        std::string spec;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();

    auto* plan = app.add_subcommand("plan", "Evaluate a plan: memory per GPU, FLOPs, time, cost");
    plan->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    plan->add_flag("--json", opts->json, "Print one JSON object instead of a table");
    plan->add_option("--db", state.db_path, "Workspace database (for custom and measured GPUs)");
    plan->callback([opts, &state] {
        auto [spec, hw] = load_checked(opts->spec, state);
        const Plan result = evaluate(spec, hw);
        if (opts->json) {
            fmt::print("{}\n", to_json(result, spec, hw).dump(2));
        } else {
            print_plan_table(spec, hw, result);
        }
        // A spec written for serving (an inference block of its own) is planned here as a
        // training run of its data block: said, with the command that plans its serving.
        if (spec.inference != InferenceSpec{}) {
            std::fprintf(stderr, "%s %s\n", cli_text("tally::cli", "note:").c_str(),
                         cli_render(TALLY_TEXT("tally::cli",
                                               "the spec has an inference block: this is the "
                                               "training plan of its data and training blocks; "
                                               "tally infer %1 plans its serving")
                                        .arg(opts->spec))
                             .c_str());
        }
        state.exit_code = kExitOk;
    });

    auto* solve = app.add_subcommand("solve", "Solve for a quantity under a spec's recipe");
    solve->require_subcommand(1);
    auto* max_params = solve->add_subcommand(
        "max-params",
        "The largest model (parameter count) that fits the cluster: model state only, unless the "
        "spec sets solver.include_activations");
    max_params->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    max_params->add_flag("--json", opts->json, "Print one JSON object");
    max_params->add_option("--db", state.db_path, "Workspace database");
    max_params->callback([opts, &state] {
        PlanSpec spec = load_plan_spec(opts->spec);
        HardwareProfile hw = resolve_gpu(spec, state);
        const MaxParamsResult r = solve_max_params(spec, hw);
        if (opts->json) {
            nlohmann::json j{{"max_params", r.max_params},
                             {"includes_activations", r.includes_activations},
                             {"bytes_per_param_per_gpu", r.bytes_per_param_per_gpu},
                             {"capacity_bytes", r.capacity_bytes},
                             {"gpus", spec.cluster.gpus},
                             {"gpu", hw.id},
                             {"formula", r.formula}};
            if (r.includes_activations) {
                j["layers"] = r.layers;
            }
            fmt::print("{}\n", j.dump(2));
        } else {
            fmt::print(
                "{}\n  {}\n",
                cli_render(
                    TALLY_TEXT("tally::cli", "Largest model on %1 x %2 (%3): %4 parameters")
                        .arg(spec.cluster.gpus)
                        .arg(hw.name)
                        .arg_translated(
                            "tally::cli",
                            r.includes_activations
                                ? QT_TRANSLATE_NOOP(
                                      "tally::cli",
                                      "params, grads, optimizer state and activations")
                                : QT_TRANSLATE_NOOP("tally::cli",
                                                    "model state only, activations not counted"))
                        .arg(fmt::format("{:.4g}", r.max_params))),
                cli_render(r.formula_text));
            // CS336 lecture 2 divides the whole cluster's memory by 12 bytes a parameter: the
            // model state spread over every GPU (ZeRO-3) and no fp32 master copy. A spec that
            // keeps either is told what that recipe would give, so the two answers are not
            // mistaken for one.
            PlanSpec lecture = spec;
            lecture.training.zero = 3;
            lecture.training.master_dtype.reset();
            if (!r.includes_activations &&
                (spec.training.zero < 3 || spec.training.master_dtype.has_value()) &&
                spec.cluster.gpus > 1 && !check(lecture, hw)) {
                const MaxParamsResult spread = solve_max_params(lecture, hw);
                fmt::print("  {}\n",
                           cli_render(TALLY_TEXT("tally::cli",
                                                 "with the model state spread over all %1 GPUs "
                                                 "(training.zero 3) and no fp32 master copy "
                                                 "(training.master_dtype \"none\"), as CS336 "
                                                 "lecture 2 counts: %2 parameters")
                                          .arg(spec.cluster.gpus)
                                          .arg(fmt::format("{:.4g}", spread.max_params))));
            }
        }
        state.exit_code = kExitOk;
    });

    auto* tensor = app.add_subcommand(
        "tensor", "Memory of a tensor: elements x bytes per value (e.g. tally tensor 49152x12288)");
    auto shape_text = std::make_shared<std::string>();
    auto dtype_text = std::make_shared<std::string>("fp32");
    tensor->add_option("SHAPE", *shape_text, "Dimensions separated by x or commas, e.g. 4x8")
        ->required();
    tensor->add_option("--dtype", *dtype_text, "Number format (default fp32, PyTorch's default)");
    tensor->add_flag("--json", opts->json, "Print one JSON object");
    tensor->callback([opts, shape_text, dtype_text, &state] {
        const auto dtype = parse_dtype(*dtype_text);
        if (!dtype) {
            throw SpecError("--dtype", *dtype_text,
                            TALLY_TEXT("tally::cli", "one of %1").arg(std::string(dtype_names())));
        }
        std::vector<std::int64_t> shape;
        std::string formula;
        std::size_t start = 0;
        while (start <= shape_text->size()) {
            const std::size_t end = shape_text->find_first_of("x,*", start);
            const std::string part = shape_text->substr(
                start, end == std::string::npos ? std::string::npos : end - start);
            std::int64_t d = 0;
            const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), d);
            if (ec != std::errc() || ptr != part.data() + part.size() || d < 1) {
                throw SpecError("SHAPE", "\"" + *shape_text + "\"",
                                TALLY_TEXT("tally::cli",
                                           "positive integers separated by x or commas, e.g. "
                                           "4x8"));
            }
            shape.push_back(d);
            formula += (formula.empty() ? "" : " x ") + part;
            if (end == std::string::npos) {
                break;
            }
            start = end + 1;
        }
        const double bytes = tensor_bytes(shape, *dtype);
        double elements = 1.0;
        for (std::int64_t d : shape) {
            elements *= static_cast<double>(d);
        }
        if (opts->json) {
            fmt::print("{}\n", nlohmann::json{{"shape", shape},
                                              {"dtype", std::string(to_string(*dtype))},
                                              {"elements", elements},
                                              {"bytes", bytes},
                                              {"gb", to_gb(bytes)},
                                              {"gib", to_gib(bytes)}}
                                   .dump(2));
        } else {
            fmt::print("{}\n  [{}]\n",
                       cli_render(TALLY_TEXT("tally::cli",
                                             "%1 = %2 elements x %3 bytes (%4) = %5 "
                                             "bytes = %6 GB = %7 GiB")
                                      .arg(formula)
                                      .arg(fmt::format("{:.0f}", elements))
                                      .arg(fmt::format("{:g}", bytes_per_value(*dtype)))
                                      .arg(to_string(*dtype))
                                      .arg(fmt::format("{:.10g}", bytes))
                                      .arg(fmt::format("{:.4g}", to_gb(bytes)))
                                      .arg(fmt::format("{:.4g}", to_gib(bytes)))),
                       cli_text("tally::cli",
                                "CS336 lecture 2: memory = number of values x bytes per value; "
                                "GB = 1e9 bytes, GiB = 2^30 bytes"));
        }
        state.exit_code = kExitOk;
    });

    auto* presets = app.add_subcommand("presets", "List the model presets and their sources");
    presets->add_flag("--json", opts->json, "Print a JSON array");
    presets->callback([opts, &state] {
        nlohmann::json list = nlohmann::json::array();
        for (const ModelPreset& p : model_presets()) {
            const ParamCounts c = count_params(p.model);
            if (opts->json) {
                list.push_back({{"id", p.id},
                                {"name", p.name},
                                {"params", c.total},
                                {"params_active", c.active},
                                {"source", p.source},
                                {"model", to_json(p.model)}});
            } else {
                fmt::print("{:<14} {:<36} {}\n", p.id, p.name,
                           cli_render(TALLY_TEXT("tally::cli", "%1 params (%2 active)")
                                          .arg(fmt::format("{:>9.4g}", c.total))
                                          .arg(fmt::format("{:.4g}", c.active))));
            }
        }
        if (opts->json) {
            fmt::print("{}\n", list.dump(2));
        }
        state.exit_code = kExitOk;
    });
}

int run_default(CliState&) {
    const PlanSpec spec = default_plan_spec();
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    fmt::print("{}\n\n",
               cli_text("tally::cli", "The built-in default plan (CS336 lecture 2, question 1):"));
    print_plan_table(spec, hw, evaluate(spec, hw));
    return kExitOk;
}

}  // namespace tally::cli
