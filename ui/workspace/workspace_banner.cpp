#include "ui/workspace/workspace_banner.h"

#include <QEvent>

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "ui/session/workspace_session.h"

namespace tally::ui {

WorkspaceBanner::WorkspaceBanner(WorkspaceSession* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_prompts(defaultPrompts()),
      m_chooser(dialogWorkspaceChooser(this, session)),
      m_label(new QLabel(this)),
      m_open(new QPushButton(this)),
      m_new(new QPushButton(tr("Start a new workspace…"), this)) {
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_open);
    layout->addWidget(m_new);
    connect(m_open, &QPushButton::clicked, this, [this] { ask(WorkspaceAction::open); });
    connect(m_new, &QPushButton::clicked, this, [this] { ask(WorkspaceAction::startNew); });
    connect(session, &WorkspaceSession::opened, this, &WorkspaceBanner::refresh);
    connect(session, &WorkspaceSession::closed, this, &WorkspaceBanner::refresh);
    refresh();
}

void WorkspaceBanner::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        refresh();
    }
    QWidget::changeEvent(event);
}

void WorkspaceBanner::refresh() {
    if (m_session->isOpen() && m_session->isReadOnly()) {
        m_label->setText(tr("Workspace (read-only: browse it; saving here is refused): %1")
                             .arg(m_session->path()));
        m_label->setStyleSheet(QStringLiteral("color: #8a5300;"));
        m_open->setText(tr("Open another workspace…"));
    } else if (m_session->isOpen()) {
        m_label->setText(tr("Workspace: %1").arg(m_session->path()));
        m_label->setStyleSheet({});
        m_open->setText(tr("Open another workspace…"));
    } else {
        m_label->setText(
            tr("No workspace is open: saved profiles and plans are not available. Planning "
               "works as before."));
        m_label->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_open->setText(tr("Open a workspace…"));
    }
}

void WorkspaceBanner::ask(WorkspaceAction action) {
    const QString start = m_session->isOpen()
                              ? QFileInfo(m_session->path()).absolutePath()
                              : QFileInfo(WorkspaceSession::defaultPath()).absolutePath();
    const bool creating = action == WorkspaceAction::startNew;
    const QString filter = tr("Tally workspaces (*.sqlite *.db);;All files (*)");
    // A new workspace is never written over a file: openWorkspace() refuses one that exists,
    // so the save dialog does not first ask whether to replace it.
    const QString path =
        creating && m_prompts.chooseNewPath
            ? m_prompts.chooseNewPath(this, tr("Start a new workspace"), filter,
                                      start + QStringLiteral("/workspace.sqlite"))
            : m_prompts.choosePath(
                  this, creating ? tr("Start a new workspace") : tr("Open a workspace"), filter,
                  creating, creating ? start + QStringLiteral("/workspace.sqlite") : start);
    if (!path.isEmpty()) {
        openWorkspace(m_session, WorkspaceChoice{action, path}, m_chooser);
    }
}

}  // namespace tally::ui
