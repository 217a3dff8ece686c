// The enum tables (planner/core/enum_names.h) against the spec format documented in
// docs/planner.md: every value has exactly one row, its JSON name is the documented one, and the
// name reads back as the value through the spec reader.
#include <QtTest>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "planner/core/enum_names.h"
#include "planner/core/errors.h"
#include "planner/io/spec_json.h"

using namespace tally;

namespace {

// The values of each enum, listed by hand. Each switch names every enumerator without a default,
// so -Wswitch (an error under TALLY_WERROR) fails this file when an enumerator is added and the
// lists below are not updated.
constexpr bool listed(ModelKind v) {
    switch (v) {
        case ModelKind::transformer:
        case ModelKind::mlp:
        case ModelKind::params:
            return true;
    }
    return false;
}
constexpr bool listed(FfnKind v) {
    switch (v) {
        case FfnKind::gelu:
        case FfnKind::swiglu:
        case FfnKind::relu:
            return true;
    }
    return false;
}
constexpr bool listed(NormKind v) {
    switch (v) {
        case NormKind::layernorm:
        case NormKind::rmsnorm:
            return true;
    }
    return false;
}
constexpr bool listed(BiasKind v) {
    switch (v) {
        case BiasKind::none:
        case BiasKind::qkv:
        case BiasKind::all:
            return true;
    }
    return false;
}
constexpr bool listed(Optimizer v) {
    switch (v) {
        case Optimizer::sgd:
        case Optimizer::momentum:
        case Optimizer::adagrad:
        case Optimizer::rmsprop:
        case Optimizer::adam:
        case Optimizer::adamw:
        case Optimizer::adafactor:
        case Optimizer::lion:
        case Optimizer::adam8bit:
            return true;
    }
    return false;
}
constexpr bool listed(Recompute v) {
    switch (v) {
        case Recompute::none:
        case Recompute::selective:
        case Recompute::full:
        case Recompute::sqrt:
            return true;
    }
    return false;
}
constexpr bool listed(Offload v) {
    switch (v) {
        case Offload::none:
        case Offload::optimizer:
        case Offload::optimizer_and_params:
            return true;
    }
    return false;
}
constexpr bool listed(Engine v) {
    switch (v) {
        case Engine::megatron:
        case Engine::fsdp:
        case Engine::fsdp_compile:
        case Engine::deepspeed:
            return true;
    }
    return false;
}
constexpr bool listed(Fp8Recipe v) {
    switch (v) {
        case Fp8Recipe::delayed:
        case Fp8Recipe::current:
        case Fp8Recipe::block:
        case Fp8Recipe::mxfp8:
            return true;
    }
    return false;
}
constexpr bool listed(AttentionKernel v) {
    switch (v) {
        case AttentionKernel::engine:
        case AttentionKernel::flash2:
        case AttentionKernel::flash3:
        case AttentionKernel::cudnn:
        case AttentionKernel::triton:
        case AttentionKernel::flash1:
            return true;
    }
    return false;
}
constexpr bool listed(FsdpBackwardPrefetch v) {
    switch (v) {
        case FsdpBackwardPrefetch::pre:
        case FsdpBackwardPrefetch::post:
            return true;
    }
    return false;
}
constexpr bool listed(CrossEntropy v) {
    switch (v) {
        case CrossEntropy::fp32:
        case CrossEntropy::in_place:
            return true;
    }
    return false;
}
constexpr bool listed(OptimizerImpl v) {
    switch (v) {
        case OptimizerImpl::engine:
        case OptimizerImpl::fused:
        case OptimizerImpl::foreach:
            return true;
    }
    return false;
}
constexpr bool listed(FlopsFormula v) {
    switch (v) {
        case FlopsFormula::six_nd:
        case FlopsFormula::attention:
            return true;
    }
    return false;
}

// docs/planner.md's names, value by value.
template <typename E>
using Names = std::vector<std::pair<E, std::string>>;

const Names<ModelKind> kModelKinds{{ModelKind::transformer, "transformer"},
                                   {ModelKind::mlp, "mlp"},
                                   {ModelKind::params, "params"}};
const Names<FfnKind> kFfnKinds{
    {FfnKind::gelu, "gelu"}, {FfnKind::swiglu, "swiglu"}, {FfnKind::relu, "relu"}};
const Names<NormKind> kNormKinds{{NormKind::layernorm, "layernorm"},
                                 {NormKind::rmsnorm, "rmsnorm"}};
const Names<BiasKind> kBiasKinds{
    {BiasKind::none, "none"}, {BiasKind::qkv, "qkv"}, {BiasKind::all, "all"}};
const Names<Optimizer> kOptimizers{{Optimizer::sgd, "sgd"},
                                   {Optimizer::momentum, "momentum"},
                                   {Optimizer::adagrad, "adagrad"},
                                   {Optimizer::rmsprop, "rmsprop"},
                                   {Optimizer::adam, "adam"},
                                   {Optimizer::adamw, "adamw"},
                                   {Optimizer::adafactor, "adafactor"},
                                   {Optimizer::lion, "lion"},
                                   {Optimizer::adam8bit, "adam8bit"}};
const Names<Recompute> kRecomputes{{Recompute::none, "none"},
                                   {Recompute::selective, "selective"},
                                   {Recompute::full, "full"},
                                   {Recompute::sqrt, "sqrt"}};
const Names<FlopsFormula> kFlopsFormulas{{FlopsFormula::six_nd, "6nd"},
                                         {FlopsFormula::attention, "attention"}};
const Names<Offload> kOffloads{{Offload::none, "none"},
                               {Offload::optimizer, "optimizer"},
                               {Offload::optimizer_and_params, "optimizer_and_params"}};
const Names<Engine> kEngines{{Engine::megatron, "megatron"},
                             {Engine::fsdp, "fsdp"},
                             {Engine::fsdp_compile, "fsdp_compile"},
                             {Engine::deepspeed, "deepspeed"}};
const Names<Fp8Recipe> kFp8Recipes{{Fp8Recipe::delayed, "delayed"},
                                   {Fp8Recipe::current, "current"},
                                   {Fp8Recipe::block, "block"},
                                   {Fp8Recipe::mxfp8, "mxfp8"}};
const Names<AttentionKernel> kAttentionKernels{
    {AttentionKernel::engine, "engine"}, {AttentionKernel::flash2, "flash2"},
    {AttentionKernel::flash3, "flash3"}, {AttentionKernel::cudnn, "cudnn"},
    {AttentionKernel::triton, "triton"}, {AttentionKernel::flash1, "flash1"}};
const Names<FsdpBackwardPrefetch> kFsdpBackwardPrefetches{{FsdpBackwardPrefetch::pre, "pre"},
                                                          {FsdpBackwardPrefetch::post, "post"}};
const Names<CrossEntropy> kCrossEntropies{{CrossEntropy::fp32, "fp32"},
                                          {CrossEntropy::in_place, "in_place"}};
const Names<OptimizerImpl> kOptimizerImpls{{OptimizerImpl::engine, "engine"},
                                           {OptimizerImpl::fused, "fused"},
                                           {OptimizerImpl::foreach, "foreach"}};

// Each documented value has one row with its documented name, the table has no other rows, and
// names and labels are unique (a name that meant two values would read back as the first).
template <typename E>
void checkTable(const Names<E>& expected) {
    const auto table = kEnumNames<E>;
    QCOMPARE(table.size(), expected.size());
    std::set<std::string_view> names;
    std::set<std::string_view> labels;
    for (const EnumName<E>& row : table) {
        QVERIFY(listed(row.value));
        QVERIFY2(names.insert(row.json_name).second, std::string(row.json_name).c_str());
        QVERIFY2(labels.insert(row.label).second, std::string(row.label).c_str());
        QVERIFY(!row.label.empty());
    }
    for (const auto& [value, name] : expected) {
        QVERIFY(listed(value));
        const EnumName<E>* row = find_enum_name(value);
        QVERIFY2(row, name.c_str());
        QCOMPARE(std::string(row->json_name), name);
        QCOMPARE(std::string(json_name(value)), name);
        const std::optional<E> back = enum_from_json_name<E>(name);
        QVERIFY(back.has_value());
        QVERIFY(*back == value);
    }
    QVERIFY(!enum_from_json_name<E>("no-such-name").has_value());
}

// A transformer spec with `key` of `object` set to `name`, read back through the spec reader.
PlanSpec readWith(const char* object, const char* key, const std::string& name) {
    nlohmann::json j = to_json(default_plan_spec());
    if (std::string(object) == "model") {
        if (std::string(key) == "kind" && name == "params") {
            j["model"] = {{"kind", name}, {"params", 1e9}};
        } else if (std::string(key) == "kind" && name == "mlp") {
            j["model"] = {{"kind", name}, {"layers", 2}, {"hidden", 64}};
        } else {
            j["model"] = {{"kind", "transformer"},
                          {"layers", 2},
                          {"hidden", 64},
                          {"heads", 4},
                          {"vocab", 100}};
            j["model"][key] = name;
        }
    } else {
        j[object][key] = name;
        if (std::string(key) == "optimizer" && name == "adam8bit") {
            j["training"].erase("optimizer_state_dtype");  // 8-bit Adam defaults to int8
        }
    }
    return plan_spec_from_json(j);
}

}  // namespace

