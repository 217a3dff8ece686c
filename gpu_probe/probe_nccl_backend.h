#pragma once
// The nccl backend's entry points. Built from probe_nccl_engine.cu when CUDA and NCCL are found
// (NCCL ships with the CUDA toolkit at /usr/local/cuda), else from probe_nccl_absent.cpp, which
// says so with exit status 3.

#include <memory>
#include <optional>
#include <string>

#include "gpu_probe/probe_collective_backend.h"

namespace tally::probe {

bool nccl_backend_built();
// Why this rank cannot run NCCL collectives (not built in, no driver, no GPU for its local
// rank), or nullopt. Asked before the ranks meet, so a cluster without GPUs fails at once.
std::optional<std::string> nccl_unavailable_reason(int local_rank);
// The engine of this rank: picks GPU local_rank mod the GPUs on the host, gets the NCCL unique
// id from rank 0 through `bootstrap`, and forms the world communicator and, when the ranks span
// several hosts, one per host. Throws BackendUnavailable when nccl_unavailable_reason() says so.
std::unique_ptr<CollectiveEngine> make_nccl_engine(ClusterBootstrap& bootstrap, int local_rank);

}  // namespace tally::probe
