#include "ui/workspace/saved_plans_model.h"

#include <QBrush>
#include <QColor>
#include <exception>

#include "planner/io/spec_json.h"
#include "ui/common/number_text.h"

namespace tally::ui {

namespace {

QDateTime utcTime(const std::string& text) {
    QDateTime t = QDateTime::fromString(qs(text), Qt::ISODate);
    return t.isValid() ? t.toLocalTime() : t;
}

QString modelText(const ModelSpec& model) {
    if (!model.name.empty()) {
        return qs(model.name);
    }
    switch (model.kind) {
        case ModelKind::params:
            return SavedPlansModel::tr("%1 parameters").arg(formatShort(model.params));
        case ModelKind::mlp:
            return SavedPlansModel::tr("ReLU network, %1 layers of %2")
                .arg(model.layers)
                .arg(model.hidden);
        case ModelKind::transformer:
            return SavedPlansModel::tr("transformer, %1 layers, hidden %2")
                .arg(model.layers)
                .arg(model.hidden);
    }
    return {};
}

}  // namespace

SavedPlansModel::SavedPlansModel(QObject* parent) : QAbstractTableModel(parent) {}

void SavedPlansModel::setPlans(const std::vector<StoredPlan>& plans) {
    std::vector<Row> rows;
    rows.reserve(plans.size());
    for (const StoredPlan& p : plans) {
        Row row;
        row.id = p.id;
        row.name = qs(p.name);
        row.stored_name = p.name;
        row.created_at = p.created_at;
        row.spec_json = p.spec_json;
        row.created = utcTime(p.created_at);
        row.updated = utcTime(p.updated_at);
        try {
            const PlanSpec spec = plan_spec_from_text(p.spec_json);
            row.model = modelText(spec.model);
            row.gpu = qs(spec.cluster.gpu);
        } catch (const std::exception& e) {
            row.problem = qs(e.what());
        }
        rows.push_back(std::move(row));
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int SavedPlansModel::rowOfId(std::int64_t id) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].id == id) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

StoredPlan SavedPlansModel::shownPlan(int row) const {
    StoredPlan p;
    if (row >= 0 && row < static_cast<int>(m_rows.size())) {
        const Row& r = m_rows[static_cast<std::size_t>(row)];
        p.id = r.id;
        p.name = r.stored_name;
        p.created_at = r.created_at;
        p.spec_json = r.spec_json;
    }
    return p;
}

int SavedPlansModel::rowOfName(const QString& name) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].name == name) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int SavedPlansModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SavedPlansModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SavedPlansModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    return r.name;
                case ModelColumn:
                    return r.problem.isEmpty() ? r.model : tr("(does not read)");
                case GpuColumn:
                    return r.gpu;
                case UpdatedColumn:
                    return r.updated.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
            }
            return {};
        case Qt::ToolTipRole:
            if (!r.problem.isEmpty()) {
                return tr("The stored plan does not read: %1").arg(r.problem);
            }
            return tr("%1 (id %2)\nSaved %3, last changed %4")
                .arg(r.name)
                .arg(r.id)
                .arg(r.created.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                     r.updated.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        case Qt::ForegroundRole:
            return r.problem.isEmpty() ? QVariant() : QVariant(QBrush(QColor(0xc6, 0x28, 0x28)));
        case IdRole:
            return static_cast<qlonglong>(r.id);
        case NameRole:
            return r.name;
        default:
            return {};
    }
}

QVariant SavedPlansModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case NameColumn:
            return tr("Name");
        case ModelColumn:
            return tr("Model");
        case GpuColumn:
            return tr("GPU");
        case UpdatedColumn:
            return tr("Updated");
    }
    return {};
}

}  // namespace tally::ui
