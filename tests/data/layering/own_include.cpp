// Compiled with only planner/core's include root: core's own header is found.
#include "planner/core/spec.h"

int main() {
    return tally::PlanSpec{}.cluster.gpus > 0 ? 0 : 1;
}
