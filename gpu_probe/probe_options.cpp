#include "gpu_probe/probe_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace tally::probe {

namespace {

std::vector<std::string> split_list(std::string_view text) {
    std::vector<std::string> items;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        if (end > begin) {
            items.emplace_back(text.substr(begin, end - begin));
        }
        begin = end + 1;
    }
    return items;
}

std::optional<double> to_double(std::string_view text) {
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

template <typename Int>
std::optional<Int> to_integer(std::string_view text) {
    Int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

ParsedGemmShapes parse_gemm_shapes(std::string_view text) {
    ParsedGemmShapes parsed;
    const auto fail = [&](std::string_view item, std::string_view why) {
        parsed.error = fmt::format(
            "--gemm-shapes: '{}' {}; give DTYPE:MxNxK or DTYPE:MxNxKxCOUNT, comma-separated, "
            "with DTYPE one of fp64, fp32, tf32, bf16, fp16, fp8_e4m3 and each size a whole "
            "number from 1 to {} (e.g. fp32:4096x1024x512,bf16:2048x2048x128x32)",
            item, why, kMaxGemmDimension);
        parsed.shapes.clear();
        return parsed;
    };
    const std::vector<std::string> items = split_list(text);
    if (items.empty()) {
        return fail(text, "names no shape");
    }
    for (const std::string& item : items) {
        const auto colon = item.find(':');
        if (colon == std::string::npos) {
            return fail(item, "has no DTYPE: before its sizes");
        }
        GemmShape shape;
        shape.dtype = item.substr(0, colon);
        if (std::find(std::begin(kGemmShapeDtypes), std::end(kGemmShapeDtypes), shape.dtype) ==
            std::end(kGemmShapeDtypes)) {
            return fail(item, fmt::format("has the unknown dtype '{}'", shape.dtype));
        }
        std::vector<std::int64_t> sizes;
        std::string_view rest = std::string_view(item).substr(colon + 1);
        while (true) {
            const auto x = rest.find('x');
            const std::string_view part = rest.substr(0, x);
            const auto value = to_integer<std::int64_t>(part);
            if (!value || *value < 1 || *value > kMaxGemmDimension) {
                return fail(item, fmt::format("has the size '{}'", part));
            }
            sizes.push_back(*value);
            if (x == std::string_view::npos) {
                break;
            }
            rest = rest.substr(x + 1);
        }
        if (sizes.size() != 3 && sizes.size() != 4) {
            return fail(item, fmt::format("gives {} sizes", sizes.size()));
        }
        shape.m = sizes[0];
        shape.n = sizes[1];
        shape.k = sizes[2];
        shape.count = sizes.size() == 4 ? sizes[3] : 1;
        parsed.shapes.push_back(std::move(shape));
    }
    return parsed;
}

std::string gemm_shape_text(const GemmShape& shape) {
    std::string text = fmt::format("{}:{}x{}x{}", shape.dtype, shape.m, shape.n, shape.k);
    if (shape.count != 1) {
        text += fmt::format("x{}", shape.count);
    }
    return text;
}

ParsedOptions parse_options(std::span<const std::string_view> args) {
    ParsedOptions parsed;
    Options& o = parsed.options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        std::optional<std::string_view> inline_value;
        if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
            inline_value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        const auto flag = [&](bool& target) {
            if (inline_value) {
                parsed.error = fmt::format("option {} takes no value", arg);
                return;
            }
            target = true;
        };
        const auto value = [&]() -> std::optional<std::string_view> {
            if (inline_value) {
                return inline_value;
            }
            if (i + 1 >= args.size()) {
                parsed.error = fmt::format("option {} needs a value", arg);
                return std::nullopt;
            }
            return args[++i];
        };

        if (arg == "--help" || arg == "-h") {
            flag(o.help);
        } else if (arg == "--version") {
            flag(o.version);
        } else if (arg == "--quick") {
            flag(o.quick);
        } else if (arg == "--list") {
            flag(o.list);
        } else if (arg == "--l2-flush") {
            flag(o.l2_flush);
        } else if (arg == "--backend") {
            if (const auto v = value()) {
                if (*v != "cuda" && *v != "cpu" && *v != "nccl" && *v != "tcp") {
                    parsed.error =
                        fmt::format("--backend: '{}' is not a backend (cuda, cpu, nccl, tcp)", *v);
                } else {
                    o.backend = std::string(*v);
                }
            }
        } else if (arg == "--tests") {
            if (const auto v = value()) {
                o.tests = split_list(*v);
                if (o.tests.empty()) {
                    parsed.error = "--tests: give at least one test name (see --list)";
                }
            }
        } else if (arg == "--gemm-shapes") {
            if (const auto v = value()) {
                ParsedGemmShapes shapes = parse_gemm_shapes(*v);
                if (!shapes.error.empty()) {
                    parsed.error = std::move(shapes.error);
                } else {
                    o.gemm_shapes = std::move(shapes.shapes);
                }
            }
        } else if (arg == "--device") {
            if (const auto v = value()) {
                const auto device = to_integer<int>(*v);
                if (!device || *device < 0) {
                    parsed.error =
                        fmt::format("--device: '{}' is not a device index (0, 1, ...)", *v);
                } else {
                    o.device = *device;
                }
            }
        } else if (arg == "--time-limit-s") {
            if (const auto v = value()) {
                const auto seconds = to_double(*v);
                if (!seconds || *seconds <= 0.0) {
                    parsed.error =
                        fmt::format("--time-limit-s: '{}' is not a positive number of seconds", *v);
                } else {
                    o.time_limit_s = seconds;
                }
            }
        } else if (arg == "--target-stdrel") {
            if (const auto v = value()) {
                const auto stdrel = to_double(*v);
                if (!stdrel || *stdrel <= 0.0 || *stdrel >= 1.0) {
                    parsed.error = fmt::format(
                        "--target-stdrel: '{}' must be a fraction between 0 and 1 (e.g. 0.01)", *v);
                } else {
                    o.target_stdrel = stdrel;
                }
            }
        } else if (arg == "--inject-fault") {
            if (const auto v = value()) {
                if (v->empty()) {
                    parsed.error = "--inject-fault: give a test name (see --list)";
                } else {
                    o.inject_fault = std::string(*v);
                }
            }
        } else if (arg == "--bootstrap-file") {
            if (const auto v = value()) {
                if (v->empty()) {
                    parsed.error = "--bootstrap-file: give a path every rank can read";
                } else {
                    o.bootstrap_file = std::string(*v);
                }
            }
        } else if (arg == "--bootstrap-address") {
            if (const auto v = value()) {
                o.bootstrap_address = std::string(*v);
            }
        } else if (arg == "--bootstrap-timeout-s") {
            if (const auto v = value()) {
                const auto t = to_double(*v);
                if (!t || *t <= 0.0) {
                    parsed.error = fmt::format(
                        "--bootstrap-timeout-s: '{}' is not a positive number of seconds", *v);
                } else {
                    o.bootstrap_timeout_s = *t;
                }
            }
        } else if (arg == "--seed") {
            if (const auto v = value()) {
                const auto seed = to_integer<std::uint64_t>(*v);
                if (!seed) {
                    parsed.error = fmt::format("--seed: '{}' is not a non-negative integer", *v);
                } else {
                    o.seed = *seed;
                }
            }
        } else {
            parsed.error = fmt::format("unknown option '{}' (see --help)", args[i]);
        }
        if (!parsed.error.empty()) {
            break;
        }
    }
    return parsed;
}

std::string usage_text() {
    return R"(tally-probe: measure the machine it runs on; JSON lines on stdout (see PROTOCOL.md).

Usage: tally-probe [options]

  --backend cuda|cpu|nccl|tcp
                         backend to run (default: cuda when built with it and a device is
                         present, else cpu). nccl: collectives across the ranks a launcher
                         starts (srun, mpirun: one tally-probe per GPU); tcp: the same on CPU
                         ranks over TCP, to try a launch without GPUs
  --quick                small sizes and few samples (a CPU run takes seconds)
  --list                 print the backend's tests as "test" events and exit
  --tests a,b,...        run only these tests, in this order (default: all)
  --gemm-shapes DTYPE:MxNxK[xCOUNT],...
                         the GEMMs the gemm_shapes test measures (default: its sweep of
                         square and skinny shapes); COUNT independent products of an
                         MxK by a KxN matrix, DTYPE fp64, fp32, tf32, bf16, fp16 or fp8_e4m3
  --device N             CUDA device ordinal (default 0)
  --time-limit-s X       wall-clock limit of each measured case, in seconds
                         (default 0.5 with --quick, else 3)
  --target-stdrel X      stop sampling once the relative standard deviation is <= X
                         (default 0.02 with --quick, else 0.005)
  --l2-flush             overwrite a buffer larger than the last-level cache (CPU) or L2 (CUDA)
                         before every sample, so each sample starts with a cold cache
  --inject-fault TEST    corrupt one output element of TEST before validation: its results
                         must come out failed with validated:false (a self-test)
  --seed N               seed of the validation patterns
  --bootstrap-file PATH  nccl, tcp: rank 0 writes its address there, the other ranks read it
                         (a path on a filesystem every node shares)
  --bootstrap-address HOST:PORT
                         nccl, tcp: rank 0 listens on PORT of HOST, the other ranks connect
  --bootstrap-timeout-s X
                         nccl, tcp: how long the ranks wait for each other (default 120)
  --version              print the version and exit
  --help                 this text

Exit status: 0 all tests passed or were waived; 1 a test failed; 2 bad arguments;
3 the backend is not built in or has no device.
)";
}

StopCriterion stop_criterion(const Options& options) {
    StopCriterion c;
    if (options.quick) {
        c.warmup_runs = 1;
        c.min_samples = 5;
        c.max_samples = 1000;
        c.target_stdrel = 0.02;
        c.min_time_s = 0.02;
        c.time_limit_s = 0.5;
    } else {
        c.warmup_runs = 2;
        c.min_samples = 10;
        c.max_samples = 100000;
        c.target_stdrel = 0.005;
        c.min_time_s = 0.2;
        c.time_limit_s = 3.0;
    }
    if (options.time_limit_s) {
        c.time_limit_s = *options.time_limit_s;
        c.min_time_s = std::min(c.min_time_s, c.time_limit_s);
    }
    if (options.target_stdrel) {
        c.target_stdrel = *options.target_stdrel;
    }
    return c;
}

}  // namespace tally::probe
