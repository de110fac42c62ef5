// zend-async-ref benchmarks: the sizes a benchmark of many coroutines is
// measured at, and the work one measurement does at each.
//
// A swept benchmark takes the number of coroutines (for the channel's
// producers and consumers: of each) as its argument, 10 to 100,000 in
// steps of ten (BM_PoolSharedByCoroutines/1000), and does kSweepOperations
// operations per measurement at every size: each coroutine does
// kSweepOperations / n rounds, so the work, and the time, of a measurement
// stays about the same as n grows and the coroutines' creation is spread
// over fewer rounds each. The Go peers (tools/bench/go) use the same sizes
// and the same rounds; tools/bench/run.sh runs the sweep.

#ifndef ZAR_TOOLS_BENCH_SWEEP_H_
#define ZAR_TOOLS_BENCH_SWEEP_H_

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

namespace zar::bench {

// Operations (cycles, rounds, values) per measurement at every size.
constexpr int64_t kSweepOperations = 1000000;

// The sizes: 10, 100, 1,000, 10,000 and 100,000 coroutines.
constexpr int64_t kSweepSizes[] = {10, 100, 1000, 10000, 100000};

// A swept benchmark's arguments (BENCHMARK(...)->Apply(Sweep)).
inline void Sweep(benchmark::internal::Benchmark* benchmark) {
  for (int64_t coroutines : kSweepSizes) benchmark->Arg(coroutines);
}

// Rounds (or values) per coroutine at `coroutines` coroutines.
constexpr int RoundsAt(int64_t coroutines) {
  return static_cast<int>(kSweepOperations / coroutines);
}

// Reports the time per operation as the "cycle" counter (a rate inverted:
// seconds per operation), `operations` operations per iteration; the
// TimeReporter reads it.
inline void CountPer(benchmark::State& state, double operations) {
  state.counters["cycle"] = benchmark::Counter(
      operations, benchmark::Counter::kIsIterationInvariantRate |
                      benchmark::Counter::kInvert);
}

// 1000 as "1,000", for the ratio lines.
inline std::string Thousands(int64_t number) {
  std::string digits = std::to_string(number);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) {
    digits.insert(static_cast<size_t>(at), ",");
  }
  return digits;
}

}  // namespace zar::bench

#endif  // ZAR_TOOLS_BENCH_SWEEP_H_
