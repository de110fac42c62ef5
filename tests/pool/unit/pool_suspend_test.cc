// The reference's answers where a factory or hook suspends and upstream
// has none that is safe (docs/pool.md, "Differences from upstream"):
//
//   - an acquire that gets its resource after the pool's last owner let go
//     (its factory, beforeAcquire or wait suspended meanwhile) closes the
//     pool, destroys the resource and fails with "Pool is closed"
//     (tryAcquire: returns false), so nothing is lost; upstream returns
//     the resource of a pool it has freed;
//   - the healthcheck tick runs in the scheduler context, as upstream's: a
//     healthcheck, factory or destructor that asks to suspend there is
//     refused, and the reference warns, naming the pool and the hook, and
//     goes on with the tick instead of ending the request; a factory or
//     destructor that throws there is contained the same way.

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "tests/pool/support/pool_test.h"

extern "C" {
#include "zend_async_ref/strict.h"
}

namespace zar::pool_testing {
namespace {

using PoolSuspendTest = PoolTest;

// ---- C handlers that suspend when told to ---------------------------------

int c_made = 0;
int c_destroyed = 0;
// Calls suspended in the factory (being made) and in beforeAcquire now.
int c_making = 0;
int c_checking = 0;
// The ms the next factory or beforeAcquire call waits before it goes on
// (0: it does not suspend); each call consumes it.
zend_ulong factory_pause_ms = 0;
zend_ulong before_acquire_pause_ms = 0;
Log* c_log = nullptr;

void Pause(zend_ulong* ms, const char* what, int* suspended) {
  if (*ms == 0) return;
  const zend_ulong wait = *ms;
  *ms = 0;
  if (c_log != nullptr) c_log->push_back(std::string(what) + " suspends");
  ++*suspended;
  Delay(wait);
  --*suspended;
}

bool PausingFactory(zend_async_pool_t*, zval* result) {
  Pause(&factory_pause_ms, "factory", &c_making);
  ZVAL_LONG(result, ++c_made);
  if (c_log != nullptr) c_log->push_back("made " + std::to_string(c_made));
  return true;
}

void CountingCDestructor(zend_async_pool_t*, zval* resource) {
  c_destroyed++;
  if (c_log != nullptr) c_log->push_back("destroy(" + Render(resource) + ")");
}

bool PausingBeforeAcquire(zend_async_pool_t*, zval*) {
  Pause(&before_acquire_pause_ms, "beforeAcquire", &c_checking);
  return true;
}

constexpr char kClosed[] =
    "acquire failed: Async\\PoolException: Pool is closed";

class PoolOwnerLetsGoTest : public PoolSuspendTest {
 protected:
  void SetUp() override {
    PoolSuspendTest::SetUp();
    c_made = c_destroyed = c_making = c_checking = 0;
    factory_pause_ms = before_acquire_pause_ms = 0;
    c_log = &log;
  }
  void TearDown() override {
    c_log = nullptr;
    PoolSuspendTest::TearDown();
  }

  zend_async_pool_t* NewCPool(uint32_t min, uint32_t max) {
    return ZEND_ASYNC_NEW_POOL(PausingFactory, CountingCDestructor, nullptr,
                               PausingBeforeAcquire, nullptr, min, max, 0);
  }

  // Spawns a coroutine whose acquire logs its outcome.
  void SpawnAcquire(zend_async_pool_t* pool) {
    Spawn([this, pool] {
      zval resource;
      ZVAL_UNDEF(&resource);
      if (Acquire(pool, &resource, 0)) {
        log.push_back("acquired " + Render(&resource));
      } else {
        log.push_back("acquire failed: " + TakeExceptionText());
      }
      EXPECT_TRUE(Z_ISUNDEF(resource) || Z_TYPE(resource) == IS_LONG);
    });
  }

  // A `start`: an acquire suspended (2 ms) inside its factory or its
  // beforeAcquire hook, as `pause_ms` says.
  void AcquireSuspendedIn(zend_ulong* pause_ms, zend_async_pool_t* pool) {
    *pause_ms = 2;
    SpawnAcquire(pool);
    Yield();
  }

  // The request: a pool of (min, max); `start` spawns the calls (and sets
  // the pauses) and yields until they are inside their factory, hook or
  // wait; then the owner (closes, with `close`, and) lets go of its
  // reference.
  void OwnerLetsGoWhile(uint32_t min, uint32_t max,
                        const std::function<void(zend_async_pool_t*)>& start,
                        bool close = false) {
    EXPECT_TRUE(RunMain([&] {
      zend_async_pool_t* pool = NewCPool(min, max);
      start(pool);
      ExpectTally(pool);
      log.push_back(close ? "owner closes and lets go" : "owner lets go");
      if (close) ZEND_ASYNC_POOL_CLOSE(pool);
      ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    }));
  }

