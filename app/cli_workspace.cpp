// `tally profiles|plans|probes|compare`: the SQLite workspace from the command line.
// Listing and showing never create a workspace: without a file there is nothing stored, and the
// built-in profiles still list. Anything that saves opens (creating, migrating) the file.
#include <fmt/chrono.h>
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/enum_names.h"
#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/hardware/probe_import.h"
#include "planner/io/compare_json.h"
#include "planner/io/json_reader.h"
#include "planner/io/spec_json.h"
#include "planner/performance/calibration.h"
#include "planner/store/workspace.h"
#include "planner/text/plan_comparison.h"
#include "planner/training/compare.h"

namespace tally::cli {

namespace {

// " on HOST" after a probe run's backend, or nothing when it names no host.
std::string host_phrase(const ProbeRunRecord& run) {
    return run.host.empty() ? std::string()
                            : cli_render(TALLY_TEXT("tally::cli", " on %1").arg(run.host));
}

// A text of this file's output in the command line's language.
std::string tr(const char* source) {
    return cli_text("tally::cli", source);
}

// A profile's kind as a person reads it; JSON keeps to_string(kind).
std::string kind_text(ProfileKind kind) {
    switch (kind) {
        case ProfileKind::builtin:
            return cli_text("tally::cli", "builtin");
        case ProfileKind::custom:
            return cli_text("tally::cli", "custom");
        case ProfileKind::measured:
            return cli_text("tally::cli", "measured");
    }
    return "?";
}

namespace fs = std::filesystem;
using nlohmann::json;

fs::path workspace_path(const CliState& state) {
    return state.db_path.empty() ? default_workspace_path() : fs::path(state.db_path);
}

Workspace open_for_writing(const CliState& state) {
    return Workspace::open(workspace_path(state));
}

// The workspace when its file exists; nothing stored otherwise (a look creates no file).
std::optional<Workspace> open_if_exists(const CliState& state) {
    const fs::path path = workspace_path(state);
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return std::nullopt;
    }
    return Workspace::open(path);
}

void print_json(const json& j) {
    fmt::print("{}\n", j.dump(2));
}

// A JSON array of `items`, each written by `to_item`.
template <typename T, typename ToItem>
json json_array(const std::vector<T>& items, ToItem to_item) {
    json out = json::array();
    for (const T& item : items) {
        out.push_back(to_item(item));
    }
    return out;
}

std::string json_string(const std::string& text) {
    return json(text).dump();
}

// A group of workspace commands ("profiles", "plans", "probes"): one of its subcommands is
// required, and --db may come before it as well as after (add_command).
CLI::App* add_group(CLI::App& app, const std::string& name, const std::string& description,
                    CliState& state) {
    auto* group = app.add_subcommand(name, description);
    group->require_subcommand(1);
    group->add_option("--db", state.db_path, "Workspace file");
    return group;
}

// Adds --db (and --json) to a subcommand; the group gets --db too, so either place works.
CLI::App* add_command(CLI::App* group, const std::string& name, const std::string& description,
                      CliState& state, bool* json_flag) {
    auto* command = group->add_subcommand(name, description);
    command->add_option("--db", state.db_path,
                        "Workspace file (default: " + default_workspace_path().string() + ")");
    if (json_flag != nullptr) {
        command->add_flag("--json", *json_flag, "Print JSON instead of a table");
    }
    return command;
}

double parse_number(const std::string& text, const std::string& field, const std::string& allowed,
                    bool allow_zero) {
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(value) || value < 0.0 ||
        (!allow_zero && value == 0.0)) {
        throw SpecError(field, json_string(text), allowed);
    }
    return value;
}

// ---- profiles -----------------------------------------------------------------------------------

// Field changes `profiles add` and `profiles edit` take.
struct ProfileEdits {
    std::string name;
    std::string vendor;
    std::string notes;
    std::string memory_bytes;
    std::string bandwidth_bytes_per_s;
    std::string tdp_w;
    std::string price_per_gpu_hour;  // "none" removes it
    std::vector<std::string> peaks;  // DTYPE=FLOP/s

    void add_options(CLI::App* command) {
        command->add_option("--vendor", vendor, "Vendor");
        command->add_option("--notes", notes, "Notes");
        command->add_option("--memory-bytes", memory_bytes, "Memory per GPU in bytes (80e9)");
        command->add_option("--bandwidth-bytes-per-s", bandwidth_bytes_per_s,
                            "Memory bandwidth in bytes/s (3.35e12)");
        command->add_option("--tdp-w", tdp_w, "Board power in watts");
        command->add_option("--price-per-gpu-hour", price_per_gpu_hour,
                            "What one GPU-hour of the part costs (compare prices each part at "
                            "its own; none removes it)");
        command->add_option("--peak", peaks,
                            "Dense peak of a dtype, DTYPE=FLOP/s (bf16=989.5e12; 0 removes it); "
                            "repeatable");
    }

    bool any_field() const {
        return !vendor.empty() || !notes.empty() || !memory_bytes.empty() ||
               !bandwidth_bytes_per_s.empty() || !tdp_w.empty() || !price_per_gpu_hour.empty() ||
               !peaks.empty();
    }

    void apply(HardwareProfile& p) const {
        if (!vendor.empty()) {
            p.vendor = vendor;
        }
        if (!notes.empty()) {
            p.notes = notes;
        }
        if (!memory_bytes.empty()) {
            p.memory_bytes = parse_number(memory_bytes, "--memory-bytes",
                                          "bytes > 0, e.g. 80e9 (GB = 1e9 bytes)", false);
        }
        if (!bandwidth_bytes_per_s.empty()) {
            p.bandwidth_bytes_per_s = parse_number(bandwidth_bytes_per_s, "--bandwidth-bytes-per-s",
                                                   "bytes/s > 0, e.g. 3.35e12", false);
        }
        if (!tdp_w.empty()) {
            p.tdp_w = parse_number(tdp_w, "--tdp-w", "watts >= 0, e.g. 700", true);
        }
        if (price_per_gpu_hour == "none") {
            p.price_per_gpu_hour.reset();
        } else if (!price_per_gpu_hour.empty()) {
            p.price_per_gpu_hour = parse_number(price_per_gpu_hour, "--price-per-gpu-hour",
                                                "a price >= 0 per GPU-hour, or none", true);
        }
        for (const std::string& peak : peaks) {
            const auto eq = peak.find('=');
            const auto type =
                eq == std::string::npos ? std::nullopt : parse_compute_type(peak.substr(0, eq));
            if (!type) {
                throw SpecError("--peak", json_string(peak),
                                "DTYPE=FLOP/s with DTYPE one of fp64, fp32, tf32, bf16, fp16, "
                                "fp8, fp4, int8 (e.g. bf16=989.5e12)");
            }
            p.peak_flops_per_s[static_cast<std::size_t>(*type)] =
                parse_number(peak.substr(eq + 1), "--peak",
                             "DTYPE=FLOP/s with FLOP/s >= 0 (e.g. bf16=989.5e12)", true);
        }
    }
};

