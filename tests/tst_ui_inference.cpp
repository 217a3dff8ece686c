// The Inference panel driven like a user drives it (its sliders and combo boxes), checked against
// figures worked out by hand for Llama 3 70B on 4 H100 at fp8 and against the planner's serving
// plan of the same spec.
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "planner/io/presets.h"
#include "planner/io/serving_case_accuracy.h"
#include "planner/io/spec_json.h"
#include "planner/serving/inference.h"
#include "ui/charts/figure_table_model.h"
#include "ui/charts/inference_panel.h"
#include "ui/common/hardware_catalog.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/summary_bar.h"

using namespace tally;
using namespace tally::ui;

namespace {

// The value of a figure of the panel's table by its key; NaN when the table has no such row.
double figureValue(const FigureTableModel* model, const char* key) {
    const int row = model->rowOf(QString::fromLatin1(key));
    return row < 0 ? std::nan("")
                   : model->index(row, FigureTableModel::ValueColumn)
                         .data(FigureTableModel::ValueRole)
                         .toDouble();
}

PlanSpec llama70bServing() {
    return load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/llama-3-70b-serve-4xh100-fp8.json");
}

// 70,553,706,496 parameters (tst_inference): the input embedding and the output head (128,256 x
// 8192 = 1,050,673,152 each) stay 16-bit in vLLM's checkpoints, the other 68,452,360,192 at 1 B
// (fp8): (68,452,360,192 + 2 x 2,101,346,304) / tp 4 = 18.1637632 GB per GPU.
constexpr double kWeightsGB = 18.1637632;

}  // namespace

class TestUiInference : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void drawsThePlan();
    void batchSliderRedrawsEverything();
    void weightDtypeHalvesTheWeights();
    void memoryLimitWhereTheBatchStopsFitting();
    void unservablePlanIsNamed();
    void figuresShowTheirFormulas();
    void warningsSitUnderTheFields();
    void fitButtonSetsTheTensorParallelThatFits();
    void headlineDoesNotTimeWhatDoesNotFit();
    void deploymentThatDoesNotFitIsNotPriced();
    void continuousBatchingCurve();
    void continuousCurveReachesThePlansConcurrency();
    void requestRateFindsTheConcurrency();
    void accuracyOfTheEnginesPublishedRuns();
    void servingSpecWithoutDataIsDrawn();
    void refusedServingFieldGreysTheServingFigures();
    void trainingLayoutForOtherGpusKeepsServingDrawn();
    void memoryShareIsTheEnginesSetting();
    void hostTimeIsTypedInMilliseconds();
    void concurrencyMemoryIsTheRequestsInFlight();
    void batchingAndExpertFieldsInTheForm();

private:
    std::unique_ptr<HardwareCatalog> m_catalog;
    std::unique_ptr<PlanDocument> m_document;
    std::unique_ptr<InferencePanel> m_panel;
};

void TestUiInference::init() {
    m_catalog = std::make_unique<HardwareCatalog>();
    m_document = std::make_unique<PlanDocument>(m_catalog.get());
    m_document->reset(llama70bServing());
    m_panel = std::make_unique<InferencePanel>(m_document.get());
    m_panel->resize(1200, 800);
    m_panel->show();
    m_panel->ensureCurrent();
}

void TestUiInference::cleanup() {
    m_panel.reset();
    m_document.reset();
    m_catalog.reset();
}

void TestUiInference::drawsThePlan() {
    QVERIFY(m_panel->message().isEmpty());
    const PlanSpec spec = m_document->spec();
    const ServingPlan expected = evaluate_inference(spec, *find_builtin_hardware(spec.cluster.gpu));
    // The plan's batch is marked where the planner puts it: (tokens/s, ms per token).
    QCOMPARE(m_panel->currentPoint()->count(), 1);
    QCOMPARE(m_panel->currentPoint()->at(0).x(), expected.tokens_per_s);
    QCOMPARE(m_panel->currentPoint()->at(0).y(), expected.decode_step_s * 1e3);
    QVERIFY(m_panel->fittingCurve()->count() >= 5);
    // Memory stack at batch 32: weights 18.1637632 GB; KV cache 32 x 2560 tokens x 81,920 B =
    // 6.7108864 GB; capacity 80 GB.
    QCOMPARE(m_panel->memorySet(0)->at(0), kWeightsGB);
    QCOMPARE(m_panel->memorySet(1)->at(0), 6.7108864);
    QCOMPARE(m_panel->capacityLine()->at(0).y(), 80.0);
    // Its legends shorten long entries to share a line, and show them whole on hover.
    for (const ChartInfo& c : m_panel->charts()) {
        auto* view = qobject_cast<QChartView*>(c.widget);
        QVERIFY(view);
        QVERIFY(view->chart()->legend()->showToolTips());
    }
    // The editors show the spec's values.
    QCOMPARE(m_panel->numberEditor(QStringLiteral("inference.batch"))->value(), 32.0);
    QCOMPARE(m_panel->numberEditor(QStringLiteral("inference.tp"))->value(), 4.0);
}

