#pragma once

// The user's hardware profiles as the domain sees them, with no storage: a custom copy of a
// profile, a measured profile made from a probe run, the input rules of ids and names, and which
// profiles a list shows when stored ones meet the built-in catalog. The workspace
// (planner/store/workspace.h) stores what these functions build; the GUI and the CLI list what
// profiles_with_stored() gives.

#include <string>
#include <vector>

#include "planner/hardware/hardware.h"
#include "planner/hardware/probe_records.h"

namespace tally {

// A custom copy of `base` under a new id and name (the profile manager's "duplicate").
HardwareProfile duplicate_profile(const HardwareProfile& base, const std::string& id,
                                  const std::string& name);

// The GEMM times of a run's validated, passed gemm_shapes results: type from the dtype, sizes m,
// n, k and count (1 when absent), seconds the median; sorted by measured_gemm_before, one per
// type, shape and count (the faster when a run measured one twice).
std::vector<MeasuredGemm> measured_gemms(const ProbeRunRecord& run);

// A measured profile from a probe run: starts from `base` (or blank when null), sets the peak of
// each dtype to the best validated, passed matmul FLOP/s of the run and the bandwidth to the best
// validated, passed copy or read bytes/s (best_probe_results()), and adds the run's GEMM times
// (measured_gemms(), replacing the base's of the same shape); figures the run did not measure
// keep the base's value. Without a base, the memory size comes from the device event's
// "memory_bytes". Throws SpecError when the run measured nothing usable or the result would not
// be a valid profile.
HardwareProfile measured_profile(const ProbeRunRecord& run, const HardwareProfile* base,
                                 const std::string& id, const std::string& name);

// Input rules, shared with the CLI: throw SpecError naming `field` when the value is not allowed.
void validate_profile_id(const std::string& id, const std::string& field = "profile.id");
void validate_display_name(const std::string& name, const std::string& field);

// Every profile a list shows: the built-in ones in catalog order, then `stored` in its order. A
// stored profile whose id a built-in also has (saved before the catalog gained that id) replaces
// the built-in, as finding a profile by id gives the stored one.
std::vector<HardwareProfile> profiles_with_stored(std::vector<HardwareProfile> stored);

}  // namespace tally
