#include "ui/charts/memory_panel.h"

#include <QBarCategoryAxis>
#include <QBarLegendMarker>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <span>

#include "planner/text/plan_views.h"
#include "ui/charts/figure_text.h"
#include "ui/charts/memory_table_model.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

namespace {

constexpr double kGB = 1e9;

void setRangeIfChanged(QValueAxis* axis, double lo, double hi) {
    if (axis->min() != lo || axis->max() != hi) {
        axis->setRange(lo, hi);
    }
}

}  // namespace

MemoryPanel::MemoryPanel(PlanDocument* document, QWidget* parent)
    : PlanPanel(document, parent),
      m_barChart(new QChart),
      m_barView(makeChartView(m_barChart, this)),
      m_bars(new QStackedBarSeries(this)),
      m_stages(new QBarCategoryAxis(this)),
      m_barY(new QValueAxis(this)),
      m_capacityX(new QValueAxis(this)),
      m_capacity(new QLineSeries(this)),
      m_sweepChart(new QChart),
      m_sweepView(makeChartView(m_sweepChart, this)),
      m_variable(new QComboBox(this)),
      m_sweepLogX(new QLogValueAxis(this)),
      m_sweepLinX(new QValueAxis(this)),
      m_sweepY(new QValueAxis(this)),
      m_total(new QLineSeries(this)),
      m_state(new QLineSeries(this)),
      m_activations(new QLineSeries(this)),
      m_sweepCapacity(new QLineSeries(this)),
      m_current(new QScatterSeries(this)),
      m_table(new QTableView(this)),
      m_model(new MemoryTableModel(this)),
      m_maxParams(new QLabel(this)) {
    setObjectName(QStringLiteral("memoryPanel"));
    for (std::size_t i = 0; i < m_sets.size(); ++i) {
        m_sets[i] = new QBarSet(QString(), this);
        m_sets[i]->setColor(componentColors()[i]);
        m_sets[i]->setBorderColor(componentColors()[i].darker(130));
        m_sets[i]->append(QList<qreal>{0, 0, 0, 0});
        m_bars->append(m_sets[i]);
    }
    nameBarSets();
    m_bars->setBarWidth(0.6);
    m_barChart->setTitle(tr("Memory per GPU by ZeRO stage"));
    m_barChart->addSeries(m_bars);
    m_stages->setCategories({tr("ZeRO-0"), tr("ZeRO-1"), tr("ZeRO-2"), tr("ZeRO-3")});
    m_barChart->addAxis(m_stages, Qt::AlignBottom);
    m_barY->setTitleText(tr("GB per GPU"));
    m_barY->setLabelFormat(QStringLiteral("%g"));
    m_barChart->addAxis(m_barY, Qt::AlignLeft);
    m_bars->attachAxis(m_stages);
    m_bars->attachAxis(m_barY);
    QPen capacityPen(capacityColor());
    capacityPen.setWidth(2);
    capacityPen.setStyle(Qt::DashLine);
    m_capacity->setPen(capacityPen);
    m_barChart->addSeries(m_capacity);
    m_capacityX->setRange(-0.5, 3.5);
    m_capacityX->setVisible(false);
    m_barChart->addAxis(m_capacityX, Qt::AlignBottom);
    m_capacity->attachAxis(m_capacityX);
    m_capacity->attachAxis(m_barY);
    m_capacity->append(QList<QPointF>{{-0.5, 0}, {3.5, 0}});
    connect(m_bars, &QStackedBarSeries::hovered, this, [this](bool on, int index, QBarSet* set) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        const PlanViews& v = *this->document()->views();
        const std::size_t stage = static_cast<std::size_t>(index);
        const auto component = std::find(m_sets.begin(), m_sets.end(), set) - m_sets.begin();
        const double bytes = set->at(index) * kGB;
        QString text = tr("%1 with ZeRO-%2: %3 (%4)")
                           .arg(set->label())
                           .arg(index)
                           .arg(formatGB(bytes), formatGiB(bytes));
        if (stage < v.zero_variants.size() &&
            v.zero_variants[stage].stage == v.spec.training.zero) {
            static const char* keys[] = {"memory.params_bytes", "memory.grads_bytes",
                                         "memory.master_bytes", "memory.optimizer_bytes",
                                         "memory.activations_bytes"};
            if (component < 5) {
                text += u"\n" + explanationTip(v.explanation(keys[component]));
            } else {
                for (const char* key :
                     {"memory.zero3_gather_bytes", "memory.pipeline_buffer_bytes"}) {
                    if (const Explanation* e = v.explanation(key)) {
                        text += u"\n" + explanationTip(e);
                    }
                }
            }
        }
        QToolTip::showText(QCursor::pos(), text, m_barView);
    });

    // Memory against a variable.
    m_variable->addItem(tr("Micro-batch"), static_cast<int>(SweepVariable::micro_batch));
    m_variable->addItem(tr("Sequence length"), static_cast<int>(SweepVariable::seq_len));
    m_variable->addItem(tr("Layers"), static_cast<int>(SweepVariable::layers));
    m_variable->setAccessibleName(tr("Memory against"));
    // As wide as its choices in the language shown: sized once, a switch from Chinese cut
    // "Micro-batch" to "Micro-ba".
    m_variable->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_variable, &QComboBox::activated, this, [this](int index) {
        this->document()->setMemorySweepVariable(
            static_cast<SweepVariable>(m_variable->itemData(index).toInt()));
    });
    m_sweepChart->setTitle(tr("Memory per GPU against a variable"));
    m_total->setName(tr("Total"));
    m_state->setName(tr("Model state"));
    m_activations->setName(tr("Activations"));
    m_sweepCapacity->setName(tr("Capacity"));
    m_current->setName(tr("This plan"));
    QPen totalPen(QColor(0x20, 0x20, 0x20));
    totalPen.setWidth(3);
    m_total->setPen(totalPen);
    QPen statePen(componentColors()[3]);
    statePen.setWidth(2);
    m_state->setPen(statePen);
    QPen actPen(componentColors()[4]);
    actPen.setWidth(2);
    m_activations->setPen(actPen);
    m_sweepCapacity->setPen(capacityPen);
    m_current->setMarkerSize(11);
    m_current->setColor(QColor(0x20, 0x20, 0x20));
    for (QLineSeries* s : {m_total, m_state, m_activations, m_sweepCapacity}) {
        // The capacity is a level, not measured points: its two ends sit on the plot's edges.
        s->setPointsVisible(s != m_sweepCapacity);
        m_sweepChart->addSeries(s);
        connect(s, &QLineSeries::hovered, this, [this, s](const QPointF& p, bool on) {
            if (on) {
                QString tip =
                    tr("%1 at %2 = %3: %4 (%5)\nThe plan evaluated again with only %2 changed; "
                       "total = params + grads + master + optimizer + activations.\nSource: "
                       "Rajbhandari et al. 2020 (ZeRO); Korthikanti et al. 2022 (activations)")
                        .arg(s->name(), m_variable->currentText(), QString::number(p.x()),
                             formatGB(p.y() * kGB), formatGiB(p.y() * kGB));
                // With a pipeline, activations grow with the micro-batch only while the first
                // stage's micro-batches in flight stay min(pp, micro-batches a step): past that,
                // a larger micro-batch means fewer in flight, and the curve flattens.
                const auto& views = this->document()->views();
                for (const SweepPoint& point :
                     views ? std::span<const SweepPoint>(views->memory_sweep)
                           : std::span<const SweepPoint>()) {
                    const Plan& plan = point.plan;
                    if (point.valid && point.x == p.x() && plan.parallel.pp > 1) {
                        tip += u'\n' +
                               tr("Pipeline: the first stage holds %1 micro-batches in flight = "
                                  "min(pp %2, micro-batches a step %3) (Narayanan et al. 2021, "
                                  "sec. 2.2.1)")
                                   .arg(formatNumber(plan.memory.activations.microbatches_in_flight,
                                                     'g', 4))
                                   .arg(plan.parallel.pp)
                                   .arg(plan.parallel.grad_accum_steps);
                    }
                }
                QToolTip::showText(QCursor::pos(), tip, m_sweepView);
            }
        });
    }
    m_sweepChart->addSeries(m_current);
    m_sweepLogX->setBase(2.0);
    m_sweepLogX->setLabelFormat(QStringLiteral("%g"));
    m_sweepLinX->setLabelFormat(QStringLiteral("%g"));
    m_sweepY->setTitleText(tr("GB per GPU"));
    m_sweepY->setLabelFormat(QStringLiteral("%g"));
    m_sweepChart->addAxis(m_sweepY, Qt::AlignLeft);
    for (QXYSeries* s :
         {static_cast<QXYSeries*>(m_total), static_cast<QXYSeries*>(m_state),
          static_cast<QXYSeries*>(m_activations), static_cast<QXYSeries*>(m_sweepCapacity),
          static_cast<QXYSeries*>(m_current)}) {
        s->attachAxis(m_sweepY);
    }
    setSweepAxis(SweepVariable::micro_batch);

    // The table beside the charts.
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    compactTable(m_table, MemoryTableModel::ComponentColumn);
    m_table->setObjectName(QStringLiteral("memoryTable"));

    auto* note = new QLabel(tr("GB = 10^9 bytes, as datasheets count. GiB = 2^30 bytes, as "
                               "nvidia-smi shows. The figures are those of the most loaded GPU."),
                            this);
    note->setWordWrap(true);

    auto* charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(m_barView);
    auto* sweepBox = new QWidget(charts);
    auto* sweepLayout = new QVBoxLayout(sweepBox);
    sweepLayout->setContentsMargins(0, 0, 0, 0);
    auto* pickRow = new QHBoxLayout;
    pickRow->addWidget(new QLabel(tr("Memory against"), sweepBox));
    pickRow->addWidget(m_variable);
    pickRow->addStretch(1);
    sweepLayout->addLayout(pickRow);
    sweepLayout->addWidget(m_sweepView, 1);
    charts->addWidget(sweepBox);
    charts->setSizes({420, 420});

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);

    m_maxParams->setObjectName(QStringLiteral("maxParams"));
    // The answer to the lecture's second question: wrapped where the side column is narrow (a
    // laptop's screen, Chinese), two lines kept so a change of text does not move the table.
    m_maxParams->setWordWrap(true);
    m_maxParams->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_maxParams->setMinimumHeight(2 * m_maxParams->fontMetrics().lineSpacing());
    sideLayout->addWidget(m_maxParams);
    sideLayout->addWidget(m_table, 1);
    sideLayout->addWidget(note);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(charts);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({620, 360});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

