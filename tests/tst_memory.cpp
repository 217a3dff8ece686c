// Memory per GPU: model state under ZeRO / TP / PP and activations in Korthikanti et al.'s
// forms. Expected values are worked out by hand in the comments.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "planner/hardware/hardware.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/training/plan.h"

using namespace tally;

namespace {

const HardwareProfile& h100() {
    return *find_builtin_hardware("h100-sxm");
}

PlanSpec params_spec(double n, std::int64_t gpus) {
    PlanSpec s;
    s.model.kind = ModelKind::params;
    s.model.params = n;
    s.data.tokens = 1e12;
    s.cluster.gpus = gpus;
    return s;
}

// A GPT-style layer as Korthikanti et al. 2022 analyse it: LayerNorm, GELU MLP of 4h, multi-head
// attention, dropout on, no flash attention, 16-bit activations.
PlanSpec korthikanti_spec() {
    PlanSpec s;
    s.model.kind = ModelKind::transformer;
    s.model.layers = 4;
    s.model.hidden = 1024;
    s.model.heads = 16;
    s.model.ffn_hidden = 4096;
    s.model.ffn = FfnKind::gelu;
    s.model.norm = NormKind::layernorm;
    s.model.vocab = 1000;
    s.data.tokens = 1e9;
    s.data.seq_len = 2048;
    s.data.micro_batch = 1;
    s.cluster.gpus = 4;
    s.training.dropout = true;
    s.training.flash_attention = false;
    return s;
}

Plan eval(const PlanSpec& s) {
    if (auto e = check(s, h100())) {
        qFatal("spec rejected: %s", e->message().c_str());
    }
    return evaluate(s, h100());
}

// s·b·h for korthikanti_spec(): 2048 · 1 · 1024.
constexpr double kSbh = 2097152.0;

// A Llama-style layer, `layers` of them: h 1024, 16 heads of 64, 4 KV heads, SwiGLU 2816,
// vocabulary 1000, flash attention, no dropout, bf16, micro-batches of 2 sequences of 2048
// (gqaSwigluFlashLayer works out one layer's bytes by hand).
PlanSpec llama_style_spec(std::int64_t layers) {
    PlanSpec s;
    s.model.layers = layers;
    s.model.hidden = 1024;
    s.model.heads = 16;
    s.model.kv_heads = 4;
    s.model.ffn_hidden = 2816;
    s.model.ffn = FfnKind::swiglu;
    s.model.vocab = 1000;
    s.data.tokens = 1e9;
    s.data.seq_len = 2048;
    s.data.micro_batch = 2;
    s.training.flash_attention = true;
    s.training.dropout = false;
    return s;
}

// Two MoE layers, h 1024, 8 heads, SwiGLU experts of 1024, 64 experts (2 active), vocabulary 1000,
// untied, no biases, RMSNorm; `extra` adds training settings. Per layer, unsplit:
//   attention 4 h^2 = 4,194,304; norms 2 h = 2,048; router h x 64 = 65,536;
//   one expert 3 x 1024 x 1024 = 3,145,728, so 64 experts 201,326,592.
// Embedding and head 1000 x 1024 = 1,024,000 each; final norm 1,024.
PlanSpec two_moe_layers(std::int64_t gpus, const char* training) {
    return plan_spec_from_text(QStringLiteral(R"({"model": {"layers": 2, "hidden": 1024,
        "heads": 8, "ffn_hidden": 4096, "ffn": "swiglu", "vocab": 1000,
        "moe": {"experts": 64, "active_experts": 2, "expert_ffn_hidden": 1024}},
        "data": {"tokens": 1e9, "seq_len": 2048, "global_batch": 64, "micro_batch": 1},
        "cluster": {"gpu": "h100-sxm", "gpus": %1},
        "training": %2})")
                                   .arg(gpus)
                                   .arg(QString::fromUtf8(training))
                                   .toStdString());
}

}  // namespace

class TestMemory : public QObject {
    Q_OBJECT

private slots:
    void expertStateShardsOverExpertDataParallel();
    void expertTensorParallelSplitsOnlyTheExperts();
    void recomputeModulesDropTheirTensors();
    void recomputeModulesNeedSelectiveAndTheirLayers();
    void zeroStages_data();
    void zeroStages();
    void zeroShardsOverDataParallelNotAllGpus();
    void zeroPaperTable1_data();
    void zeroPaperTable1();
    void activationForms_data();
    void activationForms();
    void gqaSwigluFlashLayer();
    void mtpModuleOnTheLastStage();
    void lectureMlpActivations();
    void inPlaceCrossEntropyKeepsSixteenBitLogits();
    void fp8KeepsLinearInputsInOneByte();
    void offloadedLayersLeaveTheGpu();
    void someLayersRecomputed();
    void sqrtCheckpointing();
    void pipelineFirstStageHoldsAllLayersWorth();
    void middleStageOfMoeLayersIsTheMostLoaded();
    void microBatchNotGlobalBatchSetsActivations();
    void memoryFallsAsParallelismRises_data();
    void memoryFallsAsParallelismRises();
    void recomputeTradesMemoryForFlops();
    void fitsAgainstCapacity();
    void tensorMemory_data();
    void tensorMemory();
};

