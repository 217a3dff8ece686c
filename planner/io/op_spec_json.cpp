#include "planner/io/op_spec_json.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/core/spec.h"
#include "planner/roofline/einsum.h"

namespace tally {

using nlohmann::json;

namespace {

constexpr double kMaxFlopsPerElement = 1e6;

std::int64_t positive_int(const json& v, const std::string& field) {
    if (!v.is_number()) {
        throw SpecError(field, v.dump(),
                        TALLY_TEXT("tally::spec_json", "must be a whole number from 1 to 9e15"));
    }
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < 1.0 || d != std::floor(d) || d > 9.0e15) {
        throw SpecError(field, v.dump(),
                        TALLY_TEXT("tally::spec_json", "must be a whole number from 1 to 9e15"));
    }
    return static_cast<std::int64_t>(d);
}

}  // namespace

OpSpec op_from_json(const json& j, const std::string& path) {
    if (!j.is_object()) {
        throw SpecError(path, j.dump(),
                        TALLY_TEXT("tally::spec_json",
                                   "an operation must be an object {kind, dtype, ...sizes}"));
    }
    OpSpec op;
    const auto kind_it = j.find("kind");
    if (kind_it == j.end() || !kind_it->is_string()) {
        throw SpecError(
            path + ".kind", kind_it == j.end() ? std::string(kValueNothing) : kind_it->dump(),
            TALLY_TEXT("tally::spec_json", "one of relu, gelu, dot, matvec, matmul, einsum"));
    }
    const std::string kind = kind_it->get<std::string>();
    bool known = false;
    for (OpKind k : {OpKind::relu, OpKind::gelu, OpKind::dot, OpKind::matvec, OpKind::matmul,
                     OpKind::einsum}) {
        if (to_string(k) == kind) {
            op.kind = k;
            known = true;
        }
    }
    if (!known) {
        throw SpecError(
            path + ".kind", kind_it->dump(),
            TALLY_TEXT("tally::spec_json", "one of relu, gelu, dot, matvec, matmul, einsum"));
    }
    // Which keys each kind takes; anything else is a misspelling.
    std::vector<std::string> allowed{"kind", "dtype", "name"};
    switch (op.kind) {
        case OpKind::relu:
        case OpKind::dot:
            allowed.insert(allowed.end(), {"n"});
            break;
        case OpKind::gelu:
            allowed.insert(allowed.end(), {"n", "flops_per_element"});
            break;
        case OpKind::matvec:
            allowed.insert(allowed.end(), {"m", "n"});
            break;
        case OpKind::matmul:
            allowed.insert(allowed.end(), {"m", "k", "n"});
            break;
        case OpKind::einsum:
            allowed.insert(allowed.end(), {"expr", "sizes"});
            break;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
            std::string list;
            for (const auto& a : allowed) {
                list += (list.empty() ? "" : ", ") + a;
            }
            throw SpecError(
                path + "." + it.key(), it.value().dump(),
                TALLY_TEXT("tally::spec_json", "unknown key for a %1 operation; allowed keys: %2")
                    .arg(kind)
                    .arg(list));
        }
    }
    if (auto it = j.find("dtype"); it != j.end()) {
        auto dt = it->is_string() ? parse_dtype(it->get<std::string>()) : std::nullopt;
        if (!dt) {
            throw SpecError(path + ".dtype", it->dump(),
                            TALLY_TEXT("tally::spec_json", "one of %1").arg(dtype_names()));
        }
        op.dtype = *dt;
    }
    if (auto it = j.find("name"); it != j.end()) {
        if (!it->is_string()) {
            throw SpecError(path + ".name", it->dump(),
                            TALLY_TEXT("tally::spec_json", "must be a string"));
        }
        op.name = it->get<std::string>();
    }
    if (op.name.empty()) {
        op.name = kind;
    }
    auto size = [&](const char* key, std::int64_t& out) {
        auto it = j.find(key);
        if (it == j.end()) {
            throw SpecError(
                path + "." + key, kValueNothing,
                TALLY_TEXT("tally::spec_json", "a %1 operation needs a positive integer '%2'")
                    .arg(kind)
                    .arg(key));
        }
        out = positive_int(*it, path + "." + key);
    };
    switch (op.kind) {
        case OpKind::relu:
        case OpKind::dot:
            size("n", op.n);
            break;
        case OpKind::gelu:
            size("n", op.n);
            if (auto it = j.find("flops_per_element"); it != j.end()) {
                // GELU costs about 20 FLOPs per element (CS336 lecture 2); a million bounds any
                // elementwise function and keeps n x flops_per_element finite.
                if (!it->is_number() || !(it->get<double>() > 0.0) ||
                    it->get<double>() > kMaxFlopsPerElement) {
                    throw SpecError(path + ".flops_per_element", it->dump(),
                                    TALLY_TEXT("tally::spec_json", "must be a number in (0, 1e6]"));
                }
                op.gelu_flops_per_element = it->get<double>();
            }
            break;
        case OpKind::matvec:
            size("m", op.m);
            size("n", op.n);
            break;
        case OpKind::matmul:
            size("m", op.m);
            size("k", op.k);
            size("n", op.n);
            break;
        case OpKind::einsum: {
            auto e = j.find("expr");
            if (e == j.end() || !e->is_string() || e->get<std::string>().empty()) {
                throw SpecError(path + ".expr",
                                e == j.end() ? std::string(kValueNothing) : e->dump(),
                                TALLY_TEXT("tally::spec_json",
                                           "an einsum needs an expression such as \"batch seq "
                                           "hidden, hidden out -> batch seq out\""));
            }
            op.expr = e->get<std::string>();
            auto s = j.find("sizes");
            if (s == j.end() || !s->is_object()) {
                throw SpecError(
                    path + ".sizes", s == j.end() ? std::string(kValueNothing) : s->dump(),
                    TALLY_TEXT(
                        "tally::spec_json",
                        "an einsum needs an object of dimension sizes, e.g. {\"batch\": 8}"));
            }
            for (auto it = s->begin(); it != s->end(); ++it) {
                const std::string field =
                    it.key() == "..." ? path + ".sizes[\"...\"]" : path + ".sizes." + it.key();
                if (it.key() == "...") {
                    if (!it.value().is_array() || it.value().empty()) {
                        throw SpecError(field, it.value().dump(),
                                        TALLY_TEXT("tally::spec_json",
                                                   "\"...\" takes a non-empty array of positive "
                                                   "integers, e.g. [4, 5]"));
                    }
                    for (std::size_t i = 0; i < it.value().size(); ++i) {
                        op.ellipsis.push_back(
                            positive_int(it.value()[i], field + "[" + std::to_string(i) + "]"));
                    }
                } else {
                    op.sizes.emplace_back(it.key(), positive_int(it.value(), field));
                }
            }
            // Check the expression and its sizes now, so a bad einsum is reported with its field
            // when the spec is read rather than when the roofline runs.
            einsum_cost(parse_einsum(op.expr, path + ".expr"), op.sizes, op.ellipsis, op.dtype,
                        path + ".sizes");
            break;
        }
    }
    return op;
}

json to_json(const OpSpec& op) {
    json j{{"kind", std::string(to_string(op.kind))},
           {"dtype", std::string(to_string(op.dtype))},
           {"name", op.name}};
    switch (op.kind) {
        case OpKind::relu:
        case OpKind::dot:
            j["n"] = op.n;
            break;
        case OpKind::gelu:
            j["n"] = op.n;
            j["flops_per_element"] = op.gelu_flops_per_element;
            break;
        case OpKind::matvec:
            j["m"] = op.m;
            j["n"] = op.n;
            break;
        case OpKind::matmul:
            j["m"] = op.m;
            j["k"] = op.k;
            j["n"] = op.n;
            break;
        case OpKind::einsum: {
            j["expr"] = op.expr;
            json sizes = json::object();
            for (const auto& [name, size] : op.sizes) {
                sizes[name] = size;
            }
            if (!op.ellipsis.empty()) {
                sizes["..."] = op.ellipsis;
            }
            j["sizes"] = sizes;
            break;
        }
    }
    return j;
}

}  // namespace tally
