// The workspace in the window: opening it at start (a refused file is never written, and the
// choice made in the dialog is honoured), the GPU picker on the workspace's profiles, the saved
// plans (visible to another connection, as to `tally plans list`, and back), and the panels
// and chart the window gains.
#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <sqlite3.h>

#include "planner/io/spec_json.h"
#include "planner/store/sqlite_db.h"
#include "planner/store/workspace.h"
#include "ui/common/hardware_catalog.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/spec_form.h"
#include "ui/session/workspace_session.h"
#include "ui/window/main_window.h"
#include "ui/workspace/compare_models.h"
#include "ui/workspace/compare_panel.h"
#include "ui/workspace/install_workspace_panels.h"
#include "ui/workspace/profile_files.h"
#include "ui/workspace/profile_manager_panel.h"
#include "ui/workspace/profile_table_model.h"
#include "ui/workspace/saved_plans_model.h"
#include "ui/workspace/saved_plans_panel.h"
#include "ui/workspace/workspace_banner.h"
#include "ui/workspace/workspace_open_dialog.h"

using namespace tally;
using namespace tally::ui;

namespace {

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

// A 40 GB copy of the H100: 3e9 parameters x 16 bytes (bf16 params and grads, fp32 master and
// two Adam moments) = 48e9 bytes per GPU fit in the H100's 80 GB but not in these 40.
HardwareProfile h100With40GB() {
    HardwareProfile p =
        duplicate_profile(*find_builtin_hardware("h100-sxm"), "h100-40", "H100 with 40 GB");
    p.memory_bytes = 40e9;
    return p;
}

PlanSpec threeBSpec(const std::string& gpu) {
    PlanSpec s;
    s.name = "3B";
    s.model.kind = ModelKind::params;
    s.model.params = 3e9;
    s.data.tokens = 60e9;
    s.cluster.gpu = gpu;
    s.cluster.gpus = 8;
    s.training.zero = 0;
    return s;
}

// What the start-up dialog would answer, in order, and what it was asked.
struct ScriptedChooser {
    QList<WorkspaceChoice> answers;
    QStringList askedPaths;
    QStringList messages;

    WorkspaceChooser chooser() {
        return [this](const QString& path, const QString& message) {
            askedPaths.append(path);
            messages.append(message);
            return answers.isEmpty() ? WorkspaceChoice{} : answers.takeFirst();
        };
    }
};

}  // namespace

class TestUiWorkspace : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void refusedFileAtStart_data();
    void refusedFileAtStart();
    void startNewNeverGoesOverAFile();
    void openAnotherFile();
    void dialogChoices();
    void windowGainsThePanels();
    void gpuPickerListsCustomProfiles();
    void planOnACustomGpuWaitsForTheWorkspace();
    void savedPlansRoundTrip();
    void servingSpecWithoutDataIsSaved();
    void savedPlansSideBySide();
    void savedPlanNamesAreChecked();
    void planRemovedElsewhereIsSaidSo();
    void planReplacedElsewhereIsNotOverwritten();
    void planIdGivenToAnotherIsNotTouched();
    void rejectedPlanIsNotSaved();
    void modelPassesTheTester();
    void compareChoiceIsRemembered();

private:
    MainWindow* makeWindow();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<WorkspaceSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    WorkspacePanels m_panels;
    QStringList m_names;  // what askText answers, in order; then "" (cancel)
    bool m_confirm = true;
};

void TestUiWorkspace::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings =
        std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("t.ini")), QSettings::IniFormat);
    m_session = std::make_unique<WorkspaceSession>();
    m_names.clear();
    m_confirm = true;
}

void TestUiWorkspace::cleanup() {
    m_window.reset();
    m_session.reset();
    m_settings.reset();
    m_dir.reset();
}

MainWindow* TestUiWorkspace::makeWindow() {
    MainWindow::Options options;
    options.settings = m_settings.get();
    options.restoreLayout = false;
    m_window = std::make_unique<MainWindow>(options);
    m_panels = installWorkspacePanels(m_window.get(), m_session.get());
    UserPrompts prompts;
    prompts.confirm = [this](QWidget*, const QString&, const QString&) { return m_confirm; };
    prompts.choosePath = [](QWidget*, const QString&, const QString&, bool, const QString&) {
        return QString();
    };
    prompts.askText = [this](QWidget*, const QString&, const QString&, const QString&) {
        return m_names.isEmpty() ? QString() : m_names.takeFirst();
    };
    prompts.warn = [](QWidget*, const QString&) {};
    m_panels.setPrompts(prompts);
    return m_window.get();
}

