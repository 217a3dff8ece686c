#pragma once

// A plan as files a user can keep or share: a CSV of every input and figure (for a spreadsheet)
// and a Markdown report that shows its work (for a README or a review).

#include <string>

#include "planner/hardware.h"
#include "planner/plan.h"
#include "planner/spec.h"

namespace tally {

// One row per value: section ("spec" or "plan"), key (the dotted path of the CLI's JSON: the
// spec's as `tally plan` reads it, the plan's as `tally plan --json` prints it), value. Numbers
// are written with 17 significant digits so they read back exactly; RFC 4180 quoting.
std::string plan_csv(const PlanSpec& spec, const HardwareProfile& hardware, const Plan& plan);

// A Markdown document: the inputs, memory per GPU (GB = 1e9 bytes and GiB = 2^30 bytes), compute,
// time and cost, how each figure is computed (formula, numbers, source) and the warnings.
std::string plan_markdown(const PlanSpec& spec, const HardwareProfile& hardware, const Plan& plan);

}  // namespace tally
