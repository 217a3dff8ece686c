#include "probe_records.h"

#include <nlohmann/json.hpp>

#include "measured_roofline.h"

namespace tally::ui {

ProbeRunRecord probeRunRecord(const probe::StartEvent& start, const probe::DeviceEvent* device) {
    ProbeRunRecord record;
    record.backend = start.backend;
    record.host = start.host;
    record.started_at = start.started_at;
    record.device_json = device != nullptr ? probe::to_json_line(*device) : std::string("{}");
    record.status = ProbeRunStatus::running;
    return record;
}

ProbeResultRecord probeResultRecord(const probe::ResultEvent& result) {
    ProbeResultRecord record;
    record.test = stored_probe_test_name(result.test, result.variant);
    record.dtype = result.dtype;
    record.sizes_json = nlohmann::json(result.sizes).dump();
    record.flops = result.flops.value_or(0.0);
    record.bytes = result.bytes.value_or(0.0);
    record.flops_per_s = result.flops_per_s;
    record.bytes_per_s = result.bytes_per_s;
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

ProbeRunRecord probeRunRecord(const probe::ProbeRun& run, ProbeRunStatus status,
                              const std::string& finishedAt) {
    ProbeRunRecord record = probeRunRecord(run.start.value_or(probe::StartEvent{}),
                                           run.devices.empty() ? nullptr : &run.devices.front());
    record.status = status;
    record.finished_at = run.done ? run.done->finished_at : finishedAt;
    for (const probe::ResultEvent& r : run.results) {
        record.results.push_back(probeResultRecord(r));
    }
    return record;
}

ProbeRunStatus probeRunStatus(const probe::ProbeRun& run, bool endedNormally) {
    return endedNormally && run.done && run.done->status == probe::RunStatus::ok
               ? ProbeRunStatus::ok
               : ProbeRunStatus::failed;
}

}  // namespace tally::ui
