#include "ui/charts/inference_panel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QCursor>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QMenu>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "planner/core/limits.h"
#include "planner/io/serving_case_accuracy.h"
#include "ui/charts/figure_table_model.h"
#include "ui/charts/figure_text.h"
#include "ui/common/chart_support.h"
#include "ui/common/launch_copy.h"
#include "ui/common/number_text.h"
#include "ui/common/wheel_guard.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/spec_fields.h"

namespace tally::ui {

namespace {

constexpr double kGB = 1e9;

// The fields' labels are declared in the form's translation context (spec_fields.cpp).
QString formTr(const char* text) {
    return translatedFormText(text);
}

void setRangeIfChanged(QValueAxis* axis, double lo, double hi) {
    if (axis->min() != lo || axis->max() != hi) {
        axis->setRange(lo, hi);
    }
}

void setRangeIfChanged(QLogValueAxis* axis, double lo, double hi) {
    if (axis->min() != lo || axis->max() != hi) {
        axis->setRange(lo, hi);
    }
}

}  // namespace

InferencePanel::InferencePanel(PlanDocument* document, QWidget* parent)
    : PlanPanel(document, parent),
      m_message(new QLabel(this)),
      m_warnings(new QLabel(this)),
      m_fitButton(new QPushButton(this)),
      m_accuracy(new QLabel(this)),
      m_curveChart(new QChart),
      m_curveView(makeChartView(m_curveChart, this)),
      m_curveX(new QLogValueAxis(this)),
      m_curveY(new QLogValueAxis(this)),
      m_fitting(new QLineSeries(this)),
      m_overflow(new QLineSeries(this)),
      m_limit(new QLineSeries(this)),
      m_continuous(new QLineSeries(this)),
      m_current(new QScatterSeries(this)),
      m_memoryChart(new QChart),
      m_memoryView(makeChartView(m_memoryChart, this)),
      m_bars(new QStackedBarSeries(this)),
      m_categories(new QBarCategoryAxis(this)),
      m_memoryY(new QValueAxis(this)),
      m_capacityX(new QValueAxis(this)),
      m_capacity(new QLineSeries(this)),
      m_table(new QTableView(this)),
      m_model(new FigureTableModel(this)) {
    setObjectName(QStringLiteral("inferencePanel"));

    // ---- the inference block's fields ----
    auto* box = new QGroupBox(tr("Serving"), this);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const FieldDescriptor& descriptor : inferenceFields()) {
        FieldEditor* editor = nullptr;
        QString label;
        if (const auto* f = std::get_if<NumberField>(&descriptor)) {
            auto* e = new NumberEditor(*f, box);
            const NumberField field = *f;
            connect(e, &NumberEditor::valueEdited, this, [this, field](double value, int gesture) {
                PlanSpec next = this->document()->spec();
                field.set(next, value);
                this->document()->edit(
                    next, tr("Set %1 to %2").arg(formTr(field.label), formatExact(value)), gesture);
            });
            editor = e;
            label = formTr(f->label);
        } else if (const auto* c = std::get_if<ChoiceField>(&descriptor)) {
            auto* e = new ChoiceEditor(*c, box);
            const ChoiceField field = *c;
            connect(e, &ChoiceEditor::choiceEdited, this, [this, field, e](int value) {
                PlanSpec next = this->document()->spec();
                field.set(next, value);
                this->document()->edit(
                    next,
                    tr("Set %1 to %2").arg(formTr(field.label), e->comboBox()->currentText()));
            });
            editor = e;
            label = formTr(c->label);
        }
        const auto applies = std::visit([](const auto& f) { return f.applies; }, descriptor);
        if (editor) {
            form->addRow(label, editor);
            m_editors.insert(editor->path(), editor);
            if (applies != nullptr) {
                m_conditional.push_back({form, editor, applies});
            }
            // The row's label as it reads now (the language may have changed since).
            connect(editor, &FieldEditor::inputErrorChanged, this,
                    [this, form, editor, label](const QString& message) {
                        const auto* shown = qobject_cast<QLabel*>(form->labelForField(editor));
                        emit inputRejected(
                            message.isEmpty()
                                ? QString()
                                : tr("%1: %2").arg(shown ? shown->text() : label, message));
                    });
        }
    }
    m_message->setObjectName(QStringLiteral("inferenceMessage"));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_message->hide();
    m_warnings->setObjectName(QStringLiteral("inferenceWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::PlainText);
    m_warnings->setStyleSheet(QStringLiteral("color: #b26a00;"));
    m_warnings->hide();
    m_fitButton->setObjectName(QStringLiteral("inferenceFitButton"));
    m_fitButton->hide();
    connect(m_fitButton, &QPushButton::clicked, this, [this] {
        if (m_fitTp <= 0) {
            return;
        }
        PlanSpec next = this->document()->spec();
        next.inference.tp = m_fitTp;
        this->document()->edit(
            next,
            tr("Set %1 to %2").arg(formTr("Tensor parallel")).arg(static_cast<qlonglong>(m_fitTp)));
    });
    m_accuracy->setObjectName(QStringLiteral("inferenceAccuracy"));
    m_accuracy->setWordWrap(true);
    m_accuracy->setTextFormat(Qt::PlainText);

    // ---- latency per token against throughput ----
    m_curveChart->setTitle(tr("Latency per token against throughput as the batch grows"));
    m_fitting->setName(tr("Batch fits"));
    QPen fitPen(componentColors()[0]);
    fitPen.setWidth(3);
    m_fitting->setPen(fitPen);
    m_fitting->setPointsVisible(true);
    m_overflow->setName(tr("Does not fit"));
    QPen overPen(QColor(0x9e, 0x9e, 0x9e));
    overPen.setWidth(2);
    overPen.setStyle(Qt::DotLine);
    m_overflow->setPen(overPen);
    m_overflow->setPointsVisible(true);
    m_limit->setName(tr("Memory limit"));
    QPen limitPen(capacityColor());
    limitPen.setWidth(2);
    limitPen.setStyle(Qt::DashLine);
    m_limit->setPen(limitPen);
    // Continuous batching's curve, one point per number of clients in flight (the Concurrency
    // field's). Its legend names stay short: the legend's row gives each marker an equal share
    // and cuts longer names at 1366 px; hovering a point says the rest.
    m_continuous->setName(tr("Clients 1-%1").arg(256));
    QPen contPen(componentColors()[3]);
    contPen.setWidth(2);
    m_continuous->setPen(contPen);
    m_continuous->setPointsVisible(true);
    m_current->setName(tr("This batch"));
    m_current->setMarkerSize(12);
    m_current->setColor(QColor(0x20, 0x20, 0x20));
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_fitting), static_cast<QXYSeries*>(m_overflow),
                         static_cast<QXYSeries*>(m_limit), static_cast<QXYSeries*>(m_continuous),
                         static_cast<QXYSeries*>(m_current)}) {
        m_curveChart->addSeries(s);
    }
    addLogLogAxes(m_curveChart, m_curveX, tr("Output tokens per second (whole deployment)"),
                  m_curveY, tr("Milliseconds per output token"));
    // Throughput decades reach a million tokens/s, which %g writes as 1e+06: whole numbers.
    m_curveX->setLabelFormat(QStringLiteral("%.0f"));
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_fitting), static_cast<QXYSeries*>(m_overflow),
                         static_cast<QXYSeries*>(m_limit), static_cast<QXYSeries*>(m_continuous),
                         static_cast<QXYSeries*>(m_current)}) {
        s->attachAxis(m_curveX);
        s->attachAxis(m_curveY);
    }
    connect(m_continuous, &QXYSeries::hovered, this, [this](const QPointF& p, bool on) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        // The sweep point nearest the hovered throughput.
        const ContinuousBatchingPoint* best = nullptr;
        for (const ContinuousBatchingPoint& c : m_sweep) {
            if (c.tokens_per_s > 0.0 &&
                (!best || std::abs(std::log(c.tokens_per_s / p.x())) <
                              std::abs(std::log(best->tokens_per_s / p.x())))) {
                best = &c;
            }
        }
        if (best) {
            QToolTip::showText(
                QCursor::pos(),
                tr("Concurrency %1: time to first token %2, inter-token latency %3, %4 output "
                   "tokens/s%5")
                    .arg(formatExact(best->concurrency), formatDuration(best->ttft_s),
                         formatDuration(best->itl_s), formatShort(best->tokens_per_s),
                         best->queue_s > 0.0 && best->budget_bound
                             ? tr(" (the token budget keeps %1 sequences running; the other "
                                  "requests wait %2 for admission)")
                                   .arg(formatExact(best->in_flight), formatDuration(best->queue_s))
                         : best->queue_s > 0.0
                             ? tr(" (the KV cache holds %1 sequences; the other requests wait "
                                  "%2 for admission)")
                                   .arg(formatExact(best->in_flight), formatDuration(best->queue_s))
                         : best->in_flight > 0.0 ? QString()
                                                 : tr(" (does not fit)")),
                m_curveView);
        }
    });
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_fitting), static_cast<QXYSeries*>(m_overflow),
                         static_cast<QXYSeries*>(m_current)}) {
        connect(s, &QXYSeries::hovered, this, [this](const QPointF& p, bool on) {
            if (on) {
                showCurveTip(p);
            } else {
                QToolTip::hideText();
            }
        });
    }
    connect(m_limit, &QXYSeries::hovered, this, [this](const QPointF&, bool on) {
        if (on) {
            QToolTip::showText(QCursor::pos(),
                               tr("Largest batch that fits: %1 sequences\n%2")
                                   .arg(m_plan.max_batch)
                                   .arg(explanationTip(explanation("serving.max_batch"))),
                               m_curveView);
        }
    });

    // ---- memory of one GPU against its capacity ----
    m_memoryChart->setTitle(tr("Memory per GPU"));
    const QStringList names{tr("Weights"), tr("KV cache"), tr("Activations")};
    for (std::size_t i = 0; i < m_sets.size(); ++i) {
        m_sets[i] = new QBarSet(names[static_cast<int>(i)], this);
        const QColor color = componentColors()[i == 0 ? 0 : (i == 1 ? 3 : 4)];
        m_sets[i]->setColor(color);
        m_sets[i]->setBorderColor(color.darker(130));
        m_sets[i]->append(QList<qreal>{0, 0});
        m_bars->append(m_sets[i]);
    }
    m_bars->setBarWidth(0.5);
    m_memoryChart->addSeries(m_bars);
    m_categories->setCategories({tr("This batch"), tr("Largest batch")});
    m_memoryChart->addAxis(m_categories, Qt::AlignBottom);
    m_memoryY->setTitleText(tr("GB per GPU"));
    m_memoryY->setLabelFormat(QStringLiteral("%g"));
    m_memoryChart->addAxis(m_memoryY, Qt::AlignLeft);
    m_bars->attachAxis(m_categories);
    m_bars->attachAxis(m_memoryY);
    m_capacity->setName(tr("Capacity"));
    m_capacity->setPen(limitPen);
    m_memoryChart->addSeries(m_capacity);
    m_capacityX->setRange(-0.5, 1.5);
    m_capacityX->setVisible(false);
    m_memoryChart->addAxis(m_capacityX, Qt::AlignBottom);
    m_capacity->attachAxis(m_capacityX);
    m_capacity->attachAxis(m_memoryY);
    m_capacity->append(QList<QPointF>{{-0.5, 0}, {1.5, 0}});
    connect(m_bars, &QStackedBarSeries::hovered, this, [this](bool on, int index, QBarSet* set) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        const auto component = std::find(m_sets.begin(), m_sets.end(), set) - m_sets.begin();
        const double bytes = set->at(index) * kGB;
        QString text =
            tr("%1 at %2: %3 (%4)")
                .arg(set->label(), m_categories->at(index), formatGB(bytes), formatGiB(bytes));
        if (index == 0) {
            static const char* keys[] = {"serving.memory.weights_bytes",
                                         "serving.memory.kv_cache_bytes",
                                         "serving.memory.activation_bytes"};
            text += u"\n" + explanationTip(explanation(keys[component]));
        }
        QToolTip::showText(QCursor::pos(), text, m_memoryView);
    });

    // ---- the figures ----
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    compactTable(m_table, FigureTableModel::LabelColumn);
    m_table->setObjectName(QStringLiteral("inferenceTable"));
    auto* note = new QLabel(tr("Hover a figure for its formula, the numbers in it and its source. "
                               "Decode reads every weight and the whole KV cache each step (the "
                               "cache once per query head where the spec's decode_attention says "
                               "so); GB = 10^9 bytes."),
                            this);
    note->setWordWrap(true);

    // The serving plan as the command that starts its engine (vllm serve, SGLang).
    auto* copyAs = new QPushButton(tr("Copy as…"), this);
    copyAs->setObjectName(QStringLiteral("copyServingAs"));
    copyAs->setToolTip(
        tr("Copy the serving plan as the command that starts its engine, with "
           "every figure the plan counts under the engine's own flag"));
    auto* copyMenu = new QMenu(copyAs);
    copyMenu->setObjectName(QStringLiteral("copyServingAsMenu"));
    fillServingCopyAsMenu(copyMenu, this, [this](QString* reason) -> std::optional<PlanSpec> {
        const PlanViews* v = this->document()->servingViews()
                                 ? this->document()->servingViews().get()
                                 : this->document()->views().get();
        if (this->document()->error() && !this->document()->servingViews()) {
            *reason = tr("The plan has an error; correct it first: %1")
                          .arg(errorText(*this->document()->error()));
            return std::nullopt;
        }
        if (v == nullptr) {
            *reason = tr("No plan is drawn.");
            return std::nullopt;
        }
        if (auto error = check_inference(v->spec, v->hardware)) {
            *reason = tr("Cannot serve this plan: %1").arg(errorText(*error));
            return std::nullopt;
        }
        return v->spec;
    });
    copyAs->setMenu(copyMenu);

    // A rate to serve: the fewest clients in flight that complete it.
    auto* rateRow = new QWidget(this);
    auto* rateLayout = new QHBoxLayout(rateRow);
    rateLayout->setContentsMargins(0, 0, 0, 0);
    m_rateEdit = new QLineEdit(rateRow);
    m_rateEdit->setObjectName(QStringLiteral("requestRate"));
    m_rateEdit->setPlaceholderText(tr("e.g. 10"));
    m_rateEdit->setMaximumWidth(90);
    m_rateEdit->setToolTip(
        tr("Requests per second the whole deployment must complete, each "
           "with the plan's prompt and output tokens"));
    m_rateFind = new QPushButton(tr("Find concurrency"), rateRow);
    m_rateFind->setObjectName(QStringLiteral("requestRateFind"));
    m_rateFind->setToolTip(
        tr("Set Concurrency to the fewest clients in flight per replica that complete this many "
           "requests per second (Little's law: clients = rate x time a request takes; as tally "
           "infer --request-rate)"));
    rateLayout->addWidget(new QLabel(tr("Requests/s to serve:"), rateRow));
    rateLayout->addWidget(m_rateEdit);
    rateLayout->addWidget(m_rateFind);
    rateLayout->addStretch(1);
    m_rateResult = new QLabel(this);
    m_rateResult->setObjectName(QStringLiteral("requestRateResult"));
    m_rateResult->setWordWrap(true);
    m_rateResult->setTextFormat(Qt::PlainText);
    m_rateResult->hide();
    connect(m_rateFind, &QPushButton::clicked, this, &InferencePanel::findConcurrencyForRate);
    connect(m_rateEdit, &QLineEdit::returnPressed, this, &InferencePanel::findConcurrencyForRate);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(box);
    sideLayout->addWidget(rateRow);
    sideLayout->addWidget(m_rateResult);
    sideLayout->addWidget(copyAs, 0, Qt::AlignLeft);
    sideLayout->addWidget(m_message);
    sideLayout->addWidget(m_warnings);
    sideLayout->addWidget(m_fitButton, 0, Qt::AlignLeft);
    m_tableNote = new QLabel(side);
    m_tableNote->setObjectName(QStringLiteral("inferenceTableNote"));
    m_tableNote->setWordWrap(true);
    m_tableNote->hide();
    sideLayout->addWidget(m_tableNote);
    sideLayout->addWidget(m_table, 1);
    sideLayout->addWidget(m_accuracy);
    sideLayout->addWidget(note);
    // The column scrolls as a whole where the screen is short (a laptop's 768 px), so the
    // table shows every figure instead of five rows behind a scroll bar of its own.
    showEveryRow(m_table);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* sideScroll = new QScrollArea(this);
    sideScroll->setObjectName(QStringLiteral("inferenceColumn"));
    sideScroll->setWidgetResizable(true);
    sideScroll->setFrameShape(QFrame::NoFrame);
    sideScroll->setWidget(side);
    WheelGuard::install(side);
    auto* charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(m_curveView);
    charts->addWidget(m_memoryView);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(sideScroll);
    split->addWidget(charts);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({440, 560});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    // The fields follow the spec at once (undo, a file opened), visible or not; the charts follow
    // the results (PlanPanel).
    connect(document, &PlanDocument::specChanged, this, &InferencePanel::refreshEditors);
    // A found concurrency describes the plan it was found for: any other change (an edit, undo,
    // a file opened) takes the line away.
    connect(document, &PlanDocument::specChanged, this, [this] {
        if (!m_rateSetting) {
            m_rateResult->hide();
            m_rateEdit->setStyleSheet(QString());
        }
    });
    connect(document, &PlanDocument::errorChanged, this, &InferencePanel::markEditors);
    refreshEditors();
    markEditors();
}

