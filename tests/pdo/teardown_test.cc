// P8: tearing a pooled PDO object down while coroutines, statements and
// pinned slots are still alive; the healthcheck timer; closing during an
// exception's unwinding.

#include <memory>

#include "mock_zend/callable.h"
#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

class TeardownTest : public PdoTest {};

TEST_F(TeardownTest, PdoDestroyedWhileACoroutineHoldsASlot) {
  RunMain([&] {
    Log log;
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    bool destroyed = false;
    Task inner = Spawn([&] {
      pdo.BeginTransaction();  // pinned to this coroutine
      log.push_back("Inner: " + QueryValue(pdo, "SELECT 'hello'").str());
      YieldUntil([&] { return destroyed; });
      log.push_back("Inner resumed after PDO destroyed");
    });
    YieldUntil([&] { return !log.empty(); });
    pdo.Reset();  // the binding is invalidated; its slot rolled back
    destroyed = true;
    log.push_back("PDO destroyed");
    EXPECT_EQ(pdo_sim::mock::LiveConnections(), 0u);
    Await(inner);  // its finish callback does nothing
    log.push_back("Done");
    EXPECT_EQ(log, (Log{"Inner: hello", "PDO destroyed",
                        "Inner resumed after PDO destroyed", "Done"}));
    EXPECT_EQ(pdo_sim::mock::GetCounters().rollbacks, 1u);
  });
}

// The teardown's own give-back suspends (the rollback takes time) while
// the coroutine that owned the slot ends, and a statement of another
// coroutine lets its slot go.
TEST_F(TeardownTest, TeardownThatSuspendsWhileOwnersFinish) {
  pdo_sim::mock::SetTransactionEndLatency(10);
  RunMain([&] {
    Pdo pdo = Pdo::Open(
        "mock:dbname=shop",
        PoolOptions(4, -1,
                    {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}}));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    bool stop = false;
    Statement orphan;
    Task txn = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES (1)");
      YieldUntil([&] { return stop; });
    });
    Task stmt_owner = Spawn([&] {
      orphan = pdo.Query("SELECT 1");
      YieldUntil([&] { return stop; });
    });
    EXPECT_TRUE(pdo.Query("SELECT * FROM missing").result().is_false());
    YieldUntil([&] { return orphan.ok(); });
    EXPECT_EQ(CountsOf(pdo).active, 3);
    // The statement keeps the PDO object alive: drop ours; the object dies
    // with the statement, in the middle of everything.
    pdo.Reset();
    Task killer = Spawn([&] {
      stop = true;
      orphan.Reset();  // the last reference: the PDO object is destroyed
    });
    Await(killer);
    Await(txn);
    Await(stmt_owner);
    EXPECT_EQ(pdo_sim::mock::LiveConnections(), 0u);
    EXPECT_TRUE(pdo_sim::mock::CommittedRows("shop", "t").empty());
  });
}

TEST_F(TeardownTest, HealthcheckKeepsMinAndStopsWithTheTemplate) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(
        "mock:dbname=shop",
        PoolOptions(5, 2, {{PDO_ATTR_POOL_HEALTHCHECK_INTERVAL, 10}}));
    EXPECT_EQ(CountsOf(pdo).count, 2);
    EXPECT_EQ(QueryValue(pdo, "SELECT 'test'").str(), "test");
    Delay(30);
    EXPECT_EQ(CountsOf(pdo).count, 2);
    pdo.Reset();
    EXPECT_EQ(pdo_sim::mock::LiveConnections(), 0u);
  });
}

TEST_F(TeardownTest, HealthcheckReplacesADeadIdleConnection) {
  RunMain([&] {
    Pdo pdo =
        Pdo::Open("mock:dbname=shop",
                  PoolOptions(5, 2, {{PDO_ATTR_POOL_HEALTHCHECK_INTERVAL, 5}}));
    pdo_sim::mock::KillConnection(1);
    for (int i = 0;
         i < 200 && pdo_sim::mock::GetCounters().connections_made < 3; i++) {
      Delay(5);
    }
    EXPECT_EQ(pdo_sim::mock::GetCounters().connections_closed, 1u);
    EXPECT_EQ(pdo_sim::mock::GetCounters().connections_made, 3u);
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
    EXPECT_EQ(pdo_sim::mock::LiveConnectionIds(), (std::vector<int64_t>{2, 3}));
  });
}

TEST_F(TeardownTest, SqliteTemplateWithRegistryIsFreed) {
  Log log;
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(2, 2), std::nullopt,
                        std::nullopt, "Pdo\\Sqlite");
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    zval callable;
    mock_zend::MakeCallable(&callable, [](mock_zend::Call& call) {
      ZVAL_COPY(call.result(), call.arg(0));
    });
    zval name;
    ZVAL_STRING(&name, "same");
    pdo_sim::CallMethod(pdo.zv(), "createFunction", {&name, &callable});
    zval_ptr_dtor(&name);
    zval_ptr_dtor(&callable);
    SpawnEachAndAwait(2, [&](int) {
      Statement stmt = pdo.Query("SELECT same(1)");
      EXPECT_EQ(stmt.FetchColumn().lval(), 1);
      Delay(2);  // both slots at once
    });
    pdo.Reset();
    log.push_back("freed");
  });
  EXPECT_EQ(Joined(log), "freed");
  EXPECT_EQ(pdo_sim::sqlite::GetStats().connections_closed, 2u);
}

TEST_F(TeardownTest, DestroyedDuringUnwindingKeepsTheException) {
  std::string caught;
  RunMain([&] {
    {
      Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2, 1));
      ASSERT_TRUE(pdo.ok());
      pdo.BeginTransaction();  // something to give back during the unwind
      zend_throw_exception(zend_ce_exception, "boom", 0);
    }  // the PDO object goes while 'boom' is in flight
    Caught e;
    caught = e.class_name() + ": " + e.message();
    EXPECT_EQ(e.chain().size(), 1u);
  });
  EXPECT_EQ(caught, "Exception: boom");
}

TEST_F(TeardownTest, FinishedCoroutineCallbacksAreNoOpsAfterDestroy) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(3));
    std::vector<Task> coroutines;
    bool destroyed = false;
    for (int i = 0; i < 3; i++) {
      coroutines.push_back(Spawn([&] {
        pdo.BeginTransaction();
        YieldUntil([&] { return destroyed; });
      }));
    }
    YieldUntil([&] { return CountsOf(pdo).active == 3; });
    pdo.Reset();
    destroyed = true;
    for (Task& c : coroutines) Await(c);
    EXPECT_EQ(pdo_sim::mock::LiveConnections(), 0u);
    EXPECT_EQ(pdo_sim::mock::GetCounters().rollbacks, 3u);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
