#include "ui/charts/figure_text.h"

#include <QCoreApplication>

#include "planner/core/enum_names.h"
#include "planner/io/case_accuracy.h"
#include "planner/model/pipeline_stages.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"

namespace tally::ui {

namespace {

// lupdate files the bare tr() calls of this file under "tally::ui" (the namespace they are in),
// so the lookup uses that context too.
QString tr(const char* text) {
    return QCoreApplication::translate("tally::ui", text);
}

// An explanation without numbers (a term whose inputs the planner does not spell out) leaves out
// the "= ..." line rather than showing an empty one.
QString tip(const QString& formula, const QString& numbers, const QString& source) {
    const QString substitution = numbers.isEmpty() ? QString() : u"\n= " + numbers;
    return formula + substitution + u'\n' + tr("Source: %1").arg(source);
}

}  // namespace

QString explanationTip(const Explanation* e) {
    if (!e) {
        return {};
    }
    return tip(translatedFormula(*e), translatedSubstitution(*e), translatedSource(*e));
}

std::vector<FigureRow> timeFigures(const PlanViews& v) {
    const Plan& p = v.plan;
    const TimeEstimate& t = p.time;
    const PlanSpec& s = v.spec;
    const QString dtype = qs(to_string(compute_type(s.training.compute_dtype)));
    std::vector<FigureRow> rows;
    // Every row's tooltip is the planner's explanation of that figure (planner/text/explain.h).
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
        // In the price's own currency, which the spec does not name: no unit shown.
        add("time.cost", tr("Cost"), t.cost, formatShort(t.cost), QString());
    }
    if (t.has_energy) {
        add("time.energy_kwh", tr("Energy (GPU boards)"), t.energy_kwh, formatShort(t.energy_kwh),
            tr("kWh"));
    }
    add("time.hfu", tr("HFU"), t.hfu, formatNumber(t.hfu, 'f', 3), tr("of peak"));
    // Which MFU the time rests on: the assumed cluster.mfu, or the performance model's.
    rows.push_back({QStringLiteral("time.mfu_source"), tr("Time from"), t.mfu_predicted ? 1.0 : 0.0,
                    t.mfu_predicted ? tr("predicted MFU") : tr("assumed MFU"), QString(),
                    tr("cluster.mfu = \"predicted\" (or absent): steps x the predicted step time; "
                       "a number: FLOPs / (peak x MFU x GPUs).\n%1")
                        .arg(mfuSourceText(v))});
    rows.push_back({QStringLiteral("cluster.mfu"), tr("MFU, assumed"), s.cluster.mfu,
                    t.mfu_predicted ? tr("not used") : formatNumber(s.cluster.mfu, 'g', 3),
                    tr("of peak"),
                    tr("cluster.mfu as typed: achieved model FLOP/s / dense peak\nSource: CS336 "
                       "lecture 2 (0.5 is good)")});
    add("performance.mfu", tr("MFU, predicted"), p.performance.mfu,
        formatNumber(p.performance.mfu, 'f', 3), tr("of peak"));
    add("performance.step_s", tr("Predicted step"), p.performance.step_s,
        formatDuration(p.performance.step_s), QString());
    add("parallel.tokens_per_step", tr("Tokens per step"), p.parallel.tokens_per_step,
        formatShort(p.parallel.tokens_per_step), tr("tokens"));
    add("parallel.steps", tr("Optimizer steps"), p.parallel.steps, formatShort(p.parallel.steps),
        tr("steps"));
    add("parallel.grad_accum_steps", tr("Gradient accumulation"),
        static_cast<double>(p.parallel.grad_accum_steps),
        QString::number(p.parallel.grad_accum_steps), tr("micro-batches"));
    add("parallel.pipeline_bubble_fraction", tr("Pipeline bubble"),
        p.parallel.pipeline_bubble_fraction,
        formatNumber(100.0 * p.parallel.pipeline_bubble_fraction, 'f', 1), tr("%"));
    // Which layers each stage holds, as `tally plan` says it: the form's first and last stage
    // layers read "auto" when the plan leaves the spread to the engine.
    if (s.training.pp > 1 && s.model.kind != ModelKind::params && s.model.layers > 0) {
        const StageLayout stages = stage_layout(s);
        rows.push_back({QStringLiteral("parallel.stage_layers"), tr("Layers by stage"),
                        static_cast<double>(stages.most()), qs(stage_spread_text(stages)),
                        tr("layers"),
                        tr("Transformer layers on each pipeline stage, first to last (a run of "
                           "equal middle stages as \"layers x stages\"); the first also holds "
                           "the embedding, the last the output layer. Given by "
                           "training.first_stage_layers and last_stage_layers, or spread by the "
                           "engine when they are 0 (auto).\nSource: Megatron-Core "
                           "transformer_block.py, get_num_layers_to_build")});
    }
    return rows;
}

