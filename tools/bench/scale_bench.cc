// zar_scale_bench: how many parked coroutines one request holds, what each
// costs in memory, and how long closing a pool with that many timed
// waiters takes.
//
//   zar_scale_bench [coroutines]        (default 100000)
//
// Two runs, each in its own request:
//   timers  spawns up to `coroutines` coroutines, each parked on a 10 min
//           timer (ZEND_ASYNC_NEW_TIMER_EVENT through zar::testing::Delay),
//           until a spawn fails; prints how many were spawned, the spawn's
//           exception (the limit reached), and the resident memory (VmRSS)
//           per parked coroutine; then cancels them all and checks that
//           each one ended from its wait.
//   pool    the same with coroutines parked in ZEND_ASYNC_POOL_ACQUIRE
//           (timeout 60 s) on a pool of one resource the main flow holds;
//           then times ZEND_ASYNC_POOL_CLOSE, which fails every waiter, and
//           the time until they have all finished.
// With guard markers (Linux 6.13+) stacks take no memory mapping of their
// own and 100,000 coroutines fit; with the mprotect fallback each stack is
// two mappings, so under vm.max_map_count 65530 a request reaches about
// 32,700 (docs/scheduler.md, "Limits"). ZEND_ASYNC_REF_STACK_SIZE sets the
// stack size.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/extension.h"
#include "core/fiber/fiber_stack.h"
#include "core/pool/registration.h"
#include "mock_zend/lifecycle.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "Zend/zend_exceptions.h"
}

namespace {

using Clock = std::chrono::steady_clock;

constexpr zend_ulong kTimerMs = 600000;
constexpr zend_long kAcquireTimeoutMs = 60000;

// Resident memory of the process in KiB (/proc/self/status VmRSS).
long ResidentKiB() {
  FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return 0;
  char line[256];
  long kib = 0;
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::strncmp(line, "VmRSS:", 6) == 0) kib = std::atol(line + 6);
  }
  std::fclose(status);
  return kib;
}

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

size_t finished = 0;  // coroutines that ended normally
size_t failed = 0;    // coroutines whose wait failed
zend_async_pool_t* pool = nullptr;

void ParkOnTimer() {
  if (zar::testing::Delay(kTimerMs)) {
    finished++;
  } else {
    failed++;
    zend_clear_exception();
  }
}

void ParkInAcquire() {
  zval resource;
  if (ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, kAcquireTimeoutMs)) {
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    finished++;
  } else {
    failed++;  // the pool was closed under it: expected here
    zend_clear_exception();
  }
}

bool Factory(zend_async_pool_t*, zval* result) {
  ZVAL_LONG(result, 1);
  return true;
}

// Spawns up to `limit` coroutines running `entry`, yielding every 32 so
// they start and park (fewer runnable than the spawn's reservation window:
// each spawn reserves its stack, so the limit reaches the spawner). Returns how
// many were spawned; prints the spawn's exception if one failed, the time taken
// and the resident memory each parked coroutine added.
size_t SpawnParked(size_t limit, void (*entry)(),
                   std::vector<zar::testing::CoroutineRef>* refs = nullptr) {
  size_t spawned = 0;
  const long before = ResidentKiB();
  const Clock::time_point start = Clock::now();
  while (spawned < limit) {
    zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN();
    if (coroutine == nullptr) {
      std::printf("  spawn %zu failed: %s\n", spawned + 1,
                  zar::testing::TakeExceptionText().c_str());
      break;
    }
    coroutine->internal_entry = entry;
    if (refs != nullptr) refs->emplace_back(coroutine);
    if (++spawned % 32 == 0) zar::testing::Yield();
  }
  zar::testing::Yield();
  const double seconds = Seconds(start);
  const long after = ResidentKiB();
  std::printf(
      "  parked %zu in %.3f s; VmRSS %ld -> %ld KiB: %.1f KiB per parked "
      "coroutine (target <= 8 KiB)\n",
      spawned, seconds, before, after,
      spawned != 0 ? double(after - before) / double(spawned) : 0.0);
  return spawned;
}

void RunTimers(size_t limit) {
  std::printf("timers: coroutines parked on %llu ms timers\n",
              static_cast<unsigned long long>(kTimerMs));
  finished = failed = 0;
  mock_zend::Request request;
  request.RunMain([limit] {
    zar::testing::Yield();  // launched: the baseline includes the scheduler
    std::vector<zar::testing::CoroutineRef> refs;
    refs.reserve(limit);
    const size_t spawned = SpawnParked(limit, ParkOnTimer, &refs);
    const Clock::time_point start = Clock::now();
    for (zar::testing::CoroutineRef& ref : refs) {
      zar::testing::Cancel(ref.get());
    }
    zar::testing::YieldUntil([spawned] { return finished + failed == spawned; },
                             1 << 30);
    std::printf(
        "  cancelled: %zu ended from their wait in %.3f ms (%zu "
        "timers fired)\n",
        failed, Seconds(start) * 1e3, finished);
  });
}

void RunPool(size_t limit) {
  std::printf("pool: coroutines parked in acquire (timeout %lld ms)\n",
              static_cast<long long>(kAcquireTimeoutMs));
  finished = failed = 0;
  mock_zend::Request request;
  request.RunMain([limit] {
    pool = ZEND_ASYNC_NEW_POOL(Factory, nullptr, nullptr, nullptr, nullptr, 0,
                               1, 0);
    zval held;
    ZEND_ASYNC_POOL_ACQUIRE(pool, &held, 0);
    const size_t spawned = SpawnParked(limit, ParkInAcquire);
    Clock::time_point start = Clock::now();
    ZEND_ASYNC_POOL_CLOSE(pool);
    const double close_seconds = Seconds(start);
    start = Clock::now();
    zar::testing::YieldUntil([spawned] { return finished + failed == spawned; },
                             1 << 30);
    std::printf(
        "  close() woke every waiter in %.3f ms (target <= 50 ms); every "
        "waiter had run and finished %.3f ms later (%zu failed as closed, %zu "
        "served)\n",
        close_seconds * 1e3, Seconds(start) * 1e3, failed, finished);
    zend_clear_exception();
    ZEND_ASYNC_POOL_RELEASE(pool, &held);
    zend_clear_exception();
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    pool = nullptr;
  });
}

}  // namespace

int main(int argc, char** argv) {
  const size_t limit =
      argc > 1 ? std::strtoull(argv[1], nullptr, 10) : size_t{100000};
  std::printf("stack size %zu bytes (+ one guard page), vm.max_map_count: ",
              zar::core::DefaultStackSize());
  std::fflush(stdout);
  std::system("cat /proc/sys/vm/max_map_count");
  mock_zend::Engine engine{{&zar_async_module_entry}};
  zar::core::RegisterPool();
  RunTimers(limit);
  RunPool(limit);
  return 0;
}