void TestUiInference::batchSliderRedrawsEverything() {
    QSlider* batch = m_panel->numberEditor(QStringLiteral("inference.batch"))->slider();
    const QPointF before = m_panel->currentPoint()->at(0);
    batch->setValue(6);  // 2^6 = 64 sequences
    QCOMPARE(m_document->spec().inference.batch, std::int64_t{64});
    // The panel is visible: it redrew at once. KV cache 64 x 2560 x 81,920 B = 13.4217728 GB.
    QCOMPARE(m_panel->memorySet(1)->at(0), 13.4217728);
    const QPointF after = m_panel->currentPoint()->at(0);
    // A larger batch: more tokens per second and a longer step.
    QVERIFY(after.x() > before.x());
    QVERIFY(after.y() > before.y());
    // One undo step puts it back.
    m_document->undoStack()->undo();
    QCOMPARE(m_document->spec().inference.batch, std::int64_t{32});
    QCOMPARE(batch->value(), 5);
    QCOMPARE(m_panel->memorySet(1)->at(0), 6.7108864);
}

void TestUiInference::weightDtypeHalvesTheWeights() {
    auto* dtype =
        qobject_cast<ChoiceEditor*>(m_panel->editor(QStringLiteral("inference.weight_dtype")));
    QVERIFY(dtype);
    QComboBox* combo = dtype->comboBox();
    const int int4 = combo->findText(QStringLiteral("int4"));
    QVERIFY(int4 >= 0);
    combo->setCurrentIndex(int4);
    emit combo->activated(int4);
    QCOMPARE(m_document->spec().inference.weight_dtype, DType::int4);
    // int4 is half a byte a weight plus a 16-bit scale and a 4-bit zero per group of 128, the
    // embedding and the head still 2 B: (68,452,360,192 x (0.5 + 2.5 / 128) + 4,202,692,608) / 4
    // = (35,563,140,256 + 4,202,692,608) / 4 = 9.941458216 GB.
    QCOMPARE(m_panel->memorySet(0)->at(0), 9.941458216);
}

void TestUiInference::memoryLimitWhereTheBatchStopsFitting() {
    const ServingPlan& plan = m_panel->servingPlan();
    QVERIFY(plan.max_batch > 32);
    // The limit line stands at the throughput of the largest batch that fits, and the curve past
    // it is drawn as not fitting.
    QCOMPARE(m_panel->memoryLimit()->count(), 2);
    const double x = m_panel->memoryLimit()->at(0).x();
    QCOMPARE(m_panel->memoryLimit()->at(1).x(), x);
    QCOMPARE(m_panel->fittingCurve()->at(m_panel->fittingCurve()->count() - 1).x(), x);
    QVERIFY(m_panel->overflowCurve()->count() >= 2);
    QCOMPARE(m_panel->overflowCurve()->at(0).x(), x);
    // The largest batch's stack fills the GPU without passing its capacity.
    double total = 0.0;
    for (int i = 0; i < 3; ++i) {
        total += m_panel->memorySet(i)->at(1);
    }
    QVERIFY(total <= 80.0);
}

void TestUiInference::unservablePlanIsNamed() {
    // tp 8 on the spec's 4 GPUs: the planner's check of the serving plan names inference.tp.
    PlanSpec spec = m_document->spec();
    spec.inference.tp = 8;
    m_document->edit(spec, QStringLiteral("tp 8"));
    QVERIFY(m_panel->message().contains(QStringLiteral("inference.tp")));
    QVERIFY(m_panel->editor(QStringLiteral("inference.tp"))->isMarked());
    QCOMPARE(m_panel->currentPoint()->count(), 0);
    m_document->undoStack()->undo();
    QVERIFY(m_panel->message().isEmpty());
    QVERIFY(!m_panel->editor(QStringLiteral("inference.tp"))->isMarked());
    QCOMPARE(m_panel->currentPoint()->count(), 1);
}

void TestUiInference::figuresShowTheirFormulas() {
    FigureTableModel* model = m_panel->model();
    const int kv = model->rowOf(QStringLiteral("serving.kv_bytes_per_token"));
    QVERIFY(kv >= 0);
    // 80 x 2 x 8 x 128 x 2 B = 327,680 B per token.
    QCOMPARE(figureValue(model, "serving.kv_bytes_per_token"), 327680.0);
    const QString tip =
        model->index(kv, FigureTableModel::ValueColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("2 x L x kv_heads x head_dim x bytes")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("Source:")));
    QVERIFY(model->rowOf(QStringLiteral("serving.decode_step_s")) >= 0);
    QVERIFY(model->rowOf(QStringLiteral("serving.cost_per_million_tokens")) >= 0);
}

