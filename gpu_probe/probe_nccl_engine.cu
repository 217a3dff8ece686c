// The nccl backend's engine: NCCL collectives on this rank's GPU, timed with CUDA events on the
// stream, outputs checked on the device against the closed forms of probe_collective_pattern.h.
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "gpu_probe/probe_collective_pattern.h"
#include "gpu_probe/probe_cuda_check.cuh"
#include "gpu_probe/probe_nccl_backend.h"

namespace tally::probe {

namespace {

void check_nccl(ncclResult_t status, const char* expression, const char* file, int line) {
    if (status != ncclSuccess) {
        throw cuda::CudaError(
            std::string(expression) + " failed at " + file + ":" + std::to_string(line) + ": " +
            ncclGetErrorString(status) +
            (status == ncclSystemError || status == ncclRemoteError || status == ncclInternalError
                 ? std::string(" (NCCL_DEBUG=WARN says more)")
                 : std::string()));
    }
}

#define TALLY_NCCL_CALL(expression) check_nccl((expression), #expression, __FILE__, __LINE__)

__global__ void fill_input(float* data, std::int64_t n, int me) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
         i += stride) {
        data[i] = collective_input(me, i);
    }
}

__global__ void count_mismatches(const float* data, std::int64_t n, Collective c, int ranks, int me,
                                 std::int64_t count, unsigned long long* wrong) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    unsigned long long mine = 0;
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
         i += stride) {
        // != is true for NaN: a NaN never passes.
        mine += data[i] != collective_expected(c, ranks, me, count, i) ? 1 : 0;
    }
    if (mine > 0) {
        atomicAdd(wrong, mine);
    }
}

__global__ void corrupt_first(float* data) {
    data[0] += 1e9f * (1.0f + fabsf(data[0]));
}

constexpr int kThreads = 256;
int blocks_for(std::int64_t n) {
    return static_cast<int>(std::clamp<std::int64_t>((n + kThreads - 1) / kThreads, 1, 4096));
}

struct Communicator {
    ncclComm_t comm = nullptr;
    int ranks = 1;
    int me = 0;
};

