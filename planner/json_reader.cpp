#include "json_reader.h"

#include <algorithm>
#include <cmath>

#include "errors.h"

namespace tally {

using nlohmann::json;

ObjectReader::ObjectReader(const json& value, std::string path)
    : m_value(value), m_path(std::move(path)) {
    if (!m_value.is_object()) {
        throw SpecError(m_path.empty() ? "spec" : m_path, m_value.dump(), "must be a JSON object");
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
    const std::string allowed = "must be an integer >= " + std::to_string(min);
    if (!v->is_number()) {
        throw SpecError(field(key), v->dump(), allowed);
    }
    const double d = v->get<double>();
    // 2^53: beyond it a double no longer holds every integer.
    if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(min) ||
        d > 9007199254740992.0) {
        throw SpecError(field(key), v->dump(), allowed);
    }
    return static_cast<std::int64_t>(d);
}

std::optional<double> ObjectReader::number(std::string_view key, bool allow_zero) {
    const json* v = raw(key);
    if (!v) {
        return std::nullopt;
    }
    const char* allowed =
        allow_zero ? "must be a finite number >= 0" : "must be a finite number > 0";
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
        throw SpecError(field(key), v->dump(), "must be true or false");
    }
    return v->get<bool>();
}

std::optional<std::string> ObjectReader::string(std::string_view key) {
    const json* v = raw(key);
    if (!v) {
        return std::nullopt;
    }
    if (!v->is_string()) {
        throw SpecError(field(key), v->dump(), "must be a string");
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
        throw SpecError(field(it.key()), it.value().dump(), "unknown key; allowed here: " + list);
    }
}

}  // namespace tally
