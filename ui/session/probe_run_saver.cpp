#include "ui/session/probe_run_saver.h"

#include <QDateTime>
#include <exception>

#include "planner/hardware/probe_records.h"
#include "ui/i18n/translate_text.h"

namespace tally::ui {

ProbeRunSaver::ProbeRunSaver(Workspace workspace, QObject* parent)
    : QObject(parent), m_workspace(std::move(workspace)) {}

void ProbeRunSaver::watch(const ProbeRunner* runner) {
    connect(runner, &ProbeRunner::started, this, &ProbeRunSaver::onStarted);
    connect(runner, &ProbeRunner::deviceAvailable, this, &ProbeRunSaver::onDevice);
    connect(runner, &ProbeRunner::resultAvailable, this, &ProbeRunSaver::onResult);
    connect(runner, &ProbeRunner::finished, this, &ProbeRunSaver::onFinished);
}

template <typename F>
bool ProbeRunSaver::attempt(F&& write) {
    if (m_broken) {
        return false;
    }
    try {
        write();
        return true;
    } catch (const WorkspaceError& e) {
        // Names the file and says whether anything was saved, in the user's language.
        m_broken = true;
        m_error = tr("the probe run could not be saved: %1").arg(translatedText(e.text()));
        emit saveFailed(m_error);
        return false;
    } catch (const std::exception& e) {
        // A SpecError names the field the probe sent that the workspace does not accept.
        m_broken = true;
        m_error = tr("the probe run could not be saved: %1").arg(QString::fromUtf8(e.what()));
        emit saveFailed(m_error);
        return false;
    }
}

void ProbeRunSaver::onStarted(const probe::StartEvent& start) {
    m_start = start;
    m_runId.reset();
    m_error.clear();
    m_broken = false;
}

bool ProbeRunSaver::ensureRun(const probe::DeviceEvent* device) {
    if (m_runId) {
        return true;
    }
    if (!m_start) {
        return false;  // nothing to name the run by: a probe that refused to start
    }
    qint64 id = 0;
    if (!attempt([&] { id = m_workspace.add_probe_run(probe_run_record(*m_start, device)); })) {
        return false;
    }
    m_runId = id;
    emit runSaved(id);
    return true;
}

void ProbeRunSaver::onDevice(const probe::DeviceEvent& device) {
    ensureRun(&device);
}

void ProbeRunSaver::onResult(const probe::ResultEvent& result) {
    if (!ensureRun(nullptr)) {
        return;
    }
    qint64 resultId = 0;
    if (attempt([&] {
            resultId = m_workspace.add_probe_result(*m_runId, probe_result_record(result));
        })) {
        emit resultSaved(*m_runId, resultId);
    }
}

void ProbeRunSaver::onFinished(const probe::ProbeRun& run, const ProbeExit& exit) {
    const bool endedNormally =
        exit.outcome == ProbeOutcome::ok || exit.outcome == ProbeOutcome::testsFailed;
    const ProbeRunStatus status = probe_run_status(run, endedNormally);
    const std::string finishedAt =
        run.done && !run.done->finished_at.empty()
            ? run.done->finished_at
            : QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    if (!m_start) {
        m_runId.reset();
        m_error.clear();
        m_broken = false;
        if (!run.start) {
            return;  // the probe refused to run (no start event): there is nothing to keep
        }
        // A run this saver did not see from its start (a replayed run): saved whole, at once.
        qint64 id = 0;
        if (attempt([&] {
                id = m_workspace.add_probe_run(probe_run_record(run, status, finishedAt));
            })) {
            m_runId = id;
            emit runSaved(id);
            emit runFinished(id, status);
        }
        return;
    }
    if (ensureRun(run.devices.empty() ? nullptr : &run.devices.front()) &&
        attempt([&] { m_workspace.finish_probe_run(*m_runId, status, finishedAt); })) {
        emit runFinished(*m_runId, status);
    }
    m_start.reset();
}

}  // namespace tally::ui
