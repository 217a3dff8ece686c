#pragma once

#include <QWidget>

#include "ui/workspace/user_prompts.h"
#include "ui/workspace/workspace_open_dialog.h"

class QLabel;
class QPushButton;

namespace tally::ui {

class WorkspaceSession;

// The line above a workspace panel: which workspace file is open, or that none is, with buttons
// to open another file or start a new workspace (a refused file gets the same choices as at
// start, through the chooser).
class WorkspaceBanner : public QWidget {
    Q_OBJECT
public:
    explicit WorkspaceBanner(WorkspaceSession* session, QWidget* parent = nullptr);

    void setPrompts(const UserPrompts& prompts) { m_prompts = prompts; }
    void setChooser(const WorkspaceChooser& chooser) { m_chooser = chooser; }

    QLabel* label() const { return m_label; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* newButton() const { return m_new; }

protected:
    // The line names the workspace's file inside a sentence, which no catalogue lookup matches:
    // written again in the new language.
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void ask(WorkspaceAction action);

    WorkspaceSession* m_session;
    UserPrompts m_prompts;
    WorkspaceChooser m_chooser;
    QLabel* m_label;
    QPushButton* m_open;
    QPushButton* m_new;
};

}  // namespace tally::ui
