#pragma once

#include <QDialog>
#include <QString>
#include <functional>
#include <optional>

#include "planner/core/spec.h"
#include "planner/io/launch/launch_config.h"

class QMenu;
class QPlainTextEdit;
class QLabel;

namespace tally::ui {

// A target's title ("Megatron-LM arguments") in the window's language.
QString launchTargetTitle(LaunchTarget target);

// A launch configuration just copied to the clipboard (planner/io/launch): its text, and Save…
// to write it to a file (atomically).
class LaunchConfigDialog : public QDialog {
    Q_OBJECT
public:
    // `notes`: where the framework will run the plan other than it says (launch_export_notes()),
    // shown above the text; empty when it runs it as planned.
    LaunchConfigDialog(const QString& text, LaunchTarget target, const QString& suggestedName,
                       const QStringList& notes = {}, QWidget* parent = nullptr);
    QString text() const;
    // Writes the text to `path`; false and a message naming the file on failure.
    bool saveTo(const QString& path, QString* error) const;

private:
    QPlainTextEdit* m_text;
    LaunchTarget m_target;
    QString m_suggestedName;
};

// The spec to copy, or nullopt with a reason the user reads (the plan has an error, no layout is
// selected).
using LaunchSpecSource = std::function<std::optional<PlanSpec>(QString* reason)>;

// Fills `menu` with one action per framework: each exports the spec `source` gives, puts the text
// on the clipboard and opens a LaunchConfigDialog (object name "launchConfigDialog") with Save…;
// a setting the framework cannot express is reported naming the field, and nothing is copied.
void fillCopyAsMenu(QMenu* menu, QWidget* dialogParent, LaunchSpecSource source);

// Exports and copies to the clipboard; the text, or nullopt and the message (naming the field).
std::optional<QString> copyLaunchConfig(const PlanSpec& spec, LaunchTarget target, QString* error);

}  // namespace tally::ui
