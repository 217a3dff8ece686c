// FLOPs, bytes and intensity of the lecture's operations and of a model's own layers, derived by
// hand (CS336 lecture 2, "arithmetic intensity"; seeds 000 and 003).
#include <QtTest>

#include "planner/core/spec.h"
#include "planner/roofline/model_ops.h"
#include "planner/roofline/operations.h"
#include "planner/roofline/roofline.h"

using namespace tally;

Q_DECLARE_METATYPE(tally::DType)

class TestOperations : public QObject {
    Q_OBJECT

private slots:
    void modelOpNamesTranslatePartByPart();
    void seedIntensities_data();
    void seedIntensities();
    void anyDtype_data();
    void anyDtype();
    void rectangularShapes();
    void opCostDispatch();
    void transformerPrefill();
    void groupedQueryAttentionShrinksKv();
    void decodeReadsKvCache();
    void slidingWindowLayersAttendToTheWindow();
    void flashAttentionFusesScores();
    void trainingAddsBackward();
    void decodeIsMemoryBoundOnH100();
    void mixtureOfExpertsReadsTouchedExperts();
    void latentAttentionDecodeReadsLatentCache();
    void mlpKindAndParamsKind();
};

void TestOperations::seedIntensities_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("tolerance");
    const double n = 1e6;  // the lecture's "million-dimensional bf16 vector"
    // ReLU: reads 2n, writes 2n bytes, n FLOPs: n / 4n = 0.25.
    QTest::newRow("relu") << 0 << n << 4 * n << 0.25 << 0.0;
    // GELU: same bytes, ~20n FLOPs: 20n / 4n = 5.
    QTest::newRow("gelu") << 1 << 20 * n << 4 * n << 5.0 << 0.0;
    // dot: reads 2n + 2n, writes 2 bytes, 2n FLOPs: 2e6 / 4000002 = 0.49999975 ~ 0.5.
    QTest::newRow("dot") << 2 << 2 * n << 4 * n + 2 << 0.5 << 1e-6;
    // matvec n = 1024: reads x (2n) and W (2n²), writes y (2n); 2n² FLOPs:
    // 2n² / (2n² + 4n) = n / (n + 2) = 1024 / 1026 = 0.99805 ~ 1.
    QTest::newRow("matvec 1024") << 3 << 2.0 * 1024 * 1024 << 2.0 * 1024 * 1024 + 4.0 * 1024
                                 << 1024.0 / 1026.0 << 1e-12;
    // matmul n = 1024: reads 2n² + 2n², writes 2n²; 2n³ FLOPs: 2n³ / 6n² = n/3 = 341.33.
    QTest::newRow("matmul 1024") << 4 << 2.0 * 1024 * 1024 * 1024 << 6.0 * 1024 * 1024
                                 << 1024.0 / 3.0 << 1e-12;
}

void TestOperations::seedIntensities() {
    QFETCH(int, which);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, intensity);
    QFETCH(double, tolerance);
    OpCost c;
    switch (which) {
        case 0:
            c = relu_cost(1000000, DType::bf16);
            break;
        case 1:
            c = gelu_cost(1000000, DType::bf16);
            break;
        case 2:
            c = dot_cost(1000000, DType::bf16);
            break;
        case 3:
            c = matvec_cost(1024, 1024, DType::bf16);
            break;
        default:
            c = matmul_cost(1024, 1024, 1024, DType::bf16);
            break;
    }
    QCOMPARE(c.flops, flops);
    QCOMPARE(c.bytes(), bytes);
    QVERIFY2(std::abs(c.intensity() - intensity) <= tolerance + 1e-15 * intensity,
             qPrintable(QString::number(c.intensity(), 'g', 17)));
}

void TestOperations::anyDtype_data() {
    QTest::addColumn<DType>("dtype");
    QTest::addColumn<double>("relu_intensity");
    QTest::addColumn<double>("matmul_intensity");
    // ReLU: n / (2 n b) = 1 / (2b) for b bytes per value; square matmul: 2n³ / (3 n² b) = 2n/(3b).
    QTest::newRow("fp32") << DType::fp32 << 1.0 / 8 << 2.0 * 1024 / 12;
    QTest::newRow("bf16") << DType::bf16 << 1.0 / 4 << 2.0 * 1024 / 6;
    QTest::newRow("fp8") << DType::fp8_e4m3 << 1.0 / 2 << 2.0 * 1024 / 3;
    QTest::newRow("fp4") << DType::fp4_e2m1 << 1.0 << 2.0 * 1024 / 1.5;
    // NVFP4: 4.5 bits = 0.5625 bytes per value.
    QTest::newRow("nvfp4") << DType::nvfp4 << 1.0 / 1.125 << 2.0 * 1024 / (3 * 0.5625);
}

