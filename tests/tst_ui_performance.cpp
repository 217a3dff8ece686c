// The window's view of the performance model: the Time panel's step-time bar and its MFU figures,
// the MFU field's "predicted" choice, and the Layouts panel (its ranking, the plan's own layout
// marked, Apply as one undoable edit), driven as a user drives them.
#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHorizontalStackedBarSeries>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <memory>

#include "planner/io/examples.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/training/layout_search.h"
#include "tests/chart_test_util.h"
#include "ui/charts/figure_table_model.h"
#include "ui/charts/figure_text.h"
#include "ui/charts/layout_table_model.h"
#include "ui/charts/layouts_panel.h"
#include "ui/charts/time_panel.h"
#include "ui/common/number_text.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/spec_form.h"
#include "ui/plan/summary_bar.h"
#include "ui/window/main_window.h"

using namespace tally;
using namespace tally::ui;
using tally::test::drawnLegend;

class TestUiPerformance : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void stepBarAddsUpToTheStep_data();
    void stepBarAddsUpToTheStep();
    void stepBarFollowsTheSliders();
    void stepTermsShowTheirFormula();
    void mfuPredictedRoundTrips();
    void mfuSliderLeftEndIsPredicted();
    void layoutsSearchOnlyWhileVisible();
    void layoutsFirstRowIsBest_data();
    void layoutsFirstRowIsBest();
    void applyLayoutIsOneUndoableEdit();
    void layoutsSearchAClusterThePlansLayoutDoesNotDivide();
    void applyOnTheStartPlanChangesTheDays();
    void stepLegendFollowsANewPlan();
    void stepLegendFitsALaptopScreen();
    void gpusForNDaysInTheTimePanel();
    void gpusForNDaysLayoutAddsUp();
    void gpusForNDaysOfAParameterCountNamesNoLayout();
    void daysChartKeepsPointsOffItsEdges();
    void layoutsSayApplyKeepsTheDaysUnderAnAssumedMfu();

private:
    MainWindow* makeWindow();
    static void typeInto(QLineEdit* edit, const QString& text);
    static void waitForSearch(LayoutsPanel* panel);
    static PlanSpec llama3Spec();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<MainWindow> m_window;
};

namespace {
// 6 x 70e9 x 15e12 / (989.5e12 x 0.5 x 1024 x 86400) = 143.93 days (CS336 lecture 2, seed 003).
const double kSeedDays = 6.0 * 70e9 * 15e12 / (989.5e12 * 0.5 * 1024 * 86400);

double stackedSum(QHorizontalStackedBarSeries* series) {
    double sum = 0.0;
    for (QBarSet* set : series->barSets()) {
        sum += set->at(0);
    }
    return sum;
}
}  // namespace

void TestUiPerformance::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("tally.ini")),
                                             QSettings::IniFormat);
    m_window.reset(makeWindow());
}

void TestUiPerformance::cleanup() {
    m_window.reset();
    m_settings.reset();
    m_dir.reset();
}

MainWindow* TestUiPerformance::makeWindow() {
    MainWindow::Options options;
    options.settings = m_settings.get();
    auto* w = new MainWindow(options);
    // The lecture's question 1, whose figures the tests derive by hand (the window itself opens
    // on start_plan_spec()).
    w->document()->startNew(default_plan_spec());
    w->show();
    if (!QTest::qWaitForWindowExposed(w)) {
        qWarning("window not exposed");
    }
    return w;
}

void TestUiPerformance::typeInto(QLineEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

void TestUiPerformance::waitForSearch(LayoutsPanel* panel) {
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isSearching(), 60000);
}

// Llama 3 70B (the preset: 80 layers, hidden 8192, 64 heads, 8 KV heads) on 15T tokens of 8192
// tokens on 1024 H100, 4M tokens a step (512 sequences), tp 8, pp 4, ZeRO-1: a plan every
// part of the performance model takes part in.
PlanSpec TestUiPerformance::llama3Spec() {
    PlanSpec s = default_plan_spec();
    s.model = find_model_preset("llama-3-70b")->model;
    s.data.seq_len = 8192;
    s.data.global_batch = 512;
    s.training.tp = 8;
    s.training.pp = 4;
    s.training.zero = 1;
    s.training.sequence_parallel = true;
    s.training.recompute = Recompute::selective;
    return s;
}

void TestUiPerformance::stepBarAddsUpToTheStep_data() {
    QTest::addColumn<bool>("llama3");
    QTest::newRow("seed 70B, 1024 H100") << false;
    QTest::newRow("Llama 3 70B, tp 8 pp 4") << true;
}

