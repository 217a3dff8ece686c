#include "planner/io/examples.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "planner/core/errors.h"
#include "planner/io/spec_json.h"
#include "resources/embedded_resources.h"

namespace tally {

namespace {

constexpr std::string_view kStartExample = "examples/llama-3-70b-15t-1024-h100.json";

// Where each example's answer is: the lecture's question 1 is a time, question 2 (and the deep
// ReLU network's bytes) a memory, the roofline example its operations; a serving example's
// figures are the Inference panel's. The training plans show on every panel.
std::string panel_of(const ExamplePlan& e) {
    if (!e.spec.ops.empty()) {
        return "roofline";
    }
    if (e.spec.inference != InferenceSpec{}) {  // an inference block (is_serving_plan())
        return "inference";
    }
    if (e.file.starts_with("examples/seed-max-params") || e.file == "examples/lecture-mlp.json") {
        return "memory";
    }
    if (e.file == "examples/seed-70b-15t-1024-h100.json") {
        return "time";
    }
    return {};
}

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
        e.panel = panel_of(e);
        out.push_back(std::move(e));
    }
    // embedded_files() is sorted by path; the lecture's examples come first, its questions in
    // their order (question 1 opens the menu), each question's own example before the notes'
    // variants of it, then the lecture's other examples.
    const auto lectureEnd = std::stable_partition(out.begin(), out.end(),
                                                  [](const ExamplePlan& e) { return e.lecture; });
    auto rank = [](const ExamplePlan& e) {
        const std::size_t q = e.spec.name.find("question ");
        const int number =
            q == std::string::npos || q + 9 >= e.spec.name.size() ? 100 : e.spec.name[q + 9] - '0';
        const bool notes = e.spec.name.find(" notes") != std::string::npos;
        return std::pair{number, notes ? 1 : 0};
    };
    std::stable_sort(out.begin(), lectureEnd,
                     [&](const ExamplePlan& a, const ExamplePlan& b) { return rank(a) < rank(b); });
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
