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

std::string gib(std::uint64_t bytes);  // "12.3 GiB"

// The huge Cases, one line each (every op, > 2^31 elements, offsets past 4 GiB).
std::vector<std::string> huge_case_lines();

}  // namespace kverify