void TestMemory::zeroStages_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("params");
    QTest::addColumn<double>("grads");
    QTest::addColumn<double>("master");
    QTest::addColumn<double>("optimizer");
    // 1e9 parameters on 8 GPUs (dp 8), bf16 params and grads, fp32 master, AdamW fp32 states:
    // 2 + 2 + 4 + 8 = 16 bytes per parameter unsharded (Rajbhandari et al. 2020, K = 12 + 4).
    QTest::newRow("zero-0") << 0 << 2e9 << 2e9 << 4e9 << 8e9;
    // Stage 1 shards master and optimizer state over dp = 8: 4e9/8, 8e9/8.
    QTest::newRow("zero-1") << 1 << 2e9 << 2e9 << 0.5e9 << 1e9;
    // Stage 2 also gradients: 2e9/8.
    QTest::newRow("zero-2") << 2 << 2e9 << 0.25e9 << 0.5e9 << 1e9;
    // Stage 3 also parameters: 2e9/8.
    QTest::newRow("zero-3") << 3 << 0.25e9 << 0.25e9 << 0.5e9 << 1e9;
}

void TestMemory::zeroStages() {
    QFETCH(int, zero);
    QFETCH(double, params);
    QFETCH(double, grads);
    QFETCH(double, master);
    QFETCH(double, optimizer);
    PlanSpec s = params_spec(1e9, 8);
    s.training.zero = zero;
    const Plan p = eval(s);
    QCOMPARE(p.memory.params_bytes, params);
    QCOMPARE(p.memory.grads_bytes, grads);
    QCOMPARE(p.memory.master_bytes, master);
    QCOMPARE(p.memory.optimizer_bytes, optimizer);
    QCOMPARE(p.memory.model_state_bytes(), params + grads + master + optimizer);
    QCOMPARE(p.memory.total_bytes, params + grads + master + optimizer);
}

void TestMemory::zeroShardsOverDataParallelNotAllGpus() {
    // 1e9 parameters, 8 GPUs as tp 2 x dp 4, ZeRO-1. Each GPU holds 1e9/2 = 5e8 parameters:
    // params 5e8·2 = 1e9, grads 1e9, master 5e8·4/4 = 5e8, optimizer 5e8·8/4 = 1e9: 3.5e9.
    // (Sharding over all 8 GPUs instead would give 1e9 + 1e9 + 2.5e8 + 5e8 = 2.75e9: wrong.)
    PlanSpec s = params_spec(1e9, 8);
    s.training.zero = 1;
    s.training.tp = 2;
    const Plan p = eval(s);
    QCOMPARE(p.parallel.dp, std::int64_t{4});
    QCOMPARE(p.memory.total_bytes, 3.5e9);
}

void TestMemory::zeroPaperTable1_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("gigabytes");
    // Rajbhandari et al. 2020 (ZeRO), Table 1 / Figure 1: Psi = 7.5B parameters, K = 12 (fp32
    // master + Adam's two fp32 states), N_d = 64 data-parallel GPUs, fp16 params and grads:
    // baseline (2 + 2 + K)·Psi = 120 GB; P_os: 4·Psi + K·Psi/64 = 31.4 GB;
    // P_os+g: 2·Psi + (2 + K)·Psi/64 = 16.6 GB; P_os+g+p: (2 + 2 + K)·Psi/64 = 1.9 GB.
    QTest::newRow("baseline") << 0 << 120.0;
    QTest::newRow("P_os") << 1 << 31.4;
    QTest::newRow("P_os+g") << 2 << 16.6;
    QTest::newRow("P_os+g+p") << 3 << 1.9;
}

void TestMemory::zeroPaperTable1() {
    QFETCH(int, zero);
    QFETCH(double, gigabytes);
    PlanSpec s = params_spec(7.5e9, 64);
    s.training.param_dtype = DType::fp16;
    s.training.grad_dtype = DType::fp16;
    s.training.compute_dtype = DType::fp16;
    s.training.zero = zero;
    const double got = eval(s).memory.total_bytes / 1e9;
    // The paper prints one decimal (1.875 -> 1.9).
    QVERIFY2(std::abs(got - gigabytes) < 0.05, qPrintable(QString::number(got)));
}

