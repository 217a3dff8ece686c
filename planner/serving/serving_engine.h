#pragma once

// The serving engines Tally times (`inference.engine`), each a documented preset, and the
// fixed costs and small-message all-reduces a serving step pays besides its GEMMs and attention.
// Every figure cites its source next to it; none is fitted to a published serving result.

#include <cstdint>
#include <string>
#include <string_view>

#include "planner/core/spec.h"

namespace tally {

// How a tensor-parallel group sums its partial results.
enum class AllReduceKind {
    nccl,    // NCCL's ring (low-latency protocol for small messages)
    custom,  // the engine's own one-shot / two-shot kernel over NVLink peer memory
};
std::string_view to_string(AllReduceKind kind);

struct ServingEngineProfile {
    ServingEngine engine = ServingEngine::vllm;
    std::string_view label;
    // Decode steps replayed as CUDA graphs up to this many sequences (0: never): each kernel then
    // costs the graph-launched floor below instead of the stream-launched one.
    std::int64_t cuda_graph_max_batch = 0;
    // Kernels a transformer layer launches besides its weight GEMMs, the attention kernel and the
    // all-reduces (norms, rotary embedding, KV-cache write, activation), read from the engine's
    // model code; each costs at least a kernel's floor.
    double small_kernels_per_layer = 0.0;
    // Kernels a step launches once (embedding, final norm, sampling).
    double small_kernels_per_step = 0.0;
    // Host time per step the engine does not overlap with the GPU (scheduling, sampling
    // bookkeeping); 0 where the engine overlaps it.
    double host_step_s = 0.0;
    std::string_view attention_kernel;
    // The prefill (context) attention kernel, timed at its published throughput (engine.h's
    // attention_fraction()), on Hopper and on other parts.
    AttentionKernel prefill_attention_hopper = AttentionKernel::flash2;
    AttentionKernel prefill_attention_other = AttentionKernel::flash2;
    AllReduceKind all_reduce = AllReduceKind::nccl;
    // True: the residual add and RMSNorm run inside the all-reduce kernel, saving one small
    // kernel per all-reduce.
    bool fused_all_reduce_norm = false;
    std::string_view source;
    // True: the quantized checkpoints this engine runs quantize the output head with the other
    // weights (inference.output_head engine; spec.h's OutputHead says whose do).
    bool quantizes_head = false;
};

const ServingEngineProfile& serving_engine_profile(ServingEngine engine);

// How an engine sizes the KV cache it admits requests against, by its default setting. Each
// takes the memory a GPU has (`capacity`), holds the weights and one step's activations, and
// keeps the rest, or a share, for the cache:
enum class KvPoolRule {
    whole_memory,    // all that is left: capacity - weights - activations
    executor_share,  // a share of the whole for weights, activations and cache together:
                     // f x capacity - weights - activations
    static_share,    // a share of the whole for weights and cache, activations outside it:
                     // f x capacity - weights
    free_share,      // a share of what the weights and activations leave:
                     // f x (capacity - weights - activations)
};
struct KvPool {
    KvPoolRule rule = KvPoolRule::whole_memory;
    double fraction = 1.0;
    // The engine's setting and its default, as its source names it ("gpu_memory_utilization
    // 0.9"); kv_pool_setting() says the setting as the plan runs it.
    std::string_view setting;
    bool set_by_plan = false;  // `fraction` is the plan's inference.memory_fraction
};
// The engine's default pool.
KvPool kv_pool(ServingEngine engine, std::int64_t tp);
// The pool a serving plan runs with: the engine's default, or its setting at
// inference.memory_fraction where the plan sets it.
KvPool kv_pool(const InferenceSpec& in);
// The pool's setting in words: the engine's default as its source gives it, or the setting's name
// at the plan's value ("gpu_memory_utilization 0.95 (inference.memory_fraction)").
std::string kv_pool_setting(const KvPool& pool);
// The bytes of KV cache the pool holds on one GPU.
double kv_pool_bytes(const KvPool& pool, double capacity_bytes, double weights_bytes,
                     double activation_bytes);

// The time a kernel takes however little it does: launch, ramp-up and drain of one short kernel,
// measured back to back (NVIDIA Developer Blog, A. Gray, "Getting Started with CUDA Graphs",
// 2019: 3.4 us per short kernel launched as a graph, 3.8 us launched into a stream).
inline constexpr double kGraphKernelFloorS = 3.4e-6;
inline constexpr double kStreamKernelFloorS = 3.8e-6;

// ---- all-reduce of small messages --------------------------------------------------------------

// NCCL's own cost model of a ring all-reduce (NVIDIA/nccl src/graph/tuning.cc, commit b6475625:
// baseLat, hwLat and the bandwidth refinements of ncclTopoTuneModel). Each of its three
// protocols has a base latency per call, a latency per ring step over the link and a share of the
// link's bandwidth; NCCL runs a message with the protocol that gives it the least time
// (ncclTopoGetAlgoTime): LL for small messages, LL128 and Simple for large ones.
//   ring base latency, us:        LL 6.6, LL128 14.0, Simple 8.4
//   per step over NVLink, us:     LL 0.6, LL128 1.9,  Simple 3.4
//   per step over PCIe, us:       LL 1.0, LL128 2.5,  Simple 5.7
//   per step over the network, us: LL 2.7, LL128 4.0, Simple 14.0
//   bus bandwidth: LL a quarter of the link, at most 87.7 GB/s (llMaxBws, one node); LL128 0.92 of
//   the link (its per-channel cap depends on the channels NCCL opens, not modelled); Simple all
//   of it.
// Measured cross-checks: 8 x H100, NCCL through torch.distributed, 19.2 us at 128 B and 24.8 us at
// 256 KB (github.com/ByteDance-Seed/Triton-distributed/issues/57, 2025); the model gives 15.0 us
// and 20.2 us (LL); 2 x H100 in a CUDA graph about 6 us (github.com/NVIDIA/nccl/issues/1259,
// 2024), the model 7.8 us.
enum class CollectiveLink { nvlink, pci, network };
inline constexpr int kNcclProtocols = 3;  // LL, LL128, Simple

// The link bandwidth that model divides by is NCCL's own figure for the link, not the datasheet's
// (NVIDIA/nccl src/graph/topo.h and topo.cc): an NVLink counts SM70_/SM80_NVLINK_BW 20.0 GB/s,
// SM90_NVLINK_BW 20.6 and SM100_NVLINK_BW 40.1 per link (ncclTopoConnectNodes(..., LINK_NVL,
// count x ncclTopoNVLinkBw(compute capability))), against the 25, 25 and 50 GB/s per direction
// of NVLink 2-3, 4 and 5 links; a PCIe link width x speed / 80 (kvDictPciGen: 120 per lane at
// 16 GT/s, so 24 GB/s for Gen4 x16 against 32, and likewise for Gen3 and Gen5): three quarters.
// A network link counts its NIC's speed in full.
inline constexpr double kNcclNvlinkShareSm80 = 20.0 / 25.0;           // Volta and Ampere
inline constexpr double kNcclNvlinkShareSm90 = 20.6 / 25.0;           // Hopper
inline constexpr double kNcclNvlinkShareSm100 = 40.1 / 50.0;          // Blackwell
inline constexpr double kNcclPcieShare = 120.0 * 16.0 / 80.0 / 32.0;  // 24 GB/s of 32
inline constexpr double kNcclRingBaseLatencyS[kNcclProtocols] = {6.6e-6, 14.0e-6, 8.4e-6};
inline constexpr double kNcclRingStepLatencyS[3][kNcclProtocols] = {
    {0.6e-6, 1.9e-6, 3.4e-6},    // NVLink
    {1.0e-6, 2.5e-6, 5.7e-6},    // PCIe
    {2.7e-6, 4.0e-6, 14.0e-6}};  // network
inline constexpr double kNcclLlMaxBusBytesPerS = 87.7e9;
inline constexpr double kNcclLl128LinkShare = 0.92;
// The base latency of a point-to-point send (a pipeline stage's hand-off): the ring's LL figure.
inline constexpr double kServingAllReduceBaseLatencyS = kNcclRingBaseLatencyS[0];

// The engines' custom all-reduce (vLLM csrc/custom_all_reduce.cuh, SGLang's copy of it and
// TensorRT-LLM's one-shot / two-shot kernels) measured on A100 NVLink (sgl-project/sglang pull
// request 2688, 2024): 11.9 us at 512 B over 2 and 4 GPUs, 13.7 us over 8; 45.5 us for 1 MiB over
// 4 GPUs and 54.3 us for 2 MiB over 2. Latency: the 512 B figures; the per-byte cost: the slope
// from 512 B to those large messages, as an achieved bus bandwidth of the two-shot algorithm,
// 2(p - 1)/p x bytes / (t - latency): 4 GPUs: 1.5 x 1048576 / 33.6 us = 46.8 GB/s; 2 GPUs:
// 2097152 / 42.4 us = 49.5 GB/s; against A100's 300 GB/s per direction, 0.16 of the link.
inline constexpr double kCustomAllReduceLatencySmallS = 11.9e-6;  // 2 and 4 GPUs
inline constexpr double kCustomAllReduceLatency8S = 13.7e-6;      // 8 GPUs
inline constexpr double kCustomAllReduceLinkFraction = 0.16;
// The largest message the custom kernel takes; NCCL above it (vLLM
// distributed/device_communicators/custom_all_reduce.py: max_size = 8192 * 1024).
inline constexpr double kCustomAllReduceMaxBytes = 8192.0 * 1024.0;
// The largest message of those measurements (2 MiB over 2 GPUs): the share of the link above is
// an extrapolation past it.
inline constexpr double kCustomAllReduceMeasuredMaxBytes = 2.0 * 1024.0 * 1024.0;

struct ServingCollective {
    double bandwidth_s = 0.0;
    double latency_s = 0.0;
    double seconds = 0.0;
};

// One ring all-reduce of `bytes` over `ranks` GPUs, each link `link_bytes_per_s` per direction
// (NCCL's figure for it, above):
// 2(p-1)/p of the data through every link (Patarasuk & Yuan 2009, sec. 3; Thakur et al. 2005,
// sec. 4.5) in 2(p-1) steps, with NCCL's protocol that is fastest for the message (above). One
// rank: 0.
ServingCollective serving_ring_all_reduce(double bytes, std::int64_t ranks, double link_bytes_per_s,
                                          CollectiveLink link);

// One all-reduce of `bytes` over `ranks` GPUs of one NVLink domain by `kind`: NCCL as above, or
// the custom kernel up to its largest message: its measured latency plus 2(p-1)/p x bytes at its
// measured share of the link. Past the largest measured message that share is an extrapolation;
// there the engines' own choice bounds it: they run their kernel in place of NCCL because it
// improves on it (vLLM custom_all_reduce.py, should_custom_ar: off where it "provides little
// performance improvement over NCCL"), so it takes no longer than NCCL's ring, and no less than
// it took for the largest measured message (a larger message is never faster).
// `link_bytes_per_s` is the datasheet's rate, which the custom kernel's measured share is of;
// `nccl_link_bytes_per_s` NCCL's figure for the same link (above), which its ring runs at.
ServingCollective serving_all_reduce(AllReduceKind kind, double bytes, std::int64_t ranks,
                                     double link_bytes_per_s, double nccl_link_bytes_per_s,
                                     CollectiveLink link);

}  // namespace tally
