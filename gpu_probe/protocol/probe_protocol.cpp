#include "gpu_probe/protocol/probe_protocol.h"

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

namespace tally::probe {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------------------------
// Writing

template <typename T>
void put_optional(json& j, const char* k, const std::optional<T>& value) {
    if (!value) {
        return;
    }
    if constexpr (std::is_floating_point_v<T>) {
        // JSON has no NaN or infinity; a figure that is not finite is left out, not faked.
        if (!std::isfinite(*value)) {
            return;
        }
    }
    j[k] = *value;
}

void put_nonempty(json& j, const char* k, const std::string& value) {
    if (!value.empty()) {
        j[k] = value;
    }
}

json to_json(const StartEvent& e) {
    json j;
    j[key::event] = event_name::start;
    j[key::protocol] = e.protocol;
    j[key::tool] = e.tool;
    j[key::version] = e.version;
    j[key::backend] = e.backend;
    j[key::host] = e.host;
    j[key::started_at] = e.started_at;
    j[key::quick] = e.quick;
    j[key::tests] = e.tests;
    put_optional(j, key::time_limit_s, e.time_limit_s);
    j[key::l2_flush] = e.l2_flush;
    put_optional(j, key::inject_fault, e.inject_fault);
    put_optional(j, key::seed, e.seed);
    return j;
}

json to_json(const DeviceEvent& e) {
    json j;
    j[key::event] = event_name::device;
    j[key::backend] = e.backend;
    j[key::name] = e.name;
    put_optional(j, key::index, e.index);
    put_optional(j, key::memory_bytes, e.memory_bytes);
    put_optional(j, key::compute_capability, e.compute_capability);
    put_optional(j, key::sm_count, e.sm_count);
    put_optional(j, key::clock_mhz, e.clock_mhz);
    put_optional(j, key::memory_clock_mhz, e.memory_clock_mhz);
    put_optional(j, key::memory_bus_width_bits, e.memory_bus_width_bits);
    put_optional(j, key::l2_bytes, e.l2_bytes);
    put_optional(j, key::driver_version, e.driver_version);
    put_optional(j, key::runtime_version, e.runtime_version);
    put_optional(j, key::cores, e.cores);
    put_optional(j, key::threads, e.threads);
    put_optional(j, key::llc_bytes, e.llc_bytes);
    put_optional(j, key::blas, e.blas);
    put_optional(j, key::simd, e.simd);
    put_optional(j, key::ranks, e.ranks);
    put_optional(j, key::nodes, e.nodes);
    return j;
}

json to_json(const TestEvent& e) {
    json j;
    j[key::event] = event_name::test;
    j[key::name] = e.name;
    j[key::backend] = e.backend;
    j[key::description] = e.description;
    return j;
}

json to_json(const ProgressEvent& e) {
    json j;
    j[key::event] = event_name::progress;
    j[key::test] = e.test;
    j[key::index] = e.index;
    j[key::total] = e.total;
    j[key::message] = e.message;
    return j;
}

json to_json(const ResultEvent& e) {
    json j;
    j[key::event] = event_name::result;
    j[key::test] = e.test;
    put_nonempty(j, key::variant, e.variant);
    put_nonempty(j, key::dtype, e.dtype);
    j[key::sizes] = json::object();
    for (const auto& [name, value] : e.sizes) {
        j[key::sizes][name] = value;
    }
    put_optional(j, key::flops, e.flops);
    put_optional(j, key::bytes, e.bytes);
    put_optional(j, key::intensity_flops_per_byte, e.intensity_flops_per_byte);
    put_optional(j, key::flops_per_s, e.flops_per_s);
    put_optional(j, key::bytes_per_s, e.bytes_per_s);
    put_optional(j, key::bus_bytes_per_s, e.bus_bytes_per_s);
    put_optional(j, key::median_s, e.median_s);
    put_optional(j, key::min_s, e.min_s);
    put_optional(j, key::max_s, e.max_s);
    put_optional(j, key::mean_s, e.mean_s);
    put_optional(j, key::stdrel, e.stdrel);
    j[key::samples] = e.samples;
    put_nonempty(j, key::stop_reason, e.stop_reason);
    j[key::status] = to_string(e.status);
    j[key::validated] = e.validated;
    put_nonempty(j, key::reason, e.reason);
    put_nonempty(j, key::note, e.note);
    return j;
}

json to_json(const ErrorEvent& e) {
    json j;
    j[key::event] = event_name::error;
    j[key::message] = e.message;
    put_nonempty(j, key::test, e.test);
    if (e.fatal) {
        j[key::fatal] = true;
    }
    put_optional(j, key::exit_code, e.exit_code);
    return j;
}

json to_json(const DoneEvent& e) {
    json j;
    j[key::event] = event_name::done;
    j[key::status] = to_string(e.status);
    j[key::finished_at] = e.finished_at;
    j[key::passed] = e.passed;
    j[key::waived] = e.waived;
    j[key::failed] = e.failed;
    put_optional(j, key::elapsed_s, e.elapsed_s);
    return j;
}

// ---------------------------------------------------------------------------------------------
// Reading

// A short rendering of a value for messages ("got string \"NaN\""). The dump replaces bytes
// that are not UTF-8 with U+FFFD, and the cut falls on a character boundary (never before a
// continuation byte 10xxxxxx), so the message is valid UTF-8 and can itself go into JSON (a
// run's notes, `tally probe --json`).
std::string describe(const json& value) {
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    constexpr std::size_t kMax = 40;
    if (text.size() > kMax) {
        std::size_t cut = kMax;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) {
            --cut;
        }
        text = text.substr(0, cut) + "...";
    }
    return std::string(value.type_name()) + " " + text;
}

