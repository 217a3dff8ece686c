// Collective and point-to-point communication times on a two-level network (collectives.h).
#include "planner/performance/collectives.h"

#include <algorithm>

namespace tally {

namespace {

double dbl(std::int64_t v) {
    return static_cast<double>(v);
}

double over(double bytes, double bytes_per_s) {
    return bytes_per_s > 0.0 ? bytes / bytes_per_s : 0.0;
}

}  // namespace

GroupPlacement place_group(std::int64_t ranks, std::int64_t stride, std::int64_t gpus_per_node) {
    GroupPlacement g;
    g.ranks = std::max<std::int64_t>(ranks, 1);
    const std::int64_t node = std::max<std::int64_t>(gpus_per_node, 1);
    const std::int64_t step = std::max<std::int64_t>(stride, 1);
    // Members `step` apart: a node of `node` GPUs holds node / step of them (at least one).
    g.members_per_node = std::min(g.ranks, std::max<std::int64_t>(node / step, 1));
    g.nodes = (g.ranks + g.members_per_node - 1) / g.members_per_node;
    return g;
}

CollectiveTime collective_time(Collective kind, double bytes, const GroupPlacement& group,
                               const Network& network) {
    CollectiveTime t;
    const std::int64_t n = group.ranks;
    if (n <= 1 || bytes <= 0.0) {
        return t;
    }
    const double k = dbl(group.members_per_node);
    const bool spans_nodes = group.nodes > 1;
    const double nodes = dbl(group.nodes);
    const double ranks = dbl(n);
    if (kind == Collective::all_to_all) {
        // Each rank sends (n-1)/n of its buffer: (k-1)/n to members of its own node over the
        // scale-up fabric, (n-k)/n to other nodes through its own NIC, both at once.
        const double intra = over(bytes * (k - 1.0) / ranks, network.intra_bytes_per_s);
        const double inter = over(bytes * (ranks - k) / ranks, network.inter_bytes_per_s);
        t.bandwidth_s = std::max(intra, inter);
        // The sends go out together: one step of the slowest link they cross.
        t.latency_s =
            kCollectiveBaseLatencyS + (spans_nodes ? kNetworkStepLatencyS : kNvlinkStepLatencyS);
        t.seconds = t.bandwidth_s + t.latency_s;
        return t;
    }
    // Ring algorithms (NCCL PERFORMANCE.md, "bus bandwidth"): an all-reduce sends 2(n-1)/n of the
    // buffer per rank in 2(n-1) steps, a reduce-scatter or all-gather (n-1)/n in n-1 steps.
    const bool all_reduce = kind == Collective::all_reduce;
    const double factor = (all_reduce ? 2.0 : 1.0) * (ranks - 1.0) / ranks;
    // Across nodes NCCL runs one ring per NIC: the k members of a node cross to the next node
    // through k NICs at once, so the ring's slowest hop carries k NICs' worth (and never more than
    // the scale-up fabric inside the node).
    const double ring_bytes_per_s =
        spans_nodes ? std::min(network.intra_bytes_per_s, network.inter_bytes_per_s * k)
                    : network.intra_bytes_per_s;
    t.bandwidth_s = over(factor * bytes, ring_bytes_per_s);
    // NCCL src/graph/tuning.cc: latency = baseLat + intra steps x NVLink hwLat + inter-node steps x
    // network hwLat, with 2(nNodes-1) of an all-reduce's 2(n-1) steps crossing nodes (nNodes-1 of
    // n-1 for the others).
    const double steps = (all_reduce ? 2.0 : 1.0) * (ranks - 1.0);
    const double inter_steps = (all_reduce ? 2.0 : 1.0) * (nodes - 1.0);
    t.latency_s = kCollectiveBaseLatencyS + (steps - inter_steps) * kNvlinkStepLatencyS +
                  inter_steps * kNetworkStepLatencyS;
    t.seconds = t.bandwidth_s + t.latency_s;
    return t;
}

CollectiveTime flex_dispatch_time(double token_bytes, double copies, double remote_nodes,
                                  const GroupPlacement& group, const Network& network) {
    CollectiveTime t;
    if (group.ranks <= 1 || token_bytes <= 0.0) {
        return t;
    }
    const double m = dbl(group.members_per_node);
    const double inter = over(token_bytes * remote_nodes, network.inter_bytes_per_s);
    const double intra = over(token_bytes * copies * (m - 1.0) / m, network.intra_bytes_per_s);
    t.bandwidth_s = std::max(intra, inter);
    t.latency_s =
        kCollectiveBaseLatencyS + (group.nodes > 1 ? kNetworkStepLatencyS : kNvlinkStepLatencyS);
    t.seconds = t.bandwidth_s + t.latency_s;
    return t;
}

double p2p_time_s(double bytes, std::int64_t stride, const Network& network) {
    if (bytes <= 0.0) {
        return 0.0;
    }
    const bool crosses_nodes = stride >= network.gpus_per_node;
    const double bw = crosses_nodes ? network.inter_bytes_per_s : network.intra_bytes_per_s;
    return over(bytes, bw) + kCollectiveBaseLatencyS +
           (crosses_nodes ? kNetworkStepLatencyS : kNvlinkStepLatencyS);
}

}  // namespace tally
