#include "ui/charts/figure_text.h"

#include <QCoreApplication>

#include "ui/common/number_text.h"

namespace tally::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("tally::ui::Figures", text);
}

QString tip(const QString& formula, const QString& numbers, const QString& source) {
    return formula + u"\n= " + numbers + u'\n' + tr("Source: %1").arg(source);
}

}  // namespace

QString explanationTip(const Explanation* e) {
    if (!e) {
        return {};
    }
    return tip(qs(e->formula), qs(e->substitution), qs(e->source));
}

std::vector<FigureRow> timeFigures(const PlanViews& v) {
    const Plan& p = v.plan;
    const TimeEstimate& t = p.time;
    const PlanSpec& s = v.spec;
    const QString dtype = qs(to_string(compute_type(s.training.compute_dtype)));
    std::vector<FigureRow> rows;
    // Every row's tooltip is the planner's explanation of that figure (planner/explain.h).
    auto add = [&](const char* key, const QString& label, double value, const QString& text,
                   const QString& unit) {
        rows.push_back({QString::fromLatin1(key), label, value, text, unit,
                        explanationTip(v.explanation(key))});
    };
    add("flops.per_token", tr("FLOPs per token"), p.flops.per_token, formatShort(p.flops.per_token),
        tr("FLOPs"));
    add("flops.total", tr("Training FLOPs (model)"), p.flops.total, formatShort(p.flops.total),
        tr("FLOPs"));
    add("flops.hardware_total", tr("Training FLOPs (hardware)"), p.flops.hardware_total,
        formatShort(p.flops.hardware_total), tr("FLOPs"));
    add("time.peak_flops_per_s", tr("Dense peak, one GPU"), t.peak_flops_per_s,
        formatFlopsPerSecond(t.peak_flops_per_s), dtype);
    add("time.achieved_flops_per_s", tr("Achieved, whole cluster"), t.achieved_flops_per_s,
        formatFlopsPerSecond(t.achieved_flops_per_s), tr("model FLOP/s"));
    add("time.days", tr("Training time"), t.days, formatDays(t.days), tr("days"));
    add("time.gpu_hours", tr("GPU-hours"), t.gpu_hours, formatShort(t.gpu_hours), tr("GPU-hours"));
    if (t.has_cost) {
        add("time.cost", tr("Cost"), t.cost, formatShort(t.cost), tr("currency"));
    }
    if (t.has_energy) {
        add("time.energy_kwh", tr("Energy (GPU boards)"), t.energy_kwh, formatShort(t.energy_kwh),
            tr("kWh"));
    }
    add("time.hfu", tr("HFU"), t.hfu, QString::number(t.hfu, 'f', 3), tr("of peak"));
    add("parallel.tokens_per_step", tr("Tokens per step"), p.parallel.tokens_per_step,
        formatShort(p.parallel.tokens_per_step), tr("tokens"));
    add("parallel.steps", tr("Optimizer steps"), p.parallel.steps, formatShort(p.parallel.steps),
        tr("steps"));
    add("parallel.grad_accum_steps", tr("Gradient accumulation"),
        static_cast<double>(p.parallel.grad_accum_steps),
        QString::number(p.parallel.grad_accum_steps), tr("micro-batches"));
    add("parallel.pipeline_bubble_fraction", tr("Pipeline bubble"),
        p.parallel.pipeline_bubble_fraction,
        QString::number(100.0 * p.parallel.pipeline_bubble_fraction, 'f', 1), tr("%"));
    return rows;
}

}  // namespace tally::ui
