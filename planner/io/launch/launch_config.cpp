// The engine that runs a target's table both ways: a spec through the rows' getters into the
// target's form, and a parsed file through the rows' setters into a spec.
#include "planner/io/launch/launch_config.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/launch/launch_fields.h"
#include "planner/model/params.h"
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
        throw SpecError(where(s), s.raw.empty() ? std::string(kValueNoValue) : "\"" + s.raw + "\"",
                        allowed);
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

bool is_ignored(const Table& t, const std::string& key) {
    return std::any_of(t.ignored.begin(), t.ignored.end(), [&](std::string_view ig) {
        return ig.back() == '.' ? key.rfind(ig, 0) == 0 : key == ig;
    });
}

void lay(PlanSpec& spec, const Field& f, const Value& v, const std::string& where_text,
         const std::string& raw) {
    try {
        f.set(spec, v);
    } catch (const SpecError& e) {
        FieldError error = e.error();
        error.field = where_text;
        if (error.value.empty()) {
            error.value = raw;
        }
        throw SpecError(std::move(error));
    }
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
    std::string header =
        fmt::format("{}: {}\nwritten by Tally (tally export --to {})", t.title, name, t.name);
    for (const Text& note : launch_export_notes(spec, target)) {
        header += fmt::format("\nnote: {}", note.english());
    }
    return launch::write_form(t.form, settings, header);
}

std::vector<Text> launch_export_notes(const PlanSpec& spec, LaunchTarget target) {
    const Table& t = launch::table(target);
    return t.notes ? t.notes(spec) : std::vector<Text>{};
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

LaunchImport import_launch_config(const std::string& text, const std::string& file_name,
                                  const LaunchImportOptions& options) {
    const std::optional<LaunchTarget> target =
        options.from ? options.from : detect_launch_target(text, file_name);
    if (!target) {
        throw SpecError(
            "--from", "nothing given and nothing recognised in " + file_name,
            TALLY_TEXT("tally::launch", "megatron, nemo, torchtitan, deepspeed or accelerate"));
    }
    const Table& t = launch::table(*target);
    const launch::Parsed parsed = launch::parse_form(t.form, text);

    LaunchImport out;
    out.target = *target;
    PlanSpec spec = options.base ? *options.base : PlanSpec{};
    spec.cluster.mfu_predicted = true;

    // Each setting to its row (the first match), or to the ignored and unknown lists.
    std::map<const Field*, const Setting*> given;
    for (const Setting& s : parsed.settings) {
        const auto row = std::find_if(t.fields.begin(), t.fields.end(), [&](const Field& f) {
            return parsed.log_block ? log_name(f) == s.key : (!f.log_only && f.key == s.key);
        });
        const LaunchSetting entry{s.key, s.raw, s.line, {}};
        if (row == t.fields.end()) {
            if (parsed.log_block || is_ignored(t, s.key)) {
                out.ignored.push_back(entry);
            } else if (options.allow_unknown) {
                out.unknown.push_back(entry);
            } else {
                throw SpecError(where(s), s.raw.empty() ? std::string("a switch") : s.raw,
                                TALLY_TEXT("tally::launch",
                                           "a setting of %1 that Tally reads or knows to "
                                           "ignore (docs/launch-configs.md lists them); "
                                           "--allow-unknown lists it instead")
                                    .arg(t.title));
            }
            continue;
        }
        if (parsed.log_block && (s.raw == "None" || s.raw.empty())) {
            continue;  // the argument was not given: the framework's default
        }
        if (const auto [it, fresh] = given.emplace(&*row, &s); !fresh) {
            if (it->second->raw != s.raw) {
                throw SpecError(where(s), s.raw,
                                TALLY_TEXT("tally::launch", "one value: line %1 gives %2")
                                    .arg(it->second->line)
                                    .arg(it->second->raw));
            }
        }
    }

    for (const Field& f : t.fields) {
        const auto it = given.find(&f);
        if (it != given.end()) {
            const Setting& s = *it->second;
            lay(spec, f, typed(s, f, parsed.log_block, t.form == Form::arguments), where(s), s.raw);
            out.read.push_back(LaunchSetting{s.key, s.present_without_value ? "on" : s.raw, s.line,
                                             std::string(f.spec_field)});
        } else if (f.absent) {
            lay(spec, f, *f.absent, std::string(f.key), launch::value_text(*f.absent));
        }
    }

    // The model's size must come from the file or from the config.json beside it.
    if (options.model) {
        spec.model = *options.model;
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
                                    .arg(t.title));
            }
            if (!read) {
                throw SpecError(std::string(row->key), kValueNothing,
                                TALLY_TEXT("tally::launch", "required: it gives %1").arg(dim));
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
            out.guesses.push_back(fmt::format(
                "cluster.gpus = {}: the file leaves the world size to the launcher; kept from "
                "the current plan",
                spec.cluster.gpus));
        } else {
            spec.cluster.gpus = model_parallel;
            out.guesses.push_back(fmt::format(
                "cluster.gpus = {}: the file leaves the world size to the launcher; assumed one "
                "data-parallel rank (tp x pp x cp)",
                spec.cluster.gpus));
        }
    }
    if (!options.base) {
        out.guesses.push_back(fmt::format(
            "cluster.gpu = {}: a launch configuration does not name the GPU", spec.cluster.gpu));
    }
    if (!was_read("data.tokens")) {
        // Hoffmann et al. 2022 (Chinchilla), sec. 3: about 20 training tokens per parameter
        // minimise loss for a compute budget.
        const double params = count_params(spec.model).total;
        const double tokens = std::round(20.0 * params);
        if (options.base && spec.data.tokens > 0.0) {
            out.guesses.push_back(
                fmt::format("data.tokens = {:.4g}: not in the file; kept from the current plan",
                            spec.data.tokens));
        } else if (tokens > 0.0) {
            spec.data.tokens = tokens;
            out.guesses.push_back(fmt::format(
                "data.tokens = {:.4g}: not in the file; 20 tokens per parameter (Hoffmann et "
                "al. 2022, Chinchilla)",
                tokens));
        }
    }
    if (options.model) {
        out.guesses.push_back("model: " + options.model_source);
    }

    std::string base_name = file_name;
    if (const std::size_t slash = base_name.find_last_of("/\\"); slash != std::string::npos) {
        base_name = base_name.substr(slash + 1);
    }
    spec.name =
        fmt::format("{} ({})", base_name.empty() ? std::string("imported") : base_name, t.title);
    std::string description = fmt::format("Imported from {} as {}: {} settings read, {} ignored.",
                                          base_name, t.title, out.read.size(), out.ignored.size());
    for (const std::string& g : out.guesses) {
        description += "\nAssumed: " + g + ".";
    }
    if (!out.unknown.empty()) {
        description += "\nNot read (unknown to Tally):";
        for (const LaunchSetting& u : out.unknown) {
            description += " " + u.key + (u.line > 0 ? fmt::format(" (line {})", u.line) : "");
        }
        description += ".";
    }
    spec.description = description;

    // The layout, batch and model must make a plan: check() names what does not.
    if (const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu)) {
        if (std::optional<FieldError> e = check(spec, *hw)) {
            throw SpecError(std::move(*e));
        }
    }
    out.spec = std::move(spec);
    return out;
}

}  // namespace tally
