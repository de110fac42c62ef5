// zend-async-trace: runs a built-in scenario with the reference
// implementation and prints its trace (scenarios.h).
//
//   zend-async-trace --list        the scenarios, one line each
//   zend-async-trace SCENARIO      its trace on stdout
//
// Exit status: 0; 1 when the scenario leaked or bailed out; 2 on a usage
// error or an unknown scenario.

#include <cstdio>
#include <cstring>

#include "tools/trace/scenarios.h"

namespace {

void Usage(FILE* out) {
  fprintf(out,
          "usage: zend-async-trace SCENARIO\n"
          "       zend-async-trace --list\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    Usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "--list") == 0) {
    for (const zar::trace::Scenario& scenario : zar::trace::Scenarios()) {
      printf("%-20s %s\n", scenario.name, scenario.description);
    }
    return 0;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    Usage(stdout);
    return 0;
  }
  const zar::trace::Scenario* scenario = zar::trace::FindScenario(argv[1]);
  if (scenario == nullptr) {
    fprintf(stderr, "zend-async-trace: unknown scenario \"%s\" (see --list)\n",
            argv[1]);
    return 2;
  }
  return zar::trace::RunScenario(*scenario, stdout);
}
