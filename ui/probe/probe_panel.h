#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/store/workspace.h"
#include "ui/session/probe_process.h"
#include "ui/workspace/user_prompts.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QLabel;
class QListView;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableView;

namespace tally::ui {

class AppSettings;

class HardwareCatalog;
class MainWindow;
class MeasuredProfileDialog;
class PlanDocument;
class ProbeResultsModel;
class ProbeRunSaver;
class ProbeRunsModel;
class WorkspaceSession;

// The Probe panel: runs tally-probe as a child process (ProbeRunner) with the backend,
// quick mode and tests chosen here; shows the device, the progress and each result as it arrives,
// with its fraction of the plan's GPU (or a chosen profile); saves the run in the session's
// workspace file (ProbeRunSaver on a connection of its own); lists the runs stored there; and
// makes a measured hardware profile from one. A crash, a hang, refused options, a missing probe
// and a workspace that refuses the run are each said in words; without a CUDA backend it offers
// the CPU in one click. Without a workspace it still runs probes and says they are not saved.
class ProbePanel : public QWidget {
    Q_OBJECT
public:
    ProbePanel(WorkspaceSession* session, HardwareCatalog* catalog, PlanDocument* document,
               AppSettings* settings, QWidget* parent = nullptr);
    ~ProbePanel() override;

    // What every run (and the listing of tests) starts from: the probe's path, the hang timeout,
    // the kill grace, extra arguments. The panel fills in backend, quick and tests.
    void setBaseOptions(const ProbeOptions& options);

    // Starts a run with the panel's choices; false while one runs.
    bool start();
    void cancel();
    // Switches to the CPU backend and starts (the offer made when CUDA is not available).
    void runOnCpuInstead();
    bool isRunning() const;

    // Shows stored run `id` of the session's workspace, as picking it in the list does; false
    // when the workspace has no such run.
    bool showStoredRun(qint64 id);
    // The run shown (a stored one, or the last run made here); what the roofline overlays.
    const std::optional<ProbeRunRecord>& currentRun() const { return m_current; }
    // The profile the fractions are of: the plan's GPU, or the one picked.
    const HardwareProfile* comparisonProfile() const;
    // Opens the dialog that makes a measured profile from the current (stored) run; for a run
    // whose status is failed, only once the user agreed (it may lack what a profile is made of).
    void makeProfile();
    // Removes the stored run picked under Past runs, once the user agreed to a question naming
    // it. False when nothing was removed (none picked, declined, or refused by the workspace:
    // a measured profile was made from it, or it is being recorded; the message says which).
    bool deleteRun();
    // The questions the panel asks (replaceable by tests, so none waits on a modal dialog).
    void setPrompts(const UserPrompts& prompts) { m_prompts = prompts; }

    // The options a run starts from: the base options with the place chosen in the panel (this
    // machine, or the ssh host and the probe's path there).
    ProbeOptions runOptions() const;

    // For tests.
    ProbeResultsModel* resultsModel() const { return m_results; }
    ProbeRunsModel* runsModel() const { return m_runs; }
    const ProbeRunner* runner() const { return &m_runner; }
    // The child that lists a backend's tests (tally-probe --list, here or over ssh).
    const ProbeRunner* lister() const { return &m_lister; }
    // The measured-profile dialog while it is open, else null.
    MeasuredProfileDialog* profileDialog() const;

signals:
    // The run shown changed (a run ended, a stored run was picked, the shown run went away).
    void currentRunChanged();
    // A run ended, after the panel showed and saved it.
    void runFinished(const tally::ui::ProbeExit& exit);
    void profileMade(const QString& id);
    void showOnRooflineRequested();

protected:
    // A language switch: the shown run's device, title and outcome are texts built with
    // arguments, which the window's retranslation does not reach; they are built again.
    void changeEvent(QEvent* event) override;
    // Where runs go: the open workspace's file, or that none is open.
    void showWorkspaceNote();

private:
    // The user's pick of backend: remembered in the settings and never switched away from.
    void rememberBackend();
    // Lists the tests of the backend the panel starts on (see listFirst's comment).
    void listFirst();
    enum class Tone { info, warning, error };
    static QString toneStyle(Tone tone);

