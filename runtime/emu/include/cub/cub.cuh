// CUB on emu: the block- and warp-level collectives that kernels use, under CUB's header names,
// built on emu's barrier and warp collectives (runtime/emu/model/collectives.hpp) so that the
// scheduler's checks apply to them, each with the user's line.
//
//   cub/warp/warp_reduce.cuh     WarpReduce<T, LOGICAL_WARP_THREADS>: Sum, Reduce (+ valid_items)
//   cub/block/block_reduce.cuh   BlockReduce<T, X, ALGORITHM, Y, Z>: Sum, Reduce (+ num_valid,
//                                + ITEMS_PER_THREAD arrays); RAKING, RAKING_COMMUTATIVE_ONLY,
//                                WARP_REDUCTIONS
//   cub/block/block_load.cuh     BlockLoad: DIRECT, STRIPED, VECTORIZE, TRANSPOSE, WARP_TRANSPOSE,
//                                WARP_TRANSPOSE_TIMESLICED; guarded and defaulted loads
//   cub/block/block_store.cuh    BlockStore: the same algorithms; guarded stores
//   cub/thread/thread_reduce.cuh ThreadReduce
//   cub/thread/thread_operators.cuh  cub::Sum, cub::Max, cub::Min (CUB 2.x); with
//                                ::cuda::std::plus<> etc. and ::cuda::maximum/minimum (CUB 3.x)
//
// Reductions combine in CUB 3.0's order (each header says which), the results CUB defines only
// in thread 0 or lane 0 are poisoned elsewhere, and TempStorage is shared memory.
// Not modelled: BlockScan, BlockExchange, BlockRadixSort, BlockHistogram, WarpScan, the device-wide
// algorithms (cub::DeviceReduce, ...), iterators.
#pragma once

#include "cub/block/block_load.cuh"
#include "cub/block/block_reduce.cuh"
#include "cub/block/block_store.cuh"
#include "cub/thread/thread_operators.cuh"
#include "cub/thread/thread_reduce.cuh"
#include "cub/util_type.cuh"
#include "cub/warp/warp_reduce.cuh"
