#pragma once

// How the command line and the Markdown report write quantities: the units, the digits and the
// JSON form of a figure that may be missing. Qt-free; the GUI's ui/common/number_text.h writes the
// same units in Qt's types on top of these definitions.

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

// The shortest text that reads back as the same double: "0.4" (not 0.40000000000000002),
// "70000000000", "6.3e+24". For values a user typed (error messages) and exact exports (CSV).
std::string shortest_text(double value);

// A count with a suffix for thousands to quadrillions and four significant digits, as model cards
// and papers write them: "70B", "15T", "1.5M", "4096"; larger or smaller: four digits ("1e+30").
std::string count_text(double value);

// A number of days: two decimals below a million days ("143.93"), then four significant digits
// with an exponent ("6.369e+18"): never twenty digits of a meaningless figure. Under 0.005 days,
// three significant digits ("3.95e-05"), not "0.00".
std::string days_text(double days);

// four_digits() of the value, or "-" when it is absent.
std::string four_digits_or_dash(std::optional<double> value);

// Decimal units with four significant digits: "80 GB", "3.35 TB/s", "989.5 TFLOP/s" (a peak of
// 0, i.e. none, is "-").
std::string gb_text(double bytes);
std::string tb_per_s_text(double bytes_per_s);
std::string tflops_text(double flops_per_s);

// A fraction as a percentage with one decimal ("80.0%"), or "-" when it is absent.
std::string percent_or_dash(std::optional<double> fraction);

// The value, or JSON null when it is absent or not finite (JSON has no inf or NaN).
nlohmann::json number_or_null(std::optional<double> value);

}  // namespace tally