void TestOperations::anyDtype() {
    QFETCH(DType, dtype);
    QFETCH(double, relu_intensity);
    QFETCH(double, matmul_intensity);
    QCOMPARE(relu_cost(1000, dtype).intensity(), relu_intensity);
    QCOMPARE(matmul_cost(1024, 1024, 1024, dtype).intensity(), matmul_intensity);
}

void TestOperations::rectangularShapes() {
    // [2 x 3] @ [3 x 4]: 2·2·3·4 = 48 FLOPs; reads 6 + 12, writes 8 values: 36 + 16 bytes in bf16.
    const OpCost mm = matmul_cost(2, 3, 4, DType::bf16);
    QCOMPARE(mm.flops, 48.0);
    QCOMPARE(mm.read_bytes, 36.0);
    QCOMPARE(mm.write_bytes, 16.0);
    // 3 x 5 matrix times a 5-vector: 2·3·5 = 30 FLOPs; reads 15 + 5, writes 3 values.
    const OpCost mv = matvec_cost(3, 5, DType::bf16);
    QCOMPARE(mv.flops, 30.0);
    QCOMPARE(mv.read_bytes, 40.0);
    QCOMPARE(mv.write_bytes, 6.0);
    // GELU at a configurable count: 8 FLOPs per element over 4 bytes moved: 2.
    QCOMPARE(gelu_cost(100, DType::bf16, 8.0).intensity(), 2.0);
}

void TestOperations::opCostDispatch() {
    OpSpec op;
    op.kind = OpKind::matmul;
    op.m = 2;
    op.k = 3;
    op.n = 4;
    op.dtype = DType::fp32;
    OpCost c = op_cost(op);
    QCOMPARE(c.name, std::string("matmul"));  // name defaults to the kind
    QCOMPARE(c.flops, 48.0);
    QCOMPARE(c.bytes(), 4.0 * (6 + 12 + 8));
    op.kind = OpKind::einsum;
    op.name = "scores";
    op.expr = "b s h, b t h -> b s t";
    op.sizes = {{"b", 1}, {"s", 2}, {"t", 3}, {"h", 4}};
    c = op_cost(op);
    QCOMPARE(c.name, std::string("scores"));
    QCOMPARE(c.kind, std::string("einsum"));
    QCOMPARE(c.flops, 2.0 * 1 * 2 * 3 * 4);
}

namespace {

// A small model with every dimension distinct, so each formula is checked by hand:
// 2 layers, hidden 8, 2 heads of dim 4, 1 KV head (GQA), SwiGLU width 16, vocab 10.
ModelSpec tiny_model() {
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.layers = 2;
    m.hidden = 8;
    m.heads = 2;
    m.kv_heads = 1;
    m.head_dim = 4;
    m.ffn_hidden = 16;
    m.ffn = FfnKind::swiglu;
    m.vocab = 10;
    m.norm = NormKind::rmsnorm;
    return m;
}

ModelOpsOptions tiny_options(bool flash) {
    ModelOpsOptions o;
    o.batch = 1;
    o.seq = 4;
    o.dtype = DType::bf16;
    o.flash_attention = flash;
    return o;
}

const LayerOp* find(const std::vector<LayerOp>& ops, const std::string& name) {
    for (const LayerOp& op : ops) {
        if (op.cost.name == name) {
            return &op;
        }
    }
    return nullptr;
}

}  // namespace

