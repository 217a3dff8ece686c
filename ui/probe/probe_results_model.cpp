#include "ui/probe/probe_results_model.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

#include "planner/hardware/probe_records.h"
#include "ui/common/number_text.h"
#include "ui/probe/probe_text.h"

namespace tally::ui {

namespace {

bool isFigure(int column) {
    return column == ProbeResultsModel::FlopsColumn || column == ProbeResultsModel::BytesColumn ||
           column == ProbeResultsModel::MedianColumn || column == ProbeResultsModel::SpreadColumn ||
           column == ProbeResultsModel::SamplesColumn || column == ProbeResultsModel::PeakColumn ||
           column == ProbeResultsModel::BandwidthColumn;
}

QVariant optionalValue(std::optional<double> v) {
    return v ? QVariant(*v) : QVariant();
}

}  // namespace

ProbeResultRow probeResultRow(const probe::ResultEvent& result) {
    return {qs(result.test), qs(result.variant), probe_result_record(result), qs(result.note)};
}

std::vector<ProbeResultRow> probeResultRows(const ProbeRunRecord& run) {
    std::vector<ProbeResultRow> rows;
    rows.reserve(run.results.size());
    for (const ProbeResultRecord& r : run.results) {
        rows.push_back({qs(r.test), qs(r.variant), r, {}});
    }
    return rows;
}

ProbeResultsModel::ProbeResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

MeasuredFractions ProbeResultsModel::fractionsOf(const ProbeResultRow& row) const {
    return m_profile ? measured_fractions(row.record, *m_profile) : MeasuredFractions{};
}

void ProbeResultsModel::setResults(std::vector<ProbeResultRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    m_fractions.clear();
    for (const ProbeResultRow& r : m_rows) {
        m_fractions.push_back(fractionsOf(r));
    }
    endResetModel();
}

void ProbeResultsModel::appendResult(ProbeResultRow row) {
    const int at = static_cast<int>(m_rows.size());
    beginInsertRows({}, at, at);
    m_fractions.push_back(fractionsOf(row));
    m_rows.push_back(std::move(row));
    endInsertRows();
}

void ProbeResultsModel::setProfile(const HardwareProfile* profile) {
    m_profile = profile != nullptr ? std::optional<HardwareProfile>(*profile) : std::nullopt;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        m_fractions[i] = fractionsOf(m_rows[i]);
    }
    if (!m_rows.empty()) {
        emit dataChanged(index(0, PeakColumn), index(rowCount() - 1, BandwidthColumn));
    }
    emit headerDataChanged(Qt::Horizontal, PeakColumn, BandwidthColumn);
}

int ProbeResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ProbeResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProbeResultsModel::value(const ProbeResultRow& row, const MeasuredFractions& f,
                                  int column) const {
    const ProbeResultRecord& r = row.record;
    switch (column) {
        case FlopsColumn:
            return optionalValue(r.flops_per_s);
        case BytesColumn:
            return optionalValue(r.bytes_per_s);
        case MedianColumn:
            return optionalValue(r.median_s);
        case SpreadColumn:
            return optionalValue(r.stdrel);
        case SamplesColumn:
            return static_cast<double>(r.samples);
        case PeakColumn:
            return optionalValue(f.of_peak);
        case BandwidthColumn:
            return optionalValue(f.of_bandwidth);
        case ValidatedColumn:
            return r.validated;
        default:
            return text(row, f, column);
    }
}

QString ProbeResultsModel::text(const ProbeResultRow& row, const MeasuredFractions& f,
                                int column) const {
    const ProbeResultRecord& r = row.record;
    const QString none = QStringLiteral("-");
    switch (column) {
        case TestColumn:
            return row.test;
        case VariantColumn:
            return row.variant.isEmpty() ? none : row.variant;
        case DtypeColumn:
            return r.dtype.empty() ? none : qs(r.dtype);
        case SizesColumn:
            return sizesText(r.sizes_json);
        case FlopsColumn:
            return r.flops_per_s ? formatFlopsPerSecond(*r.flops_per_s) : none;
        case BytesColumn:
            return r.bytes_per_s ? formatBytesPerSecond(*r.bytes_per_s) : none;
        case MedianColumn:
            return r.median_s ? tr("%1 s").arg(*r.median_s, 0, 'g', 4) : none;
        case SpreadColumn:
            return r.stdrel ? tr("±%1").arg(formatPercent(*r.stdrel)) : none;
        case SamplesColumn:
            return r.samples > 0 ? QString::number(r.samples) : none;
        case StatusColumn:
            return probeResultStatusText(r.status);
        case ValidatedColumn:
            return r.validated ? tr("yes") : tr("no");
        case PeakColumn:
            return f.of_peak ? formatPercent(*f.of_peak) : none;
        case BandwidthColumn:
            return f.of_bandwidth ? formatPercent(*f.of_bandwidth) : none;
        default:
            return {};
    }
}

