// stage_layout(): the transformer layers of each pipeline stage, even, given at the ends, or
// spread with the embedding and the output layer counted as a layer each.
#include <QtTest>

#include "planner/model/pipeline_stages.h"

using namespace tally;

class TestPipelineStages : public QObject {
    Q_OBJECT

private slots:
    void layers_data();
    void layers();
    void startsFollowTheCounts();
    void spreadText();
    void megatronBuildsEqualMiddleStages();
};

void TestPipelineStages::layers_data() {
    QTest::addColumn<qint64>("layers");
    QTest::addColumn<qint64>("pp");
    QTest::addColumn<qint64>("first_given");
    QTest::addColumn<qint64>("last_given");
    QTest::addColumn<QList<qint64>>("expected");  // layers of stage 0, 1, ..., pp - 1
    QTest::addColumn<bool>("even");
    // 32 / 4 = 8 on each stage (Narayanan et al. 2021: equal stages).
    QTest::newRow("even 32 on 4") << 32LL << 4LL << 0LL << 0LL << QList<qint64>{8, 8, 8, 8} << true;
    // Llama 3 405B on 8 stages: (126 + 2) / 8 = 16 units; the ends give one to the embedding
    // and the output layer: 15, 16 x 6, 15 (sum 15 + 96 + 15 = 126).
    QTest::newRow("126 on 8") << 126LL << 8LL << 0LL << 0LL
                              << QList<qint64>{15, 16, 16, 16, 16, 16, 16, 15} << false;
    // DeepSeek-V3's 61 layers on 4: (61 + 2) / 4 = 15 rest 3; the two middle stages take one
    // each and the first the third: 15 + 1 - 1 = 15, 16, 16, 15 - 1 = 14 (sum 61).
    QTest::newRow("61 on 4") << 61LL << 4LL << 0LL << 0LL << QList<qint64>{15, 16, 16, 14} << false;
    // Qwen3-235B's 94 layers on 8: 96 / 8 = 12: 11, 12 x 6, 11 (sum 94).
    QTest::newRow("94 on 8") << 94LL << 8LL << 0LL << 0LL
                             << QList<qint64>{11, 12, 12, 12, 12, 12, 12, 11} << false;
    // Both ends given: the middle stage takes the rest, 10 - 1 - 3 = 6.
    QTest::newRow("ends given") << 10LL << 3LL << 1LL << 3LL << QList<qint64>{1, 6, 3} << false;
    // First given: 12 - 2 = 10 over the other 3 stages, 3 each and the one left to the earliest.
    QTest::newRow("first given") << 12LL << 4LL << 2LL << 0LL << QList<qint64>{2, 4, 3, 3} << false;
    // Last given: 10 - 1 = 9 over 3 stages, 3 each.
    QTest::newRow("last given") << 10LL << 4LL << 0LL << 1LL << QList<qint64>{3, 3, 3, 1} << false;
    // Two stages, first given: the last takes the rest.
    QTest::newRow("two stages") << 61LL << 2LL << 30LL << 0LL << QList<qint64>{30, 31} << false;
    QTest::newRow("no pipeline") << 7LL << 1LL << 0LL << 0LL << QList<qint64>{7} << true;
}

void TestPipelineStages::layers() {
    QFETCH(qint64, layers);
    QFETCH(qint64, pp);
    QFETCH(qint64, first_given);
    QFETCH(qint64, last_given);
    QFETCH(QList<qint64>, expected);
    QFETCH(bool, even);
    const StageLayout s = stage_layout(layers, pp, first_given, last_given);
    qint64 sum = 0;
    qint64 fewest = expected.front();
    qint64 most = expected.front();
    for (qint64 i = 0; i < pp; ++i) {
        QCOMPARE(qint64{s.layers_of(i)}, expected[static_cast<int>(i)]);
        sum += s.layers_of(i);
        fewest = std::min(fewest, expected[static_cast<int>(i)]);
        most = std::max(most, expected[static_cast<int>(i)]);
    }
    QCOMPARE(sum, layers);
    QCOMPARE(qint64{s.fewest()}, fewest);
    QCOMPARE(qint64{s.most()}, most);
    QCOMPARE(s.even, even);
}

