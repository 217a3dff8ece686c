#include "ui/workspace/profile_manager_panel.h"

#include <QCoreApplication>
#include <QEvent>

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <exception>

#include "planner/core/enum_names.h"
#include "planner/core/errors.h"
#include "planner/store/workspace.h"
#include "ui/common/chart_support.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"
#include "ui/session/workspace_session.h"
#include "ui/workspace/profile_editor_dialog.h"
#include "ui/workspace/profile_files.h"
#include "ui/workspace/profile_table_model.h"

namespace tally::ui {

namespace {

QString html(const std::string& text) {
    return qs(text).toHtmlEscaped();
}

}  // namespace

ProfileManagerPanel::ProfileManagerPanel(WorkspaceSession* session, QWidget* parent)
    : WorkspacePanel(session, parent),
      m_model(new ProfileTableModel(this)),
      m_table(new QTableView(this)),
      m_details(new QTextBrowser(this)),
      m_duplicate(new QPushButton(tr("Duplicate and edit…"), this)),
      m_edit(new QPushButton(tr("Edit…"), this)),
      m_delete(new QPushButton(tr("Delete"), this)),
      m_import(new QPushButton(tr("Import…"), this)),
      m_export(new QPushButton(tr("Export…"), this)) {
    setObjectName(QStringLiteral("profileManager"));
    m_table->setObjectName(QStringLiteral("profileTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    compactTable(m_table, ProfileTableModel::NameColumn);
    m_details->setOpenExternalLinks(true);
    m_details->setObjectName(QStringLiteral("profileDetails"));

    m_duplicate->setToolTip(
        tr("Copy the selected profile into a custom one and edit its figures."));
    m_edit->setToolTip(tr("Edit the selected custom or measured profile."));
    m_delete->setToolTip(tr("Delete the selected custom or measured profile."));
    m_import->setToolTip(
        tr("Add the profile a JSON file holds (what `tally profiles export` writes)."));
    m_export->setToolTip(
        tr("Write the selected profile as JSON (what `tally profiles import` reads)."));
    messageLabel()->setObjectName(QStringLiteral("profileMessage"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_duplicate);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_delete);
    buttons->addStretch(1);
    buttons->addWidget(m_import);
    buttons->addWidget(m_export);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({520, 200});

    panelLayout()->addLayout(buttons);
    panelLayout()->addWidget(messageLabel());
    panelLayout()->addWidget(split, 1);

    connect(m_duplicate, &QPushButton::clicked, this, [this] { duplicateSelected(); });
    connect(m_edit, &QPushButton::clicked, this, [this] { editSelected(); });
    connect(m_delete, &QPushButton::clicked, this, [this] { deleteSelected(); });
    connect(m_import, &QPushButton::clicked, this, [this] {
        const QString path = prompts().choosePath(
            this, tr("Import a profile"), tr("Profiles (*.json);;All files (*)"), false, QString());
        if (!path.isEmpty()) {
            importFile(path);
        }
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString id = selectedId();
        if (id.isEmpty()) {
            return;
        }
        const QString path =
            prompts().choosePath(this, tr("Export profile %1").arg(id), tr("Profiles (*.json)"),
                                 true, id + QStringLiteral(".json"));
        if (!path.isEmpty()) {
            exportSelected(path);
        }
    });
    connect(m_table, &QTableView::doubleClicked, this, [this] {
        if (const HardwareProfile* p = selectedProfile(); p && p->kind != ProfileKind::builtin) {
            editSelected();
        } else {
            duplicateSelected();
        }
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ProfileManagerPanel::selectionChanged);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ProfileManagerPanel::selectionChanged);
    connect(session, &WorkspaceSession::profilesChanged, this, &ProfileManagerPanel::reload);
    reload();
}

ProfileEditorDialog* ProfileManagerPanel::editor() const {
    return m_editor.data();
}

void ProfileManagerPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // Through the session, so the GPU picker and the compare view pick up the same rows.
    if (session()->isOpen()) {
        session()->announceProfilesChanged();
    } else {
        reload();
    }
}

void ProfileManagerPanel::reload() {
    const QString selected = selectedId();
    std::vector<HardwareProfile> profiles = builtin_hardware();
    if (Workspace* ws = session()->workspace()) {
        try {
            profiles = ws->list_profiles();
        } catch (const std::exception& e) {
            report(
                tr("The workspace's profiles cannot be listed: %1").arg(workspaceErrorMessage(e)),
                true);
        }
    }
    m_model->setProfiles(std::move(profiles));
    m_import->setEnabled(session()->isOpen());
    if (m_model->rowOf(selected) >= 0) {
        selectProfile(selected);
        return;
    }
    // Nothing chosen yet: the user's own profiles are what this panel is for (they come after
    // the built-in ones, so the first of them is brought into view).
    for (const HardwareProfile& p : m_model->profiles()) {
        if (p.kind != ProfileKind::builtin) {
            selectProfile(qs(p.id));
            return;
        }
    }
    m_table->clearSelection();
}

void ProfileManagerPanel::selectProfile(const QString& id) {
    const int row = m_model->rowOf(id);
    if (row < 0) {
        m_table->clearSelection();
        return;
    }
    m_table->selectRow(row);
    m_table->scrollTo(m_model->index(row, 0));
}

QString ProfileManagerPanel::selectedId() const {
    const HardwareProfile* p = selectedProfile();
    return p ? qs(p->id) : QString();
}

const HardwareProfile* ProfileManagerPanel::selectedProfile() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return nullptr;
    }
    return &m_model->profiles()[static_cast<std::size_t>(rows.front().row())];
}

