#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QToolButton;

namespace tally {
struct PlanViews;
}

namespace tally::ui {

class PlanDocument;

// The headline figures above the panels: parameters, memory per GPU (fits or not), training
// time, GPU-hours, cost and energy, each with its formula as the tooltip; and the plan's warnings.
class SummaryBar : public QWidget {
    Q_OBJECT
public:
    explicit SummaryBar(PlanDocument* document, QWidget* parent = nullptr);

    // The value label of a figure: "params", "memory", "days", "gpu_hours", "cost", "energy".
    // A serving plan (its inference block set) shows its serving figures in the same places:
    // memory per GPU when serving, time to first token, decode step, throughput, cost per
    // million tokens; caption() says which.
    QLabel* figure(const QString& key) const;
    QLabel* caption(const QString& key) const;
    QLineEdit* warnings() const { return m_warnings; }
    // Beside the warnings line while it holds more than one warning or more than its width
    // shows: opens every warning, one a line (allWarningsText()).
    QToolButton* allWarningsButton() const { return m_allWarnings; }
    QString allWarningsText() const { return m_allText; }
    void showAllWarnings();
    // True while the current spec is refused: the figures shown are the last accepted plan's,
    // greyed out, and the warnings line says so.
    bool isStale() const { return m_stale; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showResults();
    // The line (what fits in one), the full list (a warning a line) and how many there are.
    void setWarnings(const QString& line, const QString& all, int count);
    void updateAllWarningsButton();
    void showTraining(const PlanViews& views);
    void showServing(const PlanViews& views);
    void setRunnable(bool runnable);
    void setCaption(const QString& key, const QString& text);
    QLabel* addFigure(const QString& key, const QString& title, const QStringList& widest);

    PlanDocument* m_document;
    QList<QLabel*> m_figures;
    QList<QLabel*> m_captions;
    bool m_stale = false;
    QLineEdit* m_warnings;
    QToolButton* m_allWarnings;
    QString m_allText;
    int m_warningCount = 0;
};

}  // namespace tally::ui
