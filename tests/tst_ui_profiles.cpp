// The profile manager: duplicate -> edit -> delete through the panel, each step read back through a
// second connection to the same file (as `tally profiles` would see it); the editor marks what the
// planner rejects; import and export use the command line's profile files.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <sqlite3.h>

#include "planner/hardware/hardware.h"
#include "planner/hardware/user_profiles.h"
#include "planner/io/spec_json.h"
#include "planner/store/sqlite_db.h"
#include "planner/store/workspace.h"
#include "tests/cli_test_util.h"
#include "ui/common/shrinkable_combo_box.h"
#include "ui/i18n/translations.h"
#include "ui/session/workspace_session.h"
#include "ui/workspace/profile_editor_dialog.h"
#include "ui/workspace/profile_files.h"
#include "ui/workspace/profile_manager_panel.h"
#include "ui/workspace/profile_table_model.h"
#include "ui/workspace/workspace_banner.h"

using namespace tally;
using namespace tally::ui;

namespace {

const QString kMemory = QStringLiteral("profile.memory_bytes");
const QString kBf16 = QStringLiteral("profile.peak_flops_per_s.bf16");

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

}  // namespace

class TestUiProfiles : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void listsBuiltinsReadOnly();
    void gpuListOpensAsWideAsItsNames();
    void duplicateEditDeleteRoundTrip();
    void editorMarksWhatThePlannerRejects_data();
    void editorMarksWhatThePlannerRejects();
    void editorMarksClashesAtSave();
    void ctrlEnterSavesFromAnyField();
    void detailsFollowALanguageSwitch();
    void exportImportRoundTrip();
    void importClashOpensTheEditor();
    void importRefusesWhatIsNotAProfile();
    void withoutAWorkspace();
    void modelPassesTheTester();
    void storedProfileReplacesBuiltinAsTheCliLists();
    void profileAddedElsewhereIsListed();

private:
    ProfileEditorDialog* duplicate(const QString& fromId);
    Workspace second() const { return Workspace::open(m_path.toStdString()); }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    std::unique_ptr<WorkspaceSession> m_session;
    std::unique_ptr<ProfileManagerPanel> m_panel;
    bool m_confirm = true;
    int m_confirmations = 0;
    QString m_question;  // the last confirmation asked
    QString m_nextPath;
};

void TestUiProfiles::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(QStringLiteral("w.sqlite"));
    m_session = std::make_unique<WorkspaceSession>();
    QVERIFY(m_session->open(m_path));
    m_panel = std::make_unique<ProfileManagerPanel>(m_session.get());
    UserPrompts prompts;
    prompts.confirm = [this](QWidget*, const QString&, const QString& question) {
        ++m_confirmations;
        m_question = question;
        return m_confirm;
    };
    prompts.choosePath = [this](QWidget*, const QString&, const QString&, bool, const QString&) {
        return m_nextPath;
    };
    prompts.askText = [](QWidget*, const QString&, const QString&, const QString&) {
        return QString();
    };
    prompts.warn = [](QWidget*, const QString&) {};
    m_panel->setPrompts(prompts);
    m_panel->resize(1000, 700);
    m_confirm = true;
    m_confirmations = 0;
}

void TestUiProfiles::cleanup() {
    m_panel.reset();
    m_session.reset();
    m_dir.reset();
}

ProfileEditorDialog* TestUiProfiles::duplicate(const QString& fromId) {
    m_panel->selectProfile(fromId);
    if (m_panel->selectedId() != fromId) {
        return nullptr;
    }
    return m_panel->duplicateSelected();
}

