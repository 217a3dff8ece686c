#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "planner/roofline/number_formats.h"

namespace tally::ui {

// A value typed by the user converted into each number format (round to nearest even; overflow
// and underflow as each format does it), with the error the conversion makes.
class ConversionTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ValueColumn,
        StatusColumn,
        AbsErrorColumn,
        RelErrorColumn,
        ScaleColumn,
        ColumnCount
    };
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit ConversionTableModel(QObject* parent = nullptr);
    void setInput(double value);
    double input() const { return m_input; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    double m_input = 0.0;
    std::vector<Conversion> m_conversions;
};

}  // namespace tally::ui
