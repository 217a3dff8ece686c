#include "ui/charts/time_panel.h"

#include <QBarCategoryAxis>
#include <QBarLegendMarker>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "planner/core/errors.h"
#include "planner/performance/calibration.h"
#include "planner/text/plan_views.h"
#include "planner/training/layout_search.h"
#include "ui/charts/figure_table_model.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

namespace {

// One colour per step-time term (stepTerms()' order): the memory chart's five components for
// compute, recompute, memory-bound, TP and PP comm, then five more of the same palette
// (Tableau 10: red for the bubble, then pink, grey, olive and cyan for DP, EP, offload and the
// optimizer).
const std::array<QColor, 13>& termColors() {
    static const std::array<QColor, 13> colors{
        componentColors()[0],     componentColors()[1],     componentColors()[2],
        componentColors()[3],     componentColors()[4],     QColor(0xd6, 0x27, 0x28),
        QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0x8c, 0x56, 0x4b),
        QColor(0x9e, 0xda, 0xe5), QColor(0xff, 0xbb, 0x78), QColor(0xbc, 0xbd, 0x22),
        QColor(0x17, 0xbe, 0xcf)};
    return colors;
}

// A layout the way the Layouts panel's columns name it: every dimension that multiplies the GPUs
// (tp x pp x cp x dp, so the figures add up to the cluster), then what else it sets where it is
// not the default.
QString layoutSummary(const Layout& l) {
    QStringList parts{TimePanel::tr("tp %1").arg(l.tp), TimePanel::tr("pp %1").arg(l.pp)};
    if (l.context_parallel > 1) {
        parts << TimePanel::tr("cp %1").arg(l.context_parallel);
    }
    parts << TimePanel::tr("dp %1").arg(l.dp);
    if (l.expert_parallel > 1) {
        parts << TimePanel::tr("ep %1").arg(l.expert_parallel);
    }
    parts << TimePanel::tr("micro-batch %1").arg(l.micro_batch);
    if (l.interleave > 1) {
        parts << TimePanel::tr("%1 virtual stages").arg(l.interleave);
    }
    parts << TimePanel::tr("ZeRO-%1").arg(l.zero);
    switch (l.recompute) {
        case Recompute::none:
            break;
        case Recompute::selective:
            parts << TimePanel::tr("selective recomputation");
            break;
        case Recompute::full:
            parts << TimePanel::tr("full recomputation");
            break;
        case Recompute::sqrt:
            parts << TimePanel::tr("sqrt(L) checkpoints");
            break;
    }
    if (l.sequence_parallel) {
        parts << TimePanel::tr("sequence parallel");
    }
    return parts.join(TimePanel::tr(", "));
}

}  // namespace

