#include "planner/model/activations.h"

namespace tally {

namespace {

// Stored tensors of an MLP of width f for s·b tokens (bytes), inside the tensor-parallel region.
// Korthikanti sec. 4.1 (GELU, f = 4h): first-linear input is counted with the norm output; the
// GELU input (2sbf... = 8sbh) and the GELU output, which is the second linear's input (8sbh).
// ReLU: PyTorch's ReLU backward uses its output, which is also the down projection's input, so one
// s·b·f tensor serves both. SwiGLU (Shazeer 2020): the gate and up projections are kept and the
// SiLU is recomputed in backward from the gate, as Megatron-LM's fused bias_swiglu does, plus the
// product that feeds the down projection: 3·s·b·f values.
// Low-precision linear layers (q, the bytes of a kept low-precision value; 0: none): the down
// projection keeps its own low-precision copy of its input and the activation's backward keeps
// what it needs in 16 bits: GELU its input, ReLU its output, SwiGLU gate and up, so the second
// linear's input costs q bytes instead of e (a ReLU's output is kept in 16 bits for the ReLU and
// once more in low precision).
double mlp_internal_bytes(const ModelSpec& m, double width, double s, double b, double e,
                          double q) {
    const double sbf = s * b * width;
    const double down_input = q > 0.0 ? q : e;
    switch (m.ffn) {
        case FfnKind::gelu:
            return (e + down_input) * sbf;
        case FfnKind::relu:
            return (e + (q > 0.0 ? q : 0.0)) * sbf;
        case FfnKind::swiglu:
            return (2.0 * e + down_input) * sbf;
    }
    return 0.0;
}

}  // namespace

LayerActivations transformer_layer_activations(const ModelSpec& m, bool moe_layer, double s,
                                               double b, double e, bool dropout,
                                               double low_precision_input_bytes) {
    const double q = low_precision_input_bytes;
    LayerActivations x;
    const double h = static_cast<double>(m.hidden);
    const double a = static_cast<double>(m.heads);
    const double sb = s * b;
    const double sbh = sb * h;
    const double mask = dropout ? 1.0 : 0.0;  // a dropout mask keeps one byte per value

    // Korthikanti sec. 4.1, the terms outside the tensor-parallel region (eq. 2's "10sbh" with
    // 16-bit values and dropout): two norm inputs (2 x 2sbh), the QKV input (2sbh), the MLP input
    // (2sbh), and the dropout masks after attention and after the MLP (2 x sbh).
    x.replicated = 4.0 * e * sbh + 2.0 * mask * sbh;
    x.input = e * sbh;
    x.norm_outputs = 2.0 * e * sbh;
    // Transformer Engine in FP8: the fused norm writes its output in FP8 for the GEMM after it,
    // and that FP8 tensor is what the linear layer keeps for its weight gradient
    // (transformer_engine/pytorch/module/layernorm_linear.py): the QKV input, and a dense MLP's
    // input, at 1 byte (an MoE layer's norm output also feeds the bf16 router and the dispatch).
    // In NVFP4 the quantized copy the weight gradient reads is the column-wise one, 0.5625 bytes.
    if (q > 0.0) {
        x.replicated -= (moe_layer ? 1.0 : 2.0) * (e - q) * sbh;
        // Recomputing the norm drops its 16-bit output; the linear layer's FP8 copy stays.
        x.norm_outputs -= (moe_layer ? 1.0 : 2.0) * e * sbh;
    }

    // Attention inside the tensor-parallel region. Korthikanti: Q and K for QK^T (4sbh), V (2sbh),
    // the output projection's input (2sbh). With grouped-query attention (Ainslie et al. 2023)
    // K and V have g·d channels instead of h; with MLA the per-head key width is d_nope + d_rope
    // and the value width d_v (DeepSeek-V2 sec. 2.1), and the two latents c^Q, c^KV and the shared
    // RoPE key k^R are also kept for the up projections' backward.
    double q_dim = 0.0;
    double k_dim = 0.0;
    double v_dim = 0.0;
    double o_dim = 0.0;
    if (m.mla.enabled()) {
        const double qk = static_cast<double>(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
        q_dim = a * qk;
        k_dim = a * qk;
        v_dim = a * static_cast<double>(m.mla.v_head_dim);
        o_dim = v_dim;
        // Recomputed from the latents kept below (Megatron-Core's mla_up_proj).
        x.mla_up = e * sb * (q_dim + k_dim + v_dim);
        x.replicated +=
            e * sb *
            static_cast<double>(m.mla.q_lora_rank + m.mla.kv_lora_rank + m.mla.qk_rope_head_dim);
    } else {
        const double d = static_cast<double>(m.effective_head_dim());
        const double g = static_cast<double>(m.effective_kv_heads());
        q_dim = a * d;
        k_dim = g * d;
        v_dim = g * d;
        o_dim = a * d;
    }
    x.split = e * sb * (q_dim + k_dim + v_dim + o_dim);
    // QK-norm: the norms' backward reads their inputs, the queries and keys as the QKV projection
    // wrote them, kept beside the normalised (and rotated) ones attention keeps (Megatron-Core's
    // q_layernorm and k_layernorm run on the projection's output, before RoPE).
    if (m.qk_norm && !m.mla.enabled()) {
        x.split += e * sb * (q_dim + k_dim);
    }
    // In low precision the output projection keeps its quantized copy of its input beside the
    // 16-bit attention output the attention backward needs.
    if (q > 0.0) {
        x.split += q * sb * o_dim;
    }

    // Korthikanti sec. 4.1: softmax output (2as²b), its dropout mask (as²b) and the dropout output
    // (2as²b) = 5as²b. Without dropout the softmax output serves both backward passes: 2as²b.
    x.core = a * s * s * b * (e + (dropout ? 1.0 + e : 0.0));
    // FlashAttention keeps none of these; its backward needs the output (counted above as the
    // output projection's input) and one fp32 log-sum-exp per query row and head (Dao 2023,
    // FlashAttention-2, Algorithm 1, line 13).
    x.flash_stats = 4.0 * a * s * b;

    if (moe_layer) {
        // Each token is dispatched to k routed experts; every expert keeps its own copy of the
        // tokens it received (k·sbh values) and its internals, as do the S shared experts, which
        // read the norm output counted above. The router keeps its fp32 probabilities (s·b·E).
        const double k = static_cast<double>(m.moe.active_experts);
        const double shared = static_cast<double>(m.moe.shared_experts);
        const double width = static_cast<double>(m.effective_expert_ffn());
        const double token_copy = q > 0.0 ? q : e;  // the grouped GEMM's quantized input
        x.split += k * token_copy * sbh + (k + shared) * mlp_internal_bytes(m, width, s, b, e, q);
        // The activation function's output, the down projection's input (Megatron-Core's
        // moe_act recomputes it from the up projection's output, which stays).
        x.moe_act = k * (q > 0.0 ? q : e) * sb * width;
        x.replicated += 4.0 * sb * static_cast<double>(m.moe.experts);
    } else {
        x.mlp_internal = mlp_internal_bytes(m, static_cast<double>(m.ffn_hidden), s, b, e, q);
        x.split += x.mlp_internal;
    }
    return x;
}

}  // namespace tally
