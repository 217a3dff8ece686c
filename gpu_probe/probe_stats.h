#pragma once
// Backend-agnostic sampling and statistics: warm-up, then samples until the relative noise is
// small or a time limit hits; median and spread. The shape follows nvbench
// (nvbench/detail/measure_cold.cuh and detail/stdrel_criterion.cxx): never one-shot timing.

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace tally::probe {

struct SampleSummary {
    int samples = 0;
    double median_s = 0.0;
    double min_s = 0.0;
    double max_s = 0.0;
    double mean_s = 0.0;
    double stddev_s = 0.0;  // sample standard deviation (n - 1 in the denominator)
    double stdrel = 0.0;    // stddev_s / mean_s; 0 for fewer than two samples
};

// Median (mean of the two middle values for an even count), min, max, mean, sample standard
// deviation and relative standard deviation. An empty span gives an all-zero summary.
SampleSummary summarize(std::span<const double> samples_s);

// When to stop taking samples.
struct StopCriterion {
    int warmup_runs = 1;           // run and discarded before the first sample
    int min_samples = 10;          // never stop on noise before this many
    int max_samples = 10000;       // hard cap
    double target_stdrel = 0.005;  // stop once stdrel <= this ...
    double min_time_s = 0.1;       // ... and the samples add up to at least this much time
    double time_limit_s = 5.0;     // wall-clock limit of one measurement, warm-up included
};

enum class StopReason { noise, time_limit, max_samples };
std::string_view to_string(StopReason reason);

// The stop decision alone, a pure function so it can be tested with hand-made numbers.
// `elapsed_s` is the wall time since the measurement began (warm-up included); the noise rule
// looks at the samples' own sum, so slow set-up between samples never counts as measured time.
std::optional<StopReason> should_stop(std::span<const double> samples_s, double elapsed_s,
                                      const StopCriterion& criterion);

struct Measurement {
    SampleSummary summary;
    StopReason stop_reason = StopReason::max_samples;
    double elapsed_s = 0.0;
    std::vector<double> samples_s;
};

// Takes samples with `sample_s` (which runs the work once and returns its duration in seconds,
// however the backend times it) until `should_stop` says so. `before_sample` runs untimed before
// each warm-up run and sample (e.g. an L2 flush). `now_s` is the wall clock used for the time
// limit; tests pass a fake one.
struct MeasureHooks {
    std::function<void()> before_sample;
    std::function<double()> now_s;  // defaults to std::chrono::steady_clock
};
Measurement measure(const std::function<double()>& sample_s, const StopCriterion& criterion,
                    const MeasureHooks& hooks = {});

}  // namespace tally::probe
