// The window in Simplified Chinese: started in zh_CN every panel, menu and dialog shows the
// catalogue's Chinese (no English source text left on screen), the planner's warnings and
// bad-input errors come through translated, a plan named in Chinese survives saving, reloading
// and every export, and switching the language live keeps the plan, its undo history and the
// panels' choices.
#include <QAbstractBarSeries>
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSet>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QXmlStreamReader>
#include <QtTest>
#include <memory>

#include "planner/hardware/hardware.h"
#include "planner/io/examples.h"
#include "planner/io/spec_json.h"
#include "planner/text/plan_views.h"
#include "planner/text/report.h"
#include "tests/chart_test_util.h"
#include "ui/charts/figure_text.h"
#include "ui/charts/inference_panel.h"
#include "ui/charts/layouts_panel.h"
#include "ui/charts/memory_panel.h"
#include "ui/charts/time_panel.h"
#include "ui/i18n/translate_text.h"
#include "ui/i18n/translations.h"
#include "ui/plan/example_text.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/spec_form.h"
#include "ui/plan/summary_bar.h"
#include "ui/probe/probe_panel.h"
#include "ui/session/workspace_session.h"
#include "ui/window/app_settings.h"
#include "ui/window/language_menu.h"
#include "ui/window/main_window.h"
#include "ui/workspace/calibration_dialog.h"
#include "ui/workspace/install_workspace_panels.h"
#include "ui/workspace/profile_editor_dialog.h"
#include "ui/workspace/workspace_open_dialog.h"

using namespace tally;
using namespace tally::ui;

namespace {

// A text as a user reads it: without the mnemonic ampersand, the trailing ellipsis or colon.
QString normalized(QString text) {
    text.remove(QRegularExpression(QStringLiteral("&(?=[^&\\s])")));
    text = text.trimmed();
    while (text.endsWith(u'…') || text.endsWith(u':') || text.endsWith(u'：')) {
        text.chop(1);
        text = text.trimmed();
    }
    return text;
}

// Every English source text of the shipped catalogue whose Chinese differs from it, read from
// the .ts in the source tree (not through the .qm the window loads). Texts of one or two
// characters ("#", "%", "W") are left out: they are units and symbols in either language.
QSet<QString> englishSources() {
    QFile file(QStringLiteral(TALLY_SOURCE_DIR "/resources/translations/tally_zh_CN.ts"));
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("cannot read the catalogue %s", qPrintable(file.fileName()));
    }
    QSet<QString> out;
    QXmlStreamReader xml(&file);
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) {
            continue;
        }
        if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            const QString translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            // Templates with arguments never reach the screen as written; a placeholder-free
            // source is what a forgotten tr() would show.
            if (translation != source && !source.contains(u'%') && normalized(source).size() > 2) {
                out.insert(normalized(source));
            }
        }
    }
    return out;
}

// The allow-list: what stays as written in every language (formulas, units, identifiers,
// dtype and engine names, citations), for the sentence check below.
bool allowed(const QString& line) {
    static const QStringList starts = {
        QStringLiteral("Source"), QStringLiteral("来源"),   QStringLiteral("="),
        QStringLiteral("docs/"),  QStringLiteral("tally "),
    };
    for (const QString& s : starts) {
        if (line.startsWith(s)) {
            return true;
        }
    }
    return line.contains(QStringLiteral("et al.")) || line.contains(u'·') ||
           line.contains(QStringLiteral(" x ")) || line.contains(QStringLiteral(" / "));
}

struct Seen {
    QString where;
    QString text;
};

void addText(QList<Seen>& out, const QString& where, const QString& text) {
    if (!text.trimmed().isEmpty()) {
        out.append({where, text});
    }
}

// What a user of the window reads: texts, titles, tooltips and placeholders of the widgets
// shown, combo box items, tab texts, table headers and cells, chart titles, axes and legends,
// and every menu action.
QList<Seen> visibleTexts(QWidget* window) {
    QList<Seen> out;
    const QList<QWidget*> widgets = window->findChildren<QWidget*>();
    for (QWidget* w : widgets) {
        if (!w->isVisibleTo(window)) {
            continue;
        }
        const QString where =
            QString::fromLatin1(w->metaObject()->className()) + u' ' + w->objectName();
        addText(out, where + QStringLiteral(" tooltip"), w->toolTip());
        if (auto* label = qobject_cast<QLabel*>(w)) {
            addText(out, where, label->text());
        } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
            addText(out, where, button->text());
        } else if (auto* group = qobject_cast<QGroupBox*>(w)) {
            addText(out, where, group->title());
        } else if (auto* line = qobject_cast<QLineEdit*>(w)) {
            addText(out, where + QStringLiteral(" placeholder"), line->placeholderText());
        } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
            for (int i = 0; i < combo->count(); ++i) {
                addText(out, where + QStringLiteral(" item"), combo->itemText(i));
            }
        } else if (auto* tabs = qobject_cast<QTabBar*>(w)) {
            for (int i = 0; i < tabs->count(); ++i) {
                addText(out, where + QStringLiteral(" tab"), tabs->tabText(i));
            }
        } else if (auto* chartView = qobject_cast<QChartView*>(w)) {
            QChart* chart = chartView->chart();
            addText(out, where + QStringLiteral(" chart title"), chart->title());
            for (QAbstractAxis* axis : chart->axes()) {
                addText(out, where + QStringLiteral(" axis"), axis->titleText());
            }
            for (QAbstractSeries* series : chart->series()) {
                addText(out, where + QStringLiteral(" series"), series->name());
                if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
                    for (QBarSet* set : bars->barSets()) {
                        addText(out, where + QStringLiteral(" bar set"), set->label());
                    }
                }
            }
            for (QAbstractAxis* axis : chart->axes()) {
                if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) {
                    for (const QString& category : categories->categories()) {
                        addText(out, where + QStringLiteral(" category"), category);
                    }
                }
            }
        }
        if (auto* view = qobject_cast<QAbstractItemView*>(w)) {
            QAbstractItemModel* model = view->model();
            if (model == nullptr) {
                continue;
            }
            for (int c = 0; c < model->columnCount(); ++c) {
                addText(out, where + QStringLiteral(" header"),
                        model->headerData(c, Qt::Horizontal).toString());
                addText(out, where + QStringLiteral(" header tooltip"),
                        model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
            }
            for (int r = 0; r < std::min(model->rowCount(), 40); ++r) {
                for (int c = 0; c < model->columnCount(); ++c) {
                    const QModelIndex index = model->index(r, c);
                    addText(out, where + QStringLiteral(" cell"), index.data().toString());
                    addText(out, where + QStringLiteral(" cell tooltip"),
                            index.data(Qt::ToolTipRole).toString());
                }
            }
        }
    }
    return out;
}

