// cacheChartText() keeps a chart's text and grid as pixmaps between repaints; when an axis
// changes its range those items are laid out again, and the chart must then draw as one drawn
// afresh would, labels, grid and axis title included.
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QImage>
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <cstdlib>

#include "ui/common/chart_support.h"

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

}  // namespace

class TestChartCache : public QObject {
    Q_OBJECT

private slots:
    void rangeChangeRedrawsTheAxis();
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
    const QImage after = cached.draw();

    BarChart fresh(200.0);
    QVERIFY(QTest::qWaitForWindowExposed(fresh.view));
    const QImage expected = fresh.draw();
    QCOMPARE(after.size(), expected.size());
    // Cached text may differ from text drawn afresh in the antialiasing of a few pixels; a label,
    // a grid line or the axis title left out differs in hundreds.
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
    QVERIFY2(different < 40, qPrintable(QString::number(different)));
}

QTEST_MAIN(TestChartCache)
#include "tst_ui_chart_cache.moc"
