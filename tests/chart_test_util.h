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

// Pairs of the legend's drawn entries whose texts overlap ("Buffers" drawn over "Capacity
// 80.00 GB" when an entry was shown after the legend had been laid out), as "a / b".
inline QStringList overlappingLegendEntries(QChart* chart) {
    QList<QGraphicsTextItem*> texts;
    const QRectF shown = chart->sceneBoundingRect();
    for (QGraphicsItem* item : chart->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (text && text->isVisible() && chart->legend()->isAncestorOf(text) &&
            shown.contains(text->sceneBoundingRect()) && !text->toPlainText().isEmpty()) {
            texts.append(text);
        }
    }
    QStringList out;
    for (qsizetype i = 0; i < texts.size(); ++i) {
        for (qsizetype j = i + 1; j < texts.size(); ++j) {
            // A pixel of slack: neighbours may touch.
            const QRectF a = texts[i]->sceneBoundingRect().adjusted(1, 1, -1, -1);
            if (a.intersects(texts[j]->sceneBoundingRect().adjusted(1, 1, -1, -1))) {
                out.append(texts[i]->toPlainText() + QStringLiteral(" / ") +
                           texts[j]->toPlainText());
            }
        }
    }
    return out;
}

}  // namespace tally::test