void TestUiInference::warningsSitUnderTheFields() {
    // The example fits; its one warning is the all-reduces' share of a decode step: 160 of them,
    // each vLLM's custom kernel over 4 GPUs, 11.9 us + 2 x 3/4 x 524,288 B / (0.16 x 450 GB/s)
    // = 11.9 + 10.92 = 22.82 us, 3.65 ms of a step of about 12.8 ms, over the quarter that warns.
    QVERIFY(!m_panel->warnings().contains(QStringLiteral("fit")));
    QVERIFY(m_panel->warnings().contains(QStringLiteral("all-reduces")));
    // On one GPU (tp 1) the fp8 weights alone are 4 x 17.64 = 70.55 GB; in bf16 141.1 GB, over the
    // H100's 80 GB: the panel says it does not fit, under the fields, not as a table row that
    // widens the value column.
    PlanSpec s = m_document->spec();
    s.inference.tp = 1;
    s.inference.weight_dtype = DType::bf16;
    m_document->edit(s, QStringLiteral("tp 1, bf16"));
    m_panel->ensureCurrent();
    QVERIFY2(m_panel->warnings().contains(QStringLiteral("fit")), qPrintable(m_panel->warnings()));
    const QAbstractItemModel* model =
        m_panel->findChild<QTableView*>(QStringLiteral("inferenceTable"))->model();
    for (int r = 0; r < model->rowCount(); ++r) {
        QVERIFY(!model->index(r, 0).data().toString().contains(QStringLiteral("Warning")));
    }
}

// Llama 3 70B in bf16 at batch 32, 2048 + 512 tokens, on the example's 4 H100: tp 1 holds
// 141.1 GB of weights; tp 2 70,553,706,496 x 2 B / 2 = 70.55 GB of weights and 32 x 2560 x
// 327,680 B / 2 = 13.42 GB of KV cache, 83.97 GB, over 80; tp 3 does not divide the 64 heads;
// tp 4 35.28 + 6.71 GB fits. The button offers tp 4 and one click makes it so, undoably. On
// one GPU tp 4 makes no whole replica, so nothing is offered there.
void TestUiInference::fitButtonSetsTheTensorParallelThatFits() {
    QPushButton* button = m_panel->fitButton();
    QVERIFY(button->isHidden());  // the example fits
    PlanSpec s = m_document->spec();
    s.inference.tp = 1;
    s.inference.weight_dtype = DType::bf16;
    m_document->edit(s, QStringLiteral("tp 1, bf16"));
    m_panel->ensureCurrent();
    QVERIFY(!button->isHidden());
    QCOMPARE(button->text(), QStringLiteral("Use tensor parallel 4"));
    button->click();
    m_panel->ensureCurrent();
    QCOMPARE(m_document->spec().inference.tp, std::int64_t{4});
    QVERIFY(m_panel->servingPlan().memory.fits);
    QVERIFY(button->isHidden());
    QVERIFY(!m_panel->warnings().contains(QStringLiteral("does not fit")));
    m_document->undoStack()->undo();
    m_panel->ensureCurrent();
    QCOMPARE(m_document->spec().inference.tp, std::int64_t{1});
    QVERIFY(!button->isHidden());

    s.cluster.gpus = 1;
    m_document->edit(s, QStringLiteral("one GPU"));
    m_panel->ensureCurrent();
    QVERIFY(!m_panel->servingPlan().memory.fits);
    QVERIFY(button->isHidden());
    QVERIFY2(m_panel->warnings().contains(QStringLiteral("tensor parallel 4")),
             qPrintable(m_panel->warnings()));
}

// The headline of the serving example shows its latency and throughput; at tp 1 in bf16
// (141.1 GB of weights on an 80 GB H100) the deployment cannot run, and the headline, like the
// panel's table, shows no latency, throughput or price for it.
void TestUiInference::headlineDoesNotTimeWhatDoesNotFit() {
    SummaryBar bar(m_document.get());
    bar.show();
    QVERIFY(bar.figure(QStringLiteral("cost"))->text().endsWith(QStringLiteral("tok/s")));
    QVERIFY(bar.figure(QStringLiteral("days"))->text() != QStringLiteral("—"));
    PlanSpec s = m_document->spec();
    s.inference.tp = 1;
    s.inference.weight_dtype = DType::bf16;
    m_document->edit(s, QStringLiteral("tp 1, bf16"));
    for (const char* key : {"days", "gpu_hours", "cost", "energy"}) {
        QCOMPARE(bar.figure(QString::fromLatin1(key))->text(), QStringLiteral("—"));
        QVERIFY(
            bar.figure(QString::fromLatin1(key))->toolTip().contains(QStringLiteral("cannot run")));
    }
    QVERIFY(bar.figure(QStringLiteral("memory"))->text().endsWith(QStringLiteral("✗")));
    m_document->undoStack()->undo();
    QVERIFY(bar.figure(QStringLiteral("cost"))->text().endsWith(QStringLiteral("tok/s")));
}

