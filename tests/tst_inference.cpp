// Serving plans: KV cache per token, weights, decode step on the roofline, tensor-parallel
// all-reduces, the batch limits and the inference block of a spec. Every expectation is worked
// out by hand in the comment beside it.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "planner/core/dtype.h"
#include "planner/hardware/hardware.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/serving/inference.h"
#include "planner/training/plan.h"

using namespace tally;

namespace {

PlanSpec servingSpec(const char* preset) {
    PlanSpec s;
    const ModelPreset* p = find_model_preset(preset);
    if (p) {
        s.model = p->model;
    }
    s.data.tokens = 1e12;
    return s;
}

// A measured profile: its peaks are what a probe measured (measured_profile() lists each at 1.0
// of the peak it sets), so the achieved fractions are 1 (planner/hardware/efficiency.h) and times
// come out as plain FLOPs / peak, bytes / bandwidth and bytes / link.
HardwareProfile toyGpu() {
    HardwareProfile p;
    p.id = "toy";
    p.name = "Toy";
    p.kind = ProfileKind::measured;
    p.memory_bytes = 80e9;
    p.bandwidth_bytes_per_s = 1e12;
    p.peak_flops_per_s[static_cast<std::size_t>(ComputeType::bf16)] = 1e15;
    p.interconnect_bytes_per_s = 100e9;
    p.gpus_per_node = 8;
    p.measured.push_back({"bf16_gemm", 1e15, 1.0, "", ""});
    p.measured.push_back({"memory_copy", 1e12, 1.0, "", ""});
    p.measured.push_back({"intra_node_all_reduce_busbw", 100e9, std::nullopt, "", ""});
    return p;
}

// A small dense transformer whose parameters are easy to count by hand: 2 layers, h = 1024,
// 8 heads of 128 (MHA), GELU MLP of 4096, vocabulary 1000 with tied embeddings, RMSNorm, no
// biases.
//   attention 4 h^2         = 4,194,304
//   MLP       2 h f          = 8,388,608
//   norms     2 h            =     2,048
//   per layer                = 12,584,960; x 2 layers = 25,169,920
//   embedding V h (tied)     =  1,024,000; final norm h = 1,024
//   total                    = 26,194,944 parameters
PlanSpec toySpec() {
    PlanSpec s;
    s.name = "toy";
    ModelSpec& m = s.model;
    m.kind = ModelKind::transformer;
    m.layers = 2;
    m.hidden = 1024;
    m.heads = 8;
    m.ffn_hidden = 4096;
    m.ffn = FfnKind::gelu;
    m.vocab = 1000;
    m.tied_embeddings = true;
    s.data.tokens = 1e9;
    s.cluster.gpu = "toy";
    return s;
}

constexpr double kToyParams = 26194944.0;

}  // namespace

class TestInference : public QObject {
    Q_OBJECT

private slots:
    void kvBytesPerToken_data();
    void kvBytesPerToken();
    void kvHeadsSplitAndReplicatedOverTp_data();
    void kvHeadsSplitAndReplicatedOverTp();
    void int4IsHalfAByte();
    void weightsPerGpu();
    void decodeStepOfWeightsThatFillTheBandwidth();
    void criticalBatchIsTheRidge();
    void maxBatchAtTheBoundary();
    void ringAllReduce();
    void allReducesDominateSmallBatches();
    void routedExpertsReadAtBatchOne();
    void computesWhenItDoesNotFit();
    void curvePassesThroughThePlan();
    void badInputNamesTheField_data();
    void badInputNamesTheField();
    void inferenceBlockRoundTrips();
};

void TestInference::kvBytesPerToken_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("kind");
    // Llama 2 7B, MHA: 32 layers x 2 (K, V) x 4096 (32 heads x 128) x 2 B = 524,288 B.
    QTest::newRow("llama-2-7b bf16") << "llama-2-7b"
                                     << "bf16" << 524288.0 << "MHA";
    // Llama 3 70B, GQA with 8 KV heads of 128: 80 x 2 x 8 x 128 x 2 B = 327,680 B.
    QTest::newRow("llama-3-70b gqa bf16") << "llama-3-70b"
                                          << "bf16" << 327680.0 << "GQA";
    // The same at fp8: half, 163,840 B.
    QTest::newRow("llama-3-70b gqa fp8") << "llama-3-70b"
                                         << "fp8" << 163840.0 << "GQA";
    // DeepSeek-V3, MLA: (kv_lora_rank 512 + qk_rope_head_dim 64) x 61 layers x 2 B = 70,272 B.
    QTest::newRow("deepseek-v3 mla bf16") << "deepseek-v3"
                                          << "bf16" << 70272.0 << "MLA";
}

