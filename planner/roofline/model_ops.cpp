#include "planner/roofline/model_ops.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tally {

std::string_view to_string(Phase phase) {
    switch (phase) {
        case Phase::training:
            return "training";
        case Phase::prefill:
            return "prefill";
        case Phase::decode:
            return "decode";
    }
    return "?";
}

std::string_view to_string(Pass pass) {
    return pass == Pass::forward ? "forward" : "backward";
}

ModelOpsOptions model_ops_options(const PlanSpec& spec) {
    ModelOpsOptions o;
    o.batch = spec.data.micro_batch;
    // The mlp kind's data points are single rows, not sequences (as evaluate() counts them).
    o.seq = spec.model.kind == ModelKind::mlp ? 1 : spec.data.seq_len;
    o.dtype = spec.training.compute_dtype;
    o.flash_attention = spec.training.flash_attention;
    return o;
}

namespace {

// How an operation's backward pass is derived from its forward (see backward_of()).
enum class Category { contraction, elementwise, flash };

struct ForwardOp {
    LayerOp op;
    Category category = Category::contraction;
    double read_values = 0.0;
    double write_values = 0.0;
    // flash attention: the matmul and the softmax share of its FLOPs
    double matmul_flops = 0.0;
    double softmax_flops = 0.0;
};

// Per-element FLOP counts of the non-matmul operations. Our own counts, in the lecture's way of
// counting GELU ("about 20 FLOPs per element"): one FLOP per add, multiply, compare, exp or
// divide.
constexpr double kRmsNormFlops = 4.0;  // x², sum, x · rstd, · gain
constexpr double kLayerNormFlops =
    7.0;  // sum (mean), x - mean, square, sum, · rstd, · gain, + bias
constexpr double kSoftmaxFlops = 5.0;  // max, x - max, exp, sum, divide
constexpr double kSwigluFlops = 5.0;   // silu(g) = g / (1 + exp(-g)): 4; times up: 1

class Builder {
public:
    Builder(Phase phase, const ModelOpsOptions& options) : m_phase(phase), m_options(options) {}

    void add(std::string name, std::string kind, Category category, double flops,
             double read_values, double write_values, double count) {
        ForwardOp f;
        f.op.cost.name = std::move(name);
        f.op.cost.kind = std::move(kind);
        f.op.cost.dtype = m_options.dtype;
        f.op.cost.flops = flops;
        f.op.cost.read_bytes = read_values * bytes_per_value(m_options.dtype);
        f.op.cost.write_bytes = write_values * bytes_per_value(m_options.dtype);
        f.op.phase = m_phase;
        f.op.pass = Pass::forward;
        f.op.count = count;
        f.category = category;
        f.read_values = read_values;
        f.write_values = write_values;
        m_ops.push_back(std::move(f));
    }

    // [m x k] @ [k x n] (lecture 2: 2·m·k·n FLOPs; reads both operands, writes the result).
    void matmul(std::string name, double m, double k, double n, double count) {
        add(std::move(name), "matmul", Category::contraction, 2.0 * m * k * n, m * k + k * n, m * n,
            count);
    }

    // A matmul whose weight is shared by `groups` independent products (the experts of a MoE
    // layer): `tokens` rows in all, weights of `weight_groups` groups read.
    void grouped_matmul(std::string name, double tokens, double k, double n, double weight_groups,
                        double count) {
        add(std::move(name), "matmul", Category::contraction, 2.0 * tokens * k * n,
            tokens * k + weight_groups * k * n, tokens * n, count);
    }

    void elementwise(std::string name, std::string kind, double flops_per_element,
                     double inputs_per_element, double elements, double extra_read_values,
                     double count) {
        add(std::move(name), std::move(kind), Category::elementwise, flops_per_element * elements,
            inputs_per_element * elements + extra_read_values, elements, count);
    }

    void norm(std::string name, const ModelSpec& model, double tokens, double count) {
        const bool rms = model.norm == NormKind::rmsnorm;
        // reads x and the gain (and bias for LayerNorm), writes the normalised x.
        elementwise(std::move(name), "norm", rms ? kRmsNormFlops : kLayerNormFlops, 1.0,
                    tokens * static_cast<double>(model.hidden),
                    (rms ? 1.0 : 2.0) * static_cast<double>(model.hidden), count);
    }

