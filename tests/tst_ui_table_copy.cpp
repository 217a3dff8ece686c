// A table's selection copied as tab-separated cells (ui/common/table_copy.h): what a spreadsheet
// pastes as the same block of cells.
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>
#include <QtTest>

#include "ui/common/table_copy.h"

using namespace tally::ui;

class TestUiTableCopy : public QObject {
    Q_OBJECT
private slots:
    void blockInScreenOrder();
    void raggedSelectionLeavesGaps();
    void copyKeyCopiesTheSelection();
};

namespace {

// A 3 x 3 table whose cells read "r<row>c<column>", headers "A", "B", "C".
QStandardItemModel* grid(QObject* parent) {
    auto* model = new QStandardItemModel(3, 3, parent);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            model->setItem(r, c, new QStandardItem(QStringLiteral("r%1c%2").arg(r).arg(c)));
        }
    }
    model->setHorizontalHeaderLabels(
        {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")});
    return model;
}

}  // namespace

void TestUiTableCopy::blockInScreenOrder() {
    QTableView view;
    view.setModel(grid(&view));
    view.verticalHeader()->hide();
    // Column C dragged before A, B hidden: the copy follows the screen, C then A, no B.
    view.horizontalHeader()->moveSection(2, 0);
    view.setColumnHidden(1, true);
    view.selectAll();
    QCOMPARE(selectedCellsText(&view, false),
             QStringLiteral("r0c2\tr0c0\nr1c2\tr1c0\nr2c2\tr2c0\n"));
    QCOMPARE(selectedCellsText(&view, true),
             QStringLiteral("C\tA\nr0c2\tr0c0\nr1c2\tr1c0\nr2c2\tr2c0\n"));
    // A tab or line break inside a cell would split it into two cells or rows.
    auto* model = static_cast<QStandardItemModel*>(view.model());
    model->item(0, 0)->setText(QStringLiteral("a\tb\nc"));
    QCOMPARE(selectedCellsText(&view, false).section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("r0c2\ta b c"));
    view.clearSelection();
    QCOMPARE(selectedCellsText(&view, false), QString());
    // A table of figures that takes no selection is copied whole (what it shows, C then A).
    view.setSelectionMode(QAbstractItemView::NoSelection);
    QCOMPARE(selectedCellsText(&view, true),
             QStringLiteral("C\tA\nr0c2\ta b c\nr1c2\tr1c0\nr2c2\tr2c0\n"));
}

void TestUiTableCopy::raggedSelectionLeavesGaps() {
    QTableView view;
    view.setModel(grid(&view));
    // Two cells on a diagonal: the block they span is 2 x 2, the other two cells empty, and the
    // visible vertical header names the rows when headers are asked for.
    view.selectionModel()->select(view.model()->index(0, 0), QItemSelectionModel::Select);
    view.selectionModel()->select(view.model()->index(2, 1), QItemSelectionModel::Select);
    QCOMPARE(selectedCellsText(&view, false), QStringLiteral("r0c0\t\n\tr2c1\n"));
    QCOMPARE(selectedCellsText(&view, true), QStringLiteral("\tA\tB\n1\tr0c0\t\n3\t\tr2c1\n"));
}

void TestUiTableCopy::copyKeyCopiesTheSelection() {
    QTableView view;
    view.setModel(grid(&view));
    TableCopy::install(&view);
    TableCopy::install(&view);  // a second install adds nothing
    QCOMPARE(view.actions().size(), 2);
    QCOMPARE(view.contextMenuPolicy(), Qt::ActionsContextMenu);
    view.show();
    view.setFocus();
    view.setCurrentIndex(view.model()->index(1, 0));
    view.selectRow(1);
    QApplication::clipboard()->clear();
    QTest::keySequence(&view, QKeySequence::Copy);
    // QTableView alone would have copied "r1c0", the current cell.
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("r1c0\tr1c1\tr1c2\n"));
}

QTEST_MAIN(TestUiTableCopy)
#include "tst_ui_table_copy.moc"
