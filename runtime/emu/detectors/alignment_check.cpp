// Misaligned accesses in kernel code, reported as the GPU does ("misaligned address"). The kernel
// TUs of the plain build are compiled with the compiler's alignment check and no sanitizer runtime
// (-fsanitize=alignment, cmake/KverifyRaceDetector.cmake): each access through a typed pointer
// checks the address against the type's alignment inline and calls here when it is not a
// multiple of it. A float4 read at a 4-byte address is a fault on the GPU; on x86 the compiler may
// split it into four scalar loads (that run) or keep one aligned vector move (SIGSEGV), so the
// type, not the instruction, decides. Host code in the same TUs (a launcher) is let through.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/emu/model/scheduler.hpp"

#if defined(KVERIFY_EMU_RACE_HOOKS_TSAN_CALLS)
namespace {

// The layout the compilers give the check's static data (the sanitizer runtimes' ABI).
struct SourceLocation {
  const char* file;
  std::uint32_t line, column;
};
struct TypeDescriptor {
  std::uint16_t kind, info;
  char name[1];
};
struct TypeMismatchData {
  SourceLocation location;
  const TypeDescriptor* type;
  unsigned char log_alignment;
  unsigned char check_kind;
};

const char* access_text(unsigned char kind) {
  switch (kind) {
    case 0:
      return "load of";
    case 1:
      return "store to";
    case 2:
      return "reference binding to";
    case 3:
      return "member access within";
    case 4:
      return "member call on";
    case 5:
      return "constructor call on";
    default:
      return "access to";
  }
}

void misaligned(const TypeMismatchData* data, std::uintptr_t address) {
  if (address == 0 || !kverify::emu::detail::in_kernel()) return;  // host code: x86 lets it run
  const std::uint64_t alignment = std::uint64_t{1} << data->log_alignment;
  if (address % alignment == 0) return;
  char text[512];
  std::snprintf(text, sizeof text,
                "%s %s (%" PRIu64 "-byte aligned) at %s:%u:%u: address 0x%" PRIxPTR " is not a multiple of %" PRIu64,
                access_text(data->check_kind), data->type ? data->type->name : "a value", alignment,
                data->location.file ? data->location.file : "?", data->location.line, data->location.column, address,
                alignment);
  kverify::emu::detail::end_thread_with(kverify::emu::LaunchError::Kind::misaligned_address, text);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void __ubsan_handle_type_mismatch_v1(void* data, void* pointer) {
  misaligned(static_cast<const TypeMismatchData*>(data), reinterpret_cast<std::uintptr_t>(pointer));
}
// A build that turns recovery off calls this form, which must not return.
extern "C" __attribute__((visibility("default"))) void __ubsan_handle_type_mismatch_v1_abort(void* data,
                                                                                             void* pointer) {
  misaligned(static_cast<const TypeMismatchData*>(data), reinterpret_cast<std::uintptr_t>(pointer));
  std::abort();
}
#endif
