#include "ui/workspace/saved_plans_panel.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "planner/io/spec_json.h"
#include "planner/store/workspace.h"
#include "planner/text/plan_comparison.h"
#include "planner/text/report.h"
#include "ui/common/chart_support.h"
#include "ui/common/hardware_catalog.h"
#include "ui/common/number_text.h"
#include "ui/common/table_copy.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/plan_document.h"
#include "ui/session/workspace_session.h"
#include "ui/workspace/saved_plans_model.h"

namespace tally::ui {

SavedPlansPanel::SavedPlansPanel(WorkspaceSession* session, PlanDocument* document, QWidget* parent)
    : WorkspacePanel(session, parent),
      m_document(document),
      m_model(new SavedPlansModel(this)),
      m_table(new QTableView(this)),
      m_saveAs(new QPushButton(tr("Save current plan in the workspace as…"), this)),
      m_replace(new QPushButton(tr("Replace with current plan"), this)),
      m_open(new QPushButton(tr("Open"), this)),
      m_rename(new QPushButton(tr("Rename…"), this)),
      m_delete(new QPushButton(tr("Delete"), this)),
      m_compare(new QPushButton(tr("Compare…"), this)) {
    setObjectName(QStringLiteral("savedPlans"));
    m_table->setObjectName(QStringLiteral("savedPlansTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Several rows for Compare (Ctrl+click, Shift+click); the other actions take one.
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    compactTable(m_table, SavedPlansModel::ModelColumn);
    m_saveAs->setToolTip(
        tr("Store the plan being edited in the workspace (this list, the same as tally plans "
           "list) under a name. File > Save to a JSON file writes it to a file instead, for "
           "tally plan PLAN.json or to share."));
    m_replace->setToolTip(tr("Store the plan being edited over the selected saved plan."));
    m_open->setToolTip(
        tr("Load the selected plan into the form (one undo step: Ctrl+Z returns to the plan "
           "you had)."));
    m_compare->setObjectName(QStringLiteral("compareSavedPlans"));
    m_compare->setToolTip(
        tr("Select 2 to 6 plans (Ctrl+click) to see them side by side: GPUs, layout, memory, "
           "step, days, GPU-hours, cost and energy (tally plans compare prints the same)."));
    messageLabel()->setObjectName(QStringLiteral("savedPlansMessage"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_saveAs);
    buttons->addWidget(m_replace);
    buttons->addStretch(1);
    buttons->addWidget(m_open);
    buttons->addWidget(m_rename);
    buttons->addWidget(m_delete);
    buttons->addWidget(m_compare);
    panelLayout()->addLayout(buttons);
    panelLayout()->addWidget(messageLabel());
    panelLayout()->addWidget(m_table, 1);

    connect(m_saveAs, &QPushButton::clicked, this, [this] { saveCurrentAs(); });
    connect(m_replace, &QPushButton::clicked, this, [this] { replaceSelected(); });
    connect(m_open, &QPushButton::clicked, this, [this] { openSelected(); });
    connect(m_rename, &QPushButton::clicked, this, [this] { renameSelected(); });
    connect(m_delete, &QPushButton::clicked, this, [this] { deleteSelected(); });
    connect(m_compare, &QPushButton::clicked, this, [this] { compareSelected(); });
    connect(m_table, &QTableView::doubleClicked, this, [this] { openSelected(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SavedPlansPanel::selectionChanged);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SavedPlansPanel::selectionChanged);
    connect(session, &WorkspaceSession::plansChanged, this, &SavedPlansPanel::reload);
    connect(document, &PlanDocument::errorChanged, this, &SavedPlansPanel::selectionChanged);
    reload();
}

void SavedPlansPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    reload();
}

void SavedPlansPanel::reload() {
    const std::int64_t selected = selectedId();
    std::vector<StoredPlan> plans;
    if (Workspace* ws = session()->workspace()) {
        try {
            plans = ws->list_plans();
        } catch (const std::exception& e) {
            report(tr("The workspace's plans cannot be listed: %1").arg(workspaceErrorMessage(e)),
                   true);
        }
    }
    m_model->setPlans(plans);
    selectPlan(selected);
}

void SavedPlansPanel::selectPlan(std::int64_t id) {
    const int row = m_model->rowOfId(id);
    if (row < 0) {
        m_table->clearSelection();
        return;
    }
    m_table->selectRow(row);
    m_table->scrollTo(m_model->index(row, 0));
}

std::int64_t SavedPlansPanel::selectedId() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? 0 : rows.front().data(SavedPlansModel::IdRole).toLongLong();
}

QString SavedPlansPanel::selectedName() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.front().data(SavedPlansModel::NameRole).toString();
}

void SavedPlansPanel::selectionChanged() {
    const bool open = session()->isOpen();
    const qsizetype count = m_table->selectionModel()->selectedRows().size();
    // One plan for the actions on a plan; 2 to 6 for Compare.
    const bool selected = count == 1;
    m_compare->setEnabled(open && count >= static_cast<qsizetype>(kMinComparedPlans) &&
                          count <= static_cast<qsizetype>(kMaxComparedPlans));
    // A serving spec the serving planner accepts saves whatever its (absent) training part says,
    // as File > Save and `tally plans save` do.
    const bool rejected = m_document->error() && !m_document->servingViews();
    const bool savable = open && !rejected;
    m_saveAs->setEnabled(savable);
    m_replace->setEnabled(savable && selected);
    m_open->setEnabled(open && selected);
    m_rename->setEnabled(open && selected);
    m_delete->setEnabled(open && selected);
    if (open && rejected) {
        m_saveAs->setToolTip(
            tr("Not while a field is rejected: %1").arg(errorText(*m_document->error())));
    } else {
        m_saveAs->setToolTip(
            tr("Store the plan being edited in the workspace (this list, the same as tally plans "
               "list) under a name. File > Save to a JSON file writes it to a file instead, for "
               "tally plan PLAN.json or to share."));
    }
}

bool SavedPlansPanel::refuseRejectedPlan() {
    if (const auto& error = m_document->error(); error && !m_document->servingViews()) {
        report(tr("The plan is not saved while a field is rejected: %1").arg(errorText(*error)),
               true);
        return true;
    }
    return false;
}

bool SavedPlansPanel::storeUnderName(const QString& title, const QString& label,
                                     const QString& initial,
                                     const std::function<void(const std::string&)>& store) {
    // An emptied name is tried too: the workspace refuses it by name ("plan.name: got ...")
    // and the question comes back with the reason, where it used to close without a word.
    QString name = prompts().askText(this, title, label, initial);
    while (!name.isNull()) {
        try {
            // Spaces around a typed name are not part of it: "cli plan " beside "cli plan" would
            // be two plans that look the same in every list.
            store(name.trimmed().toStdString());
            return true;
        } catch (const SpecError& e) {
            if (e.error().field != "plan.name") {
                // Not the name: the plan itself (changed since the list was read).
                reportActionError(e);
                return false;
            }
            // A name another plan has, or one the workspace does not take: ask again, saying why.
            name = prompts().askText(this, title, translatedFieldError(e.error()) + u'\n' + label,
                                     name);
        } catch (const std::exception& e) {
            report(workspaceErrorMessage(e), true);
            return false;
        }
    }
    return false;
}

bool SavedPlansPanel::saveCurrentAs() {
    Workspace* ws = session()->workspace();
    if (!ws || refuseRejectedPlan()) {
        return false;
    }
    const PlanSpec& spec = m_document->spec();
    // The plan's title (its name, else what it is) as of the last accepted plan.
    const QString suggested =
        m_document->views()
            ? qs(plan_title(spec, m_document->headlineViews().hardware, uiTextTranslator()))
            : qs(spec.name);
    std::int64_t id = 0;
    std::string chosen;
    if (!storeUnderName(tr("Save the plan in the workspace"), tr("Name of the saved plan:"),
                        suggested, [&](const std::string& name) {
                            // One name: the saved plan's is the plan's own.
                            PlanSpec named = spec;
                            named.name = name;
                            id = ws->save_plan(name, named);
                            chosen = name;
                        })) {
        return false;
    }
    if (m_document->spec().name != chosen) {
        PlanSpec named = m_document->spec();
        named.name = chosen;
        m_document->edit(named, tr("Name the plan \"%1\"").arg(qs(chosen)));
    }
    session()->announcePlansChanged();
    selectPlan(id);
    report(tr("Saved the plan as \"%1\".").arg(selectedName()), false);
    return true;
}

StoredPlan SavedPlansPanel::selectedPlan() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? StoredPlan{} : m_model->shownPlan(rows.front().row());
}

bool SavedPlansPanel::stillStored(const StoredPlan& shown) {
    Workspace* ws = session()->workspace();
    try {
        if (const auto stored = ws ? ws->find_plan(shown.id) : std::nullopt;
            stored && stored->name == shown.name && stored->created_at == shown.created_at) {
            return true;
        }
    } catch (const std::exception& e) {
        report(workspaceErrorMessage(e), true);
        return false;
    }
    report(tr("\"%1\" is no longer in the workspace as listed (another window or program removed "
              "or renamed it); the list is read again. \"Save current plan in the workspace "
              "as…\" stores the plan being edited under a name.")
               .arg(qs(shown.name)),
           true);
    session()->announcePlansChanged();
    return false;
}

void SavedPlansPanel::reportActionError(const std::exception& e) {
    report(workspaceErrorMessage(e), true);
    if (const auto* error = dynamic_cast<const SpecError*>(&e);
        error && error->error().field == "plan") {
        session()->announcePlansChanged();
    }
}

bool SavedPlansPanel::replaceSelected() {
    Workspace* ws = session()->workspace();
    const StoredPlan shown = selectedPlan();
    if (!ws || shown.id == 0) {
        return false;
    }
    if (refuseRejectedPlan()) {
        return false;
    }
    const QString name = qs(shown.name);
    if (!stillStored(shown)) {
        return false;
    }
    if (!prompts().confirm(
            this, tr("Replace saved plan"),
            tr("Replace the saved plan \"%1\" with the plan being edited?").arg(name))) {
        return false;
    }
    try {
        // Only while the id still holds that plan: the list may be older than the workspace.
        ws->update_plan(shown, m_document->spec());
    } catch (const std::exception& e) {
        reportActionError(e);
        return false;
    }
    session()->announcePlansChanged();
    report(tr("Saved the plan over \"%1\".").arg(name), false);
    return true;
}

QDialog* SavedPlansPanel::compareSelected() {
    Workspace* ws = session()->workspace();
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (!ws || rows.size() < static_cast<qsizetype>(kMinComparedPlans) ||
        rows.size() > static_cast<qsizetype>(kMaxComparedPlans)) {
        return nullptr;
    }
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    std::vector<ComparedPlan> plans;
    try {
        for (const QModelIndex& row : rows) {
            const StoredPlan shown = m_model->shownPlan(row.row());
            if (!stillStored(shown)) {
                return nullptr;
            }
            const std::optional<StoredPlan> stored = ws->find_plan(shown.id);
            const PlanSpec spec = plan_spec_from_text(stored->spec_json);
            if (const HardwareProfile* hw = m_document->catalog()->find(spec.cluster.gpu)) {
                plans.push_back(compared_plan(stored->name, spec, *hw));
            } else {  // its GPU's profile is no longer in the workspace
                ComparedPlan refused;
                refused.name = stored->name;
                refused.spec = spec;
                refused.error = FieldError::of(
                    "cluster.gpu", spec.cluster.gpu,
                    TALLY_TEXT("tally::compare", "a built-in GPU or a profile of this workspace"));
                plans.push_back(std::move(refused));
            }
        }
    } catch (const std::exception& e) {
        report(tr("The saved plans cannot be compared: %1").arg(workspaceErrorMessage(e)), true);
        return nullptr;
    }
    const std::vector<ComparisonLine> lines = plan_comparison_lines(plans);

    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("planComparison"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Saved plans side by side"));
    auto* table =
        new QTableWidget(static_cast<int>(lines.size()), static_cast<int>(plans.size()), dialog);
    table->setObjectName(QStringLiteral("planComparisonTable"));
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(false);  // one line a figure; the tooltip holds a cut one whole
    TableCopy::install(table);  // Ctrl+C copies the figures as cells for a spreadsheet
    QStringList names;
    for (const ComparedPlan& p : plans) {
        names << qs(p.name);
    }
    table->setHorizontalHeaderLabels(names);
    QStringList labels;
    for (std::size_t r = 0; r < lines.size(); ++r) {
        labels << translatedLiteral("tally::compare", lines[r].label);
        for (std::size_t c = 0; c < plans.size(); ++c) {
            auto* item = new QTableWidgetItem(translatedText(lines[r].values[c]));
            item->setToolTip(item->text());
            table->setItem(static_cast<int>(r), static_cast<int>(c), item);
        }
    }
    table->setVerticalHeaderLabels(labels);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(close, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(close);
    dialog->resize(std::min(1200, 240 + 260 * static_cast<int>(plans.size())), 380);
    dialog->show();
    return dialog;
}

bool SavedPlansPanel::openSelected() {
    Workspace* ws = session()->workspace();
    const StoredPlan shown = selectedPlan();
    if (!ws || shown.id == 0) {
        return false;
    }
    try {
        const std::optional<StoredPlan> stored = ws->find_plan(shown.id);
        if (!stored || stored->name != shown.name || stored->created_at != shown.created_at) {
            report(tr("\"%1\" is no longer in the workspace as listed (another window or program "
                      "removed or renamed it); the list is read again.")
                       .arg(qs(shown.name)),
                   true);
            session()->announcePlansChanged();
            return false;
        }
        PlanSpec spec = plan_spec_from_text(stored->spec_json);
        // The saved plan's name is the plan's name (the title, the CSV, the report show it).
        spec.name = stored->name;
        m_document->edit(spec, tr("Open saved plan \"%1\"").arg(qs(stored->name)));
        // The file the window had open holds another plan: Save asks where rather than write
        // this one over it.
        m_document->forgetFile();
        report(tr("Opened \"%1\" (Ctrl+Z returns to the plan you had).").arg(qs(stored->name)),
               false);
        return true;
    } catch (const std::exception& e) {
        report(tr("The saved plan cannot be opened: %1").arg(workspaceErrorMessage(e)), true);
        return false;
    }
}

bool SavedPlansPanel::renameSelected() {
    Workspace* ws = session()->workspace();
    const StoredPlan shown = selectedPlan();
    if (!ws || shown.id == 0) {
        return false;
    }
    const QString old = qs(shown.name);
    if (!stillStored(shown)) {
        return false;
    }
    QString renamed;
    if (!storeUnderName(tr("Rename saved plan"), tr("New name:"), old,
                        [&](const std::string& name) {
                            if (name != shown.name) {
                                // Only while the id still holds that plan.
                                ws->rename_plan(shown, name);
                            }
                            renamed = qs(name);
                        }) ||
        renamed == old) {
        return false;
    }
    session()->announcePlansChanged();
    selectPlan(shown.id);
    report(tr("Renamed \"%1\" to \"%2\".").arg(old, renamed), false);
    return true;
}

bool SavedPlansPanel::deleteSelected() {
    Workspace* ws = session()->workspace();
    const StoredPlan shown = selectedPlan();
    if (!ws || shown.id == 0) {
        return false;
    }
    const QString name = qs(shown.name);
    if (!stillStored(shown)) {
        return false;
    }
    if (!prompts().confirm(this, tr("Delete saved plan"),
                           tr("Delete the saved plan \"%1\" from the workspace?").arg(name))) {
        return false;
    }
    try {
        // Only while the id still holds that plan: the list may be older than the workspace.
        ws->remove_plan(shown);
    } catch (const std::exception& e) {
        reportActionError(e);
        return false;
    }
    session()->announcePlansChanged();
    report(tr("Deleted \"%1\".").arg(name), false);
    return true;
}

}  // namespace tally::ui
