// The CUDA backend: device description, the test list, and every test but matmul
// (probe_cuda_matmul.cu).
#include "gpu_probe/probe_cuda_backend.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu_probe/probe_cuda_check.cuh"
#include "gpu_probe/probe_cuda_kernels.cuh"
#include "gpu_probe/probe_cuda_matmul.cuh"
#include "gpu_probe/probe_cuda_memory.cuh"
#include "gpu_probe/probe_ops.h"
#include "gpu_probe/probe_pattern.h"
#include "gpu_probe/probe_reference.h"
#include "gpu_probe/probe_validation.h"

namespace tally::probe {

namespace {

using namespace cuda;

std::string version_text(int version) {
    // CUDA encodes 13.0 as 13000.
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

// Why cudaGetDeviceCount failed, in words a user can act on. The runtime says
// "insufficient driver" both when the driver is too old and when there is none at all.
std::string driver_hint(cudaError_t status) {
    if (status != cudaErrorInsufficientDriver && status != cudaErrorNoDevice) {
        return "";
    }
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (driver == nullptr) {
        return " (no NVIDIA driver loaded: libcuda.so.1 was not found)";
    }
    dlclose(driver);
    if (status == cudaErrorNoDevice) {
        return " (the driver is loaded but sees no GPU)";
    }
    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) {
        return " (the NVIDIA driver is older than this CUDA runtime)";
    }
    return " (the NVIDIA driver is older than this CUDA runtime, " + version_text(runtime) + ")";
}

std::size_t elements_for_bytes(std::size_t bytes, std::size_t elem_bytes, std::size_t multiple) {
    return std::max<std::size_t>(bytes / elem_bytes / multiple, 1) * multiple;
}

class CudaBackend final : public Backend {
public:
    explicit CudaBackend(int device) {
        TALLY_CUDA_CALL(cudaSetDevice(device));
        TALLY_CUDA_CALL(cudaGetDeviceProperties(&m_prop, device));
        m_facts.index = device;
        m_facts.cc_major = m_prop.major;
        m_facts.cc_minor = m_prop.minor;
        m_facts.l2_bytes = static_cast<std::size_t>(m_prop.l2CacheSize);
        m_facts.sm_count = m_prop.multiProcessorCount;
        m_stream = std::make_unique<Stream>();
        m_counters = DeviceBuffer<CheckCounters>(1);
    }

    std::string_view name() const override { return "cuda"; }

    DeviceEvent describe() override {
        DeviceEvent d;
        d.backend = "cuda";
        d.name = m_prop.name;
        d.index = m_facts.index;
        d.memory_bytes = static_cast<std::int64_t>(m_prop.totalGlobalMem);
        d.compute_capability = std::to_string(m_prop.major) + "." + std::to_string(m_prop.minor);
        d.sm_count = m_prop.multiProcessorCount;
        d.l2_bytes = m_prop.l2CacheSize;
        d.memory_bus_width_bits = m_prop.memoryBusWidth;
        int clock_khz = 0, memory_clock_khz = 0;
        // cudaDeviceProp lost clockRate in CUDA 13; the attributes remain.
        if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, m_facts.index) ==
            cudaSuccess) {
            d.clock_mhz = clock_khz / 1000.0;
        }
        if (cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, m_facts.index) ==
            cudaSuccess) {
            d.memory_clock_mhz = memory_clock_khz / 1000.0;
        }
        int driver = 0, runtime = 0;
        TALLY_CUDA_CALL(cudaDriverGetVersion(&driver));
        TALLY_CUDA_CALL(cudaRuntimeGetVersion(&runtime));
        d.driver_version = version_text(driver);
        d.runtime_version = version_text(runtime);
        return d;
    }

    std::vector<TestInfo> tests() const override { return cuda_tests(); }

    void run(std::string_view test, TestContext& ctx) override {
        // One flush buffer for the whole run (the settings are the run's, the L2 the device's).
        if (ctx.settings().l2_flush && !m_flush) {
            m_flush = std::make_unique<L2Flush>(m_facts.l2_bytes);
        }
        if (test == "matmul") {
            run_matmul(ctx, m_facts, *m_stream, m_flush.get());
        } else if (test == "gemm_shapes") {
            run_gemm_shapes(ctx, m_facts, *m_stream, m_flush.get());
        } else if (test == "memory_bandwidth") {
            run_memory_bandwidth(ctx);
        } else if (test == "relu" || test == "gelu") {
            run_activation(ctx, test == "gelu");
        } else if (test == "dot") {
            run_dot(ctx);
        } else if (test == "matvec") {
            run_matvec(ctx);
        } else if (test == "intensity_sweep") {
            run_fma_sweep(ctx);
            run_mma_sweep(ctx);
        } else if (test == "host_device_copy") {
            run_host_device_copy(ctx);
        } else if (test == "timing_lesson") {
            run_timing_lesson(ctx);
        } else {
            throw CudaError("the cuda backend has no test '" + std::string(test) + "'");
        }
        m_stream->synchronize();
    }

