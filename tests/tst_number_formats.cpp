// Number formats against their definitions: IEEE 754-2019 (binary32/16), bfloat16, TF32,
// OCP 8-bit Floating Point (OFP8) rev. 1.0 (E4M3, E5M2), OCP Microscaling (MX) v1.0 (E2M1, MXFP4)
// and NVIDIA NVFP4. Every expected value is worked out by hand from the bit layout.
#include <QtTest>
#include <cmath>
#include <limits>
#include <set>

#include "planner/core/dtype.h"
#include "planner/roofline/number_formats.h"

using namespace tally;

Q_DECLARE_METATYPE(tally::NumberFormat)
Q_DECLARE_METATYPE(tally::ConversionStatus)

class TestNumberFormats : public QObject {
    Q_OBJECT

private slots:
    void layout_data();
    void layout();
    void blockFormats();
    void namesRoundTrip();
    void conversion_data();
    void conversion();
    void fp4ValueSet();
    void fp32MatchesHardwareCast_data();
    void fp32MatchesHardwareCast();
    void nanAndInfinity();
    void blockConversion_data();
    void blockConversion();
};

void TestNumberFormats::layout_data() {
    QTest::addColumn<NumberFormat>("format");
    QTest::addColumn<int>("exponent_bits");
    QTest::addColumn<int>("mantissa_bits");
    QTest::addColumn<double>("bits");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("min_normal");
    QTest::addColumn<double>("min_subnormal");
    QTest::addColumn<double>("epsilon");

    // binary32: bias 127, emax = 254 - 127 = 127, max = (2 - 2^-23) * 2^127
    // = 3.4028234663852886e38; min normal 2^(1-127) = 2^-126; min subnormal 2^-126 * 2^-23 =
    // 2^-149.
    QTest::newRow("fp32") << NumberFormat::fp32 << 8 << 23 << 32.0 << 3.4028234663852886e38
                          << std::ldexp(1.0, -126) << std::ldexp(1.0, -149) << std::ldexp(1.0, -23);
    // TF32: fp32's exponent, 10 mantissa bits: max (2 - 2^-10) * 2^127; subnormal 2^(-126-10).
    QTest::newRow("tf32") << NumberFormat::tf32 << 8 << 10 << 19.0
                          << (2.0 - std::ldexp(1.0, -10)) * std::ldexp(1.0, 127)
                          << std::ldexp(1.0, -126) << std::ldexp(1.0, -136) << std::ldexp(1.0, -10);
    // binary16: bias 15, emax 15: (2 - 2^-10) * 2^15 = 65504; 2^-14 = 6.103515625e-5;
    // 2^-24 = 5.9604644775390625e-8; epsilon 2^-10 = 0.0009765625.
    QTest::newRow("fp16") << NumberFormat::fp16 << 5 << 10 << 16.0 << 65504.0 << 6.103515625e-5
                          << 5.9604644775390625e-8 << 0.0009765625;
    // bfloat16: (2 - 2^-7) * 2^127 = 3.3895313892515355e38; subnormal 2^(-126-7) = 2^-133.
    QTest::newRow("bf16") << NumberFormat::bf16 << 8 << 7 << 16.0 << 3.3895313892515355e38
                          << std::ldexp(1.0, -126) << std::ldexp(1.0, -133) << 0.0078125;
    // OFP8 E4M3: bias 7, the top exponent 15 is finite except S.1111.111 (NaN):
    // max = 1.110b * 2^(15-7) = 1.75 * 256 = 448; min normal 2^-6 = 0.015625;
    // min subnormal 0.001b * 2^-6 = 2^-9 = 0.001953125 (OFP8 Table 1).
    QTest::newRow("fp8_e4m3") << NumberFormat::fp8_e4m3 << 4 << 3 << 8.0 << 448.0 << 0.015625
                              << 0.001953125 << 0.125;
    // OFP8 E5M2: IEEE-like, bias 15: max 1.11b * 2^15 = 1.75 * 32768 = 57344; min normal 2^-14;
    // min subnormal 0.01b * 2^-14 = 2^-16 = 1.52587890625e-5 (OFP8 Table 1).
    QTest::newRow("fp8_e5m2") << NumberFormat::fp8_e5m2 << 5 << 2 << 8.0 << 57344.0
                              << 6.103515625e-5 << 1.52587890625e-5 << 0.25;
    // MX FP4 E2M1: bias 1, no specials: max 1.1b * 2^(3-1) = 6; min normal 2^0 = 1;
    // min subnormal 0.1b * 2^0 = 0.5 (OCP MX v1.0 Table 5).
    QTest::newRow("fp4_e2m1") << NumberFormat::fp4_e2m1 << 2 << 1 << 4.0 << 6.0 << 1.0 << 0.5
                              << 0.5;
    // NVFP4: E2M1 times a positive E4M3 scale: max 6 * 448 = 2688; 1 * 2^-9; 0.5 * 2^-9 = 2^-10.
    // 4 bits + 8 bits / 16 values = 4.5 bits per value.
    QTest::newRow("nvfp4") << NumberFormat::nvfp4 << 2 << 1 << 4.5 << 2688.0 << std::ldexp(1.0, -9)
                           << std::ldexp(1.0, -10) << 0.5;
    // MXFP4: E2M1 times an E8M0 scale in [2^-127, 2^127]: max 6 * 2^127; 1 * 2^-127; 2^-128.
    // 4 bits + 8 bits / 32 values = 4.25 bits per value.
    QTest::newRow("mxfp4") << NumberFormat::mxfp4 << 2 << 1 << 4.25 << 6.0 * std::ldexp(1.0, 127)
                           << std::ldexp(1.0, -127) << std::ldexp(1.0, -128) << 0.5;
}

