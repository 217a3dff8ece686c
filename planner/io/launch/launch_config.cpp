// The engine that runs a target's table both ways: a spec through the rows' getters into the
// target's form, and a parsed file through the rows' setters into a spec.
#include "planner/io/launch/launch_config.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/user_profiles.h"
#include "planner/io/launch/launch_fields.h"
#include "planner/io/spec_json.h"
#include "planner/model/accounting.h"
#include "planner/model/params.h"
#include "planner/performance/engine.h"
#include "planner/training/plan.h"

namespace tally {

namespace {

using launch::Field;
using launch::Form;
using launch::Kind;
using launch::Setting;
using launch::Table;
using launch::Value;

std::string where(const Setting& s) {
    return s.line > 0 ? fmt::format("{} (line {})", s.key, s.line) : s.key;
}

// where(s) as a translatable text, for a setting with a line; empty otherwise (the key alone).
Text where_text(const Setting& s) {
    return s.line > 0 ? TALLY_TEXT("tally::launch", "%1 (line %2)").arg(s.key).arg(s.line) : Text();
}

// An error naming the setting (and its line).
FieldError setting_error(const Setting& s, std::string value, Text allowed) {
    FieldError error = FieldError::of(where(s), std::move(value), std::move(allowed));
    error.field_text = where_text(s);
    return error;
}

// A check() error on a spec field, named by the file's settings that gave it: the user reads
// "tensor-model-parallel-size (line 34, read as training.tp)", not only the spec's name for it.
// A field no setting gave (a guess, a default) keeps the spec's name.
FieldError located_in_file(FieldError error, const std::vector<LaunchSetting>& read) {
    std::vector<const LaunchSetting*> from;
    for (const LaunchSetting& r : read) {
        if (r.spec_field == error.field) {
            from.push_back(&r);
        }
    }
    if (from.empty()) {
        return error;
    }
    std::string keys;
    std::set<int> line_numbers;
    for (const LaunchSetting* r : from) {
        keys += (keys.empty() ? "" : ", ") + r->key;
        if (r->line > 0) {
            line_numbers.insert(r->line);
        }
    }
    std::string lines;
    for (const int line : line_numbers) {
        lines += fmt::format("{}{}", lines.empty() ? "" : ", ", line);
    }
    const std::size_t distinct_lines = line_numbers.size();
    Text where;
    if (distinct_lines == 0) {
        where = TALLY_TEXT("tally::launch", "%1 (read as %2)").arg(keys).arg(error.field);
    } else if (distinct_lines == 1) {
        where = TALLY_TEXT("tally::launch", "%1 (line %2, read as %3)")
                    .arg(keys)
                    .arg(lines)
                    .arg(error.field);
    } else {
        where = TALLY_TEXT("tally::launch", "%1 (lines %2, read as %3)")
                    .arg(keys)
                    .arg(lines)
                    .arg(error.field);
    }
    error.field = where.english();
    error.field_text = std::move(where);
    return error;
}

std::string lower(std::string t) {
    std::transform(t.begin(), t.end(), t.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return t;
}

std::optional<bool> bool_from_text(const std::string& raw) {
    const std::string t = lower(raw);
    if (t == "true") {
        return true;
    }
    if (t == "false") {
        return false;
    }
    return std::nullopt;
}

// The setting's value as the row's kind; SpecError naming the setting when it is not one.
Value typed(const Setting& s, const Field& f, bool log_block, bool command_line) {
    const auto fail = [&](Text allowed) -> Value {
        throw SpecError(setting_error(
            s, s.raw.empty() ? std::string(kValueNoValue) : "\"" + s.raw + "\"", allowed));
    };
    const std::string* text = std::get_if<std::string>(&s.value);
    switch (f.kind) {
        case Kind::flag:
            if (log_block) {
                const std::optional<bool> b = text ? bool_from_text(*text) : std::nullopt;
                if (!b) {
                    return fail(TALLY_TEXT("tally::launch", "True or False"));
                }
                return Value{*b != f.log_inverted};
            }
            if (s.present_without_value) {
                return Value{true};
            }
            if (command_line) {
                return fail(TALLY_TEXT("tally::launch",
                                       "a switch without a value (argparse's store_true)"));
            }
            if (const bool* b = std::get_if<bool>(&s.value)) {
                return Value{*b};
            }
            if (text && !s.raw.empty()) {
                if (const std::optional<bool> b = bool_from_text(*text)) {
                    return Value{*b};  // key=value forms spell a switch as a boolean
                }
            }
            return fail(TALLY_TEXT("tally::launch", "a switch without a value"));
        case Kind::boolean: {
            if (const bool* b = std::get_if<bool>(&s.value)) {
                return Value{*b};
            }
            if (const std::optional<bool> b = text ? bool_from_text(*text) : std::nullopt) {
                return Value{*b};
            }
            return fail(TALLY_TEXT("tally::launch", "true or false"));
        }
        case Kind::integer: {
            if (const std::int64_t* i = std::get_if<std::int64_t>(&s.value)) {
                return Value{*i};
            }
            if (text) {
                std::int64_t v = 0;
                const char* begin = text->data();
                const char* end = begin + text->size();
                const auto [ptr, ec] = std::from_chars(begin, end, v);
                if (ec == std::errc() && ptr == end && !text->empty()) {
                    return Value{v};
                }
            }
            return fail(TALLY_TEXT("tally::launch", "an integer"));
        }
        case Kind::real: {
            if (const double* d = std::get_if<double>(&s.value)) {
                if (std::isfinite(*d)) {
                    return Value{*d};
                }
                return fail(TALLY_TEXT("tally::launch", "a finite number"));
            }
            if (const std::int64_t* i = std::get_if<std::int64_t>(&s.value)) {
                return Value{static_cast<double>(*i)};
            }
            if (text && !text->empty()) {
                double v = 0.0;
                const char* begin = text->data();
                const char* end = begin + text->size();
                const auto [ptr, ec] = std::from_chars(begin, end, v);
                if (ec == std::errc() && ptr == end && std::isfinite(v)) {
                    return Value{v};
                }
            }
            return fail(TALLY_TEXT("tally::launch", "a number"));
        }
        case Kind::text:
            if (text) {
                return Value{*text};
            }
            return Value{launch::value_text(s.value)};
        case Kind::words: {
            if (const launch::Words* w = std::get_if<launch::Words>(&s.value)) {
                return Value{*w};
            }
            // As the forms give it: words apart (`--recompute-modules layernorm moe_act`), a
            // Python list (`["layernorm","moe_act"]`, NeMo-Run's overrides; `['layernorm',
            // 'moe_act']`, Megatron's printed argument block), or one word.
            launch::Words words;
            std::string word;
            const auto flush = [&] {
                if (!word.empty()) {
                    words.items.push_back(word);
                    word.clear();
                }
            };
            for (const char c : text ? *text : launch::value_text(s.value)) {
                if (c == ' ' || c == ',' || c == '\t' || c == '\n') {
                    flush();
                } else if (c != '[' && c != ']' && c != '"' && c != '\'') {
                    word += c;
                }
            }
            flush();
            return Value{words};
        }
    }
    return fail(TALLY_TEXT("tally::launch", "a value"));
}

// The name a row has in Megatron-LM's printed argument block: its argparse dest.
std::string log_name(const Field& f) {
    if (!f.log_name.empty()) {
        return std::string(f.log_name);
    }
    std::string name(f.key);
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

// The table's row a file's setting belongs to (a printed argument block names rows by their
// argparse dest), or t.fields.end().
std::vector<Field>::const_iterator row_of(const Table& t, const launch::Parsed& parsed,
                                          const Setting& s) {
    return std::find_if(t.fields.begin(), t.fields.end(), [&](const Field& f) {
        return parsed.log_block ? log_name(f) == s.key : (!f.log_only && f.key == s.key);
    });
}

// A setting as the import lists it: a switch given without a value reads "on".
LaunchSetting listed(const Setting& s) {
    return LaunchSetting{s.key, s.present_without_value ? "on" : s.raw, s.line, {}};
}

bool is_ignored(const Table& t, const std::string& key) {
    return std::any_of(t.ignored.begin(), t.ignored.end(), [&](std::string_view ig) {
        return ig.back() == '.' ? key.rfind(ig, 0) == 0 : key == ig;
    });
}

void lay(PlanSpec& spec, const Field& f, const Value& v, const std::string& where,
         const Text& where_text, const std::string& raw) {
    try {
        f.set(spec, v);
    } catch (const SpecError& e) {
        FieldError error = e.error();
        error.field = where;
        error.field_text = where_text;
        if (error.value.empty()) {
            error.value = raw;
        }
        throw SpecError(std::move(error));
    }
}

std::optional<double> number_from_text(const std::string& text) {
    double v = 0.0;
    const char* begin = text.data();
    const char* end = begin + text.size();
    const auto [ptr, ec] = std::from_chars(begin, end, v);
    if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v)) {
        return std::nullopt;
    }
    return v;
}

// ---- Tally's own settings, carried in comments --------------------------------------------------

std::string yes_no(bool v) {
    return v ? "true" : "false";
}

// The plan's settings that no framework reads. An export writes them into the file's comment
// header, one "# tally: FIELD = VALUE" line each, where the form has comments (all but JSON), and
// an import reads them back, so a plan keeps its GPU, MFU, price and FLOPs formula through a
// framework's file. A value is checked as the spec JSON checks it; `set` throws SpecError with
// what is allowed.
struct TallySetting {
    std::string_view field;
    std::string (*get)(const PlanSpec&);
    void (*set)(PlanSpec&, const std::string&);
};

const std::vector<TallySetting>& tally_settings() {
    static const std::vector<TallySetting> all = {
        // The plan's name, so that an import gives back the plan the user named, not one named
        // after the file. On one line: a line break would end the comment. Empty: unnamed, and
        // the import names the plan after its file.
        {"name",
         [](const PlanSpec& s) {
             std::string name = s.name;
             std::replace_if(
                 name.begin(), name.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
             return name;
         },
         [](PlanSpec& s, const std::string& v) { s.name = v; }},
        {"cluster.gpu", [](const PlanSpec& s) { return s.cluster.gpu; },
         [](PlanSpec& s, const std::string& v) {
             // A profile id, built-in (tally hardware) or a workspace's own: the workspace's
             // rule for ids.
             validate_profile_id(v, "");
             s.cluster.gpu = v;
         }},
        {"cluster.mfu",
         [](const PlanSpec& s) {
             return s.cluster.mfu_predicted ? std::string("predicted")
                                            : fmt::format("{}", s.cluster.mfu);
         },
         [](PlanSpec& s, const std::string& v) {
             if (v == "predicted") {
                 s.cluster.mfu_predicted = true;
                 return;
             }
             const std::optional<double> mfu = number_from_text(v);
             if (!mfu || *mfu < 0.001 || *mfu > 1.0) {
                 throw SpecError("", "\"" + v + "\"",
                                 TALLY_TEXT("tally::launch",
                                            "a number in [0.001, 1] (an assumed MFU) or "
                                            "predicted"));
             }
             s.cluster.mfu = *mfu;
             s.cluster.mfu_predicted = false;
         }},
        {"cluster.price_per_gpu_hour",
         [](const PlanSpec& s) {
             return s.cluster.price_per_gpu_hour ? fmt::format("{}", *s.cluster.price_per_gpu_hour)
                                                 : std::string("none");
         },
         [](PlanSpec& s, const std::string& v) {
             if (v == "none") {
                 s.cluster.price_per_gpu_hour.reset();
                 return;
             }
             const std::optional<double> price = number_from_text(v);
             if (!price || *price < 0.0) {
                 throw SpecError("", "\"" + v + "\"",
                                 TALLY_TEXT("tally::launch", "a number >= 0 or none"));
             }
             if (*price > 0.0) {  // 0: the profile's, as a spec reads it
                 s.cluster.price_per_gpu_hour = *price;
             }
         }},
        // Which attention kernel the step is timed with when the plan names one (engine: the
        // engine's for the part): the launch files choose a backend at best, not a kernel
        // version (FlashAttention-2 or -3 is whichever the container installed).
        {"training.attention_kernel",
         [](const PlanSpec& s) { return std::string(to_string(s.training.attention_kernel)); },
         [](PlanSpec& s, const std::string& v) {
             constexpr AttentionKernel kAll[] = {AttentionKernel::engine, AttentionKernel::flash2,
                                                 AttentionKernel::flash3, AttentionKernel::cudnn,
                                                 AttentionKernel::triton, AttentionKernel::flash1};
             for (AttentionKernel k : kAll) {
                 if (v == to_string(k)) {
                     s.training.attention_kernel = k;
                     return;
                 }
             }
             throw SpecError("", "\"" + v + "\"",
                             TALLY_TEXT("tally::launch",
                                        "engine, flash2, flash3, cudnn, triton "
                                        "or flash1"));
         }},
        // Whether the memory counts the activations a recomputed layer re-materialises in the
        // backward: a way of counting, no framework's setting.
        {"training.recompute_working_set",
         [](const PlanSpec& s) { return yes_no(s.training.recompute_working_set); },
         [](PlanSpec& s, const std::string& v) {
             if (v != "true" && v != "false") {
                 throw SpecError("", "\"" + v + "\"", TALLY_TEXT("tally::launch", "true or false"));
             }
             s.training.recompute_working_set = v == "true";
         }},
        // The exact token count: the frameworks count a run in whole samples or steps, so the
        // tokens come back rounded to a sequence or a step without it. Applied on import only
        // while the file's own count still rounds from it (edited_token_count() below).
        {"data.tokens", [](const PlanSpec& s) { return fmt::format("{}", s.data.tokens); },
         [](PlanSpec& s, const std::string& v) {
             // The spec JSON's bounds (check(), planner/training/check.cpp).
             const std::optional<double> tokens = number_from_text(v);
             if (!tokens || *tokens <= 0.0 || *tokens > 1e30) {
                 throw SpecError("", "\"" + v + "\"",
                                 TALLY_TEXT("tally::launch", "a number in (0, 1e30]"));
             }
             s.data.tokens = *tokens;
         }},
        // The context the model's configuration serves (serving plans are warned past it): no
        // training framework's setting. "none": unstated, and the import keeps what the model's
        // config.json says (--hf-config).
        {"model.context_length",
         [](const PlanSpec& s) {
             return s.model.context_length > 0 ? std::to_string(s.model.context_length)
                                               : std::string("none");
         },
         [](PlanSpec& s, const std::string& v) {
             if (v == "none") {
                 return;
             }
             std::int64_t n = 0;
             const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
             if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n < 1) {
                 throw SpecError("", "\"" + v + "\"",
                                 TALLY_TEXT("tally::launch", "a whole number >= 1 or none"));
             }
             s.model.context_length = n;
         }},
        {"training.flops_formula",
         [](const PlanSpec& s) { return std::string(to_string(s.training.flops_formula)); },
         [](PlanSpec& s, const std::string& v) {
             for (FlopsFormula f : {FlopsFormula::six_nd, FlopsFormula::attention}) {
                 if (v == to_string(f)) {
                     s.training.flops_formula = f;
                     return;
                 }
             }
             throw SpecError("", "\"" + v + "\"",
                             TALLY_TEXT("tally::launch", "%1 or %2")
                                 .arg(to_string(FlopsFormula::six_nd))
                                 .arg(to_string(FlopsFormula::attention)));
         }},
    };
    return all;
}

// A count of a carried setting (a sequence length, a batch): a whole number >= `min`; check(),
// which the import runs last, holds it to the plan's other bounds.
std::int64_t whole_number(const std::string& v, std::int64_t min) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n < min) {
        throw SpecError("", "\"" + v + "\"",
                        TALLY_TEXT("tally::launch", "a whole number >= %1").arg(min));
    }
    return n;
}

