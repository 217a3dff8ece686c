#include "ui/charts/figure_table_model.h"

#include <utility>

#include "ui/charts/changed_rows.h"

namespace tally::ui {

FigureTableModel::FigureTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FigureTableModel::setRows(std::vector<FigureRow> rows) {
    bool sameShape = rows.size() == m_rows.size();
    for (std::size_t i = 0; sameShape && i < rows.size(); ++i) {
        sameShape = rows[i].key == m_rows[i].key;
    }
    if (sameShape) {
        std::swap(m_rows, rows);  // `rows` holds what the view showed
        emitChangedRows(this, rowCount(), ColumnCount, [&](int r) {
            const FigureRow& a = m_rows[static_cast<std::size_t>(r)];
            const FigureRow& b = rows[static_cast<std::size_t>(r)];
            return a.label != b.label || a.value != b.value || a.text != b.text ||
                   a.unit != b.unit || a.tooltip != b.tooltip;
        });
        return;
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int FigureTableModel::rowOf(const QString& key) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].key == key) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int FigureTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FigureTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FigureTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const FigureRow& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case LabelColumn:
                    return row.label;
                case ValueColumn:
                    return row.text;
                case UnitColumn:
                    return row.unit;
            }
            return {};
        case Qt::ToolTipRole:
            return row.tooltip;
        case Qt::TextAlignmentRole:
            return index.column() == ValueColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        case ValueRole:
            return row.value;
        case KeyRole:
            return row.key;
        default:
            return {};
    }
}

QVariant FigureTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case LabelColumn:
            return tr("Figure");
        case ValueColumn:
            return tr("Value");
        case UnitColumn:
            return tr("Unit");
    }
    return {};
}

}  // namespace tally::ui
