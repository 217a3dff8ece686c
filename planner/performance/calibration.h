#pragma once

// A calibrated profile's overall efficiency applied to the step-time model, and how a
// calibration is said in words. The fit itself (the measured spec's predicted step over its
// measured one) is in planner/training/calibration_fit.h; the record is part of the profile
// (planner/hardware/hardware.h, StepCalibration).

#include <string>
#include <string_view>

#include "planner/core/text.h"
#include "planner/hardware/hardware.h"
#include "planner/performance/performance.h"

namespace tally {

// Divides every time of `breakdown` (the terms of the step, the data-parallel traffic and the
// micro-batch time) by the profile's calibrated efficiency, so that the terms still add up to
// step_s; records the efficiency and the step before it. Without a calibration it records
// efficiency 1 and leaves the times alone. Allocation-free: predict_performance() calls it for
// every plan.
void apply_calibration(PerformanceBreakdown& breakdown, const HardwareProfile& hardware);

// "calibrated from a measured step of 12.5 s (2026-12-02 / Megatron-LM log run.log, ...)".
std::string calibration_note(const StepCalibration& calibration);
// The same note as a translatable text (core/text.h). The recorded source is looked up under
// "tally::calibration", so a source the planner wrote (kStepEnteredSource) reads in the user's
// language; one taken from a file name stays as recorded.
Text calibration_note_text(const StepCalibration& calibration);

// The source of a calibration whose measured step was typed in (`tally calibrate --step-s`).
inline constexpr const char* kStepEnteredSource =
    QT_TRANSLATE_NOOP("tally::calibration", "entered with --step-s");
// The same typed in the window's calibration dialog. Both are recorded in English and shown in
// the reader's language (calibration_note_text()), so a profile calibrated in one language reads
// in another.
inline constexpr const char* kStepEnteredInWindowSource =
    QT_TRANSLATE_NOOP("tally::calibration", "entered in the window");

// A measured step a calibration may rest on: finite and in [1e-9, 1e9] seconds. Throws
// SpecError naming `field` (e.g. "--step-s") and the value otherwise.
void validate_measured_step(double step_s, const std::string& field);

}  // namespace tally
