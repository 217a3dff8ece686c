// Latency harness for the desktop app: drags sliders through 500 positions
// offscreen and reports the median and 95th percentile from value change to finished repaint,
// and the time from start to the first painted window. Not a test: it prints figures.
//
//   bench_gui_latency [--moves N] [--only PANEL]
//
// Each move: the slider's value changes (the plan is re-evaluated, the form, tables and the
// visible charts updated), then the posted events are delivered, which lays out and paints every
// region that changed, synchronously. Reported: that time, and the same plus a forced repaint of
// the whole window (QWidget::repaint; an upper bound, since Qt repaints only what changed).
#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QSlider>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/text/plan_views.h"
#include "ui/charts/layouts_panel.h"
#include "ui/plan/field_editors.h"
#include "ui/plan/plan_document.h"
#include "ui/plan/spec_form.h"
#include "ui/window/main_window.h"

using namespace tally;
using namespace tally::ui;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

// CPU time of the calling (the GUI) thread, in ms: the work of a move without the time other
// processes held the CPU, which on a shared 2-core machine dominates the wall-clock tail.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Stats {
    double median = 0, p95 = 0, max = 0;
};

Stats stats(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    Stats s;
    s.median = v[v.size() / 2];
    s.p95 = v[static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(v.size()))) - 1];
    s.max = v.back();
    return s;
}

// Positions of a drag back and forth across the slider: every move changes the value.
std::vector<int> dragPositions(const QSlider* slider, int moves) {
    std::vector<int> out;
    const int lo = slider->minimum(), hi = slider->maximum();
    int p = lo, step = std::max(1, (hi - lo) / 250);
    for (int i = 0; i < moves; ++i) {
        if (p + step > hi || p + step < lo) {
            step = -step;
        }
        p += step;
        out.push_back(p);
    }
    return out;
}

void drag(MainWindow& w, const char* panel, const char* field, int moves, int warmup) {
    w.showPanel(QString::fromLatin1(panel));
    QCoreApplication::processEvents();
    w.repaint();
    QSlider* slider = w.specForm()->numberEditor(QString::fromLatin1(field))->slider();
    const std::vector<int> positions = dragPositions(slider, moves + warmup);
    std::vector<double> update, painted, forced, landed, cpu;
    int searches = 0;
    const QMetaObject::Connection counting = QObject::connect(
        w.layoutsPanel(), &LayoutsPanel::searchFinished, [&searches] { ++searches; });
    slider->setSliderDown(true);  // one drag: the edits merge into one undo step, as a user's do
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const double c0 = threadCpuMs();
        const auto t0 = Clock::now();
        slider->setSliderPosition(positions[i]);
        const auto t1 = Clock::now();
        // Posted events: layouts, the charts' scene updates and the window's update request.
        // QGraphicsView dispatches its update requests synchronously here, so when this returns
        // Qt has painted every region that changed (the real work of one frame).
        const int searchesBefore = searches;
        QCoreApplication::sendPostedEvents();
        const auto t2 = Clock::now();
        const double c2 = threadCpuMs();
        if (searches != searchesBefore && i >= static_cast<std::size_t>(warmup)) {
            landed.push_back(ms(t2 - t0));
        }
        // Upper bound: the whole window painted again, every widget of it.
        w.repaint();
        const auto t3 = Clock::now();
        if (i >= static_cast<std::size_t>(warmup)) {
            update.push_back(ms(t1 - t0));
            painted.push_back(ms(t2 - t0));
            cpu.push_back(c2 - c0);
            forced.push_back(ms(t3 - t0));
        }
    }
    slider->setSliderDown(false);
    QObject::disconnect(counting);
    const Stats u = stats(update), p = stats(painted), f = stats(forced), c = stats(cpu);
    std::printf("%-8s panel, %-16s slider, %d moves\n", panel, field, moves);
    std::printf(
        "    value change -> changed regions repainted:  median %6.2f ms  p95 %6.2f ms  "
        "max %6.2f ms\n",
        p.median, p.p95, p.max);
    std::printf(
        "    the same, CPU time of the GUI thread:        median %6.2f ms  p95 %6.2f ms  "
        "max %6.2f ms\n",
        c.median, c.p95, c.max);
    std::printf(
        "    ... plus a forced repaint of the whole window: median %6.2f ms  p95 %6.2f ms  "
        "max %6.2f ms\n",
        f.median, f.p95, f.max);
    std::printf(
        "    of which re-evaluate + update form, models and series: median %5.2f ms  p95 "
        "%5.2f ms\n",
        u.median, u.p95);
    if (!landed.empty()) {
        const Stats l = stats(landed);
        std::printf(
            "    moves in which a layout search result was drawn: %zu, median %5.2f ms  p95 "
            "%5.2f ms\n",
            landed.size(), l.median, l.p95);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const auto start = Clock::now();
    int moves = 500;
    std::string only;  // one panel's drags (for a profiler), else all of them
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) == "--moves") {
            moves = std::max(10, std::atoi(argv[i + 1]));
        }
        if (std::string(argv[i]) == "--only") {
            only = argv[i + 1];
        }
    }
    // Offscreen unless there is a display (then: the real window system, e.g. under xvfb-run).
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("tally.ini")), QSettings::IniFormat);
    MainWindow::Options options;
    options.settings = &settings;
    options.restoreLayout = false;

    // Startup: QApplication, the window, show, and its first paint finished.
    MainWindow w(options);
    const auto built = Clock::now();
    w.show();
    QCoreApplication::processEvents();
    w.repaint();
    const auto painted = Clock::now();
    std::printf(
        "startup (in process, %s): QApplication + window built %.1f ms; first painted "
        "window %.1f ms after start\n",
        qPrintable(QGuiApplication::platformName()), ms(built - start), ms(painted - start));

    // The plan under the sliders: Llama 2 70B, tp 8, pp 4 on 1024 H100 (a transformer, so every
    // panel has something to redraw).
    PlanSpec spec = default_plan_spec();
    spec.model = find_model_preset("llama-2-70b")->model;
    spec.training.tp = 8;
    spec.training.pp = 4;
    spec.training.zero = 1;
    w.document()->reset(spec);

    {
        const HardwareProfile& hw = resolve_builtin_hardware(spec);
        std::vector<double> eval;
        for (int i = 0; i < 200; ++i) {
            const auto t0 = Clock::now();
            const PlanViews v = compute_plan_views(spec, hw, SweepVariable::micro_batch);
            eval.push_back(ms(Clock::now() - t0));
        }
        const Stats e = stats(eval);
        std::printf(
            "planner alone: compute_plan_views (plan, ZeRO variants, 2 sweeps, roofline): "
            "median %.3f ms, p95 %.3f ms\n",
            e.median, e.p95);
    }
    const int warmup = 20;
    auto run = [&](const char* panel, const char* field) {
        if (only.empty() || only == panel) {
            drag(w, panel, field, moves, warmup);
        }
    };
    run("memory", "model.hidden");
    run("time", "data.tokens");
    // The layout search runs on a worker thread; its result arrives as a posted event and is
    // drawn within the move it lands in.
    run("layouts", "model.hidden");
    run("roofline", "model.hidden");
    run("memory", "data.micro_batch");
    return 0;
}