void print_profile_table(const std::vector<HardwareProfile>& profiles) {
    fmt::print("{:<20} {:<9} {:<40} {:>10} {:>12} {:>16}\n", "id", cli_text("tally::cli", "kind"),
               cli_text("tally::cli", "name"), cli_text("tally::cli", "memory"),
               cli_text("tally::cli", "bandwidth"), cli_text("tally::cli", "bf16 peak"));
    for (const HardwareProfile& p : profiles) {
        fmt::print("{:<20} {:<9} {:<40} {:>10} {:>12} {:>16}\n", p.id, kind_text(p.kind), p.name,
                   gb_text(p.memory_bytes), tb_per_s_text(p.bandwidth_bytes_per_s),
                   tflops_text(p.peak(ComputeType::bf16)));
    }
}

void print_profile(const HardwareProfile& p, std::optional<std::int64_t> source_run) {
    fmt::print("{} ({}, {})\n", p.name, p.id, kind_text(p.kind));
    if (!p.vendor.empty()) {
        fmt::print("  {:<12} {}\n", tr("vendor"), p.vendor);
    }
    fmt::print("  {:<12} {}\n", tr("memory"), gb_text(p.memory_bytes));
    fmt::print("  {:<12} {}\n", tr("bandwidth"), tb_per_s_text(p.bandwidth_bytes_per_s));
    for (ComputeType t : kAllComputeTypes) {
        if (p.supports(t)) {
            fmt::print("  {:<12} {} {}\n", to_string(t), tflops_text(p.peak(t)),
                       cli_render(TALLY_TEXT("tally::cli", "(ridge %1 FLOP/byte)")
                                      .arg(fmt::format("{:.4g}", p.ridge_flops_per_byte(t)))));
        }
    }
    if (p.tdp_w > 0.0) {
        fmt::print("  {:<12} {:g} W\n", "TDP", p.tdp_w);
    }
    if (p.sm_count > 0) {
        fmt::print("  {:<12} {}\n", "SMs", p.sm_count);
    }
    // The network the collectives are timed on, per GPU and direction (a measured profile's is
    // what its probe run's collectives reached).
    if (p.interconnect_bytes_per_s > 0.0) {
        fmt::print(
            "  {:<12} {}\n", tr("scale-up"),
            cli_render(TALLY_TEXT("tally::cli", "%1 per GPU per direction%2")
                           .arg(tb_per_s_text(p.interconnect_bytes_per_s))
                           .arg(p.interconnect_name.empty() ? std::string()
                                                            : " (" + p.interconnect_name + ")")));
    }
    if (p.gpus_per_node > 0) {
        fmt::print("  {:<12} {}\n", tr("node"),
                   cli_render(TALLY_TEXT("tally::cli", "%1 GPUs a scale-up domain")
                                  .arg(fmt::format("{}", p.gpus_per_node))));
    }
    if (p.gpus_per_host > 0) {
        fmt::print(
            "  {:<12} {}\n", tr("host"),
            cli_render(TALLY_TEXT("tally::cli", "%1 GPUs a host (a launcher's processes a node)")
                           .arg(fmt::format("{}", p.gpus_per_host))));
    }
    if (p.inter_node_bytes_per_s > 0.0) {
        fmt::print("  {:<12} {}\n", tr("scale-out"),
                   cli_render(TALLY_TEXT("tally::cli", "%1 per GPU per direction")
                                  .arg(tb_per_s_text(p.inter_node_bytes_per_s))));
    }
    if (p.host_bytes_per_s > 0.0) {
        fmt::print("  {:<12} {}\n", tr("host link"),
                   cli_render(TALLY_TEXT("tally::cli", "%1 per GPU per direction")
                                  .arg(tb_per_s_text(p.host_bytes_per_s))));
    }
    if (p.price_per_gpu_hour) {
        fmt::print("  {:<12} {}\n", tr("price"),
                   cli_render(TALLY_TEXT("tally::cli", "%1 per GPU-hour")
                                  .arg(fmt::format("{:g}", *p.price_per_gpu_hour))));
    }
    if (source_run) {
        fmt::print("  {:<12} {}\n", tr("probe run"), *source_run);
    }
    // A calibrated profile (tally calibrate): every predicted step on it is divided by this.
    if (p.calibration) {
        fmt::print("  {:<12} {}\n", tr("calibration"),
                   cli_render(TALLY_TEXT("tally::cli",
                                         "efficiency %1 = %2 s predicted / %3 s measured; %4")
                                  .arg(fmt::format("{:.4f}", p.calibration->efficiency))
                                  .arg(fmt::format("{:.4g}", p.calibration->predicted_step_s))
                                  .arg(fmt::format("{:.4g}", p.calibration->measured_step_s))
                                  .arg(cli_render(calibration_note_text(*p.calibration)))));
        if (p.calibration->engine) {
            fmt::print(
                "  {:<12} {}\n", tr("engine"),
                cli_text("tally::enums", find_enum_name(*p.calibration->engine)->label.data()));
        }
    }
    if (!p.notes.empty()) {
        fmt::print("  {:<12} {}\n", tr("notes"), p.notes);
    }
    for (const std::string& s : p.sources) {
        fmt::print("  {:<12} {}\n", tr("source"), s);
    }
    // GEMM times a probe measured (tally probe --plan); plans on this profile use them.
    for (const MeasuredGemm& g : p.measured_gemms) {
        const double flops = 2.0 * static_cast<double>(g.count) * static_cast<double>(g.m) *
                             static_cast<double>(g.n) * static_cast<double>(g.k);
        fmt::print("  GEMM time    {} {}x{}x{}{}: {:.4g} s ({})\n", to_string(g.type), g.m, g.n,
                   g.k, g.count == 1 ? std::string() : fmt::format(" x {}", g.count), g.seconds,
                   tflops_text(flops / g.seconds));
    }
}

