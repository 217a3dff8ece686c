#include "ui/charts/roofline_panel.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
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
#include <algorithm>
#include <cmath>
#include <set>

#include "ui/charts/roofline_table_model.h"
#include "ui/common/chart_support.h"
#include "ui/common/number_text.h"
#include "ui/plan/op_input.h"
#include "ui/plan/plan_document.h"
#include "ui/probe/probe_text.h"

namespace tally::ui {

namespace {

constexpr double kTera = 1e12;
const QString kMarkStyle = QStringLiteral("border: 2px solid #c62828; border-radius: 3px;");

QColor groupColor(RooflineGroup group) {
    switch (group) {
        case RooflineGroup::seed:
            return QColor(0x33, 0x33, 0x33);
        case RooflineGroup::user:
            return QColor(0xc2, 0x18, 0x5b);
        case RooflineGroup::training:
            return QColor(0x1f, 0x77, 0xb4);
        case RooflineGroup::prefill:
            return QColor(0x2c, 0xa0, 0x2c);
        case RooflineGroup::decode:
            return QColor(0xff, 0x7f, 0x0e);
    }
    return Qt::black;
}

QColor roofColor(ComputeType type) {
    switch (type) {
        case ComputeType::fp64:
            return QColor(0x7f, 0x7f, 0x7f);
        case ComputeType::fp32:
            return QColor(0x17, 0xbe, 0xcf);
        case ComputeType::tf32:
            return QColor(0xbc, 0xbd, 0x22);
        case ComputeType::bf16:
            return QColor(0xd6, 0x27, 0x28);
        case ComputeType::fp16:
            return QColor(0xe3, 0x77, 0xc2);
        case ComputeType::fp8:
            return QColor(0x94, 0x67, 0xbd);
        case ComputeType::fp4:
            return QColor(0x8c, 0x56, 0x4b);
        case ComputeType::int8:
            return QColor(0x55, 0x55, 0x99);
    }
    return Qt::black;
}

constexpr std::array<RooflineGroup, 5> kGroups{RooflineGroup::seed, RooflineGroup::user,
                                               RooflineGroup::training, RooflineGroup::prefill,
                                               RooflineGroup::decode};

bool hasLayerOps(RooflineGroup g) {
    return g == RooflineGroup::training || g == RooflineGroup::prefill ||
           g == RooflineGroup::decode;
}

// Where a label of `size` goes for a mark at `at`: beside the mark where there is room (right
// below, right above, left below, left above), else stepped down past the labels already placed.
QRectF labelBox(const QPointF& at, const QSizeF& size, const QRectF& plot,
                const QList<QRectF>& taken) {
    auto clashes = [&taken](const QRectF& box) {
        return std::find_if(taken.begin(), taken.end(),
                            [&box](const QRectF& r) { return r.intersects(box); }) != taken.end();
    };
    // Beside the mark (right below, right above, left below, left above), then level with it
    // (right, left), then centred over or under it.
    const std::array<QPointF, 8> offsets{QPointF(8, 2),
                                         QPointF(8, -size.height() - 2),
                                         QPointF(-size.width() - 8, 2),
                                         QPointF(-size.width() - 8, -size.height() - 2),
                                         QPointF(8, -size.height() / 2),
                                         QPointF(-size.width() - 8, -size.height() / 2),
                                         QPointF(-size.width() / 2, -size.height() - 6),
                                         QPointF(-size.width() / 2, 6)};
    for (const QPointF& offset : offsets) {
        const QRectF box(at + offset, size);
        if (plot.contains(box) && !clashes(box)) {
            return box;
        }
    }
    // Stepped down, then up, past the labels already placed, inside the plot; where none is
    // free, the first step down (the label may then cover another, but keeps its leader line).
    const bool roomRight = at.x() + offsets[0].x() + size.width() <= plot.right();
    const QRectF start(at + offsets[roomRight ? 0 : 2], size);
    for (const double direction : {1.0, -1.0}) {
        QRectF box = start;
        for (int tries = 0; tries < 8; ++tries) {
            box.translate(0, direction * (size.height() + 1));
            if (plot.contains(box) && !clashes(box)) {
                return box;
            }
        }
    }
    QRectF box = start.translated(0, size.height() + 1);
    if (box.bottom() > plot.bottom()) {
        box.moveBottom(plot.bottom());
    }
    return box;
}

// Puts `item` beside the mark at `at` (labelBox()), takes its room, and shows it while the mark is
// inside the plot.
void placeLabel(QGraphicsSimpleTextItem* item, const QPointF& at, const QRectF& plot,
                QList<QRectF>& taken) {
    const QRectF box = labelBox(at, item->boundingRect().size(), plot, taken);
    taken.append(box);
    if (item->pos() != box.topLeft()) {
        item->setPos(box.topLeft());
    }
    // A label that found no room beside its mark is stepped away from it, where it could sit
    // beside another mark: a thin line (a child of the label, shown and hidden with it) leads
    // from its nearest edge to its own mark.
    QGraphicsLineItem* leader = nullptr;
    for (QGraphicsItem* child : item->childItems()) {
        leader = leader != nullptr ? leader : qgraphicsitem_cast<QGraphicsLineItem*>(child);
    }
    const QPointF nearest(std::clamp(at.x(), box.left(), box.right()),
                          std::clamp(at.y(), box.top(), box.bottom()));
    const bool away = QLineF(nearest, at).length() > 12.0;
    if (away) {
        if (leader == nullptr) {
            leader = new QGraphicsLineItem(item);
        }
        QPen pen(item->brush().color());
        pen.setCosmetic(true);
        pen.setStyle(Qt::DotLine);
        leader->setPen(pen);
        leader->setLine(QLineF(nearest - box.topLeft(), at - box.topLeft()));
    }
    if (leader != nullptr && leader->isVisible() != away) {
        leader->setVisible(away);
    }
    if (item->isVisible() != plot.contains(at)) {
        item->setVisible(plot.contains(at));
    }
}

// The labels of `items` that are shown.
QList<QGraphicsSimpleTextItem*> visibleItems(const QList<QGraphicsSimpleTextItem*>& items) {
    QList<QGraphicsSimpleTextItem*> shown;
    for (QGraphicsSimpleTextItem* item : items) {
        if (item->isVisible()) {
            shown.append(item);
        }
    }
    return shown;
}

// The measured overlay: one colour, a marker shape per kind of point.
const QColor kMeasuredColor(0x00, 0x79, 0x6b);

constexpr std::array<MeasuredPointKind, 5> kMeasuredKinds{
    MeasuredPointKind::matmul, MeasuredPointKind::seed_op, MeasuredPointKind::sweep,
    MeasuredPointKind::stream, MeasuredPointKind::other};

}  // namespace

RooflinePanel::RooflinePanel(PlanDocument* document, QWidget* parent)
    : PlanPanel(document, parent),
      m_chart(new QChart),
      m_view(makeChartView(m_chart, this)),
      m_x(new QLogValueAxis(this)),
      m_y(new QLogValueAxis(this)),
      m_table(new QTableView(this)),
      m_model(new RooflineTableModel(this)),
      m_kind(new QComboBox(this)),
      m_name(new QLineEdit(this)),
      m_expr(new QLineEdit(this)),
      m_sizes(new QLineEdit(this)),
      m_dtype(new QComboBox(this)),
      m_add(new QPushButton(tr("Add"), this)),
      m_remove(new QPushButton(tr("Remove selected"), this)),
      m_message(new QLabel(this)),
      m_measuredToggle(new QCheckBox(this)),
      m_measuredNote(new QLabel(this)) {
    setObjectName(QStringLiteral("rooflinePanel"));
    m_kind->setObjectName(QStringLiteral("rooflineOpKind"));
    m_name->setObjectName(QStringLiteral("rooflineOpName"));
    m_expr->setObjectName(QStringLiteral("rooflineOpExpression"));
    m_sizes->setObjectName(QStringLiteral("rooflineOpSizes"));
    m_add->setObjectName(QStringLiteral("rooflineOpAdd"));
    m_remove->setObjectName(QStringLiteral("rooflineOpRemove"));
    m_message->setObjectName(QStringLiteral("rooflineOpMessage"));
    m_chart->setTitle(tr("Roofline: attainable FLOP/s = min(peak, intensity x bandwidth)"));
    m_chart->legend()->setAlignment(Qt::AlignRight);
    addRooflineAxes(m_chart, m_x, m_y);

    // Every mark series exists from the start, so the legend keeps one order.
    for (RooflineGroup g : kGroups) {
        if (hasLayerOps(g)) {
            markSet(g, false);
        }
        markSet(g, true);
    }
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { placeLabels(); });

