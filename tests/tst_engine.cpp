// The engine presets (planner/performance/engine.h): attention kernels at their published
// throughput, which kernel each engine runs on which GPU generation, and the catalog's new parts.
// Expected values come from the papers' figures, worked out in the comments.
#include <QtTest>

#include "planner/hardware/hardware.h"
#include "planner/hardware/user_profiles.h"
#include "planner/performance/engine.h"

using namespace tally;

namespace {

bool close(double a, double b, double rel = 1e-12) {
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

}  // namespace

class TestEngine : public QObject {
    Q_OBJECT

private slots:
    void attentionAtThePublishedThroughput();
    void ampereScalesFlashAttention2ToItsPaper();
    void lengthsOutsideTheFiguresClamp();
    void headDimensionsOfTheFigures();
    void headDimensionOfAModel();
    void kernelsByEngineAndGeneration();
    void generationsOfTheCatalog();
    void aCopyKeepsItsPartsGeneration();
    void newPartsOfTheCatalog();
    void presetsAreDistinct();
};

void TestEngine::attentionAtThePublishedThroughput() {
    // Shah et al. 2024, Fig. 5 (causal forward, head dim 128, H100 SXM5): FlashAttention-3 at 2k
    // 521 TFLOP/s, of the H100's 989.5 dense bf16: 0.52653.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash3, GpuGeneration::hopper, 2048, 128, false),
              521.0 / 989.5));
    // Its causal backward: the non-causal backward 501 TFLOP/s (Fig. 6) times the forward's causal
    // / non-causal ratio 521 / 625: 417.6 TFLOP/s, 0.42207 of the peak.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash3, GpuGeneration::hopper, 2048, 128, true),
              501.0 * 521.0 / 625.0 / 989.5));
    // cuDNN at 8k, causal forward 529 TFLOP/s.
    QVERIFY(
        close(attention_fraction(AttentionKernel::cudnn, GpuGeneration::hopper, 8192, 128, false),
              529.0 / 989.5));
    // Between two lengths: linear in log2(s). 2896 = 2^11.5 lies half way from 2k to 4k:
    // FlashAttention-2 causal forward (298 + 319) / 2 = 308.5 TFLOP/s.
    const double s = std::exp2(11.5);
    QVERIFY(close(attention_fraction(AttentionKernel::flash2, GpuGeneration::hopper, s, 128, false),
                  308.5 / 989.5, 1e-9));
}

void TestEngine::ampereScalesFlashAttention2ToItsPaper() {
    // Dao 2023: "50-73% of the theoretical maximum FLOPs/s on A100". The H100 curve's best
    // non-causal forward (370 TFLOP/s) maps to 0.73; the causal forward at 2k, 298 TFLOP/s, to
    // 298 / 370 x 0.73 = 0.58795.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash2, GpuGeneration::ampere, 2048, 128, false),
              298.0 / 370.0 * 0.73, 1e-12));
    // The first FlashAttention at half of it (Dao 2023: "around 2x speedup compared to
    // FlashAttention"): the causal forward at 2k, 0.58795 / 2 = 0.29397.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash1, GpuGeneration::ampere, 2048, 128, false),
              298.0 / 370.0 * 0.73 / 2.0, 1e-12));
    // On Hopper the same ratio: FlashAttention-2's causal backward at 8k, 318 x 333 / 370 =
    // 286.2 TFLOP/s, halved: 143.1 of 989.5.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash1, GpuGeneration::hopper, 8192, 128, true),
              318.0 * 333.0 / 370.0 / 2.0 / 989.5, 1e-12));
}

void TestEngine::lengthsOutsideTheFiguresClamp() {
    // Below 512 and above 16k the end figures hold: FA3 causal forward 292 and 616 TFLOP/s.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash3, GpuGeneration::hopper, 128, 128, false),
              292.0 / 989.5));
    QVERIFY(close(
        attention_fraction(AttentionKernel::flash3, GpuGeneration::hopper, 131072, 128, false),
        616.0 / 989.5));
}

