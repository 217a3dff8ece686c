#include "ui/charts/layout_table_model.h"

#include <QCoreApplication>
#include <QFont>
#include <string>

#include "planner/core/enum_names.h"

#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"

namespace tally::ui {

namespace {

// The label the plan form's Recompute choice shows for a value (enum_names.h), translated in the
// form's context.
QString recomputeLabel(Recompute recompute) {
    for (const EnumName<Recompute>& row : kEnumNames<Recompute>) {
        if (row.value == recompute) {
            return translatedFormText(std::string(row.label).c_str());
        }
    }
    return qs(to_string(recompute));
}

}  // namespace

LayoutTableModel::LayoutTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayoutTableModel::setResults(LayoutSearchResult result, const Layout& current,
                                  LayoutObjective objective, bool priced) {
    // The same number of rows under the same ranking (a slider step): only the rows whose layout
    // or figures changed are announced, so the table repaints those cells and keeps its column
    // widths; a reset re-measures every column and repaints everything.
    const bool sameShape = result.best.size() == m_result.best.size() && objective == m_objective &&
                           priced == m_priced && !m_result.best.empty();
    auto currentRowOf = [&](const LayoutSearchResult& r) {
        for (std::size_t i = 0; i < r.best.size(); ++i) {
            if (r.best[i].layout == current) {
                return static_cast<int>(i);
            }
        }
        return -1;
    };
    if (sameShape) {
        const int newCurrent = currentRowOf(result);
        std::vector<int> changed;
        for (std::size_t i = 0; i < result.best.size(); ++i) {
            const RankedLayout& a = result.best[i];
            const RankedLayout& b = m_result.best[i];
            const int row = static_cast<int>(i);
            if (!(a.layout == b.layout) || a.step_s != b.step_s || a.objective != b.objective ||
                a.memory_bytes != b.memory_bytes || a.mfu != b.mfu || row == m_currentRow ||
                row == newCurrent) {
                changed.push_back(row);
            }
        }
        m_result = std::move(result);
        m_current = current;
        m_currentRow = newCurrent;
        for (int row : changed) {
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
        return;
    }
    beginResetModel();
    m_result = std::move(result);
    m_current = current;
    m_objective = objective;
    m_priced = priced;
    m_currentRow = currentRowOf(m_result);
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, ObjectiveColumn, ObjectiveColumn);
}

const RankedLayout* LayoutTableModel::layoutAt(int row) const {
    return row >= 0 && static_cast<std::size_t>(row) < m_result.best.size()
               ? &m_result.best[static_cast<std::size_t>(row)]
               : nullptr;
}

int LayoutTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_result.best.size());
}

int LayoutTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double LayoutTableModel::value(const RankedLayout& r, int row, int column) const {
    const Layout& l = r.layout;
    switch (column) {
        case RankColumn:
            return row + 1;
        case TpColumn:
            return static_cast<double>(l.tp);
        case PpColumn:
            return static_cast<double>(l.pp);
        case DpColumn:
            return static_cast<double>(l.dp);
        case MicroBatchColumn:
            return static_cast<double>(l.micro_batch);
        case ZeroColumn:
            return l.zero;
        case RecomputeColumn:
            return static_cast<int>(l.recompute);
        case SequenceParallelColumn:
            return l.sequence_parallel ? 1.0 : 0.0;
        case InterleaveColumn:
            return static_cast<double>(l.interleave);
        case ExpertParallelColumn:
            return static_cast<double>(l.expert_parallel);
        case ContextParallelColumn:
            return static_cast<double>(l.context_parallel);
        case StepColumn:
            return r.step_s;
        case MemoryColumn:
            return r.memory_bytes;
        case MfuColumn:
            return r.mfu;
        case ObjectiveColumn:
            return r.objective;
    }
    return 0.0;
}