void TestMemory::activationForms_data() {
    QTest::addColumn<int>("tp");
    QTest::addColumn<bool>("sp");
    QTest::addColumn<int>("recompute");
    QTest::addColumn<double>("perLayer");
    // h = 1024, a = 16, s = 2048: 5·a·s/h = 5·16·2048/1024 = 160.
    // Korthikanti eq. 1: sbh(34 + 5as/h) = 194 sbh.
    QTest::newRow("plain eq1") << 1 << false << int(Recompute::none) << 194.0 * kSbh;
    // eq. 3, tensor parallel t = 4: sbh(10 + 24/t + 5as/(ht)) = sbh(10 + 6 + 40) = 56 sbh.
    QTest::newRow("tensor parallel eq3") << 4 << false << int(Recompute::none) << 56.0 * kSbh;
    // eq. 4, with sequence parallel: sbh/t (34 + 5as/h) = 194/4 sbh = 48.5 sbh.
    QTest::newRow("sequence parallel eq4") << 4 << true << int(Recompute::none) << 48.5 * kSbh;
    // eq. 6, selective recomputation with sequence parallel: 34 sbh / t = 8.5 sbh.
    QTest::newRow("selective eq6") << 4 << true << int(Recompute::selective) << 8.5 * kSbh;
    // Selective without sequence parallel: sbh(10 + 24/t) = 16 sbh.
    QTest::newRow("selective tp only") << 4 << false << int(Recompute::selective) << 16.0 * kSbh;
    // Full recomputation (Table 2): the layer input, 2 sbh; /t with sequence parallel.
    QTest::newRow("full") << 1 << false << int(Recompute::full) << 2.0 * kSbh;
    QTest::newRow("full with sp") << 4 << true << int(Recompute::full) << 0.5 * kSbh;
}

void TestMemory::activationForms() {
    QFETCH(int, tp);
    QFETCH(bool, sp);
    QFETCH(int, recompute);
    QFETCH(double, perLayer);
    PlanSpec s = korthikanti_spec();
    s.training.tp = tp;
    s.training.sequence_parallel = sp;
    s.training.recompute = static_cast<Recompute>(recompute);
    const Plan p = eval(s);
    QCOMPARE(p.memory.activations.per_layer_bytes, perLayer);
    // 4 layers, 1 micro-batch in flight, plus Korthikanti sec. 4.4's input and output terms
    // (pp = 1): the embedding's dropout mask sbh, the final-norm input and output-projection input
    // 2·2·sbh (those divided by t with sp) and the fp32 logits 4·s·b·v / t = 4·2048·1000/t.
    const double rep = sp ? tp : 1;
    const double output = kSbh / rep + 4.0 * kSbh / rep + 4.0 * 2048.0 * 1000.0 / tp;
    QCOMPARE(p.memory.activations_bytes, 4.0 * perLayer + output);
}

void TestMemory::gqaSwigluFlashLayer() {
    // A Llama-style layer: h 1024, 16 heads of 64, 4 KV heads (K, V 256 wide), SwiGLU 2816,
    // RMSNorm, no dropout, flash attention, bf16, s 2048, b 2 (sb = 4096, sbh = 4,194,304).
    // outside TP: two norm inputs + QKV input + MLP input = 4 · 2 · sbh = 8 sbh = 33,554,432
    // attention: 2 · sb · (Q 1024 + K 256 + V 256 + O-input 1024) = 2 · 4096 · 2560 = 20,971,520
    // SwiGLU: gate, up and product 3 · 2 · sb · 2816 = 69,206,016
    // flash statistics: fp32 log-sum-exp per row and head 4 · 16 · 2048 · 2 = 262,144
    // sum 123,994,112.
    PlanSpec s = llama_style_spec(2);
    QCOMPARE(eval(s).memory.activations.per_layer_bytes, 123994112.0);
}