// The open workspace, or null when there is none (a look that created no file).
Workspace* or_null(std::optional<Workspace>& ws) {
    return ws ? &*ws : nullptr;
}

// A profile by id: the workspace's (a stored one before a built-in of the same id) or, without a
// workspace, the catalog's. Otherwise a SpecError naming `field`.
HardwareProfile require_profile(Workspace* ws, const std::string& id,
                                const std::string& field = "profile") {
    if (ws != nullptr) {
        if (auto p = ws->find_profile(id)) {
            return *p;
        }
    } else if (const HardwareProfile* p = find_builtin_hardware(id)) {
        return *p;
    }
    throw SpecError(field, json_string(id),
                    TALLY_TEXT("tally::cli",
                               "the id of a profile (built-in: %1; stored ones: tally profiles "
                               "list)")
                        .arg(builtin_hardware_ids()));
}

std::string read_text_file(const std::string& path) {
    if (path == "-") {
        return std::string(std::istreambuf_iterator<char>(std::cin), {});
    }
    std::error_code kind;
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path, kind)) {
        throw SpecError("FILE", json_string(path),
                        TALLY_TEXT("tally::cli", "a readable profile file (JSON)"));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void register_profiles(CLI::App& app, CliState& state) {
    struct Options {
        bool json = false;
        std::string id;
        std::string from;
        std::int64_t from_run = 0;
        std::string base;
        std::string new_id;
        std::string file;
        bool force = false;
        bool allow_failed_run = false;
        ProfileEdits edits;
    };
    auto opts = std::make_shared<Options>();
    auto* group = add_group(
        app, "profiles",
        "Hardware profiles: built-in (read-only), custom copies, measured by a probe", state);

    auto* list =
        add_command(group, "list", "Every profile, built-in ones first", state, &opts->json);
    list->callback([opts, &state] {
        auto ws = open_if_exists(state);
        const std::vector<HardwareProfile> all = ws ? ws->list_profiles() : builtin_hardware();
        if (opts->json) {
            print_json(json_array(all, [](const HardwareProfile& p) { return to_json(p); }));
        } else {
            print_profile_table(all);
        }
        state.exit_code = kExitOk;
    });

    auto* show = add_command(group, "show", "One profile with every field", state, &opts->json);
    show->add_option("ID", opts->id, "Profile id")->required();
    show->callback([opts, &state] {
        auto ws = open_if_exists(state);
        const HardwareProfile p = require_profile(or_null(ws), opts->id);
        // Set in two steps: GCC 12 at -O3 took the one-line conditional's empty optional for
        // an uninitialized one (-Wmaybe-uninitialized).
        std::optional<std::int64_t> run;
        if (ws) {
            run = ws->profile_source_run(p.id);
        }
        if (opts->json) {
            json out = to_json(p);
            out["source_run_id"] = run ? json(*run) : json(nullptr);
            print_json(out);
        } else {
            print_profile(p, run);
        }
        state.exit_code = kExitOk;
    });

    auto* exp = add_command(group, "export", "Print a profile's JSON (for `profiles import`)",
                            state, nullptr);
    exp->add_option("ID", opts->id, "Profile id")->required();
    exp->callback([opts, &state] {
        auto ws = open_if_exists(state);
        print_json(to_json(require_profile(or_null(ws), opts->id)));
        state.exit_code = kExitOk;
    });

    auto* imp = add_command(group, "import", "Add the profile a JSON file holds (its id and name)",
                            state, &opts->json);
    imp->add_option("FILE", opts->file, "Profile JSON (from `profiles export`; - reads stdin)")
        ->required();
    imp->add_option("--id", opts->new_id, "Store it under this id instead");
    imp->add_option("--name", opts->edits.name, "Store it under this name instead");
    imp->callback([opts, &state] {
        const std::string text = read_text_file(opts->file);
        throw_if_nested_too_deep(text, opts->file, "");
        json doc;
        try {
            doc = json::parse(text);
        } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e400
            throw_if_number_overflow(text, "profile");
            throw SpecError(opts->file, "text that is not JSON",
                            std::string("a JSON profile (") + e.what() + ")");
        }
        throw_if_duplicate_key(text, "profile");
        HardwareProfile p = hardware_from_json(doc, "profile");
        // A shared copy of a catalog entry is the user's own now.
        if (p.kind == ProfileKind::builtin) {
            p.kind = ProfileKind::custom;
        }
        if (!opts->new_id.empty()) {
            p.id = opts->new_id;
        }
        if (!opts->edits.name.empty()) {
            p.name = opts->edits.name;
        }
        Workspace ws = open_for_writing(state);
        ws.add_profile(p);
        if (opts->json) {
            print_json({{"id", p.id}, {"name", p.name}, {"kind", to_string(p.kind)}});
        } else {
            fmt::print("{}\n",
                       cli_render(TALLY_TEXT("tally::cli", "imported %1 profile %2 (%3) into %4")
                                      .arg(kind_text(p.kind))
                                      .arg(p.id)
                                      .arg(p.name)
                                      .arg(ws.path().string())));
        }
        state.exit_code = kExitOk;
    });

    auto* add = add_command(group, "add",
                            "Add a custom profile copied from another (--from), or a measured one "
                            "from a probe run (--from-run)",
                            state, &opts->json);
    auto* from = add->add_option("--from", opts->from, "Profile to copy (built-in or stored)");
    auto* from_run = add->add_option("--from-run", opts->from_run, "Probe run to measure from");
    from->excludes(from_run);
    add->add_option("--base", opts->base, "With --from-run: profile whose other figures to keep")
        ->needs(from_run);
    add->add_flag("--allow-failed-run", opts->allow_failed_run,
                  "With --from-run: make the profile from a run whose status is failed (it "
                  "stopped before its end, or a test failed) out of the passed, validated results "
                  "it has")
        ->needs(from_run);
    add->add_option("--id", opts->new_id, "Id of the new profile (letters, digits, . _ -)")
        ->required();
    add->add_option("--name", opts->edits.name, "Name of the new profile")->required();
    opts->edits.add_options(add);
    add->callback([opts, from, from_run, &state] {
        if (from->count() == 0 && from_run->count() == 0) {
            throw SpecError("profiles add", "neither --from nor --from-run",
                            "--from ID (copy a profile) or --from-run RUN (measured)");
        }
        Workspace ws = open_for_writing(state);
        HardwareProfile p;
        if (from_run->count() > 0) {
            if (opts->edits.any_field()) {
                throw SpecError("profiles add --from-run", "field options",
                                "none: a measured profile takes its figures from the run; change "
                                "them afterwards with `tally profiles edit`");
            }
            // A failed run may lack the very results a profile is made of (a run cut short
            // measured only its first tests): made only when asked for. A run still being
            // recorded is refused by the workspace.
            const std::optional<ProbeRunRecord> run = ws.find_probe_run(opts->from_run);
            if (run && run->status == ProbeRunStatus::failed && !opts->allow_failed_run) {
                throw SpecError(
                    "--from-run", std::to_string(opts->from_run),
                    TALLY_TEXT("tally::cli",
                               "a probe run whose status is ok: probe run %1 (%2%3, started %4) "
                               "is failed, with %5 results: it stopped before its end or a test "
                               "failed. Add --allow-failed-run to make the profile from the "
                               "passed, validated results it has")
                        .arg(std::to_string(run->id))
                        .arg(run->backend)
                        .arg(host_phrase(*run))
                        .arg(run->started_at)
                        .arg(std::to_string(run->results.size())));
            }
            p = ws.add_measured_profile(opts->from_run, opts->base, opts->new_id, opts->edits.name);
        } else {
            const HardwareProfile base = require_profile(&ws, opts->from, "--from");
            p = duplicate_profile(base, opts->new_id, opts->edits.name);
            opts->edits.apply(p);
            // The copied notes and sources describe the base's figures: each figure changed here
            // is said beside them, so that no reader takes it for the datasheet's.
            std::string changed;
            const auto say = [&](const std::string& what, double now, double was) {
                if (now != was) {
                    changed += fmt::format("{}{} {:.4g} (was {:.4g})", changed.empty() ? "" : "; ",
                                           what, now, was);
                }
            };
            say("memory bytes", p.memory_bytes, base.memory_bytes);
            say("bandwidth bytes/s", p.bandwidth_bytes_per_s, base.bandwidth_bytes_per_s);
            say("TDP W", p.tdp_w, base.tdp_w);
            for (const ComputeType type : kAllComputeTypes) {
                const auto i = static_cast<std::size_t>(type);
                say(std::string(to_string(type)) + " dense peak FLOP/s", p.peak_flops_per_s[i],
                    base.peak_flops_per_s[i]);
            }
            if (!changed.empty()) {
                p.sources.insert(p.sources.begin() + 1,
                                 "changed from " + base.id + " by hand: " + changed);
            }
            ws.add_profile(p);
        }
        if (opts->json) {
            print_json(to_json(p));
        } else {
            fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli", "added %1 profile %2 (%3) to %4")
                                              .arg(kind_text(p.kind))
                                              .arg(p.id)
                                              .arg(p.name)
                                              .arg(ws.path().string())));
        }
        state.exit_code = kExitOk;
    });

    auto* edit = add_command(group, "edit", "Change fields of a custom or measured profile", state,
                             &opts->json);
    edit->add_option("ID", opts->id, "Profile id")->required();
    auto* new_name = edit->add_option("--name", opts->edits.name, "New name");
    opts->edits.add_options(edit);
    edit->callback([opts, new_name, &state] {
        if (new_name->count() > 0 && opts->edits.name.empty()) {
            throw SpecError("--name", "\"\"",
                            TALLY_TEXT("tally::cli",
                                       "a name that is not empty (a profile keeps "
                                       "one)"));
        }
        if (opts->edits.name.empty() && !opts->edits.any_field()) {
            throw SpecError("profiles edit", "no change",
                            TALLY_TEXT("tally::cli",
                                       "at least one of --name, --vendor, --notes, "
                                       "--memory-bytes, --bandwidth-bytes-per-s, --tdp-w, "
                                       "--price-per-gpu-hour, --peak"));
        }
        Workspace ws = open_for_writing(state);
        auto p = ws.find_profile(opts->id);
        if (!p) {
            throw SpecError("profile", json_string(opts->id),
                            TALLY_TEXT("tally::cli", "the id of a stored profile"));
        }
        if (!opts->edits.name.empty()) {
            p->name = opts->edits.name;
        }
        opts->edits.apply(*p);
        ws.update_profile(*p);
        if (opts->json) {
            print_json(to_json(*p));
        } else {
            fmt::print(
                "{}\n",
                cli_render(
                    TALLY_TEXT("tally::cli", "saved profile %1 (%2)").arg(p->id).arg(p->name)));
        }
        state.exit_code = kExitOk;
    });

    auto* rm = add_command(group, "rm", "Remove a custom or measured profile", state, nullptr);
    rm->add_option("ID", opts->id, "Profile id")->required();
    rm->add_flag("--force", opts->force,
                 "Remove it even when saved plans run on it (they then need another GPU)");
    rm->callback([opts, &state] {
        Workspace ws = open_for_writing(state);
        // A built-in profile is refused for what it is before anything else: --force, which
        // the saved plans' refusal offers, could not remove it either.
        const std::vector<HardwareProfile> stored = ws.stored_profiles();
        const bool is_stored =
            std::any_of(stored.begin(), stored.end(),
                        [&](const HardwareProfile& p) { return p.id == opts->id; });
        if (!is_stored) {
            ws.remove_profile(opts->id);  // throws: read-only, or no such profile
        }
        if (!opts->force) {
            // Saved plans name their GPU by profile id: without the profile they no longer plan.
            const std::vector<std::string> users = ws.plans_on_profile(opts->id);
            if (!users.empty()) {
                std::string names;
                for (const std::string& n : users) {
                    names += (names.empty() ? "" : ", ") + n;
                }
                throw SpecError(
                    "profiles rm", opts->id,
                    users.size() == 1
                        ? TALLY_TEXT("tally::cli",
                                     "a profile no saved plan runs on; the saved plan %1 does: "
                                     "pick another GPU for it first, or give --force to remove "
                                     "the profile anyway")
                              .arg(names)
                        : TALLY_TEXT("tally::cli",
                                     "a profile no saved plan runs on; %1 saved plans do (%2): "
                                     "pick another GPU for them first, or give --force to remove "
                                     "the profile anyway")
                              .arg(static_cast<std::int64_t>(users.size()))
                              .arg(names));
            }
        }
        ws.remove_profile(opts->id);
        fmt::print("{}\n",
                   cli_render(TALLY_TEXT("tally::cli", "removed profile %1").arg(opts->id)));
        state.exit_code = kExitOk;
    });
}

