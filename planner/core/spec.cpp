#include "planner/core/spec.h"

#include "planner/core/enum_names.h"

namespace tally {

// The names come from the tables in enum_names.h, which the spec reader and the form share.
std::string_view to_string(ModelKind kind) {
    return json_name(kind);
}
std::string_view to_string(FfnKind kind) {
    return json_name(kind);
}
std::string_view to_string(NormKind kind) {
    return json_name(kind);
}
std::string_view to_string(BiasKind kind) {
    return json_name(kind);
}
std::string_view to_string(Optimizer optimizer) {
    return json_name(optimizer);
}
std::string_view to_string(Recompute recompute) {
    return json_name(recompute);
}
std::string_view to_string(FlopsFormula formula) {
    return json_name(formula);
}
std::string_view to_string(Offload offload) {
    return json_name(offload);
}
std::string_view to_string(Engine engine) {
    return json_name(engine);
}
std::string_view to_string(ServingEngine engine) {
    return json_name(engine);
}
std::string_view to_string(DecodeAttention attention) {
    return json_name(attention);
}
std::string_view to_string(OutputHead head) {
    return json_name(head);
}
std::string_view to_string(Fp8Recipe recipe) {
    return json_name(recipe);
}
std::string_view to_string(MoeDispatcher dispatcher) {
    return json_name(dispatcher);
}
std::string_view to_string(FsdpBackwardPrefetch prefetch) {
    return json_name(prefetch);
}
std::string_view to_string(CrossEntropy kept) {
    return json_name(kept);
}
std::string_view to_string(OptimizerImpl impl) {
    return json_name(impl);
}
std::string_view to_string(AttentionKernel kernel) {
    return json_name(kernel);
}
std::string_view to_string(OpKind kind) {
    return json_name(kind);
}

ModelSpec architecture_only(const ModelSpec& model) {
    ModelSpec out;
    out.kind = model.kind;
    switch (model.kind) {
        case ModelKind::params:
            out.params = model.params;
            break;
        case ModelKind::mlp:
            out.layers = model.layers;
            out.hidden = model.hidden;
            break;
        case ModelKind::transformer:
            out = model;
            out.name.clear();
            out.params = ModelSpec{}.params;
            // The context a configuration serves changes no weight: not architecture.
            out.context_length = 0;
            out.rope_theta = 0.0;  // nor does the positions' base
            if (!model.moe.enabled()) {
                out.moe = MoeSpec{};
            }
            if (!model.mla.enabled()) {
                out.mla = MlaSpec{};
            } else {
                out.qk_norm = false;  // MLA's latent norms are part of it
            }
            // Without a window no layer is windowed; every layer windowed is written one way.
            if (model.sliding_window <= 0) {
                out.sliding_window = 0;
                out.sliding_window_layers = 0;
            } else if (model.sliding_window_layers >= model.layers) {
                out.sliding_window_layers = 0;
            }
            break;
    }
    return out;
}

int optimizer_states_per_param(Optimizer optimizer) {
    switch (optimizer) {
        case Optimizer::sgd:
            return 0;  // w -= lr * g
        case Optimizer::momentum:
            return 1;  // velocity
        case Optimizer::adagrad:
            return 1;  // sum of squared gradients (CS336 lecture 2)
        case Optimizer::rmsprop:
            return 1;  // running mean of squared gradients
        case Optimizer::adam:
        case Optimizer::adamw:
            return 2;  // first and second moments
        case Optimizer::adafactor:
            return 0;  // factored: rows + columns per matrix, not per value
        case Optimizer::lion:
            return 1;  // momentum only (Chen et al. 2023, Alg. 1)
        case Optimizer::adam8bit:
            return 2;  // two moments, 8-bit block-quantised
    }
    return 0;
}

std::vector<std::string_view> recompute_module_names(const RecomputeModules& m) {
    std::vector<std::string_view> names;
    for (const auto& [on, name] : {std::pair<bool, std::string_view>{m.core_attn, "core_attn"},
                                   {m.layernorm, "layernorm"},
                                   {m.mla_up_proj, "mla_up_proj"},
                                   {m.moe_act, "moe_act"},
                                   {m.mlp, "mlp"}}) {
        if (on) {
            names.push_back(name);
        }
    }
    return names;
}

bool add_recompute_module(RecomputeModules& m, std::string_view name) {
    for (const auto& [flag, known] : {std::pair<bool*, std::string_view>{&m.core_attn, "core_attn"},
                                      {&m.layernorm, "layernorm"},
                                      {&m.mla_up_proj, "mla_up_proj"},
                                      {&m.moe_act, "moe_act"},
                                      {&m.mlp, "mlp"}}) {
        if (name == known) {
            *flag = true;
            return true;
        }
    }
    return false;
}

std::string recompute_modules_text(const RecomputeModules& modules) {
    std::string text;
    for (const std::string_view name : recompute_module_names(modules)) {
        text += (text.empty() ? "" : ", ") + std::string(name);
    }
    return text;
}

}  // namespace tally