// Llama 3 70B in bf16 on one H100 (tp 1): 70,553,706,496 x 2 B = 141.1 GB of weights alone
// against 80 GB, so no batch fits; the throughput and price rows say so instead of a figure.
void TestUiInference::deploymentThatDoesNotFitIsNotPriced() {
    PlanSpec spec = llama70bServing();
    spec.cluster.gpus = 1;
    spec.inference.tp = 1;
    spec.inference.weight_dtype = DType::bf16;
    m_document->edit(spec, QStringLiteral("one GPU"));
    m_panel->ensureCurrent();
    const FigureTableModel* model = m_panel->model();
    bool sawWeights = false;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString key = model->index(row, 0).data(FigureTableModel::KeyRole).toString();
        const QString text = model->index(row, FigureTableModel::ValueColumn).data().toString();
        if (key == QStringLiteral("serving.tokens_per_s") ||
            key == QStringLiteral("serving.cost_per_million_tokens") ||
            key == QStringLiteral("serving.decode_step_s")) {
            QCOMPARE(text, QStringLiteral("does not fit"));
        }
        if (key == QStringLiteral("serving.memory.weights_bytes")) {
            sawWeights = true;
            QCOMPARE(text, QStringLiteral("141.11 GB"));  // still shown: why it does not fit
        }
    }
    QVERIFY(sawWeights);
}

void TestUiInference::continuousBatchingCurve() {
    // Continuous batching over concurrency 1, 2, 4, ... 256: each point the engine serves (past
    // the largest batch that fits, at that batch with the rest queued) is drawn at (tokens/s,
    // inter-token latency in ms) as the planner computes it.
    const PlanSpec spec = m_document->spec();
    const auto expected = concurrency_sweep(spec, *find_builtin_hardware(spec.cluster.gpu),
                                            {1, 2, 4, 8, 16, 32, 64, 128, 256});
    QCOMPARE(m_panel->continuousPoints().size(), expected.size());
    int drawn = 0;
    for (const ContinuousBatchingPoint& p : expected) {
        if (p.in_flight > 0.0) {
            QCOMPARE(m_panel->continuousCurve()->at(drawn).x(), p.tokens_per_s);
            QCOMPARE(m_panel->continuousCurve()->at(drawn).y(), p.itl_s * 1e3);
            ++drawn;
        }
    }
    QVERIFY(drawn >= 5);
    QCOMPARE(m_panel->continuousCurve()->count(), drawn);
    // More requests in flight: more throughput.
    QVERIFY(m_panel->continuousCurve()->at(drawn - 1).x() > m_panel->continuousCurve()->at(0).x());
}

// A plan at concurrency 300 (past the 256 the curve used to stop at): the sweep goes on by
// doubling past it (1, 2, ... 256, 300, 600) and takes the plan's own concurrency; the plan's
// point is its continuous-batching figure (the headline's), named by its concurrency.
void TestUiInference::continuousCurveReachesThePlansConcurrency() {
    PlanSpec s = m_document->spec();
    s.inference.concurrency = 300;
    m_document->edit(s, QStringLiteral("concurrency"));
    m_panel->ensureCurrent();
    std::vector<double> concurrencies;
    for (const ContinuousBatchingPoint& p : m_panel->continuousPoints()) {
        concurrencies.push_back(p.concurrency);
    }
    const std::vector<double> expected{1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 600};
    QCOMPARE(concurrencies, expected);
    const ServingPlan plan = evaluate_inference(s, *find_builtin_hardware(s.cluster.gpu));
    QVERIFY(plan.continuous.has_value());
    QCOMPARE(m_panel->currentPoint()->count(), 1);
    QCOMPARE(m_panel->currentPoint()->at(0).x(), plan.continuous->tokens_per_s);
    QCOMPARE(m_panel->currentPoint()->at(0).y(), plan.continuous->itl_s * 1e3);
    QCOMPARE(m_panel->currentPoint()->name(), QStringLiteral("300 clients"));
    QCOMPARE(m_panel->continuousCurve()->name(), QStringLiteral("Clients 1-600"));
    // The table's speed and memory figures stay the static batch's, and the panel says so.
    const auto* note = m_panel->findChild<QLabel*>(QStringLiteral("inferenceTableNote"));
    QVERIFY(note);
    QVERIFY(!note->isHidden());
    QVERIFY2(note->text().contains(QStringLiteral("static batch of %1").arg(s.inference.batch)),
             qPrintable(note->text()));
    QVERIFY(note->text().contains(QStringLiteral("concurrency 300")));
}

