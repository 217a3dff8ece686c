#include "ui/window/main_window.h"

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QKeySequence>
#include <QLabel>
#include <QLockFile>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>

#include "planner/io/examples.h"
#include "planner/io/spec_json.h"
#include "planner/performance/engine.h"
#include "planner/text/report.h"
#include "planner/training/layout_search.h"
#include "ui/charts/formats_panel.h"
#include "ui/charts/inference_panel.h"
#include "ui/charts/layouts_panel.h"
#include "ui/charts/memory_panel.h"
#include "ui/charts/roofline_panel.h"
#include "ui/charts/time_panel.h"
#include "ui/common/file_dialogs.h"
#include "ui/common/hardware_catalog.h"
#include "ui/common/launch_copy.h"
#include "ui/common/number_text.h"
#include "ui/common/table_copy.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/autosave.h"
#include "ui/plan/example_text.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/import_launch_dialog.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/spec_form.h"
#include "ui/plan/summary_bar.h"
#include "ui/window/app_settings.h"

namespace tally::ui {

int initialFormWidth(int preferred, int least, int screenWidth) {
    if (screenWidth <= 0 || screenWidth >= 1500) {
        return preferred;
    }
    return std::max(least, std::min(preferred, screenWidth * 3 / 10));
}

namespace {

std::optional<SweepVariable> sweepVariableNamed(const QString& name) {
    for (SweepVariable v :
         {SweepVariable::micro_batch, SweepVariable::seq_len, SweepVariable::layers}) {
        if (qs(to_string(v)) == name) {
            return v;
        }
    }
    return std::nullopt;
}

}  // namespace

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent),
      m_settings(new AppSettings(options.settings, this)),
      m_catalog(new HardwareCatalog(this)),
      m_document(new PlanDocument(m_catalog, this)),
      m_form(new SpecForm(m_document, m_catalog)),
      m_summary(new SummaryBar(m_document)),
      m_tabs(new QTabWidget),
      m_formDock(new QDockWidget(tr("Plan"), this)),
      m_memory(new MemoryPanel(m_document)),
      m_time(new TimePanel(m_document)),
      m_roofline(new RooflinePanel(m_document)),
      m_formats(new FormatsPanel),
      m_layouts(new LayoutsPanel(m_document)) {
    setObjectName(QStringLiteral("mainWindow"));
    if (!options.autosavePath.isEmpty()) {
        // One window writes the autosave at a time: a second would overwrite the first's plan
        // with its own at every edit, and whichever closed last would be the one kept. The lock
        // names its process, so one left by a process that is gone is taken over (stale time
        // 0: a live holder's lock is never old enough to break).
        QDir().mkpath(QFileInfo(options.autosavePath).absolutePath());
        m_autosaveLock =
            std::make_unique<QLockFile>(options.autosavePath + QStringLiteral(".lock"));
        m_autosaveLock->setStaleLockTime(0);
        bool mine = m_autosaveLock->tryLock(0);
        if (!mine) {
            // Held by another window; a folder that cannot take the lock file cannot take the
            // autosave either, and the autosave says so when it fails to write (closeEvent()).
            m_autosaveElsewhere = m_autosaveLock->error() == QLockFile::LockFailedError;
            mine = !m_autosaveElsewhere;
            m_autosaveLock.reset();
        }
        if (auto restored = Autosave::restore(options.autosavePath)) {
            if (mine) {
                m_document->restore(restored->spec, restored->file, restored->modified,
                                    restored->file_sha256);
            } else {
                // The other window's last plan, as a start: this window's own edits are what
                // it asks about on closing.
                m_document->reset(restored->spec);
            }
        }
        if (mine) {
            m_autosave = new Autosave(m_document, options.autosavePath, this);
        }
    }

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
    // The headline and the panels scroll where the screen is smaller than they need (a
    // 1280 x 720 laptop at 125% scaling gives 1024 x 576), rather than the window growing past
    // the screen with its panel tabs and status bar out of reach; on a larger screen the area
    // fills the window and never scrolls.
    auto* centralScroll = new QScrollArea(this);
    centralScroll->setObjectName(QStringLiteral("centralScroll"));
    centralScroll->setFrameShape(QFrame::NoFrame);
    centralScroll->setWidgetResizable(true);
    centralScroll->setWidget(central);
    setCentralWidget(centralScroll);
    m_tabs->setDocumentMode(true);

    auto* scroll = new QScrollArea(m_formDock);
    m_formScroll = scroll;
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As narrow as the form can be (its sliders shrink), so the window fits a 1366-pixel laptop
    // screen; it opens at the form's preferred width (resizeDocks() below).
    scroll->setMinimumWidth(m_form->minimumSizeHint().width() + 24);
    m_formDock->setObjectName(QStringLiteral("planDock"));
    m_formDock->setWidget(scroll);
    m_formDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, m_formDock);
    const QScreen* screen = QGuiApplication::primaryScreen();
    resizeDocks(
        {m_formDock},
        {initialFormWidth(m_form->sizeHint().width() + 24, m_form->minimumSizeHint().width() + 24,
                          screen ? screen->availableGeometry().width() : 0)},
        Qt::Horizontal);

    addPanel(QStringLiteral("memory"), tr("Memory"), m_memory);
    addPanel(QStringLiteral("time"), tr("Time and cost"), m_time);
    addPanel(QStringLiteral("layouts"), tr("Layouts"), m_layouts);
    addPanel(QStringLiteral("roofline"), tr("Roofline"), m_roofline);
    addPanel(QStringLiteral("formats"), tr("Number formats"), m_formats);
    // Serving the plan's model: KV cache, latency against throughput.
    auto* inference = new InferencePanel(m_document);
    addPanel(QStringLiteral("inference"), tr("Inference"), inference);

    buildMenus();
    statusBar()->setObjectName(QStringLiteral("status"));

    connect(m_document, &PlanDocument::errorChanged, this, &MainWindow::showError);
    m_dtypeOffer = new QPushButton(this);
    m_dtypeOffer->setObjectName(QStringLiteral("computeDtypeOffer"));
    m_dtypeOffer->hide();
    statusBar()->addPermanentWidget(m_dtypeOffer);
    if (m_autosaveElsewhere) {
        auto* notAutosaved = new QLabel(
            tr("Not autosaved: another Tally window keeps the autosave. Save this plan to keep "
               "it."),
            this);
        notAutosaved->setObjectName(QStringLiteral("notAutosaved"));
        notAutosaved->setStyleSheet(QStringLiteral("color: #b45309;"));
        statusBar()->addPermanentWidget(notAutosaved);
    }
    if (m_autosave != nullptr) {
        // A failed autosave is said until one succeeds: the edits since live only in this window.
        auto* autosaveFailed = new QLabel(this);
        autosaveFailed->setObjectName(QStringLiteral("autosaveFailed"));
        autosaveFailed->setStyleSheet(QStringLiteral("color: #c62828;"));
        autosaveFailed->hide();
        statusBar()->addPermanentWidget(autosaveFailed);
        connect(m_autosave, &Autosave::writeFailed, this, [autosaveFailed](const QString& error) {
            autosaveFailed->setText(
                tr("Not autosaved: save this plan to a file to keep it (%1)").arg(error));
            autosaveFailed->setToolTip(autosaveFailed->text());
            autosaveFailed->show();
        });
        connect(m_autosave, &Autosave::writeRecovered, autosaveFailed, &QLabel::hide);
    }
    connect(m_dtypeOffer, &QPushButton::clicked, this, [this] {
        PlanSpec next = m_document->spec();
        next.training.compute_dtype = m_offeredDtype;
        m_document->edit(next, tr("Compute in %1").arg(qs(to_string(m_offeredDtype))));
    });
    // A value a field refused (the form's or the Inference panel's) is said in the status bar.
    const auto showRejected = [this](const QString& message) {
        if (message.isEmpty()) {
            showError();
            return;
        }
        statusBar()->setStyleSheet(QStringLiteral("color: #c62828;"));
        statusBar()->showMessage(tr("Not taken: %1").arg(message));
        // A long message is cut at the window's edge: the whole of it is the tooltip.
        statusBar()->setToolTip(statusBar()->currentMessage());
    };
    connect(m_form, &SpecForm::inputRejected, this, showRejected);
    connect(inference, &InferencePanel::inputRejected, this, showRejected);
    connect(m_document, &PlanDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &PlanDocument::filePathChanged, this,
            [this] { rememberRecentFile(m_document->filePath()); });
    connect(m_document, &PlanDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &PlanDocument::specChanged, this, &MainWindow::updateTitle);
    connect(m_document, &PlanDocument::resultsChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this] { m_settings->setCurrentPanel(currentPanel()); });
    connect(m_formats, &FormatsPanel::valueTextChanged, m_settings, &AppSettings::setFormatValue);
    // A new profile list (the workspace's) resets the GPU picker's model after the document has
    // re-evaluated and the form has shown the plan's GPU; show it again on the new rows.
    connect(m_catalog, &HardwareCatalog::profilesChanged, this, [this] {
        if (auto* gpu = qobject_cast<GpuEditor*>(m_form->editor(QStringLiteral("cluster.gpu")))) {
            gpu->refresh(m_document->spec());
        }
    });
    connect(m_document, &PlanDocument::resultsChanged, this, [this] {
        m_settings->setMemoryVariable(qs(to_string(m_document->memorySweepVariable())));
    });

    // The first time (no saved geometry): 1480 x 940, or the screen's free area when smaller
    // (a 1366 x 768 laptop leaves about 1366 x 740 under its panel; a larger window ran off it,
    // cutting the tabs and the headline's figures).
    QSize size(1480, 940);
    if (const QScreen* screen = QGuiApplication::primaryScreen()) {
        size = size.boundedTo(screen->availableGeometry().size());
    }
    resize(size);
    if (options.restoreLayout) {
        restoreGeometry(m_settings->windowGeometry());
        // A size saved on a larger screen is cut to this one's free area (Qt keeps the window
        // partly visible but not whole: a 1480 x 940 window on a 1366 x 768 laptop hid the
        // status bar, the last tabs and the right-hand columns), and moved back onto it.
        if (const QScreen* screen = QGuiApplication::primaryScreen()) {
            const QRect free = screen->availableGeometry();
            if (!free.contains(frameGeometry())) {
                const QSize frame = frameGeometry().size() - geometry().size();
                resize(this->size().boundedTo(free.size() - frame));
                QRect placed = frameGeometry();
                placed.moveLeft(
                    std::clamp(placed.left(), free.left(),
                               std::max(free.left(), free.right() - placed.width() + 1)));
                placed.moveTop(
                    std::clamp(placed.top(), free.top(),
                               std::max(free.top(), free.bottom() - placed.height() + 1)));
                move(placed.topLeft());
            }
        }
        restoreState(m_settings->windowState());
        // Panels registered later (the workspace's, the probe's) come to the front when they
        // arrive, if they were in front last time (addPanel()).
        if (!showPanel(m_settings->currentPanel())) {
            m_panelToRestore = m_settings->currentPanel();
        }
        if (auto v = sweepVariableNamed(m_settings->memoryVariable())) {
            m_document->setMemorySweepVariable(*v);
        }
        m_formats->setValueText(m_settings->formatValue());
    }
    updateTitle();
    showError();
}