void TestInference::kvBytesPerToken() {
    QFETCH(QString, preset);
    QFETCH(QString, dtype);
    QFETCH(double, bytes);
    QFETCH(QString, kind);
    const ModelPreset* p = find_model_preset(preset.toStdString());
    QVERIFY(p);
    const KvCacheShape kv = kv_cache_shape(p->model, *parse_dtype(dtype.toStdString()), 1);
    QCOMPARE(kv.bytes_per_token, bytes);
    QCOMPARE(kv.bytes_per_token_per_gpu, bytes);
    QCOMPARE(QString::fromUtf8(to_string(kv.kind).data()), kind);
}

void TestInference::kvHeadsSplitAndReplicatedOverTp_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("tp");
    QTest::addColumn<double>("perGpu");
    // Llama 3 70B's 8 KV heads over tp 4: 2 heads per GPU, 80 x 2 x 2 x 128 x 2 B = 81,920 B.
    QTest::newRow("gqa tp4") << "llama-3-70b" << 4 << 81920.0;
    // Over tp 16 each head is copied to 2 GPUs and a GPU keeps one: 80 x 2 x 1 x 128 x 2 =
    // 40,960 B.
    QTest::newRow("gqa tp16 replicated") << "llama-3-70b" << 16 << 40960.0;
    // Llama 2 7B's 32 heads over tp 8: 4 per GPU, 32 x 2 x 4 x 128 x 2 = 65,536 B.
    QTest::newRow("mha tp8") << "llama-2-7b" << 8 << 65536.0;
    // MLA's latent serves every head, so each GPU keeps all of it: 70,272 B at tp 8 too.
    QTest::newRow("mla tp8 whole") << "deepseek-v3" << 8 << 70272.0;
}

void TestInference::kvHeadsSplitAndReplicatedOverTp() {
    QFETCH(QString, preset);
    QFETCH(int, tp);
    QFETCH(double, perGpu);
    const KvCacheShape kv =
        kv_cache_shape(find_model_preset(preset.toStdString())->model, DType::bf16, tp);
    QCOMPARE(kv.bytes_per_token_per_gpu, perGpu);
}

void TestInference::int4IsHalfAByte() {
    // 4 bits a value, two to a byte (GPTQ / AWQ storage).
    QCOMPARE(bytes_per_value(DType::int4), 0.5);
    QCOMPARE(parse_dtype("int4"), std::optional<DType>(DType::int4));
    QCOMPARE(std::string(to_string(DType::int4)), std::string("int4"));
}

void TestInference::weightsPerGpu() {
    // Llama 3 70B by hand: attention 2 x 8192^2 + 2 x 8192 x 1024 = 150,994,944; SwiGLU
    // 3 x 8192 x 28672 = 704,643,072; norms 2 x 8192 = 16,384: 855,654,400 a layer, x 80 =
    // 68,452,352,000; embeddings (untied) 2 x 128256 x 8192 = 2,101,346,304; final norm 8192.
    // Total 70,553,706,496. At fp8 (1 B) over tp 4: 17,638,426,624 B per GPU; at int4: half.
    PlanSpec s = servingSpec("llama-3-70b");
    s.cluster.gpus = 4;
    s.inference.tp = 4;
    s.inference.weight_dtype = DType::fp8_e4m3;
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check_inference(s, h100));
    QCOMPARE(serving_memory(s, h100, 1).weights_bytes, 17638426624.0);
    s.inference.weight_dtype = DType::int4;
    QCOMPARE(serving_memory(s, h100, 1).weights_bytes, 17638426624.0 / 2.0);
}

