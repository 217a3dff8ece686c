#include "ui/probe/probe_panel.h"

#include "ui/window/app_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "planner/core/errors.h"
#include "planner/hardware/probe_records.h"
#include "planner/performance/plan_gemms.h"
#include "ui/charts/roofline_panel.h"
#include "ui/common/chart_support.h"
#include "ui/common/hardware_catalog.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/plan_document.h"
#include "ui/probe/measured_profile_dialog.h"
#include "ui/probe/probe_results_model.h"
#include "ui/probe/probe_runs_model.h"
#include "ui/probe/probe_text.h"
#include "ui/session/probe_run_saver.h"
#include "ui/session/workspace_session.h"
#include "ui/window/main_window.h"

namespace tally::ui {

namespace {

const QString kCpu = QStringLiteral("cpu");
const QString kCuda = QStringLiteral("cuda");
// The cluster backends: collectives between the ranks a launcher starts.
const QString kNccl = QStringLiteral("nccl");
const QString kTcp = QStringLiteral("tcp");
const QString kCluster = QStringLiteral("cluster");

QString backendName(const QString& backend) {
    if (backend == kNccl || backend == kTcp) {
        return backend.toUpper();
    }
    return backend == kCuda ? QStringLiteral("CUDA") : QStringLiteral("CPU");
}

bool clusterBackend(const QString& backend) {
    return backend == kNccl || backend == kTcp;
}

}  // namespace

QString ProbePanel::toneStyle(Tone tone) {
    switch (tone) {
        case Tone::warning:
            return QStringLiteral("color: #8a5a00;");
        case Tone::error:
            return QStringLiteral("color: #c62828; font-weight: bold;");
        case Tone::info:
            break;
    }
    return {};
}

ProbePanel::ProbePanel(WorkspaceSession* session, HardwareCatalog* catalog, PlanDocument* document,
                       AppSettings* settings, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_catalog(catalog),
      m_document(document),
      m_where(new QComboBox(this)),
      m_host(new QLineEdit(this)),
      m_remoteProbe(new QLineEdit(this)),
      m_launcher(new QLineEdit(this)),
      m_backend(new QComboBox(this)),
      m_quick(new QCheckBox(tr("Quick (small sizes, few samples)"), this)),
      m_planGemms(new QCheckBox(tr("Only this plan's GEMMs"), this)),
      m_tests(new QListWidget(this)),
      m_testsNote(new QLabel(this)),
      m_start(new QPushButton(tr("Start"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_runsView(new QListView(this)),
      m_runs(new ProbeRunsModel(this)),
      m_showRoofline(new QPushButton(tr("Show on roofline"), this)),
      m_makeProfile(new QPushButton(tr("Make hardware profile…"), this)),
      m_deleteRun(new QPushButton(tr("Delete…"), this)),
      m_prompts(defaultPrompts()),
      m_device(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)),
      m_message(new QLabel(this)),
      m_cpuOffer(new QPushButton(tr("Run on the CPU instead"), this)),
      m_warnings(new QLabel(this)),
      m_compare(new QComboBox(this)),
      m_saveNote(new QLabel(this)),
      m_table(new QTableView(this)),
      m_results(new ProbeResultsModel(this)) {
    m_settings = settings;
    setObjectName(QStringLiteral("probePanel"));
    m_backend->setObjectName(QStringLiteral("probeBackend"));
    m_quick->setObjectName(QStringLiteral("probeQuick"));
    m_planGemms->setObjectName(QStringLiteral("probePlanGemms"));
    m_planGemms->setToolTip(
        tr("Time exactly the GEMMs the step-time model times for the current plan (forward, data "
           "and weight gradients at their tensor-parallel shapes), as tally probe --plan does. A "
           "profile made from the run times the plan with these measurements."));
    m_tests->setObjectName(QStringLiteral("probeTests"));
    m_start->setObjectName(QStringLiteral("probeStart"));
    m_cancel->setObjectName(QStringLiteral("probeCancel"));
    m_cpuOffer->setObjectName(QStringLiteral("probeRunOnCpu"));
    m_makeProfile->setObjectName(QStringLiteral("probeMakeProfile"));
    m_deleteRun->setObjectName(QStringLiteral("probeDeleteRun"));
    m_showRoofline->setObjectName(QStringLiteral("probeShowOnRoofline"));
    m_progress->setObjectName(QStringLiteral("probeProgress"));
    m_status->setObjectName(QStringLiteral("probeStatus"));
    m_saveNote->setObjectName(QStringLiteral("probeSaveNote"));
    m_compare->setObjectName(QStringLiteral("probeCompare"));
    m_runsView->setObjectName(QStringLiteral("probeRuns"));
    m_backend->addItem(tr("CUDA (NVIDIA GPU)"), kCuda);
    m_backend->addItem(tr("CPU"), kCpu);
    m_backend->addItem(tr("NCCL collectives (the cluster's GPUs)"), kNccl);
    m_backend->addItem(tr("TCP collectives (CPU ranks, no GPUs)"), kTcp);
    m_backend->setItemData(0,
                           tr("The GPU through CUDA: cuBLASLt matmuls, device memory, the "
                              "lecture's kernels, host-device copies"),
                           Qt::ToolTipRole);
    m_backend->setItemData(1,
                           tr("This machine's cores and memory: STREAM, FMA peak, BLAS "
                              "matmuls, the lecture's operations"),
                           Qt::ToolTipRole);
    m_backend->setItemData(2,
                           tr("All-reduce, all-gather, reduce-scatter, all-to-all and send/recv "
                              "between the GPUs the launcher starts, one rank per GPU, through "
                              "NCCL (as nccl-tests measures them)"),
                           Qt::ToolTipRole);
    m_backend->setItemData(3,
                           tr("The same collectives over TCP between CPU ranks: checks the "
                              "launcher and the network without GPUs"),
                           Qt::ToolTipRole);
    m_backend->setAccessibleName(tr("Backend"));
    m_where->setObjectName(QStringLiteral("probeWhere"));
    m_host->setObjectName(QStringLiteral("probeSshHost"));
    m_remoteProbe->setObjectName(QStringLiteral("probeRemotePath"));
    m_where->addItem(tr("This machine"), QStringLiteral("local"));
    m_where->addItem(tr("SSH host"), QStringLiteral("ssh"));
    m_where->addItem(tr("A cluster, through a launcher (srun, mpirun)"), kCluster);
    m_where->setItemData(2,
                         tr("Run tally-probe as the ranks of a cluster launcher started here (on a "
                            "login node: srun, mpirun): it measures the collectives between the "
                            "ranks, as tally probe --launcher does"),
                         Qt::ToolTipRole);
    m_launcher->setObjectName(QStringLiteral("probeLauncher"));
    m_launcher->setPlaceholderText(tr("launcher, e.g. srun -N 2 --ntasks-per-node 8"));
    m_launcher->setAccessibleName(tr("Cluster launcher"));
    m_where->setItemData(1,
                         tr("Run tally-probe on another machine through ssh (which must log in "
                            "without a password prompt); the results stream back and are "
                            "saved here"),
                         Qt::ToolTipRole);
    m_where->setAccessibleName(tr("Where the probe runs"));
    m_host->setPlaceholderText(tr("host or user@host"));
    m_host->setAccessibleName(tr("SSH host"));
    m_remoteProbe->setPlaceholderText(tr("tally-probe (on the host's PATH)"));
    m_remoteProbe->setAccessibleName(tr("tally-probe on the host"));
    if (m_settings) {
        m_where->setCurrentIndex(std::max(0, m_where->findData(m_settings->probeLocation())));
        m_host->setText(m_settings->probeSshHost());
        m_remoteProbe->setText(m_settings->probeRemotePath());
        m_launcher->setText(m_settings->probeLauncher());
    }
    m_host->setEnabled(m_where->currentIndex() == 1);
    m_remoteProbe->setEnabled(m_where->currentIndex() == 1);
    m_launcher->setVisible(inCluster());
    if (m_settings) {
        const int remembered = m_backend->findData(m_settings->probeBackend());
        if (remembered >= 0) {
            m_backend->setCurrentIndex(remembered);
            m_backendChosen = true;
        }
    }
    enableBackends();
    m_quick->setChecked(true);
    m_tests->setAccessibleName(tr("Tests"));
    m_testsNote->setObjectName(QStringLiteral("probeTestsNote"));
    m_testsNote->setWordWrap(true);
    m_cancel->setEnabled(false);
    m_cpuOffer->hide();
    for (QLabel* label : {m_device, m_status, m_message, m_warnings, m_saveNote}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_device->setObjectName(QStringLiteral("probeDevice"));
    m_message->setObjectName(QStringLiteral("probeMessage"));
    m_warnings->setObjectName(QStringLiteral("probeWarnings"));
    m_warnings->setStyleSheet(toneStyle(Tone::warning));
    m_warnings->hide();
    m_message->hide();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m tests"));
    m_progress->hide();  // until a run starts
    m_compare->setAccessibleName(tr("Compare with"));
    m_runsView->setModel(m_runs);
    m_runsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_runsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_runsView->setAccessibleName(tr("Past probe runs"));
    m_runsView->setWordWrap(true);
    m_runsView->setTextElideMode(Qt::ElideNone);
    m_runsView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_runsView->setSpacing(2);
    m_table->setModel(m_results);
    m_table->setObjectName(QStringLiteral("probeResults"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    compactTable(m_table, ProbeResultsModel::SizesColumn);
    m_device->setText(tr("No run yet: pick a backend and the tests, then Start."));
    buildLayout();

    connect(m_start, &QPushButton::clicked, this, [this] { start(); });
    connect(m_cancel, &QPushButton::clicked, this, &ProbePanel::cancel);
    connect(m_cpuOffer, &QPushButton::clicked, this, &ProbePanel::runOnCpuInstead);
    connect(m_makeProfile, &QPushButton::clicked, this, &ProbePanel::makeProfile);
    connect(m_deleteRun, &QPushButton::clicked, this, [this] { deleteRun(); });
    connect(m_planGemms, &QCheckBox::toggled, this, &ProbePanel::updateButtons);
    connect(m_showRoofline, &QPushButton::clicked, this, &ProbePanel::showOnRooflineRequested);
    connect(m_backend, &QComboBox::currentIndexChanged, this, [this] {
        // What was said about the other backend (e.g. that CUDA is missing) no longer applies.
        m_cpuOffer->hide();
        m_message->hide();
        listTests(backend());
    });
    connect(m_backend, &QComboBox::activated, this, [this] { rememberBackend(); });
    connect(m_where, &QComboBox::currentIndexChanged, this, &ProbePanel::onLocationChanged);
    connect(m_host, &QLineEdit::editingFinished, this, &ProbePanel::onLocationChanged);
    connect(m_remoteProbe, &QLineEdit::editingFinished, this, &ProbePanel::onLocationChanged);
    connect(m_launcher, &QLineEdit::editingFinished, this, &ProbePanel::onLocationChanged);
    connect(m_compare, &QComboBox::currentIndexChanged, this, &ProbePanel::updateComparison);
    connect(m_runsView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ProbePanel::onRunPicked);

    connect(&m_runner, &ProbeRunner::started, this, &ProbePanel::onStarted);
    connect(&m_runner, &ProbeRunner::deviceAvailable, this, &ProbePanel::onDevice);
    connect(&m_runner, &ProbeRunner::progress, this, &ProbePanel::onProgress);
    connect(&m_runner, &ProbeRunner::resultAvailable, this, &ProbePanel::onResult);
    connect(&m_runner, &ProbeRunner::probeError, this, &ProbePanel::onProbeError);
    connect(&m_runner, &ProbeRunner::protocolError, this, &ProbePanel::onProtocolError);
    connect(&m_runner, &ProbeRunner::finished, this, &ProbePanel::onFinished);
    connect(&m_lister, &ProbeRunner::finished, this, &ProbePanel::onTestsListed);

    connect(m_session, &WorkspaceSession::probeRunsChanged, this, &ProbePanel::reloadRuns);
    connect(m_session, &WorkspaceSession::opened, this, &ProbePanel::onSessionChanged);
    connect(m_session, &WorkspaceSession::closed, this, &ProbePanel::onSessionChanged);
    connect(m_catalog, &HardwareCatalog::profilesChanged, this, &ProbePanel::fillCompareBox);
    connect(m_document, &PlanDocument::resultsChanged, this, &ProbePanel::fillCompareBox);

    fillCompareBox();
    onSessionChanged();
    listFirst();
}

void ProbePanel::listFirst() {
    // Nobody picked a backend: list the one tally-probe itself would run (CUDA when it is built
    // with it and finds a device, else the CPU); onTestsListed() selects it. A cluster's
    // backends are never the probe's default, so they are listed by name.
    listTests(m_backendChosen || inCluster() ? backend() : QString());
}

bool ProbePanel::inCluster() const {
    return m_where->currentData().toString() == kCluster;
}

void ProbePanel::enableBackends() {
    // A cluster runs the collectives backends, a single machine the others: only those can be
    // picked, and the current one moves to the first that can when it cannot.
    auto* model = qobject_cast<QStandardItemModel*>(m_backend->model());
    const bool cluster = inCluster();
    int first = -1;
    for (int row = 0; row < m_backend->count(); ++row) {
        const bool fits = clusterBackend(m_backend->itemData(row).toString()) == cluster;
        if (model != nullptr) {
            model->item(row)->setEnabled(fits);
        }
        if (fits && first < 0) {
            first = row;
        }
    }
    if (clusterBackend(backend()) != cluster && first >= 0) {
        const QSignalBlocker block(m_backend);
        m_backend->setCurrentIndex(first);
    }
}

ProbePanel::~ProbePanel() = default;

void ProbePanel::buildLayout() {
    auto* runBox = new QGroupBox(tr("Run the probe"), this);
    auto* runLayout = new QVBoxLayout(runBox);
    auto* whereRow = new QHBoxLayout;
    whereRow->addWidget(new QLabel(tr("Run on:"), runBox));
    whereRow->addWidget(m_where, 1);
    runLayout->addLayout(whereRow);
    runLayout->addWidget(m_host);
    runLayout->addWidget(m_remoteProbe);
    runLayout->addWidget(m_launcher);
    auto* backendRow = new QHBoxLayout;
    backendRow->addWidget(new QLabel(tr("Backend:"), runBox));
    backendRow->addWidget(m_backend, 1);
    runLayout->addLayout(backendRow);
    runLayout->addWidget(m_quick);
    runLayout->addWidget(m_planGemms);
    runLayout->addWidget(new QLabel(tr("Tests:"), runBox));
    runLayout->addWidget(m_tests, 1);
    runLayout->addWidget(m_testsNote);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancel);
    runLayout->addLayout(buttons);

    auto* pastBox = new QGroupBox(tr("Past runs"), this);
    auto* pastLayout = new QVBoxLayout(pastBox);
    pastLayout->addWidget(m_runsView, 1);
    auto* pastButtons = new QHBoxLayout;
    pastButtons->addWidget(m_showRoofline);
    pastButtons->addWidget(m_makeProfile);
    pastButtons->addWidget(m_deleteRun);
    pastLayout->addLayout(pastButtons);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(runBox, 3);
    leftLayout->addWidget(pastBox, 2);

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_device);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress);
    progressRow->addWidget(m_status, 2);
    rightLayout->addLayout(progressRow);
    auto* messageRow = new QHBoxLayout;
    messageRow->addWidget(m_message, 1);
    messageRow->addWidget(m_cpuOffer, 0, Qt::AlignTop);
    rightLayout->addLayout(messageRow);
    rightLayout->addWidget(m_warnings);
    auto* compareRow = new QHBoxLayout;
    compareRow->addWidget(new QLabel(tr("Fractions of:"), right));
    compareRow->addWidget(m_compare);
    compareRow->addStretch(1);
    rightLayout->addLayout(compareRow);
    // Below, the whole width: beside the picker a workspace's path wrapped to a word a line on a
    // laptop's screen.
    rightLayout->addWidget(m_saveNote);
    rightLayout->addWidget(m_table, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({240, 1000});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);
}

void ProbePanel::setBaseOptions(const ProbeOptions& options) {
    m_base = options;
    // The tests of another probe may differ: list them again.
    ++m_probeGeneration;
    m_testLists.clear();
    m_listErrors.clear();
    listFirst();
}

QString ProbePanel::backend() const {
    return m_backend->currentData().toString();
}

ProbeOptions ProbePanel::runOptions() const {
    ProbeOptions options = m_base;
    if (m_where->currentData().toString() == QLatin1String("ssh")) {
        options.remoteHost = m_host->text().trimmed();
        options.remoteProbe = m_remoteProbe->text().trimmed();
    } else if (inCluster()) {
        options.launcher = m_launcher->text().trimmed();
    }
    return options;
}

void ProbePanel::onLocationChanged() {
    const bool remote = m_where->currentData().toString() == QLatin1String("ssh");
    m_host->setEnabled(remote);
    m_remoteProbe->setEnabled(remote);
    m_launcher->setVisible(inCluster());
    if (m_settings) {
        m_settings->setProbeLocation(m_where->currentData().toString());
        m_settings->setProbeSshHost(m_host->text().trimmed());
        m_settings->setProbeRemotePath(m_remoteProbe->text().trimmed());
        m_settings->setProbeLauncher(m_launcher->text().trimmed());
    }
    const bool wasCluster = clusterBackend(backend());
    enableBackends();
    const ProbeOptions options = runOptions();
    if (options.remoteHost == m_listedHost && options.remoteProbe == m_listedRemoteProbe &&
        wasCluster == inCluster()) {
        return;  // nothing that changes the probe (e.g. focus left the host field unchanged)
    }
    if (remote && options.remoteHost.isEmpty()) {
        showMessage(Tone::info, tr("Type the SSH host the probe runs on."));
        return;
    }
    m_message->hide();
    // Another machine's probe has other tests (a CUDA build, another version): list again.
    ++m_probeGeneration;
    m_testLists.clear();
    m_listErrors.clear();
    listFirst();
}

bool ProbePanel::isRunning() const {
    return m_runner.isRunning();
}

// ---- the tests a backend has (tally-probe --list) ----------------------------------------------

void ProbePanel::listTests(const QString& backend) {
    if (m_testLists.count(backend) > 0 || m_listErrors.count(backend) > 0) {
        fillTests();
        return;
    }
    fillTests();
    if (m_lister.isRunning()) {
        return;  // onTestsListed() lists the backend shown now when the other one is done
    }
    ProbeOptions options = runOptions();
    m_listedHost = options.remoteHost;
    m_listedRemoteProbe = options.remoteProbe;
    // The tests are the probe's own: one process lists them, not the launcher's ranks.
    options.launcher.clear();
    options.backend = backend;
    options.quick = false;
    options.tests.clear();
    options.extraArguments = {QStringLiteral("--list")};
    options.silenceTimeoutS = std::min(options.silenceTimeoutS, 20.0);
    m_listing = backend;
    m_listingGeneration = m_probeGeneration;
    m_lister.start(options);
    updateButtons();  // Cancel stops the listing too
}

void ProbePanel::onTestsListed(const probe::ProbeRun& run, const ProbeExit& exit) {
    const QString listed = std::exchange(m_listing, QString());
    updateButtons();
    if (exit.outcome == ProbeOutcome::cancelled) {
        // Cancelled by the user: no list, nothing running, the panel as before Start; picking
        // the place or the backend again lists anew.
        const QString b = listed.isEmpty() ? backend() : listed;
        m_listErrors[b] = tr("Listing was cancelled.");
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(tr("%v of %m tests"));
        m_status->setText(tr("Listing cancelled; Start runs every %1 test.").arg(backendName(b)));
        fillTests();
        return;
    }
    if (m_listingGeneration != m_probeGeneration) {
        listFirst();  // the probe changed while it was being listed
        return;
    }
    if (listed.isEmpty()) {
        // The probe's own default backend: its tests say which it is.
        if (!run.tests.empty()) {
            const QString found = qs(run.tests.front().backend);
            m_testLists[found] = run.tests;
            const int row = m_backend->findData(found);
            // Only ever away from CUDA, to the CPU, and only while nobody chose: the panel
            // opens on CUDA, which is right wherever the probe finds a device.
            if (!m_backendChosen && found == kCpu && row >= 0 && backend() != kCpu &&
                !isRunning()) {
                m_backend->setCurrentIndex(row);
                showMessage(Tone::info,
                            tr("tally-probe has no CUDA device to use here (no NVIDIA GPU, or "
                               "built without CUDA), so the CPU backend is selected. Pick CUDA "
                               "on a machine with an NVIDIA GPU."));
            }
        }
        listTests(backend());
        return;
    }
    if (!run.tests.empty()) {
        m_testLists[listed] = run.tests;
    } else {
        m_listErrors[listed] = exit.reason;
        if (exit.outcome == ProbeOutcome::notStarted && listed == backend() && !isRunning()) {
            // No tally-probe to run: said now, where it was looked for, not after Start.
            showMessage(Tone::error, tr("tally-probe could not be started: %1").arg(exit.reason));
        }
        if (exit.outcome == ProbeOutcome::backendUnavailable && listed == backend() &&
            !isRunning()) {
            if (!m_backendChosen && listed != kCpu && !clusterBackend(listed)) {
                // Nobody picked this backend and it cannot run here: start on the one that can,
                // and say why.
                m_backend->setCurrentIndex(m_backend->findData(kCpu));
                showMessage(Tone::info, tr("The %1 backend cannot run here (%2), so the CPU "
                                           "backend is selected. Pick %1 on a machine that has it.")
                                            .arg(backendName(listed), exit.reason));
                return;
            }
            showOutcome(exit, listed, 0);
        }
    }
    if (listed != backend()) {
        listTests(backend());
    } else {
        fillTests();
    }
}

void ProbePanel::fillTests() {
    m_tests->clear();
    const QString b = backend();
    const auto it = m_testLists.find(b);
    if (it == m_testLists.end()) {
        const auto error = m_listErrors.find(b);
        m_testsNote->setText(error != m_listErrors.end()
                                 ? tr("The %1 tests could not be listed; Start runs all of them.")
                                       .arg(backendName(b))
                                 : tr("Listing the %1 tests…").arg(backendName(b)));
        m_testsNote->setToolTip(error != m_listErrors.end() ? error->second : QString());
        m_testsNote->show();
        return;
    }
    for (const probe::TestEvent& t : it->second) {
        auto* item = new QListWidgetItem(qs(t.name), m_tests);
        item->setData(Qt::UserRole, qs(t.name));
        item->setToolTip(qs(t.description));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    m_testsNote->hide();
}

QString ProbePanel::planGemmShapes(QString* why) const {
    const PlanSpec& spec = m_document->views()->spec;
    const std::vector<PlanGemm> gemms = plan_gemms(spec);
    if (gemms.empty()) {
        *why =
            tr("A model given by its parameter count has no GEMM shapes to measure: describe "
               "its layers (a transformer or the MLP) to measure the plan's GEMMs.");
        return {};
    }
    const ComputeType type = compute_type(spec.training.compute_dtype);
    const QString dtypeName = qs(std::string(to_string(spec.training.compute_dtype)));
    const auto dtype = probe_gemm_dtype(type);
    if (!dtype) {
        *why = tr("The probe has no GEMM in the plan's compute dtype %1: pick fp32, bf16, fp16 or "
                  "fp8 under Training to measure the plan's GEMMs.")
                   .arg(dtypeName);
        return {};
    }
    if (backend() == kCpu && type != ComputeType::fp32 && type != ComputeType::fp64) {
        *why = tr("The CPU backend times fp32 and fp64 GEMMs; the plan computes in %1. Pick fp32 "
                  "as the compute dtype under Training, or run on a GPU.")
                   .arg(dtypeName);
        return {};
    }
    return qs(gemm_shapes_argument(gemms, *dtype));
}

QStringList ProbePanel::chosenTests() const {
    QStringList chosen;
    for (int i = 0; i < m_tests->count(); ++i) {
        if (m_tests->item(i)->checkState() == Qt::Checked) {
            chosen << m_tests->item(i)->data(Qt::UserRole).toString();
        }
    }
    // Every test (or a list not known): no --tests, the probe runs them all.
    return chosen.size() == m_tests->count() ? QStringList() : chosen;
}

// ---- a run -------------------------------------------------------------------------------------

bool ProbePanel::start() {
    if (isRunning()) {
        return false;
    }
    const bool planOnly = m_planGemms->isChecked();
    int checked = 0;
    for (int i = 0; i < m_tests->count(); ++i) {
        checked += m_tests->item(i)->checkState() == Qt::Checked ? 1 : 0;
    }
    if (!planOnly && m_tests->count() > 0 && checked == 0) {
        showMessage(Tone::error, tr("Pick at least one test."));
        return false;
    }
    QString shapes;
    if (planOnly) {
        QString why;
        shapes = planGemmShapes(&why);
        if (shapes.isEmpty()) {
            showMessage(Tone::error, why);
            return false;
        }
    }
    const QStringList tests = planOnly ? QStringList{QStringLiteral("gemm_shapes")} : chosenTests();
    ProbeOptions options = runOptions();
    if (planOnly) {
        options.extraArguments << QStringLiteral("--gemm-shapes") << shapes;
    }
    if (m_where->currentData().toString() == QLatin1String("ssh") && options.remoteHost.isEmpty()) {
        showMessage(Tone::error, tr("Type the SSH host the probe runs on."));
        return false;
    }
    if (inCluster()) {
        if (options.launcher.isEmpty()) {
            showMessage(Tone::error, tr("Type the launcher that starts the ranks, e.g. srun -N 2 "
                                        "--ntasks-per-node 8 or mpirun -np 16."));
            return false;
        }
        options.extraArguments << QStringLiteral("--bootstrap-file") << clusterBootstrapFile();
    }
    options.backend = backend();
    options.quick = m_quick->isChecked();
    options.tests = tests;
    m_runBackend = options.backend;

    m_results->clear();
    m_progress->show();
    m_warningLines.clear();
    m_warnings->hide();
    m_message->hide();
    m_cpuOffer->hide();
    // A plan-only run is one test of many GEMMs: its progress counts the GEMMs measured.
    m_planShapes = planOnly ? static_cast<int>(shapes.count(QLatin1Char(',')) + 1) : 0;
    m_progress->setFormat(planOnly ? tr("%v of %m GEMMs") : tr("%v of %m tests"));
    m_progress->setRange(
        0, planOnly
               ? m_planShapes
               : std::max(1, tests.isEmpty() ? m_tests->count() : static_cast<int>(tests.size())));
    m_progress->setValue(0);
    m_device->setText(
        !options.launcher.isEmpty() ? tr("Starting tally-probe through %2 (%1 backend)…")
                                          .arg(backendName(options.backend), options.launcher)
        : options.remoteHost.isEmpty()
            ? tr("Starting tally-probe (%1 backend)…").arg(backendName(options.backend))
            : tr("Starting tally-probe on %2 (%1 backend)…")
                  .arg(backendName(options.backend), options.remoteHost));
    m_status->clear();
    {
        const QSignalBlocker block(m_runsView->selectionModel());
        m_runsView->clearSelection();
    }
    setCurrent(std::nullopt);

    // The run is saved through a connection of its own (WAL lets it write beside the session's).
    m_saver.reset();
    if (m_session->isOpen()) {
        try {
            m_saver =
                std::make_unique<ProbeRunSaver>(Workspace::open(m_session->path().toStdString()));
            connect(m_saver.get(), &ProbeRunSaver::runSaved, this, [this](qint64 id) {
                setSaveNote(Tone::info,
                            tr("Saving as probe run #%1 in %2").arg(id).arg(m_session->path()));
                m_session->announceProbeRunsChanged();
            });
            connect(m_saver.get(), &ProbeRunSaver::saveFailed, this, [this](const QString& why) {
                setSaveNote(Tone::error,
                            tr("Not saved: the workspace refused the run (%1). The results below "
                               "are shown but not stored.")
                                .arg(why));
            });
            setSaveNote(Tone::info, tr("Will be saved in %1").arg(m_session->path()));
        } catch (const std::exception& e) {
            setSaveNote(Tone::error, tr("Not saved: the workspace %1 cannot be opened (%2). The "
                                        "run goes on and is shown here.")
                                         .arg(m_session->path(), workspaceErrorMessage(e)));
        }
    } else {
        setSaveNote(Tone::warning,
                    tr("No workspace is open: this run is shown here but not saved."));
    }
    m_runner.start(options);
    updateButtons();
    return true;
}

void ProbePanel::cancel() {
    if (isRunning()) {
        m_status->setText(tr("Cancelling…"));
        m_runner.cancel();
    }
    // The listing child too (`ssh HOST tally-probe --list` may wait on a slow or silent host):
    // onTestsListed() gets its cancelled exit and puts the panel back.
    if (m_lister.isRunning()) {
        m_lister.cancel();
    }
}

void ProbePanel::runOnCpuInstead() {
    if (isRunning()) {
        return;
    }
    // The tests chosen for CUDA that the CPU has too, else every CPU test.
    const QStringList wanted = chosenTests();
    m_backend->setCurrentIndex(m_backend->findData(kCpu));
    rememberBackend();
    const auto cpu = m_testLists.find(kCpu);
    if (!wanted.isEmpty() && cpu != m_testLists.end()) {
        QStringList common;
        for (const probe::TestEvent& t : cpu->second) {
            if (wanted.contains(qs(t.name))) {
                common << qs(t.name);
            }
        }
        for (int i = 0; i < m_tests->count() && !common.isEmpty(); ++i) {
            QListWidgetItem* item = m_tests->item(i);
            item->setCheckState(
                common.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
        }
    }
    start();
}

void ProbePanel::onStarted(const probe::StartEvent& s) {
    if (m_saver) {
        m_saver->onStarted(s);
    }
    m_status->setText(tr("%1 %2 on %3%4")
                          .arg(qs(s.tool), qs(s.version),
                               s.host.empty() ? tr("this machine") : qs(s.host),
                               s.quick ? tr(" (quick)") : QString()));
}

void ProbePanel::onDevice(const probe::DeviceEvent& d) {
    if (m_saver) {
        m_saver->onDevice(d);
    }
    m_device->setText(deviceDescription(d));
}

void ProbePanel::onProgress(const probe::ProgressEvent& p) {
    if (m_planShapes > 0) {
        m_progress->setValue(std::min(m_results->rowCount(), m_planShapes));
    } else if (p.total > 0) {
        m_progress->setRange(0, p.total);
        m_progress->setValue(std::clamp(p.index - 1, 0, p.total));
    }
    m_status->setText(qs(p.message));
}

void ProbePanel::onResult(const probe::ResultEvent& r) {
    if (m_saver) {
        m_saver->onResult(r);
    }
    m_results->appendResult(probeResultRow(r));
    m_table->scrollToBottom();
    if (m_planShapes > 0) {
        m_progress->setValue(std::min(m_results->rowCount(), m_planShapes));
    }
}

void ProbePanel::onProbeError(const probe::ErrorEvent& e) {
    if (!e.fatal) {  // a fatal one is the run's outcome, said when it ends
        addWarning(e.test.empty() ? qs(e.message) : tr("%1: %2").arg(qs(e.test), qs(e.message)));
    }
}

void ProbePanel::onProtocolError(const QString& message) {
    addWarning(tr("unreadable output from tally-probe, %1").arg(message));
}

void ProbePanel::onFinished(const probe::ProbeRun& run, const ProbeExit& exit) {
    if (m_saver) {
        m_saver->onFinished(run, exit);
    }
    m_progress->setValue(m_progress->maximum());
    showOutcome(exit, m_runBackend, static_cast<int>(run.results.size()));

    // The run just made becomes the current one: as stored when it was saved, else as it came.
    const bool endedNormally =
        exit.outcome == ProbeOutcome::ok || exit.outcome == ProbeOutcome::testsFailed;
    std::optional<ProbeRunRecord> current;
    const std::optional<qint64> runId = m_saver ? m_saver->runId() : std::nullopt;
    if (runId && m_saver->error().isEmpty()) {
        setSaveNote(Tone::info, tr("Saved as probe run #%1 (%2) in %3")
                                    .arg(*runId)
                                    .arg(probeRunStatusText(probe_run_status(run, endedNormally)),
                                         m_session->path()));
        if (Workspace* ws = m_session->workspace()) {
            try {
                current = ws->find_probe_run(*runId);
            } catch (const std::exception& e) {
                addWarning(
                    tr("the saved run could not be read back: %1").arg(workspaceErrorMessage(e)));
            }
        }
    }
    if (!current && run.start) {
        current =
            probe_run_record(run, probe_run_status(run, endedNormally),
                             QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString());
        current->id = runId.value_or(0);
    }
    m_status->setText(tr("%n result(s)", nullptr, static_cast<int>(run.results.size())));
    setCurrent(current);
    if (runId) {
        m_session->announceProbeRunsChanged();
    }
    updateButtons();
    emit runFinished(exit);
}

void ProbePanel::rememberBackend() {
    m_backendChosen = true;
    if (m_settings) {
        m_settings->setProbeBackend(backend());
    }
}

void ProbePanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange || isRunning()) {
        return;
    }
    showWorkspaceNote();  // it names the workspace's file, so no lookup of the shown text finds it
    if (!m_current) {
        return;
    }
    const ProbeRunRecord run = *m_current;
    const std::optional<Outcome> outcome = m_message->isVisible() ? m_outcome : std::nullopt;
    if (run.id > 0) {
        showRun(run);
    } else {
        // A run shown but not saved (no workspace): its device and title only.
        const std::optional<probe::DeviceEvent> device = stored_device(run);
        m_device->setText(device ? deviceDescription(*device) : tr("(the run reported no device)"));
        m_status->setText(probeRunTitle(run));
    }
    if (outcome) {
        showOutcome(outcome->exit, outcome->backend, outcome->results);
    }
}

void ProbePanel::showOutcome(const ProbeExit& exit, const QString& backend, int results) {
    m_outcome = Outcome{exit, backend, results};
    m_cpuOffer->hide();
    const bool measuredNothing =
        results == 0 &&
        (exit.outcome == ProbeOutcome::backendUnavailable ||
         exit.outcome == ProbeOutcome::notStarted || exit.outcome == ProbeOutcome::badArguments);
    if (measuredNothing) {
        // Nothing ran: no "Starting…" line or "n of n tests" bar left behind.
        m_progress->hide();
        m_device->setText(tr("No run: tally-probe stopped before measuring anything."));
    }
    switch (exit.outcome) {
        case ProbeOutcome::ok:
            showMessage(Tone::info, tr("Finished: %n result(s), every one passed or waived.",
                                       nullptr, results));
            return;
        case ProbeOutcome::testsFailed:
            showMessage(Tone::warning,
                        tr("Finished, but %1: see the Status column (hover a row for the "
                           "reason).")
                            .arg(exit.reason));
            return;
        case ProbeOutcome::badArguments:
            showMessage(Tone::error, tr("tally-probe refused the options: %1").arg(exit.reason));
            return;
        case ProbeOutcome::backendUnavailable:
            showMessage(Tone::error, tr("The %1 backend is not available here: %2")
                                         .arg(backendName(backend), exit.reason));
            m_cpuOffer->setVisible(backend != kCpu);
            return;
        case ProbeOutcome::crashed:
        case ProbeOutcome::timedOut:
            // The runner's reason names what happened ("tally-probe crashed (it was killed by a
            // signal) ...", "... was stopped as hung") and what was kept.
            showMessage(Tone::error, exit.reason);
            return;
        case ProbeOutcome::cancelled: {
            QString text = exit.reason;  // "cancelled; the results that arrived ... are kept"
            if (!text.isEmpty()) {
                text[0] = text[0].toUpper();
            }
            showMessage(Tone::warning, text);
            return;
        }
        case ProbeOutcome::notStarted:
            showMessage(Tone::error, tr("tally-probe could not be started: %1").arg(exit.reason));
            return;
    }
}

// ---- stored runs -------------------------------------------------------------------------------

void ProbePanel::showWorkspaceNote() {
    if (m_session->isOpen()) {
        setSaveNote(Tone::info, tr("Runs are saved in %1").arg(m_session->path()));
    } else {
        setSaveNote(Tone::warning, tr("No workspace is open: runs are shown here but not saved."));
    }
}

void ProbePanel::onSessionChanged() {
    if (!isRunning()) {
        showWorkspaceNote();
    }
    reloadRuns();
    // A workspace opened with stored runs, and none shown yet, shows the newest (the list's
    // first, by start time): the roofline draws the last run made, as before the window closed.
    if (!m_current && !isRunning() && m_runs->rowCount() > 0) {
        m_runsView->setCurrentIndex(m_runs->index(0));
        if (!m_current) {
            showRun(m_runs->run(0));
        }
    }
}

void ProbePanel::reloadRuns() {
    const std::optional<qint64> selected =
        m_current && m_current->id > 0 ? std::optional<qint64>(m_current->id) : std::nullopt;
    std::vector<ProbeRunRecord> runs;
    if (Workspace* ws = m_session->workspace()) {
        try {
            runs = ws->list_probe_runs();
        } catch (const std::exception& e) {
            setSaveNote(
                Tone::error,
                tr("The workspace's probe runs cannot be read: %1").arg(workspaceErrorMessage(e)));
        }
    }
    m_reloading = true;
    m_runs->setRuns(std::move(runs));
    if (selected && !isRunning()) {
        const int row = m_runs->rowOf(*selected);
        if (row >= 0) {
            m_runsView->setCurrentIndex(m_runs->index(row));
        }
    }
    m_reloading = false;
    updateButtons();
}

void ProbePanel::onRunPicked() {
    if (m_reloading || isRunning()) {
        return;
    }
    const QModelIndexList rows = m_runsView->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return;
    }
    showRun(m_runs->run(rows.front().row()));
}

bool ProbePanel::showStoredRun(qint64 id) {
    int row = m_runs->rowOf(id);
    if (row < 0) {
        reloadRuns();
        row = m_runs->rowOf(id);
    }
    if (row < 0 || isRunning()) {
        return false;
    }
    m_runsView->setCurrentIndex(m_runs->index(row));
    if (!m_current || m_current->id != id) {
        showRun(m_runs->run(row));
    }
    return true;
}

void ProbePanel::showRun(const ProbeRunRecord& run) {
    // The controls follow the run picked, so Start measures the same backend again.
    const int backendRow = m_backend->findData(qs(run.backend));
    if (backendRow >= 0) {
        m_backend->setCurrentIndex(backendRow);
    }
    m_results->setResults(probeResultRows(run));
    const std::optional<probe::DeviceEvent> device = stored_device(run);
    m_device->setText(device ? deviceDescription(*device) : tr("(the run reported no device)"));
    m_progress->hide();  // a stored run has no progress to show
    m_status->setText(probeRunTitle(run));
    m_message->hide();
    m_cpuOffer->hide();
    m_warnings->hide();
    setSaveNote(Tone::info, tr("Stored probe run #%1").arg(run.id));
    setCurrent(run);
    updateButtons();
}

void ProbePanel::setCurrent(std::optional<ProbeRunRecord> run) {
    if (!run && !m_current) {
        return;
    }
    m_current = std::move(run);
    updateButtons();
    emit currentRunChanged();
}

// ---- fractions of a profile ---------------------------------------------------------------------

void ProbePanel::fillCompareBox() {
    const QString chosen = m_compare->currentData().toString();
    const QSignalBlocker block(m_compare);
    m_compare->clear();
    m_compare->addItem(tr("the plan's GPU (%1)").arg(qs(m_document->views()->hardware.name)),
                       QString());
    for (const HardwareProfile& p : m_catalog->profiles()) {
        m_compare->addItem(qs(p.name), qs(p.id));
    }
    m_compare->setCurrentIndex(std::max(0, m_compare->findData(chosen)));
    updateComparison();
}

const HardwareProfile* ProbePanel::comparisonProfile() const {
    const QString id = m_compare->currentData().toString();
    if (!id.isEmpty()) {
        if (const HardwareProfile* p = m_catalog->find(id.toStdString())) {
            return p;
        }
    }
    return &m_document->views()->hardware;
}

void ProbePanel::updateComparison() {
    m_results->setProfile(comparisonProfile());
}

// ---- a measured profile -------------------------------------------------------------------------

void ProbePanel::makeProfile() {
    if (!m_makeProfile->isEnabled() || !m_current || m_session->workspace() == nullptr) {
        return;
    }
    std::vector<HardwareProfile> profiles;
    try {
        profiles = m_session->workspace()->list_profiles();
    } catch (const std::exception& e) {
        showMessage(
            Tone::error,
            tr("The workspace's profiles cannot be read: %1").arg(workspaceErrorMessage(e)));
        return;
    }
    const qint64 runId = m_current->id;
    if (m_current->status == ProbeRunStatus::failed &&
        !m_prompts.confirm(
            this, tr("Make hardware profile"),
            tr("Probe run #%1 failed: it stopped before its end, or a test failed. A profile made "
               "from it takes only the passed, validated results among its %n result(s), and "
               "keeps the base profile's figures for everything it did not measure. Make the "
               "profile anyway?",
               nullptr, static_cast<int>(m_current->results.size()))
                .arg(runId))) {
        return;
    }
    auto* dialog = new MeasuredProfileDialog(
        *m_current, profiles,
        [this, runId](const MeasuredProfileChoice& c) -> QString {
            Workspace* ws = m_session->workspace();
            if (ws == nullptr) {
                return tr("No workspace is open.");
            }
            try {
                const HardwareProfile made = ws->add_measured_profile(
                    runId, c.baseId.toStdString(), c.id.toStdString(), c.name.toStdString());
                m_session->announceProfilesChanged();
                showMessage(Tone::info,
                            tr("Made the measured hardware profile \"%1\" (%2) from probe run "
                               "#%3; the GPU picker lists it.")
                                .arg(qs(made.name), qs(made.id))
                                .arg(runId));
            } catch (const std::exception& e) {
                return workspaceErrorMessage(e);
            }
            emit profileMade(c.id);
            return {};
        },
        qs(m_document->views()->hardware.id), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    dialog->open();
}

MeasuredProfileDialog* ProbePanel::profileDialog() const {
    return m_dialog;
}

// ---- removing a run -----------------------------------------------------------------------------

bool ProbePanel::deleteRun() {
    Workspace* ws = m_session->workspace();
    if (!m_deleteRun->isEnabled() || !m_current || m_current->id <= 0 || ws == nullptr) {
        return false;
    }
    const ProbeRunRecord run = *m_current;
    const QString question =
        tr("Delete probe run %1 and its %n result(s) from the workspace? This cannot be undone.",
           nullptr, static_cast<int>(run.results.size()))
            .arg(probeRunTitle(run));
    if (!m_prompts.confirm(this, tr("Delete probe run"), question)) {
        return false;
    }
    try {
        ws->remove_probe_run(run.id);
    } catch (const SpecError& e) {
        // Refused, naming the measured profile made from it or saying it is being recorded.
        showMessage(Tone::error, translatedFieldError(e.error()));
        return false;
    } catch (const std::exception& e) {
        showMessage(Tone::error, workspaceErrorMessage(e));
        return false;
    }
    setCurrent(std::nullopt);
    m_results->clear();
    m_device->clear();
    m_status->clear();
    showMessage(Tone::info, tr("Deleted probe run #%1.").arg(run.id));
    m_session->announceProbeRunsChanged();
    return true;
}

// ---- state shown --------------------------------------------------------------------------------

void ProbePanel::updateButtons() {
    const bool running = isRunning();
    m_start->setEnabled(!running);
    m_cancel->setEnabled(running || m_lister.isRunning());
    m_backend->setEnabled(!running);
    m_quick->setEnabled(!running);
    m_planGemms->setEnabled(!running);
    m_tests->setEnabled(!running && !m_planGemms->isChecked());
    m_runsView->setEnabled(!running);
    m_showRoofline->setEnabled(m_current.has_value());
    const bool stored = m_current && m_current->id > 0 && m_session->isOpen();
    m_makeProfile->setEnabled(!running && stored);
    m_deleteRun->setEnabled(!running && stored && !m_session->isReadOnly());
    m_deleteRun->setToolTip(stored ? tr("Delete this run and its results from the workspace")
                                   : tr("Needs a run stored in the workspace: pick one under "
                                        "Past runs"));
    m_makeProfile->setToolTip(
        stored ? tr("A hardware profile with this run's measured peaks, bandwidth and GEMM times")
               : tr("Needs a run stored in the workspace: pick one under Past runs, or run the "
                    "probe with a workspace open"));
}

void ProbePanel::showMessage(Tone tone, const QString& text) {
    m_message->setStyleSheet(toneStyle(tone));
    m_message->setText(text);
    m_message->show();
}

void ProbePanel::addWarning(const QString& text) {
    m_warningLines << text;
    constexpr int kShown = 3;
    QString shown = m_warningLines.mid(std::max<qsizetype>(0, m_warningLines.size() - kShown))
                        .join(QStringLiteral("\n"));
    if (m_warningLines.size() > kShown) {
        shown =
            tr("%1 warnings, the last %2:\n%3").arg(m_warningLines.size()).arg(kShown).arg(shown);
    }
    m_warnings->setText(shown);
    m_warnings->setToolTip(m_warningLines.join(QStringLiteral("\n")));
    m_warnings->show();
}

void ProbePanel::setSaveNote(Tone tone, const QString& text) {
    m_saveNote->setStyleSheet(toneStyle(tone));
    m_saveNote->setText(text);
}

// ---- in the window
// -------------------------------------------------------------------------------

ProbePanel* installProbePanel(MainWindow* window, WorkspaceSession* session) {
    auto* panel = new ProbePanel(session, window->hardwareCatalog(), window->document(),
                                 window->appSettings());
    if (!window->addPanel(QStringLiteral("probe"), ProbePanel::tr("Probe"), panel)) {
        delete panel;
        return nullptr;
    }
    RooflinePanel* roofline = window->rooflinePanel();
    QObject::connect(panel, &ProbePanel::currentRunChanged, roofline,
                     [panel, roofline] { roofline->setMeasuredRun(panel->currentRun()); });
    QObject::connect(panel, &ProbePanel::showOnRooflineRequested, window, [window, roofline] {
        roofline->measuredToggle()->setChecked(true);
        window->showPanel(QStringLiteral("roofline"));
    });
    return panel;
}

}  // namespace tally::ui
