// Number-format value conversion. The input is read two ways: its first 8 bytes as the bit
// pattern of a double (every NaN, infinity, subnormal and boundary value is reachable) and the
// whole input as text through strtod, as `tally formats --value` reads it. Each value is
// converted into every format; a conversion never gives a NaN for a number, a value it calls exact
// is the input, and one it calls rounded, flushed or saturated is finite and within the format's
// range.
#include <cstdlib>
#include <cstring>
#include <string>

#include "planner/roofline/number_formats.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tally;

namespace {

void check_value(double x) {
    for (NumberFormat f : kAllNumberFormats) {
        const FormatInfo& info = format_info(f);
        const Conversion c = convert(x, f);
        if (std::isnan(x)) {
            fuzz::require(c.status == ConversionStatus::not_a_number, "NaN converts to NaN");
            continue;
        }
        if (std::isfinite(x)) {
            fuzz::require(!std::isnan(c.value), "a finite number never converts to NaN");
        }
        switch (c.status) {
            case ConversionStatus::exact:
                // Infinity is exact in the formats that have one.
                fuzz::require(c.value == x, "an exact conversion keeps the value");
                break;
            case ConversionStatus::rounded:
            case ConversionStatus::underflow_zero:
            case ConversionStatus::saturated:
                fuzz::require_finite(c.value, "converted value");
                fuzz::require(std::abs(c.value) <= info.max, "converted value within max");
                break;
            case ConversionStatus::overflow_infinity:
                fuzz::require(std::isinf(c.value), "overflow gives an infinity");
                break;
            case ConversionStatus::not_a_number:
                break;
        }
    }
    (void)parse_number_format(std::to_string(x));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size >= sizeof(double)) {
        double bits = 0.0;
        std::memcpy(&bits, data, sizeof bits);
        check_value(bits);
    }
    const std::string text(reinterpret_cast<const char*>(data), size);
    (void)parse_number_format(text);
    char* end = nullptr;
    const double parsed = std::strtod(text.c_str(), &end);
    if (end != text.c_str()) {
        check_value(parsed);
    }
    return 0;
}
