#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "ui/charts/figure_text.h"

namespace tally::ui {

// Rows of figures (label, value, unit) with their "shows its work" tooltips.
class FigureTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { LabelColumn, ValueColumn, UnitColumn, ColumnCount };
    static constexpr int ValueRole = Qt::UserRole + 1;  // the number behind the text
    static constexpr int KeyRole = Qt::UserRole + 2;    // FigureRow::key

    explicit FigureTableModel(QObject* parent = nullptr);
    void setRows(std::vector<FigureRow> rows);
    // The row of a key, or -1.
    int rowOf(const QString& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<FigureRow> m_rows;
};

}  // namespace tally::ui
