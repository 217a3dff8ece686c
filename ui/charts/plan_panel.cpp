#include "ui/charts/plan_panel.h"

#include "ui/plan/plan_document.h"

namespace tally::ui {

PlanPanel::PlanPanel(PlanDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    connect(document, &PlanDocument::resultsChanged, this, &PlanPanel::onResults);
}

void PlanPanel::ensureCurrent() {
    if (m_stale) {
        m_stale = false;
        showResults(*m_document->views());
    }
}

void PlanPanel::onResults() {
    m_stale = true;
    if (isVisible()) {
        ensureCurrent();
    }
}

void PlanPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    ensureCurrent();
}

}  // namespace tally::ui
