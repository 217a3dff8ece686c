#pragma once

// How a slider's integer positions map onto a field's values. Not a widget: the editors use it and
// the tests check it.

namespace tally::ui {

enum class SliderScale {
    linear,  // even steps between min and max
    log,     // even steps of log(value): fields that span decades (parameters, tokens, width)
    pow2,    // one position per power of two (sequence length, batch, GPUs, parallel degrees)
};

struct SliderRange {
    double min = 0.0;
    double max = 1.0;
    SliderScale scale = SliderScale::linear;
    // Values are rounded to a multiple of this (linear and log scales; 0: no rounding). A log
    // scale also keeps only three significant digits, so a drag stops on "70.8B", not on
    // "70812345678".
    double step = 0.0;

    // Positions run 0..positions(); pow2 has one per power of two, the others 1000.
    int positions() const;
    // The value at a position (rounded as above).
    double valueAt(int position) const;
    // The nearest position for a value (clamped into the range).
    int positionOf(double value) const;
};

}  // namespace tally::ui