// The plan's settings a target's file may have no setting for (Table::carried lists which):
// carried as Tally's own settings are, so that an import gives the plan back.
const std::vector<TallySetting>& carried_settings() {
    static const std::vector<TallySetting> all = {
        {"data.seq_len", [](const PlanSpec& s) { return std::to_string(s.data.seq_len); },
         [](PlanSpec& s, const std::string& v) { s.data.seq_len = whole_number(v, 1); }},
        {"data.micro_batch", [](const PlanSpec& s) { return std::to_string(s.data.micro_batch); },
         [](PlanSpec& s, const std::string& v) { s.data.micro_batch = whole_number(v, 1); }},
        // 0: one micro-batch per data-parallel rank (DataSpec::global_batch).
        {"data.global_batch", [](const PlanSpec& s) { return std::to_string(s.data.global_batch); },
         [](PlanSpec& s, const std::string& v) { s.data.global_batch = whole_number(v, 0); }},
    };
    return all;
}

// What a target's export writes beside its own settings and its import reads back: Tally's own
// settings, then the ones its table carries.
std::vector<const TallySetting*> settings_of(const Table& t) {
    std::vector<const TallySetting*> out;
    for (const TallySetting& s : tally_settings()) {
        out.push_back(&s);
    }
    for (const TallySetting& s : carried_settings()) {
        if (std::find(t.carried.begin(), t.carried.end(), s.field) != t.carried.end()) {
            out.push_back(&s);
        }
    }
    return out;
}

