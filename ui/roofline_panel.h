#pragma once

#include <QList>
#include <array>
#include <map>
#include <vector>

#include "plan_panel.h"
#include "plan_views.h"

class QAbstractSeries;
class QChart;
class QChartView;
class QComboBox;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineEdit;
class QLineSeries;
class QLogValueAxis;
class QPushButton;
class QScatterSeries;
class QTableView;

namespace tally::ui {

class RooflineTableModel;

// The roofline (log-log): the chosen GPU's roof for each dtype it supports, CS336 lecture 2's
// operations, the user's own operations (einsum or the named kinds; added here, saved with the
// plan) and the model's layers for a training step, a prefill and a decode step. Whole steps and
// named operations are labelled; single layer operations are small marks with a tooltip.
class RooflinePanel : public PlanPanel {
    Q_OBJECT
public:
    RooflinePanel(PlanDocument* document, QWidget* parent = nullptr);
    QList<ChartInfo> charts() const override;

    // For tests.
    QLineSeries* roofSeries(ComputeType type) const;
    QScatterSeries* markSeries(RooflineGroup group, bool aggregate) const;
    QList<QGraphicsSimpleTextItem*> labels() const;
    RooflineTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QComboBox* kindPicker() const { return m_kind; }
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* exprEdit() const { return m_expr; }
    QLineEdit* sizesEdit() const { return m_sizes; }
    QPushButton* addButton() const { return m_add; }
    QPushButton* removeButton() const { return m_remove; }
    QLabel* opMessage() const { return m_message; }

protected:
    void showResults(const PlanViews& views) override;

private:
    struct MarkSeries {
        QScatterSeries* series = nullptr;
        std::vector<RooflineMark> marks;  // in the order of the series' points
    };

    QLineSeries* roofLine(ComputeType type);
    MarkSeries& markSet(RooflineGroup group, bool aggregate);
    void placeLabels();
    void setLegendVisible(QAbstractSeries* series, bool visible);
    void addOperation();
    void kindChanged();

    QChart* m_chart;
    QChartView* m_view;
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    std::map<ComputeType, QLineSeries*> m_roofs;
    std::map<std::pair<int, bool>, MarkSeries> m_markSets;
    std::vector<RooflineMark> m_labelled;
    QList<QGraphicsSimpleTextItem*> m_labels;
    QString m_hardwareId;

    QTableView* m_table;
    RooflineTableModel* m_model;
    QComboBox* m_kind;
    QLineEdit* m_name;
    QLineEdit* m_expr;
    QLineEdit* m_sizes;
    QComboBox* m_dtype;
    QPushButton* m_add;
    QPushButton* m_remove;
    QLabel* m_message;
};

}  // namespace tally::ui
