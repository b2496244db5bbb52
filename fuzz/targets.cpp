#include "fuzz/targets.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <typeinfo>

#include "core/error.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"

namespace kverify::fuzz {

LinkedTarget& linked_target(Kind kind) {
  static LinkedTarget cli, report_json, none;
  return kind == Kind::cli ? cli : kind == Kind::report_json ? report_json : none;
}

namespace {

// A target per op, in the op table's order, then the text targets and the planted-bug demo.
const std::vector<Target>& targets() {
  static const std::vector<Target> all = [] {
    std::vector<Target> t;
    for (const OpSpec* op : all_ops()) t.push_back({op->name, Kind::op, op});
    t.push_back({"case_parser", Kind::case_parser});
    t.push_back({"cli", Kind::cli});
    t.push_back({"report_json", Kind::report_json});
    // softmax/warp_per_row with its tail lanes' max padded with 0 (kernels/softmax/mutants).
    t.push_back({"softmax_planted", Kind::op, find_op("softmax"), "mutant_tail_zero_padding"});
    return t;
  }();
  return all;
}

std::string one_line(std::string_view text, std::size_t limit = 160) {
  std::string out;
  for (char ch : text.substr(0, limit)) {
    if (ch == '\n')
      out += "\\n";
    else if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(ch));
      out += buf;
    } else
      out += ch;
  }
  if (text.size() > limit) out += "...";
  return out;
}

}  // namespace

DecodeOptions decode_options(const Target& t, const RunOptions& o) {
  DecodeOptions d;
  d.op = t.op;
  d.backend = o.backend;
  if (!t.planted.empty()) {
    d.variants.push_back(find_variant(t.op->name, t.planted));
    d.allow_auto = false;
  } else {
    d.variants = fuzzable_variants(*t.op, o.backend);
  }
  d.pinned = o.pinned;
  return d;
}