constexpr std::string_view kTallyMarker = "tally:";
// A JSON config has no comments: the settings ride in a top-level object of this name, which
// DeepSpeed passes over (DeepSpeedConfig._initialize_params in deepspeed/runtime/config.py reads
// each key it knows from the dict by name and checks no others; deepspeedai/DeepSpeed at
// 029f12b3c6b94750ff9d93c5d7e6e98b603cf78e).
constexpr std::string_view kTallyObject = "tally.";

// The comment block an export writes: a line that says what it is, then one line per setting
// (comment_lines() in launch_forms.cpp puts the "# " before each).
std::string tally_block(const PlanSpec& spec, const Table& t) {
    std::string block = "Tally's own settings: no framework reads them; tally import does";
    for (const TallySetting& s : tally_settings()) {
        block += fmt::format("\n{} {} = {}", kTallyMarker, s.field, s.get(spec));
    }
    if (!t.carried.empty()) {
        block += fmt::format(
            "\nThe plan's settings {} has no setting for (the training script sets them); tally "
            "import reads them",
            t.title);
        for (const TallySetting* s : settings_of(t)) {
            if (std::find(t.carried.begin(), t.carried.end(), s->field) != t.carried.end()) {
                block += fmt::format("\n{} {} = {}", kTallyMarker, s->field, s->get(spec));
            }
        }
    }
    return block;
}

struct TallyLine {
    std::string key;
    std::string value;
    int line = 0;
};

// The "# tally: FIELD = VALUE" lines of a file, with their line numbers; SpecError for a marked
// line without " = ". Read by hand, not by std::regex: a line ending in '\r' (a file saved on
// Windows) is read the same, and a long line cannot exhaust the stack.
std::vector<TallyLine> tally_lines(const std::string& text) {
    const auto trim = [](std::string_view t) {
        const std::size_t first = t.find_first_not_of(" \t\r");
        const std::size_t last = t.find_last_not_of(" \t\r");
        return first == std::string_view::npos ? std::string()
                                               : std::string(t.substr(first, last - first + 1));
    };
    std::vector<TallyLine> lines;
    std::istringstream in(text);
    std::string line_text;
    int line = 0;
    while (std::getline(in, line_text)) {
        ++line;
        const std::string_view l(line_text);
        std::size_t i = l.find_first_not_of(" \t");
        if (i == std::string_view::npos || l[i] != '#') {
            continue;
        }
        i = l.find_first_not_of(" \t", i + 1);
        if (i == std::string_view::npos || l.substr(i, kTallyMarker.size()) != kTallyMarker) {
            continue;
        }
        const std::string_view body = l.substr(i + kTallyMarker.size());
        const std::size_t eq = body.find('=');
        if (eq == std::string_view::npos) {
            throw SpecError(
                fmt::format("line {}", line), fmt::format("\"{}\"", trim(l)),
                TALLY_TEXT("tally::launch", "# tally: FIELD = VALUE, one of Tally's own settings"));
        }
        lines.push_back(TallyLine{trim(body.substr(0, eq)), trim(body.substr(eq + 1)), line});
    }
    return lines;
}

// The plan's settings an import fills in when the file does not give them, listed with the value
// it took; `applies` (nullptr: always) says whether the field bears on this plan at all.
struct Fillable {
    std::string_view field;
    std::string (*value)(const PlanSpec&);
    bool (*applies)(const PlanSpec&) = nullptr;
};

