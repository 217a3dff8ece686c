#pragma once

#include <QThreadPool>
#include <array>
#include <vector>

#include "ui/charts/figure_text.h"
#include "ui/charts/plan_panel.h"

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QHorizontalStackedBarSeries;
class QLabel;
class QLineEdit;
class QPushButton;
class QLineSeries;
class QLogValueAxis;
class QResizeEvent;
class QScatterSeries;
class QShowEvent;
class QSplitter;
class QTableView;
class QValueAxis;

namespace tally::ui {

class FigureTableModel;

// Time and cost: FLOPs, peak and achieved FLOP/s, days, GPU-hours, cost, energy, the assumed and
// the predicted MFU (a table whose tooltips show each formula); one predicted step as a stacked
// bar of its critical-path terms (hover a term for its formula and inputs); and the days the plan
// takes against the number of GPUs.
class TimePanel : public PlanPanel {
    Q_OBJECT
public:
    TimePanel(PlanDocument* document, QWidget* parent = nullptr);
    ~TimePanel() override;
    QList<ChartInfo> charts() const override;

    QLineSeries* daysSeries() const { return m_days; }
    QScatterSeries* currentPoint() const { return m_current; }
    QTableView* table() const { return m_table; }
    FigureTableModel* model() const { return m_model; }
    // The step-time bar: one set per term of stepTerms(), in its order, each one value (seconds).
    QHorizontalStackedBarSeries* stepSeries() const { return m_stepSeries; }
    // Which MFU sets the time, in words (mfuSourceText()).
    QLabel* mfuSource() const { return m_mfuSource; }
    // The tooltip the bar shows for a term (its index in stepTerms()).
    QString stepTermTip(int term) const;
    // "GPUs to train it in D days" (tally solve min-gpus): the days asked, Find, and the answer,
    // searched on a worker thread for the plan as it is when Find is pressed.
    QLineEdit* minGpusDays() const { return m_minDays; }
    QPushButton* minGpusFind() const { return m_minFind; }
    QLabel* minGpusResult() const { return m_minResult; }
    bool isFindingMinGpus() const { return m_minRunning; }
    // "Calibrate from a measured step…": asks for the calibration dialog (calibrateRequested();
    // the workspace's panels answer it: ui/workspace/calibration_dialog.h).
    QPushButton* calibrateButton() const { return m_calibrate; }

signals:
    void minGpusFound();
    void calibrateRequested();

protected:
    void showResults(const PlanViews& views) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    static constexpr std::size_t kTerms = 13;
    void showStep(const PlanViews& views);
    void fitStepLegend();
    void balanceCharts();

    QChart* m_chart;
    QChartView* m_view;
    QSplitter* m_charts = nullptr;  // the step chart over the days chart
    int m_stepLegendHeight = 0;     // the height the step chart's legend needs (fitStepLegend())
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    QLineSeries* m_days;
    QScatterSeries* m_current;
    QTableView* m_table;
    FigureTableModel* m_model;
    QLabel* m_mfuSource;
    QChart* m_stepChart;
    QChartView* m_stepView;
    QHorizontalStackedBarSeries* m_stepSeries;
    QBarCategoryAxis* m_stepAxis;
    QValueAxis* m_secondsAxis;
    std::array<QBarSet*, kTerms> m_stepSets{};
    std::vector<FigureRow> m_terms;
    bool m_predicted = false;  // the time rests on the predicted MFU
    void findMinGpus();
    QLineEdit* m_minDays;
    QPushButton* m_minFind;
    QLabel* m_minResult;
    QThreadPool m_minPool;
    bool m_minRunning = false;
    int m_minGeneration = 0;  // bumped by every new plan: an answer for an older one is dropped
    QPushButton* m_calibrate;
};

}  // namespace tally::ui
