// Two Cases of one variant checked at the same time, as two callers in one program call a launcher
// (a framework's streams): each Case on a host thread of its own, its launcher given a stream of
// its own. State a launcher or kernel shares between calls (launcher-owned static scratch, a
// `__device__` buffer, a plan one call writes while the other reads it) shows as one of the two
// failing. On emu the threads take turns at each piece of stream work (a launch, a copy, a memset:
// runtime/emu/model/taking_turns.hpp), so the order is the same on every run and one call's second
// launch runs after the other's first; launches that overlap block by block on the GPU are not
// modelled. On cuda the threads run freely: the GPU overlaps what it overlaps, and the default
// streams are not asked about (execute.hpp: CasesAtOnce).
#pragma once

#include <array>

#include "core/case.hpp"
#include "core/verdict.hpp"

namespace kverify {

// Each Verdict is what run_case gives for its Case. Both Cases must resolve to one backend
// (InputError otherwise); an exception of either call is rethrown once both have ended.
std::array<Verdict, 2> run_at_once(const Case& first, const Case& second);

}  // namespace kverify