// `spec` with one field (a spec JSON path, "training.interleave") at the spec format's default:
// the field left out of the spec's JSON and the JSON read back, with the default's text. nullopt
// where that leaves the field as it was or the JSON no longer reads.
struct DefaultedField {
    PlanSpec spec;
    std::string value;
};
std::optional<DefaultedField> with_default(const PlanSpec& spec, std::string_view field) {
    nlohmann::json j = to_json(spec);
    nlohmann::json* parent = &j;
    std::string_view rest = field;
    for (std::size_t dot = rest.find('.'); dot != std::string_view::npos; dot = rest.find('.')) {
        const std::string key(rest.substr(0, dot));
        if (!parent->is_object() || !parent->contains(key)) {
            return std::nullopt;
        }
        parent = &(*parent)[key];
        rest = rest.substr(dot + 1);
    }
    const std::string leaf(rest);
    if (!parent->is_object() || !parent->contains(leaf)) {
        return std::nullopt;
    }
    const nlohmann::json before = (*parent)[leaf];
    parent->erase(leaf);
    try {
        DefaultedField out{plan_spec_from_json(j), {}};
        const nlohmann::json back = to_json(out.spec);
        std::string pointer = "/";
        for (char c : field) {
            pointer += c == '.' ? '/' : c;
        }
        const nlohmann::json::json_pointer path(pointer);
        // The format leaves many fields out at their default (a count of 0, a switch off): then
        // the value has no text of its own here.
        if (back.contains(path)) {
            if (back.at(path) == before) {
                return std::nullopt;
            }
            const nlohmann::json& value = back.at(path);
            out.value = value.is_string() ? value.get<std::string>() : value.dump();
        }
        return out;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// The value a field was reset to, for "%1 = %2: ..." (its default where the spec format writes
// none for it).
void arg_reset_value(Text& said, const DefaultedField& reset) {
    if (reset.value.empty()) {
        said.arg_translated("tally::launch", QT_TRANSLATE_NOOP("tally::launch", "its default"));
    } else {
        said.arg(reset.value);
    }
}

const std::vector<Fillable>& fillables() {
    static const std::vector<Fillable> all = [] {
        std::vector<Fillable> f = {
            {"data.seq_len", [](const PlanSpec& s) { return std::to_string(s.data.seq_len); }},
            {"data.micro_batch",
             [](const PlanSpec& s) { return std::to_string(s.data.micro_batch); }},
            {"data.global_batch",
             [](const PlanSpec& s) {
                 if (s.data.global_batch > 0) {
                     return std::to_string(s.data.global_batch);
                 }
                 // 0: one micro-batch per data-parallel rank (DataSpec::global_batch).
                 const std::int64_t model =
                     s.training.tp * s.training.pp * s.training.context_parallel;
                 const std::int64_t dp = model > 0 ? s.cluster.gpus / model : 0;
                 return fmt::format("0 (one micro-batch per data-parallel rank: {} x {} = {})",
                                    s.data.micro_batch, dp, s.data.micro_batch * dp);
             }},
            {"training.sequence_parallel",
             [](const PlanSpec& s) { return yes_no(s.training.sequence_parallel); },
             [](const PlanSpec& s) { return s.training.tp > 1; }},
            {"training.flash_attention",
             [](const PlanSpec& s) { return yes_no(s.training.flash_attention); }},
            {"training.dropout", [](const PlanSpec& s) { return yes_no(s.training.dropout); }},
            {"training.dp_overlap",
             [](const PlanSpec& s) { return yes_no(s.training.dp_overlap); }},
            {"training.optimizer",
             [](const PlanSpec& s) { return std::string(to_string(s.training.optimizer)); }},
        };
        for (const TallySetting& t : tally_settings()) {
            f.push_back(Fillable{t.field, t.get});
        }
        return f;
    }();
    return all;
}

}  // namespace

const std::vector<LaunchTarget>& launch_targets() {
    static const std::vector<LaunchTarget> all = {LaunchTarget::megatron, LaunchTarget::nemo,
                                                  LaunchTarget::torchtitan, LaunchTarget::deepspeed,
                                                  LaunchTarget::accelerate};
    return all;
}

std::string_view to_string(LaunchTarget target) {
    return launch::table(target).name;
}

std::optional<LaunchTarget> launch_target_from_string(std::string_view name) {
    for (LaunchTarget t : launch_targets()) {
        if (to_string(t) == name) {
            return t;
        }
    }
    return std::nullopt;
}

std::string_view launch_target_title(LaunchTarget target) {
    return launch::table(target).title;
}

std::string_view launch_target_extension(LaunchTarget target) {
    return launch::table(target).extension;
}

std::string export_launch_config(const PlanSpec& spec, LaunchTarget target) {
    const Table& t = launch::table(target);
    for (const launch::Refusal& refuse : t.refusals) {
        if (std::optional<FieldError> e = refuse(spec, t.title)) {
            throw SpecError(std::move(*e));
        }
    }
    std::vector<std::pair<std::string, Value>> settings;
    for (const Field& f : t.fields) {
        if (f.log_only) {
            continue;
        }
        if (std::optional<Value> v = f.get(spec)) {
            settings.emplace_back(std::string(f.key), std::move(*v));
        }
    }
    const std::string name = spec.name.empty() ? std::string("this plan") : spec.name;
    std::string header = fmt::format("{}: {}\nwritten by Tally (tally export --to {}) for {}",
                                     t.title, name, t.name, launch_target_version(target));
    for (const Text& note : launch_export_notes(spec, target)) {
        header += fmt::format("\nnote: {}", note.english());
    }
    if (t.form == Form::json) {
        // No comments: the settings go in the "tally" object (kTallyObject).
        for (const TallySetting* s : settings_of(t)) {
            settings.emplace_back(std::string(kTallyObject) + std::string(s->field),
                                  Value{s->get(spec)});
        }
    }
    header += fmt::format("\n{}", tally_block(spec, t));
    return launch::write_form(t.form, settings, header);
}

std::string_view launch_target_version(LaunchTarget target) {
    // The sources each table's names were checked against (tests/data/launch/*.txt).
    switch (target) {
        case LaunchTarget::megatron:
            return "Megatron-LM core_v0.12.0";
        case LaunchTarget::nemo:
            return "NeMo 2 at 8cfedd7 with Megatron-Core core_v0.12.0";
        case LaunchTarget::torchtitan:
            return "torchtitan v0.2.2";
        case LaunchTarget::deepspeed:
            return "DeepSpeed at edaa722";
        case LaunchTarget::accelerate:
            return "accelerate at 16cb6eb";
    }
    return {};
}

std::vector<Text> launch_export_notes(const PlanSpec& spec, LaunchTarget target) {
    const Table& t = launch::table(target);
    std::vector<Text> notes = t.notes ? t.notes(spec) : std::vector<Text>{};
    // The engine a framework is: what its import sets (each table's finish()). A plan timed as
    // another engine (Megatron-Core's fused kernels exported to torchtitan's eager FSDP2) runs a
    // different step there, and comes back timed as the framework's.
    Engine runs = Engine::megatron;
    switch (target) {
        case LaunchTarget::megatron:
        case LaunchTarget::nemo:
            runs = Engine::megatron;
            break;
        case LaunchTarget::torchtitan:
            runs =
                spec.training.engine == Engine::fsdp_compile ? Engine::fsdp_compile : Engine::fsdp;
            break;
        case LaunchTarget::deepspeed:
            runs = Engine::deepspeed;
            break;
        case LaunchTarget::accelerate:
            runs = Engine::fsdp;
            break;
    }
    // NVFP4 came after the release the Megatron-LM table's names were checked against:
    // --fp4-format and --fp4-recipe are in core_v0.15.0's arguments.py, which also requires
    // Transformer Engine 2.7 (NVFP4BlockScaling).
    if (target == LaunchTarget::megatron && spec.training.compute_dtype == DType::nvfp4) {
        notes.push_back(TALLY_TEXT("tally::launch",
                                   "--fp4-format and --fp4-recipe need Megatron-LM core_v0.15.0 or "
                                   "later with Transformer Engine 2.7 or later (the rest of this "
                                   "file also runs on core_v0.12.0)"));
    }
    // A file that does not describe the model (DeepSpeed's, accelerate's): the model is the one
    // thing of the plan it does not carry; its import takes it from the model's config.json.
    const bool describes_model = std::any_of(t.fields.begin(), t.fields.end(), [](const Field& f) {
        return f.spec_field == "model.layers" || f.spec_field == "model";
    });
    if (!describes_model) {
        const ModelSpec& m = spec.model;
        notes.push_back(
            TALLY_TEXT("tally::launch",
                       "the model is not carried: %1 has no setting for it (this plan's: %2, %3 "
                       "layers, hidden %4, %5 heads, vocabulary %6); tally import takes it from "
                       "the model's config.json (--hf-config)")
                .arg(std::string(t.title))
                .arg(m.name.empty() ? std::string("unnamed") : m.name)
                .arg(m.layers)
                .arg(m.hidden)
                .arg(m.heads)
                .arg(m.vocab));
    }
    // torchtitan's and DeepSpeed's files name the optimizer kernel itself, not "whichever the
    // engine runs": a plan that says engine is written as the kernel its engine resolves to, and
    // an import reads that kernel. Under the framework's own engine that is what "engine" means
    // there; under another it is said, beside the engine.
    if (spec.training.optimizer_impl == OptimizerImpl::engine && spec.training.engine != runs) {
        for (const Field& f : t.fields) {
            if (f.spec_field != "training.optimizer_impl" || f.log_only) {
                continue;
            }
            if (const std::optional<Value> v = f.get(spec)) {
                notes.push_back(
                    TALLY_TEXT("tally::launch",
                               "this plan has training.optimizer_impl engine; %1's file names "
                               "the kernel, written as %2 (%3 = %4), which an import of this "
                               "file reads")
                        .arg(std::string(t.name))
                        .arg(to_string(resolved_optimizer_impl(spec.training)))
                        .arg(std::string(f.key))
                        .arg(launch::value_text(*v)));
            }
        }
    }
    // The launchers start one process a GPU on whole hosts (launch_tables.cpp, gpus_per_node());
    // a cluster that is not whole hosts is written as one node of all its GPUs, which no host of
    // the part has.
    if (target == LaunchTarget::megatron || target == LaunchTarget::nemo ||
        target == LaunchTarget::accelerate) {
        const std::int64_t host = launch::host_gpus(spec);
        if (spec.cluster.gpus > host && spec.cluster.gpus % host != 0) {
            notes.push_back(TALLY_TEXT("tally::launch",
                                       "%1 GPUs are not whole hosts of %2: the file starts them "
                                       "as one node of %1, which no host of %2 GPUs runs; plan a "
                                       "multiple of %2")
                                .arg(spec.cluster.gpus)
                                .arg(host));
        }
    }
    // A plan over its GPU's memory is written all the same (a file to edit), but the run it
    // starts stops at its first step: said, with the plan's own figures.
    if (const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu);
        hw != nullptr && !check(spec, *hw)) {
        Accounting accounting;
        account(spec, hw->memory_bytes, accounting);
        if (!accounting.memory.fits) {
            notes.push_back(TALLY_TEXT("tally::launch",
                                       "this plan does not fit the GPU's memory: %1 GB a GPU of "
                                       "%2 GB; the run this file starts would run out of memory")
                                .arg(fmt::format("{:.2f}", accounting.memory.total_bytes / 1e9))
                                .arg(fmt::format("{:.2f}", hw->memory_bytes / 1e9)));
        }
    }
    if (spec.training.engine != runs) {
        notes.push_back(TALLY_TEXT("tally::launch",
                                   "this plan is timed as training.engine %2; %1 runs as %3, so "
                                   "the run's step differs from the plan's, and an import of this "
                                   "file is timed as %3")
                            .arg(std::string(t.name))
                            .arg(to_string(spec.training.engine))
                            .arg(to_string(runs)));
    }
    return notes;
}

