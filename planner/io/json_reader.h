#pragma once

// Strict reading of JSON objects for specs: every key must be known, every value of the right
// type and range; errors name the dotted field path. Used by spec_json.cpp and hf_config.cpp.

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/limits.h"

namespace tally {

// Called where a JSON parser has thrown: if `text` fails because a number is beyond a double's
// range (1e400; nlohmann's out_of_range.406), throws SpecError naming the field that holds it
// (`prefix` + its path inside the document, e.g. "data.tokens" or "ops[0].m"), the number as
// written, and what is allowed. Returns for any other parse error, so the caller can report that
// one as it does (the parser's message names line and column).
void throw_if_number_overflow(std::string_view text, const std::string& prefix);

// The deepest nesting of arrays and objects a document Tally reads may have. Specs, profiles and
// configs nest a few levels; a document nested thousands deep is not one of them, and reading,
// quoting or freeing it recurses once a level (a stack overflow at some tens of thousands).
inline constexpr int kMaxJsonDepth = 100;

// Called before a JSON parser reads `text`: throws SpecError naming `field` and `value` (the
// file, as a parse error names it) if arrays and objects in it nest deeper than kMaxJsonDepth
// (brackets inside strings do not count).
void throw_if_nested_too_deep(std::string_view text, const std::string& field,
                              const std::string& value);

// Called on text a JSON parser accepted: throws SpecError if an object in it gives a key twice,
// naming the key's field (`prefix` + its path, e.g. "data.tokens"); a parser keeps one of the two
// values, so the other would be lost without a word.
void throw_if_duplicate_key(std::string_view text, const std::string& prefix);

// A JSON parser's message without its exception id ("[json.exception.parse_error.101] parse
// error at line 1, column 2: ..." as "parse error at line 1, column 2: ..."): the line, the
// column and what was read are what a reader acts on.
std::string json_error_detail(const nlohmann::json::exception& error);

class ObjectReader {
public:
    // Throws SpecError if `value` is not an object.
    ObjectReader(const nlohmann::json& value, std::string path);

    const std::string& path() const { return m_path; }
    std::string field(std::string_view key) const;
    bool has(std::string_view key) const;
    const nlohmann::json* raw(std::string_view key);  // marks the key as read

    std::optional<std::int64_t> integer(std::string_view key, std::int64_t min);
    std::optional<double> number(std::string_view key, bool allow_zero);
    std::optional<bool> boolean(std::string_view key);
    std::optional<std::string> string(std::string_view key);
    // A sub-object reader.
    std::optional<ObjectReader> object(std::string_view key);

    // Throws SpecError for the first key never read, listing the allowed ones.
    void finish(std::initializer_list<std::string_view> allowed) const;

private:
    const nlohmann::json& m_value;
    std::string m_path;
    std::vector<std::string> m_read;
};

}  // namespace tally
