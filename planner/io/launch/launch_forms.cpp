// The text forms of launch configurations: flat (key, value) settings written as a command line,
// key=value overrides, TOML (toml++), JSON (nlohmann_json) or YAML (yaml-cpp), and read back
// with the line each setting came from.
#include <fmt/core.h>
#include <yaml-cpp/yaml.h>

#include <toml++/toml.h>
#include <cctype>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "planner/io/json_reader.h"
#include "planner/io/launch/launch_fields.h"

namespace tally::launch {

namespace {

using nlohmann::json;

// The launcher's own arguments carry this prefix in a table (torchrun's --nnodes).
constexpr std::string_view kLauncherPrefix = "torchrun.";
// The script Megatron-LM's GPT pretraining runs (Megatron-LM's pretrain_gpt.py).
constexpr std::string_view kMegatronScript = "pretrain_gpt.py";

std::string shell_quoted(const std::string& text) {
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
               c == '/' || c == ':' || c == ',' || c == '+' || c == '=';
    });
    if (plain) {
        return text;
    }
    std::string out = "'";
    for (char c : text) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

// Python literal spelling, which NeMo-Run's key=value overrides parse: a list of words as a list
// of strings.
std::string python_text(const Value& value) {
    if (const bool* b = std::get_if<bool>(&value)) {
        return *b ? "True" : "False";
    }
    if (const Words* w = std::get_if<Words>(&value)) {
        std::string out = "[";
        for (const std::string& item : w->items) {
            out += (out.size() > 1 ? "," : "") + ("\"" + item + "\"");
        }
        return out + "]";
    }
    return value_text(value);
}

bool is_long_option(const std::string& token) {
    return token.size() > 2 && token[0] == '-' && token[1] == '-';
}

std::string dashes(std::string key) {
    std::replace(key.begin(), key.end(), '_', '-');
    return key;
}

// Megatron-LM's printed argument block (megatron/training/arguments.py, _print_args: "  {arg}
// {dots} {value}", dots padding the name to 48 characters).
Parsed parse_log_block(const std::string& text) {
    static const std::regex row(R"(^\s*([A-Za-z_][A-Za-z0-9_]*) \.{2,} (.*?)\s*$)");
    Parsed parsed;
    parsed.log_block = true;
    std::istringstream in(text);
    std::string line_text;
    int line = 0;
    while (std::getline(in, line_text)) {
        ++line;
        std::smatch m;
        // A log line may carry a prefix (a timestamp, a rank): the row starts after it.
        const std::size_t two = line_text.find("  ");
        const std::string body = two == std::string::npos ? line_text : line_text.substr(two);
        if (std::regex_match(body, m, row)) {
            parsed.settings.push_back(Setting{m[1].str(), m[2].str(), m[2].str(), line, false});
        }
    }
    return parsed;
}

bool looks_like_log_block(const std::string& text) {
    static const std::regex row(R"(\n\s*[A-Za-z_][A-Za-z0-9_]* \.{3,} )");
    return std::distance(std::sregex_iterator(text.begin(), text.end(), row),
                         std::sregex_iterator()) >= 3;
}

// Megatron-LM's own example scripts (examples/gpt3/train_gpt3_175b_distributed.sh) keep the
// arguments in bash arrays, NAME=( ... ) passed as ${NAME[@]}, and sizes in variables, NAME=value
// used as $NAME or ${NAME}. The assignments are read and taken out, and the uses replaced by what
// they hold, each array word keeping its own line; a variable the file does not set (a
// positional $1) stays as written. Only upper-case names are taken for variables, as such
// scripts name them, so that no value of an option is mistaken for an assignment.
std::vector<Token> expand_shell_variables(const std::vector<Token>& in) {
    static const std::regex assignment(R"(^([A-Z_][A-Z0-9_]*)=(.*)$)");
    static const std::regex array_use(R"(^\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}$)");
    static const std::regex scalar_use(
        R"(\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*))");
    std::map<std::string, std::string> scalars;
    std::map<std::string, std::vector<Token>> arrays;
    const auto substitute = [&](const std::string& text) {
        std::string out;
        std::size_t from = 0;
        for (std::sregex_iterator it(text.begin(), text.end(), scalar_use), end; it != end; ++it) {
            const std::smatch& m = *it;
            const std::string name = m[1].matched ? m[1].str() : m[2].str();
            const auto known = scalars.find(name);
            out += text.substr(from, static_cast<std::size_t>(m.position(0)) - from);
            out += known != scalars.end() ? known->second : m.str(0);
            from = static_cast<std::size_t>(m.position(0) + m.length(0));
        }
        return out + text.substr(from);
    };
    std::vector<Token> out;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const Token& t = in[i];
        std::smatch m;
        if (t.text == "export" && i + 1 < in.size() &&
            std::regex_match(in[i + 1].text, assignment)) {
            continue;
        }
        if (std::regex_match(t.text, m, assignment)) {
            const std::string name = m[1].str();
            std::string value = m[2].str();
            if (value.rfind('(', 0) != 0) {
                scalars[name] = substitute(value);
                continue;
            }
            // An array: its words up to the closing parenthesis, which may end a word.
            std::vector<Token> words;
            value.erase(0, 1);
            bool closed = false;
            const auto take = [&](std::string word, int line) {
                if (!word.empty() && word.back() == ')') {
                    word.pop_back();
                    closed = true;
                }
                if (!word.empty()) {
                    words.push_back(Token{substitute(word), line});
                }
            };
            take(value, t.line);
            while (!closed && i + 1 < in.size()) {
                ++i;
                take(in[i].text, in[i].line);
            }
            arrays[name] = std::move(words);
            continue;
        }
        if (std::regex_match(t.text, m, array_use)) {
            if (const auto a = arrays.find(m[1].str()); a != arrays.end()) {
                out.insert(out.end(), a->second.begin(), a->second.end());
                continue;
            }
        }
        out.push_back(Token{substitute(t.text), t.line});
    }
    return out;
}

