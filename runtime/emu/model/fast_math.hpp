// nvcc's --use_fast_math on emu, for a kernel registered with it in CUDA_FLAGS
// (cmake/KverifyVariants.cmake defines KVERIFY_EMU_FAST_MATH before this header and before the
// user's source):
//  - expf, exp10f, logf, log2f, log10f, sinf, cosf, tanf, sincosf and powf become the fast
//    intrinsics (__expf, ...), as nvcc maps them (-use_fast_math implies the intrinsics); spelled
//    with std:: they are not mapped (nvcc's device code rarely does);
//  - f32 subnormals flush to zero (-ftz=true): FlushToZero sets the host's FTZ and DAZ modes for
//    the launch, which the emulated threads, fibers of the launching thread, inherit;
//  - not modelled: -prec-div=false (x / y stays IEEE on emu; __fdividef is also exact there) and
//    -prec-sqrt=false. The fast_math tolerance policy allows the device's errors for both.
#pragma once

#include <xmmintrin.h>

namespace kverify::emu {

class FlushToZero {
 public:
  FlushToZero() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero); }
  ~FlushToZero() { _mm_setcsr(saved_); }
  FlushToZero(const FlushToZero&) = delete;
  FlushToZero& operator=(const FlushToZero&) = delete;

 private:
  static constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
  unsigned saved_;
};

}  // namespace kverify::emu

#if defined(KVERIFY_EMU_FAST_MATH)
#define expf(x) __expf(x)
#define exp10f(x) __exp10f(x)
#define logf(x) __logf(x)
#define log2f(x) __log2f(x)
#define log10f(x) __log10f(x)
#define sinf(x) __sinf(x)
#define cosf(x) __cosf(x)
#define tanf(x) __tanf(x)
#define sincosf(x, s, c) __sincosf(x, s, c)
#define powf(x, y) __powf(x, y)
#endif
