// The hardware catalog as the planner loads it.
#include <QtTest>

#include "errors.h"
#include "hardware.h"

#include <nlohmann/json.hpp>

using namespace tally;

class TestHardware : public QObject {
    Q_OBJECT

private slots:
    void requiredIdsExist_data();
    void requiredIdsExist();
    void h100RidgeMatchesSeed();
    void malformedProfileNamesField();
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

QTEST_GUILESS_MAIN(TestHardware)
#include "tst_hardware.moc"
