#pragma once

#include <QWidget>

#include "ui/workspace/user_prompts.h"
#include "ui/workspace/workspace_open_dialog.h"

class QLabel;
class QVBoxLayout;

namespace tally::ui {

class WorkspaceBanner;
class WorkspaceSession;

// What the panels over the workspace share: the banner (which file is open, or that none is,
// with buttons to open one), the questions they ask (replaceable by tests), and one line under
// the buttons for the result or the problem of the last action.
class WorkspacePanel : public QWidget {
    Q_OBJECT
public:
    void setPrompts(const UserPrompts& prompts);
    void setChooser(const WorkspaceChooser& chooser);

    WorkspaceBanner* banner() const { return m_banner; }
    // The last problem or result of an action, empty when there is none.
    QString message() const;

protected:
    WorkspacePanel(WorkspaceSession* session, QWidget* parent);

    WorkspaceSession* session() const { return m_session; }
    const UserPrompts& prompts() const { return m_prompts; }
    // The panel's layout: the banner; subclasses add their buttons, then messageLabel(), then
    // their table.
    QVBoxLayout* panelLayout() const { return m_layout; }
    QLabel* messageLabel() const { return m_message; }
    void report(const QString& message, bool problem);

private:
    WorkspaceSession* m_session;
    UserPrompts m_prompts;
    WorkspaceBanner* m_banner;
    QLabel* m_message;
    QVBoxLayout* m_layout;
};

}  // namespace tally::ui
