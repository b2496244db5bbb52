// A command's options as one table, in the spirit of libFuzzer's FuzzerFlags.def: name, kind of
// value, what is accepted, default, help. The parser, the validation against kverify's own tables
// (ops, variants, dtypes), a command's `--help`, the overview and the README's command list all come
// from the tables (cli/commands.cpp), so they cannot drift apart. A bad argument is an InputError
// of one line that names the token and says what is accepted.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kverify::cli {

enum class ValueKind : std::uint8_t {
  flag,     // no value
  text,     // any text (a path, a Case line)
  whole,    // a whole number in [min, max]
  seed,     // an unsigned 64-bit whole number
  choice,   // one of `accepted`, '|'-separated ("emu|cuda|all")
  op,       // an op of the op table (all_ops)
  variant,  // a variant of the registry (`kverify list`), mutants included
  dtype,    // a storage dtype: f32, f16, bf16
};

struct Option {
  std::string_view name;        // "--op"
  std::string_view value_name;  // shown in usage: "NAME" (choice: the choices; flag: "")
  ValueKind kind;
  std::string_view help;
  std::string_view default_text = {};  // "" when there is none worth saying
  std::string_view accepted = {};      // choice: "emu|cuda|all"; whole: overrides "min..max" in messages
  long long min = 0, max = 0;          // whole
  // Extra validation after the kind's: "" when the value is accepted, else what is accepted.
  std::string (*check)(std::string_view value) = nullptr;
  bool repeatable = false;
  bool internal = false;  // between kverify's own processes: not in --help or the README
};

// What a command takes besides its options.
struct Operands {
  std::string_view usage;    // e.g. "'<case line>'" or "<file|dir>..."; "" for none
  int min = 0, max = 0;      // how many (max -1: any)
  bool passthrough = false;  // everything after "--" is handed on unparsed (libFuzzer flags)
};

struct ParsedOptions {
  std::map<std::string, std::vector<std::string>, std::less<>> values;  // by option name, in order given
  std::vector<std::string> operands;
  std::vector<std::string> passthrough;

  bool has(std::string_view name) const { return values.find(name) != values.end(); }
  std::optional<std::string> get(std::string_view name) const;
  std::string text(std::string_view name, std::string_view fallback) const;
  long long whole(std::string_view name, long long fallback) const;
  std::uint64_t seed(std::string_view name, std::uint64_t fallback) const;
  const std::vector<std::string>& all(std::string_view name) const;
};

// emu's race detector left out, for a speed run: in the tables of the commands that run emu Cases;
// main.cpp applies it to this process and to the children it starts (KVERIFY_EMU_RACE_DETECTOR=off).
// `--gpus all|N` of the commands that shard their child processes over a host's GPUs
// (core/gpu_slots.hpp): "" when the value is accepted.
std::string gpus_value_problem(std::string_view value);

inline constexpr Option kNoRaceDetector{
    "--no-race-detector", "", ValueKind::flag,
    "emu: run without the race detector (faster; every Verdict then says data races\n"
    "were not looked for)"};

// An accuracy note fails: in the tables of the commands that judge Cases; main.cpp applies it to
// this process and to the children it starts (KVERIFY_STRICT=1).
inline constexpr Option kStrict{
    "--strict", "", ValueKind::flag,
    "an accuracy note fails: a Case outside the derived bound but within the formula eager\n"
    "frameworks compute (`kverify help tolerance`) is a FAIL, not a PASS (accuracy note)"};

// Parses `args` against the table; throws InputError (one line: the token and what is accepted).
ParsedOptions parse(std::string_view command, std::span<const Option> options, const Operands& operands,
                    std::span<const std::string_view> args);

// "[--backend emu|cuda|all] [--op NAME] ..." (internal options left out).
std::string usage_of(std::span<const Option> options);
// The options as --help lists them: name and value, help, default.
std::string options_help(std::span<const Option> options);

}  // namespace kverify::cli
