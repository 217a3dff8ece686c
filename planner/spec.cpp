#include "spec.h"

namespace tally {

std::string_view to_string(ModelKind kind) {
    switch (kind) {
        case ModelKind::transformer:
            return "transformer";
        case ModelKind::mlp:
            return "mlp";
        case ModelKind::params:
            return "params";
    }
    return "?";
}

std::string_view to_string(FfnKind kind) {
    switch (kind) {
        case FfnKind::gelu:
            return "gelu";
        case FfnKind::swiglu:
            return "swiglu";
        case FfnKind::relu:
            return "relu";
    }
    return "?";
}

std::string_view to_string(NormKind kind) {
    switch (kind) {
        case NormKind::layernorm:
            return "layernorm";
        case NormKind::rmsnorm:
            return "rmsnorm";
    }
    return "?";
}

std::string_view to_string(BiasKind kind) {
    switch (kind) {
        case BiasKind::none:
            return "none";
        case BiasKind::qkv:
            return "qkv";
        case BiasKind::all:
            return "all";
    }
    return "?";
}

std::string_view to_string(Optimizer optimizer) {
    switch (optimizer) {
        case Optimizer::sgd:
            return "sgd";
        case Optimizer::momentum:
            return "momentum";
        case Optimizer::adagrad:
            return "adagrad";
        case Optimizer::rmsprop:
            return "rmsprop";
        case Optimizer::adam:
            return "adam";
        case Optimizer::adamw:
            return "adamw";
        case Optimizer::adafactor:
            return "adafactor";
        case Optimizer::lion:
            return "lion";
        case Optimizer::adam8bit:
            return "adam8bit";
    }
    return "?";
}

std::string_view to_string(Recompute recompute) {
    switch (recompute) {
        case Recompute::none:
            return "none";
        case Recompute::selective:
            return "selective";
        case Recompute::full:
            return "full";
        case Recompute::sqrt:
            return "sqrt";
    }
    return "?";
}

std::string_view to_string(FlopsFormula formula) {
    switch (formula) {
        case FlopsFormula::six_nd:
            return "6nd";
        case FlopsFormula::attention:
            return "attention";
    }
    return "?";
}

std::string_view to_string(OpKind kind) {
    switch (kind) {
        case OpKind::relu:
            return "relu";
        case OpKind::gelu:
            return "gelu";
        case OpKind::dot:
            return "dot";
        case OpKind::matvec:
            return "matvec";
        case OpKind::matmul:
            return "matmul";
        case OpKind::einsum:
            return "einsum";
    }
    return "?";
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
            if (!model.moe.enabled()) {
                out.moe = MoeSpec{};
            }
            if (!model.mla.enabled()) {
                out.mla = MlaSpec{};
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

}  // namespace tally
