#include "ui/common/chart_support.h"

#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsScene>
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
#include <QValueAxis>
#include <QXYSeries>
#include <algorithm>
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
    auto fitColumns = [table, stretchColumn](int first, int last) {
        const int padding = table->fontMetrics().horizontalAdvance(QStringLiteral("00"));
        for (int c = std::max(first, 0); c <= last && c < table->model()->columnCount(); ++c) {
            if (c != stretchColumn) {
                table->resizeColumnToContents(c);
                table->setColumnWidth(c, table->columnWidth(c) + padding);
            }
        }
    };
    auto fit = [table, fitColumns] { fitColumns(0, table->model()->columnCount() - 1); };
    QObject::connect(table->model(), &QAbstractItemModel::modelReset, table, fit);
    // Rows that arrive one by one (a probe's results) widen their columns too; sized only on a
    // reset, the columns kept the empty table's widths and cut "stream" to "stre…".
    QObject::connect(table->model(), &QAbstractItemModel::rowsInserted, table, fit);
    // Headers in another language (a language switch announces new header data for every
    // column): sized to the old words, English headers after Chinese ones were cut to
    // "icro-bat". Only the columns whose headers changed.
    QObject::connect(table->model(), &QAbstractItemModel::headerDataChanged, table,
                     [fitColumns](Qt::Orientation orientation, int first, int last) {
                         if (orientation == Qt::Horizontal) {
                             fitColumns(first, last);
                         }
                     });
    fit();
}

namespace {

// The header is counted unless hidden (isVisible() is false until the table is first shown).
int heightForRows(const QTableView* table, int rows) {
    const int header =
        table->horizontalHeader()->isHidden() ? 0 : table->horizontalHeader()->sizeHint().height();
    return header + rows * table->verticalHeader()->defaultSectionSize() + 2 * table->frameWidth();
}

}  // namespace

void showAtLeastRows(QTableView* table, int rows) {
    table->setMinimumHeight(heightForRows(table, rows));
}

void showEveryRow(QTableView* table) {
    auto fit = [table] {
        table->setMinimumHeight(
            heightForRows(table, table->model() ? table->model()->rowCount() : 0));
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
    return writeFileAtomically(path, svgWithFallbackFonts(bytes), error);
}

QByteArray svgWithFallbackFonts(const QByteArray& svg) {
    static const QByteArray attribute = QByteArrayLiteral("font-family=\"");
    static const QByteArray fallbacks = QByteArrayLiteral(
        ", 'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', sans-serif");
    QByteArray out;
    out.reserve(svg.size() + svg.size() / 8);
    qsizetype from = 0;
    while (true) {
        const qsizetype at = svg.indexOf(attribute, from);
        const qsizetype close = at < 0 ? -1 : svg.indexOf('"', at + attribute.size());
        if (close < 0) {
            out.append(svg.mid(from));
            return out;
        }
        out.append(svg.mid(from, close - from));  // up to the family the window drew with
        out.append(fallbacks);
        from = close;  // the closing quote and what follows
    }
}

}  // namespace tally::ui
