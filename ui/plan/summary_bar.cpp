#include "ui/plan/summary_bar.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "planner/text/plan_views.h"
#include "ui/charts/figure_text.h"
#include "ui/common/chart_support.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

namespace {

void setIfChanged(QLabel* label, const QString& text, const QString& tip) {
    if (label->text() != text) {
        label->setText(text);
    }
    if (label->toolTip() != tip) {
        label->setToolTip(tip);
    }
}

}  // namespace

SummaryBar::SummaryBar(PlanDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_warnings(makeTextLine(this)),
      m_allWarnings(new QToolButton(this)) {
    setObjectName(QStringLiteral("summary"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 4, 6, 2);
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(18);
    grid->setVerticalSpacing(0);
    outer->addLayout(grid);
    // Each figure with the widest text it shows, which sets its fixed width.
    struct Figure {
        const char* key;
        QString title;
        QStringList widest;  // the widest text of each plan kind (training, serving)
    };
    // Past 1e18 (formatShort) and 1e5 days (formatDays) a figure has an exponent: the widths
    // hold four digits and a two-digit exponent. A serving plan shows its throughput where a
    // training plan shows its cost.
    const Figure figures[] = {
        {"params", tr("Parameters"), {QStringLiteral("999.9P")}},
        {"memory", tr("Memory per GPU"), {QStringLiteral("99999 / 999 GB ✗")}},
        {"days", tr("Training time"), {QStringLiteral("9.999e+99 days")}},
        {"gpu_hours", tr("GPU-hours"), {QStringLiteral("9.999e+99")}},
        {"cost",
         tr("Cost"),
         {QStringLiteral("9.999e+99"), tr("%1 tok/s").arg(QStringLiteral("999.9M"))}},
        {"energy", tr("Energy"), {QStringLiteral("9.999e+99 kWh")}}};
    int column = 0;
    for (const auto& [key, title, widest] : figures) {
        auto* caption = new QLabel(title, this);
        caption->setObjectName(QString::fromLatin1(key) + QStringLiteral("Caption"));
        m_captions.append(caption);
        QFont small = caption->font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        caption->setFont(small);
        caption->setForegroundRole(QPalette::PlaceholderText);
        QLabel* value = addFigure(QString::fromLatin1(key), title, widest);
        grid->addWidget(caption, 0, column);
        grid->addWidget(value, 1, column);
        grid->setColumnStretch(column, 1);
        ++column;
    }
    m_warnings->setObjectName(QStringLiteral("warnings"));
    m_warnings->setStyleSheet(
        QStringLiteral("QLineEdit { color: #9a5b00; background: transparent; }"));
    // A line of its own height whether or not the button shows, so that nothing below moves.
    auto* warningRow = new QHBoxLayout;
    warningRow->setContentsMargins(0, 0, 0, 0);
    warningRow->addWidget(m_warnings, 1);
    m_allWarnings->setObjectName(QStringLiteral("allWarnings"));
    m_allWarnings->setAutoRaise(true);
    m_allWarnings->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_allWarnings->setMaximumHeight(m_warnings->sizeHint().height());
    m_allWarnings->setToolTip(tr("Every warning of the plan, one a line, to read or copy"));
    QSizePolicy keep = m_allWarnings->sizePolicy();
    keep.setRetainSizeWhenHidden(false);
    m_allWarnings->setSizePolicy(keep);
    m_allWarnings->hide();
    warningRow->addWidget(m_allWarnings);
    outer->addLayout(warningRow);
    connect(m_allWarnings, &QToolButton::clicked, this, &SummaryBar::showAllWarnings);
    connect(document, &PlanDocument::resultsChanged, this, &SummaryBar::showResults);
    connect(document, &PlanDocument::errorChanged, this, &SummaryBar::showResults);
    showResults();
}

QLabel* SummaryBar::addFigure(const QString& key, const QString& title, const QStringList& widest) {
    auto* label = new QLabel(this);
    label->setObjectName(key);
    label->setAccessibleName(title);
    QFont big = label->font();
    // 1.25 times the text: the six figures at their widest fit beside the form on a 1366-pixel
    // laptop screen (at 1.35 the headline alone made the window 1387 pixels wide).
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    label->setFont(big);
    // A fixed size with room for the widest figure: new text never re-lays out the window (a
    // fixed-size widget does not invalidate its parent's layout).
    const QFontMetrics metrics = label->fontMetrics();
    int width = 0;
    for (const QString& text : widest) {
        width = std::max(width, metrics.horizontalAdvance(text));
    }
    label->setFixedSize(width + 4, metrics.height() + 2);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures.append(label);
    return label;
}

QLabel* SummaryBar::caption(const QString& key) const {
    for (QLabel* l : m_captions) {
        if (l->objectName() == key + QStringLiteral("Caption")) {
            return l;
        }
    }
    return nullptr;
}

void SummaryBar::setCaption(const QString& key, const QString& text) {
    QLabel* label = caption(key);
    if (label->text() != text) {
        label->setText(text);
    }
}

QLabel* SummaryBar::figure(const QString& key) const {
    for (QLabel* l : m_figures) {
        if (l->objectName() == key) {
            return l;
        }
    }
    return nullptr;
}

void SummaryBar::showResults() {
    // A serving spec without a training part: its serving headline is current, not stale.
    const auto& serving = m_document->servingViews();
    const PlanViews& v = m_document->headlineViews();
    m_stale = m_document->error().has_value() && !serving;
    if (v.serving) {
        showServing(v);
    } else {
        showTraining(v);
    }
    // A refused spec is not drawn: the figures above are the last accepted plan's, greyed out.
    for (QLabel* label : std::as_const(m_figures)) {
        if (label->isEnabled() == m_stale) {
            label->setEnabled(!m_stale);
        }
    }
    if (m_stale) {
        const QString stale =
            u"⚠ " + tr("Not drawn: these are the figures of the last plan the planner accepted "
                       "(%1)")
                        .arg(errorText(*m_document->error()));
        setWarnings(stale, stale, 1);
    }
}

// The time, GPU-hours, cost and energy in the palette's text colour, or greyed for a plan that
// cannot start.
void SummaryBar::setRunnable(bool runnable) {
    // ".QLabel": the label itself, not its tooltip (a QLabel subclass that takes the widget's
    // style sheet), which stays readable.
    const QString style = runnable ? QString() : QStringLiteral(".QLabel { color: #8a8a8a; }");
    for (const char* key : {"days", "gpu_hours", "cost", "energy"}) {
        QLabel* label = figure(QString::fromLatin1(key));
        if (label->styleSheet() != style) {
            label->setStyleSheet(style);
        }
    }
}

void SummaryBar::showServing(const PlanViews& v) {
    setRunnable(true);  // a deployment that cannot run shows no figures at all (below)
    const ServingView& sv = *v.serving;
    const ServingPlan& s = sv.plan;
    // With continuous batching (inference.concurrency) the headline is the steady state at that
    // many requests in flight, as the Inference panel's table gives it: memory with their KV
    // caches, their time to first token, inter-token latency and throughput. Otherwise the static
    // batch's.
    // Past the batch the engine's KV cache holds (or its token budget keeps running), it runs
    // that batch and queues the other clients: the memory is that batch's.
    const ContinuousBatchingPoint* cb = s.continuous ? &*s.continuous : nullptr;
    const bool queued = cb && cb->queue_s > 0.0;
    // The engine's share of the memory holds not one sequence's KV cache: no request is
    // admitted, and the memory shown is what one sequence would take, marked as not fitting.
    const bool noneAdmitted = cb && !(cb->in_flight > 0.0);
    const std::int64_t inFlight =
        queued ? static_cast<std::int64_t>(cb->in_flight) : v.spec.inference.concurrency;
    ServingMemory m = noneAdmitted ? serving_memory(v.spec, v.hardware, 1)
                      : cb         ? in_flight_memory(v.spec, v.hardware, *cb)
                                   : s.memory;
    if (noneAdmitted) {
        m.fits = false;
    }
    auto tip = [&](const char* key) { return explanationTip(sv.explanation(key)); };
    QString memoryCaption = tr("Memory per GPU, serving");
    if (noneAdmitted) {
        memoryCaption = tr("Memory per GPU, none admitted");
    } else if (queued) {
        memoryCaption = tr("Memory per GPU, %1 in flight of %2")
                            .arg(inFlight)
                            .arg(v.spec.inference.concurrency);
    } else if (cb) {
        memoryCaption = tr("Memory per GPU, %1 in flight").arg(inFlight);
    }
    setCaption(QStringLiteral("memory"), memoryCaption);
    setCaption(QStringLiteral("days"), tr("Time to first token"));
    setCaption(QStringLiteral("gpu_hours"), cb ? tr("Inter-token latency") : tr("Decode step"));
    setCaption(QStringLiteral("cost"), tr("Throughput"));
    setCaption(QStringLiteral("energy"), tr("Cost per 1M tokens"));
    setIfChanged(figure(QStringLiteral("params")), formatShort(s.params_total),
                 explanationTip(v.explanation("params")));
    QLabel* mem = figure(QStringLiteral("memory"));
    setIfChanged(
        mem,
        tr("%1 / %2 GB %3")
            .arg(gbCompact(m.total_bytes), gbCompact(m.capacity_bytes),
                 m.fits ? QStringLiteral("✓") : QStringLiteral("✗")),
        (m.fits ? tr("Fits") : tr("Does not fit")) + u"; " + formatGiB(m.total_bytes) + tr(" of ") +
            formatGiB(m.capacity_bytes) + u"\n" +
            (noneAdmitted ? tr("One sequence with the weights; the engine's share of the memory "
                               "leaves its KV cache less than that sequence takes, so no request "
                               "is admitted and nothing is served (the warnings say why).") +
                                u"\n"
             : cb ? tr("The KV caches of %1 requests in flight, each at its full "
                       "context; the formula below is the static batch's.")
                            .arg(inFlight) +
                        u"\n"
                  : QString()) +
            (queued && cb->budget_bound
                 ? tr("The token budget of %1 a step keeps no more running: the other "
                      "%2 requests wait for admission, %3 on average.")
                           .arg(v.spec.inference.max_batched_tokens)
                           .arg(v.spec.inference.concurrency - inFlight)
                           .arg(formatDuration(cb->queue_s)) +
                       u"\n"
             : queued ? tr("The KV cache holds no more: the other %1 requests wait for "
                           "admission, %2 on average.")
                                .arg(v.spec.inference.concurrency - inFlight)
                                .arg(formatDuration(cb->queue_s)) +
                            u"\n"
                      : QString()) +
            tip("serving.memory.total_bytes"));
    const QString memStyle =
        m.fits || m_stale ? QString() : QStringLiteral(".QLabel { color: #c62828; }");
    if (mem->styleSheet() != memStyle) {
        mem->setStyleSheet(memStyle);
    }
    // A deployment that does not fit cannot run: its latency, throughput and price are not
    // shown as if it could, as the Inference panel's table does not show them.
    const bool runs = cb ? cb->in_flight > 0.0 : s.memory.fits;
    if (!runs) {
        const QString why =
            noneAdmitted
                ? tr("Not shown: the engine's KV cache holds not one sequence, so no request is "
                     "admitted and nothing is served (the warnings say why).")
                : tr("Not shown: the deployment needs %1 per GPU of %2, so it cannot run (the "
                     "warnings say what would fit).")
                      .arg(formatGB(m.total_bytes), formatGB(m.capacity_bytes));
        for (const char* key : {"days", "gpu_hours", "cost", "energy"}) {
            setIfChanged(figure(QString::fromLatin1(key)), QStringLiteral("—"), why);
        }
    } else if (cb) {
        setIfChanged(figure(QStringLiteral("days")), formatDuration(cb->ttft_s),
                     tip("serving.continuous.ttft_s"));
        setIfChanged(figure(QStringLiteral("gpu_hours")), formatDuration(cb->itl_s),
                     tip("serving.continuous.itl_s"));
        setIfChanged(figure(QStringLiteral("cost")),
                     tr("%1 tok/s").arg(formatShort(cb->tokens_per_s)),
                     tip("serving.continuous.tokens_per_s"));
    } else {
        setIfChanged(figure(QStringLiteral("days")), formatDuration(s.prefill_s),
                     tip("serving.prefill_s"));
        setIfChanged(figure(QStringLiteral("gpu_hours")), formatDuration(s.decode_step_s),
                     tip("serving.decode_step_s"));
        setIfChanged(figure(QStringLiteral("cost")),
                     tr("%1 tok/s").arg(formatShort(s.tokens_per_s)), tip("serving.tokens_per_s"));
    }
    if (runs) {
        setIfChanged(
            figure(QStringLiteral("energy")),
            s.cost_per_million_tokens ? formatShort(*s.cost_per_million_tokens) : tr("no price"),
            s.cost_per_million_tokens ? tip("serving.cost_per_million_tokens")
                                      : tr("Set a price per GPU-hour in the cluster form."));
    }
    const auto& error = m_document->error();
    const QString lead =
        m_document->servingViews() && error
            ? tr("Serving plan (the spec's inference block); training is not planned (%1): "
                 "Memory, Time and Layouts still show the last training plan.")
                  .arg(errorText(*error))
            : tr("Serving plan (the spec's inference block): the headline is the "
                 "Inference panel's; Memory, Time and Layouts plan training the model.");
    QString line, all = lead;
    for (const Text& text : sv.warning_texts) {
        const QString w = translatedText(text);
        line += (line.isEmpty() ? QString() : QStringLiteral("   ")) + u"⚠ " + w;
        all += QStringLiteral("\n") + u"⚠ " + w;
    }
    if (line.isEmpty() || (m_document->servingViews() && error)) {
        line = line.isEmpty() ? lead : lead + QStringLiteral("   ") + line;
    }
    setWarnings(line, all, static_cast<int>(sv.warning_texts.size()));
}

void SummaryBar::showTraining(const PlanViews& v) {
    const Plan& p = v.plan;
    const MemoryBreakdown& m = p.memory;
    setCaption(QStringLiteral("memory"), tr("Memory per GPU"));
    // Where the time comes from, beside it: the performance model's step (divided by the
    // profile's fitted efficiency where it is calibrated), or the MFU assumed.
    setCaption(QStringLiteral("days"),
               !p.time.mfu_predicted
                   ? tr("Training time at MFU %1").arg(formatNumber(p.time.mfu, 'g', 3))
               : v.hardware.calibration ? tr("Training time, calibrated")
                                        : tr("Training time, predicted"));
    setCaption(QStringLiteral("gpu_hours"), tr("GPU-hours"));
    setCaption(QStringLiteral("cost"), tr("Cost"));
    setCaption(QStringLiteral("energy"), tr("Energy"));
    setIfChanged(figure(QStringLiteral("params")), formatShort(p.params.total),
                 explanationTip(v.explanation("params")));
    const QString memory = tr("%1 / %2 GB %3")
                               .arg(gbCompact(m.total_bytes), gbCompact(m.capacity_bytes),
                                    m.fits ? QStringLiteral("✓") : QStringLiteral("✗"));
    QLabel* mem = figure(QStringLiteral("memory"));
    setIfChanged(mem, memory,
                 (m.fits ? tr("Fits") : tr("Does not fit")) + u"; " + formatGiB(m.total_bytes) +
                     tr(" of ") + formatGiB(m.capacity_bytes) + u"\n" +
                     explanationTip(v.explanation("memory.total_bytes")));
    const QString memStyle =
        m.fits || m_stale ? QString() : QStringLiteral(".QLabel { color: #c62828; }");
    if (mem->styleSheet() != memStyle) {
        mem->setStyleSheet(memStyle);
    }
    // A plan over its GPU's memory would stop at its first step: its time and what it costs are
    // still given (what the plan as written would take), but greyed, and their tips say why, so
    // that they are not copied as the figures of a run that can start.
    const QString unrunnable =
        m.fits ? QString()
               : tr("Does not fit: this run would stop at its first step, out of memory (%1 per "
                    "GPU of %2). The figure is the plan's as written.")
                         .arg(formatGB(m.total_bytes), formatGB(m.capacity_bytes)) +
                     u"\n\n";
    // In the unit that fits: a run of seconds reads "3.41 s", not "3.95e-05 days".
    setIfChanged(figure(QStringLiteral("days")), formatDuration(p.time.seconds),
                 unrunnable + explanationTip(v.explanation("time.days")));
    setIfChanged(figure(QStringLiteral("gpu_hours")), formatShort(p.time.gpu_hours),
                 unrunnable + explanationTip(v.explanation("time.gpu_hours")));
    setIfChanged(figure(QStringLiteral("cost")),
                 p.time.has_cost ? formatShort(p.time.cost) : tr("no price"),
                 p.time.has_cost ? unrunnable + explanationTip(v.explanation("time.cost"))
                                 : tr("Set a price per GPU-hour in the cluster form."));
    setIfChanged(
        figure(QStringLiteral("energy")),
        p.time.has_energy ? tr("%1 kWh").arg(formatShort(p.time.energy_kwh)) : QStringLiteral("—"),
        p.time.has_energy ? unrunnable + explanationTip(v.explanation("time.energy_kwh"))
                          : tr("The GPU's profile gives no TDP (board power), so the "
                               "energy is not known. Edit the profile to add one."));
    setRunnable(m.fits || m_stale);

    // One line (the full list in the tooltip).
    QString line, all;
    for (const Text& text : v.warning_texts) {
        const QString w = translatedText(text);
        line += (line.isEmpty() ? QString() : QStringLiteral("   ")) + u"⚠ " + w;
        all += (all.isEmpty() ? QString() : QStringLiteral("\n")) + u"⚠ " + w;
    }
    if (v.serving_error) {
        // A serving block the serving planner refuses: the headline stays the training plan's.
        const QString refused =
            tr("Serving not planned: %1").arg(translatedFieldError(*v.serving_error));
        const QString mark = u"⚠ " + refused;
        line = line.isEmpty() ? mark : QString(mark + QStringLiteral("   ") + line);
        all = all.isEmpty() ? mark : QString(mark + u'\n' + all);
    }
    setWarnings(line, all, static_cast<int>(v.warning_texts.size()) + (v.serving_error ? 1 : 0));
    // The line keeps its place when empty: shown and hidden, it moved the tabs and charts below
    // it up and down while typing.
}

void SummaryBar::setWarnings(const QString& line, const QString& all, int count) {
    if (m_warnings->text() != line) {
        m_warnings->setText(line);
        m_warnings->setCursorPosition(0);
        m_warnings->setToolTip(all);
    }
    m_allText = all;
    m_warningCount = count;
    updateAllWarningsButton();
}

// Shown while the line holds more than one warning, or one wider than the line: the line then
// shows only its beginning, and the tooltip is easily missed.
void SummaryBar::updateAllWarningsButton() {
    const QString label =
        m_warningCount > 1 ? tr("All %1 warnings…").arg(m_warningCount) : tr("The whole warning…");
    if (m_allWarnings->text() != label) {
        m_allWarnings->setText(label);
    }
    // The line spans the bar, less its margins, when the button is hidden; measured on the bar,
    // which has its new size in resizeEvent() before its layout has moved the line.
    const QMargins margins = layout()->contentsMargins();
    const int room = width() - margins.left() - margins.right() -
                     2 * m_warnings->fontMetrics().averageCharWidth();
    const bool cut = m_warnings->fontMetrics().horizontalAdvance(m_warnings->text()) > room;
    const bool show = !m_warnings->text().isEmpty() && (m_warningCount > 1 || cut);
    if (m_allWarnings->isVisibleTo(this) != show) {
        m_allWarnings->setVisible(show);
    }
}

void SummaryBar::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateAllWarningsButton();
}

void SummaryBar::showAllWarnings() {
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("allWarningsDialog"));
    dialog.setWindowTitle(tr("Warnings of the plan"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* text = new QPlainTextEdit(m_allText, &dialog);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.resize(720, 320);
    dialog.exec();
}

}  // namespace tally::ui
