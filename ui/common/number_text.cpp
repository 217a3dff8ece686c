#include "ui/common/number_text.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

#include <array>
#include <cmath>

#include "planner/core/quantity_text.h"

namespace tally::ui {

namespace {

struct Suffix {
    char letter;
    double scale;
};
// Largest first. B (billion) is what model cards write ("70B"); G is accepted when typed.
constexpr std::array<Suffix, 5> kSuffixes{
    {{'P', 1e15}, {'T', 1e12}, {'B', 1e9}, {'M', 1e6}, {'K', 1e3}}};

// A number a person reads, in the number locale (QLocale(): Tally sets its default to the
// number locale of the language, ui/i18n/translations.h's applyNumberLocale()): its digit
// grouping and decimal mark. The C locale, the tests' and the default without one, writes what
// QString::number() writes.
QString readable(double value, char format, int precision) {
    const QLocale locale;
    // The system's C locale (LANG=C) groups thousands in QLocale's data, QLocale::c() does not:
    // a C desktop reads numbers as the C library writes them.
    if (locale.language() == QLocale::C) {
        return QString::number(value, format, precision);
    }
    QString text = locale.toString(value, format, precision);
    // An exponent is written as the formulas beside it write it, "6.3e+24": Chinese locales'
    // data has a capital E ("6.300E+24"), as no formula or command line output does.
    if (locale.exponential() == QStringLiteral("E")) {
        text.replace(QLatin1Char('E'), QLatin1Char('e'));
    }
    return text;
}

// What a locale's reader types for a number: its decimal mark and digit groups ("1.234,5" in
// de_DE, "1,234.5" in en_US), as a C-locale number; nullopt when the locale does not read it.
std::optional<double> parseLocaleNumber(const QString& text) {
    const QLocale locale;
    if (locale.language() == QLocale::C) {
        return std::nullopt;
    }
    bool ok = false;
    const double v = locale.toDouble(text, &ok);
    if (!ok) {
        return std::nullopt;
    }
    return v;
}

QString shortest(double value) {
    // The shortest %g form that reads back as the same double.
    for (int digits = 1; digits <= 17; ++digits) {
        const QString text = QString::number(value, 'g', digits);
        if (text.toDouble() == value) {
            return text;
        }
    }
    return QString::number(value, 'g', 17);
}

}  // namespace

QString formatExact(double value) {
    if (!std::isfinite(value)) {
        return QString::number(value);
    }
    if (std::abs(value) >= 1e6) {
        for (const Suffix& s : kSuffixes) {
            if (std::abs(value) < s.scale) {
                continue;
            }
            const QString mantissa = QString::number(value / s.scale, 'g', 6);
            const QString text = mantissa + QLatin1Char(s.letter);
            // A mantissa with its own exponent ("1e+15P" for 1e30) reads worse than "1e+30".
            if (!mantissa.contains(QLatin1Char('e')) && parseNumber(text) == value) {
                return text;
            }
            break;
        }
    }
    const QString plain = shortest(value);
    // Integers below 1e15 read better without an exponent ("6738415616", not "6.738415616e+09").
    if (std::abs(value) < 1e15 && value == std::floor(value)) {
        return QString::number(value, 'f', 0);
    }
    return plain;
}

std::optional<double> parseNumber(const QString& input, bool* outOfRange) {
    if (outOfRange) {
        *outOfRange = false;
    }
    QString text = input.trimmed();
    text.remove(QLatin1Char('_'));
    text.remove(QLatin1Char(' '));
    // The spaces some locales group digits with (fr_FR: narrow no-break space).
    text.remove(QChar(0x00A0));
    text.remove(QChar(0x202F));
    if (text.isEmpty()) {
        return std::nullopt;
    }
    double scale = 1.0;
    const QChar last = text.back();
    if (last.isLetter() && last != QLatin1Char('e') && last != QLatin1Char('E')) {
        const char c = last.toUpper().toLatin1();
        bool known = false;
        for (const Suffix& s : kSuffixes) {
            if (c == s.letter) {
                scale = s.scale;
                known = true;
            }
        }
        if (c == 'G') {
            scale = 1e9;
            known = true;
        }
        // m would be milli to some readers and mega to others; only the capital is mega.
        if (!known || last == QLatin1Char('m') || last == QLatin1Char('b') ||
            last == QLatin1Char('t') || last == QLatin1Char('p') || last == QLatin1Char('g')) {
            return std::nullopt;
        }
        text.chop(1);
    }
    bool ok = false;
    double v = text.toDouble(&ok);
    if (!ok) {
        // Not a C-locale number (which formatExact() writes and always reads back first): the
        // user's locale's form, when it reads as one ("0,5" in de_DE, "1,234.5" in en_US).
        if (const std::optional<double> local = parseLocaleNumber(text)) {
            v = *local;
            ok = true;
        }
    }
    if (!ok || !std::isfinite(v * scale)) {
        if (outOfRange) {
            // Digits with an optional fraction and exponent that still did not fit a double.
            static const QRegularExpression kNumber(
                QStringLiteral("^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$"));
            *outOfRange = kNumber.match(text).hasMatch();
        }
        return std::nullopt;
    }
    return v * scale;
}

QString formatNumber(double value, char format, int precision) {
    if (!std::isfinite(value)) {
        return QString::number(value);
    }
    return readable(value, format, precision);
}

QString formatDuration(double seconds) {
    const double a = std::abs(seconds);
    if (!std::isfinite(seconds) || a >= 86400.0) {
        return QCoreApplication::translate("tally::ui", "%1 days")
            .arg(formatDays(seconds / 86400.0));
    }
    struct Unit {
        double below_s;
        double scale;
        const char* name;
    };
    constexpr std::array<Unit, 6> kUnits{{{1e-6, 1e9, "ns"},
                                          {1e-3, 1e6, "µs"},
                                          {1.0, 1e3, "ms"},
                                          {60.0, 1.0, "s"},
                                          {3600.0, 1.0 / 60.0, "min"},
                                          {86400.0, 1.0 / 3600.0, "h"}}};
    for (const Unit& u : kUnits) {
        if (a < u.below_s) {
            return readable(seconds * u.scale, 'g', 4) + u' ' + QString::fromUtf8(u.name);
        }
    }
    return readable(seconds, 'g', 4) + u" s";
}

QString formatDays(double days) {
    // Under a twentieth of a day, one decimal would read "0.0": three significant digits.
    if (std::isfinite(days) && days != 0.0 && std::abs(days) < 0.05) {
        return readable(days, 'g', 3);
    }
    if (std::isfinite(days) && std::abs(days) < 1e5) {
        return readable(days, 'f', 1);
    }
    return readable(days, 'e', 3);
}

QString formatShort(double value) {
    if (!std::isfinite(value)) {
        return QString::number(value);
    }
    const double a = std::abs(value);
    if (a < 1e4) {
        return readable(value, 'g', 4);
    }
    if (a < 1e18) {
        for (const Suffix& s : kSuffixes) {
            if (a >= s.scale) {
                return readable(value / s.scale, 'g', 4) + QLatin1Char(s.letter);
            }
        }
    }
    return readable(value, 'e', 3);
}

QString formatGB(double bytes) {
    return gbNumber(bytes) + u" GB";
}

QString formatGiB(double bytes) {
    return gibNumber(bytes) + u" GiB";
}

QString gbNumber(double bytes) {
    return readable(to_gb(bytes), 'f', 2);
}

QString gibNumber(double bytes) {
    return readable(to_gib(bytes), 'f', 2);
}

QString gbCompact(double bytes) {
    const double gb = to_gb(bytes);
    // Past 99999 GB the digits outgrow the headline's room ("39828020 / 80 GB" cut its mark):
    // four significant digits and an exponent.
    if (std::abs(gb) >= 1e5) {
        return readable(gb, 'g', 4);
    }
    return gb >= 1000 ? readable(gb, 'f', 0) : readable(gb, 'g', 4);
}

QString formatGBPerSecond(double bytes_per_s) {
    return readable(to_gb(bytes_per_s), 'g', 4) + u" GB/s";
}

QString formatPerSecond(double per_s, QStringView unit) {
    constexpr std::array<std::pair<double, char16_t>, 5> kPrefixes{
        {{1e18, u'E'}, {1e15, u'P'}, {1e12, u'T'}, {1e9, u'G'}, {1e6, u'M'}}};
    for (const auto& [scale, prefix] : kPrefixes) {
        if (std::abs(per_s) >= scale) {
            return readable(per_s / scale, 'g', 4) + u' ' + QChar(prefix) + unit;
        }
    }
    return readable(per_s, 'g', 4) + u' ' + unit;
}

QString formatFlopsPerSecond(double flops_per_s) {
    return formatPerSecond(flops_per_s, u"FLOP/s");
}

QString formatBytesPerSecond(double bytes_per_s) {
    return formatPerSecond(bytes_per_s, u"B/s");
}

QString formatPercent(double fraction) {
    return readable(100.0 * fraction, 'f', 1) + u'%';
}

}  // namespace tally::ui