  // The pool against the handlers' tally: a resource being made is alive,
  // one being made or checked is busy.
  static void ExpectTally(zend_async_pool_t* pool) {
    EXPECT_POOL_TALLY(pool, c_made - c_destroyed + c_making,
                      c_making + c_checking);
  }

  // The log, and how many resources were made and destroyed.
  void ExpectOutcome(const std::string& expected_log, int made, int destroyed) {
    EXPECT_EQ(Joined(log), expected_log);
    EXPECT_EQ(c_made, made);
    EXPECT_EQ(c_destroyed, destroyed);
  }
  // The same, the log ending with an acquire failed as the pool closed.
  void ExpectFailedAcquire(const std::string& log_before, int made,
                           int destroyed) {
    ExpectOutcome(log_before + " " + kClosed, made, destroyed);
  }

  Log log;
};

// The case of the issue: made 1, destroyed 0 before. The factory suspends,
// the owner lets go of its (last) reference; when the factory returns the
// pool has nobody left to release the resource into.
TEST_F(PoolOwnerLetsGoTest,
       AcquireWhoseFactorySuspendsWhileTheOwnerLetsGoFailsAndDestroysIt) {
  OwnerLetsGoWhile(0, 2, [&](zend_async_pool_t* pool) {
    AcquireSuspendedIn(&factory_pause_ms, pool);
  });
  ExpectFailedAcquire("factory suspends owner lets go made 1 destroy(1)", 1, 1);
}

// The usual way an owner disposes of a pool, close then let go, while the
// factory is suspended: the same outcome.
TEST_F(
    PoolOwnerLetsGoTest,
    AcquireWhoseFactorySuspendsWhileTheOwnerClosesAndLetsGoFailsAndDestroysIt) {
  OwnerLetsGoWhile(
      0, 2,
      [&](zend_async_pool_t* pool) {
        AcquireSuspendedIn(&factory_pause_ms, pool);
      },
      /*close=*/true);
  ExpectFailedAcquire(
      "factory suspends owner closes and lets go made 1 destroy(1)", 1, 1);
}

TEST_F(PoolOwnerLetsGoTest,
       TryAcquireWhoseFactorySuspendsWhileTheOwnerLetsGoReturnsFalse) {
  OwnerLetsGoWhile(0, 2, [&](zend_async_pool_t* pool) {
    factory_pause_ms = 2;
    Spawn([&, pool] {
      zval resource;
      ZVAL_UNDEF(&resource);
      const bool got = TryAcquire(pool, &resource);
      log.push_back(std::string("tryAcquire ") + (got ? "true" : "false") +
                    " " + TakeExceptionText());
    });
    Yield();
  });
  ExpectOutcome(
      "factory suspends owner lets go made 1 destroy(1) tryAcquire "
      "false ",
      1, 1);
}

TEST_F(PoolOwnerLetsGoTest,
       AcquireWhoseBeforeAcquireSuspendsWhileTheOwnerLetsGoFailsAndDestroysIt) {
  OwnerLetsGoWhile(1, 2, [&](zend_async_pool_t* pool) {
    AcquireSuspendedIn(&before_acquire_pause_ms, pool);
  });
  ExpectFailedAcquire("made 1 beforeAcquire suspends owner lets go destroy(1)",
                      1, 1);
}

// Two acquires inside their factories when the owner lets go: the first to
// get its resource already finds the pool without an owner, closes it, and
// the second finds it closed and ownerless: both fail, both resources are
// destroyed.
TEST_F(PoolOwnerLetsGoTest,
       EveryAcquireInProgressWhenTheOwnerLetsGoFailsAndLosesNothing) {
  OwnerLetsGoWhile(0, 2, [&](zend_async_pool_t* pool) {
    factory_pause_ms = 2;
    SpawnAcquire(pool);
    Spawn([] { factory_pause_ms = 3; });
    SpawnAcquire(pool);
    Yield();
  });
  ExpectOutcome(
      std::string("factory suspends factory suspends owner lets go made "
                  "1 destroy(1) ") +
          kClosed + " made 2 destroy(2) " + kClosed,
      2, 2);
}

// The waiting case: the owner releases the resource a coroutine waits for
// and lets go; the waiter, woken with it, finds nobody left to give it back
// to.
TEST_F(PoolOwnerLetsGoTest,
       WaiterWokenAfterTheOwnerLetGoFailsAndTheResourceIsDestroyed) {
  OwnerLetsGoWhile(0, 1, [&](zend_async_pool_t* pool) {
    zval held;
    ASSERT_TRUE(Acquire(pool, &held, 0));
    SpawnAcquire(pool);
    Yield();               // it waits
    Release(pool, &held);  // idle, reserved for the waiter
    ExpectTally(pool);
  });
  ExpectFailedAcquire("made 1 owner lets go destroy(1)", 1, 1);
}

// A closed pool the owner still holds hands out what a suspended factory
// made, as upstream (tests/pool/close_test.cc); only the owner's letting go
// changes that.
TEST_F(PoolOwnerLetsGoTest, OwnerStillHoldingAClosedPoolGetsTheResourceBack) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewCPool(0, 2);
    factory_pause_ms = 2;
    zval resource;
    ZVAL_UNDEF(&resource);
    Spawn([&, pool] {
      ASSERT_TRUE(Acquire(pool, &resource, 0));
      log.push_back("acquired " + Render(&resource));
    });
    Yield();
    log.push_back("close");
    ZEND_ASYNC_POOL_CLOSE(pool);
    Delay(5);
    ExpectTally(pool);
    Release(pool, &resource);  // destroyed: closed
    ExpectTally(pool);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  ExpectOutcome("factory suspends close made 1 acquired 1 destroy(1)", 1, 1);
}

// ---- The healthcheck tick -------------------------------------------------

// What a hook doing I/O asks for: a suspension. Where it may not be (the
// scheduler context) it is refused with an Error, left pending, and false
// returned.
bool SuspendOnce() {
  if (ZEND_ASYNC_IS_SCHEDULER_CONTEXT ||
      ZEND_ASYNC_CURRENT_COROUTINE == ZEND_ASYNC_SCHEDULER) {
    return ZEND_ASYNC_SUSPEND();
  }
  return Delay(1);
}

// The warnings reported (strict mode's own reports of the refused
// suspension, at ZEND_ASYNC_REF_STRICT_LEVEL, are left out: the suite also
// runs with strict mode on).
std::vector<std::string> Warnings() {
  std::vector<std::string> warnings;
  for (const mock_zend::ReportedError& error : mock_zend::ReportedErrors()) {
    if (error.type == ZEND_ASYNC_REF_STRICT_LEVEL) continue;
    EXPECT_EQ(error.type, E_WARNING) << error.message;
    warnings.push_back(error.message);
  }
  return warnings;
}

constexpr char kTick[] =
    "Pool#1 healthcheck tick: the %s cannot suspend, the tick runs in the "
    "scheduler context; %s";

std::string TickWarning(const std::string& hook, const std::string& outcome) {
  char text[256];
  snprintf(text, sizeof(text), kTick, hook.c_str(), outcome.c_str());
  return text;
}

// Waits until the healthcheck has run `checks` times (at most ~100 ms).
void WaitForChecks(const int& seen, int checks) {
  for (int i = 0; i < 50 && seen < checks; i++) Delay(2);
}

// The "24 made and 22 destroyed in 60 ms" was silent: the refusal
// is now a warning naming the pool and the hook, with upstream's verdict
// (an exception is unhealthy).
TEST_F(PoolSuspendTest, HealthcheckThatSuspendsWarnsAndIsTakenAsUnhealthy) {
  int checks = 0;
  Log destroyed_log;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewCheckedPool(
        [&](mock_zend::Call& call) {
          if (++checks == 1) {
            EXPECT_FALSE(SuspendOnce()) << "refused in the scheduler context";
            return;  // the refusal is pending: unhealthy
          }
          ZVAL_TRUE(call.result());
        },
        1, 2, 2, &destroyed_log);
    WaitForChecks(checks, 2);
    EXPECT_POOL_TALLY(pool, made - destroyed);
    Close(pool);
    EXPECT_EQ(TakeExceptionText(), "");
  }));
  EXPECT_GE(checks, 2);
  EXPECT_EQ(Warnings(),
            std::vector<std::string>{TickWarning(
                "healthcheck", "the resource is taken as unhealthy")});
  EXPECT_EQ(made, 2) << "resource 1 replaced";
  EXPECT_EQ(destroyed, 2);
  EXPECT_EQ(Joined(destroyed_log), "destroy(1) destroy(2)");
}