std::optional<LaunchTarget> detect_launch_target(std::string_view text,
                                                 std::string_view file_name) {
    const auto ends_with = [&](std::string_view suffix) {
        return file_name.size() >= suffix.size() &&
               file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends_with(".toml")) {
        return LaunchTarget::torchtitan;
    }
    if (ends_with(".json")) {
        return LaunchTarget::deepspeed;
    }
    if (ends_with(".yaml") || ends_with(".yml")) {
        return LaunchTarget::accelerate;
    }
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
        return std::nullopt;
    }
    if (text[first] == '{') {
        return LaunchTarget::deepspeed;
    }
    if (text.find("--num-layers") != std::string_view::npos ||
        text.find("num_layers ....") != std::string_view::npos ||
        text.find("pretrain_gpt.py") != std::string_view::npos) {
        return LaunchTarget::megatron;
    }
    if (text.find("trainer.strategy.") != std::string_view::npos ||
        text.find("model.config.") != std::string_view::npos) {
        return LaunchTarget::nemo;
    }
    if (text.find("[parallelism]") != std::string_view::npos ||
        text.find("[model]") != std::string_view::npos) {
        return LaunchTarget::torchtitan;
    }
    if (text.find("distributed_type:") != std::string_view::npos) {
        return LaunchTarget::accelerate;
    }
    return std::nullopt;
}

// Whether the file's own count of the run (Megatron-LM's samples or iterations, NeMo's and
// torchtitan's steps: whole steps) disagrees with the exact token count of a "# tally:
// data.tokens" line. The line's T agrees when an export of T writes the file's count n (the
// field's getter on the plan with T tokens). Disagreeing: the text that says the file's count is
// used and why; agreeing (or no such setting): nullopt.
std::optional<Text> edited_token_count(const Table& t,
                                       const std::map<const Field*, const Setting*>& given,
                                       const launch::Parsed& parsed, const PlanSpec& spec,
                                       double line_tokens, const TallyLine& line) {
    for (const auto& [field, setting] : given) {
        if (field->spec_field != "data.tokens") {
            continue;
        }
        const Value v = typed(*setting, *field, parsed.log_block, t.form == Form::arguments);
        const std::int64_t* count = std::get_if<std::int64_t>(&v);
        if (count == nullptr || *count < 1) {
            continue;
        }
        PlanSpec laid = spec;
        field->set(laid, v);
        PlanSpec exported = spec;
        exported.data.tokens = line_tokens;
        if (const std::optional<Value> written = field->get(exported); !written || *written == v) {
            continue;
        }
        return TALLY_TEXT("tally::launch",
                          "data.tokens = %1: from %2 = %3 (line %4); the tally: line's %5 "
                          "(line %6) no longer rounds to it, so the file was edited after the "
                          "export and its count is used")
            .arg(fmt::format("{:.6g}", laid.data.tokens))
            .arg(setting->key)
            .arg(setting->raw)
            .arg(setting->line)
            .arg(line.value)
            .arg(line.line);
    }
    return std::nullopt;
}

