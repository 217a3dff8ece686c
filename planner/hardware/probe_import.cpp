#include "planner/hardware/probe_import.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu_probe/protocol/probe_collectives.h"
#include "gpu_probe/protocol/probe_protocol.h"
#include "planner/core/errors.h"

namespace tally {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        std::string_view line = text.substr(begin, end - begin);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        lines.push_back(line);
        begin = end + 1;
    }
    return lines;
}

std::vector<std::string_view> split_words(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) {
            ++i;
        }
        std::size_t j = i;
        while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) {
            ++j;
        }
        if (j > i) {
            words.push_back(line.substr(i, j - i));
        }
        i = j;
    }
    return words;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
        s.remove_suffix(1);
    }
    return s;
}

// Text from the file as valid UTF-8 (invalid bytes become U+FFFD), so that every JSON the run is
// printed as can be written.
std::string valid_utf8(std::string_view text) {
    const nlohmann::json j = std::string(text);
    return nlohmann::json::parse(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
        .get<std::string>();
}

std::string excerpt(std::string_view line) {
    std::string out = "\"";
    out.append(line.substr(0, 80));
    out.append(line.size() > 80 ? "...\"" : "\"");
    return out;
}

// Refuses the file at `line`; each `what` ends with "; nothing was imported".
[[noreturn]] void refuse(const std::string& file, std::size_t line, Text what) {
    throw SpecError(file + " line " + std::to_string(line), "", std::move(what));
}

// ---- nccl-tests ---------------------------------------------------------------------------------

// nccl-tests' type names (src/common.cu, test_typenames) as the probe names dtypes.
std::string probe_dtype(std::string_view nccl_type) {
    static const std::map<std::string_view, std::string_view> kNames = {
        {"float", "fp32"},      {"float32", "fp32"}, {"half", "fp16"},    {"float16", "fp16"},
        {"bfloat16", "bf16"},   {"double", "fp64"},  {"float64", "fp64"}, {"f8e4m3", "fp8_e4m3"},
        {"f8e5m2", "fp8_e5m2"}, {"int8", "i8"},      {"uint8", "u8"},     {"int32", "i32"},
        {"uint32", "u32"},      {"int64", "i64"},    {"uint64", "u64"}};
    const auto it = kNames.find(nccl_type);
    return it != kNames.end() ? std::string(it->second) : valid_utf8(nccl_type);
}

std::optional<double> parse_number(std::string_view word) {
    double value = 0.0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (ec != std::errc() || end != word.data() + word.size() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::optional<std::int64_t> parse_integer(std::string_view word) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (ec != std::errc() || end != word.data() + word.size()) {
        return std::nullopt;
    }
    return value;
}

std::optional<probe::Collective> collective_in(std::string_view name) {
    // "all_reduce_perf", "./build/all_reduce_perf", "all_reduce_perf_mpi", "all_reduce".
    std::optional<probe::Collective> found;
    std::size_t found_length = 0;
    for (probe::Collective c : probe::kAllCollectives) {
        const std::string_view test = probe::to_string(c);
        if (name.find(test) != std::string_view::npos && test.size() > found_length) {
            found = c;
            found_length = test.size();
        }
    }
    return found;
}

// The layout of the result rows, from the column header line ("# size count type redop root
// time algbw busbw #wrong time algbw busbw #wrong"): the leading columns, then one group of
// columns per placement (out-of-place, then in-place).
struct Columns {
    std::vector<std::string> leading;  // size, count, type, redop, root
    std::vector<std::string> group;    // time, algbw, busbw, #wrong (+ per-iteration columns)
    bool valid() const {
        return !leading.empty() && leading.front() == "size" && index_of("time") &&
               index_of("algbw") && index_of("busbw");
    }
    std::optional<std::size_t> index_of(std::string_view name) const {
        for (std::size_t i = 0; i < group.size(); ++i) {
            if (group[i] == name || (name == "time" && group[i] == "cputime")) {
                return i;
            }
        }
        return std::nullopt;
    }
    std::optional<std::size_t> leading_index(std::string_view name) const {
        for (std::size_t i = 0; i < leading.size(); ++i) {
            if (leading[i] == name) {
                return i;
            }
        }
        return std::nullopt;
    }
};

Columns columns_from_header(const std::vector<std::string_view>& words) {
    Columns c;
    bool in_group = false;
    int groups = 0;
    for (std::string_view w : words) {
        if (w == "#") {
            continue;
        }
        if (w == "time" || w == "cputime") {
            ++groups;
            in_group = true;
        }
        if (w == "timestamp") {
            break;
        }
        if (!in_group) {
            c.leading.emplace_back(w);
        } else if (groups == 1) {
            c.group.emplace_back(w);
        }
    }
    return c;
}

struct RankLine {
    std::string host;
    std::string device;
};

// "#  Rank  0 Group  0 Pid  12345 on     node01 device  0 [0000:07:00] NVIDIA H100 80GB HBM3"
// (older versions print no Group and a bus id like [0x07]).
std::optional<RankLine> rank_line(const std::vector<std::string_view>& words) {
    if (words.size() < 2 || words[0] != "#" || words[1] != "Rank") {
        return std::nullopt;
    }
    RankLine r;
    for (std::size_t i = 2; i + 1 < words.size(); ++i) {
        if (words[i] == "on") {
            r.host = valid_utf8(words[i + 1]);
        }
        if (words[i] == "device" && i + 2 < words.size()) {
            std::size_t name_from = i + 2;
            if (words[name_from].starts_with("[")) {
                ++name_from;
            }
            for (std::size_t k = name_from; k < words.size(); ++k) {
                if (!r.device.empty()) {
                    r.device.push_back(' ');
                }
                r.device.append(words[k]);
            }
            break;
        }
    }
    if (r.host.empty()) {
        return std::nullopt;
    }
    r.device = valid_utf8(r.device);
    return r;
}

// One test's section of the log.
struct Section {
    std::optional<probe::Collective> collective;
    std::size_t first_line = 0;
    std::vector<RankLine> ranks;
    Columns columns;
    std::int64_t iters = 0;
    std::vector<std::pair<std::size_t, std::vector<std::string_view>>> rows;  // line, words
    bool summarised = false;  // the test's "# Avg bus bandwidth" line came after its rows
};

}  // namespace

std::string_view to_string(ProbeFileFormat format) {
    return format == ProbeFileFormat::tally_probe ? "tally-probe" : "nccl-tests";
}

std::optional<ProbeFileFormat> parse_probe_file_format(std::string_view name) {
    if (name == "tally-probe") {
        return ProbeFileFormat::tally_probe;
    }
    if (name == "nccl-tests") {
        return ProbeFileFormat::nccl_tests;
    }
    return std::nullopt;
}

ProbeFileFormat detect_probe_file_format(std::string_view text, const std::string& file) {
    for (std::string_view line : split_lines(text)) {
        const std::string_view t = trimmed(line);
        if (t.empty()) {
            continue;
        }
        if (t.front() == '{') {
            return ProbeFileFormat::tally_probe;
        }
        break;
    }
    for (std::string_view line : split_lines(text)) {
        const std::vector<std::string_view> words = split_words(line);
        if (!words.empty() && words.front() == "#" && columns_from_header(words).valid()) {
            return ProbeFileFormat::nccl_tests;
        }
    }
    throw SpecError(file, "",
                    TALLY_TEXT("tally::probe_import",
                               "neither tally-probe JSON lines (a first line "
                               "{\"event\":\"start\",...}) nor nccl-tests output (a \"# size "
                               "count type ... busbw\" header); nothing was imported"));
}

std::string probe_content_digest(std::string_view bytes) {
    // FNV-1a, 64-bit (Fowler, Noll, Vo; offset basis 14695981039346656037, prime 1099511628211).
    std::uint64_t hash = 14695981039346656037ULL;
    for (unsigned char c : bytes) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    return fmt::format("fnv1a64:{:016x}", hash);
}

ProbeRunRecord probe_run_from_json_lines(std::string_view text, const std::string& file,
                                         bool* ended_without_done) {
    if (ended_without_done != nullptr) {
        *ended_without_done = false;
    }
    probe::RunCollector collector;
    const std::vector<std::string_view> lines = split_lines(text);
    std::size_t last_event_line = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t number = i + 1;
        const probe::ParsedLine parsed = probe::parse_line(lines[i]);
        const std::size_t notes_before = collector.run().notes.size();
        collector.add(parsed);
        if (parsed.kind == probe::ParsedLine::Kind::invalid) {
            const bool last =
                i + 1 == lines.size() || (i + 2 == lines.size() && lines[i + 1].empty());
            refuse(file, number,
                   last ? TALLY_TEXT("tally::probe_import",
                                     "%1 (the file ends inside it: was it cut short?); the "
                                     "line reads %2; nothing was imported")
                              .arg(parsed.message)
                              .arg(excerpt(lines[i]))
                        : TALLY_TEXT("tally::probe_import",
                                     "%1; the line reads %2; nothing was imported")
                              .arg(parsed.message)
                              .arg(excerpt(lines[i])));
        }
        if (parsed.kind != probe::ParsedLine::Kind::event) {
            continue;  // a blank line, or an event of a newer probe that readers skip
        }
        last_event_line = number;
        const std::vector<std::string>& notes = collector.run().notes;
        if (notes.size() > notes_before) {
            // "line N: ..." counts the lines the collector saw, which are the file's lines.
            const std::string& note = notes[notes_before];
            const std::size_t colon = note.find(": ");
            refuse(file, number,
                   TALLY_TEXT("tally::probe_import", "%1; nothing was imported")
                       .arg(colon == std::string::npos ? note : note.substr(colon + 2)));
        }
    }
    const probe::ProbeRun& run = collector.finish();
    if (!run.start) {
        if (!run.tests.empty()) {
            throw SpecError(file, "",
                            TALLY_TEXT("tally::probe_import",
                                       "the output of tally-probe --list (its tests, no "
                                       "measurements); nothing was imported"));
        }
        if (!run.errors.empty()) {
            throw SpecError(file, "",
                            TALLY_TEXT("tally::probe_import",
                                       "a run that never started: tally-probe said \"%1\"; "
                                       "nothing was imported")
                                .arg(run.errors.front().message));
        }
        throw SpecError(file, "",
                        TALLY_TEXT("tally::probe_import",
                                   "tally-probe JSON lines starting with a start event; "
                                   "nothing was imported"));
    }
    if (!run.done) {
        if (run.results.empty()) {
            refuse(file, std::max<std::size_t>(last_event_line, 1),
                   TALLY_TEXT("tally::probe_import",
                              "the run ends without a done event and without any result (the "
                              "probe was stopped, or the file was cut short); nothing was "
                              "imported"));
        }
        // A run stopped before its end (a killed job, a lost connection): stored as failed with
        // the results that arrived, as a live run that crashed is.
        if (ended_without_done != nullptr) {
            *ended_without_done = true;
        }
        ProbeRunRecord record = probe_run_record(run, ProbeRunStatus::failed, std::string());
        record.content_digest = probe_content_digest(text);
        return record;
    }
    if (run.results.empty()) {
        // The probe reports at least one result per test it runs (a failed one when a test
        // reports none), so a run without any measured nothing.
        throw SpecError(file, "",
                        TALLY_TEXT("tally::probe_import",
                                   "a complete run without any result event: nothing was "
                                   "measured; nothing was imported"));
    }
    ProbeRunRecord record = probe_run_record(run, probe_run_status(run, true), std::string());
    record.content_digest = probe_content_digest(text);
    return record;
}

