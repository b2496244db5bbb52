#include "bench/cheat_catalogue.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/bench_command.hpp"
#include "core/exit_codes.hpp"
#include "core/output_file.hpp"
#include "kernels/registry.hpp"

namespace kverify {
namespace {

struct CheatResult {
  std::string who, cheat_class, verdict;
  int status = kNotRun;
};

// What the cheat's bench says: a time on any row is a cheat that got through.
CheatResult judge(const Variant& v, int bench_status, const std::string& json_path) {
  CheatResult r{std::string(v.op) + "/" + std::string(v.name), std::string(v.cheat), "", kNotRun};
  nlohmann::json j;
  try {
    std::ifstream in(json_path);
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    r.status = kFail;
    r.verdict = "could not be judged: its bench wrote no readable " + json_path + " (" + e.what() + ")";
    return r;
  }
  std::string refused, timed, gate_failed;
  for (const auto& row : j.value("results", nlohmann::json::array())) {
    const std::string where = row.value("shape", std::string()) + " " + row.value("dtype", std::string());
    if (row.contains("refused") && refused.empty()) refused = where + ": " + row["refused"].get<std::string>();
    if (!row["timing"].is_null()) timed += (timed.empty() ? "" : ", ") + where;
    if (row["gate"].value("failed", 0) > 0) gate_failed += (gate_failed.empty() ? "" : ", ") + where;
  }
  if (!timed.empty()) {
    r.status = kFail;
    r.verdict = "SURVIVED: timed on " + timed + (refused.empty() ? "" : "; refused on " + refused);
  } else if (!gate_failed.empty()) {
    r.status = kFail;
    r.verdict = "its gate failed on " + gate_failed + " (a cheat must be right on every call the gate makes)";
  } else if (!refused.empty()) {
    r.status = kPass;
    r.verdict = "refused: " + refused;
  } else {
    r.status = bench_status == kNotRun ? kNotRun : kFail;
    r.verdict = "not judged here: " + j.value("note", std::string("its bench timed nothing and refused nothing"));
  }
  return r;
}

}  // namespace

int run_cheat_catalogue(const CheatCatalogueOptions& o) {
  std::vector<const Variant*> cheats;
  for (const auto& v : all_variants()) {
    if (v.cheat.empty()) continue;
    const std::string who = std::string(v.op) + "/" + std::string(v.name);
    bool wanted = o.only.empty();
    for (const auto& name : o.only) wanted = wanted || name == who || name == v.name;
    if (wanted) cheats.push_back(&v);
  }
  if (cheats.empty()) {
    std::fprintf(stderr,
                 "kverify mutants --bench: %s (a cheat is a kverify_add_kernel(... CHEAT \"<class>\"), e.g. "
                 "bench/tests/cheats/ through KVERIFY_VARIANT_DIRS)\n",
                 o.only.empty() ? "this build has no cheat" : "no cheat of this build matches --only");
    return kBadInput;
  }
  const std::string dir = o.out_dir.empty() ? "reports/cheats" : o.out_dir;
  std::vector<CheatResult> results;
  for (std::size_t i = 0; i < cheats.size(); ++i) {
    const Variant& v = *cheats[i];
    std::fprintf(stderr, "kverify mutants --bench: [%zu/%zu] %s/%s (%s)\n", i + 1, cheats.size(),
                 std::string(v.op).c_str(), std::string(v.name).c_str(), std::string(v.cheat).c_str());
    BenchOptions b;
    b.plan.op = std::string(v.op);
    b.plan.variant = std::string(v.name);
    b.plan.gate_extra = 0;
    b.plan.seed = 1;
    b.seed_given = true;
    b.json_path = dir + "/" + std::string(v.name) + ".json";
    b.md_path = dir + "/" + std::string(v.name) + ".md";
    const int status = run_bench(b);
    if (status == kBadInput) return kBadInput;  // an output that could not be written: said above
    results.push_back(judge(v, status, b.json_path));
  }
  std::ostringstream table;
  table << "| cheat | class | verdict |\n|---|---|---|\n";
  int status = kPass;
  for (const auto& r : results) {
    table << "| " << r.who << " | " << r.cheat_class << " | " << r.verdict << " |\n";
    if (r.status == kFail) status = kFail;
    if (r.status == kNotRun && status == kPass) status = kNotRun;
  }
  std::printf("\nThe cheat catalogue through kverify bench:\n%s", table.str().c_str());
  OutputFiles files;
  files.add(dir + "/cheats.md", "# The cheat catalogue through kverify bench\n\n" + table.str());
  if (const auto error = files.commit()) {
    std::fprintf(stderr, "kverify mutants --bench: %s\n", error->c_str());
    return kBadInput;
  }
  std::printf("wrote %s/cheats.md and each cheat's bench beside it\n", dir.c_str());
  return status;
}

}  // namespace kverify
