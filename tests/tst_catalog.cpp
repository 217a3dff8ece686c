// The shipped hardware catalog (resources/hardware/catalog.json): every entry well-formed and
// cited, dense peaks consistent with what the datasheets printed, and each ridge recomputed here
// from the entry's own fields.
#include <QRegularExpression>
#include <QtTest>
#include <cmath>
#include <set>

#include "planner/hardware/hardware.h"
#include "planner/roofline/roofline.h"

using namespace tally;

class TestCatalog : public QObject {
    Q_OBJECT

private slots:
    void atLeastTwentyUniqueIds();
    void readmeCountsTheCatalog();
    void requiredIdsAndFamilies();
    void wellFormed_data();
    void wellFormed();
    void everyFigureHasASource_data();
    void everyFigureHasASource();
    void ridgeRecomputed_data();
    void ridgeRecomputed();
    void denseWithinPrinted_data();
    void denseWithinPrinted();
    void sanityBounds_data();
    void sanityBounds();
    void citedFigures();
};

namespace {

void add_rows() {
    QTest::addColumn<QString>("id");
    for (const HardwareProfile& p : builtin_hardware()) {
        QTest::newRow(p.id.c_str()) << QString::fromStdString(p.id);
    }
}

const HardwareProfile& profile(const QString& id) {
    const HardwareProfile* p = find_builtin_hardware(id.toStdString());
    if (p == nullptr) {
        throw std::runtime_error("missing " + id.toStdString());
    }
    return *p;
}

bool has_figure_source(const HardwareProfile& p, const std::string& field) {
    for (const auto& [name, indices] : p.figure_sources) {
        if (name == field) {
            if (indices.empty()) {
                return false;
            }
            for (std::size_t i : indices) {
                if (i >= p.sources.size()) {
                    return false;
                }
            }
            return true;
        }
    }
    return false;
}

}  // namespace

void TestCatalog::atLeastTwentyUniqueIds() {
    const auto& all = builtin_hardware();
    QVERIFY2(all.size() >= 20, qPrintable(QString::number(all.size())));
    std::set<std::string> ids;
    for (const HardwareProfile& p : all) {
        QVERIFY2(ids.insert(p.id).second, p.id.c_str());
        // Short readable ids: lowercase letters, digits and dashes, at most 20 characters.
        QVERIFY2(QRegularExpression(QStringLiteral("^[a-z0-9][a-z0-9-]{1,19}$"))
                     .match(QString::fromStdString(p.id))
                     .hasMatch(),
                 p.id.c_str());
    }
}

void TestCatalog::requiredIdsAndFamilies() {
    // Ids other code and specs rely on, and the families the catalog must cover.
    for (const char* id :
         {"h100-sxm", "h200", "a100-80gb", "b200", "b300", "v100-sxm2-32gb", "rtx-4090", "mi250x",
          "mi300x", "mi355x", "tpu-v4", "tpu-v6e", "gaudi2", "gaudi3"}) {
        QVERIFY2(find_builtin_hardware(id) != nullptr, id);
    }
    std::set<std::string> vendors;
    for (const HardwareProfile& p : builtin_hardware()) {
        vendors.insert(p.vendor);
    }
    QCOMPARE(vendors, (std::set<std::string>{"AMD", "Google", "Intel", "NVIDIA"}));
}

void TestCatalog::wellFormed_data() {
    add_rows();
}

void TestCatalog::wellFormed() {
    QFETCH(QString, id);
    const HardwareProfile& p = profile(id);
    QVERIFY(!p.name.empty());
    QVERIFY(!p.vendor.empty());
    QVERIFY(!p.memory_type.empty());
    QVERIFY(!p.form_factor.empty());
    QVERIFY(!p.datasheet_printed.empty());
    QVERIFY(!p.verification.empty());
    QVERIFY(!p.interconnect_name.empty());
    QCOMPARE(p.kind, ProfileKind::builtin);
    QVERIFY(!p.sources.empty());
    for (const std::string& s : p.sources) {
        QVERIFY(s.size() > 20);
    }
    for (const MeasuredFigure& m : p.measured) {
        QVERIFY(!m.metric.empty());
        QVERIFY(m.value > 0);
        QVERIFY(!m.source.empty());
    }
    bool any = false;
    for (ComputeType t : kAllComputeTypes) {
        any = any || p.supports(t);
    }
    QVERIFY(any);
}

