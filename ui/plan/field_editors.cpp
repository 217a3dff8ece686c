#include "ui/plan/field_editors.h"

#include <QKeyEvent>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <algorithm>
#include <cmath>

#include "planner/core/limits.h"
#include "ui/common/hardware_list_model.h"
#include "ui/common/number_text.h"
#include "ui/common/shrinkable_combo_box.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

namespace {

QString formTr(const char* text) {
    return translatedFormText(text);
}

const QString kMarkStyle = QStringLiteral("border: 2px solid #c62828; border-radius: 3px;");

}  // namespace

// ---- FieldEditor ---------------------------------------------------------------------------

FieldEditor::FieldEditor(QString path, std::function<QString()> help, QWidget* parent)
    : QWidget(parent), m_path(std::move(path)), m_help(std::move(help)) {
    setObjectName(m_path);
    setToolTip(m_help());
}

void FieldEditor::setFrameWidget(QWidget* widget) {
    m_frame = widget;
    m_frame->setToolTip(m_help());
}

void FieldEditor::changeEvent(QEvent* event) {
    // The tooltip is the help (and the mark) in the language just chosen.
    if (event->type() == QEvent::LanguageChange) {
        updateMark();
    }
    QWidget::changeEvent(event);
}

void FieldEditor::setPlannerError(const QString& message) {
    if (message == m_plannerError) {
        return;
    }
    m_plannerError = message;
    updateMark();
}

void FieldEditor::setInputError(const QString& message) {
    if (message == m_inputError) {
        return;
    }
    m_inputError = message;
    updateMark();
    emit inputErrorChanged(message);
}

QString FieldEditor::markText() const {
    return m_inputError.isEmpty() ? m_plannerError : m_inputError;
}

void FieldEditor::updateMark() {
    const bool marked = isMarked();
    const QString tip = marked ? markText() + u"\n\n" + m_help() : m_help();
    setToolTip(tip);
    if (m_frame) {
        m_frame->setToolTip(tip);
        if (marked != m_marked) {
            m_frame->setStyleSheet(marked ? kMarkStyle : QString());
        }
    }
    m_marked = marked;
}

// ---- NumberEditor --------------------------------------------------------------------------

NumberEditor::NumberEditor(const NumberField& field, QWidget* parent)
    : FieldEditor(
          QString::fromLatin1(field.path), [help = field.help] { return formTr(help); }, parent),
      m_field(field),
      m_slider(new QSlider(Qt::Horizontal, this)),
      m_edit(new QLineEdit(this)) {
    m_slider->setRange(0, m_field.range.positions());
    m_slider->setPageStep(std::max(1, m_field.range.positions() / 10));
    m_slider->setMinimumWidth(90);
    m_slider->setAccessibleName(formTr(field.label));
    m_edit->setAlignment(Qt::AlignRight);
    m_edit->setFixedWidth(m_edit->fontMetrics().horizontalAdvance(QStringLiteral("0000000000.00")));
    m_edit->setAccessibleName(formTr(field.label));
    setFrameWidget(m_edit);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_edit);

    connect(m_slider, &QSlider::sliderPressed, this,
            [this] { m_gesture = PlanDocument::newGesture(); });
    connect(m_slider, &QSlider::sliderReleased, this, [this] { m_gesture = 0; });
    connect(m_slider, &QSlider::valueChanged, this, &NumberEditor::onSliderMoved);
    connect(m_edit, &QLineEdit::editingFinished, this, &NumberEditor::onTextEntered);
    m_edit->installEventFilter(this);
}

bool NumberEditor::eventFilter(QObject* watched, QEvent* event) {
    // A line edit claims Undo and Redo for its own text, so the window's Edit > Undo never fires
    // while the cursor is in the box. Once what was typed has been entered (nothing is pending in
    // the box), the keys belong to the plan: leave the shortcut to the window.
    if (watched == m_edit && event->type() == QEvent::ShortcutOverride && !m_edit->isModified()) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) {
            event->ignore();
            return true;
        }
    }
    return FieldEditor::eventFilter(watched, event);
}

