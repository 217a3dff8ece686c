// `tally export` and `tally import`: a plan as a training framework's launch configuration, and a
// run's configuration read back into a plan (planner/io/launch).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/errors.h"
#include "planner/io/hf_config.h"
#include "planner/io/launch/launch_config.h"
#include "planner/io/launch/serving_launch.h"
#include "planner/io/spec_json.h"
#include "planner/serving/inference.h"
#include "planner/training/plan.h"

namespace tally::cli {

namespace {

std::string target_names() {
    std::string names;
    for (LaunchTarget t : launch_targets()) {
        names += (names.empty() ? "" : "|") + std::string(to_string(t));
    }
    return names;
}

// Training targets, then the serving engines' commands.
std::string export_target_names() {
    std::string names = target_names();
    for (ServingTarget t : serving_targets()) {
        names += "|" + std::string(to_string(t));
    }
    return names;
}

LaunchTarget parse_target(const std::string& option, const std::string& name) {
    if (const std::optional<LaunchTarget> t = launch_target_from_string(name)) {
        return *t;
    }
    throw SpecError(option, "\"" + name + "\"",
                    TALLY_TEXT("tally::cli", "one of %1").arg(target_names()));
}

std::string read_input(const std::string& path) {
    if (path == "-") {
        return std::string(std::istreambuf_iterator<char>(std::cin),
                           std::istreambuf_iterator<char>());
    }
    std::error_code kind;
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path, kind)) {
        throw SpecError("FILE", path, TALLY_TEXT("tally::cli", "a readable file"));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Writes the whole text to `path`. A regular file (or none yet) is written as a temporary file
// beside it, then renamed over it: a failed write leaves no half file, and the file keeps the
// permissions it had (a launch script stays executable). A symbolic link is followed, so the file
// it names is written and the link stays. Anything else (a device such as /dev/stdout, a pipe) is
// written in place: renaming over it would replace the device with a file. "-" or empty:
// standard output.
void write_output(const std::string& path, const std::string& text) {
    if (path.empty() || path == "-") {
        fmt::print("{}", text);
        return;
    }
    namespace fs = std::filesystem;
    fs::path target(path);
    // What the path names (through a link), and whether it is a link; a path not there yet is
    // not_found, which these error codes also report.
    std::error_code not_there;
    const fs::file_status status = fs::status(target, not_there);
    const bool link = fs::is_symlink(fs::symlink_status(target, not_there));
    if (fs::is_directory(status)) {
        throw std::runtime_error(cli_render(
            TALLY_TEXT("tally::cli", "cannot write %1: it is a folder; give a file name in it")
                .arg(path)));
    }
    const auto failed = [&](const std::string& reason) {
        return std::runtime_error(
            cli_render(TALLY_TEXT("tally::cli", "cannot write %1: %2; nothing was written")
                           .arg(path)
                           .arg(reason)));
    };
    const bool exists = fs::exists(status);
    bool in_place = (exists && !fs::is_regular_file(status)) || (link && !exists);
    if (link && exists && fs::is_regular_file(status)) {
        std::error_code unresolved;
        const fs::path named = fs::canonical(target, unresolved);
        if (unresolved) {
            in_place = true;  // written through the link itself
        } else {
            target = named;  // the file the link names, beside which to write
        }
    }
    if (in_place) {
        errno = 0;
        std::ofstream out(target, std::ios::binary);
        out << text;
        out.flush();
        if (!out) {
            throw failed(errno != 0 ? std::strerror(errno) : "write error");
        }
        return;
    }
    const fs::path temp = target.string() + ".tally-tmp";
    {
        errno = 0;
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            // The reason as the system gave it (no such folder, no permission, no space).
            const std::string reason = errno != 0 ? std::strerror(errno) : "write error";
            std::error_code ignored;
            fs::remove(temp, ignored);
            throw failed(reason);
        }
    }
    if (exists) {
        std::error_code ignored;
        fs::permissions(temp, status.permissions(), fs::perm_options::replace, ignored);
    }
    std::error_code ec;
    fs::rename(temp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw std::runtime_error(cli_render(
            TALLY_TEXT("tally::cli", "cannot write %1: %2").arg(path).arg(ec.message())));
    }
}

void print_settings(const std::string& title, const std::vector<LaunchSetting>& settings) {
    if (settings.empty()) {
        return;
    }
    std::fprintf(stderr, "%s\n", cli_render(TALLY_TEXT("tally::cli", "%1:").arg(title)).c_str());
    for (const LaunchSetting& s : settings) {
        const std::string where =
            s.line > 0 ? cli_render(TALLY_TEXT("tally::cli", "line %1: ").arg(s.line))
                       : std::string();
        const std::string field = s.spec_field.empty() ? std::string() : " -> " + s.spec_field;
        std::fprintf(stderr, "  %s%s = %s%s\n", where.c_str(), s.key.c_str(), s.value.c_str(),
                     field.c_str());
    }
}

// What an import read, on standard error: the file and its form (`title`, a literal under
// "tally::launch"), then the settings read, ignored and unknown, and what it assumed.
void print_import(const std::string& file, std::string_view title,
                  const std::vector<LaunchSetting>& read, const std::vector<LaunchSetting>& ignored,
                  const std::vector<LaunchSetting>& unknown, const std::vector<Text>& guesses) {
    std::fprintf(stderr, "%s\n",
                 cli_render(TALLY_TEXT("tally::cli", "%1 as %2")
                                .arg(file)
                                .arg_translated("tally::launch", title.data()))
                     .c_str());
    print_settings(cli_text("tally::cli", "read"), read);
    print_settings(cli_text("tally::cli", "ignored (no bearing on the plan)"), ignored);
    print_settings(cli_text("tally::cli", "not read (unknown to Tally)"), unknown);
    for (const Text& g : guesses) {
        std::fprintf(stderr, "%s%s\n", cli_lead(cli_text("tally::cli", "assumed:")).c_str(),
                     cli_render(g).c_str());
    }
}

// Refuses an output that is the input itself (the same path, or a link to the same file):
// writing it would replace the file being read. `what` names the input argument.
void refuse_overwriting_input(const std::string& input, const std::string& output,
                              const char* what) {
    if (input.empty() || input == "-" || output.empty() || output == "-") {
        return;
    }
    std::error_code ec;
    if (std::filesystem::equivalent(input, output, ec) && !ec) {
        throw SpecError("-o", output,
                        TALLY_TEXT("tally::cli",
                                   "a file other than %1 (%2), which this command reads: "
                                   "writing there would replace it")
                            .arg(what)
                            .arg(input));
    }
}

}  // namespace

