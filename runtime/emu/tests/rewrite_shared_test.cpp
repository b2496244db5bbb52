// The `extern __shared__` / `static __shared__` source rewrite, input by input.
#include <gtest/gtest.h>

#include <string>

#include "runtime/emu/rewrite/shared_declarations.hpp"

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
    // __shared__ in a function: its own slot of the static shared arena (static __shared__ alike).
    {"void f() { static __shared__ float s[32]; }",
     "void f() { auto& s = ::kverify::emu::static_shared<float[32]>(0, \"s\", [] {}); }"},
    {"__global__ void k() { __shared__ __align__(16) float tile[64][65]; }",
     "__global__ void k() { auto& tile = ::kverify::emu::static_shared<float[64][65]>((16), \"tile\", [] {}); }"},
    {"void f() { __shared__ typename cub::BlockReduce<float, 256>::TempStorage temp; }",
     "void f() { auto& temp = ::kverify::emu::static_shared<typename cub :: BlockReduce < float , 256 > :: "
     "TempStorage>(0, \"temp\", [] {}); }"},
    {"void f() {\n  __shared__ float\n    total;\n}",
     "void f() {\n  auto& total = ::kverify::emu::static_shared<float>(0, \"total\", [] {});\n\n}"},
    // Left `static` (emu's macro): namespace scope, several declarators, an initializer.
    {"__shared__ float g[8];", "__shared__ float g[8];"},
    {"void f() { __shared__ float a[4], b[4]; }", "void f() { __shared__ float a[4], b[4]; }"},
    // Lines keep their numbers when a declaration spans several.
    {"void f() { extern __shared__\n  float b[]; }\nint line3;",
     "void f() { float (*const b) = reinterpret_cast<decltype(b)>(::kverify::emu::dynamic_shared_memory());\n }\nint "
     "line3;"},
    // Untouched: comments, strings, preprocessor lines, plain __shared__, other externs, and what
    // the rewrite does not understand (left for the compiler to report).
    {"// extern __shared__ float c[];\n/* extern __shared__ float d[]; */ const char* s = \"extern __shared__ x[];\";",
     "// extern __shared__ float c[];\n/* extern __shared__ float d[]; */ const char* s = \"extern __shared__ x[];\";"},
    {"#define DECL extern __shared__ float m[];\nvoid f() { extern int e; }",
     "#define DECL extern __shared__ float m[];\nvoid f() { extern int e; }"},
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
