// The plan being edited: undo/redo, bad input, files (open, save, export, autosave).
#include <sys/resource.h>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <csignal>
#include <limits>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/io/examples.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "ui/common/file_io.h"
#include "ui/common/hardware_catalog.h"
#include "ui/plan/autosave.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/spec_fields.h"

using namespace tally;
using namespace tally::ui;

class TestPlanDocument : public QObject {
    Q_OBJECT

private slots:
    void startsOnARealLayout();
    void lectureExampleIsTheSeedPlan();
    void undoRedoEveryEdit();
    void modelNameFollowsItsDimensions();
    void editsBackToTheSavedPlanAreNoChange();
    void dragMergesIntoOneStep();
    void rejectedFieldKeepsLastPlan();
    void everyInvalidFieldAtOnce();
    void unknownGpuIsAFieldError();
    void zeroParallelSizeIsAFieldError_data();
    void zeroParallelSizeIsAFieldError();
    void saveOpenRoundTrip();
    void saveRefusesRejectedPlan();
    void saveThatCannotBeWrittenKeepsTheFile();
    void openRejectsBadFiles_data();
    void openRejectsBadFiles();
    void exportsCsvAndMarkdown();
    void importsHfConfig();
    void operationsAreCheckedAndUndoable();
    void sweepVariableFollowsWhileRejected();
    void autosaveRestores();
    void profilesChangedReEvaluates();
    void anyValueInAnyFieldNeverCrashes();
    void everyChoiceReadsBack();

private:
    static QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& text);
};

namespace {

// 6 x 70e9 x 15e12 / (989.5e12 x 0.5 x 1024 x 86400) = 143.93 days (CS336 lecture 2, seed 003).
const double kSeedDays = 6.0 * 70e9 * 15e12 / (989.5e12 * 0.5 * 1024 * 86400);

// A document on the lecture's question 1 (the built-in default plan), whose figures the tests
// derive by hand; the window itself opens on start_plan_spec().
class SeedDocument : public PlanDocument {
public:
    explicit SeedDocument(const HardwareCatalog* catalog) : PlanDocument(catalog) {
        reset(default_plan_spec());
    }
};

std::string jsonOf(const PlanSpec& spec) {
    return to_json(spec).dump();
}

}  // namespace

QString TestPlanDocument::write(const QTemporaryDir& dir, const QString& name,
                                const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) {
        qFatal("cannot write the test file");
    }
    return path;
}

void TestPlanDocument::startsOnARealLayout() {
    HardwareCatalog catalog;
    PlanDocument opened(&catalog);
    QCOMPARE(jsonOf(opened.spec()), jsonOf(start_plan_spec()));
    QVERIFY(opened.spec().name.empty());  // its title follows its edits
    QVERIFY(!opened.error());
    // Every chart has something to say: stored activations, a pipeline bubble, a fit.
    const Plan& plan = opened.views()->plan;
    QCOMPARE(plan.parallel.tp, std::int64_t{8});
    QCOMPARE(plan.parallel.pp, std::int64_t{4});
    QVERIFY(plan.memory.activations_bytes > 0.0);
    QVERIFY(plan.parallel.pipeline_bubble_fraction > 0.0);
    QVERIFY(plan.memory.fits);
    QVERIFY(!opened.isModified());
}

void TestPlanDocument::lectureExampleIsTheSeedPlan() {
    // File > Examples offers the lecture's question 1: the default plan under the lecture's name.
    const ExamplePlan* seed = nullptr;
    for (const ExamplePlan& e : builtin_examples()) {
        if (e.file == "examples/seed-70b-15t-1024-h100.json") {
            seed = &e;
        }
    }
    QVERIFY(seed);
    QVERIFY(seed->lecture);
    QVERIFY(builtin_examples().front().lecture);  // the lecture's examples come first
    // Question 1 opens the menu (the lecture asks it first), question 2 next.
    QVERIFY(builtin_examples()[0].spec.name.starts_with("CS336 lecture 2, question 1"));
    QVERIFY(builtin_examples()[1].spec.name.starts_with("CS336 lecture 2, question 2"));
    PlanSpec unnamed = seed->spec;
    unnamed.name.clear();
    unnamed.description.clear();  // the example explains itself; the built-in plan does not
    QCOMPARE(jsonOf(unnamed), jsonOf(default_plan_spec()));
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    QVERIFY(!doc.error());
    QVERIFY(std::abs(doc.views()->plan.time.days - kSeedDays) < 1e-9 * kSeedDays);
    QVERIFY(std::abs(doc.views()->plan.time.days - 143.9) < 0.05);
    QVERIFY(!doc.isModified());
}

