// evaluate(): a training plan: its accounting (model/accounting.h), the predicted step, time, cost,
// energy and warnings. Pure; allocation-free once the thread has met the part (performance.cpp).
#include <cstdint>

#include "planner/training/plan.h"

namespace tally {

namespace {

double dbl(std::int64_t v) {
    return static_cast<double>(v);
}

}  // namespace

Plan evaluate(const PlanSpec& spec, const HardwareProfile& hw) {
    Plan plan;
    account(spec, hw.memory_bytes, plan);
    const ModelSpec& m = spec.model;
    const TrainingSpec& t = spec.training;
    const Parallelism& par = plan.parallel;
    const MemoryBreakdown& mem = plan.memory;
    const FlopsBreakdown& fl = plan.flops;

    // ---- time and cost ----
    // CS336 lecture 2: days = FLOPs / (peak x MFU x GPUs x 86400).
    TimeEstimate& tm = plan.time;
    plan.performance = predict_performance(spec, hw, plan);
    tm.peak_flops_per_s = hw.peak(compute_type(t.compute_dtype));
    tm.mfu_predicted = spec.cluster.mfu_predicted;
    tm.mfu = tm.mfu_predicted ? plan.performance.mfu : spec.cluster.mfu;
    if (tm.mfu_predicted) {
        // The performance model: steps x predicted step time.
        tm.seconds = par.steps * plan.performance.step_s;
        tm.achieved_flops_per_s = tm.seconds > 0 ? fl.total / tm.seconds : 0.0;
    } else {
        tm.achieved_flops_per_s = tm.peak_flops_per_s * spec.cluster.mfu * dbl(spec.cluster.gpus);
        tm.seconds = tm.achieved_flops_per_s > 0 ? fl.total / tm.achieved_flops_per_s : 0.0;
    }
    tm.days = tm.seconds / 86400.0;
    tm.gpu_hours = tm.seconds * dbl(spec.cluster.gpus) / 3600.0;
    // The spec's price, else the profile's: what a plan on a profile with a price costs.
    const std::optional<double> price =
        spec.cluster.price_per_gpu_hour ? spec.cluster.price_per_gpu_hour : hw.price_per_gpu_hour;
    tm.has_cost = price.has_value();
    tm.price_per_gpu_hour = price.value_or(0.0);
    tm.price_from_profile = !spec.cluster.price_per_gpu_hour && price.has_value();
    tm.cost = tm.has_cost ? tm.gpu_hours * tm.price_per_gpu_hour : 0.0;
    // A profile without a TDP (a measured or custom one) leaves the energy unknown, not zero.
    tm.has_energy = hw.tdp_w > 0.0;
    tm.energy_kwh = tm.has_energy ? tm.gpu_hours * hw.tdp_w / 1000.0 : 0.0;
    tm.hfu = fl.total > 0 ? tm.mfu * fl.hardware_total / fl.total : 0.0;

    // ---- warnings ----
    auto warn = [&](Warning w) { plan.warnings |= static_cast<std::uint32_t>(w); };
    if (!mem.fits) {
        warn(Warning::does_not_fit);
    }
    if (!tm.mfu_predicted) {
        // An assumed MFU above what the part's GEMMs were measured to reach.
        if (auto best = hw.best_measured_gemm_fraction(compute_type(t.compute_dtype));
            best && spec.cluster.mfu > *best) {
            warn(Warning::mfu_above_measured);
        }
        if (plan.performance.mfu > 0.0 &&
            spec.cluster.mfu > kMfuAssumedOverPredicted * plan.performance.mfu) {
            warn(Warning::mfu_above_predicted);
        }
    }
    if (tm.hfu > 1.0) {
        warn(Warning::hfu_above_one);
    }
    if (m.kind == ModelKind::params) {
        warn(Warning::no_architecture);
        if (t.optimizer == Optimizer::adafactor) {
            warn(Warning::adafactor_unshaped);
        }
    }
    if (t.master_dtype && *t.master_dtype == t.param_dtype) {
        warn(Warning::master_duplicates_fp32);
    }
    if (par.pipeline_bubble_fraction > 0.25) {
        warn(Warning::large_pipeline_bubble);
    }
    // Recomputing the attention core alone, which flash attention never keeps; modules beyond
    // it (training.recompute_modules) do drop activations.
    const RecomputeModules modules = selective_recompute(t);
    if (t.recompute == Recompute::selective && !modules.beyond_core() &&
        (m.kind != ModelKind::transformer || t.flash_attention)) {
        warn(Warning::selective_without_attention);
    }
    if (par.steps < 1.0) {
        warn(Warning::less_than_one_step);
    }
    if (tm.mfu_predicted && hw.calibration && hw.calibration->engine &&
        *hw.calibration->engine != spec.training.engine) {
        warn(Warning::calibration_other_engine);
    }
    if (m.kind == ModelKind::mlp && t.recompute == Recompute::full) {
        warn(Warning::recompute_saves_nothing);
    }
    if (m.kind == ModelKind::transformer && m.moe.enabled() && t.engine == Engine::megatron &&
        t.tp > 1 && !t.sequence_parallel) {
        warn(Warning::moe_tp_without_sp);
    }
    if ((t.engine == Engine::fsdp || t.engine == Engine::fsdp_compile) && t.zero == 1) {
        warn(Warning::zero_stage_not_in_engine);
    }
    if (m.kind == ModelKind::transformer && m.mtp_layers > 0 && t.pp > 1 &&
        t.last_stage_layers == 0 && plan.performance.head_stage_slowest) {
        warn(Warning::mtp_last_stage_slowest);
    }
    if (plan.performance.network.node_size_known &&
        t.tp > plan.performance.network.network.gpus_per_node) {
        warn(Warning::tp_spans_nodes);
    }
    return plan;
}

}  // namespace tally