// Reads typed fields from one JSON object and remembers the first problem, naming the field.
class FieldReader {
public:
    explicit FieldReader(const json& object) : m_object(object) {}

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

    void fail(const std::string& text) {
        if (m_error.empty()) {
            m_error = text;
        }
    }

    // nullptr when absent or null.
    const json* find(const char* k) const {
        const auto it = m_object.find(k);
        if (it == m_object.end() || it->is_null()) {
            return nullptr;
        }
        return &*it;
    }

    std::optional<std::string> optional_string(const char* k) {
        const json* v = find(k);
        if (v == nullptr) {
            return std::nullopt;
        }
        if (!v->is_string()) {
            wrong_type(k, "a string", *v);
            return std::nullopt;
        }
        return v->get<std::string>();
    }

    std::string required_string(const char* k) {
        if (find(k) == nullptr) {
            missing(k);
            return {};
        }
        return optional_string(k).value_or(std::string{});
    }

    std::string string_or_empty(const char* k) { return optional_string(k).value_or(""); }

    std::optional<bool> optional_bool(const char* k) {
        const json* v = find(k);
        if (v == nullptr) {
            return std::nullopt;
        }
        if (!v->is_boolean()) {
            wrong_type(k, "true or false", *v);
            return std::nullopt;
        }
        return v->get<bool>();
    }

    bool required_bool(const char* k) {
        if (find(k) == nullptr) {
            missing(k);
            return false;
        }
        return optional_bool(k).value_or(false);
    }

    template <typename Int>
    std::optional<Int> optional_int(const char* k, Int minimum) {
        const json* v = find(k);
        if (v == nullptr) {
            return std::nullopt;
        }
        return to_int<Int>(k, *v, minimum);
    }

    template <typename Int>
    Int required_int(const char* k, Int minimum) {
        if (find(k) == nullptr) {
            missing(k);
            return minimum;
        }
        return optional_int<Int>(k, minimum).value_or(minimum);
    }