void TestMemory::mtpModuleOnTheLastStage() {
    // One multi-token-prediction module (DeepSeek-V3 Technical Report, sec. 2.2) on the
    // Llama-style model of gqaSwigluFlashLayer. Its weights: attention Q, O 1024·1024 each and
    // K, V 1024·256 each = 2,621,440; SwiGLU 3·1024·2816 = 8,650,752; five norms 5·1024 = 5,120;
    // the projection 2·1024·1024 = 2,097,152: 13,374,464.
    PlanSpec s = llama_style_spec(2);
    const Plan plain = eval(s);
    s.model.mtp_layers = 1;
    const Plan mtp = eval(s);
    QCOMPARE(mtp.memory.params_on_gpu - plain.memory.params_on_gpu, 13374464.0);
    // Activations, one stage: one more layer's, 123,994,112 (gqaSwigluFlashLayer), the inputs
    // of its two norms and of the projection, 4 · 2 · sbh = 33,554,432, the final norm's and the
    // head's inputs 2 · 2 · sbh = 16,777,216, and its fp32 logits 4 · 2048 · 2 · 1000 =
    // 16,384,000: 190,709,760 (sbh = 2048 · 2 · 1024 = 4,194,304).
    QCOMPARE(mtp.memory.activations_bytes - plain.memory.activations_bytes, 190709760.0);
    // Two stages: the module sits on the last (Megatron-Core builds it there only), which also
    // keeps a copy of the word embeddings for the module's input (gpt_model.py builds the
    // embedding wherever mtp_process is set): 13,374,464 + 1000 · 1024 = 14,398,464 more
    // parameters on the most loaded GPU, the last stage with or without the module.
    s.cluster.gpus = 2;
    s.training.pp = 2;
    s.model.mtp_layers = 0;
    const Plan plain2 = eval(s);
    s.model.mtp_layers = 1;
    const Plan mtp2 = eval(s);
    QCOMPARE(mtp2.memory.params_on_gpu - plain2.memory.params_on_gpu, 14398464.0);
}

void TestMemory::inPlaceCrossEntropyKeepsSixteenBitLogits() {
    // The Llama-style model of gqaSwigluFlashLayer (s 2048, b 2, vocabulary 1000, bf16). Its
    // cross-entropy keeps an fp32 softmax per logit by default, 4 · 2048 · 2 · 1000 = 16,384,000
    // bytes; computed in place (Transformer Engine's parallel_cross_entropy up to 2.17), the
    // gradient over the bf16 logits, 2 · 2048 · 2 · 1000 = 8,192,000: 8,192,000 fewer.
    PlanSpec s = llama_style_spec(2);
    const Plan fp32 = eval(s);
    s.training.cross_entropy = CrossEntropy::in_place;
    const Plan in_place = eval(s);
    QCOMPARE(fp32.memory.activations_bytes - in_place.memory.activations_bytes, 8192000.0);
    // A multi-token-prediction module's own loss keeps its logits the same way: one module saves
    // 8,192,000 more.
    s.model.mtp_layers = 1;
    const Plan mtp_in_place = eval(s);
    s.training.cross_entropy = CrossEntropy::fp32;
    const Plan mtp_fp32 = eval(s);
    QCOMPARE(mtp_fp32.memory.activations_bytes - mtp_in_place.memory.activations_bytes,
             2.0 * 8192000.0);
    // With tp 2 the vocabulary is split: half of it on each GPU, 4,096,000 fewer.
    s.cluster.gpus = 2;
    s.training.tp = 2;
    s.model.mtp_layers = 0;
    const Plan tp_fp32 = eval(s);
    s.training.cross_entropy = CrossEntropy::in_place;
    QCOMPARE(tp_fp32.memory.activations_bytes - eval(s).memory.activations_bytes, 4096000.0);
}

void TestMemory::fp8KeepsLinearInputsInOneByte() {
    // The same Llama-style layer as gqaSwigluFlashLayer (sbh = 4,194,304, sb = 4096) with its
    // linear layers in FP8 (Transformer Engine): the QKV and MLP inputs are kept as their FP8
    // copies (1 byte instead of 2: 8 sbh - 2 sbh = 6 sbh = 25,165,824), the output projection
    // keeps an FP8 copy of its input beside the 16-bit attention output (+ sb · 1024 =
    // 4,194,304: 20,971,520 + 4,194,304 = 25,165,824), and the second MLP projection's input is
    // 1 byte (SwiGLU: gate and up 2 · 2 · sb · 2816 + 1 · sb · 2816 = 5 · 4096 · 2816 =
    // 57,671,680); flash statistics 262,144. Sum 25,165,824 + 25,165,824 + 57,671,680 + 262,144
    // = 108,265,472.
    PlanSpec s = llama_style_spec(2);
    s.training.compute_dtype = DType::fp8_e4m3;
    QCOMPARE(eval(s).memory.activations.per_layer_bytes, 108265472.0);
}

