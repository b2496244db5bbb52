// A hook called at the start of every Case the pipeline checks (run_case_with). `kverify check`'s
// child processes set it to print each Case line before the Case runs, so that the parent can name
// the Case that was running when a child died (device fault, signal) or when compute-sanitizer
// reported an error (check/isolation.cpp). Unset, it costs one branch.
#pragma once

namespace kverify {

struct Case;
using CaseTraceHook = void (*)(const Case& c);

inline CaseTraceHook& case_trace_hook() {
  static CaseTraceHook hook = nullptr;
  return hook;
}

inline void trace_case(const Case& c) {
  if (CaseTraceHook hook = case_trace_hook()) hook(c);
}

}  // namespace kverify