    // Attention of b sequences, q query positions each, over c key positions, with hq query heads
    // and hkv key/value heads (grouped-query attention: Ainslie et al. 2023; each K/V head serves
    // hq / hkv query heads, so K and V are hkv heads wide), head dims dqk and dv.
    // Scores QK^T: 2·b·hq·q·c·dqk FLOPs, values PV: 2·b·hq·q·c·dv (Kaplan et al. 2020, Table 1:
    // "Attention: QK logits 2·n_layer·n_ctx·d_attn" per token, and the same for the values; no
    // causal halving). Without flash attention the b·hq·q·c scores are written, softmaxed and
    // read back through memory; with it (Dao et al. 2022, sec. 3.1) they stay on chip and the
    // kernel reads Q, K, V once and writes O once: the lower bound of its HBM traffic (Dao et al.
    // 2022, Theorem 2: Θ(N²d²/M) accesses, one pass when a K/V block row fits in SRAM).
    // values_in_keys: V is the first dv columns of the K tensor (MLA's absorbed latent cache), so
    // a fused kernel reads it once with K. `suffix` names the layers' kind where a model has two
    // (sliding-window layers attend to fewer positions: sliding_attention() below).
    void attention(double b, double hq, double hkv, double q, double c, double dqk, double dv,
                   bool values_in_keys, double count, const std::string& suffix = "") {
        const double qv = b * hq * q * dqk;
        const double kv = b * hkv * c * dqk;
        const double vv = b * hkv * c * dv;
        const double ov = b * hq * q * dv;
        const double scores = b * hq * q * c;
        const double qk_flops = 2.0 * scores * dqk;
        const double pv_flops = 2.0 * scores * dv;
        if (m_options.flash_attention) {
            add("attention (flash)" + suffix, "flash_attention", Category::flash,
                qk_flops + kSoftmaxFlops * scores + pv_flops, qv + kv + (values_in_keys ? 0.0 : vv),
                ov, count);
            m_ops.back().matmul_flops = qk_flops + pv_flops;
            m_ops.back().softmax_flops = kSoftmaxFlops * scores;
            return;
        }
        add("attention scores (QK^T)" + suffix, "einsum", Category::contraction, qk_flops, qv + kv,
            scores, count);
        elementwise("attention softmax" + suffix, "softmax", kSoftmaxFlops, 1.0, scores, 0.0,
                    count);
        add("attention values (PV)" + suffix, "einsum", Category::contraction, pv_flops,
            scores + vv, ov, count);
    }

    // attention() over `layers` layers of `model`, `c` positions attended in its full layers:
    // its sliding-window layers (ModelSpec::sliding_window) attend to min(c, W) of them, each
    // query to its last W positions (Beltagy et al. 2020, Longformer, sec. 3.1): a decode step
    // reads only that much of the cache, and a fused kernel skips the blocks outside the band.
    // Without flash attention a prompt's scores are formed whole and masked (the unfused
    // kernels' s x s matrix), so those layers are the full layers' ops there.
    void sliding_attention(const ModelSpec& model, double layers, double b, double hq, double hkv,
                           double q, double c, double dqk, double dv, bool values_in_keys) {
        const double window = static_cast<double>(model.sliding_window);
        const bool skips = m_phase == Phase::decode || m_options.flash_attention;
        const double windowed = skips && window < c
                                    ? std::min(layers, static_cast<double>(model.windowed_layers()))
                                    : 0.0;
        if (layers - windowed > 0.0) {
            attention(b, hq, hkv, q, c, dqk, dv, values_in_keys, layers - windowed);
        }
        if (windowed > 0.0) {
            attention(b, hq, hkv, q, window, dqk, dv, values_in_keys, windowed, ", sliding window");
        }
    }

    // The MLP of width `width` over `tokens` rows (Vaswani et al. 2017 sec. 3.3; SwiGLU:
    // Shazeer 2020, three matrices W, V, W2). For the experts of a MoE layer, `weight_groups` is
    // the number of experts whose weights the step reads (0: a plain MLP, one weight matrix).
    void mlp(const std::string& prefix, const ModelSpec& model, double tokens, double width,
             double weight_groups, double count) {
        const double h = static_cast<double>(model.hidden);
        auto project = [&](const std::string& name, double k, double n) {
            if (weight_groups > 0.0) {
                grouped_matmul(prefix + name, tokens, k, n, weight_groups, count);
            } else {
                matmul(prefix + name, tokens, k, n, count);
            }
        };
        const double elements = tokens * width;
        project("up projection", h, width);
        switch (model.ffn) {
            case FfnKind::swiglu:
                project("gate projection", h, width);
                // silu(gate) * up: reads two, writes one.
                elementwise(prefix + "SwiGLU", "swiglu", kSwigluFlops, 2.0, elements, 0.0, count);
                break;
            case FfnKind::gelu:
                elementwise(prefix + "GELU", "gelu", m_options.gelu_flops_per_element, 1.0,
                            elements, 0.0, count);
                break;
            case FfnKind::relu:
                elementwise(prefix + "ReLU", "relu", 1.0, 1.0, elements, 0.0, count);
                break;
        }
        project("down projection", width, h);
    }