// The model keeps a preset's name only while it has that preset's dimensions: Llama 3 70B at 48
// layers is another model, and the title, a saved plan and an export must not call it Llama 3 70B.
// A value changed and typed back, or a field refused and set right, leaves the plan as it was
// saved: nothing to save, and nothing to ask about on close. Any real difference is a change.
void TestPlanDocument::editsBackToTheSavedPlanAreNoChange() {
    HardwareCatalog catalog;
    PlanDocument doc(&catalog);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plan.json"));
    QString error;
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    QVERIFY(!doc.isModified());
    QSignalSpy modified(&doc, &PlanDocument::modifiedChanged);
    const PlanSpec saved = doc.spec();
    PlanSpec spec = saved;
    spec.training.tp = 3;  // refused: 64 heads do not divide by 3
    doc.edit(spec, QStringLiteral("tp 3"));
    QVERIFY(doc.error());
    QVERIFY(doc.isModified());
    doc.edit(saved, QStringLiteral("tp back"));
    QVERIFY(!doc.error());
    QVERIFY(!doc.isModified());
    QCOMPARE(modified.count(), 2);        // modified, then not
    QVERIFY(doc.undoStack()->canUndo());  // the history is kept
    spec = saved;
    spec.data.tokens = saved.data.tokens * 2;
    doc.edit(spec, QStringLiteral("tokens"));
    QVERIFY(doc.isModified());
    // A plan restored with unsaved edits stays unsaved whatever it is edited to.
    doc.restore(saved, path, true);
    QVERIFY(doc.isModified());
    doc.edit(spec, QStringLiteral("tokens"));
    doc.edit(saved, QStringLiteral("tokens back"));
    QVERIFY(doc.isModified());
}

void TestPlanDocument::modelNameFollowsItsDimensions() {
    HardwareCatalog catalog;
    PlanDocument doc(&catalog);
    PlanSpec spec = doc.spec();
    spec.model = find_model_preset("llama-3-70b")->model;
    spec.model.name = find_model_preset("llama-3-70b")->name;
    doc.edit(spec, QStringLiteral("preset"));
    QCOMPARE(doc.spec().model.name, std::string("Llama 3 70B"));
    spec.model.layers = 48;
    doc.edit(spec, QStringLiteral("48 layers"));
    QVERIFY2(doc.spec().model.name.empty(), doc.spec().model.name.c_str());
    // Data edits leave it alone; back at 80 layers it is Llama 3 70B again.
    spec = doc.spec();
    spec.data.tokens = 1e12;
    doc.edit(spec, QStringLiteral("tokens"));
    QVERIFY(doc.spec().model.name.empty());
    spec.model.layers = 80;
    doc.edit(spec, QStringLiteral("80 layers"));
    QCOMPARE(doc.spec().model.name, std::string("Llama 3 70B"));
    // A name that is no preset's (a config.json's folder) is the user's model's: it stays.
    spec = doc.spec();
    spec.model.name = "our-70b";
    spec.model.layers = 48;
    doc.edit(spec, QStringLiteral("ours"));
    QCOMPARE(doc.spec().model.name, std::string("our-70b"));
    // One undo puts back the name with the layers.
    doc.undoStack()->undo();
    QCOMPARE(doc.spec().model.layers, std::int64_t{80});
    QCOMPARE(doc.spec().model.name, std::string("Llama 3 70B"));
}

void TestPlanDocument::undoRedoEveryEdit() {
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    QSignalSpy results(&doc, &PlanDocument::resultsChanged);
    PlanSpec twice = doc.spec();
    twice.cluster.gpus = 2048;
    doc.edit(twice, QStringLiteral("gpus"));
    // Twice the GPUs, half the days.
    QVERIFY(std::abs(doc.views()->plan.time.days - kSeedDays / 2) < 1e-9 * kSeedDays);
    PlanSpec slower = doc.spec();
    slower.cluster.mfu = 0.25;
    doc.edit(slower, QStringLiteral("mfu"));
    QVERIFY(std::abs(doc.views()->plan.time.days - kSeedDays) < 1e-9 * kSeedDays);
    QCOMPARE(doc.undoStack()->count(), 2);
    QVERIFY(doc.isModified());

    doc.undoStack()->undo();
    QCOMPARE(doc.spec().cluster.mfu, 0.5);
    QVERIFY(std::abs(doc.views()->plan.time.days - kSeedDays / 2) < 1e-9 * kSeedDays);
    doc.undoStack()->undo();
    QCOMPARE(jsonOf(doc.spec()), jsonOf(default_plan_spec()));
    QVERIFY(!doc.isModified());
    doc.undoStack()->redo();
    doc.undoStack()->redo();
    QCOMPARE(doc.spec().cluster.gpus, std::int64_t{2048});
    QCOMPARE(doc.spec().cluster.mfu, 0.25);
    QCOMPARE(results.count(), 6);  // 2 edits, 2 undos, 2 redos
}

