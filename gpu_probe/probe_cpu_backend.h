#pragma once
// The CPU backend: always built, so the whole probe path runs (and is tested) on any machine.

#include <memory>
#include <vector>

#include "gpu_probe/probe_backend.h"

namespace tally::probe {

std::vector<TestInfo> cpu_tests();
// Starts one worker thread per usable CPU.
std::unique_ptr<Backend> make_cpu_backend();

}  // namespace tally::probe