// Under the figures the panel says how close the model came on the published runs of the plan's
// engine and GPU family: none for vLLM (the example's engine), so its figures are said to be
// unchecked; TensorRT-LLM on H100 has its bands, the same as the planner's table.
// A rate to serve: Find sets Concurrency to the fewest whole clients that complete it (Little's
// law: clients = rate x a request's time end to end, so one client fewer completes less), one
// undoable edit; bad input and a rate beyond the deployment are named and change nothing.
void TestUiInference::requestRateFindsTheConcurrency() {
    const PlanSpec before = m_document->spec();
    const HardwareProfile& hw = *find_builtin_hardware(before.cluster.gpu);
    const double rate = 2.5;
    m_panel->requestRateEdit()->setText(QStringLiteral("2.5"));
    m_panel->requestRateFind()->click();
    const std::int64_t clients = m_document->spec().inference.concurrency;
    QVERIFY(clients >= 1);
    PlanSpec at = before;
    at.inference.concurrency = clients;
    QVERIFY(continuous_batching_at(at, hw, static_cast<double>(clients)).requests_per_s >=
            rate * (1.0 - 1e-9));
    if (clients > 1) {
        QVERIFY(continuous_batching_at(at, hw, static_cast<double>(clients - 1)).requests_per_s <
                rate);
    }
    // The CLI's solver (tally infer --request-rate) says the same.
    QCOMPARE(clients, static_cast<std::int64_t>(std::ceil(
                          continuous_batching_at_rate(before, hw, rate)->concurrency - 1e-9)));
    QVERIFY(m_panel->requestRateResult()->text().contains(QString::number(clients)));
    QVERIFY(!m_panel->requestRateResult()->isHidden());
    QVERIFY(m_document->undoStack()->canUndo());
    m_document->undoStack()->undo();
    QCOMPARE(m_document->spec().inference.concurrency, before.inference.concurrency);
    // The line was the concurrency's it set: gone with the undo (and with any other change).
    QVERIFY(m_panel->requestRateResult()->isHidden());

    for (const char* bad : {"abc", "0", "-3"}) {
        m_panel->requestRateEdit()->setText(QString::fromLatin1(bad));
        m_panel->requestRateFind()->click();
        QVERIFY2(m_panel->requestRateResult()->text().startsWith(QStringLiteral("Requests/s")),
                 bad);
        QCOMPARE(m_document->spec().inference.concurrency, before.inference.concurrency);
    }
    // More than the deployment completes with its KV cache full: named with the most it does.
    m_panel->requestRateEdit()->setText(QStringLiteral("1e9"));
    m_panel->requestRateFind()->click();
    QVERIFY(m_panel->requestRateResult()->text().contains(QStringLiteral("at most")));
    QCOMPARE(m_document->spec().inference.concurrency, before.inference.concurrency);
}

void TestUiInference::accuracyOfTheEnginesPublishedRuns() {
    const auto* label = m_panel->findChild<QLabel*>(QStringLiteral("inferenceAccuracy"));
    QVERIFY(label);
    QVERIFY(label->isVisible());
    QVERIFY2(label->text().contains(QStringLiteral("no published vLLM H100/H200 run")),
             qPrintable(label->text()));
    PlanSpec s = m_document->spec();
    s.inference.engine = ServingEngine::tensorrt_llm;
    m_document->edit(s, QStringLiteral("TensorRT-LLM"));
    m_panel->ensureCurrent();
    const auto band = serving_error_band(ServingEngine::tensorrt_llm, "H100/H200", false,
                                         ServingMetric::output_tokens_per_s);
    QVERIFY(band.has_value());
    QVERIFY2(label->text().contains(QStringLiteral("Accuracy on published TensorRT-LLM H100/H200")),
             qPrintable(label->text()));
    QVERIFY2(label->text().contains(QStringLiteral("on %1 published figures").arg(band->count)),
             qPrintable(label->text()));
    QVERIFY(label->text().contains(QStringLiteral("Inter-token latency: no published figure")));
    // A plan the planner refuses shows no band.
    s.inference.tp = 8;
    m_document->edit(s, QStringLiteral("tp 8"));
    m_panel->ensureCurrent();
    QVERIFY(!label->isVisible());
}

