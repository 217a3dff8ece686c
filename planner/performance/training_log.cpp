#include "planner/performance/training_log.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "planner/core/errors.h"

namespace tally {

namespace {

// The key each format prints before its figure (training_log.h cites where).
constexpr std::string_view kMegatronKey = "elapsed time per iteration (ms):";
constexpr std::string_view kNemoKey = "train_step_timing in s:";
constexpr std::string_view kTorchtitanKey = "tps:";

bool is_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// The line without terminal escape sequences (ECMA-48 CSI: ESC '[' parameters, then one final
// byte in 0x40-0x7E), which torchtitan's coloured output puts around each figure.
std::string without_escapes(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < line.size() && !(line[j] >= '\x40' && line[j] <= '\x7e')) {
                ++j;
            }
            i = j;  // the final byte (or the end)
            continue;
        }
        out += line[i];
    }
    return out;
}

// Where `key` starts in `line` as a word of its own (not preceded by a letter, digit or '_'),
// or npos.
std::size_t find_key(std::string_view line, std::string_view key) {
    for (std::size_t at = line.find(key); at != std::string_view::npos;
         at = line.find(key, at + 1)) {
        if (at == 0 || !is_word(line[at - 1])) {
            return at;
        }
    }
    return std::string_view::npos;
}

// The whole number that starts at `pos` after spaces, or nullopt.
std::optional<std::int64_t> whole_number_after(std::string_view line, std::size_t pos) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) {
        ++pos;
    }
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(line.data() + pos, line.data() + line.size(), value);
    if (ec != std::errc() || end == line.data() + pos) {
        return std::nullopt;
    }
    return value;
}

// The iteration a line reports: Megatron's and NeMo's "iteration N/M", torchtitan's "step: N".
std::int64_t iteration_of(std::string_view line, TrainingLogFormat format) {
    if (format == TrainingLogFormat::torchtitan) {
        const std::size_t at = find_key(line, "step:");
        if (at == std::string_view::npos) {
            return -1;
        }
        return whole_number_after(line, at + 5).value_or(-1);
    }
    for (std::size_t at = find_key(line, "iteration"); at != std::string_view::npos;
         at = line.find("iteration", at + 1)) {
        std::size_t pos = at + 9;
        while (pos < line.size() && line[pos] == ' ') {
            ++pos;
        }
        std::size_t digits = pos;
        while (digits < line.size() && is_digit(line[digits])) {
            ++digits;
        }
        if (digits > pos && digits < line.size() && line[digits] == '/') {
            return whole_number_after(line, pos).value_or(-1);
        }
    }
    return -1;
}

// The rank a launcher's prefix names ("[rank3]:" from torchrun, "[default3]:" from
// torchelastic's older prefix), or -1.
std::int64_t rank_of(std::string_view line) {
    for (std::string_view tag : {std::string_view("[rank"), std::string_view("[default")}) {
        const std::size_t at = line.find(tag);
        if (at == std::string_view::npos) {
            continue;
        }
        std::size_t pos = at + tag.size();
        std::size_t end = pos;
        while (end < line.size() && is_digit(line[end])) {
            ++end;
        }
        if (end > pos && end < line.size() && line[end] == ']') {
            if (auto rank = whole_number_after(line, pos)) {
                return *rank;
            }
        }
    }
    return -1;
}

std::string quoted_excerpt(std::string_view text) {
    constexpr std::size_t kMax = 60;
    std::string out = "\"";
    for (char c : text.substr(0, kMax)) {
        // Keep the message printable and valid UTF-8 whatever the log held.
        out += (c >= 0x20 && c < 0x7f && c != '"') ? c : '?';
    }
    return out + (text.size() > kMax ? "...\"" : "\"");
}

}  // namespace

std::string_view to_string(TrainingLogFormat format) {
    switch (format) {
        case TrainingLogFormat::megatron:
            return "Megatron-LM";
        case TrainingLogFormat::nemo:
            return "NeMo";
        case TrainingLogFormat::torchtitan:
            return "torchtitan";
    }
    return "?";
}

