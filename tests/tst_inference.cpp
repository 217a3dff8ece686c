// Serving plans: KV cache per token, weights, decode step on the roofline, tensor-parallel
// all-reduces, the batch limits and the inference block of a spec. Every expectation is worked
// out by hand in the comment beside it.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "planner/core/dtype.h"
#include "planner/hardware/hardware.h"
#include "planner/io/examples.h"
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
    void prefillActivationMovesTheMlpWidth();
    void criticalBatchIsTheRidge();
    void maxBatchAtTheBoundary();
    void allReducesDominateSmallBatches();
    void allReducesCrossTheLinkNcclSees();
    void routedExpertsReadAtBatchOne();
    void servedModelLeavesTheMtpModuleOut();
    void computesWhenItDoesNotFit();
    void suggestsTheTensorParallelThatFits();
    void curvePassesThroughThePlan();
    void badInputNamesTheField_data();
    void badInputNamesTheField();
    void inferenceBlockRoundTrips();
    void continuousBatchingChunked();
    void continuousBatchingSeparatePrefill();
    void requestRateSolvesLittlesLaw();
    void concurrencyBeyondTheCacheWaitsForAdmission();
    void concurrencyBeyondTheTokenBudgetWaits();
    void promptsQueueWhenAStepTakesOne();
    void enginesKeepTheirShareOfMemoryForTheCache();
    void aPlanSetsItsEnginesMemoryShare();
    void pipelineStagesAddTheirSends();
    void dataParallelAttentionKeepsEveryKvHeadOfItsSequences();
    void aPromptChunkCrossesEveryStage();
    void servingSpecNeedsNoData();
    void servingOnAPartWithoutBf16();
    void perQueryHeadDecodeReadsTheCacheOncePerHead();
    void prefillAttentionAtItsKernelsPublishedRate();
    void hostTimeIsPaidOncePerStep();
    void slidingWindowKeepsAndReadsTheWindow();
    void mistralRollingCacheIsAnEighthAt32k();
    void nothingServedWhenTheCacheHoldsNoSequence();
    void activationsCountThePromptsOfAPass();
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
    // Total 70,553,706,496. Quantized, the input embedding and (vLLM's checkpoints, spec.h
    // OutputHead) the output head stay 16-bit: the other 68,452,360,192 weights at fp8 (1 B) and
    // 2,101,346,304 x 2 B = 4,202,692,608 B, 72,655,052,800 B over tp 4: 18,163,763,200 B.
    PlanSpec s = servingSpec("llama-3-70b");
    s.cluster.gpus = 4;
    s.inference.tp = 4;
    s.inference.weight_dtype = DType::fp8_e4m3;
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check_inference(s, h100));
    QCOMPARE(serving_memory(s, h100, 1).weights_bytes, 18163763200.0);
    // The head quantized too (gpt-fast's quantize.py, or output_head quantized): only the input
    // embedding at 2 B, (69,503,033,344 + 2,101,346,304) / 4 = 17,901,094,912 B.
    s.inference.output_head = OutputHead::quantized;
    QCOMPARE(serving_memory(s, h100, 1).weights_bytes, 17901094912.0);
    s.inference.output_head = OutputHead::engine;
    s.inference.engine = ServingEngine::gpt_fast;
    QCOMPARE(serving_memory(s, h100, 1).weights_bytes, 17901094912.0);
    s.inference.engine = ServingEngine::vllm;
    // int4 per channel (group 0): the 68,452,360,192 at half a byte, (34,226,180,096 +
    // 4,202,692,608) / 4 = 9,607,218,176 B; GPTQ / AWQ groups of 128 add 2.5 B of scale and
    // zero point per 128 weights: 68,452,360,192 x (0.5 + 2.5 / 128) = 35,563,140,256, and
    // (35,563,140,256 + 4,202,692,608) / 4 = 9,941,458,216 B.
    s.inference.weight_dtype = DType::int4;
    s.inference.quant_group_size = 0;
    QCOMPARE(serving_memory(s, h100, 1).weights_bytes, 9607218176.0);
    s.inference.quant_group_size = 128;
    QCOMPARE(serving_memory(s, h100, 1).weights_bytes, 9941458216.0);
    // 16-bit weights: nothing to keep apart, 70,553,706,496 x 2 B / 4.
    s.inference.weight_dtype = DType::bf16;
    QCOMPARE(serving_memory(s, h100, 1).weights_bytes, 70553706496.0 * 2.0 / 4.0);
    // The JSON key reads and writes back; a value it does not know is an error naming it.
    const PlanSpec r = plan_spec_from_json(nlohmann::json::parse(
        R"({"model": {"preset": "llama-2-7b"}, "inference": {"output_head": "16bit"}})"));
    QCOMPARE(r.inference.output_head, OutputHead::sixteen_bit);
    QCOMPARE(to_json(r)["inference"]["output_head"].get<std::string>(), std::string("16bit"));
    QVERIFY(!to_json(PlanSpec{})["inference"].contains("output_head"));
    try {
        (void)plan_spec_from_json(nlohmann::json::parse(
            R"({"model": {"preset": "llama-2-7b"}, "inference": {"output_head": "int2"}})"));
        QFAIL("an unknown output_head was accepted");
    } catch (const SpecError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("inference.output_head") != std::string::npos, what.c_str());
        QVERIFY2(what.find("16bit") != std::string::npos, what.c_str());
    }
}

void TestInference::decodeStepOfWeightsThatFillTheBandwidth() {
    // One sequence, prompt 1 + output 1: the step attends to 2 tokens. vLLM (the default engine)
    // replays it as a CUDA graph, so every kernel takes at least 3.4 us (kGraphKernelFloorS).
    // The toy GPU has no SM count (no wave quantization) and reads at 1e12 B/s; each GEMM reads
    // its weights (2 B each) and its activations in and out (2 B each), one token:
    //   QKV  1024 x 3072 = 3,145,728 weights: 6,291,456 + (3072 + 1024) x 2 = 6,299,648 B
    //        = 6.299648 us
    //   out  1024 x 1024 = 1,048,576: 2,097,152 + 4,096 B = 2.101248 us, below the floor: 3.4 us
    //   up   1024 x 4096 = 4,194,304: 8,388,608 + 10,240 B = 8.398848 us
    //   down the same, 8.398848 us
    // a layer 26.497344 us, two layers 52.994688 us; the head (1000 x 1024 tied, 2,052,048 B =
    // 2.052048 us) is below the floor: 3.4 us. GEMMs: 56.394688 us. Their FLOPs (2 per weight)
    // take 52 ns at 1e15: memory-bound.
    // Attention: 2 layers x 2 x 1024 x 2 B = 8,192 B of cache a token, 2 tokens = 16,384 B
    // (16 ns), below two kernels' floors: 6.8 us.
    // Small kernels: 5 a layer (vLLM's norms, rotary, cache write, activation), each moving
    // 2 x 1024 x 2 B (4 ns), so at the floor: 2 x 5 x 3.4 = 34 us, and the step's own 5 x 3.4 =
    // 17 us: 51 us. No tensor parallelism, no all-reduce.
    // Step: 56.394688 + 6.8 + 51 = 114.194688 us.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 1;
    s.inference.output_tokens = 1;
    const HardwareProfile gpu = toyGpu();
    QVERIFY(!check_inference(s, gpu));
    const ServingPlan p = evaluate_inference(s, gpu);
    QCOMPARE(p.params_total, kToyParams);
    // Weights read: every one (the embedding is tied: it is the head), 26,194,944 x 2 B.
    QCOMPARE(p.decode.weight_bytes, 52389888.0);
    QVERIFY(qAbs(p.decode.gemm_s - 56.394688e-6) < 1e-15);
    QCOMPARE(p.decode.kv_bytes, 16384.0);
    QVERIFY(qAbs(p.decode.attention_s - 6.8e-6) < 1e-15);
    QVERIFY(qAbs(p.decode.fixed_s - 51e-6) < 1e-15);
    QCOMPARE(p.decode.comm_s, 0.0);
    QVERIFY(qAbs(p.decode_step_s - 114.194688e-6) < 1e-15);
    // Prefill of the 1-token prompt: the same GEMMs, its 8,192 B of cache written (8 ns, at the
    // floor) and the same small kernels: the same 114.194688 us.
    QVERIFY(qAbs(p.prefill_s - 114.194688e-6) < 1e-15);
}

