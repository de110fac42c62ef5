// zar_pool_bench: what the resource pool costs, next to a Boost.Fiber
// token pool doing the same work.
//
//   BM_PoolAcquireReleaseUncontended
//       ZEND_ASYNC_POOL_ACQUIRE + ZEND_ASYNC_POOL_RELEASE of an idle
//       resource in a pool with C handlers (the fast path: no waiter, no
//       hook, no allocation). One iteration = one acquire + one release.
//   BM_BoostFiberChannelPopPush
//       the same with a boost::fibers::buffered_channel holding one token:
//       pop + push.
//   BM_PoolSharedByCoroutines
//       1,000 coroutines of the reference scheduler share 8 resources; each
//       does 1,000 rounds of: acquire (parking when none is free), yield
//       once, release. Reported per acquire-yield-release cycle (the
//       coroutines' creation is spread over the 1,000,000 cycles).
//   BM_BoostFiberSharedByFibers
//       the same workload with 1,000 Boost.Fiber fibers and a
//       buffered_channel of 8 tokens (pop, yield, push).
//   BM_SchedulingFloorTwoYields
//       the part of BM_PoolSharedByCoroutines no pool can remove: in the
//       steady state of that workload almost every coroutine is parked in
//       acquire, so each cycle suspends twice (the acquire that parks, the
//       yield) and switches twice. Here the same 1,000 coroutines of the
//       reference scheduler just yield twice per round, without a pool;
//       reported per round like a pool cycle.
//   BM_BoostFiberFloorTwoYields
//       the same with 1,000 Boost.Fiber fibers: what Boost.Fiber's cycle
//       spends on scheduling.
// Afterwards the ratios ours/Boost.Fiber are printed with their targets.
// On a machine shared with other work pin the run to one CPU (taskset -c 1
// zar_pool_bench ...): docs/scheduler.md, "Speed at scale", says why.
//
//   zar_pool_bench [--benchmark_min_time=2] [--benchmark_repetitions=5]

#include <benchmark/benchmark.h>

#include <boost/fiber/all.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/extension.h"
#include "core/pool/registration.h"
#include "mock_zend/lifecycle.h"
#include "tools/bench/time_reporter.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace {

constexpr int kCoroutines = 1000;
constexpr int kResources = 8;
constexpr int kRounds = 1000;
constexpr double kCyclesPerRun = double{kCoroutines} * kRounds;

bool Factory(zend_async_pool_t*, zval* result) {
  ZVAL_LONG(result, 1);
  return true;
}

// The engine with the extension, and the pool's ABI functions registered
// (a no-op once the extension's MINIT registers them itself).
struct Runtime {
  mock_zend::Engine engine{{&zar_async_module_entry}};
  Runtime() { zar::core::RegisterPool(); }
};

// ---- (1) Uncontended acquire + release
// ---------------------------------------

void BM_PoolAcquireReleaseUncontended(benchmark::State& state) {
  Runtime runtime;
  mock_zend::Request request;
  request.RunMain([&state] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(Factory, nullptr, nullptr,
                                                  nullptr, nullptr, 1, 1, 0);
    zval resource;
    for (auto _ : state) {
      ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0);
      ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    }
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  });
}
BENCHMARK(BM_PoolAcquireReleaseUncontended)->Unit(benchmark::kNanosecond);

void BM_BoostFiberChannelPopPush(benchmark::State& state) {
  boost::fibers::buffered_channel<int> tokens(2);  // room for one token
  tokens.push(1);
  int token = 0;
  for (auto _ : state) {
    tokens.pop(token);
    tokens.push(token);
  }
  benchmark::DoNotOptimize(token);
}
BENCHMARK(BM_BoostFiberChannelPopPush)->Unit(benchmark::kNanosecond);

// ---- (2) 1,000 coroutines share 8 resources
// --------------------------------------

zend_async_pool_t* shared_pool = nullptr;

void Yield() {
  ZEND_ASYNC_ENQUEUE_COROUTINE(ZEND_ASYNC_CURRENT_COROUTINE);
  ZEND_ASYNC_SUSPEND();
}

void Worker() {
  zval resource;
  for (int round = 0; round < kRounds; round++) {
    ZEND_ASYNC_POOL_ACQUIRE(shared_pool, &resource, 0);
    Yield();
    ZEND_ASYNC_POOL_RELEASE(shared_pool, &resource);
  }
}

// One request whose main flow runs `prepare` (if any) and spawns
// kCoroutines coroutines running `entry`; the seconds until every one of
// them has finished. `cleanup` (if any) runs after that, untimed, before
// the request ends.
double RunCoroutines(void (*entry)(), void (*prepare)() = nullptr,
                     void (*cleanup)() = nullptr) {
  mock_zend::Request request;
  const auto start = std::chrono::steady_clock::now();
  request.RunMain([entry, prepare] {
    if (prepare != nullptr) prepare();
    for (int i = 0; i < kCoroutines; i++) {
      ZEND_ASYNC_SPAWN()->internal_entry = entry;
    }
  });  // returns when every coroutine has finished
  const auto end = std::chrono::steady_clock::now();
  if (cleanup != nullptr) cleanup();
  return std::chrono::duration<double>(end - start).count();
}

