// The Probe panel and the roofline's measured overlay, driven as a user drives
// them. Fake probes (bash scripts printing canned protocol lines) stand in for what a real probe
// does rarely or only on a GPU: an H100's results, crashing, hanging, a missing CUDA backend,
// unreadable lines. The real tally-probe runs once, briefly, on the CPU. Every run is saved into
// a temporary workspace and read back through a second connection, as another process would.
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListView>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <memory>
#include <string>

#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/io/spec_json.h"
#include "planner/performance/plan_gemms.h"
#include "planner/roofline/measured_roofline.h"
#include "planner/store/workspace.h"
#include "tests/fake_probe_util.h"
#include "tests/test_specs.h"
#include "tests/widget_test_util.h"
#include "ui/charts/roofline_panel.h"
#include "ui/common/hardware_list_model.h"
#include "ui/i18n/translations.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/spec_form.h"
#include "ui/probe/measured_profile_dialog.h"
#include "ui/probe/probe_panel.h"
#include "ui/probe/probe_results_model.h"
#include "ui/probe/probe_runs_model.h"
#include "ui/probe/probe_text.h"
#include "ui/session/workspace_session.h"
#include "ui/window/app_settings.h"
#include "ui/window/main_window.h"
#include "ui/workspace/profile_files.h"

using namespace tally;
using namespace tally::probe;
using namespace tally::test;
using namespace tally::ui;

namespace {

// ---- an H100's run, canned ----------------------------------------------------------------------
//
// Figures chosen so the fractions of h100-sxm (3.35e12 B/s, dense bf16 989.5e12 FLOP/s, the
// catalog) come out round:
//   copy   2.68e12 B/s / 3.35e12 B/s = 0.8
//   matmul bf16 742.125e12 FLOP/s / 989.5e12 FLOP/s = 0.75
constexpr double kCopyBytesPerS = 2.68e12;
constexpr double kMatmulFlopsPerS = 742.125e12;
// 8192^3 matmul: 2·m·k·n = 2 · 8192^3 = 1 099 511 627 776 FLOPs; (m·k + k·n + m·n) · 2 bytes =
// 3 · 8192^2 · 2 = 402 653 184 bytes (PROTOCOL.md, "Counting"): intensity 2730.67 FLOP/byte.
constexpr double kMatmulFlops = 2.0 * 8192.0 * 8192.0 * 8192.0;
constexpr double kMatmulBytes = 3.0 * 8192.0 * 8192.0 * 2.0;

// memory_bandwidth copy of 1e9 bytes read and 1e9 written at 2.68e12 B/s.
ResultEvent copyResult() {
    ResultEvent r = passedResult("memory_bandwidth", "copy", "u32", 2e9 / kCopyBytesPerS);
    r.sizes = {{"bytes", 1000000000}};
    r.bytes = 2e9;
    r.bytes_per_s = kCopyBytesPerS;
    return r;
}

ResultEvent matmulResult() {
    ResultEvent r = passedResult("matmul", "cublaslt", "bf16", kMatmulFlops / kMatmulFlopsPerS);
    r.sizes = {{"m", 8192}, {"k", 8192}, {"n", 8192}};
    r.flops = kMatmulFlops;
    r.bytes = kMatmulBytes;
    r.intensity_flops_per_byte = kMatmulFlops / kMatmulBytes;
    r.flops_per_s = kMatmulFlopsPerS;
    r.bytes_per_s = kMatmulBytes / *r.median_s;
    return r;
}

// The H100 run: copy, matmul, relu, all passed.
std::vector<std::string> h100Lines() {
    return {startLine("cuda"),
            deviceLine("cuda"),
            progressLine("memory_bandwidth", 1, 3),
            to_json_line(copyResult()),
            progressLine("matmul", 2, 3),
            to_json_line(matmulResult()),
            progressLine("relu", 3, 3),
            to_json_line(reluResult()),
            doneLine(3, 0)};
}

double valueAt(const QAbstractItemModel* model, int row, int column) {
    return model->index(row, column).data(ProbeResultsModel::ValueRole).toDouble();
}

QString textAt(const QAbstractItemModel* model, int row, int column) {
    return model->index(row, column).data(Qt::DisplayRole).toString();
}

bool clusterBackendShown(const QString& backend) {
    return backend == QLatin1String("nccl") || backend == QLatin1String("tcp");
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

}  // namespace

class TestUiProbe : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void resultsArriveAndAreSaved();
    void chosenTestsBecomeArguments();
    void planGemmsBecomeArguments();
    void failedTestIsMarked();
    void crashKeepsWhatArrived();
    void hangIsStopped();
    void cancelStopsTheRun();
    void cancelStopsTheSshListing();
    void unreadableLinesAreShown();
    void noCudaOffersTheCpu();
    void missingProbeIsSaidAtOnce();
    void saveNoteHasTheResultsWidth();
    void rememberedBackendIsKept();
    void sshHostRunsThereAndIsRemembered();
    void clusterLauncherRunsTheRanks();
    void withoutWorkspaceRunsButDoesNotSave();
    void refusedSaveIsSaid();
    void storedRunIsShownAndOverlaid();
    void newestStoredRunIsShownOnOpening();
    void overlayToggle();
    void bandwidthAloneIsALine();
    void makesMeasuredProfile();
    void failedRunProfileAsksFirst();
    void deletesAStoredRun();
    void realProbeOnCpu();
    void realPlanGemmsMakeAProfileThatTimesThePlan();

private:
    void useProbe(const QByteArray& text, double silenceTimeoutS = 60.0);
    // Clicks Start and waits for the run to end; returns how it ended.
    ProbeExit runToEnd(int timeoutMs = 20000);
    std::vector<ProbeRunRecord> savedRuns() const;
    QString workspacePath() const { return m_dir->filePath(QStringLiteral("ws.sqlite")); }
    qint64 storeH100Run();

    std::unique_ptr<QTemporaryDir> m_dir;
    // English as the window starts it: the source texts with their plural forms ("1 result").
    std::unique_ptr<Translations> m_english;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<WorkspaceSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    ProbePanel* m_panel = nullptr;
    // The panel's widgets, by object name.
    QComboBox* backendBox() const { return child<QComboBox>(m_panel, "probeBackend"); }
    QCheckBox* quickBox() const { return child<QCheckBox>(m_panel, "probeQuick"); }
    QListWidget* testList() const { return child<QListWidget>(m_panel, "probeTests"); }
    QPushButton* startButton() const { return child<QPushButton>(m_panel, "probeStart"); }
    QPushButton* cancelButton() const { return child<QPushButton>(m_panel, "probeCancel"); }
    QPushButton* cpuButton() const { return child<QPushButton>(m_panel, "probeRunOnCpu"); }
    QPushButton* makeProfileButton() const {
        return child<QPushButton>(m_panel, "probeMakeProfile");
    }
    QPushButton* showOnRooflineButton() const {
        return child<QPushButton>(m_panel, "probeShowOnRoofline");
    }
    QProgressBar* progressBar() const { return child<QProgressBar>(m_panel, "probeProgress"); }
    QLabel* deviceLabel() const { return child<QLabel>(m_panel, "probeDevice"); }
    QLabel* messageLabel() const { return child<QLabel>(m_panel, "probeMessage"); }
    QLabel* warningLabel() const { return child<QLabel>(m_panel, "probeWarnings"); }
    QLabel* saveLabel() const { return child<QLabel>(m_panel, "probeSaveNote"); }
    QComboBox* compareBox() const { return child<QComboBox>(m_panel, "probeCompare"); }
    QListView* runsView() const { return child<QListView>(m_panel, "probeRuns"); }
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
};

