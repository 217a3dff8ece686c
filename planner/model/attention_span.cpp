// Keys per query with sliding-window layers (attention_span.h).
#include "planner/model/attention_span.h"

#include <algorithm>

namespace tally {

namespace {

double dbl(std::int64_t v) {
    return static_cast<double>(v);
}

// The windowed layers' share of the layers, and the window; share 0 without a window.
struct Windowed {
    double share = 0.0;
    double window = 0.0;
};

Windowed windowed(const ModelSpec& m) {
    Windowed w;
    w.share = windowed_layer_share(m);
    if (w.share > 0.0) {
        w.window = dbl(m.sliding_window);
    }
    return w;
}

// Σ_{j=1..n} min(done + j, W): the positions up to the window count themselves, the rest W.
double windowed_pairs(double done, double n, double window) {
    if (done + n <= window) {
        return n * done + 0.5 * n * (n + 1.0);
    }
    if (done + 1.0 >= window) {
        return n * window;
    }
    const double k = window - done;  // the queries still inside the window, 0 < k < n
    return k * done + 0.5 * k * (k + 1.0) + (n - k) * window;
}

}  // namespace

double windowed_layer_share(const ModelSpec& model) {
    if (model.layers <= 0 || model.windowed_layers() <= 0) {
        return 0.0;
    }
    return std::min(1.0, dbl(model.windowed_layers()) / dbl(model.layers));
}

double causal_pairs(double seq_len, double window) {
    if (window <= 0.0 || window >= seq_len) {
        return 0.5 * seq_len * seq_len;
    }
    return seq_len * window - 0.5 * window * window;
}

double mean_keys_per_query(const ModelSpec& model, double position) {
    const Windowed w = windowed(model);
    return (1.0 - w.share) * position + w.share * std::min(position, w.window);
}

double mean_key_pairs(const ModelSpec& model, double done, double queries) {
    const double full = queries * done + 0.5 * queries * (queries + 1.0);
    const Windowed w = windowed(model);
    if (w.share <= 0.0) {
        return full;
    }
    return (1.0 - w.share) * full + w.share * windowed_pairs(done, queries, w.window);
}

double causal_score_share(const ModelSpec& model, double seq_len) {
    const Windowed w = windowed(model);
    if (w.share <= 0.0 || !(seq_len > 0.0) || w.window >= seq_len) {
        return 0.5;
    }
    const double square = seq_len * seq_len;
    return (1.0 - w.share) * 0.5 + w.share * causal_pairs(seq_len, w.window) / square;
}

}  // namespace tally
