#pragma once

#include <QDialog>
#include <QString>
#include <functional>
#include <optional>

#include "planner/core/spec.h"
#include "planner/io/launch/launch_config.h"
#include "planner/io/launch/serving_launch.h"

class QMenu;
class QPlainTextEdit;
class QLabel;

namespace tally::ui {

// A target's title ("Megatron-LM arguments", "vLLM serve command") in the window's language.
QString launchTargetTitle(LaunchTarget target);
QString servingTargetTitle(ServingTarget target);

// A launch configuration just copied to the clipboard (planner/io/launch): its text, and Save…
// to write it to a file (atomically).
class LaunchConfigDialog : public QDialog {
    Q_OBJECT
public:
    // `notes`: where the framework will run the plan other than it says (launch_export_notes()),
    // shown above the text; empty when it runs it as planned.
    LaunchConfigDialog(const QString& text, LaunchTarget target, const QString& suggestedName,
                       const QStringList& notes = {}, QWidget* parent = nullptr);
    // The same for a text of another kind (a serving engine's command): its title, and the
    // extension its files take.
    LaunchConfigDialog(const QString& text, const QString& title, const QString& extension,
                       const QString& suggestedName, QWidget* parent = nullptr);
    QString text() const;
    // Writes the text to `path`; false and a message naming the file on failure.
    bool saveTo(const QString& path, QString* error) const;
    // What Save… asks before it writes over `path`; empty when no file is there. A launch file
    // of this dialog's framework with settings Tally does not write (a learning rate, data
    // paths) is named with them: writing the plan over it would lose them.
    QString replaceQuestion(const QString& path) const;

private:
    void build(const QString& text, const QString& title, const QStringList& notes);

    QPlainTextEdit* m_text;
    std::optional<LaunchTarget> m_target;  // none for a serving engine's command
    QString m_filter;                      // the Save… dialog's file filter
    QString m_suggestedName;
};

// The spec to copy, or nullopt with a reason the user reads (the plan has an error, no layout is
// selected).
using LaunchSpecSource = std::function<std::optional<PlanSpec>(QString* reason)>;

// Fills `menu` with one action per framework: each exports the spec `source` gives, puts the text
// on the clipboard and opens a LaunchConfigDialog (object name "launchConfigDialog") with Save…;
// a setting the framework cannot express is reported naming the field, and nothing is copied.
void fillCopyAsMenu(QMenu* menu, QWidget* dialogParent, LaunchSpecSource source);

// The same for a serving plan: one action per serving engine (vllm serve, SGLang), each the
// command that starts the engine as the plan counts it (planner/io/launch/serving_launch.h).
void fillServingCopyAsMenu(QMenu* menu, QWidget* dialogParent, LaunchSpecSource source);

// Exports and copies to the clipboard; the text, or nullopt and the message (naming the field).
std::optional<QString> copyLaunchConfig(const PlanSpec& spec, LaunchTarget target, QString* error);

}  // namespace tally::ui
