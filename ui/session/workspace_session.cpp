#include "ui/session/workspace_session.h"

#include <QCoreApplication>
#include <exception>

#include "ui/i18n/translate_text.h"

namespace tally::ui {

WorkspaceSession::WorkspaceSession(QObject* parent) : QObject(parent) {
    // Profiles, plans and probe runs written by `tally` in a terminal or another window: looked
    // for every two seconds (one PRAGMA, microseconds), so a profile calibrated on the command
    // line is in the picker when the plan names it and a run probed elsewhere is under Past runs.
    m_poll.setInterval(2000);
    connect(&m_poll, &QTimer::timeout, this, &WorkspaceSession::refreshIfChangedElsewhere);
}

void WorkspaceSession::refreshIfChangedElsewhere() {
    if (m_workspace && m_workspace->changed_elsewhere()) {
        emit profilesChanged();
        emit plansChanged();
        emit probeRunsChanged();
    }
}

WorkspaceSession::~WorkspaceSession() = default;

QString WorkspaceSession::defaultPath() {
    return QString::fromStdString(default_workspace_path().string());
}

QString WorkspaceSession::path() const {
    return m_workspace ? QString::fromStdString(m_workspace->path().string()) : QString();
}

QString workspaceErrorMessage(const std::exception& error) {
    if (const auto* workspace_error = dynamic_cast<const WorkspaceError*>(&error)) {
        return translatedText(workspace_error->text());
    }
    return QString::fromUtf8(error.what());
}

bool WorkspaceSession::open(const QString& path, QString* error,
                            std::optional<WorkspaceProblem>* problem) {
    auto fail = [&](const QString& message, std::optional<WorkspaceProblem> kind) {
        if (error) {
            *error = message;
        }
        if (problem) {
            *problem = kind;
        }
        return false;
    };
    if (path.isEmpty()) {
        return fail(QCoreApplication::translate("WorkspaceSession", "No workspace file was given."),
                    std::nullopt);
    }
    try {
        auto opened = std::make_unique<Workspace>(Workspace::open(path.toStdString()));
        m_workspace = std::move(opened);
    } catch (const WorkspaceError& e) {
        return fail(translatedText(e.text()), e.problem());
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()), WorkspaceProblem::io);
    }
    m_workspace->changed_elsewhere();  // the version everything below is read at
    m_poll.start();
    emit opened(this->path());
    emit profilesChanged();
    emit plansChanged();
    emit probeRunsChanged();
    return true;
}

void WorkspaceSession::close() {
    if (!m_workspace) {
        return;
    }
    m_poll.stop();
    m_workspace.reset();
    emit closed();
    emit profilesChanged();
    emit plansChanged();
    emit probeRunsChanged();
}

}  // namespace tally::ui
