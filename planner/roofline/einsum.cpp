#include "planner/roofline/einsum.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>

#include "planner/core/errors.h"

namespace tally {

namespace {

constexpr std::string_view kEllipsis = "...";

std::string quoted(std::string_view text) {
    // Appended rather than `"\"" + std::string(text)`: GCC 12 -O3 reports a false -Wrestrict on
    // that operator+ (GCC bug 105329).
    return std::string("\"").append(text).append("\"");
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
        s.remove_suffix(1);
    }
    return s;
}

bool is_identifier(std::string_view token) {
    if (token.empty() || std::isdigit(static_cast<unsigned char>(token.front()))) {
        return false;
    }
    return std::all_of(token.begin(), token.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

// Up to this many inputs every contraction order is weighed (3^n splits, 6,561 at 8: well under
// a millisecond, so the roofline stays live); beyond, the cheapest pair at each step.
constexpr std::size_t kMaxOrderedInputs = 8;

bool contains(const std::vector<std::string>& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

// "a, b, c"; empty when there are none (each message says "(none)" in its own template).
std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

// Splits one side of the expression into names, checking each: input `input` (from 1), or the
// output when `input` is 0.
EinsumOperand parse_operand(std::string_view text, int input, std::string_view expr,
                            const std::string& field) {
    EinsumOperand op;
    std::size_t i = 0;
    while (i < text.size()) {
        if (std::isspace(static_cast<unsigned char>(text[i]))) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) {
            ++j;
        }
        const std::string_view token = text.substr(i, j - i);
        i = j;
        if (token == kEllipsis) {
            if (op.has_ellipsis()) {
                throw SpecError(
                    field, quoted(expr),
                    input > 0 ? TALLY_TEXT("tally::einsum", "\"...\" appears twice in input %1")
                                    .arg(input)
                              : TALLY_TEXT("tally::einsum", "\"...\" appears twice in the output"));
            }
        } else if (!is_identifier(token)) {
            if (token.find_first_of("()") != std::string_view::npos) {
                throw SpecError(field, quoted(expr),
                                input > 0 ? TALLY_TEXT("tally::einsum",
                                                       "axis composition such as \"(h d)\" in "
                                                       "input %1 is not supported; name each "
                                                       "dimension on its own")
                                                .arg(input)
                                          : TALLY_TEXT("tally::einsum",
                                                       "axis composition such as \"(h d)\" in "
                                                       "the output is not supported; name each "
                                                       "dimension on its own"));
            }
            throw SpecError(field, quoted(expr),
                            input > 0 ? TALLY_TEXT("tally::einsum",
                                                   "'%1' in input %2 is not a dimension name "
                                                   "(letters, digits and '_', not starting with a "
                                                   "digit; names are separated by spaces)")
                                            .arg(token)
                                            .arg(input)
                                      : TALLY_TEXT("tally::einsum",
                                                   "'%1' in the output is not a dimension name "
                                                   "(letters, digits and '_', not starting with a "
                                                   "digit; names are separated by spaces)")
                                            .arg(token));
        } else if (contains(op.dims, token)) {
            throw SpecError(field, quoted(expr),
                            input > 0 ? TALLY_TEXT("tally::einsum",
                                                   "dimension '%1' appears twice in input %2 "
                                                   "(diagonals and traces are not supported)")
                                            .arg(token)
                                            .arg(input)
                                      : TALLY_TEXT("tally::einsum",
                                                   "dimension '%1' appears twice in the output "
                                                   "(diagonals and traces are not supported)")
                                            .arg(token));
        }
        op.dims.emplace_back(token);
    }
    return op;
}

constexpr double kMaxEinsumTerms = 1e48;

// "{a: 4, b: 5, ...0: 3}" for messages, cut after a few sizes.
std::string fmt_sizes(const std::vector<std::pair<std::string, double>>& sizes) {
    std::string out;
    std::size_t shown = 0;
    for (const auto& [name, size] : sizes) {
        if (shown == 6) {
            out += ", ...";
            break;
        }
        char number[32];
        std::snprintf(number, sizeof number, "%.17g", size);
        out += (out.empty() ? "" : ", ") + name + ": " + number;
        ++shown;
    }
    return "{" + out + "}";
}

double product(const std::vector<std::string>& dims,
               const std::vector<std::pair<std::string, double>>& sizes) {
    double p = 1.0;
    for (const std::string& d : dims) {
        for (const auto& [name, size] : sizes) {
            if (name == d) {
                p *= size;
                break;
            }
        }
    }
    return p;
}

}  // namespace

bool EinsumOperand::has_ellipsis() const {
    return contains(dims, kEllipsis);
}

namespace {
EinsumExpr parse_named_einsum(std::string_view text, const std::string& field);
}  // namespace

// torch.einsum's and numpy's form ("bhqd,bhkd->bhqk": one letter a dimension, no spaces), read
// where the named form does not read: each letter becomes a name of its own.
EinsumExpr parse_einsum(std::string_view text, const std::string& field) {
    try {
        return parse_named_einsum(text, field);
    } catch (const SpecError&) {
        const bool compact =
            !text.empty() && std::none_of(text.begin(), text.end(),
                                          [](unsigned char c) { return std::isspace(c) != 0; });
        const bool letters_only = std::all_of(text.begin(), text.end(), [](unsigned char c) {
            return std::isalpha(c) != 0 || c == ',' || c == '-' || c == '>' || c == '.';
        });
        if (!compact || !letters_only) {
            throw;
        }
        std::string spaced;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text.substr(i, 3) == "...") {
                spaced += " ... ";
                i += 2;
            } else if (text.substr(i, 2) == "->") {
                spaced += " -> ";
                ++i;
            } else {
                spaced += ' ';
                spaced += text[i];
                spaced += ' ';
            }
        }
        try {
            EinsumExpr e = parse_named_einsum(spaced, field);
            e.text = std::string(text);
            return e;
        } catch (const SpecError&) {
        }
        throw;
    }
}

