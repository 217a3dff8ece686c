#pragma once

#include <QWidget>

#include "ui/common/chart_support.h"

class QLabel;
class QLineEdit;
class QTableView;

namespace tally::ui {

class ConversionTableModel;
class FormatTableModel;

// The bit layout of each number format: sign, exponent and mantissa bits as coloured boxes, and
// for block formats the shared scale each block of values carries.
class BitLayoutWidget : public QWidget {
    Q_OBJECT
public:
    explicit BitLayoutWidget(QWidget* parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    int rowHeight() const;
    int nameWidth() const;
};

// Number formats: bit layouts, the table of ranges and precision, and a value the user types
// converted into each format (what it becomes, and the error).
class FormatsPanel : public QWidget {
    Q_OBJECT
public:
    explicit FormatsPanel(QWidget* parent = nullptr);
    QList<ChartInfo> charts() const;

    QLineEdit* valueEdit() const { return m_value; }
    ConversionTableModel* conversions() const { return m_conversions; }
    // Why the typed value is not converted, naming the value the table still converts; empty
    // while the typed value is the one converted.
    QString valueError() const;
    FormatTableModel* formats() const { return m_formats; }
    // Converts this text (what the value box does); false and a marked box when it is not a
    // number.
    bool setValueText(const QString& text);

signals:
    void valueTextChanged(const QString& text);

private:
    BitLayoutWidget* m_bits;
    QTableView* m_formatTable;
    FormatTableModel* m_formats;
    QLineEdit* m_value;
    QLabel* m_valueError;
    QString m_convertedText = QStringLiteral("0.1");  // the text the table converts
    QTableView* m_conversionTable;
    ConversionTableModel* m_conversions;
};

}  // namespace tally::ui