void ProfileManagerPanel::changeEvent(QEvent* event) {
    WorkspacePanel::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        selectionChanged();
    }
}

void ProfileManagerPanel::selectionChanged() {
    const HardwareProfile* p = selectedProfile();
    const bool open = session()->isOpen();
    const bool stored = p && p->kind != ProfileKind::builtin;
    m_duplicate->setEnabled(p && open);
    m_edit->setEnabled(stored && open);
    m_delete->setEnabled(stored && open);
    m_export->setEnabled(p != nullptr);
    if (!p) {
        m_details->setHtml(
            tr("<p>Select a profile to see all its figures. Built-in profiles come from the "
               "shipped catalog and are read-only: <i>Duplicate and edit…</i> makes a custom "
               "copy. Measured profiles come from probe runs.</p>"));
        return;
    }
    QString peaks;
    for (ComputeType t : kAllComputeTypes) {
        if (p->supports(t)) {
            peaks += (peaks.isEmpty() ? QString() : QStringLiteral(", ")) + qs(to_string(t)) +
                     u' ' + formatFlopsPerSecond(p->peak(t));
        }
    }
    QString text = tr("<p><b>%1</b> (%2, %3)<br>Memory %4 (%5), bandwidth %6, TDP %7<br>"
                      "Dense peaks: %8</p>")
                       .arg(html(p->name), html(p->id), ProfileTableModel::kindName(p->kind),
                            formatGB(p->memory_bytes), formatGiB(p->memory_bytes),
                            formatGBPerSecond(p->bandwidth_bytes_per_s),
                            p->tdp_w > 0.0 ? tr("%1 W").arg(p->tdp_w) : tr("not known"), peaks);
    text += p->price_per_gpu_hour
                ? tr("<p>Price: %1 per GPU-hour (used where a plan gives no price of its "
                     "own)</p>")
                      .arg(formatShort(*p->price_per_gpu_hour))
                : tr("<p>Price: none (plans on this profile are priced at their own price per "
                     "GPU-hour)</p>");
    if (const auto& c = p->calibration) {
        // What `tally calibrate` (or the Time panel's Calibrate…) stored: without it here the
        // profile read as any custom copy, its fitted efficiency visible only on the CLI.
        text +=
            tr("<p><b>Calibrated</b>: efficiency %1 = %2 s predicted / %3 s measured a step "
               "(%4, fitted on %5, %6; source: %7). Every plan on this profile divides its "
               "predicted step by %1.</p>")
                .arg(QString::number(c->efficiency, 'f', 4),
                     QString::number(c->predicted_step_s, 'g', 4),
                     QString::number(c->measured_step_s, 'g', 4),
                     c->spec_name.empty() ? tr("plan not recorded") : html(c->spec_name),
                     c->base_profile.empty() ? tr("profile not recorded") : html(c->base_profile),
                     c->measured_on.empty() ? tr("undated") : html(c->measured_on),
                     c->source.empty() ? tr("source not recorded") : html(c->source));
        if (c->engine) {
            text += tr("<p>Fitted on a run of %1: plans of another engine on this profile are "
                       "warned that its efficiency is that engine's.</p>")
                        .arg(QCoreApplication::translate("tally::enums",
                                                         find_enum_name(*c->engine)->label.data()));
        }
    }
    if (!p->notes.empty()) {
        text += tr("<p>Notes: %1</p>").arg(html(p->notes));
    }
    if (!p->sources.empty()) {
        QString sources;
        for (const std::string& s : p->sources) {
            sources += QStringLiteral("<li>") + html(s) + QStringLiteral("</li>");
        }
        text += tr("<p>Sources:</p><ul>%1</ul>").arg(sources);
    }
    m_details->setHtml(text);
}

ProfileEditorDialog* ProfileManagerPanel::openEditor(const HardwareProfile& start, bool adding) {
    if (m_editor) {
        m_editor->close();
    }
    auto* dialog = new ProfileEditorDialog(
        session(), start, adding ? ProfileEditorDialog::Mode::add : ProfileEditorDialog::Mode::edit,
        this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        selectProfile(dialog->savedId());
        report(tr("Saved profile %1.").arg(dialog->savedId()), false);
    });
    m_editor = dialog;
    dialog->open();
    return dialog;
}