TimePanel::TimePanel(PlanDocument* document, QWidget* parent)
    : PlanPanel(document, parent),
      m_chart(new QChart),
      m_view(makeChartView(m_chart, this)),
      m_x(new QLogValueAxis(this)),
      m_y(new QLogValueAxis(this)),
      m_days(new QLineSeries(this)),
      m_current(new QScatterSeries(this)),
      m_table(new QTableView(this)),
      m_model(new FigureTableModel(this)),
      m_mfuSource(new QLabel(this)),
      m_stepChart(new QChart),
      m_stepView(makeChartView(m_stepChart, this)),
      m_stepSeries(new QHorizontalStackedBarSeries(this)),
      m_stepAxis(new QBarCategoryAxis(this)),
      m_secondsAxis(new QValueAxis(this)),
      m_minDays(new QLineEdit(QStringLiteral("30"), this)),
      m_minFind(new QPushButton(tr("Find"), this)),
      m_minResult(new QLabel(this)),
      m_calibrate(new QPushButton(tr("Calibrate from a measured step…"), this)) {
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
                const QString formula = m_predicted ? tr("= steps x predicted step time / 86400 s")
                                                    : tr("= FLOPs / (peak x MFU x GPUs x 86400 s)");
                QToolTip::showText(
                    QCursor::pos(),
                    tr("%1 GPUs: %2 days").arg(p.x()).arg(p.y(), 0, 'f', 1) + u'\n' + formula,
                    m_view);
            }
        });
    }

    // One predicted step, its critical-path terms stacked (planner/performance/performance.h).
    m_mfuSource->setObjectName(QStringLiteral("mfuSource"));
    m_mfuSource->setWordWrap(true);
    m_stepChart->setTitle(tr("One step, predicted"));
    for (std::size_t i = 0; i < m_stepSets.size(); ++i) {
        m_stepSets[i] = new QBarSet(QString(), this);
        m_stepSets[i]->setColor(termColors()[i]);
        m_stepSets[i]->setBorderColor(termColors()[i].darker(130));
        m_stepSets[i]->append(0.0);
        m_stepSeries->append(m_stepSets[i]);
    }
    m_stepSeries->setBarWidth(0.6);
    m_stepChart->addSeries(m_stepSeries);
    m_stepAxis->setCategories({tr("Step")});
    m_stepChart->addAxis(m_stepAxis, Qt::AlignLeft);
    m_secondsAxis->setTitleText(tr("Seconds"));
    m_secondsAxis->setLabelFormat(QStringLiteral("%g"));
    m_stepChart->addAxis(m_secondsAxis, Qt::AlignBottom);
    m_stepSeries->attachAxis(m_stepAxis);
    m_stepSeries->attachAxis(m_secondsAxis);
    m_stepView->setMinimumSize(320, 170);
    // Ten terms do not fit one line under the bar: a column beside it, the terms that take no
    // time left out (showStep()).
    m_stepChart->legend()->setAlignment(Qt::AlignRight);
    connect(m_stepSeries, &QHorizontalStackedBarSeries::hovered, this,
            [this](bool on, int, QBarSet* set) {
                if (!on) {
                    QToolTip::hideText();
                    return;
                }
                const auto term = std::find(m_stepSets.begin(), m_stepSets.end(), set);
                if (term != m_stepSets.end()) {
                    QToolTip::showText(QCursor::pos(),
                                       stepTermTip(static_cast<int>(term - m_stepSets.begin())),
                                       m_stepView);
                }
            });

    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    compactTable(m_table, FigureTableModel::LabelColumn);
    // Cut in the middle: rows that differ only at their end ("Training FLOPs (model)" and
    // "Training FLOPs (hardware, HFU 0.437)") still read apart in a laptop's narrow column.
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setObjectName(QStringLiteral("timeTable"));

    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* side = new QWidget(split);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_table, 1);
    auto* note = new QLabel(tr("Hover a figure for its formula, the numbers in it and its "
                               "source. Time = FLOPs / (dense peak x MFU x GPUs) with an assumed "
                               "MFU, or steps x the predicted step time."),
                            side);
    note->setWordWrap(true);
    sideLayout->addWidget(note);
    // The smallest cluster that trains the plan in a given time (tally solve min-gpus).
    m_minPool.setMaxThreadCount(1);
    m_minDays->setObjectName(QStringLiteral("minGpusDays"));
    m_minDays->setAccessibleName(tr("Days allowed"));
    m_minDays->setFixedWidth(m_minDays->fontMetrics().horizontalAdvance(QStringLiteral("000000")));
    m_minFind->setObjectName(QStringLiteral("minGpusFind"));
    m_minFind->setToolTip(
        tr("Doubles whole nodes until the best layout (the Layouts panel's search) trains the "
           "plan's tokens in the days given, then bisects: tally solve min-gpus."));
    m_minResult->setObjectName(QStringLiteral("minGpusResult"));
    // The answer names every dimension of the layout: it wraps rather than being cut at a
    // laptop's width, and can be selected and copied.
    m_minResult->setWordWrap(true);
    m_minResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* minRow = new QHBoxLayout;
    minRow->addWidget(new QLabel(tr("GPUs to train it in"), side));
    minRow->addWidget(m_minDays);
    minRow->addWidget(new QLabel(tr("days:"), side));
    minRow->addWidget(m_minFind);
    sideLayout->addLayout(minRow);
    sideLayout->addWidget(m_minResult);
    connect(m_minFind, &QPushButton::clicked, this, &TimePanel::findMinGpus);
    connect(m_minDays, &QLineEdit::returnPressed, this, &TimePanel::findMinGpus);
    split->addWidget(side);
    // The charts' column: the prediction's source and the calibration button over both charts,
    // and the step bar over the days chart in a splitter of their own, whose share the step chart
    // is given as its legend needs (balanceCharts()) whatever the source's wrapped text takes.
    auto* chartsColumn = new QWidget(split);
    auto* chartsLayout = new QVBoxLayout(chartsColumn);
    chartsLayout->setContentsMargins(6, 4, 0, 0);
    auto* charts = new QSplitter(Qt::Vertical, chartsColumn);
    m_charts = charts;
    // Calibration: the model's overall efficiency fitted to a step the user's run measured.
    m_calibrate->setObjectName(QStringLiteral("calibrateButton"));
    m_calibrate->setToolTip(
        tr("Enter the step your run of this plan measured (or read a Megatron-LM, NeMo or "
           "torchtitan log): the model's efficiency on this part is fitted to it and stored in a "
           "workspace profile, which the plan then uses (tally calibrate)."));
    connect(m_calibrate, &QPushButton::clicked, this, &TimePanel::calibrateRequested);
    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_mfuSource, 1);
    sourceRow->addWidget(m_calibrate, 0, Qt::AlignTop);
    chartsLayout->addLayout(sourceRow);
    charts->addWidget(m_stepView);
    charts->addWidget(m_view);
    charts->setCollapsible(0, false);
    charts->setSizes({250, 500});
    chartsLayout->addWidget(charts, 1);
    split->addWidget(chartsColumn);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({420, 560});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

