#include "planner/performance/plan_gemms.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "planner/model/model_shape.h"
#include "planner/performance/performance.h"

namespace tally {

std::string_view to_string(GemmPass pass) {
    switch (pass) {
        case GemmPass::forward:
            return "forward";
        case GemmPass::data_gradient:
            return "data gradient";
        case GemmPass::weight_gradient:
            return "weight gradient";
    }
    return "?";
}

std::int64_t gemm_whole_size(double size) {
    // Round half up by truncating size + 0.5 (sizes are positive; llround is a libm call, and the
    // model looks sizes up for every GEMM it times).
    return size < 1.0 ? 1 : static_cast<std::int64_t>(size + 0.5);
}

namespace {

void add_gemm(std::vector<PlanGemm>& out, ComputeType type, std::string use, double count, double m,
              double n, double k) {
    PlanGemm g;
    g.type = type;
    g.m = gemm_whole_size(m);
    g.n = gemm_whole_size(n);
    g.k = gemm_whole_size(k);
    g.count = gemm_whole_size(count);
    for (PlanGemm& seen : out) {
        if (seen.m == g.m && seen.n == g.n && seen.k == g.k && seen.count == g.count) {
            if (std::find(seen.uses.begin(), seen.uses.end(), use) == seen.uses.end()) {
                seen.uses.push_back(std::move(use));
            }
            return;
        }
    }
    g.uses.push_back(std::move(use));
    out.push_back(std::move(g));
}

bool is_attention_core(GemmRole role) {
    return role == GemmRole::attention_scores || role == GemmRole::attention_values;
}

void add_list(std::vector<PlanGemm>& out, ComputeType type, const GemmList& list,
              bool flash_attention) {
    for (const LayerGemm& g : list) {
        const std::string role(to_string(g.role));
        add_gemm(out, type, role + " " + std::string(to_string(GemmPass::forward)), g.count, g.m,
                 g.n, g.k);
        // Flash attention's backward is timed from its forward (performance.cpp, time_gemms):
        // the attention core has no backward GEMMs of its own.
        if (flash_attention && is_attention_core(g.role)) {
            continue;
        }
        add_gemm(out, type, role + " " + std::string(to_string(GemmPass::data_gradient)), g.count,
                 g.m, g.k, g.n);
        add_gemm(out, type, role + " " + std::string(to_string(GemmPass::weight_gradient)), g.count,
                 g.k, g.n, g.m);
    }
}

}  // namespace

std::vector<PlanGemm> plan_gemms(const PlanSpec& spec) {
    std::vector<PlanGemm> out;
    const ComputeType type = compute_type(spec.training.compute_dtype);
    const bool flash = spec.training.flash_attention;
    const ModelSpec& m = spec.model;
    const bool moe = m.kind == ModelKind::transformer && m.moe.enabled();
    const std::int64_t dense_layers = moe ? dense_layer_count(m) : m.layers;
    if (dense_layers > 0) {
        add_list(out, type, layer_gemms(spec, false), flash);
    }
    if (moe && m.layers > dense_layers) {
        add_list(out, type, layer_gemms(spec, true), flash);
    }
    add_list(out, type, head_gemms(spec), flash);
    return out;
}

std::optional<double> measured_gemm_seconds(const HardwareProfile& profile, ComputeType type,
                                            double count, double m, double n, double k) {
    const std::vector<MeasuredGemm>& gemms = profile.measured_gemms;
    MeasuredGemm key;
    key.type = type;
    key.m = gemm_whole_size(m);
    key.n = gemm_whole_size(n);
    key.k = gemm_whole_size(k);
    key.count = gemm_whole_size(count);
    const auto same_shape = [&key](const MeasuredGemm& g) {
        return g.type == key.type && g.m == key.m && g.n == key.n && g.k == key.k;
    };
    // The first of this shape (count 1 sorts first: the search key with count 0 precedes all).
    MeasuredGemm first = key;
    first.count = 0;
    auto it = std::lower_bound(gemms.begin(), gemms.end(), first, measured_gemm_before);
    if (it == gemms.end() || !same_shape(*it)) {
        return std::nullopt;
    }
    const MeasuredGemm* chosen = &*it;
    for (auto j = it; j != gemms.end() && same_shape(*j); ++j) {
        if (j->count == key.count) {
            chosen = &*j;
            break;
        }
    }
    return chosen->seconds * static_cast<double>(key.count) / static_cast<double>(chosen->count);
}

GemmSources gemm_sources(const PlanSpec& spec, const HardwareProfile& profile) {
    GemmSources out;
    for (const PlanGemm& g : plan_gemms(spec)) {
        const bool measured =
            measured_gemm_seconds(profile, g.type, static_cast<double>(g.count),
                                  static_cast<double>(g.m), static_cast<double>(g.n),
                                  static_cast<double>(g.k))
                .has_value();
        if (measured) {
            ++out.measured;
            out.measured_uses.insert(out.measured_uses.end(), g.uses.begin(), g.uses.end());
        } else {
            ++out.modelled;
        }
    }
    return out;
}

std::optional<std::string_view> probe_gemm_dtype(ComputeType type) {
    // The probe's names are the compute types', but for fp8, which it times as e4m3 (the
    // forward format of fp8 training); it has no fp4 or int8 GEMM.
    if (type == ComputeType::fp4 || type == ComputeType::int8) {
        return std::nullopt;
    }
    return type == ComputeType::fp8 ? std::string_view("fp8_e4m3") : to_string(type);
}

std::string gemm_shapes_argument(const std::vector<PlanGemm>& gemms, std::string_view dtype) {
    std::string text;
    for (const PlanGemm& g : gemms) {
        text += fmt::format("{}{}:{}x{}x{}", text.empty() ? "" : ",", dtype, g.m, g.n, g.k);
        if (g.count != 1) {
            text += fmt::format("x{}", g.count);
        }
    }
    return text;
}

}  // namespace tally
