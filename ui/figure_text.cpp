#include "figure_text.h"

#include <QCoreApplication>

#include "number_text.h"

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
    auto add = [&](const char* key, const QString& label, double value, const QString& text,
                   const QString& unit, QString tooltip = {}) {
        const Explanation* e = v.explanation(key);
        rows.push_back({QString::fromLatin1(key), label, value, text, unit,
                        e ? explanationTip(e) : std::move(tooltip)});
    };
    add("flops.per_token", tr("FLOPs per token"), p.flops.per_token, formatShort(p.flops.per_token),
        tr("FLOPs"));
    add("flops.total", tr("Training FLOPs (model)"), p.flops.total, formatShort(p.flops.total),
        tr("FLOPs"));
    add("flops.hardware_total", tr("Training FLOPs (hardware)"), p.flops.hardware_total,
        formatShort(p.flops.hardware_total), tr("FLOPs"));
    add("time.peak_flops_per_s", tr("Dense peak, one GPU"), t.peak_flops_per_s,
        formatFlopsPerSecond(t.peak_flops_per_s), dtype,
        tip(tr("dense %1 peak of %2 (no 2:4 sparsity)").arg(dtype, qs(v.hardware.name)),
            formatFlopsPerSecond(t.peak_flops_per_s),
            v.hardware.sources.empty() ? tr("the hardware catalog")
                                       : qs(v.hardware.sources.front())));
    add("time.achieved_flops_per_s", tr("Achieved, whole cluster"), t.achieved_flops_per_s,
        formatFlopsPerSecond(t.achieved_flops_per_s), tr("model FLOP/s"),
        tip(tr("peak x MFU x GPUs"),
            tr("%1 x %2 x %3 = %4")
                .arg(formatShort(t.peak_flops_per_s), QString::number(s.cluster.mfu),
                     QString::number(s.cluster.gpus), formatShort(t.achieved_flops_per_s)),
            tr("CS336 lecture 2 (MFU)")));
    add("time.days", tr("Training time"), t.days, QString::number(t.days, 'f', 1), tr("days"));
    add("time.gpu_hours", tr("GPU-hours"), t.gpu_hours, formatShort(t.gpu_hours), tr("GPU-hours"));
    if (t.has_cost) {
        add("time.cost", tr("Cost"), t.cost, formatShort(t.cost), tr("currency"));
    }
    add("time.energy_kwh", tr("Energy (GPU boards)"), t.energy_kwh, formatShort(t.energy_kwh),
        tr("kWh"));
    add("time.hfu", tr("HFU"), t.hfu, QString::number(t.hfu, 'f', 3), tr("of peak"),
        tip(tr("MFU x hardware FLOPs / model FLOPs"),
            tr("%1 x %2 / %3 = %4")
                .arg(QString::number(s.cluster.mfu), formatShort(p.flops.hardware_total),
                     formatShort(p.flops.total), QString::number(t.hfu, 'f', 3)),
            tr("Korthikanti et al. 2022, sec. 5 (MFU vs HFU)")));
    add("parallel.tokens_per_step", tr("Tokens per step"), p.parallel.tokens_per_step,
        formatShort(p.parallel.tokens_per_step), tr("tokens"),
        tip(tr("global batch x sequence length"),
            tr("%1 x %2 = %3")
                .arg(QString::number(p.parallel.global_batch), QString::number(s.data.seq_len),
                     formatShort(p.parallel.tokens_per_step)),
            tr("definition")));
    add("parallel.steps", tr("Optimizer steps"), p.parallel.steps, formatShort(p.parallel.steps),
        tr("steps"),
        tip(tr("training tokens / tokens per step"),
            tr("%1 / %2 = %3")
                .arg(formatShort(s.data.tokens), formatShort(p.parallel.tokens_per_step),
                     formatShort(p.parallel.steps)),
            tr("definition")));
    add("parallel.grad_accum_steps", tr("Gradient accumulation"),
        static_cast<double>(p.parallel.grad_accum_steps),
        QString::number(p.parallel.grad_accum_steps), tr("micro-batches"));
    add("parallel.pipeline_bubble_fraction", tr("Pipeline bubble"),
        p.parallel.pipeline_bubble_fraction,
        QString::number(100.0 * p.parallel.pipeline_bubble_fraction, 'f', 1), tr("%"),
        tip(tr("(pp - 1) / micro-batches per step (1F1B)"),
            tr("(%1 - 1) / %2 = %3")
                .arg(QString::number(p.parallel.pp), QString::number(p.parallel.grad_accum_steps),
                     QString::number(p.parallel.pipeline_bubble_fraction, 'g', 3)),
            tr("Narayanan et al. 2021, sec. 2.2")));
    return rows;
}

}  // namespace tally::ui
