// The cli target: the real command line (tools/main.cpp, its main() compiled as
// kverify_cli_main) on arguments decoded from the input, one argument per line. It must never
// crash, never let an exception other than InputError escape, and only exit with 0..3.
// `check` is stubbed (cli_stubs.cpp: the catalogue runs for minutes), `fuzz`/`replay` parse and
// validate their arguments but start nothing (dry run), and `run` runs Cases of at most 4096
// elements (bigger ones are parsed, then left out as too slow for one exec).
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"
#include "core/error.hpp"
#include "fuzz/dictionary.hpp"
#include "fuzz/driver.hpp"
#include "fuzz/targets.hpp"
#include "kernels/registry.hpp"
#include "tools/command.hpp"

int kverify_cli_main(int argc, char** argv);  // tools/main.cpp's main

namespace kverify::fuzz {
namespace {

constexpr std::size_t kMaxArgs = 16;
constexpr std::int64_t kMaxRunElements = 4096;

// A Case whose sizes multiply past 16 x kMaxRunElements (the work of a reduction over one more
// dimension, a matmul's M N K), whose outputs pass kMaxRunElements, or whose tensors span past
// 16 x kMaxRunElements, is parsed and not run: the cli target explores the command line.
bool too_big_to_run(const Case& c) {
  std::int64_t work = 1;
  for (auto n : c.shape) {
    if (n > kMaxRunElements) return true;
    work *= n;
    if (work > 16 * kMaxRunElements) return true;
  }
  if (output_elements(c) > kMaxRunElements) return true;
  for (int t = 0; t < c.op->tensor_count(); ++t)
    if (c.layout(t).footprint() > 16 * kMaxRunElements) return true;
  return false;
}

InputResult run_cli(const std::uint8_t* data, std::size_t size) {
  InputResult r;
  std::vector<std::string> args;
  std::string current;
  for (std::size_t i = 0; i < size && args.size() < kMaxArgs; ++i) {
    if (data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (args.size() < kMaxArgs && (!current.empty() || (size > 0 && data[size - 1] != '\n'))) args.push_back(current);

  for (auto& a : args) a = a.c_str();  // an argv string ends at its first NUL
  std::string shown;
  for (const auto& a : args) shown += (shown.empty() ? "" : " ") + ("'" + a + "'");
  r.case_line = "kverify " + shown;

  // `run` with a Case too big for one exec: parsed (the parser is the case_parser target's), not run.
  bool help = false;
  for (std::size_t i = 1; i < args.size(); ++i) help = help || args[i] == "--help" || args[i] == "-h";
  if (!args.empty() && args[0] == "run" && !help) {
    std::string line;
    for (std::size_t i = 1; i < args.size(); ++i) line += (i > 1 ? " " : "") + args[i];
    try {
      if (too_big_to_run(parse_case(line))) {
        r.summary = "skipped: the Case is too big to run in one exec";
        return r;
      }
    } catch (const InputError&) {
      // the command line reports it: that path is fuzzed too
    }
  }

  std::vector<std::string> storage;
  storage.push_back("kverify");
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);

  // Silence the command line's own output: glibc lets stdout/stderr be reassigned, and only the
  // command line writes through them here (sanitizers and libFuzzer write to fd 2 directly).
  static FILE* devnull = std::fopen("/dev/null", "w");
  FILE* saved_out = stdout;
  FILE* saved_err = stderr;
  stdout = devnull;
  stderr = devnull;
  int rc = 0;
  std::string escaped;
  try {
    rc = kverify_cli_main(static_cast<int>(storage.size()), argv.data());
  } catch (const std::exception& e) {
    escaped = std::string("an exception escaped the command line: ") + e.what();
  } catch (...) {
    escaped = "an unknown exception escaped the command line";
  }
  std::fflush(devnull);
  stdout = saved_out;
  stderr = saved_err;

  if (!escaped.empty()) {
    r.finding = true;
    r.report = escaped + "\n  arguments: " + shown;
  } else if (rc < 0 || rc > 3) {
    r.finding = true;
    r.report = "exit code " + std::to_string(rc) + " (accepted: 0..3)\n  arguments: " + shown;
  } else if (rc == 1 && !args.empty() && args[0] == "run") {
    r.finding = true;
    r.report = "kverify run exited 1: a kernel failed\n  arguments: " + shown;
  } else {
    r.summary = "exit " + std::to_string(rc);
  }
  return r;
}

// The command line's words for the dictionary: every command, option and choice of the tables.
std::vector<std::string> command_words() {
  std::vector<std::string> words = {"--help", "-h", "--", "case", "values", "--markdown"};
  for (const cli::Command* c : cli::all_commands()) {
    words.emplace_back(c->name);
    for (const auto& o : c->options) {
      words.emplace_back(o.name);
      if (o.kind != cli::ValueKind::choice) continue;
      std::string_view rest = o.accepted;
      for (auto bar = rest.find('|');; bar = rest.find('|')) {
        words.emplace_back(rest.substr(0, bar));
        if (bar == std::string_view::npos) break;
        rest.remove_prefix(bar + 1);
      }
    }
  }
  return words;
}

// Seeds from the command tables: every command's --help and each of its options with a value of its
// kind (so that every option parser is reached from the start), then lines of every op and the
// malformed ones the parsers must refuse with one line.
std::vector<std::string> command_seeds() {
  std::vector<std::string> out;
  const auto value_of = [](const cli::Option& o) -> std::string {
    switch (o.kind) {
      case cli::ValueKind::flag:
        return "";
      case cli::ValueKind::choice:
        return std::string(o.accepted.substr(0, o.accepted.find('|')));
      case cli::ValueKind::whole:
        return std::to_string(o.max);  // the edge of the range
      case cli::ValueKind::seed:
        return "18446744073709551615";
      case cli::ValueKind::op:
        return std::string(all_ops()[0]->name);
      case cli::ValueKind::variant:
        return std::string(all_variants().front().name);
      case cli::ValueKind::dtype:
        return "bf16";
      case cli::ValueKind::text:
        return o.default_text.empty() || o.default_text.find('<') != std::string_view::npos
                   ? "/nonexistent/x"
                   : std::string(o.default_text);
    }
    return "";
  };
  for (const cli::Command* c : cli::all_commands()) {
    const std::string name(c->name);
    out.push_back(name + "\n--help");
    for (const auto& o : c->options) {
      if (o.internal) continue;
      const std::string value = value_of(o);
      out.push_back(name + "\n" + std::string(o.name) + (o.kind == cli::ValueKind::flag ? "" : "\n" + value));
    }
  }
  for (const OpSpec* op : all_ops()) {
    const std::string name(op->name);
    out.push_back("run\nop=" + name + " " + op->example_token() + " backend=emu");
    out.push_back("check\n--backend\nemu\n--op\n" + name);
    out.push_back("fuzz\n" + name + "\n--time\n5\n--jobs\n2");
    out.push_back("replay\ncorpus/" + name);
  }
  for (const char* line :
       {"run", "run\nop=nosuch", "check\n--backend", "check\n--op\nnosuch", "list\nextra", "help\ncase\n--markdown",
        "help\nnosuch", "fuzz\nnosuch", "replay\n--target\nnosuch\n/nonexistent", "--help", "nosuch", ""})
    out.emplace_back(line);
  return out;
}

struct Register {
  Register() {
    linked_target(Kind::cli) = {&run_cli, &command_seeds, &command_words};
    kverify::fuzz_commands_dry_run = true;
  }
} register_cli;

}  // namespace
}  // namespace kverify::fuzz
