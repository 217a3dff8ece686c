#include "planner/core/errors.h"

namespace tally {

FieldError FieldError::of(std::string field, std::string value, Text allowed) {
    std::string english = allowed.english();
    return FieldError{std::move(field), std::move(value), std::move(english), std::move(allowed)};
}

std::string FieldError::message() const {
    const std::string name = field.empty() ? std::string(kFieldErrorNoField) : field;
    if (value.empty()) {
        return substitute_args(kFieldErrorWithoutValue, {name, allowed});
    }
    return substitute_args(kFieldErrorWithValue, {name, value, allowed});
}

SpecError::SpecError(FieldError error)
    : std::runtime_error(error.message()), m_error(std::move(error)) {}

SpecError::SpecError(std::string field, std::string value, std::string allowed)
    : SpecError(FieldError{std::move(field), std::move(value), std::move(allowed), {}}) {}

SpecError::SpecError(std::string field, std::string value, Text allowed)
    : SpecError(FieldError::of(std::move(field), std::move(value), std::move(allowed))) {}

}  // namespace tally
