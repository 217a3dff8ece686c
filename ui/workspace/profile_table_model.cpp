#include "ui/workspace/profile_table_model.h"

#include <QBrush>
#include <QColor>

#include "ui/common/number_text.h"

namespace tally::ui {

ProfileTableModel::ProfileTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProfileTableModel::setProfiles(std::vector<HardwareProfile> profiles) {
    beginResetModel();
    m_profiles = std::move(profiles);
    endResetModel();
}

int ProfileTableModel::rowOf(const QString& id) const {
    const std::string key = id.toStdString();
    for (std::size_t i = 0; i < m_profiles.size(); ++i) {
        if (m_profiles[i].id == key) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int ProfileTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_profiles.size());
}

int ProfileTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ProfileTableModel::kindName(ProfileKind kind) {
    switch (kind) {
        case ProfileKind::builtin:
            return tr("built-in");
        case ProfileKind::custom:
            return tr("custom");
        case ProfileKind::measured:
            return tr("measured");
    }
    return {};
}

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const HardwareProfile& p = m_profiles[static_cast<std::size_t>(index.row())];
    const double bf16 = p.peak(ComputeType::bf16);
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case IdColumn:
                    return qs(p.id);
                case NameColumn:
                    return qs(p.name);
                case KindColumn:
                    return kindName(p.kind);
                case MemoryColumn:
                    return formatGB(p.memory_bytes);
                case BandwidthColumn:
                    return formatGBPerSecond(p.bandwidth_bytes_per_s);
                case PeakColumn:
                    return bf16 > 0.0 ? formatFlopsPerSecond(bf16) : tr("none");
            }
            return {};
        case Qt::TextAlignmentRole:
            return index.column() >= MemoryColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                  : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            return p.kind == ProfileKind::builtin ? QVariant(QBrush(QColor(0x55, 0x55, 0x55)))
                                                  : QVariant();
        case Qt::ToolTipRole:
            return p.kind == ProfileKind::builtin
                       ? tr("%1: built-in (from the shipped catalog), read-only. Duplicate it to "
                            "make a copy you can edit.")
                             .arg(qs(p.name))
                       : tr("%1: %2, stored in the workspace.").arg(qs(p.name), kindName(p.kind));
        case IdRole:
            return qs(p.id);
        case KindRole:
            return qs(to_string(p.kind));
        case EditableRole:
            return p.kind != ProfileKind::builtin;
        case ValueRole:
            switch (index.column()) {
                case MemoryColumn:
                    return p.memory_bytes;
                case BandwidthColumn:
                    return p.bandwidth_bytes_per_s;
                case PeakColumn:
                    return bf16;
            }
            return {};
        default:
            return {};
    }
}

QVariant ProfileTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case IdColumn:
            return tr("Id");
        case NameColumn:
            return tr("Name");
        case KindColumn:
            return tr("Kind");
        case MemoryColumn:
            return tr("Memory");
        case BandwidthColumn:
            return tr("Bandwidth");
        case PeakColumn:
            return tr("Dense bf16 peak");
    }
    return {};
}

}  // namespace tally::ui