void addMenuTexts(QList<Seen>& out, QMenu* menu, const QString& path) {
    for (QAction* action : menu->actions()) {
        const QString where = path + u'>' + action->text();
        addText(out, where, action->text());
        if (action->toolTip() != action->text() &&
            normalized(action->toolTip()) != normalized(action->text())) {
            addText(out, where + QStringLiteral(" tooltip"), action->toolTip());
        }
        addText(out, where + QStringLiteral(" status tip"), action->statusTip());
        if (action->menu() != nullptr) {
            addMenuTexts(out, action->menu(), where);
        }
    }
}

QList<Seen> menuTexts(QMainWindow* window) {
    QList<Seen> out;
    for (QAction* action : window->menuBar()->actions()) {
        addText(out, QStringLiteral("menu bar"), action->text());
        if (action->menu() != nullptr) {
            addMenuTexts(out, action->menu(), action->text());
        }
    }
    return out;
}

// The texts still in English: the catalogue's source texts (whole, or one line of a
// multi-line text), and sentences of five or more English words not on the allow-list.
QStringList englishLeft(const QList<Seen>& texts) {
    static const QSet<QString> sources = englishSources();
    static const QRegularExpression sentence(
        QStringLiteral("\\b[A-Za-z]{2,}(?:,? [A-Za-z]{2,}){4,}\\b"));
    QStringList out;
    for (const Seen& seen : texts) {
        QString plain = seen.text;
        plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));  // rich text's tags
        QStringList parts = plain.split(u'\n');
        parts.prepend(plain);
        for (const QString& part : std::as_const(parts)) {
            const QString text = normalized(part);
            if (sources.contains(text)) {
                out.append(seen.where + QStringLiteral(": ") + text);
                break;
            }
            if (part != plain && !allowed(text) && sentence.match(text).hasMatch()) {
                out.append(seen.where + QStringLiteral(": ") + text);
                break;
            }
        }
    }
    out.removeDuplicates();
    return out;
}

// The lines with the numbers of the tooltips ("= 8 micro-batches of 0.5 s on the slowest stage"):
// the allow-list above passes every line that starts with "=", so these are checked on their
// own. Numbers, units, dtype names and identifiers stay ("ZeRO-1", "bf16", "FLOP/s",
// "all-reduce"); two plain English words in a row are a sentence left untranslated.
QStringList englishInNumbers(const QList<Seen>& texts) {
    static const QRegularExpression words(
        QStringLiteral("(?<![\\w/-])[A-Za-z]{2,}(?![\\w/-])(?:,? [A-Za-z]{2,}(?![\\w/-]))+"));
    QStringList out;
    for (const Seen& seen : texts) {
        for (const QString& line : seen.text.split(u'\n')) {
            if (!line.startsWith(QStringLiteral("= "))) {
                continue;
            }
            const QRegularExpressionMatch m = words.match(line);
            if (m.hasMatch()) {
                out.append(seen.where + QStringLiteral(": ") + line + QStringLiteral("  [") +
                           m.captured() + u']');
            }
        }
    }
    out.removeDuplicates();
    return out;
}

}  // namespace

class TestUiTranslation : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void catalogueLoads();
    void englishCountsInTheSingular();
    void everyPanelInChinese();
    void dialogsInChinese();
    void calibrationRefusalInChinese();
    void warningAndErrorFollowTheLanguage_data();
    void warningAndErrorFollowTheLanguage();
    void chinesePlanNameSurvivesSaveAndExport();
    void liveSwitchKeepsPlanUndoAndPanels();
    void refusalsAndHelpFollowASwitch();
    void formFitsItsLabelsAfterASwitch();
    void startLanguage();
    void examplesTranslated();
    void exampleNameFollowsALanguageSwitch();
    void figuresWithTheirNumbersInChinese();
    void stepLegendWholeInChinese();
    void servingPanelInChinese();
    void numbersInTheLocale();
    void textsWithAPathOrNumberFollowASwitch();

private:
    MainWindow* makeWindow(const QString& language);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<Translations> m_translations;
    std::unique_ptr<WorkspaceSession> m_session;
    std::unique_ptr<MainWindow> m_window;
};

void TestUiTranslation::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings =
        std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("t.ini")), QSettings::IniFormat);
    m_translations = std::make_unique<Translations>();
    m_session = std::make_unique<WorkspaceSession>();
}

void TestUiTranslation::cleanup() {
    m_window.reset();
    m_session.reset();
    m_translations.reset();  // removes the catalogues: the next test starts in English
    m_settings.reset();
    m_dir.reset();
    QLocale::setDefault(QLocale::c());  // the tests' own locale (tests/CMakeLists.txt)
}

