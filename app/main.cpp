// tally: the composition root. Bare, it opens the desktop app on the built-in default plan;
// with a subcommand it works headless (README.md lists the subcommands).
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/errors.h"
#include "planner/store/workspace.h"
#include "tally_version.h"

int main(int argc, char** argv) {
    using namespace tally::cli;
    CLI::App app{
        "Tally: plan the resources of training a large language model, and measure the GPU "
        "it will run on.",
        "tally"};
    app.set_version_flag("--version", "tally " TALLY_VERSION);
    CliState state;
    app.require_subcommand(0, 1);
    app.add_option("--lang", state.lang,
                   "Language of the window and of the text output: en or zh_CN (default: the "
                   "window's last choice, else LANG)")
        ->check([](const std::string& value) {
            return parse_language(value) ? std::string() : std::string("must be en or zh_CN");
        })
        ->each([](const std::string& value) { set_cli_language(value); });
    register_plan_commands(app, state);
    register_layout_commands(app, state);
    register_workspace_commands(app, state);
    register_roofline_commands(app, state);
    register_probe_commands(app, state);
    register_infer_commands(app, state);
    register_calibrate_commands(app, state);
    register_launch_commands(app, state);
#ifdef TALLY_WITH_GUI
    GuiOptions gui;
    register_gui_options(app, gui, state);
#endif

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitBadInput;
    } catch (const tally::SpecError& e) {
        std::fprintf(stderr, "tally: %s %s\n", cli_text("tally::cli", "error:").c_str(),
                     cli_error(e.error()).c_str());
        return kExitBadInput;
    } catch (const tally::WorkspaceError& e) {
        std::fprintf(stderr, "tally: %s %s\n", cli_text("tally::cli", "error:").c_str(),
                     cli_render(e.text()).c_str());
        return kExitFailure;
    } catch (const nlohmann::json::exception& e) {
        std::fprintf(stderr, "tally: %s %s\n", cli_text("tally::cli", "error:").c_str(), e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tally: %s %s\n", cli_text("tally::cli", "error:").c_str(), e.what());
        return kExitFailure;
    }
    if (app.get_subcommands().empty()) {
#ifdef TALLY_WITH_GUI
        return run_gui(argc, argv, gui, state);
#else
        return run_default(state);
#endif
    }
    return state.exit_code;
}
