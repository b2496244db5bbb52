// The kverify command line: finds the command (tools/commands.cpp), parses its arguments against its
// option table, runs it, and turns what happened into the exit code every command shares.
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/child_process.hpp"
#include "core/error.hpp"
#include "core/home.hpp"
#include "core/verdict.hpp"
#include "kernels/registry.hpp"
#include "runtime/emu/detectors/race_detector.hpp"
#include "tools/command.hpp"
#include "tools/environment.hpp"

// Where this binary's kverify files are (core/home.hpp), as its build compiled this file: kverify's
// tree names its checkout and build folder, a project's build its package's folders.
#ifndef KVERIFY_HOME_DATA
#define KVERIFY_HOME_DATA ""
#endif
#ifndef KVERIFY_HOME_PACKAGE
#define KVERIFY_HOME_PACKAGE ""
#endif
#ifndef KVERIFY_INSTALLED_DATA
#define KVERIFY_INSTALLED_DATA ""
#endif
#ifndef KVERIFY_INSTALLED_PACKAGE
#define KVERIFY_INSTALLED_PACKAGE ""
#endif

int main(int argc, char** argv) {
  using namespace kverify::cli;
  kverify::set_home(kverify::locate_home({.data = KVERIFY_HOME_DATA,
                                          .package = KVERIFY_HOME_PACKAGE,
                                          .installed_data = KVERIFY_INSTALLED_DATA,
                                          .installed_package = KVERIFY_INSTALLED_PACKAGE}));
  // A process kverify started ends with the one that started it: a check stopped by SIGTERM or by a
  // CI job's timeout leaves no child spinning on a kernel that never ends.
#ifndef KVERIFY_CLI_IN_FUZZER  // the cli fuzz target calls this main per input, in its own process tree
  if (const char* parent = std::getenv(kverify::kInternalChildMark)) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    // The parent ended before the line above: this process now has another (init, a subreaper).
    if (std::to_string(::getppid()) != parent) return kNotRun;
  }
#endif
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::printf("%s", overview().c_str());
    return args.empty() ? kBadInput : kPass;
  }
  if (args[0] == "--version") {
    std::printf("%s", version_text().c_str());
    return kPass;
  }
  const Command* c = find_command(args[0]);
  if (!c) {
    std::string names;
    for (const Command* k : all_commands()) names += (names.empty() ? "" : ", ") + std::string(k->name);
    std::fprintf(stderr, "kverify: unknown command %s (accepted: %s, test, package, packages; ./kverify --help)\n",
                 kverify::shown(args[0]).c_str(), names.c_str());
    return kBadInput;
  }
  const std::span<const std::string_view> rest(args.data() + 1, args.size() - 1);
  for (auto a : rest) {
    if (a == "--") break;
    if (a == "--help" || a == "-h") {
      std::printf("%s", command_help(*c).c_str());
      return kPass;
    }
  }
  // A build whose declarations contradict themselves (an op's, a registration's) runs nothing.
  if (c->runs_kernels)
    if (const auto problems = kverify::registration_problems(); !problems.empty()) {
      for (const auto& p : problems) std::fprintf(stderr, "kverify: this build's declarations: %s\n", p.c_str());
      return kBadInput;
    }
  try {
    const ParsedOptions options = parse(c->name, c->options, c->operands, rest);
    // A variable outside its form refuses every command up front, before it can mislead a run.
    if (const auto problems = environment_problems(); !problems.empty() && c->runs_kernels) {
      for (const auto& p : problems) std::fprintf(stderr, "kverify %s: %s\n", std::string(c->name).c_str(), p.c_str());
      return kBadInput;
    }
    if (options.has(kStrict.name)) kverify::set_strict_verdicts(true);
    if (options.has(kNoRaceDetector.name)) {
      setenv("KVERIFY_EMU_RACE_DETECTOR", "off", 1);  // the children (check's isolation, fuzz jobs) too
      kverify::emu::race::set_enabled(false);
    }
    return c->run(options);
  } catch (const kverify::InputError& e) {
    std::fprintf(stderr, "kverify %s: %s\n", std::string(c->name).c_str(), e.what());
    return kBadInput;
  }
}
