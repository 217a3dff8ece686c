#include "planner/text/report.h"

#include <fmt/core.h>
#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "planner/core/quantity_text.h"
#include "planner/io/spec_json.h"
#include "planner/text/explain.h"

namespace tally {

namespace {

using nlohmann::json;

// "/memory/params_bytes" -> "memory.params_bytes"; "/ops/0/kind" -> "ops[0].kind".
std::string dotted(const std::string& pointer) {
    std::string out;
    std::size_t pos = 1;
    while (pos <= pointer.size()) {
        std::size_t next = pointer.find('/', pos);
        if (next == std::string::npos) {
            next = pointer.size();
        }
        const std::string part = pointer.substr(pos, next - pos);
        const bool index = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) != 0;
        });
        if (index) {
            out += "[" + part + "]";
        } else {
            out += (out.empty() ? "" : ".") + part;
        }
        pos = next + 1;
    }
    return out;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        return text;
    }
    std::string out = "\"";
    for (char c : text) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    return out + "\"";
}

std::string csv_value(const json& v) {
    if (v.is_null()) {
        return {};
    }
    if (v.is_string()) {
        return v.get<std::string>();
    }
    if (v.is_number_float()) {
        return shortest_text(v.get<double>());
    }
    return v.dump();
}

void csv_rows(std::string& out, const char* section, const json& document) {
    const json flat = document.flatten();
    for (const auto& [pointer, value] : flat.items()) {
        out += fmt::format("{},{},{}\r\n", section, csv_field(dotted(pointer)),
                           csv_field(csv_value(value)));
    }
}

// A table cell: pipes and line breaks would end the cell.
std::string md(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '|') {
            out += "\\|";
        } else if (c == '\n' || c == '\r') {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

std::string memory_row(const char* label, double bytes, double capacity) {
    return fmt::format("| {} | {:.2f} | {:.2f} | {:.1f} % |\n", label, to_gb(bytes), to_gib(bytes),
                       capacity > 0.0 ? 100.0 * bytes / capacity : 0.0);
}

}  // namespace

std::string plan_csv(const PlanSpec& spec, const HardwareProfile& hw, const Plan& plan) {
    std::string out = "section,key,value\r\n";
    out += fmt::format("plan,title,{}\r\n", csv_field(plan_title(spec, hw)));
    csv_rows(out, "spec", to_json(spec));
    csv_rows(out, "plan", to_json(plan, spec, hw));
    return out;
}

std::string plan_title(const PlanSpec& spec, const HardwareProfile& hw) {
    if (!spec.name.empty()) {
        return spec.name;
    }
    std::string model = spec.model.name;
    if (model.empty()) {
        switch (spec.model.kind) {
            case ModelKind::params:
                model = count_text(spec.model.params) + " parameters";
                break;
            case ModelKind::mlp:
                model = fmt::format("{}-layer MLP", spec.model.layers);
                break;
            case ModelKind::transformer:
                model = fmt::format("{}-layer transformer", spec.model.layers);
                break;
        }
    }
    return fmt::format("{}, {} tokens, {} x {}", model, count_text(spec.data.tokens),
                       spec.cluster.gpus, hw.name);
}

