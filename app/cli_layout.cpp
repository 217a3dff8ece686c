// `tally solve layout` and `tally solve min-gpus`: the layout search from the command line.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/io/spec_json.h"
#include "planner/training/layout_search.h"
#include "planner/training/plan.h"

namespace tally::cli {

namespace {

using nlohmann::json;

// The searches choose the layout, so the spec's own tp, pp and micro-batch need not suit its
// cluster: check_layout_search() checks everything else.
std::pair<PlanSpec, HardwareProfile> load_checked_spec(const std::string& path, CliState& state) {
    PlanSpec spec = load_plan_spec(path);
    HardwareProfile hw = resolve_gpu(spec, state);
    if (auto error = check_layout_search(spec, hw)) {
        throw SpecError(*error);
    }
    return {std::move(spec), std::move(hw)};
}

// A layout as the search's JSON gives it: the spec sections it changes, and the plan's parallel,
// memory and performance exactly as `tally plan --json` prints them for that spec.
json layout_json(const PlanSpec& spec, const HardwareProfile& hw, const RankedLayout& r,
                 LayoutObjective objective) {
    const Plan plan = evaluate(spec, hw);
    const json full = to_json(plan, spec, hw);
    const json spec_json = to_json(spec);
    json j;
    j["training"] = spec_json.at("training");
    j["data"] = {{"micro_batch", spec.data.micro_batch}, {"global_batch", spec.data.global_batch}};
    j["parallel"] = full.at("parallel");
    j["memory"] = full.at("memory");
    j["performance"] = full.at("performance");
    j["time"] = full.at("time");  // days, GPU-hours, cost and energy of the whole run on it
    j[objective == LayoutObjective::time ? "objective_step_s" : "objective_cost"] = r.objective;
    return j;
}

std::string layout_text(const Layout& l) {
    return fmt::format(
        "tp {:>2} pp {:>3} cp {:>2} dp {:>5} ep {:>3} mb {:>2} v {:>2} ZeRO-{} recompute {:<9}{}",
        l.tp, l.pp, l.context_parallel, l.dp, l.expert_parallel, l.micro_batch, l.interleave,
        l.zero, to_string(l.recompute), l.sequence_parallel ? " SP" : "   ");
}

}  // namespace

void register_layout_commands(CLI::App& app, CliState& state) {
    CLI::App* solve = app.get_subcommand("solve");
    struct Options {
        std::string spec;
        bool json = false;
        std::int64_t top = 10;
        std::string objective = "time";
        double days = 0.0;
        std::int64_t max_gpus = std::int64_t{1} << 20;
    };
    auto opts = std::make_shared<Options>();

    auto* layout = solve->add_subcommand(
        "layout",
        "Every valid parallel layout (tp, pp, context parallel, dp, ZeRO, micro-batch, "
        "recompute, sequence parallel, interleave, expert parallel) that fits, ranked by "
        "predicted step time or cost");
    layout->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    layout->add_option("--top", opts->top, "How many layouts to list (default 10)");
    layout->add_option("--objective", opts->objective, "time (default) or cost");
    layout->add_flag("--json", opts->json, "Print one JSON object");
    layout->add_option("--db", state.db_path, "Workspace database (for custom and measured GPUs)");
    layout->callback([opts, &state] {
        if (opts->objective != "time" && opts->objective != "cost") {
            throw SpecError("--objective", "\"" + opts->objective + "\"",
                            TALLY_TEXT("tally::cli", "time or cost"));
        }
        if (opts->top < 1) {
            throw SpecError("--top", std::to_string(opts->top),
                            TALLY_TEXT("tally::cli", "an integer >= 1"));
        }
        const LayoutObjective objective =
            opts->objective == "time" ? LayoutObjective::time : LayoutObjective::cost;
        auto [spec, hw] = load_checked_spec(opts->spec, state);
        const LayoutSearchResult r =
            search_layouts(spec, hw, static_cast<std::size_t>(opts->top), objective);
        if (opts->json) {
            json list = json::array();
            for (const RankedLayout& l : r.best) {
                list.push_back(
                    layout_json(apply_layout(spec, r.global_batch, l.layout), hw, l, objective));
            }
            fmt::print("{}\n", json{{"candidates", r.candidates},
                                    {"feasible", r.feasible},
                                    {"objective", opts->objective},
                                    {"global_batch", r.global_batch},
                                    {"layouts", list}}
                                   .dump(2));
        } else {
            const std::string model =
                spec.model.name.empty() ? cli_text("tally::cli", "the model") : spec.model.name;
            fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli",
                                                     "%1 layouts of %2 on %3 x %4 (global batch "
                                                     "%5): %6 fit")
                                              .arg(fmt::format("{}", r.candidates))
                                              .arg(model)
                                              .arg(spec.cluster.gpus)
                                              .arg(hw.name)
                                              .arg(r.global_batch)
                                              .arg(fmt::format("{}", r.feasible))));
            for (std::size_t i = 0; i < r.best.size(); ++i) {
                const RankedLayout& l = r.best[i];
                fmt::print("{:>3}. {}  {}{}\n", i + 1, layout_text(l.layout),
                           cli_render(TALLY_TEXT("tally::cli", "step %1 s  MFU %2  %3 GB")
                                          .arg(fmt::format("{:.4g}", l.step_s))
                                          .arg(fmt::format("{:.3f}", l.mfu))
                                          .arg(fmt::format("{:.1f}", to_gb(l.memory_bytes)))),
                           objective == LayoutObjective::cost
                               ? cli_render(TALLY_TEXT("tally::cli", "  cost %1")
                                                .arg(fmt::format("{:.4g}", l.objective)))
                               : std::string());
            }
        }
        state.exit_code = kExitOk;
    });

    auto* min_gpus = solve->add_subcommand(
        "min-gpus", "The smallest cluster (whole nodes) that trains the spec's tokens in D days");
    min_gpus->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    min_gpus->add_option("--days", opts->days, "Training time allowed, days")->required();
    min_gpus->add_option("--max-gpus", opts->max_gpus, "Largest cluster to try (default 2^20)");
    min_gpus->add_flag("--json", opts->json, "Print one JSON object");
    min_gpus->add_option("--db", state.db_path, "Workspace database");
    min_gpus->callback([opts, &state] {
        if (!(opts->days > 0.0 && opts->days <= 1e6)) {
            throw SpecError("--days", fmt::format("{}", opts->days),
                            TALLY_TEXT("tally::cli", "a number in (0, 1e6]"));
        }
        if (opts->max_gpus < 1) {
            throw SpecError("--max-gpus", fmt::format("{}", opts->max_gpus),
                            TALLY_TEXT("tally::cli", "a whole number >= 1"));
        }
        auto [spec, hw] = load_checked_spec(opts->spec, state);
        const std::optional<MinGpusResult> r = solve_min_gpus(spec, hw, opts->days, opts->max_gpus);
        if (!r) {
            if (opts->json) {
                fmt::print("{}\n", json{{"gpus", nullptr}, {"days", opts->days}}.dump(2));
            } else {
                fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli",
                                                         "No cluster of up to %1 x %2 trains it in "
                                                         "%3 days")
                                                  .arg(fmt::format("{}", opts->max_gpus))
                                                  .arg(hw.name)
                                                  .arg(fmt::format("{}", opts->days))));
            }
            // An answer, not an error in the input: no cluster does it. Exit 1 so a script
            // that asked for a cluster can tell (as grep does when nothing matches).
            state.exit_code = kExitFailure;
            return;
        }
        PlanSpec sized = spec;
        sized.cluster.gpus = r->gpus;
        const std::int64_t global = *search_global_batch(spec);
        const PlanSpec best = apply_layout(sized, global, r->best.layout);
        if (opts->json) {
            json j = layout_json(best, hw, r->best, LayoutObjective::time);
            j["gpus"] = r->gpus;
            j["days"] = r->time.days;
            j["days_allowed"] = opts->days;
            j["days_from"] = r->time.mfu_predicted ? "predicted step" : "assumed mfu";
            j["clusters_tried"] = r->clusters_tried;
            fmt::print("{}\n", j.dump(2));
        } else if (spec.model.kind == ModelKind::params) {
            // No layers, widths or heads: a split of it would be one the model cannot say it
            // has, so the count is the answer and no layout is shown.
            fmt::print(
                "{}\n",
                cli_render(
                    TALLY_TEXT("tally::cli",
                               "%1 x %2 train it in %3 days (allowed %4) at the %5 "
                               "MFU %6; a model given by its parameter count alone "
                               "has no layers to lay out")
                        .arg(fmt::format("{}", r->gpus))
                        .arg(hw.name)
                        .arg(fmt::format("{:.4g}", r->time.days))
                        .arg(fmt::format("{}", opts->days))
                        .arg_translated("tally::cli", mfu_source_label(r->time.mfu_predicted, hw))
                        .arg(fmt::format("{:.3g}",
                                         r->time.mfu_predicted ? r->best.mfu : spec.cluster.mfu))));
        } else if (!r->time.mfu_predicted) {
            // The days rest on the spec's MFU; the layout shown is the best one that fits, and its
            // predicted step is said beside it, not used.
            fmt::print("{}\n",
                       cli_render(TALLY_TEXT("tally::cli",
                                             "%1 x %2 train it in %3 days (allowed %4) at the "
                                             "assumed MFU %5: %6  (predicted step %7 s, MFU %8)")
                                      .arg(fmt::format("{}", r->gpus))
                                      .arg(hw.name)
                                      .arg(fmt::format("{:.4g}", r->time.days))
                                      .arg(fmt::format("{}", opts->days))
                                      .arg(fmt::format("{:.4g}", spec.cluster.mfu))
                                      .arg(layout_text(r->best.layout))
                                      .arg(fmt::format("{:.4g}", r->best.step_s))
                                      .arg(fmt::format("{:.3f}", r->best.mfu))));
        } else {
            fmt::print("{}\n",
                       cli_render(TALLY_TEXT("tally::cli",
                                             "%1 x %2 train it in %3 days (allowed %4): %5  step "
                                             "%6 s  MFU %7")
                                      .arg(fmt::format("{}", r->gpus))
                                      .arg(hw.name)
                                      .arg(fmt::format("{:.4g}", r->time.days))
                                      .arg(fmt::format("{}", opts->days))
                                      .arg(layout_text(r->best.layout))
                                      .arg(fmt::format("{:.4g}", r->best.step_s))
                                      .arg(fmt::format("{:.3f}", r->best.mfu))));
        }
        if (!opts->json) {
            // What the answer costs: the budget's side of the same plan (tally plan's figures).
            const TimeEstimate& t = r->time;
            std::string budget = cli_render(
                TALLY_TEXT("tally::cli", "GPU-hours %1").arg(fmt::format("{:.4g}", t.gpu_hours)));
            if (t.has_cost) {
                budget +=
                    ", " + cli_render(TALLY_TEXT("tally::cli", "cost %1 (the price's currency)")
                                          .arg(fmt::format("{:.4g}", t.cost)));
            }
            if (t.has_energy) {
                budget += ", " + cli_render(TALLY_TEXT("tally::cli", "energy %1 kWh")
                                                .arg(fmt::format("{:.4g}", t.energy_kwh)));
            }
            fmt::print("  {}\n", budget);
        }
        state.exit_code = kExitOk;
    });
}

}  // namespace tally::cli
