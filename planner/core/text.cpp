#include "planner/core/text.h"

#include "planner/core/quantity_text.h"

namespace tally {

Text& Text::arg(std::string value) & {
    m_args.push_back(std::move(value));
    m_arg_contexts.push_back(nullptr);
    return *this;
}

Text&& Text::arg(std::string value) && {
    return std::move(arg(std::move(value)));
}

Text& Text::arg_translated(const char* context, const char* source) & {
    m_args.emplace_back(source);
    m_arg_contexts.push_back(context);
    return *this;
}

Text&& Text::arg_translated(const char* context, const char* source) && {
    return std::move(arg_translated(context, source));
}

Text& Text::arg(std::int64_t value) & {
    return arg(std::to_string(value));
}

Text&& Text::arg(std::int64_t value) && {
    return std::move(*this).arg(std::to_string(value));
}

Text& Text::arg(double value) & {
    return arg(shortest_text(value));
}

Text&& Text::arg(double value) && {
    return std::move(*this).arg(shortest_text(value));
}

std::string Text::english() const {
    return substitute_args(m_source == nullptr ? "" : m_source, m_args);
}

std::string render(const Text& text, const TextTranslator& translate) {
    return translate ? translate(text) : text.english();
}

std::string substitute_args(std::string_view pattern, const std::vector<std::string>& args) {
    std::string out;
    out.reserve(pattern.size() + 16 * args.size());
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '%' && i + 1 < pattern.size() && pattern[i + 1] >= '1' && pattern[i + 1] <= '9') {
            const auto index = static_cast<std::size_t>(pattern[i + 1] - '1');
            if (index < args.size()) {
                out += args[index];
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

}  // namespace tally
