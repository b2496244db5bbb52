#include "core/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace kverify {

std::string read_bounded(const std::string& path, std::size_t max_bytes, const std::string& accepted) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(shown(path) + " is a folder (accepted: " + accepted + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError("cannot read " + shown(path) + ": " + std::strerror(errno) + " (accepted: " + accepted + ")");
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes)
      throw InputError(shown(path) + " holds more than " + std::to_string(max_bytes) +
                       " bytes, more than any such file kverify writes (accepted: " + accepted + ")");
  }
  if (in.bad()) throw InputError("cannot read " + shown(path) + " (accepted: " + accepted + ")");
  return text;
}

}  // namespace kverify