void TestUiWorkspace::refusedFileAtStart_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("said");  // part of the message the dialog shows
    QTest::newRow("not sqlite") << QStringLiteral("text")
                                << QStringLiteral("not an SQLite database");
    QTest::newRow("another program's database")
        << QStringLiteral("foreign") << QStringLiteral("another program");
    QTest::newRow("newer schema") << QStringLiteral("newer") << QStringLiteral("newer Tally");
}

void TestUiWorkspace::refusedFileAtStart() {
    QFETCH(QString, kind);
    QFETCH(QString, said);
    const QString path = m_dir->filePath(QStringLiteral("refused.sqlite"));
    if (kind == QStringLiteral("text")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("my lab notes, not a database\n");
    } else if (kind == QStringLiteral("foreign")) {
        sqlite::Database db(path.toStdString(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec(
            "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL);"
            "INSERT INTO invoices (total) VALUES (12.5);");
    } else {
        { Workspace::open(path.toStdString()); }
        sqlite::Database db(path.toStdString(), SQLITE_OPEN_READWRITE);
        db.exec("PRAGMA user_version = 99");
    }
    const QByteArray before = fileBytes(path);
    QVERIFY(!before.isEmpty());

    ScriptedChooser script;
    script.answers = {WorkspaceChoice{WorkspaceAction::continueWithout, {}}};
    QVERIFY(!openWorkspace(m_session.get(), {WorkspaceAction::open, path}, script.chooser()));
    QCOMPARE(script.askedPaths, QStringList{path});
    QVERIFY2(script.messages.front().contains(said), qPrintable(script.messages.front()));
    QVERIFY(script.messages.front().contains(path));
    // Continue without a workspace: none is open, and the file is byte for byte as it was, with
    // nothing left beside it.
    QVERIFY(!m_session->isOpen());
    QCOMPARE(fileBytes(path), before);
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    QVERIFY(!QFile::exists(path + QStringLiteral("-journal")));

    // The window works without one: planning as before, the panels say there is none.
    MainWindow* window = makeWindow();
    QVERIFY(!window->document()->error());
    QVERIFY(m_panels.profiles->banner()->label()->text().contains(QStringLiteral("No workspace")));
    QVERIFY(m_panels.plans->banner()->label()->text().contains(QStringLiteral("No workspace")));
    QVERIFY(!m_panels.plans->saveAsButton()->isEnabled());
    QCOMPARE(window->hardwareCatalog()->profiles().size(), builtin_hardware().size());
}

void TestUiWorkspace::startNewNeverGoesOverAFile() {
    const QString bad = m_dir->filePath(QStringLiteral("notes.txt"));
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("notes\n");
    }
    const QString fresh = m_dir->filePath(QStringLiteral("new/workspace.sqlite"));
    ScriptedChooser script;
    // "Start a new workspace…" on the refused file itself, then on a new name.
    script.answers = {WorkspaceChoice{WorkspaceAction::startNew, bad},
                      WorkspaceChoice{WorkspaceAction::startNew, fresh}};
    QVERIFY(openWorkspace(m_session.get(), {WorkspaceAction::open, bad}, script.chooser()));
    QCOMPARE(script.askedPaths, (QStringList{bad, bad}));
    QVERIFY2(script.messages[1].contains(QStringLiteral("already exists")),
             qPrintable(script.messages[1]));
    QCOMPARE(m_session->path(), fresh);
    QVERIFY(QFile::exists(fresh));
    QCOMPARE(fileBytes(bad), QByteArray("notes\n"));
}

void TestUiWorkspace::openAnotherFile() {
    const QString good = m_dir->filePath(QStringLiteral("good.sqlite"));
    {
        Workspace ws = Workspace::open(good.toStdString());
        ws.add_profile(h100With40GB());
    }
    const QString bad = m_dir->filePath(QStringLiteral("bad.sqlite"));
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, '\x5a'));
    }
    ScriptedChooser script;
    script.answers = {WorkspaceChoice{WorkspaceAction::open, good}};
    MainWindow* window = makeWindow();
    QVERIFY(openWorkspace(m_session.get(), {WorkspaceAction::open, bad}, script.chooser()));
    QCOMPARE(m_session->path(), good);
    QCOMPARE(fileBytes(bad), QByteArray(4096, '\x5a'));
    // Its profiles reach the picker and the profile manager.
    QVERIFY(window->hardwareCatalog()->find("h100-40"));
    QVERIFY(m_panels.profiles->model()->rowOf(QStringLiteral("h100-40")) >= 0);
}

