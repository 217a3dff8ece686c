#include "ui/workspace/compare_models.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>

#include "ui/common/hardware_catalog.h"
#include "ui/common/hardware_list_model.h"
#include "ui/common/number_text.h"
#include "ui/workspace/profile_table_model.h"

namespace tally::ui {

// ---- CompareProfilesModel -----------------------------------------------------------------------

CompareProfilesModel::CompareProfilesModel(const HardwareCatalog* catalog, QObject* parent)
    : QIdentityProxyModel(parent),
      m_catalog(catalog),
      m_list(new HardwareListModel(catalog, this)) {
    setSourceModel(m_list);
    // Connected after the list's own reset, so the rows are the new ones here.
    connect(catalog, &HardwareCatalog::profilesChanged, this,
            &CompareProfilesModel::catalogChanged);
    applyDefault();
}

QVariant CompareProfilesModel::data(const QModelIndex& index, int role) const {
    if (role == Qt::CheckStateRole) {
        if (!index.isValid()) {
            return {};
        }
        return m_checked.contains(index.data(HardwareListModel::IdRole).toString()) ? Qt::Checked
                                                                                    : Qt::Unchecked;
    }
    return QIdentityProxyModel::data(index, role);
}

Qt::ItemFlags CompareProfilesModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    return QIdentityProxyModel::flags(index) | Qt::ItemIsUserCheckable;
}

bool CompareProfilesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::CheckStateRole || !index.isValid() ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return false;
    }
    const QString id = index.data(HardwareListModel::IdRole).toString();
    const bool check = value.value<Qt::CheckState>() == Qt::Checked;
    if (check == m_checked.contains(id)) {
        return true;
    }
    if (check && m_checked.size() >= static_cast<qsizetype>(kMaxComparedProfiles)) {
        emit limitReached();
        return false;
    }
    m_checked.removeAll(id);
    if (check) {
        m_checked.append(id);
    }
    m_userChose = true;
    m_wanted = m_checked;
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit checkedChanged();
    return true;
}

int CompareProfilesModel::rowOf(const QString& id) const {
    return m_list->rowOf(id);
}

std::vector<HardwareProfile> CompareProfilesModel::checkedProfiles() const {
    std::vector<HardwareProfile> out;
    for (const HardwareProfile& p : m_catalog->profiles()) {
        if (m_checked.contains(qs(p.id)) &&
            std::none_of(out.begin(), out.end(),
                         [&p](const HardwareProfile& q) { return q.id == p.id; })) {
            out.push_back(p);
        }
    }
    return out;
}

void CompareProfilesModel::setChecked(const QStringList& ids) {
    if (ids == m_checked) {
        return;
    }
    m_checked = ids;
    if (rowCount() > 0) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, 0), {Qt::CheckStateRole});
    }
    emit checkedChanged();
}

void CompareProfilesModel::setCheckedIds(const QStringList& ids) {
    QStringList kept;
    for (const QString& id : ids) {
        if (rowOf(id) >= 0 && !kept.contains(id) &&
            kept.size() < static_cast<qsizetype>(kMaxComparedProfiles)) {
            kept.append(id);
        }
    }
    m_userChose = true;
    m_wanted = ids;
    setChecked(kept);
}

void CompareProfilesModel::setPreferredId(const QString& id) {
    if (id == m_preferred) {
        return;
    }
    m_preferred = id;
    if (!m_userChose) {
        applyDefault();
    }
}

void CompareProfilesModel::catalogChanged() {
    if (!m_userChose) {
        const QStringList before = m_checked;
        applyDefault();
        if (m_checked == before) {
            emit checkedChanged();  // the same ids may name changed profiles
        }
        return;
    }
    QStringList kept;
    for (const QString& id : m_wanted) {
        if (rowOf(id) >= 0 && !kept.contains(id) &&
            kept.size() < static_cast<qsizetype>(kMaxComparedProfiles)) {
            kept.append(id);
        }
    }
    m_checked = kept;
    emit checkedChanged();
}

