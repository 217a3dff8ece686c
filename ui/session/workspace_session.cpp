#include "ui/session/workspace_session.h"

#include <QCoreApplication>
#include <exception>

#include "ui/i18n/translate_text.h"

namespace tally::ui {

WorkspaceSession::WorkspaceSession(QObject* parent) : QObject(parent) {}

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
    m_workspace.reset();
    emit closed();
    emit profilesChanged();
    emit plansChanged();
    emit probeRunsChanged();
}

}  // namespace tally::ui