void TestPlanDocument::dragMergesIntoOneStep() {
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    const int drag = PlanDocument::newGesture();
    for (std::int64_t gpus : {2048, 4096, 8192}) {
        PlanSpec s = doc.spec();
        s.cluster.gpus = gpus;
        doc.edit(s, QStringLiteral("gpus"), drag);
    }
    QCOMPARE(doc.undoStack()->count(), 1);
    // A second drag of the same field is a step of its own.
    PlanSpec s = doc.spec();
    s.cluster.gpus = 16;
    doc.edit(s, QStringLiteral("gpus"), PlanDocument::newGesture());
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    QCOMPARE(doc.spec().cluster.gpus, std::int64_t{8192});
    doc.undoStack()->undo();
    QCOMPARE(doc.spec().cluster.gpus, std::int64_t{1024});
}

// The default plan as a 70B-class dense transformer (80 layers, hidden 8192, 64 heads), which
// check() accepts: the starting point of the rejected-field tests.
static PlanSpec transformerOf(PlanSpec s) {
    s.model.kind = ModelKind::transformer;
    s.model.layers = 80;
    s.model.hidden = 8192;
    s.model.heads = 64;
    s.model.ffn_hidden = 28672;
    s.model.vocab = 32000;
    return s;
}

void TestPlanDocument::rejectedFieldKeepsLastPlan() {
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    PlanSpec s = transformerOf(doc.spec());
    doc.edit(s, QStringLiteral("transformer"));
    QVERIFY(!doc.error());
    const auto good = doc.views();

    QSignalSpy results(&doc, &PlanDocument::resultsChanged);
    QSignalSpy errors(&doc, &PlanDocument::errorChanged);
    QSignalSpy specs(&doc, &PlanDocument::specChanged);
    s.model.heads = 7;  // 8192 is not a multiple of 7
    doc.edit(s, QStringLiteral("heads"));
    QVERIFY(doc.error().has_value());
    QCOMPARE(doc.error()->field, std::string("model.heads"));
    QVERIFY(errorText(*doc.error()).contains(QStringLiteral("8192")));
    QCOMPARE(doc.spec().model.heads, std::int64_t{7});  // the form shows what was typed...
    QCOMPARE(doc.views(), good);                        // ...the charts the last good plan
    QCOMPARE(results.count(), 0);
    QCOMPARE(errors.count(), 1);
    QCOMPARE(specs.count(), 1);

    doc.undoStack()->undo();
    QVERIFY(!doc.error());
    QCOMPARE(errors.count(), 2);
    QCOMPARE(results.count(), 1);
}

// Three fields broken in one edit (a pasted spec, an undo across several): all three are named
// at once, not one after another as each is fixed; the last good plan stays drawn.
void TestPlanDocument::everyInvalidFieldAtOnce() {
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    PlanSpec s = transformerOf(doc.spec());
    doc.edit(s, QStringLiteral("transformer"));
    QVERIFY(!doc.error());
    const auto good = doc.views();
    s.model.layers = 0;  // must be >= 1
    s.model.heads = 7;   // 8192 is not a multiple of 7
    s.training.tp = 3;   // 1024 GPUs are not a multiple of tp 3 x pp 1
    doc.edit(s, QStringLiteral("three at once"));
    QVERIFY(doc.error().has_value());
    QStringList fields{QString::fromStdString(doc.error()->field)};
    for (const FieldError& e : doc.otherErrors()) {
        fields << QString::fromStdString(e.field);
    }
    fields.sort();
    QCOMPARE(fields, (QStringList{QStringLiteral("model.heads"), QStringLiteral("model.layers"),
                                  QStringLiteral("training.tp")}));
    QCOMPARE(doc.views(), good);
    // Fixing one leaves the other two named.
    s.model.layers = 80;
    doc.edit(s, QStringLiteral("layers"));
    QCOMPARE(1 + doc.otherErrors().size(), std::size_t{2});
    // A serving field (the Inference panel's) is named with the training form's.
    // check() reports the serving block before the data, so the search must get past it.
    s = transformerOf(default_plan_spec());
    s.inference.batch = 0;  // must be >= 1
    s.data.seq_len = 0;     // must be >= 1
    doc.edit(s, QStringLiteral("a training and a serving field"));
    QStringList both{QString::fromStdString(doc.error()->field)};
    for (const FieldError& e : doc.otherErrors()) {
        both << QString::fromStdString(e.field);
    }
    both.sort();
    QCOMPARE(both,
             (QStringList{QStringLiteral("data.seq_len"), QStringLiteral("inference.batch")}));
}

