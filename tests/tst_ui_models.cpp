// The item models behind the tables: QAbstractItemModelTester on each, and their numbers against
// the planner's for the same spec.
#include <QAbstractItemModelTester>
#include <QtTest>
#include <cmath>

#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/roofline/number_formats.h"
#include "planner/text/plan_views.h"
#include "ui/charts/conversion_table_model.h"
#include "ui/charts/figure_table_model.h"
#include "ui/charts/format_table_model.h"
#include "ui/charts/memory_table_model.h"
#include "ui/charts/roofline_table_model.h"
#include "ui/common/hardware_catalog.h"
#include "ui/common/hardware_list_model.h"

using namespace tally;
using namespace tally::ui;

class TestUiModels : public QObject {
    Q_OBJECT

private slots:
    void memoryTable();
    void timeFigures();
    void rooflineTable();
    void formatTable();
    void conversionTable();
    void hardwareList();
};

namespace {

PlanViews viewsOf(const PlanSpec& spec) {
    return compute_plan_views(spec, resolve_builtin_hardware(spec), SweepVariable::micro_batch);
}

PlanSpec llama() {
    PlanSpec s = default_plan_spec();
    s.model = find_model_preset("llama-2-70b")->model;
    s.training.tp = 8;
    s.training.pp = 4;
    s.training.zero = 1;
    s.cluster.price_per_gpu_hour = 2.5;
    return s;
}

double bytesAt(const QAbstractItemModel& m, int row) {
    return m.index(row, MemoryTableModel::GBColumn).data(MemoryTableModel::BytesRole).toDouble();
}

}  // namespace

void TestUiModels::memoryTable() {
    MemoryTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (const PlanSpec& spec : {default_plan_spec(), llama()}) {
        const PlanViews v = viewsOf(spec);
        model.setResults(v);
        const MemoryBreakdown& m = v.plan.memory;
        // The seed plan has no architecture (no pipeline buffers); Llama 2 70B at pp 4 has a
        // row for its buffers before the total.
        const int buffers = spec.training.pp > 1 ? 1 : 0;
        QCOMPARE(model.rowCount(), 8 + buffers);
        QCOMPARE(bytesAt(model, 0), m.params_bytes);
        QCOMPARE(bytesAt(model, 1), m.grads_bytes);
        QCOMPARE(bytesAt(model, 2), m.master_bytes);
        QCOMPARE(bytesAt(model, 3), m.optimizer_bytes);
        QCOMPARE(bytesAt(model, 4), m.activations_bytes);
        QCOMPARE(bytesAt(model, 5 + buffers), m.total_bytes);
        QCOMPARE(bytesAt(model, 6 + buffers), m.capacity_bytes);
        // GB and GiB columns: the same bytes / 1e9 and / 2^30.
        QCOMPARE(model.index(6 + buffers, MemoryTableModel::GBColumn).data().toString(),
                 QStringLiteral("80.00"));
        QCOMPARE(model.index(6 + buffers, MemoryTableModel::GiBColumn).data().toString(),
                 QStringLiteral("74.51"));
        // Every component row shows its formula.
        for (int row = 0; row < 6 + buffers; ++row) {
            QVERIFY(!model.index(row, 0).data(Qt::ToolTipRole).toString().isEmpty());
        }
    }
    // Llama 2 70B at tp 8, pp 4, micro-batch 1 of 4096 tokens, no sequence parallelism: the
    // buffers of an activation and a gradient received and two being sent, 4 x 4096 x 8192 x
    // 2 B = 268,435,456 bytes; the rows add up to the total.
    model.setResults(viewsOf(llama()));
    QCOMPARE(model.index(5, 0).data().toString(), QStringLiteral("Pipeline buffers"));
    QCOMPARE(bytesAt(model, 5), 4.0 * 4096 * 8192 * 2);
    double sum = 0.0;
    for (int row = 0; row < 6; ++row) {
        sum += bytesAt(model, row);
    }
    QVERIFY(std::abs(sum - bytesAt(model, 6)) <= 1e-9 * sum);
    // The same at ZeRO-3 on one stage (tp 8, dp 128): no buffers, and the layer being computed
    // and the next one gathered whole, 2 x (attention 8192 x (8192 + 2 x 1024 + 8192) + SwiGLU 3
    // x 8192 x 28672 + norms 2 x 8192) / tp 8 x 2 B = 2 x 855,654,400 / 8 x 2 = 427,827,200
    // bytes, in a row of its own.
    PlanSpec zero3 = llama();
    zero3.training.pp = 1;
    zero3.training.zero = 3;
    model.setResults(viewsOf(zero3));
    QCOMPARE(model.index(5, 0).data().toString(), QStringLiteral("ZeRO-3 gather"));
    QCOMPARE(bytesAt(model, 5),
             2.0 * (8192.0 * (8192 + 2 * 1024 + 8192) + 3.0 * 8192 * 28672 + 2.0 * 8192) / 8 * 2);
    QVERIFY(!model.index(5, 0).data(Qt::ToolTipRole).toString().isEmpty());
    sum = 0.0;
    for (int row = 0; row < 6; ++row) {
        sum += bytesAt(model, row);
    }
    QVERIFY(std::abs(sum - bytesAt(model, 6)) <= 1e-9 * sum);
    // The seed plan with ZeRO-3 on 1024 GPUs: 70e9 x 16 bytes / 1024 = 1.09375e9 bytes per GPU.
    model.setResults(viewsOf(default_plan_spec()));
    QCOMPARE(bytesAt(model, 5), 70e9 * 16 / 1024);
}

