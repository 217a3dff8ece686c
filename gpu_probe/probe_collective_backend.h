#pragma once
// The cluster backends (nccl on GPUs, tcp on CPU ranks): every rank runs the same tests in the
// same order; a collective engine moves the data, and this backend measures it. Per case every
// rank times its own operations, rank 0 gathers the times over the bootstrap connections and
// takes the slowest rank's (a collective has finished only when every rank has), decides when to
// stop sampling (the same rule as every backend, probe_stats.h) and tells the others; then every
// rank checks its output against the closed forms of probe_collective_pattern.h and rank 0 adds
// up the wrong elements. Only rank 0's events reach stdout (the launcher merges the ranks'
// output), so a run reads like any other.
//
// Intra-node and inter-node figures are told apart by host: a case runs over every rank (its
// sizes say how many hosts that spans) and, when the ranks span several hosts, over the ranks of
// each host at once (nodes: 1).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu_probe/probe_backend.h"
#include "gpu_probe/probe_cluster.h"
#include "gpu_probe/protocol/probe_collectives.h"

namespace tally::probe {

enum class CollectiveScope { world, node };

// Moves the data of one collective among the ranks; one per rank.
class CollectiveEngine {
public:
    virtual ~CollectiveEngine() = default;
    // This rank's device, for the device event.
    virtual std::string device_name() = 0;
    virtual std::optional<std::int64_t> device_memory_bytes() = 0;
    // The largest size S (bytes, as nccl-tests counts it) worth measuring.
    virtual std::int64_t max_bytes(bool quick) const = 0;
    // Buffers for `collective` over the ranks of `scope`, `count` = S / 4 fp32 elements (a
    // multiple of the group's size), inputs filled with collective_input().
    virtual void prepare(Collective collective, CollectiveScope scope, std::int64_t count) = 0;
    // Runs the prepared collective `repetitions` times; returns this rank's seconds per
    // operation.
    virtual double timed(int repetitions) = 0;
    // Elements of this rank's output that differ from collective_expected(); with `corrupt`,
    // one element is corrupted first (--inject-fault).
    virtual std::int64_t count_wrong(bool corrupt) = 0;
};

// all_reduce, all_gather, reduce_scatter, alltoall, sendrecv.
std::vector<TestInfo> collective_tests();

// The sizes S of a run: 1 KiB, 4 KiB, ..., 1 GiB (quick: 1 KiB, 1 MiB, 64 MiB), up to
// `max_bytes`.
std::vector<std::int64_t> collective_sizes(bool quick, std::int64_t max_bytes);

// The element count of a case: S / 4 rounded down to a multiple of every group size (so each
// rank's block is whole), at least one block.
std::int64_t collective_count(std::int64_t bytes, const std::vector<int>& group_sizes);

// Merges one sample of every rank into the case's sample: the slowest rank's time.
double merged_sample_s(const std::vector<double>& per_rank_s);

class CollectiveBackend : public Backend {
public:
    CollectiveBackend(std::string name, std::unique_ptr<ClusterBootstrap> bootstrap,
                      std::unique_ptr<CollectiveEngine> engine);
    std::string_view name() const override { return m_name; }
    DeviceEvent describe() override;
    std::vector<TestInfo> tests() const override { return collective_tests(); }
    void run(std::string_view test, TestContext& ctx) override;

private:
    void run_case(Collective collective, CollectiveScope scope, std::int64_t bytes,
                  TestContext& ctx);

    std::string m_name;
    std::unique_ptr<ClusterBootstrap> m_bootstrap;
    std::unique_ptr<CollectiveEngine> m_engine;
};

// The tcp engine: CPU ranks whose collectives go through rank 0 over the bootstrap's TCP
// connections (every rank sends its input to rank 0, which computes each rank's output from the
// inputs and sends it back). It measures that relay, not a GPU network; it exists so that the
// launch, bootstrap, merging and validation of a cluster run can be tried without GPUs.
std::unique_ptr<CollectiveEngine> make_tcp_engine(ClusterBootstrap& bootstrap);

}  // namespace tally::probe