void TestPlanDocument::unknownGpuIsAFieldError() {
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    PlanSpec s = doc.spec();
    s.cluster.gpu = "no-such-gpu";
    doc.edit(s, QStringLiteral("gpu"));
    QVERIFY(doc.error());
    QCOMPARE(doc.error()->field, std::string("cluster.gpu"));
}

void TestPlanDocument::zeroParallelSizeIsAFieldError_data() {
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("pp");
    QTest::addColumn<QString>("field");
    QTest::newRow("tp 0") << 0 << 1 << QStringLiteral("training.tp");
    QTest::newRow("pp 0") << 1 << 0 << QStringLiteral("training.pp");
    QTest::newRow("tp -2") << -2 << 1 << QStringLiteral("training.tp");
}

void TestPlanDocument::zeroParallelSizeIsAFieldError() {
    // A 0 typed into tp or pp on a transformer (whose rules divide heads and layers by them) is
    // named as a field error, not a division by zero; the last good plan stays drawn.
    QFETCH(int, tp);
    QFETCH(int, pp);
    QFETCH(QString, field);
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    PlanSpec s = doc.spec();
    s.model = find_model_preset("llama-2-70b")->model;
    doc.reset(s);
    QVERIFY(!doc.error());
    const auto good = doc.views();
    s.training.tp = tp;
    s.training.pp = pp;
    doc.edit(s, QStringLiteral("parallel"));
    QVERIFY(doc.error());
    QCOMPARE(QString::fromStdString(doc.error()->field), field);
    QVERIFY(errorText(*doc.error()).contains(QString::number(tp < 1 ? tp : pp)));
    QCOMPARE(doc.views(), good);
}

void TestPlanDocument::saveOpenRoundTrip() {
    QTemporaryDir dir;
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    PlanSpec s = doc.spec();
    s.name = "round trip";
    s.description = "Why this plan: to see H200 memory.\nA second line.";
    s.cluster.gpu = "h200";
    s.cluster.gpus = 512;
    s.cluster.price_per_gpu_hour = 3.25;
    s.training.recompute = Recompute::selective;
    OpSpec op;
    op.kind = OpKind::einsum;
    op.name = "linear layer";
    op.expr = "b s h, h o -> b s o";
    op.sizes = {{"b", 8}, {"s", 1024}, {"h", 4096}, {"o", 4096}};
    s.ops.push_back(op);
    doc.edit(s, QStringLiteral("many"));
    const QString path = dir.filePath(QStringLiteral("plan.json"));
    QString error;
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.filePath(), path);

    PlanDocument other(&catalog);
    QVERIFY2(other.open(path, &error), qPrintable(error));
    QCOMPARE(jsonOf(other.spec()), jsonOf(doc.spec()));
    QCOMPARE(other.spec().description, s.description);
    QCOMPARE(other.views()->plan.time.days, doc.views()->plan.time.days);
    QCOMPARE(other.undoStack()->count(), 0);
    // The file is the CLI's spec format.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(jsonOf(plan_spec_from_text(f.readAll().toStdString())), jsonOf(doc.spec()));
}

void TestPlanDocument::saveRefusesRejectedPlan() {
    QTemporaryDir dir;
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    PlanSpec s = doc.spec();
    s.cluster.mfu = 1.5;
    doc.edit(s, QStringLiteral("mfu"));
    QVERIFY(doc.error());
    QString error;
    QVERIFY(!doc.save(dir.filePath(QStringLiteral("x.json")), &error));
    QVERIFY(error.contains(QStringLiteral("cluster.mfu")));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.json"))));
}

void TestPlanDocument::openRejectsBadFiles_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("not json") << QByteArray("{ nope") << QStringLiteral("not JSON");
    QTest::newRow("unknown key")
        << QByteArray(R"({"model": {"params": 7e9}, "data": {"tokens": 1e12}, "modle": {}})")
        << QStringLiteral("modle");
    QTest::newRow("negative gpus") << QByteArray(R"({"model": {"params": 7e9},
        "data": {"tokens": 1e12}, "cluster": {"gpus": -4}})")
                                   << QStringLiteral("cluster.gpus");
}

