// The probe protocol's line parser (gpu_probe/protocol/PROTOCOL.md). parse_line never throws; its
// message is valid UTF-8 (it goes into JSON: a run's notes, `tally probe --json`); an event it
// accepts writes back as a line that parses to an event again. The input is also fed to the line
// splitter in two chunks.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "gpu_probe/protocol/probe_protocol.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tally::probe;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const ParsedLine parsed = parse_line(input);
    // dump() with the default error handler throws type_error 316 on invalid UTF-8.
    try {
        (void)json(parsed.message).dump();
    } catch (const json::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        tally::fuzz::require(false, "parse_line's message is not valid UTF-8");
    }
    if (parsed.kind == ParsedLine::Kind::event) {
        tally::fuzz::require(parsed.event.has_value(), "an event line holds an event");
        const std::string line = to_json_line(*parsed.event);
        const ParsedLine again = parse_line(line);
        tally::fuzz::require(again.kind == ParsedLine::Kind::event,
                             "an accepted event, written back, parses again");
    }
    LineSplitter splitter;
    std::size_t lines = splitter.feed(input.substr(0, size / 2)).size();
    lines += splitter.feed(input.substr(size / 2)).size();
    tally::fuzz::require(lines <= size, "no more lines than bytes");
    return 0;
}
