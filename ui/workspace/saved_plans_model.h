#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <cstdint>
#include <vector>

#include "planner/store/workspace.h"

namespace tally::ui {

// The plans saved in the workspace: name, model, GPU and when each was last saved (local time).
// A plan whose stored JSON no longer reads (edited by hand) is listed with the reason.
class SavedPlansModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ModelColumn, GpuColumn, UpdatedColumn, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1, NameRole };

    explicit SavedPlansModel(QObject* parent = nullptr);

    void setPlans(const std::vector<StoredPlan>& plans);
    int rowOfId(std::int64_t id) const;
    int rowOfName(const QString& name) const;
    // The plan as row `row` shows it (id, name and creation time; no spec): what an action on
    // the row acts on (Workspace::update_plan(const StoredPlan&, ...)).
    StoredPlan shownPlan(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        std::int64_t id = 0;
        QString name;
        std::string stored_name;  // as the workspace holds them
        std::string created_at;
        std::string spec_json;  // as listed: a replace writes over this plan only
        QString model;
        QString gpu;
        QDateTime created;
        QDateTime updated;
        QString problem;  // why the stored spec does not read, empty when it does
    };
    std::vector<Row> m_rows;
};

}  // namespace tally::ui