QList<ChartInfo> MemoryPanel::charts() const {
    return {{QStringLiteral("memory-per-gpu"), tr("Memory per GPU"), m_barView},
            {QStringLiteral("memory-sweep"), tr("Memory against a variable"), m_sweepView}};
}

void MemoryPanel::showResults(const PlanViews& views) {
    m_model->setResults(views);
    const MaxParamsResult& mp = views.max_params;
    const QString largest = tr("%1 parameters: the largest model that fits (model state only)")
                                .arg(formatShort(mp.max_params));
    if (m_maxParams->text() != largest) {
        m_maxParams->setText(largest);
        m_maxParams->setToolTip(
            tr("%1\nParameters, gradients, master weights and optimizer state of the plan's "
               "recipe, sharded as the plan shards them; activations are left out (CS336 lecture "
               "2, question 2; tally solve max-params).")
                .arg(translatedText(mp.formula_text)));
    }
    showBars(views);
    showSweep(views);
}

// Short names: the entries and the capacity share one legend line. "Buffers" (ZeRO-3's
// gathered layers, the pipeline's send and receive buffers) is listed only where it shows.
void MemoryPanel::nameBarSets() {
    const QStringList names{tr("Params"),    tr("Grads"),       tr("Master"),
                            tr("Optimizer"), tr("Activations"), tr("Buffers")};
    for (std::size_t i = 0; i < m_sets.size(); ++i) {
        m_sets[i]->setLabel(names[static_cast<int>(i)]);
    }
}

