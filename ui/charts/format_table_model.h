#pragma once

#include <QAbstractTableModel>

namespace tally::ui {

// The number formats of deep learning (planner/roofline/number_formats.h): bit layout, bias, bits
// per value, range and precision, with the specification each follows as the tooltip. Fixed
// content.
class FormatTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        LayoutColumn,
        BiasColumn,
        BitsColumn,
        MaxColumn,
        MinNormalColumn,
        MinSubnormalColumn,
        EpsilonColumn,
        SpecialsColumn,
        BlockColumn,
        ColumnCount
    };
    static constexpr int ValueRole = Qt::UserRole + 1;  // the number behind a numeric column

    explicit FormatTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace tally::ui