void TestUiWorkspace::dialogChoices() {
    {
        WorkspaceOpenDialog dialog(QStringLiteral("workspace x is not an SQLite database."), false);
        QCOMPARE(dialog.message(), QStringLiteral("workspace x is not an SQLite database."));
        QCOMPARE(dialog.continueButton()->text(), QStringLiteral("Continue without a workspace"));
        QTest::mouseClick(dialog.continueButton(), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.action(), WorkspaceAction::continueWithout);
    }
    {
        WorkspaceOpenDialog dialog(QStringLiteral("m"), false);
        QCOMPARE(dialog.openButton()->text(), QStringLiteral("Open another file…"));
        QTest::mouseClick(dialog.openButton(), Qt::LeftButton);
        QCOMPARE(dialog.action(), WorkspaceAction::open);
    }
    {
        WorkspaceOpenDialog dialog(QStringLiteral("m"), true);
        QCOMPARE(dialog.newButton()->text(), QStringLiteral("Start a new workspace…"));
        QCOMPARE(dialog.continueButton()->text(), QStringLiteral("Keep the current workspace"));
        QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        QCOMPARE(dialog.action(), WorkspaceAction::startNew);
    }
}

void TestUiWorkspace::windowGainsThePanels() {
    QVERIFY(m_session->open(m_dir->filePath(QStringLiteral("w.sqlite"))));
    MainWindow* window = makeWindow();
    for (const char* id : {"profiles", "plans", "compare"}) {
        QVERIFY2(window->panel(QString::fromLatin1(id)), id);
        QVERIFY(window->showPanel(QString::fromLatin1(id)));
    }
    QCOMPARE(window->panel(QStringLiteral("compare")), m_panels.compare);
    // The compare chart is listed with the others and exports like them.
    bool listed = false;
    for (const ChartInfo& c : window->charts()) {
        listed = listed || c.id == QStringLiteral("compare-roofline");
    }
    QVERIFY(listed);
    QString error;
    const QString png = m_dir->filePath(QStringLiteral("compare.png"));
    QVERIFY2(window->exportChart(QStringLiteral("compare-roofline"), png, &error),
             qPrintable(error));
    QVERIFY(fileBytes(png).startsWith("\x89PNG"));
}

void TestUiWorkspace::gpuPickerListsCustomProfiles() {
    QVERIFY(m_session->open(m_dir->filePath(QStringLiteral("w.sqlite"))));
    MainWindow* window = makeWindow();
    window->document()->reset(threeBSpec("h100-sxm"));
    QVERIFY(!window->document()->error());
    QVERIFY(window->document()->views()->plan.memory.fits);

    // Another program (or the profile manager) stores a custom profile; the picker lists it.
    m_session->workspace()->add_profile(h100With40GB());
    m_session->announceProfilesChanged();
    auto* gpu = qobject_cast<GpuEditor*>(window->specForm()->editor(QStringLiteral("cluster.gpu")));
    QVERIFY(gpu);
    QComboBox* combo = gpu->comboBox();
    const int row = combo->findText(QStringLiteral("H100 with 40 GB (custom)"));
    QVERIFY2(row >= 0, "the custom profile is in the GPU picker");
    QCOMPARE(combo->itemData(row, Qt::UserRole + 1).toString(), QStringLiteral("h100-40"));
    // The picker still shows the plan's GPU after the list changed.
    QCOMPARE(combo->currentText(), QStringLiteral("H100 SXM5 80GB"));

    // Picking it re-evaluates the plan on it: 48e9 bytes per GPU, 40e9 - 48e9 = -8e9 headroom.
    combo->setCurrentIndex(row);
    emit combo->activated(row);
    QCOMPARE(window->document()->spec().cluster.gpu, std::string("h100-40"));
    QVERIFY(!window->document()->error());
    const PlanViews& views = *window->document()->views();
    QCOMPARE(views.hardware.id, std::string("h100-40"));
    QCOMPARE(views.plan.memory.capacity_bytes, 40e9);
    QCOMPARE(views.plan.memory.total_bytes, 48e9);
    QCOMPARE(views.plan.memory.headroom_bytes, -8e9);
    QVERIFY(!views.plan.memory.fits);
    // Editing the profile in the workspace re-evaluates the plan that uses it.
    HardwareProfile bigger = h100With40GB();
    bigger.memory_bytes = 64e9;
    m_session->workspace()->update_profile(bigger);
    m_session->announceProfilesChanged();
    QCOMPARE(window->document()->views()->plan.memory.headroom_bytes, 16e9);
    QCOMPARE(combo->currentText(), QStringLiteral("H100 with 40 GB (custom)"));
}

