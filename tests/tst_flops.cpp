// FLOPs, time and cost: the seed's headline figures and hand-derived cases.
#include <fmt/core.h>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "planner/hardware/hardware.h"
#include "planner/io/examples.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/text/explain.h"
#include "planner/training/plan.h"

using namespace tally;

namespace {

const HardwareProfile& h100() {
    return *find_builtin_hardware("h100-sxm");
}

Plan eval(const PlanSpec& s, const HardwareProfile& hw = h100()) {
    if (auto e = check(s, hw)) {
        qFatal("spec rejected: %s", e->message().c_str());
    }
    return evaluate(s, hw);
}

bool within(double value, double expected, double relative) {
    return std::abs(value / expected - 1.0) <= relative;
}

}  // namespace

class TestFlops : public QObject {
    Q_OBJECT

private slots:
    void assumedMfuFarAbovePredictedWarns();
    void seedQuestionOne();
    void seedEightH100ForAWeek();
    void gpt3TrainingFlops();
    void lectureMlpPerStep();
    void backwardIsTwiceForward();
    void palmAttentionTerm();
    void mtpModuleFlops();
    void slidingWindowAttentionTerm();
    void flopsFormulaPicksTheCount();
    void fullRecomputeAddsOneForward();
    void recomputeCountedLikeModelFlops_data();
    void recomputeCountedLikeModelFlops();
    void costAndGpuHours();
    void warnings();
    void fewerTokensThanOneStep();
};

void TestFlops::seedQuestionOne() {
    // Seeds 002/003: total_flops = 6 · 70e9 · 15e12 = 6.3e24.
    // days = 6.3e24 / (1979e12/2 · 0.5 · 1024 · 86400) = 6.3e24 / 4.37723e22 = 143.93.
    const Plan p = eval(default_plan_spec());
    QCOMPARE(p.flops.total, 6.3e24);
    QVERIFY2(within(p.time.days, 143.93, 0.0005), qPrintable(QString::number(p.time.days)));
    // 1024 H100 at MFU 0.5 deliver 4.38e22 FLOPs per day (seed 003).
    QVERIFY(within(p.time.achieved_flops_per_s * 86400.0, 4.38e22, 0.005));
    // GPU-hours = seconds · GPUs / 3600 = 143.93 · 24 · 1024.
    QVERIFY(within(p.time.gpu_hours, 143.93 * 24.0 * 1024.0, 0.0005));
}

void TestFlops::seedEightH100ForAWeek() {
    // Seed 002: 8 H100 for a week deliver 8 · 604800 · 989.5e12 = 4.788e21 FLOPs. A plan whose
    // 6·N·D is exactly that, at MFU 1 on 8 GPUs, takes 7 days.
    PlanSpec s;
    s.model.kind = ModelKind::params;
    s.model.params = 1e9;
    s.data.tokens = 8.0 * 604800.0 * 989.5e12 / 6e9;
    s.cluster.gpus = 8;
    s.cluster.mfu = 1.0;
    const Plan p = eval(s);
    QVERIFY(within(p.flops.total, 4.788e21, 0.0005));
    QVERIFY(within(p.time.days, 7.0, 1e-12));
}

void TestFlops::gpt3TrainingFlops() {
    // Seed 002: training GPT-3 took 3.14e23 FLOPs (Brown et al. 2020: 300B tokens).
    // 6 · 174,604,259,328 · 300e9 = 3.1429e23.
    PlanSpec s;
    s.model = find_model_preset("gpt-3-175b")->model;
    s.data.tokens = 300e9;
    s.data.seq_len = 2048;
    s.cluster.gpus = 1024;
    QVERIFY2(within(eval(s).flops.total, 3.14e23, 0.005), "GPT-3 3.14e23");
}

void TestFlops::lectureMlpPerStep() {
    // CS336 lecture 2: a training step of the deep ReLU net costs 6 · B · D² · L FLOPs.
    // B = 512, D = 2048, L = 4: 6 · 512 · 4,194,304 · 4 = 51,539,607,552.
    PlanSpec s;
    s.model.kind = ModelKind::mlp;
    s.model.hidden = 2048;
    s.model.layers = 4;
    s.data.tokens = 512.0 * 100;
    s.data.micro_batch = 512;
    s.data.global_batch = 512;
    const Plan p = eval(s);
    QCOMPARE(p.flops.per_step, 51539607552.0);
    QCOMPARE(p.parallel.steps, 100.0);
}

