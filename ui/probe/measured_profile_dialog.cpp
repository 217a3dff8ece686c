#include "ui/probe/measured_profile_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStringList>
#include <QVBoxLayout>
#include <algorithm>
#include <cctype>
#include <set>

#include "planner/hardware/user_profiles.h"
#include "planner/roofline/measured_roofline.h"
#include "ui/common/number_text.h"
#include "ui/probe/probe_text.h"

namespace tally::ui {

namespace {

// Lower-case letters and digits of `name`, every other run of characters one '-'.
std::string slug(const std::string& name) {
    std::string out;
    for (unsigned char c : name) {
        if (std::isalnum(c) != 0) {
            out += static_cast<char>(std::tolower(c));
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
    }
    while (!out.empty() && out.back() == '-') {
        out.pop_back();
    }
    return out.substr(0, 40);
}

}  // namespace

MeasuredProfileChoice suggestMeasuredProfile(const ProbeRunRecord& run,
                                             const std::vector<HardwareProfile>& existing,
                                             const QString& planGpuId) {
    std::set<std::string> ids;
    std::set<std::string> names;
    for (const HardwareProfile& p : existing) {
        ids.insert(p.id);
        names.insert(p.name);
    }
    const std::optional<probe::DeviceEvent> device = stored_device(run);
    const std::string deviceName = device && !device->name.empty() ? device->name : run.backend;
    MeasuredProfileChoice choice;
    if (device) {
        const double memory = static_cast<double>(device->memory_bytes.value_or(0));
        if (const HardwareProfile* base = catalog_profile_for_device(device->name, memory)) {
            choice.baseId = qs(base->id);
        }
    }
    if (choice.baseId.isEmpty() && !planGpuId.isEmpty()) {
        const MeasuredRoofline measured = measured_roofline(run, nullptr);
        if (measured.peaks.empty() || !measured.bandwidth) {
            choice.baseId = planGpuId;
        }
    }
    const std::string stem =
        (slug(deviceName).empty() ? std::string("probe") : slug(deviceName)) + "-measured";
    std::string id = stem;
    for (int n = 2; ids.count(id) > 0; ++n) {
        id = stem + "-" + std::to_string(n);
    }
    const QString nameStem =
        run.id > 0
            // The GPU picker adds "(measured)" after a measured profile's name: the suggested
            // name says which run, not the kind again.
            ? MeasuredProfileDialog::tr("%1, probe run #%2").arg(qs(deviceName)).arg(run.id)
            : MeasuredProfileDialog::tr("%1, probed").arg(qs(deviceName));
    QString name = nameStem;
    for (int n = 2; names.count(name.toStdString()) > 0; ++n) {
        name = nameStem + QStringLiteral(" %1").arg(n);
    }
    choice.id = qs(id);
    choice.name = name;
    return choice;
}

MeasuredProfileDialog::MeasuredProfileDialog(const ProbeRunRecord& run,
                                             const std::vector<HardwareProfile>& profiles,
                                             Apply apply, const QString& planGpuId, QWidget* parent)
    : QDialog(parent),
      m_apply(std::move(apply)),
      m_base(new QComboBox(this)),
      m_id(new QLineEdit(this)),
      m_name(new QLineEdit(this)),
      m_error(new QLabel(this)) {
    setObjectName(QStringLiteral("measuredProfileDialog"));
    setWindowTitle(tr("Make a measured hardware profile"));
    const MeasuredProfileChoice suggested = suggestMeasuredProfile(run, profiles, planGpuId);

    m_base->addItem(tr("None: only what the run measured"), QString());
    for (const HardwareProfile& p : profiles) {
        m_base->addItem(qs(p.name), qs(p.id));
    }
    m_base->setCurrentIndex(std::max(0, m_base->findData(suggested.baseId)));
    m_base->setAccessibleName(tr("Base profile"));
    m_id->setText(suggested.id);
    m_id->setAccessibleName(tr("Profile id"));
    m_name->setText(suggested.name);
    m_name->setAccessibleName(tr("Profile name"));

    // What the run measured: these figures replace the base's (measured_profile()).
    const MeasuredRoofline measured = measured_roofline(run, nullptr);
    QStringList figures;
    for (const MeasuredPeak& p : measured.peaks) {
        figures << tr("%1 peak %2").arg(qs(to_string(p.type)), formatFlopsPerSecond(p.flops_per_s));
    }
    if (measured.bandwidth) {
        figures << tr("memory bandwidth %1 (%2)")
                       .arg(formatBytesPerSecond(measured.bandwidth->bytes_per_s),
                            qs(measured.bandwidth->test));
    }
    if (const std::size_t gemms = measured_gemms(run).size(); gemms > 0) {
        figures << tr("the times of %n GEMM shape(s)", nullptr, static_cast<int>(gemms));
    }
    auto* explain = new QLabel(
        figures.isEmpty()
            ? tr("Run %1 measured no validated matmul, memory bandwidth or GEMM shape, so a "
                 "profile cannot be made from it.")
                  .arg(probeRunTitle(run))
            : tr("From run %1: %2. These replace the base profile's figures; everything else "
                 "(memory size, power, interconnect, the other dtypes) comes from the base.")
                  .arg(probeRunTitle(run), figures.join(QStringLiteral(", "))),
        this);
    explain->setWordWrap(true);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->setObjectName(QStringLiteral("measuredProfileError"));
    m_error->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("Base profile:"), m_base);
    form->addRow(tr("Id:"), m_id);
    form->addRow(tr("Name:"), m_name);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Make profile"));
    m_ok->setEnabled(!figures.isEmpty());
    connect(buttons, &QDialogButtonBox::accepted, this, &MeasuredProfileDialog::submit);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explain);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(520, sizeHint().height());
}

MeasuredProfileChoice MeasuredProfileDialog::choice() const {
    return {m_base->currentData().toString(), m_id->text().trimmed(), m_name->text().trimmed()};
}

void MeasuredProfileDialog::submit() {
    const QString error = m_apply ? m_apply(choice()) : QString();
    if (!error.isEmpty()) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    accept();
}

}  // namespace tally::ui