void TestUiWorkspace::planOnACustomGpuWaitsForTheWorkspace() {
    const QString path = m_dir->filePath(QStringLiteral("w.sqlite"));
    {
        Workspace ws = Workspace::open(path.toStdString());
        ws.add_profile(h100With40GB());
    }
    // As at start: the window (and its autosaved plan) exists before the workspace is open.
    MainWindow* window = makeWindow();
    window->document()->reset(threeBSpec("h100-40"));
    QVERIFY(window->document()->error());
    QCOMPARE(window->document()->error()->field, std::string("cluster.gpu"));
    QVERIFY(openWorkspace(m_session.get(), {WorkspaceAction::open, path}, {}));
    QVERIFY(!window->document()->error());
    QCOMPARE(window->document()->views()->hardware.id, std::string("h100-40"));
    QCOMPARE(window->document()->views()->plan.memory.capacity_bytes, 40e9);
}

// A serving spec without a data block (docs/cases/serving, as `tally infer` and `tally plans
// save` take it) is drawn and saved to a file; the workspace takes it too, not "while a field is
// rejected: data.tokens".
void TestUiWorkspace::servingSpecWithoutDataIsSaved() {
    const QString path = m_dir->filePath(QStringLiteral("w.sqlite"));
    QVERIFY(m_session->open(path));
    MainWindow* window = makeWindow();
    SavedPlansPanel* panel = m_panels.plans;
    QString error;
    QVERIFY2(window->document()->open(
                 QStringLiteral(TALLY_SOURCE_DIR "/docs/cases/serving/"
                                                 "trtllm-v0-9-thr-h100-mistral-7b-tp1-bs56-2048-"
                                                 "2048.json"),
                 &error),
             qPrintable(error));
    QVERIFY(window->document()->error().has_value());
    QVERIFY(window->document()->servingViews());
    QVERIFY(panel->saveAsButton()->isEnabled());
    m_names = {QStringLiteral("mistral serving")};
    QVERIFY(panel->saveCurrentAs());
    Workspace other = Workspace::open(path.toStdString());
    const std::vector<StoredPlan> plans = other.list_plans();
    QCOMPARE(plans.size(), std::size_t{1});
    const PlanSpec stored = plan_spec_from_text(plans[0].spec_json);
    QCOMPARE(stored.inference.batch, std::int64_t{56});
    QCOMPARE(stored.data.tokens, 0.0);
    // A serving field refused as well: nothing to save.
    PlanSpec bad = window->document()->spec();
    bad.inference.batch = 0;
    window->document()->edit(bad, QStringLiteral("batch"));
    QVERIFY(!window->document()->servingViews());
    QVERIFY(!panel->saveAsButton()->isEnabled());
    QVERIFY(!panel->saveCurrentAs());
}