ProfileEditorDialog* ProfileManagerPanel::duplicateSelected() {
    const HardwareProfile* p = selectedProfile();
    if (!p || !session()->isOpen()) {
        return nullptr;
    }
    const auto [id, name] = copyIdAndName(*p, m_model->profiles());
    return openEditor(duplicate_profile(*p, id, name), true);
}

ProfileEditorDialog* ProfileManagerPanel::editSelected() {
    const HardwareProfile* p = selectedProfile();
    Workspace* ws = session()->workspace();
    if (!p || p->kind == ProfileKind::builtin || !ws) {
        return nullptr;
    }
    // The editor starts from the profile as stored now, not as the list last read it: another
    // window or `tally profiles edit` may have changed it since.
    const std::string id = p->id;
    std::optional<HardwareProfile> stored;
    try {
        stored = ws->find_profile(id);
    } catch (const std::exception& e) {
        report(workspaceErrorMessage(e), true);
        return nullptr;
    }
    if (!stored || stored->kind == ProfileKind::builtin) {
        report(tr("The profile %1 is no longer in the workspace (another window or program "
                  "removed it).")
                   .arg(qs(id)),
               true);
        session()->announceProfilesChanged();
        return nullptr;
    }
    return openEditor(*stored, false);
}

bool ProfileManagerPanel::deleteSelected() {
    const HardwareProfile* p = selectedProfile();
    Workspace* ws = session()->workspace();
    if (!p || p->kind == ProfileKind::builtin || !ws) {
        return false;
    }
    const HardwareProfile profile = *p;
    // The saved plans that run on it, by name, as `tally profiles rm` names them.
    QStringList users;
    try {
        for (const std::string& name : ws->plans_on_profile(profile.id)) {
            users << QStringLiteral("\"%1\"").arg(qs(name));
        }
    } catch (const std::exception& e) {
        report(workspaceErrorMessage(e), true);
        return false;
    }
    const QString runOnIt =
        users.isEmpty()
            ? tr("Plans whose GPU is %1 will not be drawn until you pick another GPU for them.")
                  .arg(qs(profile.id))
            : tr("%n saved plan(s) run on it and will not be drawn until you pick another GPU "
                 "for them: %1.",
                 nullptr, static_cast<int>(users.size()))
                  .arg(users.join(QStringLiteral(", ")));
    const QString question = tr("Delete the %1 profile %2 (%3) from the workspace? %4%5")
                                 .arg(ProfileTableModel::kindName(profile.kind), qs(profile.name),
                                      qs(profile.id), runOnIt,
                                      profile.kind == ProfileKind::measured
                                          ? tr(" The probe run it was measured from is kept.")
                                          : QString());
    if (!prompts().confirm(this, tr("Delete profile"), question)) {
        return false;
    }
    try {
        ws->remove_profile(profile.id);
    } catch (const std::exception& e) {
        report(workspaceErrorMessage(e), true);
        return false;
    }
    session()->announceProfilesChanged();
    report(tr("Deleted profile %1.").arg(qs(profile.id)), false);
    return true;
}

bool ProfileManagerPanel::importFile(const QString& path) {
    Workspace* ws = session()->workspace();
    if (!ws) {
        report(tr("No workspace is open: open one to import profiles into."), true);
        return false;
    }
    QString error;
    const std::optional<HardwareProfile> profile = readProfileFile(path, &error);
    if (!profile) {
        report(error, true);
        return false;
    }
    try {
        ws->add_profile(*profile);
    } catch (const SpecError& e) {
        if (e.field() == "profile.id" || e.field() == "profile.name") {
            // Another profile has its id or name: let the user store it under a new one.
            report(tr("%1: %2. Choose another id or name for the imported profile.")
                       .arg(QFileInfo(path).fileName(), translatedFieldError(e.error())),
                   true);
            ProfileEditorDialog* dialog = openEditor(*profile, true);
            dialog->save();  // fails again, and marks the field that clashes
            return false;
        }
        report(tr("%1 cannot be imported: %2")
                   .arg(QFileInfo(path).fileName(), translatedFieldError(e.error())),
               true);
        return false;
    } catch (const std::exception& e) {
        report(workspaceErrorMessage(e), true);
        return false;
    }
    session()->announceProfilesChanged();
    selectProfile(qs(profile->id));
    report(tr("Imported %1 profile %2 (%3) from %4.")
               .arg(ProfileTableModel::kindName(profile->kind), qs(profile->id), qs(profile->name),
                    QFileInfo(path).fileName()),
           false);
    return true;
}

bool ProfileManagerPanel::exportSelected(const QString& path) {
    const HardwareProfile* p = selectedProfile();
    if (!p) {
        return false;
    }
    QString error;
    if (!exportProfileFile(*p, path, &error)) {
        report(error, true);
        return false;
    }
    report(tr("Exported profile %1 to %2.").arg(qs(p->id), path), false);
    return true;
}

}  // namespace tally::ui
