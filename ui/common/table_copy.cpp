#include "ui/common/table_copy.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QStringList>
#include <QTableView>
#include <algorithm>
#include <vector>

namespace tally::ui {

namespace {

// A cell's text kept on one line of one cell: a tab or a line break would start another.
QString oneCell(QString text) {
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    text.replace(QLatin1Char('\r'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

// Logical indexes in on-screen order, hidden sections left out, of the sections `wanted` keeps.
template <class Wanted>
std::vector<int> visualOrder(const QHeaderView* header, int count, Wanted wanted) {
    std::vector<int> logical;
    for (int visual = 0; visual < count; ++visual) {
        const int index = header->logicalIndex(visual);
        if (index >= 0 && !header->isSectionHidden(index) && wanted(index)) {
            logical.push_back(index);
        }
    }
    return logical;
}

}  // namespace

QString selectedCellsText(const QTableView* view, bool withHeaders) {
    const QAbstractItemModel* model = view->model();
    const QItemSelectionModel* selection = view->selectionModel();
    if (!model || !selection) {
        return {};
    }
    // A table of figures that takes no selection (the Memory, Time, Inference and Compare
    // panels') is copied whole.
    const bool whole = view->selectionMode() == QAbstractItemView::NoSelection;
    const QModelIndexList cells = selection->selectedIndexes();
    if (cells.isEmpty() && !whole) {
        return {};
    }
    std::vector<bool> rowSelected(static_cast<std::size_t>(model->rowCount()), whole);
    std::vector<bool> columnSelected(static_cast<std::size_t>(model->columnCount()), whole);
    for (const QModelIndex& cell : cells) {
        if (cell.row() < model->rowCount() && cell.column() < model->columnCount()) {
            rowSelected[static_cast<std::size_t>(cell.row())] = true;
            columnSelected[static_cast<std::size_t>(cell.column())] = true;
        }
    }
    const std::vector<int> rows =
        visualOrder(view->verticalHeader(), model->rowCount(),
                    [&](int r) { return rowSelected[static_cast<std::size_t>(r)]; });
    const std::vector<int> columns =
        visualOrder(view->horizontalHeader(), model->columnCount(),
                    [&](int c) { return columnSelected[static_cast<std::size_t>(c)]; });
    if (rows.empty() || columns.empty()) {
        return {};
    }
    // A table whose rows are named (a side-by-side comparison) names them in a first column.
    const bool rowNames = withHeaders && !view->verticalHeader()->isHidden();
    QStringList lines;
    if (withHeaders) {
        QStringList header;
        if (rowNames) {
            header << QString();
        }
        for (int c : columns) {
            header << oneCell(model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        }
        lines << header.join(QLatin1Char('\t'));
    }
    for (int r : rows) {
        QStringList line;
        if (rowNames) {
            line << oneCell(model->headerData(r, Qt::Vertical, Qt::DisplayRole).toString());
        }
        for (int c : columns) {
            const QModelIndex index = model->index(r, c);
            line << (whole || selection->isSelected(index)
                         ? oneCell(model->data(index, Qt::DisplayRole).toString())
                         : QString());
        }
        lines << line.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

TableCopy::TableCopy(QTableView* view) : QObject(view), m_view(view) {}

void TableCopy::install(QTableView* view) {
    if (view->findChild<TableCopy*>(QString(), Qt::FindDirectChildrenOnly)) {
        return;  // installed already: a table met twice copies once
    }
    auto* copier = new TableCopy(view);
    view->installEventFilter(copier);
    const bool whole = view->selectionMode() == QAbstractItemView::NoSelection;
    auto* copy = new QAction(tr("Copy"), view);
    copy->setObjectName(QStringLiteral("tableCopy"));
    copy->setToolTip(whole ? tr("Copy the table as tab-separated text")
                           : tr("Copy the selected cells as tab-separated text"));
    QObject::connect(copy, &QAction::triggered, copier, [copier] { copier->copy(false); });
    auto* copyWithHeaders = new QAction(tr("Copy with headers"), view);
    copyWithHeaders->setObjectName(QStringLiteral("tableCopyWithHeaders"));
    copyWithHeaders->setToolTip(
        whole ? tr("Copy the table as tab-separated text, the column titles first")
              : tr("Copy the selected cells as tab-separated text, the column titles first"));
    QObject::connect(copyWithHeaders, &QAction::triggered, copier,
                     [copier] { copier->copy(true); });
    view->addAction(copy);
    view->addAction(copyWithHeaders);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

bool TableCopy::eventFilter(QObject* watched, QEvent* event) {
    // QTableView's own Copy key puts the current cell alone on the clipboard; the filter sees the
    // key first and copies the whole selection instead.
    if (watched == m_view && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        copy(false);
        return true;
    }
    return QObject::eventFilter(watched, event);
}

void TableCopy::copy(bool withHeaders) const {
    const QString text = selectedCellsText(m_view, withHeaders);
    if (!text.isEmpty()) {
        QApplication::clipboard()->setText(text);
    }
}

}  // namespace tally::ui