void TestUiWorkspace::savedPlansRoundTrip() {
    const QString path = m_dir->filePath(QStringLiteral("w.sqlite"));
    QVERIFY(m_session->open(path));
    MainWindow* window = makeWindow();
    SavedPlansPanel* panel = m_panels.plans;
    window->document()->reset(threeBSpec("h100-sxm"));
    const PlanSpec first = window->document()->spec();

    // Save as: what another connection lists (as `tally plans list` would).
    m_names = {QStringLiteral("three B")};
    QTest::mouseClick(panel->saveAsButton(), Qt::LeftButton);
    {
        Workspace other = Workspace::open(path.toStdString());
        const std::vector<StoredPlan> plans = other.list_plans();
        QCOMPARE(plans.size(), std::size_t{1});
        QCOMPARE(plans[0].name, std::string("three B"));
        // One name: the plan saved carries it, and the plan in the form takes it.
        PlanSpec named = first;
        named.name = "three B";
        QCOMPARE(nlohmann::json::parse(plans[0].spec_json), to_json(named));
    }
    QCOMPARE(window->document()->spec().name, std::string("three B"));
    PlanSpec firstNamed = first;
    firstNamed.name = "three B";
    QCOMPARE(panel->model()->rowCount(), 1);
    const QModelIndex row0 = panel->model()->index(0, SavedPlansModel::GpuColumn);
    QCOMPARE(row0.data().toString(), QStringLiteral("h100-sxm"));
    QCOMPARE(panel->model()->index(0, SavedPlansModel::ModelColumn).data().toString(),
             QStringLiteral("3B parameters"));

    // A plan saved elsewhere (`tally plans save`) shows when the panel is shown again.
    PlanSpec seventy = default_plan_spec();
    seventy.cluster.gpus = 2048;
    {
        Workspace other = Workspace::open(path.toStdString());
        other.save_plan("seventy B from the CLI", seventy);
    }
    window->showPanel(QStringLiteral("memory"));
    window->show();
    window->showPanel(QStringLiteral("plans"));
    QTRY_COMPARE(panel->model()->rowCount(), 2);

    // Open it: the document takes it as one undoable edit.
    const int cliRow = panel->model()->rowOfName(QStringLiteral("seventy B from the CLI"));
    QVERIFY(cliRow >= 0);
    panel->selectPlan(panel->model()->index(cliRow, 0).data(SavedPlansModel::IdRole).toLongLong());
    const int steps = window->document()->undoStack()->count();
    // The window has a file open, which holds the plan before: Save must not write the saved
    // plan over it.
    QString error;
    const QString file = m_dir->filePath(QStringLiteral("three-b.json"));
    QVERIFY2(window->document()->save(file, &error), qPrintable(error));
    QCOMPARE(window->document()->filePath(), file);
    QVERIFY(panel->openSelected());
    QVERIFY(window->document()->filePath().isEmpty());
    // It comes under its saved name.
    PlanSpec seventyNamed = seventy;
    seventyNamed.name = "seventy B from the CLI";
    QCOMPARE(to_json(window->document()->spec()), to_json(seventyNamed));
    QCOMPARE(window->document()->undoStack()->count(), steps + 1);
    window->document()->undoStack()->undo();
    QCOMPARE(to_json(window->document()->spec()), to_json(firstNamed));
    window->document()->undoStack()->redo();

    // Replace the one saved here with the plan now in the form.
    panel->selectPlan(panel->model()
                          ->index(panel->model()->rowOfName(QStringLiteral("three B")), 0)
                          .data(SavedPlansModel::IdRole)
                          .toLongLong());
    QVERIFY(panel->replaceSelected());
    QCOMPARE(nlohmann::json::parse(
                 Workspace::open(path.toStdString()).find_plan(std::string("three B"))->spec_json),
             to_json(seventyNamed));

    // Rename, then delete; each seen by another connection.
    m_names = {QStringLiteral("renamed")};
    QVERIFY(panel->renameSelected());
    QVERIFY(Workspace::open(path.toStdString()).find_plan(std::string("renamed")));
    QVERIFY(!Workspace::open(path.toStdString()).find_plan(std::string("three B")));
    QCOMPARE(panel->model()
                 ->index(panel->model()->rowOfId(panel->selectedId()), SavedPlansModel::NameColumn)
                 .data()
                 .toString(),
             QStringLiteral("renamed"));
    m_confirm = false;
    QVERIFY(!panel->deleteSelected());
    QVERIFY(Workspace::open(path.toStdString()).find_plan(std::string("renamed")));
    m_confirm = true;
    QVERIFY(panel->deleteSelected());
    QVERIFY(!Workspace::open(path.toStdString()).find_plan(std::string("renamed")));
    QCOMPARE(panel->model()->rowCount(), 1);
}