void TestPipelineStages::startsFollowTheCounts() {
    // 126 on 8 (above): stage i starts after the layers of stages 0..i-1: 0, 15, 31, ..., 111.
    const StageLayout s = stage_layout(126, 8, 0, 0);
    QCOMPARE(s.start_of(0), std::int64_t{0});
    QCOMPARE(s.start_of(1), std::int64_t{15});
    QCOMPARE(s.start_of(2), std::int64_t{31});
    QCOMPARE(s.start_of(7), std::int64_t{15 + 6 * 16});
    // 12 on 4 with 2 first: 2, 4, 3, 3 start at 0, 2, 6, 9.
    const StageLayout g = stage_layout(12, 4, 2, 0);
    QCOMPARE(g.start_of(1), std::int64_t{2});
    QCOMPARE(g.start_of(2), std::int64_t{6});
    QCOMPARE(g.start_of(3), std::int64_t{9});
}

// The spread as the plan table and the comparison list it, from the layouts above: runs of equal
// middle stages as "layers x count", a single stage alone.
void TestPipelineStages::spreadText() {
    QCOMPARE(stage_spread_text(stage_layout(126, 8, 0, 0)), std::string("15 / 16 x 6 / 15"));
    QCOMPARE(stage_spread_text(stage_layout(61, 4, 0, 0)), std::string("15 / 16 x 2 / 14"));
    QCOMPARE(stage_spread_text(stage_layout(12, 4, 2, 0)), std::string("2 / 4 / 3 / 3"));
    QCOMPARE(stage_spread_text(stage_layout(10, 3, 1, 3)), std::string("1 / 6 / 3"));
    QCOMPARE(stage_spread_text(stage_layout(61, 2, 30, 0)), std::string("30 / 31"));
    QCOMPARE(stage_spread_text(stage_layout(7, 1, 0, 0)), std::string("7"));
}

// Megatron-Core builds equal middle stages. 126 layers on 12 stages: the plain spread counts
// 128 units (the embedding and the output as a layer each), 10 a stage and 8 left over, so
// 9 / 11 x 8 / 10 x 2 / 9, unequal middles. With m equal middle layers the ends take
// 126 - 10 m, the first the larger, and the most loaded stage is max(m, first + 1):
//   m = 10: ends 26 -> 13 / 13, most 14;  m = 11: ends 16 -> 8 / 8, most 11;
//   m = 12: ends 6 -> 3 / 3, most 12.
// So 8 / 11 x 10 / 8. Where the plain spread already has equal middles it stands: 126 on 16
// (128 units, 8 a stage) 7 / 8 x 14 / 7; 94 on 8 (96 units, 12 a stage) 11 / 12 x 6 / 11.
// 125 on 5: 127 units, 25 a stage and 2 over, 24 / 26 x 2 / 25 / 24, unequal; m = 25: ends 50
// -> 25 / 25, most 26; m = 26: ends 47 -> 24 / 23, most 26 too, but stages 25 to 26 apart by
// 2 against 1 for m = 25 (the tie goes to the closer): 25 / 25 x 3 / 25.
void TestPipelineStages::megatronBuildsEqualMiddleStages() {
    QCOMPARE(stage_spread_text(stage_layout(126, 12, 0, 0)),
             std::string("9 / 11 x 8 / 10 x 2 / 9"));
    QCOMPARE(stage_spread_text(stage_layout(126, 12, 0, 0, true)), std::string("8 / 11 x 10 / 8"));
    QCOMPARE(stage_spread_text(stage_layout(126, 16, 0, 0, true)), std::string("7 / 8 x 14 / 7"));
    QCOMPARE(stage_spread_text(stage_layout(94, 8, 0, 0, true)), std::string("11 / 12 x 6 / 11"));
    QCOMPARE(stage_spread_text(stage_layout(125, 5, 0, 0, true)), std::string("25 / 25 x 3 / 25"));
    // The spec's engine picks it.
    PlanSpec spec;
    spec.model.kind = ModelKind::transformer;
    spec.model.layers = 126;
    spec.training.pp = 12;
    spec.training.engine = Engine::megatron;
    QCOMPARE(stage_spread_text(stage_layout(spec)), std::string("8 / 11 x 10 / 8"));
    spec.training.engine = Engine::fsdp;
    QCOMPARE(stage_spread_text(stage_layout(spec)), std::string("9 / 11 x 8 / 10 x 2 / 9"));
}

QTEST_GUILESS_MAIN(TestPipelineStages)
#include "tst_pipeline_stages.moc"
