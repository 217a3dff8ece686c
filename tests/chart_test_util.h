#pragma once

// Helpers for the chart tests: what a chart draws, as a user reads it.

#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QRectF>
#include <QStringList>

namespace tally::test {

// The legend's drawn entries: the text items the legend shows, with the width they are drawn at
// (a label elided to nothing is an unlabelled swatch), inside the chart (an entry laid out past
// its edge is not drawn). Sorted.
inline QStringList drawnLegend(QChart* chart) {
    QStringList out;
    const QRectF shown = chart->sceneBoundingRect();
    for (QGraphicsItem* item : chart->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible() || !chart->legend()->isAncestorOf(text) ||
            !shown.contains(text->sceneBoundingRect())) {
            continue;
        }
        out.append(text->toPlainText());
    }
    out.sort();
    return out;
}

}  // namespace tally::test