std::vector<LaunchSetting> launch_settings_not_read(const std::string& text, LaunchTarget target) {
    const Table& t = launch::table(target);
    const launch::Parsed parsed = launch::parse_form(t.form, text);
    std::vector<LaunchSetting> out;
    for (const Setting& s : parsed.settings) {
        if (s.key.rfind(kTallyObject, 0) == 0) {
            continue;
        }
        if (row_of(t, parsed, s) == t.fields.end()) {
            out.push_back(listed(s));
        }
    }
    return out;
}

LaunchImport import_launch_config(const std::string& text, const std::string& file_name,
                                  const LaunchImportOptions& options) {
    launch::require_utf8(text);
    const std::optional<LaunchTarget> target =
        options.from ? options.from : detect_launch_target(text, file_name);
    if (!target) {
        // A serving engine's command (what `tally export --to vllm|sglang|tensorrt_llm` writes)
        // is not a training run's configuration: said as such, not as an unknown form.
        for (const std::string_view program :
             {"vllm serve", "sglang.launch_server", "trtllm-serve"}) {
            if (text.find(program) != std::string::npos) {
                throw SpecError(
                    "--from", "nothing given; " + file_name + " runs " + std::string(program),
                    TALLY_TEXT("tally::launch",
                               "a training run's configuration (megatron, nemo, torchtitan, "
                               "deepspeed or accelerate): a serving engine's command is read as "
                               "a serving plan (tally import FILE, or --from vllm, sglang or "
                               "tensorrt_llm)"));
            }
        }
        throw SpecError(
            "--from", "nothing given and nothing recognised in " + file_name,
            TALLY_TEXT("tally::launch",
                       "megatron, nemo, torchtitan, deepspeed or accelerate (a training run), or "
                       "vllm, sglang or tensorrt_llm (a serving engine's command)"));
    }
    const Table& t = launch::table(*target);
    launch::Parsed parsed = launch::parse_form(t.form, text);
    // A model's Hugging Face config.json is JSON too, but describes the model, not a run: said
    // as such, with where it is read, instead of as a DeepSpeed config with unknown settings.
    if (*target == LaunchTarget::deepspeed && !options.from) {
        for (const Setting& s : parsed.settings) {
            if (s.key == "model_type" || s.key == "architectures") {
                throw SpecError(
                    s.key, s.raw,
                    TALLY_TEXT("tally::launch",
                               "a training run's configuration, not a model's Hugging Face "
                               "config.json: give %1 beside a DeepSpeed or accelerate file with "
                               "--hf-config, as \"hf_config\" in a plan spec, or with the "
                               "window's Import config.json…")
                        .arg(file_name));
            }
        }
    }
    // Tally's own settings: "# tally:" comment lines, or a JSON config's "tally" object.
    std::vector<TallyLine> marked;
    if (t.form == Form::json) {
        std::erase_if(parsed.settings, [&](const Setting& s) {
            if (s.key.rfind(kTallyObject, 0) != 0) {
                return false;
            }
            marked.push_back(TallyLine{s.key.substr(kTallyObject.size()), s.raw, 0});
            return true;
        });
    } else {
        marked = tally_lines(text);
    }

    LaunchImport out;
    out.target = *target;
    PlanSpec spec = options.base ? *options.base : PlanSpec{};
    if (!options.base) {
        spec.cluster.mfu_predicted = true;  // as a spec JSON without cluster.mfu
    }

    // Each setting to its row (the first match), or to the ignored and unknown lists.
    std::map<const Field*, const Setting*> given;
    for (const Setting& s : parsed.settings) {
        const auto row = row_of(t, parsed, s);
        const LaunchSetting entry = listed(s);
        if (row == t.fields.end()) {
            if (parsed.log_block || is_ignored(t, s.key)) {
                out.ignored.push_back(entry);
            } else if (options.allow_unknown) {
                out.unknown.push_back(entry);
            } else {
                throw SpecError(
                    setting_error(s, s.raw.empty() ? std::string(kValueSwitch) : s.raw,
                                  TALLY_TEXT("tally::launch",
                                             "a setting of %1 that Tally reads or knows to "
                                             "ignore (docs/launch-configs.md lists them); "
                                             "--allow-unknown lists it instead")
                                      .arg_translated("tally::launch", t.title.data())));
            }
            continue;
        }
        if (parsed.log_block && (s.raw == "None" || s.raw.empty())) {
            continue;  // the argument was not given: the framework's default
        }
        if (const auto [it, fresh] = given.emplace(&*row, &s); !fresh) {
            if (it->second->raw != s.raw) {
                throw SpecError(
                    setting_error(s, s.raw,
                                  TALLY_TEXT("tally::launch", "one value: line %1 gives %2")
                                      .arg(it->second->line)
                                      .arg(it->second->raw)));
            }
        }
    }

    for (const Field& f : t.fields) {
        const auto it = given.find(&f);
        if (it != given.end()) {
            const Setting& s = *it->second;
            lay(spec, f, typed(s, f, parsed.log_block, t.form == Form::arguments), where(s),
                where_text(s), s.raw);
            LaunchSetting read = listed(s);
            read.spec_field = std::string(f.spec_field);
            out.read.push_back(std::move(read));
        } else if (f.absent) {
            lay(spec, f, *f.absent, std::string(f.key), Text(), launch::value_text(*f.absent));
        }
    }

    // Tally's own settings and the ones the table carries, from the block a Tally export writes.
    std::set<std::string> from_tally_block;
    {
        const std::vector<const TallySetting*> known = settings_of(t);
        std::map<std::string, TallyLine> seen;
        for (const TallyLine& l : marked) {
            const std::string where_text = l.line > 0
                                               ? fmt::format("tally: {} (line {})", l.key, l.line)
                                               : std::string(kTallyObject) + l.key;
            const auto setting =
                std::find_if(known.begin(), known.end(),
                             [&](const TallySetting* ts) { return ts->field == l.key; });
            if (setting == known.end()) {
                if (options.allow_unknown) {
                    out.unknown.push_back(LaunchSetting{"tally: " + l.key, l.value, l.line, {}});
                    continue;
                }
                std::string names;
                for (const TallySetting* ts : known) {
                    names += (names.empty() ? "" : ", ") + std::string(ts->field);
                }
                throw SpecError(
                    where_text, "\"" + l.key + "\"",
                    TALLY_TEXT("tally::launch", "one of Tally's own settings: %1").arg(names));
            }
            if (const auto [it, fresh] = seen.emplace(l.key, l); !fresh) {
                if (it->second.value != l.value) {
                    throw SpecError(where_text, l.value,
                                    TALLY_TEXT("tally::launch", "one value: line %1 gives %2")
                                        .arg(it->second.line)
                                        .arg(it->second.value));
                }
                continue;
            }
            PlanSpec with_line = spec;
            try {
                (*setting)->set(with_line, l.value);
            } catch (const SpecError& e) {
                FieldError error = e.error();
                error.field = where_text;
                throw SpecError(std::move(error));
            }
            // The exact token count stands in for the file's whole samples or steps only while
            // that count still rounds from it: a count edited by hand after the export wins.
            if (l.key == "data.tokens") {
                const std::optional<Text> edited =
                    edited_token_count(t, given, parsed, spec, with_line.data.tokens, l);
                if (edited) {
                    out.guesses.push_back(*edited);
                    continue;
                }
            }
            spec = with_line;
            from_tally_block.insert(l.key);
            out.read.push_back(
                LaunchSetting{"tally: " + l.key, l.value, l.line, std::string((*setting)->field)});
        }
    }

    // The model's size must come from the file or from the config.json beside it. Where both
    // give a size they must agree: a config.json of another model is refused, naming the
    // file's line, not taken in silence over what the file says.
    if (options.model) {
        struct Dim {
            const char* field;
            std::int64_t ModelSpec::*member;
        };
        static constexpr Dim kDims[] = {
            {"model.layers", &ModelSpec::layers}, {"model.hidden", &ModelSpec::hidden},
            {"model.heads", &ModelSpec::heads},   {"model.ffn_hidden", &ModelSpec::ffn_hidden},
            {"model.vocab", &ModelSpec::vocab},
        };
        for (const Dim& d : kDims) {
            const auto r = std::find_if(out.read.begin(), out.read.end(),
                                        [&](const auto& x) { return x.spec_field == d.field; });
            if (r == out.read.end() || spec.model.*d.member == (*options.model).*d.member) {
                continue;
            }
            FieldError error = FieldError::of(
                r->line > 0 ? fmt::format("{} (line {})", r->key, r->line) : r->key, r->value,
                TALLY_TEXT("tally::launch",
                           "%1 as the model's config.json gives (%2 = %3); or no config.json")
                    .arg((*options.model).*d.member)
                    .arg(d.field)
                    .arg((*options.model).*d.member));
            if (r->line > 0) {
                error.field_text =
                    TALLY_TEXT("tally::launch", "%1 (line %2)").arg(r->key).arg(r->line);
            }
            throw SpecError(std::move(error));
        }
        // The run's multi-token prediction is the file's (--mtp-num-layers,
        // model.config.mtp_num_layers) where it says, or its framework's default where it does
        // not (Megatron-LM's None: none), not the checkpoint's config; a framework without it
        // (torchtitan, DeepSpeed, Accelerate) trains none.
        const auto mtp_row = std::find_if(t.fields.begin(), t.fields.end(), [](const Field& f) {
            return f.spec_field == "model.mtp_layers";
        });
        const bool mtp_read = std::any_of(out.read.begin(), out.read.end(), [](const auto& r) {
            return r.spec_field == "model.mtp_layers";
        });
        const std::int64_t mtp = spec.model.mtp_layers;
        spec.model = *options.model;
        if (mtp_row == t.fields.end()) {
            spec.model.mtp_layers = 0;
        } else if (mtp_read || mtp_row->absent) {
            spec.model.mtp_layers = mtp;
        }
    } else {
        for (const char* dim :
             {"model.layers", "model.hidden", "model.heads", "model.ffn_hidden", "model.vocab"}) {
            const auto row = std::find_if(t.fields.begin(), t.fields.end(),
                                          [&](const Field& f) { return f.spec_field == dim; });
            const bool read = std::any_of(out.read.begin(), out.read.end(), [&](const auto& r) {
                return r.spec_field == dim || r.spec_field == "model";
            });
            if (row == t.fields.end() && !read) {
                throw SpecError("model", kValueNothing,
                                TALLY_TEXT("tally::launch",
                                           "the model's Hugging Face config.json beside the "
                                           "file (--hf-config): %1 does not describe the model")
                                    .arg_translated("tally::launch", t.title.data()));
            }
            // Megatron-LM derives the MLP's width when it is not given (core_v0.12.0
            // arguments.py, validate_args): 4h, or with --swiglu int(4h x 2/3 / 64) x 64, "a
            // multiple of 64".
            if (!read && out.target == LaunchTarget::megatron &&
                std::string_view(dim) == "model.ffn_hidden" && spec.model.hidden > 0) {
                const std::int64_t h = spec.model.hidden;
                spec.model.ffn_hidden =
                    spec.model.ffn == FfnKind::swiglu
                        ? static_cast<std::int64_t>(4.0 * h * 2.0 / 3.0 / 64.0) * 64
                        : 4 * h;
                out.guesses.push_back(
                    TALLY_TEXT("tally::launch",
                               "model.ffn_hidden = %1: the file gives no --ffn-hidden-size, so "
                               "Megatron-LM derives it from the hidden size (4h, or "
                               "int(4h x 2/3 / 64) x 64 with --swiglu)")
                        .arg(spec.model.ffn_hidden));
                continue;
            }
            if (!read) {
                throw SpecError(std::string(row->key), kValueNothing,
                                TALLY_TEXT("tally::launch",
                                           "required: it gives %1, unless the model's "
                                           "config.json is given beside the file "
                                           "(--hf-config)")
                                    .arg(dim));
            }
        }
    }

    t.finish(spec, out, options);

    const auto was_read = [&](std::string_view field) {
        return std::any_of(out.read.begin(), out.read.end(),
                           [&](const LaunchSetting& r) { return r.spec_field == field; });
    };
    if (options.gpus && *target != LaunchTarget::torchtitan) {
        if (was_read("cluster.gpus") && spec.cluster.gpus != *options.gpus) {
            throw SpecError(
                "--gpus", std::to_string(*options.gpus),
                TALLY_TEXT("tally::launch", "the %1 GPUs the file gives").arg(spec.cluster.gpus));
        }
        spec.cluster.gpus = *options.gpus;
    } else if (!was_read("cluster.gpus") && !was_read("training.zero") && !options.gpus) {
        const std::int64_t model_parallel =
            spec.training.tp * spec.training.pp * spec.training.context_parallel;
        if (options.base && model_parallel > 0 && options.base->cluster.gpus > 0 &&
            options.base->cluster.gpus % model_parallel == 0) {
            spec.cluster.gpus = options.base->cluster.gpus;
            out.guesses.push_back(TALLY_TEXT("tally::launch",
                                             "cluster.gpus = %1: the file leaves the world size "
                                             "to the launcher; kept from the current plan")
                                      .arg(spec.cluster.gpus));
        } else {
            spec.cluster.gpus = model_parallel;
            out.guesses.push_back(TALLY_TEXT("tally::launch",
                                             "cluster.gpus = %1: the file leaves the world size "
                                             "to the launcher; assumed one data-parallel rank (tp "
                                             "x pp x cp)")
                                      .arg(spec.cluster.gpus));
        }
    }
    bool tokens_listed = false;  // said here, not again among the settings left to Tally below
    if (!was_read("data.tokens")) {
        tokens_listed = true;
        // Hoffmann et al. 2022 (Chinchilla), sec. 3: about 20 training tokens per parameter
        // minimise loss for a compute budget.
        const double params = count_params(spec.model).total;
        const double tokens = std::round(20.0 * params);
        if (options.base && spec.data.tokens > 0.0) {
            out.guesses.push_back(
                TALLY_TEXT("tally::launch",
                           "data.tokens = %1: not in the file; kept from the current plan")
                    .arg(fmt::format("{:.4g}", spec.data.tokens)));
        } else if (tokens > 0.0) {
            spec.data.tokens = tokens;
            out.guesses.push_back(TALLY_TEXT("tally::launch",
                                             "data.tokens = %1: not in the file; 20 tokens per "
                                             "parameter (Hoffmann et al. 2022, Chinchilla)")
                                      .arg(fmt::format("{:.4g}", tokens)));
        }
    }
    // A value the file did not give that the framework cannot run (kept from the current plan, as
    // an interleave or tensor parallelism in an accelerate import, or brought by the model's
    // config.json, as a sliding window for Megatron-LM): the spec format's default instead, said
    // among the assumptions, so the import is a plan the framework runs and exports back. A
    // value the file gave stays, for the export to refuse by name.
    for (int pass = 0; pass < 8; ++pass) {
        bool changed = false;
        for (const launch::Refusal& refuse : t.refusals) {
            const std::optional<FieldError> refused = refuse(spec, t.title);
            if (!refused || was_read(refused->field) ||
                from_tally_block.count(refused->field) > 0) {
                continue;
            }
            std::optional<DefaultedField> reset = with_default(spec, refused->field);
            if (!reset) {
                continue;
            }
            const bool model_field = refused->field.rfind("model.", 0) == 0;
            Text said =
                model_field
                    ? TALLY_TEXT("tally::launch", "%1 = %2: the model's %3 does not run in %4")
                : options.base ? TALLY_TEXT("tally::launch",
                                            "%1 = %2: the current plan's %3 does not run in %4")
                               : TALLY_TEXT("tally::launch", "%1 = %2: %3 does not run in %4");
            said.arg(refused->field);
            arg_reset_value(said, *reset);
            out.guesses.push_back(std::move(said)
                                      .arg(refused->value)
                                      .arg_translated("tally::launch", t.title.data()));
            spec = std::move(reset->spec);
            changed = true;
        }
        if (!changed) {
            break;
        }
    }
    // Every other setting the plan rests on that the file did not give: Tally's default, or the
    // current plan's. A field is given when a row of the table read it, when the framework has a
    // default of its own for a row left out (Field::absent: what the run does), when the Tally
    // block gave it, or when the framework fixes it by design (Table::implied).
    const auto given_here = [&](std::string_view field) {
        const bool by_row =
            was_read(field) || std::any_of(t.fields.begin(), t.fields.end(), [&](const Field& f) {
                return f.spec_field == field && f.absent;
            });
        return by_row || from_tally_block.count(std::string(field)) > 0 ||
               std::find(t.implied.begin(), t.implied.end(), field) != t.implied.end();
    };
    const auto has_row = [&](std::string_view field) {
        return std::any_of(t.fields.begin(), t.fields.end(),
                           [&](const Field& f) { return f.spec_field == field; });
    };
    for (const Fillable& f : fillables()) {
        // With rotary positions the file's max-position-embeddings row gave the context.
        const bool context_read = f.field == "model.context_length" &&
                                  spec.model.learned_positions == 0 &&
                                  was_read("model.learned_positions");
        // Not guessed: the name (a file without Tally's block names the plan after itself,
        // below), and a model given beside the file (--hf-config), which brings its own
        // settings: its context length is the config's, not a default the file failed to give.
        if (given_here(f.field) || (f.applies && !f.applies(spec)) || f.field == "name" ||
            context_read || (f.field == "data.tokens" && tokens_listed) ||
            (options.model && f.field.starts_with("model."))) {
            continue;
        }
        const std::string field(f.field);
        const std::string value = f.value(spec);
        out.guesses.push_back(
            options.base ? TALLY_TEXT("tally::launch",
                                      "%1 = %2: not in the file; kept from the current plan")
                               .arg(field)
                               .arg(value)
            : has_row(f.field)
                ? TALLY_TEXT("tally::launch", "%1 = %2: not in the file; Tally's default")
                      .arg(field)
                      .arg(value)
                : TALLY_TEXT("tally::launch", "%1 = %2: %3 has no setting for it; Tally's default")
                      .arg(field)
                      .arg(value)
                      .arg_translated("tally::launch", t.title.data()));
    }
    if (options.model) {
        out.guesses.push_back(TALLY_TEXT("tally::launch", "model: %1")
                                  .arg_translated("tally::launch", options.model_source));
    }
    // A setting kept from the current plan that no longer holds with the file's own (the plan's
    // 3 layers on the first stage under a file without a pipeline): the spec format's default,
    // said, so that the import is the file's plan rather than refused for what it never said.
    if (options.base) {
        if (const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu)) {
            for (int pass = 0; pass < 8; ++pass) {
                const std::optional<FieldError> e = check(spec, *hw);
                if (!e || was_read(e->field) || from_tally_block.count(e->field) > 0) {
                    break;
                }
                std::optional<DefaultedField> reset = with_default(spec, e->field);
                if (!reset) {
                    break;
                }
                Text said = TALLY_TEXT("tally::launch",
                                       "%1 = %2: the current plan's %3 does not hold with this "
                                       "file's settings");
                said.arg(e->field);
                arg_reset_value(said, *reset);
                out.guesses.push_back(std::move(said).arg(e->value));
                spec = std::move(reset->spec);
            }
        }
    }
    // A GPU that is no built-in part is a workspace profile of the machine that wrote the file:
    // the plan is planned only where a workspace holds a profile of that id, so say so now
    // rather than at the first `tally plan` elsewhere.
    if (find_builtin_hardware(spec.cluster.gpu) == nullptr) {
        out.guesses.push_back(TALLY_TEXT("tally::launch",
                                         "cluster.gpu = %1: no built-in GPU has this id; the "
                                         "plan needs a workspace profile of it where it is "
                                         "planned (tally plan --db, the window's Profiles "
                                         "panel)")
                                  .arg(spec.cluster.gpu));
    }

    std::string base_name = file_name;
    if (const std::size_t slash = base_name.find_last_of("/\\"); slash != std::string::npos) {
        base_name = base_name.substr(slash + 1);
    }
    if (from_tally_block.count("name") == 0 || spec.name.empty()) {
        spec.name = fmt::format("{} ({})", base_name.empty() ? std::string("imported") : base_name,
                                t.title);
    }
    spec.description = launch::import_description(
        file_name, t.title, {out.read.size(), out.ignored.size()}, out.guesses, out.unknown);

    // The layout, batch and model must make a plan: check() names what does not, by the file's
    // own settings where they gave the field.
    if (const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu)) {
        if (std::optional<FieldError> e = check(spec, *hw)) {
            throw SpecError(located_in_file(std::move(*e), out.read));
        }
    }
    out.spec = std::move(spec);
    return out;
}

}  // namespace tally
