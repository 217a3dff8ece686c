// The CUDA entry points of a probe built without CUDA: they say so, with exit status 3.
#include "gpu_probe/probe_cuda_backend.h"

namespace tally::probe {

namespace {
constexpr const char* kNotBuilt =
    "this tally-probe was built without CUDA (nvcc was not found or TALLY_WITH_CUDA=OFF); "
    "rebuild on a machine with the CUDA toolkit, or use --backend cpu";
}

bool cuda_backend_built() {
    return false;
}

std::vector<TestInfo> cuda_tests() {
    return {};
}

std::optional<std::string> cuda_unavailable_reason(int) {
    return std::string(kNotBuilt);
}

std::unique_ptr<Backend> make_cuda_backend(int) {
    throw BackendUnavailable(kNotBuilt);
}

}  // namespace tally::probe
