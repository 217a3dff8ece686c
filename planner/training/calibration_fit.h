#pragma once

// Calibrating the step-time model on the user's own run: the overall efficiency of the model on
// a cluster, fitted from one measured step of one spec, and the workspace profile that carries
// it (hardware.h, StepCalibration; applied by planner/performance/calibration.h).
//
// The fit. For the spec S the run was made with, on the profile P it ran on (P without any
// calibration of its own), the model predicts a step t_pred(S, P); the run measured t_meas. The
// calibrated efficiency is
//     e = t_pred(S, P) / t_meas
// and every step predicted on the calibrated profile is t_pred(S', P) / e. For S itself that is
// t_pred / (t_pred / t_meas) = t_meas exactly; any other spec S' moves by the same factor 1/e.
// e < 1 says the model is too fast on this cluster (the usual case: it charges no launch gaps,
// stragglers or clocks below boost), e > 1 too slow. One number per cluster, not per term: the
// model's breakdown keeps its proportions.

#include <optional>
#include <string>

#include "planner/core/spec.h"
#include "planner/core/text.h"
#include "planner/hardware/hardware.h"
#include "planner/performance/training_log.h"

namespace tally {

// The measured step time a log gives for `spec`: a step time as it is (Megatron-LM, NeMo), or
// from tokens per second per GPU (torchtitan): tokens per step / GPUs / (tokens/s per GPU),
// tokens per step = global batch x sequence length of the spec (evaluate()'s). Throws SpecError
// when the spec is not accepted on `hardware` (check()), naming data.global_batch when the log
// says another global batch (Megatron-LM's lines), and "log" when its records' batch changes.
double measured_step_from_log(const TrainingLogSummary& log, const PlanSpec& spec,
                              const HardwareProfile& hardware);

// "Megatron-LM log run.log: median of 48 records (iterations 30 to 500), 2 dropped as warm-up".
std::string log_source_text(const TrainingLogSummary& log, const std::string& file_name);
// The same, as a translatable text (core/text.h), for a person to read in their language.
Text log_source(const TrainingLogSummary& log, const std::string& file_name);

// The calibration of `spec` measured at `measured_step_s` on `profile` (its figures; any
// calibration it has is set aside for the prediction). `measured_field` names the measured step
// in errors ("--step-s"), `source` says where it came from, `date` when (UTC, "2026-12-02").
// Throws SpecError: the spec not accepted (check()), its time not predicted ("cluster.mfu": an
// assumed MFU does not rest on the step), a measured step not finite or outside [1e-9, 1e9] s,
// or an efficiency outside [0.01, 100] (the run and the spec differ).
StepCalibration fit_calibration(const PlanSpec& spec, const HardwareProfile& profile,
                                double measured_step_s, const std::string& measured_field,
                                const std::string& source, const std::string& date);

// What makes the measured step doubtful although the hardware could run it: the HFU it implies
// (hardware FLOPs a step over the step, the GPUs and the compute dtype's dense peak) above the
// best published GEMM fraction of the part in that dtype (efficiency.h): its GEMMs alone do not
// run that fast, so the spec is probably not the run (another layout, batch or sequence length,
// a step in other units). nullopt when nothing is doubtful.
std::optional<Text> calibration_doubt(const PlanSpec& spec, const HardwareProfile& profile,
                                      const StepCalibration& calibration);

// Where a calibration of a run on `profile` is stored by default: a calibrated profile is
// calibrated again in place (its own id and name); any other gets a new one,
// "<id>-calibrated" named "<name> (calibrated)".
std::string default_calibrated_id(const HardwareProfile& profile);
// The new profile's name is translatable (core/text.h): the window and the CLI suggest it in
// their language through `translate` (none: English); once stored it is the user's.
std::string default_calibrated_name(const HardwareProfile& profile,
                                    const TextTranslator& translate = {});

// The profile to store: `profile`'s figures under `id` and `name`, with `calibration`. Kept as
// it is when `id` is the profile's own (calibrated again in place: kind and sources stay);
// otherwise a custom copy (duplicate_profile(), which names the profile it was copied from).
HardwareProfile calibrated_profile(const HardwareProfile& profile,
                                   const StepCalibration& calibration, const std::string& id,
                                   const std::string& name);

}  // namespace tally
