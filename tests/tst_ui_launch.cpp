// Launch configurations in the window: Copy as… in the File menu and on the Layouts panel, and
// File > Import run configuration… with its preview, applied as one undoable edit.
#include <QApplication>
#include <QClipboard>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>
#include <memory>

#include "planner/io/examples.h"
#include "planner/io/launch/launch_config.h"
#include "planner/io/spec_json.h"
#include "ui/charts/layout_table_model.h"
#include "ui/charts/layouts_panel.h"
#include "ui/common/launch_copy.h"
#include "ui/plan/import_launch_dialog.h"
#include "ui/plan/plan_document.h"
#include "ui/window/main_window.h"

using namespace tally;
using namespace tally::ui;

class TestUiLaunch : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void copyPlanAsFromTheFileMenu();
    void copyServingPlanAsItsEngineCommand();
    void copyShowsWhereTheFrameworkRunsOtherwise();
    void copyRefusedNamesTheField();
    void copySelectedLayout();
    void importPreviewsThenAppliesUndoably();
    void importErrorNamesTheLine();
    void deepspeedKeepsTheCurrentModel();
    void servingCommandImportedIntoThePlan();

private:
    QString writeFile(const char* name, const std::string& text);
    LaunchConfigDialog* openDialog();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<MainWindow> m_window;
};

void TestUiLaunch::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("tally.ini")),
                                             QSettings::IniFormat);
    MainWindow::Options options;
    options.settings = m_settings.get();
    m_window = std::make_unique<MainWindow>(options);
    m_window->document()->startNew(start_plan_spec());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestUiLaunch::cleanup() {
    m_window.reset();
    m_settings.reset();
    m_dir.reset();
}

QString TestUiLaunch::writeFile(const char* name, const std::string& text) {
    const QString path = m_dir->filePath(QLatin1String(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return {};
    }
    f.write(QByteArray::fromStdString(text));
    return path;
}

LaunchConfigDialog* TestUiLaunch::openDialog() {
    const QList<LaunchConfigDialog*> dialogs = m_window->findChildren<LaunchConfigDialog*>();
    return dialogs.isEmpty() ? nullptr : dialogs.back();
}

// The start plan (Llama 3 70B, tp 8 x pp 4, ZeRO-1) as Megatron-LM arguments: the clipboard and
// the dialog hold exactly the planner's export, and Save… writes it.
void TestUiLaunch::copyPlanAsFromTheFileMenu() {
    auto* menu = m_window->findChild<QMenu*>(QStringLiteral("copyPlanAsMenu"));
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), static_cast<int>(launch_targets().size()));
    auto* megatron = menu->findChild<QAction*>(QStringLiteral("copyAs_megatron"));
    QVERIFY(megatron);
    megatron->trigger();
    LaunchConfigDialog* dialog = openDialog();
    QVERIFY(dialog);
    const QString expected = QString::fromStdString(
        export_launch_config(m_window->document()->spec(), LaunchTarget::megatron));
    QCOMPARE(dialog->text(), expected);
    QCOMPARE(QApplication::clipboard()->text(), expected);
    QVERIFY(expected.contains(QStringLiteral("--tensor-model-parallel-size 8")));
    const QString path = m_dir->filePath(QStringLiteral("run.sh"));
    QString error;
    QVERIFY2(dialog->saveTo(path, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), expected);
    // Over its own export Save… asks plainly; over a team's run file, whose learning rate and
    // data path Tally does not write, it names what would be lost.
    QVERIFY(dialog->replaceQuestion(m_dir->filePath(QStringLiteral("none.sh"))).isEmpty());
    QVERIFY(dialog->replaceQuestion(path).endsWith(QStringLiteral("Replace it?")));
    std::string team = expected.toStdString();
    team.insert(team.find("--tensor-model-parallel-size"),
                "--lr 3e-4 \\\n    --data-path /data/corpus_text_document \\\n    ");
    const QString run = writeFile("team.sh", team);
    const QString question = dialog->replaceQuestion(run);
    QVERIFY2(question.contains(QStringLiteral("2 settings Tally does not write (lr, data-path)")),
             qPrintable(question));
    // A run file the import refuses (its vocabulary left to the tokenizer) loses them all the
    // same: they are named too.
    const QString bare = writeFile(
        "bare.sh",
        "torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 4 --hidden-size 1024 \\\n"
        "    --tokenizer-type HuggingFaceTokenizer --lr 3e-4 --save /ckpt\n");
    const QString refused = dialog->replaceQuestion(bare);
    QVERIFY2(refused.contains(
                 QStringLiteral("3 settings Tally does not write (tokenizer-type, lr, save)")),
             qPrintable(refused));
    dialog->close();
}