namespace {

EinsumExpr parse_named_einsum(std::string_view text, const std::string& field) {
    EinsumExpr e;
    e.text = std::string(text);
    const std::size_t arrow = text.find("->");
    if (arrow == std::string_view::npos) {
        throw SpecError(field, quoted(text),
                        TALLY_TEXT("tally::einsum",
                                   "missing \"->\" between the inputs and the output, e.g. "
                                   "\"batch seq hidden, hidden out -> batch seq out\""));
    }
    if (text.find("->", arrow + 2) != std::string_view::npos) {
        throw SpecError(
            field, quoted(text),
            TALLY_TEXT("tally::einsum", "\"->\" appears more than once; write inputs -> output"));
    }
    const std::string_view lhs = trim(text.substr(0, arrow));
    const std::string_view rhs = trim(text.substr(arrow + 2));
    if (lhs.empty()) {
        throw SpecError(field, quoted(text),
                        TALLY_TEXT("tally::einsum",
                                   "no input before \"->\", e.g. \"batch seq hidden, hidden out "
                                   "-> batch seq out\""));
    }
    if (rhs.find(',') != std::string_view::npos) {
        throw SpecError(
            field, quoted(text),
            TALLY_TEXT("tally::einsum", "the output is one tensor: no ',' after \"->\""));
    }
    std::size_t start = 0;
    int index = 0;
    while (true) {
        const std::size_t comma = lhs.find(',', start);
        const std::string_view piece = lhs.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        ++index;
        if (trim(piece).empty()) {
            throw SpecError(field, quoted(text),
                            TALLY_TEXT("tally::einsum",
                                       "input %1 is empty (two commas in a row, or a comma at an "
                                       "end?)")
                                .arg(index));
        }
        e.inputs.push_back(parse_operand(piece, index, text, field));
        if (comma == std::string_view::npos) {
            break;
        }
        start = comma + 1;
    }
    e.output = parse_operand(rhs, 0, text, field);

    for (const EinsumOperand& in : e.inputs) {
        e.uses_ellipsis = e.uses_ellipsis || in.has_ellipsis();
        for (const std::string& d : in.dims) {
            if (d != kEllipsis && !contains(e.names, d)) {
                e.names.push_back(d);
            }
        }
    }
    for (const std::string& d : e.output.dims) {
        if (d == kEllipsis) {
            if (!e.uses_ellipsis) {
                throw SpecError(
                    field, quoted(text),
                    TALLY_TEXT("tally::einsum", "the output has \"...\" but no input does"));
            }
        } else if (!contains(e.names, d)) {
            // NumPy's compact form ("bhqd,bhkd->bhqk") reads here as one name an operand: say
            // how Tally's form writes it.
            const auto one_long_name = [](const EinsumOperand& op) {
                return op.dims.size() == 1 && op.dims.front().size() > 1;
            };
            if (one_long_name(e.output) &&
                std::all_of(e.inputs.begin(), e.inputs.end(), one_long_name)) {
                const auto spaced = [](const std::string& name) {
                    std::string out;
                    for (char c : name) {
                        out += out.empty() ? std::string(1, c) : std::string(" ") + c;
                    }
                    return out;
                };
                std::string written;
                for (const EinsumOperand& in : e.inputs) {
                    written += (written.empty() ? "" : ", ") + spaced(in.dims.front());
                }
                written += " -> " + spaced(e.output.dims.front());
                throw SpecError(field, quoted(text),
                                TALLY_TEXT("tally::einsum",
                                           "dimension names separated by spaces, as in \"%1\" "
                                           "(each operand is read as one name, such as '%2')")
                                    .arg(written)
                                    .arg(d));
            }
            throw SpecError(field, quoted(text),
                            e.names.empty()
                                ? TALLY_TEXT("tally::einsum",
                                             "output dimension '%1' does not appear in any input "
                                             "(inputs have: (none))")
                                      .arg(d)
                                : TALLY_TEXT("tally::einsum",
                                             "output dimension '%1' does not appear in any input "
                                             "(inputs have: %2)")
                                      .arg(d)
                                      .arg(join(e.names)));
        }
    }
    return e;
}

}  // namespace

