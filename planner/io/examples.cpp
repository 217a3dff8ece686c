#include "planner/io/examples.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "planner/core/errors.h"
#include "planner/io/spec_json.h"
#include "resources/embedded_resources.h"

namespace tally {

namespace {

constexpr std::string_view kStartExample = "examples/llama-3-70b-15t-1024-h100.json";

std::vector<ExamplePlan> load_examples() {
    std::vector<ExamplePlan> out;
    for (const EmbeddedFile& f : embedded_files()) {
        if (!f.path.starts_with("examples/") || !f.path.ends_with(".json")) {
            continue;
        }
        ExamplePlan e;
        e.file = std::string(f.path);
        try {
            e.spec = plan_spec_from_text(std::string(f.contents));
        } catch (const SpecError& error) {
            throw std::runtime_error("resources/" + e.file + ": " + error.what());
        }
        e.lecture = e.spec.name.starts_with("CS336");
        out.push_back(std::move(e));
    }
    // embedded_files() is sorted by path; the lecture's examples come first.
    std::stable_partition(out.begin(), out.end(), [](const ExamplePlan& e) { return e.lecture; });
    return out;
}

}  // namespace

const std::vector<ExamplePlan>& builtin_examples() {
    static const std::vector<ExamplePlan> examples = load_examples();
    return examples;
}

PlanSpec start_plan_spec() {
    for (const ExamplePlan& e : builtin_examples()) {
        if (e.file == kStartExample) {
            PlanSpec spec = e.spec;
            spec.name.clear();
            return spec;
        }
    }
    throw std::runtime_error("resources/" + std::string(kStartExample) +
                             " is missing from the embedded resources");
}

}  // namespace tally