void InferencePanel::findConcurrencyForRate() {
    auto say = [this](const QString& text, bool bad) {
        m_rateResult->setText(text);
        m_rateResult->setStyleSheet(bad ? QStringLiteral("color: #c62828;") : QString());
        m_rateResult->show();
        m_rateEdit->setStyleSheet(bad ? QStringLiteral("QLineEdit { border: 1px solid #c62828; }")
                                      : QString());
    };
    const QString typed = m_rateEdit->text().trimmed();
    bool ok = false;
    double rate = QLocale().toDouble(typed, &ok);
    if (!ok) {
        rate = typed.toDouble(&ok);  // a C-locale number typed under another locale
    }
    if (!ok || !std::isfinite(rate) || !(rate > 0.0)) {
        say(tr("Requests/s to serve: got \"%1\"; a number of requests per second > 0").arg(typed),
            true);
        return;
    }
    const PlanViews* v =
        document()->servingViews() ? document()->servingViews().get() : document()->views().get();
    if (v == nullptr || (document()->error() && !document()->servingViews())) {
        say(document()->error() ? tr("The plan has an error; correct it first: %1")
                                      .arg(errorText(*document()->error()))
                                : tr("No plan is drawn."),
            true);
        return;
    }
    if (auto error = check_inference(v->spec, v->hardware)) {
        say(tr("Cannot serve this plan: %1").arg(errorText(*error)), true);
        return;
    }
    const std::optional<ContinuousBatchingPoint> at =
        continuous_batching_at_rate(v->spec, v->hardware, rate);
    if (!at) {
        const ServingRateLimit limit = serving_rate_limit(v->spec, v->hardware);
        say(!limit.admits
                ? tr("Requests/s to serve: none can be served: the engine's KV cache holds no "
                     "sequence at the full context, so no request is admitted (more GPUs, a "
                     "narrower weight dtype or a larger engine share of the memory, "
                     "inference.memory_fraction, leave it room)")
                : tr("Requests/s to serve: got %1; at most %2 requests/s on this deployment, with "
                     "as many sequences running as its KV cache and token budget allow: more "
                     "replicas or GPUs serve more")
                      .arg(formatExact(rate), formatShort(limit.most_requests_per_s)),
            true);
        return;
    }
    // The concurrency is a whole number of clients: the fewest that complete the rate.
    const std::int64_t clients = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::ceil(at->concurrency - 1e-9)), 1, kMaxConcurrency);
    PlanSpec next = v->spec;
    next.inference.concurrency = clients;
    const ContinuousBatchingPoint served =
        continuous_batching_at(next, v->hardware, static_cast<double>(clients));
    const QString served_text =
        clients == 1 ? tr("1 client in flight per replica completes %1 requests/s (asked %2): "
                          "time to first token %3, inter-token latency %4")
                     : tr("%1 clients in flight per replica complete %2 requests/s (asked %3): "
                          "time to first token %4, inter-token latency %5")
                           .arg(static_cast<qlonglong>(clients));
    say(served_text.arg(formatShort(served.requests_per_s), formatExact(rate),
                        formatDuration(served.ttft_s), formatDuration(served.itl_s)),
        false);
    if (clients != document()->spec().inference.concurrency) {
        PlanSpec edited = document()->spec();
        edited.inference.concurrency = clients;
        m_rateSetting = true;
        document()->edit(
            edited,
            tr("Set %1 to %2").arg(formTr("Concurrency")).arg(static_cast<qlonglong>(clients)));
        m_rateSetting = false;
    }
}

