// Linked into every asan-flavored executable: the options kverify's suites run with, whether they
// are started by ctest or by hand. ASAN_OPTIONS / UBSAN_OPTIONS in the environment still override.
extern "C" const char* __asan_default_options() { return "detect_stack_use_after_return=1:detect_leaks=1"; }
extern "C" const char* __ubsan_default_options() { return "print_stacktrace=1:halt_on_error=1"; }
