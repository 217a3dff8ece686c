// Parameter counts: every expected value is worked out by hand in the row's comment from the
// model's published dimensions.
#include <QtTest>

#include "planner/io/presets.h"
#include "planner/training/plan.h"

using namespace tally;

class TestParams : public QObject {
    Q_OBJECT

private slots:
    void presetTotals_data();
    void presetTotals();
    void deepseekV3WithinThreePercent();
    void mlaAttentionByHand();
    void lectureMlpIsDSquaredL();
    void groupedKvHeadsShrinkAttention();
    void tiedEmbeddingsCountOnce();
    void qkNormAddsTwoHeadNormsALayer();
    void deepseekV3MtpModuleByHand();
    void mtpLayerOfADenseModel();
    void moeActiveNeverAboveTotal_data();
    void moeActiveNeverAboveTotal();
};

void TestParams::presetTotals_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("active");
    QTest::addColumn<double>("embedding");

    // Llama 2 7B: h 4096, 32 layers, 32 heads (MHA), ffn 11008, vocab 32000, untied, RMSNorm.
    // attention 4·4096² = 67,108,864; SwiGLU 3·4096·11008 = 135,266,304; norms 2·4096 = 8,192
    // layer 202,383,360 x 32 = 6,476,267,520; embeddings 2·32000·4096 = 262,144,000;
    // final norm 4,096: total 6,738,415,616 (the 6.74B of the model card).
    QTest::newRow("llama-2-7b") << "llama-2-7b" << 6738415616.0 << 6738415616.0 << 262144000.0;
    // Llama 2 70B: h 8192, 80 layers, 64 heads, 8 KV heads of 128, ffn 28672, vocab 32000.
    // attention 8192² (Q) + 2·8192·1024 (K, V) + 8192² (O) = 150,994,944;
    // SwiGLU 3·8192·28672 = 704,643,072; norms 16,384; layer 855,654,400 x 80 = 68,452,352,000;
    // embeddings 2·32000·8192 = 524,288,000; final norm 8,192: 68,976,648,192.
    QTest::newRow("llama-2-70b") << "llama-2-70b" << 68976648192.0 << 68976648192.0 << 524288000.0;
    // Llama 3 8B: attention 2·4096² + 2·4096·1024 = 41,943,040; SwiGLU 3·4096·14336 =
    // 176,160,768; norms 8,192; layer 218,112,000 x 32 = 6,979,584,000;
    // embeddings 2·128256·4096 = 1,050,673,152; final 4,096: 8,030,261,248 (the "8B").
    QTest::newRow("llama-3-8b") << "llama-3-8b" << 8030261248.0 << 8030261248.0 << 1050673152.0;
    // GPT-3 175B (Brown et al. 2020, Table 2.1), biases everywhere, LayerNorm (gain + bias),
    // learned positions, tied embeddings. attention 4·12288² + 4·12288 = 604,028,928;
    // MLP 2·12288·49152 + 49152 + 12288 = 1,208,020,992; two LayerNorms 4·12288 = 49,152;
    // layer 1,812,099,072 x 96 = 173,961,510,912; token embedding 50257·12288 = 617,558,016;
    // positions 2048·12288 = 25,165,824; final LayerNorm 24,576: 174,604,259,328.
    QTest::newRow("gpt-3-175b") << "gpt-3-175b" << 174604259328.0 << 174604259328.0
                                << (617558016.0 + 25165824.0);
    // Mixtral 8x7B (Jiang et al. 2024, Table 1): attention 2·4096² + 2·4096·1024 = 41,943,040;
    // experts 8·3·4096·14336 = 1,409,286,144; router 4096·8 = 32,768; norms 8,192;
    // layer 1,451,270,144 x 32 = 46,440,644,608; embeddings 262,144,000; final 4,096:
    // 46,702,792,704 total (published 46.7B). Active: 2 experts, 352,321,536 instead of
    // 1,409,286,144: layer 394,305,536 x 32 = 12,617,777,152 + 262,148,096 = 12,879,925,248
    // (published 12.9B).
    QTest::newRow("mixtral-8x7b") << "mixtral-8x7b" << 46702792704.0 << 12879925248.0
                                  << 262144000.0;
    // Mistral 7B v0.1 (Jiang et al. 2023, Table 1): the sliding window changes no parameter.
    // attention 2·4096² + 2·4096·1024 = 41,943,040; SwiGLU 3·4096·14336 = 176,160,768; norms
    // 8,192; layer 218,112,000 x 32 = 6,979,584,000; embeddings 2·32000·4096 = 262,144,000;
    // final 4,096: 7,241,732,096 (the model card's 7.24B).
    QTest::newRow("mistral-7b") << "mistral-7b" << 7241732096.0 << 7241732096.0 << 262144000.0;
    // GPT-OSS 120B (OpenAI 2025 model card, sec. 2; config.json): attention Q 2880·4096 =
    // 11,796,480, K and V 2·2880·512 = 2,949,120, O 4096·2880 = 11,796,480, Q, K, V biases
    // 4096 + 2·512 = 5,120: 26,547,200; experts 128·3·2880² = 3,185,049,600; router 2880·128 =
    // 368,640; norms 2·2880 = 5,760; layer 3,211,971,200 x 36 = 115,630,963,200; embeddings
    // 2·201088·2880 = 1,158,266,880; final norm 2,880: 116,789,232,960 (the card's Table 1:
    // 116.83B, which adds the biases and sinks Tally leaves out). Active: 4 experts,
    // 4·3·2880² = 99,532,800: layer 126,454,400 x 36 = 4,552,358,400 + 1,158,269,760 =
    // 5,710,628,160 (the card's 5.13B leaves out the 579,133,440-entry embedding table).
    QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 116789232960.0 << 5710628160.0
                                  << 1158266880.0;
}