void TestMemory::offloadedLayersLeaveTheGpu() {
    // Four of those bf16 layers (123,994,112 bytes each, gqaSwigluFlashLayer), one stage, one
    // micro-batch in flight: offloading the first three leaves one layer's activations on the
    // GPU; 3 x 123,994,112 = 371,982,336 bytes live on the host instead.
    PlanSpec s = llama_style_spec(4);
    const double kept = eval(s).memory.activations.stored_bytes;
    s.training.activation_offload_layers = 3;
    const Plan offloaded = eval(s);
    QCOMPARE(offloaded.memory.activations.offloaded_bytes, 371982336.0);
    QCOMPARE(kept - offloaded.memory.activations.stored_bytes, 371982336.0);
    // Megatron-Core refuses it with pipeline parallelism, with recomputation, and for every
    // layer (megatron/core/transformer/transformer_config.py).
    for (auto change : {+[](PlanSpec& x) { x.training.pp = 2; },
                        +[](PlanSpec& x) { x.training.recompute = Recompute::full; },
                        +[](PlanSpec& x) { x.training.activation_offload_layers = 4; }}) {
        PlanSpec bad = s;
        bad.cluster.gpus = 2;
        change(bad);
        const auto error = check(bad, h100());
        QVERIFY(error.has_value());
        QCOMPARE(error->field, std::string("training.activation_offload_layers"));
    }
}

void TestMemory::someLayersRecomputed() {
    // Four bf16 layers of 123,994,112 bytes (gqaSwigluFlashLayer), full recomputation keeping
    // each layer's input (s·b·h · 2 = 8,388,608 bytes). Recomputing one layer of the one stage
    // (Megatron's block method) leaves the other three with all their activations: 3 x
    // (123,994,112 - 8,388,608) = 346,816,512 bytes more than recomputing all four, and a
    // quarter of the recomputed FLOPs.
    PlanSpec s = llama_style_spec(4);
    s.training.recompute = Recompute::full;
    const Plan all = eval(s);
    s.training.recompute_layers = 1;
    const Plan one = eval(s);
    QCOMPARE(one.memory.activations.stored_bytes - all.memory.activations.stored_bytes,
             346816512.0);
    QCOMPARE(one.flops.recompute_per_token, all.flops.recompute_per_token / 4.0);
}

void TestMemory::lectureMlpActivations() {
    // CS336 lecture 2: activations of the deep ReLU net = 2 (bf16) · B · D · L bytes.
    // B = 256, D = 1024, L = 8: 2 · 256 · 1024 · 8 = 4,194,304.
    PlanSpec s;
    s.model.kind = ModelKind::mlp;
    s.model.hidden = 1024;
    s.model.layers = 8;
    s.data.tokens = 1e6;
    s.data.micro_batch = 256;
    QCOMPARE(eval(s).memory.activations_bytes, 4194304.0);
    QVERIFY(!eval(s).has(Warning::recompute_saves_nothing));
    // Full recomputation (a checkpoint per block of a linear layer and a ReLU) keeps each
    // block's input, which is already the one tensor kept: the same 4,194,304 bytes, the
    // forward's 2 x 256 x 1024^2 x 8 FLOPs a step repeated, and a warning that says so.
    s.training.recompute = Recompute::full;
    const Plan full = eval(s);
    QCOMPARE(full.memory.activations_bytes, 4194304.0);
    QVERIFY(full.has(Warning::recompute_saves_nothing));
    // sqrt keeps every k-th input, k = ceil(sqrt(8)) = 3: ceil(8 / 3) = 3 checkpoints of
    // 2 x 256 x 1024 = 524,288 bytes each, 1,572,864 bytes; no warning.
    s.training.recompute = Recompute::sqrt;
    QCOMPARE(eval(s).memory.activations.stored_bytes, 1572864.0);
    QVERIFY(!eval(s).has(Warning::recompute_saves_nothing));
}

void TestMemory::sqrtCheckpointing() {
    // sqrt mode on 16 layers (Chen et al. 2016): k = ceil(sqrt(16)) = 4; 16/4 = 4 checkpoints of
    // the layer input (2 sbh each) + one live segment of 4 full layers (194 sbh each):
    // 4·2 + 4·194 = 784 sbh, plus the embedding dropout mask sbh and the output layer 4 sbh +
    // 4·2048·1000 logits bytes.
    PlanSpec s = korthikanti_spec();
    s.model.layers = 16;
    s.training.recompute = Recompute::sqrt;
    const Plan p = eval(s);
    QCOMPARE(p.memory.activations.checkpoint_interval, std::int64_t{4});
    QCOMPARE(p.memory.activations_bytes, 784.0 * kSbh + 5.0 * kSbh + 4.0 * 2048.0 * 1000.0);
}