void TestUiProfiles::listsBuiltinsReadOnly() {
    const ProfileTableModel* m = m_panel->model();
    QCOMPARE(m->rowCount(), static_cast<int>(builtin_hardware().size()));
    m_panel->selectProfile(QStringLiteral("h100-sxm"));
    const int row = m->rowOf(QStringLiteral("h100-sxm"));
    QCOMPARE(m->index(row, ProfileTableModel::NameColumn).data().toString(),
             QStringLiteral("H100 SXM5 80GB"));
    QCOMPARE(m->index(row, ProfileTableModel::KindColumn).data().toString(),
             QStringLiteral("built-in"));
    QCOMPARE(m->index(row, ProfileTableModel::MemoryColumn).data().toString(),
             QStringLiteral("80.00 GB"));
    QCOMPARE(m->index(row, ProfileTableModel::BandwidthColumn).data().toString(),
             QStringLiteral("3350 GB/s"));
    QCOMPARE(
        m->index(row, ProfileTableModel::PeakColumn).data(ProfileTableModel::ValueRole).toDouble(),
        989.5e12);
    QVERIFY(!m->index(row, 0).data(ProfileTableModel::EditableRole).toBool());
    QVERIFY(m_panel->duplicateButton()->isEnabled());
    QVERIFY(!m_panel->editButton()->isEnabled());
    QVERIFY(!m_panel->deleteButton()->isEnabled());
    QVERIFY(m_panel->exportButton()->isEnabled());
    QVERIFY(!m_panel->editSelected());
    QVERIFY(!m_panel->deleteSelected());
    QCOMPARE(m_confirmations, 0);
}