    // The operation editor.
    for (OpKind k : {OpKind::einsum, OpKind::matmul, OpKind::matvec, OpKind::dot, OpKind::relu,
                     OpKind::gelu}) {
        m_kind->addItem(qs(to_string(k)), static_cast<int>(k));
    }
    for (DType t :
         {DType::bf16, DType::fp16, DType::fp32, DType::tf32, DType::fp8_e4m3, DType::fp8_e5m2,
          DType::int8, DType::fp4_e2m1, DType::nvfp4, DType::mxfp4, DType::fp64}) {
        m_dtype->addItem(qs(to_string(t)), static_cast<int>(t));
    }
    m_kind->setAccessibleName(tr("Operation kind"));
    m_dtype->setAccessibleName(tr("Operation dtype"));
    m_name->setPlaceholderText(tr("name (optional)"));
    m_name->setAccessibleName(tr("Operation name"));
    m_expr->setAccessibleName(tr("Einsum expression"));
    m_sizes->setAccessibleName(tr("Sizes"));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #c62828;"));
    connect(m_kind, &QComboBox::currentIndexChanged, this, &RooflinePanel::kindChanged);
    connect(m_add, &QPushButton::clicked, this, &RooflinePanel::addOperation);
    // Another plan (File > Open, New): a complaint about an operation typed for the last one,
    // and its red frame, no longer apply.
    connect(document, &PlanDocument::filePathChanged, this, &RooflinePanel::clearOperationError);
    // Enter in any of the editor's boxes adds the operation, the name's too.
    connect(m_name, &QLineEdit::returnPressed, this, &RooflinePanel::addOperation);
    connect(m_expr, &QLineEdit::returnPressed, this, &RooflinePanel::addOperation);
    connect(m_sizes, &QLineEdit::returnPressed, this, &RooflinePanel::addOperation);
    kindChanged();

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    compactTable(m_table, RooflineTableModel::NameColumn);
    // The lecture's five operations at least, under the chart on a laptop's screen.
    showAtLeastRows(m_table, 6);
    m_table->setObjectName(QStringLiteral("rooflineTable"));
    m_remove->setEnabled(false);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        m_remove->setEnabled(!rows.isEmpty() &&
                             rows.front().data(RooflineTableModel::OpIndexRole).toInt() >= 0);
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (!rows.isEmpty()) {
            this->document()->removeOperation(
                rows.front().data(RooflineTableModel::OpIndexRole).toInt());
        }
    });

    // Two rows: the einsum's expression and sizes get a line of their own, so neither they nor
    // the buttons are cut at a laptop's width (one row cut "Remove selected" and the
    // placeholders).
    auto* editor = new QWidget(this);
    auto* rows = new QVBoxLayout(editor);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Your operation:"), editor));
    row->addWidget(m_kind);
    row->addWidget(m_name, 1);
    row->addWidget(m_dtype);
    row->addWidget(m_add);
    row->addWidget(m_remove);
    auto* operands = new QHBoxLayout;
    operands->addWidget(m_expr, 3);
    operands->addWidget(m_sizes, 2);
    rows->addLayout(row);
    rows->addLayout(operands);

    // The measured overlay's switch (setMeasuredRun() gives it a run to show).
    m_measuredToggle->setObjectName(QStringLiteral("measuredToggle"));
    m_measuredToggle->setChecked(true);
    updateMeasuredToggle();
    connect(m_measuredToggle, &QCheckBox::toggled, this, &RooflinePanel::redrawMeasured);

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    m_measuredNote->setObjectName(QStringLiteral("measuredNote"));
    m_measuredNote->setWordWrap(true);
    auto* measuredRow = new QHBoxLayout;
    measuredRow->addWidget(m_measuredToggle);
    measuredRow->addWidget(m_measuredNote, 1);
    bottomLayout->addLayout(measuredRow);
    bottomLayout->addWidget(editor);
    bottomLayout->addWidget(m_message);
    bottomLayout->addWidget(m_table, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({560, 260});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

QList<ChartInfo> RooflinePanel::charts() const {
    return {{QStringLiteral("roofline"), tr("Roofline"), m_view}};
}

QLineSeries* RooflinePanel::roofSeries(ComputeType type) const {
    const auto it = m_roofs.find(type);
    return it == m_roofs.end() ? nullptr : it->second;
}

QScatterSeries* RooflinePanel::markSeries(RooflineGroup group, bool aggregate) const {
    const auto it = m_markSets.find({static_cast<int>(group), aggregate});
    return it == m_markSets.end() ? nullptr : it->second.series;
}

QList<QGraphicsSimpleTextItem*> RooflinePanel::labels() const {
    return visibleItems(m_labels);
}

void RooflinePanel::showLegendShape(QAbstractSeries* series) {
    // The measured series share a colour: the legend tells them apart by the series' own
    // marker (triangle, star, ...) or dashed line.
    for (QLegendMarker* marker : m_chart->legend()->markers(series)) {
        marker->setShape(QLegend::MarkerShapeFromSeries);
    }
}

void RooflinePanel::addToChart(QAbstractSeries* series) {
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
}

QLineSeries* RooflinePanel::roofLine(ComputeType type) {
    if (QLineSeries* existing = roofSeries(type)) {
        return existing;
    }
    auto* series = new QLineSeries(this);
    addToChart(series);
    m_roofs[type] = series;
    return series;
}

QString RooflinePanel::markSetName(RooflineGroup group, bool aggregate) {
    const QString name = RooflineTableModel::groupName(group);
    switch (group) {
        case RooflineGroup::seed:
            return tr("lecture 2 ops");
        case RooflineGroup::user:
            return tr("your ops");
        default:
            return aggregate ? tr("%1 step").arg(name) : tr("%1 layers").arg(name);
    }
}

RooflinePanel::MarkSeries& RooflinePanel::markSet(RooflineGroup group, bool aggregate) {
    MarkSeries& set = m_markSets[{static_cast<int>(group), aggregate}];
    if (set.series) {
        return set;
    }
    set.series = new QScatterSeries(this);
    set.series->setName(markSetName(group, aggregate));
    QColor color = groupColor(group);
    if (aggregate) {
        set.series->setMarkerSize(group == RooflineGroup::seed ? 10 : 14);
        set.series->setMarkerShape(group == RooflineGroup::seed
                                       ? QScatterSeries::MarkerShapeRectangle
                                       : QScatterSeries::MarkerShapeCircle);
        set.series->setBorderColor(Qt::white);
    } else {
        set.series->setMarkerSize(7);
        color.setAlpha(150);
        set.series->setBorderColor(color);
    }
    set.series->setColor(color);
    addToChart(set.series);
    QScatterSeries* series = set.series;
    connect(series, &QScatterSeries::hovered, this,
            [this, group, aggregate, series](const QPointF& point, bool on) {
                if (!on) {
                    QToolTip::hideText();
                    return;
                }
                const MarkSeries& s = m_markSets[{static_cast<int>(group), aggregate}];
                const QList<QPointF> points = series->points();
                for (qsizetype i = 0; i < points.size(); ++i) {
                    if (points[i] == point && static_cast<std::size_t>(i) < s.marks.size()) {
                        QToolTip::showText(QCursor::pos(),
                                           rooflineMarkTip(s.marks[static_cast<std::size_t>(i)]),
                                           m_view);
                        return;
                    }
                }
            });
    return set;
}

void RooflinePanel::showResults(const PlanViews& v) {
    const RooflineView& r = v.roofline;
    m_model->setResults(v);

    // What the roofs are: the part's memory bandwidth (the slope of every roof) and the plan's
    // dtype's dense peak and ridge, in the title, so a custom profile's figures are on the chart.
    for (const Roof& roof : r.roofs) {
        if (roof.type != r.primary) {
            continue;
        }
        const QString title =
            tr("Roofline of %1: attainable FLOP/s = min(dense peak, intensity x %2); %3 ridge "
               "%4 FLOP/byte")
                .arg(qs(v.hardware.name), formatBytesPerSecond(roof.bandwidth_bytes_per_s),
                     qs(to_string(roof.type)),
                     QLocale().toString(roof.ridge_flops_per_byte(), 'f', 1));
        if (m_chart->title() != title) {
            m_chart->setTitle(title);
        }
    }
    // Roofs: one line per dtype family; the plan's compute dtype drawn bold.
    // Only what changed is touched: a visibility, pen or name change re-lays out the chart and its
    // legend, which a slider step must not pay for.
    double yMin = 0.0, yMax = 0.0;
    std::set<ComputeType> shown;
    for (std::size_t i = 0; i < r.roofs.size(); ++i) {
        const Roof& roof = r.roofs[i];
        QLineSeries* series = roofLine(roof.type);
        QList<QPointF> points;
        for (const ChartPoint& p : r.roof_lines[i]) {
            points.append({p.intensity_flops_per_byte, p.flops_per_s / kTera});
            yMin = yMin == 0.0 ? p.flops_per_s : std::min(yMin, p.flops_per_s);
            yMax = std::max(yMax, p.flops_per_s);
        }
        replacePoints(series, points);
        shown.insert(roof.type);
        const bool primary = roof.type == r.primary;
        QPen pen(roofColor(roof.type));
        pen.setWidthF(primary ? 3.0 : 1.5);
        if (!primary) {
            pen.setStyle(Qt::DashLine);
        }
        if (series->pen() != pen) {
            series->setPen(pen);
        }
    }
    // Roofs of the same peak are one line on the chart (bf16 and fp16, fp8 and int8 on most
    // parts; the bandwidth is the part's for all): one legend entry names them together, on the
    // plan's own dtype's line where it is one of them, and the others list none of their own.
    std::set<ComputeType> listed;
    for (std::size_t i = 0; i < r.roofs.size(); ++i) {
        const Roof& roof = r.roofs[i];
        bool first = true;
        bool holdsPrimary = false;
        for (std::size_t j = 0; j < r.roofs.size(); ++j) {
            if (r.roofs[j].peak_flops_per_s == roof.peak_flops_per_s) {
                first = first && j >= i;
                holdsPrimary = holdsPrimary || r.roofs[j].type == r.primary;
            }
        }
        if (!(holdsPrimary ? roof.type == r.primary : first)) {
            continue;
        }
        QStringList types{qs(to_string(roof.type))};
        for (const Roof& other : r.roofs) {
            if (other.type != roof.type && other.peak_flops_per_s == roof.peak_flops_per_s) {
                types.append(qs(to_string(other.type)));
            }
        }
        listed.insert(roof.type);
        QLineSeries* series = roofLine(roof.type);
        const QString name = tr("%1 %2").arg(types.join(QStringLiteral(", ")),
                                             formatFlopsPerSecond(roof.peak_flops_per_s));
        if (series->name() != name) {
            series->setName(name);
        }
    }
    for (auto& [type, series] : m_roofs) {
        const bool visible = shown.count(type) > 0;
        if (series->isVisible() != visible) {
            series->setVisible(visible);
        }
        setLegendVisible(series, visible && listed.count(type) > 0);
    }

    // Marks, grouped by set.
    std::map<std::pair<int, bool>, QList<QPointF>> points;
    for (auto& [key, set] : m_markSets) {
        set.marks.clear();
        points[key];
    }
    m_labelled.clear();
    for (const RooflineMark& m : r.marks) {
        const double x = m.cost.intensity();
        const double y = m.point.attainable_flops_per_s;
        if (!(x > 0.0) || !(y > 0.0)) {
            continue;
        }
        const std::pair<int, bool> key{static_cast<int>(m.group), m.aggregate};
        markSet(m.group, m.aggregate).marks.push_back(m);
        points[key].append({x, y / kTera});
        yMin = std::min(yMin, y);
        if (m.aggregate) {
            m_labelled.push_back(m);
        }
    }
    // A lecture operation the user's list repeats (the lecture's example lists ReLU on 1e6
    // values again under its own name) sits under the user's mark: one label there, the user's,
    // rather than two on top of each other. Its mark and its row in the table stay.
    const auto samePoint = [](const RooflineMark& a, const RooflineMark& b) {
        const auto close = [](double u, double v) { return std::abs(std::log(u / v)) < 1e-3; };
        return close(a.cost.intensity(), b.cost.intensity()) &&
               close(a.point.attainable_flops_per_s, b.point.attainable_flops_per_s);
    };
    std::erase_if(m_labelled, [&](const RooflineMark& lecture) {
        return lecture.group == RooflineGroup::seed &&
               std::any_of(r.marks.begin(), r.marks.end(), [&](const RooflineMark& user) {
                   return user.group == RooflineGroup::user && user.cost.intensity() > 0.0 &&
                          user.point.attainable_flops_per_s > 0.0 && samePoint(lecture, user);
               });
    });
    // Labels are placed in this order, each where it does not cover an earlier one: the model's
    // steps first, then the lecture's operations, then the user's.
    std::stable_sort(m_labelled.begin(), m_labelled.end(),
                     [](const RooflineMark& a, const RooflineMark& b) {
                         auto rank = [](RooflineGroup g) {
                             return hasLayerOps(g) ? 0 : g == RooflineGroup::seed ? 1 : 2;
                         };
                         return rank(a.group) < rank(b.group);
                     });
    for (auto& [key, set] : m_markSets) {
        // Named again on every redraw: a name made with arguments ("decode step") is not one the
        // language switch can look up again (common/retranslate.h).
        const QString name = markSetName(static_cast<RooflineGroup>(key.first), key.second);
        if (set.series->name() != name) {
            set.series->setName(name);
        }
        replacePoints(set.series, points[key]);
        // Only the sets that have marks get a legend entry.
        setLegendVisible(set.series, !points[key].isEmpty());
    }

    double x0 = r.range.min_flops_per_byte;
    double x1 = r.range.max_flops_per_byte;
    double y0 = yMin > 0.0 ? decadeFloor(yMin / kTera) : m_y->min();
    double y1 = yMin > 0.0 ? decadeCeil(yMax / kTera * 1.5) : m_y->max();
    // A measured run, when shown, widens the axes to hold its roofs and points.
    measureOverlay(v, x0, x1, y0, y1);
    if (m_x->min() != x0 || m_x->max() != x1) {
        m_x->setRange(x0, x1);
    }
    if (m_y->min() != y0 || m_y->max() != y1) {
        m_y->setRange(y0, y1);
    }
    QString opErrors;
    for (const FieldError& e : r.op_errors) {
        opErrors += (opErrors.isEmpty() ? QString() : QStringLiteral("\n")) + errorText(e);
    }
    if (!opErrors.isEmpty() || m_message->property("fromPlan").toBool()) {
        m_message->setText(opErrors);
        m_message->setProperty("fromPlan", !opErrors.isEmpty());
    }
    showMeasured();
    placeLabels();
}

void RooflinePanel::setLegendVisible(QAbstractSeries* series, bool visible) {
    // Always set, never "only when isVisible() differs": isVisible() is false while the legend
    // itself is hidden (before the window is first shown), and an entry not explicitly hidden
    // then comes back with the legend. Setting the same value again is a no-op in Qt.
    for (QLegendMarker* marker : m_chart->legend()->markers(series)) {
        marker->setVisible(visible);
    }
    // Qt Charts does not lay the legend out again when an entry is shown or hidden: a new entry
    // was drawn over its neighbour until something else resized the legend. Lay it out again,
    // but only when an entry's state changed, so a slider step pays nothing.
    const auto known = m_legendListed.find(series);
    if (known == m_legendListed.end() || known->second != visible) {
        m_legendListed[series] = visible;
        if (QGraphicsLayout* layout = m_chart->legend()->layout()) {
            layout->invalidate();
            layout->activate();
        }
    }
}

void RooflinePanel::placeLabels() {
    while (m_labels.size() < static_cast<qsizetype>(m_labelled.size())) {
        auto* item = new QGraphicsSimpleTextItem(m_chart);
        item->setZValue(20);
        m_labels.append(item);
    }
    const QRectF plot = m_chart->plotArea();
    QList<QRectF> taken;
    for (qsizetype i = 0; i < m_labels.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_labels[i];
        if (i >= static_cast<qsizetype>(m_labelled.size())) {
            item->hide();
            continue;
        }
        const RooflineMark& m = m_labelled[static_cast<std::size_t>(i)];
        const QString text = RooflineTableModel::markLabel(m);
        if (item->text() != text) {
            item->setText(text);
        }
        const QBrush brush(groupColor(m.group).darker(130));
        if (item->brush() != brush) {
            item->setBrush(brush);
        }
        const QPointF at =
            m_chart->mapToPosition({m.cost.intensity(), m.point.attainable_flops_per_s / kTera},
                                   markSet(m.group, true).series);
        placeLabel(item, at, plot, taken);
    }
    placeMeasuredLabels(taken);
}

void RooflinePanel::kindChanged() {
    const auto kind = static_cast<OpKind>(m_kind->currentData().toInt());
    const bool einsum = kind == OpKind::einsum;
    m_expr->setEnabled(einsum);
    m_expr->setPlaceholderText(einsum
                                   ? tr("batch seq1 hidden, batch seq2 hidden -> batch seq1 seq2")
                                   : tr("(einsum only)"));
    switch (kind) {
        case OpKind::einsum:
            m_sizes->setPlaceholderText(tr("batch=8 seq1=1024 seq2=1024 hidden=128"));
            break;
        case OpKind::matmul:
            m_sizes->setPlaceholderText(tr("m=1024 k=1024 n=1024"));
            break;
        case OpKind::matvec:
            m_sizes->setPlaceholderText(tr("m=1024 n=1024"));
            break;
        default:
            m_sizes->setPlaceholderText(tr("n=1000000"));
            break;
    }
}

void RooflinePanel::clearOperationError() {
    if (!m_message->property("fromPlan").toBool()) {
        m_message->clear();
    }
    for (QLineEdit* edit : {m_expr, m_sizes}) {
        edit->setStyleSheet({});
        edit->setToolTip({});
    }
}

void RooflinePanel::addOperation() {
    clearOperationError();
    QString error;
    OperationInput where = OperationInput::sizes;
    const auto op = makeOperation(
        static_cast<OpKind>(m_kind->currentData().toInt()), m_name->text(), m_expr->text(),
        m_sizes->text(), static_cast<DType>(m_dtype->currentData().toInt()), &error, &where);
    std::optional<FieldError> rejected;
    if (op) {
        rejected = this->document()->addOperation(*op);
        if (rejected) {
            error = errorText(*rejected);
        }
    }
    if (!error.isEmpty()) {
        m_message->setText(error);
        m_message->setProperty("fromPlan", false);
        const bool onExpr = rejected ? rejected->field.find(".expr") != std::string::npos
                                     : where == OperationInput::expression;
        (onExpr ? m_expr : m_sizes)->setStyleSheet(kMarkStyle);
        (onExpr ? m_expr : m_sizes)->setToolTip(error);
        return;
    }
    m_message->clear();
    m_name->clear();
    m_expr->clear();
    m_sizes->clear();
}

// ---- the measured overlay ----------------------------------------------------------------------

void RooflinePanel::setMeasuredRun(const std::optional<ProbeRunRecord>& run) {
    m_measuredRun = run;
    updateMeasuredToggle();
    redrawMeasured();
}

void RooflinePanel::updateMeasuredToggle() {
    m_measuredToggle->setEnabled(m_measuredRun.has_value());
    m_measuredToggle->setText(tr("Measured roofs and points"));
    m_measuredNote->setEnabled(m_measuredRun.has_value());
    m_measuredNote->setText(m_measuredRun
                                ? tr("of probe run %1").arg(probeRunTitle(*m_measuredRun))
                                : tr("none yet: run the probe in the Probe panel, or pick a past "
                                     "run there"));
}

void RooflinePanel::redrawMeasured() {
    if (const std::shared_ptr<const PlanViews>& views = document()->views()) {
        showResults(*views);
    }
}

QLineSeries* RooflinePanel::measuredRoofSeries(ComputeType type) const {
    const auto it = m_measuredRoofs.find(type);
    return it == m_measuredRoofs.end() ? nullptr : it->second;
}

QScatterSeries* RooflinePanel::measuredPointSeries(MeasuredPointKind kind) const {
    const auto it = m_measuredPoints.find(kind);
    return it == m_measuredPoints.end() ? nullptr : it->second;
}

std::vector<MeasuredPoint> RooflinePanel::measuredPointsOf(MeasuredPointKind kind) const {
    std::vector<MeasuredPoint> out;
    const auto it = m_measuredPointIndex.find(kind);
    if (it != m_measuredPointIndex.end()) {
        for (std::size_t i : it->second) {
            out.push_back(m_measured.points[i]);
        }
    }
    return out;
}

QList<QGraphicsSimpleTextItem*> RooflinePanel::measuredLabels() const {
    return visibleItems(m_measuredLabelItems);
}

QLineSeries* RooflinePanel::measuredRoofLine(ComputeType type) {
    if (QLineSeries* existing = measuredRoofSeries(type)) {
        return existing;
    }
    QLineSeries* series = measuredLine(roofColor(type).darker(140), [this, type] {
        return measuredRoofTip(m_measured, type, measuredAgainst());
    });
    m_measuredRoofs[type] = series;
    return series;
}

QLineSeries* RooflinePanel::measuredLine(const QColor& color, std::function<QString()> tip) {
    auto* series = new QLineSeries(this);
    QPen pen(color);
    pen.setWidthF(2.5);
    pen.setDashPattern({5.0, 2.5});  // longer and thicker than the promised roofs' dashes
    series->setPen(pen);
    addToChart(series);
    showLegendShape(series);
    connect(series, &QLineSeries::hovered, this,
            [this, tip = std::move(tip)](const QPointF&, bool on) {
                if (!on) {
                    QToolTip::hideText();
                    return;
                }
                QToolTip::showText(QCursor::pos(), tip(), m_view);
            });
    return series;
}

const HardwareProfile* RooflinePanel::measuredAgainst() const {
    return m_measuredAgainst ? &*m_measuredAgainst : nullptr;
}

QScatterSeries* RooflinePanel::measuredPointSet(MeasuredPointKind kind) {
    if (QScatterSeries* existing = measuredPointSeries(kind)) {
        return existing;
    }
    struct Look {
        QString name;
        QScatterSeries::MarkerShape shape;
        qreal size;
    };
    const Look look = [this, kind]() -> Look {
        switch (kind) {
            case MeasuredPointKind::matmul:
                return {tr("measured matmuls"), QScatterSeries::MarkerShapeTriangle, 12};
            case MeasuredPointKind::seed_op:
                return {tr("measured lecture 2 ops"), QScatterSeries::MarkerShapeStar, 14};
            case MeasuredPointKind::sweep:
                return {tr("measured intensity sweep"), QScatterSeries::MarkerShapeCircle, 7};
            case MeasuredPointKind::stream:
                return {tr("measured STREAM"), QScatterSeries::MarkerShapeRectangle, 9};
            case MeasuredPointKind::other:
                break;
        }
        return {tr("measured, other"), QScatterSeries::MarkerShapePentagon, 10};
    }();
    auto* series = new QScatterSeries(this);
    series->setName(look.name);
    series->setMarkerShape(look.shape);
    series->setMarkerSize(look.size);
    series->setColor(kMeasuredColor);
    series->setBorderColor(Qt::white);
    addToChart(series);
    showLegendShape(series);
    m_measuredPoints[kind] = series;
    connect(
        series, &QScatterSeries::hovered, this,
        [this, kind, series](const QPointF& point, bool on) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            const std::vector<std::size_t>& indices = m_measuredPointIndex[kind];
            const QList<QPointF> points = series->points();
            for (qsizetype i = 0; i < points.size(); ++i) {
                if (points[i] == point && static_cast<std::size_t>(i) < indices.size()) {
                    QToolTip::showText(
                        QCursor::pos(),
                        measuredPointTip(m_measured.points[indices[static_cast<std::size_t>(i)]],
                                         measuredAgainst()),
                        m_view);
                    return;
                }
            }
        });
    return series;
}

