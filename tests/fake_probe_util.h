#pragma once

// Fake tally-probes for the tests of the app's side of the probe (tst_probe_runner, tst_ui_probe):
// bash scripts that print canned protocol lines (gpu_probe/protocol/PROTOCOL.md) and then exit,
// crash or hang as told. They cover what a real probe does rarely or only on a GPU.
#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>
#include <string>
#include <vector>

#include "gpu_probe/protocol/probe_protocol.h"

namespace tally::test {

// A stand-in for Slurm's srun: starts the ranks as srun would, -n N, or -N NODES
// --ntasks-per-node K (K ranks per "node", each node's ranks told their host by
// TALLY_PROBE_HOST); every rank's stdout is the script's. Exits with the highest status of the
// ranks.
inline constexpr const char* kFakeSrun = R"(#!/bin/bash
n=1; nodes=1; per=0
while [[ "$1" == -* ]]; do
  case "$1" in
    -n|--ntasks) n=$2; shift 2;;
    -N|--nodes) nodes=$2; shift 2;;
    --ntasks-per-node) per=$2; shift 2;;
    --gpus-per-node) shift 2;;
    *) shift;;
  esac
done
if [ "$per" -gt 0 ]; then n=$((nodes * per)); else per=$(( (n + nodes - 1) / nodes )); fi
pids=()
for ((i = 0; i < n; i++)); do
  SLURM_PROCID=$i SLURM_NTASKS=$n SLURM_STEP_NUM_TASKS=$n SLURM_LOCALID=$((i % per)) \
    TALLY_PROBE_HOST=node$((i / per)) "$@" &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do
  wait "$p"; s=$?
  if [ "$s" -gt "$status" ]; then status=$s; fi
done
exit $status
)";

// ---- canned protocol lines ----------------------------------------------------------------------

// A quick run on `backend` that says it will run `tests`, started 2026-01-02T03:04:05Z.
inline std::string startLine(const std::string& backend,
                             const std::vector<std::string>& tests = {}) {
    probe::StartEvent s;
    s.backend = backend;
    s.host = "fake-host";
    s.started_at = "2026-01-02T03:04:05Z";
    s.quick = true;
    s.tests = tests;
    return probe::to_json_line(s);
}

// "cuda": an H100 SXM as the CUDA backend describes it; otherwise a small fake CPU.
inline std::string deviceLine(const std::string& backend) {
    probe::DeviceEvent d;
    d.backend = backend;
    if (backend == "cuda") {
        d.name = "NVIDIA H100 80GB HBM3";
        d.memory_bytes = 80000000000;
        d.compute_capability = "9.0";
        d.sm_count = 132;
    } else {
        d.name = "Fake CPU";
        d.memory_bytes = 1000000000;
        d.cores = 2;
        d.threads = 2;
    }
    return probe::to_json_line(d);
}

// Test `index` of `total` begins.
inline std::string progressLine(const std::string& test, int index, int total) {
    return probe::to_json_line(probe::ProgressEvent{test, index, total, "running " + test});
}

// A passed, validated result of `test` whose median time is `median_s`, with a tight spread
// (20 samples, 0.4 % relative deviation); the caller adds sizes, FLOPs, bytes and rates.
inline probe::ResultEvent passedResult(const std::string& test, const std::string& variant,
                                       const std::string& dtype, double median_s) {
    probe::ResultEvent r;
    r.test = test;
    r.variant = variant;
    r.dtype = dtype;
    r.median_s = median_s;
    r.min_s = median_s * 0.99;
    r.max_s = median_s * 1.02;
    r.mean_s = median_s;
    r.stdrel = 0.004;
    r.samples = 20;
    r.stop_reason = "noise";
    r.status = probe::ResultStatus::passed;
    r.validated = true;
    return r;
}

// relu over 1e6 fp32 values in 1 ms: 1e6 FLOPs (one per element), 8e6 bytes (fp32 in and out),
// so 1e9 FLOP/s, 8e9 bytes/s and an intensity of 1/8 FLOP/byte. A failed one says why. `test`
// names it otherwise (the runner's fake runs report these figures for dot as well).
inline probe::ResultEvent reluResult(probe::ResultStatus status = probe::ResultStatus::passed,
                                     const std::string& test = "relu") {
    probe::ResultEvent r = passedResult(test, "", "fp32", 1e-3);
    r.sizes = {{"elements", 1000000}};
    r.flops = 1e6;
    r.bytes = 8e6;
    r.intensity_flops_per_byte = 0.125;
    r.flops_per_s = 1e9;
    r.bytes_per_s = 8e9;
    r.status = status;
    r.validated = status == probe::ResultStatus::passed;
    if (status == probe::ResultStatus::failed) {
        r.reason = "3 elements differ, first at index 7";
    }
    return r;
}

