#include "planner/io/json_reader.h"

#include <algorithm>
#include <cmath>

#include "planner/core/errors.h"

namespace tally {

using nlohmann::json;

namespace {

// Follows the parser through the document, keeping the path of the value being read, and stops
// at the first error with that path.
class PathTracker : public nlohmann::json_sax<json> {
public:
    bool null() override { return value_done(); }
    bool boolean(bool) override { return value_done(); }
    bool number_integer(number_integer_t) override { return value_done(); }
    bool number_unsigned(number_unsigned_t) override { return value_done(); }
    bool number_float(number_float_t, const string_t&) override { return value_done(); }
    bool string(string_t&) override { return value_done(); }
    bool binary(binary_t&) override { return value_done(); }
    bool start_object(std::size_t) override {
        m_levels.push_back(Level{false, 0, {}, {}});
        return true;
    }
    bool key(string_t& k) override {
        Level& level = m_levels.back();
        level.key = k;
        // A key given twice in one object: most readers keep the last silently (RFC 8259,
        // sec. 4: "the names within an object SHOULD be unique"), so one of the user's two
        // values would be dropped unseen. Stop here, the path naming the key.
        if (std::find(level.keys.begin(), level.keys.end(), k) != level.keys.end()) {
            m_duplicate = true;
            return false;
        }
        level.keys.push_back(k);
        return true;
    }
    bool end_object() override {
        m_levels.pop_back();
        return value_done();
    }
    bool start_array(std::size_t) override {
        m_levels.push_back(Level{true, 0, {}, {}});
        return true;
    }
    bool end_array() override {
        m_levels.pop_back();
        return value_done();
    }
    bool parse_error(std::size_t, const std::string& token,
                     const nlohmann::detail::exception& e) override {
        m_error_id = e.id;
        m_token = token;
        return false;
    }

    int error_id() const { return m_error_id; }
    bool duplicate() const { return m_duplicate; }
    // The key being read last (at a duplicate, the repeated one).
    std::string key() const { return m_levels.empty() ? std::string() : m_levels.back().key; }
    const std::string& token() const { return m_token; }

    // The path of the value being read when the parser stopped ("data.tokens", "ops[2].m").
    std::string path(const std::string& prefix) const {
        std::string out = prefix;
        for (const Level& l : m_levels) {
            if (l.array) {
                out += '[';
                out += std::to_string(l.index);
                out += ']';
            } else {
                if (!out.empty()) {
                    out += '.';
                }
                out += l.key;
            }
        }
        return out.empty() ? "JSON" : out;
    }

private:
    struct Level {
        bool array = false;
        std::size_t index = 0;          // arrays: the element being read
        std::string key;                // objects: the key whose value is being read
        std::vector<std::string> keys;  // objects: the keys read so far
    };

    bool value_done() {
        if (!m_levels.empty() && m_levels.back().array) {
            ++m_levels.back().index;
        }
        return true;
    }

    std::vector<Level> m_levels;
    bool m_duplicate = false;
    int m_error_id = 0;
    std::string m_token;
};

}  // namespace

void throw_if_number_overflow(std::string_view text, const std::string& prefix) {
    PathTracker tracker;
    json::sax_parse(text.begin(), text.end(), &tracker);
    // 406: "number overflow parsing '1e400'" (nlohmann/json, detail/input/parser.hpp).
    if (tracker.error_id() == 406) {
        std::string token = tracker.token();
        if (token.size() > 40) {
            token = token.substr(0, 40) + "...";
        }
        throw SpecError(tracker.path(prefix), token,
                        TALLY_TEXT("tally::spec_json",
                                   "a number out of the range of a double (magnitude at most "
                                   "about 1.8e308)"));
    }
}

std::string json_error_detail(const nlohmann::json::exception& error) {
    const std::string_view what = error.what();
    if (what.starts_with("[json.exception.")) {
        if (const std::size_t end = what.find("] "); end != std::string_view::npos) {
            return std::string(what.substr(end + 2));
        }
    }
    return std::string(what);
}

void throw_if_nested_too_deep(std::string_view text, const std::string& field,
                              const std::string& value) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') {
                ++i;  // the escaped character, a quote included
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) {
                throw SpecError(field, value,
                                TALLY_TEXT("tally::spec_json",
                                           "JSON whose arrays and objects nest at most %1 levels "
                                           "deep; this text nests them deeper")
                                    .arg(std::to_string(kMaxJsonDepth)));
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
}