void TestOperations::transformerPrefill() {
    const auto ops = model_ops(tiny_model(), Phase::prefill, tiny_options(false));
    // QKV: t = 1·4 tokens, [4 x 8] @ [8 x (2 + 2·1)·4 = 16]: 2·4·8·16 = 1024 FLOPs;
    // reads 32 + 128 = 160 values (320 bytes), writes 64 (128 bytes); once per layer.
    const LayerOp* qkv = find(ops, "QKV projection");
    QVERIFY(qkv);
    QCOMPARE(qkv->cost.flops, 1024.0);
    QCOMPARE(qkv->cost.read_bytes, 320.0);
    QCOMPARE(qkv->cost.write_bytes, 128.0);
    QCOMPARE(qkv->count, 2.0);
    QCOMPARE(qkv->pass, Pass::forward);
    // Scores: 2·b·heads·q·c·d = 2·1·2·4·4·4 = 256 FLOPs (Kaplan et al. 2020, Table 1);
    // reads Q 1·2·4·4 = 32 + K 1·1·4·4 = 16 values (96 bytes), writes 1·2·4·4 = 32 scores.
    const LayerOp* scores = find(ops, "attention scores (QK^T)");
    QVERIFY(scores);
    QCOMPARE(scores->cost.flops, 256.0);
    QCOMPARE(scores->cost.read_bytes, 96.0);
    QCOMPARE(scores->cost.write_bytes, 64.0);
    // Softmax over the 32 scores at 5 FLOPs each; reads and writes 32 values.
    const LayerOp* softmax = find(ops, "attention softmax");
    QVERIFY(softmax);
    QCOMPARE(softmax->cost.flops, 160.0);
    QCOMPARE(softmax->cost.bytes(), 128.0);
    // MLP up/gate/down: 2·4·8·16 = 1024 FLOPs each.
    QCOMPARE(find(ops, "MLP up projection")->cost.flops, 1024.0);
    QCOMPARE(find(ops, "MLP gate projection")->cost.flops, 1024.0);
    QCOMPARE(find(ops, "MLP down projection")->cost.flops, 1024.0);
    // SwiGLU reads gate and up (2·64 values), writes 64.
    QCOMPARE(find(ops, "MLP SwiGLU")->cost.read_bytes, 256.0);
    // RMSNorm: reads 32 values + 8 gains, writes 32; 4 FLOPs per element.
    QCOMPARE(find(ops, "attention norm")->cost.read_bytes, 80.0);
    QCOMPARE(find(ops, "attention norm")->cost.flops, 128.0);
    // Prefill computes the logits of the last position only: 2·1·8·10 = 160 FLOPs, once.
    const LayerOp* logits = find(ops, "logits");
    QVERIFY(logits);
    QCOMPARE(logits->cost.flops, 160.0);
    QCOMPARE(logits->count, 1.0);
    for (const LayerOp& op : ops) {
        QCOMPARE(op.phase, Phase::prefill);
        QCOMPARE(op.pass, Pass::forward);
    }
}

void TestOperations::groupedQueryAttentionShrinksKv() {
    ModelSpec mha = tiny_model();
    mha.kv_heads = 2;  // multi-head: K has 2 heads
    const auto ops = model_ops(mha, Phase::prefill, tiny_options(false));
    // K is now 1·2·4·4 = 32 values: reads Q 32 + K 32 = 64 values = 128 bytes (96 with GQA).
    QCOMPARE(find(ops, "attention scores (QK^T)")->cost.read_bytes, 128.0);
    // QKV projection width (2 + 2·2)·4 = 24: 2·4·8·24 = 1536 FLOPs (1024 with one KV head).
    QCOMPARE(find(ops, "QKV projection")->cost.flops, 1536.0);
}

void TestOperations::decodeReadsKvCache() {
    auto options = tiny_options(false);
    const auto ops = model_ops(tiny_model(), Phase::decode, options);
    // One new token (q = 1) against c = 4 cached positions: 2·1·2·1·4·4 = 64 FLOPs;
    // reads Q 1·2·1·4 = 8 + K cache 1·1·4·4 = 16 values = 48 bytes.
    const LayerOp* scores = find(ops, "attention scores (QK^T)");
    QVERIFY(scores);
    QCOMPARE(scores->cost.flops, 64.0);
    QCOMPARE(scores->cost.read_bytes, 48.0);
    // Double the context, double the cache read: K 32 values, 8 + 32 = 40 values = 80 bytes.
    options.seq = 8;
    const auto longer = model_ops(tiny_model(), Phase::decode, options);
    QCOMPARE(find(longer, "attention scores (QK^T)")->cost.read_bytes, 80.0);
    // The projections see one token: QKV is [1 x 8] @ [8 x 16], a matrix-vector product.
    QCOMPARE(find(ops, "QKV projection")->cost.flops, 2.0 * 1 * 8 * 16);
}