void NumberEditor::changeEvent(QEvent* event) {
    // The words a value of 0 shows ("auto", "dense", "engine's") are in the language they were
    // written in: written again in the new one, unless the box holds what the user is typing.
    if (event->type() == QEvent::LanguageChange && m_shown && !m_edit->isModified() &&
        !hasInputError()) {
        m_edit->setText(textOf(m_value));
    }
    FieldEditor::changeEvent(event);
}

QString NumberEditor::textOf(double value) const {
    if (m_field.zeroText && value == 0.0) {
        return formTr(m_field.zeroText);
    }
    return formatExact(value);
}

void NumberEditor::refresh(const PlanSpec& spec) {
    const double v = m_field.get(spec);
    if (m_shown && v == m_value && !hasInputError()) {
        return;
    }
    m_shown = true;
    m_value = v;
    setInputError({});
    const QSignalBlocker blockSlider(m_slider);
    m_slider->setValue(m_field.range.positionOf(v));
    m_edit->setText(textOf(v));
}

void NumberEditor::onSliderMoved(int position) {
    const double v = m_field.range.valueAt(position);
    if (v == m_value) {
        return;
    }
    m_value = v;
    m_edit->setText(textOf(v));
    setInputError({});
    emit valueEdited(v, m_slider->isSliderDown() ? m_gesture : 0);
}

void NumberEditor::onTextEntered() {
    const QString text = m_edit->text().trimmed();
    std::optional<double> v;
    bool outOfRange = false;
    if (m_field.zeroText && text.compare(formTr(m_field.zeroText), Qt::CaseInsensitive) == 0) {
        v = 0.0;
    } else {
        v = parseNumber(text, &outOfRange);
    }
    if (!v) {
        // What the box takes: a number in any of the forms the reader knows, or the field's word
        // for zero ("predicted" for the MFU, "auto" for the head dimension).
        // A field of whole things shows whole examples.
        const QString takes =
            m_field.integer
                ? (m_field.zeroText ? tr("a whole number (such as 2, 4096 or 15T) or %1")
                                          .arg(formTr(m_field.zeroText))
                                    : tr("a whole number (such as 2, 4096 or 15T)"))
            : m_field.zeroText ? tr("a number (such as 4096, 0.5, 1e12 or 15T) or %1")
                                     .arg(formTr(m_field.zeroText))
                               : tr("a number (such as 4096, 0.5, 1e12 or 15T)");
        setInputError(outOfRange ? tr("%1 is out of range: larger than any number Tally can "
                                      "hold (about 1.8e308)")
                                       .arg(text)
                      : text.isEmpty() ? tr("Empty: %1").arg(takes)
                                       : tr("Not a number: %1; %2").arg(text, takes));
        return;
    }
    if (m_field.integer && *v != std::floor(*v)) {
        setInputError(
            std::isnan(m_field.least) || std::isnan(m_field.most)
                ? tr("%1 is not a whole number: this field counts whole things (such as 2 or "
                     "4096)")
                      .arg(text)
                : tr("%1 is not a whole number: this field takes whole numbers from %2 to %3")
                      .arg(text, formatExact(m_field.least), formatExact(m_field.most)));
        return;
    }
    if (!(*v >= m_field.least) && !std::isnan(m_field.least)) {
        setInputError(tr("%1 is below %2, the least this field takes (up to %3)")
                          .arg(text, formatExact(m_field.least), formatExact(m_field.most)));
        return;
    }
    if (!(*v <= m_field.most) && !std::isnan(m_field.most)) {
        setInputError(tr("%1 is above %2, the most this field takes (from %3)")
                          .arg(text, formatExact(m_field.most), formatExact(m_field.least)));
        return;
    }
    // Integers are held exactly up to 2^53 (planner/core/limits.h); above it 1e30 silently
    // became 9007199254740992 while the undo entry said 1e+30.
    if (m_field.integer && std::abs(*v) > static_cast<double>(kMaxJsonInteger)) {
        setInputError(tr("%1 is too large: a whole number here is at most 2^53 = %2")
                          .arg(text)
                          .arg(kMaxJsonInteger));
        return;
    }
    setInputError({});
    if (*v == m_value) {
        m_edit->setText(textOf(*v));
        return;
    }
    m_value = *v;
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(m_field.range.positionOf(*v));
    }
    m_edit->setText(textOf(*v));
    emit valueEdited(*v, 0);
}

