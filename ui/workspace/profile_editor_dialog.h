#pragma once

#include <QDialog>
#include <QHash>
#include <QString>
#include <optional>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"

class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace tally::ui {

class WorkspaceSession;

// Edits a hardware profile of the workspace: its id and name, memory (GB), bandwidth (GB/s), the
// dense peak of each dtype (TFLOP/s), board power (W) and notes. In `add` mode it stores a new
// profile (a duplicate of another, or an imported one) under the id typed; in `edit` mode it
// replaces the stored profile of that id (the id is fixed).
//
// Fields carry the planner's names ("profile.memory_bytes", "profile.peak_flops_per_s.bf16"). A
// value the planner rejects, or text that is not a number, is framed in red with the message
// as its tooltip and above the buttons, as the plan form does; Save stays off until every field
// is accepted. What only the workspace can tell (an id or a name another profile has) is marked
// the same way when Save is pressed, and the dialog stays open.
class ProfileEditorDialog : public QDialog {
    Q_OBJECT
public:
    enum class Mode { add, edit };

    ProfileEditorDialog(WorkspaceSession* session, const HardwareProfile& start, Mode mode,
                        QWidget* parent = nullptr);

    Mode mode() const { return m_mode; }
    // The entry box of a field by the planner's name; the notes have their own editor.
    QLineEdit* field(const QString& path) const;
    QPlainTextEdit* notesEdit() const { return m_notes; }
    QPushButton* saveButton() const { return m_save; }
    // What the red mark on a field says, empty when it is not marked.
    QString markText(const QString& path) const;
    // The message above the buttons (the first problem), empty when there is none.
    QString message() const;
    // The profile the fields describe when every field is accepted.
    std::optional<HardwareProfile> profile() const { return m_profile; }
    // The id stored by the last successful save().
    QString savedId() const { return m_savedId; }

    // Checks the fields and stores the profile through the workspace; on success announces the
    // change, accepts the dialog and returns true. What the Save button does.
    bool save();

private:
    void addNumber(QFormLayout* form, const QString& path, const QString& label,
                   const QString& unit, double value, double scale, const QString& help);
    void validate();
    void mark(const QString& path, const QString& message);
    void markError(const FieldError& error);
    void clearMarks();

    struct NumberField {
        QLineEdit* edit = nullptr;
        double scale = 1.0;  // the typed value times scale is the stored one
        bool optional = false;
        QString unit;  // the box's unit ("GB")
    };

    WorkspaceSession* m_session;
    HardwareProfile m_start;
    Mode m_mode;
    QLineEdit* m_id;
    QLineEdit* m_name;
    QPlainTextEdit* m_notes;
    QLabel* m_message;
    QPushButton* m_save;
    QHash<QString, NumberField> m_numbers;
    QHash<QString, QString> m_marks;
    std::optional<HardwareProfile> m_profile;
    QString m_savedId;
};

}  // namespace tally::ui