    template <typename Int>
    std::optional<Int> to_int(const std::string& k, const json& v, Int minimum) {
        if (v.is_number_unsigned()) {
            const auto value = v.get<std::uint64_t>();
            if (value > static_cast<std::uint64_t>(std::numeric_limits<Int>::max())) {
                fail("field '" + k + "': " + std::to_string(value) + " is out of range");
                return std::nullopt;
            }
            return check_minimum<Int>(k, static_cast<Int>(value), minimum);
        }
        if (v.is_number_integer()) {
            const auto value = v.get<std::int64_t>();
            if (value < static_cast<std::int64_t>(std::numeric_limits<Int>::min()) ||
                (std::is_signed_v<Int> &&
                 value > static_cast<std::int64_t>(std::numeric_limits<Int>::max()))) {
                fail("field '" + k + "': " + std::to_string(value) + " is out of range");
                return std::nullopt;
            }
            return check_minimum<Int>(k, static_cast<Int>(value), minimum);
        }
        wrong_type(k, "an integer", v);
        return std::nullopt;
    }

    // A finite, non-negative number (every number of this protocol is a count, a size, a time
    // or a rate). Integers are accepted as numbers.
    std::optional<double> optional_number(const char* k) {
        const json* v = find(k);
        if (v == nullptr) {
            return std::nullopt;
        }
        if (!v->is_number()) {
            wrong_type(k, "a finite number", *v);
            return std::nullopt;
        }
        const double value = v->get<double>();
        if (!std::isfinite(value)) {
            fail(std::string("field '") + k + "': expected a finite number, got " +
                 std::to_string(value));
            return std::nullopt;
        }
        if (value < 0.0) {
            fail(std::string("field '") + k + "': must not be negative, got " + describe(*v));
            return std::nullopt;
        }
        return value;
    }

    void missing(const char* k) { fail(std::string("missing field '") + k + "'"); }

private:
    void wrong_type(const std::string& k, const char* expected, const json& v) {
        fail("field '" + k + "': expected " + expected + ", got " + describe(v));
    }

    template <typename Int>
    std::optional<Int> check_minimum(const std::string& k, Int value, Int minimum) {
        if (value < minimum) {
            fail("field '" + k + "': must be at least " + std::to_string(minimum) + ", got " +
                 std::to_string(value));
            return std::nullopt;
        }
        return value;
    }

    const json& m_object;
    std::string m_error;
};

StartEvent read_start(FieldReader& r) {
    StartEvent e;
    e.protocol = r.required_int<int>(key::protocol, 1);
    if (r.ok() && e.protocol != kProtocolVersion) {
        r.fail("protocol " + std::to_string(e.protocol) + " is not supported by this reader " +
               "(it reads protocol " + std::to_string(kProtocolVersion) + ")");
    }
    e.tool = r.required_string(key::tool);
    e.version = r.required_string(key::version);
    e.backend = r.required_string(key::backend);
    e.host = r.string_or_empty(key::host);
    e.started_at = r.required_string(key::started_at);
    e.quick = r.optional_bool(key::quick).value_or(false);
    if (const json* tests = r.find(key::tests)) {
        if (!tests->is_array()) {
            r.fail(std::string("field 'tests': expected an array of strings, got ") +
                   describe(*tests));
        } else {
            for (const auto& name : *tests) {
                if (!name.is_string()) {
                    r.fail(std::string("field 'tests': expected strings, got ") + describe(name));
                    break;
                }
                e.tests.push_back(name.get<std::string>());
            }
        }
    }
    e.time_limit_s = r.optional_number(key::time_limit_s);
    e.l2_flush = r.optional_bool(key::l2_flush).value_or(false);
    e.inject_fault = r.optional_string(key::inject_fault);
    e.seed = r.optional_int<std::uint64_t>(key::seed, 0);
    return e;
}

