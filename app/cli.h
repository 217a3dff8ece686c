#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"

namespace CLI {
class App;
}
namespace tally {
struct MeasuredRoofline;
}

namespace tally::cli {

// Exit codes of the command-line contract (docs/DEVELOPING.md, "The command line").
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;

// State shared by all subcommands: the exit code a callback sets, and global options.
struct CliState {
    int exit_code = kExitOk;
    std::string db_path;  // --db; empty: the platform's application-data folder
    std::string lang;     // --lang; empty: the window's remembered choice, the CLI's LANG
};

// Each area registers its subcommands on the root app. Callbacks throw tally::SpecError for bad
// input (exit 2) or std::exception for anything else (exit 1); main() reports both.
void register_plan_commands(CLI::App& app, CliState& state);
// `tally infer` and `tally solve max-batch`: serving plans (app/cli_infer.cpp). Registers after
// register_plan_commands, whose `solve` it adds to.
void register_infer_commands(CLI::App& app, CliState& state);
// `tally solve layout|min-gpus`: the layout search (app/cli_layout.cpp); after
// register_plan_commands, which creates `solve`.
void register_layout_commands(CLI::App& app, CliState& state);
// `tally export` and `tally import`: launch configurations of training frameworks
// (app/cli_launch.cpp).
void register_launch_commands(CLI::App& app, CliState& state);
// `tally roofline`, `tally hardware list|show`, `tally dtypes` (app/cli_roofline.cpp).
void register_roofline_commands(CLI::App& app, CliState& state);
// `tally profiles|plans|probes|compare`: the SQLite workspace (app/cli_workspace.cpp).
void register_workspace_commands(CLI::App& app, CliState& state);
// `tally calibrate`: fit the predicted step to a measured one and store it in a workspace
// profile (app/cli_calibrate.cpp).
void register_calibrate_commands(CLI::App& app, CliState& state);
// `tally probe`: run tally-probe, print and save its results (app/cli_probe.cpp).
void register_probe_commands(CLI::App& app, CliState& state);
// The measured roofline of stored probe run `run_id` (--db or the default file) with fractions of
// `promised` (null: none), as JSON and as text; for `tally probe` and `tally roofline
// --probe-run`. Throws SpecError("--probe-run", ...) when there is no such run.
MeasuredRoofline stored_measured_roofline(std::int64_t run_id, const HardwareProfile* promised,
                                          CliState& state);
nlohmann::json measured_roofline_json(const MeasuredRoofline& measured);
void print_measured_roofline(const MeasuredRoofline& measured, const HardwareProfile* promised);
// A hardware profile by id: a custom or measured one of the workspace (--db or the default
// file; none is created), else a built-in one. nullopt when neither has it.
std::optional<HardwareProfile> find_workspace_profile(const std::string& id, CliState& state);

// Where an MFU the CLI prints comes from, a source text under "tally::cli" for arg_translated():
// "assumed" (cluster.mfu), "predicted", or "predicted, calibrated" on a calibrated profile.
const char* mfu_source_label(bool predicted, const HardwareProfile& hw);

// The hardware profile a spec's cluster.gpu names: a built-in id, else a custom or measured
// profile of the workspace. Throws SpecError("cluster.gpu", ...) when neither has it.
HardwareProfile resolve_gpu(const PlanSpec& spec, CliState& state);

// `tally` with no subcommand: the GUI when it is built, else the default plan as a table.
int run_default(CliState& state);

// The desktop app (app/gui_main.cpp; builds with TALLY_BUILD_GUI define TALLY_WITH_GUI).
struct GuiOptions {
    std::string screenshot;      // --screenshot FILE: draw the window into a PNG and exit
    std::string panel;           // --panel NAME: the panel in front (MainWindow::panelIds())
    std::string spec;            // --spec FILE: open this plan instead of the autosaved one
    std::int64_t probe_run = 0;  // --probe-run ID: show this stored probe run (0: none)
};
// Also adds --db FILE at the top level, into state.db_path: the workspace the window opens
// (and, before a subcommand, the one that subcommand uses, as its own --db does).
void register_gui_options(CLI::App& app, GuiOptions& options, CliState& state);
// Runs the window; without a display (and no --screenshot) falls back to run_default().
int run_gui(int argc, char** argv, const GuiOptions& options, CliState& state);

}  // namespace tally::cli