// ---- ChoiceEditor --------------------------------------------------------------------------

ChoiceEditor::ChoiceEditor(const ChoiceField& field, QWidget* parent)
    : FieldEditor(
          QString::fromLatin1(field.path), [help = field.help] { return formTr(help); }, parent),
      m_field(field),
      m_combo(new ShrinkableComboBox(this)) {
    for (const Choice& c : m_field.choices) {
        m_combo->addItem(formTr(c.label), c.value);
    }
    m_combo->setAccessibleName(formTr(field.label));
    setFrameWidget(m_combo);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_combo, 1);
    connect(m_combo, &QComboBox::activated, this,
            [this](int index) { emit choiceEdited(m_combo->itemData(index).toInt()); });
}

void ChoiceEditor::refresh(const PlanSpec& spec) {
    const int index = m_combo->findData(m_field.get(spec));
    if (index != m_combo->currentIndex()) {
        const QSignalBlocker block(m_combo);
        m_combo->setCurrentIndex(index);
    }
}

// ---- BoolEditor ----------------------------------------------------------------------------

BoolEditor::BoolEditor(const BoolField& field, QWidget* parent)
    : FieldEditor(
          QString::fromLatin1(field.path), [help = field.help] { return formTr(help); }, parent),
      m_field(field),
      m_check(new QCheckBox(this)) {
    m_check->setAccessibleName(formTr(field.label));
    setFrameWidget(m_check);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_check);
    layout->addStretch(1);
    connect(m_check, &QCheckBox::clicked, this, [this](bool on) { emit toggled(on); });
}

void BoolEditor::refresh(const PlanSpec& spec) {
    const bool on = m_field.get(spec);
    if (on != m_check->isChecked()) {
        const QSignalBlocker block(m_check);
        m_check->setChecked(on);
    }
}

// ---- GpuEditor -----------------------------------------------------------------------------

GpuEditor::GpuEditor(HardwareListModel* model, QWidget* parent)
    : FieldEditor(
          QStringLiteral("cluster.gpu"),
          [] { return tr("The accelerator: its memory, bandwidth and dense peaks per dtype."); },
          parent),
      m_model(model),
      m_combo(new ShrinkableComboBox(this)) {
    m_combo->setModel(model);
    m_combo->setAccessibleName(tr("GPU"));
    // Thirty-odd GPUs and the user's profiles: a scrolling list of a screen-friendly height, not
    // a menu that runs off the screen (styles like Fusion otherwise show every entry at once).
    m_combo->setMaxVisibleItems(16);
    m_combo->setStyleSheet(QStringLiteral("QComboBox { combobox-popup: 0; }"));
    setFrameWidget(m_combo);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_combo, 1);
    connect(m_combo, &QComboBox::activated, this, [this](int row) {
        emit gpuEdited(m_model->data(m_model->index(row), HardwareListModel::IdRole).toString());
    });
}

void GpuEditor::refresh(const PlanSpec& spec) {
    const int row = m_model->rowOf(qs(spec.cluster.gpu));
    if (row != m_combo->currentIndex()) {
        const QSignalBlocker block(m_combo);
        m_combo->setCurrentIndex(row);
    }
}

}  // namespace tally::ui
