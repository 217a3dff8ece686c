#include "gpu_probe/probe_backend.h"

namespace tally::probe {

void TestContext::report(ResultEvent result) {
    result.test = m_test;
    ++m_counts[static_cast<int>(result.status)];
    m_sink.emit(result);
}

void TestContext::progress(std::string message) {
    m_sink.emit(ProgressEvent{m_test, m_index, m_total, std::move(message)});
}

namespace {

ResultEvent labelled(const CaseLabel& label) {
    ResultEvent r;
    r.variant = label.variant;
    r.dtype = label.dtype;
    r.sizes = label.sizes;
    return r;
}

// A result without timing: nothing was measured.
ResultEvent unmeasured_result(const CaseLabel& label, ResultStatus status, std::string reason) {
    ResultEvent r = labelled(label);
    r.status = status;
    r.validated = false;
    r.reason = std::move(reason);
    return r;
}

}  // namespace

ResultEvent measured_result(const CaseLabel& label, const Measurement& measurement,
                            std::optional<double> flops, std::optional<double> bytes,
                            const Validation& validation) {
    ResultEvent r = labelled(label);
    const SampleSummary& s = measurement.summary;
    r.flops = flops;
    r.bytes = bytes;
    if (flops && bytes && *bytes > 0.0) {
        r.intensity_flops_per_byte = *flops / *bytes;
    }
    if (s.median_s > 0.0) {
        if (flops && *flops > 0.0) {
            r.flops_per_s = *flops / s.median_s;
        }
        if (bytes && *bytes > 0.0) {
            r.bytes_per_s = *bytes / s.median_s;
        }
    }
    r.median_s = s.median_s;
    r.min_s = s.min_s;
    r.max_s = s.max_s;
    r.mean_s = s.mean_s;
    r.stdrel = s.stdrel;
    r.samples = s.samples;
    r.stop_reason = std::string(to_string(measurement.stop_reason));
    r.validated = validation.passed;
    r.status = validation.passed ? ResultStatus::passed : ResultStatus::failed;
    r.reason = validation.reason;
    return r;
}

ResultEvent waived_result(const CaseLabel& label, std::string reason) {
    return unmeasured_result(label, ResultStatus::waived, std::move(reason));
}

ResultEvent failed_result(const CaseLabel& label, std::string reason) {
    return unmeasured_result(label, ResultStatus::failed, std::move(reason));
}

}  // namespace tally::probe