// Two saved plans selected (Ctrl+click) open side by side: one column a plan, the lines of
// tally plans compare. The seed plan at 1024 and at 2048 H100 at MFU 0.5: 143.93 days and half
// that, 71.96 (6 x 70e9 x 15e12 / (989.5e12 x 0.5 x 2048 x 86400)). One plan selected compares
// nothing; the single-plan actions need exactly one.
void TestUiWorkspace::savedPlansSideBySide() {
    const QString path = m_dir->filePath(QStringLiteral("compare.sqlite"));
    QVERIFY(m_session->open(path));
    MainWindow* window = makeWindow();
    SavedPlansPanel* panel = m_panels.plans;
    PlanSpec twice = default_plan_spec();
    twice.cluster.gpus = 2048;
    {
        Workspace ws = Workspace::open(path.toStdString());
        ws.save_plan("seed", default_plan_spec());
        ws.save_plan("twice the GPUs", twice);
    }
    window->show();
    window->showPanel(QStringLiteral("plans"));
    QTRY_COMPARE(panel->model()->rowCount(), 2);
    panel->table()->selectRow(0);
    QVERIFY(!panel->compareButton()->isEnabled());
    QVERIFY(panel->openButton()->isEnabled());
    panel->table()->selectAll();
    QVERIFY(panel->compareButton()->isEnabled());
    QVERIFY(!panel->openButton()->isEnabled());
    QVERIFY(!panel->deleteButton()->isEnabled());
    QDialog* dialog = panel->compareSelected();
    QVERIFY(dialog);
    auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("planComparisonTable"));
    QVERIFY(table);
    QCOMPARE(table->columnCount(), 2);
    int daysRow = -1;
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->verticalHeaderItem(r)->text() == QStringLiteral("Training time")) {
            daysRow = r;
        }
    }
    QVERIFY(daysRow >= 0);
    const int seed = table->horizontalHeaderItem(0)->text() == QStringLiteral("seed") ? 0 : 1;
    QVERIFY2(table->item(daysRow, seed)->text().startsWith(QStringLiteral("143.9 days")),
             qPrintable(table->item(daysRow, seed)->text()));
    QVERIFY2(table->item(daysRow, 1 - seed)->text().startsWith(QStringLiteral("71.96 days")),
             qPrintable(table->item(daysRow, 1 - seed)->text()));
    // Copied with headers, the comparison pastes into a spreadsheet as it reads: the plans' names
    // over their columns, each figure's name before its row, one cell a figure.
    table->selectAll();
    auto* copyWithHeaders = table->findChild<QAction*>(QStringLiteral("tableCopyWithHeaders"));
    QVERIFY(copyWithHeaders);
    copyWithHeaders->trigger();
    const QStringList lines = QApplication::clipboard()->text().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), table->rowCount() + 2);  // the names' line, the rows, the last newline
    QCOMPARE(lines.first(), QStringLiteral("\t%1\t%2")
                                .arg(table->horizontalHeaderItem(0)->text(),
                                     table->horizontalHeaderItem(1)->text()));
    const QStringList days = lines[daysRow + 1].split(QLatin1Char('\t'));
    QCOMPARE(days.size(), 3);
    QCOMPARE(days[0], QStringLiteral("Training time"));
    QVERIFY2(days[1 + seed].startsWith(QStringLiteral("143.9 days")), qPrintable(days[1 + seed]));
    dialog->close();
    // In a panel Ctrl+C copies every selected cell, not just the current one (QTableView's own).
    panel->table()->selectRow(0);
    panel->table()->setFocus();
    QTest::keySequence(panel->table(), QKeySequence::Copy);
    const QStringList cells = QApplication::clipboard()->text().trimmed().split(QLatin1Char('\t'));
    QCOMPARE(cells.size(), panel->model()->columnCount());
    QCOMPARE(cells[0], panel->model()->index(0, 0).data().toString());
}