// ---- plans --------------------------------------------------------------------------------------

json plan_summary(const StoredPlan& p) {
    return {
        {"id", p.id}, {"name", p.name}, {"created_at", p.created_at}, {"updated_at", p.updated_at}};
}

StoredPlan require_plan(Workspace* ws, const std::string& key) {
    if (ws != nullptr) {
        if (auto plan = ws->find_plan(key)) {
            return *plan;
        }
    }
    throw SpecError("plan", json_string(key),
                    TALLY_TEXT("tally::cli", "the name or id of a saved plan (tally plans list)"));
}

void register_plans(CLI::App& app, CliState& state) {
    struct Options {
        bool json = false;
        bool replace = false;
        std::string key;
        std::string spec;
        std::string name;
    };
    auto opts = std::make_shared<Options>();
    auto* group = add_group(app, "plans", "Saved plans", state);

    auto* list = add_command(group, "list", "Every saved plan, by name", state, &opts->json);
    list->callback([opts, &state] {
        auto ws = open_if_exists(state);
        const std::vector<StoredPlan> plans = ws ? ws->list_plans() : std::vector<StoredPlan>{};
        if (opts->json) {
            print_json(json_array(plans, plan_summary));
        } else {
            fmt::print("{:>5}  {:<48} {:<20}\n", "id", tr("name"), tr("updated"));
            for (const StoredPlan& p : plans) {
                fmt::print("{:>5}  {:<48} {:<20}\n", p.id, p.name, p.updated_at);
            }
        }
        state.exit_code = kExitOk;
    });

    auto* show = add_command(group, "show", "A saved plan and its spec", state, &opts->json);
    show->add_option("PLAN", opts->key, "Name or id")->required();
    show->callback([opts, &state] {
        auto ws = open_if_exists(state);
        const StoredPlan p = require_plan(or_null(ws), opts->key);
        if (opts->json) {
            // Every plan was saved as checked JSON; one that does not parse was damaged in the
            // file, which is not the user's input (exit 1, not 2).
            json spec = json::parse(p.spec_json, nullptr, false);
            if (spec.is_discarded()) {
                throw WorkspaceError(
                    WorkspaceProblem::corrupt, ws->path(),
                    TALLY_TEXT("tally::workspace",
                               "workspace %1: stored plan %2 (%3) does not read back as JSON. Was "
                               "the file edited by hand? `tally plans show` without --json prints "
                               "its text.")
                        .arg(ws->path().string())
                        .arg(p.id)
                        .arg(json_string(p.name)));
            }
            json out = plan_summary(p);
            out["spec"] = std::move(spec);
            print_json(out);
        } else {
            fmt::print("{}\n{}\n{}\n",
                       cli_render(TALLY_TEXT("tally::cli", "plan %1: %2").arg(p.id).arg(p.name)),
                       cli_render(TALLY_TEXT("tally::cli", "created %1, updated %2")
                                      .arg(p.created_at)
                                      .arg(p.updated_at)),
                       p.spec_json);
        }
        state.exit_code = kExitOk;
    });

    auto* save = add_command(group, "save", "Save a spec file as a named plan", state, &opts->json);
    save->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    save->add_option("--name", opts->name, "Name of the plan")->required();
    save->add_flag("--replace", opts->replace, "Overwrite the plan of that name if there is one");
    save->callback([opts, &state] {
        const PlanSpec spec = load_plan_spec(opts->spec);
        // A plan names a GPU the catalog or the workspace has, as `tally plan` needs it to.
        (void)resolve_gpu(spec, state);
        Workspace ws = open_for_writing(state);
        std::int64_t id = 0;
        const auto existing = opts->replace ? ws.find_plan(opts->name) : std::nullopt;
        if (existing && existing->name == opts->name) {
            id = existing->id;
            ws.update_plan(*existing, spec);  // only while it is still that plan
        } else {
            if (const auto taken = ws.find_plan(opts->name); taken && taken->name == opts->name) {
                // Say the option that overwrites it.
                throw SpecError("--name", json_string(opts->name),
                                TALLY_TEXT("tally::cli",
                                           "a name no other plan has (plan %1 has it), or "
                                           "--replace to overwrite that plan")
                                    .arg(taken->id));
            }
            id = ws.save_plan(opts->name, spec);
        }
        if (opts->json) {
            print_json({{"id", id}, {"name", opts->name}});
        } else {
            fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli", "saved plan %1 (%2) in %3")
                                              .arg(id)
                                              .arg(opts->name)
                                              .arg(ws.path().string())));
        }
        state.exit_code = kExitOk;
    });

    // Saved plans side by side: each its own spec on its own GPU (planner/text/plan_comparison.h;
    // the Saved plans panel's Compare shows the same lines).
    auto keys = std::make_shared<std::vector<std::string>>();
    auto* compare = add_command(group, "compare",
                                "2 to 6 saved plans side by side: GPUs, layout, memory, "
                                "step, days, GPU-hours, cost, energy",
                                state, &opts->json);
    compare->add_option("PLANS", *keys, "Names or ids")->required();
    compare->callback([opts, keys, &state] {
        if (keys->size() < kMinComparedPlans || keys->size() > kMaxComparedPlans) {
            throw SpecError("PLANS", std::to_string(keys->size()),
                            TALLY_TEXT("tally::compare", "2 to 6 plans to compare"));
        }
        auto ws = open_if_exists(state);
        std::vector<ComparedPlan> plans;
        // A plan that cannot be planned any more is shown with its reason, and the command
        // exits 2, as for any plan the CLI cannot evaluate.
        bool any_refused = false;
        for (const std::string& key : *keys) {
            const StoredPlan stored = require_plan(or_null(ws), key);
            const PlanSpec spec = plan_spec_from_text(stored.spec_json);
            try {
                plans.push_back(compared_plan(stored.name, spec, resolve_gpu(spec, state)));
            } catch (const SpecError& e) {  // its GPU's profile is gone from the workspace
                ComparedPlan refused;
                refused.name = stored.name;
                refused.spec = spec;
                refused.hardware.id = spec.cluster.gpu;
                refused.error = e.error();
                plans.push_back(std::move(refused));
                any_refused = true;
            }
        }
        const int exit_code = any_refused ? kExitBadInput : kExitOk;
        if (opts->json) {
            print_json(plan_comparison_json(plans));
            state.exit_code = exit_code;
            return;
        }
        const std::vector<ComparisonLine> lines = plan_comparison_lines(plans);
        std::size_t label_width = 0;
        for (const ComparisonLine& l : lines) {
            label_width =
                std::max(label_width, display_columns(cli_text("tally::compare", l.label)));
        }
        // One block a plan, its figures under its name: columns of free text would wrap.
        for (std::size_t i = 0; i < plans.size(); ++i) {
            fmt::print("{}{}\n", i == 0 ? "" : "\n", plans[i].name);
            for (const ComparisonLine& l : lines) {
                const std::string label = cli_text("tally::compare", l.label);
                fmt::print("  {}{}  {}\n", label,
                           std::string(label_width - display_columns(label), ' '),
                           cli_render(l.values[i]));
            }
        }
        state.exit_code = exit_code;
    });

    auto* rm = add_command(group, "rm", "Remove a saved plan", state, nullptr);
    rm->add_option("PLAN", opts->key, "Name or id")->required();
    rm->callback([opts, &state] {
        Workspace ws = open_for_writing(state);
        const StoredPlan plan = require_plan(&ws, opts->key);
        ws.remove_plan(plan);  // only while it is still that plan
        fmt::print(
            "{}\n",
            cli_render(
                TALLY_TEXT("tally::cli", "removed plan %1 (%2)").arg(plan.id).arg(plan.name)));
        state.exit_code = kExitOk;
    });
}

