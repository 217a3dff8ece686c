#include "quantity_text.h"

#include <fmt/core.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace tally {

std::string four_digits(double value) {
    return fmt::format("{:.4g}", value);
}

std::string gb_gib_columns(double bytes) {
    return fmt::format("{:10.2f} GB {:10.2f} GiB", to_gb(bytes), to_gib(bytes));
}

nlohmann::json number_or_null(std::optional<double> value) {
    if (value && std::isfinite(*value)) {
        return *value;
    }
    return nullptr;
}

}  // namespace tally