void TestUiWorkspace::savedPlanNamesAreChecked() {
    const QString path = m_dir->filePath(QStringLiteral("w.sqlite"));
    QVERIFY(m_session->open(path));
    makeWindow();
    SavedPlansPanel* panel = m_panels.plans;
    m_names = {QStringLiteral("a")};
    QVERIFY(panel->saveCurrentAs());
    // A taken name, then an all-digit one, then a free one: asked again each time.
    m_names = {QStringLiteral("a"), QStringLiteral("42"), QStringLiteral("b")};
    QVERIFY(panel->saveCurrentAs());
    QVERIFY(m_names.isEmpty());
    QCOMPARE(Workspace::open(path.toStdString()).list_plans().size(), std::size_t{2});
    // Cancelling (an empty answer) saves nothing.
    m_names = {QStringLiteral("a")};
    QVERIFY(!panel->saveCurrentAs());
    QCOMPARE(Workspace::open(path.toStdString()).list_plans().size(), std::size_t{2});
    // An emptied box, accepted, is no cancel: the workspace refuses the empty name and the
    // question comes back, and the next name is saved.
    m_names = {QStringLiteral(""), QStringLiteral("c")};
    QVERIFY(panel->saveCurrentAs());
    QVERIFY(m_names.isEmpty());
    QCOMPARE(Workspace::open(path.toStdString()).list_plans().size(), std::size_t{3});
    // Spaces around a typed name are not kept: "a " is the taken "a", asked again; " d " is "d".
    m_names = {QStringLiteral("a "), QStringLiteral(" d ")};
    QVERIFY(panel->saveCurrentAs());
    QVERIFY(m_names.isEmpty());
    QVERIFY(Workspace::open(path.toStdString()).find_plan("d").has_value());
}

// Another window (or `tally plans rm`) removes the selected plan: Replace, Rename and Delete say
// so by its name, not as "plan: got \"1\"", store nothing, and the list is read again.
void TestUiWorkspace::planRemovedElsewhereIsSaidSo() {
    const QString path = m_dir->filePath(QStringLiteral("w.sqlite"));
    QVERIFY(m_session->open(path));
    makeWindow();
    SavedPlansPanel* panel = m_panels.plans;
    m_names = {QStringLiteral("p1")};
    QVERIFY(panel->saveCurrentAs());
    const std::int64_t id = panel->selectedId();
    QVERIFY(id != 0);
    Workspace::open(path.toStdString()).remove_plan(id);
    QVERIFY(!panel->replaceSelected());
    QVERIFY2(panel->message().contains(QStringLiteral("\"p1\" is no longer in the workspace")),
             qPrintable(panel->message()));
    QVERIFY(!panel->message().contains(QStringLiteral("plan: got")));
    QVERIFY(Workspace::open(path.toStdString()).list_plans().empty());
    QTRY_COMPARE(panel->model()->rowCount(), 0);
}

// Another program replaces the listed plan (`tally plans save --replace`: same id, name and
// creation time) after the list was read: Replace refuses, saying so, and the other program's
// plan stays; the list is read again.
void TestUiWorkspace::planReplacedElsewhereIsNotOverwritten() {
    const QString path = m_dir->filePath(QStringLiteral("w.sqlite"));
    QVERIFY(m_session->open(path));
    makeWindow();
    SavedPlansPanel* panel = m_panels.plans;
    m_names = {QStringLiteral("shared")};
    QVERIFY(panel->saveCurrentAs());
    const std::int64_t id = panel->selectedId();
    PlanSpec theirs = default_plan_spec();
    theirs.cluster.gpus = 8;
    Workspace::open(path.toStdString()).update_plan(id, theirs);
    QVERIFY(!panel->replaceSelected());
    QVERIFY2(panel->message().contains(QStringLiteral("replaced it since the list was read")),
             qPrintable(panel->message()));
    QCOMPARE(plan_spec_from_text(Workspace::open(path.toStdString()).find_plan(id)->spec_json)
                 .cluster.gpus,
             std::int64_t{8});
}