// The bar stacks the critical path's terms; planner/performance/performance.h defines the step as
// their sum (compute + recompute + memory-bound + TP + PP comm + PP bubble + DP exposed + EP +
// CP + launch gaps + NCCL SMs + offload + optimizer), so the bar's length is the step.
void TestUiPerformance::stepBarAddsUpToTheStep() {
    QFETCH(bool, llama3);
    MainWindow& w = *m_window;
    if (llama3) {
        w.document()->reset(llama3Spec());
        QVERIFY(!w.document()->error());
    }
    w.showPanel(QStringLiteral("time"));
    TimePanel* time = w.timePanel();
    const PerformanceBreakdown& f = w.document()->views()->plan.performance;
    QVERIFY(f.step_s > 0.0);
    QCOMPARE(time->stepSeries()->count(), 13);
    const double sum = stackedSum(time->stepSeries());
    QVERIFY2(std::abs(sum - f.step_s) <= 1e-12 * f.step_s,
             qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(f.step_s)));
    // Each bar is its term, in the documented order.
    const double terms[] = {f.compute_s,  f.recompute_s, f.memory_bound_s,    f.tp_comm_s,
                            f.pp_comm_s,  f.pp_bubble_s, f.dp_comm_exposed_s, f.ep_comm_s,
                            f.cp_comm_s,  f.overhead_s,  f.comm_contention_s, f.offload_s,
                            f.optimizer_s};
    for (int i = 0; i < 13; ++i) {
        QCOMPARE(time->stepSeries()->barSets().at(i)->at(0), terms[i]);
    }
    // The legend lists the terms that take time, and only those.
    const QList<QLegendMarker*> markers =
        time->stepSeries()->chart()->legend()->markers(time->stepSeries());
    QCOMPARE(markers.size(), 13);
    int listed = 0;
    for (int i = 0; i < 13; ++i) {
        QCOMPARE(markers.at(i)->isVisible(), terms[i] > 0.0);
        listed += markers.at(i)->isVisible() ? 1 : 0;
    }
    QVERIFY(listed >= 1);
    if (llama3) {
        // tp 8 and pp 4 put time on the tensor-parallel collectives and the pipeline bubble.
        QVERIFY(f.tp_comm_s > 0.0);
        QVERIFY(f.pp_bubble_s > 0.0);
        // The 1F1B bubble: (pp - 1) / m of the ideal time, m = 512 / (1 x 32) = 16 micro-batches
        // per step (dp = 1024 / (8 x 4) = 32): 3/16 of m micro-batch times (Narayanan et al.
        // 2021, sec. 2.2.1).
        QCOMPARE(f.microbatches, std::int64_t{16});
        QVERIFY(std::abs(f.pp_bubble_s - 3.0 / 16.0 * 16.0 * f.microbatch_s) <=
                1e-9 * f.pp_bubble_s);
    }
}

void TestUiPerformance::stepBarFollowsTheSliders() {
    MainWindow& w = *m_window;
    w.document()->reset(llama3Spec());
    w.showPanel(QStringLiteral("time"));
    QSlider* pp = w.specForm()->numberEditor(QStringLiteral("training.pp"))->slider();
    const double before = stackedSum(w.timePanel()->stepSeries());
    // pp 4 -> 8 on a powers-of-two slider from 1: position 3.
    pp->setSliderDown(true);
    pp->setSliderPosition(3);
    pp->setSliderDown(false);
    QCOMPARE(w.document()->spec().training.pp, std::int64_t{8});
    QVERIFY(!w.document()->error());
    const Plan plan =
        evaluate(w.document()->spec(), resolve_builtin_hardware(w.document()->spec()));
    const double after = stackedSum(w.timePanel()->stepSeries());
    QVERIFY(after != before);
    QVERIFY(std::abs(after - plan.performance.step_s) <= 1e-12 * after);
    QCOMPARE(w.timePanel()->stepSeries()->barSets().at(5)->at(0), plan.performance.pp_bubble_s);
}

void TestUiPerformance::stepTermsShowTheirFormula() {
    MainWindow& w = *m_window;
    w.document()->reset(llama3Spec());
    w.showPanel(QStringLiteral("time"));
    const PlanViews& v = *w.document()->views();
    // The bubble's tooltip is the planner's explanation with the plan's numbers: (pp - 1) /
    // (v x m) with pp 4, v 1 and m 16.
    const QString bubble = w.timePanel()->stepTermTip(5);
    QVERIFY2(bubble.contains(QStringLiteral("(pp - 1) / (v x m)")), qPrintable(bubble));
    QVERIFY2(bubble.contains(QStringLiteral("(4 - 1) / (1 x 16)")), qPrintable(bubble));
    QVERIFY(bubble.contains(QStringLiteral("Narayanan")));
    // The sends' tooltip names their inputs: one virtual stage, 16 micro-batches of 1 x 8192
    // tokens, hidden 8192 split over tp 8.
    const QString sends = w.timePanel()->stepTermTip(4);
    QVERIFY2(sends.contains(QStringLiteral("v 1, 16 micro-batches of T = 1 x 8192 tokens, h 8192, "
                                           "tp 8")),
             qPrintable(sends));
    // Every term has its formula and source.
    const std::vector<FigureRow> terms = stepTerms(v);
    QCOMPARE(terms.size(), std::size_t{13});
    for (std::size_t i = 0; i < terms.size(); ++i) {
        QCOMPARE(w.timePanel()->stepTermTip(static_cast<int>(i)), terms[i].tooltip);
        QVERIFY2(terms[i].tooltip.contains(QStringLiteral("Source: ")), qPrintable(terms[i].key));
        // A term without numbers has no empty "= " line.
        QVERIFY2(!terms[i].tooltip.contains(QStringLiteral("\n= \n")), qPrintable(terms[i].key));
    }
    // The table names both MFUs and which sets the time (the seed plan assumes 0.5).
    FigureTableModel* table = w.timePanel()->model();
    const int source = table->rowOf(QStringLiteral("time.mfu_source"));
    QVERIFY(source >= 0);
    QCOMPARE(table->index(source, FigureTableModel::ValueColumn).data().toString(),
             QStringLiteral("assumed MFU"));
    const int predicted = table->rowOf(QStringLiteral("performance.mfu"));
    QVERIFY(predicted >= 0);
    QCOMPARE(table->index(predicted, FigureTableModel::ValueColumn)
                 .data(FigureTableModel::ValueRole)
                 .toDouble(),
             v.plan.performance.mfu);
}

