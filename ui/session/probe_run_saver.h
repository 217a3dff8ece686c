#pragma once

// ProbeRunSaver: writes a probe run into the workspace while it runs, so a crash, hang or cancel
// midway keeps what was measured.
//
// One row per event rather than one transaction at the end: the run row (status running) once
// the device is known, each result as it arrives, then finish_probe_run(). Every write is still
// one transaction (the workspace's rule), and a run has a few dozen results taking seconds
// each, so the extra commits cost nothing a user could notice; in exchange, results measured
// before the probe (or the app) died are on disk, and a run the app never finished reads as
// "running" rather than vanishing.

#include <QMetaType>
#include <QObject>
#include <QString>
#include <optional>

#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/store/workspace.h"
#include "ui/session/probe_process.h"

namespace tally::ui {

class ProbeRunSaver : public QObject {
    Q_OBJECT
public:
    // Saves into `workspace`, which it keeps open while it lives.
    explicit ProbeRunSaver(Workspace workspace, QObject* parent = nullptr);

    // Saves the runs `runner` reports from now on (one at a time, as the runner runs them).
    void watch(const ProbeRunner* runner);

    // The row of the run being saved, or of the last one saved; nullopt before a start event was
    // saved and after a run that never started.
    std::optional<qint64> runId() const { return m_runId; }
    // The last write the workspace refused, if any (also sent by saveFailed()).
    const QString& error() const { return m_error; }
    Workspace& workspace() { return m_workspace; }

    // The slots watch() connects; callable directly (tests, a run replayed from a file).
    void onStarted(const tally::probe::StartEvent& start);
    void onDevice(const tally::probe::DeviceEvent& device);
    void onResult(const tally::probe::ResultEvent& result);
    void onFinished(const tally::probe::ProbeRun& run, const tally::ui::ProbeExit& exit);

signals:
    // The run row exists now (status running).
    void runSaved(qint64 runId);
    void resultSaved(qint64 runId, qint64 resultId);
    // The run row has its final status and finished_at.
    void runFinished(qint64 runId, tally::ProbeRunStatus status);
    // The workspace refused a write (full disk, read-only, busy, ...); nothing more of this run is
    // written.
    void saveFailed(const QString& reason);

private:
    // Creates the run row if the start event came and it does not exist yet; false when it
    // cannot (no start event, or the workspace failed).
    bool ensureRun(const tally::probe::DeviceEvent* device);
    template <typename F>
    bool attempt(F&& write);

    Workspace m_workspace;
    std::optional<tally::probe::StartEvent> m_start;
    std::optional<qint64> m_runId;
    QString m_error;
    bool m_broken = false;  // a write failed during this run
};

}  // namespace tally::ui

Q_DECLARE_METATYPE(tally::ProbeRunStatus)
