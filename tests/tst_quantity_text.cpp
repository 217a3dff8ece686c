// The Qt-free quantity text of the command line and the report (planner/core/quantity_text.h).
// Every expected string is worked out by hand from printf's %g and %f rules.
#include <QtTest>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "planner/core/quantity_text.h"

using namespace tally;

class TestQuantityText : public QObject {
    Q_OBJECT

private slots:
    void units();
    void fourDigits_data();
    void fourDigits();
    void gbGibColumns();
    void numberOrNull();
    void shortestText();
    void daysText();
};

void TestQuantityText::units() {
    QCOMPARE(to_gb(80e9), 80.0);
    QCOMPARE(to_gib(1073741824.0), 1.0);  // 2^30 bytes
    QCOMPARE(to_tera(989.5e12), 989.5);
}

void TestQuantityText::fourDigits_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("four digits kept") << 989.5 << QStringLiteral("989.5");
    QTest::newRow("rounded to four") << 1234.5678 << QStringLiteral("1235");
    // %g is fixed while the exponent is in [-4, 4): 1.23456e-4 -> 0.0001235.
    QTest::newRow("small fixed") << 0.000123456 << QStringLiteral("0.0001235");
    // Exponent 5 >= 4 digits: scientific, trailing zeros dropped.
    QTest::newRow("exponent 5") << 100000.0 << QStringLiteral("1e+05");
    QTest::newRow("seed tokens") << 15e12 << QStringLiteral("1.5e+13");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0");
    QTest::newRow("negative") << -2.5 << QStringLiteral("-2.5");
}

void TestQuantityText::fourDigits() {
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(four_digits(value)), text);
}

void TestQuantityText::gbGibColumns() {
    // An 80 GB H100: 80e9 / 1e9 = 80.00 GB; 80e9 / 2^30 = 74.5058... = 74.51 GiB; each number
    // right-aligned in 10 characters ("80.00" is 5, so 5 spaces before it).
    QCOMPARE(QString::fromStdString(gb_gib_columns(80e9)),
             QStringLiteral("     80.00 GB      74.51 GiB"));
    QCOMPARE(QString::fromStdString(gb_gib_columns(0.0)),
             QStringLiteral("      0.00 GB       0.00 GiB"));
    // 1.4e12 bytes = 1400.00 GB = 1303.85 GiB (1.4e12 / 1073741824 = 1303.852...).
    QCOMPARE(QString::fromStdString(gb_gib_columns(1.4e12)),
             QStringLiteral("   1400.00 GB    1303.85 GiB"));
}

void TestQuantityText::numberOrNull() {
    QVERIFY(number_or_null(std::nullopt).is_null());
    QVERIFY(number_or_null(std::numeric_limits<double>::infinity()).is_null());
    QVERIFY(number_or_null(std::nan("")).is_null());
    QCOMPARE(number_or_null(2.5).get<double>(), 2.5);
    // Zero is a value, not a missing one.
    QVERIFY(number_or_null(0.0).is_number());
    QCOMPARE(number_or_null(0.0).dump(), std::string("0.0"));
}

void TestQuantityText::shortestText() {
    // 0.4 and 0.1 + 0.2 are different doubles: each gets the fewest digits that read back as it.
    QCOMPARE(QString::fromStdString(shortest_text(0.4)), QStringLiteral("0.4"));
    QCOMPARE(QString::fromStdString(shortest_text(0.1 + 0.2)),
             QStringLiteral("0.30000000000000004"));
    QCOMPARE(QString::fromStdString(shortest_text(70e9)), QStringLiteral("70000000000"));
    QCOMPARE(QString::fromStdString(shortest_text(6.3e24)), QStringLiteral("6.3e+24"));
    for (double v : {0.4, 1.0 / 3.0, 989.5e12, 1e-300, 2.5}) {
        QCOMPARE(std::stod(shortest_text(v)), v);
    }
}

void TestQuantityText::daysText() {
    // 143.93 days (seed 003): two decimals.
    QCOMPARE(QString::fromStdString(days_text(143.9266)), QStringLiteral("143.93"));
    // The lecture's small network: 1.689e15 FLOPs / (989.5e12 x 0.5) = 3.414 s = 3.951e-5 days,
    // not "0.00".
    QCOMPARE(QString::fromStdString(days_text(3.414 / 86400.0)), QStringLiteral("3.95e-05"));
    QCOMPARE(QString::fromStdString(days_text(0.0)), QStringLiteral("0.00"));
    // 6369210740553590784 days (1e30 tokens): four digits, not "6369210740553590784.00".
    QCOMPARE(QString::fromStdString(days_text(6369210740553590784.0)), QStringLiteral("6.369e+18"));
}

QTEST_GUILESS_MAIN(TestQuantityText)
#include "tst_quantity_text.moc"
