#include "sweep.h"

#include <cmath>

namespace tally {

std::string_view to_string(SweepVariable variable) {
    switch (variable) {
        case SweepVariable::micro_batch:
            return "micro_batch";
        case SweepVariable::seq_len:
            return "seq_len";
        case SweepVariable::layers:
            return "layers";
        case SweepVariable::gpus:
            return "gpus";
    }
    return "?";
}

double sweep_value(const PlanSpec& spec, SweepVariable variable) {
    switch (variable) {
        case SweepVariable::micro_batch:
            return static_cast<double>(spec.data.micro_batch);
        case SweepVariable::seq_len:
            return static_cast<double>(spec.data.seq_len);
        case SweepVariable::layers:
            return static_cast<double>(spec.model.layers);
        case SweepVariable::gpus:
            return static_cast<double>(spec.cluster.gpus);
    }
    return 0.0;
}

std::vector<SweepPoint> sweep(const PlanSpec& spec, const HardwareProfile& hw,
                              SweepVariable variable, const std::vector<double>& xs) {
    std::vector<SweepPoint> out;
    out.reserve(xs.size());
    PlanSpec trial = spec;
    for (double x : xs) {
        const auto v = static_cast<std::int64_t>(std::llround(x));
        switch (variable) {
            case SweepVariable::micro_batch:
                trial.data.micro_batch = v;
                // Keep the global batch a whole number of micro-batches: let it follow.
                trial.data.global_batch = 0;
                break;
            case SweepVariable::seq_len:
                trial.data.seq_len = v;
                break;
            case SweepVariable::layers:
                trial.model.layers = v;
                break;
            case SweepVariable::gpus:
                trial.cluster.gpus = v;
                trial.data.global_batch = spec.data.global_batch;
                break;
        }
        SweepPoint point;
        point.x = static_cast<double>(v);
        point.valid = !check(trial, hw).has_value();
        if (point.valid) {
            point.plan = evaluate(trial, hw);
        }
        out.push_back(point);
    }
    return out;
}

std::vector<double> powers_of_two(double lo, double hi) {
    std::vector<double> out;
    for (double x = lo; x <= hi; x *= 2.0) {
        out.push_back(x);
    }
    return out;
}

}  // namespace tally
