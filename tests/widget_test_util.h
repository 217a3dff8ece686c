#pragma once

// Helpers for the widget tests: they reach a panel's widgets by object name, as a user reaches them
// by what they show, so the widgets need no accessors for tests.

#include <QObject>
#include <QString>
#include <QtGlobal>

namespace tally::test {

// The child of `parent` (at any depth) of type T named `name`; stops the test, naming what is
// missing, when there is none (a renamed widget must not turn into a null dereference).
template <class T>
T* child(const QObject* parent, const char* name) {
    T* found = parent->findChild<T*>(QString::fromLatin1(name));
    if (found == nullptr) {
        qFatal("no %s named \"%s\" under %s", T::staticMetaObject.className(), name,
               parent->metaObject()->className());
    }
    return found;
}

}  // namespace tally::test
