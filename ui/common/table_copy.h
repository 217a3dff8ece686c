#pragma once

#include <QObject>
#include <QString>

class QTableView;

namespace tally::ui {

// The selected cells of `view` as tab-separated text, one line a row, as a spreadsheet pastes
// cells: rows and columns in the order the view shows them (a sorted or moved column where it
// is on screen), hidden ones left out, a cell not selected inside the selected block left empty.
// With headers, a first line of the selected columns' header texts, and where the rows are named
// (a visible vertical header) their names in a first column. Tabs and line breaks inside a
// cell become spaces, so every cell stays one cell. Empty when nothing is selected; a table that
// takes no selection (NoSelection: a panel's figures) is copied whole.
QString selectedCellsText(const QTableView* view, bool withHeaders);

// Makes Ctrl+C (the platform's Copy key) copy the selected cells as selectedCellsText() does,
// where QTableView copies only the current cell, and gives the table a context menu with Copy
// and Copy with headers.
class TableCopy : public QObject {
    Q_OBJECT
public:
    static void install(QTableView* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit TableCopy(QTableView* view);
    void copy(bool withHeaders) const;
    QTableView* m_view;
};

}  // namespace tally::ui
