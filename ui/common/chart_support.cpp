#include "ui/common/chart_support.h"

#include <QBarCategoryAxis>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QHeaderView>
#include <QImage>
#include <QLegend>
#include <QLineEdit>
#include <QLogValueAxis>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QTableView>
#include <QTimer>
#include <QValueAxis>
#include <QXYSeries>
#include <cmath>

#include "ui/common/file_io.h"

namespace tally::ui {

QChartView* makeChartView(QChart* chart, QWidget* parent) {
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    // A legend shares its line among its entries and shortens the long ones ("Continuous ...",
    // "Capacity 8..."); hovering one shows it whole.
    chart->legend()->setShowToolTips(true);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    // Chart items move on every slider step; a BSP index would be rebuilt each time.
    view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    view->setMinimumSize(320, 220);
    return view;
}

namespace {

// What the chart's axes show: their ranges, ticks, categories and titles. When it changes, Qt
// Charts lays the labels, titles and grid out again in its own layout pass, and pixmaps cached
// before would show them as they were, or not at all.
QString axesSignature(QChart* chart) {
    QString out;
    for (QAbstractAxis* axis : chart->axes()) {
        if (const auto* value = qobject_cast<QValueAxis*>(axis)) {
            out += QStringLiteral("v%1,%2,%3;")
                       .arg(value->min(), 0, 'g', 17)
                       .arg(value->max(), 0, 'g', 17)
                       .arg(value->tickCount());
        } else if (const auto* log = qobject_cast<QLogValueAxis*>(axis)) {
            out +=
                QStringLiteral("l%1,%2;").arg(log->min(), 0, 'g', 17).arg(log->max(), 0, 'g', 17);
        } else if (auto* bars = qobject_cast<QBarCategoryAxis*>(axis)) {
            out += QStringLiteral("c") + bars->categories().join(QChar(0x1f)) + QLatin1Char(';');
        }
        out +=
            axis->titleText() + (axis->isVisible() ? QStringLiteral("+;") : QStringLiteral("-;"));
    }
    return out;
}

// The chart's title and every text it draws (legend entries, labels a panel placed, the axes'
// labels as last laid out): a title that changes its words (the Time panel's "One step,
// predicted: ...") is laid out again like an axis.
QString textSignature(QChart* chart) {
    QString out = chart->title() + QChar(0x1e);
    QList<QGraphicsItem*> todo = chart->childItems();
    while (!todo.isEmpty()) {
        QGraphicsItem* item = todo.takeLast();
        todo += item->childItems();
        if (const auto* text = dynamic_cast<QGraphicsTextItem*>(item)) {
            out += text->toPlainText() + QChar(0x1f);
        } else if (const auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            out += simple->text() + QChar(0x1f);
        }
    }
    return out;
}

// The chart's items whose pixmaps cacheChartText() keeps: text, and the axes' lines and grid
// (antialiased lines across the whole plot, drawn again whenever a series over them changed).
// `drop`: first throw away the pixmaps they have, so that each paints itself afresh once.
void setTextCache(QChart* chart, bool drop) {
    QList<QGraphicsItem*> todo = chart->childItems();
    while (!todo.isEmpty()) {
        QGraphicsItem* item = todo.takeLast();
        todo += item->childItems();
        const bool text = dynamic_cast<QGraphicsSimpleTextItem*>(item) != nullptr ||
                          dynamic_cast<QGraphicsTextItem*>(item) != nullptr ||
                          dynamic_cast<QGraphicsLineItem*>(item) != nullptr;
        if (!text) {
            continue;
        }
        if (drop && item->cacheMode() == QGraphicsItem::DeviceCoordinateCache) {
            item->setCacheMode(QGraphicsItem::NoCache);
        }
        if (item->cacheMode() != QGraphicsItem::DeviceCoordinateCache) {
            item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
        }
    }
}

constexpr const char* kDropPending = "tallyTextCacheDropPending";

// Drops a chart's cached pixmaps once more after its view next paints. Qt Charts lays an axis's
// labels out again in its own layout pass, which may come after the paint that follows a change:
// that paint would cache the labels, the grid and the titles as they were (or not yet drawn),
// and later changes to them do not reach the pixmaps. One repaint with fresh pixmaps once the
// layout settled shows them as they are.
class DropAfterNextPaint : public QObject {
public:
    DropAfterNextPaint(QChart* chart, QWidget* viewport) : QObject(viewport), m_chart(chart) {
        viewport->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            auto* viewport = static_cast<QWidget*>(watched);
            viewport->removeEventFilter(this);
            QTimer::singleShot(0, m_chart, [chart = m_chart, viewport] {
                chart->setProperty(kDropPending, false);
                setTextCache(chart, true);
                viewport->update();
            });
            deleteLater();
        }
        return false;
    }

private:
    QChart* m_chart;
};

// Drops the pixmaps now (the next paint draws every item afresh) and once more after that paint.
void dropTextCache(QChart* chart) {
    setTextCache(chart, true);
    if (chart->property(kDropPending).toBool() || chart->scene() == nullptr) {
        return;
    }
    chart->setProperty(kDropPending, true);
    for (QGraphicsView* view : chart->scene()->views()) {
        new DropAfterNextPaint(chart, view->viewport());
    }
}

}  // namespace

