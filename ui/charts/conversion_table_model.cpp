#include "ui/charts/conversion_table_model.h"

#include <cmath>

#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"

namespace tally::ui {

ConversionTableModel::ConversionTableModel(QObject* parent) : QAbstractTableModel(parent) {
    setInput(0.1);
}

void ConversionTableModel::setInput(double value) {
    std::vector<Conversion> conversions;
    conversions.reserve(kAllNumberFormats.size());
    for (NumberFormat f : kAllNumberFormats) {
        conversions.push_back(convert(value, f));
    }
    const bool reset = conversions.size() != m_conversions.size();
    if (reset) {
        beginResetModel();
    }
    m_input = value;
    m_conversions = std::move(conversions);
    if (reset) {
        endResetModel();
    } else {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
}

int ConversionTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_conversions.size());
}

int ConversionTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConversionTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const std::size_t row = static_cast<std::size_t>(index.row());
    const Conversion& c = m_conversions[row];
    const FormatInfo& f = format_info(kAllNumberFormats[row]);
    const double absError = std::abs(c.value - m_input);
    const double relError = m_input != 0.0 ? absError / std::abs(m_input) : 0.0;
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    return qs(f.name);
                case ValueColumn:
                    return formatNumber(c.value, 'g', 9);
                case StatusColumn:
                    return translatedText(conversion_status_text(c.status));
                case AbsErrorColumn:
                    return std::isfinite(absError) ? formatNumber(absError, 'g', 3) : QString();
                case RelErrorColumn:
                    return std::isfinite(relError) ? formatNumber(relError, 'g', 3) : QString();
                case ScaleColumn:
                    return f.block_size > 0 ? tr("%1 x %2").arg(formatNumber(c.element, 'g', 4),
                                                                formatNumber(c.scale, 'g', 6))
                                            : QString();
            }
            return {};
        case Qt::ToolTipRole:
            return tr("%1 in %2: %3 (%4)\nRound to nearest, ties to even.\nSource: %5")
                .arg(formatNumber(m_input, 'g', 17), qs(f.name), formatNumber(c.value, 'g', 17),
                     translatedText(conversion_status_text(c.status)), qs(f.spec));
        case Qt::TextAlignmentRole:
            return index.column() == NameColumn || index.column() == StatusColumn
                       ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case ValueRole:
            return c.value;
        default:
            return {};
    }
}

QVariant ConversionTableModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case NameColumn:
            return tr("Format");
        case ValueColumn:
            return tr("Stored value");
        case StatusColumn:
            return tr("Conversion");
        case AbsErrorColumn:
            return tr("Abs. error");
        case RelErrorColumn:
            return tr("Rel. error");
        case ScaleColumn:
            return tr("Element x scale");
    }
    return {};
}

}  // namespace tally::ui
