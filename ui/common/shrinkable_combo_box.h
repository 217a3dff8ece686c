#pragma once

#include <QComboBox>

namespace tally::ui {

// A combo box that opens at the width of its longest choice but lets the form be narrower than
// that: its minimum is about twelve characters (the longest choices then show clipped, in full
// in the open list, which opens as wide as they need). Without it the form's longest choice (an
// optimizer implementation, a GPU's full name, a model preset) set the form's minimum width, and
// with the headline beside it the window was wider than a 1366-pixel laptop screen.
class ShrinkableComboBox : public QComboBox {
public:
    using QComboBox::QComboBox;
    QSize minimumSizeHint() const override;
    // Opens the list at least as wide as its longest choice, whatever the box's own width.
    void showPopup() override;
};

}  // namespace tally::ui
