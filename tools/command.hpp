// A command of the kverify command line: its options as a table (tools/options.hpp), what it does,
// its exit codes, and the adapter that turns the parsed options into the engine's call. Every
// command's row is in tools/commands.cpp; `kverify help`, `kverify <command> --help` and the
// README's command list (`kverify help --markdown`) come from them.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/exit_codes.hpp"
#include "tools/options.hpp"

namespace kverify::cli {

using kverify::kBadInput, kverify::kFail, kverify::kNotRun, kverify::kPass;  // core/exit_codes.hpp

struct Command {
  std::string_view name;
  Operands operands;
  std::string_view summary;  // one line
  std::string_view help;     // what it does, before the options (lines end in \n)
  std::span<const Option> options;
  std::string_view exit_codes;  // "0 all passed, 1 ..., 2 bad input, 3 ..."
  int (*run)(const ParsedOptions& options);
  // false: never runs code of the kernels' library (kv_kernels, whose every TU the race detector
  // instruments, registry tables included), so it runs without the detector's shadow.
  bool runs_kernels = true;
};

// Each command's row, defined beside its adapter (tools/<command>_command.cpp, basic_commands.cpp).
extern const Command kRunCommand, kCheckCommand, kListCommand, kFuzzCommand, kReplayCommand, kReportCommand,
    kHugeCommand, kAgreeCommand, kMutantsCommand, kBenchCommand, kNewCommand, kHelpCommand;

std::span<const Command* const> all_commands();
const Command* find_command(std::string_view name);

// "check [--backend emu|cuda|all] [--op NAME] ..."
std::string command_usage(const Command& c);
// `kverify <command> --help`.
std::string command_help(const Command& c);
// `kverify help`: every command's usage and summary.
std::string overview();
std::string version_text();  // `kverify --version`
// The README's command list (between its commands:begin/end markers; a test keeps them equal).
std::string commands_markdown();

}  // namespace kverify::cli