private:
    // Blocks for a grid-stride kernel: enough to fill every SM (2048 threads each).
    int grid_blocks() const { return m_facts.sm_count * (2048 / kBlockThreads); }

    Measurement time_launch(const TestContext& ctx,
                            const std::function<void(cudaStream_t)>& launch) {
        return time_on_stream(ctx, m_stream->get(), m_flush.get(), launch);
    }

    // Bytes for a streaming buffer: 2 GiB, or 1/8 of the GPU's memory, and at least 8× L2.
    std::size_t streaming_bytes(const TestContext& ctx) const {
        const std::size_t budget = ctx.settings().quick ? (256u << 20) : (2048ull << 20);
        return std::min<std::size_t>(std::max<std::size_t>(budget, 8 * m_facts.l2_bytes),
                                     m_prop.totalGlobalMem / 8);
    }

    void reset_counters() {
        const CheckCounters initial{0, ~0ull};
        TALLY_CUDA_CALL(cudaMemcpyAsync(m_counters.get(), &initial, sizeof initial,
                                        cudaMemcpyHostToDevice, m_stream->get()));
    }

    // Reads the counters of a device-side check.
    Validation read_counters(std::size_t checked, const std::string& what) {
        CheckCounters counters{};
        TALLY_CUDA_CALL(cudaMemcpyAsync(&counters, m_counters.get(), sizeof counters,
                                        cudaMemcpyDeviceToHost, m_stream->get()));
        m_stream->synchronize();
        if (counters.mismatches == 0) {
            return Validation::ok();
        }
        return Validation::fail(std::to_string(counters.mismatches) + " of " +
                                std::to_string(checked) + " " + what +
                                " differ from the reference; first at index " +
                                std::to_string(counters.first_index) + " (checked on the device)");
    }

    Validation check_affine(const unsigned* data, std::size_t n, unsigned seed,
                            const std::string& what) {
        reset_counters();
        check_affine_u32<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(data, n, seed,
                                                                               m_counters.get());
        TALLY_CUDA_CHECK_LAUNCH();
        return read_counters(n, what);
    }

    static Validation both(const Validation& first, const Validation& second) {
        return first.passed ? second : first;
    }

    // --- device-memory bandwidth -----------------------------------------------------------

    void run_memory_bandwidth(TestContext& ctx) {
        const std::size_t n = elements_for_bytes(streaming_bytes(ctx), 4, 4);  // u32, 4 per uint4
        const std::size_t n4 = n / 4;
        const auto seed = static_cast<unsigned>(ctx.seed());
        DeviceBuffer<unsigned> src(n), dst(n);
        DeviceBuffer<unsigned> block_sums(static_cast<std::size_t>(grid_blocks()));
        cudaStream_t s = m_stream->get();
        const CaseLabel read_label{"read", "u32", {{"bytes", static_cast<std::int64_t>(n * 4)}}};
        const CaseLabel write_label{"write", "u32", {{"bytes", static_cast<std::int64_t>(n * 4)}}};
        const CaseLabel copy_label{"copy", "u32", {{"bytes", static_cast<std::int64_t>(n * 4)}}};

        ctx.progress("device memory write, " + std::to_string(n * 4) + " bytes");
        const Measurement write = time_launch(ctx, [&](cudaStream_t st) {
            write_u32x4<<<grid_blocks(), kBlockThreads, 0, st>>>(
                reinterpret_cast<uint4*>(src.get()), n4, seed);
            TALLY_CUDA_CHECK_LAUNCH();
        });
        m_stream->synchronize();
        if (ctx.inject_fault()) {
            inject_device_fault(m_stream->get(), src.get(), n);
        }
        const Validation write_ok = check_affine(src.get(), n, seed, "words written");
        ctx.report(measured_result(write_label, write, std::nullopt, double(n * 4), write_ok));
        if (ctx.inject_fault()) {  // restore the pattern for the read and copy cases
            write_u32x4<<<grid_blocks(), kBlockThreads, 0, s>>>(reinterpret_cast<uint4*>(src.get()),
                                                                n4, seed);
            TALLY_CUDA_CHECK_LAUNCH();
        }

        ctx.progress("device memory read, " + std::to_string(n * 4) + " bytes");
        const Measurement read = time_launch(ctx, [&](cudaStream_t st) {
            read_u32x4<<<grid_blocks(), kBlockThreads, 0, st>>>(
                reinterpret_cast<const uint4*>(src.get()), n4, block_sums.get());
            TALLY_CUDA_CHECK_LAUNCH();
        });
        std::vector<unsigned> sums(block_sums.size());
        TALLY_CUDA_CALL(cudaMemcpyAsync(sums.data(), block_sums.get(), sums.size() * 4,
                                        cudaMemcpyDeviceToHost, s));
        m_stream->synchronize();
        unsigned total = 0;
        for (const unsigned v : sums) {
            total += v;
        }
        if (ctx.inject_fault()) {
            total = corrupted(total);
        }
        const unsigned want = affine_u32_sum(seed, n);
        const Validation read_ok =
            total == want ? Validation::ok()
                          : Validation::fail("sum of the words read is " + std::to_string(total) +
                                             ", expected " + std::to_string(want) + " (mod 2^32)");
        ctx.report(measured_result(read_label, read, std::nullopt, double(n * 4), read_ok));

        ctx.progress("device memory copy, " + std::to_string(n * 4) + " bytes");
        const Measurement copy = time_launch(ctx, [&](cudaStream_t st) {
            copy_u32x4<<<grid_blocks(), kBlockThreads, 0, st>>>(
                reinterpret_cast<uint4*>(dst.get()), reinterpret_cast<const uint4*>(src.get()), n4);
            TALLY_CUDA_CHECK_LAUNCH();
        });
        m_stream->synchronize();
        if (ctx.inject_fault()) {
            inject_device_fault(m_stream->get(), dst.get(), n);
        }
        const Validation copy_ok = check_affine(dst.get(), n, seed, "words copied");
        ResultEvent r = measured_result(copy_label, copy, std::nullopt, double(2 * n * 4), copy_ok);
        r.note = "bytes = read + written";
        ctx.report(std::move(r));
    }

    // --- elementwise: ReLU, GELU, the FMA chain ----------------------------------------------

    // Validates `out` against `in` on the device (every element, fp64 reference) and on the host
    // (the first 64K elements against the host's own fp64 reference).
    template <typename T>
    Validation check_elementwise_output(const TestContext& ctx, const T* in, T* out, std::size_t n,
                                        const ElementwiseSpec& spec, Tolerance tolerance,
                                        const std::string& what) {
        m_stream->synchronize();
        if (ctx.inject_fault()) {
            inject_device_fault(m_stream->get(), out, n);
        }
        reset_counters();
        check_elementwise<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(
            in, out, n, spec, tolerance.abs, tolerance.rel, m_counters.get());
        TALLY_CUDA_CHECK_LAUNCH();
        const Validation on_device = read_counters(n, what);
        const std::size_t prefix = std::min<std::size_t>(n, 1u << 16);
        std::vector<T> host_in(prefix), host_out(prefix);
        TALLY_CUDA_CALL(cudaMemcpy(host_in.data(), in, prefix * sizeof(T), cudaMemcpyDeviceToHost));
        TALLY_CUDA_CALL(
            cudaMemcpy(host_out.data(), out, prefix * sizeof(T), cudaMemcpyDeviceToHost));
        const Mismatches bad = find_mismatches(
            0, prefix, [&](std::size_t i) { return to_float(host_out[i]); },
            [&](std::size_t i) { return elementwise_reference(spec, to_float(host_in[i])); },
            tolerance);
        return both(on_device, to_validation(bad, prefix, what + " (host check)", tolerance));
    }

    template <typename T, typename Op>
    void run_activation_case(TestContext& ctx, const char* dtype, Op op, bool gelu) {
        const std::size_t n = elements_for_bytes(streaming_bytes(ctx) / 2, sizeof(T), 16);
        DeviceBuffer<T> in(n), out(n);
        fill_unit<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(in.get(), n, ctx.seed());
        TALLY_CUDA_CHECK_LAUNCH();
        ctx.progress(std::string(gelu ? "gelu " : "relu ") + dtype + " on " + std::to_string(n) +
                     " elements");
        const Measurement m = time_launch(ctx, [&](cudaStream_t s) {
            elementwise_x16<<<grid_blocks(), kBlockThreads, 0, s>>>(in.get(), out.get(), n, op);
            TALLY_CUDA_CHECK_LAUNCH();
        });
        // fp32: tanhf is within a couple of ulps; bf16 output: rounding to 8 significant bits.
        const double rel = sizeof(T) == 4 ? 1e-5 : 2 * kUnitRoundoffBf16;
        const Tolerance tolerance = gelu ? Tolerance{2e-6, rel} : Tolerance{0.0, 0.0};
        const ElementwiseSpec spec{gelu ? Elementwise::gelu : Elementwise::relu, 0, 0.0f, 0.0f};
        const Validation v = check_elementwise_output(ctx, in.get(), out.get(), n, spec, tolerance,
                                                      "output elements");
        const ops::Work work = gelu ? ops::gelu(static_cast<std::int64_t>(n), sizeof(T))
                                    : ops::relu(static_cast<std::int64_t>(n), sizeof(T));
        ResultEvent r =
            measured_result(CaseLabel{"", dtype, {{"elements", static_cast<std::int64_t>(n)}}}, m,
                            work.flops, work.bytes, v);
        if (gelu) {
            r.note = "FLOPs counted as the seed lecture's 20 per element";
        }
        ctx.report(std::move(r));
    }

    void run_activation(TestContext& ctx, bool gelu) {
        if (gelu) {
            run_activation_case<float>(ctx, "fp32", GeluOp{}, true);
            run_activation_case<__nv_bfloat16>(ctx, "bf16", GeluOp{}, true);
        } else {
            run_activation_case<float>(ctx, "fp32", ReluOp{}, false);
            run_activation_case<__nv_bfloat16>(ctx, "bf16", ReluOp{}, false);
        }
    }

    // The FMA-chain kernel (a = 1, c = 2^-20: exact, see pattern_unit) on n fp32 elements.
    static constexpr float kChainAdd = 0x1p-20f;

    void launch_fma_chain(cudaStream_t s, const float* in, float* out, std::size_t n, int fmas) {
        fma_chain_x4<<<grid_blocks(), kBlockThreads, 0, s>>>(reinterpret_cast<const float4*>(in),
                                                             reinterpret_cast<float4*>(out), n / 4,
                                                             fmas, 1.0f, kChainAdd);
        TALLY_CUDA_CHECK_LAUNCH();
    }

    void run_fma_sweep(TestContext& ctx) {
        const std::size_t n = elements_for_bytes(streaming_bytes(ctx) / 2, 4, 16);
        DeviceBuffer<float> in(n), out(n);
        fill_unit<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(in.get(), n, ctx.seed());
        TALLY_CUDA_CHECK_LAUNCH();
        const std::vector<int> sweep =
            ctx.settings().quick ? std::vector<int>{1, 8, 64, 512}
                                 : std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
        for (const int fmas : sweep) {
            ctx.progress("intensity sweep (CUDA cores): " + std::to_string(fmas) +
                         " FMAs per fp32 element");
            const Measurement m = time_launch(
                ctx, [&](cudaStream_t s) { launch_fma_chain(s, in.get(), out.get(), n, fmas); });
            const ElementwiseSpec spec{Elementwise::fma_chain, fmas, 1.0f, kChainAdd};
            const Validation v = check_elementwise_output(ctx, in.get(), out.get(), n, spec,
                                                          Tolerance{}, "output elements");
            const ops::Work work = ops::fma_chain(static_cast<std::int64_t>(n), fmas, 4);
            ctx.report(measured_result(
                CaseLabel{"cuda_core",
                          "fp32",
                          {{"elements", static_cast<std::int64_t>(n)}, {"fmas_per_element", fmas}}},
                m, work.flops, work.bytes, v));
        }
    }

    void run_mma_sweep(TestContext& ctx) {
        const std::vector<int> sweep = ctx.settings().quick
                                           ? std::vector<int>{1, 16, 256}
                                           : std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256};
        if (m_facts.compute_capability() < 80) {
            for (const int reps : sweep) {
                ctx.report(
                    waived_result(CaseLabel{"tensor_core", "bf16", {{"mma_per_tile", 2 * reps}}},
                                  "bf16 tensor-core MMA needs compute capability 8.0 or newer"));
            }
            return;
        }
        // One tile is 16×16 bf16 in (512 bytes) and 16×16 fp32 out (1024 bytes).
        const std::size_t tiles =
            elements_for_bytes(streaming_bytes(ctx) / 2, kTileElements * (2 + 4), 1024);
        const std::uint64_t seed_a = ctx.seed() + 21, seed_b = ctx.seed() + 22;
        DeviceBuffer<__nv_bfloat16> a(tiles * kTileElements), b(2 * kTileElements);
        DeviceBuffer<float> out(tiles * kTileElements);
        fill_dyadic<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(a.get(), a.size(),
                                                                          seed_a);
        TALLY_CUDA_CHECK_LAUNCH();
        fill_dyadic<<<1, kBlockThreads, 0, m_stream->get()>>>(b.get(), b.size(), seed_b);
        TALLY_CUDA_CHECK_LAUNCH();
        for (const int reps : sweep) {
            ctx.progress("intensity sweep (tensor cores): " + std::to_string(2 * reps) +
                         " 16x16x16 bf16 MMAs per tile");
            const Measurement m = time_launch(ctx, [&](cudaStream_t s) {
                mma_chain_bf16<<<grid_blocks(), kBlockThreads, 0, s>>>(a.get(), b.get(), out.get(),
                                                                       tiles, reps);
                TALLY_CUDA_CHECK_LAUNCH();
            });
            m_stream->synchronize();
            if (ctx.inject_fault()) {
                inject_device_fault(m_stream->get(), out.get(), out.size());
            }
            reset_counters();
            check_mma_chain<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(
                out.get(), tiles, seed_a, seed_b, reps, m_counters.get());
            TALLY_CUDA_CHECK_LAUNCH();
            Validation v = read_counters(out.size(), "output elements");
            // And the first tiles against the host's own arithmetic.
            const std::size_t host_tiles = std::min<std::size_t>(tiles, 64);
            std::vector<float> host(host_tiles * kTileElements);
            TALLY_CUDA_CALL(cudaMemcpy(host.data(), out.get(), host.size() * sizeof(float),
                                       cudaMemcpyDeviceToHost));
            const Mismatches bad = find_mismatches(
                0, host.size(), [&](std::size_t i) { return host[i]; },
                [&](std::size_t i) {
                    return mma_chain_reference(seed_a, seed_b, i / kTileElements,
                                               static_cast<int>(i % kTileElements) / kTile,
                                               static_cast<int>(i % kTile), reps);
                },
                Tolerance{});
            v = both(v,
                     to_validation(bad, host.size(), "output elements (host check)", Tolerance{}));
            // 2 accumulators × reps MMAs of 2·16·16·16 FLOPs per tile.
            const double flops =
                static_cast<double>(tiles) * 2.0 * reps * 2.0 * kTile * kTile * kTile;
            const double bytes = static_cast<double>(tiles) * kTileElements * (2 + 4);
            ResultEvent r = measured_result(CaseLabel{"tensor_core",
                                                      "bf16",
                                                      {{"tiles", static_cast<std::int64_t>(tiles)},
                                                       {"mma_per_tile", 2 * reps}}},
                                            m, flops, bytes, v);
            r.note =
                "WMMA (mma.sync) with fp32 accumulation; cuBLASLt's Hopper kernels use wgmma "
                "and reach more";
            ctx.report(std::move(r));
        }
    }

    // --- dot, matvec -------------------------------------------------------------------------

    void run_dot(TestContext& ctx) {
        const std::size_t n = elements_for_bytes(streaming_bytes(ctx) / 2, 4, 4);
        DeviceBuffer<float> x(n), y(n), partials(static_cast<std::size_t>(grid_blocks())),
            result(1);
        fill_unit<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(x.get(), n, ctx.seed());
        TALLY_CUDA_CHECK_LAUNCH();
        fill_unit<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(y.get(), n, ctx.seed() + 1);
        TALLY_CUDA_CHECK_LAUNCH();
        ctx.progress("dot of " + std::to_string(n) + " fp32 elements");
        const Measurement m = time_launch(ctx, [&](cudaStream_t s) {
            dot_partial<<<grid_blocks(), kBlockThreads, 0, s>>>(
                reinterpret_cast<const float4*>(x.get()), reinterpret_cast<const float4*>(y.get()),
                n / 4, partials.get());
            TALLY_CUDA_CHECK_LAUNCH();
            sum_partials<<<1, kBlockThreads, 0, s>>>(partials.get(), grid_blocks(), result.get());
            TALLY_CUDA_CHECK_LAUNCH();
        });
        float got = 0.0f;
        TALLY_CUDA_CALL(cudaMemcpyAsync(&got, result.get(), sizeof got, cudaMemcpyDeviceToHost,
                                        m_stream->get()));
        m_stream->synchronize();
        if (ctx.inject_fault()) {
            got = corrupted(got);
        }
        // The host's fp64 sum of the same seeded inputs; each thread adds about
        // n / threads products in fp32, then two tree reductions follow (Higham, eq. 3.4).
        double want = 0.0, magnitude = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double p =
                static_cast<double>(pattern_unit(ctx.seed(), i)) * pattern_unit(ctx.seed() + 1, i);
            want += p;
            magnitude += std::fabs(p);
        }
        const double threads = static_cast<double>(grid_blocks()) * kBlockThreads;
        const double chain = static_cast<double>(n) / threads + 2 * kBlockThreads + grid_blocks();
        const Tolerance tolerance{gamma_bound(chain, kUnitRoundoffFp32) * magnitude, 0.0};
        Mismatches bad;
        if (!tolerance.accepts(got, want)) {
            bad.add(0, got, want);
        }
        const ops::Work work = ops::dot(static_cast<std::int64_t>(n), 4);
        ctx.report(measured_result(
            CaseLabel{"", "fp32", {{"elements", static_cast<std::int64_t>(n)}}}, m, work.flops,
            work.bytes, to_validation(bad, 1, "dot product", tolerance)));
    }

    void run_matvec(TestContext& ctx) {
        const auto side =
            static_cast<std::size_t>(std::sqrt(static_cast<double>(streaming_bytes(ctx) / 2 / 4)));
        const std::size_t cols = std::max<std::size_t>(side / 64 * 64, 64), rows = cols;
        DeviceBuffer<float> w(rows * cols), x(cols), y(rows);
        fill_unit<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(w.get(), w.size(),
                                                                        ctx.seed());
        TALLY_CUDA_CHECK_LAUNCH();
        fill_unit<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(x.get(), cols,
                                                                        ctx.seed() + 1);
        TALLY_CUDA_CHECK_LAUNCH();
        ctx.progress("matvec " + std::to_string(rows) + "x" + std::to_string(cols) + " fp32");
        const Measurement m = time_launch(ctx, [&](cudaStream_t s) {
            matvec_warp_per_row<<<grid_blocks(), kBlockThreads, 0, s>>>(w.get(), x.get(), y.get(),
                                                                        rows, cols);
            TALLY_CUDA_CHECK_LAUNCH();
        });
        std::vector<float> got(rows);
        TALLY_CUDA_CALL(cudaMemcpyAsync(got.data(), y.get(), rows * sizeof(float),
                                        cudaMemcpyDeviceToHost, m_stream->get()));
        m_stream->synchronize();
        if (ctx.inject_fault()) {
            inject_fault(std::span<float>(got));
        }
        // Each lane adds cols/128 float4 products, then 5 shuffle steps.
        const double gamma = gamma_bound(static_cast<double>(cols) / 32 + 4 + 5, kUnitRoundoffFp32);
        Mismatches bad;
        std::vector<double> xs(cols);
        for (std::size_t c = 0; c < cols; ++c) {
            xs[c] = pattern_unit(ctx.seed() + 1, c);
        }
        for (std::size_t r = 0; r < rows; ++r) {
            double want = 0.0, magnitude = 0.0;
            for (std::size_t c = 0; c < cols; ++c) {
                const double p = pattern_unit(ctx.seed(), r * cols + c) * xs[c];
                want += p;
                magnitude += std::fabs(p);
            }
            if (!(std::fabs(got[r] - want) <= gamma * magnitude)) {
                bad.add(r, got[r], want);
            }
        }
        const ops::Work work =
            ops::matvec(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols), 4);
        ctx.report(measured_result(
            CaseLabel{"",
                      "fp32",
                      {{"rows", static_cast<std::int64_t>(rows)},
                       {"cols", static_cast<std::int64_t>(cols)}}},
            m, work.flops, work.bytes,
            to_validation(bad, rows, "elements of y = W·x", Tolerance{0.0, gamma})));
    }

    // --- host <-> device ---------------------------------------------------------------------

    void run_host_device_copy(TestContext& ctx) {
        const std::size_t bytes = ctx.settings().quick ? (64u << 20) : (512u << 20);
        const std::size_t n = bytes / 4;
        const auto seed = static_cast<unsigned>(ctx.seed());
        DeviceBuffer<unsigned> device(n);
        PinnedBuffer<unsigned> pinned(n);
        std::vector<unsigned> pageable(n);
        for (const bool is_pinned : {true, false}) {
            unsigned* host = is_pinned ? pinned.get() : pageable.data();
            const std::string kind = is_pinned ? "pinned" : "pageable";
            for (std::size_t i = 0; i < n; ++i) {
                host[i] = affine_u32(seed, i);
            }
            ctx.progress("host to device, " + kind + ", " + std::to_string(bytes) + " bytes");
            const Measurement h2d = time_launch(ctx, [&](cudaStream_t s) {
                TALLY_CUDA_CALL(
                    cudaMemcpyAsync(device.get(), host, bytes, cudaMemcpyHostToDevice, s));
            });
            m_stream->synchronize();
            if (ctx.inject_fault()) {
                inject_device_fault(m_stream->get(), device.get(), n);
            }
            ResultEvent up = measured_result(
                CaseLabel{"h2d_" + kind, "u32", {{"bytes", static_cast<std::int64_t>(bytes)}}}, h2d,
                std::nullopt, double(bytes), check_affine(device.get(), n, seed, "words copied"));
            ctx.report(std::move(up));

            // The device holds the pattern again (the fault, if any, is overwritten here).
            write_u32x4<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(
                reinterpret_cast<uint4*>(device.get()), n / 4, seed);
            TALLY_CUDA_CHECK_LAUNCH();
            std::fill(host, host + n, 0u);
            ctx.progress("device to host, " + kind + ", " + std::to_string(bytes) + " bytes");
            const Measurement d2h = time_launch(ctx, [&](cudaStream_t s) {
                TALLY_CUDA_CALL(
                    cudaMemcpyAsync(host, device.get(), bytes, cudaMemcpyDeviceToHost, s));
            });
            m_stream->synchronize();
            if (ctx.inject_fault()) {
                inject_fault(std::span<unsigned>(host, n));
            }
            const Mismatches bad = find_mismatches(
                0, n, [&](std::size_t i) { return host[i]; },
                [&](std::size_t i) { return affine_u32(seed, i); }, Tolerance{});
            ctx.report(measured_result(
                CaseLabel{"d2h_" + kind, "u32", {{"bytes", static_cast<std::int64_t>(bytes)}}}, d2h,
                std::nullopt, double(bytes), to_validation(bad, n, "words copied", Tolerance{})));
        }
    }

    // --- the seed's timing lesson --------------------------------------------------------------

    // The same kernel timed three ways. Only the event-timed figure is the kernel's; a host clock
    // read right after an asynchronous launch measures the launch (CS336 lecture 2: without
    // torch.cuda.synchronize() "your timings look impossibly fast").
    void run_timing_lesson(TestContext& ctx) {
        constexpr int kFmas = 64;
        const std::size_t n = elements_for_bytes(streaming_bytes(ctx) / 2, 4, 16);
        DeviceBuffer<float> in(n), out(n);
        fill_unit<<<grid_blocks(), kBlockThreads, 0, m_stream->get()>>>(in.get(), n, ctx.seed());
        TALLY_CUDA_CHECK_LAUNCH();
        const ops::Work work = ops::fma_chain(static_cast<std::int64_t>(n), kFmas, 4);
        const CaseLabel base{
            "", "fp32", {{"elements", static_cast<std::int64_t>(n)}, {"fmas_per_element", kFmas}}};
        const auto launch = [&](cudaStream_t s) {
            launch_fma_chain(s, in.get(), out.get(), n, kFmas);
        };
        const auto host_now_s = [] {
            return std::chrono::duration<double>(
                       std::chrono::steady_clock::now().time_since_epoch())
                .count();
        };

        ctx.progress("timing lesson: CUDA events");
        const Measurement events = time_launch(ctx, launch);
        const ElementwiseSpec spec{Elementwise::fma_chain, kFmas, 1.0f, kChainAdd};
        const Validation v = check_elementwise_output(ctx, in.get(), out.get(), n, spec,
                                                      Tolerance{}, "output elements");
        CaseLabel label = base;
        label.variant = "cuda_events";
        ResultEvent timed = measured_result(label, events, work.flops, work.bytes, v);
        timed.note = "the correct figure: CUDA events recorded on the stream around the kernel";
        ctx.report(std::move(timed));

        ctx.progress("timing lesson: host clock with synchronisation");
        const Measurement synced = measure(
            [&] {
                m_stream->synchronize();
                const double begin_s = host_now_s();
                launch(m_stream->get());
                m_stream->synchronize();
                return host_now_s() - begin_s;
            },
            ctx.criterion());
        label.variant = "host_clock_synchronized";
        ResultEvent sync_result = measured_result(label, synced, work.flops, work.bytes, v);
        sync_result.note =
            "host clock with cudaStreamSynchronize before and after: right, plus "
            "the launch and synchronisation overhead";
        ctx.report(std::move(sync_result));

        ctx.progress("timing lesson: host clock without synchronisation");
        // The stream is drained before each sample (untimed), so every sample sees an idle GPU
        // and the mistake is only the missing synchronisation after the launch; otherwise the
        // launch queue would fill and launches would start to wait for earlier kernels.
        MeasureHooks drain;
        drain.before_sample = [&] { m_stream->synchronize(); };
        const Measurement unsynced = measure(
            [&] {
                const double begin_s = host_now_s();
                launch(m_stream->get());
                return host_now_s() - begin_s;
            },
            ctx.criterion(), drain);
        m_stream->synchronize();
        label.variant = "host_clock_no_sync";
        ResultEvent wrong = measured_result(label, unsynced, work.flops, work.bytes, v);
        const double ratio = unsynced.summary.median_s > 0.0
                                 ? events.summary.median_s / unsynced.summary.median_s
                                 : 0.0;
        wrong.note =
            "WRONG ON PURPOSE, not a hardware figure: the host clock read right after an "
            "asynchronous launch times the launch, not the kernel (" +
            std::to_string(ratio) + "x faster than the event-timed median)";
        ctx.report(std::move(wrong));
    }

    cudaDeviceProp m_prop{};
    DeviceFacts m_facts;
    std::unique_ptr<Stream> m_stream;
    DeviceBuffer<CheckCounters> m_counters;
    std::unique_ptr<L2Flush> m_flush;  // created on the first test when --l2-flush is given
};

}  // namespace

