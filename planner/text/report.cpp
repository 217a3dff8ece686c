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

}  // namespace

std::string plan_csv(const PlanSpec& spec, const HardwareProfile& hw, const Plan& plan) {
    std::string out = "section,key,value\r\n";
    out += fmt::format("plan,title,{}\r\n", csv_field(plan_title(spec, hw)));
    csv_rows(out, "spec", to_json(spec));
    csv_rows(out, "plan", to_json(plan, spec, hw));
    return out;
}

std::string plan_title(const PlanSpec& spec, const HardwareProfile& hw,
                       const TextTranslator& translate) {
    if (!spec.name.empty()) {
        return spec.name;
    }
    auto say = [&translate](const Text& text) { return render(text, translate); };
    std::string model = spec.model.name;
    if (model.empty()) {
        switch (spec.model.kind) {
            case ModelKind::params:
                model = say(TALLY_TEXT("tally::report", "%1 parameters")
                                .arg(count_text(spec.model.params)));
                break;
            case ModelKind::mlp:
                model = say(TALLY_TEXT("tally::report", "%1-layer MLP").arg(spec.model.layers));
                break;
            case ModelKind::transformer:
                model =
                    say(TALLY_TEXT("tally::report", "%1-layer transformer").arg(spec.model.layers));
                break;
        }
    }
    return say(TALLY_TEXT("tally::report", "%1, %2 tokens, %3 x %4")
                   .arg(model)
                   .arg(count_text(spec.data.tokens))
                   .arg(spec.cluster.gpus)
                   .arg(hw.name));
}