// ---- probe runs ---------------------------------------------------------------------------------

json run_json(const ProbeRunRecord& run, bool with_results) {
    json out = {{"id", run.id},
                {"started_at", run.started_at},
                {"finished_at", run.finished_at.empty() ? json(nullptr) : json(run.finished_at)},
                {"backend", run.backend},
                {"host", run.host},
                {"status", to_string(run.status)},
                {"device", stored_device_json(run)},
                {"result_count", run.results.size()}};
    if (with_results) {
        out["results"] = json_array(run.results, probe_result_json);
    }
    return out;
}

std::string device_name(const ProbeRunRecord& run) {
    return stored_device_name(run).value_or("-");
}

void register_probes_import(CLI::App* group, CliState& state);

void register_probes(CLI::App& app, CliState& state) {
    struct Options {
        bool json = false;
        std::int64_t id = 0;
    };
    auto opts = std::make_shared<Options>();
    auto* group = add_group(app, "probes", "Stored probe runs and their results", state);

    auto* list = add_command(group, "list", "Every probe run, newest first", state, &opts->json);
    list->callback([opts, &state] {
        auto ws = open_if_exists(state);
        const auto runs = ws ? ws->list_probe_runs() : std::vector<ProbeRunRecord>{};
        if (opts->json) {
            print_json(
                json_array(runs, [](const ProbeRunRecord& r) { return run_json(r, false); }));
        } else {
            fmt::print("{:>5}  {:<22} {:<7} {:<8} {:<16} {:<32} {:>7}\n", "id", "started",
                       "backend", "status", "host", "device", "results");
            for (const ProbeRunRecord& r : runs) {
                fmt::print("{:>5}  {:<22} {:<7} {:<8} {:<16} {:<32} {:>7}\n", r.id, r.started_at,
                           r.backend, to_string(r.status), r.host, device_name(r),
                           r.results.size());
            }
        }
        state.exit_code = kExitOk;
    });

    register_probes_import(group, state);

    auto* rm = add_command(group, "rm",
                           "Remove a stored probe run and its results (refused while a measured "
                           "profile was made from it, or while it is being recorded)",
                           state, nullptr);
    rm->add_option("ID", opts->id, "Probe run id")->required();
    rm->footer(
        "Exit status: 0 removed; 2 no such run, a measured profile was made from it (the message "
        "names it) or it is being recorded; nothing is removed then; 1 the workspace could not "
        "be written.");
    rm->callback([opts, &state] {
        auto ws = open_if_exists(state);
        const auto run = ws ? ws->find_probe_run(opts->id) : std::nullopt;
        if (!run) {
            throw SpecError(
                "probe run", std::to_string(opts->id),
                TALLY_TEXT("tally::cli", "the id of a stored probe run (tally probes list)"));
        }
        ws->remove_probe_run(run->id);
        fmt::print("{}\n",
                   cli_render(TALLY_TEXT("tally::cli",
                                         "removed probe run %1 (%2%3, started %4, %5, %6 results) "
                                         "from %7")
                                  .arg(std::to_string(run->id))
                                  .arg(run->backend)
                                  .arg(host_phrase(*run))
                                  .arg(run->started_at)
                                  .arg(std::string(to_string(run->status)))
                                  .arg(std::to_string(run->results.size()))
                                  .arg(ws->path().string())));
        state.exit_code = kExitOk;
    });

    auto* show = add_command(group, "show", "One probe run with its results", state, &opts->json);
    show->add_option("ID", opts->id, "Probe run id")->required();
    show->callback([opts, &state] {
        auto ws = open_if_exists(state);
        const auto run = ws ? ws->find_probe_run(opts->id) : std::nullopt;
        if (!run) {
            throw SpecError(
                "probe run", std::to_string(opts->id),
                TALLY_TEXT("tally::cli", "the id of a stored probe run (tally probes list)"));
        }
        if (opts->json) {
            print_json(run_json(*run, true));
            state.exit_code = kExitOk;
            return;
        }
        fmt::print(
            "{}\n",
            cli_render(TALLY_TEXT("tally::cli", "probe run %1: %2 on %3 (%4), %5 to %6, %7")
                           .arg(fmt::format("{}", run->id))
                           .arg(run->backend)
                           .arg(run->host)
                           .arg(device_name(*run))
                           .arg(run->started_at)
                           .arg(run->finished_at.empty() ? std::string("-") : run->finished_at)
                           .arg(to_string(run->status))));
        // The test column as wide as its longest name, so long names keep the columns in line;
        // a collective's bus bandwidth (nccl-tests' busbw, what a measured profile takes) beside
        // its algorithm bandwidth.
        std::size_t name_width = 10;
        bool bus = false;
        for (const ProbeResultRecord& r : run->results) {
            name_width = std::max(name_width, probe_case_name(r).size());
            bus = bus || r.bus_bytes_per_s.has_value();
        }
        fmt::print("{:<{}} {:<6} {:>16} {:>14} {:>14} {:>11} {:>8} {:>7} {:<8} {:<9} {}\n", "test",
                   name_width, "dtype", "FLOP/s", "bytes/s", bus ? "bus bytes/s" : "", "median s",
                   "stdrel", "samples", "status", "validated", "sizes");
        for (const ProbeResultRecord& r : run->results) {
            fmt::print("{:<{}} {:<6} {:>16} {:>14} {:>14} {:>11} {:>8} {:>7} {:<8} {:<9} {}{}\n",
                       probe_case_name(r), name_width, r.dtype, four_digits_or_dash(r.flops_per_s),
                       four_digits_or_dash(r.bytes_per_s),
                       bus ? four_digits_or_dash(r.bus_bytes_per_s) : std::string(),
                       four_digits_or_dash(r.median_s), four_digits_or_dash(r.stdrel), r.samples,
                       to_string(r.status), r.validated ? "yes" : "no", r.sizes_json,
                       r.reason.empty() ? "" : "  (" + r.reason + ")");
        }
        state.exit_code = kExitOk;
    });
}

