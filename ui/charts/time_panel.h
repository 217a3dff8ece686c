#pragma once

#include "ui/charts/plan_panel.h"

class QChart;
class QChartView;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QTableView;

namespace tally::ui {

class FigureTableModel;

// Time and cost: FLOPs, peak and achieved FLOP/s, days, GPU-hours, cost, energy (a table whose
// tooltips show each formula), and the days the plan takes against the number of GPUs.
class TimePanel : public PlanPanel {
    Q_OBJECT
public:
    TimePanel(PlanDocument* document, QWidget* parent = nullptr);
    QList<ChartInfo> charts() const override;

    QLineSeries* daysSeries() const { return m_days; }
    QScatterSeries* currentPoint() const { return m_current; }
    QTableView* table() const { return m_table; }
    FigureTableModel* model() const { return m_model; }

protected:
    void showResults(const PlanViews& views) override;

private:
    QChart* m_chart;
    QChartView* m_view;
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    QLineSeries* m_days;
    QScatterSeries* m_current;
    QTableView* m_table;
    FigureTableModel* m_model;
};

}  // namespace tally::ui
