// The text of numbers in the forms: exact entry boxes and what users type.
#include <QLocale>
#include <QtTest>
#include <cmath>

#include "ui/common/number_text.h"

using namespace tally::ui;

class TestNumberText : public QObject {
    Q_OBJECT

private slots:
    void formatExact_data();
    void formatExact();
    void parseNumber_data();
    void parseNumber();
    void outOfRangeIsNotNotANumber();
    void days();
    void durations_data();
    void durations();
    void formatExactReadsBack_data();
    void formatExactReadsBack();
    void gigabytes();
    void tableAndSummaryNumbers();
    void ratesWithPrefixes_data();
    void ratesWithPrefixes();
    void readableNumbersInTheLocale_data();
    void readableNumbersInTheLocale();
    void entryBoxesReadTheLocale();
    void cleanup();
};

void TestNumberText::cleanup() {
    // The tests run in the C locale (tests/CMakeLists.txt); a test that sets another puts it back.
    QLocale::setDefault(QLocale::c());
}

void TestNumberText::formatExact_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("seed parameters 70e9") << 70e9 << QStringLiteral("70B");
    QTest::newRow("seed tokens 15e12") << 15e12 << QStringLiteral("15T");
    QTest::newRow("1.5 million") << 1.5e6 << QStringLiteral("1.5M");
    QTest::newRow("small integer stays plain") << 4096.0 << QStringLiteral("4096");
    QTest::newRow("thousands stay plain") << 32000.0 << QStringLiteral("32000");
    QTest::newRow("fraction") << 0.5 << QStringLiteral("0.5");
    // 6738415616 = Llama 2 7B's count; no suffix form with 6 digits reads back exactly.
    QTest::newRow("exact big integer") << 6738415616.0 << QStringLiteral("6738415616");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0");
    // 1e30 / 1e15 = 1e15 would need its own exponent after the suffix ("1e+15P"): plain instead.
    QTest::newRow("beyond the suffixes") << 1e30 << QStringLiteral("1e+30");
}

void TestNumberText::formatExact() {
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(tally::ui::formatExact(value), text);
}

void TestNumberText::parseNumber_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("value");
    QTest::newRow("plain") << QStringLiteral("1024") << true << 1024.0;
    QTest::newRow("exponent") << QStringLiteral("70e9") << true << 70e9;
    QTest::newRow("suffix B") << QStringLiteral("70B") << true << 70e9;
    QTest::newRow("suffix G is billion") << QStringLiteral("70G") << true << 70e9;
    QTest::newRow("suffix T") << QStringLiteral("15T") << true << 15e12;
    QTest::newRow("suffix k") << QStringLiteral("32k") << true << 32e3;
    QTest::newRow("suffix M") << QStringLiteral("1.5M") << true << 1.5e6;
    QTest::newRow("spaces group digits") << QStringLiteral(" 15 000 ") << true << 15000.0;
    QTest::newRow("underscores group digits") << QStringLiteral("1_000_000") << true << 1e6;
    QTest::newRow("negative") << QStringLiteral("-1") << true << -1.0;
    QTest::newRow("lower-case m is ambiguous") << QStringLiteral("5m") << false << 0.0;
    QTest::newRow("unknown suffix") << QStringLiteral("5X") << false << 0.0;
    QTest::newRow("letters") << QStringLiteral("abc") << false << 0.0;
    QTest::newRow("empty") << QString() << false << 0.0;
    QTest::newRow("infinity") << QStringLiteral("inf") << false << 0.0;
    QTest::newRow("overflow") << QStringLiteral("1e308T") << false << 0.0;
    QTest::newRow("beyond a double") << QStringLiteral("1e400") << false << 0.0;
}

void TestNumberText::parseNumber() {
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(double, value);
    const auto parsed = tally::ui::parseNumber(text);
    QCOMPARE(parsed.has_value(), ok);
    if (ok) {
        QCOMPARE(*parsed, value);
    }
}