Parsed parse_arguments(const std::string& text) {
    if (looks_like_log_block("\n" + text)) {
        return parse_log_block(text);
    }
    const std::vector<Token> tokens = expand_shell_variables(shell_tokens(text));
    std::size_t script = tokens.size();
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = tokens[i].text;
        if (t.size() > 3 && t.compare(t.size() - 3, 3, ".py") == 0) {
            script = i;
            break;
        }
    }
    Parsed parsed;
    // Options of the launcher (before the script) and of the script (after it); with no script
    // named, the text is the script's arguments alone.
    const auto options = [&](std::size_t begin, std::size_t end, bool launcher) {
        for (std::size_t i = begin; i < end; ++i) {
            const Token& t = tokens[i];
            if (!is_long_option(t.text)) {
                if (launcher) {
                    continue;  // torchrun, python, -m module, VAR=value
                }
                throw SpecError(fmt::format("line {}", t.line), "\"" + t.text + "\"",
                                TALLY_TEXT("tally::launch",
                                           "an argument --name [value]; a value belongs to the "
                                           "argument before it"));
            }
            std::string key = t.text.substr(2);
            Setting s;
            s.line = t.line;
            if (const std::size_t eq = key.find('='); eq != std::string::npos) {
                s.raw = key.substr(eq + 1);
                key.resize(eq);
            } else {
                std::string joined;
                while (i + 1 < end && !is_long_option(tokens[i + 1].text)) {
                    if (launcher && tokens[i + 1].text.find('=') == std::string::npos &&
                        !joined.empty()) {
                        break;
                    }
                    joined += (joined.empty() ? "" : " ") + tokens[++i].text;
                    if (launcher) {
                        break;
                    }
                }
                s.present_without_value = joined.empty();
                s.raw = joined;
            }
            s.key = launcher ? std::string(kLauncherPrefix) + dashes(key) : key;
            s.value = s.raw;
            parsed.settings.push_back(std::move(s));
        }
    };
    if (script < tokens.size()) {
        options(0, script, true);
        options(script + 1, tokens.size(), false);
    } else {
        options(0, tokens.size(), false);
    }
    return parsed;
}

Parsed parse_overrides(const std::string& text) {
    Parsed parsed;
    for (const Token& t : shell_tokens(text)) {
        const std::size_t eq = t.text.find('=');
        if (eq == std::string::npos || eq == 0 || t.text[0] == '-') {
            continue;  // nemo llm pretrain --factory RECIPE
        }
        std::string raw = t.text.substr(eq + 1);
        parsed.settings.push_back(Setting{t.text.substr(0, eq), raw, raw, t.line, false});
    }
    return parsed;
}

