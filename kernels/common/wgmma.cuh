// sm_90a warpgroup matrix multiply (wgmma) and what a warp-specialized kernel around it needs:
// shared-memory matrix descriptors for 128-byte swizzled tiles, the fence/commit/wait protocol,
// 2-D tensor copies (TMA) that complete on an mbarrier (kernels/common/bulk_copy.cuh), and the
// register reallocation between producer and consumer warpgroups. Thin wrappers over PTX (ISA 8.0),
// so that a kernel reads as its algorithm. GPU only (sm_90a: the translation unit must be built
// for arch=compute_90a,code=sm_90a); emu has no model of any of it.
//
// Tiles in shared memory are what a tensor copy with CU_TENSOR_MAP_SWIZZLE_128B writes: rows of
// 128 bytes (64 16-bit elements), the 16-byte chunk c of row r stored at chunk c ^ (r % 8), each
// 8-row group 1024 bytes, the tile 1024-byte aligned. Two operand orientations:
//   K-major (A row-major, B column-major): a row per M (or N) index, K along the row. One wgmma
//     reads 16 K (32 bytes) of every row: the descriptor starts 32 bytes further per k16 step;
//     8-row groups are 1024 bytes apart (stride byte offset).
//   MN-major (B row-major): a row per K index, 64 N along the row; a tile of BN columns is BN / 64
//     such boxes of BK rows one after the other. One wgmma reads 16 rows (2048 bytes further per
//     k16 step); 8-row groups along K are 1024 bytes apart (stride byte offset), 64-column boxes
//     along N are BK * 128 bytes apart (leading byte offset); the instruction's transpose flag
//     for B is 1.
#pragma once

#if defined(__CUDACC__)
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace kverify::kernels::wgmma {

inline constexpr int kSwizzleBytes = 128;  // one row of a 128-byte swizzled tile
inline constexpr int kSwizzleRows = 8;     // rows per swizzle atom (1024 bytes)

// A shared-memory matrix descriptor (PTX ISA "Matrix Descriptor Format"): start address, leading
// and stride byte offsets (each in 16-byte units, 14 bits), 128-byte swizzle (mode 1, bits 62-63).
__device__ __forceinline__ std::uint64_t descriptor(std::uint32_t smem_address, std::uint32_t leading_bytes,
                                                    std::uint32_t stride_bytes) {
  std::uint64_t d = 0;
  d |= static_cast<std::uint64_t>((smem_address & 0x3ffff) >> 4);
  d |= static_cast<std::uint64_t>((leading_bytes >> 4) & 0x3fff) << 16;
  d |= static_cast<std::uint64_t>((stride_bytes >> 4) & 0x3fff) << 32;
  d |= 1ull << 62;
  return d;
}
// K-major operand: the leading byte offset is unused with 128-byte swizzle (the k16 step stays
// inside one 128-byte row); it is set to 1 (16 bytes), as CUTLASS does.
__device__ __forceinline__ std::uint64_t k_major_descriptor(std::uint32_t smem_address) {
  return descriptor(smem_address, 16, kSwizzleRows * kSwizzleBytes);
}
// MN-major operand whose 64-column boxes are `box_bytes` apart.
__device__ __forceinline__ std::uint64_t mn_major_descriptor(std::uint32_t smem_address, std::uint32_t box_bytes) {
  return descriptor(smem_address, box_bytes, kSwizzleRows * kSwizzleBytes);
}

// Orders this warpgroup's register accesses to the accumulators before the wgmmas that follow.
__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
// Closes the wgmmas issued since the last commit into one group.
__device__ __forceinline__ void commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
// Waits until at most N committed groups are still running (their shared-memory reads and
// accumulator writes are done for the others).
template <int N>
__device__ __forceinline__ void wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
// Keeps the compiler from moving accumulator reads or writes across a wait (CUTLASS's
// warpgroup_fence_operand).
__device__ __forceinline__ void fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }
template <int N>
__device__ __forceinline__ void fence_operands(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) fence_operand(d[i]);
}

// Register reallocation between warpgroups (needs a register cap at entry:
// __launch_bounds__(threads, 1)): the producer gives registers back, the consumers take them.
template <int kRegisters>
__device__ __forceinline__ void release_registers() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegisters));
}
template <int kRegisters>
__device__ __forceinline__ void claim_registers() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegisters));
}

// A 2-D box of a tensor map (coordinates innermost first, in elements; the parts outside the
// tensor are filled with zeros) into shared memory, completing its bytes on `barrier`.
__device__ __forceinline__ void tensor_load_2d(std::uint32_t dst, const void* tensor_map, int inner, int outer,
                                               std::uint32_t barrier) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          dst),
      "l"(tensor_map), "r"(inner), "r"(outer), "r"(barrier)
      : "memory");
}

