#include "gpu_probe/probe_stats.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace tally::probe {

SampleSummary summarize(std::span<const double> samples_s) {
    SampleSummary s;
    s.samples = static_cast<int>(samples_s.size());
    if (samples_s.empty()) {
        return s;
    }
    std::vector<double> sorted(samples_s.begin(), samples_s.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    s.min_s = sorted.front();
    s.max_s = sorted.back();
    s.median_s = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    s.mean_s = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
    if (n >= 2) {
        double sum_sq = 0.0;
        for (const double x : sorted) {
            sum_sq += (x - s.mean_s) * (x - s.mean_s);
        }
        s.stddev_s = std::sqrt(sum_sq / static_cast<double>(n - 1));
        s.stdrel = s.mean_s > 0.0 ? s.stddev_s / s.mean_s : 0.0;
    }
    return s;
}

std::string_view to_string(StopReason reason) {
    switch (reason) {
        case StopReason::noise:
            return "noise";
        case StopReason::time_limit:
            return "time_limit";
        case StopReason::max_samples:
            return "max_samples";
    }
    return "max_samples";
}

std::optional<StopReason> should_stop(std::span<const double> samples_s, double elapsed_s,
                                      const StopCriterion& criterion) {
    const int n = static_cast<int>(samples_s.size());
    if (n >= criterion.max_samples) {
        return StopReason::max_samples;
    }
    // The time limit wins over everything but the cap, yet a measurement always keeps at least
    // one sample so that it has a figure to report.
    if (n >= 1 && elapsed_s >= criterion.time_limit_s) {
        return StopReason::time_limit;
    }
    if (n < std::max(criterion.min_samples, 2)) {
        return std::nullopt;
    }
    const double measured_s = std::accumulate(samples_s.begin(), samples_s.end(), 0.0);
    if (measured_s < criterion.min_time_s) {
        return std::nullopt;
    }
    if (summarize(samples_s).stdrel <= criterion.target_stdrel) {
        return StopReason::noise;
    }
    return std::nullopt;
}

Measurement measure(const std::function<double()>& sample_s, const StopCriterion& criterion,
                    const MeasureHooks& hooks) {
    const auto steady_now_s = [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    };
    const std::function<double()> now_s = hooks.now_s ? hooks.now_s : steady_now_s;
    const auto prepare = [&] {
        if (hooks.before_sample) {
            hooks.before_sample();
        }
    };

    Measurement m;
    const double start_s = now_s();
    for (int i = 0; i < criterion.warmup_runs; ++i) {
        prepare();
        sample_s();
    }
    for (;;) {
        prepare();
        m.samples_s.push_back(sample_s());
        m.elapsed_s = now_s() - start_s;
        if (const auto reason = should_stop(m.samples_s, m.elapsed_s, criterion)) {
            m.stop_reason = *reason;
            break;
        }
    }
    m.summary = summarize(m.samples_s);
    return m;
}

}  // namespace tally::probe
