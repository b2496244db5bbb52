// The plan-sweep development hooks (reports/h200/perf.md): KVERIFY_SIMT_PLAN, KVERIFY_WGMMA_PLAN and
// KVERIFY_BULK_PLAN force one of the plans a launcher has. Each is parsed here, for the command
// line's up-front check of the environment (a malformed value is bad input before anything runs)
// and for the launcher that takes it (the plan then wins over the launcher's own choice; a plan that
// does not fit the Case, e.g. a 64-row SIMT tile for a 16-bit dtype, fails that Case with the reason).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>

#include "kernels/softmax/bulk_limits.hpp"

namespace kverify::kernels {

// A forced "tile,splits" plan: nullopt when `variable` is unset; else the tile, one of `tiles`, and
// splits >= 1, or std::invalid_argument naming the variable, its value and `accepted`.
struct TileSplitsOverride {
  int tile = 0, splits = 0;
};
inline std::optional<TileSplitsOverride> tile_splits_override(const char* variable, std::initializer_list<int> tiles,
                                                              const char* accepted) {
  const char* forced = std::getenv(variable);
  if (!forced) return std::nullopt;
  TileSplitsOverride p;
  char rest = 0;
  if (std::sscanf(forced, "%d,%d%c", &p.tile, &p.splits, &rest) != 2 ||
      std::find(tiles.begin(), tiles.end(), p.tile) == tiles.end() || p.splits < 1)
    throw std::invalid_argument(std::string(variable) + "='" + forced + "': expected " + accepted);
  return p;
}

// KVERIFY_SIMT_PLAN="tile_m,splits": tile_m 64 (f32 only) or 128, splits >= 1.
inline std::optional<TileSplitsOverride> simt_plan_override() {
  return tile_splits_override("KVERIFY_SIMT_PLAN", {128, 64},
                              "tile_m,splits with tile_m 128 or 64 (64: f32 only) and splits >= 1");
}

// KVERIFY_WGMMA_PLAN="tile_n,splits": tile_n 256, 128 or 64 (no promotion) or 192 (promotion), splits >= 1.
inline std::optional<TileSplitsOverride> wgmma_plan_override() {
  return tile_splits_override("KVERIFY_WGMMA_PLAN", {256, 192, 128, 64},
                              "tile_n,splits with tile_n 256, 192, 128 or 64 and splits >= 1");
}

// KVERIFY_BULK_PLAN="cluster,threads,stages[,keep]": keep 0 or 1, left out (-1): the exps are kept
// in registers where the plan allows.
struct BulkPlanOverride {
  int cluster = 0, threads = 0, stages = 0, keep = -1;
};
inline std::optional<BulkPlanOverride> bulk_plan_override() {
  const char* forced = std::getenv("KVERIFY_BULK_PLAN");
  if (!forced) return std::nullopt;
  BulkPlanOverride p;
  char rest = 0;
  const int fields = std::sscanf(forced, "%d,%d,%d,%d%c", &p.cluster, &p.threads, &p.stages, &p.keep, &rest);
  if ((fields != 3 && fields != 4) || p.cluster < 1 || p.cluster > kBulkMaxCluster || p.threads < 32 ||
      p.threads > 1024 || p.stages < 1 || p.stages > kBulkMaxStages || (fields == 4 && p.keep != 0 && p.keep != 1))
    throw std::invalid_argument(std::string("KVERIFY_BULK_PLAN='") + forced +
                                "': expected cluster,threads,stages[,keep] with cluster 1.." +
                                std::to_string(kBulkMaxCluster) + ", threads 32..1024, stages 1.." +
                                std::to_string(kBulkMaxStages) + ", keep 0 or 1");
  if (fields == 3) p.keep = -1;
  return p;
}

}  // namespace kverify::kernels
