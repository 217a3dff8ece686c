#pragma once

#include <QPointer>

#include "planner/hardware/hardware.h"
#include "ui/workspace/workspace_panel_base.h"

class QPushButton;
class QTableView;
class QTextBrowser;

namespace tally::ui {

class ProfileEditorDialog;
class ProfileTableModel;
class WorkspaceSession;

// The hardware profiles of the workspace: the built-in ones (read-only) and the user's custom
// and measured ones. Duplicate and edit makes a custom copy, Edit changes a stored one, Delete
// removes one (after asking), Import and Export read and write the command line's profile files
// (`tally profiles export ID` / `tally profiles import FILE`). Every write goes through the
// workspace and is announced, so the GPU picker and the compare view follow.
class ProfileManagerPanel : public WorkspacePanel {
    Q_OBJECT
public:
    explicit ProfileManagerPanel(WorkspaceSession* session, QWidget* parent = nullptr);

    ProfileTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPushButton* duplicateButton() const { return m_duplicate; }
    QPushButton* editButton() const { return m_edit; }
    QPushButton* deleteButton() const { return m_delete; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* exportButton() const { return m_export; }
    // The editor the last Duplicate, Edit or Import opened, while it is open.
    ProfileEditorDialog* editor() const;

    void selectProfile(const QString& id);
    QString selectedId() const;

    // What the buttons do. The editor opens window-modal (open(), not exec()) and is returned.
    ProfileEditorDialog* duplicateSelected();
    ProfileEditorDialog* editSelected();
    // Asks first (prompts.confirm); true when the profile was removed.
    bool deleteSelected();
    // Adds the profile a file holds. When its id or name is taken, opens the editor on it with
    // the clash marked, so it can be stored under another. True when it was stored at once.
    bool importFile(const QString& path);
    bool exportSelected(const QString& path);

protected:
    // Another program (the command line) may have changed the workspace meanwhile.
    void showEvent(QShowEvent* event) override;
    // The details pane is written as a whole (HTML), so a language switch writes it again.
    void changeEvent(QEvent* event) override;

private:
    void reload();
    void selectionChanged();
    ProfileEditorDialog* openEditor(const HardwareProfile& start, bool adding);
    const HardwareProfile* selectedProfile() const;

    ProfileTableModel* m_model;
    QTableView* m_table;
    QTextBrowser* m_details;
    QPushButton* m_duplicate;
    QPushButton* m_edit;
    QPushButton* m_delete;
    QPushButton* m_import;
    QPushButton* m_export;
    QPointer<ProfileEditorDialog> m_editor;
};

}  // namespace tally::ui
