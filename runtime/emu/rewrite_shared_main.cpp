// kv_emu_rewrite_shared IN OUT: writes IN with its `extern __shared__` / `static __shared__`
// declarations rewritten for the emu backend (rewrite_shared.hpp), starting with a #line
// directive so that diagnostics and barrier sites name IN and its line numbers.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "runtime/emu/rewrite_shared.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: kv_emu_rewrite_shared IN OUT\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "kv_emu_rewrite_shared: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::ofstream out(argv[2], std::ios::binary);
  std::string path = argv[1];
  std::string quoted;
  for (char c : path) {
    if (c == '\\' || c == '"') quoted += '\\';
    quoted += c;
  }
  out << "#line 1 \"" << quoted << "\"\n" << kverify::emu::rewrite_shared_declarations(text.str());
  if (!out) {
    std::cerr << "kv_emu_rewrite_shared: cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
