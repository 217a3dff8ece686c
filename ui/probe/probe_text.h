#pragma once

// The words and numbers the Probe panel and the roofline's measured overlay show: a device in one
// line, a run in one line, a result's sizes, the tooltips of measured roofs and points. Not a
// widget: the panels draw these, the tests read them.

#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/probe_records.h"
#include "planner/roofline/measured_roofline.h"

namespace tally::ui {

// One line about the measured device: "NVIDIA H100 80GB HBM3 · 85.0 GB · compute capability 9.0 ·
// 132 SMs · driver 13.0"; a CPU: "AMD EPYC 7B13 · 2 cores, 2 threads · 8.33 GB · avx2+fma · ...".
QString deviceDescription(const probe::DeviceEvent& device);

// A sizes object ({"m":1024,"n":1024}) as "m=1024 n=1024"; "-" when empty.
QString sizesText(const std::string& sizes_json);

// A stored run in one line: "#3 · 2026-01-02 03:04:05 · cpu · Fake CPU · ok · 2 results".
QString probeRunTitle(const ProbeRunRecord& run);
// The run's status as a word ("running", "ok", "failed").
QString probeRunStatusText(ProbeRunStatus status);
QString probeResultStatusText(ProbeResultStatus status);

// The label of a measured point on the roofline: the seed operations and STREAM kernels by their
// test ("relu", "triad"), a matmul with its dtype ("matmul bf16"), a sweep by its variant
// ("sweep simd_fma").
QString measuredPointLabel(const MeasuredPoint& point);
// Which points get a label: every seed op, STREAM kernel and other point, and of the matmuls and
// each sweep only the fastest (per dtype, per sweep); the rest are told apart by their tooltips.
std::vector<std::size_t> labelledMeasuredPoints(const MeasuredRoofline& measured);

// Tooltips: what was measured, where it lands, and its fractions of `promised` (null: none).
QString measuredPointTip(const MeasuredPoint& point, const HardwareProfile* promised);
// A measured roof: the matmul peak of `type` (if measured) under the measured bandwidth (if
// measured), each with its fraction of `promised`.
QString measuredRoofTip(const MeasuredRoofline& measured, ComputeType type,
                        const HardwareProfile* promised);
QString measuredBandwidthTip(const MeasuredRoofline& measured, const HardwareProfile* promised);

}  // namespace tally::ui
