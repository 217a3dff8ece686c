#include "ui/workspace/compare_panel.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QListView>
#include <QLogValueAxis>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <array>

#include "ui/common/chart_support.h"
#include "ui/common/hardware_catalog.h"
#include "ui/common/number_text.h"
#include "ui/plan/plan_document.h"
#include "ui/workspace/compare_models.h"

namespace tally::ui {

namespace {

constexpr double kTera = 1e12;

// One colour per compared profile, in the order of the table's columns.
const std::array<QColor, 6>& profileColors() {
    static const std::array<QColor, 6> colors{QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                              QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                                              QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b)};
    return colors;
}

}  // namespace

ComparePanel::ComparePanel(PlanDocument* document, HardwareCatalog* catalog, QWidget* parent)
    : PlanPanel(document, parent),
      m_catalog(catalog),
      m_profiles(new CompareProfilesModel(catalog, this)),
      m_model(new CompareTableModel(this)),
      m_list(new QListView(this)),
      m_table(new QTableView(this)),
      m_hint(new QLabel(this)),
      m_message(new QLabel(this)),
      m_chart(new QChart),
      m_view(makeChartView(m_chart, this)),
      m_x(new QLogValueAxis(this)),
      m_y(new QLogValueAxis(this)) {
    static_assert(kMaxComparedProfiles == 6, "one colour per comparable profile");
    setObjectName(QStringLiteral("comparePanel"));
    m_list->setObjectName(QStringLiteral("compareProfiles"));
    m_list->setModel(m_profiles);
    m_list->setAccessibleName(tr("Profiles to compare"));
    m_list->setMinimumWidth(240);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    compactTable(m_table, -1);
    m_hint->setWordWrap(true);
    m_hint->setText(tr("Check two to six profiles. The plan being edited is evaluated on each."));
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setObjectName(QStringLiteral("compareMessage"));
    m_message->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_message->hide();

    addRooflineAxes(m_chart, m_x, m_y);
    for (std::size_t i = 0; i < kMaxComparedProfiles; ++i) {
        auto* series = new QLineSeries(this);
        series->setPen(QPen(profileColors()[i]));
        connect(series, &QLineSeries::hovered, this, [this, i](const QPointF&, bool on) {
            if (on) {
                QToolTip::showText(QCursor::pos(), m_seriesTips[i], m_view);
            } else {
                QToolTip::hideText();
            }
        });
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        series->setVisible(false);
        m_series.push_back(series);
        m_seriesIds.emplace_back();
        m_seriesTips.emplace_back();
    }

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_hint);
    leftLayout->addWidget(m_list, 1);

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_message);
    rightLayout->addWidget(m_table, 1);
    // How the days are found, in the mode the plan uses (recompute() words it).
    m_timeNote = new QLabel(right);
    m_timeNote->setObjectName(QStringLiteral("compareTimeNote"));
    m_timeNote->setWordWrap(true);
    m_timeNote->setForegroundRole(QPalette::PlaceholderText);
    rightLayout->addWidget(m_timeNote);

    // The choice beside the table; the chart below both, over the whole width (its legend
    // names every profile).
    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(left);
    top->addWidget(right);
    top->setStretchFactor(0, 0);
    top->setStretchFactor(1, 1);
    top->setSizes({330, 1000});
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_view);
    // The table's 22 rows (the plan's days and cost at the bottom) come first; the chart gets
    // what is left.
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    // The plan's own GPU is among the first compared, until the user picks.
    m_profiles->setPreferredId(qs(document->spec().cluster.gpu));
    connect(document, &PlanDocument::specChanged, this,
            [this] { m_profiles->setPreferredId(qs(this->document()->spec().cluster.gpu)); });
    // A choice or a catalog change is redrawn at once (a handful of evaluations); plan edits
    // reach showResults() through PlanPanel, which skips them while the tab is hidden.
    connect(m_profiles, &CompareProfilesModel::checkedChanged, this, &ComparePanel::recompute);
    connect(m_profiles, &CompareProfilesModel::limitReached, this, [this] {
        m_message->setText(tr("At most six profiles are compared at once: uncheck one first."));
        m_message->show();
    });
    recompute();
}

QList<ChartInfo> ComparePanel::charts() const {
    return {{QStringLiteral("compare-roofline"), tr("Compare: roofs"), m_view}};
}

QLineSeries* ComparePanel::roofSeries(const QString& profileId) const {
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        if (m_seriesIds[i] == profileId && m_series[i]->isVisible()) {
            return m_series[i];
        }
    }
    return nullptr;
}

QString ComparePanel::message() const {
    return m_message->isHidden() ? QString() : m_message->text();
}

void ComparePanel::showResults(const PlanViews&) {
    recompute();
}

