// stage_layout(): the transformer layers of each pipeline stage (pipeline_stages.h).
#include "planner/model/pipeline_stages.h"

#include <algorithm>

namespace tally {

std::int64_t StageLayout::layers_of(std::int64_t stage) const {
    if (pp <= 1) {
        return first;
    }
    if (stage == 0) {
        return first;
    }
    if (stage == pp - 1) {
        return last;
    }
    return middle + (stage - 1 < middle_extra ? 1 : 0);
}

std::int64_t StageLayout::start_of(std::int64_t stage) const {
    if (stage <= 0) {
        return 0;
    }
    // Stage 1..stage-1 are middle stages; the first `middle_extra` of them hold one more.
    const std::int64_t before = std::min(stage - 1, pp - 2);
    return first + before * middle + std::min(before, middle_extra);
}

std::int64_t StageLayout::fewest() const {
    if (pp <= 1) {
        return first;
    }
    std::int64_t f = std::min(first, last);
    if (pp > 2) {
        f = std::min(f, middle);
    }
    return f;
}

std::int64_t StageLayout::most() const {
    if (pp <= 1) {
        return first;
    }
    std::int64_t f = std::max(first, last);
    if (pp > 2) {
        f = std::max(f, middle + (middle_extra > 0 ? 1 : 0));
    }
    return f;
}

StageLayout stage_layout(std::int64_t layers, std::int64_t pp, std::int64_t first_given,
                         std::int64_t last_given, bool even_middle) {
    StageLayout s;
    s.pp = std::max<std::int64_t>(pp, 1);
    if (s.pp == 1 || layers <= 0) {
        s.first = std::max<std::int64_t>(layers, 0);
        s.last = s.first;
        return s;
    }
    const std::int64_t middles = s.pp - 2;
    auto spread_middle = [&](std::int64_t rest) {
        if (middles > 0) {
            s.middle = rest / middles;
            s.middle_extra = rest % middles;
        }
    };
    if (first_given > 0 || last_given > 0) {
        // The stages not given share what is left, as evenly as whole layers allow.
        if (first_given > 0 && last_given > 0) {
            s.first = first_given;
            s.last = last_given;
            spread_middle(layers - first_given - last_given);
        } else {
            const std::int64_t given = first_given > 0 ? first_given : last_given;
            const std::int64_t rest = layers - given;
            const std::int64_t others = s.pp - 1;
            const std::int64_t each = rest / others;
            const std::int64_t extra = rest % others;
            // The remainder goes to the earliest of the other stages.
            if (first_given > 0) {
                s.first = first_given;
                s.middle = each;
                s.middle_extra = std::min(extra, middles);
                s.last = each + (extra > middles ? 1 : 0);
            } else {
                s.last = last_given;
                s.first = each + (extra > 0 ? 1 : 0);
                const std::int64_t left = extra > 0 ? extra - 1 : 0;
                s.middle = each;
                s.middle_extra = left;
            }
        }
    } else if (layers % s.pp == 0) {
        s.first = s.last = s.middle = layers / s.pp;
    } else {
        // The embedding and the output layer weigh one layer each.
        const std::int64_t units = layers + 2;
        const std::int64_t base = units / s.pp;
        const std::int64_t extra = units % s.pp;
        s.middle = base;
        s.middle_extra = std::min(extra, middles);
        s.first = base - 1 + (extra > middles ? 1 : 0);
        s.last = base - 1;
        if (s.first < 0 || s.last < 0) {
            // Fewer layers than stages minus the two ends: one each from the front.
            s.first = 1;
            s.last = layers >= 2 ? 1 : 0;
            spread_middle(std::max<std::int64_t>(layers - s.first - s.last, 0));
        } else if (even_middle && s.middle_extra > 0 && s.middle_extra < middles) {
            // Equal middle stages of m layers, the rest at the ends (at least one each), the
            // first the larger: the m whose most loaded stage (an end with its embedding or
            // output layer as one more) is the least, then the one whose stages differ least.
            std::int64_t best_load = -1, best_gap = 0;
            for (std::int64_t m = 1; layers - middles * m >= 2; ++m) {
                const std::int64_t rest = layers - middles * m;
                const std::int64_t last = rest / 2;
                const std::int64_t first = rest - last;
                const std::int64_t load = std::max(m, first + 1);
                const std::int64_t gap = load - std::min(m, last + 1);
                if (best_load < 0 || load < best_load || (load == best_load && gap < best_gap)) {
                    best_load = load;
                    best_gap = gap;
                    s.first = first;
                    s.last = last;
                    s.middle = m;
                    s.middle_extra = 0;
                }
            }
        }
    }
    s.even = s.first == s.last && (middles == 0 || (s.middle == s.first && s.middle_extra == 0));
    return s;
}

std::string stage_spread_text(const StageLayout& layout) {
    std::string text = std::to_string(layout.first);
    if (layout.pp <= 1) {
        return text;
    }
    const auto group = [&text](std::int64_t layers, std::int64_t count) {
        if (count == 1) {
            text += " / " + std::to_string(layers);
        } else if (count > 1) {
            text += " / " + std::to_string(layers) + " x " + std::to_string(count);
        }
    };
    group(layout.middle + 1, layout.middle_extra);
    group(layout.middle, layout.pp - 2 - layout.middle_extra);
    return text + " / " + std::to_string(layout.last);
}

StageLayout stage_layout(const PlanSpec& spec) {
    const std::int64_t layers = spec.model.kind == ModelKind::params ? 0 : spec.model.layers;
    return stage_layout(layers, spec.training.pp, spec.training.first_stage_layers,
                        spec.training.last_stage_layers, spec.training.engine == Engine::megatron);
}

}  // namespace tally
