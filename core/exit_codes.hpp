// The exit codes every kverify command shares, and the engines behind the commands return: a run
// of a script or a CI job reads the same number the same way whichever command gave it.
#pragma once

namespace kverify {

inline constexpr int kPass = 0;      // everything checked passed
inline constexpr int kFail = 1;      // a kernel failed (or a mutant survived, a timing was refused)
inline constexpr int kBadInput = 2;  // bad input: a one-line message names the token and what is accepted
inline constexpr int kNotRun = 3;    // not run here (no GPU, too big for the machine): the output says why

}  // namespace kverify
