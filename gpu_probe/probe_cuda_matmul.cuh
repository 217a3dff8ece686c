#pragma once
// Matmul through cuBLASLt at fp32, tf32, bf16, fp16 and fp8 E4M3: square sizes (matmul) and
// given shapes, batched or not (gemm_shapes).

#include "gpu_probe/probe_backend.h"
#include "gpu_probe/probe_cuda_memory.cuh"

namespace tally::probe::cuda {

struct DeviceFacts {
    int index = 0;
    int cc_major = 0;
    int cc_minor = 0;
    std::size_t l2_bytes = 0;
    int sm_count = 0;
    int compute_capability() const { return cc_major * 10 + cc_minor; }
};

// Reports one result per dtype and size. `flush` is null unless --l2-flush was given.
void run_matmul(TestContext& ctx, const DeviceFacts& device, Stream& stream, L2Flush* flush);
// Reports one result per shape of --gemm-shapes (else the default sweep); dtypes cuBLASLt cannot
// run here are waived.
void run_gemm_shapes(TestContext& ctx, const DeviceFacts& device, Stream& stream, L2Flush* flush);

}  // namespace tally::probe::cuda