void TestOperations::slidingWindowLayersAttendToTheWindow() {
    // The tiny model with one of its two layers windowed at W = 2: decode at 8 cached positions.
    // The full layer's op is the one above (c = 8: reads Q 8 + K 32 = 40 values = 80 bytes); the
    // windowed layer's scores one query against c = 2 keys: 2·1·2·2·4 = 32 FLOPs, reading
    // Q 8 + K 1·1·2·4 = 8 values = 32 bytes.
    ModelSpec m = tiny_model();
    m.sliding_window = 2;
    m.sliding_window_layers = 1;
    auto options = tiny_options(false);
    options.seq = 8;
    const auto ops = model_ops(m, Phase::decode, options);
    const LayerOp* full = find(ops, "attention scores (QK^T)");
    const LayerOp* windowed = find(ops, "attention scores (QK^T), sliding window");
    QVERIFY(full && windowed);
    QCOMPARE(full->count, 1.0);
    QCOMPARE(full->cost.read_bytes, 80.0);
    QCOMPARE(windowed->count, 1.0);
    QCOMPARE(windowed->cost.flops, 32.0);
    QCOMPARE(windowed->cost.read_bytes, 32.0);
    // A prompt without flash attention forms its whole score matrix and masks it: the windowed
    // layer's ops are the full layer's (one op for both layers).
    const auto unfused = model_ops(m, Phase::prefill, options);
    QCOMPARE(find(unfused, "attention scores (QK^T)")->count, 2.0);
    QVERIFY(!find(unfused, "attention scores (QK^T), sliding window"));
    // With it the kernel skips the blocks outside the band: a prompt of 4 scores 2 keys a query
    // in the windowed layer, 1·2·4·2 = 16 scores: QK^T and PV 2·16·4 = 128 FLOPs each, softmax
    // 5·16 = 80: 336 FLOPs (the full layer's 672, flashAttentionFusesScores).
    const auto fused = model_ops(m, Phase::prefill, tiny_options(true));
    const LayerOp* band = find(fused, "attention (flash), sliding window");
    QVERIFY(band);
    QCOMPARE(band->cost.flops, 336.0);
    // A window no shorter than the context is no window: one op for both layers.
    m.sliding_window = 8;
    const auto wide = model_ops(m, Phase::decode, options);
    QCOMPARE(find(wide, "attention scores (QK^T)")->count, 2.0);
    QVERIFY(!find(wide, "attention scores (QK^T), sliding window"));
}

void TestOperations::flashAttentionFusesScores() {
    const auto ops = model_ops(tiny_model(), Phase::prefill, tiny_options(true));
    QVERIFY(!find(ops, "attention scores (QK^T)"));
    const LayerOp* flash = find(ops, "attention (flash)");
    QVERIFY(flash);
    // FLOPs: scores 256 + softmax 5·32 = 160 + values 256 = 672.
    QCOMPARE(flash->cost.flops, 672.0);
    // Reads Q 32 + K 16 + V 16 = 64 values, writes O 1·2·4·4 = 32: the scores never leave chip.
    QCOMPARE(flash->cost.read_bytes, 128.0);
    QCOMPARE(flash->cost.write_bytes, 64.0);
}

void TestOperations::trainingAddsBackward() {
    const auto ops = model_ops(tiny_model(), Phase::training, tiny_options(false));
    const LayerOp* fwd = find(ops, "QKV projection");
    const LayerOp* bwd = find(ops, "QKV projection (backward)");
    QVERIFY(fwd && bwd);
    QCOMPARE(bwd->pass, Pass::backward);
    // Lecture 2: backward = 2 x forward for a matmul (input and weight gradients): 2048.
    QCOMPARE(bwd->cost.flops, 2.0 * fwd->cost.flops);
    // dX = dY·Wᵀ reads dY (64) and W (128), writes dX (32); dW = Xᵀ·dY reads X (32), dY (64),
    // writes dW (128): reads 288 values = 576 bytes, writes 160 = 320 bytes.
    QCOMPARE(bwd->cost.read_bytes, 576.0);
    QCOMPARE(bwd->cost.write_bytes, 320.0);
    // Training computes logits for all 4 positions: 2·4·8·10 = 640.
    QCOMPARE(find(ops, "logits")->cost.flops, 640.0);
    // ReLU-like element-wise backward: reads the saved input and dy, writes dx.
    const LayerOp* sm = find(ops, "attention softmax (backward)");
    QVERIFY(sm);
    QCOMPARE(sm->cost.read_bytes, 2.0 * 2 * 32);
    QCOMPARE(sm->cost.write_bytes, 2.0 * 32);
    // Every forward op has its backward.
    std::size_t forward = 0, backward = 0;
    for (const LayerOp& op : ops) {
        (op.pass == Pass::forward ? forward : backward) += 1;
    }
    QCOMPARE(forward, backward);
}

