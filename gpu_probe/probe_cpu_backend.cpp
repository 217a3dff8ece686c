#include "gpu_probe/probe_cpu_backend.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <set>
#include <span>
#include <string>
#include <utility>

#include <cblas.h>
#include <fmt/format.h>

#include "gpu_probe/probe_cpu_kernels.h"
#include "gpu_probe/probe_ops.h"
#include "gpu_probe/probe_pattern.h"
#include "gpu_probe/probe_reference.h"
#include "gpu_probe/probe_thread_team.h"

namespace tally::probe {

namespace {

// ---------------------------------------------------------------------------------------------
// The machine

struct CpuInfo {
    std::string model;
    int cores = 0;
    std::int64_t memory_bytes = 0;
    std::int64_t llc_bytes = 0;
    std::string blas;
};

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            if (const auto colon = line.find(':'); colon != std::string::npos) {
                const auto begin = line.find_first_not_of(' ', colon + 1);
                return begin == std::string::npos ? std::string{} : line.substr(begin);
            }
        }
    }
    return "unknown CPU";
}

// Distinct (physical id, core id) pairs in /proc/cpuinfo; 0 when it does not say.
int physical_cores() {
    std::ifstream in("/proc/cpuinfo");
    std::set<std::pair<std::string, std::string>> cores;
    std::string line, package, core;
    const auto value = [](const std::string& l) {
        const auto colon = l.find(':');
        return colon == std::string::npos ? std::string{} : l.substr(colon + 1);
    };
    while (std::getline(in, line)) {
        if (line.rfind("physical id", 0) == 0) {
            package = value(line);
        } else if (line.rfind("core id", 0) == 0) {
            core = value(line);
        } else if (line.empty() && !core.empty()) {
            cores.emplace(package, core);
            core.clear();
        }
    }
    if (!core.empty()) {
        cores.emplace(package, core);
    }
    return static_cast<int>(cores.size());
}

// "32768K" -> 33554432
std::int64_t parse_cache_size(const std::string& text) {
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str() || value <= 0) {
        return 0;
    }
    const char unit = *end;
    return value * (unit == 'K' ? 1024LL : unit == 'M' ? 1024LL * 1024 : 1LL);
}

