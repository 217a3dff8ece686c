#pragma once

// Probe records: what one run of tally-probe measured, as the workspace stores it and every view
// reads it. This module owns the meaning of a result: the record types, the mapping from the
// probe's events (gpu_probe/probe_protocol.h) to records, the names of the tests and their
// variants, which results count as measurements, the best matmul per dtype and the best device
// memory bandwidth of a run, the decoding of the stored device event, and the one JSON shape of
// a result that `tally probe --json` and `tally probes show --json` print
// (gpu_probe/protocol/PROTOCOL.md, "Results in the app"). The measured roofline
// (measured_roofline.h) and measured profiles (user_profiles.h) are built on it. No storage here:
// the workspace (planner/store/) keeps these records in SQLite.

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/core/dtype.h"

namespace tally {

// ---- records ------------------------------------------------------------------------------------

// The probe's JSON lines protocol (gpu_probe/): a run is {"event":"start",...}, {"event":"device",
// ...}, one {"event":"result",...} per test, and {"event":"done","status":"ok"|"failed",...}.
enum class ProbeRunStatus { running, ok, failed };  // running: no "done" event (yet)
enum class ProbeResultStatus { passed, waived, failed };
std::string_view to_string(ProbeRunStatus status);
std::string_view to_string(ProbeResultStatus status);
std::optional<ProbeRunStatus> parse_probe_run_status(std::string_view text);
std::optional<ProbeResultStatus> parse_probe_result_status(std::string_view text);

// One "result" event. Timings are absent for tests that did not run (waived, some failures).
// A case is identified by test, variant, dtype and sizes (gpu_probe/protocol/PROTOCOL.md).
struct ProbeResultRecord {
    std::int64_t id = 0;            // assigned by the workspace (0: not saved)
    std::string test;               // the probe's test: "matmul", "memory_bandwidth", "relu", ...
    std::string variant;            // "cublaslt", "copy", "tensor_core", ...; empty when none
    std::string dtype;              // "bf16", "fp32", ...
    std::string sizes_json = "{}";  // the event's "sizes" object, e.g. {"m":8192,"n":8192,"k":8192}
    double flops = 0.0;             // work of one sample (0: not counted)
    double bytes = 0.0;             // bytes moved by one sample (0: not counted)
    std::optional<double> flops_per_s;
    std::optional<double> bytes_per_s;
    // Collectives: bus bandwidth (nccl-tests, doc/PERFORMANCE.md); absent for other tests.
    std::optional<double> bus_bytes_per_s;
    std::optional<double> median_s;
    std::optional<double> min_s;
    std::optional<double> max_s;
    std::optional<double> stdrel;  // relative standard deviation of the samples
    std::int64_t samples = 0;
    ProbeResultStatus status = ProbeResultStatus::passed;
    bool validated = false;  // the output was checked against a reference
    std::string reason;      // why waived or failed

    bool operator==(const ProbeResultRecord&) const = default;
};

struct ProbeRunRecord {
    std::int64_t id = 0;  // assigned by the workspace
    std::string backend;  // "cuda", "cpu"
    std::string host;
    std::string device_json = "{}";  // the "device" event as the probe sent it
    std::string started_at;          // as the probe wrote it (ISO 8601)
    std::string finished_at;         // empty while running
    ProbeRunStatus status = ProbeRunStatus::running;
    // A run imported from a file: "fnv1a64:<16 hex digits>" of the file's bytes, which finds
    // the same file imported twice; empty for a run saved as it was measured.
    std::string content_digest;
    std::vector<ProbeResultRecord> results;

