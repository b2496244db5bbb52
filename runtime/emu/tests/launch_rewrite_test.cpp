// The <<<>>> rewrite on tricky inputs; every expected output is written by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "runtime/emu/rewrite/launches.hpp"

namespace {

namespace lr = kverify::emu::launch_rewrite;

struct Golden {
  const char* name;
  const char* input;
  const char* expected;
  int launches;
};

const Golden kGolden[] = {
    {"two config arguments", "k<<<g, b>>>(x, y);", "KVERIFY_EMU_LAUNCH((k), (g, b))(x, y);", 1},
    {"four config arguments", "k<<<g, b, shmem, stream>>>(x);", "KVERIFY_EMU_LAUNCH((k), (g, b, shmem, stream))(x);",
     1},
    {"spaces kept", "  k <<< g , b >>> ( x );", "  KVERIFY_EMU_LAUNCH((k ), ( g , b )) ( x );", 1},
    {"template arguments", "k<T, 4><<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH((k<T, 4>), (g, b))(x);", 1},
    {"nested template arguments", "k<std::array<int, 4>, N><<<1, 32>>>(p);",
     "KVERIFY_EMU_LAUNCH((k<std::array<int, 4>, N>), (1, 32))(p);", 1},
    {"template argument with a comparison in parentheses", "k<(N > 2), T><<<1, 32>>>(p);",
     "KVERIFY_EMU_LAUNCH((k<(N > 2), T>), (1, 32))(p);", 1},
    {"parenthesised kernel", "(k<T, 4>)<<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH(((k<T, 4>)), (g, b))(x);", 1},
    {"qualified name", "ns::k<<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH((ns::k), (g, b))(x);", 1},
    {"global qualification", "::ns::k<<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH((::ns::k), (g, b))(x);", 1},
    {"member of a class template", "Ops<T>::k<<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH((Ops<T>::k), (g, b))(x);", 1},
    {"dependent template", "ns::template k<T><<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH((ns::template k<T>), (g, b))(x);", 1},
    {"member pointer", "this->kernel_<<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH((this->kernel_), (g, b))(x);", 1},
    {"array element", "table[i]<<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH((table[i]), (g, b))(x);", 1},
    {"call result", "pick<T>(n)<<<g, b>>>(x);", "KVERIFY_EMU_LAUNCH((pick<T>(n)), (g, b))(x);", 1},
    {"after a condition", "if (ok) k<<<g, b>>>(x);", "if (ok) KVERIFY_EMU_LAUNCH((k), (g, b))(x);", 1},
    {"parenthesised after a condition", "if (ok) (k<T>)<<<g, b>>>(x);",
     "if (ok) KVERIFY_EMU_LAUNCH(((k<T>)), (g, b))(x);", 1},
    {"after return and else", "return k<<<1, 1>>>(); else k<<<2, 2>>>();",
     "return KVERIFY_EMU_LAUNCH((k), (1, 1))(); else KVERIFY_EMU_LAUNCH((k), (2, 2))();", 2},
    {"dim3 expression", "k<<<dim3((n + 255) / 256), 256, 0, s>>>(x);",
     "KVERIFY_EMU_LAUNCH((k), (dim3((n + 255) / 256), 256, 0, s))(x);", 1},
    {"sizeof of a template with >> inside parentheses", "k<<<grid, block, sizeof(std::array<int, 4>)>>>(x);",
     "KVERIFY_EMU_LAUNCH((k), (grid, block, sizeof(std::array<int, 4>)))(x);", 1},
    {"nested templates closing with >>> in the configuration", "k<<<g, b, X<Y<Z<int>>>::value>>>(x);",
     "KVERIFY_EMU_LAUNCH((k), (g, b, X<Y<Z<int>>>::value))(x);", 1},
    {"comparison in the configuration", "k<<<n < 256 ? 1 : 2, 32>>>(x);",
     "KVERIFY_EMU_LAUNCH((k), (n < 256 ? 1 : 2, 32))(x);", 1},
    {"greater-than in the configuration", "k<<<n > 256 ? 2 : 1, 32>>>(x);",
     "KVERIFY_EMU_LAUNCH((k), (n > 256 ? 2 : 1, 32))(x);", 1},
    {"shift in the configuration", "k<<<(n >> 8) + 1, 1 << 8>>>(x);",
     "KVERIFY_EMU_LAUNCH((k), ((n >> 8) + 1, 1 << 8))(x);", 1},
    {"brace initialiser in the configuration", "k<<<dim3{4, 2}, block>>>(x);",
     "KVERIFY_EMU_LAUNCH((k), (dim3{4, 2}, block))(x);", 1},
    {"lambda in the arguments", "k<<<1, 1>>>([] { return 1; }());",
     "KVERIFY_EMU_LAUNCH((k), (1, 1))([] { return 1; }());", 1},
    {"arguments are untouched", "k<<<1, 1>>>(a < b, c >> 2, std::pair<int, int>{1, 2});",
     "KVERIFY_EMU_LAUNCH((k), (1, 1))(a < b, c >> 2, std::pair<int, int>{1, 2});", 1},
    {"two launches on a line", "a<<<1, 2>>>(x); b<T><<<3, 4>>>(y);",
     "KVERIFY_EMU_LAUNCH((a), (1, 2))(x); KVERIFY_EMU_LAUNCH((b<T>), (3, 4))(y);", 1 + 1},
    {"line comment holds a launch", "// k<<<g, b>>>(x);\nk<<<g, b>>>(x);",
     "// k<<<g, b>>>(x);\nKVERIFY_EMU_LAUNCH((k), (g, b))(x);", 1},
    {"block comment holds a launch", "/* k<<<g, b>>>(x); */ k<<<g, b>>>(x);",
     "/* k<<<g, b>>>(x); */ KVERIFY_EMU_LAUNCH((k), (g, b))(x);", 1},
    {"comment between kernel and launch", "k /* kernel */ <<<g, b>>>(x);",
     "KVERIFY_EMU_LAUNCH((k /* kernel */ ), (g, b))(x);", 1},
    {"string literal holds a launch", "puts(\"k<<<g, b>>>(x)\"); k<<<1, 1>>>();",
     "puts(\"k<<<g, b>>>(x)\"); KVERIFY_EMU_LAUNCH((k), (1, 1))();", 1},
    {"escaped quote in a string", "puts(\"\\\"<<<\"); k<<<1, 1>>>();",
     "puts(\"\\\"<<<\"); KVERIFY_EMU_LAUNCH((k), (1, 1))();", 1},
    {"raw string holds a launch and a quote", "auto s = R\"x(k<<<g, b>>>(\"y\"))x\"; k<<<1, 1>>>();",
     "auto s = R\"x(k<<<g, b>>>(\"y\"))x\"; KVERIFY_EMU_LAUNCH((k), (1, 1))();", 1},
    {"character literals", "char c = '<', d = '\\''; k<<<1, 1>>>(c);",
     "char c = '<', d = '\\''; KVERIFY_EMU_LAUNCH((k), (1, 1))(c);", 1},
    {"digit separators are no character literal", "int n = 1'000'000; k<<<n / 256, 256>>>(n);",
     "int n = 1'000'000; KVERIFY_EMU_LAUNCH((k), (n / 256, 256))(n);", 1},
    {"operator<< with explicit template arguments", "os = operator<<<T>(os, v);", "os = operator<<<T>(os, v);", 0},
    {"stream output is no launch", "std::cout << a << b;", "std::cout << a << b;", 0},
    {"launch in a macro body", "#define LAUNCH(k, n) k<<<(n + 255) / 256, 256>>>(n)\nLAUNCH(f, 10);",
     "#define LAUNCH(k, n) KVERIFY_EMU_LAUNCH((k), ((n + 255) / 256, 256))(n)\nLAUNCH(f, 10);", 1},
    {"launch in a continued macro body", "#define L(k) \\\n  k<<<1, \\\n    32>>>(p)\nint x;",
     "#define L(k) \\\n  KVERIFY_EMU_LAUNCH((k), (1, \\\n    32))(p)\nint x;", 1},
    {"token pasting in a macro body", "#define L(name) name##_kernel<<<1, 32>>>(p)",
     "#define L(name) KVERIFY_EMU_LAUNCH((name##_kernel), (1, 32))(p)", 1},
    {"configuration from __VA_ARGS__", "#define L(...) k<<<__VA_ARGS__>>>(p)",
     "#define L(...) KVERIFY_EMU_LAUNCH((k), (__VA_ARGS__))(p)", 1},
    {"launch inside a macro argument", "CHECK(k<<<g, b>>>(x));", "CHECK(KVERIFY_EMU_LAUNCH((k), (g, b))(x));", 1},
    {"template kernel inside a macro argument", "CHECK(k<float, 4><<<g, b>>>(x));",
     "CHECK(KVERIFY_EMU_LAUNCH((k<float, 4>), (g, b))(x));", 1},
    {"directive before a launch", "#include <x.h>\nk<<<1, 1>>>();",
     "#include <x.h>\nKVERIFY_EMU_LAUNCH((k), (1, 1))();", 1},
    {"launch split over lines", "k<<<grid,\n    block>>>(\n  x);",
     "KVERIFY_EMU_LAUNCH((k), (grid,\n    block))(\n  x);", 1},
    {"apostrophe in #error does not swallow the file", "#error don't\nk<<<1, 1>>>();",
     "#error don't\nKVERIFY_EMU_LAUNCH((k), (1, 1))();", 1},
    {"header name with odd characters", "#include <a'b>\nk<<<1, 1>>>();",
     "#include <a'b>\nKVERIFY_EMU_LAUNCH((k), (1, 1))();", 1},
    {"spliced line comment", "// a \\\n k<<<1, 1>>>();\nk<<<2, 2>>>();",
     "// a \\\n k<<<1, 1>>>();\nKVERIFY_EMU_LAUNCH((k), (2, 2))();", 1},
    {"CRLF line ends", "k<<<1,\r\n 1>>>();\r\n", "KVERIFY_EMU_LAUNCH((k), (1,\r\n 1))();\r\n", 1},
    {"byte order mark dropped", "\xEF\xBB\xBFk<<<1, 1>>>();", "KVERIFY_EMU_LAUNCH((k), (1, 1))();", 1},
};

TEST(EmuLaunchRewrite, GoldenOutputs) {
  for (const Golden& g : kGolden) {
    const lr::Result r = lr::rewrite(g.input);
    EXPECT_EQ(r.text, g.expected) << g.name;
    EXPECT_EQ(r.launches, g.launches) << g.name;
    EXPECT_TRUE(r.warnings.empty()) << g.name << ": " << (r.warnings.empty() ? "" : r.warnings[0].message);
  }
}

TEST(EmuLaunchRewrite, KeepsEveryLineWhereItWas) {
  for (const Golden& g : kGolden) {
    const std::string in = g.input;
    const std::string out = lr::rewrite(g.input).text;
    EXPECT_EQ(std::count(in.begin(), in.end(), '\n'), std::count(out.begin(), out.end(), '\n')) << g.name;
  }
}

struct Unreadable {
  const char* name;
  const char* input;
  int line;
  const char* says;
};

// What looks like a launch but cannot be read as one is left as written, with a warning naming
// the line; the compiler then stops there if the code is compiled at all (it may sit in #if 0).
const Unreadable kUnreadable[] = {
    {"no kernel before <<<", "x = <<<1, 1>>>();", 1, "kernel expression"},
    {"no closing >>>", "\nk<<<1, 1>>(x);", 2, "no '>>>'"},
    {"no argument list", "k<<<1, 1>>>;", 1, "argument list"},
    {"kernel after a unary operator", "*k<<<1, 1>>>();", 1, ""},
};

TEST(EmuLaunchRewrite, WarnsAndLeavesUnreadableLaunches) {
  for (const Unreadable& u : kUnreadable) {
    const lr::Result r = lr::rewrite(u.input);
    if (std::string(u.says).empty()) {
      // A kernel written after `*`: the rewrite takes `k` as the kernel (documented limit).
      EXPECT_EQ(r.text, "*KVERIFY_EMU_LAUNCH((k), (1, 1))();") << u.name;
      continue;
    }
    EXPECT_EQ(r.text, u.input) << u.name;
    EXPECT_EQ(r.launches, 0) << u.name;
    ASSERT_EQ(r.warnings.size(), 1u) << u.name;
    EXPECT_EQ(r.warnings[0].line, u.line) << u.name;
    EXPECT_NE(r.warnings[0].message.find(u.says), std::string::npos) << u.name << ": " << r.warnings[0].message;
  }
}

TEST(EmuLaunchRewrite, CollectsQuoteIncludesOnly) {
  const lr::Result r = lr::rewrite(
      "#include \"a.cuh\"\n#include <vector>\n  #  include \"sub/b.cuh\"\n#define H \"c.h\"\n#include H\n"
      "// #include \"commented.h\"\nconst char* s = \"#include \\\"no.h\\\"\";\n#include_next \"d.h\"\n");
  const std::vector<std::string> want{"a.cuh", "sub/b.cuh", "d.h"};
  EXPECT_EQ(r.quote_includes, want);
}

TEST(EmuLaunchRewrite, EmitNamesTheOriginalFileAndIncludesTheMacroOnlyWhenNeeded) {
  EXPECT_EQ(lr::emit(lr::rewrite("k<<<1, 1>>>();\n"), "/src/my \"op\".cu"),
            "#include \"runtime/emu/model/launch_syntax.hpp\"\n#line 1 \"/src/my \\\"op\\\".cu\"\n"
            "KVERIFY_EMU_LAUNCH((k), (1, 1))();\n");
  EXPECT_EQ(lr::emit(lr::rewrite("int x;\n"), "/src/h.cuh"), "#line 1 \"/src/h.cuh\"\nint x;\n");
  EXPECT_EQ(
      lr::emit(lr::rewrite("k<<<1, 1>>>();"), "/a.cu", "/kv/runtime/emu/model/launch_syntax.hpp"),
      "#include \"/kv/runtime/emu/model/launch_syntax.hpp\"\n#line 1 \"/a.cu\"\nKVERIFY_EMU_LAUNCH((k), (1, 1))();");
}

}  // namespace