void TestInference::decodeStepOfWeightsThatFillTheBandwidth() {
    // One sequence, prompt 1 + output 1: the step attends to 2 tokens.
    // Weights: 26,194,944 x 2 B = 52,389,888 B read at 1e12 B/s = 52.389888 us; their FLOPs,
    // 2 x 26,194,944 = 52,389,888, take 52.4 ns at 1e15: memory-bound.
    // KV cache: 2 layers x 2 x 1024 x 2 B = 8,192 B per token, x 2 tokens = 16,384 B = 16.384 ns;
    // attention FLOPs 2 x 2 x 8 x (128 + 128) x 2 = 16,384 (16.4 ps): memory-bound.
    // No tensor parallelism, no all-reduce: 52.389888 + 0.016384 = 52.406272 us.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 1;
    s.inference.output_tokens = 1;
    const HardwareProfile gpu = toyGpu();
    QVERIFY(!check_inference(s, gpu));
    const ServingPlan p = evaluate_inference(s, gpu);
    QCOMPARE(p.params_total, kToyParams);
    QCOMPARE(p.decode.weight_bytes, 52389888.0);
    QCOMPARE(p.decode.gemm_memory_s, 52.389888e-6);
    QCOMPARE(p.decode.gemm_s, p.decode.gemm_memory_s);
    QCOMPARE(p.decode.kv_bytes, 16384.0);
    QCOMPARE(p.decode.comm_s, 0.0);
    QVERIFY(qAbs(p.decode_step_s - 52.406272e-6) < 1e-15);
    // Prefill of the 1-token prompt reads the same weights once: the same 52.39 us plus writing
    // 8,192 B of cache (8.192 ns).
    QVERIFY(qAbs(p.prefill_s - (52.389888e-6 + 8.192e-9)) < 1e-15);
}

void TestInference::criticalBatchIsTheRidge() {
    // Tied embeddings: every weight read is multiplied, so decode's GEMMs do 2 FLOPs per weight
    // and sequence against 2 bytes per weight (bf16). Compute-bound once 2 B / 1e15 >= 2 / 1e12,
    // i.e. B >= 1000 (the ridge 1e15 / 1e12 = 1000 FLOP per byte, times 2 bytes, over 2 FLOPs).
    PlanSpec s = toySpec();
    const ServingPlan p = evaluate_inference(s, toyGpu());
    QCOMPARE(p.critical_batch, std::int64_t{1000});
    // int4 weights: a quarter of the bytes, but multiplied in bf16: B >= 250.
    s.inference.weight_dtype = DType::int4;
    QCOMPARE(evaluate_inference(s, toyGpu()).critical_batch, std::int64_t{250});
}

void TestInference::maxBatchAtTheBoundary() {
    // Prompt 1000 + output 24: context 1024 tokens x 8,192 B = 8,388,608 B of KV cache per
    // sequence. Activations at batch B <= 1000: the 1000 prompt tokens x (2 x 1024 + (8 + 16) x
    // 128 + 4096) values x 2 B = 1000 x 9,216 x 2 = 18,432,000 B, plus the logits B x 1000 x 4 B.
    // Total(B) = 52,389,888 + 18,432,000 + B x (8,388,608 + 4,000) = 70,821,888 + 8,392,608 B.
    // Total(10) = 154,747,968 B: a GPU of exactly that holds 10, one byte less holds 9.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 1000;
    s.inference.output_tokens = 24;
    HardwareProfile gpu = toyGpu();
    QCOMPARE(serving_memory(s, gpu, 10).total_bytes, 154747968.0);
    gpu.memory_bytes = 154747968.0;
    QCOMPARE(max_serving_batch(s, gpu), std::int64_t{10});
    gpu.memory_bytes = 154747967.0;
    QCOMPARE(max_serving_batch(s, gpu), std::int64_t{9});
    // Less than weights + one sequence: none fits.
    gpu.memory_bytes = 70821888.0 + 8392608.0 - 1.0;
    QCOMPARE(max_serving_batch(s, gpu), std::int64_t{0});
}

