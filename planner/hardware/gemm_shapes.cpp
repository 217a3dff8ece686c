// GEMM throughput by shape from published measurement tables (gemm_shapes.h).
#include "planner/hardware/gemm_shapes.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "planner/hardware/efficiency.h"
#include "planner/hardware/gemm_shape_data.h"

namespace tally {

namespace {

// One measured table: the part it was measured on, by name and SM count, that part's dense
// peak in the table's dtype (its datasheet's, as the catalog has it) and its catalog id.
struct ShapeTable {
    const gemm_shape_data::Table* values;
    ComputeType type;
    std::int64_t sm_count;
    double peak_flops_per_s;
    std::array<std::string_view, 4> names;  // lower case; empty ones unused
    const char* measured_on;
    std::string_view part_id;
};

// The H100 SXM's 132 SMs and 989.5 TFLOP/s dense bf16 (its datasheet: 1,979 with sparsity);
// the B200's 148 SMs and 2.25 / 4.5 PFLOP/s dense bf16 / fp8 (its datasheet: 4.5 / 9 with
// sparsity). resources/hardware/catalog.json cites each.
const ShapeTable kTables[] = {
    {&gemm_shape_data::kH100Bf16,
     ComputeType::bf16,
     132,
     989.5e12,
     {"h100", "h200", "h800", "gh200"},
     "H100 SXM, bf16",
     "h100-sxm"},
    {&gemm_shape_data::kB200Bf16,
     ComputeType::bf16,
     148,
     2250e12,
     {"b200", "", "", ""},
     "B200, bf16",
     "b200"},
    {&gemm_shape_data::kB200Fp8,
     ComputeType::fp8,
     148,
     4500e12,
     {"b200", "", "", ""},
     "B200, fp8",
     "b200"},
};

// The measured part's own best published GEMM fraction in the table's dtype (the catalog's), read
// once per table.
std::optional<double> table_part_fraction(const ShapeTable& t) {
    static const auto fractions = [] {
        std::array<std::optional<double>, std::size(kTables)> out;
        for (std::size_t i = 0; i < std::size(kTables); ++i) {
            for (const HardwareProfile& p : builtin_hardware()) {
                if (p.id == kTables[i].part_id) {
                    out[i] = published_gemm_fraction(p, kTables[i].type);
                }
            }
        }
        return out;
    }();
    return fractions[static_cast<std::size_t>(&t - kTables)];
}

// The table's rates on a part of its silicon (gemm_shapes.h): scaled by the part's best
// published GEMM over the measured part's where the catalog has both, else by its dense peak over
// the measured part's.
GemmShapeRates same_silicon_rates(const HardwareProfile& profile, ComputeType type,
                                  const ShapeTable& t) {
    GemmShapeRates r;
    r.table = t.values->data();
    r.measured_on = t.measured_on;
    const double peak = profile.peak(type);
    const std::optional<double> own = published_gemm_fraction(profile, type);
    const std::optional<double> base = table_part_fraction(t);
    if (own && base && *base > 0.0) {
        r.scale = peak * std::min(*own, 1.0) / (t.peak_flops_per_s * std::min(*base, 1.0));
        r.by_best_gemm = true;
    } else {
        r.scale = peak / t.peak_flops_per_s;
    }
    return r;
}

// The table measured in `type` on the part, if any.
const ShapeTable* own_table(const HardwareProfile& profile, ComputeType type) {
    for (const ShapeTable& t : kTables) {
        if (t.type != type || profile.peak(type) <= 0.0) {
            continue;
        }
        if (profile.sm_count != 0 && profile.sm_count != t.sm_count) {
            continue;
        }
        for (std::string_view name : t.names) {
            if (!name.empty() && names_any(profile, {name})) {
                return &t;
            }
        }
    }
    return nullptr;
}

// The best rate of a measured table (the H100's bf16: 4 x 4096 x 2048 x 4096, 804.7 TFLOP/s).
double table_best(const gemm_shape_data::Table& table) {
    double b = 0.0;
    for (double v : table) {
        b = std::max(b, v);
    }
    return b;
}

// A dtype without a table of its own, read off the part's table of the next wider dtype
// (gemm_shapes.h): `wider` must be the part's table in `wider_type`, and its rates are scaled by
// the part's best GEMM in `type` over that table's best. No rates where either is missing.
GemmShapeRates derived_rates(const HardwareProfile& profile, ComputeType type,
                             ComputeType wider_type, const gemm_shape_data::Table& wider,
                             double wider_best, const char* measured_on) {
    const ShapeTable* table = own_table(profile, wider_type);
    if (table == nullptr || table->values != &wider) {
        return {};
    }
    const double best = profile.peak(type) * gemm_fraction(profile, type);
    if (!(best > 0.0)) {
        return {};
    }
    GemmShapeRates r;
    r.table = wider.data();
    r.scale = best / wider_best;
    r.measured_on = measured_on;
    r.derived = true;
    return r;
}

GemmShapeRates find_rates(const HardwareProfile& profile, ComputeType type) {
    if (profile.kind == ProfileKind::measured) {
        return {};
    }
    if (type == ComputeType::fp8 && own_table(profile, type) == nullptr) {
        // fp8 on the H100's silicon: its bf16 table to the part's best fp8 GEMM.
        static const double best = table_best(gemm_shape_data::kH100Bf16);
        return derived_rates(
            profile, type, ComputeType::bf16, gemm_shape_data::kH100Bf16, best,
            "H100 SXM bf16, scaled from the table's best to the part's best fp8 GEMM");
    }
    if (type == ComputeType::fp4 && own_table(profile, type) == nullptr) {
        // fp4 on the B200's silicon: its fp8 table to the part's best fp4 GEMM.
        static const double best = table_best(gemm_shape_data::kB200Fp8);
        return derived_rates(profile, type, ComputeType::fp8, gemm_shape_data::kB200Fp8, best,
                             "B200 fp8, scaled from the table's best to the part's best fp4 GEMM");
    }
    // fp16 runs on the same tensor cores at the same dense rate as bf16 where the peaks agree
    // (efficiency.cpp's rule for the GEMM fractions): it reads the bf16 table.
    if (type == ComputeType::fp16 && profile.peak(ComputeType::fp16) > 0.0 &&
        profile.peak(ComputeType::fp16) == profile.peak(ComputeType::bf16)) {
        type = ComputeType::bf16;
    }
    // With its bf16 peak removed (a custom copy that plans in fp16), the part's fp16 still runs
    // on the tensor cores its bf16 table measured: read it at the fp16 peak.
    if (type == ComputeType::fp16 && profile.peak(ComputeType::fp16) > 0.0 &&
        profile.peak(ComputeType::bf16) <= 0.0) {
        HardwareProfile as_bf16 = profile;
        as_bf16.peak_flops_per_s[static_cast<std::size_t>(ComputeType::bf16)] =
            profile.peak(ComputeType::fp16);
        return find_rates(as_bf16, ComputeType::bf16);
    }
    if (const ShapeTable* t = own_table(profile, type)) {
        return same_silicon_rates(profile, type, *t);
    }
    return {};
}

// Where x (in [lo, 16 lo], lo a power of two) lies on the grid lo·2^i, i = 0..4: the cell i
// (0..3) and the fraction f across it, linear in x. Read from the double's bits: x / lo =
// 2^e·(1 + mantissa), so the cell is e and f the mantissa.
struct GridPosition {
    int cell = 0;
    double f = 0.0;
};
GridPosition grid_position(double ratio, int last_cell) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(ratio);
    const int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    const double mantissa =
        std::bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL) - 1.0;
    if (e > last_cell) {
        return {last_cell, 1.0};
    }
    if (e < 0) {
        return {0, 0.0};
    }
    return {e, mantissa};
}

}  // namespace