// The window as gui_main builds it: the language first, then the window, its workspace and
// probe panels and View > Language, on a fresh workspace file.
MainWindow* TestUiTranslation::makeWindow(const QString& language) {
    applyNumberLocale(language);
    m_translations->load(language);
    MainWindow::Options options;
    options.settings = m_settings.get();
    options.restoreLayout = false;
    m_window = std::make_unique<MainWindow>(options);
    installWorkspacePanels(m_window.get(), m_session.get());
    installProbePanel(m_window.get(), m_session.get());
    installLanguageMenu(m_window.get(), m_translations.get());
    QString error;
    if (!m_session->open(m_dir->filePath(QStringLiteral("workspace.sqlite")), &error)) {
        qFatal("workspace: %s", qPrintable(error));
    }
    m_window->resize(1400, 900);
    m_window->show();
    QCoreApplication::processEvents();
    return m_window.get();
}

void TestUiTranslation::catalogueLoads() {
    Translations t;
    QVERIFY(t.load(QStringLiteral("zh_CN")));
    QCOMPARE(t.language(), QStringLiteral("zh_CN"));
    // Looked up by hand in resources/translations/tally_zh_CN.ts.
    QCOMPARE(t.translate("tally::ui::MainWindow", "&File"), QStringLiteral("文件(&F)"));
    QCOMPARE(t.translate("tally::explain", "Gradient accumulation"), QStringLiteral("梯度累积"));
    QCOMPARE(t.translate("tally::ui", "Recompute"), QStringLiteral("重计算（激活检查点）"));
    QVERIFY(!t.load(QStringLiteral("fr")));
    QCOMPARE(t.language(), QStringLiteral("en"));
    QCOMPARE(t.translate("tally::ui::MainWindow", "&File"), QStringLiteral("&File"));
}

// English is the source texts, but a text that counts ("%n result(s)") takes its plural forms
// from resources/translations/tally_en.ts: "1 result", "0 results" and "2 results" (English's
// two forms, one for exactly 1); untouched texts stay the source.
void TestUiTranslation::englishCountsInTheSingular() {
    Translations t;
    QVERIFY(t.load(QStringLiteral("en")));
    QCOMPARE(t.language(), QStringLiteral("en"));
    QCOMPARE(QCoreApplication::translate("tally::ui::ProbePanel", "%n result(s)", nullptr, 1),
             QStringLiteral("1 result"));
    QCOMPARE(QCoreApplication::translate("tally::ui::ProbePanel", "%n result(s)", nullptr, 2),
             QStringLiteral("2 results"));
    QCOMPARE(QCoreApplication::translate("tally::ui::ProbePanel", "%n result(s)", nullptr, 0),
             QStringLiteral("0 results"));
    QCOMPARE(
        QCoreApplication::translate(
            "tally::ui::ProbePanel",
            "Delete probe run %1 and its %n result(s) from the workspace? This cannot be "
            "undone.",
            nullptr, 1),
        QStringLiteral(
            "Delete probe run %1 and its 1 result from the workspace? This cannot be undone."));
    QCOMPARE(QCoreApplication::translate("tally::ui::MainWindow", "&File"),
             QStringLiteral("&File"));
    // Chinese has one form; back in English the plural forms return.
    QVERIFY(t.load(QStringLiteral("zh_CN")));
    QCOMPARE(QCoreApplication::translate("tally::ui::ProbePanel", "%n result(s)", nullptr, 1),
             QStringLiteral("1 个结果"));
    QVERIFY(t.load(QStringLiteral("en")));
    QCOMPARE(QCoreApplication::translate("tally::ui::ProbePanel", "%n result(s)", nullptr, 1),
             QStringLiteral("1 result"));
}

void TestUiTranslation::everyPanelInChinese() {
    MainWindow* window = makeWindow(QStringLiteral("zh_CN"));
    QCOMPARE(window->menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
    QStringList left = englishLeft(menuTexts(window));
    const QStringList panels = window->panelIds();
    QVERIFY(panels.size() >= 10);
    for (const QString& id : panels) {
        QVERIFY(window->showPanel(id));
        QCoreApplication::processEvents();
        for (const QString& text : englishLeft(visibleTexts(window))) {
            left.append(id + QStringLiteral(": ") + text);
        }
    }
    left.removeDuplicates();
    if (!left.isEmpty()) {
        qWarning().noquote() << "English left in the zh_CN window:\n  " +
                                    left.join(QStringLiteral("\n  "));
    }
    QCOMPARE(left.size(), 0);
}

void TestUiTranslation::dialogsInChinese() {
    makeWindow(QStringLiteral("zh_CN"));
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    ProfileEditorDialog editor(m_session.get(), h100, ProfileEditorDialog::Mode::add);
    editor.show();
    QCoreApplication::processEvents();
    QStringList left = englishLeft(visibleTexts(&editor));
    WorkspaceOpenDialog refused(QStringLiteral("测试"), true);
    refused.show();
    QCoreApplication::processEvents();
    left += englishLeft(visibleTexts(&refused));
    QCOMPARE(refused.continueButton()->text(), QStringLiteral("保留当前工作区"));
    if (!left.isEmpty()) {
        qWarning().noquote() << left.join(u'\n');
    }
    QCOMPARE(left.size(), 0);
}

// The calibration dialog's refusal of a measured step comes from the planner
// (validate_measured_step(), planner/performance/calibration.cpp): "%1: got %2; %3" with the
// field, -2 and "a measured step time in seconds, > 0 (at least 1e-9) and at most 1e9", whose
// catalogue entries are "%1：给出的是 %2；%3" and "一个实测的单步时间，单位为秒，> 0（至少
// 1e-9）且最多 1e9".
void TestUiTranslation::calibrationRefusalInChinese() {
    makeWindow(QStringLiteral("zh_CN"));
    PlanSpec spec = m_window->document()->spec();
    spec.cluster.gpu = "h100-sxm";
    CalibrationDialog dialog(spec, *find_builtin_hardware("h100-sxm"), {});
    dialog.stepEdit()->setFocus();
    dialog.stepEdit()->selectAll();
    QTest::keyClicks(dialog.stepEdit(), QStringLiteral("-2"));
    const QString text = dialog.preview()->text();
    QVERIFY2(text.contains(QStringLiteral(
                 "给出的是 -2；一个实测的单步时间，单位为秒，> 0（至少 1e-9）且最多 1e9")),
             qPrintable(text));
    // The new profile's suggested name, in the window's language: the catalog's name with
    // "(calibrated)" as the catalogue translates it ("%1（已校准）").
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("H100 SXM5 80GB（已校准）"));
}

