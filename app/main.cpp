// tally: the composition root. Bare, it opens the desktop app on the built-in default plan;
// with a subcommand it works headless (README.md lists the subcommands).
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/cli_help.h"
#include "app/cli_text.h"
#include "planner/core/errors.h"
#include "planner/store/workspace.h"
#include "tally_version.h"

namespace {

using tally::cli::cli_render;

// Whether `e` is a `Kind`. By class, not by get_name(): an ExtrasError of a subcommand carries
// the subcommand's name there.
template <typename Kind>
bool is(const CLI::Error& e) {
    return dynamic_cast<const Kind*>(&e) != nullptr;
}

// CLI11's message for a rejected command line (its English, built in CLI/Error.hpp) in the
// command line's language, the option and the value it names kept as written; a message of a
// form not known here stays in English.
// The innermost subcommand the command line reached (`solve` in `tally solve min-gpus`'s parse
// when min-gpus is missing).
const CLI::App* deepest_parsed(const CLI::App* app) {
    const CLI::App* at = app;
    while (at != nullptr && !at->get_subcommands().empty()) {
        at = at->get_subcommands().front();
    }
    return at;
}

// The option a conversion failed for, in the subcommand being run (an "ID" of `probes show` is
// not one of `profiles show`); nullptr when not found.
const CLI::Option* failed_option(const CLI::App* app, const std::string& name) {
    for (const CLI::App* at = deepest_parsed(app); at != nullptr; at = at->get_parent()) {
        for (const CLI::Option* o : at->get_options()) {
            if (o->get_name() == name || o->check_name(name)) {
                return o;
            }
        }
    }
    return nullptr;
}

std::string parse_error_text(const CLI::Error& e, const CLI::App* app = nullptr) {
    const std::string what = e.what();
    // In English, CLI11's own words (its singular and plural included).
    const auto say = [&what](const tally::Text& text) {
        std::string said = cli_render(text);
        return said == text.english() ? what : said;
    };
    std::smatch m;
    const auto matches = [&](const char* pattern) {
        return std::regex_match(what, m, std::regex(pattern));
    };
    if (is<CLI::RequiredError>(e)) {
        if (what == "A subcommand is required") {
            // `tally solve frob`: the word that is no command of `solve` was taken for nothing;
            // name it and the commands there are, not only that one is missing.
            const CLI::App* at = app != nullptr ? deepest_parsed(app) : nullptr;
            // The word is left over where the parse ended, or passed up to `tally` (fallthrough).
            std::vector<std::string> left;
            for (const CLI::App* a = at; a != nullptr && left.empty(); a = a->get_parent()) {
                left = a->remaining();
            }
            if (at != nullptr && !left.empty()) {
                std::string commands;
                for (const CLI::App* sub : at->get_subcommands({})) {
                    commands += (commands.empty() ? "" : ", ") + sub->get_name();
                }
                return cli_render(TALLY_TEXT("tally::cli", "%1 is not a command of %2; one of: %3")
                                      .arg(left.front())
                                      .arg(at->get_name())
                                      .arg(commands));
            }
            return say(TALLY_TEXT("tally::cli", "A subcommand is required"));
        }
        if (matches("(.+) is required")) {
            return say(TALLY_TEXT("tally::cli", "%1 is required").arg(m.str(1)));
        }
    } else if (is<CLI::ConversionError>(e)) {
        if (matches("Could not convert: (.+) = (.*)")) {
            // Say what the option takes, as the planner's errors do: a whole number for an id.
            const CLI::Option* option = app != nullptr ? failed_option(app, m.str(1)) : nullptr;
            const std::string type = option != nullptr ? option->get_type_name() : std::string();
            if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0) {
                return cli_render(TALLY_TEXT("tally::cli", "%1: got \"%2\"; a whole number")
                                      .arg(m.str(1))
                                      .arg(m.str(2)));
            }
            if (type.rfind("FLOAT", 0) == 0) {
                return cli_render(TALLY_TEXT("tally::cli", "%1: got \"%2\"; a number")
                                      .arg(m.str(1))
                                      .arg(m.str(2)));
            }
            return say(
                TALLY_TEXT("tally::cli", "Could not convert: %1 = %2").arg(m.str(1)).arg(m.str(2)));
        }
    } else if (is<CLI::ExtrasError>(e)) {
        if (matches("The following arguments? (?:was|were) not expected: (.*)")) {
            return say(
                TALLY_TEXT("tally::cli", "Arguments that were not expected: %1").arg(m.str(1)));
        }
    } else if (is<CLI::RequiresError>(e)) {
        if (matches("(.+) requires (.+)")) {
            return say(TALLY_TEXT("tally::cli", "%1 requires %2").arg(m.str(1)).arg(m.str(2)));
        }
    } else if (is<CLI::ExcludesError>(e)) {
        if (matches("(.+) excludes (.+)")) {
            return say(TALLY_TEXT("tally::cli", "%1 excludes %2").arg(m.str(1)).arg(m.str(2)));
        }
    } else if (is<CLI::ValidationError>(e)) {
        if (matches("(\\S+): Value (.*) not in range (.*) to (.*)")) {
            return say(TALLY_TEXT("tally::cli", "%1: %2 is not in the range %3 to %4")
                           .arg(m.str(1))
                           .arg(m.str(2))
                           .arg(m.str(3))
                           .arg(m.str(4)));
        }
        if (matches("(\\S+): (.*) not in (\\{.*\\})")) {
            return say(TALLY_TEXT("tally::cli", "%1: %2 is not one of %3")
                           .arg(m.str(1))
                           .arg(m.str(2))
                           .arg(m.str(3)));
        }
        if (matches("(\\S+): must be en or zh_CN")) {
            return say(TALLY_TEXT("tally::cli", "%1: must be en or zh_CN").arg(m.str(1)));
        }
    } else if (is<CLI::ArgumentMismatch>(e)) {
        if (matches("(.+): (\\d+) required (\\S+) missing")) {
            return say(TALLY_TEXT("tally::cli", "%1: %2 required %3 missing")
                           .arg(m.str(1))
                           .arg(m.str(2))
                           .arg(m.str(3)));
        }
    }
    return what;
}