void TestEngine::headDimensionsOfTheFigures() {
    // Shah et al. 2024, Fig. 5d (causal forward, head dim 64): cuDNN at 4k 363 TFLOP/s.
    QVERIFY(
        close(attention_fraction(AttentionKernel::cudnn, GpuGeneration::hopper, 4096, 64, false),
              363.0 / 989.5));
    // Its causal backward at head dim 64: the non-causal backward 417 TFLOP/s (Fig. 6a) times the
    // forward's causal / non-causal ratio at 64, 363 / 408 (Fig. 5a): 371.0 TFLOP/s.
    QVERIFY(close(attention_fraction(AttentionKernel::cudnn, GpuGeneration::hopper, 4096, 64, true),
                  417.0 * 363.0 / 408.0 / 989.5));
    // Fig. 5f (causal, head dim 256): FlashAttention-3 at 8k 628 TFLOP/s.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash3, GpuGeneration::hopper, 8192, 256, false),
              628.0 / 989.5));
    // No backward figure at 256: the backward at 128 (559, Fig. 6b) times the non-causal forward's
    // 256 / 128 ratio, 746 / 646 (Fig. 5c, 5b), then the causal ratio at 256, 628 / 746:
    // 559 x 628 / 646 = 543.4 TFLOP/s.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash3, GpuGeneration::hopper, 8192, 256, true),
              559.0 * 746.0 / 646.0 * 628.0 / 746.0 / 989.5, 1e-12));
    // Between 64 and 128, linear in log2(d): d = 2^6.5 = 90.5 lies half way, FlashAttention-2's
    // causal forward at 2k (262 + 298) / 2 = 280 TFLOP/s.
    QVERIFY(close(attention_fraction(AttentionKernel::flash2, GpuGeneration::hopper, 2048,
                                     std::exp2(6.5), false),
                  280.0 / 989.5, 1e-9));
    // Outside the figures the ends hold: head dim 32 reads 64's, 512 reads 256's (FA2 causal 16k:
    // 299 and 298 TFLOP/s).
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash2, GpuGeneration::hopper, 16384, 32, false),
              299.0 / 989.5));
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash2, GpuGeneration::hopper, 16384, 512, false),
              298.0 / 989.5));
    // Triton at 256 (no figure): its 128 causal forward at 2k, 323, times FlashAttention-2's
    // 256 / 128 ratio there, 278 / 298: 301.3 TFLOP/s.
    QVERIFY(
        close(attention_fraction(AttentionKernel::triton, GpuGeneration::hopper, 2048, 256, false),
              323.0 * 278.0 / 298.0 / 989.5, 1e-12));
    // The A100 keeps the H100's ratios: FlashAttention-2 causal forward at 2k, head dim 64, 262
    // TFLOP/s, is 262 / 370 x 0.73 of the A100's peak.
    QVERIFY(
        close(attention_fraction(AttentionKernel::flash2, GpuGeneration::ampere, 2048, 64, false),
              262.0 / 370.0 * 0.73, 1e-12));
}

void TestEngine::headDimensionOfAModel() {
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.hidden = 2880;
    m.heads = 64;
    m.head_dim = 64;  // GPT-OSS: 64 heads of 64, wider than the hidden size
    QCOMPARE(attention_head_dim(m), 64.0);
    m.head_dim = 0;  // unset: hidden / heads = 2880 / 64 = 45
    QCOMPARE(attention_head_dim(m), 45.0);
    // DeepSeek-V3's MLA: scores over nope 128 + rope 64 = 192, values of 128; the mean is
    // (192 + 128) / 2 = 160.
    m.mla.kv_lora_rank = 512;
    m.mla.qk_nope_head_dim = 128;
    m.mla.qk_rope_head_dim = 64;
    m.mla.v_head_dim = 128;
    QVERIFY(m.mla.enabled());
    QCOMPARE(attention_head_dim(m), 160.0);
}

void TestEngine::kernelsByEngineAndGeneration() {
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    const HardwareProfile& a100 = *find_builtin_hardware("a100-80gb");
    const HardwareProfile& b200 = *find_builtin_hardware("b200");
    TrainingSpec t;
    // Transformer Engine's fused attention is cuDNN's on Hopper, FlashAttention-2 on Ampere.
    QVERIFY(resolved_attention_kernel(t, h100) == AttentionKernel::cudnn);
    QVERIFY(resolved_attention_kernel(t, a100) == AttentionKernel::flash2);
    // PyTorch's SDPA runs FlashAttention-2.
    t.engine = Engine::fsdp;
    QVERIFY(resolved_attention_kernel(t, h100) == AttentionKernel::flash2);
    // FlashAttention-3 is Hopper-only: Blackwell falls back to cuDNN, Ampere to FA2.
    t.attention_kernel = AttentionKernel::flash3;
    QVERIFY(resolved_attention_kernel(t, h100) == AttentionKernel::flash3);
    QVERIFY(resolved_attention_kernel(t, b200) == AttentionKernel::cudnn);
    QVERIFY(resolved_attention_kernel(t, a100) == AttentionKernel::flash2);
}