QList<ChartInfo> InferencePanel::charts() const {
    return {
        {QStringLiteral("latency-vs-throughput"), tr("Latency against throughput"), m_curveView},
        {QStringLiteral("serving-memory"), tr("Serving memory per GPU"), m_memoryView}};
}

const Explanation* InferencePanel::explanation(const char* key) const {
    for (const Explanation& e : m_explanations) {
        if (e.key == key) {
            return &e;
        }
    }
    return nullptr;
}

NumberEditor* InferencePanel::numberEditor(const QString& path) const {
    return qobject_cast<NumberEditor*>(editor(path));
}

QString InferencePanel::message() const {
    return m_message->isHidden() ? QString() : m_message->text();
}

QString InferencePanel::warnings() const {
    return m_warnings->isHidden() ? QString() : m_warnings->text();
}

void InferencePanel::refreshEditors() {
    const PlanSpec& spec = document()->spec();
    for (FieldEditor* e : std::as_const(m_editors)) {
        e->refresh(spec);
    }
    // Fields of some plans only (expert parallelism for a mixture of experts, the quantization
    // group for int4 / int8 weights).
    for (const Conditional& row : m_conditional) {
        const bool shown = row.applies(spec);
        if (row.form->isRowVisible(row.editor) != shown) {
            row.form->setRowVisible(row.editor, shown);
        }
    }
}