void TestUiProfiles::duplicateEditDeleteRoundTrip() {
    ProfileEditorDialog* dialog = duplicate(QStringLiteral("h100-sxm"));
    QVERIFY(dialog);
    QCOMPARE(dialog->mode(), ProfileEditorDialog::Mode::add);
    // The copy starts as the original under a free id and name, with its figures.
    QCOMPARE(dialog->field(QStringLiteral("profile.id"))->text(), QStringLiteral("h100-sxm-copy"));
    QCOMPARE(dialog->field(QStringLiteral("profile.name"))->text(),
             QStringLiteral("H100 SXM5 80GB (copy)"));
    QCOMPARE(dialog->field(kMemory)->text(), QStringLiteral("80"));
    QCOMPARE(dialog->field(QStringLiteral("profile.bandwidth_bytes_per_s"))->text(),
             QStringLiteral("3350"));
    QCOMPARE(dialog->field(kBf16)->text(), QStringLiteral("989.5"));
    QCOMPARE(dialog->field(QStringLiteral("profile.tdp_w"))->text(), QStringLiteral("700"));
    QCOMPARE(dialog->field(QStringLiteral("profile.price_per_gpu_hour"))->text(), QString());

    // Enter after typing the id moves on to the next field; it does not save a half-filled
    // profile.
    QPointer<ProfileEditorDialog> open(dialog);
    dialog->show();
    QLineEdit* idField = dialog->field(QStringLiteral("profile.id"));
    idField->setFocus();
    QTest::keyClick(idField, Qt::Key_Return);
    QVERIFY(!open.isNull() && open->isVisible());
    QVERIFY(!idField->hasFocus() || !dialog->isActiveWindow());
    QVERIFY(!second().find_profile("h100-sxm-copy"));

    // Tab goes as the dialog reads: Name, then Memory (not the notes, made before the figures,
    // whose datasheet text a "40" typed there would replace).
    QLineEdit* nameField = dialog->field(QStringLiteral("profile.name"));
    QCOMPARE(nameField->nextInFocusChain(), static_cast<QWidget*>(dialog->field(kMemory)));
    QCOMPARE(idField->nextInFocusChain(), static_cast<QWidget*>(nameField));

    dialog->field(QStringLiteral("profile.id"))->setText(QStringLiteral("my-h100"));
    dialog->field(QStringLiteral("profile.name"))->setText(QStringLiteral("My H100"));
    dialog->field(kMemory)->setText(QStringLiteral("40"));
    dialog->field(kBf16)->setText(QStringLiteral("800"));
    dialog->field(QStringLiteral("profile.peak_flops_per_s.fp8"))->clear();  // none
    dialog->notesEdit()->setPlainText(QStringLiteral("power-capped"));
    dialog->field(QStringLiteral("profile.price_per_gpu_hour"))->setText(QStringLiteral("3.25"));
    QVERIFY(dialog->saveButton()->isEnabled());
    QPointer<ProfileEditorDialog> guard(dialog);
    QTest::mouseClick(dialog->saveButton(), Qt::LeftButton);
    QVERIFY2(guard.isNull() || !guard->isVisible(),
             qPrintable(guard ? guard->message() : QString()));
    QCOMPARE(m_panel->selectedId(), QStringLiteral("my-h100"));

    {
        // What another program sees: GB typed x 1e9 bytes, TFLOP/s x 1e12.
        Workspace other = second();
        const std::optional<HardwareProfile> p = other.find_profile("my-h100");
        QVERIFY(p);
        QCOMPARE(p->kind, ProfileKind::custom);
        QCOMPARE(p->name, std::string("My H100"));
        QCOMPARE(p->memory_bytes, 40e9);
        QCOMPARE(p->bandwidth_bytes_per_s, 3.35e12);
        QCOMPARE(p->peak(ComputeType::bf16), 800e12);
        QCOMPARE(p->peak(ComputeType::fp8), 0.0);
        QCOMPARE(p->peak(ComputeType::fp32), 67e12);  // kept from the H100
        QCOMPARE(p->notes, std::string("power-capped"));
        QVERIFY(p->price_per_gpu_hour.has_value());
        QCOMPARE(*p->price_per_gpu_hour, 3.25);
    }
    const int row = m_panel->model()->rowOf(QStringLiteral("my-h100"));
    QVERIFY(row >= 0);
    QCOMPARE(m_panel->model()->index(row, ProfileTableModel::KindColumn).data().toString(),
             QStringLiteral("custom"));

    // Edit: the id is fixed, the memory changes.
    QVERIFY(m_panel->editButton()->isEnabled());
    ProfileEditorDialog* edit = m_panel->editSelected();
    QVERIFY(edit);
    QCOMPARE(edit->mode(), ProfileEditorDialog::Mode::edit);
    QVERIFY(edit->field(QStringLiteral("profile.id"))->isReadOnly());
    QCOMPARE(edit->field(QStringLiteral("profile.price_per_gpu_hour"))->text(),
             QStringLiteral("3.25"));
    edit->field(kMemory)->setText(QStringLiteral("96"));
    edit->field(QStringLiteral("profile.price_per_gpu_hour"))->clear();  // not known any more
    QVERIFY(edit->save());
    QVERIFY(!second().find_profile("my-h100")->price_per_gpu_hour.has_value());
    QCOMPARE(second().find_profile("my-h100")->memory_bytes, 96e9);
    QCOMPARE(second().find_profile("my-h100")->peak(ComputeType::bf16), 800e12);

    // Another program edits it while the list shows it: Edit opens on what is stored now.
    {
        Workspace other = second();
        HardwareProfile p = *other.find_profile("my-h100");
        p.notes = "edited by tally profiles edit";
        other.update_profile(p);
    }
    ProfileEditorDialog* fresh = m_panel->editSelected();
    QVERIFY(fresh);
    auto* notes = fresh->findChild<QPlainTextEdit*>();
    QVERIFY(notes);
    QCOMPARE(notes->toPlainText(), QStringLiteral("edited by tally profiles edit"));
    // ... and again while the editor is open: its save is refused, and the other edit stays.
    {
        Workspace other = second();
        HardwareProfile p = *other.find_profile("my-h100");
        p.notes = "edited again meanwhile";
        other.update_profile(p);
    }
    fresh->field(kMemory)->setText(QStringLiteral("80"));
    QVERIFY(!fresh->save());
    QCOMPARE(second().find_profile("my-h100")->notes, std::string("edited again meanwhile"));
    QCOMPARE(second().find_profile("my-h100")->memory_bytes, 96e9);
    fresh->close();

    // Delete: asked first, naming the saved plan that runs on it; "no" keeps it, "yes" removes
    // it.
    {
        PlanSpec onIt = default_plan_spec();
        onIt.cluster.gpu = "my-h100";
        second().save_plan("runs on mine", onIt);
    }
    m_panel->selectProfile(QStringLiteral("my-h100"));
    m_confirm = false;
    QVERIFY(!m_panel->deleteSelected());
    QCOMPARE(m_confirmations, 1);
    QVERIFY2(m_question.contains(QStringLiteral("\"runs on mine\"")), qPrintable(m_question));
    QVERIFY(second().find_profile("my-h100").has_value());
    m_confirm = true;
    QVERIFY(m_panel->deleteSelected());
    QCOMPARE(m_confirmations, 2);
    QVERIFY(!second().find_profile("my-h100").has_value());
    QCOMPARE(m_panel->model()->rowOf(QStringLiteral("my-h100")), -1);
}

