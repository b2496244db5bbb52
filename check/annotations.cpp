#include "check/annotations.hpp"

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <system_error>

#include "core/home.hpp"
#include "kernels/registry.hpp"

namespace kverify {
namespace {

namespace fs = std::filesystem;

struct Location {
  std::string file;
  long line = 0;
};

// The directories a site's file name is looked up in: those of the registration's sources, or
// for kverify's own variants their kernel folder.
std::vector<fs::path> source_dirs(const Variant& v) {
  std::vector<fs::path> dirs;
  std::string_view rest = v.sources;
  while (!rest.empty()) {
    const auto semi = rest.find(';');
    dirs.push_back(fs::path(std::string(rest.substr(0, semi))).parent_path());
    rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
  }
  if (dirs.empty() && !home().data.empty()) dirs.push_back(home().data / "kernels" / std::string(v.op));
  return dirs;
}

// The first `<file>:<line>` in the message that names a file of the variant's sources.
std::optional<Location> kernel_site(const Variant& v, const std::string& message) {
  static const std::regex site(R"(([A-Za-z0-9_./+-]+\.(cu|cuh|h|hpp|inl|cpp|cc)):([0-9]+))");
  const auto dirs = source_dirs(v);
  for (std::sregex_iterator it(message.begin(), message.end(), site), end; it != end; ++it) {
    const fs::path named((*it)[1].str());
    const long line = std::stol((*it)[3].str());
    std::error_code ec;
    if (named.is_absolute() && fs::is_regular_file(named, ec)) return Location{named.string(), line};
    for (const auto& dir : dirs)
      if (fs::is_regular_file(dir / named.filename(), ec)) return Location{(dir / named.filename()).string(), line};
  }
  return std::nullopt;
}

std::optional<Location> where(const CheckReport::TestCase& t) {
  const auto slash = t.variant.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const Variant* v = find_variant(t.variant.substr(0, slash), t.variant.substr(slash + 1));
  if (!v) return std::nullopt;
  if (auto site = kernel_site(*v, t.message)) return site;
  const std::string at(v->registered_at);
  const auto colon = at.rfind(':');
  if (at.empty()) return std::nullopt;
  if (colon == std::string::npos || colon + 1 == at.size()) return Location{at, 0};
  return Location{at.substr(0, colon), std::atol(at.c_str() + colon + 1)};
}

// A workflow command's data: %, CR and LF escaped; a property's value: also ':' and ','.
std::string escaped(const std::string& s, bool property) {
  std::string out;
  for (const char ch : s) {
    if (ch == '%')
      out += "%25";
    else if (ch == '\r')
      out += "%0D";
    else if (ch == '\n')
      out += "%0A";
    else if (property && ch == ':')
      out += "%3A";
    else if (property && ch == ',')
      out += "%2C";
    else
      out += ch;
  }
  return out;
}

std::string relative_to(const std::string& file, const std::string& workspace) {
  if (workspace.empty()) return file;
  const std::string base = workspace.back() == '/' ? workspace : workspace + "/";
  return file.rfind(base, 0) == 0 ? file.substr(base.size()) : file;
}

}  // namespace

std::vector<std::string> github_annotations(const CheckReport& report, const std::string& workspace, std::size_t most) {
  std::vector<std::string> lines;
  std::size_t failed = 0;
  for (const auto& t : report.testcases) {
    if (t.status != CheckReport::TestCase::Status::failed || ++failed > most) continue;
    std::string properties;
    if (const auto at = where(t)) {
      properties = "file=" + escaped(relative_to(at->file, workspace), true);
      if (at->line > 0) properties += ",line=" + std::to_string(at->line);
      properties += ",";
    }
    constexpr std::size_t kTitleChars = 160, kMessageChars = 4000;  // what GitHub shows whole
    std::string title = "kverify: " + t.variant + " on " + t.backend + ": " + t.name;
    if (title.size() > kTitleChars) title = title.substr(0, kTitleChars - 3) + "...";
    std::string message = t.message + "\nreproduce: " + t.replay;
    if (message.size() > kMessageChars) message = message.substr(0, kMessageChars - 3) + "...";
    lines.push_back("::error " + properties + "title=" + escaped(title, true) + "::" + escaped(message, false));
  }
  if (failed > most)
    lines.push_back("::warning title=kverify::" + std::to_string(failed - most) +
                    " more failures are not annotated: the check's output, its JSON and its JUnit list them all");
  return lines;
}

}  // namespace kverify
