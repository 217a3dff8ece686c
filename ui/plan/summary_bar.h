#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;

namespace tally::ui {

class PlanDocument;

// The headline figures above the panels: parameters, memory per GPU (fits or not), training
// time, GPU-hours, cost and energy, each with its formula as the tooltip; and the plan's warnings.
class SummaryBar : public QWidget {
    Q_OBJECT
public:
    explicit SummaryBar(PlanDocument* document, QWidget* parent = nullptr);

    // The value label of a figure: "params", "memory", "days", "gpu_hours", "cost", "energy".
    QLabel* figure(const QString& key) const;
    QLineEdit* warnings() const { return m_warnings; }

private:
    void showResults();
    QLabel* addFigure(const QString& key, const QString& title, const QString& widest);

    PlanDocument* m_document;
    QList<QLabel*> m_figures;
    QLineEdit* m_warnings;
};

}  // namespace tally::ui