class TestEnumNames : public QObject {
    Q_OBJECT

private slots:
    void tablesCoverEveryValue();
    void toStringIsTheJsonName();
    void readerReadsEveryName();
    void writerWritesEveryName();
    void readerListsTheAllowedNames();
    void masterWeightsAreFp32OrNone();
};

void TestEnumNames::tablesCoverEveryValue() {
    checkTable(kModelKinds);
    checkTable(kFfnKinds);
    checkTable(kNormKinds);
    checkTable(kBiasKinds);
    checkTable(kOptimizers);
    checkTable(kRecomputes);
    checkTable(kFlopsFormulas);
    checkTable(kOffloads);
    checkTable(kEngines);
    checkTable(kFp8Recipes);
    checkTable(kAttentionKernels);
    checkTable(kFsdpBackwardPrefetches);
    checkTable(kCrossEntropies);
    checkTable(kOptimizerImpls);
}

void TestEnumNames::toStringIsTheJsonName() {
    for (const auto& [v, name] : kModelKinds)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kFfnKinds)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kNormKinds)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kBiasKinds)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kOptimizers)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kRecomputes)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kFlopsFormulas)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kOffloads)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kEngines)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kFp8Recipes)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kAttentionKernels)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kFsdpBackwardPrefetches)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kCrossEntropies)
        QCOMPARE(std::string(to_string(v)), name);
    for (const auto& [v, name] : kOptimizerImpls)
        QCOMPARE(std::string(to_string(v)), name);
}