void TestUiTranslation::warningAndErrorFollowTheLanguage_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("warning");  // part of the does-not-fit warning
    QTest::addColumn<QString>("error");    // part of the bad-input message
    // The templates of planner/training/check.cpp and their entries in the catalogue.
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN") << QStringLiteral("放不下：每 GPU 需要")
                           << QStringLiteral("model.layers：给出的是 -5；必须是");
    QTest::newRow("en") << QStringLiteral("en") << QStringLiteral("does not fit:")
                        << QStringLiteral("model.layers: got -5; must be");
}

void TestUiTranslation::warningAndErrorFollowTheLanguage() {
    QFETCH(QString, language);
    QFETCH(QString, warning);
    QFETCH(QString, error);
    MainWindow* window = makeWindow(language);
    PlanDocument* doc = window->document();
    // Llama 3 70B with AdamW on 8 GPUs, no sharding: 70e9 x 16 bytes / 8 = 140 GB of model
    // state per GPU against an H100's 80 GB, so the plan does not fit.
    PlanSpec spec = doc->spec();
    spec.cluster.gpus = 8;
    spec.training.tp = 8;
    spec.training.pp = 1;
    spec.training.zero = 0;
    spec.training.interleave = 1;
    spec.training.first_stage_layers = 0;
    spec.training.last_stage_layers = 0;
    spec.data.global_batch = 0;
    doc->edit(spec, QStringLiteral("8 GPUs"));
    QVERIFY(!doc->error());
    auto* warnings = window->findChild<QLineEdit*>(QStringLiteral("warnings"));
    QVERIFY(warnings);
    QVERIFY2(warnings->toolTip().contains(warning), qPrintable(warnings->toolTip()));

    spec.model.layers = -5;
    doc->edit(spec, QStringLiteral("layers"));
    QVERIFY(doc->error());
    QVERIFY2(errorText(*doc->error()).contains(error), qPrintable(errorText(*doc->error())));
    QCoreApplication::processEvents();
    QVERIFY2(window->statusBar()->currentMessage().contains(error),
             qPrintable(window->statusBar()->currentMessage()));
}

void TestUiTranslation::chinesePlanNameSurvivesSaveAndExport() {
    MainWindow* window = makeWindow(QStringLiteral("zh_CN"));
    PlanDocument* doc = window->document();
    const QString name = QStringLiteral("七百亿参数 · 一千零二十四张 H100");
    const QString description = QStringLiteral("讲座问题一：6·N·D 与 MFU 0.5");
    PlanSpec spec = doc->spec();
    spec.name = name.toStdString();
    spec.description = description.toStdString();
    doc->edit(spec, QStringLiteral("name"));
    QVERIFY(!doc->error());
    QVERIFY(window->windowTitle().startsWith(name));

    const QString json = m_dir->filePath(QStringLiteral("计划.json"));
    QString error;
    QVERIFY2(window->saveFile(json, &error), qPrintable(error));
    PlanSpec other = spec;
    other.name = QStringLiteral("另一个计划").toStdString();
    doc->edit(other, QStringLiteral("rename"));
    QVERIFY2(window->openFile(json, &error), qPrintable(error));
    QCOMPARE(QString::fromStdString(doc->spec().name), name);
    QCOMPARE(QString::fromStdString(doc->spec().description), description);

    const QString csv = m_dir->filePath(QStringLiteral("计划.csv"));
    QVERIFY2(doc->exportCsv(csv, &error), qPrintable(error));
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QString csvText = QString::fromUtf8(csvFile.readAll());
    QVERIFY(csvText.contains(QStringLiteral("plan,title,") + name));
    // CSV stays machine-readable in every language: its keys and numbers are not translated.
    QVERIFY(csvText.contains(QStringLiteral("section,key,value")));
    QVERIFY(csvText.contains(QStringLiteral("spec,cluster.gpus,1024")));

    const QString md = m_dir->filePath(QStringLiteral("计划.md"));
    QVERIFY2(doc->exportMarkdown(md, &error), qPrintable(error));
    QFile mdFile(md);
    QVERIFY(mdFile.open(QIODevice::ReadOnly));
    const QString mdText = QString::fromUtf8(mdFile.readAll());
    QVERIFY(mdText.startsWith(QStringLiteral("# ") + name + u'\n'));
    QVERIFY(mdText.contains(QStringLiteral("> ") + description));
    // The report's headings in Chinese (the catalogue's "Memory per GPU", "Inputs").
    QVERIFY(mdText.contains(QStringLiteral("## 每 GPU 内存")));
    QVERIFY(mdText.contains(QStringLiteral("## 输入")));

    const QList<ChartInfo> charts = window->charts();
    QVERIFY(!charts.isEmpty());
    const QString png = m_dir->filePath(QStringLiteral("图表.png"));
    QVERIFY2(window->exportChart(charts.first().id, png, &error), qPrintable(error));
    QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 100 && image.height() > 100);
}