void TestFlops::backwardIsTwiceForward() {
    // Seed 002: forward 2·(data)·(params), backward 4·(data)·(params).
    const Plan p = eval(default_plan_spec());
    QCOMPARE(p.flops.forward_per_token, 2.0 * 70e9);
    QCOMPARE(p.flops.per_token - p.flops.forward_per_token, 2.0 * p.flops.forward_per_token);
}

void TestFlops::palmAttentionTerm() {
    // PaLM appendix B: 6N + 12·L·H·Q·T. Llama 2 7B at T = 4096:
    // 12 · 32 · 32 · 128 · 4096 = 6,442,450,944; 6N = 6 · 6,738,415,616 = 40,430,493,696.
    PlanSpec s;
    s.model = find_model_preset("llama-2-7b")->model;
    s.data.tokens = 1e12;
    s.data.seq_len = 4096;
    s.cluster.gpus = 8;
    const Plan p = eval(s);
    QCOMPARE(p.flops.per_token_6n, 40430493696.0);
    QCOMPARE(p.flops.per_token_attention, 40430493696.0 + 6442450944.0);
    // Grouped KV heads do not change it: each query head still forms its own scores.
    s.model.kv_heads = 8;
    const Plan g = eval(s);
    QCOMPARE(g.flops.per_token_attention - g.flops.per_token_6n, 6442450944.0);
}

void TestFlops::mtpModuleFlops() {
    // DeepSeek-V3 with its one MTP module at T = 4096 (tst_params deepseekV3MtpModuleByHand:
    // 688,100,352 active weights). Per token the module's forward is 2 FLOPs a weight it runs
    // through plus its own logits through the shared head, 2 · 7168 · 129280 = 2 · 926,679,040,
    // and the backward twice that (Megatron-LM's num_floating_point_operations counts its layer,
    // norms, projection and "(mtp_num_layers + 1)" logits the same way): 6 · (688,100,352 +
    // 926,679,040) = 9,688,676,352. Its attention adds one layer's PaLM term, 6 · 128 heads ·
    // 4096 · (192 + 128) = 1,006,632,960.
    PlanSpec s;
    s.model = find_model_preset("deepseek-v3")->model;
    s.data.tokens = 1e12;
    s.data.seq_len = 4096;
    s.cluster.gpus = 8;
    s.training.tp = 8;
    const Plan plain = eval(s);
    s.model.mtp_layers = 1;
    const Plan mtp = eval(s);
    QCOMPARE(mtp.flops.per_token_6n - plain.flops.per_token_6n, 9688676352.0);
    QCOMPARE(mtp.flops.per_token_attention - plain.flops.per_token_attention,
             9688676352.0 + 1006632960.0);
}

void TestFlops::slidingWindowAttentionTerm() {
    // A windowed layer's query scores min(T, W) keys where PaLM's counts T (Beltagy et al. 2020,
    // sec. 3.1). Llama 2 7B's shape at T = 8192, window W = 4096 (Mistral 7B v0.1's):
    //   every layer full:     12 · 32 · 32 · 128 · 8192 = 12,884,901,888
    //   every layer windowed: 12 · 32 · 32 · 128 · 4096 =  6,442,450,944
    //   8 of 32 windowed:     12 · 32 · 128 · (24 · 8192 + 8 · 4096) = 11,274,289,152
    PlanSpec s;
    s.model = find_model_preset("llama-2-7b")->model;
    s.data.tokens = 1e12;
    s.data.seq_len = 8192;
    s.cluster.gpus = 8;
    auto term = [&](std::int64_t window, std::int64_t layers) {
        s.model.sliding_window = window;
        s.model.sliding_window_layers = layers;
        const Plan p = eval(s);
        return p.flops.per_token_attention - p.flops.per_token_6n;
    };
    QCOMPARE(term(0, 0), 12884901888.0);
    QCOMPARE(term(4096, 0), 6442450944.0);
    QCOMPARE(term(4096, 32), 6442450944.0);
    QCOMPARE(term(4096, 8), 11274289152.0);
    // A window as long as the sequence changes nothing, nor a count of windowed layers without
    // a window (the form keeps it while the window is off).
    QCOMPARE(term(8192, 0), 12884901888.0);
    QCOMPARE(term(0, 8), 12884901888.0);
}

