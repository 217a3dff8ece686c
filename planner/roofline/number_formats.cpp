#include "planner/roofline/number_formats.h"

#include <cmath>
#include <limits>

namespace tally {

namespace {

// How the largest exponent field is used.
enum class Specials {
    ieee,      // all-ones exponent = Inf/NaN (IEEE 754 sec. 3.4; OFP8 E5M2)
    nan_only,  // only S.1111.111 is NaN, the rest of the top binade is finite (OFP8 E4M3)
    none,      // every encoding is a finite number (OCP MX v1.0 sec. 5.3.3: FP4 E2M1)
};

struct Layout {
    int exponent_bits;
    int mantissa_bits;
    int bias;
    Specials specials;
};

// Largest finite value of a layout.
// IEEE: emax = 2^e - 2 - bias, max = (2 - 2^-m) * 2^emax   (fp16: (2 - 2^-10) * 2^15 = 65504)
// E4M3: emax = 2^e - 1 - bias, max = (2 - 2^(1-m)) * 2^emax (1.75 * 2^8 = 448; OFP8 Table 1)
// E2M1: emax = 2^e - 1 - bias, max = (2 - 2^-m) * 2^emax   (1.5 * 2^2 = 6; OCP MX Table 5)
double layout_max(const Layout& l) {
    const int top = (1 << l.exponent_bits) - 1;
    switch (l.specials) {
        case Specials::ieee:
            return (2.0 - std::ldexp(1.0, -l.mantissa_bits)) * std::ldexp(1.0, top - 1 - l.bias);
        case Specials::nan_only:
            return (2.0 - std::ldexp(1.0, 1 - l.mantissa_bits)) * std::ldexp(1.0, top - l.bias);
        case Specials::none:
            return (2.0 - std::ldexp(1.0, -l.mantissa_bits)) * std::ldexp(1.0, top - l.bias);
    }
    return 0.0;
}

constexpr Layout kFp32{8, 23, 127, Specials::ieee};
constexpr Layout kTf32{8, 10, 127, Specials::ieee};
constexpr Layout kFp16{5, 10, 15, Specials::ieee};
constexpr Layout kBf16{8, 7, 127, Specials::ieee};
constexpr Layout kE4m3{4, 3, 7, Specials::nan_only};
constexpr Layout kE5m2{5, 2, 15, Specials::ieee};
constexpr Layout kE2m1{2, 1, 1, Specials::none};
// E8M0, the MX scale: an unsigned power of two 2^(k - 127), k = 0..254; 0xFF is NaN
// (OCP MX v1.0 sec. 5.4.1).
constexpr int kE8m0Bias = 127;
constexpr int kE8m0MaxExponent = 254 - kE8m0Bias;  // 127
constexpr int kE8m0MinExponent = 0 - kE8m0Bias;    // -127

const Layout& layout_of(NumberFormat f) {
    switch (f) {
        case NumberFormat::fp32:
            return kFp32;
        case NumberFormat::tf32:
            return kTf32;
        case NumberFormat::fp16:
            return kFp16;
        case NumberFormat::bf16:
            return kBf16;
        case NumberFormat::fp8_e4m3:
            return kE4m3;
        case NumberFormat::fp8_e5m2:
            return kE5m2;
        case NumberFormat::fp4_e2m1:
        case NumberFormat::nvfp4:
        case NumberFormat::mxfp4:
            return kE2m1;
    }
    return kFp32;
}

FormatInfo element_info(NumberFormat f, std::string_view name, double bits, double storage_bits,
                        OverflowRule overflow, std::string_view spec) {
    const Layout& l = layout_of(f);
    FormatInfo info{};
    info.format = f;
    info.name = name;
    info.sign_bits = 1;
    info.exponent_bits = l.exponent_bits;
    info.mantissa_bits = l.mantissa_bits;
    info.exponent_bias = l.bias;
    info.bits_per_value = bits;
    info.storage_bits_per_value = storage_bits;
    info.max = layout_max(l);
    info.min_normal = std::ldexp(1.0, 1 - l.bias);                       // 2^(1 - bias)
    info.min_subnormal = std::ldexp(1.0, 1 - l.bias - l.mantissa_bits);  // 2^(1 - bias - m)
    info.epsilon = std::ldexp(1.0, -l.mantissa_bits);                    // 2^-m
    info.has_infinity = l.specials == Specials::ieee;
    info.has_nan = l.specials != Specials::none;
    info.overflow = overflow;
    info.spec = spec;
    return info;
}

std::array<FormatInfo, kAllNumberFormats.size()> build_table() {
    std::array<FormatInfo, kAllNumberFormats.size()> t{};
    t[0] = element_info(NumberFormat::fp32, "fp32", 32, 32, OverflowRule::to_infinity,
                        "IEEE 754-2019 binary32");
    t[1] = element_info(NumberFormat::tf32, "tf32", 19, 32, OverflowRule::to_infinity,
                        "NVIDIA TensorFloat-32 (A100 whitepaper, 2020): fp32's 8-bit exponent, "
                        "fp16's 10-bit mantissa, held in a 32-bit register");
    t[2] = element_info(NumberFormat::fp16, "fp16", 16, 16, OverflowRule::to_infinity,
                        "IEEE 754-2019 binary16");
    t[3] = element_info(NumberFormat::bf16, "bf16", 16, 16, OverflowRule::to_infinity,
                        "bfloat16 (Google Brain; Kalamkar et al. 2019): fp32 with the mantissa cut "
                        "to 7 bits");
    t[4] = element_info(NumberFormat::fp8_e4m3, "fp8_e4m3", 8, 8, OverflowRule::saturate,
                        "OCP 8-bit Floating Point (OFP8) rev. 1.0, E4M3: no infinities, NaN = "
                        "S.1111.111; overflow saturates (PTX cvt .satfinite)");
    t[5] = element_info(NumberFormat::fp8_e5m2, "fp8_e5m2", 8, 8, OverflowRule::to_infinity,
                        "OCP 8-bit Floating Point (OFP8) rev. 1.0, E5M2: IEEE-like with "
                        "infinities; non-saturating conversion");
    t[6] = element_info(NumberFormat::fp4_e2m1, "fp4_e2m1", 4, 4, OverflowRule::saturate,
                        "OCP Microscaling Formats (MX) v1.0 sec. 5.3.3, FP4 E2M1: no Inf/NaN; "
                        "conversion saturates to +-6 (sec. 6.3)");

    // NVFP4: E2M1 elements in blocks of 16 sharing an E4M3 scale (NVIDIA, "Introducing NVFP4",
    // 2025). 4 + 8/16 = 4.5 bits per value. Range: E2M1 x E4M3 (scales are positive).
    FormatInfo nv = element_info(NumberFormat::nvfp4, "nvfp4", 4.0 + 8.0 / 16.0, 4.0 + 8.0 / 16.0,
                                 OverflowRule::saturate,
                                 "NVIDIA NVFP4 (2025): E2M1 elements, one E4M3 scale per 16 values "
                                 "(plus a per-tensor FP32 scale, taken as 1 here)");
    const double e4m3_max = layout_max(kE4m3);                                      // 448
    const double e4m3_min = std::ldexp(1.0, 1 - kE4m3.bias - kE4m3.mantissa_bits);  // 2^-9
    nv.max = nv.max * e4m3_max;                      // 6 x 448 = 2688
    nv.min_normal = nv.min_normal * e4m3_min;        // 1 x 2^-9
    nv.min_subnormal = nv.min_subnormal * e4m3_min;  // 0.5 x 2^-9 = 2^-10
    nv.has_nan = false;
    nv.block_size = 16;
    nv.scale_format = "E4M3";
    t[7] = nv;

    // MXFP4: E2M1 elements in blocks of 32 sharing an E8M0 scale (OCP MX v1.0, Table 1).
    // 4 + 8/32 = 4.25 bits per value.
    FormatInfo mx = element_info(NumberFormat::mxfp4, "mxfp4", 4.0 + 8.0 / 32.0, 4.0 + 8.0 / 32.0,
                                 OverflowRule::saturate,
                                 "OCP Microscaling Formats (MX) v1.0: E2M1 elements, one E8M0 "
                                 "scale per 32 values");
    mx.max = mx.max * std::ldexp(1.0, kE8m0MaxExponent);                      // 6 x 2^127
    mx.min_normal = mx.min_normal * std::ldexp(1.0, kE8m0MinExponent);        // 1 x 2^-127
    mx.min_subnormal = mx.min_subnormal * std::ldexp(1.0, kE8m0MinExponent);  // 2^-128
    mx.has_nan = true;  // the scale's 0xFF marks the block NaN
    mx.block_size = 32;
    mx.scale_format = "E8M0";
    t[8] = mx;
    return t;
}

// Round-to-nearest-even of |x| (finite, > 0) onto the grid of a layout, before any overflow
// handling: the exponent is clamped at emin so that values below the normal range land on the
// subnormal grid (spacing 2^(emin - m)).
double round_to_grid(double magnitude, const Layout& l) {
    const int emin = 1 - l.bias;
    int e = std::ilogb(magnitude);  // floor(log2 |x|), exact for doubles
    if (e < emin) {
        e = emin;
    }
    const double quantum = std::ldexp(1.0, e - l.mantissa_bits);
    // magnitude / quantum is exact (a power-of-two scaling); nearbyint rounds half to even in
    // the default rounding mode (FE_TONEAREST).
    return std::nearbyint(magnitude / quantum) * quantum;
}

Conversion convert_element(double x, const Layout& l, OverflowRule overflow) {
    Conversion c;
    c.scale = 1.0;
    if (std::isnan(x)) {
        c.value = std::numeric_limits<double>::quiet_NaN();
        c.element = c.value;
        c.status = ConversionStatus::not_a_number;
        return c;
    }
    const double sign = std::signbit(x) ? -1.0 : 1.0;
    const double max = layout_max(l);
    const double magnitude = std::fabs(x);
    if (std::isinf(x)) {
        if (l.specials == Specials::ieee) {
            c.value = x;
            c.status = ConversionStatus::exact;
        } else {
            // No infinity: .satfinite turns +-Inf into +-MAX_NORM (PTX ISA, cvt).
            c.value = sign * max;
            c.status = ConversionStatus::saturated;
        }
        c.element = c.value;
        return c;
    }
    if (magnitude == 0.0) {
        c.value = x;  // keeps the sign of zero
        c.element = x;
        c.status = ConversionStatus::exact;
        return c;
    }
    const double rounded = round_to_grid(magnitude, l);
    if (rounded > max) {
        if (overflow == OverflowRule::to_infinity && l.specials == Specials::ieee) {
            c.value = sign * std::numeric_limits<double>::infinity();
            c.status = ConversionStatus::overflow_infinity;
        } else {
            c.value = sign * max;
            c.status = ConversionStatus::saturated;
        }
    } else if (rounded == 0.0) {
        c.value = sign * 0.0;
        c.status = ConversionStatus::underflow_zero;
    } else {
        c.value = sign * rounded;
        c.status = rounded == magnitude ? ConversionStatus::exact : ConversionStatus::rounded;
    }
    c.element = c.value;
    return c;
}

ConversionStatus block_status(double x, double value, ConversionStatus element_status) {
    if (element_status == ConversionStatus::saturated) {
        return ConversionStatus::saturated;
    }
    if (value == 0.0 && x != 0.0) {
        return ConversionStatus::underflow_zero;
    }
    return value == x ? ConversionStatus::exact : ConversionStatus::rounded;
}

Conversion block_nan() {
    Conversion c;
    c.value = std::numeric_limits<double>::quiet_NaN();
    c.element = c.value;
    c.scale = c.value;
    c.status = ConversionStatus::not_a_number;
    return c;
}

// MXFP4, OCP MX v1.0 sec. 6.3: shared exponent = floor(log2(amax)) - emax_elem, with
// emax_elem = 2 for E2M1; X = 2^shared, clamped to the E8M0 range; P_i = quantize(V_i / X).
Conversion convert_mxfp4(double x) {
    if (!std::isfinite(x)) {
        return block_nan();
    }
    Conversion c;
    int shared = kE8m0MinExponent;
    if (x != 0.0) {
        constexpr int kE2m1Emax = 2;
        shared = std::ilogb(x) - kE2m1Emax;
        if (shared > kE8m0MaxExponent) {
            shared = kE8m0MaxExponent;
        } else if (shared < kE8m0MinExponent) {
            shared = kE8m0MinExponent;
        }
    }
    c.scale = std::ldexp(1.0, shared);
    const Conversion element = convert_element(x / c.scale, kE2m1, OverflowRule::saturate);
    c.element = element.value;
    c.value = element.value * c.scale;
    c.status = block_status(x, c.value, element.status);
    return c;
}

// NVFP4 with the per-tensor scale at 1: block scale s = E4M3(amax / 6), element = E2M1(x / s).
Conversion convert_nvfp4(double x) {
    if (!std::isfinite(x)) {
        return block_nan();
    }
    Conversion c;
    const double fp4_max = layout_max(kE2m1);  // 6
    const Conversion scale = convert_element(std::fabs(x) / fp4_max, kE4m3, OverflowRule::saturate);
    c.scale = scale.value;
    if (c.scale == 0.0) {
        c.element = 0.0;
        c.value = std::signbit(x) ? -0.0 : 0.0;
        c.status = x == 0.0 ? ConversionStatus::exact : ConversionStatus::underflow_zero;
        return c;
    }
    const Conversion element = convert_element(x / c.scale, kE2m1, OverflowRule::saturate);
    c.element = element.value;
    c.value = element.value * c.scale;
    // A scale clamped at 448 means x / 448 exceeded the element's range.
    c.status = block_status(
        x, c.value,
        scale.status == ConversionStatus::saturated ? ConversionStatus::saturated : element.status);
    return c;
}

}  // namespace

const FormatInfo& format_info(NumberFormat format) {
    static const std::array<FormatInfo, kAllNumberFormats.size()> table = build_table();
    return table[static_cast<std::size_t>(format)];
}

std::string_view to_string(NumberFormat format) {
    return format_info(format).name;
}

std::optional<NumberFormat> parse_number_format(std::string_view name) {
    for (NumberFormat f : kAllNumberFormats) {
        if (to_string(f) == name) {
            return f;
        }
    }
    return std::nullopt;
}

std::string_view to_string(ConversionStatus status) {
    switch (status) {
        case ConversionStatus::exact:
            return "exact";
        case ConversionStatus::rounded:
            return "rounded";
        case ConversionStatus::underflow_zero:
            return "underflow_zero";
        case ConversionStatus::overflow_infinity:
            return "overflow_infinity";
        case ConversionStatus::saturated:
            return "saturated";
        case ConversionStatus::not_a_number:
            return "nan";
    }
    return "?";
}

Text conversion_status_text(ConversionStatus status) {
    switch (status) {
        case ConversionStatus::exact:
            return TALLY_TEXT("tally::number_formats", "exact");
        case ConversionStatus::rounded:
            return TALLY_TEXT("tally::number_formats", "rounded");
        case ConversionStatus::underflow_zero:
            return TALLY_TEXT("tally::number_formats", "underflows to zero");
        case ConversionStatus::overflow_infinity:
            return TALLY_TEXT("tally::number_formats", "overflows to infinity");
        case ConversionStatus::saturated:
            return TALLY_TEXT("tally::number_formats", "saturates at the largest value");
        case ConversionStatus::not_a_number:
            return TALLY_TEXT("tally::number_formats", "not a number");
    }
    return Text("", "?");  // not reached: every status is named above
}

Conversion convert(double x, NumberFormat format) {
    switch (format) {
        case NumberFormat::nvfp4:
            return convert_nvfp4(x);
        case NumberFormat::mxfp4:
            return convert_mxfp4(x);
        default:
            break;
    }
    const FormatInfo& info = format_info(format);
    return convert_element(x, layout_of(format), info.overflow);
}

}  // namespace tally
