#include "planner/training/sweep.h"

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
                // The global batch stays the spec's (the training recipe), so gradient
                // accumulation and the pipeline's micro-batches in flight, min(pp, steps), change
                // with x as they would in the plan. Where the global batch is not a multiple of
                // micro-batch x dp, check() rejects the point. A spec without a global batch
                // (0: one micro-batch per data-parallel rank) keeps following the micro-batch.
                trial.data.micro_batch = v;
                break;
            case SweepVariable::seq_len:
                trial.data.seq_len = v;
                break;
            case SweepVariable::layers:
                trial.model.layers = v;
                break;
            case SweepVariable::gpus:
                trial.cluster.gpus = v;
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
