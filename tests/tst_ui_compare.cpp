// The Compare view: the table holds the planner's numbers for each profile (compare() and
// evaluate() of the same spec on that profile), one figure is checked by hand, the roofs are the
// planner's polylines, the view follows the plan, and its models pass QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QChart>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QListView>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>

#include "planner/store/workspace.h"
#include "planner/training/compare.h"
#include "ui/common/hardware_catalog.h"
#include "ui/plan/plan_document.h"
#include "ui/workspace/compare_models.h"
#include "ui/workspace/compare_panel.h"
#include "ui/workspace/profile_comparison.h"

using namespace tally;
using namespace tally::ui;
using Figure = CompareTableModel::Figure;

namespace {

// 3B parameters, mixed-precision AdamW without ZeRO: every GPU holds the whole model state,
// 2 (bf16 params) + 2 (bf16 grads) + 4 (fp32 master) + 8 (two fp32 Adam moments) = 16 bytes
// per parameter, so 3e9 x 16 = 48e9 bytes per GPU. The params kind has no architecture, so no
// activations are added.
PlanSpec threeBSpec() {
    PlanSpec s;
    s.name = "3B on 8 GPUs";
    s.model.kind = ModelKind::params;
    s.model.params = 3e9;
    s.data.tokens = 60e9;
    s.cluster.gpu = "h100-sxm";
    s.cluster.gpus = 8;
    s.cluster.mfu = 0.5;
    s.cluster.price_per_gpu_hour = 2.0;
    s.training.zero = 0;
    s.training.flops_formula = FlopsFormula::six_nd;
    return s;
}

const HardwareProfile& builtin(const char* id) {
    const HardwareProfile* p = find_builtin_hardware(id);
    if (!p) {
        qFatal("missing built-in profile %s", id);
    }
    return *p;
}

// An H100 SXM with 40 GB instead of 80 (everything else the same).
HardwareProfile h100With40GB() {
    HardwareProfile p = duplicate_profile(builtin("h100-sxm"), "h100-40", "H100 with 40 GB");
    p.memory_bytes = 40e9;
    return p;
}

bool close(double a, double b, double rel = 1e-12) {
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

}  // namespace

class TestUiCompare : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void tableEqualsThePlanner();
    void fortyGigabytesDoesNotFit();
    void roofsAreThePlannersPolylines();
    void followsThePlan();
    void profileWithoutTheComputeDtype();
    void choiceRules();
    void defaultChoiceStartsAtThePlansGpu();
    void modelsPassTheTester();
    void defaultChoiceEvaluates();
    void choiceWaitsForProfilesToArrive();
    void noteDescribesTheMfuInUse();
    void chartTextIsDrawnAfresh();

private:
    void compareThese(const QStringList& ids);
    QVariant cell(Figure figure, const QString& id) const;

    std::unique_ptr<HardwareCatalog> m_catalog;
    std::unique_ptr<PlanDocument> m_document;
    std::unique_ptr<ComparePanel> m_panel;
};

void TestUiCompare::init() {
    m_catalog = std::make_unique<HardwareCatalog>();
    std::vector<HardwareProfile> profiles = builtin_hardware();
    profiles.push_back(h100With40GB());
    m_catalog->setProfiles(profiles);
    m_document = std::make_unique<PlanDocument>(m_catalog.get());
    m_document->reset(threeBSpec());
    QVERIFY2(!m_document->error(),
             m_document->error() ? m_document->error()->message().c_str() : "");
    m_panel = std::make_unique<ComparePanel>(m_document.get(), m_catalog.get());
    m_panel->resize(1200, 800);
}

void TestUiCompare::cleanup() {
    m_panel.reset();
    m_document.reset();
    m_catalog.reset();
}