void TestNumberFormats::layout() {
    QFETCH(NumberFormat, format);
    QFETCH(int, exponent_bits);
    QFETCH(int, mantissa_bits);
    QFETCH(double, bits);
    QFETCH(double, max);
    QFETCH(double, min_normal);
    QFETCH(double, min_subnormal);
    QFETCH(double, epsilon);
    const FormatInfo& f = format_info(format);
    QCOMPARE(f.sign_bits, 1);
    QCOMPARE(f.exponent_bits, exponent_bits);
    QCOMPARE(f.mantissa_bits, mantissa_bits);
    QCOMPARE(f.bits_per_value, bits);
    QCOMPARE(f.max, max);
    QCOMPARE(f.min_normal, min_normal);
    QCOMPARE(f.min_subnormal, min_subnormal);
    QCOMPARE(f.epsilon, epsilon);
}

void TestNumberFormats::blockFormats() {
    QCOMPARE(format_info(NumberFormat::nvfp4).block_size, 16);
    QCOMPARE(format_info(NumberFormat::nvfp4).scale_format, std::string_view("E4M3"));
    QCOMPARE(format_info(NumberFormat::mxfp4).block_size, 32);
    QCOMPARE(format_info(NumberFormat::mxfp4).scale_format, std::string_view("E8M0"));
    QCOMPARE(format_info(NumberFormat::fp16).block_size, 0);
    // The storage cost the planner uses agrees: 4.5 / 8 and 4.25 / 8 bytes per value.
    QCOMPARE(bytes_per_value(DType::nvfp4) * 8.0, format_info(NumberFormat::nvfp4).bits_per_value);
    QCOMPARE(bytes_per_value(DType::mxfp4) * 8.0, format_info(NumberFormat::mxfp4).bits_per_value);
    // TF32 is 19 bits of information in a 32-bit container.
    QCOMPARE(format_info(NumberFormat::tf32).storage_bits_per_value, 32.0);
    // Overflow rules: IEEE-like formats go to infinity, E4M3 and the FP4 family saturate.
    QCOMPARE(format_info(NumberFormat::fp8_e5m2).overflow, OverflowRule::to_infinity);
    QCOMPARE(format_info(NumberFormat::fp8_e4m3).overflow, OverflowRule::saturate);
    QVERIFY(!format_info(NumberFormat::fp8_e4m3).has_infinity);
    QVERIFY(format_info(NumberFormat::fp8_e4m3).has_nan);
    QVERIFY(!format_info(NumberFormat::fp4_e2m1).has_nan);
}

