#pragma once

#include <cstdint>

namespace tally {

// The network one GPU reaches its peers through: the scale-up fabric inside a node (NVLink /
// NVSwitch, xGMI) and the scale-out network between nodes (InfiniBand, RoCE), each per GPU per
// direction, as a collective achieves it.
struct Network {
    std::int64_t gpus_per_node = 1;
    double intra_bytes_per_s = 0.0;  // achieved scale-up bandwidth per GPU per direction
    double inter_bytes_per_s = 0.0;  // achieved scale-out bandwidth per GPU per direction
};

enum class Collective { all_reduce, reduce_scatter, all_gather, all_to_all };

// Where a group of `ranks` GPUs whose consecutive members sit `stride` ranks apart lies (Megatron
// numbers ranks tensor-parallel first, then data-parallel, then pipeline; Narayanan et al. 2021,
// sec. 3): in one node, or spread over `nodes` nodes with `members_per_node` members on each.
struct GroupPlacement {
    std::int64_t ranks = 1;
    std::int64_t nodes = 1;
    std::int64_t members_per_node = 1;
};
GroupPlacement place_group(std::int64_t ranks, std::int64_t stride, std::int64_t gpus_per_node);

// The time of one collective over a placed group, `bytes` being the whole buffer (the all-reduce's
// tensor, the reduce-scatter's input, the all-gather's output, what one rank sends in an
// all-to-all), with the ring algorithm's bandwidth term (NCCL's PERFORMANCE.md: an all-reduce
// moves 2(n-1)/n of the buffer through each rank, a reduce-scatter or all-gather (n-1)/n) plus
// NCCL's latency model (src/graph/tuning.cc, ring, Simple protocol: 8.4 us plus 3.4 us per
// NVLink step and 14 us per network step).
struct CollectiveTime {
    double bandwidth_s = 0.0;
    double latency_s = 0.0;
    double seconds = 0.0;
};
CollectiveTime collective_time(Collective kind, double bytes, const GroupPlacement& group,
                               const Network& network);

// One dispatch (or combine) of a node-deduplicating expert-parallel dispatcher (DeepEP, HybridEP:
// Megatron-Core's "flex" token dispatcher) over a group that spans nodes. Each token goes across
// the network once to each other node that holds any of its experts (`remote_nodes` of them on
// average), to the GPU of the same local index there, which forwards it over the scale-up fabric
// to the experts' GPUs (DeepSeek-AI 2024, sec. 3.2.2: "first transmitted via IB to the GPUs with
// the same in-node index on their target nodes ... instantly forwarded via NVLink"); of the token's
// `copies` (k) expert copies, (m - 1)/m land on another GPU than the one that received them, m
// the group's members per node. `token_bytes`: one rank's tokens, one copy each. The two links
// run at once; one step of latency as in collective_time().
CollectiveTime flex_dispatch_time(double token_bytes, double copies, double remote_nodes,
                                  const GroupPlacement& group, const Network& network);

// One point-to-point send of `bytes` to a neighbour `stride` ranks away (a pipeline stage
// boundary): bytes / bandwidth of the link it crosses plus one step's latency.
double p2p_time_s(double bytes, std::int64_t stride, const Network& network);

// NCCL's latency constants (src/graph/tuning.cc, baseLat and hwLat, ring, Simple protocol).
inline constexpr double kCollectiveBaseLatencyS = 8.4e-6;
inline constexpr double kNvlinkStepLatencyS = 3.4e-6;
inline constexpr double kNetworkStepLatencyS = 14.0e-6;

}  // namespace tally
