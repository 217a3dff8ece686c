// Parameter counts of the model kinds (params.h: count_params).
#include "planner/model/params.h"

#include "planner/model/model_shape.h"

namespace tally {

// Weights of one attention block. Standard (grouped-query) attention, Ainslie et al. 2023:
// Q: h x (a·d), K and V: h x (g·d) each, O: (a·d) x h, with a heads, g KV heads of width d.
// Multi-head latent attention, DeepSeek-V2 (Liu et al. 2024) sec. 2.1.2-2.1.3, eqs. 9-13:
// W^DQ h x r_q, W^UQ r_q x a(d_nope + d_rope); W^DKV h x r_kv and W^KR h x d_rope (one
// decoupled RoPE key shared by all heads); W^UK, W^UV r_kv x a·d_nope and r_kv x a·d_v;
// W^O a·d_v x h; plus RMSNorms on the two latents (DeepSeek-V3 config: q_a_layernorm,
// kv_a_layernorm). QK-norm (ModelSpec::qk_norm) adds the per-head query and key norms.
double attention_params(const ModelSpec& m) {
    const double h = static_cast<double>(m.hidden);
    const double a = static_cast<double>(m.heads);
    if (m.mla.enabled()) {
        const MlaSpec& x = m.mla;
        const double rq = static_cast<double>(x.q_lora_rank);
        const double rkv = static_cast<double>(x.kv_lora_rank);
        const double nope = static_cast<double>(x.qk_nope_head_dim);
        const double rope = static_cast<double>(x.qk_rope_head_dim);
        const double dv = static_cast<double>(x.v_head_dim);
        const double q = rq > 0 ? h * rq + rq + rq * a * (nope + rope) : h * a * (nope + rope);
        const double kv = h * (rkv + rope) + rkv + rkv * a * (nope + dv);
        const double o = a * dv * h;
        double bias = 0.0;
        if (m.bias == BiasKind::all) {
            bias = h;
        }
        return q + kv + o + bias;
    }
    const double d = static_cast<double>(m.effective_head_dim());
    const double g = static_cast<double>(m.effective_kv_heads());
    const double q_dim = a * d;
    const double kv_dim = g * d;
    double p = h * q_dim + 2.0 * h * kv_dim + q_dim * h;
    if (m.bias != BiasKind::none) {
        p += q_dim + 2.0 * kv_dim;  // Q, K, V biases (Qwen2; GPT-2/3)
    }
    if (m.bias == BiasKind::all) {
        p += h;  // output projection bias (GPT-2/3)
    }
    if (m.qk_norm) {
        // One norm of the head dimension for the queries, one for the keys, each shared by the
        // heads (Qwen3Attention's q_norm and k_norm; Megatron-Core's q_layernorm and k_layernorm
        // of hidden_size_per_attention_head): d weights each, and a bias each for LayerNorm.
        p += 2.0 * (m.norm == NormKind::layernorm ? 2.0 * d : d);
    }
    return p;
}

// One MLP of width f. Plain (GELU/ReLU): h x f up, f x h down (Vaswani et al. 2017, sec. 3.3).
// SwiGLU: gate and up h x f, down f x h (Shazeer 2020, eq. 6; Llama, Touvron et al. 2023).
double mlp_params(const ModelSpec& m, std::int64_t width) {
    const double h = static_cast<double>(m.hidden);
    const double f = static_cast<double>(width);
    const bool gated = m.ffn == FfnKind::swiglu;
    double p = (gated ? 3.0 : 2.0) * h * f;
    if (m.bias == BiasKind::all) {
        p += (gated ? 2.0 : 1.0) * f + h;
    }
    return p;
}

// LayerNorm has a gain and a bias per channel (Ba et al. 2016); RMSNorm a gain only (Zhang &
// Sennrich 2019).
double norm_params(const ModelSpec& m) {
    const double h = static_cast<double>(m.hidden);
    return m.norm == NormKind::layernorm ? 2.0 * h : h;
}

// A mixture-of-experts MLP: a router h x E (Fedus et al. 2022, sec. 2.1), E routed experts and
// S shared experts (DeepSeekMoE, Dai et al. 2024, sec. 3.2), each an MLP of the expert width.
double moe_params_total(const ModelSpec& m) {
    const double h = static_cast<double>(m.hidden);
    const double e = static_cast<double>(m.moe.experts);
    const double s = static_cast<double>(m.moe.shared_experts);
    return h * e + (e + s) * mlp_params(m, m.effective_expert_ffn());
}

double moe_params_active(const ModelSpec& m) {
    const double h = static_cast<double>(m.hidden);
    const double e = static_cast<double>(m.moe.experts);
    const double k = static_cast<double>(m.moe.active_experts);
    const double s = static_cast<double>(m.moe.shared_experts);
    return h * e + (k + s) * mlp_params(m, m.effective_expert_ffn());
}

std::int64_t dense_layer_count(const ModelSpec& m) {
    if (!m.moe.enabled()) {
        return m.layers;
    }
    return m.moe.first_dense_layers < m.layers ? m.moe.first_dense_layers : m.layers;
}

double embedding_params(const ModelSpec& m) {
    const double h = static_cast<double>(m.hidden);
    const double v = static_cast<double>(m.vocab);
    double p = v * h;  // input embedding
    if (!m.tied_embeddings) {
        p += v * h;  // output head (untied)
    }
    p += static_cast<double>(m.learned_positions) * h;  // GPT-2/3 learned positions
    return p;
}

bool mtp_layer_is_moe(const ModelSpec& m) {
    // Megatron-Core builds the MTP block's transformer layer from the decoder's last layer spec
    // (core_v0.12.0 megatron/core/models/gpt/gpt_layer_specs.py, get_gpt_mtp_block_spec(...,
    // spec=transformer_layer_spec.layer_specs[-1])); DeepSeek-V3's is an MoE layer (its config's
    // layer 61, model.layers.61.mlp.experts.*).
    return m.moe.enabled() && dense_layer_count(m) < m.layers;
}

// One multi-token-prediction module (DeepSeek-V3 Technical Report, sec. 2.2, eqs. 21-22;
// Megatron-Core's MultiTokenPredictionLayer, core_v0.12.0 multi_token_prediction.py): the
// norms of the hidden state and of the next token's embedding (hnorm, enorm), the projection M of
// the two concatenated, 2h x h without bias (eh_proj), one transformer layer and the final norm
// before the shared head (final_layernorm). The embedding and output head are the main model's
// ("shared embedding layer and output head", sec. 2.2), not counted again. `all_experts`: every
// routed expert of an MoE layer, else the k a token runs through.
double mtp_module_params(const ModelSpec& m, bool all_experts) {
    const double h = static_cast<double>(m.hidden);
    double layer = attention_params(m) + 2.0 * norm_params(m);
    if (mtp_layer_is_moe(m)) {
        layer += all_experts ? moe_params_total(m) : moe_params_active(m);
    } else {
        layer += mlp_params(m, m.ffn_hidden);
    }
    return 2.0 * norm_params(m) + 2.0 * h * h + layer + norm_params(m);
}

ParamCounts count_params(const ModelSpec& m) {
    ParamCounts c;
    switch (m.kind) {
        case ModelKind::params:
            c.total = m.params;
            c.non_embedding = m.params;
            c.active = m.params;
            return c;
        case ModelKind::mlp: {
            // CS336 lecture 2: L blocks of a D x D weight (no biases): D^2 · L parameters.
            const double d = static_cast<double>(m.hidden);
            c.per_layer_mlp = d * d;
            c.total = d * d * static_cast<double>(m.layers);
            c.non_embedding = c.total;
            c.active = c.total;
            return c;
        }
        case ModelKind::transformer:
            break;
    }
    const double layers = static_cast<double>(m.layers);
    const double dense = static_cast<double>(dense_layer_count(m));
    const double moe = layers - dense;
    c.per_layer_attention = attention_params(m);
    c.per_layer_norms = 2.0 * norm_params(m);  // pre-attention and pre-MLP norms
    const double dense_mlp = dense > 0 ? mlp_params(m, m.ffn_hidden) : 0.0;
    c.per_layer_mlp = m.moe.enabled() ? moe_params_total(m) : dense_mlp;
    c.embedding = embedding_params(m);
    const double shared = layers * (c.per_layer_attention + c.per_layer_norms) + dense * dense_mlp +
                          norm_params(m) /* final norm */ + c.embedding;
    // DeepSeek-V3 with one MTP module: 11.61B more weights, 0.688B more active
    // (tests/tst_params.cpp derives both). Its Hugging Face checkpoint stores 13.46B for layer 61,
    // as the MTP module keeps its own copies of the embedding and head there (embed_tokens,
    // shared_head.head: 2 x 129280 x 7168 = 1.853B) that training shares with the main model;
    // 671.0B + 13.5B = 684.5B is the model card's "685B ... 671B of the Main Model weights and 14B
    // of the MTP Module weights" in rounded figures (its 685B also counts the FP8 block scales).
    const double depth = static_cast<double>(m.mtp_layers);
    c.mtp = depth * mtp_module_params(m, true);
    c.mtp_active = depth * mtp_module_params(m, false);
    c.total = shared + (m.moe.enabled() ? moe * moe_params_total(m) : 0.0) + c.mtp;
    c.active = shared + (m.moe.enabled() ? moe * moe_params_active(m) : 0.0) + c.mtp_active;
    c.non_embedding = c.total - c.embedding;
    return c;
}

}  // namespace tally
