#include "planner/performance/calibration.h"

#include <fmt/core.h>

#include <cmath>

#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"

namespace tally {

void apply_calibration(PerformanceBreakdown& b, const HardwareProfile& hw) {
    b.uncalibrated_step_s = b.step_s;
    if (!hw.calibration) {
        b.calibration_efficiency = 1.0;
        return;
    }
    // efficiency = predicted / measured for the calibrating spec (calibration_fit.h), so
    // predicted / efficiency is that spec's measured step; any other spec moves by the same
    // factor: one overall efficiency of the model on this cluster, not a per-term fit.
    const double scale = 1.0 / hw.calibration->efficiency;
    b.calibration_efficiency = hw.calibration->efficiency;
    for (double* t :
         {&b.step_s, &b.compute_s, &b.recompute_s, &b.memory_bound_s, &b.tp_comm_s, &b.pp_comm_s,
          &b.pp_bubble_s, &b.dp_comm_exposed_s, &b.ep_comm_s, &b.cp_comm_s, &b.overhead_s,
          &b.comm_contention_s, &b.offload_s, &b.optimizer_s, &b.dp_comm_s, &b.microbatch_s}) {
        *t *= scale;
    }
}

Text calibration_note_text(const StepCalibration& c) {
    Text text =
        TALLY_TEXT("tally::calibration", "calibrated from a measured step of %1 s (%2 / %3)");
    text.arg(four_digits(c.measured_step_s));
    if (c.measured_on.empty()) {
        text.arg_translated("tally::calibration",
                            QT_TRANSLATE_NOOP("tally::calibration", "undated"));
    } else {
        text.arg(c.measured_on);
    }
    text.arg_translated("tally::calibration",
                        c.source.empty()
                            ? QT_TRANSLATE_NOOP("tally::calibration", "source not recorded")
                            : c.source.c_str());
    return text;
}

std::string calibration_note(const StepCalibration& c) {
    return calibration_note_text(c).english();
}

void validate_measured_step(double step_s, const std::string& field) {
    if (!std::isfinite(step_s) || step_s < 1e-9 || step_s > 1e9) {
        throw SpecError(field, std::isnan(step_s) ? std::string("NaN") : fmt::format("{}", step_s),
                        TALLY_TEXT("tally::calibration",
                                   "a measured step time in seconds, > 0 (at least 1e-9) and at "
                                   "most 1e9"));
    }
}

}  // namespace tally