// The chart's text is drawn afresh, never from pixmaps: with them, checking a third profile, or
// the workspace read again while the tab was hidden, brought the title, the axes' titles and
// labels and the legend entries back blank. Its items stay uncached through a plan change, a new
// choice and a change of the profiles the catalog holds.
void TestUiCompare::chartTextIsDrawnAfresh() {
    m_panel->show();
    compareThese({QStringLiteral("h100-sxm"), QStringLiteral("a100-40gb")});
    compareThese({QStringLiteral("h100-sxm"), QStringLiteral("a100-40gb"), QStringLiteral("h200")});
    PlanSpec spec = m_document->spec();
    spec.cluster.gpus *= 2;
    m_document->edit(spec, QStringLiteral("gpus"));
    m_panel->ensureCurrent();
    m_catalog->setProfiles(builtin_hardware());
    QCoreApplication::processEvents();
    QChart* chart = m_panel->roofSeries(QStringLiteral("h100-sxm"))->chart();
    QList<QGraphicsItem*> todo = chart->childItems();
    int texts = 0;
    while (!todo.isEmpty()) {
        QGraphicsItem* item = todo.takeLast();
        todo += item->childItems();
        if (dynamic_cast<QGraphicsTextItem*>(item) ||
            dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            ++texts;
            QCOMPARE(item->cacheMode(), QGraphicsItem::NoCache);
        }
    }
    QVERIFY(texts > 10);  // the title, two axis titles, their labels, the legend's names
}

void TestUiCompare::compareThese(const QStringList& ids) {
    m_panel->profilesModel()->setCheckedIds(ids);
    m_panel->ensureCurrent();
}

QVariant TestUiCompare::cell(Figure figure, const QString& id) const {
    const CompareTableModel* m = m_panel->tableModel();
    const int column = m->columnOf(id);
    if (column < 0) {
        return {};
    }
    return m->index(CompareTableModel::rowOf(figure), column).data(CompareTableModel::ValueRole);
}

void TestUiCompare::tableEqualsThePlanner() {
    const QStringList ids{QStringLiteral("h100-sxm"), QStringLiteral("h200"),
                          QStringLiteral("h100-40"), QStringLiteral("a100-80gb")};
    compareThese(ids);
    const CompareTableModel* m = m_panel->tableModel();
    QCOMPARE(m->columnCount(), 5);  // the figure names, then one column per profile
    QCOMPARE(m->rowCount(), CompareTableModel::kFigureCount);
    // The plan's figures lead, the parts' own follow: whether it fits, its memory, days and cost
    // are the first eight rows, in view without scrolling at 1366 x 768.
    QCOMPARE(m->index(0, 0).data().toString(), QStringLiteral("Plan fits"));
    QVERIFY(CompareTableModel::rowOf(Figure::cost) < 8);
    QVERIFY(CompareTableModel::rowOf(Figure::cost) < CompareTableModel::rowOf(Figure::kind));

    const PlanSpec spec = threeBSpec();
    std::vector<HardwareProfile> profiles;
    for (const QString& id : ids) {
        profiles.push_back(*m_catalog->find(id.toStdString()));
    }
    const std::vector<ComparisonRow> rows = compare(spec, profiles);
    for (std::size_t i = 0; i < profiles.size(); ++i) {
        const HardwareProfile& hw = profiles[i];
        const QString id = QString::fromStdString(hw.id);
        // The same spec as a single plan on this profile: the planner's own answer.
        PlanSpec single = spec;
        single.cluster.gpu = hw.id;
        QVERIFY(!check(single, hw));
        const Plan plan = evaluate(single, hw);
        QCOMPARE(m->headerData(m->columnOf(id), Qt::Horizontal, Qt::DisplayRole).toString(),
                 QString::fromStdString(hw.name));
        QCOMPARE(cell(Figure::fits, id).toBool(), plan.memory.fits);
        QCOMPARE(cell(Figure::fits, id).toBool(), rows[i].plan.memory.fits);
        QCOMPARE(cell(Figure::memoryPerGpu, id).toDouble(), plan.memory.total_bytes);
        QCOMPARE(cell(Figure::headroom, id).toDouble(), plan.memory.headroom_bytes);
        QCOMPARE(cell(Figure::days, id).toDouble(), plan.time.days);
        QCOMPARE(cell(Figure::days, id).toDouble(), rows[i].plan.time.days);
        QCOMPARE(cell(Figure::gpuHours, id).toDouble(), plan.time.gpu_hours);
        QCOMPARE(cell(Figure::cost, id).toDouble(), plan.time.cost);
        QCOMPARE(cell(Figure::ridge, id).toDouble(), rows[i].ridge_flops_per_byte);
        QCOMPARE(cell(Figure::ridge, id).toDouble(), hw.ridge_flops_per_byte(ComputeType::bf16));
        QCOMPARE(cell(Figure::memory, id).toDouble(), hw.memory_bytes);
        QCOMPARE(cell(Figure::bandwidth, id).toDouble(), hw.bandwidth_bytes_per_s);
        QCOMPARE(cell(Figure::tdp, id).toDouble(), hw.tdp_w);
        QCOMPARE(cell(Figure::peakBf16, id).toDouble(), hw.peak(ComputeType::bf16));
        QCOMPARE(cell(Figure::peakFp32, id).toDouble(), hw.peak(ComputeType::fp32));
        QCOMPARE(cell(Figure::peakFp8, id).toDouble(), hw.peak(ComputeType::fp8));
    }
    QVERIFY(m_panel->message().isEmpty());
    // The fewest days among the profiles the plan fits on is marked (bold, shaded); the others,
    // and a profile the plan does not fit on however fast, are not.
    std::size_t fastest = rows.size();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].fits() &&
            (fastest == rows.size() || rows[i].plan.time.days < rows[fastest].plan.time.days)) {
            fastest = i;
        }
    }
    QVERIFY(fastest < rows.size());
    int marked = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const QModelIndex days = m->index(CompareTableModel::rowOf(Figure::days),
                                          m->columnOf(QString::fromStdString(profiles[i].id)));
        // Ties (the H200 at the H100's peaks) are each the fewest.
        const bool best = rows[i].fits() && rows[i].plan.time.days == rows[fastest].plan.time.days;
        QCOMPARE(days.data(Qt::FontRole).value<QFont>().bold(), best);
        QCOMPARE(days.data(Qt::BackgroundRole).isValid(), best);
        marked += best ? 1 : 0;
    }
    QVERIFY(marked >= 1 && marked < static_cast<int>(rows.size()));
}