    // A step's operations: the forward ones, then (training) their backward ones in reverse.
    std::vector<LayerOp> finish() const {
        std::vector<LayerOp> out;
        for (const ForwardOp& f : m_ops) {
            out.push_back(f.op);
        }
        if (m_phase == Phase::training) {
            for (auto it = m_ops.rbegin(); it != m_ops.rend(); ++it) {
                out.push_back(backward_of(*it));
            }
        }
        return out;
    }

private:
    // Backward of a forward operation that read R values and wrote W values:
    // - contraction (matmul, einsum): the gradients of both operands are two products of the same
    //   dimensions, so 2x the FLOPs (lecture 2: "the backward pass is twice the forward"); dA =
    //   dC·Bᵀ reads dC and B, writes dA; dB = Aᵀ·dC reads A and dC, writes dB: R + 2W read, R
    //   written.
    // - flash attention: recomputes S and P and runs five matmuls against the forward's two
    //   (Dao 2023, FlashAttention-2, sec. 3.2; its benchmarks count backward as 2.5x forward),
    //   plus the softmax twice (recompute and its gradient); reads Q, K, V, O, dO (R + 2W),
    //   writes dQ, dK, dV (R).
    // - element-wise (activations, norms, softmax): the local derivative costs about what the
    //   function did, plus one multiply by the incoming gradient per output; reads the saved
    //   input and dy (R + W), writes dx (R).
    LayerOp backward_of(const ForwardOp& f) const {
        LayerOp b = f.op;
        b.pass = Pass::backward;
        b.cost.name += " (backward)";
        const double bpv = bytes_per_value(m_options.dtype);
        switch (f.category) {
            case Category::contraction:
                b.cost.flops = 2.0 * f.op.cost.flops;
                b.cost.read_bytes = (f.read_values + 2.0 * f.write_values) * bpv;
                break;
            case Category::flash:
                b.cost.flops = 2.5 * f.matmul_flops + 2.0 * f.softmax_flops;
                b.cost.read_bytes = (f.read_values + 2.0 * f.write_values) * bpv;
                break;
            case Category::elementwise:
                b.cost.flops = f.op.cost.flops + f.write_values;
                b.cost.read_bytes = (f.read_values + f.write_values) * bpv;
                break;
        }
        b.cost.write_bytes = f.read_values * bpv;
        return b;
    }

