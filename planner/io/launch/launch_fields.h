#pragma once

// Inside planner/io/launch: the shape of a target's table of fields, and the text forms the
// engine reads and writes. launch_tables.cpp holds one table per target; launch_config.cpp runs
// them; launch_forms.cpp turns flat settings into text and back.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planner/core/errors.h"
#include "planner/core/spec.h"
#include "planner/io/launch/launch_config.h"

namespace tally::launch {

// A value as a target holds it.
// A list of words: an argparse nargs='*' argument (`--recompute-modules layernorm moe_act`), a
// Python list in NeMo-Run's overrides (`["layernorm","moe_act"]`).
struct Words {
    std::vector<std::string> items;
    bool operator==(const Words&) const = default;
};
using Value = std::variant<bool, std::int64_t, double, std::string, Words>;

enum class Kind {
    flag,     // an argparse store_true switch: written bare when true, left out when false
    boolean,  // true/false
    integer,
    real,
    text,
    words,  // a list of words (Words)
};

// One field of a target's table: its name there, its kind, the spec field it carries, how to
// read it from a spec (nullopt: not written) and how to lay a value onto a spec. Setters run in
// table order, so a field may use the spec fields set by the rows above it.
struct Field {
    std::string_view key;
    Kind kind;
    std::string_view spec_field;
    std::optional<Value> (*get)(const PlanSpec&);
    void (*set)(PlanSpec&, const Value&);
    // What the framework assumes when the file leaves the field out; nullopt: the spec keeps
    // its value.
    std::optional<Value> absent = std::nullopt;
    // Megatron's printed argument block names a field by its argparse dest; empty: the key with
    // '-' as '_'. `log_inverted`: a store_false switch, printed as the opposite.
    std::string_view log_name = {};
    bool log_inverted = false;
    bool log_only = false;  // read from a log block, never written
};

// A setting the target cannot express: nullopt, or the error naming the spec field, its text
// ending with "(<title> cannot express it)" for the target's title.
using Refusal = std::optional<FieldError> (*)(const PlanSpec&, std::string_view title);

enum class Form {
    arguments,  // `launcher ... script.py --key value ...` (Megatron-LM); also its log block
    overrides,  // `key=value` (NeMo-Run's command line)
    toml,
    json,
    yaml,
};

struct Table {
    LaunchTarget target;
    std::string_view name;
    // "Megatron-LM arguments": a literal, translatable under "tally::launch" (messages give it as
    // arg_translated(), the window and CLI translate it where they show it).
    std::string_view title;
    std::string_view extension;
    Form form;
    std::vector<Field> fields;
    std::vector<Refusal> refusals;
    // The framework's own settings that do not change the plan: exact keys, or prefixes that end
    // in '.'; reported as read-but-ignored on import.
    std::vector<std::string_view> ignored;
    // Runs after the fields are laid on: what a target implies (its engine) and what it
    // derives from several fields at once; adds its guesses to `out`.
    void (*finish)(PlanSpec&, LaunchImport& out, const LaunchImportOptions& options);
    // Spec fields the framework fixes by its design, with no setting of their own: finish() sets
    // them, so an import does not list them among its assumptions.
    std::vector<std::string_view> implied = {};
    // Where the framework runs a plan other than the spec says, without refusing it: said in the
    // export's notes (nullptr: never).
    std::vector<Text> (*notes)(const PlanSpec&) = nullptr;
    // Spec fields the plan rests on that the target's file has no setting for and the framework
    // does not fix (a DeepSpeed config has no sequence length): the export carries them beside
    // Tally's own settings ("# tally:" lines, a JSON config's "tally" object) and the import reads
    // them back, so the plan comes back as it went.
    std::vector<std::string_view> carried = {};
};

const Table& table(LaunchTarget target);

// The GPUs one host drives, a launcher's processes a node: the catalog part's where it says (a
// GB200 NVL72 tray: 4, though NVLink joins 72), else the spec's GPUs per node, else 8 (an
// HGX/DGX board).
std::int64_t host_gpus(const PlanSpec& spec);

// A flat setting of a parsed file, before a table reads it.
struct Setting {
    std::string key;
    std::string raw;  // as written, for messages
    Value value;      // typed as the form gives it (TOML, JSON, YAML); text for the argument forms
    int line = 0;
    bool present_without_value = false;  // a bare `--flag`
};

struct Parsed {
    std::vector<Setting> settings;
    bool log_block = false;  // Megatron's printed argument block
};

// The text forms. Parsers throw SpecError naming the line for malformed text.
std::string write_form(Form form, const std::vector<std::pair<std::string, Value>>& settings,
                       std::string_view header);
Parsed parse_form(Form form, const std::string& text);

std::string value_text(const Value& value);

// How many settings an import read and ignored (import_description()).
struct LaunchImportCounts {
    std::size_t read = 0;
    std::size_t ignored = 0;
};

// Refuses a file that is not UTF-8, naming the first line that is not: what an import reads
// into a plan (its name, a checkpoint) is kept as JSON, which holds only UTF-8 text.
void require_utf8(const std::string& text);

// An imported plan's description: where it came from ("Imported from FILE as TITLE: N settings
// read, M ignored."), then each assumption and the settings Tally did not know, in English (the
// spec keeps it as written).
std::string import_description(const std::string& file_name, std::string_view title,
                               const LaunchImportCounts& counts, const std::vector<Text>& guesses,
                               const std::vector<LaunchSetting>& unknown);

// One word of a shell command line and the line it starts on.
struct Token {
    std::string text;
    int line = 1;
};

// Splits a shell command line: whitespace separates, a backslash before a newline joins lines,
// quotes group, '#' at the start of a word comments out the rest of its line. An unclosed quote
// throws SpecError naming its line.
std::vector<Token> shell_tokens(const std::string& text);

}  // namespace tally::launch
