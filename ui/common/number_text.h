#pragma once

// The text of numbers in entry boxes, tables and tooltips: exact where the user types, short where
// the user reads. Not a widget: shared by the forms, the models and the tests.
// What a person reads (every format* below but formatExact) is in the number locale, QLocale()'s
// default (grouping and decimal mark: "1,234" in en_US and zh_CN, "1.234,5" in de_DE; the C
// locale groups nothing); formatExact() is always the C locale's, for text that must read back.
// Files (JSON, CSV, the report) are the planner's and never go through here.

#include <QString>
#include <optional>
#include <string>
#include <string_view>

namespace tally::ui {

// Planner strings (UTF-8) as QString.
inline QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// The exact text of a value for an entry box: "70B", "15T", "1.5M" when that suffix form reads back
// exactly (K 1e3, M 1e6, B 1e9, T 1e12, P 1e15; only for values of 1e6 and more), else the
// shortest decimal that does ("4096", "0.5", "6738415616").
QString formatExact(double value);

// What a user typed: a decimal number ("70e9", "0.5", "-1"), digit groups split by spaces or
// underscores ("15 000"), optionally ending in one suffix: k/K (1e3), M (1e6), B or G (1e9),
// T (1e12), P (1e15). nullopt for anything else, and for infinities and NaN.
// A text that is no C-locale number is read in the number locale (QLocale()) as well: "0,5"
// and "1.234,5" in de_DE, "1,234.5" in en_US. A text both read ("1.234" in de_DE) is the
// C-locale number, so what formatExact() writes always reads back as written.
// When it returns nullopt and `outOfRange` is given, *outOfRange says whether the text is a
// number too large for a double ("1e400"), as opposed to not a number at all.
std::optional<double> parseNumber(const QString& text, bool* outOfRange = nullptr);

// A number a person reads, as QString::number(value, format, precision) writes it but in the
// number locale: "0.500" MFU, "1,234.5" (en_US), "1.234,5" (de_DE).
QString formatNumber(double value, char format, int precision);

// A duration in days: one decimal up to 99999.9, then four digits with an exponent
// ("6.369e+18"), so no figure runs to twenty digits.
QString formatDays(double days);

// A duration with the unit that fits it, four significant digits: "2.5 ns", "853.2 ms",
// "14.2 min", "3.1 h", and days past 24 hours ("143.9 days").
QString formatDuration(double seconds);

// Four significant digits with an SI-style suffix for reading: "70 B", "6.3e24" style for very
// large values ("6.300e+24"), "143.9".
QString formatShort(double value);

// Bytes as "1.09 GB" (GB = 1e9 bytes) and "1.02 GiB" (2^30 bytes, what nvidia-smi shows);
// the units are planner/core/quantity_text.h's, as the command line prints them.
QString formatGB(double bytes);
QString formatGiB(double bytes);
// The number of GB alone, two decimals ("1.09"), and of GiB ("1.02"): a table's unit is in its
// header.
QString gbNumber(double bytes);
QString gibNumber(double bytes);
// The number of GB alone for a one-line summary: four significant digits ("80", "0.1234",
// "1234"), and whole GB from 1000 GB on ("12346", never "1.235e+04").
QString gbCompact(double bytes);

// A memory bandwidth in GB/s (10^9 bytes per second, as datasheets give it), four significant
// digits: "3350 GB/s", "27.4 GB/s".
QString formatGBPerSecond(double bytes_per_s);

// A rate with a metric prefix (E, P, T, G, M) and four significant digits: "989.5 TFLOP/s"
// for (989.5e12, u"FLOP/s"), "3.35 TB/s" for (3.35e12, u"B/s"); below 1e6 no prefix.
QString formatPerSecond(double per_s, QStringView unit);
QString formatFlopsPerSecond(double flops_per_s);
// A rate in bytes per second with a decimal prefix (GB = 1e9 bytes): "3.35 TB/s".
QString formatBytesPerSecond(double bytes_per_s);
// A fraction as a percentage with one decimal: "80.0%".
QString formatPercent(double fraction);

}  // namespace tally::ui
