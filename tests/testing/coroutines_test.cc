// The coroutine helpers (coroutines.h) and the exception text
// (exceptions.h), with the reference async extension.

#include "zend_async_ref/testing/coroutines.h"

#include <string>
#include <vector>

#include "core/extension.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "ext/spl/spl_exceptions.h"
}

namespace zar::testing {
namespace {

using Log = std::vector<std::string>;

class CoroutinesTest : public RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {&zar_async_module_entry};
  }
};

void AppendC(void* arg) { static_cast<Log*>(arg)->push_back("c body"); }

TEST_F(CoroutinesTest, SpawnedBodiesRunAfterMainInSpawnOrder) {
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&] { log.push_back("first"); });
    Spawn([&](mock_zend::Call&) { log.push_back("second"); });
    Spawn(&AppendC, &log);
    log.push_back("main ends");
  }));
  EXPECT_EQ(log, (Log{"main ends", "first", "second", "c body"}));
}

TEST_F(CoroutinesTest, YieldLetsEveryQueuedCoroutineRunOnce) {
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&] {
      log.push_back("a1");
      Yield();
      log.push_back("a2");
    });
    Spawn([&] { log.push_back("b"); });
    EXPECT_TRUE(Yield());
    log.push_back("main");
  }));
  EXPECT_EQ(log, (Log{"a1", "b", "main", "a2"}));
}

TEST_F(CoroutinesTest, DelayResumesInTimerOrder) {
  Log log;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef slow(Spawn([&] {
      Delay(20);
      log.push_back("20 ms");
    }));
    CoroutineRef fast(Spawn([&] {
      Delay(1);
      log.push_back("1 ms");
    }));
    Await(slow.get());
    EXPECT_TRUE(slow.finished());
  }));
  EXPECT_EQ(log, (Log{"1 ms", "20 ms"}));
}

TEST_F(CoroutinesTest, AwaitGivesTheResultOrTheException) {
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef value(
        Spawn([](mock_zend::Call& call) { ZVAL_LONG(call.result(), 42); }));
    EXPECT_EQ(Await(value.get()).result, "int(42)");
    // Finished: the outcome is replayed.
    EXPECT_EQ(Await(value.get()).result, "int(42)");
    // Awaited while it fails: its exception is the awaiter's.
    CoroutineRef failure(Spawn(
        [] { zend_throw_exception(spl_ce_RuntimeException, "boom", 0); }));
    EXPECT_EQ(Await(failure.get()).error, "RuntimeException: boom");
  }));
}

TEST_F(CoroutinesTest, CancelEndsACoroutineWithACancellation) {
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef sleeper(Spawn([] { Delay(1000); }));
    Yield();
    Cancel(sleeper.get());
    EXPECT_EQ(Await(sleeper.get()).error,
              "Async\\AsyncCancellation: Coroutine cancelled");
  }));
}

TEST_F(CoroutinesTest, TakeExceptionTextTakesTheExceptionInFlight) {
  EXPECT_TRUE(RunMain([&] {
    EXPECT_EQ(TakeExceptionText(), "");
    zend_throw_exception(spl_ce_RuntimeException, "boom", 0);
    EXPECT_EQ(TakeExceptionText(), "RuntimeException: boom");
    EXPECT_EQ(EG(exception), nullptr);
    zend_throw_exception(spl_ce_LogicException, "no", 0);
    EXPECT_EQ(TakeExceptionClass(), "LogicException");
    zend_throw_exception(spl_ce_LogicException, "no", 0);
    EXPECT_TRUE(DropException());
    EXPECT_FALSE(DropException());
  }));
}

}  // namespace
}  // namespace zar::testing