DeviceEvent read_device(FieldReader& r) {
    DeviceEvent e;
    e.backend = r.required_string(key::backend);
    e.name = r.required_string(key::name);
    e.index = r.optional_int<int>(key::index, 0);
    e.memory_bytes = r.optional_int<std::int64_t>(key::memory_bytes, 0);
    e.compute_capability = r.optional_string(key::compute_capability);
    e.sm_count = r.optional_int<int>(key::sm_count, 0);
    e.clock_mhz = r.optional_number(key::clock_mhz);
    e.memory_clock_mhz = r.optional_number(key::memory_clock_mhz);
    e.memory_bus_width_bits = r.optional_int<int>(key::memory_bus_width_bits, 0);
    e.l2_bytes = r.optional_int<std::int64_t>(key::l2_bytes, 0);
    e.driver_version = r.optional_string(key::driver_version);
    e.runtime_version = r.optional_string(key::runtime_version);
    e.cores = r.optional_int<int>(key::cores, 0);
    e.threads = r.optional_int<int>(key::threads, 0);
    e.llc_bytes = r.optional_int<std::int64_t>(key::llc_bytes, 0);
    e.blas = r.optional_string(key::blas);
    e.simd = r.optional_string(key::simd);
    e.ranks = r.optional_int<int>(key::ranks, 1);
    e.nodes = r.optional_int<int>(key::nodes, 1);
    return e;
}

TestEvent read_test(FieldReader& r) {
    TestEvent e;
    e.name = r.required_string(key::name);
    e.backend = r.required_string(key::backend);
    e.description = r.string_or_empty(key::description);
    return e;
}

ProgressEvent read_progress(FieldReader& r) {
    ProgressEvent e;
    e.test = r.required_string(key::test);
    e.index = r.required_int<int>(key::index, 1);
    e.total = r.required_int<int>(key::total, 1);
    e.message = r.string_or_empty(key::message);
    if (r.ok() && e.index > e.total) {
        r.fail("field 'index': " + std::to_string(e.index) + " is past total " +
               std::to_string(e.total));
    }
    return e;
}

ResultEvent read_result(FieldReader& r) {
    ResultEvent e;
    e.test = r.required_string(key::test);
    e.variant = r.string_or_empty(key::variant);
    e.dtype = r.string_or_empty(key::dtype);
    if (const json* sizes = r.find(key::sizes)) {
        if (!sizes->is_object()) {
            r.fail(std::string("field 'sizes': expected an object, got ") + describe(*sizes));
        } else {
            for (const auto& [name, value] : sizes->items()) {
                const auto size = r.to_int<std::int64_t>(std::string("sizes.") + name, value, 0);
                if (size) {
                    e.sizes[name] = *size;
                }
            }
        }
    }
    e.flops = r.optional_number(key::flops);
    e.bytes = r.optional_number(key::bytes);
    e.intensity_flops_per_byte = r.optional_number(key::intensity_flops_per_byte);
    e.flops_per_s = r.optional_number(key::flops_per_s);
    e.bytes_per_s = r.optional_number(key::bytes_per_s);
    e.bus_bytes_per_s = r.optional_number(key::bus_bytes_per_s);
    e.median_s = r.optional_number(key::median_s);
    e.min_s = r.optional_number(key::min_s);
    e.max_s = r.optional_number(key::max_s);
    e.mean_s = r.optional_number(key::mean_s);
    e.stdrel = r.optional_number(key::stdrel);
    e.samples = r.optional_int<int>(key::samples, 0).value_or(0);
    e.stop_reason = r.string_or_empty(key::stop_reason);
    const std::string status = r.required_string(key::status);
    if (r.ok()) {
        if (const auto parsed = result_status_from_string(status)) {
            e.status = *parsed;
        } else {
            r.fail("field 'status': expected \"passed\", \"waived\" or \"failed\", got \"" +
                   status + "\"");
        }
    }
    e.validated = r.required_bool(key::validated);
    e.reason = r.string_or_empty(key::reason);
    e.note = r.string_or_empty(key::note);
    if (!r.ok()) {
        return e;
    }
    if (e.status == ResultStatus::passed && (!e.median_s || e.samples < 1)) {
        r.fail("a passed result must carry 'median_s' and at least one sample");
    } else if (e.min_s && e.median_s && *e.min_s > *e.median_s) {
        r.fail("field 'min_s' is larger than 'median_s'");
    } else if (e.max_s && e.median_s && *e.max_s < *e.median_s) {
        r.fail("field 'max_s' is smaller than 'median_s'");
    }
    return e;
}

