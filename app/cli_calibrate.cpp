// `tally calibrate`: fit the step-time model's overall efficiency on the user's own measured run
// and store it in a workspace profile (planner/training/calibration_fit.h). Everything is read
// and checked before the workspace is opened, so bad input changes nothing.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/enum_names.h"
#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/io/spec_json.h"
#include "planner/performance/calibration.h"
#include "planner/performance/training_log.h"
#include "planner/store/workspace.h"
#include "planner/training/calibration_fit.h"

namespace tally::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string quoted(const std::string& text) {
    return quoted_value(text);
}

// Today in UTC, "2026-12-02": the date a calibration is recorded with.
std::string utc_date() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[16] = {};
    std::strftime(text, sizeof text, "%Y-%m-%d", &tm);
    return text;
}

double parse_step(const std::string& text) {
    // std::from_chars in the general format reads decimal and exponent notation only; std::stod
    // (strtod) also took hexadecimal ("0x10" as 16 s) and leading spaces.
    double value = std::nan("");
    const auto [end, ec] =
        std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        throw SpecError("--step-s", quoted(text),
                        TALLY_TEXT("tally::cli",
                                   "a measured step time as a decimal number of seconds, > 0 "
                                   "(e.g. 12.5)"));
    }
    validate_measured_step(value, "--step-s");
    return value;
}

// `skip_given`: whether --skip-records was on the command line; when it was not, an error about it
// says the default dropped the records, since the user wrote no number to look at.
TrainingLogSummary read_log_file(const std::string& path, const TrainingLogSettings& settings,
                                 bool skip_given) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw SpecError("--log", quoted(path),
                        TALLY_TEXT("tally::cli", "a readable training log file"));
    }
    TrainingLogReader reader;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        reader.add_line(line);
    }
    if (in.bad()) {
        throw SpecError("--log", quoted(path),
                        TALLY_TEXT("tally::cli", "a readable training log file (reading failed)"));
    }
    const std::int64_t skip_records = settings.skip_records;
    try {
        return reader.summary(settings);
    } catch (const SpecError& e) {
        // The reader names its own settings; here they are the options, the file the value.
        FieldError error = e.error();
        if (error.field == "rank") {
            error.field = "--rank";
        } else if (error.field == "skip_records") {
            error.field = "--skip-records";
            if (!skip_given) {
                error = FieldError::of(
                    "--skip-records", std::to_string(skip_records),
                    TALLY_TEXT("tally::cli",
                               "fewer than the log's %1 timing records: the default drops the "
                               "first %2 as warm-up; give --skip-records 0 to keep them all")
                        .arg(reader.records(settings))
                        .arg(skip_records));
            }
        } else {
            error.field = "--log";
            if (error.value.empty()) {
                error.value = quoted(path);
            }
        }
        throw SpecError(std::move(error));
    }
}

json log_json(const TrainingLogSummary& log) {
    return {{"format", std::string(to_string(log.format))},
            {"lines", log.lines},
            {"records", log.records},
            {"skipped", log.skipped},
            {"used", log.used},
            {"other_rank_records", log.other_rank_records},
            {"rank", log.rank >= 0 ? json(log.rank) : json()},
            {"first_iteration", log.first_iteration >= 0 ? json(log.first_iteration) : json()},
            {"last_iteration", log.last_iteration >= 0 ? json(log.last_iteration) : json()},
            {"median", log.median},
            {"min", log.min},
            {"max", log.max},
            {"unit", log.is_step_time() ? "s per step" : "tokens/s per GPU"}};
}

}  // namespace

