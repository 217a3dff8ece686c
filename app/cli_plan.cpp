// `tally plan`, `tally solve`, `tally presets`: the planner from the command line.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <charconv>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/io/case_accuracy.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/text/explain.h"
#include "planner/text/report.h"
#include "planner/training/plan.h"
#include "planner/training/solver.h"

namespace tally::cli {

namespace {

// The predicted step and its terms; those above the rule add up to the step time.
void print_performance(const Plan& plan, const PlanSpec& spec, const HardwareProfile& hw) {
    const PerformanceBreakdown& p = plan.performance;
    fmt::print("Predicted step (performance model; docs/planner.md)\n");
    const std::pair<const char*, double> terms[] = {
        {"compute", p.compute_s},
        {"recompute", p.recompute_s},
        {"memory-bound", p.memory_bound_s},
        {"TP comm", p.tp_comm_s},
        {"PP comm", p.pp_comm_s},
        {"PP bubble", p.pp_bubble_s},
        {"DP exposed", p.dp_comm_exposed_s},
        {"EP comm", p.ep_comm_s},
        {"CP comm", p.cp_comm_s},
        {"launch gaps", p.overhead_s},
        {"NCCL SMs", p.comm_contention_s},
        {"offload", p.offload_s},
        {"optimizer", p.optimizer_s},
    };
    for (const auto& [name, seconds] : terms) {
        fmt::print("  {:<13} {:>10.4g} s  {:5.1f}%\n", name, seconds,
                   p.step_s > 0 ? 100.0 * seconds / p.step_s : 0.0);
    }
    fmt::print("  {:<13} {:>10.4g} s  (MFU {:.3f}, HFU {:.3f}, {:.4g} tokens/s)\n", "step",
               p.step_s, p.mfu, p.hfu, p.tokens_per_s);
    fmt::print("  {:<13} {:>10.4g} s  ({:.4g} s hidden behind compute)\n", "DP comm", p.dp_comm_s,
               p.dp_comm_s - p.dp_comm_exposed_s);
    // How close the model came on the published runs of this engine and GPU generation.
    fmt::print("  {:<13} {}\n\n", "accuracy",
               error_band_text(spec.training.engine, gpu_generation(hw)));
}

void print_plan_table(const PlanSpec& spec, const HardwareProfile& hw, const Plan& plan) {
    const TrainingSpec& t = spec.training;
    fmt::print("{}\n", plan_title(spec, hw));
    fmt::print("GPU        {} ({}) x {}, MFU {:.3g} ({}), dense {} peak {:.4g} FLOP/s\n", hw.name,
               hw.id, spec.cluster.gpus, plan.time.mfu,
               plan.time.mfu_predicted ? "predicted" : "assumed",
               to_string(compute_type(t.compute_dtype)), plan.time.peak_flops_per_s);
    fmt::print(
        "Layout     dp {} x tp {} x pp {}; global batch {} = micro-batch {} x dp {} x "
        "accumulation {}; ZeRO-{}\n",
        plan.parallel.dp, plan.parallel.tp, plan.parallel.pp, plan.parallel.global_batch,
        spec.data.micro_batch, plan.parallel.dp, plan.parallel.grad_accum_steps, t.zero);
    fmt::print("Parameters {:.4g} total, {:.4g} active, {:.4g} embedding\n\n", plan.params.total,
               plan.params.active, plan.params.embedding);

    const MemoryBreakdown& m = plan.memory;
    fmt::print("Memory per GPU (GB = 1e9 bytes; GiB = 2^30 bytes, as nvidia-smi shows)\n");
    fmt::print("  params        {}\n", gb_gib_columns(m.params_bytes));
    fmt::print("  gradients     {}\n", gb_gib_columns(m.grads_bytes));
    fmt::print("  master        {}\n", gb_gib_columns(m.master_bytes));
    fmt::print("  optimizer     {}\n", gb_gib_columns(m.optimizer_bytes));
    fmt::print("  activations   {}\n", gb_gib_columns(m.activations_bytes));
    if (m.zero3_gather_bytes > 0) {
        fmt::print("  ZeRO-3 gather {}\n", gb_gib_columns(m.zero3_gather_bytes));
    }
    if (m.pipeline_buffer_bytes > 0) {
        fmt::print("  PP buffers    {}\n", gb_gib_columns(m.pipeline_buffer_bytes));
    }
    fmt::print("  total         {}   of {:.2f} GB: {}\n", gb_gib_columns(m.total_bytes),
               to_gb(m.capacity_bytes), m.fits ? "fits" : "DOES NOT FIT");
    if (m.host_bytes > 0) {
        fmt::print("  host memory   {}   (offloaded, per GPU)\n", gb_gib_columns(m.host_bytes));
    }
    fmt::print("\n");

    fmt::print("Compute\n");
    fmt::print("  FLOPs/token   {:.4g} (6N {:.4g}, with attention {:.4g}; formula {})\n",
               plan.flops.per_token, plan.flops.per_token_6n, plan.flops.per_token_attention,
               to_string(t.flops_formula));
    fmt::print("  FLOPs/step    {:.4g}\n", plan.flops.per_step);
    fmt::print("  FLOPs total   {:.4g} model, {:.4g} hardware (HFU {:.3f})\n\n", plan.flops.total,
               plan.flops.hardware_total, plan.time.hfu);

    print_performance(plan, spec, hw);

    fmt::print("Time and cost\n");
    fmt::print("  time          {} days ({:.4g} s)\n", days_text(plan.time.days),
               plan.time.seconds);
    fmt::print("  GPU-hours     {:.4g}\n", plan.time.gpu_hours);
    if (plan.time.has_cost) {
        fmt::print("  cost          {:.4g}\n", plan.time.cost);
    }
    if (plan.time.has_energy) {
        fmt::print("  energy        {:.4g} kWh (GPU boards at TDP)\n\n", plan.time.energy_kwh);
    } else {
        fmt::print("  energy        - (the hardware profile gives no TDP)\n\n");
    }

    fmt::print("How each figure is computed\n");
    for (const Explanation& e : explain(spec, hw, plan)) {
        fmt::print("  {:<22} {} = {}\n  {:<22} [{}]\n", e.label, e.formula, e.substitution, "",
                   e.source);
    }
    const auto warnings = warning_messages(plan, spec, hw);
    if (!warnings.empty()) {
        fmt::print("\nWarnings\n");
        for (const std::string& w : warnings) {
            fmt::print("  - {}\n", w);
        }
    }
}

// Loads, resolves and checks a spec; SpecError on any problem.
std::pair<PlanSpec, HardwareProfile> load_checked(const std::string& path, CliState& state) {
    PlanSpec spec = load_plan_spec(path);
    HardwareProfile hw = resolve_gpu(spec, state);
    if (auto error = check(spec, hw)) {
        throw SpecError(*error);
    }
    return {std::move(spec), std::move(hw)};
}

}  // namespace

HardwareProfile resolve_gpu(const PlanSpec& spec, CliState& state) {
    if (auto profile = find_workspace_profile(spec.cluster.gpu, state)) {
        return *profile;
    }
    return resolve_builtin_hardware(spec);  // throws SpecError naming cluster.gpu
}

void register_plan_commands(CLI::App& app, CliState& state) {
    struct Options {
        std::string spec;
        bool json = false;
    };
    auto opts = std::make_shared<Options>();

    auto* plan = app.add_subcommand("plan", "Evaluate a plan: memory per GPU, FLOPs, time, cost");
    plan->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    plan->add_flag("--json", opts->json, "Print one JSON object instead of a table");
    plan->add_option("--db", state.db_path, "Workspace database (for custom and measured GPUs)");
    plan->callback([opts, &state] {
        auto [spec, hw] = load_checked(opts->spec, state);
        const Plan result = evaluate(spec, hw);
        if (opts->json) {
            fmt::print("{}\n", to_json(result, spec, hw).dump(2));
        } else {
            print_plan_table(spec, hw, result);
        }
        state.exit_code = kExitOk;
    });

    auto* solve = app.add_subcommand("solve", "Solve for a quantity under a spec's recipe");
    solve->require_subcommand(1);
    auto* max_params = solve->add_subcommand(
        "max-params",
        "The largest model (parameter count) that fits the cluster: model state only, unless the "
        "spec sets solver.include_activations");
    max_params->add_option("SPEC", opts->spec, "Plan spec (JSON file; - reads standard input)")
        ->required();
    max_params->add_flag("--json", opts->json, "Print one JSON object");
    max_params->add_option("--db", state.db_path, "Workspace database");
    max_params->callback([opts, &state] {
        PlanSpec spec = load_plan_spec(opts->spec);
        HardwareProfile hw = resolve_gpu(spec, state);
        const MaxParamsResult r = solve_max_params(spec, hw);
        if (opts->json) {
            nlohmann::json j{{"max_params", r.max_params},
                             {"includes_activations", r.includes_activations},
                             {"bytes_per_param_per_gpu", r.bytes_per_param_per_gpu},
                             {"capacity_bytes", r.capacity_bytes},
                             {"gpus", spec.cluster.gpus},
                             {"gpu", hw.id},
                             {"formula", r.formula}};
            if (r.includes_activations) {
                j["layers"] = r.layers;
            }
            fmt::print("{}\n", j.dump(2));
        } else {
            fmt::print("Largest model on {} x {} ({}): {:.4g} parameters\n  {}\n",
                       spec.cluster.gpus, hw.name,
                       r.includes_activations ? "params, grads, optimizer state and activations"
                                              : "model state only, activations not counted",
                       r.max_params, r.formula);
        }
        state.exit_code = kExitOk;
    });

    auto* tensor = app.add_subcommand(
        "tensor", "Memory of a tensor: elements x bytes per value (e.g. tally tensor 49152x12288)");
    auto shape_text = std::make_shared<std::string>();
    auto dtype_text = std::make_shared<std::string>("fp32");
    tensor->add_option("SHAPE", *shape_text, "Dimensions separated by x or commas, e.g. 4x8")
        ->required();
    tensor->add_option("--dtype", *dtype_text, "Number format (default fp32, PyTorch's default)");
    tensor->add_flag("--json", opts->json, "Print one JSON object");
    tensor->callback([opts, shape_text, dtype_text, &state] {
        const auto dtype = parse_dtype(*dtype_text);
        if (!dtype) {
            throw SpecError("--dtype", *dtype_text, "one of " + std::string(dtype_names()));
        }
        std::vector<std::int64_t> shape;
        std::string formula;
        std::size_t start = 0;
        while (start <= shape_text->size()) {
            const std::size_t end = shape_text->find_first_of("x,*", start);
            const std::string part = shape_text->substr(
                start, end == std::string::npos ? std::string::npos : end - start);
            std::int64_t d = 0;
            const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), d);
            if (ec != std::errc() || ptr != part.data() + part.size() || d < 1) {
                throw SpecError("SHAPE", "\"" + *shape_text + "\"",
                                "positive integers separated by x or commas, e.g. 4x8");
            }
            shape.push_back(d);
            formula += (formula.empty() ? "" : " x ") + part;
            if (end == std::string::npos) {
                break;
            }
            start = end + 1;
        }
        const double bytes = tensor_bytes(shape, *dtype);
        double elements = 1.0;
        for (std::int64_t d : shape) {
            elements *= static_cast<double>(d);
        }
        if (opts->json) {
            fmt::print("{}\n", nlohmann::json{{"shape", shape},
                                              {"dtype", std::string(to_string(*dtype))},
                                              {"elements", elements},
                                              {"bytes", bytes},
                                              {"gb", to_gb(bytes)},
                                              {"gib", to_gib(bytes)}}
                                   .dump(2));
        } else {
            fmt::print(
                "{} = {:.0f} elements x {:g} bytes ({}) = {:.10g} bytes = {:.4g} GB = {:.4g} "
                "GiB\n  [CS336 lecture 2: memory = number of values x bytes per value; "
                "GB = 1e9 bytes, GiB = 2^30 bytes]\n",
                formula, elements, bytes_per_value(*dtype), to_string(*dtype), bytes, to_gb(bytes),
                to_gib(bytes));
        }
        state.exit_code = kExitOk;
    });

    auto* presets = app.add_subcommand("presets", "List the model presets and their sources");
    presets->add_flag("--json", opts->json, "Print a JSON array");
    presets->callback([opts, &state] {
        nlohmann::json list = nlohmann::json::array();
        for (const ModelPreset& p : model_presets()) {
            const ParamCounts c = count_params(p.model);
            if (opts->json) {
                list.push_back({{"id", p.id},
                                {"name", p.name},
                                {"params", c.total},
                                {"params_active", c.active},
                                {"source", p.source},
                                {"model", to_json(p.model)}});
            } else {
                fmt::print("{:<14} {:<36} {:>9.4g} params ({:.4g} active)\n", p.id, p.name, c.total,
                           c.active);
            }
        }
        if (opts->json) {
            fmt::print("{}\n", list.dump(2));
        }
        state.exit_code = kExitOk;
    });
}

int run_default(CliState&) {
    const PlanSpec spec = default_plan_spec();
    const HardwareProfile& hw = resolve_builtin_hardware(spec);
    fmt::print("The built-in default plan (CS336 lecture 2, question 1):\n\n");
    print_plan_table(spec, hw, evaluate(spec, hw));
    return kExitOk;
}

}  // namespace tally::cli
