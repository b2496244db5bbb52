// What `kverify check` found, printed as tables and written as JSON.
#pragma once

#include <string>
#include <vector>

namespace kverify {

struct CheckReport {
  struct BoundaryRow {
    std::string backend, variant, dtype;  // variant: "op/name"
    int cases = 0, passed = 0;
    int noted = 0;  // of the passed: with an accuracy note
    double worst_ulp = 0, worst_margin = 0, worst_baseline = 0;
    int skipped = 0;          // outside what the variant takes (its declared domain, its limits): not run
    std::string skip_reason;  // the first such Case's reason
  };
  struct PropertyRow {
    std::string backend, property, variant;
    long cases = 0, passed = 0;
    double worst_margin = 0;
    bool ok = true;
    long pinned = 0, moved = 0, outside = 0;  // Cases pinned; moved inside the declared domain; not taken
    long noted = 0;                           // of the passed: with an accuracy note
  };
  struct Failure {
    std::string backend, what, message, replay;
    // Case lines its process ran before the failing Case first ran, in order: the process's first
    // and the last kMostBefore (an isolated check's children say them): what a failure that does
    // not reproduce alone is replayed after.
    std::vector<std::string> before;
    static constexpr std::size_t kMostBefore = 8;
    // The Case of the message's last "reproduce: ./kverify run '<case>'" line ("" when none).
    std::string reproduced_case() const;
  };
  // One judged unit, for CI formats (check/junit.hpp, check/annotations.hpp): a boundary Case, a
  // property on one variant, or what stood for them (a device fault, a variant that cannot run on
  // a backend). The tables above are summaries of these.
  struct TestCase {
    enum class Status { passed, failed, skipped };
    std::string backend, variant;  // variant: "op/name"
    std::string name;              // "boundary <Case line>", a property's name, ...
    Status status = Status::passed;
    std::string message;  // a failure's Verdict, a skip's reason, a pass's accuracy note
    std::string replay;
    double seconds = 0;
  };
  std::vector<BoundaryRow> boundary;
  std::vector<PropertyRow> properties;
  std::vector<Failure> failures;
  // Passes with an accuracy note (a FAIL under --strict): per boundary Case, and the first Case of
  // each property x variant; message: "<subject>: <note>".
  std::vector<Failure> notes;
  std::vector<TestCase> testcases;
  std::vector<std::string> not_run;
  std::vector<std::string> skipped;  // variants that cannot run on a backend at all, with the reason
  double seconds = 0;

  void print_tables() const;
  // Per variant with a declared domain (ACCEPTS): the domain, and how much of the catalogue it excluded.
  void print_domains() const;
  std::string json() const;  // the summary file's text
};

}  // namespace kverify