// After a switch, a refused value names its field in the new language, and a field's help (its
// tooltip, marked or not) is the new language's: neither keeps the words of the language the
// window started in.
void TestUiTranslation::refusalsAndHelpFollowASwitch() {
    MainWindow* window = makeWindow(QStringLiteral("en"));
    auto* tp =
        qobject_cast<NumberEditor*>(window->specForm()->editor(QStringLiteral("training.tp")));
    QVERIFY(tp != nullptr);
    auto* inference = qobject_cast<InferencePanel*>(window->panel(QStringLiteral("inference")));
    QVERIFY(inference != nullptr);
    NumberEditor* batch = inference->numberEditor(QStringLiteral("inference.batch"));
    QVERIFY(batch != nullptr);
    const QString tpHelp = tp->toolTip();  // unmarked: the help alone, in English
    const QString batchHelp = batch->toolTip();
    QVERIFY(!tpHelp.isEmpty() && !batchHelp.isEmpty());
    QLabel* tpLabel = nullptr;
    for (QFormLayout* form : window->specForm()->findChildren<QFormLayout*>()) {
        if (auto* label = qobject_cast<QLabel*>(form->labelForField(tp))) {
            tpLabel = label;
        }
    }
    QVERIFY(tpLabel != nullptr);
    const QString englishLabel = tpLabel->text();

    switchLanguage(window, m_translations.get(), QStringLiteral("zh_CN"));
    QCoreApplication::processEvents();
    QVERIFY(tpLabel->text() != englishLabel);
    QString said;
    connect(window->specForm(), &SpecForm::inputRejected, window,
            [&said](const QString& message) { said = message; });
    tp->lineEdit()->setFocus();
    tp->lineEdit()->selectAll();
    QTest::keyClicks(tp->lineEdit(), QStringLiteral("abc"));
    QTest::keyClick(tp->lineEdit(), Qt::Key_Return);
    QVERIFY2(said.startsWith(tpLabel->text()), qPrintable(said));
    QVERIFY2(!said.contains(englishLabel), qPrintable(said));
    // The marked field's tooltip: the refusal, then the help, in Chinese.
    QVERIFY2(!tp->toolTip().contains(tpHelp), qPrintable(tp->toolTip()));
    batch->setPlannerError(QStringLiteral("x"));  // writes the tooltip anew
    batch->setPlannerError(QString());
    QVERIFY2(batch->toolTip() != batchHelp, qPrintable(batch->toolTip()));
    tp->lineEdit()->selectAll();
    QTest::keyClicks(tp->lineEdit(), QStringLiteral("8"));
    QTest::keyClick(tp->lineEdit(), Qt::Key_Return);
    switchLanguage(window, m_translations.get(), QStringLiteral("en"));
    QCoreApplication::processEvents();
}