// `tally probes import FILE`: a run recorded elsewhere, as tally-probe's JSON lines or nccl-tests'
// text output. The file is read whole and parsed before the workspace is touched, and the run
// goes in with one transaction: a damaged file or a repeat leaves the workspace as it was.
void register_probes_import(CLI::App* group, CliState& state) {
    struct Options {
        std::string file;
        std::string format = "auto";
        std::string collective;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();
    auto* import = add_command(group, "import",
                               "Import a probe run recorded elsewhere: tally-probe JSON lines "
                               "(ssh gpu tally-probe > run.jsonl, a Slurm job's output) or an "
                               "nccl-tests log (all_reduce_perf, all_gather_perf, "
                               "reduce_scatter_perf, alltoall_perf, sendrecv_perf)",
                               state, &opts->json);
    import->add_option("FILE", opts->file, "The file to import")->required();
    import
        ->add_option("--format", opts->format, "auto (from the content), tally-probe or nccl-tests")
        ->check(CLI::IsMember({"auto", "tally-probe", "nccl-tests"}))
        ->capture_default_str();
    import->add_option("--collective", opts->collective,
                       "For an nccl-tests log that does not name its test (older versions) and "
                       "whose file name does not either: all_reduce, all_gather, "
                       "reduce_scatter, alltoall or sendrecv");
    import->footer(
        "A file that holds more of a stored run that did not end ok (a copy cut short, or a run "
        "whose recorder died) completes that run in place, and says so. "
        "Exit status: 0 imported; 2 the file is missing, damaged (the message names the line) or "
        "stored already (the message names the stored run); nothing is written then; 1 the "
        "workspace could not be written.");
    import->callback([opts, &state] {
        const std::string& file = opts->file;
    std::string text;
    if (file == "-") {  // a probe run piped in: ssh gpu tally-probe ... | tally probes import -
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else {
        std::error_code kind;
        if (std::filesystem::is_directory(file, kind)) {
            throw SpecError("FILE", json_string(file),
                            TALLY_TEXT("tally::cli", "a file, not a folder"));
        }
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            throw SpecError("FILE", json_string(file), TALLY_TEXT("tally::cli", "a readable file"));
        }
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (in.bad()) {
            throw SpecError("FILE", json_string(file), TALLY_TEXT("tally::cli", "a readable file"));
        }
    }
    const ProbeFileFormat format = opts->format == "auto" ? detect_probe_file_format(text, file)
                                                          : *parse_probe_file_format(opts->format);
    const std::string now = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
    bool ended_without_done = false;
    bool ended_without_summary = false;
    const ProbeRunRecord run =
        format == ProbeFileFormat::tally_probe
            ? probe_run_from_json_lines(text, file, &ended_without_done)
            : probe_run_from_nccl_tests(text, file, opts->collective, now, &ended_without_summary);
    Workspace ws = open_for_writing(state);
    ImportedProbeRun imported;
    try {
        imported = ws.import_probe_run(run);
    } catch (const DuplicateProbeRun& e) {
        throw SpecError(file, "", e.what());
    }
    const std::int64_t id = imported.id;
    const auto stored = ws.find_probe_run(id);
    if (opts->json) {
        json out = run_json(*stored, false);
        out["format"] = std::string(to_string(format));
        out["file"] = file;
        out["workspace"] = ws.path().string();
        out["replaced"] = imported.replaced_status
                              ? json{{"status", std::string(to_string(*imported.replaced_status))},
                                     {"result_count", imported.replaced_result_count}}
                              : json(nullptr);
        print_json(out);
    } else {
        fmt::print(
            "{}\n",
            cli_render(
                TALLY_TEXT("tally::cli",
                           "imported %1 (%2, %3 results%4) as probe "
                           "run %5 in %6")
                    .arg(file)
                    .arg(to_string(format))
                    .arg(fmt::format("{}", stored->results.size()))
                    .arg(stored->host.empty()
                             ? std::string()
                             : cli_render(TALLY_TEXT("tally::cli", " from %1").arg(stored->host)))
                    .arg(fmt::format("{}", id))
                    .arg(ws.path().string())));
        if (imported.replaced_status) {
            fmt::print(
                "{}\n",
                cli_render(TALLY_TEXT("tally::cli",
                                      "this file completes probe run %1, which was stored with %2 "
                                      "results (status %3): it took the %4 results it lacked and "
                                      "the file's status, %5")
                               .arg(fmt::format("{}", id))
                               .arg(fmt::format("{}", imported.replaced_result_count))
                               .arg(std::string(to_string(*imported.replaced_status)))
                               .arg(fmt::format(
                                   "{}", stored->results.size() - imported.replaced_result_count))
                               .arg(std::string(to_string(stored->status)))));
        }
        if (ended_without_done) {
            fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli",
                                                     "the run ends without a done event (the "
                                                     "probe was stopped, or the file was cut "
                                                     "short): stored as failed, with the results "
                                                     "that arrived")));
        }
        if (ended_without_summary) {
            fmt::print("{}\n",
                       cli_render(TALLY_TEXT("tally::cli",
                                             "a test's rows end without nccl-tests' summary (\"# "
                                             "Avg bus bandwidth\"): it was stopped or the file "
                                             "was cut short, and its largest sizes are missing; "
                                             "stored as failed, with the rows that arrived "
                                             "(import the whole log to complete it)")));
        }
    }
    state.exit_code = kExitOk;
});
}  // namespace

