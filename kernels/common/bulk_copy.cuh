// sm_90 asynchronous bulk copies into shared memory and the mbarriers that count their bytes,
// plus the distributed-shared-memory (cluster) operations the bulk kernels exchange partials with.
// Thin wrappers over the PTX instructions (PTX ISA 8.0: cp.async.bulk, mbarrier with transaction
// counts, mapa, barrier.cluster), so that a kernel reads as its algorithm. GPU only: emu has no
// model of them, and every variant built on them is registered on_emu = false.
//
// The protocol of a ring stage: one thread arms the stage's barrier with the bytes to come
// (arrive_expect_bytes) and issues the copies (bulk_load); the phase completes when every byte has
// landed; consumers wait on the phase's parity. Values exchanged between the blocks of a cluster
// travel the same way: the receiver arms its barrier with the bytes it expects, and each sender's
// store_pair_to_peer counts its own.
#pragma once

#if defined(__CUDACC__)
#include <cstdint>

namespace kverify::kernels::bulk {

// Bulk copies need 16-byte aligned addresses and sizes that are multiples of 16 bytes.
inline constexpr int kGranule = 16;

__device__ __forceinline__ std::uint32_t smem_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void init(std::uint64_t* barrier, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_address(barrier)), "r"(arrivals) : "memory");
}

// Makes the initialisations visible to the async proxy and to the other blocks of the cluster.
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// This thread's arrival on its block's barrier, announcing `bytes` that bulk copies will bring.
__device__ __forceinline__ void arrive_expect_bytes(std::uint64_t* barrier, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_address(barrier)), "r"(bytes)
               : "memory");
}

// Global -> this block's shared memory, `bytes` (a multiple of 16, both addresses 16-byte
// aligned), completing on `barrier`.
__device__ __forceinline__ void bulk_load(void* dst, const void* src, std::uint32_t bytes, std::uint64_t* barrier) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_address(dst)),
               "l"(src), "r"(bytes), "r"(smem_address(barrier))
               : "memory");
}

// Orders this block's earlier generic-proxy accesses of shared memory before later bulk copies
// into it (a ring stage that threads wrote is refilled by the copy engine).
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

__device__ __forceinline__ bool test_parity(std::uint64_t* barrier, unsigned parity) {
  std::uint32_t done;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(done)
               : "r"(smem_address(barrier)), "r"(parity)
               : "memory");
  return done != 0;
}
// Waits until the barrier's phase of this parity has completed.
__device__ __forceinline__ void wait_parity(std::uint64_t* barrier, unsigned parity) {
  while (!test_parity(barrier, parity)) {
  }
}

// The shared::cluster address of `local` (a variable of this block's shared memory) in block `rank`.
__device__ __forceinline__ std::uint32_t peer_address(const void* local, unsigned rank) {
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_address(local)), "r"(rank));
  return remote;
}

// An asynchronous store of a pair of floats into another block's shared memory (mapped by
// peer_address) that counts its 8 bytes on that block's barrier, as a bulk copy does: the receiver
// waits on its own barrier and sees the value. No release fence: an mbarrier.arrive.release.cluster
// after a plain store compiles to MEMBAR.ALL.GPU, which waits for every global store the thread
// has in flight, and the acquire.cluster wait to an L1 invalidation (SASS on the H200,
// reports/h200/perf.md). Not into a one-block cluster: compute-sanitizer calls that an invalid
// shared write.
__device__ __forceinline__ void store_pair_to_peer(std::uint32_t remote, float2 value, std::uint32_t remote_barrier) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];" ::"r"(remote),
               "f"(value.x), "f"(value.y), "r"(remote_barrier)
               : "memory");
}

__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned cluster_blocks() {
  unsigned n;
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  return n;
}
// Every thread of every block of the cluster: arrive (release), then wait (acquire).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

}  // namespace kverify::kernels::bulk
#endif
