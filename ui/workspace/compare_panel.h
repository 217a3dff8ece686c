#pragma once

#include <QList>
#include <vector>

#include "ui/charts/plan_panel.h"

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QListView;
class QLogValueAxis;
class QTableView;

namespace tally::ui {

class CompareProfilesModel;
class CompareTableModel;
class HardwareCatalog;

// Two to six hardware profiles side by side: their specs and the plan being edited evaluated on
// each (planner compare(), as `tally compare` prints it), redrawn as the plan changes, and their
// roofs for the plan's compute dtype overlaid on one log-log roofline chart (one colour each).
class ComparePanel : public PlanPanel {
    Q_OBJECT
public:
    ComparePanel(PlanDocument* document, HardwareCatalog* catalog, QWidget* parent = nullptr);
    QList<ChartInfo> charts() const override;

    CompareProfilesModel* profilesModel() const { return m_profiles; }
    CompareTableModel* tableModel() const { return m_model; }
    QListView* profileList() const { return m_list; }
    QTableView* table() const { return m_table; }
    QChart* chart() const { return m_chart; }
    // The roof line of a compared profile, or nullptr when it is not drawn.
    QLineSeries* roofSeries(const QString& profileId) const;
    // Why nothing (or not everything) is compared, empty when all is well.
    QString message() const;

protected:
    void showResults(const PlanViews& views) override;

private:
    void recompute();

    HardwareCatalog* m_catalog;
    CompareProfilesModel* m_profiles;
    CompareTableModel* m_model;
    QListView* m_list;
    QTableView* m_table;
    QLabel* m_hint;
    QLabel* m_message;
    QLabel* m_timeNote = nullptr;  // how the days are found, for the MFU mode in use
    QChart* m_chart;
    QChartView* m_view;
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    std::vector<QLineSeries*> m_series;  // kMaxComparedProfiles lines, hidden when unused
    std::vector<QString> m_seriesIds;
    std::vector<QString> m_seriesTips;  // what hovering a roof shows
};

}  // namespace tally::ui
