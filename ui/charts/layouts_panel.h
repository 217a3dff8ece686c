#pragma once

#include <QThreadPool>
#include <memory>

#include "planner/text/plan_views.h"
#include "planner/training/layout_search.h"
#include "ui/charts/plan_panel.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace tally::ui {

class LayoutTableModel;

// The best parallel layouts for the plan's model, data and cluster
// (planner/training/layout_search.h), searched again whenever the plan changes while the panel is
// visible: tp, pp, dp, micro-batch, ZeRO, recomputation, sequence parallelism, interleaving and
// expert parallelism, ranked by the predicted step time or the run's cost. The plan's own layout is
// marked; Apply (or a double click) puts a listed layout into the plan as one undoable edit.
//
// A search evaluates thousands of layouts (tens of milliseconds for a large model on a large
// cluster), so it runs on a worker thread: the window stays responsive while a slider is dragged,
// and a search asked for while one runs waits and then searches the latest plan only.
class LayoutsPanel : public PlanPanel {
    Q_OBJECT
public:
    static constexpr std::size_t kTop = 20;  // layouts listed

    LayoutsPanel(PlanDocument* document, QWidget* parent = nullptr);
    ~LayoutsPanel() override;

    LayoutTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPushButton* applyButton() const { return m_apply; }
    // Copy as…: the selected layout's plan as a framework's launch configuration.
    QPushButton* copyAsButton() const { return m_copyAs; }
    QComboBox* objectiveBox() const { return m_objective; }
    QLabel* status() const { return m_status; }
    // A search is running or waiting to run.
    bool isSearching() const { return m_running || m_pending; }
    // The spec the listed layouts were searched for: the last accepted plan, or the current spec
    // when the planner refuses it only for its layout (its tp x pp does not suit the cluster).
    const PlanSpec* searchedSpec() const { return m_searched ? &m_searched->spec : nullptr; }
    // How long the last search took, in milliseconds (on the worker thread).
    double lastSearchMs() const { return m_lastMs; }

    // Puts the layout of a listed row into the plan (undoable); false when the row is not listed
    // or the list is not the current plan's (a search for it is still running).
    bool applyRow(int row);
    // The plan with a listed row's layout; nullopt under the same conditions as applyRow().
    std::optional<PlanSpec> specOfRow(int row) const;

signals:
    // A search finished and the list shows its result.
    void searchFinished();

protected:
    void showResults(const PlanViews& views) override;
    void showEvent(QShowEvent* event) override;

private:
    // What one search reads: a spec and the hardware it runs on.
    struct SearchInput {
        PlanSpec spec;
        HardwareProfile hardware;
    };
    // A spec the planner refuses, searched when check_layout_search() accepts it.
    void onSpecChanged();
    void requestSearch();
    void startSearch(std::shared_ptr<const SearchInput> input, LayoutObjective objective);
    void onSearched(std::shared_ptr<const SearchInput> input, LayoutObjective objective,
                    LayoutSearchResult result, double ms, const QString& error);
    void updateApply();
    LayoutObjective objective() const;

    QComboBox* m_objective;
    QPushButton* m_apply;
    QPushButton* m_copyAs;
    QLabel* m_status;
    QLineEdit* m_searchTime;  // how long the last search took (changes every search)
    QTableView* m_table;
    LayoutTableModel* m_model;
    QThreadPool m_pool;
    std::shared_ptr<const SearchInput> m_latest;    // the plan to search next
    std::shared_ptr<const SearchInput> m_searched;  // the plan the list was searched for
    bool m_latestRejected = false;  // m_latest is a spec check() refuses for its layout
    bool m_running = false;
    bool m_pending = false;
    double m_lastMs = 0.0;
};

}  // namespace tally::ui
