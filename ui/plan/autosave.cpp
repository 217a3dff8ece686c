#include "ui/plan/autosave.h"

#include <QDir>
#include <QFileInfo>

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
    connect(&m_timer, &QTimer::timeout, this, [this] { flush(); });
    connect(document, &PlanDocument::resultsChanged, this, [this] {
        m_pending = true;
        m_timer.start();
    });
}

std::optional<PlanSpec> Autosave::restore(const QString& path) {
    QByteArray text;
    if (!QFileInfo::exists(path) || !readWholeFile(path, &text, nullptr)) {
        return std::nullopt;
    }
    try {
        return plan_spec_from_text(text.toStdString(),
                                   QFileInfo(path).absolutePath().toStdString());
    } catch (const std::exception&) {
        return std::nullopt;
    }
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
    m_pending = false;
    return true;
}

}  // namespace tally::ui
