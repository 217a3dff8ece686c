#pragma once

#include <QObject>
#include <string_view>
#include <vector>

#include "planner/hardware/hardware.h"

namespace tally::ui {

// The hardware profiles the app can plan on. Starts with the shipped catalog
// (builtin_hardware()); the workspace adds the user's custom and measured profiles through
// setProfiles(), and every picker and the plan follow through profilesChanged().
class HardwareCatalog : public QObject {
    Q_OBJECT
public:
    explicit HardwareCatalog(QObject* parent = nullptr);

    const std::vector<HardwareProfile>& profiles() const { return m_profiles; }
    // The profile with this id, or nullptr.
    const HardwareProfile* find(std::string_view id) const;
    // Replaces the list (ids must be unique; the first of a repeated id wins in find()).
    void setProfiles(std::vector<HardwareProfile> profiles);

signals:
    void profilesChanged();

private:
    std::vector<HardwareProfile> m_profiles;
};

}  // namespace tally::ui