void TrainingLogReader::add_line(std::string_view raw) {
    ++m_lines;
    if (raw.find(':') == std::string_view::npos) {
        return;  // every key ends in ':'; most lines of a log are not timing lines
    }
    const std::string line = without_escapes(raw);
    TrainingLogFormat format = TrainingLogFormat::megatron;
    std::string_view key;
    std::size_t at = std::string_view::npos;
    for (const auto& [f, k] : {std::pair{TrainingLogFormat::megatron, kMegatronKey},
                               std::pair{TrainingLogFormat::nemo, kNemoKey},
                               std::pair{TrainingLogFormat::torchtitan, kTorchtitanKey}}) {
        at = find_key(line, k);
        if (at != std::string_view::npos) {
            format = f;
            key = k;
            break;
        }
    }
    if (at == std::string_view::npos) {
        return;
    }
    // The figure: the word after the key, up to a space or '|'.
    std::size_t pos = at + key.size();
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) {
        ++pos;
    }
    std::size_t end = pos;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != '|') {
        ++end;
    }
    std::string text = line.substr(pos, end - pos);
    if (format == TrainingLogFormat::nemo && text.starts_with('[')) {
        return;  // NeMo's end-of-run list of every step's timing, not one interval's
    }
    if (format == TrainingLogFormat::torchtitan) {
        // Python's "{:,}" groups thousands with commas ("12,345").
        std::erase(text, ',');
    }
    // An error names the line: "log line 12".
    const auto at_line = [this](std::string value, Text allowed) {
        FieldError error = FieldError::of(fmt::format("log line {}", m_lines), std::move(value),
                                          std::move(allowed));
        error.field_text = TALLY_TEXT("tally::training_log", "log line %1").arg(m_lines);
        return error;
    };
    double value = 0.0;
    const auto [parsed_end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || parsed_end != text.data() + text.size() ||
        !std::isfinite(value) || value <= 0.0) {
        throw SpecError(at_line(
            quoted_excerpt(line.substr(at)),
            TALLY_TEXT("tally::training_log", "a finite number > 0 after \"%1\"").arg(key)));
    }
    if (m_has_format && format != m_format) {
        throw SpecError(at_line(quoted_excerpt(line.substr(at)),
                                TALLY_TEXT("tally::training_log",
                                           "the timing lines of one run in one format (the log's "
                                           "first timing line is %1's)")
                                    .arg(to_string(m_format))));
    }
    if (format == TrainingLogFormat::megatron) {
        value /= 1000.0;  // milliseconds
    }
    const bool rate = format == TrainingLogFormat::torchtitan;
    const double lo = rate ? kMinLogTokensPerS : kMinLogStepS;
    const double hi = rate ? kMaxLogTokensPerS : kMaxLogStepS;
    if (!(value >= lo && value <= hi)) {
        throw SpecError(at_line(
            quoted_excerpt(line.substr(at)),
            rate ? TALLY_TEXT("tally::training_log", "tokens per second per GPU in [0.001, 1e12]")
                 : TALLY_TEXT("tally::training_log",
                              "a step time in [1e-9, 1e9] s (Megatron-LM's in ms: "
                              "[1e-6, 1e12])")));
    }
    m_has_format = true;
    m_format = format;
    std::int64_t global_batch = -1;
    if (format == TrainingLogFormat::megatron) {
        constexpr std::string_view kBatchKey = "global batch size:";
        if (const std::size_t b = find_key(line, kBatchKey); b != std::string_view::npos) {
            global_batch = whole_number_after(line, b + kBatchKey.size()).value_or(-1);
        }
    }
    // Every rank's records are kept; summary() picks one, whatever order the lines came in.
    m_records[rank_of(line)].push_back({value, iteration_of(line, format), global_batch});
}

std::int64_t TrainingLogReader::chosen_rank(const TrainingLogSettings& settings) const {
    std::vector<std::int64_t> ranks;  // ascending: std::map's order
    for (const auto& [rank, records] : m_records) {
        if (rank >= 0) {
            ranks.push_back(rank);
        }
    }
    if (settings.rank < 0) {
        if (ranks.empty()) {
            return -1;
        }
        // The rank the framework prints its timing line from (training_log.h): Megatron-LM's
        // last rank, NeMo's and torchtitan's rank 0, as far as the log holds them.
        return m_format == TrainingLogFormat::megatron ? ranks.back() : ranks.front();
    }
    if (m_records.count(settings.rank) > 0) {
        return settings.rank;
    }
    std::string listed;
    for (std::int64_t r : ranks) {
        listed += (listed.empty() ? "" : ", ") + std::to_string(r);
    }
    throw SpecError(
        "rank", std::to_string(settings.rank),
        ranks.empty()
            ? TALLY_TEXT("tally::training_log",
                         "no rank: the log's timing lines carry no [rankN]: prefix; leave it out")
            : TALLY_TEXT("tally::training_log", "a rank whose timing lines the log holds: %1")
                  .arg(listed));
}

