// Calibrating from a measured step in the window: the Time panel's button opens the dialog, the
// dialog previews the fit or marks the field the planner refuses, OK stores the calibrated
// profile in the workspace and moves the plan onto it as one undoable edit. Driven as a user
// drives it (typing, clicking), offscreen. Expected figures are worked out in the comments from
// the plan's own uncalibrated step P: a run measured at 1.25 P is an efficiency of 0.8.
#include <QChartView>
#include <QFile>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <memory>

#include "planner/hardware/hardware.h"
#include "planner/training/plan.h"
#include "tests/test_specs.h"
#include "ui/charts/time_panel.h"
#include "ui/i18n/translations.h"
#include "ui/plan/plan_document.h"
#include "ui/session/workspace_session.h"
#include "ui/window/main_window.h"
#include "ui/workspace/calibration_dialog.h"
#include "ui/workspace/install_workspace_panels.h"
#include "ui/workspace/profile_manager_panel.h"

using namespace tally;
using namespace tally::ui;

namespace {

bool close(double a, double b, double rel = 1e-9) {
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

// Llama 3 8B's shape on 64 H100, tp 2 x pp 4 x dp 8, 512 sequences of 8192 tokens, predicted.
PlanSpec runSpec() {
    PlanSpec s = test::llama3_8b_spec(64, 8192, 512);
    s.name = "8B pilot run";
    s.cluster.gpu = "h100-sxm";
    s.training.tp = 2;
    s.training.pp = 4;
    s.training.zero = 1;
    return s;
}

double predictedStep() {
    return evaluate(runSpec(), *find_builtin_hardware("h100-sxm")).performance.step_s;
}

void typeInto(QLineEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

bool marked(QWidget* w) {
    return w->styleSheet().contains(QStringLiteral("border"));
}

}  // namespace

class TestUiCalibration : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void previewAndMarks();
    void typedStepIsRecordedInEnglish();
    void logFileAndWarmUp();
    void typedLogPathIsReadOnEnter();
    void previewSaysWhatAnExistingIdBecomes();
    void workspaceFileIsNotALog();
    void buttonOpensTheDialogAndOkSwitchesThePlan();
    void withoutWorkspaceNothingIsStored();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<WorkspaceSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    WorkspacePanels m_panels;
};

void TestUiCalibration::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings =
        std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("t.ini")), QSettings::IniFormat);
    m_session = std::make_unique<WorkspaceSession>();
    MainWindow::Options options;
    options.settings = m_settings.get();
    options.restoreLayout = false;
    m_window = std::make_unique<MainWindow>(options);
    m_panels = installWorkspacePanels(m_window.get(), m_session.get());
    m_window->document()->startNew(runSpec());
}

void TestUiCalibration::cleanup() {
    m_window.reset();
    m_session.reset();
    m_settings.reset();
    m_dir.reset();
}

void TestUiCalibration::previewAndMarks() {
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    CalibrationDialog dialog(runSpec(), h100, {});
    QVERIFY(!dialog.okButton()->isEnabled());
    QCOMPARE(dialog.idEdit()->text(), QStringLiteral("h100-sxm-calibrated"));
    typeInto(dialog.stepEdit(), QStringLiteral("fast"));
    QVERIFY(marked(dialog.stepEdit()));
    // Not a number names what is allowed, as a number out of range does.
    QVERIFY2(
        dialog.preview()->text().contains(QStringLiteral("> 0 (at least 1e-9) and at most 1e9")),
        qPrintable(dialog.preview()->text()));
    QVERIFY(!dialog.okButton()->isEnabled());
    typeInto(dialog.stepEdit(), QStringLiteral("-2"));
    QVERIFY(marked(dialog.stepEdit()));
    QVERIFY(dialog.preview()->text().contains(QStringLiteral("Measured step")));
    QVERIFY(!dialog.calibrated());
    // 1.25 P: efficiency P / 1.25 P = 0.8.
    const double p = predictedStep();
    typeInto(dialog.stepEdit(), QString::number(1.25 * p, 'g', 17));
    QVERIFY(!marked(dialog.stepEdit()));
    QVERIFY(dialog.okButton()->isEnabled());
    QVERIFY2(dialog.preview()->text().contains(QStringLiteral("efficiency 0.8000")),
             qPrintable(dialog.preview()->text()));
    QVERIFY(dialog.calibrated());
    QVERIFY(close(dialog.calibrated()->calibration->efficiency, 0.8));
    QVERIFY(!dialog.preview()->text().contains(QStringLiteral("does not fit")));
    // A bad profile id is marked; the fit itself stays.
    typeInto(dialog.idEdit(), QStringLiteral("a b"));
    QVERIFY(marked(dialog.idEdit()));
    QVERIFY(!dialog.okButton()->isEnabled());

    // Llama 3 8B replicated on every GPU (ZeRO-0) holds 8.03e9 x (2 + 2 + 12) B = 128 GB of
    // weights, gradients and Adam state on each 80 GB H100: no run of it was measured, and the
    // preview says so while still showing the fit.
    PlanSpec replicated = test::llama3_8b_spec(8, 8192, 128);
    replicated.cluster.gpu = "h100-sxm";
    CalibrationDialog over(replicated, h100, {});
    const double q = evaluate(replicated, h100).performance.step_s;
    typeInto(over.stepEdit(), QString::number(1.25 * q, 'g', 17));
    QVERIFY(over.calibrated());
    QVERIFY2(over.preview()->text().contains(QStringLiteral("does not fit its GPUs' memory")),
             qPrintable(over.preview()->text()));

    // An assumed MFU: the fit is refused, and the preview says where the plan's MFU is set.
    PlanSpec assumed = runSpec();
    assumed.cluster.mfu_predicted = false;
    assumed.cluster.mfu = 0.4;
    CalibrationDialog fixed(assumed, h100, {});
    typeInto(fixed.stepEdit(), QStringLiteral("12.5"));
    QVERIFY(!fixed.calibrated());
    QVERIFY2(fixed.preview()->text().contains(QStringLiteral("MFU slider")),
             qPrintable(fixed.preview()->text()));
}