void TestUiTranslation::liveSwitchKeepsPlanUndoAndPanels() {
    MainWindow* window = makeWindow(QStringLiteral("en"));
    PlanDocument* doc = window->document();
    QCOMPARE(window->menuBar()->actions().first()->text(), QStringLiteral("&File"));
    PlanSpec spec = doc->spec();
    const std::int64_t seqBefore = spec.data.seq_len;
    QVERIFY(seqBefore != 4096);
    spec.model.layers = 40;
    doc->edit(spec, QStringLiteral("layers 40"));
    spec.data.seq_len = 4096;
    doc->edit(spec, QStringLiteral("seq 4096"));
    doc->setMemorySweepVariable(SweepVariable::seq_len);
    QVERIFY(window->showPanel(QStringLiteral("roofline")));
    const QByteArray before = doc->acceptedSpecJson();
    const int undoCount = doc->undoStack()->count();
    const int undoIndex = doc->undoStack()->index();
    QVERIFY(undoCount >= 2);

    // The head dimension is left to the model (0), which its box says in words: "auto".
    QCOMPARE(doc->spec().model.head_dim, std::int64_t{0});
    auto* headDim =
        qobject_cast<NumberEditor*>(window->specForm()->editor(QStringLiteral("model.head_dim")));
    QVERIFY(headDim != nullptr);
    QCOMPARE(headDim->lineEdit()->text(), QStringLiteral("auto"));

    switchLanguage(window, m_translations.get(), QStringLiteral("zh_CN"));
    QCoreApplication::processEvents();
    QCOMPARE(window->menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
    // The box's word follows the language too, not only the labels.
    QVERIFY2(headDim->lineEdit()->text() != QStringLiteral("auto"),
             qPrintable(headDim->lineEdit()->text()));
    QCOMPARE(doc->acceptedSpecJson(), before);
    QCOMPARE(doc->undoStack()->count(), undoCount);
    QCOMPARE(doc->undoStack()->index(), undoIndex);
    QCOMPARE(window->currentPanel(), QStringLiteral("roofline"));
    QCOMPARE(doc->memorySweepVariable(), SweepVariable::seq_len);
    QStringList left = englishLeft(menuTexts(window));
    left += englishLeft(visibleTexts(window));
    if (!left.isEmpty()) {
        qWarning().noquote() << left.join(u'\n');
    }
    QCOMPARE(left.size(), 0);

    // Undo still steps back through the edits made in English.
    doc->undoStack()->undo();
    QCOMPARE(doc->spec().data.seq_len, seqBefore);
    QCOMPARE(doc->spec().model.layers, std::int64_t{40});

    switchLanguage(window, m_translations.get(), QStringLiteral("en"));
    QCoreApplication::processEvents();
    QCOMPARE(window->menuBar()->actions().first()->text(), QStringLiteral("&File"));
    QCOMPARE(window->currentPanel(), QStringLiteral("roofline"));
    QCOMPARE(headDim->lineEdit()->text(), QStringLiteral("auto"));
    // Back in English each text is its own source again, not another one with the same Chinese
    // (参数 is the headline's "Parameters" and the memory legend's "Params"; 主权重 the form's
    // "Master weights" and the legend's "Master").
    QCOMPARE(window->summary()->caption(QStringLiteral("params"))->text(),
             QStringLiteral("Parameters"));
    FieldEditor* master = window->specForm()->editor(QStringLiteral("training.master_dtype"));
    QVERIFY(master != nullptr);
    QLabel* masterLabel = nullptr;
    for (QFormLayout* form : window->specForm()->findChildren<QFormLayout*>()) {
        if (auto* label = qobject_cast<QLabel*>(form->labelForField(master))) {
            masterLabel = label;
        }
    }
    QVERIFY(masterLabel != nullptr);
    QCOMPARE(masterLabel->text(), QStringLiteral("Master weights"));
    QCOMPARE(window->memoryPanel()->barSet(0)->label(), QStringLiteral("Params"));
}

// Opened in Chinese, switched to English: the English labels are wider, and the form takes
// their width instead of cutting its entry boxes at the dock's edge ("8" for 80, "819" for 8192).
void TestUiTranslation::formFitsItsLabelsAfterASwitch() {
    MainWindow* window = makeWindow(QStringLiteral("zh_CN"));
    window->resize(1366, 740);
    QCoreApplication::processEvents();
    switchLanguage(window, m_translations.get(), QStringLiteral("en"));
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    auto* scroll = qobject_cast<QScrollArea*>(window->specForm()->parentWidget()->parentWidget());
    QVERIFY(scroll != nullptr);
    QWidget* viewport = scroll->viewport();
    int boxes = 0;
    for (NumberEditor* editor : window->specForm()->findChildren<NumberEditor*>()) {
        QLineEdit* edit = editor->lineEdit();
        if (!edit->isVisibleTo(window)) {
            continue;
        }
        ++boxes;
        const int right = edit->mapTo(viewport, QPoint(edit->width(), 0)).x();
        QVERIFY2(right <= viewport->width(), qPrintable(QStringLiteral("%1 ends at %2 of %3")
                                                            .arg(edit->objectName())
                                                            .arg(right)
                                                            .arg(viewport->width())));
    }
    QVERIFY(boxes > 10);
    // The ZeRO chart's short legend names come back as themselves, not as the long namesakes
    // their Chinese also translates ("Parameters" for 参数, cut in the legend).
    QTRY_COMPARE(window->memoryPanel()->barSet(0)->label(), QStringLiteral("Params"));
    QCOMPARE(window->memoryPanel()->barSet(2)->label(), QStringLiteral("Master"));
    // The sweep's variable picker is wide enough for its English choice and its arrow (20
    // pixels are less than a combo box's arrow and frame take), not "Micro-ba".
    QComboBox* variable = window->memoryPanel()->variablePicker();
    const int text = variable->fontMetrics().horizontalAdvance(variable->currentText());
    QTRY_VERIFY2(
        variable->width() >= text + 20,
        qPrintable(QStringLiteral("%1 for a text of %2").arg(variable->width()).arg(text)));
    // The layouts table's columns were sized to their Chinese headers; each now holds its
    // English one ("Micro-batch", not "icro-bat"), and Rank by its "Step time" and arrow.
    QVERIFY(window->showPanel(QStringLiteral("layouts")));
    QCoreApplication::processEvents();
    auto* table = window->layoutsPanel()->findChild<QTableView*>(QStringLiteral("layoutTable"));
    QVERIFY(table != nullptr);
    const QAbstractItemModel* model = table->model();
    const QHeaderView* header = table->horizontalHeader();
    for (int c = 0; c < model->columnCount(); ++c) {
        if (header->sectionResizeMode(c) == QHeaderView::Stretch) {
            continue;
        }
        const QString name = model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        const int needed = header->fontMetrics().horizontalAdvance(name);
        QVERIFY2(
            header->sectionSize(c) >= needed,
            qPrintable(
                QStringLiteral("%1: %2 of %3").arg(name).arg(header->sectionSize(c)).arg(needed)));
    }
    auto* rankBy = window->layoutsPanel()->findChild<QComboBox*>(QStringLiteral("layoutObjective"));
    QVERIFY(rankBy != nullptr);
    const int rankText = rankBy->fontMetrics().horizontalAdvance(rankBy->currentText());
    QTRY_VERIFY2(
        rankBy->width() >= rankText + 20,
        qPrintable(QStringLiteral("%1 for a text of %2").arg(rankBy->width()).arg(rankText)));
}

void TestUiTranslation::startLanguage() {
    AppSettings settings(m_settings.get());
    // --lang wins; then the remembered choice; then the system's (C.UTF-8 here: English).
    QCOMPARE(tally::ui::startLanguage(QStringLiteral("zh_CN.UTF-8"), settings),
             QStringLiteral("zh_CN"));
    QCOMPARE(tally::ui::startLanguage(QString(), settings), QStringLiteral("en"));
    settings.setLanguage(QStringLiteral("zh_CN"));
    QCOMPARE(tally::ui::startLanguage(QString(), settings), QStringLiteral("zh_CN"));
    QCOMPARE(tally::ui::startLanguage(QStringLiteral("en"), settings), QStringLiteral("en"));
    QCOMPARE(parseLanguage(QStringLiteral("zh")), std::optional<QString>(QStringLiteral("zh_CN")));
    QCOMPARE(parseLanguage(QStringLiteral("C")), std::optional<QString>(QStringLiteral("en")));
    QVERIFY(!parseLanguage(QStringLiteral("klingon")));
}

// Every shipped example's name and description has its Chinese (ui/plan/example_text.cpp lists
// them for lupdate): an example edited without its translation fails here.
void TestUiTranslation::examplesTranslated() {
    m_translations->load(QStringLiteral("zh_CN"));
    QVERIFY(!builtin_examples().empty());
    for (const ExamplePlan& example : builtin_examples()) {
        const PlanSpec zh = localizedExample(example.spec);
        QVERIFY2(zh.name != example.spec.name, example.spec.name.c_str());
        QVERIFY2(example.spec.description.empty() || zh.description != example.spec.description,
                 example.spec.description.c_str());
    }
    // The start plan has no name of its own: the window calls it by plan_title(), whose
    // template "%1, %2 tokens, %3 x %4" is "%1，%2 个 token，%3 x %4" in the catalogue.
    const PlanSpec start = localizedExample(start_plan_spec());
    const QString title = QString::fromStdString(
        plan_title(start, resolve_builtin_hardware(start), uiTextTranslator()));
    QVERIFY2(title.contains(QStringLiteral("，15T 个 token，1024 x ")), qPrintable(title));
}

// An example opened in Chinese keeps its Chinese name after a switch to English unless the name
// follows the language: it does, as the example opened now would read, with the plan still as
// saved as it was and no undo step; a name the user typed stays as typed.
void TestUiTranslation::exampleNameFollowsALanguageSwitch() {
    MainWindow* window = makeWindow(QStringLiteral("zh_CN"));
    const ExamplePlan& example = builtin_examples().front();
    window->document()->startNew(localizedExample(example.spec));
    QVERIFY(window->document()->spec().name != example.spec.name);  // Chinese
    const int steps = window->document()->undoStack()->count();
    m_translations->load(QStringLiteral("en"));
    window->refreshTexts();
    QCOMPARE(window->document()->spec().name, example.spec.name);
    QCOMPARE(window->document()->spec().description, example.spec.description);
    QVERIFY(!window->document()->isModified());
    QCOMPARE(window->document()->undoStack()->count(), steps);
    // And back.
    m_translations->load(QStringLiteral("zh_CN"));
    window->refreshTexts();
    QCOMPARE(window->document()->spec().name, localizedExample(example.spec).name);
    // The user's own name is theirs in every language.
    PlanSpec mine = window->document()->spec();
    mine.name = "my own plan";
    window->document()->edit(mine, QStringLiteral("name"));
    m_translations->load(QStringLiteral("en"));
    window->refreshTexts();
    QCOMPARE(window->document()->spec().name, std::string("my own plan"));
}

// The Time and Memory panels' figures: each tooltip's line with the numbers is Chinese too.
void TestUiTranslation::figuresWithTheirNumbersInChinese() {
    MainWindow* window = makeWindow(QStringLiteral("zh_CN"));
    QStringList left;
    for (const QString& id : {QStringLiteral("time"), QStringLiteral("memory")}) {
        QVERIFY(window->showPanel(id));
        QCoreApplication::processEvents();
        const QList<Seen> seen = visibleTexts(window);
        left += englishInNumbers(seen);
        left += englishLeft(seen);
    }
    const PlanViews& views = *window->document()->views();
    QList<Seen> figures;
    for (const FigureRow& row : timeFigures(views)) {
        figures.append({QStringLiteral("time figure ") + row.key, row.tooltip});
    }
    for (const FigureRow& row : stepTerms(views)) {
        figures.append({QStringLiteral("step term ") + row.key, row.tooltip});
    }
    left += englishInNumbers(figures);
    // The start plan's training time (Llama 3 70B, 15T tokens, 1024 H100): the catalogue's
    // "%1 x %2 s / 86400 = %3 days" or "%1 / (%2 x %3 x %4 x 86400) = %5 days" end in "天".
    const Explanation* days = views.explanation("time.days");
    QVERIFY(days);
    QVERIFY2(explanationTip(days).contains(QStringLiteral(" 天\n")),
             qPrintable(explanationTip(days)));
    if (!left.isEmpty()) {
        qWarning().noquote() << left.join(u'\n');
    }
    QCOMPARE(left.size(), 0);
}

// The step bar's legend in Chinese on a laptop's screen: the CJK glyphs come from a fallback
// font taller than the Latin one, and every term that takes time is still drawn, none dropped
// for want of height.
void TestUiTranslation::stepLegendWholeInChinese() {
    MainWindow* window = makeWindow(QStringLiteral("zh_CN"));
    window->resize(1366, 700);
    QVERIFY(window->showPanel(QStringLiteral("time")));
    QCoreApplication::processEvents();
    window->repaint();
    QChart* chart = window->timePanel()->stepSeries()->chart();
    QStringList expected;
    for (const FigureRow& term : stepTerms(*window->document()->views())) {
        if (term.value > 0.0) {
            expected.append(term.label);
        }
    }
    expected.sort();
    QVERIFY(expected.size() >= 9);
    QVERIFY(expected.contains(QStringLiteral("优化器")));
    QCOMPARE(tally::test::drawnLegend(chart), expected);
}

// A shipped serving example opened as a file (not from File > Examples) reads in Chinese, and
// the Inference panel's table, units, tooltips and warnings are Chinese.
void TestUiTranslation::servingPanelInChinese() {
    MainWindow* window = makeWindow(QStringLiteral("zh_CN"));
    QString error;
    QVERIFY2(window->openFile(QStringLiteral(TALLY_SOURCE_DIR
                                             "/resources/examples/deepseek-v3-serve-8xh200.json"),
                              &error),
             qPrintable(error));
    PlanDocument* doc = window->document();
    // Its name from the catalogue, "DeepSeek-V3 served on 8 H200 at fp8" in Chinese.
    QCOMPARE(QString::fromStdString(doc->spec().name),
             m_translations->translate(kExampleContext, "DeepSeek-V3 served on 8 H200 at fp8"));
    QVERIFY(QString::fromStdString(doc->spec().name) !=
            QStringLiteral("DeepSeek-V3 served on 8 H200 at fp8"));
    // 100000 sequences of the example's 4096 + 1024 tokens: far past 8 H200's 141 GB each
    // (DeepSeek-V3's latent KV alone is 61 layers x 576 values x 2 bytes = 70 KB a token), so
    // the serving plan warns that it does not fit.
    PlanSpec spec = doc->spec();
    spec.inference.batch = 100000;
    doc->edit(spec, QStringLiteral("batch"));
    QVERIFY(!doc->error());
    QVERIFY(window->showPanel(QStringLiteral("inference")));
    QCoreApplication::processEvents();
    const QList<Seen> seen = visibleTexts(window);
    QStringList left = englishLeft(seen);
    left += englishInNumbers(seen);
    auto* warnings = window->findChild<QLabel*>(QStringLiteral("inferenceWarnings"));
    QVERIFY(warnings);
    QVERIFY(warnings->isVisibleTo(window));
    // planner/serving's "does not fit: %1 GB needed per GPU, ..." as the catalogue has it.
    QVERIFY2(warnings->text().contains(QStringLiteral("放不下：每 GPU 需要")),
             qPrintable(warnings->text()));
    auto* table = window->findChild<QAbstractItemView*>(QStringLiteral("inferenceTable"));
    QVERIFY(table);
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            const QString text = table->model()->index(r, c).data().toString();
            // Unit words the table once showed in English.
            for (const QString& english : {QStringLiteral("tokens/s"), QStringLiteral("sequences"),
                                           QStringLiteral("currency"), QStringLiteral("bytes")}) {
                if (text == english) {
                    left.append(QStringLiteral("inference table cell: ") + text);
                }
            }
        }
    }
    if (!left.isEmpty()) {
        qWarning().noquote() << left.join(u'\n');
    }
    QCOMPARE(left.size(), 0);
}