constexpr const char* kNeverCache = "tallyTextNeverCached";

void neverCacheChartText(QChart* chart) {
    chart->setProperty(kNeverCache, true);
}

void cacheChartText(QChart* chart) {
    if (chart->property(kNeverCache).toBool()) {
        return;
    }
    // Qt Charts lays its labels, titles and grid out again when an axis or a text changes or the
    // plot area moves or resizes (a window resize, a splitter, a wider label): the pixmaps are
    // dropped whenever one of these happens, and when the chart is first cached.
    const char* const watched = "tallyTextCacheWatched";
    const bool first = !chart->property(watched).toBool();
    if (first) {
        chart->setProperty(watched, true);
        QObject::connect(chart, &QChart::plotAreaChanged, chart,
                         [chart](const QRectF&) { dropTextCache(chart); });
    }
    // Axes and texts are laid out again later, in the chart's layout pass: drop the pixmaps now
    // and once more after the next paint.
    const QString signature = axesSignature(chart) + QChar(0x1d) + textSignature(chart);
    const bool changed = chart->property("tallyChartSignature").toString() != signature;
    chart->setProperty("tallyChartSignature", signature);
    if (first || changed) {
        dropTextCache(chart);
    } else {
        setTextCache(chart, false);
    }
}

void compactTable(QTableView* table, int stretchColumn) {
    table->verticalHeader()->hide();
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setWordWrap(false);
    if (stretchColumn < 0 || !table->model()) {
        return;
    }
    QHeaderView* header = table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    auto fit = [table, stretchColumn] {
        const int padding = table->fontMetrics().horizontalAdvance(QStringLiteral("00"));
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            if (c != stretchColumn) {
                table->resizeColumnToContents(c);
                table->setColumnWidth(c, table->columnWidth(c) + padding);
            }
        }
    };
    QObject::connect(table->model(), &QAbstractItemModel::modelReset, table, fit);
    // Rows that arrive one by one (a probe's results) widen their columns too; sized only on a
    // reset, the columns kept the empty table's widths and cut "stream" to "stre…".
    QObject::connect(table->model(), &QAbstractItemModel::rowsInserted, table, fit);
    fit();
}

void showEveryRow(QTableView* table) {
    auto fit = [table] {
        const int rows = table->model() ? table->model()->rowCount() : 0;
        const int header = table->horizontalHeader()->isVisible()
                               ? table->horizontalHeader()->sizeHint().height()
                               : 0;
        table->setMinimumHeight(header + rows * table->verticalHeader()->defaultSectionSize() +
                                2 * table->frameWidth());
    };
    if (table->model()) {
        QObject::connect(table->model(), &QAbstractItemModel::modelReset, table, fit);
        QObject::connect(table->model(), &QAbstractItemModel::rowsInserted, table, fit);
        QObject::connect(table->model(), &QAbstractItemModel::rowsRemoved, table, fit);
    }
    fit();
}

QLineEdit* makeTextLine(QWidget* parent) {
    auto* line = new QLineEdit(parent);
    line->setReadOnly(true);
    line->setFrame(false);
    line->setFocusPolicy(Qt::NoFocus);
    line->setStyleSheet(QStringLiteral("QLineEdit { background: transparent; }"));
    return line;
}

