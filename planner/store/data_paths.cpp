#include "planner/store/data_paths.h"

#include <cstdlib>

namespace tally {

namespace fs = std::filesystem;

// ---- where the workspace lives ------------------------------------------------------------------

namespace {

// Qt's QDir::homePath(): $HOME, or the root folder when it is unset or empty.
fs::path home_dir() {
    const char* home = std::getenv("HOME");
    return (home != nullptr && *home != '\0') ? fs::path(home) : fs::path("/");
}

}  // namespace

fs::path application_data_dir() {
#if defined(_WIN32)
    // Qt: SHGetKnownFolderPath(FOLDERID_RoamingAppData), which %APPDATA% names.
    const char* appdata = std::getenv("APPDATA");
    const fs::path base = (appdata != nullptr && *appdata != '\0')
                              ? fs::path(appdata)
                              : home_dir() / "AppData" / "Roaming";
    return base / "tally";
#elif defined(__APPLE__)
    return home_dir() / "Library" / "Application Support" / "tally";
#else
    // XDG Base Directory Specification: $XDG_DATA_HOME, default $HOME/.local/share; Qt
    // (qstandardpaths_unix.cpp) then appends organisation and application names, and Tally sets
    // no organisation.
    const char* xdg = std::getenv("XDG_DATA_HOME");
    const fs::path base =
        (xdg != nullptr && *xdg != '\0') ? fs::path(xdg) : home_dir() / ".local" / "share";
    return base / "tally";
#endif
}

fs::path default_workspace_path() {
    return application_data_dir() / "workspace.sqlite";
}

}  // namespace tally
