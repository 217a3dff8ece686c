#pragma once

// The workspace in the desktop window: the GPU picker follows the workspace's
// profiles, and three panels join the window: the profile manager ("profiles"), the saved
// plans ("plans") and the compare view ("compare"). The composition root (app/gui_main.cpp)
// calls this once; the tests call it on their own window and session.

#include "ui/workspace/user_prompts.h"
#include "ui/workspace/workspace_open_dialog.h"

namespace tally::ui {

class ComparePanel;
class MainWindow;
class ProfileManagerPanel;
class SavedPlansPanel;
class TimeCalibration;
class WorkspaceSession;

struct WorkspacePanels {
    ProfileManagerPanel* profiles = nullptr;
    SavedPlansPanel* plans = nullptr;
    ComparePanel* compare = nullptr;
    // The Time panel's "Calibrate from a measured step…" (ui/workspace/calibration_dialog.h).
    TimeCalibration* calibration = nullptr;

    // Replaces the questions the panels ask (tests answer them without dialogs).
    void setPrompts(const UserPrompts& prompts) const;
    void setChooser(const WorkspaceChooser& chooser) const;
};

// Links the window's hardware catalog to the session (followWorkspaceProfiles), registers
// the three panels as tabs and answers the Time panel's calibration requests. The session must
// outlive the window.
WorkspacePanels installWorkspacePanels(MainWindow* window, WorkspaceSession* session);

}  // namespace tally::ui