void TestUiProbe::init() {
    qunsetenv("TALLY_PROBE");
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_english = std::make_unique<Translations>();
    QVERIFY(m_english->load(QStringLiteral("en")));
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("tally.ini")),
                                             QSettings::IniFormat);
    m_session = std::make_unique<WorkspaceSession>();
    MainWindow::Options options;
    options.settings = m_settings.get();
    options.restoreLayout = false;
    m_window = std::make_unique<MainWindow>(options);
    followWorkspaceProfiles(m_session.get(), m_window->hardwareCatalog());
    m_panel = installProbePanel(m_window.get(), m_session.get());
    QVERIFY(m_panel != nullptr);
    QString error;
    QVERIFY2(m_session->open(workspacePath(), &error), qPrintable(error));
    m_testers.clear();
    for (QAbstractItemModel* model : {static_cast<QAbstractItemModel*>(m_panel->resultsModel()),
                                      static_cast<QAbstractItemModel*>(m_panel->runsModel())}) {
        m_testers.push_back(std::make_unique<QAbstractItemModelTester>(
            model, QAbstractItemModelTester::FailureReportingMode::QtTest));
    }
    // The default plan runs on h100-sxm: the fractions below are of its figures.
    QCOMPARE(m_window->document()->views()->hardware.id, std::string("h100-sxm"));
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(m_window->showPanel(QStringLiteral("probe")));
}

void TestUiProbe::cleanup() {
    m_testers.clear();
    m_window.reset();
    m_session.reset();
    m_english.reset();
    m_dir.reset();
}

void TestUiProbe::useProbe(const QByteArray& text, double silenceTimeoutS) {
    ProbeOptions options;
    options.probePath = writeProbe(*m_dir, text);
    options.silenceTimeoutS = silenceTimeoutS;
    options.killGraceS = 0.5;
    m_panel->setBaseOptions(options);
}

ProbeExit TestUiProbe::runToEnd(int timeoutMs) {
    QSignalSpy finished(m_panel, &ProbePanel::runFinished);
    QTest::mouseClick(startButton(), Qt::LeftButton);
    if (!m_panel->isRunning() || !finished.wait(timeoutMs)) {
        qWarning("the run did not start or did not end within %d ms", timeoutMs);
        return {};
    }
    return finished.at(0).at(0).value<ProbeExit>();
}

std::vector<ProbeRunRecord> TestUiProbe::savedRuns() const {
    // A second connection, as another process would read the file.
    return Workspace::open(workspacePath().toStdString()).list_probe_runs();
}

qint64 TestUiProbe::storeH100Run() {
    ProbeRunRecord run;
    run.backend = "cuda";
    run.host = "gpu-node";
    run.started_at = "2026-01-02T03:04:05Z";
    run.finished_at = "2026-01-02T03:04:09Z";
    run.status = ProbeRunStatus::ok;
    run.device_json = deviceLine("cuda");
    for (const ResultEvent& r : {copyResult(), matmulResult(), reluResult()}) {
        run.results.push_back(probeResultRow(r).record);
    }
    const qint64 id = m_session->workspace()->add_probe_run(run);
    m_session->announceProbeRunsChanged();
    return id;
}

void TestUiProbe::resultsArriveAndAreSaved() {
    // The run pauses after its first result: the table and the file already hold it.
    std::vector<std::string> lines = h100Lines();
    const std::vector<std::string> first(lines.begin(), lines.begin() + 4);
    const std::vector<std::string> rest(lines.begin() + 4, lines.end());
    useProbe(fakeProbe(first, "sleep 1\n" + catLines(rest, "REST_EOF") + "exit 0"));
    QTRY_COMPARE(testList()->count(), 2);

    QSignalSpy result(m_panel->runner(), &ProbeRunner::resultAvailable);
    QSignalSpy finished(m_panel, &ProbePanel::runFinished);
    QTest::mouseClick(startButton(), Qt::LeftButton);
    QVERIFY(m_panel->isRunning());
    QVERIFY(!startButton()->isEnabled());
    QVERIFY(cancelButton()->isEnabled());
    QVERIFY(result.wait(10000));
    QCOMPARE(m_panel->resultsModel()->rowCount(), 1);
    QVERIFY(m_panel->isRunning());
    QVERIFY2(deviceLabel()->text().contains(QStringLiteral("NVIDIA H100 80GB HBM3")),
             qPrintable(deviceLabel()->text()));
    QTRY_COMPARE(progressBar()->maximum(), 3);
    {
        const std::vector<ProbeRunRecord> runs = savedRuns();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].status, ProbeRunStatus::running);
        QCOMPARE(runs[0].results.size(), std::size_t(1));
    }
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).value<ProbeExit>().outcome, ProbeOutcome::ok);

    // The table: the values of the events.
    const ProbeResultsModel* model = m_panel->resultsModel();
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(textAt(model, 0, ProbeResultsModel::TestColumn), QStringLiteral("memory_bandwidth"));
    QCOMPARE(textAt(model, 0, ProbeResultsModel::VariantColumn), QStringLiteral("copy"));
    QCOMPARE(valueAt(model, 0, ProbeResultsModel::BytesColumn), kCopyBytesPerS);
    QCOMPARE(textAt(model, 1, ProbeResultsModel::TestColumn), QStringLiteral("matmul"));
    QCOMPARE(textAt(model, 1, ProbeResultsModel::VariantColumn), QStringLiteral("cublaslt"));
    QCOMPARE(textAt(model, 1, ProbeResultsModel::DtypeColumn), QStringLiteral("bf16"));
    QCOMPARE(textAt(model, 1, ProbeResultsModel::SizesColumn),
             QStringLiteral("k=8192 m=8192 n=8192"));
    QCOMPARE(valueAt(model, 1, ProbeResultsModel::FlopsColumn), kMatmulFlopsPerS);
    QCOMPARE(valueAt(model, 1, ProbeResultsModel::MedianColumn), kMatmulFlops / kMatmulFlopsPerS);
    QCOMPARE(valueAt(model, 1, ProbeResultsModel::SpreadColumn), 0.004);
    QCOMPARE(valueAt(model, 1, ProbeResultsModel::SamplesColumn), 20.0);
    QCOMPARE(textAt(model, 1, ProbeResultsModel::StatusColumn), QStringLiteral("passed"));
    QCOMPARE(textAt(model, 1, ProbeResultsModel::ValidatedColumn), QStringLiteral("yes"));
    QCOMPARE(valueAt(model, 2, ProbeResultsModel::FlopsColumn), 1e9);
    QCOMPARE(valueAt(model, 2, ProbeResultsModel::BytesColumn), 8e9);
    // Fractions of the plan's GPU, h100-sxm: 2.68 / 3.35 = 0.8, 742.125 / 989.5 = 0.75.
    QVERIFY(near(valueAt(model, 0, ProbeResultsModel::BandwidthColumn), 0.8));
    QCOMPARE(textAt(model, 0, ProbeResultsModel::BandwidthColumn), QStringLiteral("80.0%"));
    QVERIFY(near(valueAt(model, 1, ProbeResultsModel::PeakColumn), 0.75));
    QCOMPARE(textAt(model, 1, ProbeResultsModel::PeakColumn), QStringLiteral("75.0%"));
    // Against another profile: h100-pcie's 2.0e12 B/s makes the copy 2.68 / 2.0 = 1.34.
    compareBox()->setCurrentIndex(compareBox()->findData(QStringLiteral("h100-pcie")));
    QVERIFY(near(valueAt(model, 0, ProbeResultsModel::BandwidthColumn), 1.34));

    // Saved, and listed under Past runs.
    const std::vector<ProbeRunRecord> runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0].status, ProbeRunStatus::ok);
    QCOMPARE(runs[0].results.size(), std::size_t(3));
    QCOMPARE(runs[0].results[1].flops_per_s, std::optional(kMatmulFlopsPerS));
    QCOMPARE(m_panel->runsModel()->rowCount(), 1);
    QVERIFY2(saveLabel()->text().contains(QStringLiteral("#%1").arg(runs[0].id)),
             qPrintable(saveLabel()->text()));
    QVERIFY(startButton()->isEnabled());
    QVERIFY(!cancelButton()->isEnabled());
    // The run is the current one: on the roofline, and a profile can be made from it.
    QVERIFY(m_panel->currentRun());
    QCOMPARE(m_panel->currentRun()->id, runs[0].id);
    QCOMPARE(m_window->rooflinePanel()->measuredRun()->id, runs[0].id);
    QVERIFY(makeProfileButton()->isEnabled());

    // A language switch says the run's outcome and where it is stored again, in Chinese: "完成：
    // %n 个结果，全部通过或豁免。" and "已存储的探测运行 #%1" (the catalogue's entries).
    Translations zh;
    QVERIFY(zh.load(QStringLiteral("zh_CN")));
    QTRY_COMPARE(messageLabel()->text(), QStringLiteral("完成：3 个结果，全部通过或豁免。"));
    QCOMPARE(saveLabel()->text(), QStringLiteral("已存储的探测运行 #%1").arg(runs[0].id));
    QVERIFY(zh.load(QStringLiteral("en")));
    QTRY_COMPARE(messageLabel()->text(),
                 QStringLiteral("Finished: 3 results, every one passed or waived."));
}

