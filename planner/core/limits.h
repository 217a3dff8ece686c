#pragma once

#include <cstdint>

namespace tally {

// The largest integer a spec, a config.json or a profile may give: 2^53, beyond which a double
// (what a JSON number is to most readers) no longer holds every integer. One bound for every
// reader, so a plan that is accepted once can always be read back; it also keeps the sums of a
// few such fields (evaluate() adds two or three) far inside an int64.
inline constexpr std::int64_t kMaxJsonInteger = std::int64_t{1} << 53;

// The most clients a continuous-batching plan serves at once (inference.concurrency, the
// command line's --concurrency and --concurrency-sweep): a million, some thousand times the
// sequences a serving engine runs on one node, so every figure stays readable.
inline constexpr std::int64_t kMaxConcurrency = 1'000'000;

// A serving runtime's host pause per step (inference.host_step_s) of at most a minute, far past
// any real one, keeps a request's time (output_tokens of them) finite.
inline constexpr double kMaxHostStepS = 60.0;

}  // namespace tally
