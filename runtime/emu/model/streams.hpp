// What emu knows of the streams a launcher uses. emu runs every stream in order (each call has
// finished when it returns), so two things are counted instead of raced:
//  - kernels launched on a stream other than the default one and the caller's, in this process:
//    work a launcher leaves on a side stream without joining it cannot show as wrong on emu; a Case
//    whose launcher launched on one says so;
//  - while a CallerStream lives on this thread, the work the launcher puts on the default stream
//    instead of the stream it was given (a launch without the stream, cudaMemset, an async copy or
//    memset on stream 0 or the per-thread stream): not ordered with the caller's stream, so wrong
//    in a program that runs on its own streams (a framework's current stream). A synchronous
//    cudaMemcpy is not counted (it returns when its copy is done, for host memory).
#pragma once

#include <cstdint>
#include <string>

namespace kverify::emu {

std::uint64_t side_stream_launches();

// The stream of the innermost CallerStream on this thread (a cudaStream_t), or null.
void* caller_stream();

class CallerStream {
 public:
  CallerStream();  // creates a non-blocking stream, as a framework's side streams are
  ~CallerStream();
  CallerStream(const CallerStream&) = delete;
  CallerStream& operator=(const CallerStream&) = delete;

  void* stream() const { return stream_; }  // a cudaStream_t
  std::uint64_t default_stream_work() const { return default_stream_work_; }
  const std::string& first_default_stream_work() const { return first_; }  // what it was
  void note_default_stream_work(const char* what);

 private:
  void* stream_ = nullptr;
  std::uint64_t default_stream_work_ = 0;
  std::string first_;
  CallerStream* outer_;
};

}  // namespace kverify::emu
