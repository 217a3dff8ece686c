#pragma once

#include <QHash>
#include <QWidget>
#include <string>
#include <vector>

#include "planner/core/spec.h"

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace tally::ui {

class FieldEditor;
class HardwareCatalog;
class HardwareListModel;
class NumberEditor;
class PlanDocument;

// The plan's inputs: the model (preset picker, Hugging Face config.json import, dimensions,
// mixture of experts), the data, the cluster and the training recipe. Built from specFields();
// every edit goes to the document as an undoable edit, and the field the planner rejects is
// marked with the planner's message.
class SpecForm : public QWidget {
    Q_OBJECT
public:
    SpecForm(PlanDocument* document, HardwareCatalog* catalog, QWidget* parent = nullptr);

    // The editor of a field by the planner's name ("model.layers", "cluster.gpu"), or nullptr.
    FieldEditor* editor(const QString& path) const;
    NumberEditor* numberEditor(const QString& path) const;
    QList<FieldEditor*> editors() const;
    QComboBox* presetPicker() const { return m_presets; }
    // The line under the preset: the model's parameters.
    QLineEdit* modelSummary() const { return m_modelSummary; }
    // The plan's own name (spec.name: the window's title, the saved plan's name, the CSV's
    // plan,name) and its description (spec.description: what it is for, an example's
    // explanation), both edited here as undoable edits.
    QLineEdit* nameEdit() const { return m_name; }
    QPlainTextEdit* descriptionEdit() const { return m_description; }
    // Replaces the model with a config.json (what the Import button does after its dialog).
    bool importHfConfig(const QString& path);
    // The message under the model section (an import that failed), empty when none.
    QString modelMessage() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    // A field refused what was typed into it: "<field>: <why>"; empty when none is refused.
    void inputRejected(const QString& message);

private:
    void refresh();
    void showError();
    void showResults();
    void choosePreset(int index);
    void clearModelMessage();
    void nameEdited();
    void descriptionEdited();
    void addEditor(QFormLayout* form, FieldEditor* editor, const QString& label,
                   bool (*applies)(const PlanSpec&));
    int presetIndexOfCurrentModel() const;

    struct Row {
        QFormLayout* form;
        FieldEditor* editor;
        bool (*applies)(const PlanSpec&);
    };

    PlanDocument* m_document;
    HardwareListModel* m_gpuModel;
    QHash<QString, FieldEditor*> m_editors;
    std::vector<Row> m_rows;
    QLineEdit* m_name;
    QPlainTextEdit* m_description;
    QComboBox* m_presets;
    QPushButton* m_import;
    QLineEdit* m_modelSummary;
    QLineEdit* m_modelMessage;
    QLabel* m_mla;
    QGroupBox* m_moeBox;
    std::vector<ModelSpec> m_presetModels;  // each preset's architecture_only() model
};

}  // namespace tally::ui