// A healthcheck counting its calls in `*checks` that finds the resource
// unhealthy at the first call only.
mock_zend::NativeBody FirstCheckFails(int* checks) {
  return [checks](mock_zend::Call& call) {
    ZVAL_BOOL(call.result(), ++*checks != 1);
  };
}

// The healthcheck finds resource 1 unhealthy and the replacement factory
// (its second call) fails by `fail` (suspending, or throwing): the
// replacement is skipped with `warning`, the request goes on, and the next
// acquire makes resource 2.
void ExpectReplacementSkipped(const std::function<void()>& fail,
                              const std::string& warning) {
  int made = 0;
  int destroyed = 0;
  int checks = 0;
  int factory_calls = 0;
  EXPECT_TRUE(zar::testing::RunMain([&] {
    Zval pool = NewPhpPool({.factory =
                                [&](mock_zend::Call& call) {
                                  if (++factory_calls == 2) {
                                    fail();  // pending: no resource
                                    return;
                                  }
                                  ZVAL_LONG(call.result(), ++made);
                                },
                            .destructor = CountingDestructor(&destroyed),
                            .healthcheck = FirstCheckFails(&checks),
                            .min = 1,
                            .max = 2,
                            .healthcheck_interval = 2});
    WaitForChecks(checks, 1);
    Delay(1);
    EXPECT_POOL_TALLY(pool, made - destroyed);
    EXPECT_EQ(Count(pool), 0) << "no replacement yet";
    Zval resource = Acquire(pool);
    EXPECT_EQ(Render(resource.get()), "2");
    Release(pool, resource);
    EXPECT_POOL_TALLY(pool, made - destroyed);
    Close(pool);
    EXPECT_EQ(TakeExceptionText(), "");
  }));
  EXPECT_EQ(Warnings(), std::vector<std::string>{warning});
  EXPECT_EQ(made, 2);
  EXPECT_EQ(destroyed, 2);
}