void TestOperations::decodeIsMemoryBoundOnH100() {
    // Lecture 2: decode is matrix-vector work and memory-bound. H100 SXM bf16 ridge 295.4.
    const Roof h100{ComputeType::bf16, 1979e12 / 2, 3.35e12};
    ModelSpec m = tiny_model();
    m.hidden = 4096;
    m.heads = 32;
    m.kv_heads = 8;
    m.head_dim = 128;
    m.ffn_hidden = 14336;
    m.vocab = 128256;
    m.layers = 32;
    ModelOpsOptions o;
    o.batch = 1;
    o.seq = 4096;
    for (const LayerOp& op : model_ops(m, Phase::decode, o)) {
        QVERIFY2(place(h100, op.cost.flops, op.cost.bytes()).bound == Bound::memory,
                 op.cost.name.c_str());
    }
    // Prefill of 4096 tokens puts the projections far right of the ridge: the MLP up projection
    // does 2·t·k·n over 2·(t·k + k·n + t·n) bytes = 4096·4096·14336 / 134217728 = 1792 FLOP/byte.
    const auto prefill = model_ops(m, Phase::prefill, o);
    QCOMPARE(place(h100, find(prefill, "MLP up projection")->cost.flops,
                   find(prefill, "MLP up projection")->cost.bytes())
                 .bound,
             Bound::compute);
}

void TestOperations::mixtureOfExpertsReadsTouchedExperts() {
    ModelSpec m = tiny_model();
    m.moe.experts = 8;
    m.moe.active_experts = 2;
    m.moe.expert_ffn_hidden = 16;
    auto o = tiny_options(true);
    // Decode, one token: it picks 2 of 8 experts, so 8·(1 - (6/8)^1) = 2 experts' weights are
    // read. Up projection: 2 assignments x [1 x 8] @ [8 x 16]: 2·2·8·16 = 512 FLOPs;
    // reads 2·8 token values + 2·8·16 weights = 272 values = 544 bytes.
    const auto ops = model_ops(m, Phase::decode, o);
    const LayerOp* up = find(ops, "experts up projection");
    QVERIFY(up);
    QCOMPARE(up->cost.flops, 512.0);
    QCOMPARE(up->cost.read_bytes, 544.0);
    QCOMPARE(find(ops, "router")->cost.flops, 2.0 * 1 * 8 * 8);
    // No dense MLP is left when first_dense_layers = 0.
    QVERIFY(!find(ops, "MLP up projection"));
    // Prefill of 4 tokens: 8·(1 - 0.75^4) = 8·0.68359375 = 5.46875 experts touched.
    const auto pre = model_ops(m, Phase::prefill, o);
    const double touched = 8.0 * (1.0 - 0.31640625);
    QCOMPARE(find(pre, "experts up projection")->cost.read_bytes,
             2.0 * (4 * 2 * 8 + touched * 8 * 16));
}

void TestOperations::latentAttentionDecodeReadsLatentCache() {
    // Multi-head latent attention (DeepSeek-V2 sec. 2.1): 2 heads, kv_lora_rank 4, RoPE dim 2,
    // nope dim 3, value dim 3; hidden 8. Decode one token against 5 cached positions, flash on.
    ModelSpec m = tiny_model();
    m.mla.kv_lora_rank = 4;
    m.mla.qk_rope_head_dim = 2;
    m.mla.qk_nope_head_dim = 3;
    m.mla.v_head_dim = 3;
    auto o = tiny_options(true);
    o.seq = 5;
    const auto ops = model_ops(m, Phase::decode, o);
    // Q: [1 x 8] @ [8 x 2·(3 + 2)]: 2·8·10 = 160. KV down: [1 x 8] @ [8 x (4 + 2)]: 96.
    QCOMPARE(find(ops, "Q projection")->cost.flops, 160.0);
    QCOMPARE(find(ops, "KV down projection")->cost.flops, 96.0);
    // W_UK absorbed into the query: 2·heads·nope·rank = 2·2·3·4 = 48 FLOPs.
    QCOMPARE(find(ops, "Q absorb (W_UK)")->cost.flops, 48.0);
    // Attention over the latent cache, one shared head of width 4 + 2 = 6, values 4 wide:
    // scores 1·2·1·5 = 10; 2·10·6 + 5·10 + 2·10·4 = 120 + 50 + 80 = 250 FLOPs. Reads the query
    // (2·6 = 12 values) and the cache once (5 positions x (4 + 2) = 30 values; V is its first 4
    // columns): 42 values = 84 bytes. Writes 2 heads x 4 = 8 values.
    const LayerOp* attn = find(ops, "attention (flash)");
    QVERIFY(attn);
    QCOMPARE(attn->cost.flops, 250.0);
    QCOMPARE(attn->cost.read_bytes, 84.0);
    QCOMPARE(attn->cost.write_bytes, 16.0);
    // W_UV: 2·2·4·3 = 48; output projection [1 x 2·3] @ [6 x 8]: 96.
    QCOMPARE(find(ops, "V absorb (W_UV)")->cost.flops, 48.0);
    QCOMPARE(find(ops, "output projection")->cost.flops, 96.0);
}