void TestNumberText::outOfRangeIsNotNotANumber() {
    bool outOfRange = false;
    // The largest double is about 1.7977e308: 1e400 is a number, only too large.
    QVERIFY(!tally::ui::parseNumber(QStringLiteral("1e400"), &outOfRange));
    QVERIFY(outOfRange);
    QVERIFY(!tally::ui::parseNumber(QStringLiteral("-2e308"), &outOfRange));
    QVERIFY(outOfRange);
    QVERIFY(!tally::ui::parseNumber(QStringLiteral("abc"), &outOfRange));
    QVERIFY(!outOfRange);
    QVERIFY(tally::ui::parseNumber(QStringLiteral("1e300"), &outOfRange));
    QVERIFY(!outOfRange);
}

void TestNumberText::days() {
    // 6 x 70e9 x 15e12 / (989.5e12 x 0.5 x 1024 x 86400) = 143.93 days (seed 003): one decimal.
    QCOMPARE(tally::ui::formatDays(143.93), QStringLiteral("143.9"));
    // A 3-second run: 3 / 86400 = 3.472e-05 days, not "0.0".
    QCOMPARE(tally::ui::formatDays(3.0 / 86400.0), QStringLiteral("3.47e-05"));
    QCOMPARE(tally::ui::formatDays(0.0), QStringLiteral("0.0"));
    QCOMPARE(tally::ui::formatDays(99999.94), QStringLiteral("99999.9"));
    // 6369210740553590784 days: four digits and an exponent, not 19 digits.
    QCOMPARE(tally::ui::formatDays(6369210740553590784.0), QStringLiteral("6.369e+18"));
}

void TestNumberText::durations_data() {
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("text");
    // The lecture's ReLU on 1e6 floats: 8e6 bytes / 3.35e12 B/s = 2.388e-6 s.
    QTest::newRow("microseconds") << 8e6 / 3.35e12 << QStringLiteral("2.388 µs");
    QTest::newRow("nanoseconds") << 2.5e-9 << QStringLiteral("2.5 ns");
    // 8.532e5 µs = 853.2 ms, the roofline table's case.
    QTest::newRow("milliseconds") << 0.8532 << QStringLiteral("853.2 ms");
    QTest::newRow("seconds") << 12.5 << QStringLiteral("12.5 s");
    QTest::newRow("minutes") << 852.0 << QStringLiteral("14.2 min");  // 852 / 60
    QTest::newRow("hours") << 11160.0 << QStringLiteral("3.1 h");     // 11160 / 3600
    // 143.93 days x 86400 s.
    QTest::newRow("days") << 143.93 * 86400 << QStringLiteral("143.9 days");
}

void TestNumberText::durations() {
    QFETCH(double, seconds);
    QFETCH(QString, text);
    QCOMPARE(tally::ui::formatDuration(seconds), text);
}

void TestNumberText::formatExactReadsBack_data() {
    QTest::addColumn<double>("value");
    QTest::newRow("70.8B") << 70.8e9;
    QTest::newRow("1/3") << 1.0 / 3.0;
    QTest::newRow("2^53") << 9007199254740992.0;
    QTest::newRow("6.3e24") << 6.3e24;
    QTest::newRow("mfu 0.47") << 0.47;
    QTest::newRow("1e30 tokens") << 1e30;
}

void TestNumberText::formatExactReadsBack() {
    QFETCH(double, value);
    const auto parsed = tally::ui::parseNumber(tally::ui::formatExact(value));
    QVERIFY(parsed.has_value());
    QCOMPARE(*parsed, value);
}

