#pragma once

#include <QAbstractTableModel>
#include <QIdentityProxyModel>
#include <QStringList>
#include <vector>

#include "ui/workspace/profile_comparison.h"

namespace tally::ui {

class HardwareCatalog;
class HardwareListModel;

// The GPU picker's list of profiles (HardwareListModel: built-in, custom, measured, by name)
// with a check box each: which to compare, two to six. Checking a seventh is refused
// (limitReached()). Until the user checks or unchecks one, the choice follows the catalog: the
// plan's GPU, then the user's own profiles, then built-in ones, up to the minimum that makes a
// comparison (and the user's own up to six).
class CompareProfilesModel : public QIdentityProxyModel {
    Q_OBJECT
public:
    explicit CompareProfilesModel(const HardwareCatalog* catalog, QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    // The checked profiles in catalog order.
    std::vector<HardwareProfile> checkedProfiles() const;
    QStringList checkedIds() const { return m_checked; }
    // Checks exactly these (at most six; ids the catalog lacks now are checked once it has them,
    // e.g. custom profiles that arrive when the workspace opens). Counts as the user's choice.
    void setCheckedIds(const QStringList& ids);
    bool userChose() const { return m_userChose; }
    int rowOf(const QString& id) const;
    // The GPU the default choice starts from (the plan's).
    void setPreferredId(const QString& id);

signals:
    void checkedChanged();
    void limitReached();

private:
    void catalogChanged();
    void applyDefault();
    void setChecked(const QStringList& ids);

    const HardwareCatalog* m_catalog;
    HardwareListModel* m_list;
    QStringList m_checked;
    QString m_preferred;
    bool m_userChose = false;
    QStringList m_wanted;  // the user's choice, including ids the catalog does not have (yet)
};

// The chosen profiles side by side: one column per profile (after the figure names), one row
// per figure: the specs (kind, memory, bandwidth, the dense peak of every dtype, TDP, ridge of
// the plan's compute dtype) and the plan on each (fits, memory per GPU, headroom, days,
// GPU-hours, cost). ValueRole holds the planner's number behind each cell.
class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The rows, in this order: the plan on each profile first (what a comparison is for, in
    // view without scrolling on a laptop's screen), then the parts' own figures.
    enum class Figure {
        fits,
        computeDtype,
        memoryPerGpu,
        headroom,
        days,
        gpuHours,
        price,
        cost,
        kind,
        memory,
        bandwidth,
        peakFp64,
        peakFp32,
        peakTf32,
        peakBf16,
        peakFp16,
        peakFp8,
        peakFp4,
        peakInt8,
        tdp,
        ridge,
    };
    static constexpr int kFigureCount = static_cast<int>(Figure::ridge) + 1;
    enum Role { ValueRole = Qt::UserRole + 1, ProfileIdRole };

    explicit CompareTableModel(QObject* parent = nullptr);

    void setResults(const ProfileComparisonResults& results);
    void clear();
    const ProfileComparisonResults& results() const { return m_results; }

    static int rowOf(Figure figure) { return static_cast<int>(figure); }
    // The column of a profile id, or -1.
    int columnOf(const QString& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString figureName(Figure figure) const;
    QString figureHelp(Figure figure) const;
    QVariant value(Figure figure, const ComparisonRow& row) const;
    QString text(Figure figure, const ComparisonRow& row) const;
    // Whether the profile at `column` (0-based among the profiles) has the least days, GPU-hours
    // or cost of the profiles on which the plan fits, with two or more of them to choose from.
    bool isBest(Figure figure, std::size_t column) const;

    ProfileComparisonResults m_results;
};

}  // namespace tally::ui