void TestUiCompare::fortyGigabytesDoesNotFit() {
    compareThese({QStringLiteral("h100-sxm"), QStringLiteral("h100-40")});
    const CompareTableModel* m = m_panel->tableModel();
    // 3e9 parameters x 16 bytes = 48e9 bytes per GPU (see threeBSpec()).
    const double perGpu = 3e9 * (2 + 2 + 4 + 8);
    QCOMPARE(perGpu, 48e9);
    QCOMPARE(cell(Figure::memoryPerGpu, QStringLiteral("h100-sxm")).toDouble(), perGpu);
    QCOMPARE(cell(Figure::memoryPerGpu, QStringLiteral("h100-40")).toDouble(), perGpu);
    // 80e9 - 48e9 = 32e9 left on the H100; 40e9 - 48e9 = -8e9 on the 40 GB copy.
    QCOMPARE(cell(Figure::headroom, QStringLiteral("h100-sxm")).toDouble(), 32e9);
    QCOMPARE(cell(Figure::headroom, QStringLiteral("h100-40")).toDouble(), -8e9);
    QCOMPARE(cell(Figure::fits, QStringLiteral("h100-sxm")).toBool(), true);
    QCOMPARE(cell(Figure::fits, QStringLiteral("h100-40")).toBool(), false);
    const int fitsRow = CompareTableModel::rowOf(Figure::fits);
    QCOMPARE(m->index(fitsRow, m->columnOf(QStringLiteral("h100-sxm"))).data().toString(),
             QStringLiteral("yes"));
    QCOMPARE(m->index(fitsRow, m->columnOf(QStringLiteral("h100-40"))).data().toString(),
             QStringLiteral("no"));
    QCOMPARE(
        m->index(CompareTableModel::rowOf(Figure::headroom), m->columnOf(QStringLiteral("h100-40")))
            .data()
            .toString(),
        QStringLiteral("-8.00 GB"));
    // Memory does not change the time: 6 x 3e9 x 60e9 = 1.08e21 FLOPs at 989.5e12 x 0.5 x 8
    // FLOP/s is 1.08e21 / 3.958e15 = 272 865.1 s = 3.1582 days on both.
    const double days = 6.0 * 3e9 * 60e9 / (989.5e12 * 0.5 * 8) / 86400.0;
    QVERIFY(std::abs(days - 3.1582) < 1e-4);
    QVERIFY(close(cell(Figure::days, QStringLiteral("h100-sxm")).toDouble(), days));
    QVERIFY(close(cell(Figure::days, QStringLiteral("h100-40")).toDouble(), days));
    // GPU-hours = days x 24 x 8; cost at 2 per GPU-hour.
    QVERIFY(close(cell(Figure::gpuHours, QStringLiteral("h100-40")).toDouble(), days * 24 * 8));
    QVERIFY(close(cell(Figure::cost, QStringLiteral("h100-40")).toDouble(), days * 24 * 8 * 2));
}

