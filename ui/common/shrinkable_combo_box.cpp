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
    // Every choice's text, not sizeHintForColumn(), which measures only the rows laid out.
    QAbstractItemView* list = view();
    int text = 0;
    for (int i = 0; i < count(); ++i) {
        text = std::max(text, list->fontMetrics().horizontalAdvance(itemText(i)));
    }
    const int longest =
        text + 2 * list->frameWidth() + style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 24;
    list->setMinimumWidth(std::max(width(), longest));
    QComboBox::showPopup();
}

}  // namespace tally::ui