std::vector<FigureRow> stepTerms(const PlanViews& v) {
    const PerformanceBreakdown& f = v.plan.performance;
    struct Term {
        const char* key;
        const char* label;
        double seconds;
    };
    // The order of PerformanceBreakdown's critical path (planner/performance/performance.h).
    const Term terms[] = {
        {"performance.compute_s", QT_TRANSLATE_NOOP("tally::ui", "Compute"), f.compute_s},
        {"performance.recompute_s", QT_TRANSLATE_NOOP("tally::ui", "Recompute"), f.recompute_s},
        {"performance.memory_bound_s", QT_TRANSLATE_NOOP("tally::ui", "Memory-bound"),
         f.memory_bound_s},
        {"performance.tp_comm_s", QT_TRANSLATE_NOOP("tally::ui", "TP comm"), f.tp_comm_s},
        {"performance.pp_comm_s", QT_TRANSLATE_NOOP("tally::ui", "PP comm"), f.pp_comm_s},
        {"performance.pp_bubble_s", QT_TRANSLATE_NOOP("tally::ui", "PP bubble"), f.pp_bubble_s},
        {"performance.dp_comm_exposed_s", QT_TRANSLATE_NOOP("tally::ui", "DP exposed"),
         f.dp_comm_exposed_s},
        {"performance.ep_comm_s", QT_TRANSLATE_NOOP("tally::ui", "EP all-to-all"), f.ep_comm_s},
        {"performance.cp_comm_s", QT_TRANSLATE_NOOP("tally::ui", "CP exchange"), f.cp_comm_s},
        {"performance.overhead_s", QT_TRANSLATE_NOOP("tally::ui", "Launch gaps"), f.overhead_s},
        {"performance.comm_contention_s", QT_TRANSLATE_NOOP("tally::ui", "NCCL SMs"),
         f.comm_contention_s},
        {"performance.offload_s", QT_TRANSLATE_NOOP("tally::ui", "Offload"), f.offload_s},
        {"performance.optimizer_s", QT_TRANSLATE_NOOP("tally::ui", "Optimizer"), f.optimizer_s},
    };
    std::vector<FigureRow> rows;
    for (const Term& term : terms) {
        const QString label = tr(term.label);
        const double share = f.step_s > 0.0 ? term.seconds / f.step_s : 0.0;
        const QString head = tr("%1: %2 (%3 of the step)")
                                 .arg(label, formatDuration(term.seconds), formatPercent(share));
        const QString explanation = explanationTip(v.explanation(std::string_view(term.key)));
        rows.push_back({QString::fromLatin1(term.key), label, term.seconds,
                        formatDuration(term.seconds), QString(),
                        explanation.isEmpty() ? head : head + u'\n' + explanation});
    }
    return rows;
}

QString errorBandText(const PlanViews& v) {
    const Engine engine = v.spec.training.engine;
    const GpuGeneration generation = gpu_generation(v.hardware);
    const QString engineName = qs(engine_label(engine));
    const QString gpuName = qs(std::string(to_string(generation)));
    const auto band = error_band(engine, generation, band_moe(v.spec));
    if (!band || band->count == 0) {
        return generation == GpuGeneration::other
                   ? tr("No published %1 run on this GPU to compare the prediction with.")
                         .arg(engineName)
                   : tr("No published %1 %2 run to compare the prediction with.")
                         .arg(engineName, gpuName);
    }
    // Only the family's dense (or MoE) runs when there are enough of them (error_band()).
    const QString runs = band->model == "MoE"     ? tr("MoE runs")
                         : band->model == "dense" ? tr("dense runs")
                                                  : tr("runs");
    // On a calibrated profile the published runs judge the model before the calibration; the
    // step shown is fitted to the user's own run.
    QString text =
        (v.hardware.calibration
             ? tr("±%1% mean error on %2 published %3 %4 %5 (worst %6%), the model's "
                  "before calibration.")
             : tr("±%1% mean error on %2 published %3 %4 %5 (worst %6%)."))
            .arg(formatNumber(100.0 * band->mean_abs_error, 'f', 0))
            .arg(band->count)
            .arg(engineName, gpuName, runs, formatNumber(100.0 * band->worst_abs_error, 'f', 0));
    // A band whose errors all lie one way is no ± at all: say which way. An error e is the
    // predicted throughput over the measured one, minus 1, so a run took 1 + e times the
    // predicted time.
    if (band->count > 1 && band->mean_error > 0.0 &&
        band->mean_error >= band->mean_abs_error - 1e-9) {
        // The sentence brings its own gap: none after a Chinese full stop.
        text += tr(" Every one of them took longer than predicted: %1x the predicted time "
                   "on average, up to %2x.")
                    .arg(formatNumber(1.0 + band->mean_error, 'f', 2),
                         formatNumber(1.0 + band->worst_abs_error, 'f', 2));
    } else if (band->count > 1 && band->mean_error < 0.0 &&
               -band->mean_error >= band->mean_abs_error - 1e-9) {
        text += tr(" Every one of them ran faster than predicted: in %1x the predicted "
                   "time on average.")
                    .arg(formatNumber(1.0 + band->mean_error, 'f', 2));
    }
    return text;
}

QString mfuSourceText(const PlanViews& v) {
    const TimeEstimate& t = v.plan.time;
    const QString predicted = formatNumber(v.plan.performance.mfu, 'f', 3);
    if (t.mfu_predicted) {
        QString text =
            (v.hardware.calibration
                 ? tr("The predicted MFU %1, calibrated on the profile's measured run, sets "
                      "the time (cluster.mfu = predicted). %2")
                 : tr("The predicted MFU %1 sets the time (cluster.mfu = predicted). %2"))
                .arg(predicted, errorBandText(v));
        // Said here in full too: the warnings' line beside the headline is cut on a laptop.
        if (v.plan.has(Warning::calibration_other_engine) && v.hardware.calibration &&
            v.hardware.calibration->engine) {
            text +=
                u' ' +
                tr("The calibration was fitted on a run of %1, and this plan runs "
                   "%2: its efficiency is the other engine's.")
                    .arg(QCoreApplication::translate(
                             "tally::enums",
                             find_enum_name(*v.hardware.calibration->engine)->label.data()),
                         QCoreApplication::translate(
                             "tally::enums", find_enum_name(v.spec.training.engine)->label.data()));
        }
        return text;
    }
    return tr("The assumed MFU %1 sets the time; the performance model predicts %2.")
        .arg(formatNumber(v.spec.cluster.mfu, 'g', 3), predicted);
}

}  // namespace tally::ui
