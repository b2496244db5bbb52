// `kverify new <op> <name>`: a variant folder that builds and passes `kverify check` as it is, for
// the user to make theirs; `kverify new op <name>`: an op folder of their own (kverify_add_op).
// Here: the options, the launcher per op and signature, the checks; the files are written by
// tools/scaffold/write_scaffold.cpp.
#include "core/error.hpp"
#include "core/op_spec.hpp"
#include "kernels/registry.hpp"
#include "tools/command.hpp"
#include "tools/scaffold/write_scaffold.hpp"

namespace kverify::cli {
namespace {

// The launcher of one op in one signature (kernels/signatures.def): the user's function
// `launch<T>` in that signature's arguments, calling the scaffold kernel's own strided entry.
struct Launcher {
  std::string_view op, signature, text;
};

constexpr Launcher kLaunchers[] = {
    {"softmax", "strided_2d",
     "template <typename T>\nvoid launch(const T* x, T* y, long long rows, long long cols, long long x_row_stride,\n"
     "            long long x_col_stride, long long y_row_stride, long long y_col_stride, cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, x_row_stride, x_col_stride, y_row_stride, y_col_stride, stream);\n}\n"},
    {"softmax", "rows_strided",
     "template <typename T>\nvoid launch(const T* x, T* y, int rows, int cols, long long x_row_stride, long long "
     "y_row_stride,\n            cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, x_row_stride, 1, y_row_stride, 1, stream);\n}\n"},
    {"softmax", "rows",
     "template <typename T>\nvoid launch(const T* x, T* y, int rows, int cols, cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, cols, 1, cols, 1, stream);\n}\n"},
    {"gelu_tanh", "strided_2d",
     "template <typename T>\nvoid launch(const T* x, T* y, long long rows, long long cols, long long x_row_stride,\n"
     "            long long x_col_stride, long long y_row_stride, long long y_col_stride, cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, x_row_stride, x_col_stride, y_row_stride, y_col_stride, stream);\n}\n"},
    {"gelu_tanh", "rows_strided",
     "template <typename T>\nvoid launch(const T* x, T* y, int rows, int cols, long long x_row_stride, long long "
     "y_row_stride,\n            cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, x_row_stride, 1, y_row_stride, 1, stream);\n}\n"},
    {"gelu_tanh", "rows",
     "template <typename T>\nvoid launch(const T* x, T* y, int rows, int cols, cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, cols, 1, cols, 1, stream);\n}\n"},
    {"gelu_tanh", "flat",
     "template <typename T>\nvoid launch(const T* x, T* y, long long n, cudaStream_t stream) {\n"
     "  launch_rows(x, y, 1, n, n, 1, n, 1, stream);\n}\n"},
    {"row_sum", "row_reduce_strided",
     "template <typename T>\nvoid launch(const T* x, T* y, long long rows, long long cols, long long x_row_stride,\n"
     "            long long x_col_stride, long long y_stride, cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, x_row_stride, x_col_stride, y_stride, stream);\n}\n"},
    {"row_sum", "rows_strided",
     "template <typename T>\nvoid launch(const T* x, T* y, int rows, int cols, long long x_row_stride, long long "
     "y_row_stride,\n            cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, x_row_stride, 1, y_row_stride, stream);\n}\n"},
    {"row_sum", "rows",
     "template <typename T>\nvoid launch(const T* x, T* y, int rows, int cols, cudaStream_t stream) {\n"
     "  launch_rows(x, y, rows, cols, cols, 1, 1, stream);\n}\n"},
    {"matmul_relu", "blas_row_major",
     "// BLAS-style, row-major: lda, ldb and ldc are the distances between rows in elements.\n"
     "template <typename T>\nvoid launch(int M, int N, int K, const T* A, int lda, const T* B, int ldb, T* C, int "
     "ldc,\n"
     "            cudaStream_t stream) {\n"
     "  launch_matrices(M, N, K, A, {lda, 1}, B, {ldb, 1}, C, {ldc, 1}, stream);\n}\n"},
    {"matmul_relu", "blas_col_major",
     "// BLAS-style, column-major: lda, ldb and ldc are the distances between columns in elements.\n"
     "template <typename T>\nvoid launch(int M, int N, int K, const T* A, int lda, const T* B, int ldb, T* C, int "
     "ldc,\n"
     "            cudaStream_t stream) {\n"
     "  launch_matrices(M, N, K, A, {1, lda}, B, {1, ldb}, C, {1, ldc}, stream);\n}\n"},
};

// Per op: the default signature (the first of kLaunchers), the registration's limits (the
// scaffold kernel's grid: rows per grid.x, or M per grid.y) and its one-line strategy.
struct OpScaffold {
  std::string_view op, limits, strategy;
};
constexpr OpScaffold kOps[] = {
    {"softmax", " MAX_ROWS 2147483647", "scaffold: a block per row, three passes, shared-memory tree reductions"},
    {"gelu_tanh", "", "scaffold: a grid-stride loop over the elements"},
    {"row_sum", " MAX_ROWS 17179869176", "scaffold: a warp per row, a butterfly of shuffles"},
    {"matmul_relu", " MAX_ROWS 1048560", "scaffold: one thread per element of C, the K products in order"},
};

// An op folder: the op (a scaffold op of two inputs, a parameter and one output) and a kernel of
// it, `kverify new op <name>`.
int new_op_folder(const ParsedOptions& o, const std::string& name) {
  if (find_op(name))
    throw InputError("op " + shown(name) + " exists already (accepted: a new op's name; `kverify new " + name +
                     " <kernel>` scaffolds a kernel of it)");
  if (o.has("--signature"))
    throw InputError("--signature is a kernel folder's (an op folder's kernel takes SIGNATURE tensors)");
  return write_scaffold({o.text("--dir", name), name, name, "tensors", "", "", "", true});
}

int new_variant_folder(const ParsedOptions& o) {
  const std::string& op = o.operands.at(0);
  const std::string& name = o.operands.at(1);
  bool identifier = !name.empty() && (name[0] == '_' || (name[0] >= 'a' && name[0] <= 'z'));
  for (char c : name) identifier = identifier && (c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));
  if (!identifier)
    throw InputError("name " + shown(name) +
                     " is not a lower-case identifier (accepted: [a-z_][a-z0-9_]*, e.g. my_kernel; it names the "
                     "variant (or the op), the folder, the .cu and its namespace)");
  // The name is also a C++ namespace in the scaffold's .cu: a keyword does not compile.
  static constexpr std::string_view kKeywords[] = {
      "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
      "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
      "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
      "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
      "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
      "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
      "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
      "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
      "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
      "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
      "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
      "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
      "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
      "xor_eq"};
  for (std::string_view keyword : kKeywords)
    if (name == keyword)
      throw InputError("name " + shown(name) +
                       " is a C++ keyword (accepted: a lower-case identifier that is not one, e.g. my_" + name +
                       "; it names the .cu's namespace)");
  if (op == "op") return new_op_folder(o, name);
  if (const Variant* taken = find_variant(op, name))
    throw InputError("variant " + op + "/" + name + " exists already" +
                     (taken->mutant ? " (a mutant or cheat of this build)" : " (one of kverify's own)") +
                     ": a registration of that name would collide with it (accepted: a name no variant of op " + op +
                     " has; `kverify list --op " + op + "` shows them)");
  const OpScaffold* spec = nullptr;
  std::string ops;
  for (const auto& s : kOps) {
    if (s.op == op) spec = &s;
    ops += (ops.empty() ? "" : ", ") + std::string(s.op);
  }
  if (!spec || !find_op(op))
    throw InputError("unknown op " + shown(op) + " (accepted: " + ops +
                     "; or op, for an op folder of your own: kverify new op <name>)");
  std::string signature;
  std::string signatures;
  const Launcher* launcher = nullptr;
  for (const auto& l : kLaunchers) {
    if (l.op != op) continue;
    signatures += (signatures.empty() ? "" : ", ") + std::string(l.signature);
    if (!launcher && (!o.has("--signature") || *o.get("--signature") == l.signature)) launcher = &l;
  }
  if (!launcher)
    throw InputError("--signature " + shown(*o.get("--signature")) + " is not one the " + op +
                     " scaffold is written in (accepted: " + signatures + "; `kverify help signatures`)");