void TestPlanDocument::openRejectsBadFiles() {
    QFETCH(QByteArray, text);
    QFETCH(QString, mentions);
    QTemporaryDir dir;
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    const QString before = QString::fromStdString(jsonOf(doc.spec()));
    QString error;
    QVERIFY(!doc.open(write(dir, QStringLiteral("bad.json"), text), &error));
    QVERIFY2(error.contains(mentions), qPrintable(error));
    QCOMPARE(QString::fromStdString(jsonOf(doc.spec())), before);
    QVERIFY(!doc.open(dir.filePath(QStringLiteral("missing.json")), &error));
    QVERIFY(error.contains(QStringLiteral("missing.json")));
}

void TestPlanDocument::exportsCsvAndMarkdown() {
    QTemporaryDir dir;
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    QString error;
    const QString csv = dir.filePath(QStringLiteral("plan.csv"));
    const QString md = dir.filePath(QStringLiteral("plan.md"));
    QVERIFY2(doc.exportCsv(csv, &error), qPrintable(error));
    QVERIFY2(doc.exportMarkdown(md, &error), qPrintable(error));
    QFile c(csv), m(md);
    QVERIFY(c.open(QIODevice::ReadOnly) && m.open(QIODevice::ReadOnly));
    const QByteArray csvText = c.readAll();
    // A UTF-8 byte order mark (EF BB BF) first, so that a spreadsheet reads non-ASCII names as
    // UTF-8, then the header.
    QVERIFY(csvText.startsWith("\xEF\xBB\xBFsection,key,value"));
    QVERIFY(csvText.contains("plan,time.days,143.9"));
    QVERIFY(m.readAll().contains("| Time | 143.93 days |"));
    QVERIFY(!doc.exportCsv(dir.filePath(QStringLiteral("no/such/dir/plan.csv")), &error));
    QVERIFY(error.contains(QStringLiteral("plan.csv")));
    // A plan with a rejected field has no figures of its own (those shown are the last plan
    // drawn): neither report is written, and the message names the field.
    PlanSpec bad = doc.spec();
    bad.cluster.gpu = "no-such-gpu";
    doc.edit(bad, QStringLiteral("gpu"));
    QVERIFY(doc.error().has_value());
    const QString badCsv = dir.filePath(QStringLiteral("bad.csv"));
    QVERIFY(!doc.exportCsv(badCsv, &error));
    QVERIFY2(error.contains(QStringLiteral("cluster.gpu")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(badCsv));
    QVERIFY(!doc.exportMarkdown(dir.filePath(QStringLiteral("bad.md")), &error));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("bad.md"))));
}

void TestPlanDocument::importsHfConfig() {
    QTemporaryDir dir;
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    // Llama 2 7B's config.json keys (huggingface.co/meta-llama/Llama-2-7b-hf).
    const QString path = write(dir, QStringLiteral("config.json"), R"({
        "model_type": "llama", "_name_or_path": "meta-llama/Llama-2-7b-hf",
        "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
        "num_key_value_heads": 32, "intermediate_size": 11008, "vocab_size": 32000,
        "hidden_act": "silu", "tie_word_embeddings": false})");
    QString error;
    QVERIFY2(doc.importHfConfig(path, &error), qPrintable(error));
    QCOMPARE(doc.spec().model.kind, ModelKind::transformer);
    QCOMPARE(doc.spec().model.layers, std::int64_t{32});
    // Llama 2 7B: 6,738,415,616 parameters (its model card's 6.74B, counted by hand in
    // tst_params: 32 x (4 x 4096^2 + 3 x 4096 x 11008 + 2 x 4096) + 2 x 32000 x 4096 + 4096).
    QCOMPARE(doc.views()->plan.params.total, 6738415616.0);
    QCOMPARE(doc.undoStack()->count(), 1);

    const QString broken = write(dir, QStringLiteral("broken.json"),
                                 R"({"model_type": "llama", "hidden_size": 4096})");
    QVERIFY(!doc.importHfConfig(broken, &error));
    QVERIFY2(error.contains(QStringLiteral("num_hidden_layers")), qPrintable(error));
    QCOMPARE(doc.undoStack()->count(), 1);
}

