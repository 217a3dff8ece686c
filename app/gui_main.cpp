// Bare `tally`: the desktop app. Opens the autosaved plan (or the built-in default),
// or with --screenshot draws the window into a PNG and exits (docs, the Xvfb smoke test).
#include <CLI/CLI.hpp>
#include <QApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <clocale>
#include <cstdio>
#include <memory>

#include "app/cli.h"
#include "app/cli_text.h"
#include "planner/store/workspace.h"
#include "tally_version.h"
#include "ui/common/chart_support.h"
#include "ui/i18n/translations.h"
#include "ui/probe/probe_panel.h"
#include "ui/session/workspace_session.h"
#include "ui/window/app_settings.h"
#include "ui/window/language_menu.h"
#include "ui/window/main_window.h"
#include "ui/workspace/install_workspace_panels.h"
#include "ui/workspace/workspace_open_dialog.h"

namespace tally::cli {

namespace {

// A window system to draw on: X11 or Wayland, or a platform chosen through QT_QPA_PLATFORM.
bool haveDisplay() {
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") ||
           !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

void printError(const QString& message) {
    std::fprintf(stderr, "tally: error: %s\n", message.toLocal8Bit().constData());
}

}  // namespace

void register_gui_options(CLI::App& app, GuiOptions& options, CliState& state) {
    app.add_option("--screenshot", options.screenshot,
                   "Desktop app: draw the window into this PNG file and exit");
    app.add_option(
        "--panel", options.panel,
        "Desktop app: the panel in front (memory, time, layouts, roofline, formats, inference, "
        "profiles, plans, compare, probe)");
    app.add_option("--spec", options.spec,
                   "Desktop app: open this plan (JSON) instead of the autosaved one");
    // The same variable the subcommands' --db fills, so `tally --db FILE profiles list` and
    // `tally profiles list --db FILE` agree, and bare `tally --db FILE` opens the window on it.
    app.add_option("--db", state.db_path,
                   "Workspace file (default: " + default_workspace_path().string() +
                       "); with --screenshot, without it: an empty scratch workspace");
    app.add_option("--probe-run", options.probe_run,
                   "Desktop app: show this stored probe run of the workspace (the Probe panel's "
                   "results and the roofline's measured roofs and points)")
        ->check(CLI::Validator([](std::string& text) { return whole_number_at_least(text, 1); },
                               "ID >= 1"));
}

int run_gui(int argc, char** argv, const GuiOptions& options, CliState& state) {
    const bool screenshot = !options.screenshot.empty();
    if (!haveDisplay()) {
        if (!screenshot) {
            std::fprintf(stderr,
                         "tally: no display (DISPLAY and WAYLAND_DISPLAY are not set), so no "
                         "window; the default plan follows as text. `tally --help` lists the "
                         "headless commands.\n");
            return run_default(state);
        }
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }

    QApplication app(argc, argv);
    // QApplication sets the C library's locale from the environment; the planner writes and
    // reads numbers with the C library (JSON, einsum sizes), which must stay the C locale's "."
    // on a German desktop. The window's own numbers follow QLocale (applyNumberLocale below).
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setApplicationName(QStringLiteral("tally"));
    QApplication::setApplicationDisplayName(QStringLiteral("Tally"));
    QApplication::setApplicationVersion(QStringLiteral(TALLY_VERSION));

    // A screenshot neither reads nor writes the user's settings and autosave: it shows the
    // default plan (or --spec) at the default layout, the same on every machine.
    QTemporaryDir scratch;
    std::unique_ptr<QSettings> settings =
        screenshot ? std::make_unique<QSettings>(scratch.filePath(QStringLiteral("tally.ini")),
                                                 QSettings::IniFormat)
                   : std::make_unique<QSettings>(QSettings::IniFormat, QSettings::UserScope,
                                                 QStringLiteral("tally"), QStringLiteral("tally"));
    // The language, before the first widget asks tr() for a text: --lang, else the one picked in
    // View > Language, else the system's (a screenshot has no remembered choice).
    tally::ui::Translations translations;
    {
        const tally::ui::AppSettings remembered(settings.get());
        const QString language =
            tally::ui::startLanguage(QString::fromStdString(state.lang), remembered);
        tally::ui::applyNumberLocale(language);
        translations.load(language);
    }
    tally::ui::MainWindow::Options windowOptions;
    windowOptions.settings = settings.get();
    windowOptions.restoreLayout = !screenshot;
    if (!screenshot) {
        const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        windowOptions.autosavePath = QDir(data).filePath(QStringLiteral("autosave.json"));
    }
    // The workspace: ONE WorkspaceSession, created here before the window and shared
    // by every panel that reads or writes the SQLite file (profiles, saved plans, compare, the
    // probe panel). Panels take &session in their constructor and announce their writes through
    // it; it is opened below, after every panel is connected, so all of them see the first load.
    tally::ui::WorkspaceSession session;
    tally::ui::MainWindow window(windowOptions);
    tally::ui::installWorkspacePanels(&window, &session);
    tally::ui::ProbePanel* probePanel = tally::ui::installProbePanel(&window, &session);
    tally::ui::installLanguageMenu(&window, &translations);

    // --db, else the platform's default file; a screenshot without --db gets an empty scratch
    // workspace, never the user's. A refused file (not SQLite, damaged, another program's,
    // newer, read-only, ...) is left untouched: the dialog offers another file, a new
    // workspace, or going on without one (a screenshot reports it and fails instead).
    const QString workspacePath =
        !state.db_path.empty() ? QString::fromLocal8Bit(state.db_path.c_str())
                               : (screenshot ? scratch.filePath(QStringLiteral("workspace.sqlite"))
                                             : tally::ui::WorkspaceSession::defaultPath());
    if (screenshot) {
        QString error;
        if (!session.open(workspacePath, &error)) {
            printError(error);
            return kExitFailure;
        }
    } else {
        tally::ui::openWorkspace(&session, {tally::ui::WorkspaceAction::open, workspacePath},
                                 tally::ui::dialogWorkspaceChooser(&window, &session));
    }

    if (options.probe_run > 0 && !probePanel->showStoredRun(options.probe_run)) {
        printError(QStringLiteral("--probe-run: the workspace %1 has no probe run %2 (tally probes "
                                  "list --db FILE lists them)")
                       .arg(workspacePath)
                       .arg(options.probe_run));
        return kExitBadInput;
    }
    if (!options.spec.empty()) {
        QString error;
        bool opened = false;
        if (!window.openFileAtStart(QString::fromLocal8Bit(options.spec.c_str()), &error,
                                    &opened)) {
            printError(error);
            return kExitBadInput;
        }
    }
    if (!options.panel.empty() && !window.showPanel(QString::fromStdString(options.panel))) {
        printError(QStringLiteral("--panel: no panel \"%1\"; the panels are: %2")
                       .arg(QString::fromStdString(options.panel),
                            window.panelIds().join(QStringLiteral(", "))));
        return kExitBadInput;
    }
    window.show();
    if (!screenshot) {
        return app.exec();
    }

    int code = kExitOk;
    // Let the window lay out and paint once before it is drawn into the file.
    QTimer::singleShot(400, &window, [&] {
        // Written atomically, like every file Tally writes: a failed write leaves no half PNG.
        const QString path = QString::fromLocal8Bit(options.screenshot.c_str());
        QString error;
        if (!tally::ui::exportPng(&window, path, &error)) {
            printError(error);
            code = kExitFailure;
        }
        app.quit();
    });
    app.exec();
    return code;
}

}  // namespace tally::cli