void TestUiModels::timeFigures() {
    FigureTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const PlanViews seed = viewsOf(default_plan_spec());
    model.setRows(tally::ui::timeFigures(seed));
    const int days = model.rowOf(QStringLiteral("time.days"));
    QVERIFY(days >= 0);
    // 6 x 70e9 x 15e12 / (989.5e12 x 0.5 x 1024 x 86400) = 143.9 days (seed 003).
    QCOMPARE(model.index(days, FigureTableModel::ValueColumn).data().toString(),
             QStringLiteral("143.9"));
    QCOMPARE(model.index(days, 0).data(FigureTableModel::ValueRole).toDouble(),
             seed.plan.time.days);
    QVERIFY(
        model.index(days, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("86400")));
    QCOMPARE(model.rowOf(QStringLiteral("time.cost")), -1);  // no price, no cost row
    // A spec with a price adds the cost row: the model resets to a new shape.
    const PlanViews priced = viewsOf(llama());
    model.setRows(tally::ui::timeFigures(priced));
    const int cost = model.rowOf(QStringLiteral("time.cost"));
    QVERIFY(cost >= 0);
    QCOMPARE(model.index(cost, 0).data(FigureTableModel::ValueRole).toDouble(),
             priced.plan.time.cost);
    // Every figure has a tooltip.
    for (int row = 0; row < model.rowCount(); ++row) {
        QVERIFY2(!model.index(row, 0).data(Qt::ToolTipRole).toString().isEmpty(),
                 qPrintable(model.index(row, 0).data().toString()));
    }
    // The layers of each stage: Llama 2 70B's 80 layers on pp 4, 20 each; on pp 3 under
    // Megatron-Core, 82 units (the embedding and the output one each) over 3 is 27 and 1 over,
    // the middle stage 28, the ends 26 and 26 (82 = 27 + 28 + 27 less the two).
    const int stages = model.rowOf(QStringLiteral("parallel.stage_layers"));
    QVERIFY(stages >= 0);
    QCOMPARE(model.index(stages, FigureTableModel::ValueColumn).data().toString(),
             QStringLiteral("20 / 20 x 2 / 20"));
    PlanSpec three = llama();
    three.training.pp = 3;
    three.cluster.gpus = 8 * 3 * 32;
    model.setRows(tally::ui::timeFigures(viewsOf(three)));
    QCOMPARE(model
                 .index(model.rowOf(QStringLiteral("parallel.stage_layers")),
                        FigureTableModel::ValueColumn)
                 .data()
                 .toString(),
             QStringLiteral("26 / 28 / 26"));
    // Without pipeline stages there is no such row.
    three.training.pp = 1;
    three.cluster.gpus = 8 * 32;
    model.setRows(tally::ui::timeFigures(viewsOf(three)));
    QCOMPARE(model.rowOf(QStringLiteral("parallel.stage_layers")), -1);
}