// A serving spec with no data or training block, as docs/cases/serving ships them and `tally
// infer` reads them: the window draws its serving plan (not the last training plan), its
// headline is current, the missing training part is named, and it saves as it was opened.
void TestUiInference::servingSpecWithoutDataIsDrawn() {
    const QString file = QStringLiteral(
        TALLY_SOURCE_DIR
        "/docs/cases/serving/trtllm-v0-9-thr-h100-mistral-7b-tp1-bs56-2048-2048.json");
    QString error;
    QVERIFY2(m_document->open(file, &error), qPrintable(error));
    SummaryBar bar(m_document.get());
    bar.show();
    m_panel->ensureCurrent();
    QVERIFY(m_document->error().has_value());
    QCOMPARE(m_document->error()->field, std::string("data.tokens"));
    QVERIFY(m_document->servingViews());
    QVERIFY(m_panel->message().isEmpty());
    // Mistral 7B's KV cache in fp8: 32 layers x 2 x 8 KV heads x 128 x 1 B = 65,536 B a token,
    // and the batch's 56 x 4096 tokens of context: 15,032,385,536 B.
    QCOMPARE(figureValue(m_panel->model(), "serving.kv_bytes_per_token"), 65536.0);
    QCOMPARE(m_panel->memorySet(1)->at(0), 15.032385536);
    QVERIFY(!bar.isStale());
    QVERIFY2(bar.warnings()->text().contains(QStringLiteral("training is not planned")),
             qPrintable(bar.warnings()->text()));
    // Saved as opened: no data block is made up.
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("mistral.json"));
    QVERIFY2(m_document->save(saved, &error), qPrintable(error));
    const PlanSpec a = load_plan_spec(file.toStdString());
    const PlanSpec b = load_plan_spec(saved.toStdString());
    QCOMPARE(b.data.tokens, 0.0);
    QVERIFY(a.inference == b.inference);
    QVERIFY(a.model == b.model);
    // The Markdown and CSV reports are of a training plan: refused, not another spec's plan.
    QVERIFY(!m_document->exportMarkdown(dir.filePath(QStringLiteral("r.md")), &error));
    QVERIFY2(error.contains(QStringLiteral("training plan")), qPrintable(error));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.md"))));
    QVERIFY(!m_document->exportCsv(dir.filePath(QStringLiteral("r.csv")), &error));
    // Entering the training tokens makes it a whole plan again.
    PlanSpec s = m_document->spec();
    s.data.tokens = 1e12;
    m_document->edit(s, QStringLiteral("tokens"));
    QVERIFY(!m_document->error());
    QVERIFY(!m_document->servingViews());
    QVERIFY2(m_document->exportMarkdown(dir.filePath(QStringLiteral("r.md")), &error),
             qPrintable(error));
}

// A serving spec without a data block opened over a training plan (the window's Llama 3 70B),
// then a serving field refused: the headline greys the serving figures it showed (Mistral 7B's
// 7.24B parameters, its time to first token), not the training plan drawn before the file was
// opened.
void TestUiInference::refusedServingFieldGreysTheServingFigures() {
    SummaryBar bar(m_document.get());
    bar.show();
    QString error;
    QVERIFY2(m_document->open(QStringLiteral(TALLY_SOURCE_DIR
                                             "/docs/cases/serving/"
                                             "trtllm-v0-9-thr-h100-mistral-7b-tp1-bs56-2048-2048."
                                             "json"),
                              &error),
             qPrintable(error));
    QVERIFY(m_document->servingViews());
    const QString params = bar.figure(QStringLiteral("params"))->text();
    // Mistral 7B's config.json (hidden 4096, 32 layers, 32 heads of 128, 8 KV heads, FFN 14336,
    // vocabulary 32000, untied): a layer holds 2 x 4096^2 (q, o) + 2 x 4096 x 1024 (k, v)
    // + 3 x 4096 x 14336 (SwiGLU) + 2 x 4096 (norms) = 218,112,000; x 32 = 6,979,584,000, plus
    // 2 x 32000 x 4096 = 262,144,000 embedding and head and 4096 final norm: 7,241,732,096,
    // shown to four figures.
    QCOMPARE(params, QStringLiteral("7.242B"));
    PlanSpec s = m_document->spec();
    s.inference.concurrency = -5;
    m_document->edit(s, QStringLiteral("concurrency"));
    QCOMPARE(m_document->error()->field, std::string("inference.concurrency"));
    QVERIFY(bar.isStale());
    QCOMPARE(bar.figure(QStringLiteral("params"))->text(), params);
    QCOMPARE(bar.caption(QStringLiteral("days"))->text(), QStringLiteral("Time to first token"));
    QVERIFY(!bar.figure(QStringLiteral("params"))->isEnabled());
}

