#include "ui/charts/formats_panel.h"

#include <limits>

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include "planner/roofline/number_formats.h"
#include "ui/charts/conversion_table_model.h"
#include "ui/charts/format_table_model.h"
#include "ui/common/number_text.h"

namespace tally::ui {

namespace {

const QColor kSign(0xd6, 0x27, 0x28);
const QColor kExponent(0x2c, 0xa0, 0x2c);
const QColor kMantissa(0x1f, 0x77, 0xb4);
const QColor kScale(0x94, 0x67, 0xbd);
constexpr int kBitWidth = 16;
constexpr int kMaxBits = 32;

}  // namespace

BitLayoutWidget::BitLayoutWidget(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("bitLayouts"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
}

int BitLayoutWidget::rowHeight() const {
    return fontMetrics().height() + 10;
}

int BitLayoutWidget::nameWidth() const {
    return fontMetrics().horizontalAdvance(QStringLiteral("fp8_e4m3 ")) + 12;
}

QSize BitLayoutWidget::sizeHint() const {
    const int legend = rowHeight();
    return {nameWidth() + kMaxBits * kBitWidth +
                fontMetrics().horizontalAdvance(QStringLiteral("+ E4M3 scale per 16 values")) + 30,
            legend + rowHeight() * static_cast<int>(kAllNumberFormats.size()) + 8};
}

QSize BitLayoutWidget::minimumSizeHint() const {
    return {nameWidth() + kMaxBits * kBitWidth / 2, sizeHint().height()};
}

void BitLayoutWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const int h = rowHeight();
    const int bit = std::max(6, std::min(kBitWidth, (width() - nameWidth() - 200) / kMaxBits));
    // Legend.
    int x = 6;
    for (const auto& [color, text] :
         {std::pair{kSign, tr("sign")}, std::pair{kExponent, tr("exponent")},
          std::pair{kMantissa, tr("mantissa")}, std::pair{kScale, tr("block scale")}}) {
        p.fillRect(QRect(x, 6, 12, h - 12), color);
        x += 16;
        p.setPen(palette().text().color());
        p.drawText(QRect(x, 0, 200, h), Qt::AlignVCenter, text);
        x += fontMetrics().horizontalAdvance(text) + 18;
    }
    for (std::size_t row = 0; row < kAllNumberFormats.size(); ++row) {
        const FormatInfo& f = format_info(kAllNumberFormats[row]);
        const int y = h * static_cast<int>(row + 1) + 4;
        p.setPen(palette().text().color());
        p.drawText(QRect(6, y, nameWidth(), h), Qt::AlignVCenter, qs(f.name));
        int bx = nameWidth();
        auto boxes = [&](int count, const QColor& color) {
            for (int i = 0; i < count; ++i) {
                const QRect r(bx, y + 4, bit - 2, h - 8);
                p.fillRect(r, color);
                bx += bit;
            }
        };
        boxes(f.sign_bits, kSign);
        boxes(f.exponent_bits, kExponent);
        boxes(f.mantissa_bits, kMantissa);
        QString note = tr("%1 bits").arg(f.sign_bits + f.exponent_bits + f.mantissa_bits);
        if (f.storage_bits_per_value > f.bits_per_value) {
            note = tr("%1 bits, stored in %2").arg(f.bits_per_value).arg(f.storage_bits_per_value);
        }
        if (f.block_size > 0) {
            bx += bit / 2;
            p.fillRect(QRect(bx, y + 4, bit * 2 - 2, h - 8), kScale);
            bx += bit * 2;
            note = tr("+ %1 scale per %2 values = %3 bits/value")
                       .arg(qs(f.scale_format))
                       .arg(f.block_size)
                       .arg(f.bits_per_value);
        }
        p.setPen(palette().text().color());
        p.drawText(QRect(bx + 8, y, width() - bx - 8, h), Qt::AlignVCenter, note);
    }
}

bool BitLayoutWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const int row = help->pos().y() / rowHeight() - 1;
        if (row >= 0 && row < static_cast<int>(kAllNumberFormats.size())) {
            const FormatInfo& f = format_info(kAllNumberFormats[static_cast<std::size_t>(row)]);
            QToolTip::showText(help->globalPos(),
                               tr("%1: %2 exponent bits (bias %3), %4 mantissa bits; max %5, "
                                  "epsilon %6\nSource: %7")
                                   .arg(qs(f.name))
                                   .arg(f.exponent_bits)
                                   .arg(f.exponent_bias)
                                   .arg(f.mantissa_bits)
                                   .arg(f.max, 0, 'g', 5)
                                   .arg(f.epsilon, 0, 'g', 3)
                                   .arg(qs(f.spec)),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

FormatsPanel::FormatsPanel(QWidget* parent)
    : QWidget(parent),
      m_bits(new BitLayoutWidget(this)),
      m_formatTable(new QTableView(this)),
      m_formats(new FormatTableModel(this)),
      m_value(new QLineEdit(this)),
      m_valueError(new QLabel(this)),
      m_conversionTable(new QTableView(this)),
      m_conversions(new ConversionTableModel(this)) {
    setObjectName(QStringLiteral("formatsPanel"));
    m_formatTable->setModel(m_formats);
    compactTable(m_formatTable);
    m_formatTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_formatTable->setObjectName(QStringLiteral("formatTable"));
    m_conversionTable->setModel(m_conversions);
    compactTable(m_conversionTable);
    m_conversionTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_conversionTable->setObjectName(QStringLiteral("conversionTable"));
    m_value->setText(QStringLiteral("0.1"));
    m_value->setAccessibleName(tr("Value to convert"));
    m_value->setToolTip(tr("A number to store in each format (e.g. 0.1, 1e-8, 70000, 3.14159)."));
    m_valueError->setStyleSheet(QStringLiteral("color: #c62828;"));
    connect(m_value, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (setValueText(text)) {
            emit valueTextChanged(text);
        }
    });

    auto* valueRow = new QHBoxLayout;
    valueRow->addWidget(new QLabel(tr("Convert the value"), this));
    valueRow->addWidget(m_value);
    valueRow->addWidget(m_valueError, 1);
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addLayout(valueRow);
    lowerLayout->addWidget(m_conversionTable, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_bits);
    split->addWidget(m_formatTable);
    split->addWidget(lower);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

QList<ChartInfo> FormatsPanel::charts() const {
    return {{QStringLiteral("bit-layouts"), tr("Number format bit layouts"), m_bits}};
}

QString FormatsPanel::valueError() const {
    return m_valueError->text();
}

bool FormatsPanel::setValueText(const QString& text) {
    bool outOfRange = false;
    std::optional<double> v = parseNumber(text, &outOfRange);
    // Infinity and NaN are values every format with specials stores (and `tally dtypes --value
    // inf` converts): the panel takes them as the command line does.
    const QString special = text.trimmed().toLower();
    if (!v && (special == u"inf" || special == u"+inf" || special == u"infinity" ||
               special == u"+infinity")) {
        v = std::numeric_limits<double>::infinity();
    } else if (!v && (special == u"-inf" || special == u"-infinity")) {
        v = -std::numeric_limits<double>::infinity();
    } else if (!v && special == u"nan") {
        v = std::numeric_limits<double>::quiet_NaN();
    }
    if (!v) {
        const QString why = text.trimmed().isEmpty() ? tr("Type a number")
                            : outOfRange
                                ? tr("%1 is out of range: larger than any double (about 1.8e308)")
                                      .arg(text.trimmed())
                                : tr("Not a number: %1").arg(text.trimmed());
        // The table keeps the last value taken: say which, so it is not read as this one's.
        m_valueError->setText(tr("%1. The table shows %2.").arg(why, m_convertedText));
        m_value->setStyleSheet(QStringLiteral("border: 2px solid #c62828; border-radius: 3px;"));
        return false;
    }
    m_convertedText = text.trimmed();
    m_valueError->clear();
    m_value->setStyleSheet({});
    if (m_value->text() != text) {
        m_value->setText(text);
    }
    m_conversions->setInput(*v);
    return true;
}

}  // namespace tally::ui
