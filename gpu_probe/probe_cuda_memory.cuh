#pragma once
// RAII owners for CUDA resources, the move-only event timer (nvbench's cuda_timer.cuh), the L2
// flush (nvbench's l2flush.cuh) and the timing helper every CUDA test uses.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>

#include "gpu_probe/probe_backend.h"
#include "gpu_probe/probe_cuda_check.cuh"
#include "gpu_probe/probe_cuda_kernels.cuh"
#include "gpu_probe/probe_stats.h"
#include "gpu_probe/probe_validation.h"

namespace tally::probe::cuda {

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t n) : m_size(n) {
        void* p = nullptr;
        TALLY_CUDA_CALL(cudaMalloc(&p, bytes()));
        m_data = static_cast<T*>(p);
    }
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            reset();
            m_data = std::exchange(other.m_data, nullptr);
            m_size = std::exchange(other.m_size, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    T* get() const { return m_data; }
    std::size_t size() const { return m_size; }
    std::size_t bytes() const { return m_size * sizeof(T); }

    void reset() noexcept {
        if (m_data != nullptr) {
            TALLY_CUDA_CALL_NOEXCEPT(cudaFree(m_data));
            m_data = nullptr;
            m_size = 0;
        }
    }

private:
    T* m_data = nullptr;
    std::size_t m_size = 0;
};

// Page-locked host memory (cudaMallocHost): DMA-able, so copies run at the link's speed.
template <typename T>
class PinnedBuffer {
public:
    explicit PinnedBuffer(std::size_t n) : m_size(n) {
        void* p = nullptr;
        TALLY_CUDA_CALL(cudaMallocHost(&p, n * sizeof(T)));
        m_data = static_cast<T*>(p);
    }
    ~PinnedBuffer() {
        if (m_data != nullptr) {
            TALLY_CUDA_CALL_NOEXCEPT(cudaFreeHost(m_data));
        }
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    T* get() const { return m_data; }
    std::size_t size() const { return m_size; }

private:
    T* m_data = nullptr;
    std::size_t m_size = 0;
};

class Stream {
public:
    Stream() { TALLY_CUDA_CALL(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }
    ~Stream() { TALLY_CUDA_CALL_NOEXCEPT(cudaStreamDestroy(m_stream)); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return m_stream; }
    void synchronize() const { TALLY_CUDA_CALL(cudaStreamSynchronize(m_stream)); }

private:
    cudaStream_t m_stream = nullptr;
};

// Two CUDA events bracketing work on a stream. Move-only; the elapsed time is read after the stop
// event completes, so the figure is the device's, not the host's launch time.
class EventTimer {
public:
    EventTimer() {
        TALLY_CUDA_CALL(cudaEventCreate(&m_start));
        TALLY_CUDA_CALL(cudaEventCreate(&m_stop));
    }
    ~EventTimer() { destroy(); }
    EventTimer(EventTimer&& other) noexcept
        : m_start(std::exchange(other.m_start, nullptr)),
          m_stop(std::exchange(other.m_stop, nullptr)) {}
    EventTimer& operator=(EventTimer&& other) noexcept {
        if (this != &other) {
            destroy();
            m_start = std::exchange(other.m_start, nullptr);
            m_stop = std::exchange(other.m_stop, nullptr);
        }
        return *this;
    }
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;