void TestUiProfiles::editorMarksWhatThePlannerRejects_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("said");  // part of the mark's message

    // A figure out of range is said in the box's unit (GB; the profile's 1e6 to 1e16 bytes).
    QTest::newRow("memory zero") << kMemory << QStringLiteral("0")
                                 << QStringLiteral("got 0 GB; from 0.001 to 10M GB");
    // Said in the box's unit, as a value too small is: the profile's bounds, 1e6 B = 0.001 GB to
    // 1e16 B = 10M GB (planner/hardware: kMinMemoryBytes, kMaxMemoryBytes).
    QTest::newRow("memory negative")
        << kMemory << QStringLiteral("-80") << QStringLiteral("got -80 GB; from 0.001 to 10M GB");
    QTest::newRow("memory not a number")
        << kMemory << QStringLiteral("eighty") << QStringLiteral("not a number");
    QTest::newRow("memory empty") << kMemory << QString() << QStringLiteral("not a number");
    QTest::newRow("bandwidth zero")
        << QStringLiteral("profile.bandwidth_bytes_per_s") << QStringLiteral("0")
        << QStringLiteral("got 0 GB/s; from 0.001 to 10M GB/s");
    QTest::newRow("peak negative")
        << kBf16 << QStringLiteral("-1") << QStringLiteral("got -1 TFLOP/s; from 1e-06 to 1B");
    QTest::newRow("tdp negative") << QStringLiteral("profile.tdp_w") << QStringLiteral("-5")
                                  << QStringLiteral("a number >= 0");
    QTest::newRow("tdp not a number") << QStringLiteral("profile.tdp_w") << QStringLiteral("7OO")
                                      << QStringLiteral("not a number");
    QTest::newRow("id with a space") << QStringLiteral("profile.id") << QStringLiteral("my h100")
                                     << QStringLiteral("letters, digits");
    QTest::newRow("id empty") << QStringLiteral("profile.id") << QString()
                              << QStringLiteral("letters, digits");
    QTest::newRow("name blank") << QStringLiteral("profile.name") << QStringLiteral("   ")
                                << QStringLiteral("a non-empty name");
}

void TestUiProfiles::editorMarksWhatThePlannerRejects() {
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(QString, said);
    ProfileEditorDialog* dialog = duplicate(QStringLiteral("h100-sxm"));
    QVERIFY(dialog);
    QVERIFY(dialog->markText(path).isEmpty());
    dialog->field(path)->setText(text);
    const QString mark = dialog->markText(path);
    QVERIFY2(mark.contains(path), qPrintable(mark));  // the planner's name of the field
    QVERIFY2(mark.contains(said), qPrintable(mark));
    QCOMPARE(dialog->field(path)->toolTip(), mark);
    QVERIFY(dialog->field(path)->styleSheet().contains(QStringLiteral("#c62828")));
    QVERIFY(dialog->message().contains(mark));
    QVERIFY(!dialog->saveButton()->isEnabled());
    QVERIFY(!dialog->save());
    // Nothing was stored.
    QCOMPARE(second().stored_profiles().size(), std::size_t{0});
    // Putting it right clears the mark.
    dialog->field(path)->setText(path == QStringLiteral("profile.id")     ? QStringLiteral("ok-id")
                                 : path == QStringLiteral("profile.name") ? QStringLiteral("OK")
                                                                          : QStringLiteral("10"));
    QVERIFY(dialog->markText(path).isEmpty());
    QVERIFY(dialog->field(path)->styleSheet().isEmpty());
    QVERIFY(dialog->saveButton()->isEnabled());
}

