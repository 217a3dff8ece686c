#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "planner/text/plan_views.h"

namespace tally::ui {

// The roofline's marks as a table: each operation's FLOPs, bytes, intensity, attainable FLOP/s,
// bound and time under its roof. Whole steps (and the seed's and the user's operations) first.
class RooflineTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        GroupColumn,
        FlopsColumn,
        BytesColumn,
        IntensityColumn,
        AttainableColumn,
        BoundColumn,
        TimeColumn,
        CountColumn,
        ColumnCount
    };
    static constexpr int ValueRole = Qt::UserRole + 1;    // the number behind a numeric column
    static constexpr int OpIndexRole = Qt::UserRole + 2;  // spec.ops index (user rows), else -1

    explicit RooflineTableModel(QObject* parent = nullptr);
    void setResults(const PlanViews& views);
    const RooflineMark& mark(int row) const { return m_marks[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static QString groupName(RooflineGroup group);
    // A mark's label as shown: a whole phase's step ("training", named by the planner) in the
    // user's language, any other operation by its own name.
    static QString markLabel(const RooflineMark& mark);

private:
    std::vector<RooflineMark> m_marks;
};

// A mark's tooltip: what it is, its FLOPs and bytes, intensity, where it lands and why.
QString rooflineMarkTip(const RooflineMark& mark);

}  // namespace tally::ui