void MemoryPanel::changeEvent(QEvent* event) {
    // Named again from their own sources: looked up back from the other language, the short
    // names came back as their long namesakes ("Parameters" for 参数) and were cut in the legend.
    if (event->type() == QEvent::LanguageChange) {
        nameBarSets();
    }
    PlanPanel::changeEvent(event);
}

void MemoryPanel::showBars(const PlanViews& v) {
    // The axis reaches the tallest bar, but no further than the round number above three times
    // the larger of the capacity and the plan's own total: a stage needing a hundred times the
    // plan (ZeRO-0 of a 671B MoE, 10.8 TB a GPU) would flatten the plan's bar to nothing. A bar
    // past the axis is cut and its total written under it.
    const double limit = 3.0 * std::max(v.plan.memory.capacity_bytes, v.plan.memory.total_bytes);
    double top = v.plan.memory.capacity_bytes;
    for (std::size_t stage = 0; stage < v.zero_variants.size(); ++stage) {
        const ZeroVariant& z = v.zero_variants[stage];
        const MemoryBreakdown& m = z.memory;
        const std::array<double, 6> parts{
            m.params_bytes,    m.grads_bytes,       m.master_bytes,
            m.optimizer_bytes, m.activations_bytes, m.zero3_gather_bytes + m.pipeline_buffer_bytes};
        for (std::size_t c = 0; c < parts.size(); ++c) {
            const double gb = z.valid ? parts[c] / kGB : 0.0;
            if (m_sets[c]->at(static_cast<int>(stage)) != gb) {
                m_sets[c]->replace(static_cast<int>(stage), gb);
            }
        }
        if (z.valid) {
            top = std::max(top, std::min(m.total_bytes, limit));
        }
    }
    // The axis ends at a round number at or above that top, so a bar over the limit may still be
    // drawn whole: only one past the axis's end is cut (and marked so).
    const double axisTop = niceCeil(top / kGB * 1.05);
    for (std::size_t stage = 0; stage < v.zero_variants.size(); ++stage) {
        const ZeroVariant& z = v.zero_variants[stage];
        const MemoryBreakdown& m = z.memory;
        const bool cut = z.valid && m.total_bytes / kGB > axisTop;
        const QString label =
            !z.valid                          ? tr("ZeRO-%1<br>(n/a)").arg(stage)
            : z.stage == v.spec.training.zero ? tr("ZeRO-%1<br>(plan)").arg(stage)
            : cut
                ? tr("ZeRO-%1<br>%2 GB ↑").arg(stage).arg(formatNumber(m.total_bytes / kGB, 'f', 0))
                : tr("ZeRO-%1").arg(stage);
        const QString old = m_stages->at(static_cast<int>(stage));
        if (old != label) {
            m_stages->replace(old, label);
        }
    }
    const double cap = v.plan.memory.capacity_bytes / kGB;
    if (m_capacity->at(0).y() != cap) {
        m_capacity->replace(QList<QPointF>{{-0.5, cap}, {3.5, cap}});
    }
    const QString capName = tr("Capacity %1").arg(formatGB(v.plan.memory.capacity_bytes));
    if (m_capacity->name() != capName) {
        m_capacity->setName(capName);
    }
    setRangeIfChanged(m_barY, 0.0, axisTop);
    // The buffers' legend entry where a bar shows them (a pixel's worth of the axis or more).
    bool buffersShow = false;
    for (int stage = 0; stage < m_sets[5]->count(); ++stage) {
        buffersShow = buffersShow || m_sets[5]->at(stage) > 0.005 * axisTop;
    }
    if (buffersShow != m_buffersShown) {
        // Looked up only when it changes: the list of markers is built anew on every call.
        for (QLegendMarker* marker : m_barChart->legend()->markers(m_bars)) {
            if (static_cast<QBarLegendMarker*>(marker)->barset() == m_sets[5]) {
                marker->setVisible(buffersShow);
            }
        }
        // Qt Charts does not lay the legend out again when an entry is shown or hidden (as in
        // the roofline's legend): "Buffers" came back drawn over "Capacity 80.00 GB".
        if (QGraphicsLayout* layout = m_barChart->legend()->layout()) {
            layout->invalidate();
            layout->activate();
        }
        m_buffersShown = buffersShow;
    }
}

