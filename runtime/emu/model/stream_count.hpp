// How many kernels emu has launched on a stream other than the default one, in this process. emu
// runs every stream in order (each call has finished when it returns), so work a launcher leaves
// on a side stream without joining it cannot show as wrong on emu; a Case whose launcher launched
// on one says so.
#pragma once

#include <cstdint>

namespace kverify::emu {
std::uint64_t side_stream_launches();
}  // namespace kverify::emu