// ---- compare ------------------------------------------------------------------------------------

std::vector<std::string> split_ids(const std::string& text) {
    std::vector<std::string> ids;
    std::string current;
    for (char c : text + ",") {
        if (c == ',') {
            if (!current.empty()) {
                ids.push_back(current);
            }
            current.clear();
        } else if (c != ' ') {
            current += c;
        }
    }
    return ids;
}

void print_comparison(const std::vector<ComparisonRow>& rows, const PlanSpec& spec) {
    const auto line = [&](const std::string& label, auto cell) {
        fmt::print("{:<18}", label);
        for (const ComparisonRow& r : rows) {
            fmt::print(" {:>22}", cell(r));
        }
        fmt::print("\n");
    };
    const auto figure = [](const ComparisonRow& r, auto f) -> std::string {
        return r.evaluated() ? f(r) : std::string("-");
    };
    fmt::print("{}\n", spec.name.empty() ? tr("Plan") : cli_plan_name(spec.name));
    line(tr("profile"), [](const ComparisonRow& r) { return r.hardware.id; });
    line(tr("kind"), [](const ComparisonRow& r) { return kind_text(r.hardware.kind); });
    line(tr("memory"), [](const ComparisonRow& r) { return gb_text(r.hardware.memory_bytes); });
    line(tr("bandwidth"),
         [](const ComparisonRow& r) { return tb_per_s_text(r.hardware.bandwidth_bytes_per_s); });
    line(tr("compute dtype"), [](const ComparisonRow& r) {
        return r.fallback_from ? cli_render(TALLY_TEXT("tally::cli", "%1 (no %2)")
                                                .arg(to_string(r.compute))
                                                .arg(to_string(*r.fallback_from)))
                               : std::string(to_string(r.compute));
    });
    line(tr("dense peak"), [](const ComparisonRow& r) { return tflops_text(r.peak_flops_per_s); });
    line(tr("ridge FLOP/byte"),
         [](const ComparisonRow& r) { return fmt::format("{:.4g}", r.ridge_flops_per_byte); });
    line(tr("fits"), [&](const ComparisonRow& r) {
        return figure(r, [](const ComparisonRow& x) { return x.fits() ? tr("yes") : tr("NO"); });
    });
    line(tr("memory per GPU"), [&](const ComparisonRow& r) {
        return figure(r, [](const ComparisonRow& x) { return gb_text(x.plan.memory.total_bytes); });
    });
    line(tr("headroom"), [&](const ComparisonRow& r) {
        return figure(r,
                      [](const ComparisonRow& x) { return gb_text(x.plan.memory.headroom_bytes); });
    });
    line(tr("days"), [&](const ComparisonRow& r) {
        return figure(
            r, [](const ComparisonRow& x) { return fmt::format("{:.4g}", x.plan.time.days); });
    });
    line(tr("GPU-hours"), [&](const ComparisonRow& r) {
        return figure(
            r, [](const ComparisonRow& x) { return fmt::format("{:.4g}", x.plan.time.gpu_hours); });
    });
    line(tr("price/GPU-hour"), [](const ComparisonRow& r) {
        return r.price_per_gpu_hour ? fmt::format("{:.4g} ({})", *r.price_per_gpu_hour,
                                                  r.price_source == PriceSource::profile
                                                      ? cli_text("tally::cli", "profile")
                                                      : cli_text("tally::cli", "plan"))
                                    : std::string("-");
    });
    line(tr("cost"), [&](const ComparisonRow& r) {
        return figure(r, [](const ComparisonRow& x) {
            return x.plan.time.has_cost ? fmt::format("{:.4g}", x.plan.time.cost)
                                        : std::string("-");
        });
    });
    for (const ComparisonRow& r : rows) {
        if (r.error) {
            fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli", "%1: not evaluated: %2")
                                              .arg(r.hardware.id)
                                              .arg(cli_error(*r.error))));
        } else if (r.fallback_from) {
            fmt::print("{}\n", cli_render(TALLY_TEXT("tally::cli",
                                                     "%1: has no dense %2 peak; timed at its %3 "
                                                     "peak instead")
                                              .arg(r.hardware.id)
                                              .arg(to_string(*r.fallback_from))
                                              .arg(to_string(r.compute))));
        }
    }
}