GemmShapeRates gemm_shape_rates(const HardwareProfile& profile, ComputeType type) {
    // The last profile asked about, per thread and type: a plan, and every plan of a layout
    // search, asks about the same part, and comparing two short strings costs less than
    // searching the names.
    struct Last {
        bool valid = false;
        std::string id;
        std::string name;
        std::int64_t sm_count = 0;
        ProfileKind kind = ProfileKind::builtin;
        double peak = 0.0;
        double peak_bf16 = 0.0;
        // How many published figures the part has: same_silicon_rates() reads them, and a
        // profile's figures are fixed once made (counting them costs less than reading them).
        std::size_t measured = 0;
        GemmShapeRates rates;
    };
    thread_local Last last[kComputeTypeCount];
    Last& l = last[static_cast<std::size_t>(type)];
    if (l.valid && l.sm_count == profile.sm_count && l.kind == profile.kind &&
        l.peak == profile.peak(type) && l.peak_bf16 == profile.peak(ComputeType::bf16) &&
        l.measured == profile.measured.size() && l.id == profile.id && l.name == profile.name) {
        return l.rates;
    }
    l.rates = find_rates(profile, type);
    l.valid = true;
    l.id = profile.id;
    l.name = profile.name;
    l.sm_count = profile.sm_count;
    l.kind = profile.kind;
    l.peak = profile.peak(type);
    l.peak_bf16 = profile.peak(ComputeType::bf16);
    l.measured = profile.measured.size();
    return l.rates;
}