void MemoryPanel::setSweepAxis(SweepVariable variable) {
    if (variable == m_shownVariable) {
        return;
    }
    const bool log = variable != SweepVariable::layers;
    QAbstractAxis* next = log ? static_cast<QAbstractAxis*>(m_sweepLogX) : m_sweepLinX;
    QAbstractAxis* previous = log ? static_cast<QAbstractAxis*>(m_sweepLinX) : m_sweepLogX;
    if (m_sweepChart->axes(Qt::Horizontal).contains(previous)) {
        m_sweepChart->removeAxis(previous);
        // removeAxis() gives up the chart's ownership and leaves the axis without a parent:
        // take it back, or it leaks when the panel goes while it is the unused one.
        previous->setParent(this);
    }
    if (!m_sweepChart->axes(Qt::Horizontal).contains(next)) {
        m_sweepChart->addAxis(next, Qt::AlignBottom);
        for (QXYSeries* s :
             {static_cast<QXYSeries*>(m_total), static_cast<QXYSeries*>(m_state),
              static_cast<QXYSeries*>(m_activations), static_cast<QXYSeries*>(m_sweepCapacity),
              static_cast<QXYSeries*>(m_current)}) {
            s->attachAxis(next);
        }
    }
    switch (variable) {
        case SweepVariable::micro_batch:
            next->setTitleText(tr("Micro-batch (sequences per GPU)"));
            break;
        case SweepVariable::seq_len:
            next->setTitleText(tr("Sequence length (tokens)"));
            break;
        case SweepVariable::layers:
            next->setTitleText(tr("Layers"));
            break;
        case SweepVariable::gpus:
            next->setTitleText(tr("GPUs"));
            break;
    }
    const int index = m_variable->findData(static_cast<int>(variable));
    if (index >= 0 && index != m_variable->currentIndex()) {
        m_variable->setCurrentIndex(index);
    }
    m_shownVariable = variable;
}