void throw_if_duplicate_key(std::string_view text, const std::string& prefix) {
    PathTracker tracker;
    json::sax_parse(text.begin(), text.end(), &tracker);
    if (tracker.duplicate()) {
        // The key as given, both times: what the user wrote that is refused.
        std::string one(1, '"');
        one.append(tracker.key()).push_back('"');
        const std::string quoted = one + ", " + one;
        throw SpecError(tracker.path(prefix), quoted,
                        TALLY_TEXT("tally::spec_json",
                                   "each key once in an object; this one is given twice, and JSON "
                                   "readers differ on which of the two values they keep"));
    }
}

ObjectReader::ObjectReader(const json& value, std::string path)
    : m_value(value), m_path(std::move(path)) {
    if (!m_value.is_object()) {
        throw SpecError(m_path.empty() ? "spec" : m_path, m_value.dump(),
                        TALLY_TEXT("tally::spec_json", "must be a JSON object"));
    }
}

std::string ObjectReader::field(std::string_view key) const {
    return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
}

bool ObjectReader::has(std::string_view key) const {
    return m_value.contains(std::string(key));
}

const json* ObjectReader::raw(std::string_view key) {
    auto it = m_value.find(std::string(key));
    if (it == m_value.end()) {
        return nullptr;
    }
    m_read.emplace_back(key);
    return &*it;
}

std::optional<std::int64_t> ObjectReader::integer(std::string_view key, std::int64_t min) {
    const json* v = raw(key);
    if (!v) {
        return std::nullopt;
    }
    const Text allowed =
        TALLY_TEXT("tally::spec_json", "must be an integer >= %1 and at most 2^53 = %2")
            .arg(min)
            .arg(kMaxJsonInteger);
    if (!v->is_number()) {
        throw SpecError(field(key), v->dump(), allowed);
    }
    const double d = v->get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(min) ||
        d > static_cast<double>(kMaxJsonInteger)) {
        throw SpecError(field(key), v->dump(), allowed);
    }
    return static_cast<std::int64_t>(d);
}

std::optional<double> ObjectReader::number(std::string_view key, bool allow_zero) {
    const json* v = raw(key);
    if (!v) {
        return std::nullopt;
    }
    const Text allowed = allow_zero ? TALLY_TEXT("tally::spec_json", "must be a finite number >= 0")
                                    : TALLY_TEXT("tally::spec_json", "must be a finite number > 0");
    if (!v->is_number()) {
        throw SpecError(field(key), v->dump(), allowed);
    }
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < 0.0 || (!allow_zero && d == 0.0)) {
        throw SpecError(field(key), v->dump(), allowed);
    }
    return d;
}

std::optional<bool> ObjectReader::boolean(std::string_view key) {
    const json* v = raw(key);
    if (!v) {
        return std::nullopt;
    }
    if (!v->is_boolean()) {
        throw SpecError(field(key), v->dump(),
                        TALLY_TEXT("tally::spec_json", "must be true or false"));
    }
    return v->get<bool>();
}

std::optional<std::string> ObjectReader::string(std::string_view key) {
    const json* v = raw(key);
    if (!v) {
        return std::nullopt;
    }
    if (!v->is_string()) {
        throw SpecError(field(key), v->dump(), TALLY_TEXT("tally::spec_json", "must be a string"));
    }
    return v->get<std::string>();
}

std::optional<ObjectReader> ObjectReader::object(std::string_view key) {
    const json* v = raw(key);
    if (!v) {
        return std::nullopt;
    }
    return ObjectReader(*v, field(key));
}

void ObjectReader::finish(std::initializer_list<std::string_view> allowed) const {
    for (auto it = m_value.begin(); it != m_value.end(); ++it) {
        if (std::find(m_read.begin(), m_read.end(), it.key()) != m_read.end()) {
            continue;
        }
        std::string list;
        for (std::string_view a : allowed) {
            list += (list.empty() ? "" : ", ") + std::string(a);
        }
        throw SpecError(field(it.key()), it.value().dump(),
                        TALLY_TEXT("tally::spec_json", "unknown key; allowed here: %1").arg(list));
    }
}

}  // namespace tally
