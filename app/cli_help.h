#pragma once

// `tally --help` in the command line's language. CLI11 prints the descriptions given to
// add_option() and add_subcommand() as they are; a formatter looks each up under the context
// "tally::help" (resources/translations) as it prints it, with CLI11's own labels ("Usage",
// "Options", "Subcommands") and group names. The texts to translate are listed, for lupdate, in
// cli_help_texts.cpp, written from the command line itself (TALLY_HELP_TEXTS=write tally) and
// checked against it by a test (TALLY_HELP_TEXTS=check tally), so that a new option's help is
// not left out.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tally::cli {

// Makes `app` and every command added after it print their help translated.
void use_translated_help(CLI::App& app);

// CLI11 prints the group of a command's subcommands ("Subcommands") as it is, not through the
// formatter: translates each subcommand's group in place. Called once every command is added
// (after help_texts() has read the groups as written).
void translate_subcommand_groups(CLI::App& app);

// Every text the help of `app` prints that a translation covers: the descriptions of the
// commands and options, the names of option groups, with a machine's own path (the default
// workspace) as %1. Sorted, without repeats.
std::vector<std::string> help_texts(const CLI::App& app);

// The TALLY_HELP_TEXTS modes: "write" prints cli_help_texts.cpp for `app` to standard output;
// "check" prints the texts of `app` that the file lacks, or that it has and `app` no longer
// prints, and returns 1 if there are any. Returns -1 when the variable is unset (run normally).
int run_help_texts_mode(const CLI::App& app);

}  // namespace tally::cli