void TestNumberText::gigabytes() {
    // 80e9 bytes = 80.00 GB = 80e9 / 2^30 = 74.51 GiB (what nvidia-smi shows for an 80 GB H100).
    QCOMPARE(formatGB(80e9), QStringLiteral("80.00 GB"));
    QCOMPARE(formatGiB(80e9), QStringLiteral("74.51 GiB"));
    // 989.5e12 FLOP/s = H100 dense bf16 (1979e12 / 2).
    QCOMPARE(formatFlopsPerSecond(989.5e12), QStringLiteral("989.5 TFLOP/s"));
    // Bandwidth in GB/s = 10^9 bytes/s, as datasheets give it: H100 SXM 3.35 TB/s, V100 900 GB/s,
    // a CPU's 27.4e9 bytes/s; four significant digits (2.0394e12 bytes/s -> 2039 GB/s).
    QCOMPARE(formatGBPerSecond(3.35e12), QStringLiteral("3350 GB/s"));
    QCOMPARE(formatGBPerSecond(900e9), QStringLiteral("900 GB/s"));
    QCOMPARE(formatGBPerSecond(27.4e9), QStringLiteral("27.4 GB/s"));
    QCOMPARE(formatGBPerSecond(2.0394e12), QStringLiteral("2039 GB/s"));
}

void TestNumberText::tableAndSummaryNumbers() {
    // The memory table's columns: 1.5e9 bytes = 1.50 GB; 2^30 bytes = 1.00 GiB.
    QCOMPARE(gbNumber(1.5e9), QStringLiteral("1.50"));
    QCOMPARE(gibNumber(1073741824.0), QStringLiteral("1.00"));
    // The summary line: four significant digits below 1000 GB (123.456 GB -> 123.5, 0.1234 GB
    // stays 0.1234), whole GB from 1000 on (12345.6 GB -> 12346, not 1.235e+04).
    QCOMPARE(gbCompact(80e9), QStringLiteral("80"));
    QCOMPARE(gbCompact(123.456e9), QStringLiteral("123.5"));
    QCOMPARE(gbCompact(0.1234e9), QStringLiteral("0.1234"));
    QCOMPARE(gbCompact(12345.6e9), QStringLiteral("12346"));
    // 39,828,020 GB (a plan far past any GPU) in four digits and an exponent.
    QCOMPARE(gbCompact(39828020e9), QStringLiteral("3.983e+07"));
}

void TestNumberText::ratesWithPrefixes_data() {
    QTest::addColumn<double>("rate");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("text");
    // H100 SXM: 3.35 TB/s of HBM3; 3.35e12 / 1e12 = 3.35 with the T prefix.
    QTest::newRow("H100 bandwidth")
        << 3.35e12 << QStringLiteral("B/s") << QStringLiteral("3.35 TB/s");
    // 27.4e9 bytes/s of a CPU's DRAM: 27.4 with the G prefix.
    QTest::newRow("CPU bandwidth")
        << 27.4e9 << QStringLiteral("B/s") << QStringLiteral("27.4 GB/s");
    // 1.5e18 FLOP/s: 1.5 with the E prefix.
    QTest::newRow("exa") << 1.5e18 << QStringLiteral("FLOP/s") << QStringLiteral("1.5 EFLOP/s");
    // 2.5e6: 2.5 with M, the smallest prefix; below 1e6 no prefix (512 B/s).
    QTest::newRow("mega") << 2.5e6 << QStringLiteral("B/s") << QStringLiteral("2.5 MB/s");
    QTest::newRow("no prefix") << 512.0 << QStringLiteral("B/s") << QStringLiteral("512 B/s");
    // 123456e12 = 123.456e15: four significant digits, 123.5 with P.
    QTest::newRow("four digits") << 123456e12 << QStringLiteral("FLOP/s")
                                 << QStringLiteral("123.5 PFLOP/s");
}

void TestNumberText::ratesWithPrefixes() {
    QFETCH(double, rate);
    QFETCH(QString, unit);
    QFETCH(QString, text);
    QCOMPARE(formatPerSecond(rate, unit), text);
}

