// The cluster-bulk softmax's plan limits (softmax_cluster_bulk.cuh), apart so that the host code
// that checks a forced plan (kernels/plan_overrides.hpp) needs no device header.
#pragma once

namespace kverify::kernels {

inline constexpr int kBulkMaxCluster = 16;
inline constexpr int kBulkMaxStages = 4;

}  // namespace kverify::kernels