void TestInference::prefillActivationMovesTheMlpWidth() {
    // A 4096-token prompt in one prefill pass (vLLM, the default engine: 5 small kernels a layer,
    // one of them the MLP's activation; CUDA graphs for a batch of 1: a 3.4 us floor).
    //   4 small kernels a layer each read and write the hidden state: 2 x 4096 x 1024 x 2 B =
    //     16,777,216 B = 16.777216 us at 1e12 B/s, above the floor; 2 layers x 4 = 134.217728 us
    //   the GELU activation reads the up projection's output and writes its own, 4096 wide:
    //     (1 + 1) x 4096 x 4096 x 2 B = 67,108,864 B = 67.108864 us; 2 layers = 134.217728 us
    //   the step's own 5 kernels at the floor: 17 us
    // 285.435456 us. Timed like the hidden state, the activation would be 16.777216 us a layer
    // and the sum 184.77216 us.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 4096;
    s.inference.output_tokens = 1;
    const HardwareProfile gpu = toyGpu();
    QVERIFY(!check_inference(s, gpu));
    const ServingPlan p = evaluate_inference(s, gpu);
    QCOMPARE(p.prefill.tokens, 4096.0);
    QVERIFY(qAbs(p.prefill.fixed_s - 285.435456e-6) < 1e-15);
    // A decode step's single token: every small kernel at its floor, 2 x 5 x 3.4 + 17 = 51 us.
    QVERIFY(qAbs(p.decode.fixed_s - 51e-6) < 1e-15);
}

void TestInference::criticalBatchIsTheRidge() {
    // Tied embeddings: every weight read is multiplied, so decode's GEMMs do 2 FLOPs per weight
    // and sequence against 2 bytes per weight (bf16). Compute-bound once 2 B / 1e15 >= 2 / 1e12,
    // i.e. B >= 1000 (the ridge 1e15 / 1e12 = 1000 FLOP per byte, times 2 bytes, over 2 FLOPs).
    PlanSpec s = toySpec();
    const ServingPlan p = evaluate_inference(s, toyGpu());
    QCOMPARE(p.critical_batch, std::int64_t{1000});
    // int4 weights with a 16-bit scale and a 4-bit zero per group of 128: 0.5 + 2.5 / 128 =
    // 0.51953125 B a weight, multiplied in bf16, but the head (the tied embedding, 1000 x 1024 =
    // 1,024,000 weights) stays 16-bit (spec.h, OutputHead): a step reads 25,170,944 x
    // 0.51953125 + 1,024,000 x 2 = 15,125,092 B for 2 x 26,194,944 FLOPs a sequence, so
    // B >= 1000 x 15,125,092 / 52,389,888 = 288.7: 289.
    s.inference.weight_dtype = DType::int4;
    QCOMPARE(evaluate_inference(s, toyGpu()).critical_batch, std::int64_t{289});
    // One scale per output channel (group 0): 25,170,944 x 0.5 + 2,048,000 = 14,633,472 B,
    // B >= 279.3: 280.
    s.inference.quant_group_size = 0;
    QCOMPARE(evaluate_inference(s, toyGpu()).critical_batch, std::int64_t{280});
    // The head quantized too: every weight at half a byte, B >= 1000 x 0.5 / 2 = 250.
    s.inference.output_head = OutputHead::quantized;
    QCOMPARE(evaluate_inference(s, toyGpu()).critical_batch, std::int64_t{250});
}