void InferencePanel::markEditors() {
    const auto& error = document()->error();
    for (FieldEditor* e : std::as_const(m_editors)) {
        QString mark;
        if (error && qs(error->field) == e->path()) {
            mark = errorText(*error);
        } else if (!m_servingErrorField.isEmpty() && m_servingErrorField == e->path()) {
            mark = m_servingError;
        }
        e->setPlannerError(mark);
    }
}

void InferencePanel::showCurveTip(const QPointF& p) {
    // The curve point nearest the hovered throughput.
    const ServingCurvePoint* best = nullptr;
    for (const ServingCurvePoint& c : m_curve) {
        if (!best || std::abs(std::log(c.tokens_per_s / p.x())) <
                         std::abs(std::log(best->tokens_per_s / p.x()))) {
            best = &c;
        }
    }
    if (!best) {
        return;
    }
    QToolTip::showText(
        QCursor::pos(),
        tr("Batch %1: %2 per token, %3 output tokens/s, %4 per GPU (%5)\n"
           "Step = max(GEMM FLOPs / peak, weights / bandwidth) + max(attention FLOPs / peak, "
           "KV cache / bandwidth) + tensor-parallel all-reduces\n"
           "Throughput = replicas x batch x output tokens / (prefill + decode)\n"
           "Source: Pope et al. 2022, sec. 3.1; roofline at achieved peaks")
            .arg(best->batch)
            .arg(formatDuration(best->decode_step_s), formatShort(best->tokens_per_s),
                 formatGB(best->total_bytes), best->fits ? tr("fits") : tr("does not fit")),
        m_curveView);
}

