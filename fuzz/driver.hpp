// `kverify fuzz` and `kverify replay`: the driver of fuzz/'s libFuzzer binaries (the fuzz tree,
// build-fuzz/fuzz/fuzz_<target>, built by ./kverify with the fuzz preset); the Case work happens
// there, under ASan and UBSan.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kverify {

struct FuzzArgs {
  std::string target;
  long seconds = 60;
  std::optional<std::string> variant;
  long jobs = 1;
  std::string backend = "emu";
  std::optional<std::string> work, keep;
  std::vector<std::string> passthrough;  // libFuzzer flags
};
// Validates the target and variant (InputError), fuzzes, reports; returns the exit code.
int fuzz_command(FuzzArgs args);

struct ReplayArgs {
  std::optional<std::string> target;  // else from each path (corpus/<target>/...)
  std::string backend = "emu";
  std::vector<std::string> paths;
};
int replay_command(const ReplayArgs& args);

// The fuzz targets, for messages and help.
std::string target_list();

// Set by the cli fuzz target: validate the arguments, then start nothing.
extern bool fuzz_commands_dry_run;

}  // namespace kverify
