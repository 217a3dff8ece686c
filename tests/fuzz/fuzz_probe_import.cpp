// Files imported as probe runs (planner/hardware/probe_import.h): tally-probe JSON lines and
// nccl-tests logs. Reading a file either refuses it with a SpecError or gives a run whose every
// result and device print as JSON (`tally probes import --json`, `tally probes show --json`), with
// at least one result and finite, non-negative figures.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "planner/core/errors.h"
#include "planner/hardware/probe_import.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tally;

namespace {

void check_run(const ProbeRunRecord& run) {
    tally::fuzz::require(!run.results.empty(), "an imported run has results");
    const nlohmann::json device = nlohmann::json::parse(run.device_json, nullptr, false);
    tally::fuzz::require(device.is_object(), "the device is a JSON object");
    (void)nlohmann::json(run.host).dump();
    for (const ProbeResultRecord& r : run.results) {
        (void)probe_result_json(r).dump();
        for (const std::optional<double>& v :
             {r.bytes_per_s, r.bus_bytes_per_s, r.median_s, r.flops_per_s}) {
            tally::fuzz::require(!v || (std::isfinite(*v) && *v >= 0.0),
                                 "figures are finite and not negative");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    try {
        const ProbeFileFormat format = detect_probe_file_format(input, "fuzz.log");
        check_run(format == ProbeFileFormat::tally_probe
                      ? probe_run_from_json_lines(input, "fuzz.jsonl")
                      : probe_run_from_nccl_tests(input, "all_reduce_perf.log", "", "t"));
    } catch (const SpecError&) {
    }
    // Either parser on any input, whatever the detection said.
    try {
        check_run(probe_run_from_nccl_tests(input, "fuzz.log", "alltoall", "t"));
    } catch (const SpecError&) {
    }
    try {
        check_run(probe_run_from_json_lines(input, "fuzz.jsonl"));
    } catch (const SpecError&) {
    }
    return 0;
}
