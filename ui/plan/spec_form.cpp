#include "ui/plan/spec_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <algorithm>

#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/model/params.h"
#include "ui/common/chart_support.h"
#include "ui/common/file_dialogs.h"
#include "ui/common/hardware_list_model.h"
#include "ui/common/number_text.h"
#include "ui/common/shrinkable_combo_box.h"
#include "ui/common/wheel_guard.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

namespace {

QString formTr(const char* text) {
    return translatedFormText(text);
}

// The model's message line: an error in red; an import's notes in the text colour.
const QString kModelErrorStyle =
    QStringLiteral("QLineEdit { color: #c62828; background: transparent; }");

}  // namespace

SpecForm::SpecForm(PlanDocument* document, HardwareCatalog* catalog, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_gpuModel(new HardwareListModel(catalog, this)),
      m_name(new QLineEdit(this)),
      m_description(new QPlainTextEdit(this)),
      m_presets(new ShrinkableComboBox(this)),
      m_import(new QPushButton(tr("Import config.json…"), this)),
      m_modelSummary(makeTextLine(this)),
      m_modelMessage(makeTextLine(this)),
      m_mla(new QLabel(this)),
      m_moeBox(nullptr) {
    auto* outer = new QVBoxLayout(this);

    m_presets->addItem(tr("Custom"), -1);
    const auto& presets = model_presets();
    for (std::size_t i = 0; i < presets.size(); ++i) {
        m_presets->addItem(qs(presets[i].name), static_cast<int>(i));
        m_presets->setItemData(m_presets->count() - 1,
                               tr("%1\nSource: %2").arg(qs(presets[i].name), qs(presets[i].source)),
                               Qt::ToolTipRole);
        m_presetModels.push_back(architecture_only(presets[i].model));
    }
    m_presets->setToolTip(
        tr("Load a model's published dimensions (the source is in each "
           "entry's tooltip)."));
    m_presets->setAccessibleName(tr("Model preset"));
    connect(m_presets, &QComboBox::activated, this, &SpecForm::choosePreset);
    m_import->setToolTip(
        tr("Read a Hugging Face config.json (Llama, Mistral, Mixtral, Qwen, GPT-OSS, Gemma 2 "
           "and 3, DeepSeek-V3)."));
    connect(m_import, &QPushButton::clicked, this, [this] {
        const QString path = chooseOpenPath(this, tr("Import a Hugging Face config.json"), {},
                                            tr("JSON files (*.json)"));
        if (!path.isEmpty()) {
            importHfConfig(path);
        }
    });
    // One line (the whole message in its tooltip and the status bar): a wrapped label in the
    // scroll area, which ignores height-for-width, got its lines by squeezing the rows below it
    // to nothing (Architecture and Biases vanished).
    m_modelMessage->setObjectName(QStringLiteral("modelMessage"));
    m_modelMessage->setStyleSheet(kModelErrorStyle);
    m_modelMessage->hide();
    m_modelSummary->setObjectName(QStringLiteral("modelSummary"));

    m_mla->setWordWrap(true);
    m_mla->setText(tr("Multi-head latent attention (from the preset or config): kept as loaded."));

    // The plan itself: its name and what it is for.
    {
        auto* box = new QGroupBox(tr("Plan"), this);
        auto* form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        m_name->setObjectName(QStringLiteral("plan.name"));
        m_name->setAccessibleName(tr("Plan name"));
        m_name->setPlaceholderText(tr("Untitled: the title says what the plan is"));
        m_name->setToolTip(
            tr("The plan's name: the window's title, the name it is saved under "
               "in the workspace, and the CSV's and the report's plan name."));
        m_description->setObjectName(QStringLiteral("plan.description"));
        m_description->setAccessibleName(tr("Plan description"));
        m_description->setPlaceholderText(
            tr("What the plan is for, its sources, its "
               "assumptions"));
        m_description->setToolTip(tr("Free text kept with the plan in every save and export."));
        m_description->setTabChangesFocus(true);
        // Four lines; longer text scrolls. A fixed height: typing never moves the form below.
        m_description->setFixedHeight(m_description->fontMetrics().lineSpacing() * 4 + 12);
        form->addRow(tr("Name"), m_name);
        form->addRow(tr("Description"), m_description);
        connect(m_name, &QLineEdit::editingFinished, this, &SpecForm::nameEdited);
        m_description->installEventFilter(this);
        outer->addWidget(box);
    }

    for (const SectionFields& section : specFields()) {
        QString title;
        switch (section.section) {
            case Section::model:
                title = tr("Model");
                break;
            case Section::moe:
                title = tr("Mixture of experts");
                break;
            case Section::data:
                title = tr("Data");
                break;
            case Section::cluster:
                title = tr("Cluster");
                break;
            case Section::recipe:
                title = tr("Training recipe");
                break;
        }
        auto* box = new QGroupBox(title, this);
        auto* form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setRowWrapPolicy(QFormLayout::DontWrapRows);
        if (section.section == Section::model) {
            auto* row = new QWidget(box);
            auto* h = new QHBoxLayout(row);
            h->setContentsMargins(0, 0, 0, 0);
            h->addWidget(m_presets, 1);
            h->addWidget(m_import);
            form->addRow(tr("Preset"), row);
            form->addRow(m_modelSummary);
            form->addRow(m_modelMessage);
        }
        if (section.section == Section::moe) {
            m_moeBox = box;
        }
        if (section.section == Section::cluster) {
            auto* gpu = new GpuEditor(m_gpuModel, box);
            connect(gpu, &GpuEditor::gpuEdited, this, [this](const QString& id) {
                PlanSpec next = m_document->spec();
                next.cluster.gpu = id.toStdString();
                m_document->edit(next, tr("Set GPU to %1").arg(id));
            });
            addEditor(form, gpu, tr("GPU"), nullptr);
        }
        for (const FieldDescriptor& descriptor : section.fields) {
            if (const auto* f = std::get_if<NumberField>(&descriptor)) {
                auto* e = new NumberEditor(*f, box);
                const NumberField field = *f;
                connect(
                    e, &NumberEditor::valueEdited, this, [this, field](double value, int gesture) {
                        PlanSpec next = m_document->spec();
                        field.set(next, value);
                        m_document->edit(
                            next, tr("Set %1 to %2").arg(formTr(field.label), formatExact(value)),
                            gesture);
                    });
                addEditor(form, e, formTr(f->label), f->applies);
            } else if (const auto* c = std::get_if<ChoiceField>(&descriptor)) {
                auto* e = new ChoiceEditor(*c, box);
                const ChoiceField field = *c;
                connect(e, &ChoiceEditor::choiceEdited, this, [this, field, e](int value) {
                    PlanSpec next = m_document->spec();
                    field.set(next, value);
                    m_document->edit(
                        next,
                        tr("Set %1 to %2").arg(formTr(field.label), e->comboBox()->currentText()));
                });
                addEditor(form, e, formTr(c->label), c->applies);
            } else if (const auto* b = std::get_if<BoolField>(&descriptor)) {
                auto* e = new BoolEditor(*b, box);
                const BoolField field = *b;
                connect(e, &BoolEditor::toggled, this, [this, field](bool on) {
                    PlanSpec next = m_document->spec();
                    field.set(next, on);
                    m_document->edit(
                        next, (on ? tr("Turn on %1") : tr("Turn off %1")).arg(formTr(field.label)));
                });
                addEditor(form, e, formTr(b->label), b->applies);
            }
        }
        if (section.section == Section::model) {
            form->addRow(m_mla);
        }
        outer->addWidget(box);
    }
    outer->addStretch(1);
    // Scrolling the form must not edit it: a wheel over an input the user has not clicked
    // scrolls the form.
    WheelGuard::install(this);

    connect(document, &PlanDocument::specChanged, this, &SpecForm::refresh);
    // An import's complaint is about that attempt: any later change of the plan (an edit, File >
    // New, an example, undo) takes it away.
    connect(document, &PlanDocument::specChanged, this, &SpecForm::clearModelMessage);
    connect(document, &PlanDocument::errorChanged, this, &SpecForm::showError);
    connect(document, &PlanDocument::resultsChanged, this, &SpecForm::showResults);
    // A refused layout leaves the last plan's results up: the model line follows the model.
    connect(document, &PlanDocument::errorChanged, this, &SpecForm::showResults);
    refresh();
    showError();
    showResults();
}

void SpecForm::addEditor(QFormLayout* form, FieldEditor* editor, const QString& label,
                         bool (*applies)(const PlanSpec&)) {
    form->addRow(label, editor);
    m_editors.insert(editor->path(), editor);
    // The row's label as it reads now (the language may have changed since the row was made).
    connect(editor, &FieldEditor::inputErrorChanged, this,
            [this, form, editor, label](const QString& message) {
                const auto* shown = qobject_cast<QLabel*>(form->labelForField(editor));
                emit inputRejected(message.isEmpty()
                                       ? QString()
                                       : tr("%1: %2").arg(shown ? shown->text() : label, message));
            });
    m_rows.push_back({form, editor, applies});
}

FieldEditor* SpecForm::editor(const QString& path) const {
    return m_editors.value(path, nullptr);
}

NumberEditor* SpecForm::numberEditor(const QString& path) const {
    return qobject_cast<NumberEditor*>(editor(path));
}

QList<FieldEditor*> SpecForm::editors() const {
    return m_editors.values();
}

QString SpecForm::modelMessage() const {
    return m_modelMessage->isHidden() ? QString() : m_modelMessage->text();
}

bool SpecForm::importHfConfig(const QString& path) {
    QString error;
    QStringList notes;
    if (!m_document->importHfConfig(path, &error, &notes)) {
        m_modelMessage->setStyleSheet(kModelErrorStyle);
        m_modelMessage->setText(error);
        m_modelMessage->setCursorPosition(0);
        m_modelMessage->setToolTip(error);
        m_modelMessage->show();
        emit inputRejected(tr("Import config.json: %1").arg(error));
        return false;
    }
    clearModelMessage();
    if (!notes.isEmpty()) {
        // What the import chose, in the model's message line without the error colour.
        const QString text = notes.join(QStringLiteral("; "));
        m_modelMessage->setStyleSheet(
            QStringLiteral("QLineEdit { color: palette(text); background: transparent; }"));
        m_modelMessage->setText(text);
        m_modelMessage->setCursorPosition(0);
        m_modelMessage->setToolTip(text);
        m_modelMessage->show();
    }
    return true;
}

void SpecForm::clearModelMessage() {
    if (m_modelMessage->isHidden()) {
        return;
    }
    m_modelMessage->clear();
    m_modelMessage->setToolTip({});
    m_modelMessage->hide();
    emit inputRejected(QString());
}

void SpecForm::choosePreset(int index) {
    const int preset = m_presets->itemData(index).toInt();
    if (preset < 0) {
        return;
    }
    const ModelPreset& p = model_presets()[static_cast<std::size_t>(preset)];
    PlanSpec next = m_document->spec();
    next.model = p.model;
    if (next.model.name.empty()) {
        next.model.name = p.name;
    }
    m_document->edit(next, tr("Load preset %1").arg(qs(p.name)));
}

int SpecForm::presetIndexOfCurrentModel() const {
    const ModelSpec key = architecture_only(m_document->spec().model);
    for (std::size_t i = 0; i < m_presetModels.size(); ++i) {
        if (m_presetModels[i] == key) {
            return static_cast<int>(i) + 1;
        }
    }
    return 0;
}

void SpecForm::nameEdited() {
    const std::string name = m_name->text().trimmed().toStdString();
    if (name == m_document->spec().name) {
        return;
    }
    PlanSpec next = m_document->spec();
    next.name = name;
    m_document->edit(next, name.empty() ? tr("Clear the plan's name")
                                        : tr("Name the plan \"%1\"").arg(qs(name)));
}

void SpecForm::descriptionEdited() {
    const std::string text = m_description->toPlainText().toStdString();
    if (text == m_document->spec().description) {
        return;
    }
    PlanSpec next = m_document->spec();
    next.description = text;
    m_document->edit(next, tr("Edit the plan's description"));
}

bool SpecForm::eventFilter(QObject* watched, QEvent* event) {
    // The description is taken when the box loses the focus (one undo step per visit, not one
    // per keystroke).
    if (watched == m_description && event->type() == QEvent::FocusOut) {
        descriptionEdited();
    }
    return QWidget::eventFilter(watched, event);
}

void SpecForm::refresh() {
    const PlanSpec& spec = m_document->spec();
    if (!m_name->hasFocus() && m_name->text() != qs(spec.name)) {
        m_name->setText(qs(spec.name));
        m_name->setCursorPosition(0);
    }
    if (!m_description->hasFocus() && m_description->toPlainText() != qs(spec.description)) {
        const QSignalBlocker block(m_description);
        m_description->setPlainText(qs(spec.description));
    }
    for (const Row& row : m_rows) {
        const bool shown = !row.applies || row.applies(spec);
        if (row.form->isRowVisible(row.editor) != shown) {
            row.form->setRowVisible(row.editor, shown);
        }
        if (shown) {
            row.editor->refresh(spec);
        }
    }
    const bool transformer = spec.model.kind == ModelKind::transformer;
    if (m_moeBox->isHidden() == transformer) {
        m_moeBox->setVisible(transformer);
    }
    const bool mla = transformer && spec.model.mla.enabled();
    if (m_mla->isHidden() == mla) {
        m_mla->setVisible(mla);
    }
    const int preset = presetIndexOfCurrentModel();
    if (preset != m_presets->currentIndex()) {
        const QSignalBlocker block(m_presets);
        m_presets->setCurrentIndex(preset);
    }
}

void SpecForm::showError() {
    const auto& error = m_document->error();
    for (FieldEditor* e : std::as_const(m_editors)) {
        QString mark;
        if (error && qs(error->field) == e->path()) {
            mark = errorText(*error);
        }
        for (const FieldError& other : m_document->otherErrors()) {
            if (mark.isEmpty() && qs(other.field) == e->path()) {
                mark = errorText(other);
            }
        }
        e->setPlannerError(mark);
    }
    // The whole message, for fields without an editor of their own (model.mla, ops[i]) too, is
    // in the window's status bar: a banner above the form pushed every field down while typing.
}

void SpecForm::showResults() {
    if (!m_document->views()) {
        return;  // nothing drawn yet: the form shows no count
    }
    const auto& views = *m_document->views();
    // A serving spec without a training part has no training plan: its model is counted here.
    // So is a model the planner takes but whose layout it refuses (a config.json imported into a
    // plan whose tp does not divide its KV heads): the drawn plan is the last accepted one, and
    // its parameters would be another model's.
    const bool servingOnly = m_document->servingViews() != nullptr;
    const auto& error = m_document->error();
    const bool layoutRefused = error && !qs(error->field).startsWith(QStringLiteral("model"));
    const bool ownCount = servingOnly || layoutRefused;
    const ParamCounts p = ownCount ? count_params(m_document->spec().model) : views.plan.params;
    QString text = tr("%1 parameters").arg(formatShort(p.total));
    if (p.active != p.total) {
        text += tr(", %1 active per token").arg(formatShort(p.active));
    }
    if (p.embedding > 0) {
        text += tr(" (%1 in embeddings)").arg(formatShort(p.embedding));
    }
    if (m_modelSummary->text() != text) {
        m_modelSummary->setText(text);
        m_modelSummary->setCursorPosition(0);
    }
    if (ownCount) {
        m_modelSummary->setToolTip(QString());
    } else if (const Explanation* e = views.explanation("params")) {
        m_modelSummary->setToolTip(translatedFormula(*e) + u"\n= " + translatedSubstitution(*e) +
                                   u"\n" + tr("Source: %1").arg(translatedSource(*e)));
    }
}

}  // namespace tally::ui
