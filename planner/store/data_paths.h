#pragma once

// Where the workspace lives on each operating system.

#include <filesystem>

namespace tally {

// The folder the platform keeps application data in, for an application named "tally" with no
// organisation: on Linux $XDG_DATA_HOME/tally (default ~/.local/share/tally), on macOS
// ~/Library/Application Support/tally, on Windows %APPDATA%/tally. It is the folder Qt's
// QStandardPaths::writableLocation(AppDataLocation) gives such an application, so the CLI and
// the GUI find the same file.
std::filesystem::path application_data_dir();
// application_data_dir() / "workspace.sqlite": where `tally` keeps its workspace unless --db says.
std::filesystem::path default_workspace_path();

}  // namespace tally
