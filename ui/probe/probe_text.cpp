#include "ui/probe/probe_text.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>
#include <map>

#include "ui/common/number_text.h"

namespace tally::ui {

namespace {

// lupdate files the bare tr() calls of this file under "tally::ui" (the namespace they are in),
// so the lookup uses that context too.
QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("tally::ui", text, disambiguation, n);
}

const QString kDot = QStringLiteral(" · ");

// "a, b, c" of the parts that are not empty.
QString joinParts(const QStringList& parts, const QString& separator) {
    QStringList kept;
    for (const QString& p : parts) {
        if (!p.isEmpty()) {
            kept << p;
        }
    }
    return kept.join(separator);
}

// "of H100 SXM's dense bf16 peak (989.5 TFLOP/s)": the promised figure a fraction is of.
QString fractionLine(std::optional<double> fraction, const QString& ofWhat) {
    return fraction ? tr("%1 of %2").arg(formatPercent(*fraction), ofWhat) : QString();
}

}  // namespace

QString deviceDescription(const probe::DeviceEvent& d) {
    QStringList parts{qs(d.name)};
    if (d.cores || d.threads) {
        parts << joinParts({d.cores ? tr("%1 cores").arg(*d.cores) : QString(),
                            d.threads ? tr("%1 threads").arg(*d.threads) : QString()},
                           QStringLiteral(", "));
    }
    if (d.memory_bytes) {
        parts << formatGB(static_cast<double>(*d.memory_bytes));
    }
    if (d.compute_capability) {
        parts << tr("compute capability %1").arg(qs(*d.compute_capability));
    }
    if (d.sm_count) {
        parts << tr("%1 SMs").arg(*d.sm_count);
    }
    if (d.llc_bytes) {
        parts
            << tr("last-level cache %1 MB").arg(static_cast<double>(*d.llc_bytes) / 1e6, 0, 'g', 3);
    }
    if (d.simd) {
        parts << qs(*d.simd);
    }
    if (d.blas) {
        parts << qs(*d.blas);
    }
    if (d.driver_version) {
        parts << joinParts(
            {tr("driver %1").arg(qs(*d.driver_version)),
             d.runtime_version ? tr("runtime %1").arg(qs(*d.runtime_version)) : QString()},
            QStringLiteral(", "));
    }
    return joinParts(parts, kDot);
}

QString sizesText(const std::string& sizes_json) {
    const QJsonObject sizes =
        QJsonDocument::fromJson(QByteArray::fromStdString(sizes_json)).object();
    QStringList parts;
    for (auto it = sizes.begin(); it != sizes.end(); ++it) {
        parts << it.key() + u'=' + QString::number(it.value().toInteger());
    }
    return parts.isEmpty() ? QStringLiteral("-") : parts.join(u' ');
}

QString probeRunStatusText(ProbeRunStatus status) {
    switch (status) {
        case ProbeRunStatus::running:
            return tr("running");
        case ProbeRunStatus::ok:
            return tr("ok");
        case ProbeRunStatus::failed:
            break;
    }
    return tr("failed");
}

QString probeResultStatusText(ProbeResultStatus status) {
    switch (status) {
        case ProbeResultStatus::passed:
            return tr("passed");
        case ProbeResultStatus::waived:
            return tr("waived");
        case ProbeResultStatus::failed:
            break;
    }
    return tr("failed");
}

QString probeRunTitle(const ProbeRunRecord& run) {
    const QDateTime started = QDateTime::fromString(qs(run.started_at), Qt::ISODate);
    const std::optional<probe::DeviceEvent> device = stored_device(run);
    return joinParts(
        {run.id > 0 ? QStringLiteral("#%1").arg(run.id) : tr("not saved"),
         started.isValid() ? started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                           : qs(run.started_at),
         qs(run.backend), device ? qs(device->name) : QString(), probeRunStatusText(run.status),
         tr("%n result(s)", nullptr, static_cast<int>(run.results.size()))},
        kDot);
}

QString measuredPointLabel(const MeasuredPoint& point) {
    switch (point.kind) {
        case MeasuredPointKind::matmul:
            return tr("matmul %1").arg(qs(point.dtype));
        case MeasuredPointKind::sweep:
            return point.variant.empty() ? tr("sweep") : tr("sweep %1").arg(qs(point.variant));
        default:
            return qs(point.test);
    }
}

