// GitHub Actions annotations for `kverify check` (when GITHUB_ACTIONS=true): an `::error` workflow
// command per failing testcase, so that a failure shows on the pull request at the line it is
// about. The line is the kernel's own where kverify knows it (the emu's detectors and collectives
// name `<file>:<line>` of a barrier, a shuffle, a trap), else the registration's CMake call, else
// none (the annotation then stands on the job).
#pragma once

#include <string>
#include <vector>

#include "check/report.hpp"

namespace kverify {

// The lines to print, at most `most` errors and a warning that counts the rest; paths relative to
// `workspace` where they lie in it (GitHub resolves annotation files against the checkout).
std::vector<std::string> github_annotations(const CheckReport& report, const std::string& workspace,
                                            std::size_t most = 20);

}  // namespace kverify
