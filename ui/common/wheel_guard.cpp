#include "ui/common/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QScrollBar>
#include <QWheelEvent>
#include <QWidget>

namespace tally::ui {

namespace {

QAbstractScrollArea* enclosingScrollArea(QWidget* widget) {
    for (QWidget* w = widget->parentWidget(); w; w = w->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
            return area;
        }
    }
    return nullptr;
}

}  // namespace

WheelGuard::WheelGuard(QObject* parent) : QObject(parent) {}

void WheelGuard::install(QWidget* root) {
    auto* guard = new WheelGuard(root);
    const auto guardOne = [guard](QWidget* w) {
        w->setFocusPolicy(Qt::StrongFocus);
        w->installEventFilter(guard);
    };
    for (auto* w : root->findChildren<QComboBox*>()) {
        guardOne(w);
    }
    for (auto* w : root->findChildren<QAbstractSlider*>()) {
        // A scroll bar belongs to a scroll area (a text box, a combo box's open list), which
        // hands it the wheel itself: guarded, it would hand the wheel back to the area, and the
        // two would pass it between them until the stack runs out.
        if (!qobject_cast<QScrollBar*>(w)) {
            guardOne(w);
        }
    }
    for (auto* w : root->findChildren<QAbstractSpinBox*>()) {
        guardOne(w);
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::Wheel) {
        return QObject::eventFilter(watched, event);
    }
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->hasFocus()) {
        return QObject::eventFilter(watched, event);
    }
    // Not focused: the input does not see the wheel. Hand it to the scroll area's viewport (Qt
    // does not propagate a synthesized wheel event to the parent, so forward it explicitly).
    auto* wheel = static_cast<QWheelEvent*>(event);
    if (QAbstractScrollArea* area = enclosingScrollArea(widget)) {
        QWidget* viewport = area->viewport();
        const QPointF at = viewport->mapFromGlobal(wheel->globalPosition());
        QWheelEvent forwarded(at, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                              wheel->buttons(), wheel->modifiers(), wheel->phase(),
                              wheel->inverted(), wheel->source());
        QCoreApplication::sendEvent(viewport, &forwarded);
        event->accept();
        return true;
    }
    event->ignore();  // no scroll area: let a spontaneous event reach the parent
    return true;
}

}  // namespace tally::ui