bool cuda_backend_built() {
    return true;
}

std::vector<TestInfo> cuda_tests() {
    return {
        {"memory_bandwidth", "device memory read, write and copy with 16-byte accesses"},
        {"matmul",
         "cuBLASLt matmul at fp32, tf32, bf16, fp16 and fp8 E4M3 (compute capability "
         ">= 8.9) at several sizes"},
        {"gemm_shapes",
         "cuBLASLt GEMMs at given shapes (--gemm-shapes; batched with a count), else a sweep of "
         "square and skinny ones, at fp32, tf32, bf16, fp16 and fp8 E4M3"},
        {"relu", "ReLU, fp32 and bf16 (seed lecture: intensity 0.25 at bf16)"},
        {"gelu", "GELU, tanh approximation, fp32 and bf16 (seed lecture: intensity about 5)"},
        {"dot", "dot product of two fp32 vectors with a two-stage reduction"},
        {"matvec", "matrix-vector product, fp32, one warp per row"},
        {"intensity_sweep",
         "a tunable number of FMAs per element loaded (CUDA cores) and of "
         "MMAs per tile loaded (tensor cores, WMMA), memory- to compute-bound"},
        {"host_device_copy", "host to device and back, pinned and pageable memory"},
        {"timing_lesson",
         "one kernel timed with CUDA events, with a synchronised host clock, and "
         "with an unsynchronised host clock (wrong on purpose, as the seed "
         "lecture warns)"},
    };
}

std::optional<std::string> cuda_unavailable_reason(int device) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        // The failure is the answer; clear it so that it does not surface in a later call.
        (void)cudaGetLastError();
        return "no CUDA device: cudaGetDeviceCount returned " + describe(status) +
               driver_hint(status);
    }
    if (count == 0) {
        return std::string("no CUDA device: cudaGetDeviceCount found none");
    }
    if (device >= count) {
        return "no CUDA device " + std::to_string(device) + ": this machine has " +
               std::to_string(count) + " (0.." + std::to_string(count - 1) + ")";
    }
    return std::nullopt;
}

std::unique_ptr<Backend> make_cuda_backend(int device) {
    if (const auto reason = cuda_unavailable_reason(device)) {
        throw BackendUnavailable(*reason);
    }
    return std::make_unique<CudaBackend>(device);
}

}  // namespace tally::probe