bool RooflinePanel::measuredShown() const {
    return m_measuredToggle->isChecked() && !m_measured.empty();
}

void RooflinePanel::measureOverlay(const PlanViews& v, double& x0, double& x1, double& y0,
                                   double& y1) {
    m_measured =
        m_measuredRun ? measured_roofline(*m_measuredRun, &v.hardware) : MeasuredRoofline{};
    m_measuredAgainst = v.hardware;
    // What the measured roofs are, beside the run's name: its best matmul per dtype over its best
    // device-memory bandwidth, the figures a profile made from the run plans with; a synthetic
    // test (an FMA sweep, a streaming kernel) may run above them.
    if (m_measuredRun) {
        QString note = tr("of probe run %1").arg(probeRunTitle(*m_measuredRun));
        if (m_measured.bandwidth) {
            note += u' ' + tr("— roofs: its best matmul of each dtype, sloping at its best %1 "
                              "bandwidth, %2 (a profile made from the run plans with these; "
                              "another test may run above them)")
                               .arg(qs(m_measured.bandwidth->test),
                                    formatBytesPerSecond(m_measured.bandwidth->bytes_per_s));
        }
        if (m_measuredNote->text() != note) {
            m_measuredNote->setText(note);
        }
    }
    // Whole decades that hold the measured roofs and points: a CPU's GFLOP/s lie far below a
    // GPU's roofs.
    if (measuredShown()) {
        const auto holdX = [&](double x) {
            if (x > 0.0) {
                x0 = std::min(x0, decadeFloor(x));
                x1 = std::max(x1, decadeCeil(x));
            }
        };
        const auto holdY = [&](double flops_per_s) {
            if (flops_per_s > 0.0) {
                y0 = std::min(y0, decadeFloor(flops_per_s / kTera));
                y1 = std::max(y1, decadeCeil(flops_per_s / kTera * 1.5));
            }
        };
        for (const MeasuredPoint& p : m_measured.points) {
            holdX(p.intensity_flops_per_byte);
            holdY(p.flops_per_s);
        }
        for (const MeasuredPeak& p : m_measured.peaks) {
            holdY(p.flops_per_s);
        }
        for (const Roof& r : m_measured.roofs()) {
            holdX(r.ridge_flops_per_byte());
        }
    }
}

