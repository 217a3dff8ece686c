#pragma once

// Opening the workspace file, at start and later, with a way out when the file is refused (not
// SQLite, damaged, another program's database, written by a newer Tally, read-only, ...): open
// another file, start a new one, or go on without a workspace. A refused file is only ever read
// (Workspace::open inspects it read-only), so it is never overwritten.

#include <QDialog>
#include <QString>
#include <functional>

class QLabel;
class QPushButton;

namespace tally::ui {

class WorkspaceSession;

enum class WorkspaceAction {
    open,             // open the file, creating it when it does not exist
    startNew,         // create a new workspace; the file must not exist yet
    continueWithout,  // no (other) workspace: the current one, if any, stays open
};

struct WorkspaceChoice {
    WorkspaceAction action = WorkspaceAction::continueWithout;
    QString path;
};

// Asked when `path` did not open, with the workspace's message; answers what to try next.
using WorkspaceChooser =
    std::function<WorkspaceChoice(const QString& path, const QString& message)>;

// Tries `first`; while what was tried fails, asks `choose` and tries its answer, until a
// workspace opens (true) or the answer is continueWithout (false; the session keeps whatever it
// had open). Without a chooser, a failure ends it.
bool openWorkspace(WorkspaceSession* session, const WorkspaceChoice& first,
                   const WorkspaceChooser& choose);

// The question itself: the message and three choices. Used through dialogWorkspaceChooser();
// tests drive it without exec().
class WorkspaceOpenDialog : public QDialog {
    Q_OBJECT
public:
    // `haveWorkspace`: another workspace is open and stays open on "continue".
    WorkspaceOpenDialog(const QString& message, bool haveWorkspace, QWidget* parent = nullptr);

    WorkspaceAction action() const { return m_action; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* newButton() const { return m_new; }
    QPushButton* continueButton() const { return m_continue; }
    QString message() const;

private:
    void choose(WorkspaceAction action);

    QLabel* m_message;
    QPushButton* m_open;
    QPushButton* m_new;
    QPushButton* m_continue;
    WorkspaceAction m_action = WorkspaceAction::continueWithout;
};

// The app's chooser: the dialog, then a file dialog for the file to open or create (cancelling
// the file dialog asks again).
WorkspaceChooser dialogWorkspaceChooser(QWidget* parent, WorkspaceSession* session);

}  // namespace tally::ui
