#include "ui/charts/time_panel.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

#include "planner/plan_views.h"
#include "ui/charts/figure_table_model.h"
#include "ui/common/number_text.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

TimePanel::TimePanel(PlanDocument* document, QWidget* parent)
    : PlanPanel(document, parent),
      m_chart(new QChart),
      m_view(makeChartView(m_chart, this)),
      m_x(new QLogValueAxis(this)),
      m_y(new QLogValueAxis(this)),
      m_days(new QLineSeries(this)),
      m_current(new QScatterSeries(this)),
      m_table(new QTableView(this)),
      m_model(new FigureTableModel(this)) {
    setObjectName(QStringLiteral("timePanel"));
    m_chart->setTitle(tr("Days against GPUs (same MFU)"));
    m_days->setName(tr("Days"));
    QPen pen(componentColors()[0]);
    pen.setWidth(3);
    m_days->setPen(pen);
    m_days->setPointsVisible(true);
    m_current->setName(tr("This plan"));
    m_current->setMarkerSize(12);
    m_current->setColor(QColor(0x20, 0x20, 0x20));
    m_chart->addSeries(m_days);
    m_chart->addSeries(m_current);
    addLogLogAxes(m_chart, m_x, tr("GPUs"), m_y, tr("Days"));
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_days), static_cast<QXYSeries*>(m_current)}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        connect(s, &QXYSeries::hovered, this, [this](const QPointF& p, bool on) {
            if (on) {
                QToolTip::showText(QCursor::pos(),
                                   tr("%1 GPUs: %2 days\n= FLOPs / (peak x MFU x GPUs x 86400 s)")
                                       .arg(p.x())
                                       .arg(p.y(), 0, 'f', 1),
                                   m_view);
            }
        });
    }

    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    compactTable(m_table, FigureTableModel::LabelColumn);
    m_table->setObjectName(QStringLiteral("timeTable"));

    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* side = new QWidget(split);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_table, 1);
    auto* note = new QLabel(tr("Hover a figure for its formula, the numbers in it and its "
                               "source. Time = FLOPs / (dense peak x MFU x GPUs)."),
                            side);
    note->setWordWrap(true);
    sideLayout->addWidget(note);
    split->addWidget(side);
    split->addWidget(m_view);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({420, 560});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

QList<ChartInfo> TimePanel::charts() const {
    return {{QStringLiteral("days-vs-gpus"), tr("Days against GPUs"), m_view}};
}

void TimePanel::showResults(const PlanViews& v) {
    m_model->setRows(timeFigures(v));
    QList<QPointF> points;
    double lo = 0.0, hi = 0.0, ymin = v.plan.time.days, ymax = v.plan.time.days;
    for (const SweepPoint& p : v.gpu_sweep) {
        if (!p.valid || !(p.plan.time.days > 0.0)) {
            continue;
        }
        points.append({p.x, p.plan.time.days});
        lo = lo == 0.0 ? p.x : std::min(lo, p.x);
        hi = std::max(hi, p.x);
        ymin = std::min(ymin, p.plan.time.days);
        ymax = std::max(ymax, p.plan.time.days);
    }
    replacePoints(m_days, points);
    replacePoints(m_current,
                  QList<QPointF>{{static_cast<double>(v.spec.cluster.gpus), v.plan.time.days}});
    // Whole decades, so the first and last points are not cut in half by the plot's edge and
    // every end of the axis has a label.
    lo = decadeFloor(std::min(lo > 0.0 ? lo : 1.0, static_cast<double>(v.spec.cluster.gpus)));
    hi = std::max(decadeCeil(std::max(hi, static_cast<double>(v.spec.cluster.gpus))), lo * 10.0);
    if (m_x->min() != lo || m_x->max() != hi) {
        m_x->setRange(lo, hi);
    }
    if (ymin > 0.0) {
        const double y0 = decadeFloor(ymin);
        const double y1 = std::max(decadeCeil(ymax), y0 * 10.0);
        if (m_y->min() != y0 || m_y->max() != y1) {
            m_y->setRange(y0, y1);
        }
    }
}

}  // namespace tally::ui
