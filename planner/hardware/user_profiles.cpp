#include "planner/hardware/user_profiles.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "planner/core/errors.h"

namespace tally {

using nlohmann::json;

namespace {

std::string quoted(const std::string& text) {
    return quoted_value(text);
}

}  // namespace

HardwareProfile duplicate_profile(const HardwareProfile& base, const std::string& id,
                                  const std::string& name) {
    HardwareProfile copy = base;
    copy.id = id;
    copy.name = name;
    copy.kind = ProfileKind::custom;
    if (copy.copied_from.empty()) {
        copy.copied_from = base.id;
    }
    copy.sources.insert(copy.sources.begin(),
                        "copied from profile " + base.id + " (" + base.name + ")");
    return copy;
}

std::vector<MeasuredGemm> measured_gemms(const ProbeRunRecord& run) {
    std::vector<MeasuredGemm> out;
    for (const ProbeResultRecord& r : run.results) {
        if (r.test != "gemm_shapes" || !is_usable(r) || !r.median_s || !(*r.median_s > 0.0)) {
            continue;
        }
        const auto type = probe_compute_type(r.dtype);
        const json sizes = json::parse(r.sizes_json, nullptr, false);
        if (!type || !sizes.is_object()) {
            continue;
        }
        const auto size = [&sizes](const char* key, std::int64_t fallback) -> std::int64_t {
            const auto it = sizes.find(key);
            if (it == sizes.end()) {
                return fallback;
            }
            return it->is_number_integer() ? it->get<std::int64_t>() : 0;
        };
        MeasuredGemm g;
        g.type = *type;
        g.m = size("m", 0);
        g.n = size("n", 0);
        g.k = size("k", 0);
        g.count = size("count", 1);
        g.seconds = *r.median_s;
        if (g.m < 1 || g.n < 1 || g.k < 1 || g.count < 1) {
            continue;
        }
        auto it = std::lower_bound(out.begin(), out.end(), g, measured_gemm_before);
        if (it != out.end() && !measured_gemm_before(g, *it)) {
            it->seconds = std::min(it->seconds, g.seconds);  // measured twice: the faster
        } else {
            out.insert(it, g);
        }
    }
    return out;
}

HardwareProfile measured_profile(const ProbeRunRecord& run, const HardwareProfile* base,
                                 const std::string& id, const std::string& name) {
    HardwareProfile p;
    if (base != nullptr) {
        p = *base;
        if (p.copied_from.empty()) {
            p.copied_from = base->id;
        }
    } else {
        p.vendor = "";
        // The device event may carry the memory size; a base profile is needed otherwise.
        if (auto memory_bytes = stored_device_memory_bytes(run)) {
            p.memory_bytes = *memory_bytes;
        }
        if (auto device_name = stored_device_name(run)) {
            p.notes = "device: " + *device_name;
        }
    }
    p.id = id;
    p.name = name;
    p.kind = ProfileKind::measured;

    const BestProbeResults best = best_probe_results(run);
    const ProbeResultRecord* best_memory = best.memory;
    const bool any_matmul = best.any_matmul();
    const BestNetworkResults network = best_network_results(run);
    const bool any_network = network.intra_node != nullptr || network.inter_node != nullptr;
    const std::vector<MeasuredGemm> gemms = measured_gemms(run);
    if (!any_matmul && best_memory == nullptr && !any_network && gemms.empty()) {
        throw SpecError("probe run", std::to_string(run.id),
                        TALLY_TEXT("tally::profiles",
                                   "a run with at least one validated, passed matmul, gemm_shapes, "
                                   "copy or read result, or a collective's bus bandwidth across "
                                   "two or more ranks"));
    }

    const std::string run_label = "tally-probe run " + std::to_string(run.id) + " (" + run.backend +
                                  (run.host.empty() ? "" : " on " + run.host) + ", " +
                                  run.started_at +
                                  (run.finished_at.empty() ? "" : " to " + run.finished_at) + ")";
    std::string measured_list;
    const auto note = [&](std::string_view what) {
        measured_list += measured_list.empty() ? "" : ", ";
        measured_list += what;
    };
    // Figures of the base that measured ones replace would refer to the wrong peak.
    std::vector<MeasuredFigure> kept;
    for (const MeasuredFigure& f : p.measured) {
        const bool memory_metric = f.metric.starts_with("hbm_") || f.metric.starts_with("memory_");
        bool replaced = (memory_metric && best_memory != nullptr) ||
                        (f.metric.starts_with("intra_node_") && network.intra_node != nullptr) ||
                        (f.metric.starts_with("inter_node_") && network.inter_node != nullptr);
        for (ComputeType t : kAllComputeTypes) {
            replaced = replaced || (best.matmul_of(t) != nullptr &&
                                    f.metric == std::string(to_string(t)) + "_gemm");
        }
        if (!replaced) {
            kept.push_back(f);
        }
    }
    p.measured = std::move(kept);
    const auto method = [](const ProbeResultRecord& r) {
        return "tally-probe " + probe_case_name(r) + " " + r.dtype + " sizes " + r.sizes_json +
               ", median of " + std::to_string(r.samples) + " samples";
    };
    for (ComputeType t : kAllComputeTypes) {
        const ProbeResultRecord* r = best.matmul_of(t);
        if (r == nullptr) {
            continue;
        }
        // The peak becomes what the card reached, so that figure is 100% of it.
        p.peak_flops_per_s[static_cast<std::size_t>(t)] = *r->flops_per_s;
        p.measured.push_back(MeasuredFigure{std::string(to_string(t)) + "_gemm", *r->flops_per_s,
                                            1.0, method(*r), run_label});
        note(std::string(to_string(t)) + " peak");
    }
    if (best_memory != nullptr) {
        p.bandwidth_bytes_per_s = *best_memory->bytes_per_s;
        p.measured.push_back(MeasuredFigure{"memory_" + probe_case_name(*best_memory),
                                            *best_memory->bytes_per_s, 1.0, method(*best_memory),
                                            run_label});
        note("memory bandwidth");
    }
    // Network figures: the bus bandwidth of a collective, which nccl-tests defines so that it
    // compares with the per-rank link bandwidth whatever the rank count (doc/PERFORMANCE.md of
    // NVIDIA/nccl-tests: busbw = algbw * 2(n-1)/n for an all-reduce). The profile's figures are
    // per GPU per direction, as a ring's busbw is.
    const auto network_method = [](const ProbeResultRecord& r) {
        return "bus bandwidth of " + r.test + (r.variant.empty() ? "" : " " + r.variant) + " " +
               r.dtype + " of " + std::to_string(static_cast<std::int64_t>(r.bytes)) +
               " bytes across " + std::to_string(collective_ranks(r)) + " ranks on " +
               std::to_string(collective_nodes(r)) + " host(s)";
    };
    if (const ProbeResultRecord* r = network.intra_node) {
        p.interconnect_bytes_per_s = *r->bus_bytes_per_s;
        p.measured.push_back(MeasuredFigure{"intra_node_" + r->test + "_busbw", *r->bus_bytes_per_s,
                                            std::nullopt, network_method(*r), run_label});
        note("intra-node bandwidth (" + network_method(*r) + ")");
    }
    if (const ProbeResultRecord* r = network.inter_node) {
        p.inter_node_bytes_per_s = *r->bus_bytes_per_s;
        p.measured.push_back(MeasuredFigure{"inter_node_" + r->test + "_busbw", *r->bus_bytes_per_s,
                                            std::nullopt, network_method(*r), run_label});
        note("inter-node bandwidth (" + network_method(*r) + ")");
    }
    // The run's GEMM times replace the base's of the same type, shape and count.
    for (const MeasuredGemm& g : gemms) {
        auto it = std::lower_bound(p.measured_gemms.begin(), p.measured_gemms.end(), g,
                                   measured_gemm_before);
        if (it != p.measured_gemms.end() && !measured_gemm_before(g, *it)) {
            *it = g;
        } else {
            p.measured_gemms.insert(it, g);
        }
    }
    if (!gemms.empty()) {
        note(std::to_string(gemms.size()) + " GEMM time" + (gemms.size() == 1 ? "" : "s"));
    }
    p.sources.insert(p.sources.begin(), run_label);
    p.verification = "measured";
    std::string notes = "Measured by " + run_label + ": " + measured_list + ".";
    if (base != nullptr) {
        notes += " Other figures from profile " + base->id + " (" + base->name + ").";
    }
    if (!p.notes.empty()) {
        notes += " " + p.notes;
    }
    p.notes = notes;
    if (base == nullptr) {
        // Without a base, what the run did not give is missing: say how to supply it.
        if (p.memory_bytes <= 0.0) {
            throw SpecError("base", kValueNone,
                            TALLY_TEXT("tally::profiles",
                                       "a base profile to start from: the device event gives no "
                                       "memory_bytes"));
        }
        if (best_memory == nullptr) {
            throw SpecError(
                "base", kValueNone,
                TALLY_TEXT("tally::profiles",
                           "a base profile to start from: the run has no validated copy "
                           "or read result for the bandwidth"));
        }
        if (!any_matmul) {
            throw SpecError("base", kValueNone,
                            TALLY_TEXT("tally::profiles",
                                       "a base profile to start from: the run has no validated "
                                       "matmul result for a peak"));
        }
    }
    // The catalog's rules, naming the field that breaks them.
    HardwareProfile checked = hardware_from_json(to_json(p), "measured profile");
    checked.kind = ProfileKind::measured;
    return checked;
}

void validate_profile_id(const std::string& id, const std::string& field) {
    constexpr std::size_t kMaxId = 64;
    const auto allowed = [](unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-';
    };
    const bool ok = !id.empty() && id.size() <= kMaxId &&
                    std::all_of(id.begin(), id.end(), allowed) && id.front() != '.' &&
                    id.front() != '-' && id.front() != '_';
    if (!ok) {
        throw SpecError(field, quoted(id),
                        TALLY_TEXT("tally::profiles",
                                   "an id of 1 to 64 letters, digits, '.', '_' or '-', starting "
                                   "with a letter or digit (e.g. my-h100)"));
    }
}

void validate_display_name(const std::string& name, const std::string& field) {
    constexpr std::size_t kMaxName = 200;
    const bool blank = std::all_of(name.begin(), name.end(),
                                   [](unsigned char c) { return c == ' ' || c == '\t'; });
    const bool control = std::any_of(name.begin(), name.end(),
                                     [](unsigned char c) { return c < 0x20 || c == 0x7f; });
    if (blank || control || name.size() > kMaxName || !is_valid_utf8(name)) {
        throw SpecError(field, quoted(name),
                        TALLY_TEXT("tally::profiles",
                                   "a non-empty name of at most 200 bytes of UTF-8 text without "
                                   "control characters"));
    }
}

std::vector<HardwareProfile> profiles_with_stored(std::vector<HardwareProfile> stored) {
    std::set<std::string> stored_ids;
    for (const HardwareProfile& p : stored) {
        stored_ids.insert(p.id);
    }
    std::vector<HardwareProfile> out;
    out.reserve(builtin_hardware().size() + stored.size());
    for (const HardwareProfile& p : builtin_hardware()) {
        if (stored_ids.count(p.id) == 0) {
            out.push_back(p);
        }
    }
    out.insert(out.end(), std::make_move_iterator(stored.begin()),
               std::make_move_iterator(stored.end()));
    return out;
}

}  // namespace tally