void TestNumberFormats::namesRoundTrip() {
    const char* names[] = {"fp32",     "tf32",     "fp16",  "bf16", "fp8_e4m3",
                           "fp8_e5m2", "fp4_e2m1", "nvfp4", "mxfp4"};
    std::size_t i = 0;
    for (NumberFormat f : kAllNumberFormats) {
        QCOMPARE(to_string(f), std::string_view(names[i]));
        QCOMPARE(parse_number_format(names[i]), std::optional<NumberFormat>(f));
        ++i;
    }
    QVERIFY(!parse_number_format("fp12"));
}

void TestNumberFormats::conversion_data() {
    QTest::addColumn<NumberFormat>("format");
    QTest::addColumn<double>("input");
    QTest::addColumn<double>("expected");
    QTest::addColumn<ConversionStatus>("status");
    const double inf = std::numeric_limits<double>::infinity();

    // CS336 lecture 2: torch.tensor([1e-8], dtype=torch.float16) is 0. fp16's smallest subnormal
    // is 2^-24 = 5.96e-8; half of it, 2.98e-8, is already above 1e-8, so it rounds to 0.
    QTest::newRow("fp16 1e-8 underflows")
        << NumberFormat::fp16 << 1e-8 << 0.0 << ConversionStatus::underflow_zero;
    // bf16 keeps it: 1e-8 = 1.34217728 * 2^-27; 7 mantissa bits: 1.34217728 * 128 = 171.8 -> 172;
    // 172/128 * 2^-27 = 172 * 2^-34 = 1.0011717677116394e-8.
    QTest::newRow("bf16 1e-8 kept")
        << NumberFormat::bf16 << 1e-8 << std::ldexp(172.0, -34) << ConversionStatus::rounded;
    QTest::newRow("fp16 max exact")
        << NumberFormat::fp16 << 65504.0 << 65504.0 << ConversionStatus::exact;
    // ulp at 2^15 is 2^(15-10) = 32: 65519 < 65504 + 16, so it rounds down to max.
    QTest::newRow("fp16 below max+ulp/2")
        << NumberFormat::fp16 << 65519.0 << 65504.0 << ConversionStatus::rounded;
    // 65520 = 65504 + 16 is a tie between 65504 (mantissa 1023, odd) and 65536 (even): up,
    // beyond max: +inf (IEEE 754 sec. 4.3.1).
    QTest::newRow("fp16 max+ulp/2 to inf")
        << NumberFormat::fp16 << 65520.0 << inf << ConversionStatus::overflow_infinity;
    QTest::newRow("fp16 -1e6 to -inf")
        << NumberFormat::fp16 << -1e6 << -inf << ConversionStatus::overflow_infinity;
    // 1/3 = 1.0101...b * 2^-2; 10 bits: 0.3333 * 1024 = 341.3 -> 341: 1365/4096.
    QTest::newRow("fp16 one third")
        << NumberFormat::fp16 << 1.0 / 3.0 << 1365.0 / 4096.0 << ConversionStatus::rounded;
    // Ties to even: 1 + 2^-11 lies halfway between 1 (even) and 1 + 2^-10 (odd): 1.
    QTest::newRow("fp16 tie to even down")
        << NumberFormat::fp16 << 1.0 + std::ldexp(1.0, -11) << 1.0 << ConversionStatus::rounded;
    // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even): up.
    QTest::newRow("fp16 tie to even up") << NumberFormat::fp16 << 1.0 + 3.0 * std::ldexp(1.0, -11)
                                         << 1.0 + std::ldexp(1.0, -9) << ConversionStatus::rounded;
    QTest::newRow("fp16 min subnormal") << NumberFormat::fp16 << std::ldexp(1.0, -24)
                                        << std::ldexp(1.0, -24) << ConversionStatus::exact;
    // 2^-25 is halfway between 0 (even) and 2^-24: 0. 1.5 * 2^-25 is past halfway: 2^-24.
    QTest::newRow("fp16 half min subnormal")
        << NumberFormat::fp16 << std::ldexp(1.0, -25) << 0.0 << ConversionStatus::underflow_zero;
    QTest::newRow("fp16 past half min subnormal")
        << NumberFormat::fp16 << 1.5 * std::ldexp(1.0, -25) << std::ldexp(1.0, -24)
        << ConversionStatus::rounded;
    // fp32: (2 - 2^-23) * 2^127 + half an ulp (2^103) rounds to inf; 3.5e38 is beyond it.
    QTest::newRow("fp32 overflow")
        << NumberFormat::fp32 << 3.5e38 << inf << ConversionStatus::overflow_infinity;
    QTest::newRow("tf32 tie to even")
        << NumberFormat::tf32 << 1.0 + std::ldexp(1.0, -11) << 1.0 << ConversionStatus::rounded;
    QTest::newRow("tf32 exact") << NumberFormat::tf32 << 1.0 + std::ldexp(1.0, -10)
                                << 1.0 + std::ldexp(1.0, -10) << ConversionStatus::exact;
    QTest::newRow("e4m3 max") << NumberFormat::fp8_e4m3 << 448.0 << 448.0
                              << ConversionStatus::exact;
    // ulp at 2^8 is 2^(8-3) = 32: 464 is a tie between 448 (1.110b, even) and 480 (odd): 448.
    QTest::newRow("e4m3 tie below max")
        << NumberFormat::fp8_e4m3 << 464.0 << 448.0 << ConversionStatus::rounded;
    // 500 rounds to 480 > 448: E4M3 has no infinity; saturating conversion gives 448.
    QTest::newRow("e4m3 saturates")
        << NumberFormat::fp8_e4m3 << 500.0 << 448.0 << ConversionStatus::saturated;
    QTest::newRow("e4m3 -1e9 saturates")
        << NumberFormat::fp8_e4m3 << -1e9 << -448.0 << ConversionStatus::saturated;
    // 2^-10 is halfway between 0 and the smallest subnormal 2^-9: 0.
    QTest::newRow("e4m3 underflow") << NumberFormat::fp8_e4m3 << std::ldexp(1.0, -10) << 0.0
                                    << ConversionStatus::underflow_zero;
    // 0.3 = 1.2 * 2^-2; 3 bits: 0.2 * 8 = 1.6 -> 2: 1.25 * 0.25 = 0.3125.
    QTest::newRow("e4m3 0.3") << NumberFormat::fp8_e4m3 << 0.3 << 0.3125
                              << ConversionStatus::rounded;
    QTest::newRow("e5m2 max") << NumberFormat::fp8_e5m2 << 57344.0 << 57344.0
                              << ConversionStatus::exact;
    // ulp at 2^15 is 2^13 = 8192: 60000 < 57344 + 4096 rounds to max; 61440 = max + 4096 ties
    // between 57344 (1.11b, odd) and 65536 (even): up, beyond max: inf.
    QTest::newRow("e5m2 below overflow")
        << NumberFormat::fp8_e5m2 << 60000.0 << 57344.0 << ConversionStatus::rounded;
    QTest::newRow("e5m2 overflow")
        << NumberFormat::fp8_e5m2 << 61440.0 << inf << ConversionStatus::overflow_infinity;
    // 1e-8 in fp8: far below E4M3's 2^-9 and E5M2's 2^-16.
    QTest::newRow("e5m2 1e-8") << NumberFormat::fp8_e5m2 << 1e-8 << 0.0
                               << ConversionStatus::underflow_zero;
    QTest::newRow("negative zero stays")
        << NumberFormat::bf16 << -0.0 << -0.0 << ConversionStatus::exact;
}

