#pragma once

// A plan as files a user can keep or share: a CSV of every input and figure (for a spreadsheet)
// and a Markdown report that shows its work (for a README or a review).

#include <string>

#include "planner/core/spec.h"
#include "planner/core/text.h"
#include "planner/hardware/hardware.h"
#include "planner/training/plan.h"

namespace tally {

// What a plan is called: the name the user gave it, else what it is, e.g. "Llama 3 8B, 15T
// tokens, 64 x H100 SXM5 80GB" or "70B parameters, 15T tokens, 1024 x H100 SXM5 80GB", so an
// unnamed plan's title follows its edits. The window title, the suggested name to save under,
// the report's heading, the CSV and `tally plan` all use it.
std::string plan_title(const PlanSpec& spec, const HardwareProfile& hardware,
                       const TextTranslator& translate = {});

// One row per value: section ("spec" or "plan"), key (the dotted path of the CLI's JSON: the
// spec's as `tally plan` reads it, the plan's as `tally plan --json` prints it), value, and a
// first row "plan,title" with plan_title(). Numbers are written in the shortest form that reads
// back exactly; RFC 4180 quoting.
std::string plan_csv(const PlanSpec& spec, const HardwareProfile& hardware, const Plan& plan);

// A Markdown document: the inputs, memory per GPU (GB = 1e9 bytes and GiB = 2^30 bytes), compute,
// time and cost, how each figure is computed (formula, numbers, source) and the warnings.
std::string plan_markdown(const PlanSpec& spec, const HardwareProfile& hardware, const Plan& plan,
                          const TextTranslator& translate = {});

}  // namespace tally
