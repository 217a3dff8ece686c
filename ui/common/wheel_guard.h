#pragma once

#include <QObject>

class QWidget;

namespace tally::ui {

// Keeps the mouse wheel from editing a form while the user scrolls it. Combo boxes, sliders and
// spin boxes take wheel events wherever the pointer is, so scrolling a long form changes every
// input the pointer passes over (the optimizer, the tensor-parallel size). Under the guard such
// an input takes focus only by a click or Tab (Qt::StrongFocus), and a wheel over it while it
// does not have focus scrolls the enclosing scroll area instead; once focused it takes the wheel
// as usual.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    explicit WheelGuard(QObject* parent = nullptr);

    // Guards every combo box, slider and spin box under `root` (created so far).
    static void install(QWidget* root);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace tally::ui