    void start(cudaStream_t stream) { TALLY_CUDA_CALL(cudaEventRecord(m_start, stream)); }
    void stop(cudaStream_t stream) { TALLY_CUDA_CALL(cudaEventRecord(m_stop, stream)); }
    // Waits for the stop event, then returns the time between the events.
    double elapsed_s() const {
        TALLY_CUDA_CALL(cudaEventSynchronize(m_stop));
        float ms = 0.0f;
        TALLY_CUDA_CALL(cudaEventElapsedTime(&ms, m_start, m_stop));
        return static_cast<double>(ms) * 1e-3;
    }

private:
    void destroy() noexcept {
        if (m_start != nullptr) {
            TALLY_CUDA_CALL_NOEXCEPT(cudaEventDestroy(m_start));
        }
        if (m_stop != nullptr) {
            TALLY_CUDA_CALL_NOEXCEPT(cudaEventDestroy(m_stop));
        }
        m_start = m_stop = nullptr;
    }
    cudaEvent_t m_start = nullptr;
    cudaEvent_t m_stop = nullptr;
};

// Writes a buffer twice the size of L2 so that the next sample starts with nothing of its data
// in L2 (nvbench's l2flush.cuh writes one L2's worth with cudaMemsetAsync).
class L2Flush {
public:
    explicit L2Flush(std::size_t l2_bytes) : m_buffer(std::max<std::size_t>(2 * l2_bytes, 1)) {}
    void flush(cudaStream_t stream) {
        ++m_value;
        TALLY_CUDA_CALL(cudaMemsetAsync(m_buffer.get(), m_value, m_buffer.bytes(), stream));
    }

private:
    DeviceBuffer<unsigned char> m_buffer;
    unsigned char m_value = 0;
};

// How long hold_stream keeps the stream busy before each timed sample: many times the host's
// cost of recording an event and enqueueing a kernel or a cuBLASLt call (a few microseconds).
inline constexpr long long kHoldMicroseconds = 100;

// hold_stream's cycle count on the current device. A clock slower than the rated one only makes
// the hold longer.
inline long long hold_cycles() {
    int device = 0, clock_khz = 0;
    TALLY_CUDA_CALL(cudaGetDevice(&device));
    TALLY_CUDA_CALL(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    constexpr long long kFallbackKhz = 2'000'000;  // when the attribute says nothing
    return (clock_khz > 0 ? clock_khz : kFallbackKhz) * kHoldMicroseconds / 1000;
}

// Event-timed samples of `launch` on `stream` until the stop criterion says so; with an L2 flush
// before every sample (outside the events) when one is given. hold_stream runs before the start
// event of each sample, so that the work is already queued when the start event fires.
inline Measurement time_on_stream(const TestContext& ctx, cudaStream_t stream, L2Flush* flush,
                                  const std::function<void(cudaStream_t)>& launch) {
    EventTimer timer;
    const long long cycles = hold_cycles();
    MeasureHooks hooks;
    if (flush != nullptr) {
        hooks.before_sample = [&] { flush->flush(stream); };
    }
    return measure(
        [&] {
            hold_stream<<<1, 1, 0, stream>>>(cycles);
            TALLY_CUDA_CHECK_LAUNCH();
            timer.start(stream);
            launch(stream);
            timer.stop(stream);
            return timer.elapsed_s();
        },
        ctx.criterion(), hooks);
}

// bf16 has no arithmetic on the host side of the fault injection: corrupt through fp32.
inline __nv_bfloat16 corrupted(__nv_bfloat16 value) {
    return __float2bfloat16(::tally::probe::corrupted(__bfloat162float(value)));
}
using ::tally::probe::corrupted;

// --inject-fault on device data: corrupt one element in place before the check. The copies go
// through `stream` and are waited for: a plain cudaMemcpy from pageable memory may return before
// the element lands, and it is not ordered with the non-blocking stream the check runs on.
template <typename T>
void inject_device_fault(cudaStream_t stream, T* data, std::size_t n) {
    if (n == 0) {
        return;
    }
    T value{};
    T* target = data + fault_index(n);
    TALLY_CUDA_CALL(cudaMemcpyAsync(&value, target, sizeof(T), cudaMemcpyDeviceToHost, stream));
    TALLY_CUDA_CALL(cudaStreamSynchronize(stream));
    value = corrupted(value);
    TALLY_CUDA_CALL(cudaMemcpyAsync(target, &value, sizeof(T), cudaMemcpyHostToDevice, stream));
    TALLY_CUDA_CALL(cudaStreamSynchronize(stream));
}

}  // namespace tally::probe::cuda