void TestUiProfiles::editorMarksClashesAtSave() {
    ProfileEditorDialog* dialog = duplicate(QStringLiteral("a100-80gb"));
    QVERIFY(dialog);
    // No peak at all: every peak box is marked, and the message says it once, in the boxes'
    // terms (not the profile's JSON, eight times over).
    for (const char* t : {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8"}) {
        dialog->field(QStringLiteral("profile.peak_flops_per_s.") + QLatin1String(t))->clear();
    }
    QVERIFY(dialog->markText(kBf16).contains(QStringLiteral("at least one dtype")));
    QVERIFY(dialog->markText(QStringLiteral("profile.peak_flops_per_s.fp64"))
                .contains(QStringLiteral("at least one dtype")));
    QCOMPARE(dialog->message().count(QStringLiteral("at least one dtype")), 1);
    QVERIFY2(!dialog->message().contains(u'{'), qPrintable(dialog->message()));
    dialog->field(kBf16)->setText(QStringLiteral("312"));
    QVERIFY(dialog->markText(kBf16).isEmpty());

    // The name of a built-in profile: only the workspace knows, at save.
    dialog->field(QStringLiteral("profile.name"))->setText(QStringLiteral("H100 SXM5 80GB"));
    QVERIFY(dialog->saveButton()->isEnabled());
    QVERIFY(!dialog->save());
    QVERIFY2(dialog->markText(QStringLiteral("profile.name")).contains(QStringLiteral("h100-sxm")),
             qPrintable(dialog->markText(QStringLiteral("profile.name"))));
    QVERIFY(dialog->isVisible());  // still open, to put it right
    // The id of a built-in profile.
    dialog->field(QStringLiteral("profile.name"))->setText(QStringLiteral("Rented A100"));
    dialog->field(QStringLiteral("profile.id"))->setText(QStringLiteral("h100-sxm"));
    QVERIFY(!dialog->save());
    QVERIFY(dialog->markText(QStringLiteral("profile.id")).contains(QStringLiteral("built-in")));
    dialog->field(QStringLiteral("profile.id"))->setText(QStringLiteral("rented-a100"));
    QVERIFY(dialog->save());
    QCOMPARE(second().find_profile("rented-a100")->peak(ComputeType::bf16), 312e12);
    QCOMPARE(second().find_profile("rented-a100")->peak(ComputeType::fp64), 0.0);
}

// Enter in a field moves on (above); Ctrl+Enter, from the last field as from any other, saves.
void TestUiProfiles::ctrlEnterSavesFromAnyField() {
    ProfileEditorDialog* dialog = duplicate(QStringLiteral("h100-sxm"));
    QVERIFY(dialog);
    dialog->show();
    QVERIFY(QTest::qWaitForWindowActive(dialog));
    dialog->field(QStringLiteral("profile.id"))->setText(QStringLiteral("keyboard-h100"));
    dialog->field(QStringLiteral("profile.name"))->setText(QStringLiteral("Keyboard H100"));
    QLineEdit* price = dialog->field(QStringLiteral("profile.price_per_gpu_hour"));
    price->setFocus();
    price->setText(QStringLiteral("2"));
    QPointer<ProfileEditorDialog> guard(dialog);
    QTest::keyClick(price, Qt::Key_Return, Qt::ControlModifier);
    QVERIFY2(guard.isNull() || !guard->isVisible(),
             qPrintable(guard ? guard->message() : QString()));
    QVERIFY(second().find_profile("keyboard-h100"));
}

void TestUiProfiles::exportImportRoundTrip() {
    HardwareProfile mine = duplicate_profile(*find_builtin_hardware("h200"), "my-h200", "My H200");
    mine.memory_bytes = 120e9;
    mine.notes = "rented, 120 GB usable";
    m_session->workspace()->add_profile(mine);
    m_session->announceProfilesChanged();
    m_panel->selectProfile(QStringLiteral("my-h200"));

    // Export: the file `tally profiles export my-h200` prints (its JSON, two-space indented).
    const QString file = m_dir->filePath(QStringLiteral("my-h200.json"));
    writeFile(file, "an older export that is replaced whole\n");
    m_nextPath = file;
    QTest::mouseClick(m_panel->exportButton(), Qt::LeftButton);
    const HardwareProfile stored = *second().find_profile("my-h200");
    QCOMPARE(fileBytes(file), QByteArray::fromStdString(to_json(stored).dump(2) + "\n"));
    // And what it holds is the profile, figure for figure.
    const nlohmann::json doc = nlohmann::json::parse(fileBytes(file).toStdString());
    QCOMPARE(doc.at("id").get<std::string>(), std::string("my-h200"));
    QCOMPARE(doc.at("kind").get<std::string>(), std::string("custom"));
    QCOMPARE(doc.at("memory_bytes").get<double>(), 120e9);
    QCOMPARE(doc.at("peak_flops_per_s").at("bf16").get<double>(), 989.5e12);

    // Remove it, import the file: the same profile is back, visible to another connection.
    QVERIFY(m_panel->deleteSelected());
    QVERIFY(!second().find_profile("my-h200"));
    QTest::mouseClick(m_panel->importButton(), Qt::LeftButton);
    QVERIFY2(m_panel->message().contains(QStringLiteral("Imported")),
             qPrintable(m_panel->message()));
    const std::optional<HardwareProfile> back = second().find_profile("my-h200");
    QVERIFY(back);
    QCOMPARE(to_json(*back), to_json(stored));
    QCOMPARE(m_panel->selectedId(), QStringLiteral("my-h200"));

    // A built-in exported and imported becomes a custom copy (as `tally profiles import`).
    m_panel->selectProfile(QStringLiteral("l4"));
    const QString l4 = m_dir->filePath(QStringLiteral("l4.json"));
    QVERIFY(m_panel->exportSelected(l4));
    nlohmann::json renamed = nlohmann::json::parse(fileBytes(l4).toStdString());
    QCOMPARE(renamed.at("kind").get<std::string>(), std::string("builtin"));
    renamed["id"] = "colleagues-l4";
    renamed["name"] = "Colleague's L4";
    writeFile(l4, QByteArray::fromStdString(renamed.dump(2)));
    QVERIFY(m_panel->importFile(l4));
    QCOMPARE(second().find_profile("colleagues-l4")->kind, ProfileKind::custom);
    QCOMPARE(second().find_profile("colleagues-l4")->memory_bytes, 24e9);
}

void TestUiProfiles::importClashOpensTheEditor() {
    // A file holding the built-in H100 as it is: its id and name are taken.
    const QString file = m_dir->filePath(QStringLiteral("h100.json"));
    QVERIFY(exportProfileFile(*find_builtin_hardware("h100-sxm"), file, nullptr));
    QVERIFY(!m_panel->importFile(file));
    QVERIFY(m_panel->message().contains(QStringLiteral("another id or name")));
    ProfileEditorDialog* dialog = m_panel->editor();
    QVERIFY(dialog);
    QCOMPARE(dialog->mode(), ProfileEditorDialog::Mode::add);
    QVERIFY2(!dialog->markText(QStringLiteral("profile.id")).isEmpty(),
             qPrintable(dialog->message()));
    dialog->field(QStringLiteral("profile.id"))->setText(QStringLiteral("h100-from-file"));
    dialog->field(QStringLiteral("profile.name"))->setText(QStringLiteral("H100 from a file"));
    QVERIFY(dialog->save());
    const std::optional<HardwareProfile> p = second().find_profile("h100-from-file");
    QVERIFY(p);
    QCOMPARE(p->kind, ProfileKind::custom);
    QCOMPARE(p->memory_bytes, 80e9);
}

void TestUiProfiles::importRefusesWhatIsNotAProfile() {
    const QString notJson = m_dir->filePath(QStringLiteral("notes.json"));
    writeFile(notJson, "my notes\n");
    QVERIFY(!m_panel->importFile(notJson));
    QVERIFY2(m_panel->message().contains(QStringLiteral("not JSON")),
             qPrintable(m_panel->message()));
    const QString noPeaks = m_dir->filePath(QStringLiteral("nopeaks.json"));
    writeFile(noPeaks,
              R"({"id": "x", "name": "X", "memory_bytes": 1e9, "bandwidth_bytes_per_s": 1e9,
                  "peak_flops_per_s": {}})");
    QVERIFY(!m_panel->importFile(noPeaks));
    QVERIFY2(m_panel->message().contains(QStringLiteral("profile.peak_flops_per_s")),
             qPrintable(m_panel->message()));
    QCOMPARE(second().stored_profiles().size(), std::size_t{0});
    QCOMPARE(fileBytes(notJson), QByteArray("my notes\n"));
}

