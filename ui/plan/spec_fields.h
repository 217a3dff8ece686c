#pragma once

#include <limits>

// The editable fields of a PlanSpec, as data: the planner's name of each field (so a FieldError
// from check() finds its editor), its label and help, its slider range, and how to read and write
// it. The form builds its editors from this list; the tests walk it.

#include <variant>
#include <vector>

#include "planner/core/spec.h"
#include "ui/plan/slider_scale.h"

namespace tally::ui {

enum class Section { model, moe, data, cluster, recipe };

struct NumberField {
    const char* path;   // the planner's field name, e.g. "model.layers"
    const char* label;  // untranslated; SpecForm translates in its context
    const char* help;
    SliderRange range;
    bool integer = true;
    // What 0 means for fields where it selects a default ("auto", "= heads"); nullptr: 0 is a
    // plain value.
    const char* zeroText = nullptr;
    double (*get)(const PlanSpec&) = nullptr;
    void (*set)(PlanSpec&, double) = nullptr;
    bool (*applies)(const PlanSpec&) = nullptr;  // nullptr: always shown
    // What the box takes, in the unit it shows, where that differs from the spec's (a field shown
    // in milliseconds and stored in seconds): refused in the box's unit before the planner, which
    // would name the spec's, sees it. NaN: the planner alone says.
    double least = std::numeric_limits<double>::quiet_NaN();
    double most = std::numeric_limits<double>::quiet_NaN();
};

struct Choice {
    const char* label;
    int value;
};

struct ChoiceField {
    const char* path;
    const char* label;
    const char* help;
    std::vector<Choice> choices;
    int (*get)(const PlanSpec&) = nullptr;
    void (*set)(PlanSpec&, int) = nullptr;
    bool (*applies)(const PlanSpec&) = nullptr;
};

struct BoolField {
    const char* path;
    const char* label;
    const char* help;
    bool (*get)(const PlanSpec&) = nullptr;
    void (*set)(PlanSpec&, bool) = nullptr;
    bool (*applies)(const PlanSpec&) = nullptr;
};

using FieldDescriptor = std::variant<NumberField, ChoiceField, BoolField>;

struct SectionFields {
    Section section;
    std::vector<FieldDescriptor> fields;
};

// Every field, section by section, in the order the form shows them. (The GPU picker and the
// model preset picker are not here: they choose from lists that change at run time.)
const std::vector<SectionFields>& specFields();

const char* pathOf(const FieldDescriptor& field);

// The inference block's fields (the Inference panel's form), declared like the ones above; not
// part of specFields(), whose form is the training plan's.
const std::vector<FieldDescriptor>& inferenceFields();

}  // namespace tally::ui