// "predicted" typed into the MFU field: the spec says so, the time comes from the model, the
// file says "predicted", and it reads back; a number assumes it again; Ctrl+Z undoes each.
void TestUiPerformance::mfuPredictedRoundTrips() {
    MainWindow& w = *m_window;
    NumberEditor* mfu = w.specForm()->numberEditor(QStringLiteral("cluster.mfu"));
    QVERIFY(mfu);
    QCOMPARE(mfu->lineEdit()->text(), QStringLiteral("0.5"));
    typeInto(mfu->lineEdit(), QStringLiteral("predicted"));
    QVERIFY(w.document()->spec().cluster.mfu_predicted);
    QCOMPARE(mfu->lineEdit()->text(), QStringLiteral("predicted"));
    const Plan& plan = w.document()->views()->plan;
    QVERIFY(plan.time.mfu_predicted);
    // Time from the model: steps x step time / 86400 s; the seed's 15e12 tokens in steps of
    // 1024 sequences x 4096 tokens = 4194304 tokens: 15e12 / 4194304 = 3576278.7 steps.
    QVERIFY(std::abs(plan.parallel.steps - 15e12 / (1024.0 * 4096.0)) < 1e-6);
    QVERIFY(std::abs(plan.time.days - plan.parallel.steps * plan.performance.step_s / 86400.0) <=
            1e-12 * plan.time.days);
    w.showPanel(QStringLiteral("time"));
    QVERIFY(w.timePanel()->mfuSource()->text().contains(QStringLiteral("predicted MFU")));

    // The file writes "predicted" and opening it brings the choice back.
    const QString path = m_dir->filePath(QStringLiteral("predicted.json"));
    QString error;
    QVERIFY2(w.saveFile(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject cluster = QJsonDocument::fromJson(file.readAll())
                                    .object()
                                    .value(QStringLiteral("cluster"))
                                    .toObject();
    QCOMPARE(cluster.value(QStringLiteral("mfu")).toString(), QStringLiteral("predicted"));
    w.document()->reset(default_plan_spec());
    QCOMPARE(mfu->lineEdit()->text(), QStringLiteral("0.5"));
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QVERIFY(w.document()->spec().cluster.mfu_predicted);
    QCOMPARE(mfu->lineEdit()->text(), QStringLiteral("predicted"));

    // A number assumes it again: 6 x 70e9 x 15e12 / (989.5e12 x 0.4 x 1024 x 86400) days.
    typeInto(mfu->lineEdit(), QStringLiteral("0.4"));
    QVERIFY(!w.document()->spec().cluster.mfu_predicted);
    QCOMPARE(w.document()->spec().cluster.mfu, 0.4);
    QVERIFY(std::abs(w.document()->views()->plan.time.days - kSeedDays * 0.5 / 0.4) <
            1e-9 * kSeedDays);
    w.activateWindow();
    QTest::keySequence(&w, QKeySequence::Undo);
    QVERIFY(w.document()->spec().cluster.mfu_predicted);
    QCOMPARE(mfu->lineEdit()->text(), QStringLiteral("predicted"));
}

void TestUiPerformance::mfuSliderLeftEndIsPredicted() {
    MainWindow& w = *m_window;
    NumberEditor* mfu = w.specForm()->numberEditor(QStringLiteral("cluster.mfu"));
    // 0.5 on a linear 0..1 slider of 1000 positions: position 500.
    QCOMPARE(mfu->slider()->value(), 500);
    mfu->slider()->setValue(0);
    QVERIFY(w.document()->spec().cluster.mfu_predicted);
    QCOMPARE(mfu->lineEdit()->text(), QStringLiteral("predicted"));
    // The assumed value is kept for when a number is assumed again.
    QCOMPARE(w.document()->spec().cluster.mfu, 0.5);
    w.document()->undoStack()->undo();
    QVERIFY(!w.document()->spec().cluster.mfu_predicted);
    QCOMPARE(mfu->slider()->value(), 500);
}

void TestUiPerformance::layoutsSearchOnlyWhileVisible() {
    MainWindow& w = *m_window;
    LayoutsPanel* layouts = w.layoutsPanel();
    QAbstractItemModelTester tester(layouts->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    // The window opens on the memory tab: nothing searched yet.
    QCOMPARE(w.currentPanel(), QStringLiteral("memory"));
    QVERIFY(!layouts->isSearching());
    QCOMPARE(layouts->model()->rowCount(), 0);
    QVERIFY(w.showPanel(QStringLiteral("layouts")));
    waitForSearch(layouts);
    QVERIFY(layouts->model()->rowCount() > 0);
    QVERIFY(layouts->model()->rowCount() <= static_cast<int>(LayoutsPanel::kTop));
    QVERIFY(layouts->searchedSpec());
    QCOMPARE(*layouts->searchedSpec(), w.document()->spec());
    qInfo("layout search, the start plan: %.1f ms, %lld layouts, %lld fit", layouts->lastSearchMs(),
          static_cast<long long>(layouts->model()->result().candidates),
          static_cast<long long>(layouts->model()->result().feasible));
    // Another ranking, picked while the list is in front, is searched at once.
    QComboBox* by = layouts->objectiveBox();
    by->setCurrentIndex(by->findData(static_cast<int>(LayoutObjective::cost)));
    QVERIFY(layouts->isSearching());
    waitForSearch(layouts);
    QCOMPARE(layouts->model()->objective(), LayoutObjective::cost);
    // Hidden again, an edit does not search.
    w.showPanel(QStringLiteral("memory"));
    typeInto(w.specForm()->numberEditor(QStringLiteral("cluster.gpus"))->lineEdit(),
             QStringLiteral("2048"));
    QVERIFY(!layouts->isSearching());
    QCOMPARE(layouts->searchedSpec()->cluster.gpus, std::int64_t{1024});
    // Shown, it catches up.
    w.showPanel(QStringLiteral("layouts"));
    waitForSearch(layouts);
    QCOMPARE(layouts->searchedSpec()->cluster.gpus, std::int64_t{2048});
}

void TestUiPerformance::layoutsFirstRowIsBest_data() {
    QTest::addColumn<bool>("llama3");
    QTest::addColumn<int>("objective");
    QTest::newRow("seed 70B, time") << false << static_cast<int>(LayoutObjective::time);
    QTest::newRow("Llama 3 70B, time") << true << static_cast<int>(LayoutObjective::time);
    QTest::newRow("Llama 3 70B, cost") << true << static_cast<int>(LayoutObjective::cost);
}

void TestUiPerformance::layoutsFirstRowIsBest() {
    QFETCH(bool, llama3);
    QFETCH(int, objective);
    MainWindow& w = *m_window;
    if (llama3) {
        w.document()->reset(llama3Spec());
    }
    LayoutsPanel* layouts = w.layoutsPanel();
    QComboBox* by = layouts->objectiveBox();
    by->setCurrentIndex(by->findData(objective));
    w.showPanel(QStringLiteral("layouts"));
    waitForSearch(layouts);
    LayoutTableModel* model = layouts->model();
    QCOMPARE(model->objective(), static_cast<LayoutObjective>(objective));
    QVERIFY(model->rowCount() > 1);
    if (llama3) {
        qInfo("layout search, Llama 3 70B on 1024 H100: %.1f ms, %lld layouts, %lld fit",
              layouts->lastSearchMs(), static_cast<long long>(model->result().candidates),
              static_cast<long long>(model->result().feasible));
    }
    const int column = objective == static_cast<int>(LayoutObjective::time)
                           ? LayoutTableModel::StepColumn
                           : LayoutTableModel::ObjectiveColumn;
    const double first = model->index(0, column).data(LayoutTableModel::ValueRole).toDouble();
    QVERIFY(first > 0.0);
    for (int row = 1; row < model->rowCount(); ++row) {
        QVERIFY(first <= model->index(row, column).data(LayoutTableModel::ValueRole).toDouble());
    }
    // Every listed layout fits: its memory is within the GPU's 80 GB.
    for (int row = 0; row < model->rowCount(); ++row) {
        QVERIFY(model->index(row, LayoutTableModel::MemoryColumn)
                    .data(LayoutTableModel::ValueRole)
                    .toDouble() <= 80e9);
    }
}

// Apply puts exactly the row's layout into the plan (the tokens per step kept), as one step
// Ctrl+Z takes back; the list then marks it as the plan's own.
void TestUiPerformance::applyLayoutIsOneUndoableEdit() {
    MainWindow& w = *m_window;
    w.document()->reset(llama3Spec());
    LayoutsPanel* layouts = w.layoutsPanel();
    w.showPanel(QStringLiteral("layouts"));
    waitForSearch(layouts);
    LayoutTableModel* model = layouts->model();
    QVERIFY(model->rowCount() > 1);
    const PlanSpec before = w.document()->spec();
    const int row = model->currentRow() == 0 ? 1 : 0;
    auto cell = [&](int column) {
        return static_cast<std::int64_t>(
            model->index(row, column).data(LayoutTableModel::ValueRole).toDouble());
    };
    const std::int64_t tp = cell(LayoutTableModel::TpColumn);
    const std::int64_t pp = cell(LayoutTableModel::PpColumn);
    const std::int64_t dp = cell(LayoutTableModel::DpColumn);
    const std::int64_t mb = cell(LayoutTableModel::MicroBatchColumn);
    const std::int64_t zero = cell(LayoutTableModel::ZeroColumn);
    const std::int64_t recompute = cell(LayoutTableModel::RecomputeColumn);
    const std::int64_t sp = cell(LayoutTableModel::SequenceParallelColumn);
    const std::int64_t interleave = cell(LayoutTableModel::InterleaveColumn);
    const std::int64_t ep = cell(LayoutTableModel::ExpertParallelColumn);
    const std::int64_t cp = cell(LayoutTableModel::ContextParallelColumn);
    const double step = model->index(row, LayoutTableModel::StepColumn)
                            .data(LayoutTableModel::ValueRole)
                            .toDouble();

    layouts->table()->selectRow(row);
    QVERIFY(layouts->applyButton()->isEnabled());
    QUndoStack* undo = w.document()->undoStack();
    const int steps = undo->count();
    QTest::mouseClick(layouts->applyButton(), Qt::LeftButton);
    QCOMPARE(undo->count(), steps + 1);

    const PlanSpec& after = w.document()->spec();
    QVERIFY(!w.document()->error());
    QCOMPARE(after.training.tp, tp);
    QCOMPARE(after.training.pp, pp);
    QCOMPARE(after.cluster.gpus / (tp * pp * cp), dp);
    QCOMPARE(after.data.micro_batch, mb);
    QCOMPARE(std::int64_t{after.training.zero}, zero);
    QCOMPARE(static_cast<std::int64_t>(after.training.recompute), recompute);
    QCOMPARE(after.training.sequence_parallel, sp == 1);
    QCOMPARE(after.training.interleave, interleave);
    QCOMPARE(after.training.expert_parallel, ep);
    QCOMPARE(after.training.context_parallel, cp);
    // Nothing else changed: the spec with the layout keys put back is the one before (the global
    // batch was explicit, 512 sequences, and stays).
    PlanSpec rest = after;
    rest.training.tp = before.training.tp;
    rest.training.pp = before.training.pp;
    rest.data.micro_batch = before.data.micro_batch;
    rest.training.zero = before.training.zero;
    rest.training.recompute = before.training.recompute;
    rest.training.sequence_parallel = before.training.sequence_parallel;
    rest.training.interleave = before.training.interleave;
    rest.training.expert_parallel = before.training.expert_parallel;
    rest.training.context_parallel = before.training.context_parallel;
    rest.training.first_stage_layers = before.training.first_stage_layers;
    rest.training.last_stage_layers = before.training.last_stage_layers;
    QCOMPARE(rest, before);
    // The plan's step is the row's.
    QCOMPARE(w.document()->views()->plan.performance.step_s, step);
    // The list, searched again, marks the applied layout as the plan's own.
    waitForSearch(layouts);
    QCOMPARE(model->currentRow(), row);
    QVERIFY(model->index(row, 0).data(LayoutTableModel::CurrentRole).toBool());
    // Its "#" cell marks it with an arrow beside the rank, whole (the mark arrives without a
    // reset of the list, which would size the columns), and its tooltip says why.
    const QString mark = model->index(row, 0).data(Qt::DisplayRole).toString();
    QCOMPARE(mark, QStringLiteral("%1 \u25C0").arg(row + 1));
    QVERIFY(model->index(row, 0)
                .data(Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("The plan's own layout.")));
    QFont bold = layouts->table()->font();
    bold.setBold(true);
    QVERIFY2(layouts->table()->columnWidth(0) >= QFontMetrics(bold).horizontalAdvance(mark),
             qPrintable(QString::number(layouts->table()->columnWidth(0))));

    w.activateWindow();
    QTest::keySequence(&w, QKeySequence::Undo);
    QCOMPARE(w.document()->spec(), before);
    waitForSearch(layouts);
    QVERIFY(model->currentRow() != row);
}

// 1024 GPUs at tp 8 x pp 4 edited to 2560: dp = 2560 / 32 = 80 does not divide the 512
// sequences of a step, so the plan is not drawn; the Layouts panel searches the edited cluster
// anyway (choosing tp and pp is its job) and lists tp 8 x pp 5 x dp 64 (512 / 64 = 8 sequences
// per rank, 80 layers / 5 = 16 per stage); applying a row makes the plan valid again.
void TestUiPerformance::layoutsSearchAClusterThePlansLayoutDoesNotDivide() {
    MainWindow& w = *m_window;
    w.document()->reset(llama3Spec());
    LayoutsPanel* layouts = w.layoutsPanel();
    w.showPanel(QStringLiteral("layouts"));
    waitForSearch(layouts);
    typeInto(w.specForm()->numberEditor(QStringLiteral("cluster.gpus"))->lineEdit(),
             QStringLiteral("2560"));
    QVERIFY(w.document()->error());
    QCOMPARE(w.document()->error()->field, std::string("data.global_batch"));
    waitForSearch(layouts);
    QVERIFY(layouts->searchedSpec());
    QCOMPARE(layouts->searchedSpec()->cluster.gpus, std::int64_t{2560});
    LayoutTableModel* model = layouts->model();
    QVERIFY(model->rowCount() > 0);
    QVERIFY2(layouts->status()->text().contains(QStringLiteral("2560")),
             qPrintable(layouts->status()->text()));
    for (int row = 0; row < model->rowCount(); ++row) {
        const RankedLayout* l = model->layoutAt(row);
        QCOMPARE(l->layout.tp * l->layout.pp * l->layout.context_parallel * l->layout.dp,
                 std::int64_t{2560});
    }
    QVERIFY(layouts->applyRow(0));
    QVERIFY(!w.document()->error());
    QCOMPARE(w.document()->spec().cluster.gpus, std::int64_t{2560});
    QCOMPARE(w.document()->spec().data.global_batch, std::int64_t{512});
}

// The start plan's time rests on the predicted step, so a faster layout shortens the run: days =
// steps x step / 86400, and Apply keeps the steps (tokens / tokens per step, the global batch
// kept), so days after / days before = step after / step before.
void TestUiPerformance::applyOnTheStartPlanChangesTheDays() {
    QVERIFY(start_plan_spec().cluster.mfu_predicted);
    MainWindow& w = *m_window;
    w.document()->startNew(start_plan_spec());
    const Plan before = w.document()->views()->plan;
    LayoutsPanel* layouts = w.layoutsPanel();
    w.showPanel(QStringLiteral("layouts"));
    waitForSearch(layouts);
    LayoutTableModel* model = layouts->model();
    QVERIFY(model->rowCount() > 0);
    QVERIFY(model->currentRow() != 0);  // the search finds a faster layout than the plan's
    QVERIFY(layouts->applyRow(0));
    const Plan after = w.document()->views()->plan;
    QCOMPARE(after.parallel.steps, before.parallel.steps);
    QVERIFY(after.performance.step_s < before.performance.step_s);
    QVERIFY(std::abs(after.time.days / before.time.days -
                     after.performance.step_s / before.performance.step_s) < 1e-12);
    QVERIFY(after.time.cost < before.time.cost);
}

// Under an assumed MFU, days = FLOPs / (peak x MFU x GPUs) whatever the layout: the panel says
// that Apply changes the step and the memory only.
void TestUiPerformance::layoutsSayApplyKeepsTheDaysUnderAnAssumedMfu() {
    MainWindow& w = *m_window;
    PlanSpec assumed = llama3Spec();  // MFU 0.5, assumed
    QVERIFY(!assumed.cluster.mfu_predicted);
    w.document()->reset(assumed);
    LayoutsPanel* layouts = w.layoutsPanel();
    w.showPanel(QStringLiteral("layouts"));
    waitForSearch(layouts);
    QVERIFY2(layouts->status()->text().contains(QStringLiteral("not the days")),
             qPrintable(layouts->status()->text()));
    PlanSpec predicted = assumed;
    predicted.cluster.mfu_predicted = true;
    w.document()->reset(predicted);
    waitForSearch(layouts);
    QVERIFY(!layouts->status()->text().contains(QStringLiteral("not the days")));
}

// The labels of the step's terms that take time in the window's plan, sorted: the legend entries
// a user should see.
QStringList timedTerms(MainWindow& w) {
    QStringList out;
    for (const FigureRow& term : stepTerms(*w.document()->views())) {
        if (term.value > 0.0) {
            out.append(term.label);
        }
    }
    out.sort();
    return out;
}

// The lecture's question 1 (a params model: compute, DP and the optimizer only) in front on the
// Time tab, then File > New (the start plan: tp 8, pp 4, so TP comm, PP comm and the bubble take
// time too): every term that takes time has a labelled legend entry, and no other entry is drawn.
void TestUiPerformance::stepLegendFollowsANewPlan() {
    MainWindow& w = *m_window;
    w.showPanel(QStringLiteral("time"));
    TimePanel* time = w.timePanel();
    QChart* chart = time->stepSeries()->chart();
    QCoreApplication::processEvents();
    w.document()->startNew(start_plan_spec());
    QCoreApplication::processEvents();
    w.repaint();
    const QStringList expected = timedTerms(w);
    QVERIFY(expected.contains(QStringLiteral("Memory-bound")));
    QVERIFY(expected.contains(QStringLiteral("TP comm")));
    QCOMPARE(drawnLegend(chart), expected);
    // And back: the terms that no longer take time leave no gap.
    w.document()->startNew(default_plan_spec());
    QCoreApplication::processEvents();
    w.repaint();
    const QStringList back = timedTerms(w);
    QCOMPARE(drawnLegend(chart), back);
}

// On a laptop's screen (1366 x 768, the window a little shorter for the taskbar) the start plan's
// step takes nine terms or more, one legend line each beside the bar: every one of them is drawn,
// none dropped for want of height.
void TestUiPerformance::stepLegendFitsALaptopScreen() {
    MainWindow& w = *m_window;
    w.resize(1366, 700);
    w.showPanel(QStringLiteral("time"));
    TimePanel* time = w.timePanel();
    QChart* chart = time->stepSeries()->chart();
    w.document()->startNew(start_plan_spec());
    QCoreApplication::processEvents();
    w.repaint();
    const QStringList expected = timedTerms(w);
    QVERIFY(expected.size() >= 9);
    QCOMPARE(drawnLegend(chart), expected);
}

// "GPUs to train it in D days" answers as `tally solve min-gpus` does, and the answer meets D.
void TestUiPerformance::gpusForNDaysInTheTimePanel() {
    MainWindow& w = *m_window;
    PlanSpec spec = llama3Spec();
    spec.data.tokens = 1e11;  // a short run: a small cluster trains it in 30 days
    spec.cluster.mfu_predicted = true;
    w.document()->reset(spec);
    w.showPanel(QStringLiteral("time"));
    TimePanel* time = w.timePanel();
    time->minGpusDays()->setText(QStringLiteral("30"));
    QSignalSpy found(time, &TimePanel::minGpusFound);
    QTest::mouseClick(time->minGpusFind(), Qt::LeftButton);
    QVERIFY(found.wait(60000));
    const auto expected = solve_min_gpus(spec, w.document()->views()->hardware, 30.0, 1 << 20);
    QVERIFY(expected);
    QVERIFY(expected->time.days <= 30.0);
    QVERIFY2(time->minGpusResult()->text().startsWith(QString::number(expected->gpus) +
                                                      QStringLiteral(" GPUs")),
             qPrintable(time->minGpusResult()->text()));
    // What the answer spends: GPU-hours = GPUs x days x 24.
    QVERIFY2(time->minGpusResult()->text().contains(
                 formatShort(static_cast<double>(expected->gpus) * expected->time.days * 24.0) +
                 QStringLiteral(" GPU-hours")),
             qPrintable(time->minGpusResult()->text()));
    // A new plan takes the answer away (it was the old plan's).
    spec.cluster.gpus = 2048;
    w.document()->edit(spec, QStringLiteral("gpus"));
    QVERIFY(time->minGpusResult()->text().isEmpty());
    // Days it cannot take: the box is marked and the message says what it holds.
    for (const QString& bad : {QStringLiteral("abc"), QStringLiteral("-1")}) {
        time->minGpusDays()->setText(bad);
        QTest::mouseClick(time->minGpusFind(), Qt::LeftButton);
        QVERIFY2(time->minGpusResult()->text().contains(bad),
                 qPrintable(time->minGpusResult()->text()));
        QVERIFY(!time->minGpusDays()->styleSheet().isEmpty());
    }
    QVERIFY(time->minGpusResult()->text().contains(QStringLiteral("(0, 1e6]")));
    time->minGpusDays()->setText(QStringLiteral("30"));
}

// The answer names every dimension that multiplies the GPUs: the start plan's 70B at 8192 tokens
// a sequence trains in 100 days on a cluster whose best layout splits the sequence (cp > 1); the
// tp x pp x cp x dp the line gives is the cluster it names.
void TestUiPerformance::gpusForNDaysLayoutAddsUp() {
    MainWindow& w = *m_window;
    const PlanSpec spec =
        load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/llama-3-70b-15t-1024-h100.json");
    w.document()->reset(spec);
    w.showPanel(QStringLiteral("time"));
    TimePanel* time = w.timePanel();
    time->minGpusDays()->setText(QStringLiteral("100"));
    QSignalSpy found(time, &TimePanel::minGpusFound);
    QTest::mouseClick(time->minGpusFind(), Qt::LeftButton);
    QVERIFY(found.wait(120000));
    const auto expected = solve_min_gpus(spec, w.document()->views()->hardware, 100.0, 1 << 20);
    QVERIFY(expected);
    QVERIFY(expected->best.layout.context_parallel > 1);
    const QString text = time->minGpusResult()->text();
    auto dimension = [&text](const char* name) -> qint64 {
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("\\b%1 (\\d+)").arg(QLatin1String(name))).match(text);
        return m.hasMatch() ? m.captured(1).toLongLong() : 1;
    };
    QVERIFY2(text.contains(QStringLiteral("cp %1").arg(expected->best.layout.context_parallel)),
             qPrintable(text));
    QCOMPARE(dimension("tp") * dimension("pp") * dimension("cp") * dimension("dp"),
             static_cast<qint64>(expected->gpus));
}

// CS336 lecture 2's first question turned around: 70B parameters, 15T tokens at MFU 0.5 on H100s
// in 30 days. 6 x 70e9 x 15e12 / (989.5e12 x 0.5 x 86400 x 30) = 4912.5 GPUs: 4920 in whole
// 8-GPU nodes, 29.96 days. The model has no layers, so the answer names no tp or pp of it (the
// search had staged it as pp 615).
void TestUiPerformance::gpusForNDaysOfAParameterCountNamesNoLayout() {
    MainWindow& w = *m_window;
    w.document()->reset(
        load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/seed-70b-15t-1024-h100.json"));
    w.showPanel(QStringLiteral("time"));
    TimePanel* time = w.timePanel();
    time->minGpusDays()->setText(QStringLiteral("30"));
    QSignalSpy found(time, &TimePanel::minGpusFound);
    QTest::mouseClick(time->minGpusFind(), Qt::LeftButton);
    QVERIFY(found.wait(60000));
    const QString text = time->minGpusResult()->text();
    QVERIFY2(text.startsWith(QStringLiteral("4920 GPUs")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("pp ")) && !text.contains(QStringLiteral("tp ")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("no layers")), qPrintable(text));
}

void TestUiPerformance::daysChartKeepsPointsOffItsEdges() {
    // Under an assumed MFU every point's days are proportional to the tokens (6·N·D / (peak x
    // MFU x GPUs)), so scaling the tokens puts the fewest days at 100.4, just above a decade
    // line: the axis must reach below 100.4 / 1.2 so that the point is not cut by the edge.
    MainWindow& w = *m_window;
    w.showPanel(QStringLiteral("time"));
    TimePanel* time = w.timePanel();
    QLineSeries* days = nullptr;
    for (const ChartInfo& c : time->charts()) {
        if (auto* view = qobject_cast<QChartView*>(c.widget)) {
            for (QAbstractSeries* s : view->chart()->series()) {
                if (s->name() == QStringLiteral("Days")) {
                    days = qobject_cast<QLineSeries*>(s);
                }
            }
        }
    }
    QVERIFY(days != nullptr);
    QLogValueAxis* axis = nullptr;
    for (QAbstractAxis* a : days->attachedAxes()) {
        if (a->orientation() == Qt::Vertical) {
            axis = qobject_cast<QLogValueAxis*>(a);
        }
    }
    QVERIFY(axis != nullptr);
    auto extremes = [&] {
        double lo = 0.0;
        double hi = 0.0;
        for (const QPointF& p : days->points()) {
            lo = lo == 0.0 ? p.y() : std::min(lo, p.y());
            hi = std::max(hi, p.y());
        }
        return std::pair{lo, hi};
    };
    QTRY_VERIFY(!days->points().isEmpty());
    PlanSpec spec = w.document()->spec();
    spec.data.tokens *= 100.4 / extremes().first;
    w.document()->edit(spec, QStringLiteral("tokens"));
    QTRY_VERIFY(std::abs(extremes().first - 100.4) < 1e-6);
    const auto [lo, hi] = extremes();
    QVERIFY2(axis->min() <= lo / 1.2, qPrintable(QString::number(axis->min())));
    QVERIFY2(axis->max() >= hi * 1.2, qPrintable(QString::number(axis->max())));

    // The GPUs axis the same: the sweep's first point is 1 GPU, on the decade line 1, and the
    // axis must reach below 1 / 1.2 (not to 0.1: no layout has a tenth of a GPU).
    QLogValueAxis* gpus = nullptr;
    for (QAbstractAxis* a : days->attachedAxes()) {
        if (a->orientation() == Qt::Horizontal) {
            gpus = qobject_cast<QLogValueAxis*>(a);
        }
    }
    QVERIFY(gpus != nullptr);
    spec = w.document()->spec();
    spec.cluster.gpus = 8;
    spec.cluster.mfu = 0.4;
    spec.training.tp = 1;
    spec.training.pp = 1;
    w.document()->edit(spec, QStringLiteral("gpus"));
    QTRY_VERIFY(!days->points().isEmpty() && days->points().first().x() == 1.0);
    double xmax = 0.0;
    for (const QPointF& p : days->points()) {
        xmax = std::max(xmax, p.x());
    }
    QVERIFY2(gpus->min() <= 1.0 / 1.2 && gpus->min() > 0.1,
             qPrintable(QString::number(gpus->min())));
    QVERIFY2(gpus->max() >= xmax * 1.2, qPrintable(QString::number(gpus->max())));
}

QTEST_MAIN(TestUiPerformance)
#include "tst_ui_performance.moc"