// How close the model came, figure by figure, on the published runs of this engine and GPU
// family (docs/cases/serving; planner/io/serving_case_accuracy.h).
QString InferencePanel::accuracyText(const PlanSpec& spec, const HardwareProfile& hw) {
    const std::string gpu = serving_family_gpu(hw);
    const bool continuous = spec.inference.concurrency > 0;
    const QString batching = continuous ? tr("continuous batching") : tr("static batches");
    const QString engine = QString::fromStdString(serving_engine_label(spec.inference.engine));
    const QString family = QString::fromStdString(serving_family_label(hw));
    const std::pair<ServingMetric, QString> metrics[] = {
        {ServingMetric::output_tokens_per_s, tr("Output tokens/s")},
        {ServingMetric::ttft, tr("Time to first token")},
        {ServingMetric::itl, tr("Inter-token latency")}};
    QStringList lines;
    bool any = false;
    for (const auto& [metric, label] : metrics) {
        const auto band = serving_error_band(spec.inference.engine, gpu, continuous, metric);
        if (!band || band->count == 0) {
            lines << tr("%1: no published figure").arg(label);
            continue;
        }
        any = true;
        lines << tr("%1: ±%2% on %3 published figures (worst %4%, mean signed %5%)")
                     .arg(label, formatNumber(100.0 * band->mean_abs_error, 'f', 0))
                     .arg(band->count)
                     .arg(formatNumber(100.0 * band->worst_abs_error, 'f', 0),
                          (band->mean_error >= 0.0 ? QStringLiteral("+") : QString()) +
                              formatNumber(100.0 * band->mean_error, 'f', 0));
    }
    if (!any) {
        return tr("Accuracy: no published %1 %2 run with %3 to compare with; these predictions "
                  "are unchecked against measurements.")
            .arg(engine, family, batching);
    }
    lines.prepend(tr("Accuracy on published %1 %2 runs with %3 (error = predicted / measured "
                     "- 1):")
                      .arg(engine, family, batching));
    return lines.join(u'\n');
}

