#pragma once

#include <QByteArray>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>
#include <array>

class QChart;
class QChartView;
class QLineEdit;
class QLogValueAxis;
class QXYSeries;
class QTableView;
class QWidget;

namespace tally::ui {

// A chart a panel can export: an id for file names ("memory-per-gpu"), a title for menus.
struct ChartInfo {
    QString id;
    QString title;
    QWidget* widget = nullptr;
};

// A chart view as all panels use it: antialiased, no animations (a slider drag must redraw at
// once), legend at the bottom.
QChartView* makeChartView(QChart* chart, QWidget* parent);

// A table as the panels use it: no row numbers, rows one line of text high, no wrapping. With a
// stretch column, the other columns are fitted to their contents when the model is reset (its
// shape changed) and keep their width while values change, so a slider drag never re-measures
// the table (ResizeToContents would, on every change).
void compactTable(QTableView* table, int stretchColumn = -1);

// Keeps `table` tall enough for every row it holds (its header and frame included), refitted
// whenever rows come or go: for a table in a scrolling column, where one scroll bar for the
// column beats a second one inside a table a few rows high on a laptop's screen.
void showEveryRow(QTableView* table);
// Keeps `table` tall enough for `rows` rows (its header and frame included), whatever a splitter
// or a short screen leaves it: below a chart on a laptop's 768 px it kept two.
void showAtLeastRows(QTableView* table, int rows);

// One line of read-only text that looks like a label. Unlike a QLabel, new text never invalidates
// the layouts above it (a line edit's size hint does not depend on its text), so figures that
// change on every slider step do not re-lay out the window.
QLineEdit* makeTextLine(QWidget* parent);

// Replaces a series' points only when they differ: an unchanged series is not laid out again.
void replacePoints(QXYSeries* series, const QList<QPointF>& points);

// The smallest 1, 2 or 5 x 10^k at or above value (> 0); an axis maximum that only changes when
// the data moves past it, so the axis is not re-laid out on every slider step.
double niceCeil(double value);

// 10^floor(log10(value)) and 10^ceil(log10(value)): whole decades for log axes.
double decadeFloor(double value);
double decadeCeil(double value);

// Adds `x` (bottom) and `y` (left) to `chart` as base-10 logarithmic axes with plain numbers
// ("%g") and the given titles; series attach to them afterwards.
void addLogLogAxes(QChart* chart, QLogValueAxis* x, const QString& xTitle, QLogValueAxis* y,
                   const QString& yTitle);

// The axes of a roofline chart (the roofline panel's and the compare view's): arithmetic
// intensity in FLOP/byte along the bottom, attainable TFLOP/s up the left, both log-scaled.
void addRooflineAxes(QChart* chart, QLogValueAxis* x, QLogValueAxis* y);

// Colours of the memory components (params, grads, master, optimizer, activations, buffers),
// and of the capacity line, shared by the charts and the report's screenshots.
const std::array<QColor, 6>& componentColors();
QColor capacityColor();

// Writes what a widget shows as a PNG (at its current size, or 1200 x 760 when it has never been
// laid out) or as an SVG; atomically. False and a message on failure.
bool exportPng(QWidget* widget, const QString& path, QString* error);
bool exportSvg(QWidget* widget, const QString& path, const QString& title, QString* error);

// An SVG whose every font-family names, after the family the window drew with, the CJK families
// of the common systems and the generic sans-serif. The painter names only the window's font
// (on Debian "Sans Serif", fontconfig's alias, which no SVG viewer knows), also on the runs of
// Chinese text the window drew with a fallback font, so a viewer that does not fall back by
// itself drew the Chinese labels as empty boxes. The families: Noto Sans CJK SC (Debian's
// fonts-noto-cjk, what the window falls back to here), Source Han Sans SC (the same design under
// Adobe's name), PingFang SC (macOS), Microsoft YaHei (Windows).
QByteArray svgWithFallbackFonts(const QByteArray& svg);

}  // namespace tally::ui
