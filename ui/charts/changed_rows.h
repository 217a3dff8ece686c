#pragma once

#include <QAbstractItemModel>

namespace tally::ui {

// Announces the rows of a table model whose content changed, each run of consecutive rows as one
// dataChanged(): a view then repaints those cells only, where one dataChanged() over the whole
// table repainted every cell on every slider step. `changed(row)` says whether a row differs from
// what the view last showed.
template <typename Changed>
void emitChangedRows(QAbstractItemModel* model, int rows, int columns, Changed changed) {
    int first = -1;
    for (int row = 0; row <= rows; ++row) {
        const bool differs = row < rows && changed(row);
        if (differs && first < 0) {
            first = row;
        } else if (!differs && first >= 0) {
            emit model->dataChanged(model->index(first, 0), model->index(row - 1, columns - 1));
            first = -1;
        }
    }
}

}  // namespace tally::ui
