#include "ui/workspace/calibration_dialog.h"

#include <QButtonGroup>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QSpinBox>
#include <QVBoxLayout>

#include "planner/core/errors.h"
#include "planner/core/quantity_text.h"
#include "planner/hardware/user_profiles.h"
#include "planner/performance/calibration.h"
#include "planner/training/calibration_fit.h"
#include "planner/training/plan.h"
#include "ui/charts/time_panel.h"
#include "ui/common/file_dialogs.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/plan_document.h"
#include "ui/session/workspace_session.h"

namespace tally::ui {

namespace {

constexpr auto kBadFieldStyle = "border: 2px solid #c62828;";

// The workspace's own files, which this process must never open itself.
bool isWorkspaceFile(const QString& path, const QString& workspacePath) {
    if (workspacePath.isEmpty()) {
        return false;
    }
    const QString file = QFileInfo(path).absoluteFilePath();
    const QString ws = QFileInfo(workspacePath).absoluteFilePath();
    return file == ws || file == ws + QStringLiteral("-wal") || file == ws + QStringLiteral("-shm");
}

}  // namespace

CalibrationDialog::CalibrationDialog(const PlanSpec& spec, const HardwareProfile& profile,
                                     Apply apply, const QString& workspacePath, QWidget* parent)
    : QDialog(parent),
      m_spec(spec),
      m_profile(profile),
      m_apply(std::move(apply)),
      m_workspacePath(workspacePath),
      m_stepChoice(new QRadioButton(tr("Measured step:"), this)),
      m_logChoice(new QRadioButton(tr("Training log:"), this)),
      m_step(new QLineEdit(this)),
      m_log(new QLineEdit(this)),
      m_browse(new QPushButton(tr("Browse…"), this)),
      m_skip(new QSpinBox(this)),
      m_id(new QLineEdit(qs(default_calibrated_id(profile)), this)),
      m_name(new QLineEdit(
          qs(default_calibrated_name(
              profile, [](const Text& t) { return translatedText(t).toStdString(); })),
          this)),
      m_preview(new QLabel(this)) {
    setObjectName(QStringLiteral("calibrationDialog"));
    setWindowTitle(tr("Calibrate from a measured step"));
    HardwareProfile bare = profile;
    bare.calibration.reset();
    const QString title =
        spec.name.empty() ? tr("this plan") : QStringLiteral("\"%1\"").arg(qs(spec.name));
    auto* explain = new QLabel(
        tr("Fits the model's overall efficiency on %1 to a step your run measured: efficiency = "
           "predicted step / measured step, stored in a profile of the part; every step "
           "predicted on that profile is divided by it. The run must be %2 as the plan has it "
           "(layout, batch, sequence length).")
            .arg(qs(bare.name), title),
        this);
    explain->setWordWrap(true);

    m_stepChoice->setObjectName(QStringLiteral("calibrationStepChoice"));
    m_logChoice->setObjectName(QStringLiteral("calibrationLogChoice"));
    auto* choices = new QButtonGroup(this);
    choices->addButton(m_stepChoice);
    choices->addButton(m_logChoice);
    m_stepChoice->setChecked(true);
    m_step->setObjectName(QStringLiteral("calibrationStep"));
    m_step->setAccessibleName(tr("Measured step in seconds"));
    m_step->setPlaceholderText(tr("seconds per optimizer step, e.g. 12.5"));
    m_log->setObjectName(QStringLiteral("calibrationLog"));
    m_log->setAccessibleName(tr("Training log file"));
    m_log->setPlaceholderText(tr("Megatron-LM, NeMo or torchtitan log"));
    m_skip->setObjectName(QStringLiteral("calibrationSkip"));
    m_skip->setRange(0, 1000000);
    m_skip->setValue(static_cast<int>(TrainingLogSettings{}.skip_records));
    m_skip->setAccessibleName(tr("Warm-up records dropped"));
    m_skip->setToolTip(
        tr("Timing lines dropped from the start of the log as warm-up; the measured step is "
           "the median of the rest. Megatron-LM prints iteration 1 alone and its next line "
           "still averages over it; torchtitan prints step 1 alone."));
    m_id->setObjectName(QStringLiteral("calibrationId"));
    m_id->setAccessibleName(tr("Profile id"));
    m_name->setObjectName(QStringLiteral("calibrationName"));
    m_name->setAccessibleName(tr("Profile name"));
    m_preview->setObjectName(QStringLiteral("calibrationPreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* stepRow = new QHBoxLayout;
    stepRow->addWidget(m_step, 1);
    stepRow->addWidget(new QLabel(tr("s"), this));
    auto* logRow = new QHBoxLayout;
    logRow->addWidget(m_log, 1);
    logRow->addWidget(m_browse);
    auto* form = new QFormLayout;
    form->addRow(m_stepChoice, stepRow);
    form->addRow(m_logChoice, logRow);
    form->addRow(tr("Warm-up records dropped:"), m_skip);
    form->addRow(tr("Store in profile id:"), m_id);
    form->addRow(tr("Profile name:"), m_name);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Calibrate and use"));
    m_ok->setObjectName(QStringLiteral("calibrationOk"));
    connect(buttons, &QDialogButtonBox::accepted, this, &CalibrationDialog::submit);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    for (QLineEdit* edit : {m_step, m_id, m_name}) {
        connect(edit, &QLineEdit::textChanged, this, &CalibrationDialog::refit);
    }
    connect(m_step, &QLineEdit::textEdited, this, [this] { m_stepChoice->setChecked(true); });
    connect(m_log, &QLineEdit::textEdited, this, [this] {
        m_logChoice->setChecked(true);
        refit();  // a path typed but not yet read says so, not "Choose a training log"
    });
    connect(m_log, &QLineEdit::editingFinished, this, &CalibrationDialog::readLog);
    // Enter in a dialog's line edit presses its default button: a typed log path was read and
    // stored at once, replacing the profile's calibration before its fit (and the warning that
    // it replaces one) was ever shown. Enter there reads the log; OK stays a second, deliberate
    // step.
    m_log->installEventFilter(this);
    connect(m_stepChoice, &QRadioButton::toggled, this, &CalibrationDialog::refit);
    connect(m_skip, &QSpinBox::valueChanged, this, &CalibrationDialog::refit);
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString path = chooseOpenPath(this, tr("Training log"), m_log->text(),
                                            tr("Logs (*.log *.txt *.out);;All files (*)"));
        if (!path.isEmpty()) {
            m_log->setText(path);
            m_logChoice->setChecked(true);
            readLog();
        }
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explain);
    layout->addLayout(form);
    layout->addWidget(m_preview);
    layout->addWidget(buttons);
    resize(600, sizeHint().height());
    refit();
}

bool CalibrationDialog::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_log && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            m_logChoice->setChecked(true);
            readLog();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void CalibrationDialog::readLog() {
    const QString path = m_log->text().trimmed();
    if (path == m_logPath && (m_logReader || !m_logError.isEmpty())) {
        refit();
        return;
    }
    m_logPath = path;
    m_logReader.reset();
    m_logError.clear();
    if (path.isEmpty()) {
        refit();
        return;
    }
    QFile file(path);
    if (isWorkspaceFile(path, m_workspacePath)) {
        m_logError = tr("Training log: %1 is the workspace's own file, not a log.").arg(path);
    } else if (!file.open(QIODevice::ReadOnly)) {
        m_logError = tr("Training log: %1 cannot be read (%2).").arg(path, file.errorString());
    } else {
        TrainingLogReader reader;
        try {
            while (!file.atEnd()) {
                QByteArray line = file.readLine();
                while (line.endsWith('\n') || line.endsWith('\r')) {
                    line.chop(1);
                }
                reader.add_line(
                    std::string_view(line.constData(), static_cast<std::size_t>(line.size())));
            }
            m_logReader = std::move(reader);
        } catch (const SpecError& e) {
            m_logError = tr("Training log: %1").arg(translatedFieldError(e.error()));
        }
    }
    refit();
}

void CalibrationDialog::markField(QWidget* field) {
    if (field != nullptr) {
        field->setStyleSheet(QString::fromLatin1(kBadFieldStyle));
    }
}

// The preview runs to several lines once a log is read: the dialog grows to hold them rather
// than squeezing its rows (a user's own size is kept where it is already large enough).
void CalibrationDialog::growToFit() {
    if (QLayout* l = layout()) {
        l->activate();
        const int need =
            l->hasHeightForWidth() ? l->totalHeightForWidth(width()) : l->totalSizeHint().height();
        if (need > height()) {
            resize(width(), need);
        }
    }
}

void CalibrationDialog::refit() {
    const auto grow = qScopeGuard([this] { growToFit(); });
    m_calibrated.reset();
    m_ok->setEnabled(false);
    for (QWidget* w : {static_cast<QWidget*>(m_step), static_cast<QWidget*>(m_log),
                       static_cast<QWidget*>(m_skip), static_cast<QWidget*>(m_id),
                       static_cast<QWidget*>(m_name)}) {
        w->setStyleSheet(QString());
    }
    m_preview->setStyleSheet(QStringLiteral("color: #c62828;"));
    HardwareProfile bare = m_profile;
    bare.calibration.reset();
    // The field a refused step is named by: the box it was typed in, or the log it was read from.
    const std::string stepField =
        (m_stepChoice->isChecked() ? tr("Measured step") : tr("Training log")).toStdString();
    double measured = 0.0;
    std::string source;
    try {
        if (m_stepChoice->isChecked()) {
            const QString text = m_step->text().trimmed();
            if (text.isEmpty()) {
                m_preview->setStyleSheet(QString());
                m_preview->setText(tr("Enter the step your run measured, or read a log."));
                return;
            }
            // An entry box: parseNumber() reads the C form and the user's locale's.
            const std::optional<double> parsed = parseNumber(text);
            measured = parsed.value_or(0.0);
            if (!parsed) {
                markField(m_step);
                // What is allowed, in the words the planner refuses a number with
                // (validate_measured_step()).
                m_preview->setText(
                    tr("Measured step: \"%1\" is not a number; allowed: %2.")
                        .arg(text, QCoreApplication::translate(
                                       "tally::calibration",
                                       "a measured step time in seconds, > 0 (at least 1e-9) and "
                                       "at most 1e9")));
                return;
            }
            source = kStepEnteredInWindowSource;
        } else {
            const QString typed = m_log->text().trimmed();
            if (!typed.isEmpty() && typed != m_logPath) {
                // Read on Enter or on leaving the box (readLog()); until then nothing is fitted,
                // and a log read before belongs to another path.
                m_preview->setStyleSheet(QString());
                m_preview->setText(tr("Press Enter to read %1.").arg(typed));
                return;
            }
            if (!m_logError.isEmpty()) {
                markField(m_log);
                m_preview->setText(m_logError);
                return;
            }
            if (!m_logReader) {
                m_preview->setStyleSheet(QString());
                m_preview->setText(tr("Choose a training log (Browse…)."));
                return;
            }
            TrainingLogSummary summary;
            try {
                summary = m_logReader->summary({m_skip->value()});
            } catch (const SpecError& e) {
                markField(e.field() == "skip_records" ? static_cast<QWidget*>(m_skip) : m_log);
                // The reader names the log "log" and no value: the file is the value.
                FieldError error = e.error();
                if (error.field == "log" && error.value.empty()) {
                    error.value = "\"" + QFileInfo(m_logPath).fileName().toStdString() + "\"";
                }
                m_preview->setText(tr("Training log: %1").arg(translatedFieldError(error)));
                return;
            }
            measured = measured_step_from_log(summary, m_spec, bare);
            source = log_source_text(summary, QFileInfo(m_logPath).fileName().toStdString());
        }
        const std::string date =
            QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate).toStdString();
        const StepCalibration fit =
            fit_calibration(m_spec, m_profile, measured, stepField, source, date);
        const std::string id = m_id->text().trimmed().toStdString();
        const std::string name = m_name->text().trimmed().toStdString();
        try {
            validate_profile_id(id, "Profile id");
        } catch (const SpecError&) {
            markField(m_id);
            throw;
        }
        try {
            validate_display_name(name, "Profile name");
        } catch (const SpecError&) {
            markField(m_name);
            throw;
        }
        m_calibrated = calibrated_profile(m_profile, fit, id, name);
        m_preview->setStyleSheet(QString());
        QString text =
            tr("Predicted %1 s (the model, uncalibrated) / measured %2 s = efficiency %3. Every "
               "step predicted on %4 is divided by %3; this plan's step becomes %2 s. Measured: "
               "%5.")
                .arg(qs(four_digits(fit.predicted_step_s)), qs(four_digits(fit.measured_step_s)))
                .arg(fit.efficiency, 0, 'f', 4)
                .arg(qs(id), QCoreApplication::translate("tally::calibration", fit.source.c_str()));
        // A spec over its GPUs' memory is not the run that was measured; the fit cannot tell.
        if (const MemoryBreakdown memory = evaluate(m_spec, bare).memory; !memory.fits) {
            text += u'\n';
            text += tr("This plan does not fit its GPUs' memory (%1 GB needed, %2 GB): a run of "
                       "it could not have been measured. Check that it has the run's layout, "
                       "recomputation and batch.")
                        .arg(memory.total_bytes / 1e9, 0, 'f', 1)
                        .arg(memory.capacity_bytes / 1e9, 0, 'f', 1);
        }
        if (const std::optional<Text> doubt = calibration_doubt(m_spec, m_profile, fit)) {
            text += u'\n';
            text += tr("Doubtful: %1.").arg(translatedText(*doubt));
        }
        // What the workspace does with an id it has (Workspace::save_calibrated_profile()): the
        // same part's profile is calibrated again, another profile is kept and the id refused.
        const std::string& base = m_calibrated->calibration->base_profile;
        bool refused = false;
        for (const HardwareProfile& existing : m_existing) {
            if (existing.id != id) {
                continue;
            }
            const bool samePart =
                existing.id == base ||
                (existing.calibration && existing.calibration->base_profile == base);
            text += u'\n';
            if (!samePart) {
                refused = true;
                text += tr("Profile %1 (\"%2\") is another profile: the workspace keeps it and "
                           "refuses this id. Choose another.")
                            .arg(qs(id), qs(existing.name));
            } else if (existing.calibration) {
                text += tr("Profile %1 (\"%2\") exists: its calibration (efficiency %3, %4) is "
                           "replaced; its notes, price and board power are kept. Another id "
                           "keeps it.")
                            .arg(qs(id), qs(existing.name))
                            .arg(existing.calibration->efficiency, 0, 'f', 4)
                            .arg(qs(existing.calibration->measured_on));
            } else {
                text += tr("Profile %1 (\"%2\") is calibrated in place.")
                            .arg(qs(id), qs(existing.name));
            }
        }
        m_preview->setText(text);
        m_ok->setEnabled(!refused);
    } catch (const SpecError& e) {
        // A log of another run (its global batch) or of a batch ramp-up is the log's fault as
        // much as the plan's: the log is marked.
        if (e.field() == stepField || (!m_stepChoice->isChecked() &&
                                       (e.field() == "log" || e.field() == "data.global_batch"))) {
            markField(m_stepChoice->isChecked() ? static_cast<QWidget*>(m_step) : m_log);
        }
        QString text = translatedFieldError(e.error());
        // An assumed MFU is the plan's, not the dialog's: say where it is changed.
        if (e.field() == "cluster.mfu") {
            text += u'\n';
            text +=
                tr("Close this dialog, drag the plan's MFU slider to its left end "
                   "(predicted) or type 0 in its box, and open it again.");
        }
        m_preview->setText(text);
    }
}

void CalibrationDialog::setExistingProfiles(std::vector<HardwareProfile> profiles) {
    m_existing = std::move(profiles);
    refit();
}

void CalibrationDialog::submit() {
    if (!m_calibrated) {
        return;
    }
    const QString error = m_apply ? m_apply(*m_calibrated) : QString();
    if (!error.isEmpty()) {
        m_preview->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_preview->setText(error);
        return;
    }
    accept();
}

QString storeCalibration(WorkspaceSession* session, PlanDocument* document,
                         const HardwareProfile& profile) {
    Workspace* ws = session->workspace();
    if (ws == nullptr) {
        return CalibrationDialog::tr(
            "No workspace is open: the calibrated profile has nowhere to "
            "be stored.");
    }
    try {
        ws->save_calibrated_profile(profile);
    } catch (const std::exception& e) {
        return workspaceErrorMessage(e);
    }
    // The picker and the plan follow the stored profiles; then the plan moves onto it.
    session->announceProfilesChanged();
    if (document->spec().cluster.gpu != profile.id) {
        PlanSpec spec = document->spec();
        spec.cluster.gpu = profile.id;
        document->edit(spec, CalibrationDialog::tr("Calibrate on %1").arg(qs(profile.id)));
    }
    return {};
}

TimeCalibration::TimeCalibration(TimePanel* panel, WorkspaceSession* session,
                                 PlanDocument* document)
    : QObject(panel), m_panel(panel), m_session(session), m_document(document) {
    connect(panel, &TimePanel::calibrateRequested, this, &TimeCalibration::openDialog);
}

void TimeCalibration::openDialog() {
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    // The plan as last drawn (a field in error keeps the last accepted spec on screen).
    const std::shared_ptr<const PlanViews> views = m_document->views();
    auto* dialog = new CalibrationDialog(
        views->spec, views->hardware,
        [this](const HardwareProfile& p) { return storeCalibration(m_session, m_document, p); },
        m_session->path(), m_panel);
    if (Workspace* ws = m_session->workspace()) {
        try {
            dialog->setExistingProfiles(ws->list_profiles());
        } catch (const std::exception&) {
            // An unreadable workspace: storing will say so; the preview just cannot warn.
        }
    }
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    dialog->open();
}

}  // namespace tally::ui
