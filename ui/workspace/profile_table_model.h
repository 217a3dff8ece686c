#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "planner/hardware/hardware.h"

namespace tally::ui {

// The hardware profiles of the profile manager: id, name, kind, memory, bandwidth and dense bf16
// peak. Built-in profiles are read-only (EditableRole false). Filled with setProfiles().
class ProfileTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        NameColumn,
        KindColumn,
        MemoryColumn,
        BandwidthColumn,
        PeakColumn,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1,  // the profile's id (every column)
        KindRole,                   // "builtin", "custom" or "measured"
        EditableRole,               // false for built-in profiles
        ValueRole,                  // the number behind a figure (bytes, bytes/s, FLOP/s)
    };

    explicit ProfileTableModel(QObject* parent = nullptr);

    void setProfiles(std::vector<HardwareProfile> profiles);
    const std::vector<HardwareProfile>& profiles() const { return m_profiles; }
    // The row of a profile id, or -1.
    int rowOf(const QString& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static QString kindName(ProfileKind kind);

private:
    std::vector<HardwareProfile> m_profiles;
};

}  // namespace tally::ui