    void buildLayout();
    // The place changed (this machine / ssh host, the host, the remote probe): remembered, and
    // the tests listed again from the probe there.
    void onLocationChanged();
    void listTests(const QString& backend);
    void onTestsListed(const probe::ProbeRun& run, const ProbeExit& exit);
    void fillTests();
    QStringList chosenTests() const;
    // The --gemm-shapes value of the plan's GEMMs, or an empty string and `why` when the plan has
    // none the probe can time.
    QString planGemmShapes(QString* why) const;
    QString backend() const;
    // "Run on" is a cluster: the probe runs as the ranks of the launcher, on the collectives
    // backends (nccl, tcp).
    bool inCluster() const;
    // Lets only the backends of the chosen place be picked.
    void enableBackends();

    void onStarted(const probe::StartEvent& start);
    void onDevice(const probe::DeviceEvent& device);
    void onProgress(const probe::ProgressEvent& progress);
    void onResult(const probe::ResultEvent& result);
    void onProbeError(const probe::ErrorEvent& error);
    void onProtocolError(const QString& message);
    void onFinished(const probe::ProbeRun& run, const ProbeExit& exit);
    void showOutcome(const ProbeExit& exit, const QString& backend, int results);

    void onSessionChanged();
    void reloadRuns();
    void onRunPicked();
    void showRun(const ProbeRunRecord& run);
    void setCurrent(std::optional<ProbeRunRecord> run);
    void fillCompareBox();
    void updateComparison();
    void updateButtons();
    void showMessage(Tone tone, const QString& text);
    void addWarning(const QString& text);
    void setSaveNote(Tone tone, const QString& text);

    WorkspaceSession* m_session;
    HardwareCatalog* m_catalog;
    PlanDocument* m_document;
    ProbeOptions m_base;

    ProbeRunner m_runner;
    ProbeRunner m_lister;       // tally-probe --list
    QString m_listing;          // the backend being listed; empty when none
    int m_probeGeneration = 0;  // bumped by setBaseOptions(): a listing of an older probe is stale
    int m_listingGeneration = 0;  // of the listing in progress
    QString m_listedHost;         // the place the tests were last listed from
    QString m_listedRemoteProbe;
    std::map<QString, std::vector<probe::TestEvent>> m_testLists;
    std::map<QString, QString> m_listErrors;
    std::unique_ptr<ProbeRunSaver> m_saver;
    QString m_runBackend;               // of the run in progress
    AppSettings* m_settings = nullptr;  // remembers the backend picked; may be null
    // True once the backend is the user's choice (picked now or remembered): only a backend
    // nobody chose is switched away from when it cannot run here.
    bool m_backendChosen = false;
    QStringList m_warningLines;
    std::optional<ProbeRunRecord> m_current;
    // The last run's outcome as showOutcome() said it, to say again in another language.
    struct Outcome {
        ProbeExit exit;
        QString backend;
        int results = 0;
    };
    std::optional<Outcome> m_outcome;
    bool m_reloading = false;

    QComboBox* m_where;        // this machine / ssh host / cluster
    QLineEdit* m_host;         // the ssh destination
    QLineEdit* m_remoteProbe;  // the probe's path there (optional)
    QLineEdit* m_launcher;     // a cluster launcher's command line (cluster runs)
    QComboBox* m_backend;
    QCheckBox* m_quick;
    // Measure only the current plan's GEMMs (tally probe --plan): gemm_shapes at its shapes.
    QCheckBox* m_planGemms;
    int m_planShapes = 0;  // the GEMMs a plan-only run measures (0: a run of tests)
    QListWidget* m_tests;
    QLabel* m_testsNote;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QListView* m_runsView;
    ProbeRunsModel* m_runs;
    QPushButton* m_showRoofline;
    QPushButton* m_makeProfile;
    QPushButton* m_deleteRun;
    UserPrompts m_prompts;
    QLabel* m_device;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_message;
    QPushButton* m_cpuOffer;
    QLabel* m_warnings;
    QComboBox* m_compare;
    QLabel* m_saveNote;
    QTableView* m_table;
    ProbeResultsModel* m_results;
    QPointer<MeasuredProfileDialog> m_dialog;
};

// Adds the Probe panel to the window as the "probe" tab, with the roofline following its current
// run (measured overlay) and its "Show on roofline" bringing the roofline to the front. The
// session must outlive the window.
ProbePanel* installProbePanel(MainWindow* window, WorkspaceSession* session);

}  // namespace tally::ui
