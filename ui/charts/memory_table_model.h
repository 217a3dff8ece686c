#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "planner/text/plan_views.h"

namespace tally::ui {

// Memory per GPU by component, beside the memory chart: GB (1e9 bytes), GiB (2^30 bytes, what
// nvidia-smi shows) and share of the GPU's capacity. Each row's tooltip shows its formula.
class MemoryTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ComponentColumn, GBColumn, GiBColumn, ShareColumn, ColumnCount };
    // The value in bytes, for any column of a row.
    static constexpr int BytesRole = Qt::UserRole + 1;

    explicit MemoryTableModel(QObject* parent = nullptr);
    void setResults(const PlanViews& views);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        QString label;
        double bytes = 0.0;
        QString tooltip;
        bool emphasis = false;
        bool alarm = false;  // drawn in red (the plan does not fit)
    };
    std::vector<Row> m_rows;
    double m_capacity = 0.0;
};

}  // namespace tally::ui
