#include "ui/workspace/profile_files.h"

#include <QCoreApplication>
#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/io/json_reader.h"
#include "planner/store/workspace.h"
#include "ui/common/file_io.h"
#include "ui/common/hardware_catalog.h"
#include "ui/common/number_text.h"
#include "ui/session/workspace_session.h"

namespace tally::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("tally::ui", text);
}

}  // namespace

void followWorkspaceProfiles(WorkspaceSession* session, HardwareCatalog* catalog) {
    auto update = [session, catalog] {
        std::vector<HardwareProfile> profiles = builtin_hardware();
        if (Workspace* ws = session->workspace()) {
            try {
                profiles = ws->list_profiles();
            } catch (const std::exception&) {
                // The profile manager lists the same rows and shows the workspace's message;
                // the picker keeps the built-in profiles meanwhile.
            }
        }
        catalog->setProfiles(std::move(profiles));
    };
    QObject::connect(session, &WorkspaceSession::profilesChanged, catalog, update);
    update();
}

QByteArray profileFileContents(const HardwareProfile& profile) {
    return QByteArray::fromStdString(to_json(profile).dump(2) + "\n");
}

bool exportProfileFile(const HardwareProfile& profile, const QString& path, QString* error) {
    return writeFileAtomically(path, profileFileContents(profile), error);
}

std::optional<HardwareProfile> readProfileFile(const QString& path, QString* error) {
    QByteArray bytes;
    if (!readWholeFile(path, &bytes, error)) {
        return std::nullopt;
    }
    try {
        const std::string text = bytes.toStdString();
        throw_if_nested_too_deep(text, "profile", "");
        const nlohmann::json doc = nlohmann::json::parse(text);
        HardwareProfile p = hardware_from_json(doc, "profile");
        // A shared copy of a catalog entry is the user's own now (as `tally profiles import`).
        if (p.kind == ProfileKind::builtin) {
            p.kind = ProfileKind::custom;
        }
        return p;
    } catch (const nlohmann::json::parse_error& e) {
        if (error) {
            *error = tr("%1 is not a profile file: it is not JSON (%2)").arg(path, qs(e.what()));
        }
    } catch (const SpecError& e) {
        if (error) {
            *error = tr("%1 is not a profile Tally can use: %2").arg(path, qs(e.what()));
        }
    } catch (const std::exception& e) {
        if (error) {
            *error = tr("%1 cannot be read as a profile: %2").arg(path, qs(e.what()));
        }
    }
    return std::nullopt;
}

std::pair<std::string, std::string> copyIdAndName(const HardwareProfile& base,
                                                  const std::vector<HardwareProfile>& taken) {
    auto idTaken = [&taken](const std::string& id) {
        return std::any_of(taken.begin(), taken.end(),
                           [&id](const HardwareProfile& p) { return p.id == id; });
    };
    auto nameTaken = [&taken](const std::string& name) {
        return std::any_of(taken.begin(), taken.end(),
                           [&name](const HardwareProfile& p) { return p.name == name; });
    };
    for (int n = 1;; ++n) {
        // append(), not `"-" + std::to_string(n)`: GCC 12 -O3 reports a false -Wrestrict on
        // that operator+ (GCC bug 105329).
        const std::string suffix =
            n == 1 ? std::string() : std::string("-").append(std::to_string(n));
        const std::string id = base.id + "-copy" + suffix;
        // The default name of a copy, in the window's language (the user may rename it).
        const std::string name = (n == 1 ? tr("%1 (copy)").arg(qs(base.name))
                                         : tr("%1 (copy %2)").arg(qs(base.name)).arg(n))
                                     .toStdString();
        if (!idTaken(id) && !nameTaken(name)) {
            return {id, name};
        }
    }
}

}  // namespace tally::ui