void TestParams::presetTotals() {
    QFETCH(QString, preset);
    QFETCH(double, total);
    QFETCH(double, active);
    QFETCH(double, embedding);
    const ModelPreset* p = find_model_preset(preset.toStdString());
    QVERIFY2(p, qPrintable(preset));
    const ParamCounts c = count_params(p->model);
    QCOMPARE(c.total, total);
    QCOMPARE(c.active, active);
    QCOMPARE(c.embedding, embedding);
    QCOMPARE(c.non_embedding, total - embedding);
}

void TestParams::deepseekV3WithinThreePercent() {
    // DeepSeek-V3 technical report, sec. 1: 671B total parameters, 37B activated per token.
    const ModelPreset* p = find_model_preset("deepseek-v3");
    QVERIFY(p);
    const ParamCounts c = count_params(p->model);
    QVERIFY2(std::abs(c.total / 671e9 - 1.0) < 0.03, qPrintable(QString::number(c.total)));
    QVERIFY2(std::abs(c.active / 37e9 - 1.0) < 0.03, qPrintable(QString::number(c.active)));
    // And exactly, by hand from the preset's dimensions (h 7168, 61 layers, first 3 dense):
    // attention 187,107,328 (mlaAttentionByHand) + two RMSNorms 14,336 = 187,121,664 x 61 =
    // 11,414,421,504; dense SwiGLU 3·7168·18432 = 396,361,728 x 3 = 1,189,085,184;
    // one expert 3·7168·2048 = 44,040,192, router 7168·256 = 1,835,008;
    // MoE layer total: router + (256 routed + 1 shared) experts = 11,320,164,352 x 58 =
    // 656,569,532,416; active: router + (8 + 1) experts = 398,196,736 x 58 = 23,095,410,688;
    // embeddings 2·129280·7168 = 1,853,358,080; final norm 7,168.
    // Total 671,026,404,352; active 37,552,282,624.
    QCOMPARE(c.total, 671026404352.0);
    QCOMPARE(c.active, 37552282624.0);
    QCOMPARE(c.embedding, 1853358080.0);
}

void TestParams::mlaAttentionByHand() {
    // DeepSeek-V3 attention (DeepSeek-V2 eqs. 9-13), h 7168, 128 heads:
    // W^DQ 7168·1536 = 11,010,048 + q norm 1,536 + W^UQ 1536·128·(128 + 64) = 37,748,736
    //   -> 48,760,320
    // W^DKV + W^KR 7168·(512 + 64) = 4,128,768 + kv norm 512 + W^UK,UV 512·128·(128 + 128) =
    //   16,777,216 -> 20,906,496
    // W^O 128·128·7168 = 117,440,512.  Sum: 187,107,328 per layer.
    const ModelPreset* p = find_model_preset("deepseek-v3");
    QVERIFY(p);
    QCOMPARE(count_params(p->model).per_layer_attention, 187107328.0);
}