void TestNumberFormats::conversion() {
    QFETCH(NumberFormat, format);
    QFETCH(double, input);
    QFETCH(double, expected);
    QFETCH(ConversionStatus, status);
    const Conversion c = convert(input, format);
    QCOMPARE(c.value, expected);
    QCOMPARE(std::signbit(c.value), std::signbit(expected));
    QCOMPARE(c.status, status);
}

void TestNumberFormats::fp4ValueSet() {
    // Decode all 16 E2M1 encodings from the OCP MX v1.0 definition (bias 1; exponent 0 is
    // subnormal: 0.m * 2^0; otherwise 1.m * 2^(e-1)).
    std::set<double> magnitudes;
    for (int bits = 0; bits < 16; ++bits) {
        const int e = (bits >> 1) & 3;
        const int m = bits & 1;
        const double sign = (bits & 8) ? -1.0 : 1.0;
        const double v = sign * (e == 0 ? 0.5 * m : std::ldexp(1.0 + 0.5 * m, e - 1));
        magnitudes.insert(std::fabs(v));
        // Every encoding converts to itself.
        QCOMPARE(convert(v, NumberFormat::fp4_e2m1).value, v);
    }
    // CS336 lecture 2: "all the values between -6 and 6 fit on one line".
    QCOMPARE(magnitudes, (std::set<double>{0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0}));

    // Midpoints tie to the even mantissa: 0.25 -> 0, 0.75 -> 1, 1.25 -> 1, 1.75 -> 2,
    // 2.5 -> 2, 3.5 -> 4, 5 -> 4; 7 ties 6 (odd) and 8 (even, out of range): saturates at 6.
    const std::pair<double, double> ties[] = {{0.25, 0.0}, {0.75, 1.0}, {1.25, 1.0},
                                              {1.75, 2.0}, {2.5, 2.0},  {3.5, 4.0},
                                              {5.0, 4.0},  {7.0, 6.0},  {-2.5, -2.0}};
    for (const auto& [in, out] : ties) {
        QCOMPARE(convert(in, NumberFormat::fp4_e2m1).value, out);
    }
    QCOMPARE(convert(100.0, NumberFormat::fp4_e2m1).status, ConversionStatus::saturated);
}

