#include "planner/hardware/probe_records.h"

#include <algorithm>
#include <variant>

namespace tally {

using nlohmann::json;

// ---- records ------------------------------------------------------------------------------------

std::string_view to_string(ProbeRunStatus status) {
    switch (status) {
        case ProbeRunStatus::running:
            return "running";
        case ProbeRunStatus::ok:
            return "ok";
        case ProbeRunStatus::failed:
            return "failed";
    }
    return "?";
}

std::string_view to_string(ProbeResultStatus status) {
    switch (status) {
        case ProbeResultStatus::passed:
            return "passed";
        case ProbeResultStatus::waived:
            return "waived";
        case ProbeResultStatus::failed:
            return "failed";
    }
    return "?";
}

std::optional<ProbeRunStatus> parse_probe_run_status(std::string_view text) {
    for (ProbeRunStatus s : {ProbeRunStatus::running, ProbeRunStatus::ok, ProbeRunStatus::failed}) {
        if (to_string(s) == text) {
            return s;
        }
    }
    return std::nullopt;
}

std::optional<ProbeResultStatus> parse_probe_result_status(std::string_view text) {
    for (ProbeResultStatus s :
         {ProbeResultStatus::passed, ProbeResultStatus::waived, ProbeResultStatus::failed}) {
        if (to_string(s) == text) {
            return s;
        }
    }
    return std::nullopt;
}

// ---- from the probe's events --------------------------------------------------------------------

ProbeRunRecord probe_run_record(const probe::StartEvent& start, const probe::DeviceEvent* device) {
    ProbeRunRecord record;
    record.backend = start.backend;
    record.host = start.host;
    record.started_at = start.started_at;
    record.device_json = device != nullptr ? probe::to_json_line(*device) : std::string("{}");
    record.status = ProbeRunStatus::running;
    return record;
}

ProbeResultRecord probe_result_record(const probe::ResultEvent& result) {
    ProbeResultRecord record;
    record.test = result.test;
    record.variant = result.variant;
    record.dtype = result.dtype;
    record.sizes_json = json(result.sizes).dump();
    record.flops = result.flops.value_or(0.0);
    record.bytes = result.bytes.value_or(0.0);
    record.flops_per_s = result.flops_per_s;
    record.bytes_per_s = result.bytes_per_s;
    record.bus_bytes_per_s = result.bus_bytes_per_s;
    record.median_s = result.median_s;
    record.min_s = result.min_s;
    record.max_s = result.max_s;
    record.stdrel = result.stdrel;
    record.samples = result.samples;
    switch (result.status) {
        case probe::ResultStatus::passed:
            record.status = ProbeResultStatus::passed;
            break;
        case probe::ResultStatus::waived:
            record.status = ProbeResultStatus::waived;
            break;
        case probe::ResultStatus::failed:
            record.status = ProbeResultStatus::failed;
            break;
    }
    record.validated = result.validated;
    record.reason = result.reason;
    return record;
}

ProbeRunRecord probe_run_record(const probe::ProbeRun& run, ProbeRunStatus status,
                                const std::string& finished_at) {
    ProbeRunRecord record = probe_run_record(run.start.value_or(probe::StartEvent{}),
                                             run.devices.empty() ? nullptr : &run.devices.front());
    record.status = status;
    record.finished_at = run.done ? run.done->finished_at : finished_at;
    for (const probe::ResultEvent& r : run.results) {
        record.results.push_back(probe_result_record(r));
    }
    return record;
}

ProbeRunStatus probe_run_status(const probe::ProbeRun& run, bool ended_normally) {
    return ended_normally && run.done && run.done->status == probe::RunStatus::ok
               ? ProbeRunStatus::ok
               : ProbeRunStatus::failed;
}

// ---- tests and variants -------------------------------------------------------------------------

bool is_memory_bandwidth_test(std::string_view test) {
    return test == "stream" || test == "memory_bandwidth";
}

bool is_device_bandwidth_result(const ProbeResultRecord& result) {
    return is_memory_bandwidth_test(result.test) &&
           (result.variant == "copy" || result.variant == "read");
}

std::string probe_case_name(std::string_view test, std::string_view variant) {
    if (variant.empty() || test == "matmul") {
        return std::string(test);
    }
    if (is_memory_bandwidth_test(test)) {
        return std::string(variant);
    }
    return std::string(test) + "." + std::string(variant);
}

std::string probe_case_name(const ProbeResultRecord& result) {
    return probe_case_name(result.test, result.variant);
}

std::optional<ComputeType> probe_compute_type(std::string_view dtype) {
    if (auto t = parse_compute_type(dtype)) {
        return t;
    }
    if (auto d = parse_dtype(dtype)) {
        return compute_type(*d);
    }
    return std::nullopt;
}

// ---- what counts --------------------------------------------------------------------------------

bool is_usable(const ProbeResultRecord& result) {
    return result.status == ProbeResultStatus::passed && result.validated;
}

bool BestProbeResults::any_matmul() const {
    return std::any_of(matmul.begin(), matmul.end(),
                       [](const ProbeResultRecord* r) { return r != nullptr; });
}

BestProbeResults best_probe_results(const ProbeRunRecord& run) {
    BestProbeResults best;
    for (const ProbeResultRecord& r : run.results) {
        if (!is_usable(r)) {
            continue;
        }
        if (r.test == "matmul" && r.flops_per_s && *r.flops_per_s > 0.0) {
            if (auto type = probe_compute_type(r.dtype)) {
                const ProbeResultRecord*& m = best.matmul[static_cast<std::size_t>(*type)];
                if (m == nullptr || *r.flops_per_s > *m->flops_per_s) {
                    m = &r;
                }
            }
        } else if (is_device_bandwidth_result(r) && r.bytes_per_s && *r.bytes_per_s > 0.0 &&
                   (best.memory == nullptr || *r.bytes_per_s > *best.memory->bytes_per_s)) {
            best.memory = &r;
        }
    }
    return best;
}

namespace {

std::int64_t size_field(const ProbeResultRecord& result, const char* name) {
    const json sizes = json::parse(result.sizes_json, nullptr, false);
    if (!sizes.is_object() || !sizes.contains(name) || !sizes[name].is_number_integer()) {
        return 0;
    }
    return sizes[name].get<std::int64_t>();
}

}  // namespace

std::int64_t collective_ranks(const ProbeResultRecord& result) {
    return size_field(result, "ranks");
}

std::int64_t collective_nodes(const ProbeResultRecord& result) {
    return size_field(result, "nodes");
}

BestNetworkResults best_network_results(const ProbeRunRecord& run) {
    const auto pick = [&run](bool all_reduce_only) {
        BestNetworkResults best;
        for (const ProbeResultRecord& r : run.results) {
            if (!is_usable(r) || !r.bus_bytes_per_s || *r.bus_bytes_per_s <= 0.0 ||
                (all_reduce_only && r.test != "all_reduce")) {
                continue;
            }
            const std::int64_t ranks = collective_ranks(r);
            const std::int64_t nodes = collective_nodes(r);
            if (ranks < 2 || nodes < 1) {
                continue;
            }
            const ProbeResultRecord*& slot = nodes == 1 ? best.intra_node : best.inter_node;
            if (slot == nullptr || *r.bus_bytes_per_s > *slot->bus_bytes_per_s) {
                slot = &r;
            }
        }
        return best;
    };
    BestNetworkResults best = pick(true);
    const BestNetworkResults any = pick(false);
    if (best.intra_node == nullptr) {
        best.intra_node = any.intra_node;
    }
    if (best.inter_node == nullptr) {
        best.inter_node = any.inter_node;
    }
    return best;
}

// ---- the device ---------------------------------------------------------------------------------

std::optional<probe::DeviceEvent> stored_device(const ProbeRunRecord& run) {
    const probe::ParsedLine parsed = probe::parse_line(run.device_json);
    if (parsed.kind != probe::ParsedLine::Kind::event || !parsed.event) {
        return std::nullopt;
    }
    if (const auto* device = std::get_if<probe::DeviceEvent>(&*parsed.event)) {
        return *device;
    }
    return std::nullopt;
}

json stored_device_json(const ProbeRunRecord& run) {
    json parsed = json::parse(run.device_json, nullptr, false);
    return parsed.is_discarded() ? json(run.device_json) : parsed;
}

std::optional<std::string> stored_device_name(const ProbeRunRecord& run) {
    const json device = json::parse(run.device_json, nullptr, false);
    if (device.is_object()) {
        if (auto it = device.find("name"); it != device.end() && it->is_string()) {
            return it->get<std::string>();
        }
    }
    return std::nullopt;
}

std::optional<double> stored_device_memory_bytes(const ProbeRunRecord& run) {
    const json device = json::parse(run.device_json, nullptr, false);
    if (device.is_object()) {
        if (auto it = device.find("memory_bytes"); it != device.end() && it->is_number()) {
            return it->get<double>();
        }
    }
    return std::nullopt;
}

// ---- JSON ---------------------------------------------------------------------------------------

namespace {

json number_or_null(const std::optional<double>& value) {
    return value ? json(*value) : json(nullptr);
}

// flops and bytes are stored as 0 when the probe did not count them.
json counted_or_null(double value) {
    return value > 0.0 ? json(value) : json(nullptr);
}

}  // namespace

json probe_result_json(const ProbeResultRecord& r) {
    json sizes = json::parse(r.sizes_json, nullptr, false);
    if (sizes.is_discarded()) {
        sizes = json(r.sizes_json);
    }
    return {{"result_id", r.id > 0 ? json(r.id) : json(nullptr)},
            {"test", r.test},
            {"variant", r.variant},
            {"dtype", r.dtype},
            {"sizes", std::move(sizes)},
            {"flops", counted_or_null(r.flops)},
            {"bytes", counted_or_null(r.bytes)},
            {"intensity_flops_per_byte",
             r.flops > 0.0 && r.bytes > 0.0 ? json(r.flops / r.bytes) : json(nullptr)},
            {"flops_per_s", number_or_null(r.flops_per_s)},
            {"bytes_per_s", number_or_null(r.bytes_per_s)},
            {"bus_bytes_per_s", number_or_null(r.bus_bytes_per_s)},
            {"median_s", number_or_null(r.median_s)},
            {"min_s", number_or_null(r.min_s)},
            {"max_s", number_or_null(r.max_s)},
            {"stdrel", number_or_null(r.stdrel)},
            {"samples", r.samples},
            {"status", to_string(r.status)},
            {"validated", r.validated},
            {"reason", r.reason}};
}

}  // namespace tally
