// zar_thread_pool_bench: a thread pool task's round trip through the ABI and
// directly on libuv, in one run.
//
//   BM_AbiTaskRoundTrip    a coroutine of the reference extension makes a
//                          task (ZEND_ASYNC_NEW_TASK), queues it
//                          (ZEND_ASYNC_QUEUE_TASK), parks on it through its
//                          waker and is resumed on the request's thread when
//                          the worker finished. One iteration = one task.
//   BM_WorkerPoolRoundTrip a coroutine submits an empty C task to a worker
//                          pool of one worker (ZEND_ASYNC_NEW_THREAD_POOL,
//                          submit_internal) and waits for its future,
//                          completed on the request's thread.
//   BM_LibuvWorkRoundTrip  uv_queue_work of an empty work function, and the
//                          loop run until its after-work callback ran.
// All run an empty function on another thread. Afterwards the round trips
// per second of each and the ratios are printed.
//
//   zar_thread_pool_bench [--benchmark_min_time=2] [--benchmark_repetitions=5]

#include <benchmark/benchmark.h>
#include <uv.h>

#include "absl/strings/str_format.h"
#include "core/extension.h"
#include "mock_zend/lifecycle.h"
#include "tools/bench/time_reporter.h"
#include "zend_async_ref/testing/coroutines.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace {

// The work itself: nothing, so that both sides measure the hand-off.
void Nothing(zend_async_task_t*) {}

// ---- Through the ABI --------------------------------------------------------

benchmark::State* measured = nullptr;

void SubmitterCoroutine() {
  for (auto _ : *measured) {
    zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(Nothing, nullptr);
    if (task == nullptr || !ZEND_ASYNC_QUEUE_TASK(task)) {
      measured->SkipWithError("the task was refused");
      break;
    }
    zar::testing::WaitFor(&task->base);
    ZEND_ASYNC_EVENT_RELEASE(&task->base);
  }
}

void BM_AbiTaskRoundTrip(benchmark::State& state) {
  mock_zend::Engine engine({&zar_async_module_entry});
  mock_zend::Request request;
  measured = &state;
  request.RunMain([] {
    zend_coroutine_t* submitter = ZEND_ASYNC_SPAWN();
    submitter->internal_entry = SubmitterCoroutine;
  });
  measured = nullptr;
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AbiTaskRoundTrip)->Unit(benchmark::kNanosecond);

// ---- A worker pool, through the ABI -----------------------------------------

void NothingOnAWorker(zend_async_event_t*, void*) {}

zend_async_thread_pool_t* bench_pool = nullptr;

void PoolSubmitterCoroutine() {
  for (auto _ : *measured) {
    zend_async_event_t* done =
        bench_pool->submit_internal(bench_pool, NothingOnAWorker, nullptr);
    if (done == nullptr) {
      measured->SkipWithError("the task was refused");
      break;
    }
    if (!ZEND_ASYNC_EVENT_IS_CLOSED(done)) zar::testing::WaitFor(done);
    ZEND_ASYNC_EVENT_RELEASE(done);
  }
}

void BM_WorkerPoolRoundTrip(benchmark::State& state) {
  mock_zend::Engine engine({&zar_async_module_entry});
  {
    mock_zend::Request request;
    measured = &state;
    request.RunMain([] {
      bench_pool = ZEND_ASYNC_NEW_THREAD_POOL(1, 0);
      zend_coroutine_t* submitter = ZEND_ASYNC_SPAWN();
      submitter->internal_entry = PoolSubmitterCoroutine;
    });
    measured = nullptr;
    bench_pool->close(bench_pool);
    ZEND_THREAD_POOL_DELREF(bench_pool);
    bench_pool = nullptr;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_WorkerPoolRoundTrip)->Unit(benchmark::kNanosecond);

// ---- Directly on libuv ------------------------------------------------------

void NoWork(uv_work_t*) {}
void AfterWork(uv_work_t* work, int) { *static_cast<bool*>(work->data) = true; }

void BM_LibuvWorkRoundTrip(benchmark::State& state) {
  uv_loop_t loop;
  uv_loop_init(&loop);
  uv_work_t work;
  for (auto _ : state) {
    bool done = false;
    work.data = &done;
    uv_queue_work(&loop, &work, NoWork, AfterWork);
    while (!done) uv_run(&loop, UV_RUN_ONCE);
  }
  uv_loop_close(&loop);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LibuvWorkRoundTrip)->Unit(benchmark::kNanosecond);

// ---- Rates ------------------------------------------------------------------

void PrintRates(const zar::bench::TimeReporter& times) {
  const double abi = times.Get("BM_AbiTaskRoundTrip");
  const double pool = times.Get("BM_WorkerPoolRoundTrip");
  const double raw = times.Get("BM_LibuvWorkRoundTrip");
  if (abi <= 0 || pool <= 0 || raw <= 0) return;
  absl::PrintF("task round trip through the ABI: %.0f /s\n", 1e9 / abi);
  absl::PrintF("worker pool round trip:          %.0f /s\n", 1e9 / pool);
  absl::PrintF("uv_queue_work round trip:        %.0f /s\n", 1e9 / raw);
  absl::PrintF("ratio abi/libuv rate  = %.2f\n", raw / abi);
  absl::PrintF("ratio pool/libuv rate = %.2f\n", raw / pool);
}

}  // namespace

int main(int argc, char** argv) {
  return zar::bench::RunAndPrint(argc, argv, PrintRates);
}
