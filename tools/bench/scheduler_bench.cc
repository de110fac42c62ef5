// zar_scheduler_bench: what a coroutine switch costs.
//
//   BM_SchedulerYieldRoundTrip   two coroutines of the reference scheduler
//                                yield to each other through the ABI
//                                (ZEND_ASYNC_ENQUEUE_COROUTINE(current) +
//                                ZEND_ASYNC_SUSPEND()); one iteration = one
//                                yield of the measuring coroutine, i.e. a
//                                round trip through the other one (two
//                                switches, two suspends).
//   BM_FcontextRoundTrip         the floor: two raw jump_fcontext switches.
//   BM_BoostFiberYieldRoundTrip  the comparison: boost::this_fiber::yield()
//                                with two Boost.Fiber fibers (round robin).
// Afterwards the ratios ours/fcontext and ours/boost_fiber are printed.
// tools/bench/go/scheduler is the Go peer (runtime.Gosched, GOMAXPROCS=1);
// tools/bench/run.sh runs all three and prints ours/Go too.
//
//   zar_scheduler_bench [--benchmark_min_time=2] [--benchmark_repetitions=5]

#include <benchmark/benchmark.h>

#include <boost/context/detail/fcontext.hpp>
#include <boost/fiber/all.hpp>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/extension.h"
#include "mock_zend/lifecycle.h"
#include "tools/bench/time_reporter.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace {

// ---- Our scheduler -------------------------------------------------------

benchmark::State* measured = nullptr;
bool measuring_done = false;

void Yield() {
  ZEND_ASYNC_ENQUEUE_COROUTINE(ZEND_ASYNC_CURRENT_COROUTINE);
  ZEND_ASYNC_SUSPEND();
}

void MeasuringCoroutine() {
  for (auto _ : *measured) Yield();
  measuring_done = true;
}

void PartnerCoroutine() {
  while (!measuring_done) Yield();
}

void BM_SchedulerYieldRoundTrip(benchmark::State& state) {
  mock_zend::Engine engine({&zar_async_module_entry});
  mock_zend::Request request;
  measured = &state;
  measuring_done = false;
  request.RunMain([] {
    zend_coroutine_t* a = ZEND_ASYNC_SPAWN();
    a->internal_entry = MeasuringCoroutine;
    zend_coroutine_t* b = ZEND_ASYNC_SPAWN();
    b->internal_entry = PartnerCoroutine;
  });
  measured = nullptr;
}
BENCHMARK(BM_SchedulerYieldRoundTrip)->Unit(benchmark::kNanosecond);

// ---- Raw Boost.Context -----------------------------------------------------

namespace ctx = boost::context::detail;

void Bounce(ctx::transfer_t transfer) {
  for (;;) transfer = ctx::jump_fcontext(transfer.fctx, nullptr);
}

void BM_FcontextRoundTrip(benchmark::State& state) {
  std::vector<char> stack(64 * 1024);
  ctx::fcontext_t fiber =
      ctx::make_fcontext(stack.data() + stack.size(), stack.size(), &Bounce);
  for (auto _ : state) {
    fiber = ctx::jump_fcontext(fiber, nullptr).fctx;
  }
}
BENCHMARK(BM_FcontextRoundTrip)->Unit(benchmark::kNanosecond);

// ---- Boost.Fiber -----------------------------------------------------------

void BM_BoostFiberYieldRoundTrip(benchmark::State& state) {
  bool done = false;
  boost::fibers::fiber partner([&done] {
    while (!done) boost::this_fiber::yield();
  });
  for (auto _ : state) boost::this_fiber::yield();
  done = true;
  partner.join();
}
BENCHMARK(BM_BoostFiberYieldRoundTrip)->Unit(benchmark::kNanosecond);

// ---- Ratios
// ------------------------------------------------------------------

void PrintRatios(const zar::bench::TimeReporter& times) {
  const double ours = times.Get("BM_SchedulerYieldRoundTrip");
  const double fcontext = times.Get("BM_FcontextRoundTrip");
  const double fiber = times.Get("BM_BoostFiberYieldRoundTrip");
  if (ours > 0 && fcontext > 0) {
    absl::PrintF("ratio ours/fcontext    = %.2f\n", ours / fcontext);
  }
  if (ours > 0 && fiber > 0) {
    absl::PrintF("ratio ours/boost_fiber = %.2f (target <= 0.40)\n",
                 ours / fiber);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return zar::bench::RunAndPrint(argc, argv, PrintRatios);
}