void TestUiProbe::chosenTestsBecomeArguments() {
    const QString argsFile = m_dir->filePath(QStringLiteral("args.txt"));
    useProbe(
        fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult()), doneLine(1, 0)},
                  "exit 0", {.argsFile = argsFile}));
    backendBox()->setCurrentIndex(backendBox()->findData(QStringLiteral("cpu")));
    QTRY_COMPARE(testList()->count(), 2);
    testList()->item(1)->setCheckState(Qt::Unchecked);  // dot
    QCOMPARE(runToEnd().outcome, ProbeOutcome::ok);
    QFile file(argsFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts),
             QStringList({"--backend", "cpu", "--quick", "--tests", "relu"}));

    // No test chosen: nothing starts, and the panel says why.
    testList()->item(0)->setCheckState(Qt::Unchecked);
    QVERIFY(!m_panel->start());
    QVERIFY(messageLabel()->text().contains(QStringLiteral("at least one test")));
}

void TestUiProbe::planGemmsBecomeArguments() {
    const QString argsFile = m_dir->filePath(QStringLiteral("args.txt"));
    useProbe(
        fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult()), doneLine(1, 0)},
                  "exit 0", {.argsFile = argsFile}));
    backendBox()->setCurrentIndex(backendBox()->findData(QStringLiteral("cpu")));
    QTRY_COMPARE(testList()->count(), 2);
    auto* planGemms = child<QCheckBox>(m_panel, "probePlanGemms");
    planGemms->setChecked(true);
    QVERIFY(!testList()->isEnabled());

    // The lecture's plan gives its model by parameter count: no shapes, and the panel says so.
    m_window->document()->reset(default_plan_spec());
    QVERIFY(!m_panel->start());
    QVERIFY2(messageLabel()->text().contains(QStringLiteral("parameter count")),
             qPrintable(messageLabel()->text()));

    // The lecture's MLP, D = 512, micro-batch B = 256, in fp32: the forward Y = X·W is a
    // 256 x 512 output over 512; the data gradient dX = dY·Wᵀ the same shape (256 x 512 over
    // 512), listed once; the weight gradient dW = Xᵀ·dY a 512 x 512 output over 256.
    PlanSpec spec = test::lecture_mlp_spec(512, 256, 2);
    spec.training.compute_dtype = DType::fp32;
    m_window->document()->reset(spec);
    QCOMPARE(runToEnd().outcome, ProbeOutcome::ok);
    QFile file(argsFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts),
             QStringList({"--backend", "cpu", "--quick", "--tests", "gemm_shapes", "--gemm-shapes",
                          "fp32:256x512x512,fp32:512x512x256"}));
    // Its progress counts the two GEMMs, not the one test.
    auto* progress = child<QProgressBar>(m_panel, "probeProgress");
    QCOMPARE(progress->maximum(), 2);
    QVERIFY(progress->format().contains(QStringLiteral("GEMMs")));

    // A bf16 plan: the CPU backend has no bf16 GEMM, and the panel says what to change.
    spec.training.compute_dtype = DType::bf16;
    m_window->document()->reset(spec);
    QVERIFY(!m_panel->start());
    QVERIFY2(messageLabel()->text().contains(QStringLiteral("fp32")),
             qPrintable(messageLabel()->text()));
    planGemms->setChecked(false);
    QVERIFY(testList()->isEnabled());
}

void TestUiProbe::failedTestIsMarked() {
    useProbe(fakeProbe({startLine("cpu"), deviceLine("cpu"),
                        to_json_line(reluResult(ResultStatus::failed)), doneLine(0, 1)},
                       "exit 1"));
    QCOMPARE(runToEnd().outcome, ProbeOutcome::testsFailed);
    const ProbeResultsModel* model = m_panel->resultsModel();
    QCOMPARE(textAt(model, 0, ProbeResultsModel::StatusColumn), QStringLiteral("failed"));
    QCOMPARE(textAt(model, 0, ProbeResultsModel::ValidatedColumn), QStringLiteral("no"));
    QVERIFY(model->index(0, 0)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("3 elements differ")));
    QVERIFY2(messageLabel()->text().contains(QStringLiteral("1 of 1 results failed")),
             qPrintable(messageLabel()->text()));
    QCOMPARE(savedRuns().at(0).status, ProbeRunStatus::failed);
}

void TestUiProbe::crashKeepsWhatArrived() {
    useProbe(fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult()),
                        progressLine("dot", 2, 2)},
                       "echo 'Segmentation fault' >&2\nkill -SEGV $$"));
    QCOMPARE(runToEnd().outcome, ProbeOutcome::crashed);
    const QString message = messageLabel()->text();
    QVERIFY2(message.contains(QStringLiteral("crashed")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("Segmentation fault")), qPrintable(message));
    QVERIFY(messageLabel()->isVisible());
    QCOMPARE(m_panel->resultsModel()->rowCount(), 1);
    const std::vector<ProbeRunRecord> runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0].status, ProbeRunStatus::failed);
    QCOMPARE(runs[0].results.size(), std::size_t(1));
    QVERIFY(startButton()->isEnabled());
}

void TestUiProbe::hangIsStopped() {
    useProbe(fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult())},
                       "exec sleep 30"),
             0.5);
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(runToEnd().outcome, ProbeOutcome::timedOut);
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    const QString message = messageLabel()->text();
    QVERIFY2(message.contains(QStringLiteral("hung")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("0.5 s")), qPrintable(message));
    QCOMPARE(m_panel->resultsModel()->rowCount(), 1);
    QCOMPARE(savedRuns().at(0).results.size(), std::size_t(1));
}

