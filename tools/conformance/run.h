// zend-async-conformance: running the selected behaviours.
//
// Two ways, with the same result (one Behaviour per selected test, in the
// order given):
//
//   RunIsolated    each behaviour in a child process of its own (fork), as
//                  ctest runs each test: a crash, an abort or a hang of the
//                  implementation fails that behaviour ("crashed: ...",
//                  "timed out after N s") and the run goes on. The default.
//   RunInProcess   every behaviour in this process, one after the other
//                  (--in-process): quicker, and what a debugger wants. A
//                  crash ends the run; the fatal-signal handler then names
//                  the behaviour that was running.
//
// Both run GoogleTest with its own printer removed: the report is the
// output. The implementation must be loaded first (loaded_implementation.h).
//
// Threading: the runner's main thread; call one of them once per process.

#ifndef ZAR_TOOLS_CONFORMANCE_RUN_H_
#define ZAR_TOOLS_CONFORMANCE_RUN_H_

#include <string_view>
#include <vector>

#include "tools/conformance/report.h"
#include "tools/conformance/suite.h"

namespace zar::conformance {

// Runs `selected`, appending to report->behaviours (and, for failures
// outside any test, report->run_failures). `timeout_seconds` bounds each
// behaviour's process. `source_root` is stripped from file names.
void RunIsolated(const std::vector<TestRef>& selected, int timeout_seconds,
                 std::string_view source_root, Report* report);
void RunInProcess(const std::vector<TestRef>& selected,
                  std::string_view source_root, Report* report);

}  // namespace zar::conformance

#endif  // ZAR_TOOLS_CONFORMANCE_RUN_H_
