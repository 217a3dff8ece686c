#pragma once

// From the probe's events (gpu_probe/probe_protocol.h) to the workspace's rows
// (planner/workspace.h). Qt-free: the saver, the CLI and the tests share one mapping.

#include <string>

#include "probe_protocol.h"
#include "workspace.h"

namespace tally::ui {

// A run row with status running and no results: backend, host and started_at from the start
// event, device_json the device event as the probe wrote it ("{}" when there is none).
ProbeRunRecord probeRunRecord(const probe::StartEvent& start, const probe::DeviceEvent* device);

// One result row. The test name folds in the variant (stored_probe_test_name() in
// planner/measured_roofline.h says how); sizes become their JSON object; a figure the probe left
// out stays absent (flops and bytes 0). The event's note has no column and is not kept.
ProbeResultRecord probeResultRecord(const probe::ResultEvent& result);

// A whole run as the workspace would store it, with its results (ids 0) and `status`;
// finished_at from the done event, else `finishedAt`. Lets a view draw a run that is not saved.
ProbeRunRecord probeRunRecord(const probe::ProbeRun& run, ProbeRunStatus status,
                              const std::string& finishedAt);

// The workspace status of a run that ended: ok only when the probe finished it and no result
// failed (done status ok); a run that failed a test, crashed, hung or was cancelled is failed.
ProbeRunStatus probeRunStatus(const probe::ProbeRun& run, bool endedNormally);

}  // namespace tally::ui
