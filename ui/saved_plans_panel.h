#pragma once

#include <QWidget>
#include <cstdint>

#include "user_prompts.h"
#include "workspace_open_dialog.h"

class QLabel;
class QPushButton;
class QTableView;

namespace tally::ui {

class PlanDocument;
class SavedPlansModel;
class WorkspaceBanner;
class WorkspaceSession;

// The plans saved in the workspace (the same rows `tally plans list` prints): save the plan being
// edited under a name, replace a saved plan with it, open one, rename or delete one.
//
// Open loads the saved plan into the document as one undoable edit rather than as a fresh
// document: the plan that was on screen is one Ctrl+Z away, so opening the wrong plan (or
// opening one just to look) loses nothing, and the window's file, if any, stays the file that
// Save writes.
class SavedPlansPanel : public QWidget {
    Q_OBJECT
public:
    SavedPlansPanel(WorkspaceSession* session, PlanDocument* document, QWidget* parent = nullptr);

    void setPrompts(const UserPrompts& prompts);
    void setChooser(const WorkspaceChooser& chooser);

    SavedPlansModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    WorkspaceBanner* banner() const { return m_banner; }
    QPushButton* saveAsButton() const { return m_saveAs; }
    QPushButton* replaceButton() const { return m_replace; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* renameButton() const { return m_rename; }
    QPushButton* deleteButton() const { return m_delete; }
    QString message() const;

    void selectPlan(std::int64_t id);
    std::int64_t selectedId() const;  // 0: none

    // What the buttons do (the names come from prompts.askText, the yes/no from confirm).
    // Each returns true when the workspace was changed (or, for open, the plan loaded).
    bool saveCurrentAs();
    bool replaceSelected();
    bool openSelected();
    bool renameSelected();
    bool deleteSelected();

protected:
    // Another program (the command line) may have changed the workspace meanwhile.
    void showEvent(QShowEvent* event) override;

private:
    void reload();
    void selectionChanged();
    void report(const QString& message, bool problem);
    QString selectedName() const;

    WorkspaceSession* m_session;
    PlanDocument* m_document;
    UserPrompts m_prompts;
    WorkspaceBanner* m_banner;
    SavedPlansModel* m_model;
    QTableView* m_table;
    QPushButton* m_saveAs;
    QPushButton* m_replace;
    QPushButton* m_open;
    QPushButton* m_rename;
    QPushButton* m_delete;
    QLabel* m_message;
};

}  // namespace tally::ui