void TestNumberText::readableNumbersInTheLocale_data() {
    QTest::addColumn<QLocale>("locale");
    QTest::addColumn<QString>("gb");        // formatGB(1234.5e9)
    QTest::addColumn<QString>("duration");  // formatDuration(1.5)
    QTest::addColumn<QString>("percent");   // formatPercent(0.123)
    QTest::addColumn<QString>("peak");      // formatFlopsPerSecond(989.5e12)
    // 1234.5e9 bytes = 1234.50 GB (two decimals); 1.5 s; 0.123 = 12.3 %; 989.5e12 FLOP/s =
    // 989.5 TFLOP/s. Each locale's marks (CLDR): C groups nothing and writes "."; en_US and
    // zh_CN group thousands with "," and write "."; de_DE groups with "." and writes ",".
    QTest::newRow("C") << QLocale::c() << QStringLiteral("1234.50 GB") << QStringLiteral("1.5 s")
                       << QStringLiteral("12.3%") << QStringLiteral("989.5 TFLOP/s");
    // A LANG=C system's locale, which QLocale's data groups ("3,350") unlike QLocale::c().
    QTest::newRow("system C") << QLocale(QStringLiteral("C")) << QStringLiteral("1234.50 GB")
                              << QStringLiteral("1.5 s") << QStringLiteral("12.3%")
                              << QStringLiteral("989.5 TFLOP/s");
    QTest::newRow("zh_CN") << QLocale(QLocale::Chinese, QLocale::China)
                           << QStringLiteral("1,234.50 GB") << QStringLiteral("1.5 s")
                           << QStringLiteral("12.3%") << QStringLiteral("989.5 TFLOP/s");
    QTest::newRow("de_DE") << QLocale(QLocale::German, QLocale::Germany)
                           << QStringLiteral("1.234,50 GB") << QStringLiteral("1,5 s")
                           << QStringLiteral("12,3%") << QStringLiteral("989,5 TFLOP/s");
}

void TestNumberText::readableNumbersInTheLocale() {
    QFETCH(QLocale, locale);
    QFETCH(QString, gb);
    QFETCH(QString, duration);
    QFETCH(QString, percent);
    QFETCH(QString, peak);
    QLocale::setDefault(locale);
    QCOMPARE(formatGB(1234.5e9), gb);
    QCOMPARE(formatDuration(1.5), duration);
    QCOMPARE(formatPercent(0.123), percent);
    QCOMPARE(formatFlopsPerSecond(989.5e12), peak);
    // An exponent as the formulas beside the figure write it: 6.3e24 FLOPs is "6.300e+24" in
    // every locale (zh_CN's data writes a capital E).
    QCOMPARE(formatNumber(6.3e24, 'e', 3).right(4), QStringLiteral("e+24"));
    // What an entry box shows is the C form in every locale, so it reads back as written.
    QCOMPARE(tally::ui::formatExact(1234.5), QStringLiteral("1234.5"));
    QCOMPARE(tally::ui::parseNumber(tally::ui::formatExact(1234.5)), std::optional<double>(1234.5));
}

void TestNumberText::entryBoxesReadTheLocale() {
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    // de_DE: "," the decimal mark, "." the digit groups.
    QCOMPARE(tally::ui::parseNumber(QStringLiteral("0,5")), std::optional<double>(0.5));
    QCOMPARE(tally::ui::parseNumber(QStringLiteral("1.234,5")), std::optional<double>(1234.5));
    // 1,5 thousand with the K suffix: 1.5 x 1e3.
    QCOMPARE(tally::ui::parseNumber(QStringLiteral("1,5K")), std::optional<double>(1500.0));
    // Both readings exist: the C one wins, which is what tally::ui::formatExact() wrote.
    QCOMPARE(tally::ui::parseNumber(QStringLiteral("1.234")), std::optional<double>(1.234));
    QVERIFY(!tally::ui::parseNumber(QStringLiteral("1,2,3")));

    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(tally::ui::parseNumber(QStringLiteral("1,234.5")), std::optional<double>(1234.5));
    QCOMPARE(tally::ui::parseNumber(QStringLiteral("15,000,000")), std::optional<double>(15e6));

    // The C locale (the tests' and a bare system's) reads no grouping commas.
    QLocale::setDefault(QLocale::c());
    QVERIFY(!tally::ui::parseNumber(QStringLiteral("1,234.5")));
}

QTEST_GUILESS_MAIN(TestNumberText)
#include "tst_ui_number_text.moc"
