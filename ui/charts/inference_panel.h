#pragma once

#include <QHash>
#include <QList>
#include <array>
#include <vector>

#include "planner/serving/inference.h"
#include "ui/charts/plan_panel.h"

class QBarSet;
class QFormLayout;
class QChart;
class QChartView;
class QLabel;
class QLineEdit;
class QLineSeries;
class QLogValueAxis;
class QPushButton;
class QScatterSeries;
class QStackedBarSeries;
class QTableView;
class QValueAxis;
class QBarCategoryAxis;

namespace tally::ui {

class FieldEditor;
class FigureTableModel;
class NumberEditor;

// Serving the plan's model: the inference block's fields (batch, prompt and output tokens, tp,
// weight and KV dtypes) with sliders; the latency per token against throughput as the batch grows
// (the Pareto curve, the plan's batch marked, the batch where memory runs out drawn); the memory
// of one GPU (weights, KV cache, activations) against its capacity; and the figures with their
// formulas on hover. Everything it draws comes from planner/serving/inference.h.
class InferencePanel : public PlanPanel {
    Q_OBJECT
public:
    InferencePanel(PlanDocument* document, QWidget* parent = nullptr);
    QList<ChartInfo> charts() const override;

    FieldEditor* editor(const QString& path) const { return m_editors.value(path, nullptr); }
    NumberEditor* numberEditor(const QString& path) const;
    // The curve where the batch fits, and where it no longer does.
    QLineSeries* fittingCurve() const { return m_fitting; }
    QLineSeries* overflowCurve() const { return m_overflow; }
    QScatterSeries* currentPoint() const { return m_current; }
    // Continuous batching over concurrency 1..256: inter-token latency against throughput.
    QLineSeries* continuousCurve() const { return m_continuous; }
    const std::vector<ContinuousBatchingPoint>& continuousPoints() const { return m_sweep; }
    // The vertical line at the throughput of the largest batch that fits.
    QLineSeries* memoryLimit() const { return m_limit; }
    // Weights, KV cache, activations: GB at the plan's batch, or of the requests in flight at its
    // concurrency (0), and at the largest batch that fits (1).
    QBarSet* memorySet(int component) const { return m_sets[static_cast<std::size_t>(component)]; }
    QBarCategoryAxis* memoryCategories() const { return m_categories; }
    QLineSeries* capacityLine() const { return m_capacity; }
    FigureTableModel* model() const { return m_model; }
    // Why the plan cannot be served as it stands (empty when it can).
    QString message() const;
    QString warnings() const;
    // Shown when the batch does not fit and a wider tensor parallelism within a node does: one
    // click sets inference.tp to it (one undoable edit).
    QPushButton* fitButton() const { return m_fitButton; }
    // The serving plan drawn last (meaningful while message() is empty).
    const ServingPlan& servingPlan() const { return m_plan; }
    // Requests per second the deployment must complete: Find sets inference.concurrency to the
    // fewest clients in flight that complete them (planner/serving/inference.h,
    // continuous_batching_at_rate(), as `tally infer --request-rate`), one undoable edit.
    QLineEdit* requestRateEdit() const { return m_rateEdit; }
    QPushButton* requestRateFind() const { return m_rateFind; }
    QLabel* requestRateResult() const { return m_rateResult; }

signals:
    // A field refused what was typed into it: "<field>: <why>"; empty when none is refused (as
    // SpecForm::inputRejected, so the window's status bar says it for both).
    void inputRejected(const QString& message);

protected:
    void showResults(const PlanViews& views) override;

private:
    // The accuracy bands of the plan's engine and GPU family, one line per figure.
    static QString accuracyText(const PlanSpec& spec, const HardwareProfile& hw);
    void refreshEditors();
    void markEditors();
    void showCurveTip(const QPointF& point);
    void findConcurrencyForRate();
    // The explanation with this key of the plan drawn last, or nullptr.
    const Explanation* explanation(const char* key) const;

    QHash<QString, FieldEditor*> m_editors;
    // The editors shown only where their field applies to the plan.
    struct Conditional {
        QFormLayout* form;
        FieldEditor* editor;
        bool (*applies)(const PlanSpec&);
    };
    std::vector<Conditional> m_conditional;
    QLabel* m_message;
    // The serving plan's warnings (does not fit, ...), under the fields; the table keeps figures.
    QLabel* m_warnings;
    QPushButton* m_fitButton;
    std::int64_t m_fitTp = 0;
    QLineEdit* m_rateEdit = nullptr;
    QPushButton* m_rateFind = nullptr;
    QLabel* m_rateResult = nullptr;
    bool m_rateSetting = false;  // Find is setting the concurrency it found
    QLabel* m_accuracy;
    // Which batch the table's figures are of, where the headline is continuous batching.
    QLabel* m_tableNote = nullptr;
    QChart* m_curveChart;
    QChartView* m_curveView;
    QLogValueAxis* m_curveX;
    QLogValueAxis* m_curveY;
    QLineSeries* m_fitting;
    QLineSeries* m_overflow;
    QLineSeries* m_limit;
    QLineSeries* m_continuous;
    QScatterSeries* m_current;
    QChart* m_memoryChart;
    QChartView* m_memoryView;
    QStackedBarSeries* m_bars;
    QBarCategoryAxis* m_categories;
    QValueAxis* m_memoryY;
    QValueAxis* m_capacityX;
    QLineSeries* m_capacity;
    std::array<QBarSet*, 3> m_sets{};
    QTableView* m_table;
    FigureTableModel* m_model;
    ServingPlan m_plan;
    std::vector<ServingCurvePoint> m_curve;
    std::vector<ContinuousBatchingPoint> m_sweep;
    std::vector<Explanation> m_explanations;
    QString m_servingError;
    QString m_servingErrorField;
};

}  // namespace tally::ui