MainWindow::~MainWindow() = default;

bool MainWindow::addPanel(const QString& id, const QString& title, QWidget* widget,
                          PanelArea area) {
    if (panel(id)) {
        return false;
    }
    PanelEntry entry{id, title, widget, nullptr};
    if (area == PanelArea::tab) {
        m_tabs->addTab(widget, title);
    } else {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(u"panel-" + id);
        dock->setWidget(widget);
        addDockWidget(area == PanelArea::leftDock    ? Qt::LeftDockWidgetArea
                      : area == PanelArea::rightDock ? Qt::RightDockWidgetArea
                                                     : Qt::BottomDockWidgetArea,
                      dock);
        entry.dock = dock;
    }
    m_panels.push_back(entry);
    if (!m_panelToRestore.isEmpty() && id == m_panelToRestore) {
        m_panelToRestore.clear();
        showPanel(id);
    }
    // A table takes Tab to the next control, as a form does, not to its next cell (QTableView's
    // default): otherwise Tab never leaves the first table it meets. The arrow keys move between
    // cells.
    // Ctrl+C and the context menu copy every selected cell, not just the current one.
    for (QTableView* table : widget->findChildren<QTableView*>()) {
        table->setTabKeyNavigation(false);
        TableCopy::install(table);
    }
    if (m_viewMenu) {
        addPanelAction(title, id);
    }
    return true;
}

