#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <optional>
#include <vector>

#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/probe_records.h"
#include "planner/roofline/measured_roofline.h"

namespace tally::ui {

// One result as the Probe panel lists it: the probe's test and variant, and the result as the
// workspace stores it.
struct ProbeResultRow {
    QString test;
    QString variant;
    ProbeResultRecord record;
    QString note;  // the probe's note (live results only: the workspace does not keep it)
};
// A result as it arrives from the probe.
ProbeResultRow probeResultRow(const probe::ResultEvent& result);
// The results of a stored run.
std::vector<ProbeResultRow> probeResultRows(const ProbeRunRecord& run);

// A probe run's results as a table, filled as they arrive (appendResult) or from a stored run
// (setResults), with each figure's fraction of a hardware profile's dense peak and bandwidth
// (measured_fractions()).
class ProbeResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The fractions beside the rates they are fractions of; sizes last, as wide as the case needs
    // (as in `tally probe`'s table).
    enum Column {
        TestColumn,
        VariantColumn,
        DtypeColumn,
        FlopsColumn,      // FLOP/s
        BytesColumn,      // bytes/s
        PeakColumn,       // fraction of the profile's dense peak of the dtype
        BandwidthColumn,  // fraction of the profile's memory bandwidth
        MedianColumn,     // seconds
        SpreadColumn,     // stdrel
        SamplesColumn,
        StatusColumn,
        ValidatedColumn,
        SizesColumn,
        ColumnCount
    };
    // The value behind a cell: a double for the figures (absent: an invalid QVariant), the text of
    // the others.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit ProbeResultsModel(QObject* parent = nullptr);

    void setResults(std::vector<ProbeResultRow> rows);
    void appendResult(ProbeResultRow row);
    void clear() { setResults({}); }
    const ProbeResultRow& result(int row) const { return m_rows[static_cast<std::size_t>(row)]; }

    // The profile the fractions are of; null: no fractions.
    void setProfile(const HardwareProfile* profile);
    const std::optional<HardwareProfile>& profile() const { return m_profile; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    MeasuredFractions fractionsOf(const ProbeResultRow& row) const;
    QVariant value(const ProbeResultRow& row, const MeasuredFractions& f, int column) const;
    QString text(const ProbeResultRow& row, const MeasuredFractions& f, int column) const;
    QString tip(const ProbeResultRow& row) const;

    std::vector<ProbeResultRow> m_rows;
    std::vector<MeasuredFractions> m_fractions;  // of m_rows against m_profile
    std::optional<HardwareProfile> m_profile;
};

}  // namespace tally::ui