void register_launch_commands(CLI::App& app, CliState& state) {
    struct Options {
        std::string spec;
        std::string target;
        std::string output;
        std::string file;
        std::string from;
        std::string hf_config;
        std::string model;  // export --to vllm|sglang|tensorrt_llm: the checkpoint
        std::int64_t gpus = 0;
        bool allow_unknown = false;
        bool quiet = false;
    };
    auto opts = std::make_shared<Options>();

    auto* exp = app.add_subcommand(
        "export",
        "A plan as a framework's launch configuration (Megatron-LM arguments, NeMo "
        "overrides, torchtitan TOML, DeepSpeed JSON, accelerate YAML), or a serving plan as "
        "its engine's command (vllm serve, SGLang's launch_server, trtllm-serve)");
    exp->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    exp->add_option("--to", opts->target, export_target_names())->required();
    exp->add_option("-o,--output", opts->output, "Write to FILE (default: standard output)");
    exp->add_option("--db", state.db_path, "Workspace database (for custom and measured GPUs)");
    exp->add_option(
        "--model", opts->model,
        "With --to vllm|sglang|tensorrt_llm: the model's checkpoint, a Hugging Face id or a local "
        "path (default: the preset's, or the model's name where it is a Hugging Face "
        "id)");
    exp->callback([opts, &state] {
        refuse_overwriting_input(opts->spec, opts->output, "SPEC");
        if (const std::optional<ServingTarget> serving = serving_target_from_string(opts->target)) {
            // A serving plan as the engine's command: the serving block checked as `tally infer`
            // checks it.
            const PlanSpec spec = load_plan_spec(opts->spec);
            if (std::optional<FieldError> error = check_inference(spec, resolve_gpu(spec, state))) {
                throw SpecError(std::move(*error));
            }
            write_output(opts->output, export_serving_command(spec, *serving, opts->model));
            state.exit_code = kExitOk;
            return;
        }
        if (!launch_target_from_string(opts->target)) {
            throw SpecError("--to", "\"" + opts->target + "\"",
                            TALLY_TEXT("tally::cli", "one of %1").arg(export_target_names()));
        }
        if (!opts->model.empty()) {
            throw SpecError("--model", "\"" + opts->model + "\"",
                            TALLY_TEXT("tally::cli",
                                       "only with --to vllm, sglang or tensorrt_llm: a training "
                                       "framework's "
                                       "file names no checkpoint"));
        }
        const LaunchTarget target = parse_target("--to", opts->target);
        const PlanSpec spec = load_plan_spec(opts->spec);
        // A plan `tally plan` refuses (a global batch that is no multiple of micro-batch x
        // data-parallel ranks, say) is one the framework refuses at start-up too: written out,
        // it would read as a working run.
        if (std::optional<FieldError> error = check(spec, resolve_gpu(spec, state))) {
            throw SpecError(std::move(*error));
        }
        const std::string text = export_launch_config(spec, target);
        // The notes head the file as comments too; standard error says them where a JSON
        // config cannot, and where the file goes unread.
        for (const Text& note : launch_export_notes(spec, target)) {
            std::fprintf(stderr, "%s %s\n", cli_text("tally::cli", "note:").c_str(),
                         cli_render(note).c_str());
        }
        write_output(opts->output, text);
        state.exit_code = kExitOk;
    });

    auto* imp = app.add_subcommand(
        "import",
        "A run's launch configuration (a Megatron-LM command line or its printed "
        "arguments, NeMo overrides, a torchtitan TOML, a DeepSpeed JSON, an accelerate "
        "YAML) as a plan spec, or a serving engine's command (vllm serve, "
        "sglang.launch_server, trtllm-serve) as a serving plan");
    imp->add_option("FILE", opts->file, "The configuration (- reads standard input)")->required();
    imp->add_option("--from", opts->from, export_target_names() + " (default: from the file)");
    imp->add_option("--hf-config", opts->hf_config,
                    "The model's Hugging Face config.json (DeepSpeed and accelerate configs do "
                    "not describe the model; a serving command's checkpoint of no preset)");
    imp->add_option("--gpus", opts->gpus,
                    "The world size, where the file leaves it to the launcher");
    imp->add_flag("--allow-unknown", opts->allow_unknown,
                  "List settings Tally does not know instead of refusing them");
    imp->add_option("-o,--output", opts->output, "Write the spec to FILE (default: stdout)");
    imp->add_flag("-q,--quiet", opts->quiet, "Do not list what was read on standard error");
    imp->callback([opts, imp, &state] {
        // A serving engine's command (vllm serve, sglang.launch_server, trtllm-serve): read as a
        // serving plan, by --from or by the program the text runs.
        const std::optional<ServingTarget> serving_from = serving_target_from_string(opts->from);
        std::optional<LaunchTarget> training_from;
        if (!opts->from.empty() && !serving_from) {
            training_from = parse_target("--from", opts->from);
        }
        refuse_overwriting_input(opts->file, opts->output, "FILE");
        const std::string text = read_input(opts->file);
        if (serving_from || (!training_from && !detect_launch_target(text, opts->file) &&
                             detect_serving_target(text))) {
            if (imp->count("--gpus") > 0) {
                throw SpecError("--gpus", std::to_string(opts->gpus),
                                TALLY_TEXT("tally::cli",
                                           "left out for a serving command: its GPUs are tp x pp "
                                           "x data-parallel replicas, as its flags say"));
            }
            ServingImportOptions options;
            options.from = serving_from;
            if (!opts->hf_config.empty()) {
                options.model = load_hf_config(opts->hf_config, "--hf-config");
            }
            options.allow_unknown = opts->allow_unknown;
            const ServingImport r = import_serving_command(text, opts->file, options);
            if (!opts->quiet) {
                print_import(opts->file, serving_target_title(r.target), r.read, r.ignored,
                             r.unknown, r.guesses);
            }
            write_output(opts->output, to_json(r.spec).dump(2) + "\n");
            state.exit_code = kExitOk;
            return;
        }
        LaunchImportOptions options;
        options.from = training_from;
        if (!opts->hf_config.empty()) {
            options.model = load_hf_config(opts->hf_config, "--hf-config");
        }
        if (imp->count("--gpus") > 0) {  // 0 given is refused like -8, not read as unset
            if (opts->gpus < 1) {
                throw SpecError("--gpus", std::to_string(opts->gpus),
                                TALLY_TEXT("tally::cli", "an integer >= 1"));
            }
            options.gpus = opts->gpus;
        }
        options.allow_unknown = opts->allow_unknown;
        const LaunchImport r = import_launch_config(text, opts->file, options);
        if (!opts->quiet) {
            print_import(opts->file, launch_target_title(r.target), r.read, r.ignored, r.unknown,
                         r.guesses);
        }
        write_output(opts->output, to_json(r.spec).dump(2) + "\n");
        state.exit_code = kExitOk;
    });
}

}  // namespace tally::cli
