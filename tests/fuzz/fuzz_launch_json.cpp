// A DeepSpeed JSON config -> import_launch_config -> check ->
// evaluate; the spec reads back and exports again (tests/fuzz/fuzz_launch.h).
#include "tests/fuzz/fuzz_launch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tally::fuzz::import_launch(tally::LaunchTarget::deepspeed, data, size);
}
