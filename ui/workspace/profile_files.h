#pragma once

// The hardware profiles of the workspace as the desktop app uses them: what the GPU picker
// offers, and profile files in the command line's format (`tally profiles export` writes them,
// `tally profiles import` reads them). Not widgets: the panels and the tests call these.

#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

#include "planner/hardware/hardware.h"

namespace tally::ui {

class HardwareCatalog;
class WorkspaceSession;

// Keeps `catalog` (the GPU picker's list, and what the plan evaluates on) equal to the session's
// profiles (Workspace::list_profiles()): at once, on every profilesChanged(), and with only the
// built-in ones while no workspace is open or when it cannot be read.
void followWorkspaceProfiles(WorkspaceSession* session, HardwareCatalog* catalog);

// A profile as `tally profiles export ID` prints it: its JSON, two-space indented, one newline.
QByteArray profileFileContents(const HardwareProfile& profile);
// Writes profileFileContents() atomically (QSaveFile). False and a message naming the file.
bool exportProfileFile(const HardwareProfile& profile, const QString& path, QString* error);
// The profile a file holds, as `tally profiles import FILE` reads it: the planner's rules for a
// profile (the message names the field), and a built-in profile's copy becomes custom.
std::optional<HardwareProfile> readProfileFile(const QString& path, QString* error);

// An id and a name for a copy of `base` that no profile in `taken` has: "h100-sxm-copy",
// "H100 SXM (copy)", then "-copy-2", "(copy 2)", ...
std::pair<std::string, std::string> copyIdAndName(const HardwareProfile& base,
                                                  const std::vector<HardwareProfile>& taken);

}  // namespace tally::ui
