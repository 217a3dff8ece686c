#pragma once

// How the command line and the Markdown report write quantities: the units, the digits and the
// JSON form of a figure that may be missing. Qt-free; the GUI's ui/number_text.h writes the same
// units in Qt's types on top of these definitions.

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

namespace tally {

// Decimal units, as datasheets count memory and bandwidth (1 GB = 1e9 bytes); binary units, as
// allocators and nvidia-smi report memory (1 GiB = 2^30 bytes).
inline constexpr double kBytesPerGB = 1e9;
inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

constexpr double to_gb(double bytes) {
    return bytes / kBytesPerGB;
}
constexpr double to_gib(double bytes) {
    return bytes / kBytesPerGiB;
}
// 1e12 of a rate: TB/s from bytes/s, TFLOP/s from FLOP/s.
constexpr double to_tera(double per_s) {
    return per_s / 1e12;
}

// Four significant digits in printf's %g style: "989.5", "0.0001235", "1.5e+13".
std::string four_digits(double value);

// A byte count in both units, two decimals in 10-wide columns: "     80.00 GB      74.51 GiB".
std::string gb_gib_columns(double bytes);

// The value, or JSON null when it is absent or not finite (JSON has no inf or NaN).
nlohmann::json number_or_null(std::optional<double> value);

}  // namespace tally