void TestEngine::generationsOfTheCatalog() {
    QVERIFY(gpu_generation(*find_builtin_hardware("h800")) == GpuGeneration::hopper);
    QVERIFY(gpu_generation(*find_builtin_hardware("h200")) == GpuGeneration::hopper);
    QVERIFY(gpu_generation(*find_builtin_hardware("gb200")) == GpuGeneration::blackwell);
    QVERIFY(gpu_generation(*find_builtin_hardware("a100-40gb")) == GpuGeneration::ampere);
    QVERIFY(gpu_generation(*find_builtin_hardware("mi300x")) == GpuGeneration::other);
}

// A copy of a catalog part under a name of the user's ("My H", "Lab card") is that part: its
// generation, so its attention kernel and its published band, follow the part it was copied from,
// through a probe run's measured copy, a copy of the copy and the profile's JSON; the catalog's
// own JSON does not name a source part.
void TestEngine::aCopyKeepsItsPartsGeneration() {
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    const HardwareProfile mine = duplicate_profile(h100, "myh", "My H");
    QCOMPARE(mine.copied_from, std::string("h100-sxm"));
    QVERIFY(gpu_generation(mine) == GpuGeneration::hopper);
    const HardwareProfile again = duplicate_profile(mine, "myh2", "My second");
    QCOMPARE(again.copied_from, std::string("h100-sxm"));
    QVERIFY(gpu_generation(again) == GpuGeneration::hopper);
    const HardwareProfile back = hardware_from_json(to_json(mine));
    QCOMPARE(back.copied_from, std::string("h100-sxm"));
    QVERIFY(gpu_generation(back) == GpuGeneration::hopper);
    QVERIFY(!to_json(h100).contains("copied_from"));
    const HardwareProfile a100 = duplicate_profile(*find_builtin_hardware("a100-80gb"), "x", "X");
    QVERIFY(gpu_generation(a100) == GpuGeneration::ampere);
}

void TestEngine::newPartsOfTheCatalog() {
    // GB200 NVL72: 360 PFLOP/s of bf16 with sparsity over 72 GPUs, halved to dense: 2.5e15;
    // 576 TB/s over 72: 8e12 bytes/s; NVLink 1.8 TB/s each, 900e9 per direction; one NVLink
    // domain of 72.
    const HardwareProfile& gb200 = *find_builtin_hardware("gb200");
    QCOMPARE(gb200.peak(ComputeType::bf16), 360e15 / 72.0 / 2.0);
    QCOMPARE(gb200.bandwidth_bytes_per_s, 576e12 / 72.0);
    QCOMPARE(gb200.interconnect_bytes_per_s, 900e9);
    QCOMPARE(gb200.gpus_per_node, std::int64_t{72});
    // H800: the H100 SXM5's tensor peaks with NVLink at 400 GB/s both ways, 200e9 per direction.
    const HardwareProfile& h800 = *find_builtin_hardware("h800");
    QCOMPARE(h800.peak(ComputeType::bf16),
             find_builtin_hardware("h100-sxm")->peak(ComputeType::bf16));
    QCOMPARE(h800.interconnect_bytes_per_s, 400e9 / 2.0);
    QCOMPARE(h800.gpus_per_node, std::int64_t{8});
    QVERIFY(!gb200.sources.empty() && !h800.sources.empty());
}

void TestEngine::presetsAreDistinct() {
    // Eager PyTorch moves more bytes and launches more kernels than the fused engines.
    const EnginePreset& megatron = engine_preset(Engine::megatron);
    const EnginePreset& eager = engine_preset(Engine::fsdp);
    const EnginePreset& compiled = engine_preset(Engine::fsdp_compile);
    QVERIFY(megatron.engine == Engine::megatron && eager.engine == Engine::fsdp &&
            compiled.engine == Engine::fsdp_compile &&
            engine_preset(Engine::deepspeed).engine == Engine::deepspeed);
    // torch's RMSNorm: pow, mean, two products = 3 reads and 3 writes against 1 and 1.
    QCOMPARE(eager.rmsnorm_traffic, 3.0);
    // SwiGLU: silu (read f, write f) then the product (read 2f, write f) = 5f against 3f.
    QCOMPARE(eager.swiglu_traffic, 5.0 / 3.0);
    QCOMPARE(compiled.swiglu_traffic, 1.0);
    QVERIFY(eager.kernels_forward > compiled.kernels_forward);
}

QTEST_APPLESS_MAIN(TestEngine)
#include "tst_engine.moc"