void TestUiProbe::cancelStopsTheRun() {
    useProbe(fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult())},
                       "exec sleep 30"));
    QSignalSpy result(m_panel->runner(), &ProbeRunner::resultAvailable);
    QSignalSpy finished(m_panel, &ProbePanel::runFinished);
    QTest::mouseClick(startButton(), Qt::LeftButton);
    QVERIFY(result.wait(10000));
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(cancelButton(), Qt::LeftButton);
    QVERIFY(finished.wait(10000));
    QVERIFY(clock.elapsed() < 5000);
    QCOMPARE(finished.at(0).at(0).value<ProbeExit>().outcome, ProbeOutcome::cancelled);
    QVERIFY2(messageLabel()->text().startsWith(QStringLiteral("Cancelled")),
             qPrintable(messageLabel()->text()));
    QCOMPARE(m_panel->resultsModel()->rowCount(), 1);
    const std::vector<ProbeRunRecord> runs = savedRuns();
    QCOMPARE(runs.at(0).status, ProbeRunStatus::failed);
    QCOMPARE(runs.at(0).results.size(), std::size_t(1));
}

// A host that never answers: `ssh gpu-box tally-probe --list` hangs. Cancel ends that child at
// once and the panel says so, instead of "Listing the CPU tests..." over "1 of 1 tests".
void TestUiProbe::cancelStopsTheSshListing() {
    const QString ssh = writeProbe(*m_dir, "#!/bin/bash\nexec sleep 30\n");
    qputenv("TALLY_SSH", ssh.toUtf8());
    auto* where = child<QComboBox>(m_panel, "probeWhere");
    auto* host = child<QLineEdit>(m_panel, "probeSshHost");
    where->setCurrentIndex(where->findData(QStringLiteral("ssh")));
    host->setText(QStringLiteral("gpu-box"));
    emit host->editingFinished();
    QTRY_VERIFY(m_panel->lister()->isRunning());
    QVERIFY(cancelButton()->isEnabled());
    QSignalSpy listed(m_panel->lister(), &ProbeRunner::finished);
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(cancelButton(), Qt::LeftButton);
    QVERIFY(listed.wait(10000));
    QVERIFY(clock.elapsed() < 5000);
    QVERIFY(!m_panel->lister()->isRunning());
    QVERIFY(!cancelButton()->isEnabled());
    auto* note = child<QLabel>(m_panel, "probeTestsNote");
    QVERIFY2(!note->text().startsWith(QStringLiteral("Listing the")), qPrintable(note->text()));
    QVERIFY(startButton()->isEnabled());
    qunsetenv("TALLY_SSH");
}

void TestUiProbe::unreadableLinesAreShown() {
    useProbe(fakeProbe({startLine("cpu"), deviceLine("cpu"), "this is not JSON",
                        to_json_line(reluResult()), doneLine(1, 0)},
                       "exit 0"));
    QCOMPARE(runToEnd().outcome, ProbeOutcome::ok);
    QVERIFY(warningLabel()->isVisible());
    QVERIFY2(warningLabel()->text().contains(QStringLiteral("line 3")),
             qPrintable(warningLabel()->text()));
    QCOMPARE(m_panel->resultsModel()->rowCount(), 1);
}

void TestUiProbe::noCudaOffersTheCpu() {
    useProbe(
        fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult()), doneLine(1, 0)},
                  "exit 0", {.refusesCuda = true}));
    // Nobody picked a backend yet: the probe's own default (listed without --backend) is the
    // CPU here, so the panel starts on the CPU and says why.
    QTRY_COMPARE(backendBox()->currentData().toString(), QStringLiteral("cpu"));
    QTRY_VERIFY(messageLabel()->isVisible());
    QVERIFY2(messageLabel()->text().contains(QStringLiteral("no CUDA device to use here")),
             qPrintable(messageLabel()->text()));
    QVERIFY(messageLabel()->text().contains(QStringLiteral("CPU backend is selected")));
    QVERIFY(!cpuButton()->isVisible());

    // The user picks CUDA anyway (the keyboard on the box, as a user would): it is remembered,
    // and its refusal is said with the CPU offered in one click.
    QComboBox* box = backendBox();
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Up);
    QCOMPARE(box->currentData().toString(), QStringLiteral("cuda"));
    QCOMPARE(m_settings->value(QStringLiteral("probe/backend")).toString(), QStringLiteral("cuda"));
    QCOMPARE(runToEnd().outcome, ProbeOutcome::backendUnavailable);
    const QString message = messageLabel()->text();
    QVERIFY2(message.contains(QStringLiteral("no CUDA device: cudaGetDeviceCount returned "
                                             "cudaErrorNoDevice")),
             qPrintable(message));
    QVERIFY(cpuButton()->isVisible());
    QCOMPARE(m_panel->resultsModel()->rowCount(), 0);
    QVERIFY(savedRuns().empty());
    // No "Starting tally-probe (CUDA backend)…" and no "n of n tests" left behind.
    QVERIFY2(!m_panel->findChild<QLabel*>(QStringLiteral("probeDevice"))
                  ->text()
                  .contains(QStringLiteral("Starting")),
             qPrintable(m_panel->findChild<QLabel*>(QStringLiteral("probeDevice"))->text()));
    QVERIFY(!m_panel->findChild<QProgressBar*>()->isVisible());

    // One click: the CPU backend runs, and is the remembered choice from now on.
    QSignalSpy finished(m_panel, &ProbePanel::runFinished);
    QTest::mouseClick(cpuButton(), Qt::LeftButton);
    QCOMPARE(backendBox()->currentData().toString(), QStringLiteral("cpu"));
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).value<ProbeExit>().outcome, ProbeOutcome::ok);
    QVERIFY(!cpuButton()->isVisible());
    QCOMPARE(m_panel->resultsModel()->rowCount(), 1);
    QCOMPARE(savedRuns().at(0).backend, std::string("cpu"));
    QCOMPARE(m_settings->value(QStringLiteral("probe/backend")).toString(), QStringLiteral("cpu"));
}

// Where runs are saved is a line of its own under the results' picker, the width of the results,
// not a column beside the picker that wrapped a workspace's path a word a line on a laptop.
void TestUiProbe::saveNoteHasTheResultsWidth() {
    m_window->resize(1366, 740);
    QApplication::processEvents();
    QApplication::processEvents();
    QVERIFY(saveLabel()->isVisible());
    QVERIFY(saveLabel()->text().contains(QStringLiteral("Runs are saved in")));
    const int resultsWidth = m_panel->findChild<QTableView*>()->width();
    QVERIFY2(saveLabel()->width() >= resultsWidth * 9 / 10,
             qPrintable(QStringLiteral("%1 of %2").arg(saveLabel()->width()).arg(resultsWidth)));
}

// No tally-probe where the panel looks: said as soon as the panel lists the tests, before Start,
// with what was tried, not only as "the tests could not be listed".
void TestUiProbe::missingProbeIsSaidAtOnce() {
    ProbeOptions options;
    options.probePath = m_dir->filePath(QStringLiteral("no-such-probe"));
    m_panel->setBaseOptions(options);
    QTRY_VERIFY(messageLabel()->isVisible());
    QVERIFY2(messageLabel()->text().contains(QStringLiteral("tally-probe could not be started")),
             qPrintable(messageLabel()->text()));
    QVERIFY(!m_panel->isRunning());
}

