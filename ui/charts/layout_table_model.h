#pragma once

#include <QAbstractTableModel>

#include "planner/training/layout_search.h"

namespace tally::ui {

// The ranked layouts of a search (planner/training/layout_search.h), best first, one row each: the
// parallel layout, its predicted step time, memory per GPU and MFU. The row of the plan's own
// layout, when it is listed, is marked (bold, "this plan" and CurrentRole).
class LayoutTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        TpColumn,
        PpColumn,
        DpColumn,
        MicroBatchColumn,
        ZeroColumn,
        RecomputeColumn,
        SequenceParallelColumn,
        InterleaveColumn,
        ExpertParallelColumn,
        ContextParallelColumn,
        StepColumn,
        MemoryColumn,
        MfuColumn,
        ObjectiveColumn,  // the ranking's figure: seconds, or the run's cost (or GPU-hours)
        ColumnCount
    };
    static constexpr int ValueRole = Qt::UserRole + 1;    // the number behind a cell
    static constexpr int CurrentRole = Qt::UserRole + 2;  // bool: the plan's own layout

    explicit LayoutTableModel(QObject* parent = nullptr);

    // A search's result, the layout the plan runs (layout_of()), the objective it ranked by and
    // whether a cost has a price (else the objective is GPU-hours).
    void setResults(LayoutSearchResult result, const Layout& current, LayoutObjective objective,
                    bool priced);
    const LayoutSearchResult& result() const { return m_result; }
    const RankedLayout* layoutAt(int row) const;
    // The row of the plan's own layout, or -1 when it is not listed.
    int currentRow() const { return m_currentRow; }
    LayoutObjective objective() const { return m_objective; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString text(const RankedLayout& r, int row, int column) const;
    double value(const RankedLayout& r, int row, int column) const;

    LayoutSearchResult m_result;
    Layout m_current;
    int m_currentRow = -1;
    LayoutObjective m_objective = LayoutObjective::time;
    bool m_priced = false;
};

}  // namespace tally::ui