void TestUiCompare::roofsAreThePlannersPolylines() {
    compareThese({QStringLiteral("h100-sxm"), QStringLiteral("a100-80gb"), QStringLiteral("h200")});
    std::vector<Roof> roofs;
    for (const char* id : {"h100-sxm", "a100-80gb", "h200"}) {
        roofs.push_back(*roof_for(builtin(id), ComputeType::bf16));
    }
    const IntensityRange range = chart_intensity_range(roofs, {});
    QSet<QRgb> colours;
    for (std::size_t i = 0; i < roofs.size(); ++i) {
        const QString id = QString::fromStdString(i == 0   ? "h100-sxm"
                                                  : i == 1 ? "a100-80gb"
                                                           : "h200");
        QLineSeries* series = m_panel->roofSeries(id);
        QVERIFY2(series, qPrintable(id));
        const std::vector<ChartPoint> line =
            roof_polyline(roofs[i], range.min_flops_per_byte, range.max_flops_per_byte);
        const QList<QPointF> points = series->points();
        QCOMPARE(points.size(), static_cast<qsizetype>(line.size()));
        for (std::size_t k = 0; k < line.size(); ++k) {
            QCOMPARE(points[static_cast<qsizetype>(k)].x(), line[k].intensity_flops_per_byte);
            QCOMPARE(points[static_cast<qsizetype>(k)].y(), line[k].flops_per_s / 1e12);
        }
        // The flat part is the dense bf16 peak in TFLOP/s: 989.5 (H100, H200), 312 (A100).
        QCOMPARE(points.last().y(), i == 1 ? 312.0 : 989.5);
        colours.insert(series->pen().color().rgb());
    }
    QCOMPARE(colours.size(), 3);  // one colour per profile
    // H100 SXM ridge: 989.5e12 / 3.35e12 = 295.4 FLOP/byte (CS336 lecture 2).
    QVERIFY(std::abs(cell(Figure::ridge, QStringLiteral("h100-sxm")).toDouble() - 295.37) < 0.01);
    // The chart is exported as the other charts are.
    const QList<ChartInfo> charts = m_panel->charts();
    QCOMPARE(charts.size(), 1);
    QCOMPARE(charts.front().id, QStringLiteral("compare-roofline"));
}

void TestUiCompare::followsThePlan() {
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    compareThese({QStringLiteral("h100-sxm"), QStringLiteral("h100-40")});
    QCOMPARE(cell(Figure::fits, QStringLiteral("h100-40")).toBool(), false);
    // 2e9 parameters: 32e9 bytes per GPU, which fits in 40 GB (headroom 8e9).
    PlanSpec smaller = threeBSpec();
    smaller.model.params = 2e9;
    m_document->edit(smaller, QStringLiteral("smaller model"));
    QCOMPARE(cell(Figure::memoryPerGpu, QStringLiteral("h100-40")).toDouble(), 32e9);
    QCOMPARE(cell(Figure::headroom, QStringLiteral("h100-40")).toDouble(), 8e9);
    QCOMPARE(cell(Figure::fits, QStringLiteral("h100-40")).toBool(), true);
    // The compute dtype sets which roofs are drawn: fp32 peaks now (67 TFLOP/s on the H100).
    PlanSpec fp32 = smaller;
    fp32.training.compute_dtype = DType::fp32;
    m_document->edit(fp32, QStringLiteral("fp32"));
    QVERIFY(!m_document->error());
    QCOMPARE(m_panel->roofSeries(QStringLiteral("h100-sxm"))->points().last().y(), 67.0);
    QCOMPARE(cell(Figure::ridge, QStringLiteral("h100-sxm")).toDouble(), 67e12 / 3.35e12);
}

