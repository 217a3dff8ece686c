#pragma once

#include <QPointer>
#include <QWidget>

#include "hardware.h"
#include "user_prompts.h"
#include "workspace_open_dialog.h"

class QLabel;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace tally::ui {

class ProfileEditorDialog;
class ProfileTableModel;
class WorkspaceBanner;
class WorkspaceSession;

// The hardware profiles of the workspace: the built-in ones (read-only) and the user's custom
// and measured ones. Duplicate and edit makes a custom copy, Edit changes a stored one, Delete
// removes one (after asking), Import and Export read and write the command line's profile files
// (`tally profiles export ID` / `tally profiles import FILE`). Every write goes through the
// workspace and is announced, so the GPU picker and the compare view follow.
class ProfileManagerPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProfileManagerPanel(WorkspaceSession* session, QWidget* parent = nullptr);

    void setPrompts(const UserPrompts& prompts);
    void setChooser(const WorkspaceChooser& chooser);

    ProfileTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    WorkspaceBanner* banner() const { return m_banner; }
    QPushButton* duplicateButton() const { return m_duplicate; }
    QPushButton* editButton() const { return m_edit; }
    QPushButton* deleteButton() const { return m_delete; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* exportButton() const { return m_export; }
    // The last problem or result of an action, empty when there is none.
    QString message() const;
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

private:
    void reload();
    void selectionChanged();
    void report(const QString& message, bool problem);
    ProfileEditorDialog* openEditor(const HardwareProfile& start, bool adding);
    const HardwareProfile* selectedProfile() const;

    WorkspaceSession* m_session;
    UserPrompts m_prompts;
    WorkspaceBanner* m_banner;
    ProfileTableModel* m_model;
    QTableView* m_table;
    QTextBrowser* m_details;
    QPushButton* m_duplicate;
    QPushButton* m_edit;
    QPushButton* m_delete;
    QPushButton* m_import;
    QPushButton* m_export;
    QLabel* m_message;
    QPointer<ProfileEditorDialog> m_editor;
};

}  // namespace tally::ui