ProbeRunRecord probe_run_from_nccl_tests(std::string_view text, const std::string& file,
                                         const std::string& collective,
                                         const std::string& imported_at,
                                         bool* ended_without_summary) {
    std::optional<probe::Collective> given;
    if (!collective.empty()) {
        given = probe::collective_from_string(collective);
        if (!given) {
            throw SpecError("--collective", "\"" + collective + "\"",
                            TALLY_TEXT("tally::probe_import",
                                       "all_reduce, all_gather, reduce_scatter, alltoall or "
                                       "sendrecv"));
        }
    }
    const std::optional<probe::Collective> from_file_name = collective_in(file);

    std::vector<Section> sections(1);
    const std::vector<std::string_view> lines = split_lines(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t number = i + 1;
        const std::vector<std::string_view> words = split_words(lines[i]);
        if (words.empty()) {
            continue;
        }
        Section* section = &sections.back();
        if (words.front() == "#") {
            const std::string_view body = trimmed(trimmed(lines[i]).substr(1));
            if (body.starts_with("Collective test starting:")) {
                if (!section->rows.empty() || !section->ranks.empty()) {
                    sections.emplace_back();
                    section = &sections.back();
                }
                section->first_line = number;
                section->collective = collective_in(body.substr(25));
                if (!section->collective) {
                    refuse(file, number,
                           TALLY_TEXT("tally::probe_import",
                                      "nccl-tests test %1 is not one this import reads "
                                      "(all_reduce_perf, all_gather_perf, "
                                      "reduce_scatter_perf, alltoall_perf, sendrecv_perf); "
                                      "nothing was imported")
                               .arg(excerpt(trimmed(body.substr(25)))));
                }
            } else if (const std::optional<RankLine> rank = rank_line(words)) {
                if (!section->rows.empty()) {
                    // A second test's header without the starting line (older versions).
                    sections.emplace_back();
                    section = &sections.back();
                    section->first_line = number;
                }
                section->ranks.push_back(*rank);
            } else if (words.size() > 1 && words[1] == "nThread") {
                for (std::size_t k = 1; k + 1 < words.size(); ++k) {
                    // "warmup iters: 5 iters: 20 agg iters: 1": the plain one.
                    if (words[k] == "iters:" && words[k - 1] != "warmup" && words[k - 1] != "agg") {
                        section->iters = parse_integer(words[k + 1]).value_or(0);
                    }
                }
            } else if (const Columns columns = columns_from_header(words); columns.valid()) {
                section->columns = columns;
            } else if (body.starts_with("Avg bus bandwidth")) {
                // nccl-tests prints it once a test has run every size (src/common.cu).
                section->summarised = !section->rows.empty();
            }
            continue;
        }
        // A result row starts with the size in bytes; anything else (NCCL's INFO lines, a
        // launcher's messages) is not part of the table.
        if (!parse_integer(words.front())) {
            continue;
        }
        if (!section->columns.valid()) {
            refuse(file, number,
                   TALLY_TEXT("tally::probe_import",
                              "a result row before nccl-tests' column header (# size count "
                              "type ... busbw #wrong); nothing was imported"));
        }
        section->rows.emplace_back(number, words);
    }

    ProbeRunRecord record;
    record.backend = std::string(probe::kNcclTestsBackend);
    record.started_at = imported_at;
    record.finished_at = imported_at;
    record.status = ProbeRunStatus::ok;
    record.content_digest = probe_content_digest(text);
    std::set<std::string> all_hosts;
    std::vector<std::string> host_order;
    std::string device_name;
    int max_ranks = 0;
    int max_nodes = 0;

    for (const Section& section : sections) {
        if (section.rows.empty()) {
            continue;
        }
        const std::optional<probe::Collective> c = section.collective ? section.collective
                                                   : given            ? given
                                                                      : from_file_name;
        if (!c) {
            refuse(file, section.rows.front().first,
                   TALLY_TEXT("tally::probe_import",
                              "which collective these rows measured is not in the log (older "
                              "nccl-tests print no \"# Collective test starting\" line) "
                              "nor in the file name; name it with --collective "
                              "all_reduce|all_gather|reduce_scatter|alltoall|sendrecv; "
                              "nothing was imported"));
        }
        std::set<std::string> hosts;
        for (const RankLine& r : section.ranks) {
            hosts.insert(r.host);
            if (all_hosts.insert(r.host).second) {
                host_order.push_back(r.host);
            }
            if (device_name.empty()) {
                device_name = r.device;
            }
        }
        const int ranks = static_cast<int>(section.ranks.size());
        const int nodes = static_cast<int>(hosts.size());
        max_ranks = std::max(max_ranks, ranks);
        max_nodes = std::max(max_nodes, nodes);
        const Columns& cols = section.columns;
        const std::size_t lead = cols.leading.size();
        const std::size_t width = cols.group.size();
        const std::size_t time_at = *cols.index_of("time");
        const std::size_t algbw_at = *cols.index_of("algbw");
        const std::size_t busbw_at = *cols.index_of("busbw");
        std::optional<std::size_t> wrong_at = cols.index_of("#wrong");
        if (!wrong_at) {
            wrong_at = cols.index_of("error");
        }
        const std::optional<std::size_t> count_at = cols.leading_index("count");
        const std::optional<std::size_t> type_at = cols.leading_index("type");

        for (const auto& row : section.rows) {
            // Named copies, not structured bindings: the lambda below captures them.
            const std::size_t number = row.first;
            const std::vector<std::string_view>& words = row.second;
            // Both placements, or the in-place one alone (nccl-tests leaves out-of-place blank
            // when it replays a trace); a timestamp may follow.
            std::vector<std::string_view> placements;
            std::size_t groups = 0;
            if (words.size() >= lead + 2 * width) {
                groups = 2;
            } else if (words.size() == lead + width) {
                groups = 1;
            } else {
                refuse(file, number,
                       TALLY_TEXT("tally::probe_import",
                                  "a result row of %1 columns; the header names %2 (%3 "
                                  "before out-of-place, %4 per placement); nothing was "
                                  "imported")
                           .arg(static_cast<std::int64_t>(words.size()))
                           .arg(static_cast<std::int64_t>(lead + 2 * width))
                           .arg(static_cast<std::int64_t>(lead))
                           .arg(static_cast<std::int64_t>(width)));
            }
            const std::optional<std::int64_t> size_bytes = parse_integer(words[0]);
            if (!size_bytes || *size_bytes < 0) {
                refuse(file, number,
                       TALLY_TEXT("tally::probe_import",
                                  "size %1 is not a byte count; nothing was imported")
                           .arg(excerpt(words[0])));
            }
            std::int64_t count = 0;
            if (count_at) {
                const auto parsed = parse_integer(words[*count_at]);
                if (!parsed || *parsed < 0) {
                    refuse(file, number,
                           TALLY_TEXT("tally::probe_import",
                                      "count %1 is not an element count; nothing was imported")
                               .arg(excerpt(words[*count_at])));
                }
                count = *parsed;
            }
            for (std::size_t g = 0; g < groups; ++g) {
                const std::size_t base = lead + g * width;
                const bool in_place = groups == 1 || g == 1;
                const auto field = [&](std::size_t at, std::string_view name) {
                    const std::optional<double> v = parse_number(words[base + at]);
                    // In bytes/s a number beyond 1e299 GB/s would overflow: no such rate.
                    if (!v || *v < 0.0 || *v > 1e299) {
                        refuse(
                            file, number,
                            TALLY_TEXT("tally::probe_import",
                                       "%1 (column %2, %3): %4 is not a number from 0 to "
                                       "1e299; nothing was imported")
                                .arg(name)
                                .arg(static_cast<std::int64_t>(at + base + 1))
                                .arg_translated(
                                    "tally::probe_import",
                                    in_place
                                        ? QT_TRANSLATE_NOOP("tally::probe_import", "in-place")
                                        : QT_TRANSLATE_NOOP("tally::probe_import", "out-of-place"))
                                .arg(excerpt(words[base + at])));
                    }
                    return *v;
                };
                const double time_us = field(time_at, "time");
                const double algbw_gb_s = field(algbw_at, "algbw");
                const double busbw_gb_s = field(busbw_at, "busbw");
                ProbeResultRecord r;
                r.test = std::string(probe::to_string(*c));
                r.variant = in_place ? "in_place" : "out_of_place";
                r.dtype = type_at ? probe_dtype(words[*type_at]) : std::string();
                std::string sizes = fmt::format("{{\"bytes\":{}", *size_bytes);
                if (count_at) {
                    sizes += fmt::format(",\"count\":{}", count);
                }
                if (ranks > 0) {
                    sizes += fmt::format(",\"ranks\":{},\"nodes\":{}", ranks, nodes);
                }
                r.sizes_json = sizes + "}";
                r.bytes = static_cast<double>(*size_bytes);
                // nccl-tests prints time in microseconds (its average over the iterations) and
                // bandwidths in GB/s = 1e9 bytes/s (doc/PERFORMANCE.md).
                r.median_s = time_us * 1e-6;
                r.bytes_per_s = algbw_gb_s * 1e9;
                r.bus_bytes_per_s = busbw_gb_s * 1e9;
                r.samples = section.iters > 0 ? section.iters : 1;
                const std::string_view wrong = wrong_at ? words[base + *wrong_at] : "N/A";
                if (wrong == "N/A") {
                    r.status = ProbeResultStatus::passed;
                    r.validated = false;
                    r.reason = "nccl-tests did not check the results (run with -c 0)";
                } else {
                    const std::optional<double> n = parse_number(wrong);
                    if (!n || *n < 0.0) {
                        refuse(file, number,
                               TALLY_TEXT("tally::probe_import",
                                          "#wrong %1 is neither a count nor N/A; nothing was "
                                          "imported")
                                   .arg(excerpt(wrong)));
                    }
                    r.validated = *n == 0.0;
                    r.status = *n == 0.0 ? ProbeResultStatus::passed : ProbeResultStatus::failed;
                    if (*n != 0.0) {
                        r.reason = fmt::format("nccl-tests found {} wrong elements", *n);
                        record.status = ProbeRunStatus::failed;
                    }
                }
                record.results.push_back(std::move(r));
            }
        }
    }
    if (record.results.empty()) {
        throw SpecError(file, "",
                        TALLY_TEXT("tally::probe_import",
                                   "nccl-tests output with at least one result row under its "
                                   "column header; nothing was imported"));
    }
    const bool cut = std::any_of(sections.begin(), sections.end(),
                                 [](const Section& s) { return !s.rows.empty() && !s.summarised; });
    if (cut) {
        record.status = ProbeRunStatus::failed;
    }
    if (ended_without_summary != nullptr) {
        *ended_without_summary = cut;
    }
    for (std::size_t i = 0; i < host_order.size(); ++i) {
        record.host += (i == 0 ? "" : ",") + host_order[i];
    }
    probe::DeviceEvent device;
    device.backend = std::string(probe::kNcclTestsBackend);
    device.name = device_name.empty() ? std::string("unknown GPU") : device_name;
    if (max_ranks > 0) {
        device.ranks = max_ranks;
        device.nodes = max_nodes;
    }
    record.device_json = probe::to_json_line(device);
    return record;
}

}  // namespace tally
