#pragma once

#include <QAbstractListModel>
#include <vector>

#include "planner/hardware/probe_records.h"

namespace tally::ui {

// The workspace's probe runs (newest first, as list_probe_runs() returns them), one line each.
class ProbeRunsModel : public QAbstractListModel {
    Q_OBJECT
public:
    static constexpr int IdRole = Qt::UserRole + 1;  // the run's id (qint64)

    explicit ProbeRunsModel(QObject* parent = nullptr);

    void setRuns(std::vector<ProbeRunRecord> runs);
    const ProbeRunRecord& run(int row) const { return m_runs[static_cast<std::size_t>(row)]; }
    // The row of run `id`, or -1.
    int rowOf(qint64 id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    std::vector<ProbeRunRecord> m_runs;
};

}  // namespace tally::ui
