#pragma once

// Number formats of deep learning: their bit layouts, ranges and precision, and a
// round-to-nearest-even conversion of any double into each (CS336 lecture 2: fp32, fp16, bf16,
// fp8, fp4/NVFP4; IEEE 754-2019; OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, 2023;
// OCP Microscaling Formats (MX) Specification v1.0, 2023; NVIDIA, "Introducing NVFP4 for
// Efficient and Accurate Low-Precision Inference", 2025).

#include <array>
#include <optional>
#include <string_view>

#include "planner/core/text.h"

namespace tally {

enum class NumberFormat { fp32, tf32, fp16, bf16, fp8_e4m3, fp8_e5m2, fp4_e2m1, nvfp4, mxfp4 };
inline constexpr std::array<NumberFormat, 9> kAllNumberFormats{
    NumberFormat::fp32,     NumberFormat::tf32,     NumberFormat::fp16,
    NumberFormat::bf16,     NumberFormat::fp8_e4m3, NumberFormat::fp8_e5m2,
    NumberFormat::fp4_e2m1, NumberFormat::nvfp4,    NumberFormat::mxfp4};

// What a finite value too large for the format becomes.
enum class OverflowRule {
    to_infinity,  // IEEE 754 roundTiesToEven: |x| >= max + ulp(max)/2 becomes +-inf
    saturate,     // clamps to +-max (PTX cvt .satfinite; OCP MX v1.0 sec. 6.3 for the elements)
};

struct FormatInfo {
    NumberFormat format;
    std::string_view name;  // "fp32", "tf32", "fp16", "bf16", "fp8_e4m3", ...
    // Bit layout of one value (block formats: of one element; the shared scale is extra).
    int sign_bits = 1;
    int exponent_bits = 0;
    int mantissa_bits = 0;
    int exponent_bias = 0;
    // Bits of information per value, including a block format's share of its scale
    // (NVFP4: 4 + 8/16 = 4.5; MXFP4: 4 + 8/32 = 4.25). tf32 is 19 bits...
    double bits_per_value = 0.0;
    // ...held in a 32-bit container: what storing one value costs.
    double storage_bits_per_value = 0.0;
    // Range and precision. For block formats these are element x scale over all scales:
    // max = element max x largest scale, min_normal / min_subnormal = the element's x the
    // smallest positive scale; epsilon is the element's (relative spacing inside a block).
    double max = 0.0;
    double min_normal = 0.0;
    double min_subnormal = 0.0;
    double epsilon = 0.0;  // 2^-mantissa_bits: the gap between 1 and the next larger value
    bool has_infinity = false;
    bool has_nan = false;
    OverflowRule overflow = OverflowRule::to_infinity;
    int block_size = 0;             // values sharing one scale; 0 for element formats
    std::string_view scale_format;  // "E4M3" (NVFP4), "E8M0" (MXFP4); empty otherwise
    std::string_view spec;          // the definition the figures follow
};

const FormatInfo& format_info(NumberFormat format);
std::string_view to_string(NumberFormat format);
std::optional<NumberFormat> parse_number_format(std::string_view name);

enum class ConversionStatus {
    exact,              // the value is representable
    rounded,            // rounded to the nearest representable value (ties to even)
    underflow_zero,     // a non-zero value rounded to (signed) zero
    overflow_infinity,  // beyond max: became +-inf (IEEE-like formats)
    saturated,          // beyond max (or infinite): clamped to +-max
    not_a_number,       // NaN in (or Inf into a block format, whose scale then reads NaN)
};
std::string_view to_string(ConversionStatus status);
// What became of the value, in words a person reads ("underflows to zero"), translatable: the
// Number formats panel and `tally dtypes --value` say it so; to_string() keeps the identifier
// for JSON.
Text conversion_status_text(ConversionStatus status);

struct Conversion {
    double value = 0.0;  // the converted value, as a double
    ConversionStatus status = ConversionStatus::exact;
    // Block formats: value = element x scale. Element formats: scale 1, element = value.
    double scale = 1.0;
    double element = 0.0;
};

// Converts x into the format with round-to-nearest, ties to even; overflow as format_info()
// says. Block formats convert x as a block of one value:
// - MXFP4 picks the scale of OCP MX v1.0 sec. 6.3: X = 2^(floor(log2|x|) - 2) (2 = emax of
//   E2M1), clamped to E8M0's [2^-127, 2^127]; the element is x / X rounded and saturated.
// - NVFP4 picks the E4M3 block scale s = E4M3(|x| / 6), the scale that maps the block's
//   largest magnitude onto E2M1's max 6 (NVIDIA, "Introducing NVFP4", 2025), with the
//   per-tensor FP32 scale taken as 1: this shows the block level alone. A value whose scale
//   rounds to 0 in E4M3 (|x| <= 6 x 2^-10, about 0.0059) becomes 0; in practice the per-tensor
//   scale (amax / (6 x 448)) moves such tensors into range.
Conversion convert(double x, NumberFormat format);

}  // namespace tally