void RooflinePanel::showMeasured() {
    const bool show = measuredShown();
    const double x0 = m_x->min();
    const double x1 = m_x->max();

    // Roofs: each measured peak under the measured bandwidth; a peak without a bandwidth is flat.
    std::set<ComputeType> drawn;
    if (show) {
        for (const MeasuredPeak& peak : m_measured.peaks) {
            const Roof roof =
                m_measured.roof(peak.type).value_or(Roof{peak.type, peak.flops_per_s, 0.0});
            QList<QPointF> points;
            if (roof.bandwidth_bytes_per_s > 0.0) {
                for (const ChartPoint& p : roof_polyline(roof, x0, x1)) {
                    points.append({p.intensity_flops_per_byte, p.flops_per_s / kTera});
                }
            } else {
                points = {{x0, peak.flops_per_s / kTera}, {x1, peak.flops_per_s / kTera}};
            }
            QLineSeries* series = measuredRoofLine(peak.type);
            replacePoints(series, points);
            const QString name =
                tr("measured %1 matmul %2")
                    .arg(qs(to_string(peak.type)), formatFlopsPerSecond(peak.flops_per_s));
            if (series->name() != name) {
                series->setName(name);
            }
            drawn.insert(peak.type);
        }
    }
    for (auto& [type, series] : m_measuredRoofs) {
        const bool visible = drawn.count(type) > 0;
        if (series->isVisible() != visible) {
            series->setVisible(visible);
        }
        setLegendVisible(series, visible);
    }
    // The bandwidth on its own when no peak was measured to put it under.
    const bool bandwidthAlone = show && m_measured.bandwidth && m_measured.peaks.empty();
    if (bandwidthAlone) {
        if (m_measuredBandwidth == nullptr) {
            m_measuredBandwidth = measuredLine(kMeasuredColor, [this] {
                return measuredBandwidthTip(m_measured, measuredAgainst());
            });
        }
        const double bw = m_measured.bandwidth->bytes_per_s;
        replacePoints(m_measuredBandwidth, {{x0, x0 * bw / kTera}, {x1, x1 * bw / kTera}});
        const QString name = tr("measured bandwidth %1").arg(formatBytesPerSecond(bw));
        if (m_measuredBandwidth->name() != name) {
            m_measuredBandwidth->setName(name);
        }
    }
    if (m_measuredBandwidth != nullptr && m_measuredBandwidth->isVisible() != bandwidthAlone) {
        m_measuredBandwidth->setVisible(bandwidthAlone);
    }
    if (m_measuredBandwidth != nullptr) {
        setLegendVisible(m_measuredBandwidth, bandwidthAlone);
    }

    // Points, one series per kind (created the first time a kind has points).
    std::map<MeasuredPointKind, QList<QPointF>> points;
    m_measuredPointIndex.clear();
    if (show) {
        for (std::size_t i = 0; i < m_measured.points.size(); ++i) {
            const MeasuredPoint& p = m_measured.points[i];
            points[p.kind].append({p.intensity_flops_per_byte, p.flops_per_s / kTera});
            m_measuredPointIndex[p.kind].push_back(i);
        }
    }
    for (MeasuredPointKind kind : kMeasuredKinds) {
        const bool has = !points[kind].isEmpty();
        if (!has && measuredPointSeries(kind) == nullptr) {
            continue;
        }
        QScatterSeries* series = measuredPointSet(kind);
        replacePoints(series, points[kind]);
        if (series->isVisible() != has) {
            series->setVisible(has);
        }
        setLegendVisible(series, has);
    }
    m_measuredLabelled = show ? labelledMeasuredPoints(m_measured) : std::vector<std::size_t>{};
}

