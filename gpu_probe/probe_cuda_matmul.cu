#include "gpu_probe/probe_cuda_matmul.cuh"

#include <cublasLt.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu_probe/probe_cuda_check.cuh"
#include "gpu_probe/probe_cuda_kernels.cuh"
#include "gpu_probe/probe_ops.h"
#include "gpu_probe/probe_pattern.h"
#include "gpu_probe/probe_validation.h"

namespace tally::probe::cuda {

namespace {

struct MatmulType {
    const char* dtype;
    cudaDataType_t input;   // A and B
    cudaDataType_t output;  // C and D
    cublasComputeType_t compute;
    int input_bytes;
    int output_bytes;
    int min_compute_capability;  // major·10 + minor
    double output_roundoff;      // unit roundoff of the output format
    const char* note;
};

// fp8 E4M3 with bf16 output, the combination cuBLASLt documents for Ada and Hopper (it needs the
// "TN" layout, which every case here uses). tf32: fp32 storage, inputs rounded to tf32 inside.
const MatmulType kTypes[] = {
    {"fp32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4, 0, kUnitRoundoffFp32,
     "fp32 inputs and outputs, fp32 compute (CUDA cores)"},
    {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4, 80, kUnitRoundoffFp32,
     "fp32 storage, tf32 tensor cores"},
    {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2, 80, kUnitRoundoffBf16,
     "bf16 inputs and outputs, fp32 accumulation"},
    {"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2, 70, kUnitRoundoffFp16,
     "fp16 inputs and outputs, fp32 accumulation"},
    {"fp8_e4m3", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2, 89, kUnitRoundoffBf16,
     "fp8 E4M3 inputs, bf16 output, fp32 compute"},
};

constexpr std::size_t kWorkspaceBytes = 32u << 20;  // cuBLAS's recommendation for Hopper

template <typename Handle, cublasStatus_t (*Destroy)(Handle)>
class LtObject {
public:
    LtObject() = default;
    ~LtObject() {
        if (m_handle != nullptr) {
            TALLY_CUBLAS_CALL_NOEXCEPT(Destroy(m_handle));
        }
    }
    LtObject(const LtObject&) = delete;
    LtObject& operator=(const LtObject&) = delete;
    Handle* out() { return &m_handle; }
    Handle get() const { return m_handle; }

private:
    Handle m_handle = nullptr;
};

using LtHandle = LtObject<cublasLtHandle_t, cublasLtDestroy>;
using LtMatmulDesc = LtObject<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy>;
using LtLayout = LtObject<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy>;
using LtPreference = LtObject<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy>;

void fill_dyadic_as(cudaDataType_t type, void* data, std::size_t n, std::uint64_t seed,
                    cudaStream_t stream) {
    const int blocks = 1024;
    switch (type) {
        case CUDA_R_32F:
            fill_dyadic<<<blocks, kBlockThreads, 0, stream>>>(static_cast<float*>(data), n, seed);
            break;
        case CUDA_R_16BF:
            fill_dyadic<<<blocks, kBlockThreads, 0, stream>>>(static_cast<__nv_bfloat16*>(data), n,
                                                              seed);
            break;
        case CUDA_R_16F:
            fill_dyadic<<<blocks, kBlockThreads, 0, stream>>>(static_cast<__half*>(data), n, seed);
            break;
        case CUDA_R_8F_E4M3:
            fill_dyadic<<<blocks, kBlockThreads, 0, stream>>>(static_cast<__nv_fp8_e4m3*>(data), n,
                                                              seed);
            break;
        default:
            throw CudaError("fill_dyadic_as: unexpected data type");
    }
    TALLY_CUDA_CHECK_LAUNCH();
}

// D copied to the host and widened to fp32 (bf16, fp16 and fp32 outputs).
std::vector<float> download_as_float(cudaDataType_t type, const void* data, std::size_t n) {
    std::vector<float> values(n);
    if (type == CUDA_R_32F) {
        TALLY_CUDA_CALL(cudaMemcpy(values.data(), data, n * 4, cudaMemcpyDeviceToHost));
        return values;
    }
    std::vector<std::uint16_t> raw(n);
    TALLY_CUDA_CALL(cudaMemcpy(raw.data(), data, n * 2, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < n; ++i) {
        if (type == CUDA_R_16BF) {
            __nv_bfloat16_raw r;
            r.x = raw[i];
            values[i] = __bfloat162float(__nv_bfloat16(r));
        } else {
            __half_raw r;
            r.x = raw[i];
            values[i] = __half2float(__half(r));
        }
    }
    return values;
}

// `count` products of an m x k by a k x n matrix (a strided batch when count > 1), timed together:
// one sample is the whole batch. Every product is validated.
void run_case(TestContext& ctx, const MatmulType& type, const CaseLabel& label, std::int64_t m,
              std::int64_t n, std::int64_t k, std::int64_t count, Stream& stream, L2Flush* flush,
              cublasLtHandle_t handle, const DeviceBuffer<unsigned char>& workspace) {
    const auto elements = [](std::int64_t rows, std::int64_t cols) {
        return static_cast<std::size_t>(rows * cols);
    };
    const auto batch = static_cast<std::size_t>(count);
    DeviceBuffer<unsigned char> a(elements(m, k) * batch * type.input_bytes);
    DeviceBuffer<unsigned char> b(elements(k, n) * batch * type.input_bytes);
    DeviceBuffer<unsigned char> d(elements(m, n) * batch * type.output_bytes);
    const std::uint64_t seed_a = ctx.seed() + 11, seed_b = ctx.seed() + 12;
    fill_dyadic_as(type.input, a.get(), elements(m, k) * batch, seed_a, stream.get());
    fill_dyadic_as(type.input, b.get(), elements(k, n) * batch, seed_b, stream.get());

    LtMatmulDesc op;
    TALLY_CUBLAS_CALL(cublasLtMatmulDescCreate(op.out(), type.compute, CUDA_R_32F));
    // "TN": A is stored k×m column-major and used transposed (= m×k row-major), B is k×n
    // column-major, C and D are m×n column-major (the layout freivalds_check reads).
    const cublasOperation_t trans_a = CUBLAS_OP_T, trans_b = CUBLAS_OP_N;
    TALLY_CUBLAS_CALL(cublasLtMatmulDescSetAttribute(op.get(), CUBLASLT_MATMUL_DESC_TRANSA,
                                                     &trans_a, sizeof trans_a));
    TALLY_CUBLAS_CALL(cublasLtMatmulDescSetAttribute(op.get(), CUBLASLT_MATMUL_DESC_TRANSB,
                                                     &trans_b, sizeof trans_b));
    LtLayout layout_a, layout_b, layout_d;
    TALLY_CUBLAS_CALL(cublasLtMatrixLayoutCreate(layout_a.out(), type.input, k, m, k));
    TALLY_CUBLAS_CALL(cublasLtMatrixLayoutCreate(layout_b.out(), type.input, k, n, k));
    TALLY_CUBLAS_CALL(cublasLtMatrixLayoutCreate(layout_d.out(), type.output, m, n, m));
    if (count > 1) {
        // A strided batch: product i reads A and B and writes D at i times one matrix's size.
        const std::int32_t batch_count = static_cast<std::int32_t>(count);
        const std::int64_t strides[] = {m * k, k * n, m * n};
        cublasLtMatrixLayout_t layouts[] = {layout_a.get(), layout_b.get(), layout_d.get()};
        for (int i = 0; i < 3; ++i) {
            TALLY_CUBLAS_CALL(cublasLtMatrixLayoutSetAttribute(
                layouts[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch_count, sizeof batch_count));
            TALLY_CUBLAS_CALL(cublasLtMatrixLayoutSetAttribute(
                layouts[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &strides[i],
                sizeof strides[i]));
        }
    }
    LtPreference preference;
    TALLY_CUBLAS_CALL(cublasLtMatmulPreferenceCreate(preference.out()));
    const std::size_t workspace_bytes = workspace.bytes();
    TALLY_CUBLAS_CALL(cublasLtMatmulPreferenceSetAttribute(
        preference.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
        sizeof workspace_bytes));
    // Split-K partial sums only in fp32 (the compute type): reductions "in place" or in the
    // output type round every partial to bf16/fp16, several roundings where the validation's
    // error bound below allows one (the output's).
    const std::uint32_t reductions =
        CUBLASLT_REDUCTION_SCHEME_NONE | CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
    TALLY_CUBLAS_CALL(cublasLtMatmulPreferenceSetAttribute(
        preference.get(), CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &reductions,
        sizeof reductions));
    cublasLtMatmulHeuristicResult_t heuristic{};
    int found = 0;
    const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
        handle, op.get(), layout_a.get(), layout_b.get(), layout_d.get(), layout_d.get(),
        preference.get(), 1, &heuristic, &found);
    if (status == CUBLAS_STATUS_NOT_SUPPORTED || (status == CUBLAS_STATUS_SUCCESS && found == 0)) {
        ctx.report(waived_result(label, "cuBLASLt offers no algorithm for " +
                                            std::string(type.dtype) + " at this size on this GPU"));
        return;
    }
    TALLY_CUBLAS_CALL(status);

    const float alpha = 1.0f, beta = 0.0f;
    const auto launch = [&](cudaStream_t s) {
        TALLY_CUBLAS_CALL(cublasLtMatmul(handle, op.get(), &alpha, a.get(), layout_a.get(), b.get(),
                                         layout_b.get(), &beta, d.get(), layout_d.get(), d.get(),
                                         layout_d.get(), &heuristic.algo, workspace.get(),
                                         workspace_bytes, s));
    };
    const Measurement measurement = time_on_stream(ctx, stream.get(), flush, launch);
    stream.synchronize();

    std::vector<float> result = download_as_float(type.output, d.get(), elements(m, n) * batch);
    if (ctx.inject_fault()) {
        inject_fault(std::span<float>(result));
    }
    // Inputs are exact in every format and each product and partial sum is a multiple of 1/64
    // below 2^15, so the fp32 accumulation is exact; what remains is the output rounding u_out
    // and, for safety, the classical bound γ_k of an fp32 dot product (Higham, eq. 3.13). fp8:
    // Hopper's fp8 tensor cores keep about 14 bits while accumulating (DeepSeek-V3 report,
    // section 3.3.2), so its accumulation term uses u = 2^-14 with the √k growth of rounding
    // errors that are not all of one sign.
    const double accumulation = type.input == CUDA_R_8F_E4M3
                                    ? 4.0 * std::sqrt(static_cast<double>(k)) * 0x1p-14
                                    : gamma_bound(static_cast<double>(k), kUnitRoundoffFp32);
    Validation validation;
    for (std::int64_t member = 0; member < count && validation.passed; ++member) {
        const std::int64_t a0 = member * m * k, b0 = member * k * n, d0 = member * m * n;
        validation = freivalds_check(
            m, k, n,
            [&](std::int64_t i, std::int64_t p) {
                return pattern_dyadic(seed_a, static_cast<std::uint64_t>(a0 + i * k + p));
            },
            [&](std::int64_t p, std::int64_t j) {
                return pattern_dyadic(seed_b, static_cast<std::uint64_t>(b0 + j * k + p));
            },
            [&](std::int64_t i, std::int64_t j) {
                return result[static_cast<std::size_t>(d0 + j * m + i)];
            },
            type.output_roundoff + accumulation, ctx.seed() + 13);
        if (!validation.passed && count > 1) {
            validation.reason = "product " + std::to_string(member) + " of " +
                                std::to_string(count) + ": " + validation.reason;
        }
    }
    const ops::Work work = ops::batched_matmul(count, m, k, n, type.input_bytes, type.output_bytes);
    ResultEvent r = measured_result(label, measurement, work.flops, work.bytes, validation);
    r.note = count > 1 ? std::to_string(count) + " GEMMs of this shape in one strided batch; " +
                             std::string(type.note)
                       : std::string(type.note);
    ctx.report(std::move(r));
}

// Why a dtype is waived on a GPU older than it needs.
std::string capability_reason(const MatmulType& type, const DeviceFacts& device) {
    return std::string(type.dtype) + " matmul needs compute capability " +
           std::to_string(type.min_compute_capability / 10) + "." +
           std::to_string(type.min_compute_capability % 10) + " or newer; this GPU is " +
           std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor);
}

// The default sweep of gemm_shapes, per dtype: square products, skinny ones (a narrow n, a narrow
// m, a short k, as projections of few tokens or heads have) and a batch of attention-core-like
// per-head products.
std::vector<GemmShape> default_gemm_shapes(bool quick) {
    const std::vector<GemmShape> sizes =
        quick ? std::vector<GemmShape>{{"", 4096, 4096, 4096, 1},
                                       {"", 16384, 512, 4096, 1},
                                       {"", 2048, 2048, 128, 32}}
              : std::vector<GemmShape>{{"", 4096, 4096, 4096, 1},  {"", 8192, 8192, 8192, 1},
                                       {"", 16384, 1024, 8192, 1}, {"", 16384, 8192, 1024, 1},
                                       {"", 256, 8192, 8192, 1},   {"", 2048, 2048, 128, 64}};
    std::vector<GemmShape> shapes;
    for (const MatmulType& type : kTypes) {
        for (GemmShape shape : sizes) {
            shape.dtype = type.dtype;
            shapes.push_back(shape);
        }
    }
    return shapes;
}

}  // namespace

void run_matmul(TestContext& ctx, const DeviceFacts& device, Stream& stream, L2Flush* flush) {
    const std::vector<std::int64_t> sizes = ctx.settings().quick
                                                ? std::vector<std::int64_t>{1024, 4096}
                                                : std::vector<std::int64_t>{1024, 2048, 4096, 8192};
    LtHandle handle;
    TALLY_CUBLAS_CALL(cublasLtCreate(handle.out()));
    DeviceBuffer<unsigned char> workspace(kWorkspaceBytes);
    for (const MatmulType& type : kTypes) {
        for (const std::int64_t size : sizes) {
            if (device.compute_capability() < type.min_compute_capability) {
                ctx.report(waived_result(
                    CaseLabel{"cublaslt", type.dtype, {{"m", size}, {"k", size}, {"n", size}}},
                    capability_reason(type, device)));
                continue;
            }
            ctx.progress("matmul " + std::string(type.dtype) + " " + std::to_string(size) + "x" +
                         std::to_string(size) + "x" + std::to_string(size));
            run_case(ctx, type,
                     CaseLabel{"cublaslt", type.dtype, {{"m", size}, {"k", size}, {"n", size}}},
                     size, size, size, 1, stream, flush, handle.get(), workspace);
        }
    }
}

void run_gemm_shapes(TestContext& ctx, const DeviceFacts& device, Stream& stream, L2Flush* flush) {
    const std::vector<GemmShape> shapes = ctx.settings().gemm_shapes.empty()
                                              ? default_gemm_shapes(ctx.settings().quick)
                                              : ctx.settings().gemm_shapes;
    LtHandle handle;
    TALLY_CUBLAS_CALL(cublasLtCreate(handle.out()));
    DeviceBuffer<unsigned char> workspace(kWorkspaceBytes);
    for (const GemmShape& shape : shapes) {
        const CaseLabel label{
            "cublaslt",
            shape.dtype,
            {{"m", shape.m}, {"n", shape.n}, {"k", shape.k}, {"count", shape.count}}};
        const MatmulType* type = nullptr;
        for (const MatmulType& t : kTypes) {
            type = shape.dtype == t.dtype ? &t : type;
        }
        if (type == nullptr) {
            ctx.report(waived_result(label,
                                     "the cuda backend's gemm_shapes has fp32, tf32, bf16, "
                                     "fp16 and fp8_e4m3 GEMMs, not " +
                                         shape.dtype));
            continue;
        }
        if (device.compute_capability() < type->min_compute_capability) {
            ctx.report(waived_result(label, capability_reason(*type, device)));
            continue;
        }
        // Keep the matrices within half the free device memory.
        const ops::Work work = ops::batched_matmul(shape.count, shape.m, shape.k, shape.n,
                                                   type->input_bytes, type->output_bytes);
        std::size_t free_bytes = 0, total_bytes = 0;
        TALLY_CUDA_CALL(cudaMemGetInfo(&free_bytes, &total_bytes));
        if (work.bytes > static_cast<double>(free_bytes) / 2) {
            ctx.report(waived_result(
                label, "its matrices take " + std::to_string(work.bytes / 1e9) +
                           " GB, more than half the device's free " +
                           std::to_string(static_cast<double>(free_bytes) / 1e9) + " GB"));
            continue;
        }
        ctx.progress("gemm_shapes " + shape.dtype + " m=" + std::to_string(shape.m) +
                     " n=" + std::to_string(shape.n) + " k=" + std::to_string(shape.k) +
                     " count=" + std::to_string(shape.count));
        run_case(ctx, *type, label, shape.m, shape.n, shape.k, shape.count, stream, flush,
                 handle.get(), workspace);
    }
}

}  // namespace tally::probe::cuda
