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

// One GEMM the gemm_shapes test measures: `count` independent products of an m x k by a k x n
// matrix in `dtype` (the m x n output over k). Written "DTYPE:MxNxK" or "DTYPE:MxNxKxCOUNT".
struct GemmShape {
    std::string dtype;  // one of kGemmShapeDtypes
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::int64_t count = 1;
    bool operator==(const GemmShape&) const = default;
};
// The dtypes a shape may name; a backend measures those it can and waives the others.
inline constexpr std::string_view kGemmShapeDtypes[] = {"fp64", "fp32", "tf32",
                                                        "bf16", "fp16", "fp8_e4m3"};
// The largest m, n, k and count a shape may give (2^24: a BLAS's 32-bit leading dimensions and
// any real layer's sizes fit).
inline constexpr std::int64_t kMaxGemmDimension = std::int64_t{1} << 24;

struct ParsedGemmShapes {
    std::vector<GemmShape> shapes;
    std::string error;  // names the option, the value and what is allowed; empty when valid
};
// Parses "--gemm-shapes"'s comma-separated list.
ParsedGemmShapes parse_gemm_shapes(std::string_view text);
// "fp32:4096x1024x512" or "bf16:2048x2048x128x32": the form parse_gemm_shapes reads.
std::string gemm_shape_text(const GemmShape& shape);

struct Options {
    // "cuda", "cpu", "nccl" or "tcp"; empty: cuda when usable, else cpu
    std::optional<std::string> backend;
    bool quick = false;
    bool list = false;
    bool help = false;
    bool version = false;
    bool l2_flush = false;
    std::vector<std::string> tests;  // empty: all tests of the backend
    // The GEMMs the gemm_shapes test measures; empty: its default sweep.
    std::vector<GemmShape> gemm_shapes;
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
