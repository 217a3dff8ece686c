#pragma once
// Checked CUDA and cuBLAS calls (nvbench's cuda_call.cuh): the message names the expression and
// file:line, and the noexcept twin reports instead of throwing, for destructors.

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace tally::probe::cuda {

class CudaError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline std::string describe(cudaError_t status) {
    return std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")";
}

inline std::string describe(cublasStatus_t status) {
    return std::string(cublasLtGetStatusName(status)) + " (" + cublasLtGetStatusString(status) +
           ")";
}

template <typename Status>
std::string failure_message(Status status, const char* expression, const char* file, int line) {
    return std::string(expression) + " failed at " + file + ":" + std::to_string(line) + ": " +
           describe(status);
}

inline void check(cudaError_t status, const char* expression, const char* file, int line) {
    if (status != cudaSuccess) {
        throw CudaError(failure_message(status, expression, file, line));
    }
}

inline void check(cublasStatus_t status, const char* expression, const char* file, int line) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        throw CudaError(failure_message(status, expression, file, line));
    }
}

template <typename Status>
void check_noexcept(Status status, Status success, const char* expression, const char* file,
                    int line) noexcept {
    if (status != success) {
        std::fprintf(stderr, "tally-probe: %s\n",
                     failure_message(status, expression, file, line).c_str());
    }
}

}  // namespace tally::probe::cuda

#define TALLY_CUDA_CALL(expression) \
    ::tally::probe::cuda::check((expression), #expression, __FILE__, __LINE__)
#define TALLY_CUDA_CALL_NOEXCEPT(expression)                                                  \
    ::tally::probe::cuda::check_noexcept<cudaError_t>((expression), cudaSuccess, #expression, \
                                                      __FILE__, __LINE__)
#define TALLY_CUBLAS_CALL(expression) \
    ::tally::probe::cuda::check((expression), #expression, __FILE__, __LINE__)
#define TALLY_CUBLAS_CALL_NOEXCEPT(expression)                                                \
    ::tally::probe::cuda::check_noexcept<cublasStatus_t>((expression), CUBLAS_STATUS_SUCCESS, \
                                                         #expression, __FILE__, __LINE__)
// After a <<<...>>> launch: a bad configuration shows up here, not at the launch.
#define TALLY_CUDA_CHECK_LAUNCH() TALLY_CUDA_CALL(cudaGetLastError())