ErrorEvent read_error(FieldReader& r) {
    ErrorEvent e;
    e.message = r.required_string(key::message);
    e.test = r.string_or_empty(key::test);
    e.fatal = r.optional_bool(key::fatal).value_or(false);
    e.exit_code = r.optional_int<int>(key::exit_code, 0);
    return e;
}

DoneEvent read_done(FieldReader& r) {
    DoneEvent e;
    const std::string status = r.required_string(key::status);
    if (r.ok()) {
        if (status == to_string(RunStatus::ok)) {
            e.status = RunStatus::ok;
        } else if (status == to_string(RunStatus::failed)) {
            e.status = RunStatus::failed;
        } else {
            r.fail("field 'status': expected \"ok\" or \"failed\", got \"" + status + "\"");
        }
    }
    e.finished_at = r.required_string(key::finished_at);
    e.passed = r.required_int<int>(key::passed, 0);
    e.waived = r.required_int<int>(key::waived, 0);
    e.failed = r.required_int<int>(key::failed, 0);
    e.elapsed_s = r.optional_number(key::elapsed_s);
    return e;
}

ParsedLine invalid(std::string message) {
    return ParsedLine{ParsedLine::Kind::invalid, std::nullopt, std::move(message)};
}

std::string_view event_label(const Event& event) {
    return std::visit(
        [](const auto& e) -> std::string_view {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, StartEvent>) {
                return event_name::start;
            } else if constexpr (std::is_same_v<T, DeviceEvent>) {
                return event_name::device;
            } else if constexpr (std::is_same_v<T, TestEvent>) {
                return event_name::test;
            } else if constexpr (std::is_same_v<T, ProgressEvent>) {
                return event_name::progress;
            } else if constexpr (std::is_same_v<T, ResultEvent>) {
                return event_name::result;
            } else if constexpr (std::is_same_v<T, ErrorEvent>) {
                return event_name::error;
            } else {
                return event_name::done;
            }
        },
        event);
}

}  // namespace

std::string_view to_string(ResultStatus status) {
    switch (status) {
        case ResultStatus::passed:
            return "passed";
        case ResultStatus::waived:
            return "waived";
        case ResultStatus::failed:
            return "failed";
    }
    return "failed";
}

std::optional<ResultStatus> result_status_from_string(std::string_view text) {
    for (const auto status : {ResultStatus::passed, ResultStatus::waived, ResultStatus::failed}) {
        if (text == to_string(status)) {
            return status;
        }
    }
    return std::nullopt;
}

std::string_view to_string(RunStatus status) {
    return status == RunStatus::ok ? "ok" : "failed";
}

std::string to_json_line(const Event& event) {
    const json j = std::visit([](const auto& e) { return to_json(e); }, event);
    // Strings from the system (CPU model, hostname) may hold invalid UTF-8: replace, never throw.
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

ParsedLine parse_line(std::string_view line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
        line.remove_suffix(1);
    }
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
        return ParsedLine{ParsedLine::Kind::ignored, std::nullopt, "blank line"};
    }
    const json j = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
        const bool looks_cut = line.front() == '{' && line.back() != '}';
        return invalid(looks_cut ? "malformed JSON: the line looks truncated"
                                 : "malformed JSON: not a valid JSON document");
    }
    if (!j.is_object()) {
        return invalid(std::string("expected a JSON object, got ") + describe(j));
    }
    FieldReader r(j);
    const auto name = r.optional_string(key::event);
    if (!r.ok()) {
        return invalid(r.error());
    }
    if (!name) {
        return invalid("missing field 'event'");
    }
    Event event;
    if (*name == event_name::start) {
        event = read_start(r);
    } else if (*name == event_name::device) {
        event = read_device(r);
    } else if (*name == event_name::test) {
        event = read_test(r);
    } else if (*name == event_name::progress) {
        event = read_progress(r);
    } else if (*name == event_name::result) {
        event = read_result(r);
    } else if (*name == event_name::error) {
        event = read_error(r);
    } else if (*name == event_name::done) {
        event = read_done(r);
    } else {
        return ParsedLine{ParsedLine::Kind::ignored, std::nullopt,
                          "unknown event '" + *name + "' ignored (a newer probe?)"};
    }
    if (!r.ok()) {
        return invalid(std::string(*name) + " event: " + r.error());
    }
    return ParsedLine{ParsedLine::Kind::event, std::move(event), {}};
}