void MainWindow::addPanelAction(const QString& title, const QString& id) {
    auto* action = m_viewMenu->addAction(title);
    action->setObjectName(QStringLiteral("showPanel_") + id);
    // Ctrl+1 .. Ctrl+9 and Ctrl+0 bring the first ten panels to the front from the keyboard (the
    // menu's first two entries are the form's and a separator).
    if (const auto n = m_viewMenu->actions().size() - 2; n >= 1 && n <= 10) {
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + n % 10)));
    }
    connect(action, &QAction::triggered, this, [this, id] { showPanel(id); });
}

QWidget* MainWindow::panel(const QString& id) const {
    for (const PanelEntry& p : m_panels) {
        if (p.id == id) {
            return p.widget;
        }
    }
    return nullptr;
}

QStringList MainWindow::panelIds() const {
    QStringList ids;
    for (const PanelEntry& p : m_panels) {
        ids.append(p.id);
    }
    return ids;
}

bool MainWindow::showPanel(const QString& id) {
    for (const PanelEntry& p : m_panels) {
        if (p.id != id || !p.widget) {
            continue;
        }
        if (p.dock) {
            p.dock->show();
            p.dock->raise();
        } else {
            m_tabs->setCurrentWidget(p.widget);
        }
        return true;
    }
    return false;
}

