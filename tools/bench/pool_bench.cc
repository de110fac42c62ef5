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
//   BM_PoolSharedByCoroutines/N
//       N coroutines of the reference scheduler share 8 resources; each
//       does 1,000,000 / N rounds of: acquire (parking when none is free),
//       yield once, release. Reported per acquire-yield-release cycle (the
//       coroutines' creation is spread over the 1,000,000 cycles). N is 10
//       to 100,000 (tools/bench/sweep.h).
//   BM_BoostFiberSharedByFibers/N
//       the same workload with N Boost.Fiber fibers and a
//       buffered_channel of 8 tokens (pop, yield, push).
//   BM_SchedulingFloorTwoYields/N
//       the part of BM_PoolSharedByCoroutines no pool can remove: in the
//       steady state of that workload almost every coroutine is parked in
//       acquire, so each cycle suspends twice (the acquire that parks, the
//       yield) and switches twice. Here the same N coroutines of the
//       reference scheduler just yield twice per round, without a pool;
//       reported per round like a pool cycle.
//   BM_BoostFiberFloorTwoYields/N
//       the same with N Boost.Fiber fibers: what Boost.Fiber's cycle
//       spends on scheduling.
// Afterwards the ratios ours/Boost.Fiber are printed with their targets,
// at each size. tools/bench/go/pool is the Go peer of the last four.
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
#include "tools/bench/sweep.h"
#include "tools/bench/time_reporter.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace {

using zar::bench::CountPer;
using zar::bench::kSweepOperations;
using zar::bench::RoundsAt;

constexpr int kResources = 8;

// The rounds each coroutine of the run in progress does (RoundsAt its
// size); read by the coroutines' entries, which take no argument.
int rounds = 0;

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
  for (int round = 0; round < rounds; round++) {
    ZEND_ASYNC_POOL_ACQUIRE(shared_pool, &resource, 0);
    Yield();
    ZEND_ASYNC_POOL_RELEASE(shared_pool, &resource);
  }
}

// One request whose main flow runs `prepare` (if any) and spawns
// `coroutines` coroutines running `entry`, each doing RoundsAt(coroutines)
// rounds; the seconds until every one of them has finished. `cleanup` (if
// any) runs after that, untimed, before the request ends.
double RunCoroutines(int64_t coroutines, void (*entry)(),
                     void (*prepare)() = nullptr, void (*cleanup)() = nullptr) {
  mock_zend::Request request;
  rounds = RoundsAt(coroutines);
  const auto start = std::chrono::steady_clock::now();
  request.RunMain([coroutines, entry, prepare] {
    if (prepare != nullptr) prepare();
    for (int64_t i = 0; i < coroutines; i++) {
      ZEND_ASYNC_SPAWN()->internal_entry = entry;
    }
  });  // returns when every coroutine has finished
  const auto end = std::chrono::steady_clock::now();
  if (cleanup != nullptr) cleanup();
  return std::chrono::duration<double>(end - start).count();
}

// `count` Boost.Fiber fibers running `body`; the seconds until every one
// of them has been joined.
template <typename Body>
double RunFibers(int64_t count, const Body& body) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<boost::fibers::fiber> fibers;
  fibers.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; i++) fibers.emplace_back(body);
  for (boost::fibers::fiber& fiber : fibers) fiber.join();
  const auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - start).count();
}

void CreateSharedPool() {
  shared_pool = ZEND_ASYNC_NEW_POOL(Factory, nullptr, nullptr, nullptr, nullptr,
                                    0, kResources, 0);
}

void ReleaseSharedPool() {
  ZEND_ASYNC_EVENT_RELEASE(&shared_pool->event);
  shared_pool = nullptr;
}

// Reported per acquire-yield-release cycle (per round for the floor), as
// the "cycle" counter.
void BM_PoolSharedByCoroutines(benchmark::State& state) {
  Runtime runtime;
  for (auto _ : state) {
    state.SetIterationTime(RunCoroutines(state.range(0), Worker,
                                         CreateSharedPool, ReleaseSharedPool));
  }
  CountPer(state, kSweepOperations);
}
BENCHMARK(BM_PoolSharedByCoroutines)
    ->Apply(zar::bench::Sweep)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_BoostFiberSharedByFibers(benchmark::State& state) {
  for (auto _ : state) {
    boost::fibers::buffered_channel<int> tokens(16);  // room for 15
    for (int i = 0; i < kResources; i++) tokens.push(i);
    const int each = RoundsAt(state.range(0));
    state.SetIterationTime(RunFibers(state.range(0), [&tokens, each] {
      int token = 0;
      for (int round = 0; round < each; round++) {
        tokens.pop(token);
        boost::this_fiber::yield();
        tokens.push(token);
      }
    }));
  }
  CountPer(state, kSweepOperations);
}
BENCHMARK(BM_BoostFiberSharedByFibers)
    ->Apply(zar::bench::Sweep)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- The scheduling floor of a pool cycle
// --------------------------------------------------------------------------

void TwoYieldsPerRound() {
  for (int round = 0; round < rounds; round++) {
    Yield();
    Yield();
  }
}

void BM_SchedulingFloorTwoYields(benchmark::State& state) {
  Runtime runtime;
  for (auto _ : state) {
    state.SetIterationTime(RunCoroutines(state.range(0), TwoYieldsPerRound));
  }
  CountPer(state, kSweepOperations);
}
BENCHMARK(BM_SchedulingFloorTwoYields)
    ->Apply(zar::bench::Sweep)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_BoostFiberFloorTwoYields(benchmark::State& state) {
  for (auto _ : state) {
    const int each = RoundsAt(state.range(0));
    state.SetIterationTime(RunFibers(state.range(0), [each] {
      for (int round = 0; round < each; round++) {
        boost::this_fiber::yield();
        boost::this_fiber::yield();
      }
    }));
  }
  CountPer(state, kSweepOperations);
}
BENCHMARK(BM_BoostFiberFloorTwoYields)
    ->Apply(zar::bench::Sweep)
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
             0.40, 15.0);
  for (int64_t n : zar::bench::kSweepSizes) {
    const std::string size = zar::bench::Thousands(n);
    const std::string arg = "/" + std::to_string(n);
    PrintRatio(times, (size + " coroutines / 8 resources, per cycle").c_str(),
               "BM_PoolSharedByCoroutines" + arg,
               "BM_BoostFiberSharedByFibers" + arg, 1.00, 0);
  }
  for (int64_t n : zar::bench::kSweepSizes) {
    const std::string arg = "/" + std::to_string(n);
    PrintRatio(times,
               ("scheduling floor among " + zar::bench::Thousands(n) +
                " coroutines (two yields per round)")
                   .c_str(),
               "BM_SchedulingFloorTwoYields" + arg,
               "BM_BoostFiberFloorTwoYields" + arg, 0.60, 0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return zar::bench::RunAndPrint(argc, argv, PrintRatios);
}
