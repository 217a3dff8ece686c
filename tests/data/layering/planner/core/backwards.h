#pragma once

// A core header that includes a training header: the layering check must refuse it.
#include "planner/core/spec.h"
#include "planner/training/plan.h"
