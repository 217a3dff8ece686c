// `tally --help` in the command line's language (cli_help.h).
#include "app/cli_help.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>

#include "app/cli_text.h"
#include "planner/store/data_paths.h"

namespace tally::cli {

// The texts lupdate reads, cli_help_texts.cpp.
extern const char* const kHelpTexts[];
extern const std::size_t kHelpTextCount;

namespace {

constexpr const char* kContext = "tally::help";

// CLI11's own words that its formatter prints through get_label() (FormatterFwd.hpp): the usage
// line, the option placeholders' types, the relations between options.
constexpr const char* kLabels[] = {
    "Usage", "OPTIONS",  "SUBCOMMAND", "SUBCOMMANDS", "Positionals", "Subcommands", "REQUIRED",
    "Needs", "Excludes", "TEXT",       "INT",         "FLOAT",       "UINT"};

// A machine's own path in a description, as %1 in the text a translation covers.
std::string as_source(const std::string& text, const std::string& path) {
    std::string out = text;
    if (!path.empty()) {
        for (std::size_t at = out.find(path); at != std::string::npos; at = out.find(path, at)) {
            out.replace(at, path.size(), "%1");
            at += 2;
        }
    }
    return out;
}

std::string workspace_path_text() {
    return default_workspace_path().string();
}

// `text` in the command line's language: looked up with the machine's path as %1, put back after.
std::string translated(const std::string& text) {
    if (text.empty()) {
        return text;
    }
    const std::string path = workspace_path_text();
    const std::string source = as_source(text, path);
    std::string out = cli_text(kContext, source.c_str());
    for (std::size_t at = out.find("%1"); at != std::string::npos; at = out.find("%1", at)) {
        out.replace(at, 2, path);
        at += path.size();
    }
    return out;
}

class TranslatingFormatter : public CLI::Formatter {
public:
    TranslatingFormatter() {
        for (const char* key : kLabels) {
            label(key, cli_text(kContext, key));
        }
    }

    std::string make_group(std::string group, bool is_positional,
                           std::vector<const CLI::Option*> opts) const override {
        return CLI::Formatter::make_group(translated(group), is_positional, std::move(opts));
    }

    std::string make_subcommand(const CLI::App* sub) const override {
        std::stringstream out;
        CLI::detail::format_help(out, sub->get_display_name(true),
                                 translated(sub->get_description()), column_width_);
        return out.str();
    }

    // The description alone: CLI11 would add how many options a command requires, which no
    // command of tally sets (require_option).
    std::string make_description(const CLI::App* app) const override {
        const std::string desc = translated(app->get_description());
        return desc.empty() ? std::string() : desc + "\n";
    }

    std::string make_option_desc(const CLI::Option* opt) const override {
        return translated(opt->get_description());
    }
};

void collect(const CLI::App& app, const std::string& path, std::set<std::string>& out) {
    if (!app.get_description().empty()) {
        out.insert(as_source(app.get_description(), path));
    }
    for (const std::string& group : app.get_groups()) {
        if (!group.empty()) {
            out.insert(group);
        }
    }
    for (const CLI::Option* opt : app.get_options()) {
        if (!opt->get_description().empty()) {
            out.insert(as_source(opt->get_description(), path));
        }
        if (!opt->get_group().empty()) {
            out.insert(opt->get_group());
        }
    }
    for (const CLI::App* sub : app.get_subcommands({})) {
        if (!sub->get_group().empty()) {
            out.insert(sub->get_group());
        }
        collect(*sub, path, out);
    }
}

// A C++ string literal of `text`, split where it is long.
std::string literal(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        switch (c) {
            case '"':
                escaped += "\\\"";
                break;
            case '\\':
                escaped += "\\\\";
                break;
            case '\n':
                escaped += "\\n";
                break;
            default:
                escaped += c;
        }
    }
    return "\"" + escaped + "\"";
}

}  // namespace

void use_translated_help(CLI::App& app) {
    app.formatter(std::make_shared<TranslatingFormatter>());
}

void translate_subcommand_groups(CLI::App& app) {
    for (CLI::App* sub : app.get_subcommands({})) {
        if (!sub->get_group().empty()) {
            sub->group(translated(sub->get_group()));
        }
        translate_subcommand_groups(*sub);
    }
}

std::vector<std::string> help_texts(const CLI::App& app) {
    std::set<std::string> texts;
    collect(app, workspace_path_text(), texts);
    texts.insert(std::begin(kLabels), std::end(kLabels));  // as TranslatingFormatter asks
    return {texts.begin(), texts.end()};
}

int run_help_texts_mode(const CLI::App& app) {
    const char* mode = std::getenv("TALLY_HELP_TEXTS");
    if (mode == nullptr) {
        return -1;
    }
    const std::vector<std::string> texts = help_texts(app);
    if (std::string_view(mode) == "write") {
        fmt::print(
            "{}",
            "// The texts of `tally --help` and of its commands' help, for lupdate: the "
            "formatter of\n// app/cli_help.cpp looks each up under \"tally::help\". Written by\n"
            "//   TALLY_HELP_TEXTS=write build/release/app/tally > app/cli_help_texts.cpp\n"
            "//   clang-format -i app/cli_help_texts.cpp\n"
            "// (a test checks it against the command line); do not edit by hand.\n"
            "#include <cstddef>\n\n#include \"planner/core/text.h\"\n\nnamespace tally::cli {\n\n"
            "extern const char* const kHelpTexts[];\nextern const std::size_t kHelpTextCount;\n\n"
            "const char* const kHelpTexts[] = {\n");
        for (const std::string& t : texts) {
            fmt::print("    QT_TRANSLATE_NOOP(\"tally::help\", {}),\n", literal(t));
        }
        fmt::print("}};\nconst std::size_t kHelpTextCount = {};\n\n}}  // namespace tally::cli\n",
                   texts.size());
        return 0;
    }
    const std::set<std::string> listed(kHelpTexts, kHelpTexts + kHelpTextCount);
    const std::set<std::string> printed(texts.begin(), texts.end());
    int problems = 0;
    for (const std::string& t : printed) {
        if (listed.count(t) == 0) {
            fmt::print("not in app/cli_help_texts.cpp: {}\n", t);
            ++problems;
        }
    }
    for (const std::string& t : listed) {
        if (printed.count(t) == 0) {
            fmt::print("in app/cli_help_texts.cpp but no longer printed: {}\n", t);
            ++problems;
        }
    }
    if (problems > 0) {
        fmt::print(
            "run: TALLY_HELP_TEXTS=write tally > app/cli_help_texts.cpp && clang-format -i "
            "app/cli_help_texts.cpp\n");
    }
    return problems > 0 ? 1 : 0;
}

}  // namespace tally::cli