void TestFlops::flopsFormulaPicksTheCount() {
    PlanSpec s;
    s.model = find_model_preset("llama-2-7b")->model;
    s.data.tokens = 1e12;
    s.cluster.gpus = 8;
    s.training.flops_formula = FlopsFormula::six_nd;
    const Plan a = eval(s);
    QCOMPARE(a.flops.per_token, a.flops.per_token_6n);
    s.training.flops_formula = FlopsFormula::attention;
    const Plan b = eval(s);
    QCOMPARE(b.flops.per_token, b.flops.per_token_attention);
    QVERIFY(b.time.days > a.time.days);
}

void TestFlops::fullRecomputeAddsOneForward() {
    // A 'params' model has no embeddings to leave out: full recomputation adds 2N per token,
    // so hardware FLOPs are 8N·D against 6N·D model FLOPs (Narayanan et al. 2021, eq. 3's 4
    // passes instead of 3) and HFU = MFU · 8/6.
    PlanSpec s = default_plan_spec();
    s.training.recompute = Recompute::full;
    const Plan p = eval(s);
    QCOMPARE(p.flops.hardware_total, 8.0 * 70e9 * 15e12);
    QCOMPARE(p.flops.total, 6.3e24);
    QVERIFY(within(p.time.hfu, 0.5 * 8.0 / 6.0, 1e-12));
}

void TestFlops::recomputeCountedLikeModelFlops_data() {
    QTest::addColumn<int>("recompute");
    QTest::addColumn<int>("formula");
    QTest::addColumn<bool>("flash");
    QTest::addColumn<double>("perToken");
    // A GPT-style model: 4 layers, h 1024, 16 heads of 64, GELU MLP 4096, LayerNorm, vocab 1000
    // untied, T = 2048. Per layer: attention 4·1024² = 4,194,304, MLP 2·1024·4096 = 8,388,608,
    // two LayerNorms 4·1024 = 4,096: 12,587,008 x 4 = 50,348,032; + final LayerNorm 2,048 =
    // 50,350,080 non-embedding parameters (embeddings 2·1000·1024 have no recomputed matmul).
    // One forward of the layers: 2 · 50,350,080 = 100,700,160 FLOPs per token.
    // Attention core forward (PaLM appendix B's 12·L·H·Q·T over 3): 4·4·16·64·2048 = 33,554,432.
    const int six = int(FlopsFormula::six_nd);
    const int attn = int(FlopsFormula::attention);
    QTest::newRow("full, attention formula")
        << int(Recompute::full) << attn << true << 100700160.0 + 33554432.0;
    // 6·N·D has no attention-score term, so its recomputation adds none: exactly 2N' per token.
    QTest::newRow("full, 6nd") << int(Recompute::full) << six << true << 100700160.0;
    QTest::newRow("sqrt, attention formula")
        << int(Recompute::sqrt) << attn << true << 100700160.0 + 33554432.0;
    // Selective repeats only the attention core's forward (Korthikanti sec. 5) ...
    QTest::newRow("selective, attention formula")
        << int(Recompute::selective) << attn << false << 33554432.0;
    // ... which 6·N·D does not count at all,
    QTest::newRow("selective, 6nd") << int(Recompute::selective) << six << false << 0.0;
    // ... and which flash attention never stored.
    QTest::newRow("selective, flash") << int(Recompute::selective) << attn << true << 0.0;
    QTest::newRow("none") << int(Recompute::none) << attn << false << 0.0;
}