// A remembered backend is where the panel opens, and it is not switched away from even when it
// cannot run here (the user chose it: the refusal is said instead).
void TestUiProbe::rememberedBackendIsKept() {
    m_settings->setValue(QStringLiteral("probe/backend"), QStringLiteral("cuda"));
    auto* panel = new ProbePanel(m_session.get(), m_window->hardwareCatalog(), m_window->document(),
                                 m_window->appSettings());
    std::unique_ptr<ProbePanel> owner(panel);
    QCOMPARE(child<QComboBox>(panel, "probeBackend")->currentData().toString(),
             QStringLiteral("cuda"));
    ProbeOptions options;
    options.probePath = writeProbe(
        *m_dir, fakeProbe({startLine("cpu"), doneLine(0, 0)}, "exit 0", {.refusesCuda = true}));
    panel->setBaseOptions(options);
    QTRY_VERIFY(child<QPushButton>(panel, "probeRunOnCpu")->isVisibleTo(panel));
    QCOMPARE(child<QComboBox>(panel, "probeBackend")->currentData().toString(),
             QStringLiteral("cuda"));
}

void TestUiProbe::sshHostRunsThereAndIsRemembered() {
    // A stand-in ssh: records its arguments, skips "-o OPTION" and the host, and runs the
    // remote command here.
    const QString argsFile = m_dir->filePath(QStringLiteral("ssh-args.txt"));
    const QString ssh =
        writeProbe(*m_dir, "#!/bin/bash\nprintf '%s\\n' \"$@\" > '" + argsFile.toUtf8() +
                               "'\nwhile [ \"$1\" = -o ]; do shift 2; done\n"
                               "shift\nexec /bin/sh -c \"$1\"\n");
    qputenv("TALLY_SSH", ssh.toUtf8());
    const QString remoteProbe = writeProbe(
        *m_dir,
        fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult()), doneLine(1, 0)},
                  "exit 0"));
    auto* where = child<QComboBox>(m_panel, "probeWhere");
    auto* host = child<QLineEdit>(m_panel, "probeSshHost");
    auto* path = child<QLineEdit>(m_panel, "probeRemotePath");
    QVERIFY(!host->isEnabled());
    where->setCurrentIndex(where->findData(QStringLiteral("ssh")));
    QVERIFY(host->isEnabled());
    host->setText(QStringLiteral("gpu-box"));
    path->setText(remoteProbe);
    emit path->editingFinished();
    // The tests are listed by the probe on the host.
    QTRY_COMPARE(testList()->count(), 2);
    QCOMPARE(runToEnd().outcome, ProbeOutcome::ok);
    QFile args(argsFile);
    QVERIFY(args.open(QIODevice::ReadOnly));
    const QList<QByteArray> words = args.readAll().split('\n');
    QCOMPARE(words.value(2), QByteArray("gpu-box"));
    QVERIFY(words.value(3).startsWith(remoteProbe.toUtf8() + " --backend "));
    const std::vector<ProbeRunRecord> runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0].host, std::string("fake-host"));  // from the probe's start event
    // Remembered: a new panel starts on the same host.
    QCOMPARE(m_window->appSettings()->probeLocation(), QStringLiteral("ssh"));
    QCOMPARE(m_window->appSettings()->probeSshHost(), QStringLiteral("gpu-box"));
    auto* panel = new ProbePanel(m_session.get(), m_window->hardwareCatalog(), m_window->document(),
                                 m_window->appSettings());
    std::unique_ptr<ProbePanel> owner(panel);
    QCOMPARE(child<QComboBox>(panel, "probeWhere")->currentData().toString(),
             QStringLiteral("ssh"));
    QCOMPARE(child<QLineEdit>(panel, "probeSshHost")->text(), QStringLiteral("gpu-box"));
    QCOMPARE(panel->runOptions().remoteProbe, remoteProbe);
    // Back to this machine: no remote host in the options.
    where->setCurrentIndex(where->findData(QStringLiteral("local")));
    QVERIFY(m_panel->runOptions().remoteHost.isEmpty());
    QCOMPARE(m_window->appSettings()->probeLocation(), QStringLiteral("local"));
    qunsetenv("TALLY_SSH");
}

void TestUiProbe::clusterLauncherRunsTheRanks() {
    // The real probe's tcp backend as four ranks of a stand-in srun on two "nodes", picked under
    // Run on as a user would: the run is the same as `tally probe --launcher` (tst_probe_cluster).
    const QString srun = writeProbe(*m_dir, kFakeSrun);
    ProbeOptions options;
    options.probePath = QStringLiteral(TALLY_PROBE_PATH);
    m_panel->setBaseOptions(options);
    auto* where = child<QComboBox>(m_panel, "probeWhere");
    auto* launcher = child<QLineEdit>(m_panel, "probeLauncher");
    QVERIFY(!launcher->isVisibleTo(m_panel));
    where->setCurrentIndex(where->findData(QStringLiteral("cluster")));
    QVERIFY(launcher->isVisibleTo(m_panel));
    // Only the collectives backends run on a cluster; NCCL first.
    QCOMPARE(backendBox()->currentData().toString(), QStringLiteral("nccl"));
    auto* backends = qobject_cast<QStandardItemModel*>(backendBox()->model());
    QVERIFY(backends != nullptr);
    QVERIFY(!backends->item(backendBox()->findData(QStringLiteral("cuda")))->isEnabled());
    // Start without a launcher says what is missing and starts nothing.
    QTest::mouseClick(startButton(), Qt::LeftButton);
    QVERIFY(!m_panel->isRunning());
    QVERIFY2(messageLabel()->text().contains(QStringLiteral("launcher")),
             qPrintable(messageLabel()->text()));
    launcher->setText(srun + QStringLiteral(" -N 2 --ntasks-per-node 2"));
    emit launcher->editingFinished();
    backendBox()->setCurrentIndex(backendBox()->findData(QStringLiteral("tcp")));
    QTRY_VERIFY_WITH_TIMEOUT(testList()->count() >= 2, 20000);
    for (int i = 0; i < testList()->count(); ++i) {
        QListWidgetItem* item = testList()->item(i);
        item->setCheckState(item->data(Qt::UserRole).toString() == QStringLiteral("all_reduce")
                                ? Qt::Checked
                                : Qt::Unchecked);
    }
    quickBox()->setChecked(true);
    const ProbeExit exit = runToEnd(120000);
    QVERIFY2(exit.outcome == ProbeOutcome::ok, qPrintable(exit.reason));
    const std::vector<ProbeRunRecord> runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0].backend, std::string("tcp"));
    // The tcp backend's quick sizes (1 KiB, 1 MiB) over all four ranks, then over each node's
    // two: four all-reduces, each measured and checked.
    QCOMPARE(runs[0].results.size(), std::size_t{4});
    for (const ProbeResultRecord& r : runs[0].results) {
        QCOMPARE(r.test, std::string("all_reduce"));
        QCOMPARE(r.status, ProbeResultStatus::passed);
    }
    // The ranks met through a file of their own, gone once they did.
    QCOMPARE(QDir::current().entryList({QStringLiteral(".tally-probe-bootstrap-*")},
                                       QDir::Files | QDir::Hidden),
             QStringList());
    // Remembered for the next window.
    QCOMPARE(m_window->appSettings()->probeLocation(), QStringLiteral("cluster"));
    QCOMPARE(m_window->appSettings()->probeLauncher(),
             srun + QStringLiteral(" -N 2 --ntasks-per-node 2"));
    // Back on this machine, the single-machine backends again.
    where->setCurrentIndex(where->findData(QStringLiteral("local")));
    QVERIFY(!clusterBackendShown(backendBox()->currentData().toString()));
    QVERIFY(m_panel->runOptions().launcher.isEmpty());
}

