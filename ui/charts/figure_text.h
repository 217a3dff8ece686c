#pragma once

// Figures as rows of text with their "shows its work" tooltips: the planner's explain() entries
// where it has them, else the formula and numbers of the figure, with its source.

#include <QString>
#include <vector>

#include "planner/explain.h"
#include "planner/plan_views.h"

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

}  // namespace tally::ui
