#pragma once

// WorkspaceSession: the desktop app's handle on the SQLite workspace (planner/store/workspace.h).
// One object, owned by the composition root, that panels share: the profile manager, the
// saved-plans list, the compare view and the probe panel read through it and announce their writes
// through it, so every view of the same rows refreshes together.

#include <QObject>
#include <QString>
#include <QTimer>
#include <exception>
#include <memory>
#include <optional>

#include "planner/store/workspace.h"

namespace tally::ui {

// The message of a failed workspace call, in the user's language: a WorkspaceError's text
// translated, any other error's what() as written.
QString workspaceErrorMessage(const std::exception& error);

class WorkspaceSession : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceSession(QObject* parent = nullptr);
    ~WorkspaceSession() override;

    // The platform's default workspace file (the same one `tally` uses without --db).
    static QString defaultPath();

    // Opens (creating it if it does not exist) the workspace at `path`. On failure returns false
    // with the workspace's message in *error and its kind in *problem; the file is left as it was
    // (the workspace inspects a file read-only before writing anything) and whatever this session
    // had open before stays open.
    bool open(const QString& path, QString* error = nullptr,
              std::optional<WorkspaceProblem>* problem = nullptr);
    void close();

    bool isOpen() const { return m_workspace != nullptr; }
    // The open workspace's file, or empty.
    QString path() const;
    // True when the open workspace could not be written: it is browsed, and every save is
    // refused with a message that says so (Workspace::read_only()).
    bool isReadOnly() const { return m_workspace && m_workspace->read_only(); }
    // The open workspace, or null. Writes through it must be followed by the matching announce*()
    // call so that the other views refresh.
    Workspace* workspace() const { return m_workspace.get(); }

    void announceProfilesChanged() { emit profilesChanged(); }
    void announcePlansChanged() { emit plansChanged(); }
    void announceProbeRunsChanged() { emit probeRunsChanged(); }
    // Announces profiles, plans and probe runs changed when another program has written the
    // workspace since the last look (Workspace::changed_elsewhere()); called every two seconds
    // while a workspace is open.
    void refreshIfChangedElsewhere();

signals:
    void opened(const QString& path);
    void closed();
    void profilesChanged();
    void plansChanged();
    void probeRunsChanged();

private:
    std::unique_ptr<Workspace> m_workspace;
    QTimer m_poll;
};

}  // namespace tally::ui
