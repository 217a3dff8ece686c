#pragma once
// The collectives the nccl and tcp backends measure and nccl-tests reports, with the bus
// bandwidth each one's algorithm bandwidth converts to. Shared by the probe (which reports
// bus_bytes_per_s) and the app (which reads nccl-tests logs), so both use one definition.

#include <array>
#include <optional>
#include <string_view>

namespace tally::probe {

// The backend name of runs imported from nccl-tests logs (planner/hardware/probe_import.h). Their
// start time is the time of the import, not of the measurement: it does not identify the run.
inline constexpr std::string_view kNcclTestsBackend = "nccl-tests";

enum class Collective { all_reduce, all_gather, reduce_scatter, alltoall, sendrecv };

inline constexpr std::array<Collective, 5> kAllCollectives = {
    Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter,
    Collective::alltoall, Collective::sendrecv};

// The test name of a collective in result events: nccl-tests' program name without "_perf".
constexpr std::string_view to_string(Collective c) {
    switch (c) {
        case Collective::all_reduce:
            return "all_reduce";
        case Collective::all_gather:
            return "all_gather";
        case Collective::reduce_scatter:
            return "reduce_scatter";
        case Collective::alltoall:
            return "alltoall";
        case Collective::sendrecv:
            return "sendrecv";
    }
    return "";
}

constexpr std::optional<Collective> collective_from_string(std::string_view name) {
    for (Collective c : kAllCollectives) {
        if (to_string(c) == name) {
            return c;
        }
    }
    return std::nullopt;
}

// busbw = algbw * factor, algbw = S / t with S the operation's size in bytes as nccl-tests
// counts it (doc/PERFORMANCE.md of NVIDIA/nccl-tests, "Bus bandwidth", and its "Summary"):
//   AllReduce 2(n-1)/n; ReduceScatter (n-1)/n; AllGather (n-1)/n; AlltoAll (n-1)/n;
//   Send/Recv 1 (src/sendrecv.cu, SendRecvGetBw: factor = 1).
// For an all-reduce a ring moves 2(n-1)/n of the data per rank, so busbw compares with the
// per-rank link bandwidth whatever n is. One rank (n = 1) has no bus: factor 0, as nccl-tests
// prints.
constexpr double bus_bandwidth_factor(Collective c, int ranks) {
    if (ranks <= 0) {
        return 0.0;
    }
    const double n = ranks;
    switch (c) {
        case Collective::all_reduce:
            return 2.0 * (n - 1.0) / n;
        case Collective::all_gather:
        case Collective::reduce_scatter:
        case Collective::alltoall:
            return (n - 1.0) / n;
        case Collective::sendrecv:
            return 1.0;
    }
    return 0.0;
}

}  // namespace tally::probe