void TestPlanDocument::operationsAreCheckedAndUndoable() {
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    OpSpec bad;
    bad.kind = OpKind::einsum;
    bad.expr = "a b -> c";
    bad.sizes = {{"a", 2}, {"b", 2}};
    const auto rejected = doc.addOperation(bad);
    QVERIFY(rejected.has_value());
    QVERIFY(rejected->field.rfind("ops[0]", 0) == 0);
    QVERIFY(doc.spec().ops.empty());

    OpSpec good;
    good.kind = OpKind::matvec;
    good.m = good.n = 1024;
    QVERIFY(!doc.addOperation(good));
    QCOMPARE(doc.spec().ops.size(), std::size_t{1});
    int users = 0;
    for (const RooflineMark& m : doc.views()->roofline.marks) {
        users += m.group == RooflineGroup::user ? 1 : 0;
    }
    QCOMPARE(users, 1);
    doc.removeOperation(0);
    QVERIFY(doc.spec().ops.empty());
    doc.undoStack()->undo();
    QCOMPARE(doc.spec().ops.size(), std::size_t{1});
    doc.removeOperation(5);  // out of range: nothing happens
    QCOMPARE(doc.spec().ops.size(), std::size_t{1});
}

void TestPlanDocument::sweepVariableFollowsWhileRejected() {
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    PlanSpec s = doc.spec();
    s.cluster.gpus = 0;
    doc.edit(s, QStringLiteral("gpus"));
    QVERIFY(doc.error());
    QSignalSpy results(&doc, &PlanDocument::resultsChanged);
    doc.setMemorySweepVariable(SweepVariable::seq_len);
    QCOMPARE(results.count(), 1);
    QCOMPARE(doc.views()->memory_variable, SweepVariable::seq_len);
    QCOMPARE(doc.views()->spec.cluster.gpus, std::int64_t{1024});  // still the last good plan
    QVERIFY(doc.error());
}

// A save the file system cannot take (a full disk; here a file-size limit of 64 bytes, which
// fails the same write with EFBIG) leaves the file as it was and says it was not saved: neither
// the plan file nor the autosave may end up short or empty.
void TestPlanDocument::saveThatCannotBeWrittenKeepsTheFile() {
    QTemporaryDir dir;
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    const QString path = dir.filePath(QStringLiteral("plan.json"));
    QString error;
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    QByteArray before;
    QVERIFY(readWholeFile(path, &before, nullptr));
    QVERIFY(before.size() > 64);
    const QString autosavePath = dir.filePath(QStringLiteral("autosave.json"));
    Autosave autosave(&doc, autosavePath);
    PlanSpec s = doc.spec();
    s.cluster.gpus = 2048;
    doc.edit(s, QStringLiteral("gpus"));
    QVERIFY2(autosave.flush(&error), qPrintable(error));
    QByteArray autosaved;
    QVERIFY(readWholeFile(autosavePath, &autosaved, nullptr));
    s.cluster.gpus = 4096;
    doc.edit(s, QStringLiteral("gpus"));

    rlimit old{};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = 64;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    const bool saved = doc.save(path, &error);
    QString autosave_error;
    const bool autosaved_now = autosave.flush(&autosave_error);
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &old), 0);
    std::signal(SIGXFSZ, previous_handler);

    QVERIFY(!saved);
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY(doc.isModified());
    QByteArray after;
    QVERIFY(readWholeFile(path, &after, nullptr));
    QCOMPARE(after, before);
    QVERIFY(!autosaved_now);
    QVERIFY(!autosave_error.isEmpty());
    QByteArray autosave_after;
    QVERIFY(readWholeFile(autosavePath, &autosave_after, nullptr));
    QCOMPARE(autosave_after, autosaved);
    // The file keeps its mode through a save (a plan shared read-only with a group, 0640);
    // one no one may write (0440) is not written, even by root, who could.
    const auto mode = [&] {
        return QFile::permissions(path) &
               (QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::WriteGroup |
                QFile::ReadOther | QFile::WriteOther);
    };
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    QCOMPARE(mode(), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup);
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup));
    QVERIFY(!doc.save(path, &error));
    QVERIFY2(error.contains(QStringLiteral("read-only")), qPrintable(error));
    QCOMPARE(mode(), QFile::ReadOwner | QFile::ReadGroup);
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
    // With room again, both are written.
    QVERIFY2(doc.save(path, &error), qPrintable(error));
    QVERIFY2(autosave.flush(&error), qPrintable(error));
    QCOMPARE(Autosave::restore(autosavePath)->spec.cluster.gpus, std::int64_t{4096});

    // The autosave that runs a moment after an edit says when it fails, and when it works again
    // (the window shows it until then).
    QSignalSpy failed(&autosave, &Autosave::writeFailed);
    QSignalSpy recovered(&autosave, &Autosave::writeRecovered);
    std::signal(SIGXFSZ, SIG_IGN);
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    s.cluster.gpus = 1024;
    doc.edit(s, QStringLiteral("gpus"));
    const bool said = failed.wait(5000);
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &old), 0);
    std::signal(SIGXFSZ, previous_handler);
    QVERIFY(said);
    QVERIFY(failed.first().first().toString().contains(autosavePath));
    QCOMPARE(Autosave::restore(autosavePath)->spec.cluster.gpus, std::int64_t{4096});
    s.cluster.gpus = 512;
    doc.edit(s, QStringLiteral("gpus"));
    QVERIFY(recovered.wait(5000));
    QCOMPARE(Autosave::restore(autosavePath)->spec.cluster.gpus, std::int64_t{512});
}