// kCoroutines Boost.Fiber fibers running `body`; the seconds until every
// one of them has been joined.
template <typename Body>
double RunFibers(const Body& body) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<boost::fibers::fiber> fibers;
  fibers.reserve(kCoroutines);
  for (int i = 0; i < kCoroutines; i++) fibers.emplace_back(body);
  for (boost::fibers::fiber& fiber : fibers) fiber.join();
  const auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - start).count();
}

// Reports the time per acquire-yield-release cycle (or per round of the
// floor benchmarks) as the "cycle" counter.
void CountCycles(benchmark::State& state) {
  state.counters["cycle"] = benchmark::Counter(
      kCyclesPerRun, benchmark::Counter::kIsIterationInvariantRate |
                         benchmark::Counter::kInvert);
}

void CreateSharedPool() {
  shared_pool = ZEND_ASYNC_NEW_POOL(Factory, nullptr, nullptr, nullptr, nullptr,
                                    0, kResources, 0);
}

void ReleaseSharedPool() {
  ZEND_ASYNC_EVENT_RELEASE(&shared_pool->event);
  shared_pool = nullptr;
}

void BM_PoolSharedByCoroutines(benchmark::State& state) {
  Runtime runtime;
  for (auto _ : state) {
    state.SetIterationTime(
        RunCoroutines(Worker, CreateSharedPool, ReleaseSharedPool));
  }
  CountCycles(state);
}
BENCHMARK(BM_PoolSharedByCoroutines)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_BoostFiberSharedByFibers(benchmark::State& state) {
  for (auto _ : state) {
    boost::fibers::buffered_channel<int> tokens(16);  // room for 15
    for (int i = 0; i < kResources; i++) tokens.push(i);
    state.SetIterationTime(RunFibers([&tokens] {
      int token = 0;
      for (int round = 0; round < kRounds; round++) {
        tokens.pop(token);
        boost::this_fiber::yield();
        tokens.push(token);
      }
    }));
  }
  CountCycles(state);
}
BENCHMARK(BM_BoostFiberSharedByFibers)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- The scheduling floor of a pool cycle
// --------------------------------------------------------------------------

void TwoYieldsPerRound() {
  for (int round = 0; round < kRounds; round++) {
    Yield();
    Yield();
  }
}

void BM_SchedulingFloorTwoYields(benchmark::State& state) {
  Runtime runtime;
  for (auto _ : state) state.SetIterationTime(RunCoroutines(TwoYieldsPerRound));
  CountCycles(state);
}
BENCHMARK(BM_SchedulingFloorTwoYields)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_BoostFiberFloorTwoYields(benchmark::State& state) {
  for (auto _ : state) {
    state.SetIterationTime(RunFibers([] {
      for (int round = 0; round < kRounds; round++) {
        boost::this_fiber::yield();
        boost::this_fiber::yield();
      }
    }));
  }
  CountCycles(state);
}
BENCHMARK(BM_BoostFiberFloorTwoYields)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- Ratios
// ------------------------------------------------------------------

// One line: ours, Boost.Fiber's, the ratio and its target (and a bound in
// nanoseconds when target_ns > 0).
void PrintRatio(const zar::bench::TimeReporter& times, const char* what,
                const std::string& ours_name, const std::string& theirs_name,
                double target_ratio, double target_ns) {
  const double ours = times.Get(ours_name);
  const double theirs = times.Get(theirs_name);
  if (ours <= 0 || theirs <= 0) return;
  absl::PrintF(
      "%s: ours %.1f ns, Boost.Fiber %.1f ns, ratio %.2f "
      "(target <= %.2f%s)\n",
      what, ours, theirs, ours / theirs, target_ratio,
      target_ns > 0 ? absl::StrFormat(" and <= %.0f ns", target_ns)
                    : std::string());
}

void PrintRatios(const zar::bench::TimeReporter& times) {
  PrintRatio(times, "uncontended acquire+release",
             "BM_PoolAcquireReleaseUncontended", "BM_BoostFiberChannelPopPush",
             0.50, 15.0);
  PrintRatio(times, "1,000 coroutines / 8 resources, per cycle",
             "BM_PoolSharedByCoroutines", "BM_BoostFiberSharedByFibers", 1.00,
             0);
  PrintRatio(
      times, "scheduling floor among 1,000 coroutines (two yields per round)",
      "BM_SchedulingFloorTwoYields", "BM_BoostFiberFloorTwoYields", 1.00, 0);
}

}  // namespace

int main(int argc, char** argv) {
  return zar::bench::RunAndPrint(argc, argv, PrintRatios);
}
