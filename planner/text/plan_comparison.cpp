#include "planner/text/plan_comparison.h"
#include "planner/model/pipeline_stages.h"

#include <fmt/core.h>

#include <utility>

namespace tally {

namespace {

// A value that is a number or a name: the same in every language, so its template is not
// offered for translation.
Text plain(std::string value) {
    return Text("", "%1").arg(std::move(value));
}

std::string four(double value) {
    return fmt::format("{:.4g}", value);
}

// What a refused plan shows in each line: check()'s field and rule.
Text not_evaluated(const FieldError& error) {
    return TALLY_TEXT("tally::compare", "not evaluated: %1").arg(error.message());
}

}  // namespace

ComparedPlan compared_plan(std::string name, const PlanSpec& spec,
                           const HardwareProfile& hardware) {
    ComparedPlan out;
    out.name = std::move(name);
    out.spec = spec;
    out.hardware = hardware;
    out.error = check(spec, hardware);
    if (!out.error) {
        out.plan = evaluate(spec, hardware);
    }
    return out;
}

std::vector<ComparisonLine> plan_comparison_lines(const std::vector<ComparedPlan>& plans) {
    if (plans.size() < kMinComparedPlans || plans.size() > kMaxComparedPlans) {
        throw SpecError("plans", std::to_string(plans.size()),
                        TALLY_TEXT("tally::compare", "2 to 6 plans to compare"));
    }
    std::vector<ComparisonLine> lines;
    // Each line: its label and, for each plan, its value. A plan that cannot be evaluated says
    // why in the first line and shows a dash in the others: the reason once, not on every line.
    const auto line = [&](const char* label, auto&& value_of) {
        ComparisonLine l{label, {}};
        for (const ComparedPlan& c : plans) {
            l.values.push_back(c.evaluated()   ? value_of(c)
                               : lines.empty() ? not_evaluated(*c.error)
                                               : plain("\u2014"));
        }
        lines.push_back(std::move(l));
    };
    line(QT_TRANSLATE_NOOP("tally::compare", "GPU"), [](const ComparedPlan& c) {
        return plain(fmt::format("{} x {}", c.spec.cluster.gpus, c.hardware.name));
    });
    line(QT_TRANSLATE_NOOP("tally::compare", "Parameters"), [](const ComparedPlan& c) {
        return c.plan.params.active < c.plan.params.total
                   ? TALLY_TEXT("tally::compare", "%1 (%2 active)")
                         .arg(four(c.plan.params.total))
                         .arg(four(c.plan.params.active))
                   : plain(four(c.plan.params.total));
    });
    line(QT_TRANSLATE_NOOP("tally::compare", "Tokens"),
         [](const ComparedPlan& c) { return plain(four(c.spec.data.tokens)); });
    line(QT_TRANSLATE_NOOP("tally::compare", "Layout"), [](const ComparedPlan& c) {
        const TrainingSpec& t = c.spec.training;
        std::string layout =
            fmt::format("dp {} x tp {} x pp {} x cp {}, ep {}, ZeRO-{}", c.plan.parallel.dp, t.tp,
                        t.pp, t.context_parallel, t.expert_parallel, t.zero);
        // Stages of unequal layers are listed, as the plan table lists them.
        if (c.spec.model.kind != ModelKind::params && t.pp > 1) {
            if (const StageLayout stages = stage_layout(c.spec); !stages.even) {
                layout += fmt::format(" ({})", stage_spread_text(stages));
            }
        }
        return plain(layout);
    });
    line(QT_TRANSLATE_NOOP("tally::compare", "Memory per GPU"), [](const ComparedPlan& c) {
        const MemoryBreakdown& m = c.plan.memory;
        return (m.fits ? TALLY_TEXT("tally::compare", "%1 of %2 GB: fits")
                       : TALLY_TEXT("tally::compare", "%1 of %2 GB: DOES NOT FIT"))
            .arg(fmt::format("{:.2f}", m.total_bytes / 1e9))
            .arg(fmt::format("{:.2f}", m.capacity_bytes / 1e9));
    });
    line(QT_TRANSLATE_NOOP("tally::compare", "Step"), [](const ComparedPlan& c) {
        return TALLY_TEXT("tally::compare", "%1 s predicted, MFU %2")
            .arg(four(c.plan.performance.step_s))
            .arg(fmt::format("{:.3f}", c.plan.performance.mfu));
    });
    line(QT_TRANSLATE_NOOP("tally::compare", "Training time"), [](const ComparedPlan& c) {
        return (c.plan.time.mfu_predicted
                    ? TALLY_TEXT("tally::compare", "%1 days (predicted step)")
                    : TALLY_TEXT("tally::compare", "%1 days at the assumed MFU %2"))
            .arg(four(c.plan.time.days))
            .arg(fmt::format("{:.3g}", c.plan.time.mfu));
    });
    line(QT_TRANSLATE_NOOP("tally::compare", "GPU-hours"),
         [](const ComparedPlan& c) { return plain(four(c.plan.time.gpu_hours)); });
    line(QT_TRANSLATE_NOOP("tally::compare", "Cost"), [](const ComparedPlan& c) {
        return c.plan.time.has_cost ? TALLY_TEXT("tally::compare", "%1 at %2 per GPU-hour")
                                          .arg(four(c.plan.time.cost))
                                          .arg(fmt::format("{:g}", c.plan.time.price_per_gpu_hour))
                                    : TALLY_TEXT("tally::compare", "no price");
    });
    line(QT_TRANSLATE_NOOP("tally::compare", "Energy"), [](const ComparedPlan& c) {
        return c.plan.time.has_energy ? TALLY_TEXT("tally::compare", "%1 kWh (GPU boards at TDP)")
                                            .arg(four(c.plan.time.energy_kwh))
                                      : TALLY_TEXT("tally::compare", "no TDP known");
    });
    return lines;
}

nlohmann::json plan_comparison_json(const std::vector<ComparedPlan>& plans) {
    nlohmann::json out = nlohmann::json::array();
    for (const ComparedPlan& c : plans) {
        nlohmann::json j = {{"name", c.name},
                            {"gpu", c.hardware.id},
                            {"gpus", c.spec.cluster.gpus},
                            {"error", c.error ? nlohmann::json(c.error->message()) : nullptr}};
        if (c.evaluated()) {
            const Plan& p = c.plan;
            j["params"] = p.params.total;
            j["active_params"] = p.params.active;
            j["tokens"] = c.spec.data.tokens;
            j["layout"] = {{"dp", p.parallel.dp},
                           {"tp", c.spec.training.tp},
                           {"pp", c.spec.training.pp},
                           {"context_parallel", c.spec.training.context_parallel},
                           {"expert_parallel", c.spec.training.expert_parallel},
                           {"zero", c.spec.training.zero}};
            j["memory_total_bytes"] = p.memory.total_bytes;
            j["memory_capacity_bytes"] = p.memory.capacity_bytes;
            j["fits"] = p.memory.fits;
            j["step_s"] = p.performance.step_s;
            j["predicted_mfu"] = p.performance.mfu;
            j["mfu_source"] = p.time.mfu_predicted ? "predicted" : "assumed";
            j["days"] = p.time.days;
            j["gpu_hours"] = p.time.gpu_hours;
            j["cost"] = p.time.has_cost ? nlohmann::json(p.time.cost) : nullptr;
            j["energy_kwh"] = p.time.has_energy ? nlohmann::json(p.time.energy_kwh) : nullptr;
        }
        out.push_back(std::move(j));
    }
    return out;
}

}  // namespace tally
