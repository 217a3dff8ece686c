#include "planner/text/plan_views.h"

#include <algorithm>
#include <cmath>

#include "planner/roofline/model_ops.h"
#include "planner/roofline/placed_ops.h"

namespace tally {

namespace {

// Powers of two from lo up to hi, stretched to hold `own`, with `own` itself added.
std::vector<double> doubling(double lo, double hi, double own) {
    hi = std::max(hi, own);
    std::vector<double> xs;
    for (double x = lo; x <= hi; x *= 2.0) {
        xs.push_back(x);
    }
    if (own >= lo && std::find(xs.begin(), xs.end(), own) == xs.end()) {
        xs.push_back(own);
        std::sort(xs.begin(), xs.end());
    }
    return xs;
}

std::vector<double> layer_values(std::int64_t own, std::int64_t pp) {
    const std::int64_t step = std::max<std::int64_t>(1, pp);
    const std::int64_t hi = std::max<std::int64_t>(2 * own, 8 * step);
    std::vector<double> xs;
    constexpr int kPoints = 16;
    for (int i = 1; i <= kPoints; ++i) {
        // Round each of 16 even steps up to a whole number of pipeline stages' worth of layers.
        const std::int64_t raw = (hi * i + kPoints - 1) / kPoints;
        const std::int64_t x = ((raw + step - 1) / step) * step;
        if (xs.empty() || xs.back() != static_cast<double>(x)) {
            xs.push_back(static_cast<double>(x));
        }
    }
    if (std::find(xs.begin(), xs.end(), static_cast<double>(own)) == xs.end()) {
        xs.push_back(static_cast<double>(own));
        std::sort(xs.begin(), xs.end());
    }
    return xs;
}

RooflineMark mark(std::string label, RooflineGroup group, bool aggregate, const OpCost& cost,
                  double count, const Roof& roof) {
    RooflineMark m;
    m.label = std::move(label);
    m.group = group;
    m.aggregate = aggregate;
    m.cost = cost;
    m.count = count;
    m.roof = roof;
    m.point = place(roof, cost.flops, cost.bytes());
    return m;
}

// The roof an operation of this dtype runs under; the plan's own when the hardware has no peak
// for it (e.g. an fp8 operation on a card without fp8).
Roof roof_of(const HardwareProfile& hw, DType dtype, const Roof& fallback) {
    if (auto r = roof_for(hw, compute_type(dtype))) {
        return *r;
    }
    return fallback;
}

RooflineGroup group_of(Phase phase) {
    switch (phase) {
        case Phase::training:
            return RooflineGroup::training;
        case Phase::prefill:
            return RooflineGroup::prefill;
        case Phase::decode:
            return RooflineGroup::decode;
    }
    return RooflineGroup::training;
}

}  // namespace

std::vector<double> sweep_values(const PlanSpec& spec, SweepVariable variable) {
    switch (variable) {
        case SweepVariable::micro_batch:
            return doubling(1.0, 1024.0, static_cast<double>(spec.data.micro_batch));
        case SweepVariable::seq_len:
            return doubling(256.0, 131072.0, static_cast<double>(spec.data.seq_len));
        case SweepVariable::layers:
            return layer_values(spec.model.layers, spec.training.pp);
        case SweepVariable::gpus: {
            const double group = static_cast<double>(spec.training.tp * spec.training.pp *
                                                     spec.training.context_parallel);
            return doubling(group, 65536.0, static_cast<double>(spec.cluster.gpus));
        }
    }
    return {};
}

std::string_view to_string(RooflineGroup group) {
    switch (group) {
        case RooflineGroup::seed:
            return "seed";
        case RooflineGroup::user:
            return "user";
        case RooflineGroup::training:
            return "training";
        case RooflineGroup::prefill:
            return "prefill";
        case RooflineGroup::decode:
            return "decode";
    }
    return "?";
}

std::vector<OpCost> seed_operations() {
    constexpr std::int64_t kMillion = 1000000;
    constexpr std::int64_t kN = 1024;
    std::vector<OpCost> ops{relu_cost(kMillion, DType::bf16), gelu_cost(kMillion, DType::bf16),
                            dot_cost(kMillion, DType::bf16), matvec_cost(kN, kN, DType::bf16),
                            matmul_cost(kN, kN, kN, DType::bf16)};
    ops[0].name = "ReLU";
    ops[1].name = "GELU";
    ops[2].name = "dot";
    ops[3].name = "matvec";
    ops[4].name = "matmul 1024";
    return ops;
}

RooflineView roofline_view(const PlanSpec& spec, const HardwareProfile& hw) {
    RooflineView view;
    view.roofs = roofs(hw);
    view.primary = compute_type(spec.training.compute_dtype);
    Roof primary;
    if (auto r = roof_for(hw, view.primary)) {
        primary = *r;
    } else if (!view.roofs.empty()) {
        primary = view.roofs.front();
    }

    for (const OpCost& op : seed_operations()) {
        view.marks.push_back(
            mark(op.name, RooflineGroup::seed, true, op, 1.0, roof_of(hw, op.dtype, primary)));
    }
    // The spec's operations and the model's layers, placed as `tally roofline` places them.
    PlacedOps placed = place_plan_ops(spec, hw, PlacementPolicy::lenient);
    view.op_errors = std::move(placed.errors);
    for (const PlacedOp& p : placed.ops) {
        if (!p.phase) {
            view.marks.push_back(mark(p.cost.name, RooflineGroup::user, true, p.cost, 1.0, p.roof));
            view.marks.back().op_index = p.op_index;
        }
    }
    const ModelOpsOptions options = model_ops_options(spec);
    for (Phase phase : kAllPhases) {
        OpCost step;
        step.name = std::string(to_string(phase));
        step.kind = "step";
        step.dtype = options.dtype;
        Roof roof = primary;
        bool any = false;
        double seconds = 0.0;  // each operation at its own roof, one after another
        for (const PlacedOp& p : placed.ops) {
            if (p.phase != phase) {
                continue;
            }
            any = true;
            roof = p.roof;
            step.flops += p.count * p.cost.flops;
            step.read_bytes += p.count * p.cost.read_bytes;
            step.write_bytes += p.count * p.cost.write_bytes;
            view.marks.push_back(
                mark(p.cost.name, group_of(phase), false, p.cost, p.count, p.roof));
            seconds += p.count * view.marks.back().point.seconds;
        }
        if (any) {
            // The step at its total intensity, timed as `tally roofline` times it: the sum of its
            // operations' times, each at its own roof (a step of memory-bound and compute-bound
            // operations does not run at the roof of their average intensity), so its FLOP/s
            // lie at or below the roof there.
            RooflineMark whole = mark(step.name, group_of(phase), true, step, 1.0, roof);
            if (seconds > 0.0) {
                whole.point.seconds = seconds;
                whole.point.attainable_flops_per_s = step.flops / seconds;
            }
            view.marks.push_back(std::move(whole));
        }
    }

    std::vector<double> intensities;
    intensities.reserve(view.marks.size());
    for (const RooflineMark& m : view.marks) {
        if (m.cost.intensity() > 0.0) {
            intensities.push_back(m.cost.intensity());
        }
    }
    view.range = chart_intensity_range(view.roofs, intensities);
    for (const Roof& r : view.roofs) {
        view.roof_lines.push_back(
            roof_polyline(r, view.range.min_flops_per_byte, view.range.max_flops_per_byte));
    }
    return view;
}

bool is_serving_plan(const PlanSpec& spec) {
    return spec.inference != InferenceSpec{};
}

const Explanation* ServingView::explanation(std::string_view key) const {
    for (const Explanation& e : explanations) {
        if (e.key == key) {
            return &e;
        }
    }
    return nullptr;
}

const Explanation* PlanViews::explanation(std::string_view key) const {
    for (const Explanation& e : explanations) {
        if (e.key == key) {
            return &e;
        }
    }
    return nullptr;
}

namespace {

// The serving plan of a spec with an inference block, or the serving planner's complaint.
void add_serving_view(PlanViews& v) {
    const PlanSpec& spec = v.spec;
    const HardwareProfile& hw = v.hardware;
    if (!is_serving_plan(spec)) {
        return;
    }
    if (auto error = check_inference(spec, hw)) {
        v.serving_error = std::move(error);
        return;
    }
    ServingView s;
    s.plan = evaluate_inference(spec, hw);
    s.explanations = explain_inference(spec, hw, s.plan);
    s.warning_texts = serving_warning_texts(s.plan, spec, hw);
    for (const Text& text : s.warning_texts) {
        s.warnings.push_back(text.english());
    }
    v.serving = std::move(s);
}

}  // namespace

PlanViews compute_plan_views(const PlanSpec& spec, const HardwareProfile& hw,
                             SweepVariable memory_variable) {
    PlanViews v;
    v.spec = spec;
    v.hardware = hw;
    v.plan = evaluate(spec, hw);
    v.explanations = explain(spec, hw, v.plan);
    v.warning_texts = warning_texts(v.plan, spec, hw);
    for (const Text& text : v.warning_texts) {
        v.warnings.push_back(text.english());
    }

    PlanSpec trial = spec;
    for (int stage = 0; stage < 4; ++stage) {
        trial.training.zero = stage;
        ZeroVariant& z = v.zero_variants[static_cast<std::size_t>(stage)];
        z.stage = stage;
        z.valid = !check(trial, hw).has_value();
        if (z.valid) {
            z.memory = stage == spec.training.zero ? v.plan.memory : evaluate(trial, hw).memory;
        }
    }

    v.memory_variable = memory_variable;
    v.memory_sweep = sweep(spec, hw, memory_variable, sweep_values(spec, memory_variable));
    v.gpu_sweep = sweep(spec, hw, SweepVariable::gpus, sweep_values(spec, SweepVariable::gpus));
    v.roofline = roofline_view(spec, hw);
    {
        PlanSpec state_only = spec;
        state_only.solver.include_activations = false;  // closed form: no search per slider step
        v.max_params = solve_max_params(state_only, hw);
    }
    add_serving_view(v);
    return v;
}

PlanViews compute_serving_views(const PlanSpec& spec, const HardwareProfile& hw) {
    PlanViews v;
    v.spec = spec;
    v.hardware = hw;
    add_serving_view(v);
    return v;
}

}  // namespace tally