// A step typed in the Chinese window is recorded as "entered in the window" and shown as
// "在窗口中输入" (the catalogue's entry under tally::calibration): the profile is read later in
// whatever language, and the note translates the recorded English.
void TestUiCalibration::typedStepIsRecordedInEnglish() {
    Translations zh;
    QVERIFY(zh.load(QStringLiteral("zh_CN")));
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    CalibrationDialog dialog(runSpec(), h100, {});
    typeInto(dialog.stepEdit(), QString::number(1.25 * predictedStep(), 'g', 17));
    QVERIFY(dialog.calibrated());
    QCOMPARE(dialog.calibrated()->calibration->source, std::string("entered in the window"));
    QVERIFY2(dialog.preview()->text().contains(QStringLiteral("在窗口中输入")),
             qPrintable(dialog.preview()->text()));
    QVERIFY(zh.load(QStringLiteral("en")));
}

void TestUiCalibration::logFileAndWarmUp() {
    // Five Megatron-LM records (ms): 40000 and 25000 warm-up, then 20000, 20200, 20100:
    // median 20.1 s.
    const QString path = m_dir->filePath(QStringLiteral("run.log"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (const char* ms : {"40000.0", "25000.0", "20000.0", "20200.0", "20100.0"}) {
        f.write(QByteArray(" iteration       10/     100 | consumed samples:   5120 | elapsed time "
                           "per iteration (ms): ") +
                ms + " | global batch size:   512 |\n");
    }
    f.close();
    CalibrationDialog dialog(runSpec(), *find_builtin_hardware("h100-sxm"), {});
    dialog.logEdit()->setText(path);
    dialog.logChoice()->setChecked(true);
    dialog.readLog();
    QVERIFY(dialog.calibrated());
    QVERIFY(close(dialog.calibrated()->calibration->measured_step_s, 20.1, 1e-12));
    QVERIFY(dialog.preview()->text().contains(QStringLiteral("run.log")));
    // Dropping all five leaves nothing: the warm-up box is marked.
    dialog.skipBox()->setValue(5);
    QVERIFY(marked(dialog.skipBox()));
    QVERIFY(!dialog.okButton()->isEnabled());
    // A file without timing lines marks the log field.
    const QString plain = m_dir->filePath(QStringLiteral("plain.log"));
    QFile g(plain);
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write("training ...\n");
    g.close();
    dialog.skipBox()->setValue(2);
    dialog.logEdit()->setText(plain);
    dialog.readLog();
    QVERIFY(marked(dialog.logEdit()));
    QVERIFY(dialog.preview()->text().contains(QStringLiteral("elapsed time per iteration")));
}

// The id the dialog offers may be a profile the workspace has: the preview says what storing
// into it does (Workspace::save_calibrated_profile()) before OK, as the CLI's "calibrated again".
void TestUiCalibration::previewSaysWhatAnExistingIdBecomes() {
    const HardwareProfile h100 = *find_builtin_hardware("h100-sxm");
    CalibrationDialog dialog(runSpec(), h100, {});
    HardwareProfile before = h100;
    before.id = dialog.idEdit()->text().toStdString();  // the default id, h100-sxm-calibrated
    before.name = "H100 run 1";
    before.calibration = StepCalibration{};
    before.calibration->efficiency = 0.8074;
    before.calibration->base_profile = "h100-sxm";
    before.calibration->measured_on = "2026-12-01";
    HardwareProfile other = h100;
    other.id = "my-h100";
    other.name = "My H100";
    dialog.setExistingProfiles({before, other});
    dialog.stepEdit()->setText(QStringLiteral("12"));
    QVERIFY(dialog.calibrated());
    QVERIFY2(dialog.preview()->text().contains(
                 QStringLiteral("its calibration (efficiency 0.8074, 2026-12-01) is replaced")),
             qPrintable(dialog.preview()->text()));
    // Another profile's id (a copy of the part, not calibrated from this one): refused there.
    dialog.idEdit()->setText(QStringLiteral("my-h100"));
    QVERIFY2(dialog.preview()->text().contains(QStringLiteral("is another profile")),
             qPrintable(dialog.preview()->text()));
    QVERIFY(!dialog.okButton()->isEnabled());
    // A new id: nothing to say.
    dialog.idEdit()->setText(QStringLiteral("h100-run2"));
    QVERIFY(!dialog.preview()->text().contains(QStringLiteral("Profile h100-run2")));
    QVERIFY(dialog.okButton()->isEnabled());
}

// A path typed into the log box is read on Enter (or on leaving the box); until then the preview
// says so, instead of asking to choose a log, and nothing can be stored.
void TestUiCalibration::typedLogPathIsReadOnEnter() {
    const QString path = m_dir->filePath(QStringLiteral("typed.log"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (const char* ms : {"20000.0", "20000.0", "20000.0"}) {
        f.write(QByteArray(" iteration       10/     100 | elapsed time per iteration (ms): ") +
                ms + " |\n");
    }
    f.close();
    int stored = 0;
    CalibrationDialog dialog(runSpec(), *find_builtin_hardware("h100-sxm"),
                             [&stored](const HardwareProfile&) {
                                 ++stored;
                                 return QString();
                             });
    dialog.show();
    QTest::keyClicks(dialog.logEdit(), path);
    QVERIFY(dialog.logChoice()->isChecked());
    QVERIFY2(dialog.preview()->text().contains(QStringLiteral("Press Enter")),
             qPrintable(dialog.preview()->text()));
    QVERIFY(!dialog.okButton()->isEnabled());
    QTest::keyClick(dialog.logEdit(), Qt::Key_Return);
    QVERIFY(dialog.calibrated());
    QVERIFY(dialog.preview()->text().contains(QStringLiteral("typed.log")));
    // Enter read the log and shows its fit; it did not also press OK, which stored the
    // calibration (replacing any the profile had) before its fit was ever seen.
    QCOMPARE(stored, 0);
    QVERIFY(dialog.isVisible());
    QTest::keyClick(dialog.logEdit(), Qt::Key_Enter);  // the keypad's Enter, likewise
    QCOMPARE(stored, 0);
    QVERIFY(dialog.isVisible());
    // The preview now runs to several lines: the dialog has grown to hold every row whole.
    QLayout* layout = dialog.layout();
    const int need = layout->hasHeightForWidth() ? layout->totalHeightForWidth(dialog.width())
                                                 : layout->totalSizeHint().height();
    QVERIFY2(dialog.height() >= need,
             qPrintable(QStringLiteral("%1 < %2").arg(dialog.height()).arg(need)));
}

void TestUiCalibration::workspaceFileIsNotALog() {
    const QString ws = m_dir->filePath(QStringLiteral("ws.sqlite"));
    CalibrationDialog dialog(runSpec(), *find_builtin_hardware("h100-sxm"), {}, ws);
    dialog.logEdit()->setText(ws + QStringLiteral("-wal"));
    dialog.logChoice()->setChecked(true);
    dialog.readLog();
    QVERIFY(marked(dialog.logEdit()));
    QVERIFY(dialog.preview()->text().contains(QStringLiteral("workspace")));
}

void TestUiCalibration::buttonOpensTheDialogAndOkSwitchesThePlan() {
    QVERIFY(m_session->open(m_dir->filePath(QStringLiteral("ws.sqlite"))));
    PlanDocument* doc = m_window->document();
    const double p = predictedStep();
    QVERIFY(close(doc->views()->plan.performance.step_s, p, 1e-12));
    TimePanel* time = m_window->timePanel();
    QSignalSpy asked(time, &TimePanel::calibrateRequested);
    time->calibrateButton()->click();
    QCOMPARE(asked.count(), 1);
    CalibrationDialog* dialog = m_panels.calibration->dialog();
    QVERIFY(dialog != nullptr);
    typeInto(dialog->stepEdit(), QString::number(1.25 * p, 'g', 17));
    QVERIFY(dialog->okButton()->isEnabled());
    const int undoBefore = doc->undoStack()->count();
    dialog->okButton()->click();
    QTRY_VERIFY(m_panels.calibration->dialog() == nullptr);  // closed and deleted
    // Stored, and the plan is on it: the measured step 1.25 P, the note beside the step.
    QVERIFY(m_session->workspace()->find_profile("h100-sxm-calibrated")->calibration);
    QCOMPARE(doc->spec().cluster.gpu, std::string("h100-sxm-calibrated"));
    QVERIFY(close(doc->views()->plan.performance.step_s, 1.25 * p));
    time->ensureCurrent();
    QVERIFY2(time->mfuSource()->text().contains(QStringLiteral("calibrated from a measured step")),
             qPrintable(time->mfuSource()->text()));
    // The headline says where its time comes from: the calibrated step.
    auto* days = m_window->findChild<QLabel*>(QStringLiteral("daysCaption"));
    QVERIFY(days != nullptr);
    QTRY_COMPARE(days->text(), QStringLiteral("Training time, calibrated"));
    // The step chart's title says the step is the calibrated one, not the model's prediction.
    auto* stepView = qobject_cast<QChartView*>(time->charts().first().widget);
    QVERIFY(stepView != nullptr);
    QVERIFY2(stepView->chart()->title().startsWith(QStringLiteral("One step, calibrated: ")),
             qPrintable(stepView->chart()->title()));
    // So does its entry in File > Export (the chart's name in the menus).
    QCOMPARE(time->charts().first().title, QStringLiteral("One step, calibrated"));
    // The Profiles panel shows what was fitted: the efficiency P / 1.25 P = 0.8000 and the steps.
    m_panels.profiles->selectProfile(QStringLiteral("h100-sxm-calibrated"));
    auto* details = m_panels.profiles->findChild<QTextBrowser*>(QStringLiteral("profileDetails"));
    QVERIFY(details != nullptr);
    const QString shown = details->toPlainText();
    QVERIFY2(
        shown.contains(QStringLiteral("Calibrated")) && shown.contains(QStringLiteral("0.8000")),
        qPrintable(shown));
    // One undoable edit: undo puts the plan back on h100-sxm; the profile stays stored.
    QCOMPARE(doc->undoStack()->count(), undoBefore + 1);
    doc->undoStack()->undo();
    QCOMPARE(doc->spec().cluster.gpu, std::string("h100-sxm"));
    QVERIFY(close(doc->views()->plan.performance.step_s, p, 1e-12));
    QVERIFY(m_session->workspace()->find_profile("h100-sxm-calibrated").has_value());
    doc->undoStack()->redo();
    QVERIFY(close(doc->views()->plan.performance.step_s, 1.25 * p));
    QVERIFY(shown.contains(QStringLiteral("Fitted on a run of Megatron-Core")));
    // Planned on another engine, the Time panel says in full what the warnings' line says
    // (cut beside the headline on a laptop): the efficiency is the other engine's.
    QVERIFY(!time->mfuSource()->text().contains(QStringLiteral("other engine")));
    PlanSpec fsdp = doc->spec();
    fsdp.training.engine = Engine::fsdp;
    fsdp.training.zero = 3;
    doc->edit(fsdp, QStringLiteral("engine"));
    time->ensureCurrent();
    QVERIFY2(time->mfuSource()->text().contains(
                 QStringLiteral("fitted on a run of Megatron-Core + Transformer Engine, and this "
                                "plan runs PyTorch FSDP (eager)")),
             qPrintable(time->mfuSource()->text()));
}

void TestUiCalibration::withoutWorkspaceNothingIsStored() {
    PlanDocument* doc = m_window->document();
    HardwareProfile p = *find_builtin_hardware("h100-sxm");
    p.id = "h100-sxm-calibrated";
    p.name = "H100 (calibrated)";
    StepCalibration c;
    c.efficiency = 0.5;
    c.measured_step_s = 2.0;
    c.predicted_step_s = 1.0;
    c.base_profile = "h100-sxm";
    p.calibration = c;
    const QString error = storeCalibration(m_session.get(), doc, p);
    QVERIFY(error.contains(QStringLiteral("No workspace")));
    QCOMPARE(doc->spec().cluster.gpu, std::string("h100-sxm"));
}

QTEST_MAIN(TestUiCalibration)
#include "tst_ui_calibration.moc"