void TestCatalog::everyFigureHasASource_data() {
    add_rows();
}

void TestCatalog::everyFigureHasASource() {
    QFETCH(QString, id);
    const HardwareProfile& p = profile(id);
    QVERIFY(has_figure_source(p, "memory_bytes"));
    QVERIFY(has_figure_source(p, "bandwidth_bytes_per_s"));
    for (ComputeType t : kAllComputeTypes) {
        if (p.supports(t)) {
            const std::string field = "peak_flops_per_s." + std::string(to_string(t));
            QVERIFY2(has_figure_source(p, field), field.c_str());
        }
    }
    if (p.tdp_w > 0) {
        QVERIFY(has_figure_source(p, "tdp_w"));
    }
    if (p.interconnect_bytes_per_s > 0) {
        QVERIFY(has_figure_source(p, "interconnect"));
    }
}

void TestCatalog::ridgeRecomputed_data() {
    add_rows();
}

void TestCatalog::ridgeRecomputed() {
    // The ridge of each dtype, computed here from the entry's own peak and bandwidth
    // (ridge = peak / bandwidth, Williams et al. 2009), matches what the planner reports, and
    // the 16-bit ridge lies where datacenter parts sit (tens to hundreds of FLOP/byte).
    QFETCH(QString, id);
    const HardwareProfile& p = profile(id);
    for (ComputeType t : kAllComputeTypes) {
        const auto roof = roof_for(p, t);
        QCOMPARE(bool(roof), p.supports(t));
        if (!roof) {
            continue;
        }
        const double ridge =
            p.peak_flops_per_s[static_cast<std::size_t>(t)] / p.bandwidth_bytes_per_s;
        QCOMPARE(roof->ridge_flops_per_byte(), ridge);
        QCOMPARE(p.ridge_flops_per_byte(t), ridge);
    }
    const ComputeType half = p.supports(ComputeType::bf16) ? ComputeType::bf16 : ComputeType::fp16;
    QVERIFY(p.supports(half));
    const double ridge16 = p.peak(half) / p.bandwidth_bytes_per_s;
    QVERIFY2(ridge16 > 50 && ridge16 < 1000, qPrintable(QString::number(ridge16)));
}

void TestCatalog::denseWithinPrinted_data() {
    add_rows();
}

void TestCatalog::denseWithinPrinted() {
    // Datasheets print tensor peaks with 2:4 sparsity (2x dense) or dense; the catalog ships
    // dense, so dense <= printed and dense >= printed / 2. Tolerances: 1% above for vendors that
    // round (AMD prints "2.5 PF" for 2516.6 TF), 2% below for parts whose printed dense figure
    // sits under printed/2 (L40S: 362.05 dense vs 733 sparse).
    QFETCH(QString, id);
    const HardwareProfile& p = profile(id);
    int printed_count = 0;
    for (ComputeType t : kAllComputeTypes) {
        const double printed = p.printed_flops_per_s[static_cast<std::size_t>(t)];
        if (printed <= 0.0) {
            continue;
        }
        ++printed_count;
        QVERIFY2(p.supports(t), to_string(t).data());
        const double dense = p.peak(t);
        QVERIFY2(dense <= printed * 1.01, to_string(t).data());
        QVERIFY2(dense >= printed / 2.0 * 0.98, to_string(t).data());
    }
    QVERIFY(printed_count > 0);
}

void TestCatalog::sanityBounds_data() {
    add_rows();
}

