// For the cli fuzz target only: the commands that run for minutes stop here. `kverify check`
// reaches run_check_catalogue after the command line has parsed and validated its options;
// `kverify mutants` (its options are parsed inside mutants_command) is not fuzzed past the
// command table. A new command of tools/kverify_main.cpp whose code lives outside the sources
// fuzz/CMakeLists.txt lists for fuzz_cli needs its source there, or a stub here.
#include <span>
#include <string_view>

#include "tools/check_catalogue.hpp"
#include "bench/bench_command.hpp"
#include "tools/fault_report.hpp"
#include "tools/gpu_commands.hpp"
#include "tools/mutants_command.hpp"
#include "tools/report_command.hpp"

namespace kverify {

int run_check_catalogue(const CheckOptions&) { return 0; }
int mutants_command(std::span<const std::string_view>) { return 0; }
int bench_command(std::span<const std::string_view>) { return 0; }  // gates and times for minutes
int report_command(std::span<const std::string_view>) { return 0; }  // sweeps for minutes, writes files
int huge_command(std::span<const std::string_view>) { return 0; }   // gigabytes, minutes
int agree_command(std::span<const std::string_view>) { return 0; }  // both backends, minutes
void report_faults_of(const std::string&) {}  // libFuzzer keeps its own crash handlers

}  // namespace kverify
