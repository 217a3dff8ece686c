#include "gpu_probe/probe_validation.h"

#include <fmt/format.h>

namespace tally::probe {

Validation to_validation(const Mismatches& m, std::size_t checked, std::string_view what,
                         Tolerance tolerance) {
    if (m.count == 0) {
        return Validation::ok();
    }
    return Validation::fail(fmt::format(
        "{} of {} {} differ from the reference; first at index {}: got {:.9g}, expected {:.9g} "
        "(tolerance {:.3g} + {:.3g}·|expected|)",
        m.count, checked, what, m.first_index, m.first_got, m.first_want, tolerance.abs,
        tolerance.rel));
}

double gamma_bound(double n, double unit_roundoff) {
    const double nu = n * unit_roundoff;
    if (nu >= 0.5) {
        return 1.0;
    }
    return nu / (1.0 - nu);
}

}  // namespace tally::probe
