#include "ui/common/hardware_catalog.h"

namespace tally::ui {

HardwareCatalog::HardwareCatalog(QObject* parent)
    : QObject(parent), m_profiles(builtin_hardware()) {}

const HardwareProfile* HardwareCatalog::find(std::string_view id) const {
    for (const HardwareProfile& p : m_profiles) {
        if (p.id == id) {
            return &p;
        }
    }
    return nullptr;
}

void HardwareCatalog::setProfiles(std::vector<HardwareProfile> profiles) {
    m_profiles = std::move(profiles);
    emit profilesChanged();
}

}  // namespace tally::ui
