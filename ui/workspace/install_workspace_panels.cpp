#include "ui/workspace/install_workspace_panels.h"
#include "ui/window/app_settings.h"
#include "ui/workspace/compare_models.h"

#include "ui/window/main_window.h"
#include "ui/workspace/calibration_dialog.h"
#include "ui/workspace/compare_panel.h"
#include "ui/workspace/profile_files.h"
#include "ui/workspace/profile_manager_panel.h"
#include "ui/workspace/saved_plans_panel.h"

namespace tally::ui {

void WorkspacePanels::setPrompts(const UserPrompts& prompts) const {
    profiles->setPrompts(prompts);
    plans->setPrompts(prompts);
}

void WorkspacePanels::setChooser(const WorkspaceChooser& chooser) const {
    profiles->setChooser(chooser);
    plans->setChooser(chooser);
}

WorkspacePanels installWorkspacePanels(MainWindow* window, WorkspaceSession* session) {
    followWorkspaceProfiles(session, window->hardwareCatalog());
    WorkspacePanels panels;
    panels.profiles = new ProfileManagerPanel(session);
    panels.plans = new SavedPlansPanel(session, window->document());
    panels.compare = new ComparePanel(window->document(), window->hardwareCatalog());
    // The comparison the user chose last time comes back; every choice is remembered.
    CompareProfilesModel* compared = panels.compare->profilesModel();
    AppSettings* settings = window->appSettings();
    if (const QStringList saved = settings->compareProfiles(); !saved.isEmpty()) {
        compared->setCheckedIds(saved);
    }
    QObject::connect(compared, &CompareProfilesModel::checkedChanged, settings,
                     [compared, settings] {
                         if (compared->userChose()) {
                             settings->setCompareProfiles(compared->checkedIds());
                         }
                     });
    window->addPanel(QStringLiteral("profiles"), MainWindow::tr("Profiles"), panels.profiles);
    window->addPanel(QStringLiteral("plans"), MainWindow::tr("Saved plans"), panels.plans);
    window->addPanel(QStringLiteral("compare"), MainWindow::tr("Compare"), panels.compare);
    panels.calibration = new TimeCalibration(window->timePanel(), session, window->document());
    return panels;
}

}  // namespace tally::ui
