// CUDA's built-in vector types for the emu backend (vector_types.h and vector_functions.h):
// char1..double4 with the size and alignment nvcc gives them on x86-64 Linux, their make_*
// functions, uint3 and dim3.
//
// They live in the global namespace under CUDA's names, as the toolkit's do, so user code that
// adds operators or traits for them (helper_math.h style) finds them where it expects. A program
// that links emu kernels with cuda-backend code sees two definitions of e.g. float4; both are
// the same plain aggregate with the same layout, and neither has out-of-line members.
//
// The alignments are CUDA's, not the host's natural ones: float2 is 8-aligned and float4 16, so
// a kernel's reinterpret_cast to float4* has the alignment requirement it has on the GPU (UBSan
// in the asan flavor reports a misaligned vector access as the GPU would fault on it).
#pragma once

#include <cstddef>

#define KV_EMU_VEC1(name, T, align) \
  struct alignas(align) name {      \
    T x;                            \
  };
#define KV_EMU_VEC2(name, T, align) \
  struct alignas(align) name {      \
    T x, y;                         \
  };
#define KV_EMU_VEC3(name, T, align) \
  struct alignas(align) name {      \
    T x, y, z;                      \
  };
#define KV_EMU_VEC4(name, T, align) \
  struct alignas(align) name {      \
    T x, y, z, w;                   \
  };

// One line per element type: the alignments of the 1-, 2-, 3- and 4-element types.
#define KV_EMU_VECTOR_TYPES(X)                   \
  X(char, signed char, 1, 2, 1, 4)               \
  X(uchar, unsigned char, 1, 2, 1, 4)            \
  X(short, short, 2, 4, 2, 8)                    \
  X(ushort, unsigned short, 2, 4, 2, 8)          \
  X(int, int, 4, 8, 4, 16)                       \
  X(uint, unsigned int, 4, 8, 4, 16)             \
  X(long, long, 8, 16, 8, 16)                    \
  X(ulong, unsigned long, 8, 16, 8, 16)          \
  X(longlong, long long, 8, 16, 8, 16)           \
  X(ulonglong, unsigned long long, 8, 16, 8, 16) \
  X(float, float, 4, 8, 4, 16)                   \
  X(double, double, 8, 16, 8, 16)

#define KV_EMU_DECLARE_VECTORS(prefix, T, a1, a2, a3, a4) \
  KV_EMU_VEC1(prefix##1, T, a1)                           \
  KV_EMU_VEC2(prefix##2, T, a2)                           \
  KV_EMU_VEC3(prefix##3, T, a3)                           \
  KV_EMU_VEC4(prefix##4, T, a4)
KV_EMU_VECTOR_TYPES(KV_EMU_DECLARE_VECTORS)
#undef KV_EMU_DECLARE_VECTORS

// CUDA 13's explicitly aligned 4-element 64-bit types (long4 etc. are 16-aligned and deprecated
// there in favour of these; emu does not repeat the deprecation warning, nvcc's build shows it).
KV_EMU_VEC4(long4_16a, long, 16)
KV_EMU_VEC4(long4_32a, long, 32)
KV_EMU_VEC4(ulong4_16a, unsigned long, 16)
KV_EMU_VEC4(ulong4_32a, unsigned long, 32)
KV_EMU_VEC4(longlong4_16a, long long, 16)
KV_EMU_VEC4(longlong4_32a, long long, 32)
KV_EMU_VEC4(ulonglong4_16a, unsigned long long, 16)
KV_EMU_VEC4(ulonglong4_32a, unsigned long long, 32)
KV_EMU_VEC4(double4_16a, double, 16)
KV_EMU_VEC4(double4_32a, double, 32)

#undef KV_EMU_VEC1
#undef KV_EMU_VEC2
#undef KV_EMU_VEC3
#undef KV_EMU_VEC4

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define KV_EMU_MAKE_VECTORS(prefix, T, a1, a2, a3, a4)                                \
  constexpr prefix##1 make_##prefix##1(T x) { return prefix##1 {x}; }                 \
  constexpr prefix##2 make_##prefix##2(T x, T y) { return prefix##2 {x, y}; }         \
  constexpr prefix##3 make_##prefix##3(T x, T y, T z) { return prefix##3 {x, y, z}; } \
  constexpr prefix##4 make_##prefix##4(T x, T y, T z, T w) { return prefix##4 {x, y, z, w}; }
KV_EMU_VECTOR_TYPES(KV_EMU_MAKE_VECTORS)
#undef KV_EMU_MAKE_VECTORS

static_assert(sizeof(float2) == 8 && alignof(float2) == 8);
static_assert(sizeof(float3) == 12 && alignof(float3) == 4);
static_assert(sizeof(float4) == 16 && alignof(float4) == 16);
static_assert(sizeof(double2) == 16 && alignof(double2) == 16);
static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16);
static_assert(sizeof(int4) == 16 && alignof(int4) == 16);
static_assert(sizeof(short4) == 8 && alignof(short4) == 8);
static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4);
static_assert(sizeof(char3) == 3 && alignof(char3) == 1);
static_assert(sizeof(double4) == 32 && alignof(double4) == 16);
static_assert(sizeof(dim3) == 12 && sizeof(uint3) == 12);
