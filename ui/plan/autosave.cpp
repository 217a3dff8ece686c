#include "ui/plan/autosave.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "planner/io/spec_json.h"
#include "ui/common/file_io.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

namespace {
// Long enough that a slider drag writes once, short enough that a crash loses little.
constexpr int kDelayMs = 700;
}  // namespace

Autosave::Autosave(PlanDocument* document, QString path, QObject* parent)
    : QObject(parent), m_document(document), m_path(std::move(path)) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(kDelayMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        QString error;
        if (!flush(&error)) {
            m_failed = true;
            emit writeFailed(error);
        } else if (m_failed) {
            m_failed = false;
            emit writeRecovered();
        }
    });
    const auto schedule = [this] {
        m_pending = true;
        m_timer.start();
    };
    connect(document, &PlanDocument::resultsChanged, this, schedule);
    // A save to a file changes no result but whether the plan is saved, and where.
    connect(document, &PlanDocument::modifiedChanged, this, schedule);
    connect(document, &PlanDocument::filePathChanged, this, schedule);
}

std::optional<Autosave::Restored> Autosave::restore(const QString& path) {
    QByteArray text;
    if (!QFileInfo::exists(path) || !readWholeFile(path, &text, nullptr)) {
        return std::nullopt;
    }
    Restored out;
    try {
        out.spec =
            plan_spec_from_text(text.toStdString(), QFileInfo(path).absolutePath().toStdString());
    } catch (const std::exception&) {
        return std::nullopt;
    }
    // Without a readable state (an autosave written before it was kept) the plan counts as not
    // saved, so that nothing replaces it without asking.
    QByteArray state;
    if (readWholeFile(statePath(path), &state, nullptr)) {
        const QJsonObject o = QJsonDocument::fromJson(state).object();
        if (o.value(QStringLiteral("modified")).isBool()) {
            out.modified = o.value(QStringLiteral("modified")).toBool();
        }
        const QString file = o.value(QStringLiteral("file")).toString();
        // A relative path (kept by earlier versions) named a file in the folder Tally was started
        // from, which a start from another folder would take for another file: it is not kept.
        if (!file.isEmpty() && QFileInfo(file).isAbsolute() && QFileInfo::exists(file)) {
            out.file = file;
            out.file_sha256 =
                QByteArray::fromHex(o.value(QStringLiteral("file_sha256")).toString().toLatin1());
        } else if (!file.isEmpty()) {
            out.modified = true;  // its file is gone: the plan is saved nowhere now
        }
    }
    return out;
}

bool Autosave::flush(QString* error) {
    if (!m_pending) {
        return true;
    }
    m_timer.stop();
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    if (!writeFileAtomically(m_path, m_document->acceptedSpecJson(), error)) {
        return false;
    }
    QJsonObject state;
    state.insert(QStringLiteral("modified"), m_document->isModified());
    state.insert(QStringLiteral("file"), m_document->filePath());
    state.insert(QStringLiteral("file_sha256"),
                 QString::fromLatin1(m_document->fileSha256().toHex()));
    if (!writeFileAtomically(statePath(m_path), QJsonDocument(state).toJson(), error)) {
        return false;
    }
    m_pending = false;
    return true;
}

}  // namespace tally::ui