std::vector<std::size_t> labelledMeasuredPoints(const MeasuredRoofline& measured) {
    // The fastest point of each matmul dtype and of each sweep.
    std::map<std::string, std::size_t> fastest;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < measured.points.size(); ++i) {
        const MeasuredPoint& p = measured.points[i];
        if (p.kind != MeasuredPointKind::matmul && p.kind != MeasuredPointKind::sweep) {
            out.push_back(i);
            continue;
        }
        const std::string key = p.kind == MeasuredPointKind::matmul ? "matmul " + p.dtype : p.test;
        const auto it = fastest.find(key);
        if (it == fastest.end() || measured.points[it->second].flops_per_s < p.flops_per_s) {
            fastest[key] = i;
        }
    }
    for (const auto& [key, index] : fastest) {
        out.push_back(index);
    }
    std::sort(out.begin(), out.end());
    return out;
}

QString measuredPointTip(const MeasuredPoint& p, const HardwareProfile* promised) {
    QStringList lines;
    lines << tr("<b>Measured: %1</b> (%2)").arg(qs(p.test), qs(to_string(p.kind)));
    lines << joinParts({qs(p.dtype), sizesText(p.sizes_json)}, kDot);
    lines << tr("intensity %1 FLOP/byte").arg(p.intensity_flops_per_byte, 0, 'g', 4);
    lines << joinParts({formatFlopsPerSecond(p.flops_per_s),
                        p.bytes_per_s ? formatBytesPerSecond(*p.bytes_per_s) : QString()},
                       QStringLiteral(", "));
    if (promised != nullptr) {
        const QString name = qs(promised->name);
        const auto type = probe_compute_type(p.dtype);
        const QString dtype = type ? qs(to_string(*type)) : qs(p.dtype);
        lines << fractionLine(p.fractions.of_peak, tr("%1's dense %2 peak").arg(name, dtype));
        lines << fractionLine(p.fractions.of_bandwidth, tr("%1's memory bandwidth").arg(name));
        lines << fractionLine(p.fractions.of_roof,
                              tr("%1's %2 roof at this intensity").arg(name, dtype));
    }
    return joinParts(lines, QStringLiteral("<br>"));
}

QString measuredBandwidthTip(const MeasuredRoofline& measured, const HardwareProfile* promised) {
    if (!measured.bandwidth) {
        return {};
    }
    const MeasuredBandwidth& b = *measured.bandwidth;
    QStringList lines{tr("Measured memory bandwidth (%1): %2")
                          .arg(qs(b.test), formatBytesPerSecond(b.bytes_per_s))};
    if (promised != nullptr && b.fraction_of_bandwidth && b.promised_bytes_per_s) {
        lines << tr("%1 of %2's %3")
                     .arg(formatPercent(*b.fraction_of_bandwidth), qs(promised->name),
                          formatBytesPerSecond(*b.promised_bytes_per_s));
    }
    return lines.join(QStringLiteral("<br>"));
}

QString measuredRoofTip(const MeasuredRoofline& measured, ComputeType type,
                        const HardwareProfile* promised) {
    QStringList lines;
    for (const MeasuredPeak& p : measured.peaks) {
        if (p.type != type) {
            continue;
        }
        lines << tr("<b>Measured %1 roof</b>").arg(qs(to_string(type)));
        lines << tr("matmul peak %1 (%2, %3)")
                     .arg(formatFlopsPerSecond(p.flops_per_s), qs(p.dtype),
                          sizesText(p.sizes_json));
        if (promised != nullptr && p.fraction_of_peak && p.promised_flops_per_s) {
            lines << tr("%1 of %2's dense %3")
                         .arg(formatPercent(*p.fraction_of_peak), qs(promised->name),
                              formatFlopsPerSecond(*p.promised_flops_per_s));
        }
    }
    lines << measuredBandwidthTip(measured, promised);
    if (const std::optional<Roof> roof = measured.roof(type)) {
        QString ridge = tr("ridge %1 FLOP/byte").arg(roof->ridge_flops_per_byte(), 0, 'g', 4);
        if (promised != nullptr) {
            if (const std::optional<Roof> promisedRoof = roof_for(*promised, type)) {
                ridge += tr(" (promised %1)").arg(promisedRoof->ridge_flops_per_byte(), 0, 'g', 4);
            }
        }
        lines << ridge;
    }
    return joinParts(lines, QStringLiteral("<br>"));
}

}  // namespace tally::ui