void InferencePanel::showResults(const PlanViews& views) {
    // A serving spec without a training part is drawn from the document's serving views.
    const PlanViews& v = document()->servingViews() ? *document()->servingViews() : views;
    m_servingError.clear();
    m_servingErrorField.clear();
    if (auto error = check_inference(v.spec, v.hardware)) {
        m_servingError = errorText(*error);
        m_servingErrorField = qs(error->field);
        m_message->setText(tr("Cannot serve this plan: %1").arg(m_servingError));
        m_message->show();
        m_warnings->hide();
        m_fitButton->hide();
        m_fitTp = 0;
        m_accuracy->hide();
        m_curve.clear();
        m_explanations.clear();
        m_model->setRows({});
        for (QXYSeries* s :
             {static_cast<QXYSeries*>(m_fitting), static_cast<QXYSeries*>(m_overflow),
              static_cast<QXYSeries*>(m_limit), static_cast<QXYSeries*>(m_current),
              static_cast<QXYSeries*>(m_continuous)}) {
            replacePoints(s, {});
        }
        // Named as the constructor names it, in the language now shown (a switch of language
        // finds no source for a text with a number in it).
        m_continuous->setName(tr("Clients 1-%1").arg(256));
        m_sweep.clear();
        for (QBarSet* set : m_sets) {
            set->replace(0, 0.0);
            set->replace(1, 0.0);
        }
        markEditors();
        return;
    }
    m_message->hide();
    m_plan = evaluate_inference(v.spec, v.hardware);
    m_curve = serving_curve(v.spec, v.hardware);
    m_explanations = explain_inference(v.spec, v.hardware, m_plan);
    markEditors();

    // The figures, each with its formula.
    std::vector<FigureRow> rows;
    for (const Explanation& e : m_explanations) {
        QString text;
        QString unit = qs(e.unit);
        if (e.unit == "bytes") {
            text = formatGB(e.value);
            unit = tr("per GPU");
            if (e.key == "serving.kv_bytes_per_token") {
                text = formatExact(e.value);
                unit = tr("bytes");
            }
        } else if (e.unit == "s") {
            text = formatDuration(e.value);
            unit.clear();
        } else if (e.unit == "sequences") {
            text = formatExact(e.value);
            unit = tr("sequences");
        } else if (e.unit == "tokens/s") {
            text = formatShort(e.value);
            unit = tr("tokens/s");
        } else if (e.unit == "currency") {
            // In the price's own currency, which the spec does not name: no unit shown.
            text = formatShort(e.value);
            unit.clear();
        } else {
            text = formatShort(e.value);
        }
        QString tip = explanationTip(&e);
        // A deployment that does not fit cannot run: its speed and price are not shown as if it
        // could (its memory and the largest batch that fits still are).
        static const char* const kRunFigures[] = {"serving.prefill_s",
                                                  "serving.decode_step_s",
                                                  "serving.decode.comm_s",
                                                  "serving.tokens_per_s",
                                                  "serving.per_sequence_tokens_per_s",
                                                  "serving.cost_per_million_tokens"};
        if (!m_plan.memory.fits && std::find(std::begin(kRunFigures), std::end(kRunFigures),
                                             e.key) != std::end(kRunFigures)) {
            text = tr("does not fit");
            unit.clear();
            tip = tr("Not shown: the deployment needs %1 per GPU of %2, so it cannot run at "
                     "this batch. Lower the batch or the context, quantize, or add GPUs.\n%3")
                      .arg(formatGB(m_plan.memory.total_bytes),
                           formatGB(m_plan.memory.capacity_bytes), tip);
        }
        rows.push_back(
            {qs(e.key), translatedLiteral(kExplanationContext, e.label), e.value, text, unit, tip});
    }
    m_model->setRows(std::move(rows));
    // The table's speed and memory figures are the static batch's; with continuous batching the
    // headline (and the continuous-batching rows) are the concurrency's.
    const bool runsContinuous = m_plan.continuous && m_plan.continuous->in_flight > 0.0;
    m_tableNote->setText(
        runsContinuous ? tr("The figures below are of a static batch of %1 (inference.batch); the "
                            "headline and the continuous-batching rows are of concurrency %2.")
                             .arg(v.spec.inference.batch)
                             .arg(v.spec.inference.concurrency)
                       : QString());
    m_tableNote->setVisible(runsContinuous);
    QStringList warnings;
    for (const Text& w : serving_warning_texts(m_plan, v.spec, v.hardware)) {
        warnings << QStringLiteral("⚠ ") + translatedText(w);
    }
    m_warnings->setText(warnings.join(u'\n'));
    m_warnings->setVisible(!warnings.isEmpty());
    // The one change that most simply makes it fit, offered where the plan's own GPU count
    // takes it (replicas of tp x pp GPUs); the warning above says the same in words.
    m_fitTp = 0;
    if (!m_plan.memory.fits) {
        if (const auto wider = serving_tp_that_fits(v.spec, v.hardware);
            wider && wider->fits_spec_gpus) {
            m_fitTp = wider->tp;
        }
    }
    m_fitButton->setText(tr("Use tensor parallel %1").arg(static_cast<qlonglong>(m_fitTp)));
    m_fitButton->setVisible(m_fitTp > 0);
    m_accuracy->setText(accuracyText(v.spec, v.hardware));
    m_accuracy->show();

    // The curve: milliseconds per token against tokens per second, split where the batch stops
    // fitting; the line from the last fitting point on is drawn in both, so the curve is whole.
    QList<QPointF> fitting, overflow;
    double xmin = 0.0, xmax = 0.0, ymin = 0.0, ymax = 0.0;
    for (const ServingCurvePoint& c : m_curve) {
        if (!(c.tokens_per_s > 0.0) || !(c.decode_step_s > 0.0)) {
            continue;
        }
        const QPointF point(c.tokens_per_s, c.decode_step_s * 1e3);
        if (c.fits) {
            fitting.append(point);
        } else {
            if (overflow.isEmpty() && !fitting.isEmpty()) {
                overflow.append(fitting.last());
            }
            overflow.append(point);
        }
        xmin = xmin == 0.0 ? point.x() : std::min(xmin, point.x());
        xmax = std::max(xmax, point.x());
        ymin = ymin == 0.0 ? point.y() : std::min(ymin, point.y());
        ymax = std::max(ymax, point.y());
    }
    // Continuous batching at concurrency 1, 2, 4, ... 256, or on to the plan's own concurrency
    // when it is higher, and at the plan's own (the plan's engine and prefill).
    std::vector<double> concurrencies;
    const double own = static_cast<double>(v.spec.inference.concurrency);
    for (double c = 1.0; c <= std::max(256.0, own); c *= 2.0) {
        concurrencies.push_back(c);
    }
    if (own > 0.0 &&
        std::find(concurrencies.begin(), concurrencies.end(), own) == concurrencies.end()) {
        concurrencies.insert(std::upper_bound(concurrencies.begin(), concurrencies.end(), own),
                             own);
    }
    if (concurrencies.back() < own * 2.0 && own > 256.0) {
        concurrencies.push_back(concurrencies.back() * 2.0);
    }
    m_sweep = concurrency_sweep(v.spec, v.hardware, concurrencies);
    const QString continuous_name =
        tr("Clients 1-%1").arg(static_cast<qlonglong>(concurrencies.back()));
    if (m_continuous->name() != continuous_name) {
        m_continuous->setName(continuous_name);
    }
    QList<QPointF> continuous;
    for (const ContinuousBatchingPoint& c : m_sweep) {
        // Past the batch the engine's KV cache holds it queues the rest: the point stays where
        // that batch serves, and it is drawn; only where the cache holds no sequence is none.
        if (!(c.in_flight > 0.0) || !(c.tokens_per_s > 0.0) || !(c.itl_s > 0.0)) {
            continue;
        }
        const QPointF point(c.tokens_per_s, c.itl_s * 1e3);
        continuous.append(point);
        xmin = xmin == 0.0 ? point.x() : std::min(xmin, point.x());
        xmax = std::max(xmax, point.x());
        ymin = ymin == 0.0 ? point.y() : std::min(ymin, point.y());
        ymax = std::max(ymax, point.y());
    }
    replacePoints(m_continuous, continuous);
    replacePoints(m_fitting, fitting);
    replacePoints(m_overflow, overflow);
    // The plan's own point: its concurrency on the continuous curve where it has one, else its
    // static batch on the batch curve.
    const ContinuousBatchingPoint* own_point =
        m_plan.continuous && m_plan.continuous->in_flight > 0.0 &&
                m_plan.continuous->tokens_per_s > 0.0 && m_plan.continuous->itl_s > 0.0
            ? &*m_plan.continuous
            : nullptr;
    replacePoints(m_current,
                  own_point ? QList<QPointF>{{own_point->tokens_per_s, own_point->itl_s * 1e3}}
                            : QList<QPointF>{{m_plan.tokens_per_s, m_plan.decode_step_s * 1e3}});
    const QString current_name = !own_point ? tr("This batch")
                                 : v.spec.inference.concurrency == 1
                                     ? tr("1 client")
                                     : tr("%1 clients").arg(v.spec.inference.concurrency);
    if (m_current->name() != current_name) {
        m_current->setName(current_name);
    }
    if (xmin > 0.0 && ymin > 0.0) {
        const double x0 = decadeFloor(xmin);
        const double x1 = std::max(decadeCeil(xmax), x0 * 10.0);
        const double y0 = decadeFloor(ymin);
        const double y1 = std::max(decadeCeil(ymax), y0 * 10.0);
        setRangeIfChanged(m_curveX, x0, x1);
        setRangeIfChanged(m_curveY, y0, y1);
        QList<QPointF> limit;
        for (const ServingCurvePoint& c : m_curve) {
            if (c.batch == m_plan.max_batch && c.tokens_per_s > 0.0) {
                limit = {{c.tokens_per_s, y0}, {c.tokens_per_s, y1}};
            }
        }
        replacePoints(m_limit, limit);
    }

    // Memory at the plan's batch, or with continuous batching (inference.concurrency) of the
    // requests in flight, as the headline gives it; and at the largest batch that fits.
    const ContinuousBatchingPoint* cb =
        m_plan.continuous && m_plan.continuous->in_flight > 0.0 ? &*m_plan.continuous : nullptr;
    const ServingMemory served = cb ? in_flight_memory(v.spec, v.hardware, *cb) : m_plan.memory;
    const ServingMemory largest =
        serving_memory(v.spec, v.hardware, std::max<std::int64_t>(m_plan.max_batch, 1));
    const bool anyFits = m_plan.max_batch > 0;
    const std::array<std::array<double, 3>, 2> gb{
        {{served.weights_bytes / kGB, served.kv_cache_bytes / kGB, served.activation_bytes / kGB},
         {anyFits ? largest.weights_bytes / kGB : 0.0, anyFits ? largest.kv_cache_bytes / kGB : 0.0,
          anyFits ? largest.activation_bytes / kGB : 0.0}}};
    for (std::size_t i = 0; i < m_sets.size(); ++i) {
        for (int column = 0; column < 2; ++column) {
            const double value = gb[static_cast<std::size_t>(column)][i];
            if (m_sets[i]->at(column) != value) {
                m_sets[i]->replace(column, value);
            }
        }
    }
    m_categories->replace(
        m_categories->at(0),
        cb ? tr("%1 in flight").arg(static_cast<qlonglong>(std::llround(cb->in_flight)))
           : tr("Batch %1").arg(v.spec.inference.batch));
    m_categories->replace(m_categories->at(1),
                          anyFits ? tr("Largest: %1").arg(m_plan.max_batch) : tr("None fits"));
    const double capacity = m_plan.memory.capacity_bytes / kGB;
    replacePoints(m_capacity, QList<QPointF>{{-0.5, capacity}, {1.5, capacity}});
    const double top =
        std::max({capacity, served.total_bytes / kGB, anyFits ? largest.total_bytes / kGB : 0.0});
    setRangeIfChanged(m_memoryY, 0.0, niceCeil(top * 1.05));
}

}  // namespace tally::ui