std::string plan_markdown(const PlanSpec& spec, const HardwareProfile& hw, const Plan& plan) {
    const TrainingSpec& t = spec.training;
    const MemoryBreakdown& m = plan.memory;
    std::string out;
    out += fmt::format("# {}\n\n", md(plan_title(spec, hw)));
    // The plan's own description (the user's notes, an example's explanation) as a quoted
    // block, one "> " line per line of the text, so its line breaks survive.
    if (!spec.description.empty()) {
        std::size_t start = 0;
        while (start <= spec.description.size()) {
            std::size_t end = spec.description.find('\n', start);
            if (end == std::string::npos) {
                end = spec.description.size();
            }
            std::string line = spec.description.substr(start, end - start);
            if (!line.empty() && line.back() == '\r') {
                line.pop_back();
            }
            out += line.empty() ? ">\n" : "> " + line + "\n";
            start = end + 1;
        }
        out += "\n";
    }

    out += "## Inputs\n\n| | |\n| --- | --- |\n";
    out += fmt::format(
        "| Model | {} ({} parameters, {} active) |\n",
        md(spec.model.name.empty() ? std::string(to_string(spec.model.kind)) : spec.model.name),
        four_digits(plan.params.total), four_digits(plan.params.active));
    out +=
        fmt::format("| Data | {} tokens, sequence length {}, global batch {}, micro-batch {} |\n",
                    four_digits(spec.data.tokens), spec.data.seq_len, plan.parallel.global_batch,
                    spec.data.micro_batch);
    out += fmt::format("| Cluster | {} x {} ({}), MFU {}{} |\n", spec.cluster.gpus, md(hw.name),
                       md(hw.id),
                       plan.time.mfu_predicted ? fmt::format("{:.3g} (predicted)", plan.time.mfu)
                                               : fmt::format("{:g}", spec.cluster.mfu),
                       spec.cluster.price_per_gpu_hour
                           ? fmt::format(", {:g} per GPU-hour", *spec.cluster.price_per_gpu_hour)
                           : std::string());
    out += fmt::format(
        "| Recipe | params {}, grads {}, master {}, {} with {} state, compute {}, activations {}; "
        "recompute {}; ZeRO-{}; tp {} x pp {} x dp {}{}{} |\n",
        to_string(t.param_dtype), to_string(t.grad_dtype),
        t.master_dtype ? std::string(to_string(*t.master_dtype)) : std::string("none"),
        to_string(t.optimizer), to_string(t.optimizer_state_dtype), to_string(t.compute_dtype),
        to_string(t.activation_dtype), to_string(t.recompute), t.zero, plan.parallel.tp,
        plan.parallel.pp, plan.parallel.dp, t.sequence_parallel ? "; sequence parallel" : "",
        t.flash_attention ? "; flash attention" : "");

    out += "\n## Memory per GPU\n\nGB = 10^9 bytes; GiB = 2^30 bytes (what nvidia-smi shows).\n\n";
    out += "| Component | GB | GiB | of capacity |\n| --- | ---: | ---: | ---: |\n";
    out += memory_row("Parameters", m.params_bytes, m.capacity_bytes);
    out += memory_row("Gradients", m.grads_bytes, m.capacity_bytes);
    out += memory_row("Master weights", m.master_bytes, m.capacity_bytes);
    out += memory_row("Optimizer state", m.optimizer_bytes, m.capacity_bytes);
    out += memory_row("Activations", m.activations_bytes, m.capacity_bytes);
    out += memory_row("**Total**", m.total_bytes, m.capacity_bytes);
    out += memory_row("Capacity", m.capacity_bytes, m.capacity_bytes);
    out += fmt::format("\n{}\n", m.fits ? "The plan fits." : "**The plan does not fit.**");

    out += "\n## Compute, time and cost\n\n| Figure | Value |\n| --- | ---: |\n";
    out += fmt::format("| FLOPs per token | {} |\n", four_digits(plan.flops.per_token));
    out += fmt::format("| Training FLOPs (model) | {} |\n", four_digits(plan.flops.total));
    out += fmt::format("| Training FLOPs (hardware, HFU {:.3f}) | {} |\n", plan.time.hfu,
                       four_digits(plan.flops.hardware_total));
    out += fmt::format("| Time | {} days |\n", days_text(plan.time.days));
    out += fmt::format("| GPU-hours | {} |\n", four_digits(plan.time.gpu_hours));
    if (plan.time.has_cost) {
        out += fmt::format("| Cost | {} |\n", four_digits(plan.time.cost));
    }
    if (plan.time.has_energy) {
        out += fmt::format("| Energy (GPU boards at TDP) | {} kWh |\n",
                           four_digits(plan.time.energy_kwh));
    } else {
        out += "| Energy (GPU boards at TDP) | — (the hardware profile gives no TDP) |\n";
    }

    out += "\n## How each figure is computed\n\n| Figure | Formula | With the numbers | Source |\n";
    out += "| --- | --- | --- | --- |\n";
    for (const Explanation& e : explain(spec, hw, plan)) {
        out += fmt::format("| {} | {} | {} | {} |\n", md(e.label), md(e.formula),
                           md(e.substitution), md(e.source));
    }

    const std::vector<std::string> warnings = warning_messages(plan, spec, hw);
    if (!warnings.empty()) {
        out += "\n## Warnings\n\n";
        for (const std::string& w : warnings) {
            out += "- " + w + "\n";
        }
    }
    return out;
}

}  // namespace tally