void TestParams::lectureMlpIsDSquaredL() {
    // CS336 lecture 2: num_parameters = D·D·num_layers. D = 1024, L = 8: 8,388,608.
    ModelSpec m;
    m.kind = ModelKind::mlp;
    m.hidden = 1024;
    m.layers = 8;
    QCOMPARE(count_params(m).total, 8388608.0);
}

void TestParams::groupedKvHeadsShrinkAttention() {
    // Going from 64 to 8 KV heads of width 128 at h 8192 removes 2·8192·(64 - 8)·128 =
    // 117,440,512 parameters per layer (K and V projections).
    ModelSpec m = find_model_preset("llama-2-70b")->model;
    const double gqa = count_params(m).per_layer_attention;
    m.kv_heads = 64;
    const double mha = count_params(m).per_layer_attention;
    QCOMPARE(mha - gqa, 117440512.0);
}

void TestParams::tiedEmbeddingsCountOnce() {
    // Untied Llama 2 7B has 2·32000·4096 = 262,144,000 embedding parameters; tied, half.
    ModelSpec m = find_model_preset("llama-2-7b")->model;
    m.tied_embeddings = true;
    QCOMPARE(count_params(m).embedding, 131072000.0);
    QCOMPARE(count_params(m).total, 6738415616.0 - 131072000.0);
}

void TestParams::qkNormAddsTwoHeadNormsALayer() {
    // Qwen3-8B (Qwen/Qwen3-8B config.json: hidden 4096, 36 layers, 32 heads and 8 KV heads of 128,
    // intermediate 12288, vocabulary 151936, untied; Qwen3Attention's q_norm and k_norm, RMSNorms
    // of head_dim). Attention Q 4096·4096 = 16,777,216 + K, V 2·4096·1024 = 8,388,608 + O
    // 16,777,216 = 41,943,040, QK-norm 2·128 = 256: 41,943,296; SwiGLU 3·4096·12288 =
    // 150,994,944; two norms 8,192; layer 192,946,432 x 36 = 6,946,071,552; embeddings
    // 2·151936·4096 = 1,244,659,712; final norm 4,096: 8,190,735,360 (the model card's 8.2B).
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.layers = 36;
    m.hidden = 4096;
    m.heads = 32;
    m.kv_heads = 8;
    m.head_dim = 128;
    m.ffn_hidden = 12288;
    m.ffn = FfnKind::swiglu;
    m.vocab = 151936;
    m.qk_norm = true;
    QCOMPARE(count_params(m).total, 8190735360.0);
    QCOMPARE(count_params(m).per_layer_attention, 41943296.0);
    // LayerNorm has a bias beside each gain: 4·128 = 512 a layer, 256 more than RMSNorm's.
    m.norm = NormKind::layernorm;
    const double layernorm = count_params(m).per_layer_attention;
    m.qk_norm = false;
    QCOMPARE(layernorm - count_params(m).per_layer_attention, 512.0);
    // MLA's latent norms are counted with it (mlaAttentionByHand): the flag is not read there.
    ModelSpec mla = find_model_preset("deepseek-v3")->model;
    mla.qk_norm = true;
    QCOMPARE(count_params(mla).per_layer_attention, 187107328.0);
}