TimePanel::~TimePanel() {
    // The worker posts its answer to this object: let it finish first.
    m_minPool.waitForDone();
}

void TimePanel::findMinGpus() {
    if (m_minRunning) {
        return;
    }
    // An entry box: parseNumber() reads the C form and the user's locale's ("1,5" in de_DE).
    const std::optional<double> parsed = parseNumber(m_minDays->text());
    const double days = parsed.value_or(0.0);
    if (!parsed || !(days > 0.0 && days <= 1e6)) {
        // The box is marked, and the message says what it holds and what it takes.
        const QString message = !parsed ? tr("Days: \"%1\" is not a number; a number in (0, 1e6]")
                                        : tr("Days: got %1; a number in (0, 1e6]");
        m_minResult->setText(message.arg(m_minDays->text().trimmed()));
        m_minDays->setStyleSheet(QStringLiteral("border: 2px solid #c62828; border-radius: 3px;"));
        m_minDays->setToolTip(m_minResult->text());
        return;
    }
    m_minDays->setStyleSheet({});
    m_minDays->setToolTip({});
    const std::shared_ptr<const PlanViews> views = document()->views();
    const int generation = m_minGeneration;
    m_minRunning = true;
    m_minFind->setEnabled(false);
    m_minResult->setText(tr("Searching…"));
    m_minPool.start([this, views, days, generation] {
        std::optional<MinGpusResult> found;
        QString error;
        try {
            found = solve_min_gpus(views->spec, views->hardware, days, std::int64_t{1} << 20);
        } catch (const SpecError& e) {
            error = translatedFieldError(e.error());
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, views, days, generation, found, error] {
                m_minRunning = false;
                m_minFind->setEnabled(true);
                if (generation != m_minGeneration) {
                    m_minResult->setText(tr("The plan changed meanwhile: Find again."));
                } else if (!error.isEmpty()) {
                    m_minResult->setText(tr("Not searched: %1").arg(error));
                } else if (!found) {
                    m_minResult->setText(tr("No cluster of up to %1 %2 trains it in %3 days.")
                                             .arg(std::int64_t{1} << 20)
                                             .arg(qs(views->hardware.name))
                                             .arg(days));
                } else if (views->spec.model.kind == ModelKind::params) {
                    // No layers, widths or heads: any split of it the search names is one the
                    // model cannot say it has, so only the count is the answer.
                    m_minResult->setText(
                        (found->time.mfu_predicted
                             ? tr("%1 GPUs: %2 days at the predicted MFU (a model given by its "
                                  "parameter count alone has no layers to lay out)")
                             : tr("%1 GPUs: %2 days at the assumed MFU: FLOPs / (peak x MFU x "
                                  "GPUs) (a model given by its parameter count alone has no "
                                  "layers to lay out)"))
                            .arg(found->gpus)
                            .arg(formatDays(found->time.days)));
                } else {
                    m_minResult->setText((found->time.mfu_predicted
                                              ? tr("%1 GPUs: %2 days at %3")
                                              : tr("%1 GPUs: %2 days at the assumed MFU (%3)"))
                                             .arg(found->gpus)
                                             .arg(formatDays(found->time.days))
                                             .arg(layoutSummary(found->best.layout)));
                }
                if (found && generation == m_minGeneration) {
                    // The answer's GPU-hours and cost, as tally plan gives them for it.
                    const TimeEstimate& budget = found->time;
                    QString spend = tr("%1 GPU-hours").arg(formatShort(budget.gpu_hours));
                    if (budget.has_cost) {
                        spend += tr(", cost %1").arg(formatShort(budget.cost));
                    }
                    m_minResult->setText(m_minResult->text() + u"; " + spend);
                }
                m_minResult->setToolTip(m_minResult->text());
                emit minGpusFound();
            },
            Qt::QueuedConnection);
    });
}

