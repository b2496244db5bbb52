// The libFuzzer entry of one target (compiled once per target with KVERIFY_FUZZ_TARGET="name").
//
//   fuzz_<target> [libFuzzer flags] [corpus dirs]   fuzz (libFuzzer; -help=1 lists its flags)
//   fuzz_<target> --replay PATH...                  replay inputs and .case lines with verdicts
//   fuzz_<target> --decode FILE...                  print the Case each input decodes to
//   fuzz_<target> --write-seeds DIR                 write the boundary seeds (corpus/<target>/)
//
// Environment: KVERIFY_FUZZ_BACKEND=emu|cuda (default emu; cuda needs a build with the cuda
// backend and a GPU), KVERIFY_FUZZ_VARIANT=NAME (fuzz one variant of the op), KVERIFY_FUZZ_TARGET
// (fuzz_cuda only: which op target).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/gpu_slots.hpp"
#include "fuzz/dictionary.hpp"
#include "fuzz/targets.hpp"
#include "pipeline/execute.hpp"

#ifndef KVERIFY_FUZZ_TARGET
#error "compile with -DKVERIFY_FUZZ_TARGET=\"<target name>\""
#endif

namespace {

using namespace kverify::fuzz;

const Target* g_target = nullptr;
RunOptions g_options;

const char* binary_name() {
  return std::string_view(KVERIFY_FUZZ_TARGET).empty() ? "fuzz_cuda" : "fuzz_" KVERIFY_FUZZ_TARGET;
}

// The target's name: compiled in, or (fuzz_cuda: KVERIFY_FUZZ_TARGET="") from the environment,
// so that one binary with the nvcc kernels serves every op target on the GPU.
std::string target_name() {
  if (std::string_view(KVERIFY_FUZZ_TARGET).empty()) {
    const char* name = std::getenv("KVERIFY_FUZZ_TARGET");
    return name ? name : "";
  }
  return KVERIFY_FUZZ_TARGET;
}

[[noreturn]] void finish(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(code);  // no libFuzzer, no static destructors of a half-initialised run
}

void usage() {
  const char* b = binary_name();
  std::printf(
      "usage: %s [libFuzzer flags] [corpus dirs]     fuzz with libFuzzer (-help=1 for its flags)\n"
      "       %s --replay PATH...    replay inputs (files, folders; <name>.case files are Case lines)\n"
      "       %s --decode FILE...    print the Case each input decodes to\n"
      "       %s --write-seeds DIR   write the boundary seeds\n"
      "       %s --write-dict FILE   write the target's dictionary (generated from kverify's tables)\n"
      "Environment: KVERIFY_FUZZ_BACKEND=emu|cuda, KVERIFY_FUZZ_VARIANT=NAME%s.\n"
      "The usual way in: ./kverify fuzz <target> --help\n",
      b, b, b, b, b, std::string_view(KVERIFY_FUZZ_TARGET).empty() ? ", KVERIFY_FUZZ_TARGET=<an op>" : "");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  if (*argc > 1 && (std::string_view((*argv)[1]) == "--help" || std::string_view((*argv)[1]) == "-h")) {
    usage();
    finish(0);
  }
  const std::string name = target_name();
  g_target = find_target(name);
  if (!g_target) {
    std::fprintf(stderr, "%s: this binary has no target '%s' (set KVERIFY_FUZZ_TARGET to one of: %s)\n", binary_name(),
                 name.c_str(), kverify::op_names().c_str());
    finish(2);
  }
  try {
    g_options = options_from_environment(*g_target);
  } catch (const kverify::InputError& e) {
    std::fprintf(stderr, "%s: %s\n", binary_name(), e.what());
    finish(2);
  }
  // `kverify fuzz --backend cuda --jobs N`: every job libFuzzer's -fork=N starts takes one of the
  // GPUs CUDA_VISIBLE_DEVICES lists that no other job holds, before CUDA starts here; the -fork
  // parent runs no input and takes none.
  if (const char* locks = std::getenv("KVERIFY_FUZZ_GPU_LOCKS"); locks && *locks) {
    bool fork_parent = false;
    for (int i = 1; i < *argc; ++i) fork_parent = fork_parent || std::string_view((*argv)[i]).starts_with("-fork=");
    if (!fork_parent) {
      const auto devices = kverify::visible_devices(0);
      const auto claimed = kverify::claim_free_device(devices, locks);
      if (!claimed) {
        std::fprintf(stderr, "%s: NOT RUN: every GPU of CUDA_VISIBLE_DEVICES is taken by another fuzzing job\n",
                     binary_name());
        finish(3);
      }
      setenv("CUDA_VISIBLE_DEVICES", claimed->c_str(), 1);
      std::fprintf(stderr, "%s: this fuzzing job runs on GPU %s (CUDA_VISIBLE_DEVICES)\n", binary_name(),
                   claimed->c_str());
    }
  }
  if (std::string why; !kverify::backend_available(g_options.backend, &why)) {
    std::fprintf(stderr, "%s: NOT RUN: backend %s is not available here: %s\n", binary_name(),
                 std::string(kverify::name(g_options.backend)).c_str(), why.c_str());
    finish(3);
  }

  // Our own modes come before libFuzzer's flags.
  std::vector<std::string> args((*argv) + 1, (*argv) + *argc);
  if (args.empty()) return 0;
  const std::string_view mode = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (mode == "--replay") {
    if (rest.empty()) {
      std::fprintf(stderr, "%s --replay: give files or folders to replay\n", binary_name());
      finish(2);
    }
    finish(replay(*g_target, rest, g_options));
  }
  if (mode == "--decode") {
    for (const auto& path : rest) {
      FILE* f = std::fopen(path.c_str(), "rb");
      if (!f) {
        std::fprintf(stderr, "%s --decode: cannot read '%s'\n", binary_name(), path.c_str());
        finish(2);
      }
      std::vector<std::uint8_t> bytes;
      for (int ch; (ch = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<std::uint8_t>(ch));
      std::fclose(f);
      std::printf("%s\n", decode_only(*g_target, bytes.data(), bytes.size(), g_options).c_str());
    }
    finish(0);
  }
  if (mode == "--write-seeds") {
    if (rest.size() != 1) {
      std::fprintf(stderr, "%s --write-seeds: give one folder\n", binary_name());
      finish(2);
    }
    finish(write_seeds(*g_target, rest[0], g_options));
  }
  if (mode == "--write-dict") {
    if (rest.size() != 1) {
      std::fprintf(stderr, "%s --write-dict: give one file\n", binary_name());
      finish(2);
    }
    std::ofstream out(rest[0], std::ios::trunc);
    out << dictionary(*g_target);
    out.close();
    if (!out) {
      std::fprintf(stderr, "%s --write-dict: cannot write '%s'\n", binary_name(), rest[0].c_str());
      finish(2);
    }
    finish(0);
  }
  if (mode.starts_with("--")) {
    std::fprintf(stderr,
                 "%s: unknown option '%s' (accepted: --replay, --decode, --write-seeds, --write-dict, --help, or "
                 "libFuzzer's -flag=value)\n",
                 binary_name(), args[0].c_str());
    finish(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const InputResult r = run_input(*g_target, data, size, g_options);
  if (r.finding) {
    std::fprintf(stderr, "\n==kverify-fuzz== FINDING in target %s\n%s\n", std::string(g_target->name).c_str(),
                 r.report.c_str());
    if (!r.case_line.empty()) std::fprintf(stderr, "==kverify-fuzz== case: %s\n", r.case_line.c_str());
    std::fflush(stderr);
    std::abort();  // libFuzzer saves the input (crash-<sha1>)
  }
  return 0;
}