EinsumCost einsum_cost(const EinsumExpr& expr,
                       const std::vector<std::pair<std::string, std::int64_t>>& sizes,
                       const std::vector<std::int64_t>& ellipsis, DType dtype,
                       const std::string& sizes_field) {
    // Resolve every dimension's size; "..." expands into "...0", "...1", ...
    std::vector<std::pair<std::string, double>> resolved;
    for (const auto& [name, size] : sizes) {
        if (!contains(expr.names, name)) {
            throw SpecError(sizes_field + "." + name, std::to_string(size),
                            expr.names.empty()
                                ? TALLY_TEXT("tally::einsum",
                                             "'%1' is not a dimension of %2 (its dimensions: "
                                             "(none))")
                                      .arg(name)
                                      .arg(quoted(expr.text))
                                : TALLY_TEXT("tally::einsum",
                                             "'%1' is not a dimension of %2 (its dimensions: %3)")
                                      .arg(name)
                                      .arg(quoted(expr.text))
                                      .arg(join(expr.names)));
        }
        if (size < 1) {
            throw SpecError(sizes_field + "." + name, std::to_string(size),
                            TALLY_TEXT("tally::einsum",
                                       "a dimension size must be a whole number from 1 to 9e15"));
        }
        resolved.emplace_back(name, static_cast<double>(size));
    }
    for (const std::string& name : expr.names) {
        const bool given =
            std::any_of(sizes.begin(), sizes.end(), [&](const auto& s) { return s.first == name; });
        if (!given) {
            throw SpecError(sizes_field + "." + name, kValueNothing,
                            TALLY_TEXT("tally::einsum", "dimension '%1' of %2 needs a size")
                                .arg(name)
                                .arg(quoted(expr.text)));
        }
    }
    const std::string ellipsis_field = sizes_field + "[\"...\"]";
    if (expr.uses_ellipsis && ellipsis.empty()) {
        throw SpecError(ellipsis_field, kValueNothing,
                        TALLY_TEXT("tally::einsum",
                                   "%1 uses \"...\"; give the sizes it stands for, e.g. \"...\": "
                                   "[4, 5]")
                            .arg(quoted(expr.text)));
    }
    if (!expr.uses_ellipsis && !ellipsis.empty()) {
        throw SpecError(ellipsis_field, "[...]",
                        TALLY_TEXT("tally::einsum", "%1 has no \"...\"; remove the \"...\" sizes")
                            .arg(quoted(expr.text)));
    }
    std::vector<std::string> ellipsis_names;
    for (std::size_t i = 0; i < ellipsis.size(); ++i) {
        if (ellipsis[i] < 1) {
            throw SpecError(ellipsis_field + "[" + std::to_string(i) + "]",
                            std::to_string(ellipsis[i]),
                            TALLY_TEXT("tally::einsum",
                                       "a dimension size must be a whole number from 1 to 9e15"));
        }
        ellipsis_names.push_back(std::string(kEllipsis) + std::to_string(i));
        resolved.emplace_back(ellipsis_names.back(), static_cast<double>(ellipsis[i]));
    }
    // Each size is at most 9e15 (op_spec.cpp), but a long expression multiplies many of them:
    // 21 sizes of 9e15 overflow a double. Every cost below is at most twice the product of all
    // sizes (per input), so bounding that product keeps them finite. 1e48 lets every einsum a
    // matmul can express (three sizes of 9e15: 7.3e47) through.
    double all_terms = 1.0;
    for (const auto& [name, size] : resolved) {
        all_terms *= size;
    }
    if (!(all_terms <= kMaxEinsumTerms)) {
        throw SpecError(sizes_field, fmt_sizes(resolved),
                        TALLY_TEXT("tally::einsum",
                                   "the dimension sizes of %1 multiply to more than 1e48, the "
                                   "largest product allowed")
                            .arg(quoted(expr.text)));
    }
    auto expand = [&](const EinsumOperand& op) {
        std::vector<std::string> dims;
        for (const std::string& d : op.dims) {
            if (d == kEllipsis) {
                dims.insert(dims.end(), ellipsis_names.begin(), ellipsis_names.end());
            } else {
                dims.push_back(d);
            }
        }
        return dims;
    };

    std::vector<std::vector<std::string>> inputs;
    for (const EinsumOperand& in : expr.inputs) {
        inputs.push_back(expand(in));
    }
    const std::vector<std::string> output = expand(expr.output);

    EinsumCost cost;
    const double value_bytes = bytes_per_value(dtype);
    for (const auto& in : inputs) {
        cost.read_bytes += product(in, resolved) * value_bytes;
    }
    cost.write_bytes = product(output, resolved) * value_bytes;

    // A dimension is summed away when the output lacks it.
    for (const auto& in : inputs) {
        for (const std::string& d : in) {
            if (!contains(output, d) && !contains(cost.summed, d)) {
                cost.summed.push_back(d);
            }
        }
    }

    if (inputs.size() == 1) {
        // A reduction: one add per term (the -1 per output element dropped, as for matmul).
        cost.flops = cost.summed.empty() ? 0.0 : product(inputs[0], resolved);
        return cost;
    }
    // Pairwise, in the order that needs the fewest FLOPs: torch.einsum's order when opt_einsum
    // is installed (torch.backends.opt_einsum, strategy "auto": the optimal order for up to 4
    // inputs, PyTorch docs), found here by dynamic programming over the subsets of the inputs
    // (every order for up to kMaxOrderedInputs inputs; beyond, the cheapest pair at each step).
    // Each intermediate is written once and read back once by the step that uses it.
    const std::size_t n = inputs.size();
    // The dimensions the contraction of the inputs in `mask` keeps: those the output or an input
    // outside the mask still needs (a lone input keeps all of its own until its first step).
    const auto kept_dims = [&](std::uint32_t mask) {
        std::vector<std::string> kept;
        for (std::size_t i = 0; i < n; ++i) {
            if ((mask >> i & 1u) == 0) {
                continue;
            }
            for (const std::string& d : inputs[i]) {
                if (contains(kept, d)) {
                    continue;
                }
                bool needed = contains(output, d);
                for (std::size_t j = 0; j < n && !needed; ++j) {
                    needed = (mask >> j & 1u) == 0 && contains(inputs[j], d);
                }
                if (needed) {
                    kept.push_back(d);
                }
            }
        }
        return kept;
    };
    struct Node {
        double flops = 0.0;
        double intermediate_values = 0.0;  // values of the intermediates below, written and read
        std::vector<std::string> dims;
    };
    // One step: the two parts' tensors contracted into the dimensions `kept`.
    const auto step = [&](const Node& a, const Node& b, std::vector<std::string> kept, bool root) {
        std::vector<std::string> touched = a.dims;
        for (const std::string& d : b.dims) {
            if (!contains(touched, d)) {
                touched.push_back(d);
            }
        }
        const double terms = product(touched, resolved);
        Node out;
        // One multiply per term; one add per term when this step sums a dimension away.
        out.flops = a.flops + b.flops + (kept.size() < touched.size() ? 2.0 * terms : terms);
        out.intermediate_values = a.intermediate_values + b.intermediate_values;
        if (!root) {
            out.intermediate_values += product(kept, resolved);
        }
        out.dims = std::move(kept);
        return out;
    };
    const auto cheaper = [](const Node& a, const Node& b) {
        return a.flops < b.flops ||
               (a.flops == b.flops && a.intermediate_values < b.intermediate_values);
    };
    Node best;
    if (n <= kMaxOrderedInputs) {
        const std::uint32_t all = (1u << n) - 1;
        std::vector<std::optional<Node>> nodes(all + 1);
        for (std::size_t i = 0; i < n; ++i) {
            nodes[1u << i] = Node{0.0, 0.0, inputs[i]};
        }
        for (std::uint32_t mask = 1; mask <= all; ++mask) {
            if ((mask & (mask - 1)) == 0) {
                continue;  // a single input
            }
            const std::vector<std::string> kept = mask == all ? output : kept_dims(mask);
            // Each split once: the part holding the lowest input first.
            const std::uint32_t low = mask & (~mask + 1);
            for (std::uint32_t a = (mask - 1) & mask; a > 0; a = (a - 1) & mask) {
                if ((a & low) == 0) {
                    continue;
                }
                const Node candidate = step(*nodes[a], *nodes[mask ^ a], kept, mask == all);
                if (!nodes[mask] || cheaper(candidate, *nodes[mask])) {
                    nodes[mask] = candidate;
                }
            }
        }
        best = *nodes[all];
    } else {
        std::vector<std::pair<std::uint64_t, Node>> parts;
        for (std::size_t i = 0; i < n; ++i) {
            parts.push_back({std::uint64_t{1} << i, Node{0.0, 0.0, inputs[i]}});
        }
        while (parts.size() > 1) {
            std::optional<Node> pick;
            std::size_t pi = 0;
            std::size_t pj = 0;
            for (std::size_t i = 0; i < parts.size(); ++i) {
                for (std::size_t j = i + 1; j < parts.size(); ++j) {
                    const bool root = parts.size() == 2;
                    // kept_dims takes a 32-bit mask; past 32 inputs the greedy pass keeps the
                    // dimensions any other part or the output needs.
                    std::vector<std::string> kept;
                    if (root) {
                        kept = output;
                    } else {
                        for (const auto* part : {&parts[i].second, &parts[j].second}) {
                            for (const std::string& d : part->dims) {
                                bool needed = contains(output, d) && !contains(kept, d);
                                for (std::size_t k = 0; k < parts.size() && !needed; ++k) {
                                    needed = k != i && k != j &&
                                             contains(parts[k].second.dims, d) &&
                                             !contains(kept, d);
                                }
                                if (needed) {
                                    kept.push_back(d);
                                }
                            }
                        }
                    }
                    const Node candidate = step(parts[i].second, parts[j].second, kept, root);
                    const double own =
                        candidate.flops - parts[i].second.flops - parts[j].second.flops;
                    const double pick_own =
                        pick ? pick->flops - parts[pi].second.flops - parts[pj].second.flops : 0.0;
                    if (!pick || own < pick_own) {
                        pick = candidate;
                        pi = i;
                        pj = j;
                    }
                }
            }
            parts[pi] = {parts[pi].first | parts[pj].first, *pick};
            parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(pj));
        }
        best = parts.front().second;
    }
    cost.flops = best.flops;
    cost.read_bytes += best.intermediate_values * value_bytes;
    cost.write_bytes += best.intermediate_values * value_bytes;
    return cost;
}

}  // namespace tally
