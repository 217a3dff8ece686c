#pragma once

#include <vector>

#include "planner/core/spec.h"
#include "planner/hardware/hardware.h"
#include "planner/training/plan.h"

namespace tally {

// The variables a chart can sweep while the rest of the spec stays put.
enum class SweepVariable { micro_batch, seq_len, layers, gpus };
std::string_view to_string(SweepVariable variable);
// The spec's own value of the variable (where the spec sits on a sweep's x axis).
double sweep_value(const PlanSpec& spec, SweepVariable variable);

struct SweepPoint {
    double x = 0.0;
    bool valid = false;  // false where check() rejects the spec at this x
    Plan plan;
};

// Evaluates the spec at each x (rounded to an integer). Points the spec's rules reject (e.g. a
// GPU count not divisible by tp x pp) come back with valid = false, so a chart can skip them.
std::vector<SweepPoint> sweep(const PlanSpec& spec, const HardwareProfile& hardware,
                              SweepVariable variable, const std::vector<double>& xs);

// Powers of two from lo to hi inclusive (a chart's default x values).
std::vector<double> powers_of_two(double lo, double hi);

}  // namespace tally