// The largest cache sysfs lists for CPU 0. sysfs first: under a hypervisor the CPUID-based
// sysconf(_SC_LEVEL3_CACHE_SIZE) can be wrong (320 MiB was seen for a 32 MiB L3).
std::int64_t last_level_cache_bytes() {
    std::int64_t largest = 0;
    for (int index = 0; index < 8; ++index) {
        std::ifstream in(fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/size", index));
        std::string text;
        if (in >> text) {
            largest = std::max(largest, parse_cache_size(text));
        }
    }
    if (largest == 0) {
        for (const int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
            largest = std::max<std::int64_t>(largest, sysconf(name));
        }
    }
    constexpr std::int64_t kFallbackBytes = 32LL << 20;
    return largest > 0 ? largest : kFallbackBytes;
}

std::string blas_name() {
#if defined(TALLY_PROBE_OPENBLAS)
    std::string config = openblas_get_config();
    while (!config.empty() && config.back() == ' ') {
        config.pop_back();
    }
    return fmt::format("{} ({} threads)", config, openblas_get_num_threads());
#else
    return "BLAS (reference interface)";
#endif
}

CpuInfo read_cpu_info() {
    CpuInfo info;
    info.model = cpu_model();
    info.cores = physical_cores();
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_bytes = sysconf(_SC_PAGE_SIZE);
    info.memory_bytes = pages > 0 && page_bytes > 0 ? std::int64_t{pages} * page_bytes : 0;
    info.llc_bytes = last_level_cache_bytes();
    info.blas = blas_name();
    return info;
}

// ---------------------------------------------------------------------------------------------
// Buffers

// Uninitialised, 64-byte aligned (a cache line; an AVX-512 vector). Filled by the team so that
// pages are first touched by the threads that use them.
template <typename T>
class Buffer {
public:
    explicit Buffer(std::size_t n) : m_size(n) {
        const std::size_t bytes = std::max<std::size_t>((n * sizeof(T) + 63) / 64 * 64, 64);
        m_data = static_cast<T*>(std::aligned_alloc(64, bytes));
        if (m_data == nullptr) {
            throw std::runtime_error(
                fmt::format("cannot allocate {:.1f} MB for a test buffer", bytes / 1e6));
        }
    }
    ~Buffer() { std::free(m_data); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    T* data() { return m_data; }
    const T* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    std::span<T> span() { return {m_data, m_size}; }
    T& operator[](std::size_t i) { return m_data[i]; }
    const T& operator[](std::size_t i) const { return m_data[i]; }

private:
    std::size_t m_size;
    T* m_data;
};

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The FMA-chain kernels use fma(v, 1, 2^-20): the hardware does the full multiply-add, and on
// the 2^-20 grid of pattern_unit every intermediate is exact, so the expected output is
// in + fmas·2^-20 with no rounding at all.
constexpr float kChainMul = 1.0f;
constexpr float kChainAdd = 0x1p-20f;

// ---------------------------------------------------------------------------------------------

class CpuBackend final : public Backend {
public:
    CpuBackend() : m_team(usable_cpu_count()), m_info(read_cpu_info()) {}

    std::string_view name() const override { return "cpu"; }

    DeviceEvent describe() override {
        DeviceEvent d;
        d.backend = "cpu";
        d.name = m_info.model;
        d.memory_bytes = m_info.memory_bytes;
        if (m_info.cores > 0) {
            d.cores = m_info.cores;
        }
        d.threads = static_cast<int>(m_team.size());
        d.llc_bytes = m_info.llc_bytes;
        d.blas = m_info.blas;
        d.simd = std::string(cpu::simd_level());
        return d;
    }

    std::vector<TestInfo> tests() const override { return cpu_tests(); }

    void run(std::string_view test, TestContext& ctx) override {
        if (test == "stream") {
            run_stream(ctx);
        } else if (test == "fma_peak") {
            run_fma_peak(ctx);
        } else if (test == "relu" || test == "gelu") {
            run_activation(ctx, test == "gelu");
        } else if (test == "dot") {
            run_dot(ctx);
        } else if (test == "matvec") {
            run_matvec(ctx);
        } else if (test == "intensity_sweep") {
            run_intensity_sweep(ctx);
        } else if (test == "matmul") {
            run_matmul(ctx);
        } else if (test == "gemm_shapes") {
            run_gemm_shapes(ctx);
        } else {
            throw std::runtime_error(fmt::format("the cpu backend has no test '{}'", test));
        }
    }

private:
    // Wall-clock timing of work that runs on the whole team (the team returns when all are
    // done, so there is nothing asynchronous to wait for).
    Measurement time_work(const TestContext& ctx, const std::function<void()>& work) {
        MeasureHooks hooks;
        if (ctx.settings().l2_flush) {
            hooks.before_sample = [this] { flush_caches(); };
        }
        return measure(
            [&] {
                const double begin_s = now_s();
                work();
                return now_s() - begin_s;
            },
            ctx.criterion(), hooks);
    }

    // Runs fn(begin, end) on each member's share of [0, n).
    void parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn,
                      std::size_t align = 16) {
        m_team.run([&](unsigned member, unsigned size) {
            const auto [begin, end] = ThreadTeam::share(n, member, size, align);
            fn(begin, end);
        });
    }

    // --l2-flush on the CPU: write a buffer twice the last-level cache between samples.
    void flush_caches() {
        const std::size_t bytes = static_cast<std::size_t>(m_info.llc_bytes) * 2;
        if (!m_flush || m_flush->size() != bytes) {
            m_flush = std::make_unique<Buffer<unsigned char>>(bytes);
        }
        ++m_flush_value;
        parallel_for(bytes, [&](std::size_t begin, std::size_t end) {
            std::memset(m_flush->data() + begin, m_flush_value, end - begin);
        });
    }

    // Compares every element in parallel.
    template <typename Got, typename Want>
    Validation check_all(std::size_t n, Got got, Want want, Tolerance tolerance,
                         std::string_view what) {
        std::vector<Mismatches> found(m_team.size());
        m_team.run([&](unsigned member, unsigned size) {
            const auto [begin, end] = ThreadTeam::share(n, member, size);
            found[member] = find_mismatches(begin, end, got, want, tolerance);
        });
        Mismatches all;
        for (const auto& m : found) {
            all.merge(m);
        }
        return to_validation(all, n, what, tolerance);
    }

    template <typename T>
    void fill_unit(Buffer<T>& buffer, std::uint64_t seed) {
        parallel_for(buffer.size(), [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                buffer[i] = static_cast<T>(pattern_unit(seed, i));
            }
        });
    }

    template <typename T>
    void maybe_inject_fault(const TestContext& ctx, std::span<T> output) {
        if (ctx.inject_fault()) {
            inject_fault(output);
        }
    }

    // Elements of a buffer at least twice the last-level cache, so it streams from memory.
    std::size_t streaming_elements(std::size_t elem_bytes, std::int64_t llc_multiple) const {
        const auto bytes = static_cast<std::size_t>(m_info.llc_bytes * llc_multiple);
        return std::max<std::size_t>(bytes / elem_bytes, std::size_t{1} << 20) / 64 * 64;
    }

    // STREAM: arrays of 4× the last-level cache each (McCalpin's rule for valid results).
    void run_stream(TestContext& ctx) {
        std::size_t n = streaming_elements(sizeof(double), 4);
        // Three arrays: keep them under a quarter of the machine's memory.
        if (m_info.memory_bytes > 0) {
            n = std::min<std::size_t>(
                n, static_cast<std::size_t>(m_info.memory_bytes / 4 / 3 / sizeof(double)));
        }
        Buffer<double> a(n), b(n), c(n);
        const std::uint64_t seed = ctx.seed();
        fill_unit(a, seed);
        fill_unit(b, seed + 1);
        fill_unit(c, seed + 2);
        constexpr double s = 3.0;  // stream.c's scalar
        const auto a0 = [seed](std::size_t i) {
            return static_cast<double>(pattern_unit(seed, i));
        };
        const Tolerance exact{0.0, 4 * kUnitRoundoffFp64};

        struct Case {
            const char* variant;
            ops::StreamKernel kernel;
            std::function<void(std::size_t, std::size_t)> body;
            Buffer<double>* output;
            std::function<double(std::size_t)> want;  // closed form from the seeded pattern
        };
        // The four kernels in stream.c's order; each one's output feeds the next.
        const Case cases[] = {
            {"copy", ops::StreamKernel::copy,
             [&](std::size_t lo, std::size_t hi) { cpu::stream_copy(c.data(), a.data(), lo, hi); },
             &c, a0},
            {"scale", ops::StreamKernel::scale,
             [&](std::size_t lo, std::size_t hi) {
                 cpu::stream_scale(b.data(), c.data(), s, lo, hi);
             },
             &b, [&](std::size_t i) { return s * a0(i); }},
            {"add", ops::StreamKernel::add,
             [&](std::size_t lo, std::size_t hi) {
                 cpu::stream_add(c.data(), a.data(), b.data(), lo, hi);
             },
             &c, [&](std::size_t i) { return a0(i) + s * a0(i); }},
            {"triad", ops::StreamKernel::triad,
             [&](std::size_t lo, std::size_t hi) {
                 cpu::stream_triad(a.data(), b.data(), c.data(), s, lo, hi);
             },
             &a, [&](std::size_t i) { return s * a0(i) + s * (a0(i) + s * a0(i)); }},
        };
        for (const auto& k : cases) {
            ctx.progress(fmt::format("stream {} on {} fp64 elements", k.variant, n));
            const CaseLabel label{k.variant, "fp64", {{"elements", static_cast<std::int64_t>(n)}}};
            const Measurement m = time_work(ctx, [&] { parallel_for(n, k.body); });
            maybe_inject_fault(ctx, k.output->span());
            const Buffer<double>& out = *k.output;
            const Validation v = check_all(
                n, [&](std::size_t i) { return out[i]; }, k.want, exact,
                fmt::format("elements of the {} output", k.variant));
            const ops::Work work = ops::stream(k.kernel, static_cast<std::int64_t>(n), 8);
            ResultEvent r = measured_result(label, m, work.flops, work.bytes, v);
            r.note = "STREAM counting: bytes read and written by the kernel, no write-allocate";
            ctx.report(std::move(r));
        }
    }

    void run_fma_peak(TestContext& ctx) {
        run_fma_peak_case<float>(ctx, "fp32", cpu::fma_peak_lanes_f32(), cpu::fma_peak_f32);
        run_fma_peak_case<double>(ctx, "fp64", cpu::fma_peak_lanes_f64(), cpu::fma_peak_f64);
    }

    template <typename T>
    void run_fma_peak_case(TestContext& ctx, const char* dtype, std::size_t lanes,
                           void (*kernel)(T*, long, T, T)) {
        // 2^22 iterations keep every value on the 2^-20 grid below 2^3, exact even in fp32.
        constexpr long kIterations = 1L << 22;
        const unsigned members = m_team.size();
        std::vector<T> initial(lanes);
        for (std::size_t j = 0; j < lanes; ++j) {
            initial[j] = static_cast<T>(pattern_unit(ctx.seed(), j));
        }
        std::vector<std::vector<T>> acc(members, initial);
        ctx.progress(fmt::format("fma_peak {}: {} chains x {} threads", dtype, lanes, members));
        const Measurement m = time_work(ctx, [&] {
            m_team.run([&](unsigned member, unsigned) {
                std::copy(initial.begin(), initial.end(), acc[member].begin());
                kernel(acc[member].data(), kIterations, T{1}, static_cast<T>(kChainAdd));
            });
        });
        Validation v;
        for (unsigned member = 0; member < members && v.passed; ++member) {
            std::span<T> out(acc[member]);
            if (member == 0) {
                maybe_inject_fault(ctx, out);
            }
            const Mismatches bad = find_mismatches(
                0, lanes, [&](std::size_t j) { return out[j]; },
                [&](std::size_t j) {
                    return static_cast<double>(initial[j]) +
                           static_cast<double>(kIterations) * static_cast<double>(kChainAdd);
                },
                Tolerance{});
            v = to_validation(bad, lanes, fmt::format("accumulators of thread {}", member),
                              Tolerance{});
        }
        const double flops = 2.0 * static_cast<double>(lanes) * kIterations * members;
        ResultEvent r =
            measured_result(CaseLabel{"fma",
                                      dtype,
                                      {{"threads", members},
                                       {"chains_per_thread", static_cast<std::int64_t>(lanes)},
                                       {"iterations", kIterations}}},
                            m, flops, std::nullopt, v);
        r.note = fmt::format("register-resident FMA chains, {} instructions; 2 FLOPs per FMA",
                             cpu::simd_level());
        ctx.report(std::move(r));
    }

    void run_activation(TestContext& ctx, bool gelu) {
        const std::size_t n = streaming_elements(sizeof(float), 2);
        Buffer<float> in(n), out(n);
        fill_unit(in, ctx.seed());
        const char* name = gelu ? "gelu" : "relu";
        ctx.progress(fmt::format("{} on {} fp32 elements", name, n));
        const Measurement m = time_work(ctx, [&] {
            parallel_for(n, [&](std::size_t lo, std::size_t hi) {
                gelu ? cpu::gelu_f32(out.data(), in.data(), lo, hi)
                     : cpu::relu_f32(out.data(), in.data(), lo, hi);
            });
        });
        maybe_inject_fault(ctx, out.span());
        // ReLU is exact; GELU in fp32 against fp64: a few ulps of fp32 on values below 1.
        const Tolerance tolerance = gelu ? Tolerance{2e-6, 1e-5} : Tolerance{};
        const Validation v = check_all(
            n, [&](std::size_t i) { return out[i]; },
            [&](std::size_t i) {
                const double x = in[i];
                return gelu ? gelu_tanh_reference(x) : relu_reference(x);
            },
            tolerance, fmt::format("elements of the {} output", name));
        const ops::Work work = gelu ? ops::gelu(static_cast<std::int64_t>(n), 4)
                                    : ops::relu(static_cast<std::int64_t>(n), 4);
        ResultEvent r =
            measured_result(CaseLabel{"", "fp32", {{"elements", static_cast<std::int64_t>(n)}}}, m,
                            work.flops, work.bytes, v);
        if (gelu) {
            r.note =
                "FLOPs counted as the seed lecture's 20 per element; tanh as a rational function";
        }
        ctx.report(std::move(r));
    }

    void run_dot(TestContext& ctx) {
        const std::size_t n = streaming_elements(sizeof(float), 2);
        Buffer<float> x(n), y(n);
        fill_unit(x, ctx.seed());
        fill_unit(y, ctx.seed() + 1);
        std::vector<float> partial(m_team.size());
        float result = 0.0f;
        ctx.progress(fmt::format("dot of {} fp32 elements", n));
        const Measurement m = time_work(ctx, [&] {
            m_team.run([&](unsigned member, unsigned size) {
                const auto [begin, end] = ThreadTeam::share(n, member, size, cpu::kDotLanes);
                partial[member] = cpu::dot_f32(x.data(), y.data(), begin, end);
            });
            result = 0.0f;
            for (const float p : partial) {
                result += p;
            }
        });
        maybe_inject_fault(ctx, std::span<float>(&result, 1));
        // Reference in fp64 (products of fp32 values are exact in fp64). Each fp32 partial sum
        // adds about n / (threads · lanes) terms, then lanes and threads are added: γ of that
        // length bounds the relative error against sum |x·y| (Higham, eq. 3.4).
        double want = 0.0, magnitude = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            want += static_cast<double>(x[i]) * y[i];
            magnitude += std::fabs(static_cast<double>(x[i]) * y[i]);
        }
        const double chain = static_cast<double>(n) / (m_team.size() * cpu::kDotLanes) +
                             cpu::kDotLanes + m_team.size() + 1;
        const Tolerance tolerance{gamma_bound(chain, kUnitRoundoffFp32) * magnitude, 0.0};
        const Validation v = to_validation(
            tolerance.accepts(result, want) ? Mismatches{} : Mismatches{1, 0, result, want}, 1,
            "dot product", tolerance);
        const ops::Work work = ops::dot(static_cast<std::int64_t>(n), 4);
        ctx.report(
            measured_result(CaseLabel{"", "fp32", {{"elements", static_cast<std::int64_t>(n)}}}, m,
                            work.flops, work.bytes, v));
    }

    void run_matvec(TestContext& ctx) {
        // A square matrix of about twice the last-level cache.
        const auto side = static_cast<std::size_t>(
            std::sqrt(static_cast<double>(streaming_elements(sizeof(float), 2))));
        const std::size_t cols = std::max<std::size_t>(side / 64 * 64, 64), rows = cols;
        Buffer<float> w(rows * cols), x(cols), y(rows);
        fill_unit(w, ctx.seed());
        fill_unit(x, ctx.seed() + 1);
        ctx.progress(fmt::format("matvec {}x{} fp32", rows, cols));
        const Measurement m = time_work(ctx, [&] {
            parallel_for(
                rows,
                [&](std::size_t lo, std::size_t hi) {
                    cpu::matvec_f32(y.data(), w.data(), x.data(), cols, lo, hi);
                },
                1);
        });
        maybe_inject_fault(ctx, y.span());
        const double gamma = gamma_bound(
            static_cast<double>(cols) / cpu::kDotLanes + cpu::kDotLanes + 1, kUnitRoundoffFp32);
        std::vector<double> want(rows), bound(rows);
        parallel_for(
            rows,
            [&](std::size_t lo, std::size_t hi) {
                for (std::size_t r = lo; r < hi; ++r) {
                    double sum = 0.0, magnitude = 0.0;
                    for (std::size_t c = 0; c < cols; ++c) {
                        const double p = static_cast<double>(w[r * cols + c]) * x[c];
                        sum += p;
                        magnitude += std::fabs(p);
                    }
                    want[r] = sum;
                    bound[r] = gamma * magnitude;
                }
            },
            1);
        Mismatches bad;
        for (std::size_t r = 0; r < rows; ++r) {
            if (!(std::fabs(y[r] - want[r]) <= bound[r])) {
                bad.add(r, y[r], want[r]);
            }
        }
        const Validation v = to_validation(bad, rows, "elements of y = W·x", Tolerance{0.0, gamma});
        const ops::Work work =
            ops::matvec(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols), 4);
        ctx.report(measured_result(CaseLabel{"",
                                             "fp32",
                                             {{"rows", static_cast<std::int64_t>(rows)},
                                              {"cols", static_cast<std::int64_t>(cols)}}},
                                   m, work.flops, work.bytes, v));
    }

    void run_intensity_sweep(TestContext& ctx) {
        const std::size_t n = streaming_elements(sizeof(float), 2);
        Buffer<float> in(n), out(n);
        fill_unit(in, ctx.seed());
        const std::vector<long> sweep =
            ctx.settings().quick ? std::vector<long>{1, 4, 16, 64, 256}
                                 : std::vector<long>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
        for (const long fmas : sweep) {
            ctx.progress(fmt::format("intensity sweep: {} FMAs per fp32 element", fmas));
            const Measurement m = time_work(ctx, [&] {
                parallel_for(
                    n,
                    [&](std::size_t lo, std::size_t hi) {
                        cpu::fma_chain_f32(out.data(), in.data(), fmas, kChainMul, kChainAdd, lo,
                                           hi);
                    },
                    cpu::kFmaChainBlock);
            });
            maybe_inject_fault(ctx, out.span());
            const double added = static_cast<double>(fmas) * kChainAdd;
            const Validation v = check_all(
                n, [&](std::size_t i) { return out[i]; },
                [&](std::size_t i) { return static_cast<double>(in[i]) + added; }, Tolerance{},
                fmt::format("elements after {} FMAs", fmas));
            const ops::Work work = ops::fma_chain(static_cast<std::int64_t>(n), fmas, 4);
            ctx.report(measured_result(
                CaseLabel{"simd_fma",
                          "fp32",
                          {{"elements", static_cast<std::int64_t>(n)}, {"fmas_per_element", fmas}}},
                m, work.flops, work.bytes, v));
        }
    }

    void run_matmul(TestContext& ctx) {
        const std::vector<std::int64_t> sizes =
            ctx.settings().quick ? std::vector<std::int64_t>{256, 1024}
                                 : std::vector<std::int64_t>{256, 512, 1024, 2048};
        for (const std::int64_t size : sizes) {
            run_matmul_case<float>(ctx, "fp32", size, kUnitRoundoffFp32);
        }
        for (const std::int64_t size : sizes) {
            run_matmul_case<double>(ctx, "fp64", size, kUnitRoundoffFp64);
        }
    }

    template <typename T>
    void run_matmul_case(TestContext& ctx, const char* dtype, std::int64_t size,
                         double unit_roundoff) {
        const std::int64_t m = size, k = size, n = size;
        ctx.progress(fmt::format("matmul {} {}x{}x{} ({})", dtype, m, k, n, m_info.blas));
        // Dyadic inputs (pattern_dyadic): exact in any format, so the reference is exact.
        const std::uint64_t seed_a = ctx.seed(), seed_b = ctx.seed() + 1;
        std::vector<T> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)),
            c(static_cast<std::size_t>(m * n));
        for (std::size_t i = 0; i < a.size(); ++i) {
            a[i] = static_cast<T>(pattern_dyadic(seed_a, i));
        }
        for (std::size_t i = 0; i < b.size(); ++i) {
            b[i] = static_cast<T>(pattern_dyadic(seed_b, i));
        }
        // The TN layout of freivalds_check: A row-major (= A^T column-major), B column-major.
        const auto gemm = [&] {
            if constexpr (std::is_same_v<T, float>) {
                cblas_sgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k, 1.0f, a.data(), k,
                            b.data(), k, 0.0f, c.data(), m);
            } else {
                cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k, 1.0, a.data(), k,
                            b.data(), k, 0.0, c.data(), m);
            }
        };
        const Measurement meas = time_work(ctx, gemm);
        maybe_inject_fault(ctx, std::span<T>(c));
        const Validation v = freivalds_check(
            m, k, n, [&](std::int64_t i, std::int64_t p) { return a[i * k + p]; },
            [&](std::int64_t p, std::int64_t j) { return b[j * k + p]; },
            [&](std::int64_t i, std::int64_t j) { return c[j * m + i]; },
            gamma_bound(static_cast<double>(k), unit_roundoff), ctx.seed() + 2);
        const ops::Work work = ops::matmul(m, k, n, sizeof(T), sizeof(T));
        ResultEvent r = measured_result(CaseLabel{"blas", dtype, {{"m", m}, {"k", k}, {"n", n}}},
                                        meas, work.flops, work.bytes, v);
        r.note = m_info.blas;
        ctx.report(std::move(r));
    }

    // The default sweep of gemm_shapes: square products, skinny ones (a narrow n, a narrow m, a
    // short k, as a transformer's projections of few tokens or heads have) and a batch of small
    // ones (an attention core's per-head products).
    static std::vector<GemmShape> default_gemm_shapes(bool quick) {
        if (quick) {
            return {{"fp32", 512, 512, 512, 1},
                    {"fp32", 2048, 128, 512, 1},
                    {"fp32", 128, 2048, 512, 1},
                    {"fp32", 256, 256, 64, 8}};
        }
        std::vector<GemmShape> shapes;
        for (const char* dtype : {"fp32", "fp64"}) {
            for (const GemmShape& s : std::initializer_list<GemmShape>{{"", 1024, 1024, 1024, 1},
                                                                       {"", 2048, 2048, 2048, 1},
                                                                       {"", 8192, 256, 1024, 1},
                                                                       {"", 256, 8192, 1024, 1},
                                                                       {"", 8192, 1024, 256, 1},
                                                                       {"", 1024, 1024, 128, 16}}) {
                GemmShape shape = s;
                shape.dtype = dtype;
                shapes.push_back(shape);
            }
        }
        return shapes;
    }

    void run_gemm_shapes(TestContext& ctx) {
        const std::vector<GemmShape> shapes = ctx.settings().gemm_shapes.empty()
                                                  ? default_gemm_shapes(ctx.settings().quick)
                                                  : ctx.settings().gemm_shapes;
        for (const GemmShape& shape : shapes) {
            const CaseLabel label{
                "blas",
                shape.dtype,
                {{"m", shape.m}, {"n", shape.n}, {"k", shape.k}, {"count", shape.count}}};
            if (shape.dtype == "fp32") {
                run_gemm_shape<float>(ctx, label, shape, kUnitRoundoffFp32);
            } else if (shape.dtype == "fp64") {
                run_gemm_shape<double>(ctx, label, shape, kUnitRoundoffFp64);
            } else {
                ctx.report(waived_result(label,
                                         "the cpu backend's BLAS has GEMMs in fp32 and "
                                         "fp64 only, not " +
                                             shape.dtype));
            }
        }
    }

    // `count` products of one shape, one BLAS call each on matrices of their own, timed together:
    // one sample is the whole batch. Every product is validated.
    template <typename T>
    void run_gemm_shape(TestContext& ctx, const CaseLabel& label, const GemmShape& shape,
                        double unit_roundoff) {
        const std::int64_t m = shape.m, n = shape.n, k = shape.k, count = shape.count;
        const ops::Work work = ops::batched_matmul(count, m, k, n, sizeof(T), sizeof(T));
        // Keep the buffers within a quarter of the machine's memory, as the stream test does.
        if (m_info.memory_bytes > 0 && work.bytes > static_cast<double>(m_info.memory_bytes) / 4) {
            ctx.report(waived_result(
                label,
                fmt::format("its matrices take {:.3g} GB, more than a quarter of this "
                            "machine's {:.3g} GB of memory",
                            work.bytes / 1e9, static_cast<double>(m_info.memory_bytes) / 1e9)));
            return;
        }
        ctx.progress(fmt::format("gemm_shapes {} m={} n={} k={} count={} ({})", shape.dtype, m, n,
                                 k, count, m_info.blas));
        const auto mk = static_cast<std::size_t>(m * k), kn = static_cast<std::size_t>(k * n),
                   mn = static_cast<std::size_t>(m * n);
        const auto batch = static_cast<std::size_t>(count);
        // Dyadic inputs (pattern_dyadic): exact in any format, so the reference is exact.
        const std::uint64_t seed_a = ctx.seed() + 21, seed_b = ctx.seed() + 22;
        std::vector<T> a(mk * batch), b(kn * batch), c(mn * batch);
        for (std::size_t i = 0; i < a.size(); ++i) {
            a[i] = static_cast<T>(pattern_dyadic(seed_a, i));
        }
        for (std::size_t i = 0; i < b.size(); ++i) {
            b[i] = static_cast<T>(pattern_dyadic(seed_b, i));
        }
        // The TN layout of freivalds_check, as matmul: A row-major, B and C column-major.
        const auto gemms = [&] {
            for (std::size_t i = 0; i < batch; ++i) {
                const T* ai = a.data() + i * mk;
                const T* bi = b.data() + i * kn;
                T* ci = c.data() + i * mn;
                if constexpr (std::is_same_v<T, float>) {
                    cblas_sgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k, 1.0f, ai, k, bi,
                                k, 0.0f, ci, m);
                } else {
                    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k, 1.0, ai, k, bi, k,
                                0.0, ci, m);
                }
            }
        };
        const Measurement meas = time_work(ctx, gemms);
        maybe_inject_fault(ctx, std::span<T>(c));
        Validation v;
        for (std::size_t i = 0; i < batch && v.passed; ++i) {
            const T* ai = a.data() + i * mk;
            const T* bi = b.data() + i * kn;
            const T* ci = c.data() + i * mn;
            v = freivalds_check(
                m, k, n, [&](std::int64_t r, std::int64_t p) { return ai[r * k + p]; },
                [&](std::int64_t p, std::int64_t j) { return bi[j * k + p]; },
                [&](std::int64_t r, std::int64_t j) { return ci[j * m + r]; },
                gamma_bound(static_cast<double>(k), unit_roundoff), ctx.seed() + 23);
            if (!v.passed && batch > 1) {
                v.reason = fmt::format("product {} of {}: {}", i, batch, v.reason);
            }
        }
        ResultEvent r = measured_result(label, meas, work.flops, work.bytes, v);
        r.note = count > 1
                     ? fmt::format("{} GEMMs of this shape, one BLAS call each, per sample; {}",
                                   count, m_info.blas)
                     : m_info.blas;
        ctx.report(std::move(r));
    }

    ThreadTeam m_team;
    CpuInfo m_info;
    std::unique_ptr<Buffer<unsigned char>> m_flush;
    unsigned char m_flush_value = 0;
};

}  // namespace

std::vector<TestInfo> cpu_tests() {
    return {
        {"stream",
         "STREAM copy, scale, add, triad on fp64 arrays of 4x the last-level cache, "
         "all cores: memory bandwidth"},
        {"fma_peak",
         "independent register-resident FMA chains on all cores, fp32 and fp64: "
         "peak arithmetic throughput"},
        {"relu", "ReLU over fp32 arrays, all cores (seed lecture: intensity 1/8 at fp32)"},
        {"gelu", "GELU, tanh approximation, over fp32 arrays, all cores"},
        {"dot", "dot product of two fp32 vectors, all cores"},
        {"matvec", "matrix-vector product, fp32, all cores"},
        {"intensity_sweep",
         "a kernel with a tunable number of FMAs per element loaded, from "
         "memory-bound to compute-bound"},
        {"matmul", "sgemm and dgemm through the BLAS at several sizes"},
        {"gemm_shapes",
         "sgemm and dgemm through the BLAS at given shapes (--gemm-shapes), else a sweep of "
         "square and skinny ones"},
    };
}

std::unique_ptr<Backend> make_cpu_backend() {
    return std::make_unique<CpuBackend>();
}

}  // namespace tally::probe
