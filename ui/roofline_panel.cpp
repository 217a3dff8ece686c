#include "roofline_panel.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
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

#include "chart_support.h"
#include "number_text.h"
#include "op_input.h"
#include "plan_document.h"
#include "roofline_table_model.h"

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
      m_message(new QLabel(this)) {
    setObjectName(QStringLiteral("rooflinePanel"));
    m_chart->setTitle(tr("Roofline: attainable FLOP/s = min(peak, intensity x bandwidth)"));
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_x->setBase(10.0);
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_x->setTitleText(tr("Arithmetic intensity (FLOP/byte)"));
    m_y->setBase(10.0);
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_y->setTitleText(tr("Attainable TFLOP/s"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);

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
    connect(m_expr, &QLineEdit::returnPressed, this, &RooflinePanel::addOperation);
    connect(m_sizes, &QLineEdit::returnPressed, this, &RooflinePanel::addOperation);
    kindChanged();

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    compactTable(m_table, RooflineTableModel::NameColumn);
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

    auto* editor = new QWidget(this);
    auto* row = new QHBoxLayout(editor);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Your operation:"), editor));
    row->addWidget(m_kind);
    row->addWidget(m_name, 1);
    row->addWidget(m_expr, 3);
    row->addWidget(m_sizes, 2);
    row->addWidget(m_dtype);
    row->addWidget(m_add);
    row->addWidget(m_remove);

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
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
    QList<QGraphicsSimpleTextItem*> shown;
    for (QGraphicsSimpleTextItem* item : m_labels) {
        if (item->isVisible()) {
            shown.append(item);
        }
    }
    return shown;
}

QLineSeries* RooflinePanel::roofLine(ComputeType type) {
    if (QLineSeries* existing = roofSeries(type)) {
        return existing;
    }
    auto* series = new QLineSeries(this);
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_roofs[type] = series;
    return series;
}

RooflinePanel::MarkSeries& RooflinePanel::markSet(RooflineGroup group, bool aggregate) {
    MarkSeries& set = m_markSets[{static_cast<int>(group), aggregate}];
    if (set.series) {
        return set;
    }
    set.series = new QScatterSeries(this);
    const QString name = RooflineTableModel::groupName(group);
    switch (group) {
        case RooflineGroup::seed:
            set.series->setName(tr("lecture 2 ops"));
            break;
        case RooflineGroup::user:
            set.series->setName(tr("your ops"));
            break;
        default:
            set.series->setName(aggregate ? tr("%1 step").arg(name) : tr("%1 layers").arg(name));
    }
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
    m_chart->addSeries(set.series);
    set.series->attachAxis(m_x);
    set.series->attachAxis(m_y);
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
        const QString name =
            tr("%1 %2").arg(qs(to_string(roof.type)), formatFlopsPerSecond(roof.peak_flops_per_s));
        if (series->name() != name) {
            series->setName(name);
        }
    }
    for (auto& [type, series] : m_roofs) {
        const bool visible = shown.count(type) > 0;
        if (series->isVisible() != visible) {
            series->setVisible(visible);
        }
        setLegendVisible(series, visible);
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
        replacePoints(set.series, points[key]);
        // Only the sets that have marks get a legend entry.
        setLegendVisible(set.series, !points[key].isEmpty());
    }

    const double x0 = r.range.min_flops_per_byte;
    const double x1 = r.range.max_flops_per_byte;
    if (m_x->min() != x0 || m_x->max() != x1) {
        m_x->setRange(x0, x1);
    }
    if (yMin > 0.0) {
        const double y0 = decadeFloor(yMin / kTera);
        const double y1 = decadeCeil(yMax / kTera * 1.5);
        if (m_y->min() != y0 || m_y->max() != y1) {
            m_y->setRange(y0, y1);
        }
    }
    QString opErrors;
    for (const FieldError& e : r.op_errors) {
        opErrors += (opErrors.isEmpty() ? QString() : QStringLiteral("\n")) + errorText(e);
    }
    if (!opErrors.isEmpty() || m_message->property("fromPlan").toBool()) {
        m_message->setText(opErrors);
        m_message->setProperty("fromPlan", !opErrors.isEmpty());
    }
    placeLabels();
}

void RooflinePanel::setLegendVisible(QAbstractSeries* series, bool visible) {
    for (QLegendMarker* marker : m_chart->legend()->markers(series)) {
        if (marker->isVisible() != visible) {
            marker->setVisible(visible);
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
        const QString text = qs(m.label);
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
        const QRectF size = item->boundingRect();
        auto clashes = [&taken](const QRectF& box) {
            return std::find_if(taken.begin(), taken.end(), [&box](const QRectF& r) {
                       return r.intersects(box);
                   }) != taken.end();
        };
        // Beside the mark where there is room (right below, right above, left below, left
        // above), else stepped down past the labels already placed.
        const std::array<QPointF, 4> offsets{QPointF(8, 2), QPointF(8, -size.height() - 2),
                                             QPointF(-size.width() - 8, 2),
                                             QPointF(-size.width() - 8, -size.height() - 2)};
        QRectF box;
        bool placed = false;
        for (const QPointF& offset : offsets) {
            box = QRectF(at + offset, size.size());
            if (plot.contains(box) && !clashes(box)) {
                placed = true;
                break;
            }
        }
        if (!placed) {
            const bool roomRight = at.x() + offsets[0].x() + size.width() <= plot.right();
            box = QRectF(at + offsets[roomRight ? 0 : 2], size.size());
            for (int tries = 0; tries < 8 && clashes(box); ++tries) {
                box.translate(0, size.height() + 1);
            }
        }
        taken.append(box);
        if (item->pos() != box.topLeft()) {
            item->setPos(box.topLeft());
        }
        if (item->isVisible() != plot.contains(at)) {
            item->setVisible(plot.contains(at));
        }
    }
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

void RooflinePanel::addOperation() {
    m_expr->setStyleSheet({});
    m_sizes->setStyleSheet({});
    QString error;
    const auto op = makeOperation(static_cast<OpKind>(m_kind->currentData().toInt()),
                                  m_name->text(), m_expr->text(), m_sizes->text(),
                                  static_cast<DType>(m_dtype->currentData().toInt()), &error);
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
        const bool onExpr = rejected && rejected->field.find(".expr") != std::string::npos;
        (onExpr ? m_expr : m_sizes)->setStyleSheet(kMarkStyle);
        (onExpr ? m_expr : m_sizes)->setToolTip(error);
        return;
    }
    m_message->clear();
    m_name->clear();
    m_expr->clear();
    m_sizes->clear();
}

}  // namespace tally::ui