  return write_scaffold({o.text("--dir", name), op, name, std::string(launcher->signature), std::string(launcher->text),
                         std::string(spec->limits), std::string(spec->strategy), false});
}

std::string signature_check(std::string_view value) {
  for (const auto& l : kLaunchers)
    if (l.signature == value) return "";
  std::string all;
  for (const auto& l : kLaunchers)
    if (all.find(l.signature) == std::string::npos) all += (all.empty() ? "" : ", ") + std::string(l.signature);
  return all;
}

constexpr Option kNewOptions[] = {
    {"--signature", "NAME", ValueKind::text,
     "the launcher's signature (`kverify help signatures`); default: the op's most general", "", "", 0, 0,
     &signature_check},
    {"--dir", "DIR", ValueKind::text, "the folder to create", "./<name>"},
};

}  // namespace

const Command kNewCommand{
    "new",
    {"<op> <name>", 2, 2},
    "scaffold a kernel folder, or with `op` an op folder of your own, that passes check as it is",
    "kverify new <op> <name>: <dir>/CMakeLists.txt (kverify_add_kernel and kverify_add_tests),\n"
    "<dir>/<name>.cu (a correct kernel of the op and its launcher in the chosen signature,\n"
    "float/__half/__nv_bfloat16) and <dir>/README.md (how to build it against this kverify, run its\n"
    "ctest, and make it yours):\n"
    "  kverify new softmax my_kernel\n"
    "kverify new op <name>: an op of your own, declared with kverify_add_op (docs/your-op.md):\n"
    "<dir>/CMakeLists.txt, <dir>/<name>_op.cpp (the op: dimensions, tensors, a parameter, reference,\n"
    "tolerance, eager composition), <dir>/<name>.cu (a kernel of it, SIGNATURE tensors), README.md:\n"
    "  kverify new op my_norm\n"
    "Never writes into a folder that has files.\n",
    kNewOptions,
    "0 created, 2 bad input (an unknown op or signature, a bad name, a folder that has files)",
    &new_variant_folder};

}  // namespace kverify::cli