// Eight layers, the first three dense (DeepSeek-V3's pattern), on four even stages of two:
// stage 0 layers 0-1 (dense, and the embedding), stage 1 layers 2-3 (one dense, one MoE),
// stage 2 layers 4-5 (MoE), stage 3 layers 6-7 (MoE, and the output layer). Parameters, h 1024,
// no biases, RMSNorm, untied, vocabulary 1000:
//   attention 4 h^2 = 4,194,304; norms 2 h = 2,048;
//   dense SwiGLU MLP 3 x 1024 x 4096 = 12,582,912: a dense layer 16,779,264;
//   MoE: router h x 64 = 65,536 + 64 experts x 3 x 1024 x 1024 = 201,326,592: a MoE layer
//   205,588,480;
//   stage 1: 16,779,264 + 205,588,480 = 222,367,744; stage 2: 411,176,960; stage 3: 411,176,960
//   + final norm 1,024 + head 1,024,000 = 412,201,984.
// Stage 3 holds 16 B x 1,025,024 = 16.4 MB more model state than stage 2, but one micro-batch in
// flight where stage 2 holds two (1F1B's stage i keeps p - i; Narayanan et al. 2021, sec.
// 2.2.1), and one micro-batch of two MoE layers at 2048 tokens is far more than that; stage 1
// keeps three but 3.0 GB less model state. So stage 2 is the most loaded GPU.
void TestMemory::middleStageOfMoeLayersIsTheMostLoaded() {
    const PlanSpec s = plan_spec_from_text(R"({"model": {"layers": 8, "hidden": 1024,
        "heads": 8, "ffn_hidden": 4096, "ffn": "swiglu", "vocab": 1000,
        "moe": {"experts": 64, "active_experts": 2, "expert_ffn_hidden": 1024,
                "first_dense_layers": 3}},
        "data": {"tokens": 1e9, "seq_len": 2048, "global_batch": 8, "micro_batch": 1},
        "cluster": {"gpu": "h100-sxm", "gpus": 4},
        "training": {"pp": 4}})");
    const Plan p = eval(s);
    QCOMPARE(p.memory.params_on_gpu, 411176960.0);
    QCOMPARE(p.memory.activations.layers_on_gpu, 2.0);
    QCOMPARE(p.memory.activations.microbatches_in_flight, 2.0);
}

void TestMemory::pipelineFirstStageHoldsAllLayersWorth() {
    // Korthikanti sec. 4.2.3: with 1F1B the first stage keeps p micro-batches of L/p layers, i.e.
    // L layers' worth, whatever p. 8 layers, pp 4, 8 micro-batches per step: 2 layers x 4 in
    // flight = 8 layers of 194 sbh (no output layer on the first stage when p > 1).
    PlanSpec s = korthikanti_spec();
    s.model.layers = 8;
    s.cluster.gpus = 4;
    s.training.pp = 4;
    s.data.global_batch = 8;
    const Plan p = eval(s);
    QCOMPARE(p.memory.activations.microbatches_in_flight, 4.0);
    // The first stage also keeps the embedding's dropout mask, sbh bytes per micro-batch.
    QCOMPARE(p.memory.activations_bytes, 8.0 * 194.0 * kSbh + 4.0 * kSbh);
    // With only 2 micro-batches per step, only 2 are ever in flight.
    s.data.global_batch = 2;
    QCOMPARE(eval(s).memory.activations.microbatches_in_flight, 2.0);
}

void TestMemory::microBatchNotGlobalBatchSetsActivations() {
    // Gradient accumulation: the global batch sets the accumulation steps, not the activations.
    PlanSpec s = korthikanti_spec();
    s.data.global_batch = 64;  // 64 / (1 x 4 GPUs) = 16 accumulation steps
    const Plan a = eval(s);
    QCOMPARE(a.parallel.grad_accum_steps, std::int64_t{16});
    s.data.global_batch = 4;
    const Plan b = eval(s);
    QCOMPARE(b.parallel.grad_accum_steps, std::int64_t{1});
    QCOMPARE(a.memory.activations_bytes, b.memory.activations_bytes);
    s.data.micro_batch = 2;
    s.data.global_batch = 64;
    QCOMPARE(eval(s).memory.activations.per_layer_bytes,
             2.0 * a.memory.activations.per_layer_bytes);
}

void TestMemory::memoryFallsAsParallelismRises_data() {
    QTest::addColumn<QString>("knob");
    QTest::newRow("zero") << "zero";
    QTest::newRow("tp") << "tp";
    QTest::newRow("pp") << "pp";
}

void TestMemory::memoryFallsAsParallelismRises() {
    QFETCH(QString, knob);
    PlanSpec s;
    s.model = find_model_preset("llama-2-70b")->model;
    s.data.tokens = 2e12;
    s.data.seq_len = 4096;
    s.data.global_batch = 1024;
    s.cluster.gpus = 1024;
    double previous = std::numeric_limits<double>::infinity();
    for (int v : {0, 1, 2, 3}) {
        if (knob == QLatin1String("zero")) {
            s.training.zero = v;
        } else if (knob == QLatin1String("tp")) {
            s.training.tp = std::int64_t{1} << v;  // 1, 2, 4, 8
        } else {
            s.training.pp = std::int64_t{1} << v;
        }
        const double total = eval(s).memory.total_bytes;
        QVERIFY2(total < previous, qPrintable(QStringLiteral("%1 = %2").arg(knob).arg(v)));
        previous = total;
    }
}

