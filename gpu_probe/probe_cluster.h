#pragma once
// The ranks of a cluster probe and how they find each other, without MPI: the launcher (srun,
// mpirun) starts one tally-probe per GPU and tells each its rank in environment variables; the
// ranks then meet at rank 0's TCP port, which they learn from a file on a shared filesystem
// (--bootstrap-file) or from the command line (--bootstrap-address). Over these connections rank 0
// hands out the NCCL unique id, learns every rank's host (which tells intra-node from inter-node
// ranks), and gathers every rank's timings and validation counts, so that rank 0 alone writes
// the events. Qt-free and CUDA-free: tests run it with CPU ranks.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tally::probe {

// A failure to form the cluster (no rank 0, a rank that never came, a lost connection). Maps to
// an error event: the run cannot go on.
class BootstrapError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// This process's place among the ranks, from the launcher's environment.
struct RankPlacement {
    int rank = 0;
    int size = 1;
    int local_rank = 0;    // among the ranks on this host: picks the GPU
    std::string launcher;  // "slurm", "open-mpi", "pmi" (MPICH, Intel MPI), or "" (one rank)
};

using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view)>;
// The process environment.
EnvironmentLookup process_environment();

// Slurm (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID), Open MPI (OMPI_COMM_WORLD_RANK, _SIZE,
// _LOCAL_RANK) or PMI (PMI_RANK, PMI_SIZE, MPI_LOCALRANKID), first found wins; none: one rank.
// Throws std::invalid_argument naming the variable when a value is not a number or the rank is
// not below the size.
RankPlacement rank_placement(const EnvironmentLookup& environment);

// Where rank 0 listens: a file that rank 0 writes "PORT NAME..." into (atomically: its host
// name, then its IPv4 addresses) and the other ranks wait for, or a HOST:PORT every rank is told.
struct BootstrapAddress {
    std::string file;
    std::string host;
    int port = 0;
};
// "HOST:PORT" -> address; throws std::invalid_argument naming what is wrong.
BootstrapAddress parse_bootstrap_address(std::string_view text);

// The name a rank reports for its host: $TALLY_PROBE_HOST when set (a cluster whose host names
// are not unique per node, or tests standing in for several nodes), else the host name.
std::string rank_host_name(const EnvironmentLookup& environment);

// The connections between the ranks: a star with rank 0 at its centre. Every call is collective:
// all ranks make the same calls in the same order. One rank needs no connection at all.
class ClusterBootstrap {
public:
    // Forms the cluster: rank 0 listens (and writes the file), the others connect, and each
    // sends its host name. Waits at most `timeout` for the others; throws BootstrapError.
    static std::unique_ptr<ClusterBootstrap> connect(const RankPlacement& placement,
                                                     const BootstrapAddress& address,
                                                     const std::string& host,
                                                     std::chrono::duration<double> timeout);
    ~ClusterBootstrap();
    ClusterBootstrap(const ClusterBootstrap&) = delete;
    ClusterBootstrap& operator=(const ClusterBootstrap&) = delete;

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    // Every rank's host, by rank.
    const std::vector<std::string>& hosts() const { return m_hosts; }
    // How many distinct hosts, and the ranks on the same host as `rank` (ascending).
    int node_count() const;
    std::vector<int> ranks_on_host_of(int rank) const;

    // Rank 0's `bytes` on every rank.
    std::string broadcast(const std::string& bytes);
    // Every rank's `bytes` at rank 0, by rank; the other ranks get an empty vector.
    std::vector<std::string> gather(const std::string& bytes);
    // Rank 0's `per_rank[r]` at rank r (per_rank is read on rank 0 only).
    std::string scatter(const std::vector<std::string>& per_rank);
    // Numbers, for timings and counts.
    std::vector<double> gather_number(double value);
    double broadcast_number(double value);

private:
    ClusterBootstrap() = default;
    void send_to(int peer, const std::string& bytes);
    std::string receive_from(int peer);

    int m_rank = 0;
    int m_size = 1;
    std::vector<std::string> m_hosts;
    std::vector<int> m_sockets;  // rank 0: one per rank (index 0 unused); others: [0] = rank 0
    std::string m_file;          // rank 0 removes it at the end
    std::chrono::duration<double> m_timeout{};
};

}  // namespace tally::probe
