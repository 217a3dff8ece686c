#pragma once
// The run loop shared by every backend: start, device, each test with progress and results,
// done; and the exit status that follows from the results.

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "gpu_probe/probe_backend.h"
#include "gpu_probe/probe_options.h"

namespace tally::probe {

// Writes each event as one line and flushes it, so a reader sees results as they come.
class FileEventSink : public EventSink {
public:
    explicit FileEventSink(std::FILE* file) : m_file(file) {}
    void emit(const Event& event) override;

private:
    std::FILE* m_file;
};

// Every test of the backend, or the requested ones; an error message naming the unknown test
// and the available ones when a name is not the backend's.
struct TestSelection {
    std::vector<std::string> tests;
    std::string error;
};
TestSelection select_tests(const std::vector<TestInfo>& available,
                           const std::vector<std::string>& requested);

// Prints the backend's tests as "test" events.
void list_tests(std::string_view backend, const std::vector<TestInfo>& tests, EventSink& sink);

// Runs the selected tests and emits start ... done. Returns ExitCode::ok or ExitCode::test_failed.
ExitCode run_probe(Backend& backend, const Options& options, const std::vector<std::string>& tests,
                   EventSink& sink);

// "2026-11-30T05:08:38Z"
std::string iso8601_utc_now();
std::string host_name();

}  // namespace tally::probe