QString MainWindow::currentPanel() const {
    for (const PanelEntry& p : m_panels) {
        if (!p.dock && p.widget == m_tabs->currentWidget()) {
            return p.id;
        }
    }
    return {};
}

QList<ChartInfo> MainWindow::charts() const {
    QList<ChartInfo> out;
    out += m_memory->charts();
    out += m_time->charts();
    out += m_roofline->charts();
    out += m_formats->charts();
    // Charts of the panels other areas registered (the compare view, ...).
    for (const PanelEntry& p : m_panels) {
        auto* registered = qobject_cast<PlanPanel*>(p.widget.data());
        if (registered && registered != m_memory && registered != m_time &&
            registered != m_roofline) {
            out += registered->charts();
        }
    }
    return out;
}

bool MainWindow::exportChart(const QString& chartId, const QString& path, QString* error) {
    for (const ChartInfo& chart : charts()) {
        if (chart.id != chartId) {
            continue;
        }
        // A chart on a hidden tab may not have drawn the latest plan yet.
        for (const PanelEntry& p : m_panels) {
            if (auto* planPanel = qobject_cast<PlanPanel*>(p.widget.data())) {
                planPanel->ensureCurrent();
            }
        }
        if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
            // The SVG's title names the plan too ("Memory per GPU: Llama 3 70B on ...").
            return exportSvg(
                chart.widget, path,
                tr("%1: %2").arg(chart.title,
                                 qs(plan_title(m_document->views()->spec,
                                               m_document->views()->hardware, uiTextTranslator()))),
                error);
        }
        return exportPng(chart.widget, path, error);
    }
    if (error) {
        *error = tr("No chart named %1").arg(chartId);
    }
    return false;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newPlan = file->addAction(tr("&New plan"));
    newPlan->setShortcut(QKeySequence::New);
    newPlan->setToolTip(
        tr("Start again from the plan Tally opens on (Llama 3 70B on 1024 H100); "
           "the lecture's plans are under Examples."));
    connect(newPlan, &QAction::triggered, this, [this] {
        if (confirmReplace()) {
            m_document->startNew(localizedExample(start_plan_spec()));
        }
    });
    QMenu* examples = file->addMenu(tr("E&xamples"));
    examples->setObjectName(QStringLiteral("examplesMenu"));
    fillExamplesMenu(examples);
    QAction* open = file->addAction(tr("&Open…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, &MainWindow::open);
    QMenu* recent = file->addMenu(tr("Open &recent"));
    recent->setObjectName(QStringLiteral("recentMenu"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { fillRecentMenu(recent); });
    fillRecentMenu(recent);
    QAction* importRun = file->addAction(tr("&Import run configuration…"));
    importRun->setObjectName(QStringLiteral("importRunConfiguration"));
    importRun->setStatusTip(
        tr("Read a Megatron-LM command line or log, NeMo overrides, a torchtitan TOML, a "
           "DeepSpeed JSON or an accelerate YAML into the plan, with a preview first."));
    connect(importRun, &QAction::triggered, this, &MainWindow::importRunConfiguration);
    // Two ways to keep a plan, named for what they do, each pointing at the other: a JSON file
    // (this menu) and the workspace's saved plans (the Saved plans panel).
    QAction* save = file->addAction(tr("&Save to a JSON file"));
    save->setShortcut(QKeySequence::Save);
    save->setStatusTip(
        tr("Write the plan to its JSON file (tally plan PLAN.json reads it). "
           "Saved plans > Save current plan in the workspace keeps it in the "
           "workspace instead."));
    connect(save, &QAction::triggered, this, &MainWindow::save);
    QAction* saveAs = file->addAction(tr("Save to a JSON file &as…"));
    saveAs->setStatusTip(save->statusTip());
    saveAs->setShortcut(QKeySequence::SaveAs);
    connect(saveAs, &QAction::triggered, this, &MainWindow::saveAs);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    connect(exportMenu, &QMenu::aboutToShow, this,
            [this, exportMenu] { fillExportMenu(exportMenu); });
    fillExportMenu(exportMenu);
    QMenu* copyAs = file->addMenu(tr("&Copy plan as"));
    copyAs->setObjectName(QStringLiteral("copyPlanAsMenu"));
    fillCopyAsMenu(copyAs, this, [this](QString* reason) -> std::optional<PlanSpec> {
        if (m_document->error()) {
            *reason = tr("The plan has an error (%1); fix it before copying it as a launch "
                         "configuration.")
                          .arg(QString::fromStdString(m_document->error()->message()));
            return std::nullopt;
        }
        return m_document->spec();
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(m_formDock->toggleViewAction());
    m_viewMenu->addSeparator();
    for (const PanelEntry& p : m_panels) {
        addPanelAction(p.title, p.id);
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction* docs = help->addAction(tr("&Documentation"));
    docs->setObjectName(QStringLiteral("helpDocumentation"));
    docs->setStatusTip(
        tr("The desktop app's guide (docs/desktop-app.md): every panel, "
           "editing, files, the probe and the workspace."));
    connect(docs, &QAction::triggered, this, [this] {
        const QString guide = documentationPath();
        if (!guide.isEmpty() && QDesktopServices::openUrl(QUrl::fromLocalFile(guide))) {
            return;
        }
        QMessageBox::information(
            this, tr("Documentation"),
            guide.isEmpty()
                ? tr("The guide is docs/desktop-app.md in Tally's source folder (with "
                     "docs/planner.md for every formula and docs/serving.md for serving).")
                : tr("The guide is %1 (no program here opens it).").arg(guide));
    });
    // CS336 lecture 2's questions, each opening the example that answers it.
    QMenu* questions = help->addMenu(tr("The lecture's &questions"));
    questions->setObjectName(QStringLiteral("helpQuestions"));
    for (const ExamplePlan& example : builtin_examples()) {
        if (!example.lecture) {
            continue;
        }
        const PlanSpec spec = localizedExample(example.spec);
        QAction* action = questions->addAction(qs(spec.name));
        action->setStatusTip(qs(spec.description));
        connect(action, &QAction::triggered, this,
                [this, spec, panel = qs(example.panel)] { openExample(spec, panel); });
    }
    help->addSeparator();
    connect(help->addAction(tr("&About Tally")), &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Tally"),
                           tr("<p><b>Tally</b> plans the resources of training a large language "
                              "model: memory per GPU, FLOPs, time, cost and the roofline.</p>"
                              "<p>Every figure's tooltip shows its formula, the numbers in it and "
                              "its source. The command line (<code>tally plan SPEC.json</code>) "
                              "reads the plans this window saves.</p>"));
    });
}

void MainWindow::fillExportMenu(QMenu* menu) {
    menu->clear();
    for (const ChartInfo& chart : charts()) {
        connect(menu->addAction(tr("%1 as PNG…").arg(chart.title)), &QAction::triggered, this,
                [this, chart] { exportChartInteractive(chart, false); });
        connect(menu->addAction(tr("%1 as SVG…").arg(chart.title)), &QAction::triggered, this,
                [this, chart] { exportChartInteractive(chart, true); });
    }
    menu->addSeparator();
    connect(menu->addAction(tr("Plan as CSV…")), &QAction::triggered, this,
            [this] { exportPlan(false); });
    connect(menu->addAction(tr("Plan as Markdown report…")), &QAction::triggered, this,
            [this] { exportPlan(true); });
}

QString MainWindow::askPath(const QString& title, const QString& filter, bool saving,
                            const QString& suggestedName) {
    const QString start = suggestedName.isEmpty()
                              ? m_settings->lastDirectory()
                              : m_settings->lastDirectory() + u'/' + suggestedName;
    const QString path = saving ? chooseSavePath(this, title, start, filter)
                                : chooseOpenPath(this, title, start, filter);
    if (!path.isEmpty() && QFileInfo(path).absoluteDir().exists()) {
        m_settings->setLastDirectory(QFileInfo(path).absolutePath());
    }
    return path;
}

QString MainWindow::documentationPath() const {
    // Beside the executable in the build tree (build/<preset>/app/tally: the source's docs/ two
    // folders up) or installed under share/doc/tally.
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString& candidate :
         {here.filePath(QStringLiteral("../../docs/desktop-app.md")),
          here.filePath(QStringLiteral("../share/doc/tally/desktop-app.md"))}) {
        if (QFileInfo::exists(candidate)) {
            return QFileInfo(candidate).canonicalFilePath();
        }
    }
    return {};
}

QString MainWindow::suggestedFileName(const QString& extension) const {
    // The plan's file, else its name or title, as a file name: letters, digits, '-' and '_' kept,
    // runs of anything else one '-', at most 60 characters ("Llama-3-70B-on-15T-tokens-....json").
    // A title the plan was not given is taken in English whatever the window's language: the
    // Chinese one's measure words ("70B 个参数，15T 个 token") make a file name no one would type.
    if (!m_document->filePath().isEmpty()) {
        return QFileInfo(m_document->filePath()).completeBaseName() + extension;
    }
    const QString title = qs(plan_title(m_document->spec(), m_document->headlineViews().hardware));
    QString name;
    for (const QChar c : title) {
        if (c.isLetterOrNumber() || c == u'_' || c == u'.') {
            name += c;
        } else if (!name.isEmpty() && !name.endsWith(u'-')) {
            name += u'-';
        }
    }
    while (name.endsWith(u'-') || name.endsWith(u'.')) {
        name.chop(1);
    }
    name.truncate(60);
    return (name.isEmpty() ? QStringLiteral("plan") : name) + extension;
}

void MainWindow::report(const QString& message) {
    QMessageBox::warning(this, tr("Tally"), message);
}

void MainWindow::fillExamplesMenu(QMenu* menu) {
    menu->addSection(tr("CS336 lecture 2"));
    bool lecture = true;
    for (const ExamplePlan& example : builtin_examples()) {
        if (lecture && !example.lecture) {
            menu->addSection(tr("Training and serving plans"));
            lecture = false;
        }
        const PlanSpec spec = localizedExample(example.spec);
        QAction* action = menu->addAction(qs(spec.name));
        action->setToolTip(tr("Opens resources/%1 as a new, unsaved plan").arg(qs(example.file)));
        connect(action, &QAction::triggered, this,
                [this, spec, panel = qs(example.panel)] { openExample(spec, panel); });
    }
}

namespace {
constexpr int kRecentFiles = 10;
}  // namespace

void MainWindow::fillRecentMenu(QMenu* menu) {
    menu->clear();
    const QStringList paths = m_settings->recentFiles();
    for (const QString& path : paths) {
        QAction* action = menu->addAction(QDir::toNativeSeparators(path));
        action->setToolTip(path);
        // A file gone since (moved, deleted, on a drive not mounted now) is shown, not offered.
        if (!QFileInfo::exists(path)) {
            action->setText(tr("%1 (not found)").arg(QDir::toNativeSeparators(path)));
            action->setEnabled(false);
        }
        connect(action, &QAction::triggered, this, [this, path] {
            if (!confirmReplace()) {
                return;
            }
            QString error;
            if (!openFile(path, &error)) {
                // Gone or no longer a plan: said, and taken off the list.
                QStringList kept = m_settings->recentFiles();
                kept.removeAll(path);
                m_settings->setRecentFiles(kept);
                report(error);
            }
        });
    }
    if (paths.isEmpty()) {
        menu->addAction(tr("No plan file opened or saved yet"))->setEnabled(false);
        return;
    }
    menu->addSeparator();
    connect(menu->addAction(tr("Clear the list")), &QAction::triggered, this,
            [this] { m_settings->setRecentFiles({}); });
}

void MainWindow::rememberRecentFile(const QString& path) {
    if (path.isEmpty()) {
        return;
    }
    QStringList paths = m_settings->recentFiles();
    paths.removeAll(path);
    paths.prepend(path);
    while (paths.size() > kRecentFiles) {
        paths.removeLast();
    }
    m_settings->setRecentFiles(paths);
}

void MainWindow::openExample(const PlanSpec& spec, const QString& panel) {
    if (!confirmReplace()) {
        return;
    }
    m_document->startNew(spec);
    // The panel that answers the example's question comes to the front (ExamplePlan::panel).
    if (!panel.isEmpty()) {
        showPanel(panel);
    }
}

void MainWindow::commitPendingEdits() {
    const QPointer<QWidget> focused = QApplication::focusWidget();
    if (focused == nullptr || !isAncestorOf(focused)) {
        return;
    }
    // A box takes its text when it loses the focus (a line edit emits editingFinished, the
    // description box commits in its focus-out filter); the focus then goes back to it, unless
    // what it took rebuilt the form without it.
    focused->clearFocus();
    if (focused) {
        focused->setFocus(Qt::OtherFocusReason);
    }
}

bool MainWindow::confirmReplace(const QString& question) {
    commitPendingEdits();
    if (!m_document->isModified()) {
        return true;
    }
    QMessageBox box(QMessageBox::Question, tr("Tally"),
                    tr("The plan \"%1\" has changes that are not saved to a file.")
                        .arg(qs(plan_title(m_document->spec(), m_document->headlineViews().hardware,
                                           uiTextTranslator()))),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("confirmReplace"));
    box.setInformativeText(question.isEmpty() ? tr("Save them before the plan is replaced?")
                                              : question);
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
        case QMessageBox::Save:
            return save();
        case QMessageBox::Discard:
            return true;
        default:
            return false;
    }
}

void MainWindow::open() {
    if (!confirmReplace()) {
        return;
    }
    const QString path = askPath(tr("Open a plan"), tr("Plans (*.json);;All files (*)"), false);
    if (!path.isEmpty()) {
        QString error;
        if (!openFile(path, &error)) {
            report(error);
        }
    }
}

void MainWindow::importRunConfiguration() {
    const QString path = askPath(
        tr("Import a run configuration"),
        tr("Launch configurations (*.sh *.txt *.log *.toml *.json *.yaml *.yml);;All files (*)"),
        false);
    if (path.isEmpty()) {
        return;
    }
    auto* dialog = new ImportLaunchDialog(m_document, path, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

bool MainWindow::openFile(const QString& path, QString* error) {
    return m_document->open(path, error);
}

bool MainWindow::openFileAtStart(const QString& path, QString* error, bool* opened) {
    *opened = false;
    if (!confirmReplace(tr("Save them before %1 is opened?").arg(path))) {
        statusBar()->showMessage(
            tr("Kept the plan of the last session; %1 was not opened").arg(path), 8000);
        return true;
    }
    if (!openFile(path, error)) {
        return false;
    }
    *opened = true;
    return true;
}

bool MainWindow::saveFile(const QString& path, QString* error) {
    return m_document->save(path, error);
}

bool MainWindow::save() {
    commitPendingEdits();
    if (m_document->filePath().isEmpty()) {
        return saveAs();
    }
    // Another program (an editor, a script, another window) changed the file since it was read
    // or written here: saving would overwrite what it wrote, so the user chooses.
    if (m_document->fileChangedOnDisk()) {
        QMessageBox box(QMessageBox::Warning, tr("Tally"),
                        tr("%1 was changed by another program since Tally opened or saved it.")
                            .arg(m_document->filePath()),
                        QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("confirmOverwriteChanged"));
        box.setInformativeText(
            tr("Saving writes this plan over those changes. Save it to another file to keep "
               "both."));
        QPushButton* overwrite =
            box.addButton(tr("&Overwrite the file"), QMessageBox::DestructiveRole);
        overwrite->setObjectName(QStringLiteral("overwrite"));
        QPushButton* other = box.addButton(tr("Save to &another file…"), QMessageBox::AcceptRole);
        other->setObjectName(QStringLiteral("saveAs"));
        QPushButton* cancel = box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(other);
        box.setEscapeButton(cancel);
        box.exec();
        if (box.clickedButton() == other) {
            return saveAs();
        }
        if (box.clickedButton() != overwrite) {
            return false;
        }
    }
    QString error;
    if (!saveFile(m_document->filePath(), &error)) {
        report(error);
        return false;
    }
    statusBar()->showMessage(tr("Saved the plan to %1").arg(m_document->filePath()), 8000);
    return true;
}

bool MainWindow::saveAs() {
    commitPendingEdits();
    const QString path = askPath(tr("Save the plan to a JSON file"), tr("Plans (*.json)"), true,
                                 suggestedFileName(QStringLiteral(".json")));
    if (path.isEmpty()) {
        return false;
    }
    QString error;
    if (!saveFile(path, &error)) {
        report(error);
        return false;
    }
    statusBar()->showMessage(tr("Saved the plan to %1").arg(path), 8000);
    return true;
}

void MainWindow::exportPlan(bool markdown) {
    commitPendingEdits();
    const QString path =
        markdown ? askPath(tr("Export the plan as a Markdown report"), tr("Markdown (*.md)"), true,
                           suggestedFileName(QStringLiteral(".md")))
                 : askPath(tr("Export the plan as CSV"), tr("CSV (*.csv)"), true,
                           suggestedFileName(QStringLiteral(".csv")));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    const bool ok =
        markdown ? m_document->exportMarkdown(path, &error) : m_document->exportCsv(path, &error);
    if (!ok) {
        report(error);
    }
}

void MainWindow::exportChartInteractive(const ChartInfo& chart, bool svg) {
    commitPendingEdits();
    const QString path =
        askPath(tr("Export %1").arg(chart.title), svg ? tr("SVG (*.svg)") : tr("PNG (*.png)"), true,
                suggestedFileName(u'-' + chart.id +
                                  (svg ? QStringLiteral(".svg") : QStringLiteral(".png"))));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!exportChart(chart.id, path, &error)) {
        report(error);
    }
}

void MainWindow::refreshTexts() {
    // An example's name and notes follow the language, as they would opened now.
    m_document->relocalizeExampleTexts();
    emit m_document->resultsChanged();
    emit m_document->errorChanged();
    updateTitle();
    // The form's labels are as wide as the language makes them: the least width it takes was
    // set in the first language, and English labels, wider than Chinese ones, cut every entry
    // box at the dock's edge. Take the new least width, and widen the dock to it if narrower.
    if (QLayout* layout = m_form->layout()) {
        layout->activate();
    }
    const int least = m_form->minimumSizeHint().width() + 24;
    m_formScroll->setMinimumWidth(least);
    if (m_formDock->width() < least) {
        resizeDocks({m_formDock}, {least}, Qt::Horizontal);
    }
}

void MainWindow::updateTitle() {
    const QString path = m_document->filePath();
    // A plan from a file is called by its file; otherwise by its title, which for a plan the
    // user did not name says what it is and follows its edits.
    const QString name =
        !path.isEmpty() ? QFileInfo(path).fileName()
        : m_document->views()
            ? qs(plan_title(m_document->spec(), m_document->headlineViews().hardware,
                            uiTextTranslator()))
            : (!m_document->spec().name.empty() ? qs(m_document->spec().name)
                                                : tr("Untitled plan"));
    const QString title = tr("%1[*] — Tally").arg(name);
    if (windowTitle() != title) {
        setWindowTitle(title);
    }
    if (isWindowModified() != m_document->isModified()) {
        setWindowModified(m_document->isModified());
    }
}

void MainWindow::showError() {
    // A GPU without a peak for the compute dtype (a measured CPU profile has no bf16 one): offer
    // the first of bf16, fp16, tf32, fp32, fp8 it has, in one click. 4-bit training asked as
    // fp4_e2m1 or mxfp4 on a part that trains NVFP4 (check(): Transformer Engine's one 4-bit
    // recipe) is offered nvfp4.
    std::optional<DType> offer;
    if (const auto& error = m_document->error();
        error && error->field == "training.compute_dtype") {
        if (const HardwareProfile* hw = m_catalog->find(m_document->spec().cluster.gpu)) {
            const DType asked = m_document->spec().training.compute_dtype;
            if ((asked == DType::fp4_e2m1 || asked == DType::mxfp4) &&
                gpu_generation(*hw) == GpuGeneration::blackwell) {
                offer = DType::nvfp4;
            }
            for (DType d : {DType::bf16, DType::fp16, DType::tf32, DType::fp32, DType::fp8_e4m3}) {
                if (!offer && hw->supports(compute_type(d))) {
                    offer = d;
                    break;
                }
            }
        }
    }
    if (offer) {
        m_offeredDtype = *offer;
        m_dtypeOffer->setText(tr("Compute in %1 instead").arg(qs(to_string(*offer))));
    }
    m_dtypeOffer->setVisible(offer.has_value());
    if (const auto& error = m_document->error()) {
        statusBar()->setStyleSheet(QStringLiteral("color: #c62828;"));
        // A serving spec without a training part: the serving plan is drawn, training is not.
        QString message = m_document->servingViews()
                              ? tr("Training not planned: %1. The Inference panel and the "
                                   "headline show the serving plan.")
                                    .arg(errorText(*error))
                              : tr("Not drawn: %1").arg(errorText(*error));
        // Refused for its layout alone (tp x pp and the batch do not suit the GPUs): the search
        // finds one that does. Not for a plan drawn as a serving plan, whose message already
        // ends its sentence and which the Layouts panel (training) does not serve.
        const HardwareProfile* hw = m_document->hardware();
        if (hw && !m_document->servingViews() && !check_layout_search(m_document->spec(), *hw)) {
            // The planner's message ends without a full stop: the sentence after it needs one.
            message = tr("%1. The Layouts panel lists the layouts that suit %2 GPUs.")
                          .arg(message)
                          .arg(m_document->spec().cluster.gpus);
        }
        statusBar()->showMessage(message);
        statusBar()->setToolTip(message);
    } else {
        statusBar()->setStyleSheet({});
        statusBar()->setToolTip({});
        statusBar()->showMessage(
            tr("Drag a slider or type a value; every chart follows. Hover "
               "a figure to see how it is computed."));
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    commitPendingEdits();
    if (m_autosaveElsewhere && !confirmReplace(tr("Save them before the window closes?"))) {
        // Nothing keeps this window's plan once it closes: asked as File > Open asks.
        event->ignore();
        return;
    }
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    if (m_autosave) {
        QString error;
        if (!m_autosave->flush(&error)) {
            // The plan is still in memory: offer to stay rather than lose the edits silently.
            if (QMessageBox::warning(this, tr("Tally"), tr("%1\nClose anyway?").arg(error),
                                     QMessageBox::Close | QMessageBox::Cancel) !=
                QMessageBox::Close) {
                event->ignore();
                return;
            }
        }
    }
    if (m_autosave) {
        // Closed: another window may keep the autosave from now on.
        delete m_autosave;
        m_autosave = nullptr;
        m_autosaveLock.reset();
    }
    event->accept();
}

}  // namespace tally::ui