void TestMemory::recomputeTradesMemoryForFlops() {
    PlanSpec s = korthikanti_spec();
    s.model.layers = 16;
    // Selective recomputation repeats only attention-score work, which 6·N·D leaves out; count it.
    s.training.flops_formula = FlopsFormula::attention;
    const Plan none = eval(s);
    for (Recompute r : {Recompute::selective, Recompute::full, Recompute::sqrt}) {
        s.training.recompute = r;
        const Plan p = eval(s);
        QVERIFY(p.memory.activations_bytes < none.memory.activations_bytes);
        QVERIFY(p.flops.hardware_total > none.flops.hardware_total);
        QCOMPARE(p.flops.total, none.flops.total);  // model FLOPs do not change
    }
}

void TestMemory::fitsAgainstCapacity() {
    // 70e9 parameters at 16 bytes on one 80 GB GPU: 1.12e12 bytes, does not fit.
    const Plan p = eval(params_spec(70e9, 1));
    QCOMPARE(p.memory.total_bytes, 1.12e12);
    QCOMPARE(p.memory.capacity_bytes, 80e9);
    QVERIFY(!p.memory.fits);
    QVERIFY(p.has(Warning::does_not_fit));
    QCOMPARE(p.memory.headroom_bytes, 80e9 - 1.12e12);
}

void TestMemory::tensorMemory_data() {
    QTest::addColumn<std::vector<std::int64_t>>("shape");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<double>("bytes");
    // Seed 002: a 4 x 8 fp32 tensor: 32 elements x 4 bytes = 128 bytes.
    QTest::newRow("4x8 fp32") << std::vector<std::int64_t>{4, 8} << int(DType::fp32) << 128.0;
    // Seeds 002/003: one GPT-3 feed-forward matrix, (12288·4) x 12288 in fp32:
    // 603,979,776 x 4 = 2,415,919,104 bytes = 2.25 GiB (the notes' "about 2.3GB").
    QTest::newRow("GPT-3 FFN matrix fp32")
        << std::vector<std::int64_t>{12288 * 4, 12288} << int(DType::fp32) << 2415919104.0;
    // The same in bf16: half.
    QTest::newRow("GPT-3 FFN matrix bf16")
        << std::vector<std::int64_t>{12288 * 4, 12288} << int(DType::bf16) << 1207959552.0;
    // NVFP4: 4 bits + an 8-bit scale per 16 values = 4.5 bits: 16 values take 9 bytes.
    QTest::newRow("16 nvfp4 values") << std::vector<std::int64_t>{16} << int(DType::nvfp4) << 9.0;
}

void TestMemory::tensorMemory() {
    QFETCH(std::vector<std::int64_t>, shape);
    QFETCH(int, dtype);
    QFETCH(double, bytes);
    QCOMPARE(tensor_bytes(shape, static_cast<DType>(dtype)), bytes);
}

// Megatron-Core's distributed optimizer shards the routed experts over their expert-data-parallel
// group (megatron/core/parallel_state.py: gpus / (etp x ep x pp)), not over dp. 64 GPUs, tp 1,
// ep 8, ZeRO-1: each GPU holds 64 / 8 = 8 experts a layer, 2 x 8 x 3,145,728 = 50,331,648 routed
// parameters; the rest, 2 x (4,194,304 + 2,048 + 65,536) + 1,024,000 x 2 + 1,024 = 10,572,800.
// Master weights (fp32, 4 bytes): (10,572,800 / 64 + 50,331,648 / 8) x 4 = (165,200 + 6,291,456)
// x 4 = 25,826,624 bytes; AdamW's two fp32 moments twice that, 51,653,248. (Sharding everything
// over 64 gave 60,904,448 / 64 x 4 = 3,806,528.)
void TestMemory::expertStateShardsOverExpertDataParallel() {
    const Plan p = eval(two_moe_layers(64, R"({"expert_parallel": 8, "zero": 1})"));
    QCOMPARE(p.memory.params_on_gpu, 60904448.0);
    QCOMPARE(p.memory.expert_params_on_gpu, 50331648.0);
    QCOMPARE(p.memory.optimizer_shards, 64.0);
    QCOMPARE(p.memory.expert_optimizer_shards, 8.0);
    QCOMPARE(p.memory.master_bytes, 25826624.0);
    QCOMPARE(p.memory.optimizer_bytes, 51653248.0);
    // ZeRO-1 leaves parameters and gradients whole: 60,904,448 x 2 bytes each.
    QCOMPARE(p.memory.params_bytes, 121808896.0);
}