void TestFlops::recomputeCountedLikeModelFlops() {
    QFETCH(int, recompute);
    QFETCH(int, formula);
    QFETCH(bool, flash);
    QFETCH(double, perToken);
    PlanSpec s;
    s.model.layers = 4;
    s.model.hidden = 1024;
    s.model.heads = 16;
    s.model.ffn_hidden = 4096;
    s.model.ffn = FfnKind::gelu;
    s.model.norm = NormKind::layernorm;
    s.model.vocab = 1000;
    s.data.tokens = 1e9;
    s.data.seq_len = 2048;
    s.training.recompute = static_cast<Recompute>(recompute);
    s.training.flops_formula = static_cast<FlopsFormula>(formula);
    s.training.flash_attention = flash;
    const Plan p = eval(s);
    QCOMPARE(p.flops.recompute_per_token, perToken);
    QCOMPARE(p.flops.hardware_total, p.flops.total + perToken * 1e9);
}

void TestFlops::costAndGpuHours() {
    // 1e9 params, 1e11 tokens: 6e20 FLOPs; 8 H100 at MFU 0.5: 6e20 / (989.5e12·0.5·8) s =
    // 151,591.71 s = 336.87 GPU-hours; at $2.5/GPU-hour: $842.18; energy at 700 W: 235.81 kWh.
    PlanSpec s;
    s.model.kind = ModelKind::params;
    s.model.params = 1e9;
    s.data.tokens = 1e11;
    s.cluster.gpus = 8;
    s.cluster.price_per_gpu_hour = 2.5;
    const Plan p = eval(s);
    const double seconds = 6e20 / (989.5e12 * 0.5 * 8);
    QVERIFY(within(p.time.seconds, seconds, 1e-12));
    QVERIFY(within(p.time.gpu_hours, seconds * 8 / 3600, 1e-12));
    QVERIFY(p.time.has_cost);
    QVERIFY(within(p.time.cost, seconds * 8 / 3600 * 2.5, 1e-12));
    QVERIFY(p.time.has_energy);
    QVERIFY(within(p.time.energy_kwh, seconds * 8 / 3600 * 0.7, 1e-12));

    // A profile that gives no TDP (a measured or custom one may not): the energy is unknown, not
    // 0 kWh, and neither the explanation nor the JSON pretends to know it.
    HardwareProfile no_tdp = h100();
    no_tdp.tdp_w = 0.0;
    const Plan unknown = eval(s, no_tdp);
    QVERIFY(!unknown.time.has_energy);
    QVERIFY(unknown.time.has_cost);
    QVERIFY(to_json(unknown, s, no_tdp)["time"]["energy_kwh"].is_null());
    for (const Explanation& e : explain(s, no_tdp, unknown)) {
        QVERIFY2(e.key != "time.energy_kwh", e.formula.c_str());
    }

    // Without a price of its own the plan takes its profile's, as the layout search, compare and
    // the serving plan do: 336.87 GPU-hours at 1.85 a GPU-hour; the spec's price comes first.
    HardwareProfile priced = h100();
    priced.price_per_gpu_hour = 1.85;
    PlanSpec unpriced = s;
    unpriced.cluster.price_per_gpu_hour.reset();
    QVERIFY(!eval(unpriced).time.has_cost);
    const Plan on_profile = eval(unpriced, priced);
    QVERIFY(on_profile.time.has_cost);
    QVERIFY(on_profile.time.price_from_profile);
    QVERIFY(within(on_profile.time.cost, seconds * 8 / 3600 * 1.85, 1e-12));
    const Plan own = eval(s, priced);
    QVERIFY(!own.time.price_from_profile);
    QVERIFY(within(own.time.cost, seconds * 8 / 3600 * 2.5, 1e-12));
    QVERIFY(to_json(on_profile, unpriced, priced)["time"]["cost"].is_number());
    // A spec's price of 0 is no price of its own, as the window's box shows it ("the
    // profile's, if any"): the profile's 1.85, not a free GPU.
    nlohmann::json zero = to_json(s);
    zero["cluster"]["price_per_gpu_hour"] = 0;
    const PlanSpec read = plan_spec_from_json(zero);
    QVERIFY(!read.cluster.price_per_gpu_hour);
    QVERIFY(within(eval(read, priced).time.cost, seconds * 8 / 3600 * 1.85, 1e-12));
}