void RooflinePanel::placeMeasuredLabels(QList<QRectF>& taken) {
    while (m_measuredLabelItems.size() < static_cast<qsizetype>(m_measuredLabelled.size())) {
        auto* item = new QGraphicsSimpleTextItem(m_chart);
        item->setZValue(21);
        item->setBrush(kMeasuredColor.darker(130));
        m_measuredLabelItems.append(item);
    }
    const QRectF plot = m_chart->plotArea();
    // The labels keep off the measured marks too (a CPU's points lie close together).
    if (!m_measuredLabelled.empty()) {
        for (const MeasuredPoint& p : m_measured.points) {
            const QPointF at = m_chart->mapToPosition(
                {p.intensity_flops_per_byte, p.flops_per_s / kTera}, measuredPointSet(p.kind));
            taken.append(QRectF(at - QPointF(5, 5), QSizeF(10, 10)));
        }
    }
    for (qsizetype i = 0; i < m_measuredLabelItems.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_measuredLabelItems[i];
        if (i >= static_cast<qsizetype>(m_measuredLabelled.size())) {
            item->hide();
            continue;
        }
        const MeasuredPoint& p = m_measured.points[m_measuredLabelled[static_cast<std::size_t>(i)]];
        const QString text = measuredPointLabel(p);
        if (item->text() != text) {
            item->setText(text);
        }
        const QPointF at = m_chart->mapToPosition(
            {p.intensity_flops_per_byte, p.flops_per_s / kTera}, measuredPointSet(p.kind));
        placeLabel(item, at, plot, taken);
    }
}

}  // namespace tally::ui