QList<ChartInfo> TimePanel::charts() const {
    // Named as its title names it: on a calibrated profile the step is the calibrated one.
    const auto& views = document()->views();
    const bool calibrated = views && views->hardware.calibration.has_value();
    return {{QStringLiteral("step-time"),
             calibrated ? tr("One step, calibrated") : tr("One step, predicted"), m_stepView},
            {QStringLiteral("days-vs-gpus"), tr("Days against GPUs"), m_view}};
}

QString TimePanel::stepTermTip(int term) const {
    return term >= 0 && static_cast<std::size_t>(term) < m_terms.size()
               ? m_terms[static_cast<std::size_t>(term)].tooltip
               : QString();
}

// The legend beside the bar is one line a term: a chart shorter than its lines leaves the last
// terms undrawn. The height its title, the legend's lines and the margins around them need is
// given to it from the days chart below (balanceCharts()), not set as its minimum: a minimum
// would raise the window's own, past a laptop's screen for a plan of many terms.
void TimePanel::fitStepLegend() {
    QLegend* legend = m_stepChart->legend();
    const QFontMetrics metrics(legend->font());
    // A label's height is its tallest glyph's font's: Chinese labels are drawn in a fallback font
    // taller than the legend's own.
    int label = metrics.height();
    int lines = 0;
    for (QLegendMarker* marker : legend->markers(m_stepSeries)) {
        if (marker->isVisible()) {
            ++lines;
            label = std::max(label, metrics.boundingRect(marker->label()).height());
        }
    }
    // A legend line is its label's height with a margin above and below (Qt Charts lays each
    // marker out at about the label's height plus 8 pixels); the chart adds its margins, the title
    // and the legend's own padding, about a line more.
    const int line = label + 8;
    const QMargins margins = m_stepChart->margins();
    const int title = 2 * QFontMetrics(m_stepChart->titleFont()).height();
    m_stepLegendHeight = margins.top() + margins.bottom() + title + (lines + 1) * line;
    balanceCharts();
}

// The step chart at least as tall as its legend needs, as far as the days chart keeps its own
// minimum; a step chart already taller (the user's drag of the splitter) is left as it is.
void TimePanel::balanceCharts() {
    const QList<int> sizes = m_charts->sizes();
    if (sizes.size() != 2 || sizes[0] >= m_stepLegendHeight) {
        return;
    }
    const int total = sizes[0] + sizes[1];
    const int step = std::min(m_stepLegendHeight, total - m_view->minimumHeight());
    if (step > sizes[0]) {
        m_charts->setSizes({step, total - step});
    }
}

void TimePanel::resizeEvent(QResizeEvent* event) {
    PlanPanel::resizeEvent(event);
    balanceCharts();
}

void TimePanel::showEvent(QShowEvent* event) {
    PlanPanel::showEvent(event);
    balanceCharts();
}