void TestParams::deepseekV3MtpModuleByHand() {
    // DeepSeek-V3's one MTP module (DeepSeek-V3 Technical Report, sec. 2.2; deepseek-ai/
    // DeepSeek-V3 config.json: hidden 7168, 128 heads, q_lora_rank 1536, kv_lora_rank 512,
    // qk_nope 128, qk_rope 64, v_head 128; 256 routed experts of 2048, 8 active, 1 shared;
    // vocabulary 129280; num_nextn_predict_layers 1). Its layer is an MoE layer, as the last is.
    //   MLA: W^DQ 7168·1536 = 11,010,048 + q norm 1,536 + W^UQ 1536·128·192 = 37,748,736;
    //        W^DKV+W^KR 7168·576 = 4,128,768 + kv norm 512 + W^UKV 512·128·256 = 16,777,216;
    //        W^O 128·128·7168 = 117,440,512: 187,107,328.
    //   MoE: router 7168·256 = 1,835,008; an expert 3·7168·2048 = 44,040,192; 257 of them
    //        11,318,329,344; 9 active (8 routed + 1 shared) 396,361,728.
    //   Norms: hnorm, enorm, the layer's two, the final one: 5·7168 = 35,840.
    //   Projection M: 2·7168·7168 = 102,760,448.
    //   Total: 187,107,328 + 35,840 + 102,760,448 + 1,835,008 + 11,318,329,344 = 11,610,067,968.
    //   Active: 187,107,328 + 35,840 + 102,760,448 + 1,835,008 + 396,361,728 = 688,100,352.
    ModelSpec m = find_model_preset("deepseek-v3")->model;
    const ParamCounts main = count_params(m);
    m.mtp_layers = 1;
    const ParamCounts with = count_params(m);
    QCOMPARE(with.mtp, 11610067968.0);
    QCOMPARE(with.mtp_active, 688100352.0);
    QCOMPARE(with.total - main.total, 11610067968.0);
    QCOMPARE(with.active - main.active, 688100352.0);
    // The embedding and head are shared (sec. 2.2), so not counted again.
    QCOMPARE(with.embedding, main.embedding);
    // The Hugging Face checkpoint's layer 61 also stores embed_tokens and shared_head.head,
    // 2·129280·7168 = 1,853,358,080: 13,463,426,048 in all. With the main model's
    // 671,026,404,352 (presetTotals) that is 684,489,830,400, the model card's "685B ... 671B of
    // the Main Model weights and 14B of the MTP Module weights" in rounded figures: its 685B
    // counts the checkpoint's tensors, which also hold an fp32 scale per 128 x 128 block of FP8
    // weights (about 0.04B) that Tally does not count, and 14B is 685B less 671B.
    const double checkpoint = with.mtp + 2.0 * 129280.0 * 7168.0;
    QCOMPARE(checkpoint, 13463426048.0);
    QCOMPARE(main.total, 671026404352.0);
    QCOMPARE(main.total + checkpoint, 684489830400.0);
    // Two modules are twice one.
    m.mtp_layers = 2;
    QCOMPARE(count_params(m).mtp, 2.0 * 11610067968.0);
}

void TestParams::mtpLayerOfADenseModel() {
    // A dense model's MTP layer is a dense layer. Llama-shaped toy: h 64, 4 heads (MHA), SwiGLU
    // of 128, vocabulary 1000. Layer: attention 4·64·64 = 16,384, MLP 3·64·128 = 24,576; norms
    // 5·64 = 320; projection 2·64·64 = 8,192: 49,472, all of it active.
    ModelSpec m;
    m.kind = ModelKind::transformer;
    m.layers = 2;
    m.hidden = 64;
    m.heads = 4;
    m.ffn_hidden = 128;
    m.ffn = FfnKind::swiglu;
    m.vocab = 1000;
    m.mtp_layers = 1;
    QCOMPARE(count_params(m).mtp, 49472.0);
    QCOMPARE(count_params(m).mtp_active, 49472.0);
    // An MoE model whose layers are all dense (first_dense_layers = layers) ends in a dense one.
    m.moe.experts = 4;
    m.moe.active_experts = 1;
    m.moe.first_dense_layers = 2;
    QCOMPARE(count_params(m).mtp, 49472.0);
}

void TestParams::moeActiveNeverAboveTotal_data() {
    QTest::addColumn<QString>("preset");
    for (const ModelPreset& p : model_presets()) {
        QTest::newRow(p.id.c_str()) << QString::fromStdString(p.id);
    }
}

void TestParams::moeActiveNeverAboveTotal() {
    QFETCH(QString, preset);
    const ParamCounts c = count_params(find_model_preset(preset.toStdString())->model);
    QVERIFY(c.active > 0);
    QVERIFY(c.active <= c.total);
    QVERIFY(c.embedding < c.total);
}

QTEST_GUILESS_MAIN(TestParams)
#include "tst_params.moc"
