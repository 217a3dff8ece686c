#include "ui/charts/roofline_table_model.h"

#include <QFont>
#include <algorithm>
#include <utility>

#include "planner/roofline/model_ops.h"
#include "ui/charts/changed_rows.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"

namespace tally::ui {

RooflineTableModel::RooflineTableModel(QObject* parent) : QAbstractTableModel(parent) {}

QString RooflineTableModel::markLabel(const RooflineMark& mark) {
    if (mark.aggregate && mark.label == to_string(mark.group)) {
        return groupName(mark.group);
    }
    if (mark.group == RooflineGroup::user) {
        return qs(mark.label);  // the user's own name
    }
    // The lecture's operations and the model's layers, in the window's language.
    return qs(model_op_name(mark.label,
                            [](const Text& text) { return translatedText(text).toStdString(); }));
}

QString RooflineTableModel::groupName(RooflineGroup group) {
    switch (group) {
        case RooflineGroup::seed:
            return tr("lecture 2");
        case RooflineGroup::user:
            return tr("yours");
        case RooflineGroup::training:
            return tr("training");
        case RooflineGroup::prefill:
            return tr("prefill");
        case RooflineGroup::decode:
            return tr("decode");
    }
    return {};
}

QString rooflineMarkTip(const RooflineMark& m) {
    const double intensity = m.cost.intensity();
    const double ridge = m.roof.ridge_flops_per_byte();
    const QString kind = m.aggregate && m.cost.kind == "step"
                             ? RooflineTableModel::tr("all operations of one %1 step")
                                   .arg(RooflineTableModel::groupName(m.group))
                             : qs(m.cost.kind);
    QString text =
        RooflineTableModel::tr(
            "%1 (%2, %3)\nFLOPs %4, bytes moved %5 (read %6 + write %7)\n"
            "intensity = FLOPs / bytes = %8 FLOP/byte\n"
            "attainable = min(peak, intensity x bandwidth) = min(%9, %10 x %11 B/s) "
            "= %12\n%13: intensity %14 the ridge %15 FLOP/byte (peak / bandwidth)")
            .arg(RooflineTableModel::markLabel(m), kind, qs(to_string(m.cost.dtype)),
                 formatShort(m.cost.flops), formatShort(m.cost.bytes()),
                 formatShort(m.cost.read_bytes), formatShort(m.cost.write_bytes))
            .arg(formatNumber(intensity, 'g', 4), formatFlopsPerSecond(m.roof.peak_flops_per_s),
                 formatNumber(intensity, 'g', 4), formatShort(m.roof.bandwidth_bytes_per_s),
                 formatFlopsPerSecond(m.point.attainable_flops_per_s),
                 m.point.bound == Bound::memory ? RooflineTableModel::tr("memory-bound")
                                                : RooflineTableModel::tr("compute-bound"),
                 intensity < ridge ? RooflineTableModel::tr("below")
                                   : RooflineTableModel::tr("at or above"),
                 formatNumber(ridge, 'f', 1));
    if (m.count != 1.0) {
        text += u'\n' + RooflineTableModel::tr("runs %1 times per step").arg(m.count);
    }
    return text + u'\n' +
           RooflineTableModel::tr("Source: Williams et al. 2009 (roofline); CS336 lecture 2");
}

void RooflineTableModel::setResults(const PlanViews& views) {
    std::vector<RooflineMark> marks = views.roofline.marks;
    std::stable_partition(marks.begin(), marks.end(),
                          [](const RooflineMark& m) { return m.aggregate; });
    if (marks.size() == m_marks.size()) {
        std::swap(m_marks, marks);  // `marks` holds what the view showed
        emitChangedRows(this, rowCount(), ColumnCount, [&](int r) {
            const RooflineMark& a = m_marks[static_cast<std::size_t>(r)];
            const RooflineMark& b = marks[static_cast<std::size_t>(r)];
            return a.label != b.label || a.group != b.group || a.count != b.count ||
                   a.cost.flops != b.cost.flops || a.cost.read_bytes != b.cost.read_bytes ||
                   a.cost.write_bytes != b.cost.write_bytes || a.cost.dtype != b.cost.dtype ||
                   a.point.attainable_flops_per_s != b.point.attainable_flops_per_s ||
                   a.roof.peak_flops_per_s != b.roof.peak_flops_per_s ||
                   a.roof.bandwidth_bytes_per_s != b.roof.bandwidth_bytes_per_s;
        });
        return;
    }
    beginResetModel();
    m_marks = std::move(marks);
    endResetModel();
}

int RooflineTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_marks.size());
}

int RooflineTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RooflineTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const RooflineMark& m = m_marks[static_cast<std::size_t>(index.row())];
    auto number = [&]() -> double {
        switch (index.column()) {
            case FlopsColumn:
                return m.cost.flops;
            case BytesColumn:
                return m.cost.bytes();
            case IntensityColumn:
                return m.cost.intensity();
            case AttainableColumn:
                return m.point.attainable_flops_per_s;
            case TimeColumn:
                return m.point.seconds;
            case CountColumn:
                return m.count;
            default:
                return 0.0;
        }
    };
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    return markLabel(m);
                case GroupColumn:
                    return groupName(m.group);
                case FlopsColumn:
                case BytesColumn:
                case CountColumn:
                    return formatShort(number());
                case IntensityColumn:
                    return formatNumber(number(), 'g', 4);
                case AttainableColumn:
                    return formatFlopsPerSecond(number());
                case BoundColumn:
                    // An operation with no arithmetic (a transpose, a copy) has no place on the
                    // log-log chart: the table says so, and times its bytes at the bandwidth.
                    if (!(m.cost.flops > 0.0)) {
                        return tr("memory (no FLOPs: not drawn)");
                    }
                    return m.point.bound == Bound::memory ? tr("memory") : tr("compute");
                case TimeColumn:
                    return formatDuration(number());
            }
            return {};
        case Qt::ToolTipRole:
            return rooflineMarkTip(m);
        case Qt::TextAlignmentRole:
            return index.column() <= GroupColumn || index.column() == BoundColumn
                       ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::FontRole:
            if (m.aggregate) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case ValueRole:
            return number();
        case OpIndexRole:
            return m.op_index;
        default:
            return {};
    }
}

QVariant RooflineTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case NameColumn:
            return tr("Operation");
        case GroupColumn:
            return tr("Set");
        case FlopsColumn:
            return tr("FLOPs");
        case BytesColumn:
            return tr("Bytes");
        case IntensityColumn:
            return tr("FLOP/byte");
        case AttainableColumn:
            return tr("Attainable");
        case BoundColumn:
            return tr("Bound");
        case TimeColumn:
            return tr("Time");
        case CountColumn:
            return tr("Per step");
    }
    return {};
}

}  // namespace tally::ui