// The Inference panel's Copy as… gives the serving plan as vLLM's command: the clipboard and the
// dialog hold exactly the planner's export of the plan (here, the shipped Llama 3 70B fp8
// serving example on 4 H100: tp 4, its 2560-token context).
void TestUiLaunch::copyServingPlanAsItsEngineCommand() {
    QString error;
    QVERIFY2(m_window->document()->open(
                 QStringLiteral(TALLY_SOURCE_DIR
                                "/resources/examples/llama-3-70b-serve-4xh100-fp8.json"),
                 &error),
             qPrintable(error));
    auto* menu = m_window->findChild<QMenu*>(QStringLiteral("copyServingAsMenu"));
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), static_cast<int>(serving_targets().size()));
    auto* vllm = menu->findChild<QAction*>(QStringLiteral("copyAs_vllm"));
    QVERIFY(vllm);
    vllm->trigger();
    LaunchConfigDialog* dialog = openDialog();
    QVERIFY(dialog);
    const QString expected = QString::fromStdString(
        export_serving_command(m_window->document()->spec(), ServingTarget::vllm));
    QCOMPARE(dialog->text(), expected);
    QCOMPARE(QApplication::clipboard()->text(), expected);
    QVERIFY(expected.contains(QStringLiteral("    --tensor-parallel-size 4 \\\n")));
    QVERIFY(expected.contains(QStringLiteral("    --max-model-len 2560 \\\n")));
    dialog->close();

    // A model of no preset (40 layers): the checkpoint is asked for, as --model gives it.
    PlanSpec edited = m_window->document()->spec();
    edited.model.layers = 40;
    m_window->document()->edit(edited, QStringLiteral("40 layers"));
    QTimer::singleShot(0, this, [] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (auto* ask = qobject_cast<QInputDialog*>(w)) {
                ask->setTextValue(QStringLiteral("/models/l3-40"));
                ask->accept();
            }
        }
    });
    vllm->trigger();
    QTRY_VERIFY(openDialog() != nullptr);
    QVERIFY2(openDialog()->text().contains(QStringLiteral("vllm serve /models/l3-40 \\\n")),
             qPrintable(openDialog()->text()));
    openDialog()->close();
}

// A plan NeMo runs otherwise (flash attention off; its recipes run Transformer Engine's fused
// attention) is copied, and the dialog says where, naming the field, as the file's header does.
// A plan NeMo runs as planned shows no such line.
void TestUiLaunch::copyShowsWhereTheFrameworkRunsOtherwise() {
    PlanSpec spec = m_window->document()->spec();
    spec.training.flash_attention = false;
    m_window->document()->edit(spec, QStringLiteral("training.flash_attention"));
    auto* menu = m_window->findChild<QMenu*>(QStringLiteral("copyPlanAsMenu"));
    QVERIFY(menu);
    auto* nemo = menu->findChild<QAction*>(QStringLiteral("copyAs_nemo"));
    QVERIFY(nemo);
    nemo->trigger();
    LaunchConfigDialog* dialog = openDialog();
    QVERIFY(dialog);
    auto* notes = dialog->findChild<QLabel*>(QStringLiteral("launchConfigNotes"));
    QVERIFY(notes);
    QVERIFY2(notes->text().contains(QStringLiteral("training.flash_attention false")),
             qPrintable(notes->text()));
    QVERIFY(
        dialog->text().contains(QStringLiteral("# note: this plan has training.flash_attention")));
    dialog->close();
    spec.training.flash_attention = true;
    m_window->document()->edit(spec, QStringLiteral("training.flash_attention"));
    nemo->trigger();
    dialog = openDialog();
    QVERIFY(dialog);
    QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("launchConfigNotes")));
    dialog->close();
}