void TestEnumNames::readerReadsEveryName() {
    for (const auto& [v, name] : kModelKinds)
        QVERIFY(readWith("model", "kind", name).model.kind == v);
    for (const auto& [v, name] : kFfnKinds)
        QVERIFY(readWith("model", "ffn", name).model.ffn == v);
    for (const auto& [v, name] : kNormKinds)
        QVERIFY(readWith("model", "norm", name).model.norm == v);
    for (const auto& [v, name] : kBiasKinds)
        QVERIFY(readWith("model", "bias", name).model.bias == v);
    for (const auto& [v, name] : kOptimizers) {
        QVERIFY(readWith("training", "optimizer", name).training.optimizer == v);
    }
    for (const auto& [v, name] : kRecomputes) {
        QVERIFY(readWith("training", "recompute", name).training.recompute == v);
    }
    for (const auto& [v, name] : kFlopsFormulas) {
        QVERIFY(readWith("training", "flops_formula", name).training.flops_formula == v);
    }
    for (const auto& [v, name] : kOffloads) {
        QVERIFY(readWith("training", "offload", name).training.offload == v);
    }
    for (const auto& [v, name] : kEngines) {
        QVERIFY(readWith("training", "engine", name).training.engine == v);
    }
    for (const auto& [v, name] : kFp8Recipes) {
        QVERIFY(readWith("training", "fp8_recipe", name).training.fp8_recipe == v);
    }
    for (const auto& [v, name] : kAttentionKernels) {
        QVERIFY(readWith("training", "attention_kernel", name).training.attention_kernel == v);
    }
    for (const auto& [v, name] : kFsdpBackwardPrefetches) {
        QVERIFY(
            readWith("training", "fsdp_backward_prefetch", name).training.fsdp_backward_prefetch ==
            v);
    }
    for (const auto& [v, name] : kOptimizerImpls) {
        QVERIFY(readWith("training", "optimizer_impl", name).training.optimizer_impl == v);
    }
    for (const auto& [v, name] : kCrossEntropies) {
        QVERIFY(readWith("training", "cross_entropy", name).training.cross_entropy == v);
    }
}

