#pragma once

#include <stdexcept>
#include <string>

namespace tally {

// A rejected input, as a value: which field (a dotted path such as "model.heads"), the value
// that was given (as the user wrote it), and what is allowed. message() joins them into one
// sentence a user can act on.
struct FieldError {
    std::string field;
    std::string value;
    std::string allowed;

    std::string message() const;
};

// Thrown by parsers and loaders; carries the FieldError so callers can mark the field.
class SpecError : public std::runtime_error {
public:
    explicit SpecError(FieldError error);
    SpecError(std::string field, std::string value, std::string allowed);

    const FieldError& error() const noexcept { return m_error; }
    const std::string& field() const noexcept { return m_error.field; }

private:
    FieldError m_error;
};

}  // namespace tally
