#pragma once

// Figures as rows of text with their "shows its work" tooltips: the planner's explain() entries
// where it has them, else the formula and numbers of the figure, with its source.

#include <QString>
#include <vector>

#include "planner/text/explain.h"
#include "planner/text/plan_views.h"

namespace tally::ui {

// "formula\n= substitution\nSource: source" for an explain() entry; empty for nullptr.
QString explanationTip(const Explanation* explanation);

struct FigureRow {
    QString key;  // explain()'s key where there is one ("time.days"), else our own
    QString label;
    double value = 0.0;
    QString text;  // the value as shown
    QString unit;
    QString tooltip;
};

// The time panel's figures: FLOPs, peak and achieved FLOP/s, days, GPU-hours, cost, energy, HFU,
// steps, tokens per step, gradient accumulation, pipeline bubble.
std::vector<FigureRow> timeFigures(const PlanViews& views);

// The predicted step's critical-path terms (planner/performance/performance.h), in the order the
// step-time bar stacks them: compute, recompute, memory-bound, TP, PP comm, PP bubble, DP exposed,
// EP, offload, optimizer. Their values (seconds) add up to Plan::performance.step_s; each tooltip
// is the planner's explanation of the term with its share of the step.
std::vector<FigureRow> stepTerms(const PlanViews& views);

// Which MFU sets the time, in words: "predicted MFU 0.412 sets the time (assumed 0.5 not used)".
QString mfuSourceText(const PlanViews& views);
// How close the model came on the published runs of the plan's engine and GPU generation
// (planner/io/case_accuracy.h), or that none compares.
QString errorBandText(const PlanViews& views);

}  // namespace tally::ui
