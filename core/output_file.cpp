#include "core/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace kverify {
namespace {

std::string temporary_beside(const std::string& path) {
  return path + ".kverify-tmp-" + std::to_string(static_cast<long>(getpid()));
}

std::optional<std::string> write_whole(const std::string& path, std::string_view text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return std::string(std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int write_errno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written) return std::string(std::strerror(write_errno));
  if (!closed) return std::string(std::strerror(errno));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> OutputFiles::commit() {
  std::vector<std::string> staged;
  const auto discard = [&] {
    for (const auto& t : staged) std::remove(t.c_str());
  };
  for (const auto& [path, text] : files_) {
    const std::string tmp = temporary_beside(path);
    if (const auto why = write_whole(tmp, text)) {
      std::remove(tmp.c_str());
      discard();
      return "cannot write " + path + ": " + *why;
    }
    staged.push_back(tmp);
  }
  for (std::size_t i = 0; i < files_.size(); ++i)
    if (std::rename(staged[i].c_str(), files_[i].first.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      for (std::size_t k = i; k < staged.size(); ++k) std::remove(staged[k].c_str());
      return "cannot write " + files_[i].first + ": " + why;
    }
  files_.clear();
  return std::nullopt;
}

std::optional<std::string> write_output_file(const std::string& path, std::string_view text) {
  OutputFiles out;
  out.add(path, std::string(text));
  return out.commit();
}

std::optional<std::string> output_path_problem(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path + " is a folder (accepted: a file path)";
  const fs::path dir = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::is_directory(dir, ec)) return "cannot write " + path + ": the folder " + dir.string() + " does not exist";
  const std::string probe = temporary_beside((dir / ".kverify-probe").string());
  if (const auto why = write_whole(probe, "")) return "cannot write into " + dir.string() + ": " + *why;
  std::remove(probe.c_str());
  return std::nullopt;
}

}  // namespace kverify
