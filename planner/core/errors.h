#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "planner/core/text.h"

namespace tally {

// A rejected input, as a value: which field (a dotted path such as "model.heads"), the value
// that was given (as the user wrote it), and what is allowed. message() joins them into one
// sentence a user can act on. `allowed_text`, when set, is `allowed` in translatable form
// (core/text.h): `allowed` is then its English and the UI shows its translation. `field_text`,
// when set, is the field the same way, for a field named in words ("num-layers (line 12)").
struct FieldError {
    std::string field;
    std::string value;
    std::string allowed;
    Text allowed_text{};
    Text field_text{};

    // The error with a translatable "allowed" (allowed = text.english()).
    static FieldError of(std::string field, std::string value, Text allowed);

    std::string message() const;
};

// A value as an error message quotes it: whole up to 80 characters; a longer one (a pasted
// paragraph, a 300-letter name) as its first 48 and last 16 characters around "…" and its length,
// so that the message stays a line a window or a terminal can show.
// `length_format` words the length ("%1 characters", kValueLength translated).
inline constexpr const char* kValueLength = QT_TRANSLATE_NOOP("tally::FieldError", "%1 characters");
std::string shown_error_value(const std::string& value,
                              const std::string& length_format = kValueLength);

// Whether `text` is well-formed UTF-8 (RFC 3629, sec. 4: no overlong forms, no surrogates, nothing
// above U+10FFFF). Names and notes the user types are stored and printed as JSON, which holds
// only UTF-8 text.
bool is_valid_utf8(std::string_view text);

// A text value as an error message quotes it: in JSON's double quotes, with its escapes, and any
// byte that is not UTF-8 shown as U+FFFD, so that quoting bad input never fails itself.
std::string quoted_value(std::string_view text);

// The frame message() puts around the field, the value and what is allowed, for translation:
// "%1: got %2; %3" (field, value, allowed) and "%1; %2" when no value was given; the field is
// "input" when none is named.
inline constexpr const char* kFieldErrorContext = "tally::FieldError";
inline constexpr const char* kFieldErrorWithValue =
    QT_TRANSLATE_NOOP("tally::FieldError", "%1: got %2; %3");
inline constexpr const char* kFieldErrorWithoutValue =
    QT_TRANSLATE_NOOP("tally::FieldError", "%1; %2");
inline constexpr const char* kFieldErrorNoField = QT_TRANSLATE_NOOP("tally::FieldError", "input");
// The value an error shows when the user gave none (the frame's %2), in the same context, so the
// UI and the CLI translate it with the frame: a key that is missing, a value left empty, a field
// that must not be given beside another. A value the user wrote is shown as written.
inline constexpr const char* kValueNothing = QT_TRANSLATE_NOOP("tally::FieldError", "nothing");
inline constexpr const char* kValueNone = QT_TRANSLATE_NOOP("tally::FieldError", "none");
inline constexpr const char* kValueAbsent = QT_TRANSLATE_NOOP("tally::FieldError", "absent");
inline constexpr const char* kValueMissing = QT_TRANSLATE_NOOP("tally::FieldError", "missing");
inline constexpr const char* kValueNoValue = QT_TRANSLATE_NOOP("tally::FieldError", "no value");
inline constexpr const char* kValueGivenWithPreset =
    QT_TRANSLATE_NOOP("tally::FieldError", "given with preset");
// A command-line switch given without a value (a launch configuration's `--sequence-parallel`).
inline constexpr const char* kValueSwitch = QT_TRANSLATE_NOOP("tally::FieldError", "a switch");
inline constexpr const char* kPlaceholderValues[] = {
    kValueNothing,         kValueNone,  kValueAbsent, kValueMissing, kValueNoValue,
    kValueGivenWithPreset, kValueSwitch};

// Thrown by parsers and loaders; carries the FieldError so callers can mark the field.
class SpecError : public std::runtime_error {
public:
    explicit SpecError(FieldError error);
    SpecError(std::string field, std::string value, std::string allowed);
    SpecError(std::string field, std::string value, Text allowed);

    const FieldError& error() const noexcept { return m_error; }
    const std::string& field() const noexcept { return m_error.field; }

private:
    FieldError m_error;
};

}  // namespace tally
