#include "ui/workspace/workspace_panel_base.h"

#include <QLabel>
#include <QVBoxLayout>

#include "ui/workspace/workspace_banner.h"

namespace tally::ui {

WorkspacePanel::WorkspacePanel(WorkspaceSession* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_prompts(defaultPrompts()),
      m_banner(new WorkspaceBanner(session, this)),
      m_message(new QLabel(this)),
      m_layout(new QVBoxLayout(this)) {
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    m_layout->addWidget(m_banner);
}

void WorkspacePanel::setPrompts(const UserPrompts& prompts) {
    m_prompts = prompts;
    m_banner->setPrompts(prompts);
}

void WorkspacePanel::setChooser(const WorkspaceChooser& chooser) {
    m_banner->setChooser(chooser);
}

QString WorkspacePanel::message() const {
    return m_message->isHidden() ? QString() : m_message->text();
}

void WorkspacePanel::report(const QString& message, bool problem) {
    m_message->setText(message);
    m_message->setStyleSheet(problem ? QStringLiteral("color: #c62828;") : QString());
    m_message->setVisible(!message.isEmpty());
}

}  // namespace tally::ui
