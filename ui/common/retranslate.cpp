#include "ui/common/retranslate.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSeries>
#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSet>
#include <QSignalBlocker>
#include <QTabBar>
#include <QTabWidget>

#include "ui/i18n/translations.h"

namespace tally::ui {

namespace {

// Where a text is shown: the translations, the class names of the widget showing it and of its
// parents, and every widget class of the window, which together pick the lookup that produced it
// when several did (Translations::retranslated()).
struct Scope {
    const Translations& t;
    QList<QByteArray> contexts;
    const QSet<QByteArray>* widgetClasses = nullptr;
    QString retranslated(const QString& shown) const {
        return t.retranslated(shown, contexts, widgetClasses);
    }
};

// The class names of `w` and its parents, each with its base classes (a panel's base class is a
// context its texts are looked up in too).
QList<QByteArray> classesAround(const QObject* w) {
    QList<QByteArray> out;
    for (const QObject* o = w; o != nullptr; o = o->parent()) {
        for (const QMetaObject* m = o->metaObject(); m != nullptr; m = m->superClass()) {
            const QByteArray name(m->className());
            if (!out.contains(name)) {
                out.append(name);
            }
        }
    }
    return out;
}

template <class Get, class Set>
void redo(const Scope& t, Get get, Set set) {
    const QString shown = get();
    if (shown.isEmpty()) {
        return;
    }
    const QString next = t.retranslated(shown);
    if (next != shown) {
        set(next);
    }
}

void retranslateAction(const Scope& t, QAction* a) {
    redo(
        t, [a] { return a->text(); }, [a](const QString& s) { a->setText(s); });
    redo(
        t, [a] { return a->iconText(); }, [a](const QString& s) { a->setIconText(s); });
    redo(
        t, [a] { return a->toolTip(); }, [a](const QString& s) { a->setToolTip(s); });
    redo(
        t, [a] { return a->statusTip(); }, [a](const QString& s) { a->setStatusTip(s); });
}

void retranslateChart(const Scope& t, QChart* chart) {
    redo(
        t, [chart] { return chart->title(); }, [chart](const QString& s) { chart->setTitle(s); });
    for (QAbstractAxis* axis : chart->axes()) {
        redo(
            t, [axis] { return axis->titleText(); },
            [axis](const QString& s) { axis->setTitleText(s); });
    }
    for (QAbstractSeries* series : chart->series()) {
        redo(
            t, [series] { return series->name(); },
            [series](const QString& s) { series->setName(s); });
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            for (QBarSet* set : bars->barSets()) {
                redo(
                    t, [set] { return set->label(); },
                    [set](const QString& s) { set->setLabel(s); });
            }
        }
    }
    for (QAbstractAxis* axis : chart->axes()) {
        if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) {
            const QStringList before = categories->categories();
            QStringList after;
            for (const QString& category : before) {
                after.append(t.retranslated(category));
            }
            if (after != before) {
                categories->setCategories(after);
            }
        }
    }
}

void retranslateWidget(const Scope& t, QWidget* w) {
    redo(
        t, [w] { return w->toolTip(); }, [w](const QString& s) { w->setToolTip(s); });
    redo(
        t, [w] { return w->statusTip(); }, [w](const QString& s) { w->setStatusTip(s); });
    redo(
        t, [w] { return w->whatsThis(); }, [w](const QString& s) { w->setWhatsThis(s); });
    if (w->isWindow() || w->inherits("QDockWidget")) {
        redo(
            t, [w] { return w->windowTitle(); }, [w](const QString& s) { w->setWindowTitle(s); });
    }
    if (auto* label = qobject_cast<QLabel*>(w)) {
        redo(
            t, [label] { return label->text(); }, [label](const QString& s) { label->setText(s); });
    } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
        redo(
            t, [button] { return button->text(); },
            [button](const QString& s) { button->setText(s); });
    } else if (auto* group = qobject_cast<QGroupBox*>(w)) {
        redo(
            t, [group] { return group->title(); },
            [group](const QString& s) { group->setTitle(s); });
    } else if (auto* line = qobject_cast<QLineEdit*>(w)) {
        redo(
            t, [line] { return line->placeholderText(); },
            [line](const QString& s) { line->setPlaceholderText(s); });
    } else if (auto* plain = qobject_cast<QPlainTextEdit*>(w)) {
        redo(
            t, [plain] { return plain->placeholderText(); },
            [plain](const QString& s) { plain->setPlaceholderText(s); });
    } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
        const QSignalBlocker block(combo);
        for (int i = 0; i < combo->count(); ++i) {
            redo(
                t, [combo, i] { return combo->itemText(i); },
                [combo, i](const QString& s) { combo->setItemText(i, s); });
            redo(
                t, [combo, i] { return combo->itemData(i, Qt::ToolTipRole).toString(); },
                [combo, i](const QString& s) { combo->setItemData(i, s, Qt::ToolTipRole); });
        }
    } else if (auto* tabs = qobject_cast<QTabBar*>(w)) {
        for (int i = 0; i < tabs->count(); ++i) {
            redo(
                t, [tabs, i] { return tabs->tabText(i); },
                [tabs, i](const QString& s) { tabs->setTabText(i, s); });
            redo(
                t, [tabs, i] { return tabs->tabToolTip(i); },
                [tabs, i](const QString& s) { tabs->setTabToolTip(i, s); });
        }
    } else if (auto* list = qobject_cast<QListWidget*>(w)) {
        for (int i = 0; i < list->count(); ++i) {
            QListWidgetItem* item = list->item(i);
            redo(
                t, [item] { return item->text(); }, [item](const QString& s) { item->setText(s); });
            redo(
                t, [item] { return item->toolTip(); },
                [item](const QString& s) { item->setToolTip(s); });
        }
    } else if (auto* view = qobject_cast<QChartView*>(w)) {
        if (view->chart() != nullptr) {
            retranslateChart(t, view->chart());
        }
    }
    if (auto* items = qobject_cast<QAbstractItemView*>(w)) {
        // Table models ask tr() for their headers and cells at paint time: a repaint is enough.
        if (QAbstractItemModel* model = items->model()) {
            if (model->columnCount() > 0) {
                emit model->headerDataChanged(Qt::Horizontal, 0, model->columnCount() - 1);
            }
            if (model->rowCount() > 0) {
                emit model->headerDataChanged(Qt::Vertical, 0, model->rowCount() - 1);
            }
        }
        items->viewport()->update();
    }
}

}  // namespace

void retranslateWidgets(const Translations& translations) {
    QSet<QAction*> actions;
    const QWidgetList widgets = QApplication::allWidgets();
    QSet<QByteArray> widgetClasses;
    for (QWidget* w : widgets) {
        for (const QMetaObject* m = w->metaObject(); m != nullptr; m = m->superClass()) {
            widgetClasses.insert(QByteArray(m->className()));
        }
    }
    for (QWidget* w : widgets) {
        retranslateWidget(Scope{translations, classesAround(w), &widgetClasses}, w);
        for (QAction* a : w->actions()) {
            actions.insert(a);
        }
        for (QAction* a : w->findChildren<QAction*>(Qt::FindDirectChildrenOnly)) {
            actions.insert(a);
        }
    }
    for (QAction* a : std::as_const(actions)) {
        retranslateAction(Scope{translations, classesAround(a), &widgetClasses}, a);
    }
}

}  // namespace tally::ui