// ZeRO-1 has no FSDP form: nothing is copied, and the message names the field.
void TestUiLaunch::copyRefusedNamesTheField() {
    QApplication::clipboard()->setText(QStringLiteral("before"));
    QString error;
    QVERIFY(!copyLaunchConfig(m_window->document()->spec(), LaunchTarget::torchtitan, &error));
    QVERIFY2(error.contains(QStringLiteral("training.zero")), qPrintable(error));
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("before"));
}

// The Layouts panel copies the plan with the selected layout, not the plan's own.
void TestUiLaunch::copySelectedLayout() {
    LayoutsPanel* layouts = m_window->layoutsPanel();
    QVERIFY(m_window->showPanel(QStringLiteral("layouts")));
    QTRY_VERIFY_WITH_TIMEOUT(!layouts->isSearching() && layouts->model()->rowCount() > 0, 60000);
    QVERIFY(!layouts->copyAsButton()->isEnabled());
    // The best listed layout Megatron-LM can run (its ZeRO stage at most 1).
    int row = 0;
    while (row < layouts->model()->rowCount() && layouts->specOfRow(row)->training.zero > 1) {
        ++row;
    }
    QVERIFY(row < layouts->model()->rowCount());
    layouts->table()->selectRow(row);
    QVERIFY(layouts->copyAsButton()->isEnabled());
    std::optional<PlanSpec> chosen = layouts->specOfRow(row);
    QVERIFY(chosen);
    // The file is named for the layout it carries, first and whole, then the plan's own name
    // (which says tp 8, pp 4, sequence parallel), so that its import does not seem to claim a
    // layout it does not have.
    const Layout chosen_layout = layout_of(*chosen);
    chosen->name =
        QStringLiteral("tp %1, pp %2, cp %3, dp %4, micro-batch %5, ZeRO-%6%7: a layout of “%8”")
            .arg(chosen_layout.tp)
            .arg(chosen_layout.pp)
            .arg(chosen_layout.context_parallel)
            .arg(chosen_layout.dp)
            .arg(chosen_layout.micro_batch)
            .arg(chosen_layout.zero)
            .arg(chosen_layout.sequence_parallel ? QStringLiteral(", sequence parallel")
                                                 : QString())
            .arg(QString::fromStdString(m_window->document()->spec().name))
            .toStdString();
    QVERIFY(chosen->name.rfind("tp ", 0) == 0);
    auto* menu = layouts->copyAsButton()->menu();
    auto* megatron = menu->findChild<QAction*>(QStringLiteral("copyAs_megatron"));
    QVERIFY(megatron);
    megatron->trigger();
    QList<LaunchConfigDialog*> dialogs = layouts->findChildren<LaunchConfigDialog*>();
    QVERIFY(!dialogs.isEmpty());
    QCOMPARE(dialogs.back()->text(),
             QString::fromStdString(export_launch_config(*chosen, LaunchTarget::megatron)));
    const QString tp = QStringLiteral("--tensor-model-parallel-size %1").arg(chosen->training.tp);
    QVERIFY(dialogs.back()->text().contains(tp));
    dialogs.back()->close();
}

// A Megatron-LM run of Llama 2 70B (the shipped example) imported over the start plan: the
// preview lists what was read, Apply puts it in as one edit, Undo takes it back.
void TestUiLaunch::importPreviewsThenAppliesUndoably() {
    const PlanSpec run = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                        "/resources/examples/llama-2-70b-2048-h100.json");
    const QString path = writeFile("llama2.sh", export_launch_config(run, LaunchTarget::megatron) +
                                                    "    --lr 0.00015 --my-own-flag 3\n");
    PlanDocument* doc = m_window->document();
    const PlanSpec before = doc->spec();
    const int steps = doc->undoStack()->count();
    ImportLaunchDialog dialog(doc, path, m_window.get());
    QVERIFY2(dialog.result(), qPrintable(dialog.errorText()));
    QVERIFY(dialog.applyButton()->isEnabled());
    // Unknown, assumed, read, ignored.
    QCOMPARE(dialog.preview()->topLevelItemCount(), 4);
    QCOMPARE(dialog.preview()->topLevelItem(0)->childCount(), 1);  // --my-own-flag
    QCOMPARE(dialog.preview()->topLevelItem(0)->child(0)->text(0), QStringLiteral("my-own-flag"));
    QVERIFY(dialog.preview()->topLevelItem(2)->childCount() > 20);
    QCOMPARE(dialog.preview()->topLevelItem(3)->childCount(), 1);  // --lr
    QCOMPARE(doc->spec(), before);                                 // nothing changes before Apply
    QVERIFY(dialog.applyImport());
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    QCOMPARE(doc->spec().training.tp, run.training.tp);
    QCOMPARE(doc->spec().training.recompute, Recompute::selective);
    QCOMPARE(doc->spec().cluster.gpus, run.cluster.gpus);
    QVERIFY(architecture_only(doc->spec().model) == architecture_only(run.model));
    QVERIFY(!doc->error());
    doc->undoStack()->undo();
    QCOMPARE(doc->spec(), before);
}