void MemoryPanel::showSweep(const PlanViews& v) {
    setSweepAxis(v.memory_variable);
    QList<QPointF> total, state, act;
    double maxTotal = 0.0;
    // The axis spans the points the planner accepts (and the plan's own x): a micro-batch
    // sweep under a global batch of 512 over 32 data-parallel ranks stops at 16, and an axis
    // running on to 1024 would squeeze the curve into its first third.
    const double own = sweep_value(v.spec, v.memory_variable);
    double lo = own, hi = own;
    double anyLo = 0.0, anyHi = 0.0;
    for (const SweepPoint& p : v.memory_sweep) {
        anyLo = anyLo == 0.0 ? p.x : std::min(anyLo, p.x);
        anyHi = std::max(anyHi, p.x);
        if (!p.valid) {
            continue;
        }
        lo = std::min(lo, p.x);
        hi = std::max(hi, p.x);
        const MemoryBreakdown& m = p.plan.memory;
        total.append({p.x, m.total_bytes / kGB});
        state.append({p.x, m.model_state_bytes() / kGB});
        act.append({p.x, m.activations_bytes / kGB});
        maxTotal = std::max(maxTotal, m.total_bytes);
    }
    if (!(hi > lo)) {
        lo = anyLo;  // one valid point at most: show the whole sweep around it
        hi = anyHi;
    }
    replacePoints(m_total, total);
    replacePoints(m_state, state);
    replacePoints(m_activations, act);
    // The log axes reach kEdgeRoom past the first and last points, so that the points at the
    // ends (the plan's own micro-batch of 1, say) are not cut in half by the plot's edge; their
    // labels are powers of two, which the margin keeps.
    constexpr double kEdgeRoom = 1.2;
    const bool linear = v.memory_variable == SweepVariable::layers;
    const double left = linear ? lo : lo / kEdgeRoom;
    const double right = linear ? hi : hi * kEdgeRoom;
    const double cap = v.plan.memory.capacity_bytes;
    replacePoints(m_sweepCapacity, QList<QPointF>{{left, cap / kGB}, {right, cap / kGB}});
    replacePoints(m_current, QList<QPointF>{{own, v.plan.memory.total_bytes / kGB}});
    if (hi > lo) {
        if (linear) {
            setRangeIfChanged(m_sweepLinX, 0.0, hi);
        } else if (m_sweepLogX->min() != left || m_sweepLogX->max() != right) {
            m_sweepLogX->setRange(left, right);
        }
    }
    // Keep the capacity line readable: a sweep that runs far past it is cut off at a few
    // times the capacity (or above this plan), not squashed to the bottom.
    const double shown = std::min(maxTotal, std::max(3.0 * cap, 1.5 * v.plan.memory.total_bytes));
    const double top = niceCeil(std::max(shown, cap) / kGB * 1.05);
    setRangeIfChanged(m_sweepY, 0.0, top);
    // Points above the top run off the chart: the title says where the axis is cut.
    const QString title = maxTotal / kGB > top
                              ? tr("Memory per GPU against a variable (axis cut at %1 GB)").arg(top)
                              : tr("Memory per GPU against a variable");
    if (m_sweepChart->title() != title) {
        m_sweepChart->setTitle(title);
    }
}

}  // namespace tally::ui