void TestInference::maxBatchAtTheBoundary() {
    // Prompt 1000 + output 24: context 1024 tokens x 8,192 B = 8,388,608 B of KV cache per
    // sequence. Activations at batch B <= 1000: the 1000 prompt tokens x (2 x 1024 + (8 + 16) x
    // 128 + 4096) values x 2 B = 1000 x 9,216 x 2 = 18,432,000 B, plus the logits B x 1000 x 4 B.
    // Total(B) = 52,389,888 + 18,432,000 + B x (8,388,608 + 4,000) = 70,821,888 + 8,392,608 B.
    // Total(10) = 154,747,968 B: a GPU of exactly that holds 10, one byte less holds 9.
    // One prompt a prefill pass (max_batched_tokens 1000), so the prefill's working set is 1000
    // tokens whatever the batch.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 1000;
    s.inference.output_tokens = 24;
    s.inference.max_batched_tokens = 1000;
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

void TestInference::allReducesDominateSmallBatches() {
    // Llama 3 70B at fp8 over tp 4 H100 in vLLM, batch 1: 2 all-reduces per layer x 80 = 160 per
    // step, each of 8192 x 2 B = 16,384 B, by vLLM's custom kernel: 11.9 us of latency each over
    // 4 GPUs (measured, serving_engine.h), 160 x 11.9 us = 1.904 ms. The weights a step reads
    // are all but the looked-up input embedding (128,256 x 8192 = 1,050,673,152), the output head
    // (as many) at 16 bits: (70,553,706,496 - 2 x 1,050,673,152) x 1 B + 1,050,673,152 x 2 B =
    // 70,553,706,496 B, / 4 = 17,638,426,624 B per GPU, at 3.35e12 x 0.936 B/s achieved 5.62 ms.
    // Small kernels: 80 x 5 x 3.4 us = 1.36 ms. So the all-reduces are over a seventh of a step of
    // about 9 ms at batch 1.
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
    QVERIFY(qAbs(one.decode.comm_latency_s - 1.904e-3) < 1e-12);
    QCOMPARE(one.decode.weight_bytes, 17638426624.0);
    QVERIFY(one.decode.gemm_memory_s >= 17638426624.0 / (3.35e12 * 0.936));
    QVERIFY(qAbs(one.decode.fixed_s - (80.0 * 5.0 * 3.4e-6 + 5.0 * 3.4e-6)) < 1e-12);
    QVERIFY(one.decode.comm_s / one.decode_step_s > 1.0 / 7.0);
    // NCCL instead (gpt-fast): 6.6 + 2 x 3 x 0.6 = 10.2 us a call, 160 x 10.2 = 1.632 ms.
    s.inference.engine = ServingEngine::gpt_fast;
    QVERIFY(qAbs(evaluate_inference(s, h100).decode.comm_latency_s - 1.632e-3) < 1e-12);
    s.inference.engine = ServingEngine::vllm;
    // At batch 256 the KV cache, the GEMMs and the all-reduces' bytes grow, their latency does
    // not: its share of the step falls.
    s.inference.batch = 256;
    const ServingPlan many = evaluate_inference(s, h100);
    QCOMPARE(many.decode.comm_latency_s, one.decode.comm_latency_s);
    QVERIFY(many.decode.comm_latency_s / many.decode_step_s <
            one.decode.comm_latency_s / one.decode_step_s);
}

void TestInference::allReducesCrossTheLinkNcclSees() {
    // Llama 3 70B at fp8 on 8 H100, batch 256: the all-reduces' ring runs at NCCL's figure for
    // the NVLink, 18 x 20.6 = 370.8 GB/s (src/graph/topo.h), not the datasheet's 450.
    PlanSpec s = servingSpec("llama-3-70b");
    s.cluster.gpus = 8;
    s.inference.tp = 8;
    s.inference.batch = 256;
    s.inference.weight_dtype = DType::fp8_e4m3;
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    const ServingPlan p = evaluate_inference(s, h100);
    QCOMPARE(p.link_bytes_per_s, 450e9);
    QVERIFY(qAbs(p.nccl_link_bytes_per_s - 370.8e9) < 1.0);
    // Four A100 PCIe cards: the NVLink bridge joins pairs, so a ring over four crosses each
    // card's PCIe Gen4 x16 link (64 GB/s both ways, A100 datasheet: 32 a direction), which NCCL
    // counts at 16 x 120 / 80 = 24 GB/s. Two cards keep the bridge's 300 GB/s (NCCL: 12 x 20 =
    // 240).
    s.cluster.gpu = "a100-pcie-80gb";
    s.cluster.gpus = 4;
    s.inference.tp = 4;
    s.inference.weight_dtype = DType::bf16;
    s.inference.batch = 16;
    const HardwareProfile& a100 = *find_builtin_hardware("a100-pcie-80gb");
    const ServingPlan four = evaluate_inference(s, a100);
    QCOMPARE(four.link_bytes_per_s, 32e9);
    QVERIFY(qAbs(four.nccl_link_bytes_per_s - 24e9) < 1.0);
    QVERIFY(four.has(ServingWarning::tp_spans_bridge));
    QVERIFY(!four.has(ServingWarning::tp_spans_nodes));
    s.cluster.gpus = 2;
    s.inference.tp = 2;
    const ServingPlan two = evaluate_inference(s, a100);
    QCOMPARE(two.link_bytes_per_s, 300e9);
    QVERIFY(qAbs(two.nccl_link_bytes_per_s - 240e9) < 1.0);
    QVERIFY(!two.has(ServingWarning::tp_spans_bridge));
}

void TestInference::routedExpertsReadAtBatchOne() {
    // DeepSeek-V3, batch 1: each of the 58 MoE layers reads 8 of its 256 routed experts, each
    // 3 x 7168 x 2048 = 44,040,192 weights. All the routed experts hold 58 x 256 x 44,040,192 =
    // 653,908,770,816 weights; a batch-1 step reads 8/256 of them. So the weights read at batch 1
    // are the total less 248/256 of the routed experts (and less the looked-up input embedding,
    // 129,280 x 7168), at 1 B, the output head (as large) counted twice: it stays 16-bit.
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
    const double read = p.params_total - lookup - routed * (248.0 / 256.0) + lookup;
    QVERIFY(qAbs(p.decode.weight_bytes - read / 8.0) / (read / 8.0) < 1e-12);
}

// A served DeepSeek-V3 loads no multi-token-prediction module (DeepSeek-V3 Technical Report,
// sec. 2.2: the modules can be discarded at inference): a plan's model.mtp_layers changes none of
// serving's figures.
void TestInference::servedModelLeavesTheMtpModuleOut() {
    PlanSpec s = servingSpec("deepseek-v3");
    s.cluster.gpu = "h200";
    s.cluster.gpus = 8;
    s.inference.tp = 8;
    const HardwareProfile& h200 = *find_builtin_hardware("h200");
    const ServingPlan without = evaluate_inference(s, h200);
    s.model.mtp_layers = 1;
    QVERIFY(!check_inference(s, h200));
    const ServingPlan with = evaluate_inference(s, h200);
    QCOMPARE(with.params_total, without.params_total);
    QCOMPARE(with.memory.total_bytes, without.memory.total_bytes);
    QCOMPARE(with.decode_step_s, without.decode_step_s);
    QCOMPARE(with.tokens_per_s, without.tokens_per_s);
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

void TestInference::suggestsTheTensorParallelThatFits() {
    // Llama 3 70B in bf16 on one 80 GB H100 does not fit: 70,553,706,496 weights x 2 B =
    // 141.1 GB. Split over tp 2 the weights are 70.55 GB per GPU, and one sequence of the default
    // 1024 + 256 tokens adds 1280 x 327,680 B (2 x 80 layers x 8 KV heads x 128 x 2 B) / 2 =
    // 0.21 GB of KV cache: the warnings name tp 2, the smallest that fits.
    PlanSpec s = servingSpec("llama-3-70b");
    s.cluster.gpus = 1;
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check_inference(s, h100));
    const ServingPlan p = evaluate_inference(s, h100);
    QVERIFY(p.has(ServingWarning::does_not_fit));
    const std::vector<std::string> lines = serving_warning_messages(p, s, h100);
    QCOMPARE(lines.size(), std::size_t{2});
    const std::string prefix = "tensor parallel 2 (2 GPUs a replica) fits the batch of 1: ";
    QVERIFY2(lines[1].starts_with(prefix), lines[1].c_str());
    const double gb = std::stod(lines[1].substr(prefix.size()));
    QVERIFY2(gb >= 70.5 + 0.2 && gb < 80.0, lines[1].c_str());

    // 64 sequences of 33,024 tokens: 64 x 33,024 x 327,680 B = 692.6 GB of KV cache, more than
    // the 8 GPUs of a node hold (8 x 80 GB) before any weights: no tp within the node fits.
    s.inference.batch = 64;
    s.inference.prompt_tokens = 1024;
    s.inference.output_tokens = 32000;
    const ServingPlan many = evaluate_inference(s, h100);
    const std::vector<std::string> none = serving_warning_messages(many, s, h100);
    QCOMPARE(none.size(), std::size_t{3});
    QVERIFY2(none[1].starts_with("no tensor parallel within a node of 8 GPUs fits the batch of 64"),
             none[1].c_str());
    // 1024 + 32,000 = 33,024 tokens is past Llama 3 70B's context of 8192 (its config's
    // max_position_embeddings): said too.
    QVERIFY2(none[2].starts_with("prompt + output = 33024 tokens is past the 8192 tokens of the "
                                 "model's context"),
             none[2].c_str());
    QVERIFY(many.has(ServingWarning::beyond_context));
    QVERIFY(!p.has(ServingWarning::beyond_context));  // 1024 + 256 tokens

    // A plan that fits suggests nothing.
    s.inference.tp = 2;
    s.cluster.gpus = 2;
    s.inference.batch = 1;
    s.inference.output_tokens = 256;
    const ServingPlan fits = evaluate_inference(s, h100);
    QVERIFY(fits.memory.fits);
    QVERIFY(serving_warning_messages(fits, s, h100).empty());
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
    QTest::newRow("ep on a dense model") << "inference.ep" << 7;
    QTest::newRow("pp 0") << "inference.pp" << 8;
    QTest::newRow("dp attention without tp") << "inference.dp_attention" << 9;
    QTest::newRow("negative concurrency") << "inference.concurrency" << 10;
    QTest::newRow("tp x pp not dividing gpus") << "inference.pp" << 11;
    // A million clients at most (planner/core/limits.h); 1e12 was accepted.
    QTest::newRow("a trillion clients") << "inference.concurrency" << 12;
    // A 1000-token prompt in steps of 512 tokens, not chunked: vLLM refuses the setting.
    QTest::newRow("prompt longer than an unchunked step") << "inference.max_batched_tokens" << 13;
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
        case 7:
            s.inference.tp = 8;
            s.inference.ep = 2;  // Llama 3 has no experts
            break;
        case 8:
            s.inference.pp = 0;
            break;
        case 9:
            s.inference.dp_attention = true;  // tp 1
            break;
        case 10:
            s.inference.concurrency = -1;
            break;
        case 11:
            s.inference.tp = 4;
            s.inference.pp = 4;  // 16 GPUs of 8
            break;
        case 12:
            s.inference.concurrency = 1'000'000'000'000;
            break;
        case 13:
            s.inference.chunked_prefill = false;
            s.inference.prompt_tokens = 1000;
            s.inference.max_batched_tokens = 512;
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

void TestInference::continuousBatchingChunked() {
    // Toy model, prompt 4, output 4, 2 requests in flight, chunked prefill (the default). A step
    // decodes the 2 sequences and prefills the 2 x 4 / 4 = 2 prompt tokens of the half request
    // that arrives a step: one pass over 4 tokens, 2 of them sampled.
    //   GEMMs, 4 tokens: QKV 6,291,456 + 4 x 4096 x 2 = 6,324,224 B = 6.324224 us; out
    //   2,097,152 + 4 x 2048 x 2 = 2,113,536 B, below the floor: 3.4 us; up and down 8,388,608 +
    //   4 x 5120 x 2 = 8,429,568 B = 8.429568 us each: 26.58336 us a layer, 53.16672 us for two;
    //   the head for 2 tokens (2,056,096 B) at the floor, 3.4 us: 56.56672 us.
    //   Attention: 2 x 6.5 x 8,192 B read (mean context 4 + 5/2) + 2 x 8,192 B written =
    //   122,880 B (0.12 us): the floor of two kernels, 6.8 us.
    //   Small kernels: 51 us, as in decodeStepOfWeightsThatFillTheBandwidth.
    // Step = ITL = 56.56672 + 6.8 + 51 = 114.36672 us. The budget (8192 - 2 tokens) takes the
    // whole 4-token prompt in one step, a pass over 2 + 4 = 6 tokens, 3 of them sampled:
    //   QKV 6,291,456 + 6 x 4096 x 2 = 6,340,608 B = 6.340608 us; out 2,121,728 B at the floor
    //   3.4 us; up and down 8,388,608 + 6 x 5120 x 2 = 8,450,048 B = 8.450048 us each: 26.640704
    //   us a layer, 53.281408 us for two; the head for 3 tokens at the floor, 3.4 us: 56.681408
    //   us; attention (139,264 B) at its floor 6.8 us; small kernels 51 us.
    // The prompt's own step, S = 114.481408 us. Before it, the new request waits for the step
    // the engine runs when it arrives (it arrives as its previous request's last step ends and
    // the other client's sequence goes on): one mean step, 114.36672 us. The budget left, 8192 - 2
    // = 8190 tokens, takes two 4-token prompts and more, so no prompt waits behind another.
    // TTFT = 114.481408 + 114.36672 = 228.848128 us. End to end: TTFT + 3 ITL = 571.948288 us;
    // throughput 2 x 4 / 571.948288 us = 13,987.3 tokens/s.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 4;
    s.inference.output_tokens = 4;
    s.inference.concurrency = 2;
    const HardwareProfile gpu = toyGpu();
    QVERIFY(!check_inference(s, gpu));
    const ServingPlan p = evaluate_inference(s, gpu);
    QVERIFY(p.continuous.has_value());
    const ContinuousBatchingPoint& c = *p.continuous;
    QVERIFY(qAbs(c.itl_s - 114.36672e-6) < 1e-15);
    QVERIFY(qAbs(c.prefill_wait_s - 114.36672e-6) < 1e-15);
    QVERIFY(qAbs(c.ttft_s - 228.848128e-6) < 1e-15);
    QVERIFY(qAbs(c.e2e_s - 571.948288e-6) < 1e-15);
    QVERIFY(qAbs(c.tokens_per_s - 8.0 / 571.948288e-6) < 1e-6);
    QVERIFY(qAbs(c.requests_per_s - 2.0 / 571.948288e-6) < 1e-6);
    QVERIFY(c.fits);
    // One client: nothing else runs when its request arrives, no wait.
    const ContinuousBatchingPoint alone = continuous_batching_at(s, gpu, 1.0);
    QCOMPARE(alone.prefill_wait_s, 0.0);
    // The same point from the sweep.
    const auto sweep = concurrency_sweep(s, gpu, {1.0, 2.0, 4.0});
    QCOMPARE(sweep.size(), std::size_t{3});
    QCOMPARE(sweep[1].itl_s, c.itl_s);
    QVERIFY(sweep[2].tokens_per_s > sweep[1].tokens_per_s);
}

void TestInference::continuousBatchingSeparatePrefill() {
    // As above without chunked prefill. The decode step of 2 sequences: GEMMs over 2 tokens
    // (QKV 6,291,456 + 2 x 4096 x 2 = 6,307,840 B = 6.30784 us; out at the floor 3.4 us; up and
    // down 8,388,608 + 2 x 5120 x 2 = 8,409,088 B = 8.409088 us each; 26.526016 us a layer,
    // 53.052032 us for two, head 3.4 us: 56.452032 us), attention at its floor 6.8 us, small
    // kernels 51 us: 114.252032 us. A 4-token prompt alone: 56.56672 (the 4-token GEMMs above,
    // head for 1 token at the floor) + 6.8 + 51 = 114.36672 us.
    // ITL = 114.252032 + 2/4 x 114.36672 = 171.435392 us (half a prefill per step);
    // TTFT = 114.36672 + 114.252032 = 228.618752 us: the prompt waits for the decode step under
    // way when it arrives (the other client's), then runs.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 4;
    s.inference.output_tokens = 4;
    s.inference.concurrency = 2;
    s.inference.chunked_prefill = false;
    const ContinuousBatchingPoint c = continuous_batching_at(s, toyGpu(), 2.0);
    QVERIFY(qAbs(c.step_s - 114.252032e-6) < 1e-15);
    QVERIFY(qAbs(c.itl_s - 171.435392e-6) < 1e-15);
    QVERIFY(qAbs(c.prefill_wait_s - 114.252032e-6) < 1e-15);
    QVERIFY(qAbs(c.ttft_s - 228.618752e-6) < 1e-15);
    QVERIFY(qAbs(c.e2e_s - (228.618752e-6 + 3.0 * 171.435392e-6)) < 1e-15);
    // One client: no step under way, the prompt runs at once.
    QCOMPARE(continuous_batching_at(s, toyGpu(), 1.0).prefill_wait_s, 0.0);
}

void TestInference::concurrencyBeyondTheCacheWaitsForAdmission() {
    // The toy of continuousBatchingChunked (vLLM) on a GPU whose memory, at vLLM's
    // gpu_memory_utilization of 0.9, holds the KV cache of exactly 2 sequences: 0.9 x capacity =
    // weights + activations + 2 caches, the capacity a hair above that so rounding cannot drop
    // the second. Asked for 6 clients, the engine runs 2 (end to end 457.581568 us, throughput
    // 2 x 4 / 571.948288 us as at concurrency 2); the other 4 wait. Closed loop, Little's law:
    // each request's cycle is 6 / (2 / 571.948288 us) = 1715.844864 us, so the wait for admission
    // is 1715.844864 - 571.948288 = (6 / 2 - 1) x 571.948288 = 1143.896576 us, and the time to
    // first token 228.848128 + 1143.896576 = 1372.744704 us; the inter-token latency stays
    // 114.36672 us.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 4;
    s.inference.output_tokens = 4;
    s.inference.concurrency = 6;
    HardwareProfile gpu = toyGpu();
    gpu.memory_bytes = serving_memory(s, gpu, 2).total_bytes / 0.9 * (1.0 + 1e-12);
    const ServingPlan p = evaluate_inference(s, gpu);
    QCOMPARE(p.admission_batch, std::int64_t{2});
    QVERIFY(p.max_batch >= 2);
    QVERIFY(p.continuous.has_value());
    const ContinuousBatchingPoint& c = *p.continuous;
    QCOMPARE(c.concurrency, 6.0);
    QCOMPARE(c.in_flight, 2.0);
    QVERIFY(qAbs(c.queue_s - 1143.896576e-6) < 1e-15);
    QVERIFY(qAbs(c.ttft_s - 1372.744704e-6) < 1e-15);
    QVERIFY(qAbs(c.itl_s - 114.36672e-6) < 1e-15);
    QVERIFY(qAbs(c.e2e_s - 1715.844864e-6) < 1e-15);
    QVERIFY(qAbs(c.tokens_per_s - 8.0 / 571.948288e-6) < 1e-6);
    QVERIFY(qAbs(c.requests_per_s - 2.0 / 571.948288e-6) < 1e-6);
    // Within the cache nothing waits; the sweep gives the same points.
    const auto sweep = concurrency_sweep(s, gpu, {2.0, 6.0});
    QCOMPARE(sweep[0].queue_s, 0.0);
    QCOMPARE(sweep[0].in_flight, 2.0);
    QVERIFY(sweep[0].fits);
    QCOMPARE(sweep[1].ttft_s, c.ttft_s);
    // The explanation says who waits and for how long.
    bool explained = false;
    for (const Explanation& e : explain_inference(s, gpu, p)) {
        if (e.key == "serving.continuous.queue_s") {
            explained = true;
            QVERIFY(qAbs(e.value - 1143.896576e-6) < 1e-15);
        }
    }
    QVERIFY(explained);
    // Not even one sequence's cache fits the engine's share: nothing is admitted.
    gpu.memory_bytes = serving_memory(s, gpu, 1).total_bytes - 1.0;
    const ContinuousBatchingPoint none = continuous_batching_at(s, gpu, 6.0);
    QCOMPARE(none.in_flight, 0.0);
    QCOMPARE(none.queue_s, 0.0);
    QVERIFY(!none.fits);
    // Ten times that memory holds all 6 sequences, but an engine share of 5% of it leaves
    // 0.05 x 10 = half a sequence's whole footprint, less than its weights: no sequence is
    // admitted, so none is served, at no rate and with no latency, and it is not said to fit.
    gpu.memory_bytes = 10.0 * serving_memory(s, gpu, 1).total_bytes;
    QVERIFY(serving_memory(s, gpu, 6).fits);
    s.inference.memory_fraction = 0.05;
    const ContinuousBatchingPoint starved = continuous_batching_at(s, gpu, 6.0);
    QCOMPARE(starved.in_flight, 0.0);
    QVERIFY(!starved.fits);
    QCOMPARE(starved.tokens_per_s, 0.0);
    QCOMPARE(starved.requests_per_s, 0.0);
    QCOMPARE(starved.ttft_s, 0.0);
    s.inference.memory_fraction.reset();
}

void TestInference::concurrencyBeyondTheTokenBudgetWaits() {
    // The toy (4-token prompts, 4-token outputs, chunked prefill) on a GPU whose KV cache holds
    // thousands, with a budget of 12 tokens a step: R sequences bring R / 4 prompts of 4 tokens a
    // step, a step carries R + R = 2R tokens, so at most floor(12 x 4 / (4 + 4)) = 6 keep running.
    // Asked for 15 clients the engine runs 6 at the steady state of 6 and the other 9 wait:
    // closed loop, Little's law, (15 / 6 - 1) = 1.5 x the end to end at 6.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 4;
    s.inference.output_tokens = 4;
    s.inference.max_batched_tokens = 12;
    s.inference.concurrency = 15;
    const HardwareProfile gpu = toyGpu();
    const ServingPlan p = evaluate_inference(s, gpu);
    QVERIFY(p.admission_batch > 100);
    QCOMPARE(p.budget_batch, std::int64_t{6});
    QVERIFY(p.continuous.has_value());
    const ContinuousBatchingPoint& c = *p.continuous;
    QCOMPARE(c.in_flight, 6.0);
    QVERIFY(c.budget_bound);
    const ContinuousBatchingPoint six = continuous_batching_at(s, gpu, 6.0);
    QCOMPARE(six.queue_s, 0.0);
    QVERIFY(!six.budget_bound);
    QVERIFY(qAbs(c.queue_s - 1.5 * six.e2e_s) < 1e-15);
    QVERIFY(qAbs(c.ttft_s - (six.ttft_s + 1.5 * six.e2e_s)) < 1e-15);
    QCOMPARE(c.itl_s, six.itl_s);
    QVERIFY(qAbs(c.tokens_per_s - six.tokens_per_s) < 1e-9 * six.tokens_per_s);
    bool budget = false, queue = false;
    for (const Explanation& e : explain_inference(s, gpu, p)) {
        if (e.key == "serving.budget_batch") {
            budget = true;
            QCOMPARE(e.value, 6.0);
            QVERIFY2(e.substitution.find("floor(12 x 4 / (4 + 4)) = 6") != std::string::npos,
                     e.substitution.c_str());
        } else if (e.key == "serving.continuous.queue_s") {
            queue = true;
            QVERIFY2(e.substitution.find("token budget of 12") != std::string::npos,
                     e.substitution.c_str());
        }
    }
    QVERIFY(budget && queue);
    // Separate prefill: a decode step holds the budget's 12 sequences; 15 clients, 3 wait.
    s.inference.chunked_prefill = false;
    const ServingPlan separate = evaluate_inference(s, gpu);
    QCOMPARE(separate.budget_batch, std::int64_t{12});
    QCOMPARE(separate.continuous->in_flight, 12.0);
    QVERIFY(separate.continuous->budget_bound);
}

void TestInference::promptsQueueWhenAStepTakesOne() {
    // The toy of continuousBatchingChunked with a budget of 8 tokens a step: beside the 2 decodes
    // it takes 6 prompt tokens, one 4-token prompt (two would need 8). The steps are unchanged
    // (the prompt still goes in one chunk): ITL 114.36672 us, the prompt's own step S =
    // 114.481408 us. The other client's prompts now queue ahead of this one's, a single server
    // (Pollaczek-Khinchine) fed by n = 1 other client whose cycle is x:
    //   a = S + 3 ITL = 114.481408 + 343.10016 = 457.581568 us, n S = 114.481408 us,
    //   n S^2 / 2 = 6552.996389 us^2; (x - a)(x - n S) = n S^2 / 2, larger root
    //   x = (572.062976 + sqrt(343.10016^2 + 4 x 6552.996389)) / 2 = 475.721831 us;
    //   W = x - a = 18.140263 us, rho = n S / x = 0.240648, the prompt in service's mean residual
    //   rho S / 2 = 13.774849 us (the step in progress already waits for it): 4.365414 us queued.
    // Wait = 114.36672 + 4.365414 = 118.732134 us; TTFT = 233.213542 us.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 4;
    s.inference.output_tokens = 4;
    s.inference.max_batched_tokens = 8;
    const HardwareProfile gpu = toyGpu();
    const ContinuousBatchingPoint c = continuous_batching_at(s, gpu, 2.0);
    QVERIFY(qAbs(c.itl_s - 114.36672e-6) < 1e-15);
    const double a = 457.581568, ns = 114.481408, cross = ns * ns / 2.0;
    const double x = 0.5 * (a + ns + std::sqrt((a - ns) * (a - ns) + 4.0 * cross));
    QVERIFY(qAbs(x - 475.721831) < 1e-6);
    const double queued = (x - a) - 0.5 * (ns / x) * ns;
    QVERIFY(qAbs(queued - 4.365414) < 1e-6);
    QVERIFY(qAbs(c.prefill_wait_s - (114.36672 + queued) * 1e-6) < 1e-15);
    QVERIFY(qAbs(c.ttft_s - (114.481408 + 114.36672 + queued) * 1e-6) < 1e-15);
    // A step that takes two prompts (budget 10: 8 beside the decodes) queues none.
    s.inference.max_batched_tokens = 10;
    QVERIFY(qAbs(continuous_batching_at(s, gpu, 2.0).prefill_wait_s - 114.36672e-6) < 1e-15);
}

void TestInference::enginesKeepTheirShareOfMemoryForTheCache() {
    // The toy of maxBatchAtTheBoundary: weights 52,389,888 B, activations 18,432,000 + 4,000 B B,
    // a KV cache of 8,388,608 B a sequence, on a GPU of 154,747,968 B, where 10 fit. Each engine
    // admits the largest B whose caches fit its pool:
    //   gpt-fast, all that is left: 8,388,608 B <= 154,747,968 - 52,389,888 - 18,432,000 -
    //     4,000 B, 8,392,608 B <= 83,926,080: B = 10;
    //   TensorRT-LLM, 0.9 of that: 8,388,608 B <= 0.9 x (83,926,080 - 4,000 B), 8,392,208 B <=
    //     75,533,472: B = 9.0003, 9;
    //   vLLM, 0.9 of the whole less weights and activations: 8,388,608 B <= 139,273,171.2 -
    //     52,389,888 - 18,432,000 - 4,000 B, 8,392,608 B <= 68,451,283.2: B = 8.16, 8;
    //   SGLang at tp 1, 0.88 of the whole less the weights: 8,388,608 B <= 136,178,211.84 -
    //     52,389,888 = 83,788,323.84: B = 9.99, 9.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 1000;
    s.inference.output_tokens = 24;
    s.inference.max_batched_tokens = 1000;
    HardwareProfile gpu = toyGpu();
    gpu.memory_bytes = 154747968.0;
    const std::pair<ServingEngine, std::int64_t> expected[] = {{ServingEngine::gpt_fast, 10},
                                                               {ServingEngine::tensorrt_llm, 9},
                                                               {ServingEngine::vllm, 8},
                                                               {ServingEngine::sglang, 9}};
    for (const auto& [engine, batch] : expected) {
        s.inference.engine = engine;
        const ServingPlan p = evaluate_inference(s, gpu);
        QCOMPARE(p.max_batch, std::int64_t{10});
        QCOMPARE(p.admission_batch, batch);
        // Eleven clients: the admitted batch runs, the rest wait.
        QCOMPARE(continuous_batching_at(s, gpu, 11.0).in_flight, static_cast<double>(batch));
    }
    // SGLang's share falls as tensor parallelism grows (server_args.py): 0.81 from tp 8.
    QCOMPARE(kv_pool(ServingEngine::sglang, 8).fraction, 0.81);
    QCOMPARE(kv_pool(ServingEngine::sglang, 2).fraction, 0.87);
}

void TestInference::aPlanSetsItsEnginesMemoryShare() {
    // The toy of enginesKeepTheirShareOfMemoryForTheCache in vLLM with its share set
    // (gpu_memory_utilization, inference.memory_fraction): 8,392,608 B a sequence against
    //   0.8:  0.8 x 154,747,968 - 52,389,888 - 18,432,000 = 52,976,486.4 B: B = 6.31, 6;
    //   0.95: 0.95 x 154,747,968 - 52,389,888 - 18,432,000 = 76,188,681.6 B: B = 9.08, 9;
    // against 8 at vLLM's default 0.9.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 1000;
    s.inference.output_tokens = 24;
    s.inference.max_batched_tokens = 1000;
    s.inference.engine = ServingEngine::vllm;
    HardwareProfile gpu = toyGpu();
    gpu.memory_bytes = 154747968.0;
    s.inference.memory_fraction = 0.8;
    QCOMPARE(evaluate_inference(s, gpu).admission_batch, std::int64_t{6});
    QCOMPARE(kv_pool_setting(kv_pool(s.inference)),
             std::string("gpu_memory_utilization 0.8 (inference.memory_fraction)"));
    s.inference.memory_fraction = 0.95;
    QCOMPARE(evaluate_inference(s, gpu).admission_batch, std::int64_t{9});
    // It travels in the spec's JSON, and is refused outside (0, 1] and for gpt-fast, which has
    // no such setting.
    QVERIFY(plan_spec_from_json(to_json(s)).inference.memory_fraction == 0.95);
    s.inference.memory_fraction = 1.5;
    const std::optional<FieldError> out_of_range = check(s, gpu);
    QVERIFY(out_of_range);
    QCOMPARE(out_of_range->field, std::string("inference.memory_fraction"));
    s.inference.memory_fraction = 0.9;
    s.inference.engine = ServingEngine::gpt_fast;
    const std::optional<FieldError> no_setting = check_inference(s, gpu);
    QVERIFY(no_setting);
    QCOMPARE(no_setting->field, std::string("inference.memory_fraction"));
}

void TestInference::nothingServedWhenTheCacheHoldsNoSequence() {
    // The toy of enginesKeepTheirShareOfMemoryForTheCache (weights 52,389,888 B, a KV cache of
    // 8,388,608 B a sequence) in SGLang at tp 1, whose pool is 0.88 of the memory less the
    // weights. On 68,000,000 B: 0.88 x 68,000,000 - 52,389,888 = 7,450,112 B < 8,388,608 B, so
    // the engine admits no request and continuous batching serves nothing: warned, no cost per
    // token, no latency or throughput to explain. On 154,747,968 B it admits 9 (that test).
    PlanSpec s = toySpec();
    s.inference.engine = ServingEngine::sglang;
    s.inference.prompt_tokens = 1000;
    s.inference.output_tokens = 24;
    s.inference.max_batched_tokens = 1000;
    s.inference.concurrency = 4;
    s.cluster.price_per_gpu_hour = 2.0;
    HardwareProfile gpu = toyGpu();
    gpu.memory_bytes = 68e6;
    QVERIFY(!check_inference(s, gpu));
    const auto explains = [&](const ServingPlan& p, const char* key) {
        const std::vector<Explanation> all = explain_inference(s, gpu, p);
        return std::any_of(all.begin(), all.end(),
                           [&](const Explanation& e) { return e.key == key; });
    };
    const ServingPlan none = evaluate_inference(s, gpu);
    QCOMPARE(none.admission_batch, std::int64_t{0});
    QVERIFY(none.has(ServingWarning::cache_holds_none));
    QVERIFY(!none.cost_per_million_tokens);
    QVERIFY(!explains(none, "serving.continuous.tokens_per_s"));
    QVERIFY(!explains(none, "serving.continuous.itl_s"));
    const std::vector<std::string> warnings = serving_warning_messages(none, s, gpu);
    QVERIFY(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
        return w.rfind("continuous batching does not run", 0) == 0 &&
               w.find("mem_fraction_static 0.88") != std::string::npos;
    }));

    gpu.memory_bytes = 154747968.0;
    const ServingPlan nine = evaluate_inference(s, gpu);
    QCOMPARE(nine.admission_batch, std::int64_t{9});
    QVERIFY(!nine.has(ServingWarning::cache_holds_none));
    QVERIFY(nine.cost_per_million_tokens.has_value());
    QVERIFY(explains(nine, "serving.continuous.tokens_per_s"));
}