// An SGLang command is recognised from the file and read into the plan's inference block over
// the current plan (its GPU stays): tp 2, 48 requests, fp8 KV cache; Apply is one undoable edit.
void TestUiLaunch::servingCommandImportedIntoThePlan() {
    const QString path = writeFile(
        "serve.sh",
        "python -m sglang.launch_server --model-path meta-llama/Meta-Llama-3-8B --tp-size 2 "
        "--max-running-requests 48 --kv-cache-dtype fp8_e4m3 --context-length 4096 --port 30000\n");
    PlanDocument* doc = m_window->document();
    const PlanSpec before = doc->spec();
    ImportLaunchDialog dialog(doc, path, m_window.get());
    QVERIFY2(dialog.servingResult(), qPrintable(dialog.errorText()));
    QVERIFY(!dialog.result());
    QVERIFY2(dialog.errorText().contains(QStringLiteral("SGLang")), qPrintable(dialog.errorText()));
    QVERIFY(dialog.applyButton()->isEnabled());
    QCOMPARE(dialog.preview()->topLevelItemCount(), 4);
    QCOMPARE(dialog.preview()->topLevelItem(3)->childCount(), 1);  // --port
    QVERIFY(dialog.applyImport());
    const InferenceSpec& in = doc->spec().inference;
    QVERIFY(in.engine == ServingEngine::sglang);
    QCOMPARE(in.tp, std::int64_t{2});
    QCOMPARE(in.concurrency, std::int64_t{48});
    QVERIFY(in.kv_dtype == DType::fp8_e4m3);
    QCOMPARE(in.prompt_tokens + in.output_tokens, std::int64_t{4096});
    QCOMPARE(doc->spec().cluster.gpu, before.cluster.gpu);
    doc->undoStack()->undo();
    QCOMPARE(doc->spec(), before);
}

void TestUiLaunch::importErrorNamesTheLine() {
    const QString path = writeFile("bad.toml", "[parallelism]\ntensor_parallel_degree = \"8\n");
    ImportLaunchDialog dialog(m_window->document(), path, m_window.get());
    QVERIFY(!dialog.result());
    QVERIFY(!dialog.applyButton()->isEnabled());
    QVERIFY2(dialog.errorText().contains(QStringLiteral("line 2")), qPrintable(dialog.errorText()));
    QVERIFY(!dialog.applyImport());
}

// A DeepSpeed config says nothing of the model: the current plan's stays, and the preview says
// so among what it assumed.
void TestUiLaunch::deepspeedKeepsTheCurrentModel() {
    const QString path =
        writeFile("ds.json", R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 1,
            "bf16": {"enabled": true}, "zero_optimization": {"stage": 3}})");
    PlanDocument* doc = m_window->document();
    const ModelSpec model = doc->spec().model;
    ImportLaunchDialog dialog(doc, path, m_window.get());
    QVERIFY2(dialog.result(), qPrintable(dialog.errorText()));
    QVERIFY(dialog.result()->spec.model == model);
    // 64 sequences / (1 per GPU x 1 accumulation step) = 64 GPUs.
    QCOMPARE(dialog.result()->spec.cluster.gpus, std::int64_t{64});
    QCOMPARE(dialog.result()->spec.training.zero, 3);
    const QTreeWidgetItem* assumed = dialog.preview()->topLevelItem(1);
    bool said = false;
    for (int i = 0; i < assumed->childCount(); ++i) {
        said = said || assumed->child(i)->text(0).contains(QStringLiteral("kept from the current"));
    }
    QVERIFY(said);
}

QTEST_MAIN(TestUiLaunch)
#include "tst_ui_launch.moc"