    Phase m_phase;
    ModelOpsOptions m_options;
    std::vector<ForwardOp> m_ops;
};

void transformer_ops(const ModelSpec& m, Phase phase, const ModelOpsOptions& o, Builder& out) {
    const double b = static_cast<double>(o.batch);
    const double s = static_cast<double>(o.seq);
    const bool decode = phase == Phase::decode;
    const double q = decode ? 1.0 : s;  // new positions per sequence
    const double c = s;                 // positions attended to (decode: the KV cache)
    const double t = b * q;             // token rows through the projections
    const double h = static_cast<double>(m.hidden);
    const double a = static_cast<double>(m.heads);
    const double g = static_cast<double>(m.effective_kv_heads());
    const double dh = static_cast<double>(m.effective_head_dim());
    const double layers = static_cast<double>(m.layers);

    out.norm("attention norm", m, t, layers);
    double attn_out_width = a * dh;
    if (m.mla.enabled()) {
        // Multi-head latent attention (DeepSeek-V2, Liu et al. 2024, sec. 2.1): queries through
        // an optional rank-q_lora bottleneck; keys and values from a shared rank-kv_lora latent
        // plus a decoupled RoPE key of qk_rope_head_dim shared by all heads.
        const double qr = static_cast<double>(m.mla.q_lora_rank);
        const double kvr = static_cast<double>(m.mla.kv_lora_rank);
        const double dn = static_cast<double>(m.mla.qk_nope_head_dim);
        const double dr = static_cast<double>(m.mla.qk_rope_head_dim);
        const double dv = static_cast<double>(m.mla.v_head_dim);
        if (qr > 0.0) {
            out.matmul("Q down projection", t, h, qr, layers);
            out.matmul("Q up projection", t, qr, a * (dn + dr), layers);
        } else {
            out.matmul("Q projection", t, h, a * (dn + dr), layers);
        }
        out.matmul("KV down projection", t, h, kvr + dr, layers);
        if (decode) {
            // Inference absorbs W_UK into the queries and W_UV into the output (DeepSeek-V2 sec.
            // 2.1.2): attention runs over the cached latent, kv_lora + rope wide, one shared head.
            out.add("Q absorb (W_UK)", "einsum", Category::contraction, 2.0 * t * a * dn * kvr,
                    t * a * dn + a * dn * kvr, t * a * kvr, layers);
            out.sliding_attention(m, layers, b, a, 1.0, q, c, kvr + dr, kvr, true);
            out.add("V absorb (W_UV)", "einsum", Category::contraction, 2.0 * t * a * kvr * dv,
                    t * a * kvr + a * kvr * dv, t * a * dv, layers);
        } else {
            out.matmul("KV up projection", b * c, kvr, a * (dn + dv), layers);
            out.sliding_attention(m, layers, b, a, a, q, c, dn + dr, dv, false);
        }
        attn_out_width = a * dv;
    } else {
        // Q (heads x head_dim) and K, V (kv_heads x head_dim each) in one matrix.
        out.matmul("QKV projection", t, h, (a + 2.0 * g) * dh, layers);
        out.sliding_attention(m, layers, b, a, g, q, c, dh, dh, false);
    }
    out.matmul("output projection", t, attn_out_width, h, layers);
    out.norm("MLP norm", m, t, layers);

    const double moe_layers =
        m.moe.enabled() ? std::max(0.0, layers - static_cast<double>(m.moe.first_dense_layers))
                        : 0.0;
    const double dense_layers = layers - moe_layers;
    if (dense_layers > 0.0) {
        out.mlp("MLP ", m, t, static_cast<double>(m.ffn_hidden), 0.0, dense_layers);
    }
    if (moe_layers > 0.0) {
        // Mixture of experts (Shazeer et al. 2017; Fedus et al. 2022): a router scores every
        // expert; each token runs through active_experts of them. With uniform routing an expert
        // receives t·k/E tokens and is touched at all with probability 1 - (1 - k/E)^t, so a step
        // reads the weights of E·(1 - (1 - k/E)^t) experts (all of them once t is large; few in
        // small-batch decode).
        const double experts = static_cast<double>(m.moe.experts);
        const double k = static_cast<double>(m.moe.active_experts);
        const double fe = static_cast<double>(m.effective_expert_ffn());
        const double touched = experts * (1.0 - std::pow(1.0 - std::min(1.0, k / experts), t));
        out.matmul("router", t, h, experts, moe_layers);
        out.mlp("experts ", m, t * k, fe, touched, moe_layers);
        if (m.moe.shared_experts > 0) {
            out.mlp("shared experts ", m, t, static_cast<double>(m.moe.shared_experts) * fe, 0.0,
                    moe_layers);
        }
    }

    // Final norm and the output head. Prefill and decode only need the last position's logits.
    const double logit_rows = phase == Phase::training ? t : b;
    out.norm("final norm", m, logit_rows, 1.0);
    out.matmul("logits", logit_rows, h, static_cast<double>(m.vocab), 1.0);
    out.elementwise("logits softmax", "softmax", kSoftmaxFlops, 1.0,
                    logit_rows * static_cast<double>(m.vocab), 0.0, 1.0);
}

}  // namespace

std::vector<LayerOp> model_ops(const ModelSpec& model, Phase phase,
                               const ModelOpsOptions& options) {
    if (options.batch < 1 || options.seq < 1) {
        return {};
    }
    Builder builder(phase, options);
    switch (model.kind) {
        case ModelKind::params:
            return {};
        case ModelKind::mlp: {
            // CS336 lecture 2's deep network: `layers` blocks of x @ W (D x D) then ReLU.
            if (phase == Phase::decode || model.layers < 1 || model.hidden < 1) {
                return {};
            }
            const double rows =
                static_cast<double>(options.batch) * static_cast<double>(options.seq);
            const double d = static_cast<double>(model.hidden);
            const double layers = static_cast<double>(model.layers);
            builder.matmul("layer matmul", rows, d, d, layers);
            builder.elementwise("ReLU", "relu", 1.0, 1.0, rows * d, 0.0, layers);
            return builder.finish();
        }
        case ModelKind::transformer:
            if (model.layers < 1 || model.hidden < 1 || model.heads < 1) {
                return {};
            }
            transformer_ops(model, phase, options, builder);
            return builder.finish();
    }
    return {};
}