namespace {

// The table's rate at a shape, unscaled (gemm_shape_flops_per_s() below).
double interpolated_rate(const double* table, double count, double m, double n, double k) {
    constexpr double kSide = 256.0;      // the table's smallest m, n, k
    constexpr double kLargest = 4096.0;  // and largest
    // More rows or columns than the table's are more output tiles, as a batch's are.
    double b = count > 1.0 ? count : 1.0;
    if (m > kLargest) {
        b *= m / kLargest;
        m = kLargest;
    }
    if (n > kLargest) {
        b *= n / kLargest;
        n = kLargest;
    }
    b = b < 4.0 ? b : 4.0;
    k = k < kLargest ? k : kLargest;
    const GridPosition pb = grid_position(b, 1);  // b in {1, 2, 4}: cells 0..1
    const GridPosition pm = grid_position(m / kSide, 3);
    const GridPosition pn = grid_position(n / kSide, 3);
    const GridPosition pk = grid_position(k / kSide, 3);
    double rate = 0.0;
    for (int db = 0; db < 2; ++db) {
        const double wb = db == 0 ? 1.0 - pb.f : pb.f;
        for (int dm = 0; dm < 2; ++dm) {
            const double wm = dm == 0 ? 1.0 - pm.f : pm.f;
            for (int dn = 0; dn < 2; ++dn) {
                const double wn = dn == 0 ? 1.0 - pn.f : pn.f;
                const int base = (((pb.cell + db) * 5 + pm.cell + dm) * 5 + pn.cell + dn) * 5;
                const double w = wb * wm * wn;
                rate +=
                    w * ((1.0 - pk.f) * table[base + pk.cell] + pk.f * table[base + pk.cell + 1]);
            }
        }
    }
    return rate;
}

// The rates last read, per thread, by shape: one plan times the same few shapes forward and
// backward on every layer, and a layout search the same few hundred over thousands of plans, so
// a direct-mapped cache of 256 shapes answers most lookups without the 16-point interpolation.
struct CachedRate {
    const double* table = nullptr;
    double count = 0.0;
    double m = 0.0;
    double n = 0.0;
    double k = 0.0;
    double rate = 0.0;
};

std::size_t cache_slot(const double* table, double count, double m, double n, double k) {
    std::uint64_t h = reinterpret_cast<std::uintptr_t>(table);
    for (double x : {count, m, n, k}) {
        h = (h ^ std::bit_cast<std::uint64_t>(x)) * 0x9e3779b97f4a7c15ULL;
    }
    return static_cast<std::size_t>(h >> 56);
}

}  // namespace

double gemm_shape_flops_per_s(const GemmShapeRates& rates, double count, double m, double n,
                              double k) {
    constexpr double kSide = 256.0;  // the table's smallest m, n, k
    if (rates.table == nullptr || !(m >= kSide) || !(n >= kSide) || !(k >= kSide)) {
        return 0.0;
    }
    thread_local std::array<CachedRate, 256> cache{};
    CachedRate& slot = cache[cache_slot(rates.table, count, m, n, k)];
    if (slot.table != rates.table || slot.count != count || slot.m != m || slot.n != n ||
        slot.k != k) {
        slot = {rates.table, count, m, n, k, interpolated_rate(rates.table, count, m, n, k)};
    }
    return slot.rate * rates.scale;
}

}  // namespace tally
