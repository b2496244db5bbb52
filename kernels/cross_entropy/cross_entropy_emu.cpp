// cross_entropy launchers for the emu backend.
#define KV_BACKEND emu
#include "launchers.inl"  // by a relative path, so that kverify_emu_rewrite rewrites its launches too