void TestUiProbe::withoutWorkspaceRunsButDoesNotSave() {
    m_session->close();
    QVERIFY(saveLabel()->text().contains(QStringLiteral("not saved")));
    useProbe(
        fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult()), doneLine(1, 0)},
                  "exit 0"));
    QCOMPARE(runToEnd().outcome, ProbeOutcome::ok);
    QCOMPARE(m_panel->resultsModel()->rowCount(), 1);
    QVERIFY2(saveLabel()->text().contains(QStringLiteral("not saved")),
             qPrintable(saveLabel()->text()));
    QVERIFY(savedRuns().empty());
    // Shown and drawn, but not a profile: that needs a stored run.
    QVERIFY(m_panel->currentRun());
    QCOMPARE(m_panel->currentRun()->id, 0);
    QVERIFY(m_window->rooflinePanel()->measuredRun());
    QVERIFY(!makeProfileButton()->isEnabled());
}

void TestUiProbe::refusedSaveIsSaid() {
    // The file is replaced by something that is not a workspace after the session opened it:
    // the run's own connection is refused.
    const QString stranger = m_dir->filePath(QStringLiteral("stranger.txt"));
    {
        QFile file(stranger);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(8192, 'x'));
    }
    QFile::remove(workspacePath() + QStringLiteral("-wal"));
    QFile::remove(workspacePath() + QStringLiteral("-shm"));
    QVERIFY(QFile::remove(workspacePath()));
    QVERIFY(QFile::rename(stranger, workspacePath()));
    useProbe(
        fakeProbe({startLine("cpu"), deviceLine("cpu"), to_json_line(reluResult()), doneLine(1, 0)},
                  "exit 0"));
    QCOMPARE(runToEnd().outcome, ProbeOutcome::ok);
    const QString note = saveLabel()->text();
    QVERIFY2(note.startsWith(QStringLiteral("Not saved")), qPrintable(note));
    QCOMPARE(m_panel->resultsModel()->rowCount(), 1);
    QVERIFY(!makeProfileButton()->isEnabled());
}

void TestUiProbe::newestStoredRunIsShownOnOpening() {
    // A workspace opened with a stored run shows it, and the roofline draws it, as the window
    // did when the run was made: nothing the user measured is hidden by a restart.
    const qint64 id = storeH100Run();
    QVERIFY(!m_panel->currentRun());
    m_session->close();
    QString error;
    QVERIFY2(m_session->open(workspacePath(), &error), qPrintable(error));
    QVERIFY(m_panel->currentRun());
    QCOMPARE(m_panel->currentRun()->id, id);
    QVERIFY(m_window->rooflinePanel()->measuredRun());
}

void TestUiProbe::storedRunIsShownAndOverlaid() {
    const qint64 id = storeH100Run();
    QCOMPARE(m_panel->runsModel()->rowCount(), 1);
    QCOMPARE(m_panel->runsModel()->index(0).data(ProbeRunsModel::IdRole).toLongLong(), id);
    // Picking it in the list shows it.
    QSignalSpy current(m_panel, &ProbePanel::currentRunChanged);
    runsView()->setCurrentIndex(m_panel->runsModel()->index(0));
    QCOMPARE(current.count(), 1);
    QCOMPARE(m_panel->resultsModel()->rowCount(), 3);
    // The stored copy result keeps its test and variant.
    QCOMPARE(textAt(m_panel->resultsModel(), 0, ProbeResultsModel::TestColumn),
             QStringLiteral("memory_bandwidth"));
    QCOMPARE(textAt(m_panel->resultsModel(), 0, ProbeResultsModel::VariantColumn),
             QStringLiteral("copy"));
    QVERIFY(deviceLabel()->text().contains(QStringLiteral("132 SMs")));

    // The roofline draws what measured_roofline() makes of it against the plan's GPU.
    RooflinePanel* roofline = m_window->rooflinePanel();
    QVERIFY(m_window->showPanel(QStringLiteral("roofline")));
    const HardwareProfile& h100 = m_window->document()->views()->hardware;
    const MeasuredRoofline expected =
        measured_roofline(*m_session->workspace()->find_probe_run(id), &h100);
    const MeasuredRoofline& drawn = roofline->measured();
    QCOMPARE(drawn.peaks.size(), std::size_t(1));
    QCOMPARE(drawn.peaks[0].type, ComputeType::bf16);
    QCOMPARE(drawn.peaks[0].flops_per_s, expected.peaks[0].flops_per_s);
    QVERIFY(drawn.bandwidth);
    QCOMPARE(drawn.bandwidth->bytes_per_s, kCopyBytesPerS);
    // By hand: 2.68e12 / 3.35e12 = 0.8; 742.125e12 / 989.5e12 = 0.75.
    QVERIFY(near(*drawn.bandwidth->fraction_of_bandwidth, 0.8));
    QVERIFY(near(*drawn.peaks[0].fraction_of_peak, 0.75));

    // The measured bf16 roof: the bandwidth slope up to the ridge 742.125e12 / 2.68e12 = 276.9
    // FLOP/byte, then flat at 742.125 TFLOP/s.
    QLineSeries* roof = roofline->measuredRoofSeries(ComputeType::bf16);
    QVERIFY(roof != nullptr);
    QVERIFY(roof->isVisible());
    const QList<QPointF> roofPoints = roof->points();
    QCOMPARE(roofPoints.size(), 3);
    QVERIFY(near(roofPoints[1].x(), kMatmulFlopsPerS / kCopyBytesPerS));
    QVERIFY(near(roofPoints[1].y(), 742.125));
    QVERIFY(near(roofPoints[0].y(), roofPoints[0].x() * kCopyBytesPerS / 1e12));
    QVERIFY(near(roofPoints[2].y(), 742.125));
    QVERIFY(roof->name().contains(QStringLiteral("measured bf16")));
    const QString roofTip = measuredRoofTip(drawn, ComputeType::bf16, &h100);
    QVERIFY2(roofTip.contains(QStringLiteral("75.0%")), qPrintable(roofTip));
    QVERIFY2(roofTip.contains(QStringLiteral("80.0%")), qPrintable(roofTip));

    // The points: the matmul at 2730.67 FLOP/byte and 742.125 TFLOP/s, relu at 0.125 and 1e-3.
    QScatterSeries* matmuls = roofline->measuredPointSeries(MeasuredPointKind::matmul);
    QVERIFY(matmuls != nullptr);
    QCOMPARE(matmuls->points().size(), 1);
    QVERIFY(near(matmuls->points()[0].x(), kMatmulFlops / kMatmulBytes));
    QVERIFY(near(matmuls->points()[0].y(), 742.125));
    QScatterSeries* ops = roofline->measuredPointSeries(MeasuredPointKind::seed_op);
    QVERIFY(ops != nullptr);
    QCOMPARE(ops->points().size(), 1);
    QVERIFY(near(ops->points()[0].x(), 0.125));
    QVERIFY(near(ops->points()[0].y(), 1e-3));
    QCOMPARE(expected.points.size(), std::size_t(2));
    const std::vector<MeasuredPoint> relu = roofline->measuredPointsOf(MeasuredPointKind::seed_op);
    QCOMPARE(relu.size(), std::size_t(1));
    QCOMPARE(relu[0].test, std::string("relu"));
    // relu's 8e9 B/s of h100-sxm's 3.35e12 B/s: 0.002388, shown as 0.2%.
    QVERIFY(near(*relu[0].fractions.of_bandwidth, 8e9 / 3.35e12));
    QVERIFY(measuredPointTip(relu[0], &h100).contains(QStringLiteral("0.2%")));
    QTRY_VERIFY(!roofline->measuredLabels().isEmpty());  // once the chart is laid out
    QStringList labels;
    for (QGraphicsSimpleTextItem* item : roofline->measuredLabels()) {
        labels << item->text();
    }
    QVERIFY2(labels.contains(QStringLiteral("relu")), qPrintable(labels.join(u',')));
    QVERIFY2(labels.contains(QStringLiteral("matmul bf16")), qPrintable(labels.join(u',')));

    // A run that is not stored is refused.
    QVERIFY(!m_panel->showStoredRun(id + 100));
    QVERIFY(m_panel->showStoredRun(id));
}

