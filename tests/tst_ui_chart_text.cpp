// The charts' text (titles, axis labels and titles, legend entries) shows after every kind of
// change a plan makes to a chart. Text once kept as pixmaps between repaints came back blank
// after such changes (a legend entry added, a title reworded, a panel first laid out), so every
// chart draws its text afresh.
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QGraphicsItem>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include "planner/io/spec_json.h"
#include "ui/charts/inference_panel.h"
#include "ui/charts/memory_panel.h"
#include "ui/charts/time_panel.h"
#include "ui/common/chart_support.h"
#include "ui/common/hardware_catalog.h"
#include "ui/plan/plan_document.h"

using namespace tally;
using namespace tally::ui;

namespace {

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

// Chart items drawn from a pixmap kept between repaints rather than afresh.
int cachedItems(const QList<ChartInfo>& charts) {
    int cached = 0;
    for (const ChartInfo& c : charts) {
        const auto* view = qobject_cast<const QChartView*>(c.widget);
        if (view == nullptr) {
            continue;
        }
        QList<QGraphicsItem*> todo = view->chart()->childItems();
        while (!todo.isEmpty()) {
            QGraphicsItem* item = todo.takeLast();
            todo += item->childItems();
            cached += item->cacheMode() != QGraphicsItem::NoCache ? 1 : 0;
        }
    }
    return cached;
}

}  // namespace

class TestChartText : public QObject {
    Q_OBJECT

private slots:
    void timePanelRetitlesItsStep();
    void inferencePanelShowsItsText();
    void memoryPanelKeepsItsTextWhenALegendEntryComes();
    void svgNamesFontsWithChineseGlyphs();
};

// A panel shown for the first time lays its splitters out while its charts paint: the Inference
// panel's memory chart, cached then, used to show no text at all (title, labels, legend).
// The Time panel retitles its step chart with each plan ("One step, predicted: 22.65 s ...") and
// may keep its axis: after an edit the new title and the axis's labels must show. DeepSeek-V3 on
// 256 B200, its dispatcher switched from flex to all-to-all, moves the step from 22.65 s to
// 40.65 s within the same 0-50 s axis.
void TestChartText::timePanelRetitlesItsStep() {
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

void TestChartText::inferencePanelShowsItsText() {
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

// The Memory panel's ZeRO chart gains a legend entry (pipeline buffers) when the micro-batch goes
// from 1 to 2 on the default plan (pp 4): its title, axis labels and legend, drawn from pixmaps
// kept before, came back blank under X11. Every chart item is now drawn afresh.
void TestChartText::memoryPanelKeepsItsTextWhenALegendEntryComes() {
    HardwareCatalog catalog;
    PlanDocument document(&catalog);
    PlanSpec spec =
        load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/llama-3-70b-15t-1024-h100.json");
    document.reset(spec);
    MemoryPanel panel(&document);
    panel.resize(1000, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTest::qWait(100);
    spec.data.micro_batch = 2;
    document.edit(spec, QStringLiteral("micro-batch"));
    QTest::qWait(100);
    QCOMPARE(cachedItems(panel.charts()), 0);
    for (const ChartInfo& c : panel.charts()) {
        const QImage image = c.widget->grab().toImage();
        QVERIFY2(darkPixels(image, QRect(0, 0, image.width(), 24)) > 50, qPrintable(c.id));
        QVERIFY2(darkPixels(image, QRect(0, 30, 45, image.height() - 90)) > 50, qPrintable(c.id));
    }
}

// An exported SVG names the window's font and then fonts that have Chinese glyphs: a chart's
// Chinese title exported under the window's Latin font alone showed as empty boxes in a viewer
// that does not fall back by itself.
void TestChartText::svgNamesFontsWithChineseGlyphs() {
    QCOMPARE(svgWithFallbackFonts(QByteArrayLiteral("<g font-family=\"DejaVu Sans\" x=\"1\"/>")),
             QByteArrayLiteral("<g font-family=\"DejaVu Sans, 'Noto Sans CJK SC', 'Source Han Sans "
                               "SC', 'PingFang SC', 'Microsoft YaHei', sans-serif\" x=\"1\"/>"));
    QCOMPARE(svgWithFallbackFonts(QByteArrayLiteral("<g/>")), QByteArrayLiteral("<g/>"));
    // An attribute cut off at the end of the text is left as it is, not read past.
    QCOMPARE(svgWithFallbackFonts(QByteArrayLiteral("<g font-family=\"Dej")),
             QByteArrayLiteral("<g font-family=\"Dej"));

    HardwareCatalog catalog;
    PlanDocument document(&catalog);
    document.reset(
        load_plan_spec(TALLY_SOURCE_DIR "/resources/examples/llama-3-70b-15t-1024-h100.json"));
    MemoryPanel panel(&document);
    panel.resize(1000, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const ChartInfo chart = panel.charts().first();
    qobject_cast<QChartView*>(chart.widget)->chart()->setTitle(QStringLiteral("每个 GPU 的内存"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("memory.svg"));
    QString error;
    QVERIFY2(exportSvg(chart.widget, path, chart.title, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray svg = file.readAll();
    // The painter writes a text element a run of one script: "每个 ", "GPU ", "的内存".
    QVERIFY(svg.contains(">的内存</text>"));
    const qsizetype families = svg.count("font-family=\"");
    QVERIFY(families > 0);
    QCOMPARE(svg.count("'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', "
                       "'Microsoft YaHei', sans-serif\""),
             families);
}

QTEST_MAIN(TestChartText)
#include "tst_ui_chart_text.moc"