void register_calibrate_commands(CLI::App& app, CliState& state) {
    struct Options {
        std::string spec;
        std::string step_s;
        std::string log;
        std::int64_t skip_records = TrainingLogSettings{}.skip_records;
        std::int64_t rank = TrainingLogSettings{}.rank;
        std::string profile;
        std::string name;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "calibrate",
        "Fit the predicted step to a measured one (--step-s, or a Megatron-LM / NeMo / torchtitan "
        "log) and store the efficiency in a workspace profile");
    cmd->add_option("SPEC", opts->spec, "The spec the run was made with (JSON; - reads stdin)")
        ->required();
    auto* step = cmd->add_option("--step-s", opts->step_s, "Measured seconds per optimizer step");
    auto* log = cmd->add_option("--log", opts->log,
                                "Training log: Megatron-LM/NeMo \"elapsed time per iteration "
                                "(ms)\", NeMo \"train_step_timing in s\" or torchtitan \"tps\"");
    step->excludes(log);
    auto* skip = cmd->add_option("--skip-records", opts->skip_records,
                                 "With --log: timing records dropped from the start as warm-up "
                                 "(default 2)");
    skip->needs(log);
    auto* rank = cmd->add_option("--rank", opts->rank,
                                 "With --log: the rank whose lines count in a log of several "
                                 "([rankN]: prefixes; default: the rank the framework prints its "
                                 "timing from, Megatron-LM's last, NeMo's and torchtitan's 0)");
    rank->needs(log);
    cmd->add_option("--profile", opts->profile,
                    "Id of the profile to store it in (default: <gpu>-calibrated, or the spec's "
                    "own profile when it is calibrated already)");
    cmd->add_option("--name", opts->name, "Name of a new profile (default: <name> (calibrated))");
    cmd->add_option("--db", state.db_path, "Workspace file");
    cmd->add_flag("--json", opts->json, "Print one JSON object");
    cmd->callback([opts, step, log, skip, rank, &state] {
        if (step->count() == 0 && log->count() == 0) {
            throw SpecError("calibrate", "neither --step-s nor --log",
                            TALLY_TEXT("tally::cli",
                                       "--step-s SECONDS (the measured step) or --log "
                                       "FILE (a training log)"));
        }
        // Everything is read and fitted before the workspace is opened for writing.
        const PlanSpec spec = load_plan_spec(opts->spec);
        const HardwareProfile profile = resolve_gpu(spec, state);
        HardwareProfile bare = profile;
        bare.calibration.reset();
        std::optional<TrainingLogSummary> summary;
        double measured_s = 0.0;
        std::string source;        // as recorded, in English
        std::string shown_source;  // in the command line's language
        std::string field;
        if (log->count() > 0) {
            if (rank->count() > 0 && opts->rank < 0) {
                throw SpecError("--rank", std::to_string(opts->rank),
                                TALLY_TEXT("tally::cli", "a rank >= 0 whose lines the log holds"));
            }
            summary = read_log_file(opts->log, {opts->skip_records, opts->rank}, skip->count() > 0);
            measured_s = measured_step_from_log(*summary, spec, bare);
            shown_source =
                cli_render(log_source(*summary, fs::path(opts->log).filename().string()));
            source = log_source_text(*summary, fs::path(opts->log).filename().string());
            field = "--log";
        } else {
            measured_s = parse_step(opts->step_s);
            source = kStepEnteredSource;
            shown_source = cli_text("tally::calibration", kStepEnteredSource);
            field = "--step-s";
        }
        const StepCalibration fit =
            fit_calibration(spec, profile, measured_s, field, source, utc_date());
        // A spec that does not fit its GPUs' memory is not the run that was measured (another
        // layout, recomputation or batch): said, since the fit itself cannot tell.
        const MemoryBreakdown memory = evaluate(spec, bare).memory;
        const std::optional<Text> doubt = calibration_doubt(spec, profile, fit);
        const std::string id =
            opts->profile.empty() ? default_calibrated_id(profile) : opts->profile;
        validate_profile_id(id, "--profile");
        std::string name = opts->name;
        if (name.empty()) {
            name = id == profile.id ? profile.name
                                    : default_calibrated_name(
                                          profile, [](const Text& t) { return cli_render(t); });
        }
        validate_display_name(name, "--name");
        Workspace ws = Workspace::open(state.db_path.empty() ? default_workspace_path()
                                                             : fs::path(state.db_path));
        if (opts->name.empty()) {
            // Calibrating a profile the workspace has again keeps its name.
            for (const HardwareProfile& existing : ws.list_profiles()) {
                if (existing.id == id) {
                    name = existing.name;
                }
            }
        }
        const HardwareProfile stored = calibrated_profile(profile, fit, id, name);
        // The calibration this one replaces, said before it is gone: nothing else keeps it.
        std::optional<StepCalibration> previous;
        for (const HardwareProfile& existing : ws.list_profiles()) {
            if (existing.id == id && existing.calibration) {
                previous = existing.calibration;
            }
        }
        if (opts->name.empty()) {
            // The name was made up here, not typed: when another profile has it, say how to
            // choose one.
            for (const HardwareProfile& other : ws.list_profiles()) {
                if (other.name == name && other.id != id) {
                    throw SpecError("--name", cli::quoted(name),
                                    TALLY_TEXT("tally::cli",
                                               "a name no other profile has (profile %1 has "
                                               "this one, the default for a new profile made "
                                               "from %2); give one with --name")
                                        .arg(other.id)
                                        .arg(profile.id));
                }
            }
        }
        const bool replaced = ws.save_calibrated_profile(stored);
        if (opts->json) {
            json out{
                {"profile",
                 {{"id", stored.id},
                  {"name", stored.name},
                  {"kind", std::string(to_string(stored.kind))}}},
                {"replaced", replaced},
                {"previous",
                 previous ? json{{"efficiency", previous->efficiency},
                                 {"spec", previous->spec_name},
                                 {"engine", previous->engine
                                                ? json(std::string(json_name(*previous->engine)))
                                                : json(nullptr)},
                                 {"note", calibration_note(*previous)}}
                          : json(nullptr)},
                {"engine", std::string(json_name(spec.training.engine))},
                {"spec_fits", memory.fits},
                {"doubt", doubt ? json(doubt->english()) : json(nullptr)},
                {"workspace", ws.path().string()},
                {"spec", spec.name},
                {"fitted_on", profile.id},
                {"efficiency", fit.efficiency},
                {"predicted_step_s", fit.predicted_step_s},
                {"measured_step_s", fit.measured_step_s},
                {"measured_on", fit.measured_on},
                {"source", fit.source},
                {"note", calibration_note(fit)},
                {"log", summary ? log_json(*summary) : json()}};
            fmt::print("{}\n", out.dump(2));
        } else {
            auto tr = [](const char* source) { return cli_text("tally::cli", source); };
            fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli", "Calibrated %1 (%2) on %3")
                                              .arg(profile.name)
                                              .arg(profile.id)
                                              .arg(spec.name.empty() ? tr("the spec")
                                                                     : quoted(spec.name))));
            fmt::print("  {:<15} {}\n", tr("predicted step"),
                       cli_render(TALLY_TEXT("tally::cli", "%1 s (the model, uncalibrated)")
                                      .arg(four_digits(fit.predicted_step_s))));
            fmt::print("  {:<15} {}\n", tr("measured step"),
                       cli_render(TALLY_TEXT("tally::cli", "%1 s (%2)")
                                      .arg(four_digits(fit.measured_step_s))
                                      .arg(shown_source)));
            fmt::print("  {:<15} {}\n", tr("efficiency"),
                       cli_render(TALLY_TEXT("tally::cli",
                                             "%1 / %2 = %3 (every step predicted on the profile "
                                             "is divided by it)")
                                      .arg(four_digits(fit.predicted_step_s))
                                      .arg(four_digits(fit.measured_step_s))
                                      .arg(fmt::format("{:.4f}", fit.efficiency))));
            fmt::print("  {:<15} {}\n", tr("engine"),
                       cli_render(TALLY_TEXT("tally::cli",
                                             "%1 (plans of another engine on the profile are "
                                             "warned that the efficiency is this one's)")
                                      .arg_translated(
                                          "tally::enums",
                                          find_enum_name(spec.training.engine)->label.data())));
            if (!memory.fits) {
                fmt::print(
                    "  {:<15} {}\n", tr("warning"),
                    cli_render(TALLY_TEXT("tally::cli",
                                          "the spec does not fit its GPUs' memory (%1 GB "
                                          "needed, %2 GB): a run of it could not have "
                                          "been measured; check that it has the run's "
                                          "layout, recomputation and batch")
                                   .arg(fmt::format("{:.1f}", memory.total_bytes / 1e9))
                                   .arg(fmt::format("{:.1f}", memory.capacity_bytes / 1e9))));
            }
            if (doubt) {
                fmt::print("  {:<15} {}\n", tr("warning"), cli_render(*doubt));
            }
            if (previous) {
                fmt::print(
                    "  {:<15} {}\n", tr("replaces"),
                    cli_render(TALLY_TEXT("tally::cli", "efficiency %1 fitted on %2 (%3), %4")
                                   .arg(fmt::format("{:.4f}", previous->efficiency))
                                   .arg(previous->spec_name.empty()
                                            ? tr("a spec")
                                            : quoted(std::as_const(previous->spec_name)))
                                   .arg_translated(
                                       "tally::enums",
                                       previous->engine
                                           ? find_enum_name(*previous->engine)->label.data()
                                           : QT_TRANSLATE_NOOP("tally::cli", "engine not recorded"))
                                   .arg(cli_render(calibration_note_text(*previous)))));
            }
            if (summary && !summary->is_step_time()) {
                fmt::print("  {:<15} {}\n", "tokens/s/GPU",
                           cli_render(TALLY_TEXT("tally::cli",
                                                 "%1 (median) -> step = tokens per step per GPU / "
                                                 "tokens/s per GPU")
                                          .arg(four_digits(summary->median))));
            }
            fmt::print(
                "  {:<15} {}\n", tr("stored in"),
                cli_render(
                    TALLY_TEXT("tally::cli", "profile %1 (%2, %3) in %4")
                        .arg(stored.id)
                        .arg(stored.name)
                        .arg_translated("tally::cli",
                                        replaced ? QT_TRANSLATE_NOOP("tally::cli",
                                                                     "calibrated again; its notes, "
                                                                     "price and TDP kept")
                                                 : QT_TRANSLATE_NOOP("tally::cli", "new"))
                        .arg(ws.path().string())));
            fmt::print(
                "  {:<15} {}\n", tr("use it"),
                cli_render(TALLY_TEXT("tally::cli", "%1 in a spec")
                               .arg(fmt::format("\"cluster\": {{\"gpu\": \"{}\"}}", stored.id))));
        }
        state.exit_code = kExitOk;
    });
}

}  // namespace tally::cli
