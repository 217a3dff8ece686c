#pragma once

#include <QWidget>
#include <functional>

#include "planner/core/spec.h"
#include "ui/plan/spec_fields.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSlider;

namespace tally::ui {

class HardwareListModel;

// One field of the spec on screen. refresh() shows the spec's value without emitting anything;
// the subclasses emit what the user did. A field the planner rejects (or text that is not a
// number) gets a red frame and the message as its tooltip.
class FieldEditor : public QWidget {
    Q_OBJECT
public:
    QString path() const { return m_path; }
    virtual void refresh(const PlanSpec& spec) = 0;
    // The planner's complaint about this field; empty clears it.
    void setPlannerError(const QString& message);
    bool isMarked() const { return !m_plannerError.isEmpty() || !m_inputError.isEmpty(); }
    // What the mark says (the input problem first), empty when unmarked.
    QString markText() const;

signals:
    // Text typed into the field was refused before the planner saw it ("Not a number", out of
    // range); empty when the field takes its input again.
    void inputErrorChanged(const QString& message);

protected:
    // `help`: the field's help in the current language, asked again when the language changes.
    FieldEditor(QString path, std::function<QString()> help, QWidget* parent);
    void changeEvent(QEvent* event) override;
    void setInputError(const QString& message);
    bool hasInputError() const { return !m_inputError.isEmpty(); }
    // The widget that gets the red frame and the tooltip.
    void setFrameWidget(QWidget* widget);

private:
    void updateMark();

    QString m_path;
    std::function<QString()> m_help;
    QString m_plannerError;
    QString m_inputError;
    QWidget* m_frame = nullptr;
    bool m_marked = false;
};

// A number: a slider (linear, log or powers of two) and an exact entry box, kept in sync.
class NumberEditor : public FieldEditor {
    Q_OBJECT
public:
    NumberEditor(const NumberField& field, QWidget* parent = nullptr);
    void refresh(const PlanSpec& spec) override;

    QSlider* slider() const { return m_slider; }
    QLineEdit* lineEdit() const { return m_edit; }
    double value() const { return m_value; }

signals:
    // gesture: > 0 while a slider drag lasts (the edits merge into one undo step), else 0.
    void valueEdited(double value, int gesture);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void onSliderMoved(int position);
    void onTextEntered();
    QString textOf(double value) const;

    NumberField m_field;
    QSlider* m_slider;
    QLineEdit* m_edit;
    double m_value = 0.0;
    bool m_shown = false;
    int m_gesture = 0;
};

// One of a list (a combo box).
class ChoiceEditor : public FieldEditor {
    Q_OBJECT
public:
    ChoiceEditor(const ChoiceField& field, QWidget* parent = nullptr);
    void refresh(const PlanSpec& spec) override;
    QComboBox* comboBox() const { return m_combo; }

signals:
    void choiceEdited(int value);

private:
    ChoiceField m_field;
    QComboBox* m_combo;
};

// A switch (a check box).
class BoolEditor : public FieldEditor {
    Q_OBJECT
public:
    BoolEditor(const BoolField& field, QWidget* parent = nullptr);
    void refresh(const PlanSpec& spec) override;
    QCheckBox* checkBox() const { return m_check; }

signals:
    void toggled(bool on);

private:
    BoolField m_field;
    QCheckBox* m_check;
};

// The GPU: a profile of the hardware catalog (built-in now; custom and measured ones when the
// workspace adds them to the catalog).
class GpuEditor : public FieldEditor {
    Q_OBJECT
public:
    GpuEditor(HardwareListModel* model, QWidget* parent = nullptr);
    void refresh(const PlanSpec& spec) override;
    QComboBox* comboBox() const { return m_combo; }

signals:
    void gpuEdited(const QString& id);

private:
    HardwareListModel* m_model;
    QComboBox* m_combo;
};

}  // namespace tally::ui