void TestUiCompare::profileWithoutTheComputeDtype() {
    // The V100 has no bf16 path: the plan is timed at its fp16 tensor peak (125 TFLOP/s) and the
    // view says so. 6 x 3e9 x 60e9 = 1.08e21 FLOPs; 1.08e21 / (125e12 x 0.5 x 8 x 86400)
    // = 1.08e21 / 4.32e19 = 25 days.
    compareThese({QStringLiteral("h100-sxm"), QStringLiteral("v100-sxm2-32gb")});
    const CompareTableModel* m = m_panel->tableModel();
    const int v100 = m->columnOf(QStringLiteral("v100-sxm2-32gb"));
    QVERIFY(v100 > 0);
    QVERIFY(std::abs(cell(Figure::days, QStringLiteral("v100-sxm2-32gb")).toDouble() - 25.0) <
            1e-9);
    const QModelIndex timedIn = m->index(CompareTableModel::rowOf(Figure::computeDtype), v100);
    QCOMPARE(timedIn.data().toString(), QStringLiteral("fp16 (no bf16)"));
    QVERIFY(timedIn.data(Qt::ToolTipRole).toString().contains(QStringLiteral("no dense bf16")));
    QCOMPARE(m->index(CompareTableModel::rowOf(Figure::computeDtype), m->columnOf("h100-sxm"))
                 .data()
                 .toString(),
             QStringLiteral("bf16"));
    // Its roof is drawn at the fp16 peak, and the chart's title says which part stands in.
    QVERIFY(m_panel->roofSeries(QStringLiteral("v100-sxm2-32gb")));
    QCOMPARE(m_panel->roofSeries(QStringLiteral("v100-sxm2-32gb"))->points().last().y(), 125.0);
    QVERIFY(m_panel->roofSeries(QStringLiteral("h100-sxm")));
    // Its own figures are still there: 32 GB, 900 GB/s, fp32 15.7 TFLOP/s.
    QCOMPARE(cell(Figure::memory, QStringLiteral("v100-sxm2-32gb")).toDouble(), 32e9);
    QCOMPARE(cell(Figure::peakFp32, QStringLiteral("v100-sxm2-32gb")).toDouble(), 15.7e12);
}

void TestUiCompare::choiceRules() {
    CompareProfilesModel* model = m_panel->profilesModel();
    compareThese({QStringLiteral("h100-sxm")});
    QCOMPARE(m_panel->tableModel()->rowCount(), 0);
    QVERIFY(m_panel->message().contains(QStringLiteral("two")));
    const QStringList six{QStringLiteral("h100-sxm"),  QStringLiteral("h200"),
                          QStringLiteral("a100-80gb"), QStringLiteral("b200"),
                          QStringLiteral("mi300x"),    QStringLiteral("h100-40")};
    compareThese(six);
    QCOMPARE(m_panel->tableModel()->columnCount(), 7);
    // A seventh is refused.
    QSignalSpy limit(model, &CompareProfilesModel::limitReached);
    const QModelIndex l4 = model->index(model->rowOf(QStringLiteral("l4")), 0);
    QVERIFY(!model->setData(l4, Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(limit.count(), 1);
    QCOMPARE(l4.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked);
    QVERIFY(m_panel->message().contains(QStringLiteral("six")));
    // Unchecking one (as a click does) and checking another works.
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("b200")), 0), Qt::Unchecked,
                           Qt::CheckStateRole));
    QVERIFY(model->setData(l4, Qt::Checked, Qt::CheckStateRole));
    m_panel->ensureCurrent();
    QVERIFY(m_panel->tableModel()->columnOf(QStringLiteral("l4")) > 0);
    QCOMPARE(m_panel->tableModel()->columnOf(QStringLiteral("b200")), -1);
    // A profile removed from the catalog leaves the comparison.
    m_catalog->setProfiles(builtin_hardware());
    QCOMPARE(m_panel->tableModel()->columnOf(QStringLiteral("h100-40")), -1);
    QCOMPARE(m_panel->tableModel()->columnCount(), 6);
}