std::int64_t TrainingLogReader::records(const TrainingLogSettings& settings) const {
    try {
        const auto it = m_records.find(chosen_rank(settings));
        return it == m_records.end() ? 0 : static_cast<std::int64_t>(it->second.size());
    } catch (const SpecError&) {
        return 0;
    }
}

TrainingLogSummary TrainingLogReader::summary(const TrainingLogSettings& settings) const {
    TrainingLogSummary s;
    s.format = m_format;
    s.lines = m_lines;
    if (m_records.empty()) {
        // Counted in words a reader would write: "its one line", else "its N lines".
        throw SpecError("log", std::string(),
                        m_lines == 1
                            ? TALLY_TEXT("tally::training_log",
                                         "a training log with lines of \"elapsed time per "
                                         "iteration (ms): X\" (Megatron-LM), \"train_step_timing "
                                         "in s: X\" (NeMo) or \"tps: N\" (torchtitan); its one "
                                         "line is not one")
                            : TALLY_TEXT("tally::training_log",
                                         "a training log with lines of \"elapsed time per "
                                         "iteration (ms): X\" (Megatron-LM), \"train_step_timing "
                                         "in s: X\" (NeMo) or \"tps: N\" (torchtitan); none of "
                                         "its %1 lines is one")
                                  .arg(m_lines));
    }
    s.rank = chosen_rank(settings);
    const std::vector<Record>& records = m_records.at(s.rank);
    s.records = static_cast<std::int64_t>(records.size());
    for (const auto& [rank, other] : m_records) {
        if (rank != s.rank) {
            s.other_rank_records += static_cast<std::int64_t>(other.size());
        }
    }
    if (settings.skip_records < 0 || settings.skip_records > kMaxSkipRecords ||
        settings.skip_records >= s.records) {
        throw SpecError("skip_records", std::to_string(settings.skip_records),
                        TALLY_TEXT("tally::training_log",
                                   "0 or more and fewer than the log's %1 timing records "
                                   "(the first ones are dropped as warm-up; 0 keeps them all)")
                            .arg(s.records));
    }
    s.skipped = settings.skip_records;
    s.used = s.records - s.skipped;
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(s.used));
    for (std::size_t i = static_cast<std::size_t>(s.skipped); i < records.size(); ++i) {
        values.push_back(records[i].value);
        if (const std::int64_t batch = records[i].global_batch; batch > 0) {
            s.global_batch_min =
                s.global_batch_min < 0 ? batch : std::min(s.global_batch_min, batch);
            s.global_batch_max = std::max(s.global_batch_max, batch);
        }
    }
    for (std::size_t i = records.size(); i-- > 0;) {
        if (records[i].global_batch > 0 && records.back().global_batch > 0 &&
            records[i].global_batch != records.back().global_batch) {
            s.records_before_last_batch = static_cast<std::int64_t>(i) + 1;
            break;
        }
    }
    s.first_iteration = records[static_cast<std::size_t>(s.skipped)].iteration;
    s.last_iteration = records.back().iteration;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    s.median = n % 2 == 1 ? values[n / 2] : 0.5 * values[n / 2 - 1] + 0.5 * values[n / 2];
    s.min = values.front();
    s.max = values.back();
    return s;
}

TrainingLogSummary read_training_log(std::string_view text, const TrainingLogSettings& settings) {
    TrainingLogReader reader;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (line.ends_with('\r')) {
            line.remove_suffix(1);
        }
        reader.add_line(line);
        if (nl == std::string_view::npos) {
            break;
        }
        text.remove_prefix(nl + 1);
    }
    return reader.summary(settings);
}

}  // namespace tally