QString ProbeResultsModel::tip(const ProbeResultRow& row) const {
    const ProbeResultRecord& r = row.record;
    QStringList lines{QStringLiteral("<b>%1</b>")
                          .arg(row.variant.isEmpty() ? row.test : row.test + u' ' + row.variant)};
    if (r.median_s && r.min_s && r.max_s) {
        lines << tr("median %1 s over %2 samples (min %3 s, max %4 s)")
                     .arg(*r.median_s, 0, 'g', 4)
                     .arg(r.samples)
                     .arg(*r.min_s, 0, 'g', 4)
                     .arg(*r.max_s, 0, 'g', 4);
    }
    if (r.flops > 0.0) {
        lines << tr("%1 FLOPs per sample").arg(formatShort(r.flops));
    }
    if (r.bytes > 0.0) {
        lines << tr("%1 bytes per sample").arg(formatShort(r.bytes));
    }
    if (r.flops > 0.0 && r.bytes > 0.0) {
        lines << tr("intensity %1 FLOP/byte").arg(r.flops / r.bytes, 0, 'g', 4);
    }
    lines << (r.validated ? tr("validated against an independent reference") : tr("not validated"));
    if (!r.reason.empty()) {
        lines << tr("%1: %2").arg(probeResultStatusText(r.status), qs(r.reason).toHtmlEscaped());
    }
    if (!row.note.isEmpty()) {
        lines << row.note.toHtmlEscaped();
    }
    return lines.join(QStringLiteral("<br>"));
}

QVariant ProbeResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto row = static_cast<std::size_t>(index.row());
    const ProbeResultRow& r = m_rows[row];
    const MeasuredFractions& f = m_fractions[row];
    const int column = index.column();
    switch (role) {
        case Qt::DisplayRole:
            return text(r, f, column);
        case ValueRole:
            return value(r, f, column);
        case Qt::ToolTipRole:
            return tip(r);
        case Qt::TextAlignmentRole:
            return isFigure(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                    : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            if (r.record.status == ProbeResultStatus::failed &&
                (column == StatusColumn || column == ValidatedColumn)) {
                return QBrush(QColor(0xc6, 0x28, 0x28));
            }
            if (r.record.status == ProbeResultStatus::waived) {
                return QBrush(QColor(0x75, 0x75, 0x75));
            }
            return {};
        default:
            return {};
    }
}

QVariant ProbeResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case TestColumn:
                return tr("Test");
            case VariantColumn:
                return tr("Variant");
            case DtypeColumn:
                return tr("Dtype");
            case FlopsColumn:
                return tr("FLOP/s");
            case BytesColumn:
                return tr("Bytes/s");
            case MedianColumn:
                return tr("Median");
            case SpreadColumn:
                return tr("Spread");
            case SamplesColumn:
                return tr("Samples");
            case StatusColumn:
                return tr("Status");
            case ValidatedColumn:
                return tr("Validated");
            case PeakColumn:
                return tr("% peak");
            case BandwidthColumn:
                return tr("% bandwidth");
            case SizesColumn:
                return tr("Sizes");
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        const QString profile = m_profile ? qs(m_profile->name) : tr("no profile");
        switch (section) {
            case SpreadColumn:
                return tr("Relative standard deviation of the samples");
            case PeakColumn:
                return tr("FLOP/s as a fraction of %1's dense peak of the result's dtype")
                    .arg(profile);
            case BandwidthColumn:
                return tr("Bytes/s as a fraction of %1's memory bandwidth").arg(profile);
            case ValidatedColumn:
                return tr("The output was compared with an independent reference and matched");
            default:
                return {};
        }
    }
    return {};
}

}  // namespace tally::ui