namespace {

// The parts model_ops() builds its names of, marked for translation (lupdate reads them here).
constexpr const char* kOpBases[] = {
    QT_TRANSLATE_NOOP("tally::ops", "attention norm"),
    QT_TRANSLATE_NOOP("tally::ops", "Q down projection"),
    QT_TRANSLATE_NOOP("tally::ops", "Q up projection"),
    QT_TRANSLATE_NOOP("tally::ops", "Q projection"),
    QT_TRANSLATE_NOOP("tally::ops", "KV down projection"),
    QT_TRANSLATE_NOOP("tally::ops", "KV up projection"),
    QT_TRANSLATE_NOOP("tally::ops", "Q absorb (W_UK)"),
    QT_TRANSLATE_NOOP("tally::ops", "V absorb (W_UV)"),
    QT_TRANSLATE_NOOP("tally::ops", "QKV projection"),
    QT_TRANSLATE_NOOP("tally::ops", "attention (flash)"),
    QT_TRANSLATE_NOOP("tally::ops", "attention scores (QK^T)"),
    QT_TRANSLATE_NOOP("tally::ops", "attention softmax"),
    QT_TRANSLATE_NOOP("tally::ops", "attention values (PV)"),
    QT_TRANSLATE_NOOP("tally::ops", "output projection"),
    QT_TRANSLATE_NOOP("tally::ops", "MLP norm"),
    QT_TRANSLATE_NOOP("tally::ops", "up projection"),
    QT_TRANSLATE_NOOP("tally::ops", "gate projection"),
    QT_TRANSLATE_NOOP("tally::ops", "down projection"),
    QT_TRANSLATE_NOOP("tally::ops", "SwiGLU"),
    QT_TRANSLATE_NOOP("tally::ops", "GELU"),
    QT_TRANSLATE_NOOP("tally::ops", "ReLU"),
    QT_TRANSLATE_NOOP("tally::ops", "router"),
    QT_TRANSLATE_NOOP("tally::ops", "final norm"),
    QT_TRANSLATE_NOOP("tally::ops", "logits"),
    QT_TRANSLATE_NOOP("tally::ops", "logits softmax"),
    QT_TRANSLATE_NOOP("tally::ops", "layer matmul"),
    QT_TRANSLATE_NOOP("tally::ops", "matmul 1024"),
};
// (The lecture's "dot" and "matvec" stay as named: they are also the operation kinds a spec
// writes, shown as such in the operation and probe lists.)
// A prefix (the MLP's, the experts') and the two suffixes, as templates around the rest.
struct OpAffix {
    std::string_view english;
    const char* pattern;
};
constexpr OpAffix kOpPrefixes[] = {
    {"shared experts ", QT_TRANSLATE_NOOP("tally::ops", "shared experts %1")},
    {"experts ", QT_TRANSLATE_NOOP("tally::ops", "experts %1")},
    {"MLP ", QT_TRANSLATE_NOOP("tally::ops", "MLP %1")},
};
constexpr OpAffix kOpSuffixes[] = {
    {" (backward)", QT_TRANSLATE_NOOP("tally::ops", "%1 (backward)")},
    {", sliding window", QT_TRANSLATE_NOOP("tally::ops", "%1, sliding window")},
};

std::string translated(const Text& text, const TextTranslator& translate) {
    return translate ? translate(text) : text.english();
}

}  // namespace

std::string model_op_name(const std::string& name, const TextTranslator& translate) {
    std::string_view rest(name);
    std::vector<const char*> suffixes;  // outermost first
    for (bool found = true; found;) {
        found = false;
        for (const OpAffix& s : kOpSuffixes) {
            if (rest.size() > s.english.size() &&
                rest.substr(rest.size() - s.english.size()) == s.english) {
                suffixes.push_back(s.pattern);
                rest.remove_suffix(s.english.size());
                found = true;
            }
        }
    }
    const auto base_of = [](std::string_view text) -> const char* {
        for (const char* b : kOpBases) {
            if (text == b) {
                return b;
            }
        }
        return nullptr;
    };
    // A whole base first ("MLP norm"), else a prefix and a base ("MLP " + "up projection").
    const char* prefix = nullptr;
    const char* base = base_of(rest);
    for (const OpAffix& p : kOpPrefixes) {
        if (base == nullptr && rest.size() > p.english.size() &&
            rest.substr(0, p.english.size()) == p.english) {
            if (const char* b = base_of(rest.substr(p.english.size()))) {
                prefix = p.pattern;
                base = b;
            }
        }
    }
    if (base == nullptr) {
        return name;  // not a name of model_ops(): the user's own
    }
    std::string out = translated(Text("tally::ops", base), translate);
    if (prefix != nullptr) {
        out = translated(Text("tally::ops", prefix).arg(out), translate);
    }
    for (auto it = suffixes.rbegin(); it != suffixes.rend(); ++it) {
        out = translated(Text("tally::ops", *it).arg(out), translate);
    }
    return out;
}

}  // namespace tally
