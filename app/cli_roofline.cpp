// `tally roofline`, `tally hardware`, `tally dtypes`: the roofline of a spec's hardware and its
// operations, the hardware catalog, and the number formats.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/io/spec_json.h"
#include "planner/roofline/measured_roofline.h"
#include "planner/roofline/model_ops.h"
#include "planner/roofline/number_formats.h"
#include "planner/roofline/operations.h"
#include "planner/roofline/placed_ops.h"
#include "planner/roofline/roofline.h"
#include "planner/training/plan.h"

namespace tally::cli {

namespace {

using nlohmann::json;

// A text of this file's output in the command line's language.
std::string tr(const char* source) {
    return cli_text("tally::cli", source);
}

// A phase of the roofline table as a person reads it; "spec" (the spec's own operations) and
// JSON keep the identifier.
std::string phase_text(const std::string& phase) {
    if (phase == "training") {
        return cli_text("tally::cli", "training");
    }
    if (phase == "prefill") {
        return cli_text("tally::cli", "prefill");
    }
    if (phase == "decode") {
        return cli_text("tally::cli", "decode");
    }
    if (phase == "spec") {  // the spec's own operations (its "ops")
        return cli_text("tally::cli", "spec");
    }
    return phase;
}

// What bounds an operation, "memory" or "compute", as a person reads it.
std::string bound_text(const std::string& bound) {
    if (bound == "memory") {
        return cli_text("tally::cli", "memory");
    }
    if (bound == "compute") {
        return cli_text("tally::cli", "compute");
    }
    return bound;
}

Roof require_roof(const HardwareProfile& hw, DType dtype, const std::string& field) {
    auto roof = roof_for(hw, compute_type(dtype));
    if (!roof) {
        throw SpecError(field, "\"" + std::string(to_string(dtype)) + "\"",
                        TALLY_TEXT("tally::cli", "%1 has no %2 peak; it has: %3")
                            .arg(hw.id)
                            .arg(to_string(compute_type(dtype)))
                            .arg(supported_compute_types(hw)));
    }
    return *roof;
}

// One analysed operation: its cost, where it lands, and which step it belongs to.
struct Row {
    OpCost cost;
    std::string phase;  // "spec" for the spec's own ops, else training/prefill/decode
    std::string pass;   // forward/backward for model layers, empty for spec ops
    double count = 1.0;
    RooflinePoint point;
};

// The same placement the desktop app's roofline draws (planner/roofline/placed_ops.h), strict: an
// operation the hardware cannot run, or with bad sizes, is an error naming its field.
std::vector<Row> analyse(const PlanSpec& spec, const HardwareProfile& hw) {
    std::vector<Row> rows;
    for (const PlacedOp& p : place_plan_ops(spec, hw, PlacementPolicy::strict).ops) {
        rows.push_back({p.cost, p.phase ? std::string(to_string(*p.phase)) : "spec",
                        p.pass ? std::string(to_string(*p.pass)) : "", p.count, p.point});
    }
    return rows;
}

json roofline_json(const PlanSpec& spec, const HardwareProfile& hw, const std::vector<Row>& rows) {
    const ModelOpsOptions options = model_ops_options(spec);
    const Roof roof = require_roof(hw, options.dtype, "training.compute_dtype");
    json roof_list = json::array();
    for (const Roof& r : roofs(hw)) {
        roof_list.push_back({{"dtype", std::string(to_string(r.type))},
                             {"peak_flops_per_s", r.peak_flops_per_s},
                             {"ridge_flops_per_byte", r.ridge_flops_per_byte()}});
    }
    json ops = json::array();
    for (const Row& r : rows) {
        ops.push_back({
            {"name", r.cost.name},
            {"kind", r.cost.kind},
            {"phase", r.phase},
            {"pass", r.pass.empty() ? json(nullptr) : json(r.pass)},
            {"count", r.count},
            {"dtype", std::string(to_string(r.cost.dtype))},
            {"flops", r.cost.flops},
            {"bytes", r.cost.bytes()},
            {"read_bytes", r.cost.read_bytes},
            {"write_bytes", r.cost.write_bytes},
            {"intensity", r.point.intensity_flops_per_byte},
            {"attainable_flops_per_s", r.point.attainable_flops_per_s},
            {"bound", std::string(to_string(r.point.bound))},
            {"seconds", r.point.seconds},
            {"compute_seconds", r.point.compute_seconds},
            {"memory_seconds", r.point.memory_seconds},
        });
    }
    // Per step: every operation at its roofline time, one after the other (no overlap between
    // operations): a lower bound on the step's time on this hardware.
    json phases = json::array();
    for (Phase phase : kAllPhases) {
        double flops = 0.0, bytes = 0.0, seconds = 0.0, memory_bound_seconds = 0.0;
        bool any = false;
        for (const Row& r : rows) {
            if (r.phase != to_string(phase)) {
                continue;
            }
            any = true;
            flops += r.count * r.cost.flops;
            bytes += r.count * r.cost.bytes();
            seconds += r.count * r.point.seconds;
            if (r.point.bound == Bound::memory) {
                memory_bound_seconds += r.count * r.point.seconds;
            }
        }
        if (any) {
            phases.push_back({{"phase", std::string(to_string(phase))},
                              {"flops", flops},
                              {"bytes", bytes},
                              {"seconds", seconds},
                              {"memory_bound_seconds", memory_bound_seconds}});
        }
    }
    return json{
        {"spec", spec.name},
        {"hardware",
         {{"id", hw.id},
          {"name", hw.name},
          {"dtype", std::string(to_string(roof.type))},
          {"peak_flops_per_s", roof.peak_flops_per_s},
          {"bandwidth_bytes_per_s", roof.bandwidth_bytes_per_s},
          {"ridge_flops_per_byte", roof.ridge_flops_per_byte()},
          {"roofs", roof_list}}},
        {"model_ops",
         {{"batch", options.batch},
          {"seq", options.seq},
          {"dtype", std::string(to_string(options.dtype))},
          {"flash_attention", options.flash_attention}}},
        {"ops", ops},
        {"phases", phases},
    };
}

void print_roofline_table(const json& j) {
    const json& hw = j["hardware"];
    fmt::print("{}\n", j["spec"].get<std::string>().empty() ? tr("Roofline")
                                                            : j["spec"].get<std::string>());
    fmt::print(
        "{:<9} {}\n", tr("Hardware"),
        cli_render(TALLY_TEXT("tally::cli",
                              "%1 (%2): %3 dense peak %4 FLOP/s, bandwidth %5 B/s, ridge %6 "
                              "FLOP/byte")
                       .arg(hw["name"].get<std::string>())
                       .arg(hw["id"].get<std::string>())
                       .arg(hw["dtype"].get<std::string>())
                       .arg(fmt::format("{:.4g}", hw["peak_flops_per_s"].get<double>()))
                       .arg(fmt::format("{:.4g}", hw["bandwidth_bytes_per_s"].get<double>()))
                       .arg(fmt::format("{:.1f}", hw["ridge_flops_per_byte"].get<double>()))));
    const json& mo = j["model_ops"];
    fmt::print("{:<9} {}\n\n", tr("Model"),
               cli_render(TALLY_TEXT("tally::cli", "batch %1 x seq %2 in %3, flash attention %4")
                              .arg(fmt::format("{}", mo["batch"].get<long>()))
                              .arg(fmt::format("{}", mo["seq"].get<long>()))
                              .arg(mo["dtype"].get<std::string>())
                              .arg_translated("tally::cli",
                                              mo["flash_attention"].get<bool>()
                                                  ? QT_TRANSLATE_NOOP("tally::cli", "on")
                                                  : QT_TRANSLATE_NOOP("tally::cli", "off"))));
    // The operation column as wide as its longest name (a sliding-window layer's backward
    // attention is 52 characters), at least 38, so that the columns after it line up.
    // The model's layers in the output's language; the spec's own operations as named.
    const auto op_name = [](const json& op) {
        const std::string name = op["name"].get<std::string>();
        return op["phase"].get<std::string>() == "spec"
                   ? name
                   : model_op_name(name, [](const Text& text) { return cli_render(text); });
    };
    std::size_t name_width = 38;
    for (const json& op : j["ops"]) {
        name_width = std::max(name_width, display_columns(op_name(op)));
    }
    fmt::print("{:<8} {:<{}} {:>5} {:<8} {:>10} {:>10} {:>10} {:>11} {:<7} {:>10}\n", tr("phase"),
               tr("operation"), name_width, tr("count"), "dtype", "FLOPs", tr("bytes"), "FLOP/byte",
               "FLOP/s", tr("bound"), tr("seconds"));
    for (const json& op : j["ops"]) {
        fmt::print(
            "{:<8} {:<{}} {:>5g} {:<8} {:>10.3g} {:>10.3g} {:>10.4g} {:>11.4g} {:<7} {:>10.3g}\n",
            phase_text(op["phase"].get<std::string>()), op_name(op), name_width,
            op["count"].get<double>(), op["dtype"].get<std::string>(), op["flops"].get<double>(),
            op["bytes"].get<double>(), op["intensity"].get<double>(),
            op["attainable_flops_per_s"].get<double>(), bound_text(op["bound"].get<std::string>()),
            op["seconds"].get<double>());
    }
    if (!j["phases"].empty()) {
        fmt::print("\n{}\n", tr("Per step at roofline speed (operations one after another):"));
        for (const json& p : j["phases"]) {
            fmt::print(
                "  {:<8} {}\n", phase_text(p["phase"].get<std::string>()),
                cli_render(
                    TALLY_TEXT("tally::cli", "%1 FLOPs, %2 bytes, %3 s (%4% of it memory-bound)")
                        .arg(fmt::format("{:.4g}", p["flops"].get<double>()))
                        .arg(fmt::format("{:.4g}", p["bytes"].get<double>()))
                        .arg(fmt::format("{:.4g}", p["seconds"].get<double>()))
                        .arg(fmt::format("{:.0f}",
                                         p["seconds"].get<double>() > 0.0
                                             ? 100.0 * p["memory_bound_seconds"].get<double>() /
                                                   p["seconds"].get<double>()
                                             : 0.0))));
        }
    }
}

json peaks_json(const HardwareProfile& hw) {
    json peaks = json::object();
    for (ComputeType t : kAllComputeTypes) {
        peaks[std::string(to_string(t))] = hw.supports(t) ? json(hw.peak(t)) : json(nullptr);
    }
    return peaks;
}

json hardware_summary(const HardwareProfile& hw) {
    return json{{"id", hw.id},
                {"name", hw.name},
                {"vendor", hw.vendor},
                {"memory_bytes", hw.memory_bytes},
                {"bandwidth_bytes_per_s", hw.bandwidth_bytes_per_s},
                {"tdp_w", hw.tdp_w > 0.0 ? json(hw.tdp_w) : json(nullptr)},
                {"peak_flops_per_s", peaks_json(hw)}};
}

const HardwareProfile& require_hardware(const std::string& id) {
    const HardwareProfile* hw = find_builtin_hardware(id);
    if (hw == nullptr) {
        if (std::optional<Text> rule = similar_builtin_hardware_rule(id)) {
            throw SpecError("ID", "\"" + id + "\"", std::move(*rule));
        }
        throw SpecError(
            "ID", "\"" + id + "\"",
            TALLY_TEXT("tally::cli", "one of the built-in ids: %1").arg(builtin_hardware_ids()));
    }
    return *hw;
}

void print_hardware_show(const HardwareProfile& hw) {
    fmt::print("{} ({}, {})\n", hw.name, hw.id, hw.vendor);
    fmt::print("  {:<13} {}\n", tr("form factor"), hw.form_factor);
    fmt::print("  {:<13} {:.4g} GB {}, {:.4g} TB/s\n", tr("memory"), to_gb(hw.memory_bytes),
               hw.memory_type, to_tera(hw.bandwidth_bytes_per_s));
    fmt::print("  {:<13} {}\n", tr("interconnect"),
               cli_render(TALLY_TEXT("tally::cli", "%1 (%2 GB/s per direction)")
                              .arg(hw.interconnect_name)
                              .arg(fmt::format("{:.4g}", to_gb(hw.interconnect_bytes_per_s)))));
    fmt::print("  {:<13} {}\n", "TDP",
               hw.tdp_w > 0.0 ? fmt::format("{:g} W", hw.tdp_w) : tr("not published"));
    fmt::print("  {}\n", tr("dense peaks (TFLOP/s) and ridge (FLOP/byte):"));
    for (const Roof& r : roofs(hw)) {
        fmt::print("    {:<5} {:>10.4g} {:>9.1f}\n", to_string(r.type), to_tera(r.peak_flops_per_s),
                   r.ridge_flops_per_byte());
    }
    fmt::print("  {:<13} {}\n", tr("printed"), hw.datasheet_printed);
    fmt::print("  {:<13} {}\n", tr("verification"), hw.verification);
    if (!hw.notes.empty()) {
        fmt::print("  {:<13} {}\n", tr("notes"), hw.notes);
    }
    fmt::print("  {}\n", tr("sources:"));
    for (std::size_t i = 0; i < hw.sources.size(); ++i) {
        fmt::print("    [{}] {}\n", i, hw.sources[i]);
    }
    for (const MeasuredFigure& m : hw.measured) {
        fmt::print("  {:<13} {} {:.4g}{} ({}; {})\n", tr("measured"), m.metric, m.value,
                   m.fraction_of_peak
                       ? cli_render(TALLY_TEXT("tally::cli", " = %1% of peak")
                                        .arg(fmt::format("{:.1f}", 100.0 * *m.fraction_of_peak)))
                       : std::string(),
                   m.method, m.source);
    }
}

double parse_value(const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (text.empty() || end == begin || *end != '\0') {
        throw SpecError(
            "--value", "\"" + text + "\"",
            TALLY_TEXT("tally::cli", "a number such as 1e-8, 65504, -448.5, inf or nan"));
    }
    return v;
}

json formats_json(const std::optional<double>& value) {
    json formats = json::array();
    for (NumberFormat f : kAllNumberFormats) {
        const FormatInfo& info = format_info(f);
        json entry{
            {"name", std::string(info.name)},
            {"sign_bits", info.sign_bits},
            {"exponent_bits", info.exponent_bits},
            {"mantissa_bits", info.mantissa_bits},
            {"exponent_bias", info.exponent_bias},
            {"bits_per_value", info.bits_per_value},
            {"storage_bits_per_value", info.storage_bits_per_value},
            {"max", info.max},
            {"min_normal", info.min_normal},
            {"min_subnormal", info.min_subnormal},
            {"epsilon", info.epsilon},
            {"has_infinity", info.has_infinity},
            {"has_nan", info.has_nan},
            {"overflow", info.overflow == OverflowRule::saturate ? "saturate" : "infinity"},
            {"block_size", info.block_size > 0 ? json(info.block_size) : json(nullptr)},
            {"scale_format",
             info.scale_format.empty() ? json(nullptr) : json(std::string(info.scale_format))},
            {"spec", std::string(info.spec)},
            {"value", nullptr},
            {"conversion", nullptr},
        };
        if (value) {
            const Conversion c = convert(*value, f);
            // JSON has no Inf/NaN: such values are null, and the status says which.
            entry["value"] = number_or_null(c.value);
            entry["conversion"] = {{"status", std::string(to_string(c.status))},
                                   {"scale", number_or_null(c.scale)},
                                   {"element", number_or_null(c.element)}};
        }
        formats.push_back(std::move(entry));
    }
    json out{{"formats", formats}};
    out["input"] = value ? number_or_null(*value) : json(nullptr);
    return out;
}

void print_formats_table(const std::optional<double>& value) {
    fmt::print(
        "{:<9} {:>3} {:>3} {:>3} {:>5} {:>12} {:>12} {:>12} {:>10} {:<9}{}\n", tr("format"), "S",
        "E", "M", tr("bits"), tr("max"), tr("min normal"), tr("min subnorm"), "epsilon",
        tr("overflow"),
        value
            ? cli_render(TALLY_TEXT("tally::cli", "  %1 becomes").arg(fmt::format("{:g}", *value)))
            : std::string());
    for (NumberFormat f : kAllNumberFormats) {
        const FormatInfo& info = format_info(f);
        std::string converted;
        if (value) {
            const Conversion c = convert(*value, f);
            converted =
                fmt::format("  {:.8g} ({})", c.value, cli_render(conversion_status_text(c.status)));
            if (info.block_size > 0 && std::isfinite(c.scale)) {
                converted += cli_render(TALLY_TEXT("tally::cli", " = %1 x scale %2")
                                            .arg(fmt::format("{:g}", c.element))
                                            .arg(fmt::format("{:g}", c.scale)));
            }
        }
        fmt::print(
            "{:<9} {:>3} {:>3} {:>3} {:>5g} {:>12.5g} {:>12.5g} {:>12.5g} {:>10.4g} {:<9}{}\n",
            info.name, info.sign_bits, info.exponent_bits, info.mantissa_bits, info.bits_per_value,
            info.max, info.min_normal, info.min_subnormal, info.epsilon,
            info.overflow == OverflowRule::saturate ? tr("saturate") : tr("infinity"), converted);
    }
    fmt::print("\n{}\n",
               tr("Block formats: nvfp4 = E2M1 x one E4M3 scale per 16 values (4.5 bits); mxfp4 = "
                  "E2M1 x one E8M0 scale per 32 values (4.25 bits)."));
}

}  // namespace

void register_roofline_commands(CLI::App& app, CliState& state) {
    struct Options {
        std::string spec;
        std::string id;
        std::string value;
        bool json = false;
        std::optional<std::int64_t> probe_run;
    };
    auto opts = std::make_shared<Options>();

    auto* roofline = app.add_subcommand(
        "roofline", "The roofline of a spec's GPU, its ops and the model's own layers");
    roofline->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    roofline->add_flag("--json", opts->json, "Print one JSON object instead of a table");
    roofline->add_option("--db", state.db_path,
                         "Workspace database (for custom and measured GPUs)");
    roofline->add_option("--probe-run", opts->probe_run,
                         "A stored probe run (tally probes list) whose measured roofs and points "
                         "to show beside the promised ones");
    roofline->callback([opts, &state] {
        const PlanSpec spec = load_plan_spec(opts->spec);
        const HardwareProfile hw = resolve_gpu(spec, state);
        if (auto error = check(spec, hw)) {
            throw SpecError(*error);
        }
        json out = roofline_json(spec, hw, analyse(spec, hw));
        std::optional<MeasuredRoofline> measured;
        if (opts->probe_run) {
            measured = stored_measured_roofline(*opts->probe_run, &hw, state);
            out["measured"] = measured_roofline_json(*measured);
            out["measured"]["probe_run"] = *opts->probe_run;
        }
        if (opts->json) {
            fmt::print("{}\n", out.dump(2));
        } else {
            print_roofline_table(out);
            if (measured) {
                fmt::print(
                    "\n{}\n",
                    cli_render(TALLY_TEXT("tally::cli", "Probe run %1").arg(*opts->probe_run)));
                print_measured_roofline(*measured, &hw);
            }
        }
        state.exit_code = kExitOk;
    });

    auto* hardware = app.add_subcommand("hardware", "The built-in hardware catalog");
    hardware->require_subcommand(1);
    auto* list = hardware->add_subcommand("list", "Every built-in accelerator with its peaks");
    list->add_flag("--json", opts->json, "Print a JSON array");
    list->callback([opts, &state] {
        if (opts->json) {
            json out = json::array();
            for (const HardwareProfile& hw : builtin_hardware()) {
                out.push_back(hardware_summary(hw));
            }
            fmt::print("{}\n", out.dump(2));
        } else {
            fmt::print("{:<16} {:<44} {:>8} {:>8} {:>9} {:>9} {:>9} {:>8}\n", "id", tr("name"),
                       tr("mem GB"), "TB/s", "bf16 TF", "fp8 TF", "fp4 TF", tr("ridge"));
            for (const HardwareProfile& hw : builtin_hardware()) {
                auto tf = [&](ComputeType t) {
                    return hw.supports(t) ? four_digits(to_tera(hw.peak(t))) : std::string("-");
                };
                const auto bf16 = roof_for(hw, ComputeType::bf16);
                fmt::print(
                    "{:<16} {:<44} {:>8.4g} {:>8.4g} {:>9} {:>9} {:>9} {:>8}\n", hw.id, hw.name,
                    to_gb(hw.memory_bytes), to_tera(hw.bandwidth_bytes_per_s),
                    tf(ComputeType::bf16), tf(ComputeType::fp8), tf(ComputeType::fp4),
                    bf16 ? fmt::format("{:.1f}", bf16->ridge_flops_per_byte()) : std::string("-"));
            }
        }
        state.exit_code = kExitOk;
    });
    auto* show = hardware->add_subcommand("show", "One accelerator with every field and source");
    show->add_option("ID", opts->id, "A built-in id (see `tally hardware list`)")->required();
    show->add_flag("--json", opts->json, "Print one JSON object");
    show->callback([opts, &state] {
        const HardwareProfile& hw = require_hardware(opts->id);
        if (opts->json) {
            json out = to_json(hw);
            json ridges = json::object();
            for (ComputeType t : kAllComputeTypes) {
                const auto roof = roof_for(hw, t);
                ridges[std::string(to_string(t))] =
                    roof ? json(roof->ridge_flops_per_byte()) : json(nullptr);
            }
            out["ridge_flops_per_byte"] = ridges;
            fmt::print("{}\n", out.dump(2));
        } else {
            print_hardware_show(hw);
        }
        state.exit_code = kExitOk;
    });

    auto* dtypes = app.add_subcommand(
        "dtypes", "Number formats: bits, range, precision, and what a value becomes in each");
    auto* value_option = dtypes->add_option("--value", opts->value,
                                            "A value to convert into every format (e.g. 1e-8)");
    dtypes->add_flag("--json", opts->json, "Print one JSON object");
    dtypes->callback([opts, value_option, &state] {
        std::optional<double> value;
        if (value_option->count() > 0) {
            value = parse_value(opts->value);
        }
        if (opts->json) {
            fmt::print("{}\n", formats_json(value).dump(2));
        } else {
            print_formats_table(value);
        }
        state.exit_code = kExitOk;
    });
}

}  // namespace tally::cli
