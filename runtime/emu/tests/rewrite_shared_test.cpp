// The `extern __shared__` / `static __shared__` source rewrite, input by input.
#include <gtest/gtest.h>

#include <string>

#include "runtime/emu/rewrite_shared.hpp"

namespace {

using kverify::emu::rewrite_shared_declarations;

struct Row {
  const char* in;
  const char* out;
};

const Row kRows[] = {
    // In a function: a pointer to the launch's dynamic shared block, under the same name and type.
    {"__global__ void k() { extern __shared__ float buf[]; buf[0] = 1; }",
     "__global__ void k() { float (*const buf) = "
     "reinterpret_cast<decltype(buf)>(::kverify::emu::dynamic_shared_memory()); "
     "buf[0] = 1; }"},
    {"void f() {\n  extern __shared__ __align__(16) unsigned char smem[];\n}",
     "void f() {\n  __align__(16) unsigned char (*const smem) = "
     "reinterpret_cast<decltype(smem)>(::kverify::emu::dynamic_shared_memory());\n}"},
    // Trailing dimensions stay on the pointer's type.
    {"void f() { extern __shared__ float tile[][33]; }",
     "void f() { float (*const tile)[33] = reinterpret_cast<decltype(tile)>(::kverify::emu::dynamic_shared_memory()); "
     "}"},
    // At namespace scope (also inside named, nested and anonymous namespaces and extern "C").
    {"extern __shared__ float g[];", "inline ::kverify::emu::ExternShared<float> g;"},
    {"namespace a::b { extern __shared__ __align__(8) double d[]; }",
     "namespace a::b { inline ::kverify::emu::ExternShared<double> d; }"},
    {"namespace { extern \"C\" { extern __shared__ int x[]; } }",
     "namespace { extern \"C\" { inline ::kverify::emu::ExternShared<int> x; } }"},
    // static __shared__ is __shared__ (which is static on emu).
    {"void f() { static __shared__ float s[32]; }", "void f() { __shared__ float s[32]; }"},
    // Lines keep their numbers when a declaration spans several.
    {"void f() { extern __shared__\n  float b[]; }\nint line3;",
     "void f() { float (*const b) = reinterpret_cast<decltype(b)>(::kverify::emu::dynamic_shared_memory());\n }\nint "
     "line3;"},
    // Untouched: comments, strings, preprocessor lines, plain __shared__, other externs, and what
    // the rewrite does not understand (left for the compiler to report).
    {"// extern __shared__ float c[];\n/* extern __shared__ float d[]; */ const char* s = \"extern __shared__ x[];\";",
     "// extern __shared__ float c[];\n/* extern __shared__ float d[]; */ const char* s = \"extern __shared__ x[];\";"},
    {"#define DECL extern __shared__ float m[];\nvoid f() { __shared__ int t[4]; extern int e; }",
     "#define DECL extern __shared__ float m[];\nvoid f() { __shared__ int t[4]; extern int e; }"},
    {"void f() { extern __shared__ float a[], b[]; }", "void f() { extern __shared__ float a[], b[]; }"},
    {"void f() { extern __shared__ float n[8]; }", "void f() { extern __shared__ float n[8]; }"},
};

TEST(EmuRewriteShared, TableOfDeclarations) {
  for (const Row& row : kRows) EXPECT_EQ(rewrite_shared_declarations(row.in), row.out) << row.in;
}

TEST(EmuRewriteShared, TextWithoutSharedDeclarationsIsCopiedUnchanged) {
  const std::string text =
      "#include <x>\nR\"(extern __shared__ float q[];)\" 'a' 0x1f 1'000 a::b<c>{}; \\\n"
      "template <typename T> struct S { T v; };\n";
  EXPECT_EQ(rewrite_shared_declarations(text), text);
}

}  // namespace