void TestOperations::mlpKindAndParamsKind() {
    // Lecture 2's deep network: layers x (x @ W, W D x D, then ReLU).
    ModelSpec m;
    m.kind = ModelKind::mlp;
    m.layers = 3;
    m.hidden = 4;
    ModelOpsOptions o;
    o.batch = 2;
    o.seq = 1;
    const auto train = model_ops(m, Phase::training, o);
    QCOMPARE(train.size(), std::size_t(4));  // matmul, ReLU, and their backward
    QCOMPARE(train[0].cost.flops, 2.0 * 2 * 4 * 4);
    QCOMPARE(train[0].count, 3.0);
    QCOMPARE(train[1].cost.flops, 2.0 * 4);  // ReLU: one FLOP per element of [2 x 4]
    // Forward 2·B·D² per layer and backward 4·B·D²: 6·B·D² in all (lecture 2's 6ND).
    QCOMPARE(train[3].cost.flops + train[0].cost.flops, 6.0 * 2 * 4 * 4);
    QVERIFY(model_ops(m, Phase::decode, o).empty());
    ModelSpec p;
    p.kind = ModelKind::params;
    p.params = 7e9;
    QVERIFY(model_ops(p, Phase::training, o).empty());
}

// A model layer's name is translated part by part: each part through the translator (here one
// that brackets what it is given, so the nesting shows), the MLP's prefix and the backward
// suffix around the base. A name model_ops() does not make (the user's own) is left as it is.
void TestOperations::modelOpNamesTranslatePartByPart() {
    // Appended rather than "[" + text + "]": GCC 12 reports a false -Wrestrict on that operator+
    // (GCC bug 105329).
    const TextTranslator brackets = [](const Text& t) {
        return std::string("[").append(t.english()).append("]");
    };
    QCOMPARE(model_op_name("MLP up projection (backward)", brackets),
             std::string("[[MLP [up projection]] (backward)]"));
    QCOMPARE(model_op_name("attention (flash), sliding window (backward)", brackets),
             std::string("[[[attention (flash)], sliding window] (backward)]"));
    QCOMPARE(model_op_name("shared experts SwiGLU", brackets),
             std::string("[shared experts [SwiGLU]]"));
    QCOMPARE(model_op_name("my own op (backward)", brackets), std::string("my own op (backward)"));
    // No translator: the English, whole.
    QCOMPARE(model_op_name("experts down projection (backward)", {}),
             std::string("experts down projection (backward)"));
    // Every name a model's steps are made of is one of the parts, so none is left untranslated:
    // here a small transformer with sliding-window layers, routed and shared experts, in each
    // phase (training with its backward passes, prefill, decode).
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.layers = 2;
    m.hidden = 512;
    m.heads = 8;
    m.ffn_hidden = 1024;
    m.vocab = 1000;
    m.sliding_window = 64;
    m.sliding_window_layers = 1;
    m.moe.experts = 4;
    m.moe.active_experts = 2;
    m.moe.shared_experts = 1;
    m.moe.expert_ffn_hidden = 256;
    ModelOpsOptions options;
    options.seq = 256;
    for (Phase phase : kAllPhases) {
        for (const LayerOp& op : model_ops(m, phase, options)) {
            QVERIFY2(model_op_name(op.cost.name, brackets) != op.cost.name, op.cost.name.c_str());
        }
    }
}

QTEST_GUILESS_MAIN(TestOperations)
#include "tst_operations.moc"
