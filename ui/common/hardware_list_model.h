#pragma once

#include <QAbstractListModel>

namespace tally::ui {

class HardwareCatalog;

// The profiles of a HardwareCatalog as a list for the GPU picker: the name (with "custom" or
// "measured" after it for the user's own profiles), the id in IdRole, the kind in KindRole and a
// tooltip with the figures a plan uses.
class HardwareListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { IdRole = Qt::UserRole + 1, KindRole };

    explicit HardwareListModel(const HardwareCatalog* catalog, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    // The row of a profile id, or -1.
    int rowOf(const QString& id) const;

private:
    const HardwareCatalog* m_catalog;
};

}  // namespace tally::ui
