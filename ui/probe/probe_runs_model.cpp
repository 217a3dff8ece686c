#include "ui/probe/probe_runs_model.h"

#include <QBrush>
#include <QColor>

#include "ui/common/number_text.h"
#include "ui/probe/probe_text.h"

namespace tally::ui {

ProbeRunsModel::ProbeRunsModel(QObject* parent) : QAbstractListModel(parent) {}

void ProbeRunsModel::setRuns(std::vector<ProbeRunRecord> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

int ProbeRunsModel::rowOf(qint64 id) const {
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        if (m_runs[i].id == id) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int ProbeRunsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

QVariant ProbeRunsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const ProbeRunRecord& run = m_runs[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return probeRunTitle(run);
        case IdRole:
            return static_cast<qint64>(run.id);
        case Qt::ToolTipRole: {
            const std::optional<probe::DeviceEvent> device = stored_device(run);
            QString tip =
                tr("<b>Probe run #%1</b> on %2<br>started %3, finished %4<br>%5")
                    .arg(run.id)
                    .arg(qs(run.host.empty() ? std::string("?") : run.host), qs(run.started_at),
                         run.finished_at.empty() ? tr("(never: the run did not end)")
                                                 : qs(run.finished_at),
                         device ? deviceDescription(*device).toHtmlEscaped()
                                : tr("no device reported"));
            return tip;
        }
        case Qt::ForegroundRole:
            return run.status == ProbeRunStatus::failed ? QVariant(QBrush(QColor(0xc6, 0x28, 0x28)))
                                                        : QVariant();
        default:
            return {};
    }
}

}  // namespace tally::ui
