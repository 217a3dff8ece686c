#pragma once
// The inputs and expected outputs of the collectives the cluster backends validate, as closed
// forms of a rank's position in its group and an element's index: host code (the tcp backend,
// tests) and device code (the nccl backend's kernels) compute them alike. Every value is a small
// integer, exact in fp32: the largest, an all-reduce over n ranks, is 13·n(n+1)/2, below 2^24
// up to n = 1600.
//
// Buffer layouts follow nccl-tests (src/*.cu), with S the size it reports, c = S/4 elements:
//   all_reduce      send c,   recv c:   recv[i] = sum over ranks r of v(r, i)
//   all_gather      send c/n, recv c:   recv[k·c/n + i] = v(k, i)
//   reduce_scatter  send c,   recv c/n: recv[i] = sum over r of v(r, me·c/n + i)
//   alltoall        send c,   recv c:   recv[k·c/n + i] = v(k, me·c/n + i)  (block k from rank k)
//   sendrecv        send c,   recv c:   recv[i] = v(me - 1 mod n, i)  (a ring: send to me + 1)

#include <cstdint>

#include "gpu_probe/protocol/probe_collectives.h"

#if defined(__CUDACC__)
#define TALLY_HOST_DEVICE __host__ __device__
#else
#define TALLY_HOST_DEVICE
#endif

namespace tally::probe {

// Rank r's input element i: (r + 1)·(i mod 13 + 1).
TALLY_HOST_DEVICE inline float collective_input(int rank, std::int64_t i) {
    return static_cast<float>((rank + 1) * static_cast<int>(i % 13 + 1));
}

// How many elements the send and receive buffers hold for `count` = S / 4.
TALLY_HOST_DEVICE inline std::int64_t collective_send_count(Collective c, std::int64_t count,
                                                            int ranks) {
    return c == Collective::all_gather ? count / ranks : count;
}
TALLY_HOST_DEVICE inline std::int64_t collective_recv_count(Collective c, std::int64_t count,
                                                            int ranks) {
    return c == Collective::reduce_scatter ? count / ranks : count;
}

// What rank `me` of `ranks` must hold at receive element i afterwards.
TALLY_HOST_DEVICE inline float collective_expected(Collective c, int ranks, int me,
                                                   std::int64_t count, std::int64_t i) {
    const std::int64_t block = count / ranks;
    const int triangle = ranks * (ranks + 1) / 2;  // sum of (r + 1) over the ranks
    switch (c) {
        case Collective::all_reduce:
            return static_cast<float>(triangle * static_cast<int>(i % 13 + 1));
        case Collective::all_gather:
            return collective_input(static_cast<int>(i / block), i % block);
        case Collective::reduce_scatter:
            return static_cast<float>(triangle * static_cast<int>((me * block + i) % 13 + 1));
        case Collective::alltoall:
            return collective_input(static_cast<int>(i / block), me * block + i % block);
        case Collective::sendrecv:
            return collective_input((me + ranks - 1) % ranks, i);
    }
    return 0.0f;
}

}  // namespace tally::probe