void replacePoints(QXYSeries* series, const QList<QPointF>& points) {
    if (series->points() != points) {
        series->replace(points);
    }
}

double niceCeil(double value) {
    if (!(value > 0.0) || !std::isfinite(value)) {
        return 1.0;
    }
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * decade >= value * (1.0 - 1e-12)) {
            return m * decade;
        }
    }
    return 10.0 * decade;
}

double decadeFloor(double value) {
    return std::pow(10.0, std::floor(std::log10(value)));
}

double decadeCeil(double value) {
    return std::pow(10.0, std::ceil(std::log10(value)));
}

void addLogLogAxes(QChart* chart, QLogValueAxis* x, const QString& xTitle, QLogValueAxis* y,
                   const QString& yTitle) {
    for (QLogValueAxis* axis : {x, y}) {
        axis->setBase(10.0);
        axis->setLabelFormat(QStringLiteral("%g"));
    }
    x->setTitleText(xTitle);
    y->setTitleText(yTitle);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
}

void addRooflineAxes(QChart* chart, QLogValueAxis* x, QLogValueAxis* y) {
    addLogLogAxes(
        chart, x,
        QCoreApplication::translate("tally::ui::Roofline", "Arithmetic intensity (FLOP/byte)"), y,
        QCoreApplication::translate("tally::ui::Roofline", "Attainable TFLOP/s"));
}

const std::array<QColor, 6>& componentColors() {
    static const std::array<QColor, 6> colors{QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                                              QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                              QColor(0x8c, 0x56, 0x4b), QColor(0x7f, 0x7f, 0x7f)};
    return colors;
}

QColor capacityColor() {
    return QColor(0xd6, 0x27, 0x28);
}

namespace {

QSize exportSize(QWidget* widget) {
    if (!widget->testAttribute(Qt::WA_WState_Created) || widget->width() < 200 ||
        widget->height() < 150) {
        widget->resize(1200, 760);
    }
    return widget->size();
}

// A chart is exported at one size whatever its tab's (a tab not in front had never been laid
// out past 402 x 224, which cut the legend): the chart laid out at kChartExportSize, drawn,
// and put back as it was.
constexpr QSize kChartExportSize(1200, 760);

template <typename Paint>
bool renderChart(QWidget* widget, Paint paint) {
    auto* view = qobject_cast<QChartView*>(widget);
    if (!view || !view->chart()) {
        return false;
    }
    QChart* chart = view->chart();
    const QSizeF before = chart->size();
    chart->resize(kChartExportSize);
    if (QGraphicsLayout* layout = chart->layout()) {
        layout->activate();
    }
    paint(view->scene(), QRectF(chart->pos(), QSizeF(kChartExportSize)));
    chart->resize(before);
    if (QGraphicsLayout* layout = chart->layout()) {
        layout->activate();
    }
    return true;
}

}  // namespace

bool exportPng(QWidget* widget, const QString& path, QString* error) {
    QPixmap pixmap;
    const bool chart = renderChart(widget, [&](QGraphicsScene* scene, const QRectF& source) {
        QImage image(kChartExportSize, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        scene->render(&painter, QRectF(QPointF(0, 0), QSizeF(kChartExportSize)), source);
        painter.end();
        pixmap = QPixmap::fromImage(image);
    });
    if (!chart) {
        exportSize(widget);
        pixmap = widget->grab();
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!pixmap.save(&buffer, "PNG")) {
        if (error) {
            *error = QCoreApplication::translate("tally::ui::Export", "Cannot encode %1 as PNG")
                         .arg(path);
        }
        return false;
    }
    return writeFileAtomically(path, bytes, error);
}

bool exportSvg(QWidget* widget, const QString& path, const QString& title, QString* error) {
    const bool isChart = qobject_cast<QChartView*>(widget) != nullptr;
    const QSize size = isChart ? kChartExportSize : exportSize(widget);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    svg.setDescription(QCoreApplication::translate("tally::ui::Export", "Exported from Tally"));
    {
        QPainter painter(&svg);
        if (!renderChart(widget, [&](QGraphicsScene* scene, const QRectF& source) {
                scene->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), source);
            })) {
            widget->render(&painter);
        }
    }
    return writeFileAtomically(path, bytes, error);
}

}  // namespace tally::ui
