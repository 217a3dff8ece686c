#pragma once

#include <QList>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "planner/roofline/measured_roofline.h"
#include "planner/text/plan_views.h"
#include "ui/charts/plan_panel.h"

class QAbstractSeries;
class QChart;
class QCheckBox;
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

    // A measured probe run drawn over the roofline: its measured roofs (dashed, one per
    // dtype it measured a matmul peak of, under its measured bandwidth) and its measured points,
    // labelled by test, with tooltips giving their fractions of the plan's GPU. What is drawn is
    // measured_roofline(run, the plan's GPU). nullopt removes it. The toggle shows or hides it.
    void setMeasuredRun(const std::optional<ProbeRunRecord>& run);
    const std::optional<ProbeRunRecord>& measuredRun() const { return m_measuredRun; }
    const MeasuredRoofline& measured() const { return m_measured; }
    QCheckBox* measuredToggle() const { return m_measuredToggle; }
    // For tests: the overlay's series (null until first drawn) and its visible labels.
    QLineSeries* measuredRoofSeries(ComputeType type) const;
    // The measured bandwidth alone, drawn when the run measured no matmul peak.
    QLineSeries* measuredBandwidthSeries() const { return m_measuredBandwidth; }
    QScatterSeries* measuredPointSeries(MeasuredPointKind kind) const;
    // The measured points of a series, in the order of its points.
    std::vector<MeasuredPoint> measuredPointsOf(MeasuredPointKind kind) const;
    QList<QGraphicsSimpleTextItem*> measuredLabels() const;

protected:
    void showResults(const PlanViews& views) override;

private:
    struct MarkSeries {
        QScatterSeries* series = nullptr;
        std::vector<RooflineMark> marks;  // in the order of the series' points
    };

    // The legend's name of a set of marks, in the current language ("decode step").
    static QString markSetName(RooflineGroup group, bool aggregate);
    // Adds a series to the chart on the log axes.
    void addToChart(QAbstractSeries* series);
    // Clears the message and red frames the operation editor showed for a rejected operation.
    void clearOperationError();
    void showLegendShape(QAbstractSeries* series);
    QLineSeries* roofLine(ComputeType type);
    MarkSeries& markSet(RooflineGroup group, bool aggregate);
    void placeLabels();
    void setLegendVisible(QAbstractSeries* series, bool visible);
    void addOperation();
    void kindChanged();
    // The measured overlay, in showResults(): measured against the plan's GPU, the axes widened
    // to hold it, then drawn; its labels placed after the plan's, around them.
    void measureOverlay(const PlanViews& views, double& x0, double& x1, double& y0, double& y1);
    bool measuredShown() const;
    void showMeasured();
    void redrawMeasured();
    void updateMeasuredToggle();
    QLineSeries* measuredRoofLine(ComputeType type);
    // A dashed measured line whose tooltip is tip().
    QLineSeries* measuredLine(const QColor& color, std::function<QString()> tip);
    const HardwareProfile* measuredAgainst() const;
    QScatterSeries* measuredPointSet(MeasuredPointKind kind);
    void placeMeasuredLabels(QList<QRectF>& taken);

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

    std::optional<ProbeRunRecord> m_measuredRun;
    MeasuredRoofline m_measured;
    std::optional<HardwareProfile> m_measuredAgainst;  // the plan's GPU when last drawn
    QCheckBox* m_measuredToggle;
    // Beside the switch: whose measurements it shows, or how to get some. A label that wraps:
    // as the switch's own text it set the panel's least width, past a laptop's, and cut the
    // operation editor's buttons.
    QLabel* m_measuredNote;
    // Whether each series has a legend entry, as last set by setLegendVisible().
    std::map<const QAbstractSeries*, bool> m_legendListed;
    std::map<ComputeType, QLineSeries*> m_measuredRoofs;
    QLineSeries* m_measuredBandwidth = nullptr;
    std::map<MeasuredPointKind, QScatterSeries*> m_measuredPoints;
    // Per series, the indices into m_measured.points of its points.
    std::map<MeasuredPointKind, std::vector<std::size_t>> m_measuredPointIndex;
    std::vector<std::size_t> m_measuredLabelled;  // indices into m_measured.points
    QList<QGraphicsSimpleTextItem*> m_measuredLabelItems;
};

}  // namespace tally::ui