void register_compare(CLI::App& app, CliState& state) {
    struct Options {
        bool json = false;
        std::string spec;
        std::string profiles;
    };
    auto opts = std::make_shared<Options>();
    auto* command = add_command(&app, "compare",
                                "Evaluate one plan on 2 to 6 profiles side by side (fits, memory "
                                "headroom, days, GPU-hours, cost, ridge)",
                                state, &opts->json);
    command->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    command->add_option("--profiles", opts->profiles, "Profile ids, comma-separated (a,b,c)")
        ->required();
    command->callback([opts, &state] {
        const PlanSpec spec = load_plan_spec(opts->spec);
        auto ws = open_if_exists(state);
        std::vector<HardwareProfile> profiles;
        for (const std::string& id : split_ids(opts->profiles)) {
            profiles.push_back(require_profile(or_null(ws), id, "--profiles"));
        }
        const std::vector<ComparisonRow> rows = compare(spec, profiles);
        if (opts->json) {
            print_json(comparison_to_json(spec, rows));
        } else {
            print_comparison(rows, spec);
        }
        state.exit_code = kExitOk;
    });
}

}  // namespace tally::cli

std::optional<HardwareProfile> find_workspace_profile(const std::string& id, CliState& state) {
    const HardwareProfile* builtin = find_builtin_hardware(id);
    try {
        // The user's stored profile first, as Workspace::find_profile does: one a later catalog
        // also names keeps the figures the user saved.
        if (auto ws = open_if_exists(state)) {
            if (auto stored = ws->find_profile(id)) {
                return stored;
            }
        }
    } catch (const WorkspaceError&) {
        // A plan on a built-in GPU does not need the workspace, so a broken file does not stop
        // it; for any other id the workspace's own message says what is wrong.
        if (builtin == nullptr) {
            throw;
        }
    }
    return builtin != nullptr ? std::optional<HardwareProfile>(*builtin) : std::nullopt;
}

void register_workspace_commands(CLI::App& app, CliState& state) {
    register_profiles(app, state);
    register_plans(app, state);
    register_probes(app, state);
    register_compare(app, state);
}

}  // namespace tally::cli