void CompareProfilesModel::applyDefault() {
    const auto& profiles = m_catalog->profiles();
    QStringList ids;
    auto add = [&ids](const QString& id) {
        if (!ids.contains(id) && ids.size() < static_cast<qsizetype>(kMaxComparedProfiles)) {
            ids.append(id);
        }
    };
    if (rowOf(m_preferred) >= 0) {
        add(m_preferred);
    }
    for (const HardwareProfile& p : profiles) {
        if (p.kind != ProfileKind::builtin) {
            add(qs(p.id));
        }
    }
    // Filled up from the catalog with parts that have a dense bf16 peak (the default compute
    // dtype), so the first comparison evaluates: the catalog's first entry, a V100, has none.
    for (const HardwareProfile& p : profiles) {
        if (ids.size() >= static_cast<qsizetype>(kMinComparedProfiles)) {
            break;
        }
        if (p.peak(ComputeType::bf16) > 0.0) {
            add(qs(p.id));
        }
    }
    setChecked(ids);
}

// ---- CompareTableModel --------------------------------------------------------------------------

namespace {

using Figure = CompareTableModel::Figure;

std::optional<ComputeType> peakType(Figure f) {
    switch (f) {
        case Figure::peakFp64:
            return ComputeType::fp64;
        case Figure::peakFp32:
            return ComputeType::fp32;
        case Figure::peakTf32:
            return ComputeType::tf32;
        case Figure::peakBf16:
            return ComputeType::bf16;
        case Figure::peakFp16:
            return ComputeType::fp16;
        case Figure::peakFp8:
            return ComputeType::fp8;
        case Figure::peakFp4:
            return ComputeType::fp4;
        case Figure::peakInt8:
            return ComputeType::int8;
        default:
            return std::nullopt;
    }
}

bool isPlanFigure(Figure f) {
    return static_cast<int>(f) >= static_cast<int>(Figure::fits);
}

const QString kDash = QStringLiteral("—");

}  // namespace

CompareTableModel::CompareTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareTableModel::setResults(const ProfileComparisonResults& results) {
    beginResetModel();
    m_results = results;
    endResetModel();
}

void CompareTableModel::clear() {
    setResults({});
}

int CompareTableModel::columnOf(const QString& id) const {
    const std::string key = id.toStdString();
    for (std::size_t i = 0; i < m_results.rows.size(); ++i) {
        if (m_results.rows[i].hardware.id == key) {
            return static_cast<int>(i) + 1;
        }
    }
    return -1;
}

int CompareTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || m_results.rows.empty() ? 0 : kFigureCount;
}

int CompareTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_results.rows.size()) + 1;
}

QString CompareTableModel::figureName(Figure f) const {
    if (const auto t = peakType(f)) {
        return tr("Dense %1 peak").arg(qs(to_string(*t)));
    }
    switch (f) {
        case Figure::kind:
            return tr("Kind");
        case Figure::memory:
            return tr("Memory");
        case Figure::bandwidth:
            return tr("Bandwidth");
        case Figure::tdp:
            return tr("TDP");
        case Figure::ridge:
            return tr("Ridge (%1)").arg(qs(to_string(m_results.compute)));
        case Figure::fits:
            return tr("Plan fits");
        case Figure::computeDtype:
            return tr("Timed in");
        case Figure::memoryPerGpu:
            return tr("Memory per GPU");
        case Figure::headroom:
            return tr("Headroom");
        case Figure::days:
            return tr("Days");
        case Figure::gpuHours:
            return tr("GPU-hours");
        case Figure::price:
            return tr("Price per GPU-hour");
        case Figure::cost:
            return tr("Cost");
        default:
            return {};
    }
}

QString CompareTableModel::figureHelp(Figure f) const {
    if (peakType(f)) {
        return tr("Dense peak (no 2:4 sparsity) of this dtype; — when the part has none.");
    }
    switch (f) {
        case Figure::memory:
            return tr("Memory per GPU, GB = 10^9 bytes.");
        case Figure::bandwidth:
            return tr("Memory bandwidth, GB/s = 10^9 bytes per second.");
        case Figure::tdp:
            return tr("Board power.");
        case Figure::ridge:
            return tr(
                "Ridge point = dense peak of the plan's compute dtype / bandwidth: "
                "operations of lower arithmetic intensity are memory-bound (Williams et "
                "al. 2009).");
        case Figure::fits:
            return tr("The plan's memory per GPU is at most the profile's memory.");
        case Figure::computeDtype:
            return tr(
                "The dtype whose dense peak sets the time: the plan's compute dtype, or where the "
                "part has no peak for it the nearest it has (the same width first, then wider).");
        case Figure::price:
            return tr(
                "The profile's own price per GPU-hour if it has one (Workspace > Profiles), "
                "else the plan's.");
        case Figure::memoryPerGpu:
            return tr(
                "Parameters, gradients, master weights, optimizer state and activations "
                "on one GPU (the Memory tab's breakdown).");
        case Figure::headroom:
            return tr("Memory - memory per GPU; negative when the plan does not fit.");
        case Figure::days:
            return tr("Training FLOPs / (dense peak of the compute dtype x MFU x GPUs) / 86400.");
        case Figure::gpuHours:
            return tr("Days x 24 x GPUs.");
        case Figure::cost:
            return tr("GPU-hours x price per GPU-hour (— without a price).");
        default:
            return {};
    }
}