// A plain arrival (the consumers' "this stage may be refilled").
__device__ __forceinline__ void arrive(std::uint32_t barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(barrier) : "memory");
}
// The operand lists of the instruction shapes the kernels use: the accumulator fragment
// d[N / 2] of every thread (row lane / 4 (+ 8) of its warp's 16, columns 8j + 2 (lane % 4) (+ 1)),
// then the two descriptors, scale_d (0: D = A B) and B's transpose flag (1: MN-major B).
// Written out because an asm operand list cannot be generated by a loop.
// D (64 x 256, f32, in registers) = A (64 x 16) B (16 x 256) + (scale_d ? D : 0), TYPE the inputs' PTX type.
#define KV_WGMMA_M64N256K16(TYPE)                                                                                    \
  asm volatile(                                                                                                      \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                                                  \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32." #TYPE "." #TYPE                                                 \
      " {"                                                                                                           \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                                        \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"                              \
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"                              \
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"                              \
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"                              \
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"                              \
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"                  \
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"               \
      "}, %128, %129, p, 1, 1, 0, %131;\n}\n"                                                                        \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),  \
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),       \
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),      \
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),      \
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),      \
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),      \
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),      \
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),      \
        "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]),      \
        "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),      \
        "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]),      \
        "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]),      \
        "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), \
        "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),            \
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]),            \
        "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),            \
        "+f"(d[126]), "+f"(d[127])                                                                                   \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(kTransB))

// D (64 x 192, f32, in registers) = A (64 x 16) B (16 x 192) + (scale_d ? D : 0), TYPE the inputs' PTX type.
#define KV_WGMMA_M64N192K16(TYPE)                                                                                   \
  asm volatile(                                                                                                     \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"                                                                  \
      "wgmma.mma_async.sync.aligned.m64n192k16.f32." #TYPE "." #TYPE                                                \
      " {"                                                                                                          \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                                       \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"                             \
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"                             \
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"                             \
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"                             \
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"                              \
      "}, %96, %97, p, 1, 1, 0, %99;\n}\n"                                                                          \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), \
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),      \
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),     \
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),     \
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),     \
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),     \
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),     \
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),     \
        "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]),     \
        "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),     \
        "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]),     \
        "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])                   \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(kTransB))

// D (64 x 128, f32, in registers) = A (64 x 16) B (16 x 128) + (scale_d ? D : 0), TYPE the inputs' PTX type.
#define KV_WGMMA_M64N128K16(TYPE)                                                                                   \
  asm volatile(                                                                                                     \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"                                                                  \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32." #TYPE "." #TYPE                                                \
      " {"                                                                                                          \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                                       \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"                             \
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"                             \
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"                              \
      "}, %64, %65, p, 1, 1, 0, %67;\n}\n"                                                                          \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), \
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),      \
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),     \
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),     \
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),     \
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),     \
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),     \
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])                   \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(kTransB))

// D (64 x 64, f32, in registers) = A (64 x 16) B (16 x 64) + (scale_d ? D : 0), TYPE the inputs' PTX type.
#define KV_WGMMA_M64N64K16(TYPE)                                                                                    \
  asm volatile(                                                                                                     \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                                                                  \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32." #TYPE "." #TYPE                                                 \
      " {"                                                                                                          \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                                       \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"                              \
      "}, %32, %33, p, 1, 1, 0, %35;\n}\n"                                                                          \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), \
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),      \
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),     \
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])                   \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(kTransB))

// D = A B + (scale_d ? D : 0) for one warpgroup: A 64 x 16 and B 16 x N from shared memory
// (descriptors), D 64 x N f32 in registers; T = __half or __nv_bfloat16; kTransB = 1 for an
// MN-major B.
template <typename T, int N, int kTransB>
__device__ __forceinline__ void mma_async(float (&d)[N / 2], std::uint64_t desc_a, std::uint64_t desc_b, int scale_d) {
  constexpr bool kBf16 = sizeof(T) == 2 && !std::is_same_v<T, __half>;
  static_assert(N == 256 || N == 192 || N == 128 || N == 64, "instruction shapes m64n{256,192,128,64}k16");
  if constexpr (N == 256) {
    if constexpr (kBf16)
      KV_WGMMA_M64N256K16(bf16);
    else
      KV_WGMMA_M64N256K16(f16);
  } else if constexpr (N == 192) {
    if constexpr (kBf16)
      KV_WGMMA_M64N192K16(bf16);
    else
      KV_WGMMA_M64N192K16(f16);
  } else if constexpr (N == 128) {
    if constexpr (kBf16)
      KV_WGMMA_M64N128K16(bf16);
    else
      KV_WGMMA_M64N128K16(f16);
  } else {
    if constexpr (kBf16)
      KV_WGMMA_M64N64K16(bf16);
    else
      KV_WGMMA_M64N64K16(f16);
  }
}
#undef KV_WGMMA_M64N256K16
#undef KV_WGMMA_M64N192K16
#undef KV_WGMMA_M64N128K16
#undef KV_WGMMA_M64N64K16

}  // namespace kverify::kernels::wgmma
#endif
