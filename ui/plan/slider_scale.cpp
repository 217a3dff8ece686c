#include "ui/plan/slider_scale.h"

#include <algorithm>
#include <cmath>

namespace tally::ui {

namespace {

constexpr int kSteps = 1000;

double roundToStep(double value, double step) {
    return step > 0.0 ? std::round(value / step) * step : value;
}

double threeSignificant(double value) {
    if (value <= 0.0) {
        return value;
    }
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)) - 2.0);
    return std::round(value / magnitude) * magnitude;
}

}  // namespace

int SliderRange::positions() const {
    if (scale == SliderScale::pow2) {
        return static_cast<int>(std::lround(std::log2(max) - std::log2(min)));
    }
    return kSteps;
}

double SliderRange::valueAt(int position) const {
    const int p = std::clamp(position, 0, positions());
    switch (scale) {
        case SliderScale::pow2:
            return min * std::exp2(p);
        case SliderScale::log: {
            const double t = static_cast<double>(p) / kSteps;
            const double v = std::exp(std::log(min) + t * (std::log(max) - std::log(min)));
            return std::clamp(roundToStep(threeSignificant(v), step), min, max);
        }
        case SliderScale::linear: {
            const double t = static_cast<double>(p) / kSteps;
            return std::clamp(roundToStep(min + t * (max - min), step), min, max);
        }
    }
    return min;
}

int SliderRange::positionOf(double value) const {
    if (!std::isfinite(value)) {
        return 0;
    }
    double t = 0.0;
    switch (scale) {
        case SliderScale::pow2:
            if (value <= min) {
                return 0;
            }
            return std::clamp(static_cast<int>(std::lround(std::log2(value / min))), 0,
                              positions());
        case SliderScale::log:
            if (value <= min) {
                return 0;
            }
            t = (std::log(value) - std::log(min)) / (std::log(max) - std::log(min));
            break;
        case SliderScale::linear:
            t = (value - min) / (max - min);
            break;
    }
    return std::clamp(static_cast<int>(std::lround(t * kSteps)), 0, kSteps);
}

}  // namespace tally::ui
