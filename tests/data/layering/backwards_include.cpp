// Compiled with only planner/core's include root: a training header must not be found.
#include "planner/training/plan.h"
