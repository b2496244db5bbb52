// Planning for Cases with more than 2^31 elements (`kverify huge`, README "GPU-side verification"):
// how much memory a Case needs on the host and on the device, how much there is, and which rows the
// reference checks. A huge Case is checked completely for its guards (canaries and row gaps of every
// buffer, every output element written, input bytes unchanged) and against the reference on
// sampled rows, since a float64/MPFR reference of 2^31 elements would take the host minutes per
// variant: the first two rows, the middle row, the rows holding element 2^31 and byte offset 2^32
// of every tensor (where 32-bit index arithmetic breaks), the last two rows, and seeded random rows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/case.hpp"

namespace kverify {

struct MemoryNeed {
  std::uint64_t device = 0;  // every tensor's guarded buffer (+ canaries) on the device
  std::uint64_t host = 0;    // the guarded host images, one input set and one output set, + bitmaps
};
MemoryNeed memory_need(const Case& c);

// Available memory: host MemAvailable (/proc/meminfo), the device's free memory (cudaMemGetInfo).
// KVERIFY_MEMORY_LIMIT_GIB=N caps both (to test the refusal, or to leave room for other work).
std::uint64_t host_available_bytes();
std::optional<std::uint64_t> device_free_bytes();  // nullopt without a GPU

// nullopt when the Case fits on `backend` here; else "needs X GiB of host|device memory, Y GiB free".
std::optional<std::string> memory_refusal(const Case& c, Backend backend);

// The rows of the output checked against the reference, sorted and unique (see above).
std::vector<std::int64_t> sampled_rows(const Case& c, int random_rows, std::uint64_t seed);

std::string gib(std::uint64_t bytes);  // "12.3 GiB"

// The huge Cases, one line each (every op, > 2^31 elements, offsets past 4 GiB).
std::vector<std::string> huge_case_lines();

}  // namespace kverify