void TestUiCompare::defaultChoiceStartsAtThePlansGpu() {
    // Nothing chosen yet: the plan's GPU, then the user's own profile.
    const QStringList ids = m_panel->profilesModel()->checkedIds();
    QCOMPARE(ids, (QStringList{QStringLiteral("h100-sxm"), QStringLiteral("h100-40")}));
    m_panel->ensureCurrent();
    QCOMPARE(m_panel->tableModel()->columnCount(), 3);
}

void TestUiCompare::modelsPassTheTester() {
    QAbstractItemModelTester listTester(m_panel->profilesModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester tableTester(m_panel->tableModel(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    compareThese(
        {QStringLiteral("h100-sxm"), QStringLiteral("v100-sxm2-32gb"), QStringLiteral("h100-40")});
    compareThese({QStringLiteral("h100-sxm")});
    compareThese({QStringLiteral("h100-sxm"), QStringLiteral("h200")});
    std::vector<HardwareProfile> fewer = builtin_hardware();
    fewer.resize(5);
    m_catalog->setProfiles(fewer);
    m_catalog->setProfiles(builtin_hardware());
}

// Without profiles of the user's own, the plan's GPU is compared with the next catalog part that
// has a dense bf16 peak: the catalog starts with a V100, which has none, and a comparison that
// cannot evaluate is no way to open.
void TestUiCompare::defaultChoiceEvaluates() {
    m_catalog->setProfiles(builtin_hardware());
    const QStringList ids = m_panel->profilesModel()->checkedIds();
    QCOMPARE(ids.size(), 2);
    QCOMPARE(ids.front(), QStringLiteral("h100-sxm"));
    QVERIFY(ids.back() != QStringLiteral("v100-sxm2-32gb"));
    for (const HardwareProfile& p : m_panel->profilesModel()->checkedProfiles()) {
        QVERIFY2(p.peak(ComputeType::bf16) > 0.0, p.id.c_str());
    }
}

// A remembered choice names a custom profile the catalog gets only when the workspace opens: it
// is checked once it arrives.
void TestUiCompare::choiceWaitsForProfilesToArrive() {
    m_catalog->setProfiles(builtin_hardware());
    m_panel->profilesModel()->setCheckedIds({QStringLiteral("h100-40"), QStringLiteral("h200")});
    QCOMPARE(m_panel->profilesModel()->checkedIds(), QStringList{QStringLiteral("h200")});
    std::vector<HardwareProfile> profiles = builtin_hardware();
    profiles.push_back(h100With40GB());
    m_catalog->setProfiles(profiles);
    QCOMPARE(m_panel->profilesModel()->checkedIds(),
             (QStringList{QStringLiteral("h100-40"), QStringLiteral("h200")}));
}

// Under an assumed MFU, days = FLOPs / (peak x MFU x GPUs): the H100 and the H200 have the same
// dense bf16 peak (989.5 TFLOP/s), so the same days, as the note says. Under the predicted MFU the
// H200's 4.8 TB/s against the H100's 3.35 TB/s shortens the memory-bound part of the step, so the
// days differ, and the note must not claim otherwise.
void TestUiCompare::noteDescribesTheMfuInUse() {
    compareThese({QStringLiteral("h100-sxm"), QStringLiteral("h200")});
    auto* note = m_panel->findChild<QLabel*>(QStringLiteral("compareTimeNote"));
    QVERIFY(note);
    QCOMPARE(cell(Figure::days, QStringLiteral("h100-sxm")).toDouble(),
             cell(Figure::days, QStringLiteral("h200")).toDouble());
    QVERIFY(note->text().contains(QStringLiteral("take the same time")));
    PlanSpec predicted = threeBSpec();
    predicted.cluster.mfu_predicted = true;
    m_document->edit(predicted, QStringLiteral("predicted"));
    m_panel->ensureCurrent();
    QVERIFY(cell(Figure::days, QStringLiteral("h200")).toDouble() <
            cell(Figure::days, QStringLiteral("h100-sxm")).toDouble());
    QVERIFY2(!note->text().contains(QStringLiteral("same time")), qPrintable(note->text()));
    QVERIFY(note->text().contains(QStringLiteral("predicted step")));
}

QTEST_MAIN(TestUiCompare)
#include "tst_ui_compare.moc"
