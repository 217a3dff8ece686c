#include "planner/core/errors.h"

#include <vector>

#include <nlohmann/json.hpp>

namespace tally {

FieldError FieldError::of(std::string field, std::string value, Text allowed) {
    std::string english = allowed.english();
    return FieldError{std::move(field), std::move(value), std::move(english), std::move(allowed)};
}

namespace {

// The byte offsets at which the UTF-8 characters of `text` start.
std::vector<std::size_t> character_starts(const std::string& text) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            starts.push_back(i);
        }
    }
    return starts;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
        const unsigned char lead = byte(i);
        std::size_t length = 0;
        char32_t code = 0;
        char32_t least = 0;
        if (lead < 0x80) {
            ++i;
            continue;
        } else if ((lead & 0xE0) == 0xC0) {
            length = 2, code = lead & 0x1F, least = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3, code = lead & 0x0F, least = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4, code = lead & 0x07, least = 0x10000;
        } else {
            return false;  // a continuation byte first, or 0xF8..0xFF
        }
        if (i + length > text.size()) {
            return false;
        }
        for (std::size_t k = 1; k < length; ++k) {
            if ((byte(i + k) & 0xC0) != 0x80) {
                return false;
            }
            code = (code << 6) | (byte(i + k) & 0x3F);
        }
        if (code < least || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
            return false;
        }
        i += length;
    }
    return true;
}

std::string quoted_value(std::string_view text) {
    return nlohmann::json(std::string(text))
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string shown_error_value(const std::string& value, const std::string& length_format) {
    constexpr std::size_t kWhole = 80;
    constexpr std::size_t kHead = 48;
    constexpr std::size_t kTail = 16;
    const std::vector<std::size_t> starts = character_starts(value);
    if (starts.size() <= kWhole) {
        return value;
    }
    return value.substr(0, starts[kHead]) + "…" + value.substr(starts[starts.size() - kTail]) +
           " (" + substitute_args(length_format, {std::to_string(starts.size())}) + ")";
}

std::string FieldError::message() const {
    const std::string name = field.empty() ? std::string(kFieldErrorNoField) : field;
    if (value.empty()) {
        return substitute_args(kFieldErrorWithoutValue, {name, allowed});
    }
    return substitute_args(kFieldErrorWithValue, {name, shown_error_value(value), allowed});
}

SpecError::SpecError(FieldError error)
    : std::runtime_error(error.message()), m_error(std::move(error)) {}

SpecError::SpecError(std::string field, std::string value, std::string allowed)
    : SpecError(FieldError{std::move(field), std::move(value), std::move(allowed), {}}) {}

SpecError::SpecError(std::string field, std::string value, Text allowed)
    : SpecError(FieldError::of(std::move(field), std::move(value), std::move(allowed))) {}

}  // namespace tally