// A serving plan on 8 GPUs beside a training layout for more (tp 8 x pp 4 = 32): the training
// rule refuses cluster.gpus, which `tally infer` does not read for serving, so the window still
// draws the serving plan of the 8 GPUs and names the training part's field. A serving block
// that does not suit the GPUs is named instead.
void TestUiInference::trainingLayoutForOtherGpusKeepsServingDrawn() {
    PlanSpec s = m_document->spec();
    s.cluster.gpus = 8;
    s.inference.tp = 8;
    s.training.tp = 8;
    s.training.pp = 4;
    m_document->edit(s, QStringLiteral("8 GPUs"));
    m_panel->ensureCurrent();
    QVERIFY(m_document->error().has_value());
    QCOMPARE(m_document->error()->field, std::string("cluster.gpus"));
    QVERIFY(m_document->servingViews());
    QVERIFY(m_panel->message().isEmpty());
    // One replica of tp 8 on the 8 GPUs; the weights of kWeightsGB's derivation over 8 GPUs
    // instead of 4: 18.1637632 x 4 / 8 = 9.0818816 GB.
    QCOMPARE(m_document->servingViews()->serving->plan.replicas, std::int64_t(1));
    QCOMPARE(m_panel->memorySet(0)->at(0), kWeightsGB * 4 / 8);
    QString error;
    QVERIFY(!m_document->exportMarkdown(QStringLiteral("unused.md"), &error));
    QVERIFY2(error.contains(QStringLiteral("cluster.gpus")), qPrintable(error));
    // tp 3 divides neither the 64 heads nor the 8 GPUs: the serving block is what is refused.
    s.inference.tp = 3;
    m_document->edit(s, QStringLiteral("tp 3"));
    QVERIFY(!m_document->servingViews());
    QCOMPARE(m_document->error()->field, std::string("inference.tp"));
    const auto& others = m_document->otherErrors();
    QVERIFY(std::any_of(others.begin(), others.end(),
                        [](const FieldError& e) { return e.field == "cluster.gpus"; }));
    // A training layout that suits the 8 GPUs makes it a whole plan again.
    s.inference.tp = 8;
    s.training.pp = 1;
    m_document->edit(s, QStringLiteral("pp 1"));
    QVERIFY(!m_document->error());
    QVERIFY(!m_document->servingViews());
}

// The engine settings a deployment needs beyond batch and tp are in the form: the tokens a step
// and chunked prefill always, the quantization group for int4 / int8 weights only, expert
// parallelism and data-parallel attention for a mixture of experts only.
void TestUiInference::batchingAndExpertFieldsInTheForm() {
    m_panel->resize(900, 1200);
    m_panel->show();
    QCoreApplication::processEvents();
    NumberEditor* tokens = m_panel->numberEditor(QStringLiteral("inference.max_batched_tokens"));
    QVERIFY(tokens && tokens->isVisible());
    QVERIFY(m_panel->editor(QStringLiteral("inference.chunked_prefill"))->isVisible());
    tokens->lineEdit()->setText(QStringLiteral("2048"));
    emit tokens->lineEdit()->editingFinished();
    QCOMPARE(m_document->spec().inference.max_batched_tokens, std::int64_t{2048});
    // Llama 3 70B in bf16: no experts, no quantization groups.
    QVERIFY(!m_panel->editor(QStringLiteral("inference.ep"))->isVisible());
    QVERIFY(!m_panel->editor(QStringLiteral("inference.quant_group_size"))->isVisible());
    PlanSpec int4 = m_document->spec();
    int4.inference.weight_dtype = DType::int4;
    m_document->edit(int4, QStringLiteral("int4"));
    QVERIFY(m_panel->editor(QStringLiteral("inference.quant_group_size"))->isVisible());
    PlanSpec moe = m_document->spec();
    moe.model = find_model_preset("mixtral-8x7b")->model;
    m_document->edit(moe, QStringLiteral("Mixtral"));
    FieldEditor* ep = m_panel->editor(QStringLiteral("inference.ep"));
    QVERIFY(ep->isVisible());
    QVERIFY(m_panel->editor(QStringLiteral("inference.dp_attention"))->isVisible());
}