void TestInference::activationsCountThePromptsOfAPass() {
    // A static batch of 8 prompts of 1000 tokens, 4000 tokens a step: 4 prompts a pass, so one
    // layer's working set holds 4000 tokens, not max(prompt, batch) = 1000. The toy's 9,216
    // values a token (2h + qkv + MLP = 2048 + 3072 + 4096) at 2 B: 4000 x 9216 x 2 =
    // 73,728,000 B, plus the logits 8 x 1000 x 4 = 32,000 B: 73,760,000 B.
    PlanSpec s = toySpec();
    s.inference.batch = 8;
    s.inference.prompt_tokens = 1000;
    s.inference.output_tokens = 24;
    s.inference.max_batched_tokens = 4000;
    const HardwareProfile gpu = toyGpu();
    const ServingPlan p = evaluate_inference(s, gpu);
    QCOMPARE(p.memory.activation_bytes, 73760000.0);
    for (const Explanation& e : explain_inference(s, gpu, p)) {
        if (e.key == "serving.memory.activation_bytes") {
            QVERIFY2(
                e.substitution.rfind("max(4 x 1000, 8) x 9216 x 2 B + 8 x 1000 / 1 x 4 B", 0) == 0,
                e.substitution.c_str());
            return;
        }
    }
    QFAIL("no serving.memory.activation_bytes");
}