void TestCatalog::sanityBounds() {
    QFETCH(QString, id);
    const HardwareProfile& p = profile(id);
    QVERIFY(p.memory_bytes >= 8e9 && p.memory_bytes <= 400e9);
    QVERIFY(p.bandwidth_bytes_per_s >= 1e11 && p.bandwidth_bytes_per_s <= 2e13);
    if (p.tdp_w > 0) {
        QVERIFY(p.tdp_w >= 50 && p.tdp_w <= 2000);
    }
    for (ComputeType t : kAllComputeTypes) {
        if (p.supports(t)) {
            QVERIFY(p.peak(t) >= 1e11 && p.peak(t) <= 3e16);
        }
    }
    auto le = [&](ComputeType a, ComputeType b) {
        return !p.supports(a) || !p.supports(b) || p.peak(a) <= p.peak(b);
    };
    // Narrower formats are never slower: fp64 <= fp32 <= tf32 <= bf16 <= fp8 <= fp4.
    QVERIFY(le(ComputeType::fp64, ComputeType::fp32));
    QVERIFY(le(ComputeType::fp32, ComputeType::tf32));
    QVERIFY(le(ComputeType::tf32, ComputeType::bf16));
    QVERIFY(le(ComputeType::fp32, ComputeType::fp16));
    QVERIFY(le(ComputeType::bf16, ComputeType::fp8));
    QVERIFY(le(ComputeType::fp8, ComputeType::fp4));
    if (p.interconnect_bytes_per_s > 0) {
        QVERIFY(p.interconnect_bytes_per_s >= 1e10 && p.interconnect_bytes_per_s <= 2e12);
    }
}

void TestCatalog::citedFigures() {
    // A few figures against their datasheets (halved where printed with sparsity):
    // H100 SXM: BF16 1,979* -> 989.5e12, 3.35 TB/s (CS336 lecture 2 uses the same).
    QCOMPARE(find_builtin_hardware("h100-sxm")->peak(ComputeType::bf16), 1979e12 / 2);
    // A100 80GB SXM: 2,039 GB/s; BF16 312 | 624*.
    QCOMPARE(find_builtin_hardware("a100-80gb")->bandwidth_bytes_per_s, 2039e9);
    QCOMPARE(find_builtin_hardware("a100-80gb")->peak(ComputeType::bf16), 312e12);
    // H100 PCIe: BF16 1,513* -> 756.5e12; FP64 26.
    QCOMPARE(find_builtin_hardware("h100-pcie")->peak(ComputeType::bf16), 1513e12 / 2);
    QCOMPARE(find_builtin_hardware("h100-pcie")->peak(ComputeType::fp64), 26e12);
    // MI300X (AMD, dense printed): 1307.4 TFLOPS BF16, 5.3 TB/s, 192 GB.
    QCOMPARE(find_builtin_hardware("mi300x")->peak(ComputeType::bf16), 1307.4e12);
    QCOMPARE(find_builtin_hardware("mi300x")->memory_bytes, 192e9);
    // TPU v5p (Google docs): 459 TFLOPs bf16, 2765 GBps; no fp8 figure published.
    QCOMPARE(find_builtin_hardware("tpu-v5p")->peak(ComputeType::bf16), 459e12);
    QCOMPARE(find_builtin_hardware("tpu-v5p")->bandwidth_bytes_per_s, 2765e9);
    QVERIFY(!find_builtin_hardware("tpu-v5p")->supports(ComputeType::fp8));
    // TPU v4: 32 GiB of HBM.
    QCOMPARE(find_builtin_hardware("tpu-v4")->memory_bytes, 32.0 * 1024 * 1024 * 1024);
    // Gaudi 3 (Hot Chips 2024): 1835 TFLOPs BF16 matrix, 3.67 TB/s.
    QCOMPARE(find_builtin_hardware("gaudi3")->peak(ComputeType::bf16), 1835e12);
    QCOMPARE(find_builtin_hardware("gaudi3")->bandwidth_bytes_per_s, 3.67e12);
    // B200 (HGX, per GPU = board / 8): FP4 72 PF dense / 8 = 9 PF.
    QCOMPARE(find_builtin_hardware("b200")->peak(ComputeType::fp4), 9e15);
}

// The README's command summary says how many accelerators the catalog holds: the same number
// as the catalog, so adding a part cannot leave it stale.
void TestCatalog::readmeCountsTheCatalog() {
    QFile readme(QStringLiteral(TALLY_SOURCE_DIR "/README.md"));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("hardware catalog \\((\\d+) accelerators"))
            .match(QString::fromUtf8(readme.readAll()));
    QVERIFY(m.hasMatch());
    QCOMPARE(m.captured(1).toULongLong(), static_cast<qulonglong>(builtin_hardware().size()));
}

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