void TestUiModels::rooflineTable() {
    RooflineTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const PlanViews seed = viewsOf(default_plan_spec());
    model.setResults(seed);
    QCOMPARE(model.rowCount(), 5);  // a params-only model has no layers: the lecture's five
    // matmul 1024: 341.3 FLOP/byte, compute-bound, at the bf16 peak.
    QCOMPARE(model.index(4, RooflineTableModel::IntensityColumn)
                 .data(RooflineTableModel::ValueRole)
                 .toDouble(),
             1024.0 / 3.0);
    QCOMPARE(model.index(4, RooflineTableModel::BoundColumn).data().toString(),
             QStringLiteral("compute"));
    const PlanViews l = viewsOf(llama());
    model.setResults(l);
    QCOMPARE(model.rowCount(), static_cast<int>(l.roofline.marks.size()));
    // Whole steps come first (bold); each row's attainable FLOP/s is the planner's.
    int aggregates = 0;
    for (const RooflineMark& m : l.roofline.marks) {
        aggregates += m.aggregate ? 1 : 0;
    }
    for (int row = 0; row < model.rowCount(); ++row) {
        QCOMPARE(model.mark(row).aggregate, row < aggregates);
        QCOMPARE(model.index(row, RooflineTableModel::AttainableColumn)
                     .data(RooflineTableModel::ValueRole)
                     .toDouble(),
                 model.mark(row).point.attainable_flops_per_s);
        QVERIFY(model.index(row, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("min(peak")));
    }
}

void TestUiModels::formatTable() {
    FormatTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), static_cast<int>(kAllNumberFormats.size()));
    // bf16: 1 + 8 + 7 bits, bias 127, max (2 - 2^-7) x 2^127 = 3.3895e38 (IEEE-style layout).
    int bf16 = -1;
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, 0).data().toString() == QStringLiteral("bf16")) {
            bf16 = row;
        }
    }
    QVERIFY(bf16 >= 0);
    QCOMPARE(model.index(bf16, FormatTableModel::LayoutColumn).data().toString(),
             QStringLiteral("1 + 8 + 7"));
    QCOMPARE(
        model.index(bf16, FormatTableModel::MaxColumn).data(FormatTableModel::ValueRole).toDouble(),
        (2.0 - std::ldexp(1.0, -7)) * std::ldexp(1.0, 127));
}

void TestUiModels::conversionTable() {
    ConversionTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Seed 003: torch.tensor([1e-8], dtype=torch.float16) becomes 0 (fp16's smallest subnormal is
    // 2^-24 = 5.96e-8); bf16 keeps it (fp32's exponent range).
    model.setInput(1e-8);
    QCOMPARE(model.input(), 1e-8);
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString name = model.index(row, 0).data().toString();
        const double v = model.index(row, ConversionTableModel::ValueColumn)
                             .data(ConversionTableModel::ValueRole)
                             .toDouble();
        if (name == QStringLiteral("fp16")) {
            QCOMPARE(v, 0.0);
            QCOMPARE(model.index(row, ConversionTableModel::StatusColumn).data().toString(),
                     QStringLiteral("underflows to zero"));
        }
        if (name == QStringLiteral("bf16")) {
            QVERIFY(v > 0.0);
            QVERIFY(std::abs(v - 1e-8) / 1e-8 < std::ldexp(1.0, -8));
        }
    }
}

void TestUiModels::hardwareList() {
    HardwareCatalog catalog;
    HardwareListModel model(&catalog);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), static_cast<int>(builtin_hardware().size()));
    const int h100 = model.rowOf(QStringLiteral("h100-sxm"));
    QVERIFY(h100 >= 0);
    QCOMPARE(model.index(h100).data(HardwareListModel::IdRole).toString(),
             QStringLiteral("h100-sxm"));
    QCOMPARE(model.index(h100).data(HardwareListModel::KindRole).toString(),
             QStringLiteral("builtin"));
    // Custom and measured profiles (the workspace's) join the list and are named as such.
    HardwareProfile mine = *find_builtin_hardware("h100-sxm");
    mine.id = "my-h100";
    mine.name = "My H100";
    mine.kind = ProfileKind::measured;
    std::vector<HardwareProfile> all = builtin_hardware();
    all.push_back(mine);
    catalog.setProfiles(all);
    const int row = model.rowOf(QStringLiteral("my-h100"));
    QCOMPARE(row, static_cast<int>(all.size()) - 1);
    QCOMPARE(model.index(row).data().toString(), QStringLiteral("My H100 (measured)"));
    QVERIFY(catalog.find("my-h100") != nullptr);
}

QTEST_MAIN(TestUiModels)
#include "tst_ui_models.moc"