void TestInference::ringAllReduce() {
    // 1 MB over 4 GPUs at 100 GB/s: 2 x 3/4 x 1e6 / 1e11 = 15 us of bandwidth; 2 x 3 = 6 ring
    // steps at 0.6 us plus NCCL's 6.6 us base = 10.2 us of latency.
    const ServingCollective c = serving_ring_all_reduce(1e6, 4, 1e11, kServingNvlinkStepLatencyS);
    QVERIFY(qAbs(c.bandwidth_s - 15e-6) < 1e-18);
    QVERIFY(qAbs(c.latency_s - 10.2e-6) < 1e-18);
    QVERIFY(qAbs(c.seconds - 25.2e-6) < 1e-18);
    QCOMPARE(serving_ring_all_reduce(1e6, 1, 1e11, kServingNvlinkStepLatencyS).seconds, 0.0);
}

void TestInference::allReducesDominateSmallBatches() {
    // Llama 3 70B at fp8 over tp 4 H100, batch 1: 2 all-reduces per layer x 80 = 160 per step,
    // each of 8192 x 2 B = 16,384 B: latency 160 x (6.6 + 6 x 0.6) us = 1.632 ms. The weights a
    // step reads are all but the looked-up input embedding (128,256 x 8192 = 1,050,673,152):
    // (70,553,706,496 - 1,050,673,152) x 1 B / 4 = 17,375,758,336 B per GPU, at 3.35e12 x 0.936
    // B/s achieved 5.54 ms; so the all-reduces are over a fifth of the step at batch 1.
    PlanSpec s = servingSpec("llama-3-70b");
    s.cluster.gpus = 4;
    s.inference.tp = 4;
    s.inference.weight_dtype = DType::fp8_e4m3;
    s.inference.prompt_tokens = 128;
    s.inference.output_tokens = 128;
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    const ServingPlan one = evaluate_inference(s, h100);
    QCOMPARE(one.decode.all_reduces, 160.0);
    QCOMPARE(one.decode.all_reduce_bytes, 16384.0);
    QVERIFY(qAbs(one.decode.comm_latency_s - 1.632e-3) < 1e-12);
    QVERIFY(qAbs(one.decode.gemm_memory_s - 17375758336.0 / (3.35e12 * 0.936)) < 1e-12);
    QVERIFY(one.decode.comm_s / one.decode_step_s > 0.2);
    // At batch 256 the KV cache, the GEMMs and the all-reduces' bytes grow, their latency does
    // not: its share of the step falls.
    s.inference.batch = 256;
    const ServingPlan many = evaluate_inference(s, h100);
    QCOMPARE(many.decode.comm_latency_s, one.decode.comm_latency_s);
    QVERIFY(many.decode.comm_latency_s / many.decode_step_s <
            one.decode.comm_latency_s / one.decode_step_s);
}

void TestInference::routedExpertsReadAtBatchOne() {
    // DeepSeek-V3, batch 1: each of the 58 MoE layers reads 8 of its 256 routed experts, each
    // 3 x 7168 x 2048 = 44,040,192 weights. All the routed experts hold 58 x 256 x 44,040,192 =
    // 653,908,770,816 weights; a batch-1 step reads 8/256 of them. So the weights read at batch 1
    // are the total less 248/256 of the routed experts (and less the looked-up input embedding,
    // 129,280 x 7168).
    PlanSpec s = servingSpec("deepseek-v3");
    s.cluster.gpu = "h200";
    s.cluster.gpus = 8;
    s.inference.tp = 8;
    s.inference.weight_dtype = DType::fp8_e4m3;
    const HardwareProfile& h200 = *find_builtin_hardware("h200");
    QVERIFY(!check_inference(s, h200));
    const ServingPlan p = evaluate_inference(s, h200);
    const double routed = 653908770816.0;
    const double lookup = 129280.0 * 7168.0;
    const double read = p.params_total - lookup - routed * (248.0 / 256.0);
    QVERIFY(qAbs(p.decode.weight_bytes - read / 8.0) / (read / 8.0) < 1e-12);
}

void TestInference::computesWhenItDoesNotFit() {
    // Llama 3 70B in bf16 on one 80 GB H100: 141 GB of weights alone. Still a plan, marked.
    PlanSpec s = servingSpec("llama-3-70b");
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check_inference(s, h100));
    const ServingPlan p = evaluate_inference(s, h100);
    QVERIFY(!p.memory.fits);
    QCOMPARE(p.max_batch, std::int64_t{0});
    QVERIFY(p.has(ServingWarning::does_not_fit));
    QVERIFY(p.decode_step_s > 0.0);
    QVERIFY(p.tokens_per_s > 0.0);
}

