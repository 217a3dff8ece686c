#pragma once

#include <string>
#include <vector>

#include "planner/core/spec.h"

namespace tally {

// A shipped example plan (resources/examples/*.json), parsed once.
struct ExamplePlan {
    std::string file;  // e.g. "examples/seed-70b-15t-1024-h100.json", relative to resources/
    PlanSpec spec;     // its name is the example's title
    // True for the plans of CS336 lecture 2 (their titles start with "CS336"): the lecture's
    // questions, whose figures Tally reproduces exactly.
    bool lecture = false;
    // The window's panel that answers the example's question (a MainWindow panel id: "time",
    // "memory", "roofline", "inference"); empty: the panel in front stays.
    std::string panel;
};

// Every shipped example: the lecture's first, then the others, each group by file name.
const std::vector<ExamplePlan>& builtin_examples();

// The plan the window opens on: a real architecture on a real layout (Llama 3 70B on 15T tokens,
// 1024 H100, tp 8 x pp 4 with sequence parallelism and ZeRO-1), so every chart has something to
// show: activations, a pipeline bubble, a micro-batch that matters. It carries no name, so its
// title follows its edits (plan_title()). default_plan_spec() stays the lecture's question 1.
PlanSpec start_plan_spec();

}  // namespace tally
