// Training logs read by `tally calibrate --log` (planner/performance/training_log.h): Megatron-LM,
// NeMo and torchtitan timing lines. The first byte picks the warm-up setting (0 to 3 records
// dropped); the rest is the log, read whole and line by line. Reading either refuses it with a
// SpecError whose message is printable ASCII, or gives a summary whose counts add up and whose
// median lies finite and > 0 between its minimum and maximum; both ways of reading agree, and
// the measured step a calibration takes from it is finite or refused naming the field.
#include <cstdint>
#include <string>
#include <string_view>

#include "planner/core/errors.h"
#include "planner/performance/calibration.h"
#include "planner/performance/training_log.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tally;
using tally::fuzz::require;
using tally::fuzz::require_finite;

namespace {

void check_message(const SpecError& e) {
    for (char c : std::string_view(e.what())) {
        require(c >= 0x20 && c < 0x7f, "an error message is printable ASCII");
    }
    require(!e.field().empty(), "an error names its field");
}

void check_summary(const TrainingLogSummary& s, std::int64_t skip) {
    require(s.used >= 1, "an accepted log has a record used");
    require(s.skipped == skip, "the warm-up records dropped are the setting's");
    require(s.records == s.skipped + s.used, "records = dropped + used");
    require_finite(s.median, "median");
    require_finite(s.min, "min");
    require_finite(s.max, "max");
    require(s.min > 0.0 && s.min <= s.median && s.median <= s.max, "0 < min <= median <= max");
    // The step a calibration takes from it (a torchtitan rate as one GPU's 65,536 tokens per
    // step): finite, and either a step validate_measured_step accepts or refused naming --log.
    const double step_s = s.is_step_time() ? s.median : 65536.0 / s.median;
    require_finite(step_s, "measured step");
    try {
        validate_measured_step(step_s, "--log");
    } catch (const SpecError& e) {
        check_message(e);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::int64_t skip = data[0] % 4;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    bool whole_ok = false;
    TrainingLogSummary whole;
    try {
        whole = read_training_log(text, {skip});
        whole_ok = true;
        check_summary(whole, skip);
    } catch (const SpecError& e) {
        check_message(e);
    }
    // Line by line, as the command line reads a file.
    TrainingLogReader reader;
    try {
        std::string_view rest = text;
        while (!rest.empty()) {
            const std::size_t nl = rest.find('\n');
            std::string_view line = rest.substr(0, nl);
            if (line.ends_with('\r')) {
                line.remove_suffix(1);
            }
            reader.add_line(line);
            if (nl == std::string_view::npos) {
                break;
            }
            rest.remove_prefix(nl + 1);
        }
        const TrainingLogSummary lines = reader.summary({skip});
        require(whole_ok, "line by line accepts only what the whole text accepts");
        require(lines.median == whole.median && lines.records == whole.records,
                "both ways of reading agree");
    } catch (const SpecError& e) {
        require(!whole_ok, "line by line refuses only what the whole text refuses");
        check_message(e);
    }
    return 0;
}