QString LayoutTableModel::text(const RankedLayout& r, int row, int column) const {
    switch (column) {
        case RankColumn:
            // The plan's own row is marked by an arrow beside its rank (and bold, and its
            // tooltip says so): "5 (this plan)" widened the column until, on a 1366-pixel
            // screen, the figures beside it were cut.
            return row == m_currentRow ? QStringLiteral("%1 \u25C0").arg(row + 1)
                                       : QString::number(row + 1);
        case RecomputeColumn:
            return recomputeLabel(r.layout.recompute);
        case SequenceParallelColumn:
            return r.layout.sequence_parallel ? tr("on") : tr("off");
        case StepColumn:
            return formatDuration(r.step_s);
        case MemoryColumn:
            return formatGB(r.memory_bytes);
        case MfuColumn:
            return formatNumber(r.mfu, 'f', 3);
        case ObjectiveColumn:
            return m_objective == LayoutObjective::time ? formatDuration(r.objective)
                                                        : formatShort(r.objective);
        default:
            return formatNumber(value(r, row, column), 'g', 12);
    }
}

QVariant LayoutTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const RankedLayout& r = m_result.best[static_cast<std::size_t>(index.row())];
    const bool current = index.row() == m_currentRow;
    switch (role) {
        case Qt::DisplayRole:
            return text(r, index.row(), index.column());
        case Qt::TextAlignmentRole:
            return index.column() == RankColumn || index.column() == RecomputeColumn
                       ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::FontRole:
            if (current) {
                QFont font;
                font.setBold(true);
                return font;
            }
            return {};
        case Qt::ToolTipRole:
            return QString(
                (current ? tr("The plan's own layout.\n") : QString()) +
                tr("tp %1 x pp %2 x dp %3, micro-batch %4: one step %5 predicted, %6 per "
                   "GPU, MFU %7. Double-click or Apply to plan it.")
                    .arg(r.layout.tp)
                    .arg(r.layout.pp)
                    .arg(r.layout.dp)
                    .arg(r.layout.micro_batch)
                    .arg(formatDuration(r.step_s), formatGB(r.memory_bytes))
                    .arg(r.mfu, 0, 'f', 3));
        case ValueRole:
            return value(r, index.row(), index.column());
        case CurrentRole:
            return current;
        default:
            return {};
    }
}

QVariant LayoutTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case DpColumn:
                return tr("Data-parallel GPUs: cluster.gpus / (tp x pp x cp)");
            case InterleaveColumn:
                return tr("Virtual pipeline stages per GPU (interleaved 1F1B)");
            case ExpertParallelColumn:
                return tr("Data-parallel GPUs the routed experts are spread over");
            case ContextParallelColumn:
                return tr("GPUs each sequence is split over (ring attention)");
            case StepColumn:
                return tr("One optimizer step, predicted by the performance model");
            case MemoryColumn:
                return tr("Memory per GPU (GB = 1e9 bytes) on the most loaded GPU");
            case ObjectiveColumn:
                return m_objective == LayoutObjective::time
                           ? tr("Ranked by the predicted step time")
                           : tr("Ranked by the run's cost: GPUs x step time x steps x price "
                                "(GPU-hours without a price)");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case RankColumn:
            return tr("#");
        case TpColumn:
            return tr("TP");
        case PpColumn:
            return tr("PP");
        case DpColumn:
            return tr("DP");
        case MicroBatchColumn:
            return tr("Micro-batch");
        case ZeroColumn:
            return tr("ZeRO");
        case RecomputeColumn:
            return tr("Recompute");
        case SequenceParallelColumn:
            return tr("SP");
        case InterleaveColumn:
            return tr("Interleave");
        case ExpertParallelColumn:
            return tr("EP");
        case ContextParallelColumn:
            return tr("CP");
        case StepColumn:
            return tr("Step");
        case MemoryColumn:
            return tr("Memory/GPU");
        case MfuColumn:
            return tr("MFU");
        case ObjectiveColumn:
            return m_objective == LayoutObjective::time ? tr("Step (ranked)")
                   : m_priced                           ? tr("Run cost")
                                                        : tr("Run GPU-hours");
    }
    return {};
}

}  // namespace tally::ui
