// cacheChartText() keeps a chart's text and grid as pixmaps between repaints; when an axis
// changes its range those items are laid out again, and the chart must then draw as one drawn
// afresh would, labels, grid and axis title included.
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsItem>
#include <QImage>
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <cstdlib>

#include "planner/io/spec_json.h"
#include "ui/charts/inference_panel.h"
#include "ui/charts/time_panel.h"
#include "ui/common/chart_support.h"
#include "ui/common/hardware_catalog.h"
#include "ui/plan/plan_document.h"

using namespace tally;
using namespace tally::ui;

namespace {

// A chart like the Memory panel's: four bars against a value axis from 0 to `top`.
struct BarChart {
    QChart* chart = new QChart;
    QChartView* view = nullptr;
    QValueAxis* y = new QValueAxis;

    explicit BarChart(double top) {
        auto* set = new QBarSet(QStringLiteral("GB"));
        *set << 60 << 33 << 28 << 24;
        auto* series = new QBarSeries;
        series->append(set);
        chart->addSeries(series);
        auto* x = new QBarCategoryAxis;
        x->append(
            {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")});
        chart->addAxis(x, Qt::AlignBottom);
        series->attachAxis(x);
        y->setTitleText(QStringLiteral("GB per GPU"));
        y->setLabelFormat(QStringLiteral("%g"));
        y->setRange(0.0, top);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(y);
        view = makeChartView(chart, nullptr);
        view->resize(480, 360);
        view->show();
    }
    ~BarChart() { delete view; }

    QImage draw() {
        QCoreApplication::processEvents();
        return view->grab().toImage();
    }
};

// Pixels that differ by more than a quarter of the range in some channel.
int differingPixels(const QImage& after, const QImage& expected) {
    const QImage a = after.convertToFormat(QImage::Format_RGB32);
    const QImage b = expected.convertToFormat(QImage::Format_RGB32);
    int different = 0;
    for (int y = 0; y < a.height(); ++y) {
        const auto* ra = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* rb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            const int d = std::max({std::abs(qRed(ra[x]) - qRed(rb[x])),
                                    std::abs(qGreen(ra[x]) - qGreen(rb[x])),
                                    std::abs(qBlue(ra[x]) - qBlue(rb[x]))});
            different += d > 64 ? 1 : 0;
        }
    }
    return different;
}

// How many pixels of `after` differ from the same chart (axis 0 to `top`) drawn afresh, never
// cached; every pixel when the sizes differ. Cached text may differ from text drawn afresh in the
// antialiasing of a few pixels; a label, a grid line or the axis title left out differs in
// hundreds.
int differsFromFresh(const QImage& after, double top) {
    BarChart fresh(top);
    if (!QTest::qWaitForWindowExposed(fresh.view)) {
        return after.width() * after.height();
    }
    const QImage expected = fresh.draw();
    if (after.size() != expected.size()) {
        return after.width() * after.height();
    }
    return differingPixels(after, expected);
}

}  // namespace

class TestChartCache : public QObject {
    Q_OBJECT

private slots:
    void rangeChangeRedrawsTheAxis();
    void resizeRedrawsTheAxis();
    void timePanelRetitlesItsStep();
    void inferencePanelShowsItsText();
};

void TestChartCache::rangeChangeRedrawsTheAxis() {
    BarChart cached(100.0);
    QVERIFY(QTest::qWaitForWindowExposed(cached.view));
    cached.draw();
    cacheChartText(cached.chart);
    cached.draw();
    // A plan edit doubles the top of the axis (0-100 to 0-200), as the panels do it: the range
    // first, the cache walk after.
    cached.y->setRange(0.0, 200.0);
    cached.draw();
    cacheChartText(cached.chart);
    const int different = differsFromFresh(cached.draw(), 200.0);
    QVERIFY2(different < 40, qPrintable(QString::number(different)));
}

// A panel's chart is cached when the panel is first shown, which may be before its splitter
// gives it its size: the axes laid out again at the final size must not be drawn from pixmaps of
// the first.
void TestChartCache::resizeRedrawsTheAxis() {
    BarChart cached(200.0);
    cached.view->resize(200, 120);
    QVERIFY(QTest::qWaitForWindowExposed(cached.view));
    cacheChartText(cached.chart);
    cached.draw();
    cached.view->resize(480, 360);
    cached.draw();
    cacheChartText(cached.chart);
    const int different = differsFromFresh(cached.draw(), 200.0);
    QVERIFY2(different < 40, qPrintable(QString::number(different)));
}

// Dark (text) pixels in a band of an image: the title, the axes' labels and titles and the
// legend are drawn in dark grey, the plot in colours and light grid lines.
int darkPixels(const QImage& image, const QRect& band) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int dark = 0;
    for (int y = band.top(); y <= band.bottom(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = band.left(); x <= band.right(); ++x) {
            dark += qRed(row[x]) < 110 && qGreen(row[x]) < 110 && qBlue(row[x]) < 110 ? 1 : 0;
        }
    }
    return dark;
}

// A panel shown for the first time lays its splitters out while its charts paint: the Inference
// panel's memory chart, cached then, used to show no text at all (title, labels, legend).
// The Time panel retitles its step chart with each plan ("One step, predicted: 22.65 s ...") and
// may keep its axis: after an edit the new title and the axis's labels must show. DeepSeek-V3 on
// 256 B200, its dispatcher switched from flex to all-to-all, moves the step from 22.65 s to
// 40.65 s within the same 0-50 s axis.
void TestChartCache::timePanelRetitlesItsStep() {
    HardwareCatalog catalog;
    PlanDocument document(&catalog);
    PlanSpec spec = load_plan_spec(TALLY_SOURCE_DIR
                                   "/docs/cases/mbridge-26.04.01-dgx-b200-deepseekv3-mxfp8-"
                                   "256gpu-gbs4096.json");
    document.reset(spec);
    TimePanel panel(&document);
    panel.resize(1000, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTest::qWait(100);
    spec.training.moe_dispatcher = MoeDispatcher::alltoall;
    document.edit(spec, QStringLiteral("dispatcher"));
    QTest::qWait(100);
    for (const ChartInfo& c : panel.charts()) {
        const QImage image = c.widget->grab().toImage();
        QVERIFY2(darkPixels(image, QRect(0, 0, image.width(), 24)) > 50, qPrintable(c.id));
    }
}

void TestChartCache::inferencePanelShowsItsText() {
    HardwareCatalog catalog;
    PlanDocument document(&catalog);
    document.reset(
        load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/llama-3-70b-serve-4xh100-fp8.json"));
    InferencePanel panel(&document);
    panel.resize(1000, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTest::qWait(100);
    for (const ChartInfo& c : panel.charts()) {
        const QImage image = c.widget->grab().toImage();
        // The chart's title along the top, the value axis's labels and title down the left.
        QVERIFY2(darkPixels(image, QRect(0, 0, image.width(), 24)) > 50, qPrintable(c.id));
        QVERIFY2(darkPixels(image, QRect(0, 30, 45, image.height() - 90)) > 50, qPrintable(c.id));
    }
}

QTEST_MAIN(TestChartCache)
#include "tst_ui_chart_cache.moc"
