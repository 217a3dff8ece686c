#pragma once

#include <QMainWindow>
#include <QPointer>
#include <QString>
#include <memory>
#include <vector>

#include "planner/core/dtype.h"
#include "planner/core/spec.h"
#include "ui/common/chart_support.h"

class QDockWidget;
class QScrollArea;
class QMenu;
class QSettings;
class QTabWidget;

class QPushButton;

class QLockFile;

namespace tally::ui {

// The width the plan form's dock opens at: the form's preferred width; on a laptop's screen
// (under 1500 pixels wide) at most three tenths of it, as far as the form's least width allows.
// The panels need the width more than the sliders do: at 1366 pixels the form took 565 and the
// Time table's names were elided, the Probe tab pushed behind the tab bar's arrows.
int initialFormWidth(int preferred, int least, int screenWidth);

class AppSettings;
class Autosave;
class FormatsPanel;
class HardwareCatalog;
class LayoutsPanel;
class MemoryPanel;
class PlanDocument;
class RooflinePanel;
class SpecForm;
class SummaryBar;
class TimePanel;

// Where a registered panel lives.
enum class PanelArea { tab, leftDock, rightDock, bottomDock };

// The desktop app's window: the plan's form in a dock on the left, the headline figures on top,
// and the panels as tabs (memory, time, layouts, roofline, number formats). Other areas register
// their panels with addPanel() (the profile manager, the compare view, the probe panel) and feed
// the GPU picker through hardwareCatalog()->setProfiles().
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        QSettings* settings = nullptr;  // window layout and last choices; required
        QString autosavePath;           // empty: no autosave
        bool restoreLayout = true;      // false: the default size and tabs (screenshots)
    };

    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    PlanDocument* document() const { return m_document; }
    // The window's settings (geometry, last folder, panel choices), shared with its panels.
    AppSettings* appSettings() const { return m_settings; }
    HardwareCatalog* hardwareCatalog() const { return m_catalog; }
    SpecForm* specForm() const { return m_form; }
    SummaryBar* summary() const { return m_summary; }
    MemoryPanel* memoryPanel() const { return m_memory; }
    TimePanel* timePanel() const { return m_time; }
    RooflinePanel* rooflinePanel() const { return m_roofline; }
    FormatsPanel* formatsPanel() const { return m_formats; }
    LayoutsPanel* layoutsPanel() const { return m_layouts; }
    Autosave* autosave() const { return m_autosave; }
    // The View menu, for areas that add to it (View > Language).
    QMenu* viewMenu() const { return m_viewMenu; }
    // Rebuilds the texts made from the plan (title, summary, panels, status bar) after the
    // language changed; the plan, its undo history and every panel's choices stay as they are.
    void refreshTexts();

    // Registers a panel under an id ("memory", "time", "layouts", "roofline" and "formats" are
    // taken): a tab beside the built-in ones, or a dock. The window owns it from then on and
    // lists it in the View menu. Returns false (and leaves the widget alone) when the id is
    // taken.
    bool addPanel(const QString& id, const QString& title, QWidget* widget,
                  PanelArea area = PanelArea::tab);
    QWidget* panel(const QString& id) const;
    QStringList panelIds() const;
    // Brings a panel to the front (its tab, or its dock shown and raised).
    bool showPanel(const QString& id);
    QString currentPanel() const;

    // Every exportable chart of every panel.
    QList<ChartInfo> charts() const;
    // Exports a chart by id as PNG or SVG (by the path's extension); false and a message.
    bool exportChart(const QString& chartId, const QString& path, QString* error);

    // Opens and saves plans (JSON in the CLI's format). Errors go to a message box unless quiet.
    bool openFile(const QString& path, QString* error = nullptr);
    // `tally --spec FILE`: an Open from the command line. A plan restored from the last session
    // with changes not saved to a file is asked about first, as File > Open asks; Cancel keeps
    // it and opens nothing (true, *opened false).
    bool openFileAtStart(const QString& path, QString* error, bool* opened);
    bool saveFile(const QString& path, QString* error = nullptr);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // The View menu's entry of a panel (object name "showPanel_" + id), with Ctrl+1 .. Ctrl+0 for
    // the first ten.
    void addPanelAction(const QString& title, const QString& id);
    struct PanelEntry {
        QString id;
        QString title;
        QPointer<QWidget> widget;
        QDockWidget* dock = nullptr;  // null for tabs
    };

    void buildMenus();
    void fillExportMenu(QMenu* menu);
    void updateTitle();
    void showError();
    void open();
    // File > Import run configuration…: a framework's launch configuration, previewed first.
    void importRunConfiguration();
    // Before the plan is replaced (New, Open, an example) or, without the autosave, the window
    // closes: when it has unsaved edits, asks to save them, discard them or cancel; `question`
    // replaces "Save them before the plan is replaced?". False: keep the plan.
    bool confirmReplace(const QString& question = {});
    void fillExamplesMenu(QMenu* menu);
    // File > Open recent: the plan files last opened or saved, latest first.
    void fillRecentMenu(QMenu* menu);
    void rememberRecentFile(const QString& path);
    // Opens a shipped example as a new plan (asking first about unsaved changes) and brings
    // `panel` to the front when it is not empty.
    void openExample(const PlanSpec& spec, const QString& panel);
    bool save();
    // Takes the text still being typed into a box (a number, the description) into the plan, as
    // leaving the box would: every save, export, replacement of the plan and quitting does this
    // first, so that what the window shows is what is written.
    void commitPendingEdits();
    bool saveAs();
    void exportPlan(bool markdown);
    void exportChartInteractive(const ChartInfo& chart, bool svg);
    QString askPath(const QString& title, const QString& filter, bool saving,
                    const QString& suggestedName = {});
    void report(const QString& message);
    // A file name for the plan: its file's, else its name or title, with `extension`.
    QString suggestedFileName(const QString& extension) const;
    // docs/desktop-app.md where this build finds it, else empty.
    QString documentationPath() const;

    AppSettings* m_settings;
    HardwareCatalog* m_catalog;
    // In the status bar while the GPU has no peak for the compute dtype: switch to one it has.
    QPushButton* m_dtypeOffer = nullptr;
    DType m_offeredDtype = DType::fp32;
    PlanDocument* m_document;
    Autosave* m_autosave = nullptr;
    // Held while this window writes the autosave; another window on the same autosave finds it
    // taken and does not autosave (m_autosaveElsewhere).
    std::unique_ptr<QLockFile> m_autosaveLock;
    bool m_autosaveElsewhere = false;
    SpecForm* m_form;
    SummaryBar* m_summary;
    QTabWidget* m_tabs;
    QDockWidget* m_formDock;
    QScrollArea* m_formScroll = nullptr;
    MemoryPanel* m_memory;
    TimePanel* m_time;
    RooflinePanel* m_roofline;
    FormatsPanel* m_formats;
    LayoutsPanel* m_layouts;
    std::vector<PanelEntry> m_panels;
    QMenu* m_viewMenu = nullptr;
    QString m_panelToRestore;  // the panel in front last time, not registered yet
};

}  // namespace tally::ui