// The run ends at 2026-01-02T03:04:09Z, 4 s after startLine()'s start.
inline std::string doneLine(int passedCount, int failedCount) {
    probe::DoneEvent d;
    d.status = failedCount > 0 ? probe::RunStatus::failed : probe::RunStatus::ok;
    d.finished_at = "2026-01-02T03:04:09Z";
    d.passed = passedCount;
    d.failed = failedCount;
    d.elapsed_s = 4.0;
    return probe::to_json_line(d);
}

// The one fatal error line a probe without a GPU answers --backend cuda with (exit status 3).
inline std::string noCudaLine() {
    return probe::to_json_line(probe::ErrorEvent{
        "no CUDA device: cudaGetDeviceCount returned cudaErrorNoDevice", "", true, 3});
}

// ---- scripts ------------------------------------------------------------------------------------

// Bash that prints `lines`, each with its newline, through a here-document ended by `tag`.
inline QByteArray catLines(const std::vector<std::string>& lines,
                           const QByteArray& tag = "PROBE_EOF") {
    QByteArray text = "cat <<'" + tag + "'\n";
    for (const std::string& line : lines) {
        text += QByteArray::fromStdString(line) + '\n';
    }
    return text + tag + '\n';
}

// What a fake probe does besides printing its lines.
struct FakeProbeOptions {
    // Every member has a default initializer, so a designated initializer may leave any out
    // (without one, GCC's -Wmissing-field-initializers warns).
    QByteArray first{};        // bash run before anything else (e.g. `trap '' TERM`)
    bool refusesCuda = false;  // --backend cuda is answered with noCudaLine() and exit 3
    QString argsFile{};        // if set, the arguments are written there, one a line
};

// A fake tally-probe: --list prints two tests, relu and dot, and exits 0 (after a refusal of
// --backend cuda, with `refusesCuda`). Their backend is the one asked for, or without --backend
// the one the real probe would pick: cuda, or cpu when it `refusesCuda`. Otherwise it prints
// `lines` and then runs `then`.
inline QByteArray fakeProbe(const std::vector<std::string>& lines, const QByteArray& then,
                            const FakeProbeOptions& options = {}) {
    QByteArray text = "#!/bin/bash\n" + options.first + '\n';
    if (options.refusesCuda) {
        text += "if [[ \" $* \" == *\" --backend cuda \"* ]]; then\n  echo '" +
                QByteArray::fromStdString(noCudaLine()) + "'\n  exit 3\nfi\n";
    }
    const auto listing = [](const std::string& backend) {
        std::vector<std::string> listed;
        for (const char* name : {"relu", "dot"}) {
            listed.push_back(
                probe::to_json_line(probe::TestEvent{name, backend, "the fake's test"}));
        }
        return catLines(listed, "LIST_EOF");
    };
    const std::string unasked = options.refusesCuda ? "cpu" : "cuda";
    text += "if [[ \" $* \" == *\" --list \"* ]]; then\n";
    text += "  if [[ \" $* \" == *\" --backend cpu \"* ]]; then\n" + listing("cpu") +
            "  exit 0\n  fi\n";
    text += "  if [[ \" $* \" == *\" --backend cuda \"* ]]; then\n" + listing("cuda") +
            "  exit 0\n  fi\n";
    text += listing(unasked) + "  exit 0\nfi\n";
    if (!options.argsFile.isEmpty()) {
        text += "printf '%s\\n' \"$@\" > '" + options.argsFile.toUtf8() + "'\n";
    }
    return text + catLines(lines) + then + '\n';
}

// Writes `text` as an executable script (fake-probe-N.sh, a new N each time) into `dir`; returns
// its path.
inline QString writeProbe(const QTemporaryDir& dir, const QByteArray& text) {
    QString path;
    for (int n = 1; path.isEmpty() || QFileInfo::exists(path); ++n) {
        path = dir.filePath(QStringLiteral("fake-probe-%1.sh").arg(n));
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) {
        qFatal("cannot write %s", qPrintable(path));
    }
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

}  // namespace tally::test