void TestInference::requestRateSolvesLittlesLaw() {
    // The rate a concurrency of 2 completes (continuousBatchingChunked: 2 / 571.948288 us) gives
    // that concurrency back; a rate beyond what the largest batch that fits serves gives none.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 4;
    s.inference.output_tokens = 4;
    const HardwareProfile gpu = toyGpu();
    const auto at = continuous_batching_at_rate(s, gpu, 2.0 / 571.948288e-6);
    QVERIFY(at.has_value());
    QVERIFY(qAbs(at->concurrency - 2.0) < 1e-6);
    QVERIFY(!continuous_batching_at_rate(s, gpu, 1e12).has_value());
    // An engine whose KV cache holds no sequence at the full context admits no request, so it
    // completes none, however low the rate: a prompt whose cache alone outgrows the GPU.
    s.inference.prompt_tokens = 1'000'000'000;
    QCOMPARE(evaluate_inference(s, gpu).admission_batch, std::int64_t{0});
    QVERIFY(!continuous_batching_at_rate(s, gpu, 1e-6).has_value());
}

void TestInference::pipelineStagesAddTheirSends() {
    // Toy model over pp 2 (one layer a stage) on 2 GPUs, batch 2, prompt 1 + output 1. The batch
    // runs as 2 micro-batches of 1: a stage's pass is one layer's GEMMs (26.497344 us,
    // decodeStepOfWeightsThatFillTheBandwidth) plus half the head (3.4 / 2 = 1.7 us), attention
    // at one kernel's floor (3.4 us), 5 small kernels (17 us) and half the step's own (8.5 us):
    // 57.097344 us. A step is 2 stage passes plus one send of 1 x 1024 x 2 B between the stages
    // (6.6 us + 2,048 B / 100 GB/s = 6.62048 us): 120.815168 us.
    PlanSpec s = toySpec();
    s.cluster.gpus = 2;
    s.inference.pp = 2;
    s.inference.batch = 2;
    s.inference.prompt_tokens = 1;
    s.inference.output_tokens = 1;
    const HardwareProfile gpu = toyGpu();
    QVERIFY(!check_inference(s, gpu));
    const ServingPlan p = evaluate_inference(s, gpu);
    QCOMPARE(p.replicas, std::int64_t{1});
    QVERIFY(qAbs(p.decode_step_s - 120.815168e-6) < 1e-15);
    // Half the weights on each GPU.
    QCOMPARE(p.memory.weights_bytes, kToyParams * 2.0 / 2.0);
    // pp must divide the layers.
    s.inference.pp = 4;
    s.cluster.gpus = 4;
    const auto e = check_inference(s, gpu);
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->field), QStringLiteral("inference.pp"));
}

