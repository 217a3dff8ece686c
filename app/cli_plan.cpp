#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli.h"
#include "hardware.h"

namespace tally::cli {

void register_plan_commands(CLI::App& app, CliState& state) {
    auto* hw = app.add_subcommand("gpus", "List the built-in GPU ids");
    hw->callback([&state] {
        for (const HardwareProfile& p : builtin_hardware()) {
            fmt::print("{}\t{}\n", p.id, p.name);
        }
        state.exit_code = kExitOk;
    });
}

int run_default(CliState&) {
    fmt::print("tally: the default plan is not wired yet\n");
    return kExitOk;
}

}  // namespace tally::cli
