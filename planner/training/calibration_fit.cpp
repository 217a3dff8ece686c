#include "planner/training/calibration_fit.h"

#include <fmt/core.h>

#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/hardware/efficiency.h"
#include "planner/hardware/user_profiles.h"
#include "planner/performance/calibration.h"
#include "planner/training/plan.h"

namespace tally {

namespace {

void require_accepted(const PlanSpec& spec, const HardwareProfile& hw) {
    if (auto error = check(spec, hw)) {
        throw SpecError(*error);
    }
}

}  // namespace

double measured_step_from_log(const TrainingLogSummary& log, const PlanSpec& spec,
                              const HardwareProfile& hw) {
    if (log.is_step_time() && log.global_batch_min < 0) {
        return log.median;
    }
    require_accepted(spec, hw);
    const Plan plan = evaluate(spec, hw);
    // A log whose lines say their global batch (Megatron-LM's) is of that batch's run: its steps
    // time another spec than one of another batch, and one whose batch changes (a ramp-up) times
    // no single spec.
    if (log.global_batch_min > 0) {
        if (log.global_batch_max != log.global_batch_min) {
            throw SpecError(
                "log",
                fmt::format("global batch size {} to {}", log.global_batch_min,
                            log.global_batch_max),
                TALLY_TEXT("tally::calibration",
                           "timing records at one global batch: the first %1 records print "
                           "another than the last's (a batch ramp-up); skip them as warm-up "
                           "(--skip-records %1)")
                    .arg(log.records_before_last_batch));
        }
        const double spec_batch = plan.parallel.tokens_per_step / spec.data.seq_len;
        if (static_cast<double>(log.global_batch_min) != spec_batch) {
            throw SpecError(
                "data.global_batch", fmt::format("{}", spec_batch),
                TALLY_TEXT("tally::calibration",
                           "the global batch of the run that wrote the log, %1 (its \"global "
                           "batch size\"): calibrate with the spec of that run")
                    .arg(log.global_batch_min));
        }
    }
    if (log.is_step_time()) {
        return log.median;
    }
    // torchtitan's tps is tokens per second per GPU (metrics.py: the data-parallel rank's tokens
    // over seconds x its model-parallel GPUs), so one GPU's share of a step's tokens over it is
    // the step: (global batch x seq_len / GPUs) / tps.
    const double tokens_per_gpu =
        plan.parallel.tokens_per_step / static_cast<double>(spec.cluster.gpus);
    return tokens_per_gpu / log.median;
}

Text log_source(const TrainingLogSummary& log, const std::string& file_name) {
    const bool iterations = log.first_iteration >= 0 && log.last_iteration >= 0;
    // A log whose lines name their rank says which rank's lines were used (training_log.h:
    // the rank the framework prints its timing from, or the one asked for).
    const bool ranked = log.rank >= 0;
    Text text =
        log.is_step_time()
            ? (iterations ? (ranked ? TALLY_TEXT("tally::calibration",
                                                 "%1 log %2: median of %3 step times (iterations "
                                                 "%5 to %6) of rank %7, %4 dropped as warm-up")
                                    : TALLY_TEXT("tally::calibration",
                                                 "%1 log %2: median of %3 step times (iterations "
                                                 "%5 to %6), %4 dropped as warm-up"))
                          : (ranked ? TALLY_TEXT("tally::calibration",
                                                 "%1 log %2: median of %3 step times of rank %5, "
                                                 "%4 dropped as warm-up")
                                    : TALLY_TEXT("tally::calibration",
                                                 "%1 log %2: median of %3 step times, %4 dropped "
                                                 "as warm-up")))
            : (iterations ? (ranked ? TALLY_TEXT("tally::calibration",
                                                 "%1 log %2: median of %3 tokens/s per GPU "
                                                 "(iterations %5 to %6) of rank %7, %4 dropped as "
                                                 "warm-up")
                                    : TALLY_TEXT("tally::calibration",
                                                 "%1 log %2: median of %3 tokens/s per GPU "
                                                 "(iterations %5 to %6), %4 dropped as warm-up"))
                          : (ranked ? TALLY_TEXT("tally::calibration",
                                                 "%1 log %2: median of %3 tokens/s per GPU of "
                                                 "rank %5, %4 dropped as warm-up")
                                    : TALLY_TEXT("tally::calibration",
                                                 "%1 log %2: median of %3 tokens/s per GPU, %4 "
                                                 "dropped as warm-up")));
    text.arg(std::string(to_string(log.format))).arg(file_name).arg(log.used).arg(log.skipped);
    if (iterations) {
        text.arg(log.first_iteration).arg(log.last_iteration);
    }
    if (ranked) {
        text.arg(log.rank);
    }
    return text;
}

std::string log_source_text(const TrainingLogSummary& log, const std::string& file_name) {
    return log_source(log, file_name).english();
}

StepCalibration fit_calibration(const PlanSpec& spec, const HardwareProfile& profile,
                                double measured_step_s, const std::string& measured_field,
                                const std::string& source, const std::string& date) {
    validate_measured_step(measured_step_s, measured_field);
    HardwareProfile bare = profile;
    bare.calibration.reset();
    require_accepted(spec, bare);
    if (!spec.cluster.mfu_predicted) {
        throw SpecError("cluster.mfu", fmt::format("{}", spec.cluster.mfu),
                        TALLY_TEXT("tally::calibration",
                                   "\"predicted\" (or absent): a calibration fits the predicted "
                                   "step, and with an assumed MFU the spec's time does not rest "
                                   "on it"));
    }
    const PerformanceBreakdown predicted = evaluate(spec, bare).performance;
    const double predicted_s = predicted.step_s;
    if (!(predicted_s > 0.0)) {
        throw SpecError(
            "spec", fmt::format("predicted step {} s", predicted_s),
            TALLY_TEXT("tally::calibration", "a spec whose step the model predicts (> 0 s)"));
    }
    StepCalibration c;
    c.efficiency = predicted_s / measured_step_s;
    c.measured_step_s = measured_step_s;
    c.predicted_step_s = predicted_s;
    if (!(c.efficiency >= kMinCalibrationEfficiency && c.efficiency <= kMaxCalibrationEfficiency)) {
        throw SpecError(
            measured_field, fmt::format("{} s", four_digits(measured_step_s)),
            TALLY_TEXT("tally::calibration",
                       "a step within 100x of the prediction for this spec (%1 s; efficiency %2 is "
                       "outside [0.01, 100]): check that the spec has the run's layout, batch "
                       "and sequence length, and that the step is in seconds")
                .arg(four_digits(predicted_s))
                .arg(four_digits(c.efficiency)));
    }
    // No step runs faster than the part's peak: its hardware FLOPs (recomputation included) at
    // the compute dtype's dense peak on every GPU take predicted.hfu x the predicted step (hfu =
    // hardware FLOPs / (step x GPUs x peak), performance.h). A shorter measured step would put
    // every plan on the profile past the hardware's peak (HFU > 1): the spec is not the run.
    const double fastest_s = predicted.hfu * predicted_s;
    if (fastest_s > 0.0 && measured_step_s < fastest_s) {
        throw SpecError(
            measured_field, fmt::format("{} s", four_digits(measured_step_s)),
            TALLY_TEXT("tally::calibration",
                       "a step the hardware can run: at least %1 s, what the spec's %2 "
                       "hardware FLOPs a step take at the part's peak on all %3 GPUs (the step "
                       "measured would be HFU %4); check that the spec has the run's layout, "
                       "batch and sequence length, and that the step is in seconds")
                .arg(four_digits(fastest_s))
                .arg(four_digits(predicted.hardware_flops_per_step))
                .arg(spec.cluster.gpus)
                .arg(fmt::format("{:.3f}", predicted.hfu * c.efficiency)));
    }
    c.measured_on = date;
    c.source = source;
    c.spec_name = spec.name;
    c.base_profile = profile.calibration ? profile.calibration->base_profile : profile.id;
    c.engine = spec.training.engine;
    return c;
}

std::optional<Text> calibration_doubt(const PlanSpec& spec, const HardwareProfile& profile,
                                      const StepCalibration& calibration) {
    HardwareProfile bare = profile;
    bare.calibration.reset();
    const PerformanceBreakdown predicted = evaluate(spec, bare).performance;
    const double measured_hfu = predicted.hfu * calibration.efficiency;
    const ComputeType type = compute_type(spec.training.compute_dtype);
    const double best = gemm_fraction(bare, type);
    if (!(measured_hfu > best)) {
        return std::nullopt;
    }
    return TALLY_TEXT("tally::calibration",
                      "the measured step puts the spec at HFU %1, above %2, the best published "
                      "%3 GEMM fraction of %4: its GEMMs alone do not run that fast. Check that "
                      "the spec has the run's layout, batch and sequence length, and that the "
                      "step is in seconds")
        .arg(fmt::format("{:.3f}", measured_hfu))
        .arg(fmt::format("{:.3g}", best))
        .arg(std::string(to_string(type)))
        .arg(profile.name);
}

std::string default_calibrated_id(const HardwareProfile& profile) {
    return profile.calibration ? profile.id : profile.id + "-calibrated";
}

std::string default_calibrated_name(const HardwareProfile& profile,
                                    const TextTranslator& translate) {
    if (profile.calibration) {
        return profile.name;
    }
    return render(TALLY_TEXT("tally::calibration", "%1 (calibrated)").arg(profile.name), translate);
}

HardwareProfile calibrated_profile(const HardwareProfile& profile,
                                   const StepCalibration& calibration, const std::string& id,
                                   const std::string& name) {
    HardwareProfile out = id == profile.id ? profile : duplicate_profile(profile, id, name);
    out.name = name;
    out.calibration = calibration;
    return out;
}

}  // namespace tally
