// zend-async-trace: runs a built-in scenario with the reference
// implementation and prints its trace (scenarios.h).
//
//   zend-async-trace --list        the scenarios, one line each
//   zend-async-trace SCENARIO      its trace on stdout
//
// Exit status: 0; 1 when the scenario leaked or bailed out; 2 on a usage
// error or an unknown scenario.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "tools/command_line/command_line.h"
#include "tools/trace/scenarios.h"

ABSL_FLAG(bool, list, false, "list the scenarios, one line each");

namespace {

constexpr char kUsage[] =
    "usage: zend-async-trace SCENARIO\n"
    "       zend-async-trace --list\n";

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> scenarios =
      zar::tools::ParseCommandLine(argc, argv, "zend-async-trace", kUsage);
  const bool list = absl::GetFlag(FLAGS_list);
  if (scenarios.size() != (list ? 0 : 1)) {
    std::fputs(kUsage, stderr);
    return zar::tools::kUsageError;
  }
  if (list) {
    for (const zar::trace::Scenario& scenario : zar::trace::Scenarios()) {
      absl::PrintF("%-20s %s\n", scenario.name, scenario.description);
    }
    return 0;
  }
  const zar::trace::Scenario* scenario =
      zar::trace::FindScenario(scenarios.front());
  if (scenario == nullptr) {
    absl::FPrintF(stderr,
                  "zend-async-trace: unknown scenario \"%s\" (see --list)\n",
                  scenarios.front());
    return zar::tools::kUsageError;
  }
  return zar::trace::RunScenario(*scenario, stdout);
}