// CLI11's failure message (CLI::FailureMessage::simple) in the command line's language, led by
// "tally: error:" as every other error of the command line is, so that a script or a reader
// can tell a rejected command line from the output of one that ran.
std::string failure_message(const CLI::App* app, const CLI::Error& e) {
    std::string out =
        "tally: " + tally::cli::cli_lead(tally::cli::cli_text("tally::cli", "error:")) +
        parse_error_text(e, app) + "\n";
    if (app->get_help_ptr() != nullptr) {
        out += cli_render(TALLY_TEXT("tally::cli", "Run with %1 for more information.")
                              .arg(app->get_help_ptr()->get_name())) +
               "\n";
    }
    return out;
}

// --lang before the command line is parsed, so that CLI11's own messages, which may come before
// the option's callback runs, are in that language too. parse() checks the value again.
void set_language_early(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        std::string value;
        if (arg == "--lang" && i + 1 < argc) {
            value = argv[i + 1];
        } else if (arg.rfind("--lang=", 0) == 0) {
            value = arg.substr(std::strlen("--lang="));
        } else {
            continue;
        }
        if (tally::cli::parse_language(value)) {
            tally::cli::set_cli_language(value);
        }
        return;
    }
}

}  // namespace

// A command's exit status once what it printed has reached its destination: a standard output
// that could not be written (a full disk behind `> run.sh`, a closed pipe) makes a command that
// succeeded exit non-zero, so that a script never takes a cut or empty file for its output.
// Buffered output is flushed here, where its error shows.
int output_written(int exit_code) {
    using namespace tally::cli;
    std::cout.flush();
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int error = errno;
    if (flushed && !std::ferror(stdout) && std::cout.good()) {
        return exit_code;
    }
    const std::string reason = !flushed && error != 0 ? std::strerror(error) : "write error";
    std::fprintf(stderr, "tally: %s%s\n", cli_lead(cli_text("tally::cli", "error:")).c_str(),
                 cli_render(TALLY_TEXT("tally::cli",
                                       "the output could not be written to standard output "
                                       "(%1); what it holds is incomplete")
                                .arg(reason))
                     .c_str());
    return exit_code != kExitOk ? exit_code : kExitFailure;
}

int main(int argc, char** argv) {
    using namespace tally::cli;
    CLI::App app{
        "Tally: plan the resources of training a large language model, and measure the GPU "
        "it will run on.",
        "tally"};
    app.set_version_flag("--version", "tally " TALLY_VERSION);
    app.failure_message(failure_message);
    set_language_early(argc, argv);
    CliState state;
    app.require_subcommand(0, 1);
    // Set before the commands are added, which inherit it.
    use_translated_help(app);
    // The options of `tally` itself (--lang) may follow a command too (`tally plan X.json --lang
    // zh_CN`): a command passes an option it does not know to `tally`. Set before the commands
    // are added, which inherit it.
    app.fallthrough();
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
    if (const int code = run_help_texts_mode(app); code >= 0) {
        return code;
    }
    translate_subcommand_groups(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitBadInput;
    } catch (const tally::SpecError& e) {
        std::fprintf(stderr, "tally: %s%s\n", cli_lead(cli_text("tally::cli", "error:")).c_str(),
                     cli_error(e.error()).c_str());
        return kExitBadInput;
    } catch (const tally::WorkspaceError& e) {
        std::fprintf(stderr, "tally: %s%s\n", cli_lead(cli_text("tally::cli", "error:")).c_str(),
                     cli_render(e.text()).c_str());
        return kExitFailure;
    } catch (const nlohmann::json::exception& e) {
        std::fprintf(stderr, "tally: %s%s\n", cli_lead(cli_text("tally::cli", "error:")).c_str(),
                     e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tally: %s%s\n", cli_lead(cli_text("tally::cli", "error:")).c_str(),
                     e.what());
        return kExitFailure;
    }
    if (app.get_subcommands().empty()) {
#ifdef TALLY_WITH_GUI
        return run_gui(argc, argv, gui, state);
#else
        return run_default(state);
#endif
    }
    return output_written(state.exit_code);
}
