#pragma once

#include <QDialog>
#include <QString>
#include <optional>

#include "planner/io/launch/launch_config.h"
#include "planner/io/launch/serving_launch.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace tally::ui {

class PlanDocument;

// File > Import run configuration…: a framework's launch configuration, or a serving engine's
// launch command (vllm serve, SGLang's launch_server, trtllm-serve), read into the plan
// (planner/io/launch). The preview lists, in this order, what Tally does not know, what it assumed,
// what was read (and into which field) and what was ignored, or the error naming the setting and
// its line; Apply puts the imported plan in as one undoable edit. The current plan is the base: its
// GPU, prices and whatever the file does not say stay, and a DeepSpeed or accelerate config keeps
// the current model unless a config.json is given.
class ImportLaunchDialog : public QDialog {
    Q_OBJECT
public:
    ImportLaunchDialog(PlanDocument* document, const QString& path, QWidget* parent = nullptr);

    // Reads the file again with the dialog's settings and refreshes the preview.
    void reload();
    // Puts the imported plan into the document (undoable); false when the import failed.
    bool applyImport();

    const std::optional<LaunchImport>& result() const { return m_result; }
    const std::optional<ServingImport>& servingResult() const { return m_serving; }
    QString errorText() const;
    QComboBox* formatBox() const { return m_format; }
    QLineEdit* modelConfig() const { return m_modelConfig; }
    QSpinBox* gpusBox() const { return m_gpus; }
    QTreeWidget* preview() const { return m_preview; }
    QPushButton* applyButton() const { return m_apply; }

private:
    PlanDocument* m_document;
    QString m_path;
    QByteArray m_text;
    QString m_readError;
    std::optional<LaunchImport> m_result;
    std::optional<ServingImport> m_serving;
    QComboBox* m_format;
    QLineEdit* m_modelConfig;
    QSpinBox* m_gpus;
    QTreeWidget* m_preview;
    QLabel* m_error;
    QPushButton* m_apply;
};

}  // namespace tally::ui
