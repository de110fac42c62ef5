// zend-async-ref benchmarks: the console report that remembers each
// benchmark's nanoseconds per operation, so that a program can print its
// ratios after the run.
//
// Per operation is per iteration, or per cycle when the run has a "cycle"
// counter (a rate, benchmark::Counter::kIsRate, of cycles per second); the
// mean when the benchmark is repeated. A benchmark is named by its function
// and, when it takes one, its argument ("BM_PoolSharedByCoroutines/1000").
// Single-threaded: the report runs on the benchmark's main thread.

#ifndef ZAR_TOOLS_BENCH_TIME_REPORTER_H_
#define ZAR_TOOLS_BENCH_TIME_REPORTER_H_

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace zar::bench {

class TimeReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "mean") {
        continue;
      }
      std::string name = run.run_name.function_name;
      if (!run.run_name.args.empty()) name += "/" + run.run_name.args;
      auto cycle = run.counters.find("cycle");
      nanoseconds_[name] = cycle != run.counters.end()
                               ? cycle->second.value * 1e9
                               : run.GetAdjustedRealTime();
    }
  }

  // Nanoseconds per operation of the benchmark `name` (the function, and
  // "/<argument>" for one that takes an argument); 0 when it did not run
  // (filtered out, or failed).
  double Get(const std::string& name) const {
    auto it = nanoseconds_.find(name);
    return it != nanoseconds_.end() ? it->second : 0;
  }

 private:
  absl::flat_hash_map<std::string, double> nanoseconds_;
};

// A benchmark program's main(): runs the benchmarks the command line
// selects with a TimeReporter, then `print(times)`. Returns the exit status.
inline int RunAndPrint(int argc, char** argv,
                       void (*print)(const TimeReporter& times)) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  TimeReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  print(reporter);
  return 0;
}

}  // namespace zar::bench

#endif  // ZAR_TOOLS_BENCH_TIME_REPORTER_H_