void TestUiProbe::overlayToggle() {
    const qint64 id = storeH100Run();
    QVERIFY(m_panel->showStoredRun(id));
    RooflinePanel* roofline = m_window->rooflinePanel();
    QVERIFY(m_window->showPanel(QStringLiteral("roofline")));
    QVERIFY(roofline->measuredToggle()->isEnabled());
    QVERIFY(roofline->measuredRoofSeries(ComputeType::bf16)->isVisible());
    QTRY_VERIFY(!roofline->measuredLabels().isEmpty());
    roofline->measuredToggle()->setChecked(false);
    QVERIFY(!roofline->measuredRoofSeries(ComputeType::bf16)->isVisible());
    QVERIFY(!roofline->measuredPointSeries(MeasuredPointKind::matmul)->isVisible());
    QVERIFY(roofline->measuredLabels().isEmpty());
    // The plan's own roofs are still drawn.
    QVERIFY(roofline->roofSeries(ComputeType::bf16)->isVisible());
    // "Show on roofline" turns it back on and brings the roofline to the front.
    QVERIFY(m_window->showPanel(QStringLiteral("probe")));
    QTest::mouseClick(showOnRooflineButton(), Qt::LeftButton);
    QCOMPARE(m_window->currentPanel(), QStringLiteral("roofline"));
    QVERIFY(roofline->measuredToggle()->isChecked());
    QVERIFY(roofline->measuredRoofSeries(ComputeType::bf16)->isVisible());
    // No run: nothing measured is drawn, and the toggle says so.
    roofline->setMeasuredRun(std::nullopt);
    QVERIFY(!roofline->measuredToggle()->isEnabled());
    QVERIFY(!roofline->measuredRoofSeries(ComputeType::bf16)->isVisible());
}

void TestUiProbe::bandwidthAloneIsALine() {
    // A run that measured the memory but no matmul: the measured bandwidth is its own slope,
    // intensity x 2.68e12 B/s (at 1 FLOP/byte, 2.68 TFLOP/s).
    ProbeRunRecord run;
    run.backend = "cuda";
    run.started_at = "2026-01-02T03:04:05Z";
    run.status = ProbeRunStatus::ok;
    run.results.push_back(probeResultRow(copyResult()).record);
    RooflinePanel* roofline = m_window->rooflinePanel();
    roofline->setMeasuredRun(run);
    QVERIFY(roofline->measured().peaks.empty());
    QLineSeries* line = roofline->measuredBandwidthSeries();
    QVERIFY(line != nullptr);
    QVERIFY(line->isVisible());
    for (const QPointF& p : line->points()) {
        QVERIFY(near(p.y(), p.x() * 2.68));
    }
    QVERIFY(measuredBandwidthTip(roofline->measured(), &m_window->document()->views()->hardware)
                .contains(QStringLiteral("80.0%")));
}

void TestUiProbe::makesMeasuredProfile() {
    const qint64 id = storeH100Run();
    QVERIFY(m_panel->showStoredRun(id));
    QVERIFY(makeProfileButton()->isEnabled());
    QTest::mouseClick(makeProfileButton(), Qt::LeftButton);
    MeasuredProfileDialog* dialog = m_panel->profileDialog();
    QVERIFY(dialog != nullptr);
    QTRY_VERIFY(dialog->isVisible());
    // The device is an H100 SXM (catalog_profile_for_device); the id comes from its name.
    QCOMPARE(dialog->baseBox()->currentData().toString(), QStringLiteral("h100-sxm"));
    QCOMPARE(dialog->idEdit()->text(), QStringLiteral("nvidia-h100-80gb-hbm3-measured"));
    // The name says which run; the GPU picker adds "(measured)" once, after it.
    QCOMPARE(dialog->nameEdit()->text(),
             QStringLiteral("NVIDIA H100 80GB HBM3, probe run #%1").arg(id));
    dialog->idEdit()->setText(QStringLiteral("my-h100"));
    dialog->nameEdit()->setText(QStringLiteral("My H100"));
    QSignalSpy made(m_panel, &ProbePanel::profileMade);
    QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
    QCOMPARE(made.count(), 1);
    QTRY_VERIFY(m_panel->profileDialog() == nullptr);  // accepted and closed

    const std::optional<HardwareProfile> stored =
        Workspace::open(workspacePath().toStdString()).find_profile("my-h100");
    QVERIFY(stored);
    QCOMPARE(stored->kind, ProfileKind::measured);
    QCOMPARE(stored->bandwidth_bytes_per_s, kCopyBytesPerS);
    QCOMPARE(stored->peak(ComputeType::bf16), kMatmulFlopsPerS);
    // What the run did not measure comes from the base: the H100 SXM's 80 GB.
    QCOMPARE(stored->memory_bytes, 80e9);
    // The GPU picker lists it.
    auto* gpu =
        qobject_cast<GpuEditor*>(m_window->specForm()->editor(QStringLiteral("cluster.gpu")));
    QVERIFY(gpu != nullptr);
    QVERIFY(gpu->comboBox()->findData(QStringLiteral("my-h100"), HardwareListModel::IdRole) >= 0);
    QVERIFY(compareBox()->findData(QStringLiteral("my-h100")) >= 0);

    // The same id again: the workspace's refusal is shown and the dialog stays open.
    QTest::mouseClick(makeProfileButton(), Qt::LeftButton);
    dialog = m_panel->profileDialog();
    QVERIFY(dialog != nullptr);
    QCOMPARE(dialog->idEdit()->text(), QStringLiteral("nvidia-h100-80gb-hbm3-measured"));
    dialog->idEdit()->setText(QStringLiteral("my-h100"));
    dialog->nameEdit()->setText(QStringLiteral("Another H100"));
    QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
    QVERIFY(dialog->isVisible());
    QVERIFY2(dialog->errorLabel()->text().contains(QStringLiteral("my-h100")),
             qPrintable(dialog->errorLabel()->text()));
    QCOMPARE(made.count(), 1);
    dialog->reject();
}

void TestUiProbe::failedRunProfileAsksFirst() {
    ProbeRunRecord run;
    run.backend = "cuda";
    run.host = "gpu-node";
    run.started_at = "2026-01-02T03:04:05Z";
    run.status = ProbeRunStatus::failed;  // stopped after its first result
    run.device_json = deviceLine("cuda");
    run.results.push_back(probeResultRow(copyResult()).record);
    const qint64 id = m_session->workspace()->add_probe_run(run);
    m_session->announceProbeRunsChanged();
    QVERIFY(m_panel->showStoredRun(id));
    QStringList asked;
    bool answer = false;
    UserPrompts prompts = defaultPrompts();
    prompts.confirm = [&](QWidget*, const QString&, const QString& question) {
        asked << question;
        return answer;
    };
    m_panel->setPrompts(prompts);
    // Declined: no dialog.
    QTest::mouseClick(makeProfileButton(), Qt::LeftButton);
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked[0].contains(QStringLiteral("Probe run #%1 failed").arg(id)) &&
                 asked[0].contains(QStringLiteral("its 1 result only if it passed")),
             qPrintable(asked[0]));
    QVERIFY(m_panel->profileDialog() == nullptr);
    // Agreed: the dialog opens.
    answer = true;
    QTest::mouseClick(makeProfileButton(), Qt::LeftButton);
    QCOMPARE(asked.size(), 2);
    QVERIFY(m_panel->profileDialog() != nullptr);
    m_panel->profileDialog()->reject();
}

