// Planning for Cases with more than 2^31 elements (`kverify huge`): how much memory a Case needs on
// the host and on the device, and how much there is. A huge Case is checked completely for its
// guards (canaries and row gaps of every buffer, every output element written, input bytes
// unchanged) and against the reference on sampled rows (pipeline/sampled_check.hpp), since a
// float64/MPFR reference of 2^31 elements would take the host minutes per variant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "pipeline/memory_plan.hpp"

namespace kverify {

// What `huge` holds: one set of guarded images, the reference's expectations for the sampled rows.
MemoryNeed huge_memory_need(const Case& c, std::int64_t sampled_rows);

// The huge Cases, one line each (every op, > 2^31 elements, offsets past 4 GiB).
std::vector<std::string> huge_case_lines();

}  // namespace kverify