void TestInference::dataParallelAttentionKeepsEveryKvHeadOfItsSequences() {
    // Llama 3 70B (80 layers, 8 KV heads of 128, bf16 cache: 327,680 B a token) on 8 H100 at
    // tp 8, batch 8, prompt 1000 + output 1000. Without data-parallel attention each GPU keeps
    // its one KV head of all 8 sequences: 8 x 2000 x 40,960 B = 655,360,000 B. With it, each GPU
    // attends its own 8 / 8 = 1 sequence with all 8 heads: 1 x 2000 x 327,680 B, the same bytes.
    PlanSpec s = plan_spec_from_text(
        R"({"model": {"preset": "llama-3-70b"}, "cluster": {"gpu": "h100-sxm", "gpus": 8},
            "inference": {"tp": 8, "batch": 8, "prompt_tokens": 1000, "output_tokens": 1000}})",
        "");
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check_inference(s, h100));
    const ServingPlan split = evaluate_inference(s, h100);
    QCOMPARE(split.memory.kv_cache_bytes, 655360000.0);
    QCOMPARE(split.kv.bytes_per_token_per_gpu, 40960.0);
    s.inference.dp_attention = true;
    QVERIFY(!check_inference(s, h100));
    const ServingPlan dpa = evaluate_inference(s, h100);
    QCOMPARE(dpa.memory.kv_cache_bytes, 655360000.0);
    // Per token of the batch, as the explanation multiplies it: 1/8 of 327,680 B.
    QCOMPARE(dpa.kv.bytes_per_token_per_gpu, 40960.0);
    QCOMPARE(dpa.kv.kv_heads_per_gpu, 8.0);
    // The attention weights are copied on every GPU, so fewer sequences fit, never more.
    QVERIFY(dpa.max_batch < split.max_batch);
    QVERIFY(dpa.admission_batch < split.admission_batch);
    // A sequence is attended whole on one GPU, and the step waits for the busiest: one
    // sequence's cache is on one GPU, 1 x 2000 x 327,680 B = 655,360,000 / 8 x 8 (not an eighth
    // of it); 10 sequences put 2 on the busiest GPU, 2 x 2000 x 327,680 B = 1,310,720,000 B.
    s.inference.batch = 1;
    QCOMPARE(evaluate_inference(s, h100).memory.kv_cache_bytes, 655360000.0);
    s.inference.batch = 10;
    QCOMPARE(evaluate_inference(s, h100).memory.kv_cache_bytes, 1310720000.0);
    // And its prefill: one prompt's attention on one GPU with all 64 heads does 8 times the
    // FLOPs of each GPU's 8 heads under tensor parallelism, at the same kernel rate: 8 times the
    // time (compute-bound: 1000 tokens' causal attention).
    s.inference.batch = 1;
    const double one_gpu = evaluate_inference(s, h100).prefill.attention_s;
    s.inference.dp_attention = false;
    QVERIFY(qAbs(one_gpu / evaluate_inference(s, h100).prefill.attention_s - 8.0) < 1e-9);
}