void TestPlanDocument::autosaveRestores() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/autosave.json"));
    QVERIFY(!Autosave::restore(path).has_value());
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    Autosave autosave(&doc, path);
    PlanSpec s = doc.spec();
    s.cluster.gpus = 4096;
    s.description = "My notes on this plan.";
    doc.edit(s, QStringLiteral("gpus"));
    // A rejected edit after it: the autosave keeps the last accepted plan.
    s.cluster.mfu = -1;
    doc.edit(s, QStringLiteral("mfu"));
    QString error;
    QVERIFY2(autosave.flush(&error), qPrintable(error));
    const auto restored = Autosave::restore(path);
    QVERIFY(restored.has_value());
    QCOMPARE(restored->spec.cluster.gpus, std::int64_t{4096});
    QCOMPARE(restored->spec.description, std::string("My notes on this plan."));
    QCOMPARE(restored->spec.cluster.mfu, 0.5);
    // Edits saved to no file: restored as unsaved, so that nothing replaces them unasked.
    QVERIFY(restored->modified);
    QVERIFY(restored->file.isEmpty());
    // Saved to a file: restored as saved, to that file.
    s.cluster.mfu = 0.5;
    doc.edit(s, QStringLiteral("mfu"));
    const QString file = dir.filePath(QStringLiteral("mine.json"));
    QVERIFY2(doc.save(file, &error), qPrintable(error));
    QVERIFY2(autosave.flush(&error), qPrintable(error));
    const auto saved = Autosave::restore(path);
    QVERIFY(saved.has_value());
    QVERIFY(!saved->modified);
    QCOMPARE(saved->file, file);
    // That file removed since: the plan is saved nowhere, so it counts as unsaved again.
    QVERIFY(QFile::remove(file));
    QVERIFY(Autosave::restore(path)->modified);
    // The file is kept by its absolute path with its digest; a relative path (which earlier
    // versions kept) names no file for sure, so the plan counts as saved nowhere.
    {
        QVERIFY2(doc.save(file, &error), qPrintable(error));
        QVERIFY2(autosave.flush(&error), qPrintable(error));
        const auto kept = Autosave::restore(path);
        QCOMPARE(kept->file, QFileInfo(file).absoluteFilePath());
        QCOMPARE(kept->file_sha256.size(), 32);
        QFile state(Autosave::statePath(path));
        QVERIFY(state.open(QIODevice::WriteOnly | QIODevice::Truncate));
        state.write(R"({"modified": false, "file": "mine.json"})");
        state.close();
        const auto relative = Autosave::restore(path);
        QVERIFY(relative->file.isEmpty());
        QVERIFY(relative->modified);
    }
    // A file that is not a plan is not restored (and is left alone).
    write(dir, QStringLiteral("sub/autosave.json"), "garbage");
    QVERIFY(!Autosave::restore(path).has_value());
    QVERIFY(QFile::exists(path));
}

void TestPlanDocument::profilesChangedReEvaluates() {
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    QSignalSpy results(&doc, &PlanDocument::resultsChanged);
    // A measured H100 at half the peak: the same plan takes twice as long.
    std::vector<HardwareProfile> profiles = builtin_hardware();
    for (HardwareProfile& p : profiles) {
        if (p.id == "h100-sxm") {
            for (double& peak : p.peak_flops_per_s) {
                peak /= 2;
            }
        }
    }
    catalog.setProfiles(profiles);
    QCOMPARE(results.count(), 1);
    QVERIFY(std::abs(doc.views()->plan.time.days - 2 * kSeedDays) < 1e-9 * kSeedDays);
}

