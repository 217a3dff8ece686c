#pragma once

#include <QList>
#include <QWidget>

#include "ui/common/chart_support.h"

namespace tally {
struct PlanViews;
}

namespace tally::ui {

class PlanDocument;

// A panel that draws the document's results. It redraws at once while it is visible; a hidden
// panel (another tab) only notes that it is stale and catches up when it is shown, so a slider
// drag pays for the charts on screen only.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    // The charts this panel can export as PNG and SVG.
    virtual QList<ChartInfo> charts() const { return {}; }
    // Draws the latest results now, visible or not (before an export or a test reads the charts).
    void ensureCurrent();

protected:
    PlanPanel(PlanDocument* document, QWidget* parent);
    virtual void showResults(const PlanViews& views) = 0;
    void showEvent(QShowEvent* event) override;
    PlanDocument* document() const { return m_document; }

private:
    void onResults();

    PlanDocument* m_document;
    bool m_stale = true;
};

}  // namespace tally::ui
