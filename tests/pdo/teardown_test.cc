// P8: tearing a pooled PDO object down while coroutines, statements and
// pinned slots are still alive; the healthcheck timer; closing during an
// exception's unwinding. On the mock and on MariaDB; SQLite's registry on
// SQLite.

#include <memory>

#include "mock_zend/callable.h"
#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class TeardownTest : public DriverTest {};
ZAR_PDO_ON_EVERY_DRIVER(TeardownTest);

// On SQLite.
class TeardownSqliteTest : public PdoTest {};

TEST_P(TeardownTest, PdoDestroyedWhileACoroutineHoldsASlot) {
  RunMain([&] {
    Log log;
    Pdo pdo = Open(PoolOptions(2));
    bool destroyed = false;
    Task inner = Spawn([&] {
      pdo.BeginTransaction();  // pinned to this coroutine
      log.push_back("Inner: " + QueryValue(pdo, "SELECT 'hello'").str());
      EXPECT_TRUE(WaitUntil([&] { return destroyed; }));
      log.push_back("Inner resumed after PDO destroyed");
    });
    EXPECT_TRUE(WaitUntil([&] { return !log.empty(); }));
    pdo.Reset();  // the binding is invalidated; its slot rolled back
    destroyed = true;
    log.push_back("PDO destroyed");
    EXPECT_EQ(LiveConnections(), 0u);
    Await(inner);  // its finish callback does nothing
    log.push_back("Done");
    EXPECT_EQ(log, (Log{"Inner: hello", "PDO destroyed",
                        "Inner resumed after PDO destroyed", "Done"}));
    EXPECT_EQ(Rollbacks(), 1u);
  });
}

// The teardown's own give-back suspends (the rollback takes time) while
// the coroutine that owned the slot ends, and a statement of another
// coroutine lets its slot go.
TEST_P(TeardownTest, TeardownThatSuspendsWhileOwnersFinish) {
  TransactionEndsWait();
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(
        4, -1, {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}}));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    bool stop = false;
    bool inserted = false;
    Statement orphan;
    Task txn = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES (1)");
      inserted = true;
      EXPECT_TRUE(WaitUntil([&] { return stop; }));
    });
    Task stmt_owner = Spawn([&] {
      orphan = pdo.Query("SELECT 1");
      EXPECT_TRUE(WaitUntil([&] { return stop; }));
    });
    EXPECT_TRUE(pdo.Query("SELECT * FROM missing").result().is_false());
    EXPECT_TRUE(WaitUntil([&] { return orphan.ok() && inserted; }));
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
    EXPECT_EQ(LiveConnections(), 0u);
    EXPECT_TRUE(CommittedRows("t").empty());
  });
}

TEST_P(TeardownTest, HealthcheckKeepsMinAndStopsWithTheTemplate) {
  RunMain([&] {
    Pdo pdo =
        Open(PoolOptions(5, 2, {{PDO_ATTR_POOL_HEALTHCHECK_INTERVAL, 10}}));
    EXPECT_EQ(CountsOf(pdo).count, 2);
    EXPECT_EQ(QueryValue(pdo, "SELECT 'test'").str(), "test");
    Delay(30);
    EXPECT_EQ(CountsOf(pdo).count, 2);
    pdo.Reset();
    EXPECT_EQ(LiveConnections(), 0u);
  });
}

TEST_P(TeardownTest, HealthcheckReplacesADeadIdleConnection) {
  RunMain([&] {
    Pdo pdo =
        Open(PoolOptions(5, 2, {{PDO_ATTR_POOL_HEALTHCHECK_INTERVAL, 5}}));
    const std::vector<zend_long> warm = LiveConnectionIds();
    ASSERT_EQ(warm.size(), 2u);
    EXPECT_TRUE(Kill(warm[0]));
    EXPECT_TRUE(WaitUntil([&] { return ConnectionsMade() == 3; }));
    EXPECT_EQ(ConnectionsClosed(), 1u);
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
    const std::vector<zend_long> now = LiveConnectionIds();
    ASSERT_EQ(now.size(), 2u);
    EXPECT_EQ(now[0], warm[1]) << "the live one stays";
    EXPECT_NE(now[1], warm[0]) << "the dead one is replaced";
  });
}

TEST_F(TeardownSqliteTest, TemplateWithRegistryIsFreed) {
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

TEST_P(TeardownTest, DestroyedDuringUnwindingKeepsTheException) {
  std::string caught;
  RunMain([&] {
    {
      Pdo pdo = Open(PoolOptions(2, 1));
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

TEST_P(TeardownTest, FinishedCoroutineCallbacksAreNoOpsAfterDestroy) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    std::vector<Task> coroutines;
    bool destroyed = false;
    int begun = 0;
    for (int i = 0; i < 3; i++) {
      coroutines.push_back(Spawn([&] {
        pdo.BeginTransaction();
        begun++;
        EXPECT_TRUE(WaitUntil([&] { return destroyed; }));
      }));
    }
    EXPECT_TRUE(WaitUntil([&] { return begun == 3; }));
    EXPECT_EQ(CountsOf(pdo).active, 3);
    pdo.Reset();
    destroyed = true;
    for (Task& c : coroutines) Await(c);
    EXPECT_EQ(LiveConnections(), 0u);
    EXPECT_EQ(Rollbacks(), 3u);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