namespace {

// Runs a decoded (or parsed) Case. Every outcome other than PASS is a finding.
InputResult run_op_case(const Target& t, const Case& c) {
  InputResult r;
  r.case_line = c.to_text();
  Verdict v;
  try {
    v = run_case(c);
  } catch (const InputError& e) {
    r.finding = true;
    r.summary = "REJECTED";
    r.report = std::string("the fuzz decoder produced a Case that run_case rejects (a decoder bug): ") + e.what();
    return r;
  } catch (const std::exception& e) {
    r.finding = true;
    r.summary = "EXCEPTION";
    r.report = std::string("run_case threw ") + typeid(e).name() + ": " + e.what() + "\n  case: " + r.case_line;
    return r;
  }
  r.case_line = v.reproduce;
  r.summary = std::string(name(v.outcome));
  if (v.outcome == Outcome::pass) return r;
  r.finding = true;
  r.report = format(v);
  if (v.outcome == Outcome::skipped)
    r.report = "a skipped Verdict while fuzzing " + std::string(t.name) + " (the backend must be present): " + r.report;
  return r;
}

InputResult run_parser_input(std::string_view text) {
  InputResult r;
  r.case_line = one_line(text);
  try {
    const Case c = parse_case(text);
    const std::string canonical = c.to_text();
    const Case again = parse_case(canonical);
    if (!(again == c) || again.to_text() != canonical) {
      r.finding = true;
      r.report = "the Case text does not round-trip: '" + one_line(text) + "' parses to '" + canonical +
                 "', which parses to '" + again.to_text() + "'";
      return r;
    }
    // What every consumer does next with a parsed Case must hold too.
    for (int t = 0; t < c.op->tensor_count(); ++t) static_cast<void>(c.layout(t).footprint());
    std::string why;
    static_cast<void>(choose_variant(c, &why));
    for (const auto& v : all_variants())
      if (v.op == c.op->name)
        for (Backend b : {Backend::emu, Backend::cuda}) static_cast<void>(unsupported(v, c, b));
    r.summary = "parsed: " + canonical;
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (message.empty() || message.find('\n') != std::string::npos) {
      r.finding = true;
      r.report = "InputError is not one line: '" + one_line(message) + "' for input '" + one_line(text) + "'";
      return r;
    }
    r.summary = "InputError: " + message;
  } catch (const std::exception& e) {
    r.finding = true;
    r.report = std::string("parse_case threw ") + typeid(e).name() + " (not an InputError): " + e.what() +
               " for input '" + one_line(text) + "'";
  }
  return r;
}

bool has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool read_file(const std::filesystem::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace

namespace {
bool is_linked(Kind kind) { return kind == Kind::cli || kind == Kind::report_json; }
}  // namespace

const Target* find_target(std::string_view name) {
  for (const auto& t : targets())
    if (t.name == name) return is_linked(t.kind) && !linked_target(t.kind).run ? nullptr : &t;
  return nullptr;
}

const Variant* variant_for(const Target& t, std::string_view name, Backend backend) {
  if (t.kind != Kind::op) throw InputError("target " + std::string(t.name) + " has no variants");
  std::string known;
  const DecodeOptions d = decode_options(t, RunOptions{backend, nullptr});
  for (const Variant* v : d.variants) {
    if (v->name == name) return v;
    known += (known.empty() ? "" : ", ") + std::string(v->name);
  }
  // A mutant of the op, named explicitly (./kverify mutants fuzzes each one): never fuzzed unasked.
  if (t.planted.empty())
    for (const auto& v : mutant_variants())
      if (v.op == t.op->name && v.name == name) {
        if (backend == Backend::emu && !v.on_emu) break;
        if (backend == Backend::cuda && !v.launch_cuda) break;
        return &v;
      }
  throw InputError("unknown variant '" + std::string(name) + "' for target " + std::string(t.name) + " on " +
                   std::string(kverify::name(backend)) + " (accepted: " + known + ", or a mutant of the op)");
}

RunOptions options_from_environment(const Target& t) {
  RunOptions o;
  if (const char* b = std::getenv("KVERIFY_FUZZ_BACKEND"); b && *b) {
    const std::string_view s = b;
    if (s == "emu")
      o.backend = Backend::emu;
    else if (s == "cuda")
      o.backend = Backend::cuda;
    else
      throw InputError("KVERIFY_FUZZ_BACKEND=" + std::string(s) + ": accepted emu, cuda");
  }
  if (const char* v = std::getenv("KVERIFY_FUZZ_VARIANT"); v && *v) o.pinned = variant_for(t, v, o.backend);
  return o;
}

InputResult run_input(const Target& t, const std::uint8_t* data, std::size_t size, const RunOptions& o) {
  try {
    switch (t.kind) {
      case Kind::case_parser:
        return run_parser_input(std::string_view(reinterpret_cast<const char*>(data), size));
      case Kind::cli:
      case Kind::report_json: {
        const LinkedTarget& linked = linked_target(t.kind);
        if (!linked.run) throw std::logic_error("target " + std::string(t.name) + " is not linked into this binary");
        return linked.run(data, size);
      }
      case Kind::op: {
        const Decoded d = decode_case(data, size, decode_options(t, o));
        return run_op_case(t, d.c);
      }
    }
  } catch (const std::exception& e) {  // the decoder's own consistency checks
    InputResult r;
    r.finding = true;
    r.summary = "EXCEPTION";
    r.report = std::string(typeid(e).name()) + ": " + e.what();
    return r;
  }
  return {};
}

InputResult run_case_line(const Target& t, std::string_view line, const RunOptions& o) {
  if (t.kind != Kind::op) return run_input(t, reinterpret_cast<const std::uint8_t*>(line.data()), line.size(), o);
  InputResult r;
  try {
    Case c = parse_case(line);
    if (c.op != t.op)
      throw InputError("the Case's op is " + std::string(c.op->name) + ", not target " + std::string(t.name) + "'s");
    if (c.backend == Backend::automatic) c.backend = o.backend;
    return run_op_case(t, c);
  } catch (const InputError& e) {
    r.finding = true;
    r.summary = "BAD CASE";
    r.case_line = one_line(line);
    r.report = std::string("the Case line cannot be run: ") + e.what();
  }
  return r;
}

std::string decode_only(const Target& t, const std::uint8_t* data, std::size_t size, const RunOptions& o) {
  if (t.kind != Kind::op) return one_line(std::string_view(reinterpret_cast<const char*>(data), size), 4096);
  try {
    Decoded d = decode_case(data, size, decode_options(t, o));
    return d.c.to_text();
  } catch (const std::exception& e) {
    return std::string("(cannot decode: ") + e.what() + ")";
  }
}

int replay(const Target& t, std::span<const std::string> paths, const RunOptions& o) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file() && e.path().filename().string().front() != '.') files.push_back(e.path());
    } else if (fs::is_regular_file(p, ec)) {
      files.emplace_back(p);
    } else {
      std::fprintf(stderr, "replay: cannot read '%s' (not a file or folder)\n", p.c_str());
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  int passed = 0, findings = 0, skipped_notes = 0;
  for (const auto& f : files) {
    if (f.filename() == "README.md") continue;
    std::string bytes;
    if (!read_file(f, bytes)) {
      std::fprintf(stderr, "replay: cannot read '%s'\n", f.c_str());
      return 2;
    }
    const bool case_file = has_suffix(f.string(), ".case") && t.kind == Kind::op;
    if (case_file)
      while (!bytes.empty() && (bytes.back() == '\n' || bytes.back() == '\r' || bytes.back() == ' ')) bytes.pop_back();
    const std::string shown =
        case_file ? one_line(bytes)
                  : decode_only(t, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), o);
    std::printf("%s\n  %s%s ... ", f.c_str(), t.kind == Kind::op ? "case: " : "input: ", shown.c_str());
    std::fflush(stdout);
    const auto start = std::chrono::steady_clock::now();
    const InputResult r = case_file
                              ? run_case_line(t, bytes, o)
                              : run_input(t, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), o);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r.finding) {
      ++findings;
      std::printf("FINDING\n%s\n", r.report.c_str());
      if (t.kind == Kind::op) std::printf("  case line: %s\n", r.case_line.c_str());
    } else {
      ++passed;
      if (r.summary.starts_with("skipped")) ++skipped_notes;
      std::printf("%s (%.3f s)\n", r.summary.c_str(), took);
    }
    std::fflush(stdout);
  }
  std::printf(
      "replayed %zu input(s) of %s: %d without finding%s, %d finding(s)\n", static_cast<std::size_t>(passed + findings),
      std::string(t.name).c_str(), passed,
      skipped_notes ? (" (" + std::to_string(skipped_notes) + " not run: too big for this target)").c_str() : "",
      findings);
  return findings ? 1 : 0;
}

