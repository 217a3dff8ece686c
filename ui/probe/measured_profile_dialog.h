#pragma once

#include <QDialog>
#include <QString>
#include <functional>
#include <vector>

#include "planner/hardware/hardware.h"
#include "planner/store/workspace.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace tally::ui {

// What a measured profile is made of: the profile it starts from (empty: none), its id and name.
struct MeasuredProfileChoice {
    QString baseId;
    QString id;
    QString name;
};

// The dialog's first offer for `run`: the catalog entry matching the measured device
// (catalog_profile_for_device()) as the base, an id from the device's name ("nvidia-h100-80gb-
// hbm3-measured", "-2", ... until no profile in `existing` has it) and a name that says which run
// it came from. A run that measured no peak or no bandwidth (one that timed only a plan's GEMMs)
// cannot stand alone: when no catalog entry matches, `planGpuId` (the plan's GPU) is its base.
MeasuredProfileChoice suggestMeasuredProfile(const ProbeRunRecord& run,
                                             const std::vector<HardwareProfile>& existing,
                                             const QString& planGpuId = {});

// Makes a measured hardware profile from a stored probe run: a base profile (default: the catalog
// entry of the device), an id and a name. OK hands the choice to `apply`, which returns an
// empty string when the profile was made or the workspace's message, shown here while the dialog
// stays open.
class MeasuredProfileDialog : public QDialog {
    Q_OBJECT
public:
    using Apply = std::function<QString(const MeasuredProfileChoice&)>;

    // `planGpuId`: the current plan's GPU, the base offered for a run that cannot stand alone.
    MeasuredProfileDialog(const ProbeRunRecord& run, const std::vector<HardwareProfile>& profiles,
                          Apply apply, const QString& planGpuId = {}, QWidget* parent = nullptr);

    MeasuredProfileChoice choice() const;

    // For tests.
    QComboBox* baseBox() const { return m_base; }
    QLineEdit* idEdit() const { return m_id; }
    QLineEdit* nameEdit() const { return m_name; }
    QLabel* errorLabel() const { return m_error; }
    QPushButton* okButton() const { return m_ok; }

private:
    void submit();

    Apply m_apply;
    QComboBox* m_base;
    QLineEdit* m_id;
    QLineEdit* m_name;
    QLabel* m_error;
    QPushButton* m_ok;
};

}  // namespace tally::ui
