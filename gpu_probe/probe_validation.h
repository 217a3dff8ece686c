#pragma once
// Validation of measured outputs against an independent reference, and the fault injection that
// proves it works (`--inject-fault TEST`). Comparisons are written so that NaN never passes.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gpu_probe/probe_pattern.h"

namespace tally::probe {

struct Validation {
    bool passed = true;
    std::string reason;  // what differed, when not passed

    static Validation ok() { return {}; }
    static Validation fail(std::string why) { return {false, std::move(why)}; }
};

// |got - want| <= abs + rel·|want|
struct Tolerance {
    double abs = 0.0;
    double rel = 0.0;
    bool accepts(double got, double want) const {
        const double error = std::fabs(got - want);
        return error <= abs + rel * std::fabs(want);  // false for NaN
    }
};

// Mismatches found in one range; ranges checked by different threads merge.
struct Mismatches {
    std::size_t count = 0;
    std::size_t first_index = 0;
    double first_got = 0.0;
    double first_want = 0.0;

    void add(std::size_t index, double got, double want) {
        if (count == 0 || index < first_index) {
            first_index = index;
            first_got = got;
            first_want = want;
        }
        ++count;
    }
    void merge(const Mismatches& other) {
        if (other.count == 0) {
            return;
        }
        const std::size_t before = count;
        add(other.first_index, other.first_got, other.first_want);
        count = before + other.count;
    }
};

// Compares got(i) with want(i) for i in [begin, end).
template <typename Got, typename Want>
Mismatches find_mismatches(std::size_t begin, std::size_t end, Got got, Want want,
                           Tolerance tolerance) {
    Mismatches m;
    for (std::size_t i = begin; i < end; ++i) {
        const double g = static_cast<double>(got(i));
        const double w = static_cast<double>(want(i));
        if (!tolerance.accepts(g, w)) {
            m.add(i, g, w);
        }
    }
    return m;
}

// "3 of 1048576 elements of relu output differ from the reference; first at 524288: got 1e+09,
// expected 0.25 (tolerance 0 + 0·|expected|)".
Validation to_validation(const Mismatches& m, std::size_t checked, std::string_view what,
                         Tolerance tolerance);

// Unit roundoff u = 2^-p of a format with p significand bits (Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., section 2.1): fp32 2^-24, fp64 2^-53, tf32 2^-11, fp16 2^-11,
// bf16 2^-8, fp8 E4M3 2^-4.
inline constexpr double kUnitRoundoffFp64 = 0x1p-53;
inline constexpr double kUnitRoundoffFp32 = 0x1p-24;
inline constexpr double kUnitRoundoffTf32 = 0x1p-11;
inline constexpr double kUnitRoundoffFp16 = 0x1p-11;
inline constexpr double kUnitRoundoffBf16 = 0x1p-8;

// γ_n = n·u / (1 - n·u): the bound on the relative error of a recursive sum or dot product of n
// terms (Higham, section 3.1, lemma 3.1 and eq. 3.4). Capped at 1 when n·u >= 1/2.
double gamma_bound(double n, double unit_roundoff);

// Freivalds' check of C = A·B (Freivalds 1977): compare C·v with A·(B·v) for a seeded vector v
// with entries in [1/2, 1], in O(mk + kn + mn) instead of O(mkn). Row i passes when
//   |(C·v)_i - (A·(B·v))_i| <= rel_tol · (|A|·(|B|·|v|))_i
// which holds for a correct product whenever |c_ij - ĉ_ij| <= rel_tol·(|A||B|)_ij, the form of
// the standard matmul error bound (Higham, section 3.5, eq. 3.13: rel_tol = γ_k, plus the output
// rounding u_out). A single wrong element c_ij changes row i by its error times v_j >= 1/2.
// Layout (the "TN" layout that cuBLASLt requires for fp8, used by every backend): A is m×k
// row-major (a(i, p) = A[i·k + p]), B is k×n column-major (b(p, j) = B[j·k + p]), C is m×n
// column-major (c(i, j) = C[j·m + i]). Accessors return the value as stored (after rounding to
// the input format).
template <typename GetA, typename GetB, typename GetC>
Validation freivalds_check(std::int64_t m, std::int64_t k, std::int64_t n, GetA a, GetB b, GetC c,
                           double rel_tol, std::uint64_t seed) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::int64_t j = 0; j < n; ++j) {
        // pattern_unit is in [-1, 1): map to [1/2, 1].
        v[j] = 0.75 + 0.25 * static_cast<double>(pattern_unit(seed, static_cast<std::uint64_t>(j)));
    }
    std::vector<double> bv(static_cast<std::size_t>(k), 0.0),
        bv_abs(static_cast<std::size_t>(k), 0.0);
    for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t p = 0; p < k; ++p) {
            const double x = static_cast<double>(b(p, j));
            bv[p] += x * v[j];
            bv_abs[p] += std::fabs(x) * v[j];
        }
    }
    std::vector<double> cv(static_cast<std::size_t>(m), 0.0);
    for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; i < m; ++i) {
            cv[i] += static_cast<double>(c(i, j)) * v[j];
        }
    }
    Mismatches bad;
    double worst_bound = 0.0;
    for (std::int64_t i = 0; i < m; ++i) {
        double want = 0.0, bound = 0.0;
        for (std::int64_t p = 0; p < k; ++p) {
            const double x = static_cast<double>(a(i, p));
            want += x * bv[p];
            bound += std::fabs(x) * bv_abs[p];
        }
        // The reference itself is summed in fp64: allow its own error too.
        const double tol =
            (rel_tol + gamma_bound(static_cast<double>(k + n), kUnitRoundoffFp64)) * bound;
        if (!(std::fabs(cv[i] - want) <= tol)) {
            if (bad.count == 0) {
                worst_bound = tol;
            }
            bad.add(static_cast<std::size_t>(i), cv[i], want);
        }
    }
    if (bad.count == 0) {
        return Validation::ok();
    }
    return to_validation(bad, static_cast<std::size_t>(m), "rows of C·v (Freivalds check)",
                         Tolerance{worst_bound, 0.0});
}

// --inject-fault: the element a test corrupts before validating, and how. The corruption is
// gross on purpose (x + 1e9·(1 + |x|) for floating point, bits flipped for integers) so that it
// fails every tolerance the probe uses; that proves the output is really compared.
inline constexpr double kFaultOffset = 1e9;
inline std::size_t fault_index(std::size_t n) {
    return n / 2;
}

template <typename T>
T corrupted(T value) {
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(value + kFaultOffset * (1.0 + std::fabs(value)));
    } else {
        return static_cast<T>(value ^ static_cast<T>(0xA5A5A5A5u));
    }
}

template <typename T>
void inject_fault(std::span<T> values) {
    if (!values.empty()) {
        T& target = values[fault_index(values.size())];
        target = corrupted(target);
    }
}

}  // namespace tally::probe