void TestUiProfiles::withoutAWorkspace() {
    m_session->close();
    QVERIFY(m_panel->banner()->label()->text().contains(QStringLiteral("No workspace")));
    QCOMPARE(m_panel->model()->rowCount(), static_cast<int>(builtin_hardware().size()));
    m_panel->selectProfile(QStringLiteral("h100-sxm"));
    QVERIFY(!m_panel->duplicateButton()->isEnabled());
    QVERIFY(!m_panel->importButton()->isEnabled());
    QVERIFY(m_panel->exportButton()->isEnabled());  // built-ins export without a workspace
    QVERIFY(!m_panel->duplicateSelected());
    // The banner opens one (a file chosen through the prompts).
    m_nextPath = m_dir->filePath(QStringLiteral("other.sqlite"));
    QTest::mouseClick(m_panel->banner()->openButton(), Qt::LeftButton);
    QVERIFY(m_session->isOpen());
    QCOMPARE(m_session->path(), m_nextPath);
    QVERIFY(m_panel->banner()->label()->text().contains(QStringLiteral("other.sqlite")));
    QVERIFY(m_panel->importButton()->isEnabled());
}

void TestUiProfiles::modelPassesTheTester() {
    QAbstractItemModelTester tester(m_panel->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_session->workspace()->add_profile(
        duplicate_profile(*find_builtin_hardware("h100-sxm"), "t1", "T1"));
    m_session->announceProfilesChanged();
    m_session->close();
    QVERIFY(m_session->open(m_path));
    ProfileTableModel empty;
    QAbstractItemModelTester emptyTester(&empty,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    empty.setProfiles(builtin_hardware());
    empty.setProfiles({});
}

// The details pane is one HTML text: a language switch writes it again in the new language
// (resources/translations/tally_zh_CN.ts: "<p>Price: none (...)</p>" as "<p>价格：无（...）</p>"),
// and back.
void TestUiProfiles::detailsFollowALanguageSwitch() {
    m_panel->selectProfile(QStringLiteral("h100-sxm"));
    auto* details = m_panel->findChild<QTextBrowser*>(QStringLiteral("profileDetails"));
    QVERIFY(details);
    QVERIFY2(details->toPlainText().contains(QStringLiteral("Price: none")),
             qPrintable(details->toPlainText()));
    Translations language;
    QVERIFY(language.load(QStringLiteral("zh_CN")));
    QTRY_VERIFY2(details->toPlainText().contains(QStringLiteral("价格：无")),
                 qPrintable(details->toPlainText()));
    QVERIFY(language.load(QStringLiteral("en")));
    QTRY_VERIFY2(details->toPlainText().contains(QStringLiteral("Price: none")),
                 qPrintable(details->toPlainText()));
}

QTEST_MAIN(TestUiProfiles)
void TestUiProfiles::storedProfileReplacesBuiltinAsTheCliLists() {
    // A profile saved under an id the catalog gained later ("h200"), written as an older build
    // allowed: the list shows it once, as the stored profile, in the GUI and in the CLI alike.
    m_panel.reset();
    m_session.reset();
    HardwareProfile mine = duplicate_profile(*find_builtin_hardware("h200"), "h200", "My H200");
    mine.memory_bytes = 100e9;
    {
        sqlite::Database db(m_path.toStdString(), SQLITE_OPEN_READWRITE);
        sqlite::Statement s(db,
                            "INSERT INTO profiles (id, name, kind, profile_json, created_at, "
                            "updated_at) VALUES ('h200', 'My H200', 'custom', ?1, 'x', 'x')");
        s.bind(1, to_json(mine).dump());
        s.run();
    }
    m_session = std::make_unique<WorkspaceSession>();
    QVERIFY(m_session->open(m_path));
    m_panel = std::make_unique<ProfileManagerPanel>(m_session.get());
    const std::vector<HardwareProfile>& gui = m_panel->model()->profiles();
    // Every built-in but h200, then the stored h200 with the user's 100 GB.
    QCOMPARE(gui.size(), builtin_hardware().size());
    QCOMPARE(std::count_if(gui.begin(), gui.end(),
                           [](const HardwareProfile& p) { return p.id == "h200"; }),
             1);
    QCOMPARE(gui.back().id, std::string("h200"));
    QCOMPARE(gui.back().memory_bytes, 100e9);
    QCOMPARE(gui.back().kind, ProfileKind::custom);

    const test::Run r = test::run_tally({QStringLiteral("profiles"), QStringLiteral("list"),
                                         QStringLiteral("--json"), QStringLiteral("--db"), m_path});
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const nlohmann::json cli = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(cli.size(), gui.size());
    for (std::size_t i = 0; i < gui.size(); ++i) {
        QCOMPARE(cli[i], to_json(gui[i]));
    }
}

// The form's GPU picker may be narrower than its longest name; its open list is not, so
// "GB300 (Blackwell Ultra in GB300 NVL72, 1400 W)" shows whole, not "GB300 (Blackw…VL72, 1400 W)".
void TestUiProfiles::gpuListOpensAsWideAsItsNames() {
    ShrinkableComboBox combo;
    // As the form's GPU editor sets it up (GpuEditor): a scrolling list, not Fusion's menu.
    combo.setMaxVisibleItems(16);
    combo.setStyleSheet(QStringLiteral("QComboBox { combobox-popup: 0; }"));
    QString longestName;
    for (const HardwareProfile& p : builtin_hardware()) {
        const QString name = QString::fromStdString(p.name);
        combo.addItem(name);
        if (combo.fontMetrics().horizontalAdvance(name) >
            combo.fontMetrics().horizontalAdvance(longestName)) {
            longestName = name;
        }
    }
    combo.resize(160, combo.sizeHint().height());
    combo.show();
    QVERIFY(QTest::qWaitForWindowExposed(&combo));
    combo.showPopup();
    const int longest = combo.view()->fontMetrics().horizontalAdvance(longestName);
    QVERIFY2(combo.view()->viewport()->width() >= longest,
             qPrintable(QStringLiteral("%1: %2 px of %3")
                            .arg(longestName)
                            .arg(combo.view()->viewport()->width())
                            .arg(longest)));
    combo.hidePopup();
}

// A profile stored by another program (`tally profiles add`, `tally calibrate` in a terminal)
// reaches the open panel without any click: the session looks for changes made elsewhere, and
// its own writes are not taken for one.
void TestUiProfiles::profileAddedElsewhereIsListed() {
    QSignalSpy changed(m_session.get(), &WorkspaceSession::profilesChanged);
    m_session->refreshIfChangedElsewhere();
    QCOMPARE(changed.count(), 0);  // nothing written since it opened
    {
        Workspace cli = second();
        cli.add_profile(
            duplicate_profile(*find_builtin_hardware("h100-sxm"), "cli-h100", "H100 from the CLI"));
    }
    QCOMPARE(m_panel->model()->rowOf(QStringLiteral("cli-h100")), -1);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->model()->rowOf(QStringLiteral("cli-h100")) >= 0, 5000);
    QCOMPARE(changed.count(), 1);
    // The session's own write is announced by its writer, not again by the look for changes.
    m_session->workspace()->add_profile(
        duplicate_profile(*find_builtin_hardware("a100-80gb"), "own-a100", "Own A100"));
    m_session->refreshIfChangedElsewhere();
    QCOMPARE(changed.count(), 1);
}

#include "tst_ui_profiles.moc"
