#include "ui/charts/format_table_model.h"

#include "planner/roofline/number_formats.h"
#include "ui/common/number_text.h"

namespace tally::ui {

FormatTableModel::FormatTableModel(QObject* parent) : QAbstractTableModel(parent) {}

int FormatTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(kAllNumberFormats.size());
}

int FormatTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FormatTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const FormatInfo& f = format_info(kAllNumberFormats[static_cast<std::size_t>(index.row())]);
    auto number = [&]() -> double {
        switch (index.column()) {
            case BiasColumn:
                return f.exponent_bias;
            case BitsColumn:
                return f.bits_per_value;
            case MaxColumn:
                return f.max;
            case MinNormalColumn:
                return f.min_normal;
            case MinSubnormalColumn:
                return f.min_subnormal;
            case EpsilonColumn:
                return f.epsilon;
            default:
                return 0.0;
        }
    };
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    return qs(f.name);
                case LayoutColumn:
                    return tr("%1 + %2 + %3")
                        .arg(f.sign_bits)
                        .arg(f.exponent_bits)
                        .arg(f.mantissa_bits);
                case BiasColumn:
                    return f.exponent_bias;
                case BitsColumn:
                    return f.storage_bits_per_value != f.bits_per_value
                               ? tr("%1 (in %2)")
                                     .arg(f.bits_per_value)
                                     .arg(f.storage_bits_per_value)
                               : QString::number(f.bits_per_value);
                case MaxColumn:
                case MinNormalColumn:
                case MinSubnormalColumn:
                case EpsilonColumn:
                    return formatNumber(number(), 'g', 5);
                case SpecialsColumn: {
                    QString text = f.has_infinity ? tr("inf") : QString();
                    if (f.has_nan) {
                        text += (text.isEmpty() ? QString() : QStringLiteral(", ")) + tr("NaN");
                    }
                    if (f.overflow == OverflowRule::saturate) {
                        text +=
                            (text.isEmpty() ? QString() : QStringLiteral(", ")) + tr("saturates");
                    }
                    return text;
                }
                case BlockColumn:
                    return f.block_size > 0
                               ? tr("%1 values, %2 scale").arg(f.block_size).arg(qs(f.scale_format))
                               : QString();
            }
            return {};
        case Qt::ToolTipRole:
            return tr("%1: sign %2, exponent %3, mantissa %4 bits, bias %5\nSource: %6")
                .arg(qs(f.name))
                .arg(f.sign_bits)
                .arg(f.exponent_bits)
                .arg(f.mantissa_bits)
                .arg(f.exponent_bias)
                .arg(qs(f.spec));
        case Qt::TextAlignmentRole:
            return index.column() == NameColumn || index.column() == SpecialsColumn ||
                           index.column() == BlockColumn
                       ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case ValueRole:
            return number();
        default:
            return {};
    }
}

QVariant FormatTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::ToolTipRole && section == LayoutColumn) {
        return tr("sign + exponent + mantissa bits (block formats: one element)");
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case NameColumn:
            return tr("Format");
        case LayoutColumn:
            return tr("S + E + M");
        case BiasColumn:
            return tr("Bias");
        case BitsColumn:
            return tr("Bits/value");
        case MaxColumn:
            return tr("Max");
        case MinNormalColumn:
            return tr("Min normal");
        case MinSubnormalColumn:
            return tr("Min subnormal");
        case EpsilonColumn:
            return tr("Epsilon");
        case SpecialsColumn:
            return tr("Specials");
        case BlockColumn:
            return tr("Block");
    }
    return {};
}

}  // namespace tally::ui
