#include "ui/charts/layouts_panel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "planner/text/plan_views.h"
#include "ui/charts/layout_table_model.h"
#include "ui/common/chart_support.h"
#include "ui/common/launch_copy.h"
#include "ui/common/number_text.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

namespace {

// The search shares two cores with the window's own thread: on Linux a thread has a nice value of
// its own, and a nicer search gives way to painting instead of taking half the machine from it
// mid-drag. (Qt's thread priorities have no effect under SCHED_OTHER, and IdlePriority would
// stall the search while anything else runs.)
void lowerThisThreadsPriority() {
#ifdef __linux__
    static thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        const auto tid = static_cast<id_t>(syscall(SYS_gettid));
        // Best effort: a failure leaves the thread at the window's priority, as before.
        (void)setpriority(PRIO_PROCESS, tid, 10);
    }
#endif
}

}  // namespace

LayoutsPanel::LayoutsPanel(PlanDocument* document, QWidget* parent)
    : PlanPanel(document, parent),
      m_objective(new QComboBox(this)),
      m_apply(new QPushButton(tr("Apply"), this)),
      m_copyAs(new QPushButton(tr("Copy as…"), this)),
      m_status(new QLabel(this)),
      m_searchTime(makeTextLine(this)),
      m_table(new QTableView(this)),
      m_model(new LayoutTableModel(this)) {
    setObjectName(QStringLiteral("layoutsPanel"));
    // One search at a time: a newer plan waits for the running search rather than racing it.
    m_pool.setMaxThreadCount(1);

    m_objective->setObjectName(QStringLiteral("layoutObjective"));
    // Follows its items' width, which a language switch changes ("单步时间" to "Step time").
    m_objective->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_objective->addItem(tr("Step time"), static_cast<int>(LayoutObjective::time));
    m_objective->addItem(tr("Cost"), static_cast<int>(LayoutObjective::cost));
    m_objective->setAccessibleName(tr("Rank layouts by"));
    m_objective->setToolTip(
        tr("Step time: the predicted optimizer step. Cost: GPUs x step time x steps x price per "
           "GPU-hour (GPU-hours when there is no price)."));
    // A new ranking is searched at once while the panel is in front, else when it is shown.
    connect(m_objective, &QComboBox::currentIndexChanged, this, [this] {
        if (isVisible()) {
            requestSearch();
        }
    });

    m_apply->setObjectName(QStringLiteral("applyLayout"));
    m_apply->setToolTip(tr("Put the selected layout into the plan (undoable)."));
    m_apply->setEnabled(false);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (!rows.isEmpty()) {
            applyRow(rows.front().row());
        }
    });

    // The selected layout as a framework's launch configuration (planner/io/launch).
    m_copyAs->setObjectName(QStringLiteral("copyLayoutAs"));
    m_copyAs->setToolTip(
        tr("Copy the plan with the selected layout as Megatron-LM arguments, "
           "a torchtitan TOML, a DeepSpeed JSON, …"));
    m_copyAs->setEnabled(false);
    auto* copyMenu = new QMenu(m_copyAs);
    copyMenu->setObjectName(QStringLiteral("copyLayoutAsMenu"));
    fillCopyAsMenu(copyMenu, this, [this](QString* reason) -> std::optional<PlanSpec> {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        std::optional<PlanSpec> spec =
            rows.isEmpty() ? std::nullopt : specOfRow(rows.front().row());
        if (!spec) {
            *reason = tr("Select a layout of the current plan first.");
            return spec;
        }
        // The file names the layout it carries first, whole, and the plan it is a layout of
        // after it: the plan's own name may describe another one ("tp 8, pp 4, sequence
        // parallel"), which an import of the file would otherwise seem to claim.
        const Layout& l = m_model->layoutAt(rows.front().row())->layout;
        spec->name = tr("tp %1, pp %2, cp %3, dp %4, micro-batch %5, ZeRO-%6%7: a layout of “%8”")
                         .arg(l.tp)
                         .arg(l.pp)
                         .arg(l.context_parallel)
                         .arg(l.dp)
                         .arg(l.micro_batch)
                         .arg(l.zero)
                         .arg(l.sequence_parallel ? tr(", sequence parallel") : QString())
                         .arg(QString::fromStdString(spec->name))
                         .toStdString();
        return spec;
    });
    m_copyAs->setMenu(copyMenu);

    m_status->setObjectName(QStringLiteral("layoutStatus"));
    m_status->setWordWrap(true);

    m_table->setObjectName(QStringLiteral("layoutTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // The "#" column takes the width the figures leave, so the figures keep the width they were
    // fitted to: with the MFU column stretched instead, a "#" widened for the plan's own mark
    // squeezed the MFUs to "0.7…" on a 1366-pixel screen.
    compactTable(m_table, 0);
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { applyRow(index.row()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &LayoutsPanel::updateApply);
    connect(m_model, &QAbstractItemModel::modelReset, this, &LayoutsPanel::updateApply);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &LayoutsPanel::updateApply);
    connect(document, &PlanDocument::specChanged, this, &LayoutsPanel::onSpecChanged);

    auto* bar = new QHBoxLayout;
    auto* rankBy = new QLabel(tr("Rank by"), this);
    rankBy->setBuddy(m_objective);
    bar->addWidget(rankBy);
    bar->addWidget(m_objective);
    bar->addStretch(1);
    m_searchTime->setObjectName(QStringLiteral("layoutSearchTime"));
    m_searchTime->setAlignment(Qt::AlignRight);
    m_searchTime->setFixedWidth(m_searchTime->fontMetrics().horizontalAdvance(
                                    tr("Searched in %1 ms").arg(QStringLiteral("99999.9"))) +
                                8);
    bar->addWidget(m_searchTime);
    bar->addWidget(m_copyAs);
    bar->addWidget(m_apply);

    auto* note = new QLabel(
        tr("Every valid layout of this model, data and cluster (tensor, pipeline, context and "
           "data parallel sizes, micro-batch, ZeRO stage, recomputation, sequence parallelism, "
           "interleaving, expert parallelism; pipeline stages the layers do not divide evenly "
           "hold them as the engines spread them) with the global batch kept, evaluated by the "
           "performance model; those that fit in memory, best first. The plan's own layout is "
           "in bold and marked ◀ when listed. Double-click a row or select it and Apply to plan "
           "it."),
        this);
    note->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(note);
}

LayoutsPanel::~LayoutsPanel() {
    // The worker posts its result to this object: let it finish before the object goes (a posted
    // result still queued is dropped with the object).
    m_pool.waitForDone();
}

LayoutObjective LayoutsPanel::objective() const {
    return static_cast<LayoutObjective>(m_objective->currentData().toInt());
}

void LayoutsPanel::showResults(const PlanViews& views) {
    m_latest = std::make_shared<const SearchInput>(SearchInput{views.spec, views.hardware});
    m_latestRejected = false;
    requestSearch();
}

void LayoutsPanel::onSpecChanged() {
    updateApply();
    const PlanDocument* doc = document();
    const HardwareProfile* hw = doc->hardware();
    if (!doc->error() || !hw || check_layout_search(doc->spec(), *hw)) {
        return;  // accepted (showResults() follows), or refused for more than its layout
    }
    if (m_latest && m_latest->spec == doc->spec()) {
        return;
    }
    // Refused only for its layout (a cluster its tp x pp does not divide): choosing one is this
    // panel's job, so search the spec as it is.
    m_latest = std::make_shared<const SearchInput>(SearchInput{doc->spec(), *hw});
    m_latestRejected = true;
    if (isVisible()) {
        requestSearch();
    }
}

void LayoutsPanel::showEvent(QShowEvent* event) {
    PlanPanel::showEvent(event);  // searches a plan that changed while hidden
    if (m_latest && !isSearching() &&
        (m_latest != m_searched || m_model->objective() != objective())) {
        requestSearch();
    }
}

void LayoutsPanel::requestSearch() {
    if (!m_latest) {
        return;
    }
    if (m_running) {
        m_pending = true;
        updateApply();
        return;
    }
    startSearch(m_latest, objective());
}

void LayoutsPanel::startSearch(std::shared_ptr<const SearchInput> views,
                               LayoutObjective objective) {
    m_running = true;
    m_pending = false;
    updateApply();
    m_pool.start([this, views = std::move(views), objective] {
        lowerThisThreadsPriority();
        QElapsedTimer timer;
        timer.start();
        LayoutSearchResult result;
        QString error;
        try {
            result = search_layouts(views->spec, views->hardware, kTop, objective);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        QMetaObject::invokeMethod(
            this,
            [this, views, objective, result = std::move(result), ms, error]() mutable {
                onSearched(views, objective, std::move(result), ms, error);
            },
            Qt::QueuedConnection);
    });
}

void LayoutsPanel::onSearched(std::shared_ptr<const SearchInput> views, LayoutObjective objective,
                              LayoutSearchResult result, double ms, const QString& error) {
    m_running = false;
    m_lastMs = ms;
    m_searched = views;
    const PlanSpec& spec = views->spec;
    const bool priced =
        spec.cluster.price_per_gpu_hour.has_value() || views->hardware.price_per_gpu_hour;
    const std::int64_t candidates = result.candidates;
    const std::int64_t feasible = result.feasible;
    // The row the user picked stays picked when its layout is listed again.
    const QModelIndexList picked = m_table->selectionModel()->selectedRows();
    const RankedLayout* was = picked.isEmpty() ? nullptr : m_model->layoutAt(picked.front().row());
    const bool reselect = was != nullptr;
    const Layout selected = was ? was->layout : Layout{};
    m_model->setResults(std::move(result), layout_of(spec), objective, priced);
    bool kept = false;
    for (int row = 0; reselect && row < m_model->rowCount(); ++row) {
        if (m_model->layoutAt(row)->layout == selected) {
            if (picked.isEmpty() || picked.front().row() != row) {
                m_table->selectRow(row);
            }
            kept = true;
            break;
        }
    }
    if (reselect && !kept) {
        m_table->clearSelection();  // the picked layout is no longer listed
    }
    m_table->setColumnHidden(LayoutTableModel::ObjectiveColumn, objective == LayoutObjective::time);

    QString text;
    if (!error.isEmpty()) {
        text = tr("The search failed: %1").arg(error);
    } else if (feasible == 0) {
        text = tr("None of the %1 layouts of this model on %2 GPUs fits in memory.")
                   .arg(candidates)
                   .arg(spec.cluster.gpus);
    } else {
        text = tr("%1 layouts of this model on %2 GPUs, %3 fit in memory.")
                   .arg(candidates)
                   .arg(spec.cluster.gpus)
                   .arg(feasible);
        const int current = m_model->currentRow();
        text += u' ';
        if (views == m_latest && m_latestRejected) {
            text += tr("The plan's own layout (tp %1 x pp %2) does not suit %3 GPUs: apply one of "
                       "these.")
                        .arg(spec.training.tp)
                        .arg(spec.training.pp)
                        .arg(spec.cluster.gpus);
        } else {
            text +=
                current >= 0
                    ? tr("The plan's layout ranks %1.").arg(current + 1)
                    : tr("The plan's layout is not among the best %1.").arg(m_model->rowCount());
        }
    }
    if (!spec.cluster.mfu_predicted) {
        // Under an assumed MFU the days are FLOPs / (peak x MFU x GPUs): a layout changes the
        // predicted step and the memory, never the days.
        text += u' ' + tr("The plan's MFU is assumed (%1), so Apply changes the predicted step "
                          "and the memory, not the days or the cost; set MFU to predicted to "
                          "see them follow the layout.")
                           .arg(spec.cluster.mfu);
    }
    // Set only when it changed: new text in a wrapped label lays the panel out again.
    if (m_status->text() != text) {
        m_status->setText(text);
    }
    m_searchTime->setText(tr("Searched in %1 ms").arg(ms, 0, 'f', 1));

    // The plan (or the ranking) changed while this search ran: search the latest now.
    if (m_latest && (views != m_latest || objective != this->objective())) {
        startSearch(m_latest, this->objective());
    } else {
        m_pending = false;
    }
    updateApply();
    emit searchFinished();
}

void LayoutsPanel::updateApply() {
    const bool selected = m_table->selectionModel()->hasSelection();
    const bool current = m_searched && m_searched->spec == document()->spec();
    m_apply->setEnabled(selected && current && !isSearching());
    m_copyAs->setEnabled(m_apply->isEnabled());
}

std::optional<PlanSpec> LayoutsPanel::specOfRow(int row) const {
    const RankedLayout* ranked = m_model->layoutAt(row);
    if (!ranked || !m_searched || m_searched->spec != document()->spec() || isSearching()) {
        return std::nullopt;
    }
    return apply_layout(document()->spec(), m_model->result().global_batch, ranked->layout);
}

bool LayoutsPanel::applyRow(int row) {
    const std::optional<PlanSpec> next = specOfRow(row);
    if (!next) {
        return false;
    }
    const Layout& l = m_model->layoutAt(row)->layout;
    if (*next == document()->spec()) {
        return true;  // the plan runs this layout already
    }
    document()->edit(*next, tr("Apply layout tp %1, pp %2, dp %3, micro-batch %4")
                                .arg(l.tp)
                                .arg(l.pp)
                                .arg(l.dp)
                                .arg(l.micro_batch));
    return true;
}

}  // namespace tally::ui
