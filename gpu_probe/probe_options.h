#pragma once
// Command-line options of tally-probe and its exit statuses (PROTOCOL.md, "Exit status").

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_probe/probe_stats.h"

namespace tally::probe {

enum class ExitCode : int {
    ok = 0,                   // every test passed or was waived
    test_failed = 1,          // at least one result failed (or an unexpected internal error)
    bad_arguments = 2,        // unknown option, bad value, unknown test name
    backend_unavailable = 3,  // no such backend in this build, or no device for it
};

inline constexpr std::uint64_t kDefaultSeed = 0x7A11E5EEDull;

struct Options {
    // "cuda", "cpu", "nccl" or "tcp"; empty: cuda when usable, else cpu
    std::optional<std::string> backend;
    bool quick = false;
    bool list = false;
    bool help = false;
    bool version = false;
    bool l2_flush = false;
    std::vector<std::string> tests;  // empty: all tests of the backend
    int device = 0;
    std::optional<double> time_limit_s;   // per measured case
    std::optional<double> target_stdrel;  // noise at which sampling may stop
    std::optional<std::string> inject_fault;
    std::uint64_t seed = kDefaultSeed;
    // Cluster backends (nccl, tcp): where the ranks meet (probe_cluster.h) and how long rank 0
    // waits for them.
    std::string bootstrap_file;
    std::string bootstrap_address;  // HOST:PORT
    double bootstrap_timeout_s = 120.0;
};

struct ParsedOptions {
    Options options;
    std::string error;  // empty when the arguments were valid
};

// Parses the arguments after the program name. Accepts "--name value" and "--name=value".
ParsedOptions parse_options(std::span<const std::string_view> args);

std::string usage_text();

// The sampling rule for these options: --quick takes few samples and stops early.
StopCriterion stop_criterion(const Options& options);

}  // namespace tally::probe
