// Spec JSON text -> plan_spec_from_text -> check -> evaluate. An input is either refused with a
// SpecError (or a FieldError from check()) or gives a plan whose every figure is finite, whose
// JSON can be written, and whose spec, written back, reads again. A spec check_inference()
// accepts gives a serving plan and a latency curve with finite figures too, whether or not the
// spec plans training, and at a concurrency admits no more than the engine's KV cache holds.
#include <nlohmann/json.hpp>
#include <string>

#include "planner/core/errors.h"
#include "planner/io/serving_json.h"
#include "planner/io/spec_json.h"
#include "planner/roofline/operations.h"
#include "planner/serving/inference.h"
#include "planner/training/plan.h"
#include "tests/fuzz/fuzz_plan.h"
#include "tests/fuzz/fuzz_spec.h"

using namespace tally;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    PlanSpec spec;
    const HardwareProfile* hw = nullptr;
    if (!fuzz::read_spec(text, spec, hw)) {
        return 0;
    }
    for (const OpSpec& op : spec.ops) {
        const OpCost c = op_cost(op);
        fuzz::require_finite(c.flops, "op flops");
        fuzz::require_finite(c.bytes(), "op bytes");
    }
    // A serving spec needs no data or training block: its plan comes first.
    if (!check_inference(spec, *hw)) {
        const ServingPlan s = evaluate_inference(spec, *hw);
        for (double v : {s.memory.total_bytes, s.kv.bytes_per_token, s.prefill_s, s.decode_step_s,
                         s.decode_total_s, s.tokens_per_s, s.per_sequence_tokens_per_s,
                         s.cost_per_million_tokens.value_or(0.0)}) {
            fuzz::require_finite(v, "serving figure");
        }
        fuzz::require(s.max_batch >= 0 && s.critical_batch >= 0, "serving batches");
        if (s.continuous) {
            // At a concurrency: finite figures; the engine admits at most the clients and, when
            // some wait, exactly the largest batch that fits.
            const ContinuousBatchingPoint& c = *s.continuous;
            for (double v : {c.ttft_s, c.itl_s, c.e2e_s, c.tokens_per_s, c.requests_per_s,
                             c.queue_s, c.in_flight, c.prefill_wait_s}) {
                fuzz::require_finite(v, "continuous figure");
            }
            // The waits are parts of the time to first token, never more than it.
            fuzz::require(c.prefill_wait_s >= 0.0 && c.prefill_wait_s + c.queue_s <= c.ttft_s,
                          "prefill wait within the time to first token");
            fuzz::require(c.queue_s >= 0.0 && c.in_flight <= c.concurrency, "admission");
            fuzz::require(s.admission_batch <= s.max_batch, "admitted beyond what fits");
            fuzz::require(c.queue_s == 0.0 || c.in_flight == static_cast<double>(s.admission_batch),
                          "queued behind the batch the engine's cache holds");
        }
        for (const ServingCurvePoint& c : serving_curve(spec, *hw)) {
            fuzz::require_finite(c.decode_step_s, "curve step");
            fuzz::require_finite(c.tokens_per_s, "curve throughput");
        }
        (void)to_json(s, spec, *hw).dump();
    }
    if (check(spec, *hw)) {
        return 0;
    }
    const Plan plan = evaluate(spec, *hw);
    fuzz::require_finite(plan);
    (void)warning_messages(plan, spec, *hw);
    (void)to_json(plan, spec, *hw).dump();
    // A plan that was accepted once can be saved and opened again.
    try {
        (void)plan_spec_from_text(to_json(spec).dump(), "/nonexistent");
    } catch (const SpecError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        fuzz::require(false, "an accepted spec, written back, no longer reads");
    }
    return 0;
}