QVariant CompareTableModel::value(Figure f, const ComparisonRow& row) const {
    const HardwareProfile& hw = row.hardware;
    if (const auto t = peakType(f)) {
        return hw.peak(*t);
    }
    const bool ok = row.evaluated();
    switch (f) {
        case Figure::memory:
            return hw.memory_bytes;
        case Figure::bandwidth:
            return hw.bandwidth_bytes_per_s;
        case Figure::tdp:
            return hw.tdp_w;
        case Figure::ridge:
            return row.ridge_flops_per_byte;
        case Figure::fits:
            return ok ? QVariant(row.plan.memory.fits) : QVariant();
        case Figure::memoryPerGpu:
            return ok ? QVariant(row.plan.memory.total_bytes) : QVariant();
        case Figure::headroom:
            return ok ? QVariant(row.plan.memory.headroom_bytes) : QVariant();
        case Figure::days:
            return ok ? QVariant(row.plan.time.days) : QVariant();
        case Figure::gpuHours:
            return ok ? QVariant(row.plan.time.gpu_hours) : QVariant();
        case Figure::computeDtype:
            return ok ? QVariant(qs(to_string(row.compute))) : QVariant();
        case Figure::price:
            return row.price_per_gpu_hour ? QVariant(*row.price_per_gpu_hour) : QVariant();
        case Figure::cost:
            return ok && row.plan.time.has_cost ? QVariant(row.plan.time.cost) : QVariant();
        default:
            return {};
    }
}

QString CompareTableModel::text(Figure f, const ComparisonRow& row) const {
    const HardwareProfile& hw = row.hardware;
    if (const auto t = peakType(f)) {
        return hw.supports(*t) ? formatFlopsPerSecond(hw.peak(*t)) : kDash;
    }
    if (f == Figure::kind) {
        return ProfileTableModel::kindName(hw.kind);
    }
    if (isPlanFigure(f) && !row.evaluated()) {
        return f == Figure::fits ? tr("not evaluated") : kDash;
    }
    switch (f) {
        case Figure::memory:
            return formatGB(hw.memory_bytes);
        case Figure::bandwidth:
            return formatGBPerSecond(hw.bandwidth_bytes_per_s);
        case Figure::tdp:
            return hw.tdp_w > 0.0 ? tr("%1 W").arg(hw.tdp_w) : kDash;
        case Figure::ridge:
            return row.ridge_flops_per_byte > 0.0
                       ? tr("%1 FLOP/byte").arg(formatNumber(row.ridge_flops_per_byte, 'f', 1))
                       : kDash;
        case Figure::fits:
            return row.plan.memory.fits ? tr("yes") : tr("no");
        case Figure::memoryPerGpu:
            return formatGB(row.plan.memory.total_bytes);
        case Figure::headroom:
            return formatGB(row.plan.memory.headroom_bytes);
        case Figure::days:
            return formatDays(row.plan.time.days);
        case Figure::gpuHours:
            return formatShort(row.plan.time.gpu_hours);
        case Figure::computeDtype:
            return row.fallback_from
                       ? tr("%1 (no %2)")
                             .arg(qs(to_string(row.compute)), qs(to_string(*row.fallback_from)))
                       : qs(to_string(row.compute));
        case Figure::price:
            if (!row.price_per_gpu_hour) {
                return kDash;
            }
            return row.price_source == PriceSource::profile
                       ? tr("%1 (profile)").arg(formatShort(*row.price_per_gpu_hour))
                       : tr("%1 (plan)").arg(formatShort(*row.price_per_gpu_hour));
        case Figure::cost:
            return row.plan.time.has_cost ? formatShort(row.plan.time.cost) : kDash;
        default:
            return {};
    }
}