void TestInference::curvePassesThroughThePlan() {
    PlanSpec s = toySpec();
    s.inference.batch = 37;
    const HardwareProfile gpu = toyGpu();
    const ServingPlan p = evaluate_inference(s, gpu);
    const auto curve = serving_curve(s, gpu);
    bool seen = false;
    for (std::size_t i = 0; i < curve.size(); ++i) {
        if (i > 0) {
            QVERIFY(curve[i].batch > curve[i - 1].batch);
            // A larger batch never lowers throughput nor the step time.
            QVERIFY(curve[i].decode_step_s >= curve[i - 1].decode_step_s);
        }
        if (curve[i].batch == 37) {
            seen = true;
            QCOMPARE(curve[i].decode_step_s, p.decode_step_s);
            QCOMPARE(curve[i].tokens_per_s, p.tokens_per_s);
        }
    }
    QVERIFY(seen);
}

void TestInference::badInputNamesTheField_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("which");
    QTest::newRow("batch 0") << "inference.batch" << 0;
    QTest::newRow("prompt 0") << "inference.prompt_tokens" << 1;
    QTest::newRow("output 0") << "inference.output_tokens" << 2;
    QTest::newRow("tp not dividing heads") << "inference.tp" << 3;
    QTest::newRow("tp not dividing kv heads") << "inference.tp" << 4;
    QTest::newRow("tp not dividing gpus") << "inference.tp" << 5;
    QTest::newRow("params model") << "model.kind" << 6;
}

void TestInference::badInputNamesTheField() {
    QFETCH(QString, field);
    QFETCH(int, which);
    PlanSpec s = servingSpec("llama-3-70b");
    s.cluster.gpus = 8;
    switch (which) {
        case 0:
            s.inference.batch = 0;
            break;
        case 1:
            s.inference.prompt_tokens = 0;
            break;
        case 2:
            s.inference.output_tokens = 0;
            break;
        case 3:
            s.inference.tp = 3;  // 64 heads
            break;
        case 4:
            // 12 heads, 4 KV heads, tp 6: divides the heads, neither divides nor is a multiple
            // of the KV heads.
            s.model.heads = 12;
            s.model.kv_heads = 4;
            s.model.hidden = 1536;
            s.cluster.gpus = 6;
            s.inference.tp = 6;
            break;
        case 5:
            s.inference.tp = 16;  // 8 GPUs
            break;
        case 6:
            s.model = ModelSpec{};
            s.model.kind = ModelKind::params;
            s.model.params = 7e9;
            break;
    }
    const auto e = check_inference(s, *find_builtin_hardware("h100-sxm"));
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->field), field);
}

void TestInference::inferenceBlockRoundTrips() {
    PlanSpec s = servingSpec("llama-3-70b");
    s.inference.batch = 48;
    s.inference.prompt_tokens = 3000;
    s.inference.output_tokens = 700;
    s.inference.tp = 8;
    s.inference.weight_dtype = DType::int4;
    s.inference.kv_dtype = DType::fp8_e4m3;
    const nlohmann::json j = to_json(s);
    QCOMPARE(j["inference"]["weight_dtype"].get<std::string>(), std::string("int4"));
    QVERIFY(plan_spec_from_json(j, ".") == s);
    // A plan that leaves the block at its defaults writes none, as before the block existed.
    QVERIFY(!to_json(servingSpec("llama-3-70b")).contains("inference"));
    // Unknown keys and dtypes name their field.
    nlohmann::json bad = j;
    bad["inference"]["weight_dtype"] = "int3";
    try {
        (void)plan_spec_from_json(bad, ".");
        QFAIL("accepted int3");
    } catch (const SpecError& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("inference.weight_dtype")));
    }
    bad = j;
    bad["inference"]["beam"] = 4;
    try {
        (void)plan_spec_from_json(bad, ".");
        QFAIL("accepted an unknown key");
    } catch (const SpecError& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("inference.beam")));
    }
}

QTEST_APPLESS_MAIN(TestInference)
#include "tst_inference.moc"