void TestPlanDocument::anyValueInAnyFieldNeverCrashes() {
    // Every number field of the form, on a transformer plan, with values a user could type: the
    // planner either accepts the spec (and the views are drawn) or names a field; the last good
    // plan stays drawn; nothing throws.
    HardwareCatalog catalog;
    SeedDocument doc(&catalog);
    PlanSpec base = doc.spec();
    base.model = find_model_preset("llama-2-70b")->model;
    base.training.tp = 8;
    base.training.pp = 4;
    doc.reset(base);
    QVERIFY(!doc.error());
    const double values[] = {-1.0,
                             0.0,
                             0.5,
                             1.0,
                             3.0,
                             7.0,
                             1e6,
                             1e15,
                             9.1e15,
                             1e300,
                             -1e300,
                             std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()};
    int accepted = 0, rejected = 0;
    for (const SectionFields& section : specFields()) {
        for (const FieldDescriptor& descriptor : section.fields) {
            const auto* field = std::get_if<NumberField>(&descriptor);
            if (!field) {
                continue;
            }
            for (double v : values) {
                PlanSpec s = base;
                field->set(s, v);
                doc.edit(s, QStringLiteral("fuzz"));
                QVERIFY(doc.views() != nullptr);
                if (doc.error()) {
                    ++rejected;
                } else {
                    ++accepted;
                    QVERIFY(doc.views()->plan.time.days >= 0.0);
                }
            }
        }
    }
    QVERIFY(accepted > 0);
    QVERIFY(rejected > 0);
}

void TestPlanDocument::everyChoiceReadsBack() {
    // Every choice the form offers is one the spec reader accepts: set it, write the spec, read
    // it back, and the field holds the same choice. (A master-weights choice the reader refuses,
    // such as bf16, would throw SpecError here.)
    PlanSpec base = default_plan_spec();
    base.model = find_model_preset("llama-2-7b")->model;
    std::vector<const FieldDescriptor*> fields;
    for (const SectionFields& section : specFields()) {
        for (const FieldDescriptor& descriptor : section.fields) {
            fields.push_back(&descriptor);
        }
    }
    for (const FieldDescriptor& descriptor : inferenceFields()) {
        fields.push_back(&descriptor);
    }
    int checked = 0;
    for (const FieldDescriptor* descriptor : fields) {
        const auto* field = std::get_if<ChoiceField>(descriptor);
        if (!field) {
            continue;
        }
        QVERIFY2(!field->choices.empty(), field->path);
        for (const Choice& choice : field->choices) {
            PlanSpec s = base;
            field->set(s, choice.value);
            QCOMPARE(field->get(s), choice.value);
            PlanSpec back;
            try {
                back = plan_spec_from_json(to_json(s));
            } catch (const SpecError& e) {
                QFAIL(qPrintable(QStringLiteral("%1 = %2: %3")
                                     .arg(QString::fromUtf8(field->path),
                                          QString::fromUtf8(choice.label),
                                          QString::fromStdString(e.what()))));
            }
            QVERIFY2(field->get(back) == choice.value, field->path);
            ++checked;
        }
    }
    // 3 architectures + 3 FFN + 2 norms + 3 biases + 2 master weights + 9 optimizers + 4
    // recompute + 4 ZeRO stages + 3 offloads + 2 FLOPs formulas = 35, plus 5 dtype fields x 12
    // dtypes (fp64, fp32, tf32, bf16, fp16, fp8_e4m3, fp8_e5m2, int8, fp4_e2m1, nvfp4, mxfp4,
    // int4) = 60; the serving block's weight dtypes (bf16, fp16, fp8_e4m3, int8, int4, nvfp4,
    // mxfp4) = 7 and KV cache dtypes (bf16, fp16, fp8_e4m3, fp8_e5m2, fp32) = 5; 4 engines
    // (megatron, fsdp, fsdp_compile, deepspeed) + 4 FP8 recipes (delayed, current, block, mxfp8) +
    // 6 attention kernels (engine, flash2, flash3, cudnn, triton, flash1) + 2 token dispatchers
    // (alltoall, flex) + 2 FSDP backward prefetches (pre, post) + 3 optimizer implementations
    // (engine, fused, foreach) + 2 cross-entropies (fp32, in_place) = 23; 4 serving engines
    // (vllm, tensorrt_llm, sglang, gpt_fast); data-parallel attention and chunked prefill, each on
    // and off = 4.
    QCOMPARE(checked, 35 + 60 + 7 + 5 + 23 + 4 + 4);
}

QTEST_MAIN(TestPlanDocument)
#include "tst_ui_plan_document.moc"
