#pragma once

// Probe runs recorded elsewhere, read from a file into run records the workspace imports:
//   - tally-probe's JSON lines (gpu_probe/protocol/PROTOCOL.md), e.g. `ssh gpu tally-probe >
//   run.jsonl`
//     or the output of a Slurm job;
//   - the text output of nccl-tests (all_reduce_perf, all_gather_perf, reduce_scatter_perf,
//     alltoall_perf, sendrecv_perf): every row becomes an out-of-place and an in-place result.
// A file is taken whole or not at all: the first thing wrong throws SpecError naming the file,
// the line and what is wrong.

#include <optional>
#include <string>
#include <string_view>

#include "planner/hardware/probe_records.h"

namespace tally {

enum class ProbeFileFormat { tally_probe, nccl_tests };
std::string_view to_string(ProbeFileFormat format);
std::optional<ProbeFileFormat> parse_probe_file_format(std::string_view name);

// Which format `text` is in: JSON lines when its first non-blank line starts with '{', nccl-tests
// when it has nccl-tests' column header. Throws SpecError naming `file` otherwise.
ProbeFileFormat detect_probe_file_format(std::string_view text, const std::string& file);

// "fnv1a64:" and the 64-bit FNV-1a hash of `bytes` in 16 hex digits: tells a file imported
// twice (not a security measure; a collision only makes an import refused as a repeat).
std::string probe_content_digest(std::string_view bytes);

// A tally-probe run from its JSON lines. Blank lines and events of a newer protocol are
// skipped; a line that is not a valid event, an event out of order (before start, after done, a
// second start or done) and done counts that disagree with the results are refused as "FILE line
// N; what". A run without done (the probe stopped, a job killed) is taken as failed with the
// results that arrived, as a live run that crashed is stored, and `ended_without_done` (when
// given) says so; without any result it is refused. Runs of --list, and complete runs without any
// result, are refused too.
ProbeRunRecord probe_run_from_json_lines(std::string_view text, const std::string& file,
                                         bool* ended_without_done = nullptr);

// One nccl-tests log (or several tests' logs one after another). The collective comes from the
// "# Collective test starting: NAME_perf" line, else from `collective` (a test name such as
// "all_reduce", or empty), else from the file name. Ranks and hosts from the "#  Rank ..." lines.
// `imported_at` (ISO 8601) stands for the start and end time, which the log does not print.
// nccl-tests ends each test with its summary ("# Avg bus bandwidth : X"); a test whose rows are
// not followed by it was stopped or cut short (the largest sizes are missing): the run is taken
// as failed with the rows that arrived, and `ended_without_summary` (when given) says so.
ProbeRunRecord probe_run_from_nccl_tests(std::string_view text, const std::string& file,
                                         const std::string& collective,
                                         const std::string& imported_at,
                                         bool* ended_without_summary = nullptr);

}  // namespace tally
