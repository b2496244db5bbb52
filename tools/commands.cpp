// The table of commands, and the help, overview and README command list made from it.
#include "tools/command.hpp"

#include "kernels/registry.hpp"

namespace kverify::cli {

std::span<const Command* const> all_commands() {
  static constexpr const Command* kCommands[] = {&kRunCommand,     &kCheckCommand,  &kListCommand, &kFuzzCommand,
                                                 &kReplayCommand,  &kReportCommand, &kHugeCommand, &kAgreeCommand,
                                                 &kMutantsCommand, &kBenchCommand,  &kNewCommand,  &kHelpCommand};
  return kCommands;
}

const Command* find_command(std::string_view name) {
  for (const Command* c : all_commands())
    if (c->name == name) return c;
  return nullptr;
}

namespace {

// Words joined into lines of at most `width` columns, continuation lines indented by `indent`.
std::string wrapped(const std::string& words, std::size_t width, std::size_t indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < words.size()) {
    // Keep "[--option VALUE]" groups whole.
    std::size_t end = words.find(" [", start + 1);
    if (end == std::string::npos) end = words.size();
    const std::string piece = words.substr(start, end - start);
    if (!line.empty() && line.size() + piece.size() > width) {
      out += line + "\n";
      line = std::string(indent, ' ') + (piece.front() == ' ' ? piece.substr(1) : piece);
    } else {
      line += piece;
    }
    start = end;
  }
  return out + line;
}

}  // namespace

std::string command_usage(const Command& c) {
  std::string u = std::string(c.name);
  if (!c.operands.usage.empty()) u += " " + std::string(c.operands.usage);
  const std::string opts = usage_of(c.options);
  if (!opts.empty()) u += " " + opts;
  if (c.operands.passthrough) u += " [-- FLAGS...]";
  return u;
}

std::string command_help(const Command& c) {
  std::string out = "usage: ./kverify " + wrapped(command_usage(c), 100, 18 + c.name.size()) + "\n\n" +
                    std::string(c.summary) + "\n\n" + std::string(c.help);
  if (!c.options.empty()) out += "Options:\n" + options_help(c.options);
  if (!c.exit_codes.empty()) out += "Exit: " + std::string(c.exit_codes) + "\n";
  return out;
}

std::string overview() {
  std::string out =
      "kverify - checks CUDA kernels against float64 references, on the GPU or on the CPU (emu)\n\n"
      "usage: ./kverify <command> [arguments]   (./kverify test runs the test suite; ./kverify package makes the "
      "Debian package)\n\ncommands:\n";
  for (const Command* c : all_commands())
    out += "  " + std::string(c->name) + std::string(c->name.size() < 9 ? 9 - c->name.size() : 1, ' ') +
           std::string(c->summary) + "\n";
  out +=
      "\n`./kverify <command> --help` for one command; `./kverify help case` for the Case fields;\n"
      "`./kverify --version` for this build's version.\n";
  return out;
}

std::string version_text() {
  // KVERIFY_VERSION is the CMake project's version; a package's compatibility rule is in
  // cmake/kverifyConfigVersion (same minor version before 1.0).
  std::string out = std::string("kverify ") + KVERIFY_VERSION + "\nbackends: emu";
  bool cuda = false;
  for (const auto& v : all_variants()) cuda = cuda || v.launch_cuda != nullptr;
  out += cuda ? ", cuda (this build has nvcc-compiled launchers)\n" : " (no cuda launcher in this build)\n";
  return out;
}

std::string commands_markdown() {
  std::string out = "```\n";
  for (const Command* c : all_commands())
    out +=
        "./kverify " + wrapped(command_usage(*c), 100, 11 + c->name.size()) + "\n    " + std::string(c->summary) + "\n";
  return out +
         "./kverify test [--gpus all|N] [ctest args]\n    the test suite (ctest); --gpus: over N GPUs of this host, "
         "a test per GPU slot\n"
         "./kverify package\n    the Debian package of an emu-only kverify: build-package/kverify_<version>_amd64.deb\n"
         "./kverify packages [COMMAND | --depends]\n    the Debian packages the driver installs for COMMAND (default: "
         "check); --depends: those kverify's .deb depends on\n```\n";
}

}  // namespace kverify::cli
