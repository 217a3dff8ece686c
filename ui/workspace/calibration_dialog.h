#pragma once

#include <QDialog>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <optional>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/performance/training_log.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace tally::ui {

class PlanDocument;
class TimePanel;
class WorkspaceSession;

// Calibrates the step-time model on a measured run (planner/training/calibration_fit.h): the
// plan's spec as it is, on the profile it names, with the step the run measured, typed in seconds
// or read from a Megatron-LM / NeMo / torchtitan log. Every edit re-fits the preview (predicted
// step, measured step, efficiency) or marks the field the planner refuses; OK hands the
// calibrated profile to `apply`, which stores it and returns an empty string, or the workspace's
// message, shown here while the dialog stays open.
class CalibrationDialog : public QDialog {
    Q_OBJECT
public:
    using Apply = std::function<QString(const HardwareProfile&)>;

    // `workspacePath`: the open workspace's file, which is never read as a log (reading it would
    // drop this process's SQLite locks: docs/DEVELOPING.md).
    CalibrationDialog(const PlanSpec& spec, const HardwareProfile& profile, Apply apply,
                      const QString& workspacePath = {}, QWidget* parent = nullptr);

    // The workspace's profiles: the preview says when OK would calibrate one of them again (its
    // id typed or the default), and whose calibration it replaces.
    void setExistingProfiles(std::vector<HardwareProfile> profiles);

    // The profile OK would store, when the inputs give a fit.
    const std::optional<HardwareProfile>& calibrated() const { return m_calibrated; }

    // For tests (and xdotool): the inputs, the preview and OK.
    QRadioButton* stepChoice() const { return m_stepChoice; }
    QRadioButton* logChoice() const { return m_logChoice; }
    QLineEdit* stepEdit() const { return m_step; }
    QLineEdit* logEdit() const { return m_log; }
    QSpinBox* skipBox() const { return m_skip; }
    QLineEdit* idEdit() const { return m_id; }
    QLineEdit* nameEdit() const { return m_name; }
    QLabel* preview() const { return m_preview; }
    QPushButton* okButton() const { return m_ok; }
    // Reads the log file named in the log field (Browse and leaving the field do it).
    void readLog();

protected:
    // Enter in the log field reads the log and shows its fit; it does not press OK.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refit();
    void growToFit();
    void markField(QWidget* field);
    void submit();

    PlanSpec m_spec;
    HardwareProfile m_profile;
    Apply m_apply;
    QString m_workspacePath;
    std::vector<HardwareProfile> m_existing;
    QRadioButton* m_stepChoice;
    QRadioButton* m_logChoice;
    QLineEdit* m_step;
    QLineEdit* m_log;
    QPushButton* m_browse;
    QSpinBox* m_skip;
    QLineEdit* m_id;
    QLineEdit* m_name;
    QLabel* m_preview;
    QPushButton* m_ok;
    // The log as read: its reader (the summary is taken again when the warm-up setting changes)
    // or why it could not be read.
    std::optional<TrainingLogReader> m_logReader;
    QString m_logError;
    QString m_logPath;
    std::optional<HardwareProfile> m_calibrated;
};

// Stores `profile` (calibrated) in the session's workspace and switches the plan to it, as one
// undoable edit of cluster.gpu (the profile stays stored when the edit is undone). Returns an
// empty string, or the workspace's message when nothing was stored.
QString storeCalibration(WorkspaceSession* session, PlanDocument* document,
                         const HardwareProfile& profile);

// Opens the dialog when the Time panel asks (TimePanel::calibrateRequested), for the plan as it
// is; one dialog at a time.
class TimeCalibration : public QObject {
    Q_OBJECT
public:
    TimeCalibration(TimePanel* panel, WorkspaceSession* session, PlanDocument* document);
    void openDialog();
    // The open dialog, or null.
    CalibrationDialog* dialog() const { return m_dialog; }

private:
    TimePanel* m_panel;
    WorkspaceSession* m_session;
    PlanDocument* m_document;
    QPointer<CalibrationDialog> m_dialog;
};

}  // namespace tally::ui