void TestInference::aPromptChunkCrossesEveryStage() {
    // Llama 3 70B at tp 4 x pp 2 on 8 H100, one client, prompt 1000 in one chunk: the chunk
    // runs through stage 1 and then stage 2, so its first token comes no sooner than one prefill
    // pass of the prompt (pp stage times of the 1000 tokens, the static batch's prefill_s).
    // Timed as if spread over the pp micro-batches it came out at 37.4 ms against 66.7.
    PlanSpec s = plan_spec_from_text(
        R"({"model": {"preset": "llama-3-70b"}, "cluster": {"gpu": "h100-sxm", "gpus": 8},
            "inference": {"tp": 4, "pp": 2, "batch": 1, "prompt_tokens": 1000,
                          "output_tokens": 1000}})",
        "");
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check_inference(s, h100));
    const ServingPlan plan = evaluate_inference(s, h100);
    const ContinuousBatchingPoint one = continuous_batching_at(s, h100, 1.0);
    QVERIFY2(one.ttft_s >= plan.prefill_s,
             qPrintable(QStringLiteral("%1 < %2").arg(one.ttft_s).arg(plan.prefill_s)));
    // And at pp 1 (tp 8), where the one pass is the whole prefill.
    s.inference.tp = 8;
    s.inference.pp = 1;
    QVERIFY(!check_inference(s, h100));
    QVERIFY(continuous_batching_at(s, h100, 1.0).ttft_s >= evaluate_inference(s, h100).prefill_s);
    // A prompt of 131,072 tokens in chunks of 8,191 (the budget of 8,192 less the one decode):
    // 16 full chunks and one of 16 tokens, the k-th scoring the (k - 1) x 8,191 cached keys too,
    // so together they do the whole prompt's causal attention, 131072^2 / 2 key pairs a head
    // and layer. Timed as if each were the prompt's first they did 17 x 8191^2 / 2, about a
    // sixteenth of it, and the first token came in 5.8 s against the one pass's 9.6 s.
    s.inference.prompt_tokens = 131072;
    s.inference.max_batched_tokens = 8192;
    QVERIFY(!check_inference(s, h100));
    const double whole = evaluate_inference(s, h100).prefill_s;
    const double chunked = continuous_batching_at(s, h100, 1.0).ttft_s;
    QVERIFY2(chunked >= whole, qPrintable(QStringLiteral("%1 < %2").arg(chunked).arg(whole)));
}

void TestInference::servingSpecNeedsNoData() {
    // No data and no training block: `tally infer` reads neither.
    const PlanSpec s = plan_spec_from_text(
        R"({"model": {"preset": "llama-2-7b"}, "cluster": {"gpu": "h100-sxm"},
            "inference": {"engine": "tensorrt_llm", "concurrency": 8}})",
        "");
    QCOMPARE(s.data.tokens, 0.0);
    QCOMPARE(s.inference.engine, ServingEngine::tensorrt_llm);
    QCOMPARE(s.inference.concurrency, std::int64_t{8});
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check_inference(s, h100));
    // Written back without a data block, and read again the same.
    const nlohmann::json j = to_json(s);
    QVERIFY(!j.contains("data"));
    QCOMPARE(plan_spec_from_json(j, ""), s);
    // `tally plan` still needs the tokens, and names them.
    const auto e = check(s, h100);
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->field), QStringLiteral("data.tokens"));
}

// A part without bf16 (the V100: fp64, fp32 and fp16 peaks) serves fp16 weights and an fp16 KV
// cache; the training precision a serving spec does not give (bf16 by default) is not checked.
void TestInference::servingOnAPartWithoutBf16() {
    const PlanSpec s = plan_spec_from_text(
        R"({"model": {"preset": "llama-2-7b"}, "cluster": {"gpu": "v100-sxm2-32gb"},
            "inference": {"weight_dtype": "fp16", "kv_dtype": "fp16"}})",
        "");
    const HardwareProfile& v100 = *find_builtin_hardware("v100-sxm2-32gb");
    QVERIFY(!v100.supports(compute_type(DType::bf16)));
    QVERIFY(!check_inference(s, v100));
}

// decode_attention per_query_head: the decode kernel streams each query head's KV head by itself,
// so a step moves the cache (a / tp) / (KV heads per GPU) times. The toy model with 8 query heads
// made grouped by 2 KV heads of 128 (GQA, group 4), bf16 cache, batch 64, prompt 100, output
// 28, on the toy GPU (1 TB/s, 1 PFLOP/s, all fractions 1):
//   KV bytes per token and layer  2 x 2 x 128 x 2 B = 1,024; x 2 layers = 2,048 B a token
//   decode at the final context   64 x 128 tokens x 2,048 B = 16,777,216 B read once per KV head
//   per query head, tp 1          8 / 2 = 4 reads: 67,108,864 B
//   tp 2: 4 query heads and 1 KV head a GPU, 1,024 B a token per GPU: 64 x 128 x 1,024 =
//   8,388,608 B, read 4 times: 33,554,432 B
//   tp 4: 2 query heads and 1 KV head (replicated) a GPU: 8,388,608 B read twice: 16,777,216 B
// A model whose query heads each have their own KV head (MHA) reads the same either way.
void TestInference::perQueryHeadDecodeReadsTheCacheOncePerHead() {
    const HardwareProfile hw = toyGpu();
    PlanSpec s = toySpec();
    s.model.kv_heads = 2;
    s.model.head_dim = 128;
    s.cluster.gpus = 4;
    s.inference.batch = 64;
    s.inference.prompt_tokens = 100;
    s.inference.output_tokens = 28;
    const auto kv_at = [&](std::int64_t tp, DecodeAttention kernel) {
        PlanSpec t = s;
        t.inference.tp = tp;
        t.inference.decode_attention = kernel;
        const auto error = check_inference(t, hw);
        if (error) {
            qWarning("%s", error->field.c_str());
        }
        return evaluate_inference(t, hw).decode.kv_bytes;
    };
    QCOMPARE(kv_at(1, DecodeAttention::grouped), 16777216.0);
    QCOMPARE(kv_at(1, DecodeAttention::per_query_head), 67108864.0);
    QCOMPARE(kv_at(2, DecodeAttention::per_query_head), 33554432.0);
    QCOMPARE(kv_at(4, DecodeAttention::per_query_head), 16777216.0);
    // The step is longer by the extra reads: decode attention at the final context is
    // memory-bound on the cache here (16.8 us against 2 layers' floors of at most 7.6 us), and
    // (67,108,864 - 16,777,216) B / 1 TB/s = 50.33 us more.
    PlanSpec per_head = s;
    per_head.inference.decode_attention = DecodeAttention::per_query_head;
    const ServingPlan a = evaluate_inference(s, hw);
    const ServingPlan b = evaluate_inference(per_head, hw);
    QVERIFY(b.decode.attention_s > a.decode.attention_s);
    QVERIFY(std::abs(b.decode.attention_s - a.decode.attention_s - 50.331648e-6) < 1e-12);
    // MHA: 8 KV heads for 8 query heads, one read either way.
    s.model.kv_heads = 8;
    QCOMPARE(kv_at(1, DecodeAttention::per_query_head), kv_at(1, DecodeAttention::grouped));
    // The JSON key reads and writes back.
    const PlanSpec r = plan_spec_from_json(nlohmann::json::parse(
        R"({"model": {"preset": "llama-2-7b"}, "inference": {"decode_attention": "per_query_head"}})"));
    QCOMPARE(r.inference.decode_attention, DecodeAttention::per_query_head);
    QCOMPARE(to_json(r)["inference"]["decode_attention"].get<std::string>(),
             std::string("per_query_head"));
}

