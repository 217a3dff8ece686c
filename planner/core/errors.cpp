#include "planner/core/errors.h"

namespace tally {

std::string FieldError::message() const {
    std::string text = field.empty() ? std::string("input") : field;
    if (!value.empty()) {
        text += ": got ";
        text += value;
    }
    text += "; ";
    text += allowed;
    return text;
}

SpecError::SpecError(FieldError error)
    : std::runtime_error(error.message()), m_error(std::move(error)) {}

SpecError::SpecError(std::string field, std::string value, std::string allowed)
    : SpecError(FieldError{std::move(field), std::move(value), std::move(allowed)}) {}

}  // namespace tally
