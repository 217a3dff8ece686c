#pragma once
// The CUDA backend's entry points. Defined in probe_cuda_backend.cu when the probe is built with
// CUDA, and in probe_cuda_absent.cpp otherwise, so the rest of the probe compiles either way.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu_probe/probe_backend.h"

namespace tally::probe {

// Whether this executable contains the CUDA backend.
bool cuda_backend_built();

// The CUDA backend's tests (empty when not built).
std::vector<TestInfo> cuda_tests();

// Why device `device` cannot be used, e.g. "no CUDA device: cudaGetDeviceCount returned
// cudaErrorInsufficientDriver (...)"; nullopt when it can.
std::optional<std::string> cuda_unavailable_reason(int device);

// Throws BackendUnavailable with that reason when the device cannot be used.
std::unique_ptr<Backend> make_cuda_backend(int device);

}  // namespace tally::probe