void flatten_toml(const toml::table& table, const std::string& prefix, Parsed& parsed) {
    for (const auto& [name, node] : table) {
        const std::string key = prefix + std::string(name.str());
        const int line = static_cast<int>(node.source().begin.line);
        if (const toml::table* sub = node.as_table()) {
            flatten_toml(*sub, key + ".", parsed);
            continue;
        }
        Setting s{key, {}, {}, line, false};
        if (const auto* b = node.as_boolean()) {
            s.value = b->get();
        } else if (const auto* i = node.as_integer()) {
            s.value = i->get();
        } else if (const auto* d = node.as_floating_point()) {
            s.value = d->get();
        } else if (const auto* str = node.as_string()) {
            s.value = str->get();
        } else {
            std::ostringstream out;
            node.visit([&](const auto& n) { out << n; });
            s.value = out.str();
        }
        s.raw = value_text(s.value);
        parsed.settings.push_back(std::move(s));
    }
}

void flatten_json(const json& j, const std::string& prefix, Parsed& parsed) {
    for (const auto& [name, node] : j.items()) {
        const std::string key = prefix + name;
        if (node.is_object()) {
            flatten_json(node, key + ".", parsed);
            continue;
        }
        Setting s{key, {}, {}, 0, false};
        if (node.is_boolean()) {
            s.value = node.get<bool>();
        } else if (node.is_number_integer()) {
            if (node.is_number_unsigned() &&
                node.get<std::uint64_t>() >
                    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                throw SpecError(key, node.dump(),
                                TALLY_TEXT("tally::launch", "an integer below 2^63"));
            }
            s.value = node.get<std::int64_t>();
        } else if (node.is_number()) {
            s.value = node.get<double>();
        } else if (node.is_string()) {
            s.value = node.get<std::string>();
        } else {
            s.value = node.dump();
        }
        s.raw = node.is_string() ? node.get<std::string>() : node.dump();
        parsed.settings.push_back(std::move(s));
    }
}

void flatten_yaml(const YAML::Node& node, const std::string& prefix, Parsed& parsed) {
    for (const auto& entry : node) {
        if (!entry.first.IsScalar()) {
            throw SpecError(fmt::format("line {}", entry.first.Mark().line + 1), "a key",
                            TALLY_TEXT("tally::launch", "a plain name as a key"));
        }
        const std::string key = prefix + entry.first.Scalar();
        const YAML::Node& value = entry.second;
        const int line =
            value.Mark().line >= 0 ? value.Mark().line + 1 : entry.first.Mark().line + 1;
        if (value.IsMap()) {
            flatten_yaml(value, key + ".", parsed);
            continue;
        }
        std::string raw;
        if (value.IsScalar()) {
            raw = value.Scalar();
        } else if (value.IsNull()) {
            raw = "null";
        } else {
            YAML::Emitter out;
            out << YAML::Flow << value;
            raw = out.c_str();
        }
        // YAML scalars stay text: each field's kind decides how it reads them.
        parsed.settings.push_back(Setting{key, raw, raw, line, false});
    }
}

toml::table& toml_subtable(toml::table& root, std::string_view dotted) {
    toml::table* t = &root;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = dotted.find('.', start);
        if (dot == std::string_view::npos) {
            return *t;
        }
        const std::string part(dotted.substr(start, dot - start));
        if (!t->contains(part)) {
            t->insert(part, toml::table{});
        }
        t = t->get(part)->as_table();
        start = dot + 1;
    }
}

std::string leaf(std::string_view dotted) {
    const std::size_t dot = dotted.rfind('.');
    return std::string(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
}

json::json_pointer json_path(const std::string& dotted) {
    std::string pointer;
    std::istringstream in(dotted);
    std::string part;
    while (std::getline(in, part, '.')) {
        pointer += "/" + part;
    }
    return json::json_pointer(pointer);
}

void yaml_insert(YAML::Node node, const std::string& dotted, const Value& value) {
    const std::size_t dot = dotted.find('.');
    if (dot != std::string::npos) {
        yaml_insert(node[dotted.substr(0, dot)], dotted.substr(dot + 1), value);
        return;
    }
    std::visit(
        [&](const auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Words>) {
                node[dotted] = v.items;
            } else {
                node[dotted] = v;
            }
        },
        value);
}

std::string comment_lines(std::string_view header, std::string_view marker) {
    std::string out;
    std::istringstream in{std::string(header)};
    std::string line;
    while (std::getline(in, line)) {
        out += fmt::format("{} {}\n", marker, line);
    }
    return out;
}

}  // namespace

