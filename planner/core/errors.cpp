#include "planner/core/errors.h"

#include <vector>

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