void TestNumberFormats::fp32MatchesHardwareCast_data() {
    QTest::addColumn<double>("input");
    QTest::newRow("one tenth") << 0.1;
    QTest::newRow("one third") << 1.0 / 3.0;
    QTest::newRow("1e-8") << 1e-8;
    QTest::newRow("subnormal 1e-40") << 1e-40;
    QTest::newRow("below half min subnormal") << 1e-46;
    QTest::newRow("large") << 3.0e38;
    QTest::newRow("negative") << -123456.789;
}

void TestNumberFormats::fp32MatchesHardwareCast() {
    // The C++ conversion double -> float rounds to nearest even (IEEE 754 default): an
    // independent oracle for binary32 within its range.
    QFETCH(double, input);
    QCOMPARE(convert(input, NumberFormat::fp32).value,
             static_cast<double>(static_cast<float>(input)));
}

void TestNumberFormats::nanAndInfinity() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    for (NumberFormat f : kAllNumberFormats) {
        const Conversion c = convert(nan, f);
        QVERIFY(std::isnan(c.value));
        QCOMPARE(c.status, ConversionStatus::not_a_number);
    }
    QCOMPARE(convert(inf, NumberFormat::fp16).value, inf);
    QCOMPARE(convert(-inf, NumberFormat::bf16).value, -inf);
    // No infinity in E4M3 or E2M1: .satfinite gives +-max (PTX ISA, cvt).
    QCOMPARE(convert(inf, NumberFormat::fp8_e4m3).value, 448.0);
    QCOMPARE(convert(-inf, NumberFormat::fp4_e2m1).value, -6.0);
}