// Another program deletes the listed plan and saves another, which gets its id (SQLite gives a
// new row the largest id + 1): Replace, Open, Rename and Delete on the stale row refuse, by the
// listed plan's name, and the plan now under that id is left as it was.
void TestUiWorkspace::planIdGivenToAnotherIsNotTouched() {
    const QString path = m_dir->filePath(QStringLiteral("w.sqlite"));
    QVERIFY(m_session->open(path));
    MainWindow* window = makeWindow();
    SavedPlansPanel* panel = m_panels.plans;
    m_names = {QStringLiteral("listed")};
    QVERIFY(panel->saveCurrentAs());
    const std::int64_t id = panel->selectedId();
    PlanSpec precious = default_plan_spec();
    precious.cluster.gpus = 8;
    // Outside the window: the plan under `id` removed and `name` saved, which gets `id` again.
    auto giveIdTo = [&](const char* name) {
        Workspace other = Workspace::open(path.toStdString());
        other.remove_plan(id);
        QCOMPARE(other.save_plan(name, precious), id);
    };
    auto stillPrecious = [&](const char* name) {
        const auto stored = Workspace::open(path.toStdString()).find_plan(id);
        QVERIFY(stored.has_value());
        QCOMPARE(stored->name, std::string(name));
        QCOMPARE(plan_spec_from_text(stored->spec_json).cluster.gpus, std::int64_t{8});
    };
    giveIdTo("precious 1");
    QCOMPARE(panel->selectedId(), id);  // the row still shows "listed"
    QVERIFY(!panel->replaceSelected());
    QVERIFY2(panel->message().contains(QStringLiteral("\"listed\" is no longer in the workspace")),
             qPrintable(panel->message()));
    stillPrecious("precious 1");
    // The list is read again and shows "precious 1"; it too goes, and "precious 2" takes the id.
    QTRY_COMPARE(panel->selectedPlan().name, std::string("precious 1"));
    giveIdTo("precious 2");
    QVERIFY(!panel->deleteSelected());
    stillPrecious("precious 2");
    QTRY_COMPARE(panel->selectedPlan().name, std::string("precious 2"));
    giveIdTo("precious 3");
    const std::string before = window->document()->spec().name;
    QVERIFY(!panel->openSelected());
    QCOMPARE(window->document()->spec().name, before);
    stillPrecious("precious 3");
}

void TestUiWorkspace::rejectedPlanIsNotSaved() {
    QVERIFY(m_session->open(m_dir->filePath(QStringLiteral("w.sqlite"))));
    MainWindow* window = makeWindow();
    PlanSpec bad = default_plan_spec();
    bad.training.tp = 0;  // tensor parallelism over no GPUs
    window->document()->edit(bad, QStringLiteral("bad"));
    QVERIFY(window->document()->error());
    QVERIFY(!m_panels.plans->saveAsButton()->isEnabled());
    m_names = {QStringLiteral("bad plan")};
    QVERIFY(!m_panels.plans->saveCurrentAs());
    QVERIFY(m_panels.plans->message().contains(QStringLiteral("training.tp")));
    QVERIFY(m_session->workspace()->list_plans().empty());
}

void TestUiWorkspace::modelPassesTheTester() {
    SavedPlansModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    StoredPlan good;
    good.id = 1;
    good.name = "good";
    good.spec_json = to_json(default_plan_spec()).dump();
    good.created_at = "2025-01-31T12:00:00Z";
    good.updated_at = "2025-02-01T08:30:00Z";
    StoredPlan broken = good;
    broken.id = 2;
    broken.name = "edited by hand";
    broken.spec_json = "{\"model\": 5}";
    model.setPlans({good, broken});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(1, SavedPlansModel::ModelColumn).data().toString(),
             QStringLiteral("(does not read)"));
    QVERIFY(!model.index(1, 0).data(Qt::ToolTipRole).toString().isEmpty());
    QCOMPARE(model.index(0, SavedPlansModel::UpdatedColumn).data().toString(),
             QDateTime::fromString(QStringLiteral("2025-02-01T08:30:00Z"), Qt::ISODate)
                 .toLocalTime()
                 .toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    model.setPlans({});
    QCOMPARE(model.rowCount(), 0);
}

// The profiles the user compared come back in the next window (the next start of the app).
void TestUiWorkspace::compareChoiceIsRemembered() {
    makeWindow();
    m_panels.compare->profilesModel()->setCheckedIds(
        {QStringLiteral("h100-sxm"), QStringLiteral("h200"), QStringLiteral("b200")});
    m_window.reset();
    makeWindow();
    QCOMPARE(
        m_panels.compare->profilesModel()->checkedIds(),
        (QStringList{QStringLiteral("h100-sxm"), QStringLiteral("h200"), QStringLiteral("b200")}));
}

QTEST_MAIN(TestUiWorkspace)
#include "tst_ui_workspace.moc"