void ComparePanel::recompute() {
    const std::vector<HardwareProfile> chosen = m_profiles->checkedProfiles();
    QString problem;
    ProfileComparisonResults results;
    if (chosen.size() < kMinComparedProfiles) {
        problem = tr("Check at least two profiles to compare.");
    } else {
        try {
            // The last plan the planner accepted, as the other panels draw it.
            results = compareProfiles(document()->views()->spec, chosen);
        } catch (const std::exception& e) {
            problem = qs(e.what());
        }
    }
    QStringList refused;
    for (const ComparisonRow& row : results.rows) {
        if (row.error) {
            refused.append(tr("%1: %2").arg(qs(row.hardware.name), qs(row.error->message())));
        }
    }
    if (problem.isEmpty() && !refused.isEmpty()) {
        problem = tr("Not evaluated on every profile:\n%1").arg(refused.join(u'\n'));
    }
    m_message->setText(problem);
    m_message->setVisible(!problem.isEmpty());
    // Under an assumed MFU, bandwidth does not enter the days; under the predicted one it does.
    const QString note =
        document()->views()->spec.cluster.mfu_predicted
            ? tr("Days come from each part's predicted step (the performance model: its GEMM "
                 "rate, memory bandwidth and network for the plan's layout), so parts with the "
                 "same peak but more bandwidth, such as the H200 against the H100, can train "
                 "faster. The roofs below show where bandwidth limits an operation.")
            : tr("Days come from each part's dense peak x the plan's assumed MFU (the lecture's "
                 "estimate): memory bandwidth does not enter it, so parts with the same peak, such "
                 "as the H100 and H200, take the same time. Set MFU to predicted to time each part "
                 "with the performance model. The roofs below show where bandwidth limits an "
                 "operation.");
    if (m_timeNote->text() != note) {
        m_timeNote->setText(note);
    }
    m_model->setResults(results);
    // The columns are fitted to what they hold now (a handful of cells; only while visible).
    m_table->resizeColumnsToContents();

    QStringList standIns;
    for (const ComparisonRow& row : results.rows) {
        if (row.fallback_from) {
            standIns << tr("%1 at %2").arg(qs(row.hardware.name), qs(to_string(row.compute)));
        }
    }
    const QString dtype = qs(to_string(results.rows.empty() ? ComputeType::bf16 : results.compute));
    m_chart->setTitle(
        standIns.isEmpty()
            ? tr("Roofs of the compared profiles, %1 (the plan's compute dtype)").arg(dtype)
            : tr("Roofs of the compared profiles, %1 (%2: no %1 peak)")
                  .arg(dtype, standIns.join(QStringLiteral(", "))));
    double yMin = 0.0;
    double yMax = 0.0;
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        QLineSeries* series = m_series[i];
        const bool used = i < results.roofs.size() && results.roofs[i].roof.has_value();
        m_seriesIds[i] = i < results.roofs.size() ? qs(results.roofs[i].profile_id) : QString();
        if (!used) {
            series->setVisible(false);
            for (QLegendMarker* marker : m_chart->legend()->markers(series)) {
                marker->setVisible(false);
            }
            continue;
        }
        const ComparedRoof& roof = results.roofs[i];
        const HardwareProfile& hw = results.rows[i].hardware;
        QList<QPointF> points;
        for (const ChartPoint& p : roof.line) {
            points.append({p.intensity_flops_per_byte, p.flops_per_s / kTera});
            yMin = yMin == 0.0 ? p.flops_per_s : std::min(yMin, p.flops_per_s);
            yMax = std::max(yMax, p.flops_per_s);
        }
        replacePoints(series, points);
        // Profiles with the same peak and bandwidth have the same roof (a copy that changes only
        // the memory): each line is drawn thinner than the one before it and every other one
        // dashed, so a roof on top of another still shows the colour beneath.
        QPen pen(profileColors()[i]);
        pen.setWidthF(2.0 + 1.5 * static_cast<double>(results.roofs.size() - 1 - i));
        pen.setStyle(i % 2 == 1 ? Qt::DashLine : Qt::SolidLine);
        if (series->pen() != pen) {
            series->setPen(pen);
        }
        const QString name = qs(hw.name);
        if (series->name() != name) {
            series->setName(name);
        }
        m_seriesTips[i] = tr("%1: dense %2 %3, %4, ridge %5 FLOP/byte")
                              .arg(qs(hw.name), qs(to_string(roof.roof->type)),
                                   formatFlopsPerSecond(roof.roof->peak_flops_per_s),
                                   formatGBPerSecond(roof.roof->bandwidth_bytes_per_s),
                                   formatNumber(roof.roof->ridge_flops_per_byte(), 'f', 1));
        series->setVisible(true);
        for (QLegendMarker* marker : m_chart->legend()->markers(series)) {
            marker->setVisible(true);
        }
    }
    if (!results.rows.empty()) {
        m_x->setRange(results.range.min_flops_per_byte, results.range.max_flops_per_byte);
    }
    if (yMin > 0.0) {
        m_y->setRange(decadeFloor(yMin / kTera), decadeCeil(yMax / kTera * 1.5));
    }
}

}  // namespace tally::ui