// Splits a shell command line: whitespace separates, a backslash before a newline joins lines,
// quotes group, '#' at the start of a word comments out the rest of its line.
std::string import_description(const std::string& file_name, std::string_view title,
                               const LaunchImportCounts& counts, const std::vector<Text>& guesses,
                               const std::vector<LaunchSetting>& unknown) {
    std::string base_name = file_name;
    if (const std::size_t slash = base_name.find_last_of("/\\"); slash != std::string::npos) {
        base_name = base_name.substr(slash + 1);
    }
    std::string description = fmt::format("Imported from {} as {}: {} settings read, {} ignored.",
                                          base_name, title, counts.read, counts.ignored);
    for (const Text& g : guesses) {
        description += "\nAssumed: " + g.english() + ".";
    }
    if (!unknown.empty()) {
        description += "\nNot read (unknown to Tally):";
        for (const LaunchSetting& u : unknown) {
            description += " " + u.key + (u.line > 0 ? fmt::format(" (line {})", u.line) : "");
        }
        description += ".";
    }
    return description;
}

void require_utf8(const std::string& text) {
    if (is_valid_utf8(text)) {
        return;
    }
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!is_valid_utf8(line)) {
            break;
        }
    }
    FieldError error = FieldError::of(
        fmt::format("line {}", number), quoted_value(line),
        TALLY_TEXT("tally::launch",
                   "text in UTF-8: the line has a byte that is not (a file saved in another "
                   "encoding?)"));
    error.field_text = TALLY_TEXT("tally::launch", "line %1").arg(number);
    throw SpecError(std::move(error));
}

std::vector<Token> shell_tokens(const std::string& text) {
    std::vector<Token> tokens;
    int line = 1;
    std::size_t i = 0;
    const std::size_t n = text.size();
    while (i < n) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (c == '\\' && i + 1 < n && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
            i += 1;
            continue;
        }
        if (c == '#') {
            while (i < n && text[i] != '\n') {
                ++i;
            }
            continue;
        }
        Token token{{}, line};
        while (i < n && !std::isspace(static_cast<unsigned char>(text[i]))) {
            const char d = text[i];
            if (d == '\'' || d == '"') {
                const std::size_t close = text.find(d, i + 1);
                if (close == std::string::npos) {
                    throw SpecError(
                        fmt::format("line {}", line), std::string(1, d),
                        TALLY_TEXT("tally::launch", "a closing quote for the one opened here"));
                }
                for (std::size_t k = i + 1; k < close; ++k) {
                    line += text[k] == '\n' ? 1 : 0;
                }
                token.text.append(text, i + 1, close - i - 1);
                i = close + 1;
            } else if (d == '\\' && i + 1 < n) {
                if (text[i + 1] == '\n') {
                    break;
                }
                token.text += text[i + 1];
                i += 2;
            } else {
                token.text += d;
                ++i;
            }
        }
        tokens.push_back(std::move(token));
    }
    return tokens;
}

std::string value_text(const Value& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>) {
                return v ? "true" : "false";
            } else if constexpr (std::is_same_v<T, std::string>) {
                return v;
            } else if constexpr (std::is_same_v<T, Words>) {
                std::string out;
                for (const std::string& w : v.items) {
                    out += (out.empty() ? "" : " ") + w;
                }
                return out;
            } else if constexpr (std::is_same_v<T, double>) {
                return fmt::format("{}", v);
            } else {
                return std::to_string(v);
            }
        },
        value);
}

