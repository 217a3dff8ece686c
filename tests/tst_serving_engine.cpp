// Serving engine presets and the all-reduce of serving (planner/serving/serving_engine.h). Every
// expectation is worked out by hand in the comment beside it.
#include <QtTest>

#include "planner/core/enum_names.h"
#include "planner/serving/serving_engine.h"

using namespace tally;

class TestServingEngine : public QObject {
    Q_OBJECT

private slots:
    void ringAllReduce();
    void customAllReduceMeasured();
    void customFallsBackToNcclForLargeMessages();
    void presetsAreDocumented();
};

void TestServingEngine::ringAllReduce() {
    // 1 MB over 4 GPUs at 100 GB/s: 2 x 3/4 x 1e6 / 1e11 = 15 us of bandwidth; 2 x 3 = 6 ring
    // steps at 0.6 us plus NCCL's 6.6 us base = 10.2 us of latency.
    const ServingCollective c = serving_ring_all_reduce(1e6, 4, 1e11, kServingNvlinkStepLatencyS);
    QVERIFY(qAbs(c.bandwidth_s - 15e-6) < 1e-18);
    QVERIFY(qAbs(c.latency_s - 10.2e-6) < 1e-18);
    QVERIFY(qAbs(c.seconds - 25.2e-6) < 1e-18);
    QCOMPARE(serving_ring_all_reduce(1e6, 1, 1e11, kServingNvlinkStepLatencyS).seconds, 0.0);
}

void TestServingEngine::customAllReduceMeasured() {
    // 512 B over 4 A100 (300 GB/s a direction): the measured 11.9 us plus 2 x 3/4 x 512 B at
    // 0.16 x 300 GB/s = 48 GB/s: 768 / 48e9 = 16 ns. Over 8 GPUs: 13.7 us plus 2 x 7/8 x 512 /
    // 48e9 = 18.67 ns.
    const ServingCollective four =
        serving_all_reduce(AllReduceKind::custom, 512.0, 4, 300e9, kServingNvlinkStepLatencyS);
    QVERIFY(qAbs(four.latency_s - 11.9e-6) < 1e-18);
    QVERIFY(qAbs(four.bandwidth_s - 16e-9) < 1e-18);
    const ServingCollective eight =
        serving_all_reduce(AllReduceKind::custom, 512.0, 8, 300e9, kServingNvlinkStepLatencyS);
    QVERIFY(qAbs(eight.seconds - (13.7e-6 + 1.75 * 512.0 / 48e9)) < 1e-18);
    // The source's own large message: 1 MiB over 4 GPUs measured 45.5 us; the model gives
    // 11.9 + 1.5 x 1,048,576 / 48e9 us = 11.9 + 32.77 = 44.7 us (within 2%: the share of the
    // link was read off these points).
    const ServingCollective mib =
        serving_all_reduce(AllReduceKind::custom, 1048576.0, 4, 300e9, kServingNvlinkStepLatencyS);
    QVERIFY(qAbs(mib.seconds - 45.5e-6) / 45.5e-6 < 0.02);
}

void TestServingEngine::customFallsBackToNcclForLargeMessages() {
    // 16 MiB is above vLLM's 8 MiB limit: NCCL's ring, 6.6 + 6 x 0.6 = 10.2 us plus
    // 1.5 x 16,777,216 / 300e9 = 83.886 us.
    const double bytes = 16.0 * 1048576.0;
    const ServingCollective c =
        serving_all_reduce(AllReduceKind::custom, bytes, 4, 300e9, kServingNvlinkStepLatencyS);
    QVERIFY(qAbs(c.seconds - (10.2e-6 + 1.5 * bytes / 300e9)) < 1e-15);
    // One rank: nothing to reduce.
    QCOMPARE(serving_all_reduce(AllReduceKind::custom, 512.0, 1, 300e9, 0.6e-6).seconds, 0.0);
}

void TestServingEngine::presetsAreDocumented() {
    // Every engine name of the spec has a preset with a source, and vLLM is the default.
    QCOMPARE(InferenceSpec{}.engine, ServingEngine::vllm);
    for (const auto& row : kServingEngineNames) {
        const ServingEngineProfile& p = serving_engine_profile(row.value);
        QCOMPARE(p.engine, row.value);
        QVERIFY(!p.source.empty());
        QVERIFY(!p.attention_kernel.empty());
        QVERIFY(p.small_kernels_per_layer > 0.0);
    }
    // TensorRT-LLM's C++ runtime launches without CUDA graphs; gpt-fast always replays one.
    QCOMPARE(serving_engine_profile(ServingEngine::tensorrt_llm).cuda_graph_max_batch,
             std::int64_t{0});
    QVERIFY(serving_engine_profile(ServingEngine::gpt_fast).cuda_graph_max_batch > 1000000);
    QCOMPARE(serving_engine_profile(ServingEngine::gpt_fast).all_reduce, AllReduceKind::nccl);
    QCOMPARE(enum_from_json_name<ServingEngine>("sglang"),
             std::optional<ServingEngine>(ServingEngine::sglang));
}

QTEST_GUILESS_MAIN(TestServingEngine)
#include "tst_serving_engine.moc"