void TimePanel::showStep(const PlanViews& v) {
    m_terms = stepTerms(v);
    bool entriesChanged = false;
    for (std::size_t i = 0; i < m_stepSets.size() && i < m_terms.size(); ++i) {
        const FigureRow& term = m_terms[i];
        if (m_stepSets[i]->label() != term.label) {
            m_stepSets[i]->setLabel(term.label);
            entriesChanged = true;  // another language: the lines' heights may change
        }
        if (m_stepSets[i]->at(0) != term.value) {
            m_stepSets[i]->replace(0, term.value);
        }
        for (QLegendMarker* marker : m_stepChart->legend()->markers(m_stepSeries)) {
            if (auto* bar = qobject_cast<QBarLegendMarker*>(marker);
                bar && bar->barset() == m_stepSets[i] && bar->isVisible() != (term.value > 0.0)) {
                bar->setVisible(term.value > 0.0);
                entriesChanged = true;
            }
        }
    }
    if (entriesChanged) {
        // A legend marker made visible keeps the width it was laid out at while hidden (none),
        // so its label is elided to nothing: lay the legend out again for the new entries.
        m_stepChart->legend()->layout()->invalidate();
        fitStepLegend();
    }
    const double step = v.plan.performance.step_s;
    const double top = niceCeil(step);
    if (m_secondsAxis->min() != 0.0 || m_secondsAxis->max() != top) {
        m_secondsAxis->setRange(0.0, top);
    }
    // On a calibrated profile the step is the model's divided by the fitted efficiency: said in
    // the title, where the eye lands first.
    const QString title =
        (v.hardware.calibration ? tr("One step, calibrated: %1 (%2 tokens/s)")
                                : tr("One step, predicted: %1 (%2 tokens/s)"))
            .arg(formatDuration(step), formatShort(v.plan.performance.tokens_per_s));
    if (m_stepChart->title() != title) {
        m_stepChart->setTitle(title);
    }
    QString source = mfuSourceText(v);
    if (v.hardware.calibration) {
        // Every term above is the model's divided by the profile's fitted efficiency.
        source += u' ';
        source += tr("Step %1, efficiency %2.")
                      .arg(translatedText(calibration_note_text(*v.hardware.calibration)))
                      .arg(v.hardware.calibration->efficiency, 0, 'f', 3);
    }
    if (m_mfuSource->text() != source) {
        m_mfuSource->setText(source);
    }
}

void TimePanel::showResults(const PlanViews& v) {
    // An answer belongs to the plan it was found for.
    ++m_minGeneration;
    if (!m_minRunning && !m_minResult->text().isEmpty()) {
        m_minResult->clear();
    }
    m_model->setRows(timeFigures(v));
    showStep(v);
    m_predicted = v.plan.time.mfu_predicted;
    const QString daysTitle = m_predicted ? tr("Days against GPUs (predicted, same tp and pp)")
                                          : tr("Days against GPUs (same MFU)");
    if (m_chart->title() != daysTitle) {
        m_chart->setTitle(daysTitle);
    }
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
    // every end of the axis has a label. A point on (or just off) a decade line would still sit
    // on the edge: the axis then reaches kEdgeRoom past it.
    constexpr double kEdgeRoom = 1.2;
    const double first = std::min(lo > 0.0 ? lo : 1.0, static_cast<double>(v.spec.cluster.gpus));
    const double last = std::max(hi, static_cast<double>(v.spec.cluster.gpus));
    // The GPUs stay on whole GPUs' decades (a tenth of a GPU is no layout): one GPU on the left
    // edge moves the edge to 1 / kEdgeRoom rather than to 0.1.
    lo = decadeFloor(first);
    if (first < lo * kEdgeRoom) {
        lo = first / kEdgeRoom;
    }
    hi = decadeCeil(last);
    if (last * kEdgeRoom > hi) {
        hi = last * kEdgeRoom;
    }
    hi = std::max(hi, decadeFloor(first) * 10.0);
    if (m_x->min() != lo || m_x->max() != hi) {
        m_x->setRange(lo, hi);
    }
    if (ymin > 0.0) {
        // The days reach one more decade where a point is within kEdgeRoom of the line.
        const double y0 = decadeFloor(ymin / kEdgeRoom);
        const double y1 = std::max(decadeCeil(ymax * kEdgeRoom), y0 * 10.0);
        if (m_y->min() != y0 || m_y->max() != y1) {
            m_y->setRange(y0, y1);
        }
    }
}

}  // namespace tally::ui
