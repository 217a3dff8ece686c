#pragma once

// What every harness shares: the libFuzzer entry point's signature and checks that abort
// (libFuzzer and the replay tests both treat an abort as a finding).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace tally::fuzz {

inline void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
        std::abort();
    }
}

inline void require_finite(double v, const char* what) {
    if (!std::isfinite(v)) {
        std::fprintf(stderr, "fuzz invariant broken: %s = %g is not finite\n", what, v);
        std::abort();
    }
}

}  // namespace tally::fuzz