void TestFlops::warnings() {
    PlanSpec s = default_plan_spec();
    s.cluster.mfu = 0.95;  // above the best published H100 bf16 matmul fraction (about 0.8)
    const Plan p = eval(s);
    QVERIFY(p.has(Warning::mfu_above_measured));
    QVERIFY(p.has(Warning::no_architecture));
    s.training.recompute = Recompute::full;
    QVERIFY(eval(s).has(Warning::hfu_above_one));  // 0.95 · 8/6 > 1
    QVERIFY(!warning_messages(eval(s), s, h100()).empty());
}

void TestFlops::fewerTokensThanOneStep() {
    // The lecture's 70B plan has global batch 512 x 8192 = 4,194,304 tokens a step; 4096
    // training tokens are 4096 / 4,194,304 = 0.000977 of one, and the time shown (about 4.5 ms)
    // is that fraction of a predicted step of several seconds.
    PlanSpec s = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                "/resources/examples/llama-3-70b-15t-1024-h100.json");
    QVERIFY(!eval(s).has(Warning::less_than_one_step));
    s.data.tokens = 4096;
    const Plan p = eval(s);
    QVERIFY(p.has(Warning::less_than_one_step));
    const std::vector<std::string> messages = warning_messages(p, s, h100());
    QVERIFY(std::any_of(messages.begin(), messages.end(), [&](const std::string& m) {
        return m.find(
                   "4096 training tokens are 0.000977 of one optimizer step of 4.194e+06 "
                   "tokens (global batch 512 x sequence 8192)") != std::string::npos &&
               m.find(fmt::format("{:.3g} s", p.performance.step_s)) != std::string::npos;
    }));
    // One whole step: no warning.
    s.data.tokens = 512.0 * 8192.0;
    QVERIFY(!eval(s).has(Warning::less_than_one_step));
}

void TestFlops::assumedMfuFarAbovePredictedWarns() {
    // The DeepSeek-V3 example assumes MFU 0.3 on 2048 H800 at tp 1, pp 1, ZeRO-3: every step
    // all-gathers and reduce-scatters 671B parameters over the data-parallel group, which the
    // backward pass cannot hide, so the predicted step is mostly exposed DP traffic and its MFU
    // far below 0.3.
    const ExamplePlan* example = nullptr;
    for (const ExamplePlan& e : builtin_examples()) {
        if (e.file == "examples/deepseek-v3-h800.json") {
            example = &e;
        }
    }
    QVERIFY(example);
    PlanSpec s = example->spec;
    const Plan p = eval(s);
    const PerformanceBreakdown& f = p.performance;
    QVERIFY(f.mfu > 0.0);
    QVERIFY(0.3 > 2.0 * f.mfu);
    QVERIFY(p.has(Warning::mfu_above_predicted));
    QVERIFY(f.dp_comm_exposed_s > 0.5 * f.step_s);
    bool said = false;
    for (const std::string& w : warning_messages(p, s, h100())) {
        if (w.find("assumed MFU 0.30") != std::string::npos) {
            said = true;
            // The reason: the largest term, exposed DP traffic, is named with its share.
            QVERIFY2(w.find("exposed data-parallel communication") != std::string::npos, w.c_str());
            // 0.3 / predicted, to one decimal, as the message words it.
            const QByteArray ratio = QByteArray::number(0.3 / f.mfu, 'f', 1) + " times";
            QVERIFY2(w.find(ratio.toStdString()) != std::string::npos, w.c_str());
        }
    }
    QVERIFY(said);
    // The margin: twice the prediction. 1.9 x predicted is within it, 2.1 x is past it (the
    // layout, hence the prediction, does not depend on the assumed MFU).
    s.cluster.mfu = 1.9 * f.mfu;
    QVERIFY(!eval(s).has(Warning::mfu_above_predicted));
    s.cluster.mfu = 2.1 * f.mfu;
    QVERIFY(eval(s).has(Warning::mfu_above_predicted));
    // A predicted MFU never warns about itself.
    s.cluster.mfu_predicted = true;
    QVERIFY(!eval(s).has(Warning::mfu_above_predicted));
}

QTEST_GUILESS_MAIN(TestFlops)
#include "tst_flops.moc"
