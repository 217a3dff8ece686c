// The nccl entry points of a probe built without CUDA or without NCCL: they say so, with exit
// status 3.
#include "gpu_probe/probe_nccl_backend.h"

namespace tally::probe {

namespace {
constexpr const char* kNotBuilt =
    "this tally-probe was built without NCCL (nvcc, or nccl.h and libnccl beside the CUDA "
    "toolkit, were not found, or TALLY_WITH_CUDA=OFF); rebuild on a machine with the CUDA "
    "toolkit and NCCL, or use --backend tcp to try a cluster launch on CPU ranks";
}

bool nccl_backend_built() {
    return false;
}

std::optional<std::string> nccl_unavailable_reason(int) {
    return std::string(kNotBuilt);
}

std::unique_ptr<CollectiveEngine> make_nccl_engine(ClusterBootstrap&, int) {
    throw BackendUnavailable(kNotBuilt);
}

}  // namespace tally::probe