std::string write_form(Form form, const std::vector<std::pair<std::string, Value>>& settings,
                       std::string_view header) {
    switch (form) {
        case Form::arguments: {
            std::string launcher = "torchrun";
            std::vector<std::string> args;
            for (const auto& [key, value] : settings) {
                const bool bare = std::holds_alternative<bool>(value);
                if (bare && !std::get<bool>(value)) {
                    continue;
                }
                if (key.rfind(kLauncherPrefix, 0) == 0) {
                    launcher += fmt::format(" --{} {}", key.substr(kLauncherPrefix.size()),
                                            shell_quoted(value_text(value)));
                } else {
                    if (const Words* w = std::get_if<Words>(&value)) {
                        std::string arg = "--" + key;  // each word its own argument (nargs='*')
                        for (const std::string& item : w->items) {
                            arg += " " + shell_quoted(item);
                        }
                        args.push_back(arg);
                        continue;
                    }
                    args.push_back(
                        bare ? "--" + key
                             : fmt::format("--{} {}", key, shell_quoted(value_text(value))));
                }
            }
            std::string out = comment_lines(header, "#");
            out += launcher + " " + std::string(kMegatronScript);
            for (const std::string& a : args) {
                out += " \\\n    " + a;
            }
            return out + "\n";
        }
        case Form::overrides: {
            std::string out = comment_lines(header, "#");
            for (std::size_t i = 0; i < settings.size(); ++i) {
                out += fmt::format("{}={}{}\n", settings[i].first,
                                   shell_quoted(python_text(settings[i].second)),
                                   i + 1 < settings.size() ? " \\" : "");
            }
            return out;
        }
        case Form::toml: {
            toml::table root;
            for (const auto& setting : settings) {
                // Named, not a structured binding: a lambda may not capture one before C++20's
                // P1091 (clang 14, which builds the fuzzers, refuses it).
                const std::string& key = setting.first;
                toml::table& t = toml_subtable(root, key);
                std::visit(
                    [&](const auto& v) {
                        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Words>) {
                            toml::array items;
                            for (const std::string& item : v.items) {
                                items.push_back(item);
                            }
                            t.insert_or_assign(leaf(key), std::move(items));
                        } else {
                            t.insert_or_assign(leaf(key), v);
                        }
                    },
                    setting.second);
            }
            std::ostringstream out;
            out << comment_lines(header, "#") << toml::toml_formatter(root) << "\n";
            return out.str();
        }
        case Form::json: {
            json root = json::object();
            for (const auto& setting : settings) {
                const std::string& key = setting.first;  // a lambda captures it (above)
                std::visit(
                    [&](const auto& v) {
                        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Words>) {
                            root[json_path(key)] = v.items;
                        } else {
                            root[json_path(key)] = v;
                        }
                    },
                    setting.second);
            }
            return root.dump(2) + "\n";
        }
        case Form::yaml: {
            YAML::Node root(YAML::NodeType::Map);
            for (const auto& [key, value] : settings) {
                yaml_insert(root, key, value);
            }
            YAML::Emitter out;
            out << root;
            return comment_lines(header, "#") + out.c_str() + "\n";
        }
    }
    return {};
}

Parsed parse_form(Form form, const std::string& text) {
    switch (form) {
        case Form::arguments:
            return parse_arguments(text);
        case Form::overrides:
            return parse_overrides(text);
        case Form::toml: {
            try {
                Parsed parsed;
                flatten_toml(toml::parse(text), "", parsed);
                return parsed;
            } catch (const toml::parse_error& e) {
                throw SpecError(fmt::format("line {}, column {}", e.source().begin.line,
                                            e.source().begin.column),
                                std::string(e.description()),
                                TALLY_TEXT("tally::launch", "well-formed TOML"));
            }
        }
        case Form::json: {
            throw_if_nested_too_deep(text, "JSON", "");
            json root;
            try {
                root = json::parse(text);
            } catch (const json::exception& e) {
                throw SpecError("JSON", e.what(),
                                TALLY_TEXT("tally::launch", "a well-formed JSON object"));
            }
            if (!root.is_object()) {
                throw SpecError("JSON", root.type_name(),
                                TALLY_TEXT("tally::launch", "a JSON object"));
            }
            Parsed parsed;
            flatten_json(root, "", parsed);
            return parsed;
        }
        case Form::yaml: {
            YAML::Node root;
            try {
                root = YAML::Load(text);
            } catch (const YAML::Exception& e) {
                throw SpecError(fmt::format("line {}", e.mark.line + 1), e.msg,
                                TALLY_TEXT("tally::launch", "well-formed YAML"));
            }
            if (!root.IsMap()) {
                throw SpecError("YAML", "a document that is not a mapping",
                                TALLY_TEXT("tally::launch", "a mapping of keys to values"));
            }
            Parsed parsed;
            try {
                flatten_yaml(root, "", parsed);
            } catch (const YAML::Exception& e) {
                throw SpecError(fmt::format("line {}", e.mark.line + 1), e.msg,
                                TALLY_TEXT("tally::launch", "well-formed YAML"));
            }
            return parsed;
        }
    }
    return {};
}

}  // namespace tally::launch
