// For the cli fuzz target only: the engines that run for minutes stop here, after the command line
// has parsed and validated their options (tools/*_command.cpp). A new command whose engine lives
// outside the sources fuzz/CMakeLists.txt lists for fuzz_cli needs a stub here.
#include "bench/bench_command.hpp"
#include "bench/cheat_catalogue.hpp"
#include "check/catalogue.hpp"
#include "gpu/commands.hpp"
#include "mutation/mutants.hpp"
#include "pipeline/fault_report.hpp"
#include "report/report.hpp"
#include "tools/scaffold/write_scaffold.hpp"

namespace kverify {

int run_check_catalogue(const CheckOptions&) { return 0; }
int run_mutants(const MutantsOptions&) { return 0; }
int run_bench(const BenchOptions&) { return 0; }                     // gates and times for minutes
int run_cheat_catalogue(const CheatCatalogueOptions&) { return 0; }  // a bench per cheat
int run_report(const ReportOptions&) { return 0; }                   // sweeps for minutes, writes files
int compare_reports(const std::string&, const std::string&) { return 0; }
int run_huge(const HugeOptions&) { return 0; }            // gigabytes, minutes
int run_agree(const AgreeOptions&) { return 0; }          // both backends, minutes
void report_faults_of(const std::string&) {}              // libFuzzer keeps its own crash handlers
int write_scaffold(const ScaffoldRequest&) { return 0; }  // creates folders

}  // namespace kverify