void TestNumberFormats::blockConversion_data() {
    QTest::addColumn<NumberFormat>("format");
    QTest::addColumn<double>("input");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("scale");
    QTest::addColumn<double>("element");
    QTest::addColumn<ConversionStatus>("status");

    // MXFP4 (OCP MX v1.0 sec. 6.3): X = 2^(floor(log2|x|) - 2).
    // x = 1: X = 2^-2, 1 / 0.25 = 4, exact.
    QTest::newRow("mxfp4 one") << NumberFormat::mxfp4 << 1.0 << 1.0 << 0.25 << 4.0
                               << ConversionStatus::exact;
    // x = 1e-8: floor(log2 1e-8) = -27 (2^-27 = 7.45e-9), X = 2^-29; 1e-8 / 2^-29 = 5.3687;
    // E2M1 spacing in [4, 8) is 2: 6. Value 6 * 2^-29 = 1.1175870895385742e-8.
    QTest::newRow("mxfp4 1e-8") << NumberFormat::mxfp4 << 1e-8 << 6.0 * std::ldexp(1.0, -29)
                                << std::ldexp(1.0, -29) << 6.0 << ConversionStatus::rounded;
    // x = 7: X = 2^0; 7 ties 6 (odd) and 8 (even): 8 is out of range, the element saturates: 6.
    QTest::newRow("mxfp4 seven clips")
        << NumberFormat::mxfp4 << 7.0 << 6.0 << 1.0 << 6.0 << ConversionStatus::saturated;
    QTest::newRow("mxfp4 zero") << NumberFormat::mxfp4 << 0.0 << 0.0 << std::ldexp(1.0, -127) << 0.0
                                << ConversionStatus::exact;
    // NVFP4: s = E4M3(|x| / 6). x = 1: 1/6 = 1.333 * 2^-3; 3 mantissa bits: 0.333 * 8 = 2.67 -> 3:
    // s = 1.375 * 2^-3 = 0.171875. 1 / 0.171875 = 5.818 -> 6 (spacing 2 in [4, 8)):
    // 6 * 0.171875 = 1.03125.
    QTest::newRow("nvfp4 one") << NumberFormat::nvfp4 << 1.0 << 1.03125 << 0.171875 << 6.0
                               << ConversionStatus::rounded;
    // x = 6: s = E4M3(1) = 1, element 6: exact. x = 2688 = 6 * 448: s = 448, element 6.
    QTest::newRow("nvfp4 six") << NumberFormat::nvfp4 << 6.0 << 6.0 << 1.0 << 6.0
                               << ConversionStatus::exact;
    QTest::newRow("nvfp4 max") << NumberFormat::nvfp4 << 2688.0 << 2688.0 << 448.0 << 6.0
                               << ConversionStatus::exact;
    // x = 1e4: s = E4M3(1666.7) saturates at 448; 1e4 / 448 = 22.3 saturates at 6: 2688.
    QTest::newRow("nvfp4 beyond max")
        << NumberFormat::nvfp4 << 1e4 << 2688.0 << 448.0 << 6.0 << ConversionStatus::saturated;
    // x = 1e-8: 1e-8 / 6 = 1.7e-9 is far below half of E4M3's smallest subnormal (2^-10): the
    // block scale is 0 and so is the value (the per-tensor scale is what rescues such tensors).
    QTest::newRow("nvfp4 1e-8") << NumberFormat::nvfp4 << 1e-8 << 0.0 << 0.0 << 0.0
                                << ConversionStatus::underflow_zero;
}

void TestNumberFormats::blockConversion() {
    QFETCH(NumberFormat, format);
    QFETCH(double, input);
    QFETCH(double, expected);
    QFETCH(double, scale);
    QFETCH(double, element);
    QFETCH(ConversionStatus, status);
    const Conversion c = convert(input, format);
    QCOMPARE(c.value, expected);
    QCOMPARE(c.scale, scale);
    QCOMPARE(c.element, element);
    QCOMPARE(c.status, status);
}

QTEST_GUILESS_MAIN(TestNumberFormats)
#include "tst_number_formats.moc"