// Numbers a person reads follow the number locale; the files stay machine-readable.
void TestUiTranslation::numbersInTheLocale() {
    // The number locale of a language (ui/i18n/translations.h): the system's when the window
    // speaks its language, else the language's own.
    const QLocale german(QLocale::German, QLocale::Germany);
    const QLocale chinese(QLocale::Chinese, QLocale::China);
    QCOMPARE(numberLocale(QStringLiteral("en"), german), german);
    QCOMPARE(numberLocale(QStringLiteral("zh_CN"), german).language(), QLocale::Chinese);
    QCOMPARE(numberLocale(QStringLiteral("zh_CN"), chinese), chinese);
    QCOMPARE(numberLocale(QStringLiteral("en"), chinese).language(), QLocale::English);
    QCOMPARE(numberLocale(QStringLiteral("en"), QLocale::c()), QLocale::c());

    MainWindow* window = makeWindow(QStringLiteral("en"));
    // A German desktop in English (the system locale here is C: set it as the default, as
    // applyNumberLocale() would on such a desktop).
    QLocale::setDefault(german);
    PlanDocument* doc = window->document();
    PlanSpec spec = doc->spec();
    spec.cluster.price_per_gpu_hour = 1234.5;
    doc->edit(spec, QStringLiteral("price"));
    QVERIFY(!doc->error());
    // The start plan's GPU, an H100 SXM: dense bf16 peak 1979e12 / 2 = 989.5e12 FLOP/s, which
    // the Time panel writes "989.5 TFLOP/s" in C and with de_DE's decimal comma "989,5 TFLOP/s".
    QString peak;
    for (const FigureRow& row : timeFigures(*doc->views())) {
        if (row.key == QLatin1String("time.peak_flops_per_s")) {
            peak = row.text;
        }
    }
    QCOMPARE(peak, QStringLiteral("989,5 TFLOP/s"));
    // The CSV export keeps the C locale's numbers: the price as given, 1234.5.
    QString error;
    const QString csv = m_dir->filePath(QStringLiteral("plan.csv"));
    QVERIFY2(doc->exportCsv(csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("spec,cluster.price_per_gpu_hour,1234.5\r\n")),
             qPrintable(text));
    // So does the saved plan's JSON.
    QVERIFY(doc->acceptedSpecJson().contains("\"price_per_gpu_hour\": 1234.5"));
    QLocale::setDefault(QLocale::c());
}

