#pragma once

#include <array>

#include "planner/training/sweep.h"
#include "ui/charts/plan_panel.h"

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QStackedBarSeries;
class QTableView;
class QValueAxis;

namespace tally::ui {

class MemoryTableModel;

// Memory per GPU: stacked bars of params, grads, master weights, optimizer state and activations
// for each ZeRO stage (the plan's own marked) against the GPU's capacity line; the numbers in a
// table beside them (GB and GiB); and memory against a chosen variable (micro-batch, sequence
// length, layers).
class MemoryPanel : public PlanPanel {
    Q_OBJECT
public:
    MemoryPanel(PlanDocument* document, QWidget* parent = nullptr);
    QList<ChartInfo> charts() const override;

    // For tests and the latency harness.
    QStackedBarSeries* barSeries() const { return m_bars; }
    QBarSet* barSet(int component) const { return m_sets[static_cast<std::size_t>(component)]; }
    QLineSeries* capacityLine() const { return m_capacity; }
    QBarCategoryAxis* stageAxis() const { return m_stages; }
    QValueAxis* barAxis() const { return m_barY; }
    QValueAxis* sweepAxis() const { return m_sweepY; }
    QChart* sweepChart() const { return m_sweepChart; }
    QLineSeries* sweepTotal() const { return m_total; }
    QLineSeries* sweepActivations() const { return m_activations; }
    QLineSeries* sweepModelState() const { return m_state; }
    QScatterSeries* sweepCurrent() const { return m_current; }
    QComboBox* variablePicker() const { return m_variable; }
    QLogValueAxis* sweepLogAxis() const { return m_sweepLogX; }
    QTableView* table() const { return m_table; }
    MemoryTableModel* model() const { return m_model; }
    // The largest model this cluster trains under the plan's recipe (model state only).
    QLabel* maxParams() const { return m_maxParams; }

protected:
    void showResults(const PlanViews& views) override;
    void changeEvent(QEvent* event) override;

private:
    void nameBarSets();
    void showBars(const PlanViews& views);
    void showSweep(const PlanViews& views);
    void setSweepAxis(SweepVariable variable);

    QChart* m_barChart;
    QChartView* m_barView;
    QStackedBarSeries* m_bars;
    std::array<QBarSet*, 6> m_sets{};
    bool m_buffersShown = true;  // the Buffers legend entry's state (a new marker shows)
    QBarCategoryAxis* m_stages;
    QValueAxis* m_barY;
    QValueAxis* m_capacityX;
    QLineSeries* m_capacity;

    QChart* m_sweepChart;
    QChartView* m_sweepView;
    QComboBox* m_variable;
    QLogValueAxis* m_sweepLogX;
    QValueAxis* m_sweepLinX;
    QValueAxis* m_sweepY;
    QLineSeries* m_total;
    QLineSeries* m_state;
    QLineSeries* m_activations;
    QLineSeries* m_sweepCapacity;
    QScatterSeries* m_current;
    SweepVariable m_shownVariable = SweepVariable::gpus;  // none attached yet

    QTableView* m_table;
    MemoryTableModel* m_model;
    QLabel* m_maxParams;
};

}  // namespace tally::ui
