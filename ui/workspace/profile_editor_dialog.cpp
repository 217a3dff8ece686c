#include "ui/workspace/profile_editor_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>
#include <exception>
#include <nlohmann/json.hpp>

#include "planner/store/workspace.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"
#include "ui/session/workspace_session.h"

namespace tally::ui {

namespace {

const QString kMarkStyle = QStringLiteral("border: 2px solid #c62828; border-radius: 3px;");
const QString kId = QStringLiteral("profile.id");
const QString kName = QStringLiteral("profile.name");
const QString kMemory = QStringLiteral("profile.memory_bytes");
const QString kBandwidth = QStringLiteral("profile.bandwidth_bytes_per_s");
const QString kTdp = QStringLiteral("profile.tdp_w");
const QString kPrice = QStringLiteral("profile.price_per_gpu_hour");
const QString kPeaks = QStringLiteral("profile.peak_flops_per_s");

QString peakPath(ComputeType type) {
    return kPeaks + u'.' + qs(to_string(type));
}

}  // namespace

ProfileEditorDialog::ProfileEditorDialog(WorkspaceSession* session, const HardwareProfile& start,
                                         Mode mode, QWidget* parent)
    : QDialog(parent),
      m_session(session),
      m_start(start),
      m_mode(mode),
      m_id(new QLineEdit(qs(start.id), this)),
      m_name(new QLineEdit(qs(start.name), this)),
      m_notes(new QPlainTextEdit(qs(start.notes), this)),
      m_message(new QLabel(this)),
      m_save(new QPushButton(tr("Save"), this)) {
    setObjectName(QStringLiteral("profileEditor"));
    setWindowTitle(mode == Mode::add ? tr("New profile from %1").arg(qs(start.name))
                                     : tr("Edit profile %1").arg(qs(start.id)));
    m_id->setReadOnly(mode == Mode::edit);
    m_id->setToolTip(mode == Mode::edit
                         ? tr("The id of a stored profile is fixed (plans name their GPU by it); "
                              "duplicate the profile to store it under another id.")
                         : tr("How plans name this GPU (cluster.gpu): letters, digits, '.', '_' "
                              "or '-'."));
    m_id->setAccessibleName(tr("Profile id"));
    m_name->setAccessibleName(tr("Profile name"));
    m_notes->setAccessibleName(tr("Notes"));
    m_notes->setPlaceholderText(tr("Where the figures come from, what differs from the original…"));
    m_notes->setTabChangesFocus(true);

    auto* identity = new QGroupBox(tr("Profile"), this);
    auto* idForm = new QFormLayout(identity);
    idForm->addRow(tr("Id"), m_id);
    idForm->addRow(tr("Name"), m_name);

    auto* figures = new QGroupBox(tr("Memory, power and price"), this);
    auto* figForm = new QFormLayout(figures);
    addNumber(figForm, kMemory, tr("Memory"), tr("GB"), start.memory_bytes, 1e9,
              tr("Memory per GPU in GB (10^9 bytes, as datasheets count)."));
    addNumber(figForm, kBandwidth, tr("Bandwidth"), tr("GB/s"), start.bandwidth_bytes_per_s, 1e9,
              tr("Memory bandwidth in GB/s (10^9 bytes per second)."));
    addNumber(figForm, kTdp, tr("TDP"), tr("W"), start.tdp_w, 1.0,
              tr("Board power in watts (empty: not known; the plan's energy needs it)."));
    m_numbers[kTdp].optional = true;
    addNumber(figForm, kPrice, tr("Price"), tr("per GPU-h"), start.price_per_gpu_hour.value_or(0.0),
              1.0,
              tr("What one GPU-hour of this part costs you, in your currency (empty: not known). "
                 "Compare prices each part at its own price; parts without one use the plan's."));
    m_numbers[kPrice].optional = true;
    if (start.price_per_gpu_hour && *start.price_per_gpu_hour == 0.0) {
        field(kPrice)->setText(QStringLiteral("0"));
    }

    auto* peaks = new QGroupBox(tr("Dense peaks (no 2:4 sparsity)"), this);
    auto* peakForm = new QFormLayout(peaks);
    for (ComputeType t : kAllComputeTypes) {
        const QString path = peakPath(t);
        addNumber(peakForm, path, qs(to_string(t)),
                  t == ComputeType::int8 ? tr("TOP/s") : tr("TFLOP/s"), start.peak(t), 1e12,
                  tr("Dense %1 peak in T%2/s (empty: the part has no such path). A plan's time "
                     "is set by the peak of its compute dtype.")
                      .arg(qs(to_string(t)),
                           t == ComputeType::int8 ? QStringLiteral("OP") : QStringLiteral("FLOP")));
        m_numbers[path].optional = true;
    }

    auto* notesBox = new QGroupBox(tr("Notes"), this);
    auto* notesLayout = new QVBoxLayout(notesBox);
    notesLayout->addWidget(m_notes);
    m_notes->setMinimumHeight(m_notes->fontMetrics().height() * 3);

    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setObjectName(QStringLiteral("profileEditorMessage"));
    m_message->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_message->hide();

    auto* buttons = new QDialogButtonBox(this);
    // ActionRole, not AcceptRole: a button box makes its first accept button the dialog's
    // default when shown, and Enter in any field would then save.
    buttons->addButton(m_save, QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    // Enter in a field moves to the next one (a dialog's default button would save a profile
    // whose figures were not filled in yet); Save is a click, or Enter on the button itself.
    m_save->setDefault(false);
    m_save->setAutoDefault(false);
    for (QPushButton* button : buttons->findChildren<QPushButton*>()) {
        button->setAutoDefault(false);
    }
    for (QLineEdit* edit : findChildren<QLineEdit*>()) {
        connect(edit, &QLineEdit::returnPressed, this, [this] { focusNextChild(); });
    }
    // Save checks and writes first; the dialog closes only when the workspace took the profile.
    connect(m_save, &QPushButton::clicked, this, [this] { save(); });
    // From any field, Ctrl+Enter saves (Enter alone moves on, above).
    for (const QKeySequence& keys :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* shortcut = new QShortcut(keys, this);
        connect(shortcut, &QShortcut::activated, this, [this] { save(); });
    }
    m_save->setToolTip(tr("Check the profile and store it in the workspace (Ctrl+Enter)"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* columns = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(identity);
    left->addWidget(figures);
    left->addWidget(notesBox, 1);
    columns->addLayout(left, 1);
    columns->addWidget(peaks);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(m_message);
    layout->addWidget(buttons);

    // Tab goes as the dialog reads: the identity, the figures, the peaks, then the notes. Made
    // first, the notes would otherwise come right after the name, and figures typed into them
    // would replace the datasheet's notes.
    QList<QWidget*> order{m_id,        m_name,       field(kMemory), field(kBandwidth),
                          field(kTdp), field(kPrice)};
    for (ComputeType t : kAllComputeTypes) {
        order << field(peakPath(t));
    }
    order << m_notes;
    for (qsizetype i = 1; i < order.size(); ++i) {
        setTabOrder(order[i - 1], order[i]);
    }

    connect(m_id, &QLineEdit::textChanged, this, &ProfileEditorDialog::validate);
    connect(m_name, &QLineEdit::textChanged, this, &ProfileEditorDialog::validate);
    connect(m_notes, &QPlainTextEdit::textChanged, this, &ProfileEditorDialog::validate);
    validate();
}

void ProfileEditorDialog::addNumber(QFormLayout* form, const QString& path, const QString& label,
                                    const QString& unit, double value, double scale,
                                    const QString& help) {
    auto* edit = new QLineEdit(value > 0.0 ? formatExact(value / scale) : QString(), this);
    edit->setObjectName(path);
    edit->setAccessibleName(label);
    edit->setToolTip(help);
    edit->setProperty("help", help);
    edit->setAlignment(Qt::AlignRight);
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    auto* unitLabel = new QLabel(unit, row);
    unitLabel->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("TFLOP/s")));
    h->addWidget(unitLabel);
    form->addRow(label, row);
    m_numbers.insert(path, NumberField{edit, scale, false, unit});
    connect(edit, &QLineEdit::textChanged, this, &ProfileEditorDialog::validate);
}

QLineEdit* ProfileEditorDialog::field(const QString& path) const {
    if (path == kId) {
        return m_id;
    }
    if (path == kName) {
        return m_name;
    }
    const auto it = m_numbers.find(path);
    return it == m_numbers.end() ? nullptr : it->edit;
}

QString ProfileEditorDialog::markText(const QString& path) const {
    return m_marks.value(path);
}

QString ProfileEditorDialog::message() const {
    return m_message->isHidden() ? QString() : m_message->text();
}

void ProfileEditorDialog::clearMarks() {
    for (const QString& path : m_marks.keys()) {
        if (QLineEdit* edit = field(path)) {
            edit->setStyleSheet({});
            const QVariant help = edit->property("help");
            edit->setToolTip(help.isValid() ? help.toString() : QString());
        }
    }
    m_marks.clear();
    m_message->clear();
    m_message->hide();
}

void ProfileEditorDialog::mark(const QString& path, const QString& message) {
    if (!m_marks.contains(path)) {
        m_marks.insert(path, message);
        if (QLineEdit* edit = field(path)) {
            edit->setStyleSheet(kMarkStyle);
            edit->setToolTip(message);
        }
    }
    // Each message once: several boxes can share one (every peak box when none is given).
    const QString shown = m_message->text();
    if (!shown.split(u'\n').contains(message)) {
        m_message->setText(shown.isEmpty() ? message : shown + u'\n' + message);
    }
    m_message->show();
}

void ProfileEditorDialog::markError(const FieldError& error) {
    const QString path = qs(error.field);
    // A figure out of the profile's range, said in the box's unit: the planner's bounds are in
    // bytes and FLOP/s ("profile.memory_bytes: got 0.0; ... [1e6, 1e16] bytes") where the box
    // takes GB, GB/s or TFLOP/s.
    const auto number = m_numbers.constFind(path);
    const std::optional<double> typed =
        number != m_numbers.cend() ? parseNumber(number->edit->text().trimmed()) : std::nullopt;
    if (number != m_numbers.cend() && number->scale != 1.0 && typed) {
        double least = kMinPeakFlopsPerS;
        double most = kMaxPeakFlopsPerS;
        if (path == kMemory) {
            least = kMinMemoryBytes;
            most = kMaxMemoryBytes;
        } else if (path == kBandwidth) {
            least = kMinBandwidthBytesPerS;
            most = kMaxBandwidthBytesPerS;
        }
        const bool peak = path != kMemory && path != kBandwidth;
        mark(path, (peak ? tr("%1: got %2 %3; from %4 to %5 %3, or empty for none")
                         : tr("%1: got %2 %3; from %4 to %5 %3"))
                       .arg(path, number->edit->text().trimmed(), number->unit,
                            formatExact(least / number->scale), formatExact(most / number->scale)));
        return;
    }
    const QString message = translatedFieldError(error);
    if (field(path)) {
        mark(path, message);
        return;
    }
    if (path == kPeaks) {
        // "at least one dtype needs a peak > 0": every peak box is the answer, said once in the
        // boxes' own terms rather than as the profile's JSON.
        const QString peaks =
            tr("Dense peaks: every box is empty or 0; give at least one dtype "
               "a peak above 0 TFLOP/s");
        for (ComputeType t : kAllComputeTypes) {
            mark(peakPath(t), peaks);
        }
        return;
    }
    mark(path, message);  // a field the dialog has no box for: the message alone
}

void ProfileEditorDialog::validate() {
    clearMarks();
    HardwareProfile p = m_start;
    p.id = m_id->text().toStdString();
    p.name = m_name->text().toStdString();
    p.notes = m_notes->toPlainText().toStdString();
    bool numbersOk = true;
    for (auto it = m_numbers.cbegin(); it != m_numbers.cend(); ++it) {
        const QString text = it->edit->text().trimmed();
        double value = 0.0;
        if (!text.isEmpty() || !it->optional) {
            const std::optional<double> parsed = parseNumber(text);
            if (!parsed) {
                mark(it.key(), tr("%1: \"%2\" is not a number").arg(it.key(), text));
                numbersOk = false;
                continue;
            }
            if (*parsed < 0.0) {
                // The profile's JSON keeps no negative figures (a peak below 0 would read back as
                // "none"), so the dialog names them before the planner sees them.
                markError(FieldError::of(it.key().toStdString(), text.toStdString(),
                                         TALLY_TEXT("tally::ui", "a number >= 0")));
                numbersOk = false;
                continue;
            }
            value = *parsed * it->scale;
        }
        const QString path = it.key();
        if (path == kMemory) {
            p.memory_bytes = value;
        } else if (path == kBandwidth) {
            p.bandwidth_bytes_per_s = value;
        } else if (path == kTdp) {
            p.tdp_w = value;
        } else if (path == kPrice) {
            p.price_per_gpu_hour = text.isEmpty() ? std::nullopt : std::optional<double>(value);
        } else {
            for (ComputeType t : kAllComputeTypes) {
                if (path == peakPath(t)) {
                    p.peak_flops_per_s[static_cast<std::size_t>(t)] = value;
                }
            }
        }
    }
    bool ok = numbersOk;
    try {
        validate_profile_id(p.id, kId.toStdString());
    } catch (const SpecError& e) {
        markError(e.error());
        ok = false;
    }
    try {
        validate_display_name(p.name, kName.toStdString());
    } catch (const SpecError& e) {
        markError(e.error());
        ok = false;
    }
    if (numbersOk) {
        try {
            // The rules the workspace applies when it stores the profile (hardware_from_json).
            HardwareProfile checked = hardware_from_json(to_json(p), "profile");
            checked.kind = p.kind;
            p = std::move(checked);
        } catch (const SpecError& e) {
            markError(e.error());
            ok = false;
        }
    }
    m_profile = ok ? std::optional<HardwareProfile>(p) : std::nullopt;
    m_save->setEnabled(ok);
}

bool ProfileEditorDialog::save() {
    validate();
    if (!m_profile) {
        return false;
    }
    Workspace* ws = m_session->workspace();
    if (!ws) {
        mark(QString(), tr("No workspace is open: open one to store profiles."));
        return false;
    }
    try {
        if (m_mode == Mode::add) {
            ws->add_profile(*m_profile);
        } else {
            // Only over the profile as the editor read it (m_start): a change made meanwhile
            // by another window or `tally profiles edit` is not overwritten unseen.
            ws->update_profile(*m_profile, m_start);
        }
    } catch (const SpecError& e) {
        markError(e.error());
        return false;
    } catch (const std::exception& e) {
        mark(QString(), workspaceErrorMessage(e));
        return false;
    }
    m_savedId = qs(m_profile->id);
    m_session->announceProfilesChanged();
    accept();
    return true;
}

}  // namespace tally::ui