std::string plan_markdown(const PlanSpec& spec, const HardwareProfile& hw, const Plan& plan,
                          const TextTranslator& translate) {
    const TrainingSpec& t = spec.training;
    const MemoryBreakdown& m = plan.memory;
    auto say = [&translate](const Text& text) { return render(text, translate); };
    // A table row: the label translated, the cells as given.
    auto row = [&say](const Text& label, const std::string& value) {
        return fmt::format("| {} | {} |\n", say(label), value);
    };
    auto memory = [&](const Text& label, double bytes) {
        return fmt::format("| {} | {:.2f} | {:.2f} | {:.1f} % |\n", say(label), to_gb(bytes),
                           to_gib(bytes),
                           m.capacity_bytes > 0.0 ? 100.0 * bytes / m.capacity_bytes : 0.0);
    };
    std::string out;
    out += fmt::format("# {}\n\n", md(plan_title(spec, hw, translate)));
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

    out +=
        fmt::format("## {}\n\n| | |\n| --- | --- |\n", say(TALLY_TEXT("tally::report", "Inputs")));
    out += row(TALLY_TEXT("tally::report", "Model"),
               say(TALLY_TEXT("tally::report", "%1 (%2 parameters, %3 active)")
                       .arg(md(spec.model.name.empty() ? std::string(to_string(spec.model.kind))
                                                       : spec.model.name))
                       .arg(four_digits(plan.params.total))
                       .arg(four_digits(plan.params.active))));
    out += row(TALLY_TEXT("tally::report", "Data"),
               say(TALLY_TEXT("tally::report",
                              "%1 tokens, sequence length %2, global batch %3, micro-batch %4")
                       .arg(four_digits(spec.data.tokens))
                       .arg(spec.data.seq_len)
                       .arg(plan.parallel.global_batch)
                       .arg(spec.data.micro_batch)));
    const std::string mfu =
        plan.time.mfu_predicted
            ? say((hw.calibration ? TALLY_TEXT("tally::report", "%1 (predicted, calibrated)")
                                  : TALLY_TEXT("tally::report", "%1 (predicted)"))
                      .arg(fmt::format("{:.3g}", plan.time.mfu)))
            : fmt::format("{:g}", spec.cluster.mfu);
    const std::string price =
        spec.cluster.price_per_gpu_hour
            ? say(TALLY_TEXT("tally::report", ", %1 per GPU-hour")
                      .arg(fmt::format("{:g}", *spec.cluster.price_per_gpu_hour)))
            : std::string();
    out += row(TALLY_TEXT("tally::report", "Cluster"),
               say(TALLY_TEXT("tally::report", "%1 x %2 (%3), MFU %4%5")
                       .arg(spec.cluster.gpus)
                       .arg(md(hw.name))
                       .arg(md(hw.id))
                       .arg(mfu)
                       .arg(price)));
    std::string recipe =
        say(TALLY_TEXT("tally::report",
                       "params %1, grads %2, master %3, %4 with %5 state, compute %6, activations "
                       "%7; recompute %8; ZeRO-%9")
                .arg(to_string(t.param_dtype))
                .arg(to_string(t.grad_dtype))
                .arg(t.master_dtype ? std::string(to_string(*t.master_dtype)) : std::string("none"))
                .arg(to_string(t.optimizer))
                .arg(to_string(t.optimizer_state_dtype))
                .arg(to_string(t.compute_dtype))
                .arg(to_string(t.activation_dtype))
                .arg(to_string(t.recompute))
                .arg(t.zero));
    recipe += fmt::format("; tp {} x pp {} x dp {}", plan.parallel.tp, plan.parallel.pp,
                          plan.parallel.dp);
    if (t.sequence_parallel) {
        recipe += fmt::format("; {}", say(TALLY_TEXT("tally::report", "sequence parallel")));
    }
    if (t.flash_attention) {
        recipe += fmt::format("; {}", say(TALLY_TEXT("tally::report", "flash attention")));
    }
    out += row(TALLY_TEXT("tally::report", "Recipe"), recipe);

    out +=
        fmt::format("\n## {}\n\n{}\n\n", say(TALLY_TEXT("tally::report", "Memory per GPU")),
                    say(TALLY_TEXT("tally::report",
                                   "GB = 10^9 bytes; GiB = 2^30 bytes (what nvidia-smi shows).")));
    out += fmt::format("| {} | GB | GiB | {} |\n| --- | ---: | ---: | ---: |\n",
                       say(TALLY_TEXT("tally::report", "Component")),
                       say(TALLY_TEXT("tally::report", "of capacity")));
    out += memory(TALLY_TEXT("tally::report", "Parameters"), m.params_bytes);
    out += memory(TALLY_TEXT("tally::report", "Gradients"), m.grads_bytes);
    out += memory(TALLY_TEXT("tally::report", "Master weights"), m.master_bytes);
    out += memory(TALLY_TEXT("tally::report", "Optimizer state"), m.optimizer_bytes);
    out += memory(TALLY_TEXT("tally::report", "Activations"), m.activations_bytes);
    out += memory(TALLY_TEXT("tally::report", "**Total**"), m.total_bytes);
    out += memory(TALLY_TEXT("tally::report", "Capacity"), m.capacity_bytes);
    out += fmt::format("\n{}\n",
                       m.fits ? say(TALLY_TEXT("tally::report", "The plan fits."))
                              : say(TALLY_TEXT("tally::report", "**The plan does not fit.**")));

    out += fmt::format("\n## {}\n\n| {} | {} |\n| --- | ---: |\n",
                       say(TALLY_TEXT("tally::report", "Compute, time and cost")),
                       say(TALLY_TEXT("tally::report", "Figure")),
                       say(TALLY_TEXT("tally::report", "Value")));
    out += row(TALLY_TEXT("tally::report", "FLOPs per token"), four_digits(plan.flops.per_token));
    out +=
        row(TALLY_TEXT("tally::report", "Training FLOPs (model)"), four_digits(plan.flops.total));
    out += row(TALLY_TEXT("tally::report", "Training FLOPs (hardware, HFU %1)")
                   .arg(fmt::format("{:.3f}", plan.time.hfu)),
               four_digits(plan.flops.hardware_total));
    out += row(TALLY_TEXT("tally::report", "Time"),
               say(TALLY_TEXT("tally::report", "%1 days").arg(days_text(plan.time.days))));
    out += row(TALLY_TEXT("tally::report", "GPU-hours"), four_digits(plan.time.gpu_hours));
    if (plan.time.has_cost) {
        out += row(TALLY_TEXT("tally::report", "Cost"), four_digits(plan.time.cost));
    }
    if (plan.time.has_energy) {
        out += row(TALLY_TEXT("tally::report", "Energy (GPU boards at TDP)"),
                   fmt::format("{} kWh", four_digits(plan.time.energy_kwh)));
    } else {
        out += row(TALLY_TEXT("tally::report", "Energy (GPU boards at TDP)"),
                   say(TALLY_TEXT("tally::report", "— (the hardware profile gives no TDP)")));
    }

    out += fmt::format("\n## {}\n\n| {} | {} | {} | {} |\n",
                       say(TALLY_TEXT("tally::report", "How each figure is computed")),
                       say(TALLY_TEXT("tally::report", "Figure")),
                       say(TALLY_TEXT("tally::report", "Formula")),
                       say(TALLY_TEXT("tally::report", "With the numbers")),
                       say(TALLY_TEXT("tally::report", "Source")));
    out += "| --- | --- | --- | --- |\n";
    // A source in words in the reader's language (kSourceContext), a citation as written.
    auto source_text = [&say](const Explanation& e) {
        if (e.source_texts.empty()) {
            return say(Text(kSourceContext, e.source.c_str()));
        }
        std::string joined;
        for (const Text& part : e.source_texts) {
            joined = joined.empty()
                         ? say(part)
                         : say(Text(kSourceContext, kSourceJoin).arg(joined).arg(say(part)));
        }
        return joined;
    };
    for (const Explanation& e : explain(spec, hw, plan)) {
        out += fmt::format(
            "| {} | {} | {} | {} |\n", md(say(Text(kExplanationContext, e.label.c_str()))),
            md(say(e.formula_text.empty() ? Text(kFormulaContext, e.formula.c_str())
                                          : e.formula_text)),
            md(e.substitution_text.empty() ? e.substitution : say(e.substitution_text)),
            md(source_text(e)));
    }

    const std::vector<Text> warnings = warning_texts(plan, spec, hw);
    if (!warnings.empty()) {
        out += fmt::format("\n## {}\n\n", say(TALLY_TEXT("tally::report", "Warnings")));
        for (const Text& w : warnings) {
            out += fmt::format("- {}\n", say(w));
        }
    }
    return out;
}

}  // namespace tally
