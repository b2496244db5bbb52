// Reading a file a user names (a report to compare, a .case to replay) with a bound on its size: a
// path that is a link to /dev/zero, or a stream that never ends, is refused after `max_bytes`
// instead of read until memory runs out.
#pragma once

#include <cstddef>
#include <string>

namespace kverify {

// The whole text of `path` (a pipe too); InputError naming `path` and `accepted` (what the command
// takes there) when it cannot be read or holds more than max_bytes.
std::string read_bounded(const std::string& path, std::size_t max_bytes, const std::string& accepted);

}  // namespace kverify
