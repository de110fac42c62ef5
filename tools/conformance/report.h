// zend-async-conformance: the report of one run, and its two renderings.
//
// A report has one Behaviour per test that ran (run.h fills them in),
// filed under its area (areas.h), with its status and, for each failed
// assertion, where it is and what it says (failure_text.h). FormatText
// renders the report for a person, FormatJson for a program; both carry the
// same facts.
//
// Threading: the runner's main thread.

#ifndef ZAR_TOOLS_CONFORMANCE_REPORT_H_
#define ZAR_TOOLS_CONFORMANCE_REPORT_H_

#include <string>
#include <string_view>
#include <vector>

#include "tools/conformance/failure_text.h"

namespace zar::conformance {

// The implementation a run validated.
struct Implementation {
  std::string module_name;     // its zend_module_entry's name
  std::string module_version;  // its zend_module_entry's version
  std::string library;         // the shared library it was loaded from
                               // (an absolute path)
  std::string abi_version;     // zend_async_get_api_version() of the
                               // runner's ABI ("TrueAsync ABI v0.26.0")
};

// One failed assertion (or a failure GoogleTest reported on its own).
struct Failure {
  std::string file;  // relative to the source tree when inside it; "" when
                     // GoogleTest gave no location
  int line = 0;
  std::string message;  // GoogleTest's text, whole
  FailureText text;     // the same, as expected/actual
};

enum class Status { kPassed, kFailed, kSkipped };

struct Behaviour {
  std::string name;  // "Suite.Test"
  std::string area;  // an AreaNames() entry, or kUnmappedArea
  std::string file;  // where the test is defined
  int line = 0;
  Status status = Status::kPassed;
  double elapsed_ms = 0;
  std::vector<Failure> failures;
};

// The pseudo-area of a behaviour the area table does not name.
inline constexpr std::string_view kUnmappedArea = "unmapped";

struct AreaSummary {
  std::string name;
  int total = 0;
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  std::vector<const Behaviour*> behaviours;  // into Report::behaviours
};

struct Report {
  Implementation implementation;
  std::vector<Behaviour> behaviours;  // in run order
  // Failures outside every test (a global set-up), and problems of the
  // run itself (an unmapped behaviour, a stale area table entry). Each
  // makes the run fail.
  std::vector<Failure> run_failures;
  std::vector<std::string> problems;
  double elapsed_ms = 0;

  // Per area, in AreaNames() order (areas with no behaviour in this run
  // left out), then kUnmappedArea if any behaviour has it.
  std::vector<AreaSummary> Areas() const;
  int Failed() const;
  // No behaviour failed, no run failure, no problem.
  bool AllPassed() const;
};

// `file` without the `source_root/` it starts with; "" for null.
std::string RelativeToSource(const char* file, std::string_view source_root);

// A failure at `file`:`line` (file may be null) saying `message`;
// `source_root` is stripped from the file name.
Failure MakeFailure(const char* file, int line, std::string message,
                    std::string_view source_root);

// The human report: a header naming the implementation, then per area
// "area: N behaviours, P passed, F failed" with its failures (with
// `verbose`, every behaviour with PASS/FAIL/SKIP), and a last line
// "ALL PASS" or "FAILED: n of m".
std::string FormatText(const Report& report, bool verbose);

// The same as a JSON document (docs/conformance.md describes its keys).
std::string FormatJson(const Report& report);

}  // namespace zar::conformance

#endif  // ZAR_TOOLS_CONFORMANCE_REPORT_H_
