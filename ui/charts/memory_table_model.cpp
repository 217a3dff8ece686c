#include "ui/charts/memory_table_model.h"

#include <QBrush>
#include <QFont>
#include <utility>

#include "ui/charts/changed_rows.h"
#include "ui/charts/figure_text.h"
#include "ui/common/number_text.h"

namespace tally::ui {

MemoryTableModel::MemoryTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void MemoryTableModel::setResults(const PlanViews& v) {
    const MemoryBreakdown& m = v.plan.memory;
    auto tipOf = [&v](const char* key) { return explanationTip(v.explanation(key)); };
    std::vector<Row> rows{
        {tr("Parameters"), m.params_bytes, tipOf("memory.params_bytes"), false},
        {tr("Gradients"), m.grads_bytes, tipOf("memory.grads_bytes"), false},
        {tr("Master weights"), m.master_bytes, tipOf("memory.master_bytes"), false},
        {tr("Optimizer state"), m.optimizer_bytes, tipOf("memory.optimizer_bytes"), false},
        {tr("Activations"), m.activations_bytes, tipOf("memory.activations_bytes"), false},
    };
    // ZeRO-3's gathered layers and the pipeline's buffers are part of the total: listed where
    // the plan has them, so the rows add up to it.
    if (m.zero3_gather_bytes > 0.0) {
        rows.push_back(
            {tr("ZeRO-3 gather"), m.zero3_gather_bytes, tipOf("memory.zero3_gather_bytes"), false});
    }
    if (m.pipeline_buffer_bytes > 0.0) {
        rows.push_back({tr("Pipeline buffers"), m.pipeline_buffer_bytes,
                        tipOf("memory.pipeline_buffer_bytes"), false});
    }
    rows.insert(
        rows.end(),
        {
            {tr("Total"), m.total_bytes, tipOf("memory.total_bytes"), true},
            {tr("Capacity"), m.capacity_bytes,
             tr("%1: %2 of %3 (the catalog's figure; GB = 1e9 bytes)")
                 .arg(qs(v.hardware.name), formatGB(m.capacity_bytes), qs(v.hardware.memory_type)),
             false},
            {m.fits ? tr("Headroom") : tr("Short by"),
             m.fits ? m.headroom_bytes : -m.headroom_bytes,
             tr("capacity - total = %1 - %2")
                 .arg(formatGB(m.capacity_bytes), formatGB(m.total_bytes)),
             !m.fits, !m.fits},
        });
    const bool sameShape = rows.size() == m_rows.size();
    if (sameShape) {
        // The GiB and share columns depend on the capacity too: a new capacity changes every row.
        const bool sameCapacity = m_capacity == m.capacity_bytes;
        std::swap(m_rows, rows);  // `rows` holds what the view showed
        m_capacity = m.capacity_bytes;
        emitChangedRows(this, rowCount(), ColumnCount, [&](int r) {
            const Row& a = m_rows[static_cast<std::size_t>(r)];
            const Row& b = rows[static_cast<std::size_t>(r)];
            return !sameCapacity || a.label != b.label || a.bytes != b.bytes ||
                   a.tooltip != b.tooltip || a.emphasis != b.emphasis || a.alarm != b.alarm;
        });
        return;
    }
    beginResetModel();
    m_rows = std::move(rows);
    m_capacity = m.capacity_bytes;
    endResetModel();
}

int MemoryTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MemoryTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemoryTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case ComponentColumn:
                    return row.label;
                case GBColumn:
                    return gbNumber(row.bytes);
                case GiBColumn:
                    return gibNumber(row.bytes);
                case ShareColumn:
                    return m_capacity > 0.0
                               ? formatNumber(100.0 * row.bytes / m_capacity, 'f', 1) + u" %"
                               : QString();
            }
            return {};
        case Qt::ToolTipRole:
            return row.tooltip;
        case Qt::TextAlignmentRole:
            return index.column() == ComponentColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                     : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::FontRole:
            if (row.emphasis) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::ForegroundRole:
            return row.alarm ? QVariant(QBrush(QColor(0xc6, 0x28, 0x28))) : QVariant();
        case BytesRole:
            return row.bytes;
        default:
            return {};
    }
}

QVariant MemoryTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case ComponentColumn:
                return tr("Per GPU");
            case GBColumn:
                return tr("GB");
            case GiBColumn:
                return tr("GiB");
            case ShareColumn:
                return tr("of capacity");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case GBColumn:
                return tr("Gigabytes: 10^9 bytes (datasheets)");
            case GiBColumn:
                return tr("Gibibytes: 2^30 bytes (what nvidia-smi shows)");
            default:
                return {};
        }
    }
    return {};
}

}  // namespace tally::ui