// --expert-tensor-parallel-size 1 beside tp 2: the attention, router and embeddings split over
// the two tensor-parallel GPUs, the experts whole. 8 GPUs, ep 4: 64 / 4 = 16 experts a layer,
// 2 x 16 x 3,145,728 = 100,663,296 routed parameters; the rest 2 x (4,194,304 / 2 + 65,536 / 2 +
// 2,048) + 2 x 1,024,000 / 2 + 1,024 = 5,288,960; 105,952,256 in all. The experts' data-parallel
// group is tp x dp / (etp x ep) = 2 x 4 / 4 = 2: master weights (5,288,960 / 4 + 100,663,296 / 2)
// x 4 = (1,322,240 + 50,331,648) x 4 = 206,615,552 bytes. (Splitting the experts by tp gave
// 50,331,648 routed parameters.)
void TestMemory::expertTensorParallelSplitsOnlyTheExperts() {
    const Plan p = eval(two_moe_layers(
        8, R"({"tp": 2, "expert_tensor_parallel": 1, "expert_parallel": 4, "zero": 1})"));
    QCOMPARE(p.memory.expert_params_on_gpu, 100663296.0);
    QCOMPARE(p.memory.params_on_gpu, 105952256.0);
    QCOMPARE(p.memory.expert_optimizer_shards, 2.0);
    QCOMPARE(p.memory.master_bytes, 206615552.0);
}

// Megatron-Core's recompute modules drop what they recompute (transformer_config.py,
// recompute_modules). One GPU, bf16, flash attention, no dropout, s·b = 2048 tokens, h 1024:
//   moe_act: the routed experts' activation output, k x 2 bytes x s·b x f = 2 x 2 x 2048 x 1024
//   = 8,388,608 bytes a layer;
//   layernorm: the two norm outputs, 2 x 2 bytes x s·b·h = 8,388,608 a layer.
// Two layers, one micro-batch in flight: 16,777,216 each, 33,554,432 together.
void TestMemory::recomputeModulesDropTheirTensors() {
    const double none = eval(two_moe_layers(1, "{}")).memory.activations_bytes;
    const double act =
        eval(two_moe_layers(1, R"({"recompute": "selective", "recompute_modules": ["moe_act"]})"))
            .memory.activations_bytes;
    const double both = eval(two_moe_layers(1, R"({"recompute": "selective",
        "recompute_modules": ["moe_act", "layernorm"]})"))
                            .memory.activations_bytes;
    QCOMPARE(none - act, 16777216.0);
    QCOMPARE(none - both, 33554432.0);
    // Selective without modules is the attention core, which flash attention never keeps: the
    // plan warns that it changes nothing, and does not when modules beyond the core are given.
    const Plan core = eval(two_moe_layers(1, R"({"recompute": "selective"})"));
    QCOMPARE(core.memory.activations_bytes, none);
    QVERIFY(core.has(Warning::selective_without_attention));
    QVERIFY(
        !eval(two_moe_layers(1, R"({"recompute": "selective", "recompute_modules": ["moe_act"]})"))
             .has(Warning::selective_without_attention));
}

void TestMemory::recomputeModulesNeedSelectiveAndTheirLayers() {
    const PlanSpec full =
        two_moe_layers(1, R"({"recompute": "full", "recompute_modules": ["mlp"]})");
    std::optional<FieldError> e = check(full, h100());
    QVERIFY(e);
    QCOMPARE(e->field, std::string("training.recompute_modules"));
    PlanSpec dense = llama_style_spec(2);
    dense.training.recompute = Recompute::selective;
    dense.training.recompute_modules.moe_act = true;
    e = check(dense, h100());
    QVERIFY(e);
    QCOMPARE(e->field, std::string("training.recompute_modules"));
    dense.training.recompute_modules = {};
    dense.training.recompute_modules.mla_up_proj = true;
    QVERIFY(check(dense, h100()));
    dense.training.recompute_modules = {};
    dense.training.recompute_modules.mlp = true;
    QVERIFY(!check(dense, h100()));
    // Written and read back as Megatron-Core names them.
    const std::string text = to_json(dense).dump();
    QVERIFY2(text.find(R"("recompute_modules":["mlp"])") != std::string::npos, text.c_str());
    QCOMPARE(plan_spec_from_text(text).training.recompute_modules,
             dense.training.recompute_modules);
}

QTEST_GUILESS_MAIN(TestMemory)
#include "tst_memory.moc"