void TestEnumNames::writerWritesEveryName() {
    // Every value written by to_json reads back as itself: the whole spec compares equal.
    PlanSpec s = default_plan_spec();
    s.model = ModelSpec{};
    s.model.layers = 2;
    s.model.hidden = 64;
    s.model.heads = 4;
    s.model.vocab = 100;
    for (const auto& [v, name] : kFfnKinds) {
        s.model.ffn = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kNormKinds) {
        s.model.norm = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kBiasKinds) {
        s.model.bias = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kRecomputes) {
        s.training.recompute = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kFlopsFormulas) {
        s.training.flops_formula = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kOffloads) {
        s.training.offload = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kOptimizers) {
        s.training.optimizer = v;
        s.training.optimizer_state_dtype = v == Optimizer::adam8bit ? DType::int8 : DType::fp32;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kEngines) {
        s.training.engine = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kFp8Recipes) {
        s.training.fp8_recipe = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kAttentionKernels) {
        s.training.attention_kernel = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kFsdpBackwardPrefetches) {
        s.training.fsdp_backward_prefetch = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kOptimizerImpls) {
        s.training.optimizer_impl = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
    for (const auto& [v, name] : kCrossEntropies) {
        s.training.cross_entropy = v;
        QVERIFY2(plan_spec_from_json(to_json(s)) == s, name.c_str());
    }
}

void TestEnumNames::readerListsTheAllowedNames() {
    nlohmann::json j = to_json(default_plan_spec());
    j["training"]["recompute"] = "some";
    try {
        plan_spec_from_json(j);
        QFAIL("an unknown recompute name was accepted");
    } catch (const SpecError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("training.recompute") != std::string::npos, what.c_str());
        QVERIFY2(what.find("\"some\"") != std::string::npos, what.c_str());
        QVERIFY2(what.find("none, selective, full, sqrt") != std::string::npos, what.c_str());
    }
}

void TestEnumNames::masterWeightsAreFp32OrNone() {
    // docs/planner.md: "master_dtype": "fp32" or "none"; check() refuses any other dtype.
    QCOMPARE(std::size(kMasterDtypeNames), std::size_t{2});
    QVERIFY(!readWith("training", "master_dtype", "none").training.master_dtype.has_value());
    QVERIFY(readWith("training", "master_dtype", "fp32").training.master_dtype == DType::fp32);
    for (const char* refused : {"bf16", "fp16", "fp64"}) {
        try {
            readWith("training", "master_dtype", refused);
            QFAIL(refused);
        } catch (const SpecError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("training.master_dtype") != std::string::npos, what.c_str());
            QVERIFY2(what.find("none, fp32") != std::string::npos, what.c_str());
        }
    }
}

QTEST_MAIN(TestEnumNames)
#include "tst_enum_names.moc"