class NcclEngine : public CollectiveEngine {
public:
    NcclEngine(ClusterBootstrap& bootstrap, int local_rank) : m_b(bootstrap) {
        int devices = 0;
        TALLY_CUDA_CALL(cudaGetDeviceCount(&devices));
        m_device = local_rank % devices;
        TALLY_CUDA_CALL(cudaSetDevice(m_device));
        TALLY_CUDA_CALL(cudaGetDeviceProperties(&m_properties, m_device));
        TALLY_CUDA_CALL(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
        TALLY_CUDA_CALL(cudaEventCreate(&m_start));
        TALLY_CUDA_CALL(cudaEventCreate(&m_stop));
        TALLY_CUDA_CALL(cudaMalloc(&m_wrong, sizeof(unsigned long long)));

        // Rank 0's unique id reaches every rank through the bootstrap (NCCL's own example does
        // this with MPI_Bcast).
        ncclUniqueId id;
        std::string bytes;
        if (m_b.rank() == 0) {
            TALLY_NCCL_CALL(ncclGetUniqueId(&id));
            bytes.assign(reinterpret_cast<const char*>(&id), sizeof id);
        }
        bytes = m_b.broadcast(bytes);
        if (bytes.size() != sizeof id) {
            throw BootstrapError("the NCCL unique id from rank 0 has " +
                                 std::to_string(bytes.size()) + " bytes");
        }
        std::memcpy(&id, bytes.data(), sizeof id);
        TALLY_NCCL_CALL(ncclCommInitRank(&m_world.comm, m_b.size(), id, m_b.rank()));
        m_world.ranks = m_b.size();
        m_world.me = m_b.rank();
        const std::vector<int> host_ranks = m_b.ranks_on_host_of(m_b.rank());
        if (m_b.node_count() > 1) {
            // One communicator per host: the colour is the host's first rank.
            TALLY_NCCL_CALL(
                ncclCommSplit(m_world.comm, host_ranks.front(), m_b.rank(), &m_node.comm, nullptr));
            m_node.ranks = static_cast<int>(host_ranks.size());
            m_node.me = static_cast<int>(
                std::find(host_ranks.begin(), host_ranks.end(), m_b.rank()) - host_ranks.begin());
        }
    }

    ~NcclEngine() override {
        release_buffers();
        for (Communicator* c : {&m_node, &m_world}) {
            if (c->comm != nullptr) {
                ncclCommDestroy(c->comm);
            }
        }
        TALLY_CUDA_CALL_NOEXCEPT(cudaFree(m_wrong));
        TALLY_CUDA_CALL_NOEXCEPT(cudaEventDestroy(m_start));
        TALLY_CUDA_CALL_NOEXCEPT(cudaEventDestroy(m_stop));
        TALLY_CUDA_CALL_NOEXCEPT(cudaStreamDestroy(m_stream));
    }

    std::string device_name() override { return m_properties.name; }
    std::optional<std::int64_t> device_memory_bytes() override {
        return static_cast<std::int64_t>(m_properties.totalGlobalMem);
    }
    // Two buffers of S: up to 1 GiB each when the GPU has room for them and NCCL's own buffers.
    std::int64_t max_bytes(bool quick) const override {
        const std::int64_t limit = quick ? (std::int64_t{64} << 20) : (std::int64_t{1} << 30);
        return std::min<std::int64_t>(limit,
                                      static_cast<std::int64_t>(m_properties.totalGlobalMem / 4));
    }

    void prepare(Collective collective, CollectiveScope scope, std::int64_t count) override {
        m_collective = collective;
        m_comm = scope == CollectiveScope::node && m_node.comm != nullptr ? m_node : m_world;
        m_count = count;
        m_send_count = collective_send_count(collective, count, m_comm.ranks);
        m_recv_count = collective_recv_count(collective, count, m_comm.ranks);
        const std::size_t need = static_cast<std::size_t>(std::max(m_send_count, m_recv_count));
        if (need > m_capacity) {
            release_buffers();
            TALLY_CUDA_CALL(cudaMalloc(&m_send, need * sizeof(float)));
            TALLY_CUDA_CALL(cudaMalloc(&m_recv, need * sizeof(float)));
            m_capacity = need;
        }
        fill_input<<<blocks_for(m_send_count), kThreads, 0, m_stream>>>(m_send, m_send_count,
                                                                        m_comm.me);
        TALLY_CUDA_CHECK_LAUNCH();
        TALLY_CUDA_CALL(cudaMemsetAsync(m_recv, 0, need * sizeof(float), m_stream));
        TALLY_CUDA_CALL(cudaStreamSynchronize(m_stream));
    }

    double timed(int repetitions) override {
        TALLY_CUDA_CALL(cudaEventRecord(m_start, m_stream));
        for (int i = 0; i < repetitions; ++i) {
            launch();
        }
        TALLY_CUDA_CALL(cudaEventRecord(m_stop, m_stream));
        TALLY_CUDA_CALL(cudaEventSynchronize(m_stop));
        float ms = 0.0f;
        TALLY_CUDA_CALL(cudaEventElapsedTime(&ms, m_start, m_stop));
        return ms * 1e-3 / repetitions;
    }

    std::int64_t count_wrong(bool corrupt) override {
        if (corrupt && m_recv_count > 0) {
            corrupt_first<<<1, 1, 0, m_stream>>>(m_recv);
            TALLY_CUDA_CHECK_LAUNCH();
        }
        TALLY_CUDA_CALL(cudaMemsetAsync(m_wrong, 0, sizeof(unsigned long long), m_stream));
        count_mismatches<<<blocks_for(m_recv_count), kThreads, 0, m_stream>>>(
            m_recv, m_recv_count, m_collective, m_comm.ranks, m_comm.me, m_count, m_wrong);
        TALLY_CUDA_CHECK_LAUNCH();
        unsigned long long wrong = 0;
        TALLY_CUDA_CALL(
            cudaMemcpyAsync(&wrong, m_wrong, sizeof wrong, cudaMemcpyDeviceToHost, m_stream));
        TALLY_CUDA_CALL(cudaStreamSynchronize(m_stream));
        return static_cast<std::int64_t>(wrong);
    }

private:
    void launch() {
        const ncclComm_t comm = m_comm.comm;
        const int n = m_comm.ranks;
        switch (m_collective) {
            case Collective::all_reduce:
                TALLY_NCCL_CALL(ncclAllReduce(m_send, m_recv, static_cast<size_t>(m_count),
                                              ncclFloat, ncclSum, comm, m_stream));
                break;
            case Collective::all_gather:
                TALLY_NCCL_CALL(ncclAllGather(m_send, m_recv, static_cast<size_t>(m_send_count),
                                              ncclFloat, comm, m_stream));
                break;
            case Collective::reduce_scatter:
                TALLY_NCCL_CALL(ncclReduceScatter(m_send, m_recv, static_cast<size_t>(m_recv_count),
                                                  ncclFloat, ncclSum, comm, m_stream));
                break;
            case Collective::alltoall: {
                // As nccl-tests does it (src/alltoall.cu): a group of sends and receives.
                const std::int64_t block = m_count / n;
                TALLY_NCCL_CALL(ncclGroupStart());
                for (int peer = 0; peer < n; ++peer) {
                    TALLY_NCCL_CALL(ncclSend(m_send + peer * block, static_cast<size_t>(block),
                                             ncclFloat, peer, comm, m_stream));
                    TALLY_NCCL_CALL(ncclRecv(m_recv + peer * block, static_cast<size_t>(block),
                                             ncclFloat, peer, comm, m_stream));
                }
                TALLY_NCCL_CALL(ncclGroupEnd());
                break;
            }
            case Collective::sendrecv: {
                const int next = (m_comm.me + 1) % n;
                const int previous = (m_comm.me + n - 1) % n;
                TALLY_NCCL_CALL(ncclGroupStart());
                TALLY_NCCL_CALL(ncclSend(m_send, static_cast<size_t>(m_count), ncclFloat, next,
                                         comm, m_stream));
                TALLY_NCCL_CALL(ncclRecv(m_recv, static_cast<size_t>(m_count), ncclFloat, previous,
                                         comm, m_stream));
                TALLY_NCCL_CALL(ncclGroupEnd());
                break;
            }
        }
    }

    void release_buffers() {
        TALLY_CUDA_CALL_NOEXCEPT(cudaFree(m_send));
        TALLY_CUDA_CALL_NOEXCEPT(cudaFree(m_recv));
        m_send = nullptr;
        m_recv = nullptr;
        m_capacity = 0;
    }

    ClusterBootstrap& m_b;
    int m_device = 0;
    cudaDeviceProp m_properties{};
    cudaStream_t m_stream = nullptr;
    cudaEvent_t m_start = nullptr;
    cudaEvent_t m_stop = nullptr;
    unsigned long long* m_wrong = nullptr;
    Communicator m_world;
    Communicator m_node;
    Communicator m_comm;
    Collective m_collective = Collective::all_reduce;
    std::int64_t m_count = 0;
    std::int64_t m_send_count = 0;
    std::int64_t m_recv_count = 0;
    float* m_send = nullptr;
    float* m_recv = nullptr;
    std::size_t m_capacity = 0;  // elements of each buffer
};

}  // namespace

bool nccl_backend_built() {
    return true;
}

std::optional<std::string> nccl_unavailable_reason(int local_rank) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        (void)cudaGetLastError();
        return "no CUDA device for NCCL: cudaGetDeviceCount returned " + cuda::describe(status);
    }
    if (count == 0) {
        return std::string("no CUDA device for NCCL: cudaGetDeviceCount found none");
    }
    (void)local_rank;  // any local rank maps to a GPU (local_rank mod count)
    return std::nullopt;
}

std::unique_ptr<CollectiveEngine> make_nccl_engine(ClusterBootstrap& bootstrap, int local_rank) {
    if (const auto reason = nccl_unavailable_reason(local_rank)) {
        throw BackendUnavailable(*reason);
    }
    return std::make_unique<NcclEngine>(bootstrap, local_rank);
}

}  // namespace tally::probe
