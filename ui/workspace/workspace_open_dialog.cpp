#include "ui/workspace/workspace_open_dialog.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include "ui/common/file_dialogs.h"
#include "ui/session/workspace_session.h"

namespace tally::ui {

bool openWorkspace(WorkspaceSession* session, const WorkspaceChoice& first,
                   const WorkspaceChooser& choose) {
    WorkspaceChoice choice = first;
    while (choice.action != WorkspaceAction::continueWithout) {
        QString error;
        if (choice.path.isEmpty()) {
            error = WorkspaceOpenDialog::tr("No workspace file was chosen.");
        } else if (choice.action == WorkspaceAction::startNew && QFileInfo::exists(choice.path)) {
            // A new workspace never goes over an existing file, whatever it holds.
            error = WorkspaceOpenDialog::tr(
                        "%1 already exists. A new workspace needs a file name that is not "
                        "taken; the file was left as it was.")
                        .arg(choice.path);
        } else if (session->open(choice.path, &error)) {
            return true;
        }
        if (!choose) {
            return false;
        }
        const QString tried = choice.path;
        choice = choose(tried, error);
    }
    return false;
}

WorkspaceOpenDialog::WorkspaceOpenDialog(const QString& message, bool haveWorkspace,
                                         QWidget* parent)
    : QDialog(parent),
      m_message(new QLabel(message, this)),
      m_open(new QPushButton(tr("Open another file…"), this)),
      m_new(new QPushButton(tr("Start a new workspace…"), this)),
      m_continue(new QPushButton(
          haveWorkspace ? tr("Keep the current workspace") : tr("Continue without a workspace"),
          this)) {
    setObjectName(QStringLiteral("workspaceOpenDialog"));
    setWindowTitle(tr("The workspace did not open"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setMinimumWidth(460);
    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(48, 48));
    icon->setAlignment(Qt::AlignTop);
    auto* explain = new QLabel(
        haveWorkspace
            ? tr("The workspace you have open stays open unless another one opens.")
            : tr("Without a workspace, planning works as before; saved profiles and plans are "
                 "not available until a workspace is opened."),
        this);
    explain->setWordWrap(true);

    auto* text = new QVBoxLayout;
    text->addWidget(m_message);
    text->addWidget(explain);
    auto* top = new QHBoxLayout;
    top->addWidget(icon);
    top->addLayout(text, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_new);
    buttons->addStretch(1);
    buttons->addWidget(m_continue);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(buttons);

    m_open->setDefault(true);
    connect(m_open, &QPushButton::clicked, this, [this] { choose(WorkspaceAction::open); });
    connect(m_new, &QPushButton::clicked, this, [this] { choose(WorkspaceAction::startNew); });
    connect(m_continue, &QPushButton::clicked, this,
            [this] { choose(WorkspaceAction::continueWithout); });
}

QString WorkspaceOpenDialog::message() const {
    return m_message->text();
}

void WorkspaceOpenDialog::choose(WorkspaceAction action) {
    m_action = action;
    accept();
}

WorkspaceChooser dialogWorkspaceChooser(QWidget* parent, WorkspaceSession* session) {
    return [parent, session](const QString& path, const QString& message) {
        const QString folder = QFileInfo(path).absolutePath();
        for (;;) {
            WorkspaceOpenDialog dialog(message, session->isOpen(), parent);
            if (dialog.exec() != QDialog::Accepted ||
                dialog.action() == WorkspaceAction::continueWithout) {
                return WorkspaceChoice{};
            }
            const WorkspaceAction action = dialog.action();
            const QString filter =
                WorkspaceOpenDialog::tr("Tally workspaces (*.sqlite *.db);;All files (*)");
            // The save dialog asks nothing about existing files: openWorkspace() refuses them
            // for a new workspace instead of writing over them.
            const QString chosen =
                action == WorkspaceAction::open
                    ? chooseOpenPath(parent, WorkspaceOpenDialog::tr("Open a workspace"), folder,
                                     filter)
                    : chooseSavePath(parent, WorkspaceOpenDialog::tr("Start a new workspace"),
                                     folder + QStringLiteral("/workspace.sqlite"), filter,
                                     QFileDialog::DontConfirmOverwrite);
            if (!chosen.isEmpty()) {
                return WorkspaceChoice{action, chosen};
            }
        }
    };
}

}  // namespace tally::ui
