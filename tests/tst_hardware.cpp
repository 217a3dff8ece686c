// The hardware catalog as the planner loads it.
#include <QtTest>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"

#include <nlohmann/json.hpp>

using namespace tally;

class TestHardware : public QObject {
    Q_OBJECT

private slots:
    void requiredIdsExist_data();
    void requiredIdsExist();
    void h100RidgeMatchesSeed();
    void malformedProfileNamesField();
    void figuresOutsideTheirPhysicalRange_data();
    void figuresOutsideTheirPhysicalRange();
    void boundsAreInclusive();
};

void TestHardware::requiredIdsExist_data() {
    QTest::addColumn<QString>("id");
    // The ids specs rely on: h100-sxm, h200, a100-80gb, b200.
    QTest::newRow("h100-sxm") << QStringLiteral("h100-sxm");
    QTest::newRow("h200") << QStringLiteral("h200");
    QTest::newRow("a100-80gb") << QStringLiteral("a100-80gb");
    QTest::newRow("b200") << QStringLiteral("b200");
}

void TestHardware::requiredIdsExist() {
    QFETCH(QString, id);
    const HardwareProfile* p = find_builtin_hardware(id.toStdString());
    QVERIFY(p != nullptr);
    QVERIFY(p->memory_bytes > 0);
    QVERIFY(p->bandwidth_bytes_per_s > 0);
    QVERIFY(p->supports(ComputeType::bf16));
    QVERIFY(!p->sources.empty());
}

void TestHardware::h100RidgeMatchesSeed() {
    // CS336 lecture 2: H100 accelerator intensity = (1979e12 / 2) / 3.35e12 = 295.4 FLOP/byte.
    const HardwareProfile* p = find_builtin_hardware("h100-sxm");
    QVERIFY(p != nullptr);
    QCOMPARE(p->peak(ComputeType::bf16), 1979e12 / 2);
    QVERIFY(std::abs(p->ridge_flops_per_byte(ComputeType::bf16) - 295.37) < 0.01);
}

void TestHardware::malformedProfileNamesField() {
    const auto j = nlohmann::json::parse(R"({"id":"x","name":"X","memory_bytes":-1,
        "bandwidth_bytes_per_s":1,"peak_flops_per_s":{"bf16":1}})");
    try {
        hardware_from_json(j, "profile");
        QFAIL("expected a SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("profile.memory_bytes"));
    }
}

namespace {

// A valid profile (an H100 SXM's figures) to break one figure of at a time.
nlohmann::json h100_like() {
    return nlohmann::json::parse(R"({"id": "x", "name": "X", "memory_bytes": 80e9,
        "bandwidth_bytes_per_s": 3.35e12, "peak_flops_per_s": {"bf16": 989.5e12}, "tdp_w": 700,
        "interconnect": {"name": "NVLink", "bandwidth_bytes_per_s_per_direction": 450e9}})");
}

}  // namespace

void TestHardware::figuresOutsideTheirPhysicalRange_data() {
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("range");  // the bounds the message must state
    // Accepted before: a peak of 1e-300 FLOP/s makes any training time infinite, 1e308 times
    // MFU times GPUs overflows, and a TDP of 1e308 W makes the energy infinite.
    QTest::newRow("bf16 peak 1e-300")
        << "/peak_flops_per_s/bf16" << 1e-300 << "profile.peak_flops_per_s.bf16"
        << "[1e6, 1e21] FLOP/s";
    QTest::newRow("bf16 peak 1e308")
        << "/peak_flops_per_s/bf16" << 1e308 << "profile.peak_flops_per_s.bf16"
        << "[1e6, 1e21] FLOP/s";
    QTest::newRow("tdp 1e308") << "/tdp_w" << 1e308 << "profile.tdp_w"
                               << "[0, 1e6] W";
    QTest::newRow("bandwidth 1 byte/s")
        << "/bandwidth_bytes_per_s" << 1.0 << "profile.bandwidth_bytes_per_s"
        << "[1e6, 1e16]";
    QTest::newRow("memory 1e300 bytes") << "/memory_bytes" << 1e300 << "profile.memory_bytes"
                                        << "[1e6, 1e16]";
    QTest::newRow("interconnect 1e20 bytes/s")
        << "/interconnect/bandwidth_bytes_per_s_per_direction" << 1e20
        << "profile.interconnect.bandwidth_bytes_per_s_per_direction"
        << "[0, 1e16]";
}

void TestHardware::figuresOutsideTheirPhysicalRange() {
    QFETCH(QString, pointer);
    QFETCH(double, value);
    QFETCH(QString, field);
    QFETCH(QString, range);
    nlohmann::json j = h100_like();
    j[nlohmann::json::json_pointer(pointer.toStdString())] = value;
    try {
        hardware_from_json(j, "profile");
        QFAIL("expected a SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
        QVERIFY2(QString::fromUtf8(e.what()).contains(range), e.what());
    }
}

void TestHardware::boundsAreInclusive() {
    nlohmann::json j = h100_like();
    j["peak_flops_per_s"]["bf16"] = 1e21;
    j["peak_flops_per_s"]["fp64"] = 1e6;
    j["tdp_w"] = 1e6;
    j["memory_bytes"] = 1e16;
    j["bandwidth_bytes_per_s"] = 1e6;
    const HardwareProfile p = hardware_from_json(j, "profile");
    QCOMPARE(p.peak(ComputeType::bf16), 1e21);
    QCOMPARE(p.peak(ComputeType::fp64), 1e6);
    QCOMPARE(p.tdp_w, 1e6);
    // Every built-in profile lies inside the bounds (the catalog is read through the same rules).
    QVERIFY(!builtin_hardware().empty());
}

QTEST_GUILESS_MAIN(TestHardware)
#include "tst_hardware.moc"