    bool operator==(const ProbeRunRecord&) const = default;
};

// ---- from the probe's events --------------------------------------------------------------------

// A run record with status running and no results: backend, host and started_at from the start
// event, device_json the device event as the probe wrote it ("{}" when there is none).
ProbeRunRecord probe_run_record(const probe::StartEvent& start, const probe::DeviceEvent* device);

// One result record: sizes become their JSON object; a figure the probe left out stays absent
// (flops and bytes 0). The event's note has no column and is not kept.
ProbeResultRecord probe_result_record(const probe::ResultEvent& result);

// A whole run as the workspace would store it, with its results (ids 0) and `status`;
// finished_at from the done event, else `finished_at`. Lets a view draw a run that is not saved.
ProbeRunRecord probe_run_record(const probe::ProbeRun& run, ProbeRunStatus status,
                                const std::string& finished_at);

// The status of a run that ended: ok only when the probe finished it and no result failed (done
// status ok); a run that failed a test, crashed, hung or was cancelled is failed.
ProbeRunStatus probe_run_status(const probe::ProbeRun& run, bool ended_normally);

// ---- tests and variants -------------------------------------------------------------------------

// `stream` (CPU) or `memory_bandwidth` (CUDA): the tests whose variants are access patterns
// (copy, read, write, scale, add, triad; gpu_probe/protocol/PROTOCOL.md, "Tests").
bool is_memory_bandwidth_test(std::string_view test);
// A device-memory bandwidth result a profile takes its bandwidth from: the copy or read pattern
// of a memory-bandwidth test.
bool is_device_bandwidth_result(const ProbeResultRecord& result);

// The short name of a case, as tables, chart labels and measured figures show it:
//   - a memory-bandwidth test is named by its access pattern ("copy", "read", ..., "triad"); the
//     run's backend says which test it was (stream is CPU-only, memory_bandwidth CUDA-only);
//   - `matmul` stays "matmul": its variant is the library (blas on the CPU, cublaslt on CUDA),
//     one per backend;
//   - every other test with a variant is "test.variant" ("intensity_sweep.tensor_core",
//     "timing_lesson.host_clock_no_sync", "host_device_copy.h2d_pinned"), without one "test".
std::string probe_case_name(std::string_view test, std::string_view variant);
std::string probe_case_name(const ProbeResultRecord& result);

// The dtype family a probe dtype name computes in ("fp8_e4m3" -> fp8, "fp32" -> fp32); nullopt
// for names that are not a compute type ("u32").
std::optional<ComputeType> probe_compute_type(std::string_view dtype);

// ---- what counts --------------------------------------------------------------------------------

// A result that measured something: passed, and its output checked against a reference.
bool is_usable(const ProbeResultRecord& result);

// The best usable results of a run: per dtype family the matmul with the highest FLOP/s, and the
// device-memory bandwidth (copy or read) with the highest bytes/s. The first of equals wins.
// Pointers into the run's results (null: none).
struct BestProbeResults {
    std::array<const ProbeResultRecord*, kComputeTypeCount> matmul{};
    const ProbeResultRecord* memory = nullptr;

    const ProbeResultRecord* matmul_of(ComputeType type) const {
        return matmul[static_cast<std::size_t>(type)];
    }
    bool any_matmul() const;
};
BestProbeResults best_probe_results(const ProbeRunRecord& run);

// The collective results a profile's network figures come from: the usable result with the
// highest bus bandwidth among the all-reduces (what data-parallel training runs; among any
// collective when the run has no all-reduce), of ranks on one host (intra_node: the scale-up
// fabric, NVLink or PCIe) and of ranks spread over several hosts (inter_node: the scale-out
// network). Ranks and hosts come from the result's sizes ("ranks", "nodes"); a result without
// them, or of one rank, counts for neither.
struct BestNetworkResults {
    const ProbeResultRecord* intra_node = nullptr;
    const ProbeResultRecord* inter_node = nullptr;
};
BestNetworkResults best_network_results(const ProbeRunRecord& run);
// The "ranks" and "nodes" of a collective result's sizes; 0 when absent.
std::int64_t collective_ranks(const ProbeResultRecord& result);
std::int64_t collective_nodes(const ProbeResultRecord& result);

// ---- the device ---------------------------------------------------------------------------------

// The stored device event decoded: nullopt when it is not a valid device event line (a run that
// had none stores "{}").
std::optional<probe::DeviceEvent> stored_device(const ProbeRunRecord& run);
// The stored device as JSON: its object, or its text as a JSON string when it does not parse.
nlohmann::json stored_device_json(const ProbeRunRecord& run);
// The device's "name" and "memory_bytes" fields, read from any stored object (also one that is
// not a complete device event); nullopt when absent or of another type.
std::optional<std::string> stored_device_name(const ProbeRunRecord& run);
std::optional<double> stored_device_memory_bytes(const ProbeRunRecord& run);

// ---- JSON ---------------------------------------------------------------------------------------

// The one JSON shape of a result (gpu_probe/protocol/PROTOCOL.md, "Results in the app"):
//   result_id (null: not saved), test, variant ("": none), dtype, sizes (object), flops, bytes
//   (null: not counted), intensity_flops_per_byte (flops / bytes; null unless both counted),
//   flops_per_s, bytes_per_s, bus_bytes_per_s, median_s, min_s, max_s, stdrel (null: absent),
//   samples, status, validated, reason.
nlohmann::json probe_result_json(const ProbeResultRecord& result);

}  // namespace tally