// Texts with a path or a number in them cannot be looked up by what they show after a switch of
// language: the panels that show them write them anew. The Probe panel's note names the
// workspace's file; the serving curve's legend names its clients, also where the plan cannot be
// served (a parameter count alone gives no KV cache, and the curve is left empty).
void TestUiTranslation::textsWithAPathOrNumberFollowASwitch() {
    MainWindow* window = makeWindow(QStringLiteral("en"));
    PlanSpec spec = window->document()->spec();
    spec.model = ModelSpec{};
    spec.model.kind = ModelKind::params;
    spec.model.params = 70e9;
    window->document()->edit(spec, QStringLiteral("params only"));
    QVERIFY(window->showPanel(QStringLiteral("inference")));
    QVERIFY(window->showPanel(QStringLiteral("probe")));
    QCoreApplication::processEvents();
    const auto shown = [window](const QString& text) {
        for (QLabel* label : window->findChildren<QLabel*>()) {
            if (label->text().contains(text)) {
                return true;
            }
        }
        return false;
    };
    const auto seriesNamed = [window](const QString& text) {
        for (QChartView* view :
             window->panel(QStringLiteral("inference"))->findChildren<QChartView*>()) {
            for (QAbstractSeries* series : view->chart()->series()) {
                if (series->name().contains(text)) {
                    return true;
                }
            }
        }
        return false;
    };
    QVERIFY(shown(QStringLiteral("Runs are saved in")));
    QVERIFY(seriesNamed(QStringLiteral("Clients 1-")));

    switchLanguage(window, m_translations.get(), QStringLiteral("zh_CN"));
    QVERIFY(window->showPanel(QStringLiteral("inference")));
    QVERIFY(window->showPanel(QStringLiteral("probe")));
    QCoreApplication::processEvents();
    // resources/translations/tally_zh_CN.ts: "运行保存在 %1", "客户端 1-%1".
    QVERIFY(!shown(QStringLiteral("Runs are saved in")));
    QVERIFY(shown(QStringLiteral("运行保存在")));
    QVERIFY(!seriesNamed(QStringLiteral("Clients")));
    QVERIFY(seriesNamed(QStringLiteral("客户端 1-")));
    switchLanguage(window, m_translations.get(), QStringLiteral("en"));
}

QTEST_MAIN(TestUiTranslation)
#include "tst_ui_translation.moc"
