#pragma once
// The tally-probe wire protocol: one JSON object per line on the probe's standard output.
// See PROTOCOL.md beside this file for the contract; this header is its C++ form.
//
// Qt-free and planner-free on purpose: the probe itself writes events with `to_json_line`, and
// the app and the SQLite workspace read them with `parse_line` (or `LineSplitter` +
// `RunCollector` for a live child process), so both sides share one set of keys and types.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tally_version.h"

namespace tally::probe {

// Bumped only for changes that break an existing reader; new fields never bump it.
inline constexpr int kProtocolVersion = 1;
inline constexpr std::string_view kToolName = "tally-probe";
inline constexpr std::string_view kToolVersion = TALLY_VERSION;

// JSON keys as named constants (nvbandwidth's json_output.cpp does the same), used by the writer
// and the parser alike.
namespace key {
inline constexpr char event[] = "event";
inline constexpr char protocol[] = "protocol";
inline constexpr char tool[] = "tool";
inline constexpr char version[] = "version";
inline constexpr char backend[] = "backend";
inline constexpr char host[] = "host";
inline constexpr char started_at[] = "started_at";
inline constexpr char finished_at[] = "finished_at";
inline constexpr char quick[] = "quick";
inline constexpr char tests[] = "tests";
inline constexpr char time_limit_s[] = "time_limit_s";
inline constexpr char l2_flush[] = "l2_flush";
inline constexpr char inject_fault[] = "inject_fault";
inline constexpr char seed[] = "seed";
inline constexpr char name[] = "name";
inline constexpr char description[] = "description";
inline constexpr char index[] = "index";
inline constexpr char memory_bytes[] = "memory_bytes";
inline constexpr char compute_capability[] = "compute_capability";
inline constexpr char sm_count[] = "sm_count";
inline constexpr char clock_mhz[] = "clock_mhz";
inline constexpr char memory_clock_mhz[] = "memory_clock_mhz";
inline constexpr char memory_bus_width_bits[] = "memory_bus_width_bits";
inline constexpr char l2_bytes[] = "l2_bytes";
inline constexpr char driver_version[] = "driver_version";
inline constexpr char runtime_version[] = "runtime_version";
inline constexpr char cores[] = "cores";
inline constexpr char threads[] = "threads";
inline constexpr char llc_bytes[] = "llc_bytes";
inline constexpr char blas[] = "blas";
inline constexpr char simd[] = "simd";
inline constexpr char ranks[] = "ranks";
inline constexpr char nodes[] = "nodes";
inline constexpr char test[] = "test";
inline constexpr char total[] = "total";
inline constexpr char message[] = "message";
inline constexpr char variant[] = "variant";
inline constexpr char dtype[] = "dtype";
inline constexpr char sizes[] = "sizes";
inline constexpr char flops[] = "flops";
inline constexpr char bytes[] = "bytes";
inline constexpr char intensity_flops_per_byte[] = "intensity_flops_per_byte";
inline constexpr char flops_per_s[] = "flops_per_s";
inline constexpr char bytes_per_s[] = "bytes_per_s";
inline constexpr char bus_bytes_per_s[] = "bus_bytes_per_s";
inline constexpr char median_s[] = "median_s";
inline constexpr char min_s[] = "min_s";
inline constexpr char max_s[] = "max_s";
inline constexpr char mean_s[] = "mean_s";
inline constexpr char stdrel[] = "stdrel";
inline constexpr char samples[] = "samples";
inline constexpr char stop_reason[] = "stop_reason";
inline constexpr char status[] = "status";
inline constexpr char validated[] = "validated";
inline constexpr char reason[] = "reason";
inline constexpr char note[] = "note";
inline constexpr char fatal[] = "fatal";
inline constexpr char exit_code[] = "exit_code";
inline constexpr char passed[] = "passed";
inline constexpr char waived[] = "waived";
inline constexpr char failed[] = "failed";
inline constexpr char elapsed_s[] = "elapsed_s";
}  // namespace key

// The values of the "event" key.
namespace event_name {
inline constexpr std::string_view start = "start";
inline constexpr std::string_view device = "device";
inline constexpr std::string_view test = "test";
inline constexpr std::string_view progress = "progress";
inline constexpr std::string_view result = "result";
inline constexpr std::string_view error = "error";
inline constexpr std::string_view done = "done";
}  // namespace event_name

// First line of a run: who, where, when, with which options.
struct StartEvent {
    int protocol = kProtocolVersion;
    std::string tool{kToolName};
    std::string version{kToolVersion};
    std::string backend;     // "cuda" or "cpu"
    std::string host;        // hostname
    std::string started_at;  // ISO-8601 UTC, e.g. "2026-11-30T05:08:38Z"
    bool quick = false;
    std::vector<std::string> tests;      // the tests this run will execute, in order
    std::optional<double> time_limit_s;  // per measured case
    bool l2_flush = false;
    std::optional<std::string> inject_fault;  // test whose output is corrupted on purpose
    std::optional<std::uint64_t> seed;        // seed of the validation patterns
};

// The measured machine. CUDA fills the GPU fields, the CPU backend the CPU fields.
struct DeviceEvent {
    std::string backend;
    std::string name;
    std::optional<int> index;  // CUDA device ordinal
    std::optional<std::int64_t> memory_bytes;
    // CUDA
    std::optional<std::string> compute_capability;  // "9.0"
    std::optional<int> sm_count;
    std::optional<double> clock_mhz;
    std::optional<double> memory_clock_mhz;
    std::optional<int> memory_bus_width_bits;
    std::optional<std::int64_t> l2_bytes;
    std::optional<std::string> driver_version;   // "13.0"
    std::optional<std::string> runtime_version;  // "13.0"
    // CPU
    std::optional<int> cores;    // physical cores
    std::optional<int> threads;  // hardware threads used by the probe
    std::optional<std::int64_t> llc_bytes;
    std::optional<std::string> blas;  // "OpenBLAS 0.3.21 ..."
    std::optional<std::string> simd;  // vector instruction set the kernels run with
    // Collectives (nccl, tcp): how many ranks took part, on how many hosts.
    std::optional<int> ranks;
    std::optional<int> nodes;
};

// One available test, printed by `--list`.
struct TestEvent {
    std::string name;
    std::string backend;
    std::string description;
};

struct ProgressEvent {
    std::string test;
    int index = 0;  // 1-based position of the test in this run
    int total = 0;  // number of tests in this run
    std::string message;
};

enum class ResultStatus { passed, waived, failed };

// One measured case. Timing and rate fields are absent when nothing was measured (a waived case,
// or a case that failed before timing).
struct ResultEvent {
    std::string test;     // "matmul"
    std::string variant;  // "triad", "tensor_core", "pinned_h2d", ...; may be empty
    std::string dtype;    // "fp32", "bf16", "fp8_e4m3", "u32", ...; may be empty
    std::map<std::string, std::int64_t> sizes;  // {"m":8192,"k":8192,"n":8192}
    std::optional<double> flops;                // work of one sample
    std::optional<double> bytes;                // bytes moved by one sample
    std::optional<double> intensity_flops_per_byte;
    std::optional<double> flops_per_s;  // flops / median_s
    std::optional<double> bytes_per_s;  // bytes / median_s
    // Collectives: the bus bandwidth, bytes_per_s (the algorithm bandwidth) times the
    // collective's correction factor (nccl-tests, doc/PERFORMANCE.md).
    std::optional<double> bus_bytes_per_s;
    std::optional<double> median_s;
    std::optional<double> min_s;
    std::optional<double> max_s;
    std::optional<double> mean_s;
    std::optional<double> stdrel;  // standard deviation / mean of the samples
    int samples = 0;
    std::string stop_reason;  // "noise", "time_limit", "max_samples"; empty when not measured
    ResultStatus status = ResultStatus::passed;
    bool validated = false;
    std::string reason;  // why waived, failed or not validated
    std::string note;    // anything a reader should know about the figure
};

struct ErrorEvent {
    std::string message;
    std::string test;              // empty when not about one test
    bool fatal = false;            // the run stops after a fatal error
    std::optional<int> exit_code;  // set on fatal errors: the probe's exit status
};

enum class RunStatus { ok, failed };

// Last line of a run.
struct DoneEvent {
    RunStatus status = RunStatus::ok;
    std::string finished_at;
    int passed = 0;
    int waived = 0;
    int failed = 0;
    std::optional<double> elapsed_s;
};

using Event = std::variant<StartEvent, DeviceEvent, TestEvent, ProgressEvent, ResultEvent,
                           ErrorEvent, DoneEvent>;

std::string_view to_string(ResultStatus status);
std::optional<ResultStatus> result_status_from_string(std::string_view text);
std::string_view to_string(RunStatus status);

// One event as one line of JSON, without the trailing newline. Absent optionals are left out.
std::string to_json_line(const Event& event);

// The outcome of reading one line.
struct ParsedLine {
    enum class Kind {
        event,    // `event` holds a valid event
        ignored,  // nothing to do (blank line, unknown event); `message` says why
        invalid,  // not a valid event; `message` says what is wrong, naming the field
    };
    Kind kind = Kind::invalid;
    std::optional<Event> event;
    std::string message;
};

// Parses one line (with or without its trailing newline). Never throws: truncated or malformed
// JSON, missing fields, wrong types, non-finite or negative numbers and unsupported protocol
// versions come back as Kind::invalid with a reason; unknown event names as Kind::ignored.
ParsedLine parse_line(std::string_view line);

// Splits a byte stream (e.g. a child process's stdout read in chunks) into complete lines.
class LineSplitter {
public:
    // Returns the lines completed by `bytes`, without their "\n" or "\r\n".
    std::vector<std::string> feed(std::string_view bytes);
    // At end of stream: the unterminated tail, if any (a truncated last line).
    std::optional<std::string> finish();

private:
    std::string m_pending;
};

// Everything one run reported, gathered from its lines in order.
struct ProbeRun {
    std::optional<StartEvent> start;
    std::vector<DeviceEvent> devices;
    std::vector<TestEvent> tests;  // from --list
    std::vector<ProgressEvent> progress;
    std::vector<ResultEvent> results;
    std::vector<ErrorEvent> errors;
    std::optional<DoneEvent> done;
    std::vector<std::string> notes;  // ignored and invalid lines, "line N: reason"

    // A run is complete when it started and reported done.
    bool complete() const { return start.has_value() && done.has_value(); }
};

// Feeds parsed lines into a ProbeRun and notes what does not fit (lines before start, a second
// start, events after done, done counts that disagree with the results seen).
class RunCollector {
public:
    void add_line(std::string_view line);
    void add(const ParsedLine& parsed);
    // Call at end of stream; notes a missing done event. Returns the run.
    const ProbeRun& finish();
    const ProbeRun& run() const { return m_run; }

private:
    void note(std::string text);
    ProbeRun m_run;
    std::size_t m_line_number = 0;
};

}  // namespace tally::probe
