#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include "planner/store/workspace.h"
#include "ui/workspace/workspace_panel_base.h"

class QDialog;
class QPushButton;
class QTableView;

namespace tally::ui {

class PlanDocument;
class SavedPlansModel;
class WorkspaceSession;

// The plans saved in the workspace (the same rows `tally plans list` prints): save the plan being
// edited under a name, replace a saved plan with it, open one, rename or delete one.
//
// Open loads the saved plan into the document as one undoable edit rather than as a fresh
// document: the plan that was on screen is one Ctrl+Z away, so opening the wrong plan (or
// opening one just to look) loses nothing, and the window's file, if any, stays the file that
// Save writes.
class SavedPlansPanel : public WorkspacePanel {
    Q_OBJECT
public:
    SavedPlansPanel(WorkspaceSession* session, PlanDocument* document, QWidget* parent = nullptr);

    SavedPlansModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPushButton* saveAsButton() const { return m_saveAs; }
    QPushButton* replaceButton() const { return m_replace; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* renameButton() const { return m_rename; }
    QPushButton* deleteButton() const { return m_delete; }
    QPushButton* compareButton() const { return m_compare; }

    void selectPlan(std::int64_t id);
    std::int64_t selectedId() const;  // 0: none
    // The selected row's plan as shown: id, name, creation time (id 0: none).
    StoredPlan selectedPlan() const;

    // What the buttons do (the names come from prompts.askText, the yes/no from confirm).
    // Each returns true when the workspace was changed (or, for open, the plan loaded).
    bool saveCurrentAs();
    bool replaceSelected();
    bool openSelected();
    bool renameSelected();
    bool deleteSelected();
    // The 2 to 6 selected plans side by side in a window of their own (planner/text/
    // plan_comparison.h, as tally plans compare prints them); nullptr when fewer or more are
    // selected or the workspace cannot read them.
    QDialog* compareSelected();

protected:
    // Another program (the command line) may have changed the workspace meanwhile.
    void showEvent(QShowEvent* event) override;

private:
    void reload();
    void selectionChanged();
    // Says so and returns true while the plan has a rejected field (it is not stored then).
    bool refuseRejectedPlan();
    // Whether the selected plan `id` is still stored; when another window or program removed it,
    // says so (Save as… keeps the plan being edited), reads the list again and returns false.
    // Whether the workspace still holds the plan as the list shows it (SavedPlansModel::
    // shownPlan()); if not, says so and reads the list again.
    bool stillStored(const StoredPlan& shown);
    // Reports a failed action on a listed plan; a plan that changed since the list was read
    // also reads the list again.
    void reportActionError(const std::exception& e);
    // Asks for a name (prompts().askText) and calls `store` with it; when the workspace refuses
    // the name (taken, not allowed), asks again with its message. False when cancelled.
    bool storeUnderName(const QString& title, const QString& label, const QString& initial,
                        const std::function<void(const std::string&)>& store);
    QString selectedName() const;

    PlanDocument* m_document;
    SavedPlansModel* m_model;
    QTableView* m_table;
    QPushButton* m_saveAs;
    QPushButton* m_replace;
    QPushButton* m_open;
    QPushButton* m_rename;
    QPushButton* m_delete;
    QPushButton* m_compare;
};

}  // namespace tally::ui
