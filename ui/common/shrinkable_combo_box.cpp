#include "ui/common/shrinkable_combo_box.h"

#include <QAbstractItemView>
#include <QStyle>
#include <algorithm>

namespace tally::ui {

QSize ShrinkableComboBox::minimumSizeHint() const {
    QSize size = QComboBox::minimumSizeHint();
    const int narrow = fontMetrics().horizontalAdvance(QStringLiteral("0000000000.00")) +
                       style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 16;
    size.setWidth(std::min(size.width(), narrow));
    return size;
}

void ShrinkableComboBox::showPopup() {
    QAbstractItemView* list = view();
    const int longest = list->sizeHintForColumn(0) + 2 * list->frameWidth() +
                        style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 8;
    list->setMinimumWidth(std::max(width(), longest));
    QComboBox::showPopup();
}

}  // namespace tally::ui
