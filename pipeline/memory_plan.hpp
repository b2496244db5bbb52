// How much memory checking a Case takes, and whether it fits here, decided before anything is
// allocated: a Case too big for this machine is NOT RUN with the numbers (exit 3), never a
// std::bad_alloc reported as the kernel's crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/case.hpp"

namespace kverify {

struct MemoryNeed {
  std::uint64_t device = 0;  // every tensor's guarded buffer (+ canaries) on the device, + scratch
  std::uint64_t host = 0;    // the guarded host images (+ element bitmaps) and the reference's expectations
};

// image_sets: full sets of guarded images held at once (run_case and the bench gate keep two, for the
// second run's comparison; `huge` one). reference_elements: output elements the host reference holds
// an expectation for (all of them, or the sampled rows').
MemoryNeed memory_need(const Case& c, int image_sets, std::int64_t reference_elements);
MemoryNeed full_check_need(const Case& c);  // what run_case takes: two sets, every output element
// What the bench's gate on the device takes: every tensor's image there (the output's twice) and,
// on the host, the checked rows' copies and their reference.
MemoryNeed device_check_need(const Case& c, std::int64_t reference_elements);

// Available memory: host MemAvailable (/proc/meminfo), the device's free memory (cudaMemGetInfo).
// KVERIFY_MEMORY_LIMIT_GIB=N caps both (to test the refusal, or to leave room for other work).
std::uint64_t host_available_bytes();
// The cap in bytes (nullopt: unset); InputError naming the value when it is not a size in GiB (the
// command line checks it before any command runs).
std::optional<std::uint64_t> memory_limit_from_env();
std::optional<std::uint64_t> device_free_bytes();  // nullopt without a GPU

// nullopt when `need` fits on `backend` here; else "needs X GiB of host|device memory, Y GiB ...".
std::optional<std::string> memory_refusal(const MemoryNeed& need, Backend backend);

std::string gib(std::uint64_t bytes);  // "12.3 GiB", below 1 GiB "7.6 MiB"

}  // namespace kverify