void TestInference::prefillAttentionAtItsKernelsPublishedRate() {
    // The toy model (2 layers, 8 heads of 128) prefills a 2048-token prompt: causal attention
    // L a (d_qk + d_v) P (P + 1) = 2 x 8 x 256 x 2048 x 2049 = 17,188,257,792 FLOPs.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 2048;
    s.inference.output_tokens = 1;
    const double flops = 17188257792.0;
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    // vLLM on Hopper runs FlashAttention-3 (fa_utils.py): its causal forward at 2k, head dim 128,
    // 521 TFLOP/s (Shah et al. 2024, Fig. 5e): 32.99 us, above the floors (2 x 3.4 us) and the
    // cache written (2048 x 2 x 2 x 1024 x 2 B = 16.8 MB at about 3.1 TB/s, 5.4 us).
    s.inference.engine = ServingEngine::vllm;
    ServingPlan p = evaluate_inference(s, h100);
    QCOMPARE(p.prefill_attention_kernel, AttentionKernel::flash3);
    QVERIFY(qAbs(p.prefill_attention_flops_per_s - 521e12) < 1e3);
    QCOMPARE(p.prefill.attention_flops, flops);
    QVERIFY(qAbs(p.prefill.attention_compute_s - flops / 521e12) < 1e-15);
    QVERIFY(qAbs(p.prefill.attention_s - flops / 521e12) < 1e-15);
    // TensorRT-LLM's context FMHA, the FlashAttention-2 algorithm: 298 TFLOP/s (Fig. 5e), 57.68 us.
    s.inference.engine = ServingEngine::tensorrt_llm;
    p = evaluate_inference(s, h100);
    QCOMPARE(p.prefill_attention_kernel, AttentionKernel::flash2);
    QVERIFY(qAbs(p.prefill.attention_compute_s - flops / 298e12) < 1e-15);
    // vLLM on an A100 runs FlashAttention-2: 298 / 370 x 0.73 of the A100's 312 TFLOP/s =
    // 183.43 TFLOP/s (Dao 2023's 73% for the best forward; engine.h).
    s.inference.engine = ServingEngine::vllm;
    p = evaluate_inference(s, *find_builtin_hardware("a100-80gb"));
    QCOMPARE(p.prefill_attention_kernel, AttentionKernel::flash2);
    const double a100_rate = 298.0 / 370.0 * 0.73 * 312e12;
    QVERIFY(qAbs(p.prefill_attention_flops_per_s / a100_rate - 1.0) < 1e-12);
    QVERIFY(qAbs(p.prefill.attention_compute_s / (flops / a100_rate) - 1.0) < 1e-12);
    // A decode step's attention stays at the GEMM rate (its FLOPs are a vector's, read-bound).
    QCOMPARE(p.decode.attention_compute_s, p.decode.attention_flops / p.attention_peak_flops_per_s);
}

void TestInference::hostTimeIsPaidOncePerStep() {
    // The toy model's one-token step is 114.194688 us (decodeStepOfWeightsThatFillTheBandwidth),
    // its small kernels 51 us. A stated host pause of 2.5 ms a step (inference.host_step_s) is
    // paid once by every engine execution, the prefill pass included:
    //   small kernels 51 + 2500 = 2551 us; step 114.194688 + 2500 = 2614.194688 us.
    PlanSpec s = toySpec();
    s.inference.prompt_tokens = 1;
    s.inference.output_tokens = 1;
    s.inference.host_step_s = 2.5e-3;
    const HardwareProfile gpu = toyGpu();
    QVERIFY(!check_inference(s, gpu));
    const ServingPlan p = evaluate_inference(s, gpu);
    QCOMPARE(p.host_step_s, 2.5e-3);
    QVERIFY(qAbs(p.decode.fixed_s - 2551e-6) < 1e-15);
    QVERIFY(qAbs(p.decode_step_s - 2614.194688e-6) < 1e-15);
    QVERIFY(qAbs(p.prefill_s - 2614.194688e-6) < 1e-15);
    // Unset, the engine's own: 0 for vLLM, the step of 114.194688 us again.
    s.inference.host_step_s.reset();
    QCOMPARE(evaluate_inference(s, gpu).host_step_s, 0.0);
    QVERIFY(qAbs(evaluate_inference(s, gpu).decode_step_s - 114.194688e-6) < 1e-15);

    // Over pp 2 each stage carries half of it and a step counts both stages: once a step.
    // pipelineStagesAddTheirSends: 120.815168 us; with the pause 2620.815168 us.
    s.cluster.gpus = 2;
    s.inference.pp = 2;
    s.inference.batch = 2;
    s.inference.host_step_s = 2.5e-3;
    QVERIFY(!check_inference(s, gpu));
    QVERIFY(qAbs(evaluate_inference(s, gpu).decode_step_s - 2620.815168e-6) < 1e-15);

    // It round-trips through the spec and is written only when stated.
    const nlohmann::json j = to_json(s);
    QCOMPARE(j["inference"]["host_step_s"].get<double>(), 2.5e-3);
    QVERIFY(plan_spec_from_json(j, ".") == s);
    // A negative pause names the field when read and when checked; so does one over a minute.
    nlohmann::json bad = j;
    bad["inference"]["host_step_s"] = -1.0;
    try {
        (void)plan_spec_from_json(bad, ".");
        QFAIL("accepted a negative host time");
    } catch (const SpecError& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("inference.host_step_s")));
    }
    s.inference.host_step_s = 61.0;
    const auto e = check_inference(s, gpu);
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->field), QStringLiteral("inference.host_step_s"));
    QCOMPARE(QString::fromStdString(e->value), QStringLiteral("61"));
}

void TestInference::slidingWindowKeepsAndReadsTheWindow() {
    // The toy model (2 layers, 8 MHA heads of 128, bf16 cache: 2 layers x 2 x 1024 x 2 B =
    // 8,192 B a token) with one of its two layers windowed at W = 256.
    PlanSpec s = toySpec();
    s.model.sliding_window = 256;
    s.model.sliding_window_layers = 1;
    s.inference.prompt_tokens = 512;
    s.inference.output_tokens = 512;
    const HardwareProfile gpu = toyGpu();
    QVERIFY(!check_inference(s, gpu));
    // The cache at the final context of 1024: the full layer keeps 1024 positions, the windowed
    // one 256, (1024 + 256) / 2 = 640 a layer on average: 640 x 8,192 B = 5,242,880 B a
    // sequence; without the window 1024 x 8,192 = 8,388,608 B.
    QCOMPARE(serving_memory(s, gpu, 1).kv_cache_bytes, 5242880.0);
    // The last decode step reads the same 640 positions a layer.
    const ServingPlan p = evaluate_inference(s, gpu);
    QCOMPARE(p.decode.kv_bytes, 5242880.0);
    // Prefill of the 512-token prompt: the full layer's queries score 1 + 2 + ... + 512 =
    // 131,328 keys, the windowed layer's min(i, 256): 256 x 257 / 2 + 256 x 256 = 98,432; on
    // average 114,880 a layer, at 2 (d_qk + d_v) = 512 FLOPs a head: 2 layers x 8 heads x 512 x
    // 114,880 = 941,096,960 FLOPs.
    QCOMPARE(p.prefill.attention_flops, 941096960.0);
    // Computed figures are said to four digits: 3 layers, one windowed at 257 over the context
    // of 1024, keep (2 x 1024 + 257) / 3 = 768.33... positions a layer on average.
    {
        PlanSpec three = s;
        three.model.layers = 3;
        three.model.sliding_window = 257;
        QVERIFY(!check_inference(three, gpu));
        bool said = false;
        for (const Explanation& e : explain_inference(three, gpu, evaluate_inference(three, gpu))) {
            if (e.key == "serving.memory.kv_cache_bytes") {
                said = true;
                QCOMPARE(e.source_texts.size(), std::size_t{1});
                QVERIFY2(e.source_texts[0].english().ends_with(": 768.3 positions a sequence on "
                                                               "average"),
                         e.source_texts[0].english().c_str());
            }
        }
        QVERIFY(said);
    }
    s.model.sliding_window = 0;
    s.model.sliding_window_layers = 0;
    QCOMPARE(serving_memory(s, gpu, 1).kv_cache_bytes, 8388608.0);
    QCOMPARE(evaluate_inference(s, gpu).prefill.attention_flops,
             2.0 * 2.0 * 8.0 * 256.0 * 131328.0);
}

void TestInference::mistralRollingCacheIsAnEighthAt32k() {
    // Jiang et al. 2023 (Mistral 7B), sec. 2, Rolling Buffer Cache: "on a sequence length of 32k
    // tokens, this reduces the cache memory usage by 8x". The shipped example serves 8 sequences
    // of 32000 + 768 = 32768 tokens: every layer keeps W = 4096 positions, 32768 / 4096 = 8.
    // Per sequence: 4096 x 131,072 B (32 layers x 2 x 8 KV heads x 128 x 2 B) = 536,870,912 B.
    const ExamplePlan* example = nullptr;
    for (const ExamplePlan& e : builtin_examples()) {
        if (e.file == "examples/mistral-7b-serve-32k-h100.json") {
            example = &e;
        }
    }
    QVERIFY(example);
    PlanSpec s = example->spec;
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(!check_inference(s, h100));
    const double rolling = serving_memory(s, h100, 8).kv_cache_bytes;
    QCOMPARE(rolling, 8.0 * 536870912.0);
    s.model.sliding_window = 0;
    QCOMPARE(serving_memory(s, h100, 8).kv_cache_bytes / rolling, 8.0);
}

QTEST_APPLESS_MAIN(TestInference)

#include "tst_inference.moc"