void TestUiProbe::deletesAStoredRun() {
    const qint64 id = storeH100Run();
    QVERIFY(m_panel->showStoredRun(id));
    auto* deleteButton = child<QPushButton>(m_panel, "probeDeleteRun");
    QVERIFY(deleteButton->isEnabled());
    QStringList asked;
    bool answer = true;
    UserPrompts prompts = defaultPrompts();
    prompts.confirm = [&](QWidget*, const QString&, const QString& question) {
        asked << question;
        return answer;
    };
    m_panel->setPrompts(prompts);

    // A measured profile was made from it: the workspace refuses, naming the profile.
    m_session->workspace()->add_measured_profile(id, "h100-sxm", "lab", "Lab card");
    QTest::mouseClick(deleteButton, Qt::LeftButton);
    QCOMPARE(asked.size(), 1);
    // The question names the run as the list does ("#1 · ... · 3 results").
    QVERIFY2(asked[0].startsWith(QStringLiteral("Delete probe run #%1 ").arg(id)) &&
                 asked[0].contains(QStringLiteral("its 3 results")),
             qPrintable(asked[0]));
    QVERIFY2(messageLabel()->text().contains(QStringLiteral("lab (\"Lab card\")")),
             qPrintable(messageLabel()->text()));
    QCOMPARE(savedRuns().size(), std::size_t(1));

    // Declined: nothing removed.
    m_session->workspace()->remove_profile("lab");
    answer = false;
    QTest::mouseClick(deleteButton, Qt::LeftButton);
    QCOMPARE(asked.size(), 2);
    QCOMPARE(savedRuns().size(), std::size_t(1));

    // Agreed: gone from the file and the list; nothing is shown, so nothing to delete.
    answer = true;
    QTest::mouseClick(deleteButton, Qt::LeftButton);
    QCOMPARE(asked.size(), 3);
    QVERIFY(savedRuns().empty());
    QCOMPARE(m_panel->runsModel()->rowCount(), 0);
    QVERIFY(!m_panel->currentRun().has_value());
    QVERIFY(!deleteButton->isEnabled());
}

void TestUiProbe::realProbeOnCpu() {
    ProbeOptions options;
    options.probePath = QStringLiteral(TALLY_PROBE_PATH);
    // Short cases: this checks the plumbing, not the machine.
    options.extraArguments = {QStringLiteral("--time-limit-s"), QStringLiteral("0.1")};
    m_panel->setBaseOptions(options);
    backendBox()->setCurrentIndex(backendBox()->findData(QStringLiteral("cpu")));
    QTRY_VERIFY_WITH_TIMEOUT(testList()->count() >= 2, 10000);
    for (int i = 0; i < testList()->count(); ++i) {
        QListWidgetItem* item = testList()->item(i);
        const QString name = item->data(Qt::UserRole).toString();
        item->setCheckState(name == QStringLiteral("relu") || name == QStringLiteral("dot")
                                ? Qt::Checked
                                : Qt::Unchecked);
    }
    quickBox()->setChecked(true);
    const ProbeExit exit = runToEnd(60000);
    QVERIFY2(exit.outcome == ProbeOutcome::ok, qPrintable(exit.reason));
    const ProbeResultsModel* model = m_panel->resultsModel();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(textAt(model, 0, ProbeResultsModel::TestColumn), QStringLiteral("relu"));
    QCOMPARE(textAt(model, 1, ProbeResultsModel::TestColumn), QStringLiteral("dot"));
    const std::vector<ProbeRunRecord> runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0].results.size(), std::size_t(2));
    for (int row = 0; row < 2; ++row) {
        QCOMPARE(textAt(model, row, ProbeResultsModel::StatusColumn), QStringLiteral("passed"));
        // The table shows what was saved.
        QCOMPARE(valueAt(model, row, ProbeResultsModel::FlopsColumn),
                 *runs[0].results[static_cast<std::size_t>(row)].flops_per_s);
    }
    QVERIFY(!deviceLabel()->text().isEmpty());
    QCOMPARE(m_window->rooflinePanel()->measuredRun()->id, runs[0].id);
    QCOMPARE(m_window->rooflinePanel()->measured().points.size(), std::size_t(2));
}

void TestUiProbe::realPlanGemmsMakeAProfileThatTimesThePlan() {
    // The lecture's MLP in fp32 (D = 512, B = 256): two distinct GEMMs, 256 x 512 over 512 and
    // 512 x 512 over 256 (planGemmsBecomeArguments). The real CPU probe times them, the run
    // makes a profile on the H100's other figures, and the plan on that profile takes both
    // times from the run.
    PlanSpec spec = test::lecture_mlp_spec(512, 256, 2);
    spec.training.compute_dtype = DType::fp32;
    m_window->document()->reset(spec);
    ProbeOptions options;
    options.probePath = QStringLiteral(TALLY_PROBE_PATH);
    options.extraArguments = {QStringLiteral("--time-limit-s"), QStringLiteral("0.1")};
    m_panel->setBaseOptions(options);
    backendBox()->setCurrentIndex(backendBox()->findData(QStringLiteral("cpu")));
    QTRY_VERIFY_WITH_TIMEOUT(testList()->count() >= 2, 10000);
    child<QCheckBox>(m_panel, "probePlanGemms")->setChecked(true);
    const ProbeExit exit = runToEnd(60000);
    QVERIFY2(exit.outcome == ProbeOutcome::ok, qPrintable(exit.reason));
    QCOMPARE(m_panel->resultsModel()->rowCount(), 2);
    const std::vector<ProbeRunRecord> runs = savedRuns();
    QCOMPARE(runs.size(), std::size_t(1));

    QVERIFY(m_panel->showStoredRun(runs[0].id));
    QTest::mouseClick(makeProfileButton(), Qt::LeftButton);
    MeasuredProfileDialog* dialog = m_panel->profileDialog();
    QVERIFY(dialog != nullptr);
    QTRY_VERIFY(dialog->isVisible());
    QVERIFY(dialog->okButton()->isEnabled());
    // The CPU matches no catalog part and the run measured no peak or bandwidth to stand alone
    // on: the plan's GPU is offered as the base.
    QCOMPARE(dialog->baseBox()->currentData().toString(), QStringLiteral("h100-sxm"));
    dialog->idEdit()->setText(QStringLiteral("cpu-gemms"));
    dialog->nameEdit()->setText(QStringLiteral("CPU GEMMs"));
    QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
    QTRY_VERIFY(m_panel->profileDialog() == nullptr);
    const std::optional<HardwareProfile> stored =
        Workspace::open(workspacePath().toStdString()).find_profile("cpu-gemms");
    QVERIFY(stored);
    QCOMPARE(stored->measured_gemms.size(), std::size_t(2));
    const GemmSources sources = gemm_sources(spec, *stored);
    QCOMPARE(sources.measured, 2);
    QCOMPARE(sources.modelled, 0);
}

QTEST_MAIN(TestUiProbe)
#include "tst_ui_probe.moc"