// The engine's memory share is a box: unset it says the engine's default is used; 0.95 typed is
// the plan's share, and vLLM's KV cache then admits more sequences; 0 hands it back.
void TestUiInference::memoryShareIsTheEnginesSetting() {
    NumberEditor* share = m_panel->numberEditor(QStringLiteral("inference.memory_fraction"));
    QVERIFY(share);
    QVERIFY(!m_document->spec().inference.memory_fraction);
    QCOMPARE(share->lineEdit()->text(), QStringLiteral("engine's"));
    const std::int64_t admitted = m_panel->servingPlan().admission_batch;
    share->lineEdit()->setText(QStringLiteral("0.95"));
    emit share->lineEdit()->editingFinished();
    QVERIFY(m_document->spec().inference.memory_fraction == 0.95);
    QVERIFY(m_panel->servingPlan().admission_batch > admitted);
    share->lineEdit()->setText(QStringLiteral("1.5"));
    emit share->lineEdit()->editingFinished();
    QVERIFY(share->isMarked());
    QVERIFY(m_document->spec().inference.memory_fraction == 0.95);
    share->lineEdit()->setText(QStringLiteral("0"));
    emit share->lineEdit()->editingFinished();
    QVERIFY(!m_document->spec().inference.memory_fraction);
    QCOMPARE(m_panel->servingPlan().admission_batch, admitted);
}

void TestUiInference::hostTimeIsTypedInMilliseconds() {
    NumberEditor* host = m_panel->numberEditor(QStringLiteral("inference.host_step_s"));
    QVERIFY(host);
    // Unset, the box says the engine's is used (vLLM's: 0), and the step is the planner's.
    QVERIFY(!m_document->spec().inference.host_step_s);
    QCOMPARE(host->lineEdit()->text(), QStringLiteral("engine's"));
    const double step_s = m_panel->servingPlan().decode_step_s;
    // 2.5 typed is 2.5 ms, stored as 0.0025 s; every decode step waits for it once.
    host->lineEdit()->setText(QStringLiteral("2.5"));
    emit host->lineEdit()->editingFinished();
    QCOMPARE(m_document->spec().inference.host_step_s.value_or(-1.0), 0.0025);
    QVERIFY(qAbs(m_panel->servingPlan().decode_step_s - (step_s + 0.0025)) < 1e-12);
    // A negative time is refused by the box, in its own unit (the planner's check would say
    // "got -0.001" seconds under the spec's key); the box is marked, the plan keeps 2.5 ms.
    host->lineEdit()->setText(QStringLiteral("-1"));
    emit host->lineEdit()->editingFinished();
    QVERIFY(host->isMarked());
    QVERIFY2(host->toolTip().startsWith(QStringLiteral("-1 is below 0")),
             qPrintable(host->toolTip()));
    QCOMPARE(m_document->spec().inference.host_step_s.value_or(-1.0), 0.0025);
    // 0 hands it back to the engine: the spec no longer states it.
    host->lineEdit()->setText(QStringLiteral("0"));
    emit host->lineEdit()->editingFinished();
    QVERIFY(!m_document->spec().inference.host_step_s);
    QVERIFY(!m_document->error().has_value());
    QVERIFY(!host->isMarked());
    QCOMPARE(m_panel->servingPlan().decode_step_s, step_s);
}

// At a concurrency the memory is that of the requests in flight, as the headline gives it: the
// table gains its row and the chart's first bar shows it. Llama 3 70B at fp8 on 4 H100 (the
// shipped example), worked in tst_cli_infer's concurrencyMemoryIsTheRequestsInFlight: at 64 in
// flight the KV cache is 81,920 B a token per GPU x 64 x (2048 + 512) = 13,421,772,800 B, the
// activations 545,259,520 B (one prefill pass) + 64 x 128256 / 4 logits x 4 B = 8,208,384 B, the
// total 18,163,763,200 + 13,421,772,800 + 553,467,904 = 32,139,003,904 B.
void TestUiInference::concurrencyMemoryIsTheRequestsInFlight() {
    // No concurrency: no such row, and the bar is the static batch of 32.
    QVERIFY(std::isnan(figureValue(m_panel->model(), "serving.continuous.memory_total_bytes")));
    NumberEditor* concurrency = m_panel->numberEditor(QStringLiteral("inference.concurrency"));
    QVERIFY(concurrency);
    concurrency->lineEdit()->setText(QStringLiteral("64"));
    emit concurrency->lineEdit()->editingFinished();
    QCOMPARE(m_document->spec().inference.concurrency, 64);
    m_panel->ensureCurrent();
    QCOMPARE(figureValue(m_panel->model(), "serving.continuous.memory_total_bytes"), 32139003904.0);
    // The static batch's own total stays beside it: 18.1637632 + 6.7108864 GB + activations.
    QVERIFY(figureValue(m_panel->model(), "serving.memory.total_bytes") < 26e9);
    QCOMPARE(m_panel->memorySet(0)->at(0), kWeightsGB);
    QCOMPARE(m_panel->memorySet(1)->at(0), 13.4217728);
    QCOMPARE(m_panel->memorySet(2)->at(0), 0.553467904);
    QCOMPARE(m_panel->memoryCategories()->at(0), QStringLiteral("64 in flight"));
}

QTEST_MAIN(TestUiInference)
#include "tst_ui_inference.moc"
