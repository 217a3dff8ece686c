#include "planner/core/quantity_text.h"

#include <fmt/core.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace tally {

std::string four_digits(double value) {
    return fmt::format("{:.4g}", value);
}

std::string shortest_text(double value) {
    // fmt's default format for a double is the shortest round-trip representation.
    return fmt::format("{}", value);
}

std::string count_text(double value) {
    struct Suffix {
        double scale;
        char letter;
    };
    constexpr Suffix kSuffixes[] = {{1e15, 'P'}, {1e12, 'T'}, {1e9, 'B'}, {1e6, 'M'}, {1e3, 'K'}};
    const double a = std::abs(value);
    if (std::isfinite(value) && a >= 1e4 && a < 1e18) {
        for (const Suffix& s : kSuffixes) {
            if (a >= s.scale) {
                return fmt::format("{:.4g}{}", value / s.scale, s.letter);
            }
        }
    }
    return fmt::format("{:.4g}", value);
}

std::string days_text(double days) {
    // Under half a hundredth of a day two decimals would read "0.00" (the lecture's small
    // network trains in 3.4 s): three significant digits.
    if (std::isfinite(days) && days != 0.0 && std::abs(days) < 0.005) {
        return fmt::format("{:.3g}", days);
    }
    if (std::isfinite(days) && std::abs(days) < 1e6) {
        return fmt::format("{:.2f}", days);
    }
    return fmt::format("{:.4g}", days);
}

std::string four_digits_or_dash(std::optional<double> value) {
    return value ? four_digits(*value) : std::string("-");
}

std::string gb_text(double bytes) {
    return fmt::format("{:.4g} GB", to_gb(bytes));
}

std::string tb_per_s_text(double bytes_per_s) {
    return fmt::format("{:.4g} TB/s", to_tera(bytes_per_s));
}

std::string tflops_text(double flops_per_s) {
    return flops_per_s > 0.0 ? fmt::format("{:.4g} TFLOP/s", to_tera(flops_per_s))
                             : std::string("-");
}

std::string percent_or_dash(std::optional<double> fraction) {
    return fraction ? fmt::format("{:.1f}%", 100.0 * *fraction) : std::string("-");
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