std::vector<std::string> seed_lines(const Target& t) {
  std::vector<std::string> out;
  // The text targets' seeds: well-formed lines of every op, then the malformed ones the parsers
  // must refuse with one line.
  if (t.kind == Kind::case_parser) {
    for (const OpSpec* op : all_ops()) {
      const std::string base = "op=" + std::string(op->name) + " " + op->example_token();
      const std::string first(op->tensors.front().name),
          last(op->tensors[static_cast<std::size_t>(op->first_output())].name);
      out.push_back(base);
      out.push_back(base + " dtype=bf16 " + first + ".offset=5 values=negative:30 seed=7 backend=emu schedule=9");
      out.push_back(base + " " + last + ".strides=1,1");  // output elements that share an address
      out.push_back(boundary_case_lines(*op).front());
    }
    const std::string op = "op=" + std::string(all_ops()[0]->name);
    for (const char* rest :
         {" shape=0x5", " shape=3x10 x.strides=9223372036854775807,1", " shape=3x10 values=int:1e16",
          " shape=1x1 seed=18446744073709551616", " shape=1x1 values=const:nan", " shape=1x1 q.offset=1"})
      out.push_back(op + rest);
    out.push_back(op + " " + op + " shape=1x1");  // op given twice
    for (const char* line : {"op=nosuch", "shape=3x3", ""}) out.emplace_back(line);
    return out;
  }
  if (is_linked(t.kind)) return linked_target(t.kind).seeds ? linked_target(t.kind).seeds() : out;
  if (!t.planted.empty()) return {};  // the demo starts from nothing: the fuzzer must find the bug itself
  // The op's boundary Cases (the ones `kverify check` runs), those the decoder can produce, but for
  // those past the grid limits (65537 rows: as many blocks for a block-per-row kernel). The decoder
  // draws such a Case about once in 10^4 by design, as one costs seconds on emu (20 s under ASan);
  // as a seed it would cost every run of the target that much at its start. check runs it.
  const DecodeOptions d = decode_options(t, RunOptions{});
  for (const auto& line : boundary_case_lines(*t.op)) {
    try {
      const Case c = parse_case(line);
      static_cast<void>(encode_case(c, d));
      if (!past_grid_limits(c)) out.push_back(line);
    } catch (const InputError&) {  // past the decoder's size limits
    }
  }
  return out;
}

int write_seeds(const Target& t, const std::string& dir, const RunOptions& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "write-seeds: cannot create '%s': %s\n", dir.c_str(), ec.message().c_str());
    return 2;
  }
  const auto lines = seed_lines(t);
  int n = 0;
  for (const auto& line : lines) {
    std::vector<std::uint8_t> bytes;
    if (t.kind == Kind::op) {
      try {
        bytes = encode_case(parse_case(line), decode_options(t, o));
      } catch (const InputError& e) {
        std::fprintf(stderr, "write-seeds: %s\n", e.what());
        return 2;
      }
    } else {
      bytes.assign(line.begin(), line.end());
    }
    char name[32];
    std::snprintf(name, sizeof name, "seed-%03d", n++);
    std::ofstream out(fs::path(dir) / name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::fprintf(stderr, "write-seeds: cannot write %s/%s\n", dir.c_str(), name);
      return 2;
    }
    std::printf("%s/%s  %s\n", dir.c_str(), name, t.kind == Kind::op ? line.c_str() : one_line(line).c_str());
  }
  return 0;
}

}  // namespace kverify::fuzz