// The "ends the whole request": the replacement's factory suspends
// in the tick; now the replacement is skipped with a warning and the
// request goes on (the next acquire makes one).
TEST_F(PoolSuspendTest,
       HealthcheckReplacementWhoseFactorySuspendsIsSkippedAndTheRequestGoesOn) {
  ExpectReplacementSkipped([] { EXPECT_FALSE(SuspendOnce()); },
                           TickWarning("factory", "no replacement is made"));
}

// A replacement factory that throws in the tick (the database is down):
// upstream leaves the exception pending for the scheduler, which ends the
// request; here it is contained the same way, the warning naming it.
TEST_F(PoolSuspendTest,
       HealthcheckReplacementWhoseFactoryThrowsIsSkippedAndTheRequestGoesOn) {
  ExpectReplacementSkipped(
      [] { ThrowRuntime("database is down"); },
      "Pool#1 healthcheck tick: the factory threw RuntimeException: database "
      "is down; no replacement is made");
}

// The healthcheck finds resource 1 unhealthy and its destructor fails by
// `fail` (suspending, or throwing): the resource is gone with `warning`,
// and the replacement is still made.
void ExpectDestructorContained(const std::function<void()>& fail,
                               const std::string& warning) {
  int made = 0;
  int destroyed = 0;
  int checks = 0;
  EXPECT_TRUE(zar::testing::RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .destructor =
                                [&](mock_zend::Call&) {
                                  if (++destroyed == 1) fail();
                                },
                            .healthcheck = FirstCheckFails(&checks),
                            .min = 1,
                            .max = 2,
                            .healthcheck_interval = 2});
    WaitForChecks(checks, 2);
    EXPECT_POOL_TALLY(pool, made - destroyed);
    EXPECT_EQ(Count(pool), 1) << "replaced";
    Close(pool);
    EXPECT_EQ(TakeExceptionText(), "");
  }));
  EXPECT_EQ(Warnings(), std::vector<std::string>{warning});
  EXPECT_EQ(made, 2);
  EXPECT_EQ(destroyed, 2);
}

TEST_F(PoolSuspendTest, HealthcheckTickDestructorThatSuspendsWarnsAndGoesOn) {
  ExpectDestructorContained(
      [] { EXPECT_FALSE(SuspendOnce()); },
      TickWarning("destructor", "the resource is destroyed"));
}

TEST_F(PoolSuspendTest, HealthcheckTickDestructorThatThrowsWarnsAndGoesOn) {
  ExpectDestructorContained([] { ThrowRuntime("close failed"); },
                            "Pool#1 healthcheck tick: the destructor threw "
                            "RuntimeException: close failed; the resource is "
                            "destroyed");
}

}  // namespace
}  // namespace zar::pool_testing
