#pragma once
// What a backend (CPU, CUDA) implements, and the context a test reports through.

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_probe/probe_options.h"
#include "gpu_probe/probe_stats.h"
#include "gpu_probe/probe_validation.h"
#include "gpu_probe/protocol/probe_protocol.h"

namespace tally::probe {

// Where events go: stdout in the probe, a vector in tests.
class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void emit(const Event& event) = 0;
};

// The backend cannot run here (not built in, no driver, no device). Maps to exit status 3.
class BackendUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct TestInfo {
    std::string name;
    std::string description;
};

// Settings every test reads; made once per run from the options.
struct RunSettings {
    bool quick = false;
    StopCriterion criterion;
    bool l2_flush = false;
    std::uint64_t seed = 0;
    std::optional<std::string> inject_fault;  // test name
    std::vector<GemmShape> gemm_shapes;       // --gemm-shapes; empty: the default sweep
};

// One test's view of the run: its settings, and where its results go.
class TestContext {
public:
    // `index` (1-based) and `total` place the test in the run, for progress events.
    TestContext(std::string test, int index, int total, const RunSettings& settings,
                EventSink& sink)
        : m_test(std::move(test)),
          m_index(index),
          m_total(total),
          m_settings(settings),
          m_sink(sink) {}

    const std::string& test() const { return m_test; }
    const RunSettings& settings() const { return m_settings; }
    const StopCriterion& criterion() const { return m_settings.criterion; }
    std::uint64_t seed() const { return m_settings.seed; }
    // Whether this test must corrupt its output before validating it (--inject-fault).
    bool inject_fault() const { return m_settings.inject_fault == m_test; }

    // Emits one result, filling in the test name, and counts its status.
    void report(ResultEvent result);
    // A progress event for this test ("matmul bf16 8192x8192x8192").
    void progress(std::string message);

    int passed() const { return m_counts[0]; }
    int waived() const { return m_counts[1]; }
    int failed() const { return m_counts[2]; }
    int reported() const { return m_counts[0] + m_counts[1] + m_counts[2]; }

private:
    std::string m_test;
    int m_index = 1;
    int m_total = 1;
    const RunSettings& m_settings;
    EventSink& m_sink;
    int m_counts[3] = {0, 0, 0};
};

// What a measured case is: the labels of one result line.
struct CaseLabel {
    std::string variant;
    std::string dtype;
    std::map<std::string, std::int64_t> sizes;
};

// A result from a measurement: rates from the median, status from the validation.
ResultEvent measured_result(const CaseLabel& label, const Measurement& measurement,
                            std::optional<double> flops, std::optional<double> bytes,
                            const Validation& validation);
// A case this device cannot run (e.g. fp8 below compute capability 8.9).
ResultEvent waived_result(const CaseLabel& label, std::string reason);
// A case that failed before it could be measured.
ResultEvent failed_result(const CaseLabel& label, std::string reason);

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string_view name() const = 0;
    virtual DeviceEvent describe() = 0;
    virtual std::vector<TestInfo> tests() const = 0;
    // Runs one test (a name from tests()), reporting each case through ctx. May throw: the
    // runner turns an exception into a failed result and an error event.
    virtual void run(std::string_view test, TestContext& ctx) = 0;
};

}  // namespace tally::probe
