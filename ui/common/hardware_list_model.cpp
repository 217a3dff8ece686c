#include "ui/common/hardware_list_model.h"

#include "ui/common/hardware_catalog.h"
#include "ui/common/number_text.h"

namespace tally::ui {

HardwareListModel::HardwareListModel(const HardwareCatalog* catalog, QObject* parent)
    : QAbstractListModel(parent), m_catalog(catalog) {
    connect(catalog, &HardwareCatalog::profilesChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

int HardwareListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_catalog->profiles().size());
}

QVariant HardwareListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const HardwareProfile& p = m_catalog->profiles()[static_cast<std::size_t>(index.row())];
    const QString name = qs(p.name);
    switch (role) {
        case Qt::DisplayRole:
            switch (p.kind) {
                case ProfileKind::builtin:
                    return name;
                case ProfileKind::custom:
                    return tr("%1 (custom)").arg(name);
                case ProfileKind::measured:
                    return tr("%1 (measured)").arg(name);
            }
            return name;
        case Qt::ToolTipRole:
            return tr("%1 (%2)\nMemory %3 (%4), bandwidth %5\nDense bf16 peak %6, TDP %7")
                .arg(name, qs(p.id), formatGB(p.memory_bytes), formatGiB(p.memory_bytes),
                     formatGBPerSecond(p.bandwidth_bytes_per_s),
                     formatFlopsPerSecond(p.peak(ComputeType::bf16)),
                     p.tdp_w > 0.0 ? tr("%1 W").arg(p.tdp_w) : tr("not known"));
        case IdRole:
            return qs(p.id);
        case KindRole:
            return qs(to_string(p.kind));
        default:
            return {};
    }
}

int HardwareListModel::rowOf(const QString& id) const {
    const std::string key = id.toStdString();
    const auto& profiles = m_catalog->profiles();
    for (std::size_t i = 0; i < profiles.size(); ++i) {
        if (profiles[i].id == key) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

}  // namespace tally::ui