std::vector<std::string> LineSplitter::feed(std::string_view bytes) {
    std::vector<std::string> lines;
    m_pending.append(bytes);
    std::size_t begin = 0;
    for (std::size_t end = m_pending.find('\n'); end != std::string::npos;
         end = m_pending.find('\n', begin)) {
        std::size_t stop = end;
        if (stop > begin && m_pending[stop - 1] == '\r') {
            --stop;
        }
        lines.emplace_back(m_pending, begin, stop - begin);
        begin = end + 1;
    }
    m_pending.erase(0, begin);
    return lines;
}

std::optional<std::string> LineSplitter::finish() {
    if (m_pending.empty()) {
        return std::nullopt;
    }
    return std::exchange(m_pending, std::string{});
}

void RunCollector::note(std::string text) {
    m_run.notes.push_back("line " + std::to_string(m_line_number) + ": " + std::move(text));
}

void RunCollector::add_line(std::string_view line) {
    add(parse_line(line));
}

void RunCollector::add(const ParsedLine& parsed) {
    ++m_line_number;
    if (parsed.kind != ParsedLine::Kind::event || !parsed.event) {
        if (parsed.message != "blank line") {
            note(parsed.message);
        }
        return;
    }
    const Event& event = *parsed.event;
    const bool is_start = std::holds_alternative<StartEvent>(event);
    // --list prints test events and a refused backend prints a lone error: both without start.
    const bool may_precede_start =
        std::holds_alternative<TestEvent>(event) || std::holds_alternative<ErrorEvent>(event);
    if (m_run.done) {
        note(std::string(event_label(event)) + " event after done");
    } else if (!is_start && !m_run.start && !may_precede_start) {
        note(std::string(event_label(event)) + " event before start");
    }
    if (const auto* start = std::get_if<StartEvent>(&event)) {
        if (m_run.start) {
            note("a second start event ignored");
            return;
        }
        m_run.start = *start;
    } else if (const auto* device = std::get_if<DeviceEvent>(&event)) {
        m_run.devices.push_back(*device);
    } else if (const auto* test = std::get_if<TestEvent>(&event)) {
        m_run.tests.push_back(*test);
    } else if (const auto* progress = std::get_if<ProgressEvent>(&event)) {
        m_run.progress.push_back(*progress);
    } else if (const auto* result = std::get_if<ResultEvent>(&event)) {
        m_run.results.push_back(*result);
    } else if (const auto* error = std::get_if<ErrorEvent>(&event)) {
        m_run.errors.push_back(*error);
    } else if (const auto* done = std::get_if<DoneEvent>(&event)) {
        if (m_run.done) {
            note("a second done event ignored");
            return;
        }
        m_run.done = *done;
        int counts[3] = {0, 0, 0};
        for (const auto& r : m_run.results) {
            ++counts[static_cast<int>(r.status)];
        }
        const int passed = counts[static_cast<int>(ResultStatus::passed)];
        const int waived = counts[static_cast<int>(ResultStatus::waived)];
        const int failed = counts[static_cast<int>(ResultStatus::failed)];
        if (passed != done->passed || waived != done->waived || failed != done->failed) {
            note("done counts " + std::to_string(done->passed) + "/" +
                 std::to_string(done->waived) + "/" + std::to_string(done->failed) +
                 " (passed/waived/failed) disagree with the results seen " +
                 std::to_string(passed) + "/" + std::to_string(waived) + "/" +
                 std::to_string(failed));
        }
    }
}

const ProbeRun& RunCollector::finish() {
    if (m_run.start && !m_run.done) {
        m_run.notes.push_back("the run ended without a done event (interrupted or crashed)");
    }
    return m_run;
}

}  // namespace tally::probe
