// scale's launchers, written once; scale_emu.cpp (and scale_cuda.cu in a CUDA build) compile them.
#include "kernels/common/backend_launch.hpp"
#include "kernels/scale/scale_strided.cuh"

#if defined(KV_BACKEND)
namespace kverify::kernels::scale::KV_BACKEND {

void strided(const LaunchRequest& r) {
  with_storage_type(r.dtype, [&]<typename T>() {
    const DeviceTensor& x = r.tensors[0];
    const DeviceTensor& y = r.tensors[1];
    const ScaleArgs<T> a{
        static_cast<const T*>(x.data), static_cast<T*>(y.data), x.layout.rows,       x.layout.cols,
        x.layout.row_stride,           x.layout.col_stride,     y.layout.row_stride, y.layout.col_stride};
    const long long blocks = (a.rows * a.cols + 255) / 256;
    scale_strided<T><<<dim3(static_cast<unsigned>(blocks < 1024 ? blocks : 1024)), dim3(256), 0, launch_stream(r)>>>(a);
    check_launch("scale_strided<T>");
  });
}

}  // namespace kverify::kernels::scale::KV_BACKEND
#endif