bool CompareTableModel::isBest(Figure f, std::size_t column) const {
    if (f != Figure::days && f != Figure::gpuHours && f != Figure::cost) {
        return false;
    }
    std::optional<double> best;
    std::size_t candidates = 0;
    for (const ComparisonRow& row : m_results.rows) {
        const QVariant v = value(f, row);
        if (!v.isValid() || !row.fits()) {
            continue;
        }
        ++candidates;
        best = best ? std::min(*best, v.toDouble()) : v.toDouble();
    }
    const ComparisonRow& row = m_results.rows[column];
    const QVariant v = value(f, row);
    return candidates >= 2 && best && v.isValid() && row.fits() && v.toDouble() == *best;
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto f = static_cast<Figure>(index.row());
    const bool computeRow = peakType(f) == m_results.compute || f == Figure::ridge;
    if (index.column() == 0) {
        switch (role) {
            case Qt::DisplayRole:
                return figureName(f);
            case Qt::ToolTipRole:
                return figureHelp(f);
            case Qt::FontRole: {
                QFont font;
                font.setBold(computeRow || f == Figure::fits);
                return font;
            }
            default:
                return {};
        }
    }
    const ComparisonRow& row = m_results.rows[static_cast<std::size_t>(index.column() - 1)];
    switch (role) {
        case Qt::DisplayRole:
            return text(f, row);
        case ValueRole:
            return value(f, row);
        case ProfileIdRole:
            return qs(row.hardware.id);
        case Qt::TextAlignmentRole:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::FontRole: {
            QFont font;
            font.setBold(computeRow || f == Figure::fits ||
                         isBest(f, static_cast<std::size_t>(index.column() - 1)));
            return font;
        }
        case Qt::BackgroundRole:
            if (isBest(f, static_cast<std::size_t>(index.column() - 1))) {
                return QBrush(QColor(0xe8, 0xf5, 0xe9));  // light green: the best of the row
            }
            return {};
        case Qt::ForegroundRole:
            if (f == Figure::computeDtype && row.fallback_from) {
                return QBrush(QColor(0xb2, 0x6a, 0x00));  // amber: a stand-in, not the plan's
            }
            if (!row.evaluated() && isPlanFigure(f)) {
                return QBrush(QColor(0xc6, 0x28, 0x28));
            }
            if (f == Figure::fits || (f == Figure::headroom && row.evaluated())) {
                return row.fits() ? QBrush(QColor(0x2e, 0x7d, 0x32))
                                  : QBrush(QColor(0xc6, 0x28, 0x28));
            }
            return {};
        case Qt::ToolTipRole:
            if (isPlanFigure(f) && row.error) {
                return tr("Not evaluated on %1: %2")
                    .arg(qs(row.hardware.name), qs(row.error->message()));
            }
            if (f == Figure::computeDtype && row.fallback_from) {
                return tr("%1 has no dense %2 peak: the plan is timed at its %3 peak instead.")
                    .arg(qs(row.hardware.name), qs(to_string(*row.fallback_from)),
                         qs(to_string(row.compute)));
            }
            if (isBest(f, static_cast<std::size_t>(index.column() - 1))) {
                return QString(
                    figureHelp(f) + u'\n' +
                    (f == Figure::cost ? tr("The lowest cost of the profiles the plan fits on.")
                     : f == Figure::days
                         ? tr("The fewest days of the profiles the plan fits on.")
                         : tr("The fewest GPU-hours of the profiles the plan fits on.")));
            }
            return figureHelp(f);
        default:
            return {};
    }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (section == 0) {
        return role == Qt::DisplayRole ? tr("Figure") : QVariant();
    }
    if (section < 1 || section > static_cast<int>(m_results.rows.size())) {
        return {};
    }
    const HardwareProfile& hw = m_results.rows[static_cast<std::size_t>(section - 1)].hardware;
    return role == Qt::DisplayRole ? qs(hw.name) : tr("%1 (%2)").arg(qs(hw.name), qs(hw.id));
}

}  // namespace tally::ui
