// P7: a connection killed server-side, or cancelled mid-query, is broken:
// its slot is destroyed, never reused, and a retry on the same PDO object
// transparently gets a fresh connection.

#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

class BrokenTest : public PdoTest {};

Options Silent(zend_long max, zend_long min = -1) {
  return PoolOptions(max, min,
                     {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}});
}

// Opens a transaction, inserts 'lost' into t and kills the connection
// server-side (the client has not noticed yet).
void InsertAndKillInATransaction(Pdo& pdo) {
  pdo.BeginTransaction();
  pdo.Exec("INSERT INTO t VALUES ('lost')");
  pdo_sim::mock::KillConnection(QueryLong(pdo, "SELECT CONNECTION_ID()"));
}

TEST_F(BrokenTest, CancelDuringAQueryDestroysTheSlot) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    bool started = false;
    std::string outcome;
    Task c = Spawn([&] {
      started = true;
      pdo.Exec("SELECT SLEEP(5)");
      outcome = TakeExceptionText();
    });
    YieldUntil([&] { return started; });
    Cancel(c);
    Await(c);
    EXPECT_EQ(outcome, "Async\\AsyncCancellation: Coroutine cancelled");
    EXPECT_EQ(CountsOf(pdo).count, 0);  // broken: destroyed
    std::string val;
    Await(Spawn(
        [&] { val = pdo_sim::Render(QueryValue(pdo, "SELECT 42").get()); }));
    EXPECT_EQ(val, "42");
    EXPECT_EQ(pdo_sim::mock::GetCounters().connections_made, 2u);
  });
}

TEST_F(BrokenTest, CancelWhileWaitingForASlotStaysACancellation) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(1));
    bool holding = false;
    bool release = false;
    Task holder = Spawn([&] {
      pdo.BeginTransaction();
      holding = true;
      YieldUntil([&] { return release; });
      pdo.Commit();
    });
    std::string outcome;
    Task waiter = Spawn([&] {
      YieldUntil([&] { return holding; });
      EXPECT_TRUE(pdo.Exec("SELECT 1").undef());  // waits for the only slot
      outcome = TakeExceptionText();
    });
    YieldUntil([&] { return holding; });
    Yield();  // the waiter parks in the pool
    Cancel(waiter);
    Await(waiter);
    release = true;
    Await(holder);
    EXPECT_EQ(outcome, "Async\\AsyncCancellation: Coroutine cancelled");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
    EXPECT_EQ(QueryLong(pdo, "SELECT 7"), 7);
  });
}

TEST_F(BrokenTest, KilledConnectionIsDestroyedNotReused) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", Silent(1));
    Log log;
    Await(Spawn([&] {
      Statement stmt = pdo.Query("SELECT CONNECTION_ID()");
      ASSERT_TRUE(pdo_sim::mock::KillConnection(stmt.FetchColumn().lval()));
      EXPECT_TRUE(pdo.Exec("SELECT 1").is_false());
      log.push_back("A: " + pdo.ErrorCode().str() + " " +
                    pdo_sim::Render(pdo.ErrorInfo().get()));
    }));
    log.push_back("count after A: " + std::to_string(CountsOf(pdo).count));
    Await(Spawn([&] {
      log.push_back("B: val=" + std::to_string(QueryLong(pdo, "SELECT 42")));
    }));
    EXPECT_EQ(log,
              (Log{"A: HY000 ['HY000', 2006, 'MySQL server has gone away']",
                   "count after A: 0", "B: val=42"}));
  });
}

TEST_F(BrokenTest, KilledDuringATransaction) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", Silent(1));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    Log log;
    Await(Spawn([&] {
      InsertAndKillInATransaction(pdo);
      EXPECT_TRUE(pdo.Exec("INSERT INTO t VALUES ('more')").is_false());
      log.push_back("A: " + pdo.ErrorCode().str());
    }));
    log.push_back("count after A: " + std::to_string(CountsOf(pdo).count));
    Await(Spawn([&] {
      log.push_back("B rows: " +
                    std::to_string(QueryLong(pdo, "SELECT COUNT(*) FROM t")));
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES ('fresh')");
      pdo.Commit();
      log.push_back("B val=" + QueryValue(pdo, "SELECT v FROM t").str());
    }));
    EXPECT_EQ(
        log, (Log{"A: HY000", "count after A: 0", "B rows: 0", "B val=fresh"}));
  });
}

TEST_F(BrokenTest, CommitAfterAKillReportsTheLostConnection) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(1));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    Log log;
    Await(Spawn([&] {
      InsertAndKillInATransaction(pdo);
      EXPECT_TRUE(pdo.InTransaction().is_true())
          << "the client learns of the kill from its next call";
      EXPECT_TRUE(pdo.Commit().undef());
      {
        Caught e;
        log.push_back(e.class_name() + " " + e.code() + " " + e.message());
      }
      EXPECT_TRUE(pdo.InTransaction().is_false());
      log.push_back("count after commit: " +
                    std::to_string(CountsOf(pdo).count));
      log.push_back("rows: " +
                    std::to_string(QueryLong(pdo, "SELECT COUNT(*) FROM t")));
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES ('fresh')");
      EXPECT_TRUE(pdo.Commit().is_true()) << TakeExceptionText();
    }));
    EXPECT_EQ(log, (Log{"PDOException HY000 SQLSTATE[HY000]: General error: "
                        "2006 MySQL server has gone away",
                        "count after commit: 0", "rows: 0"}));
    EXPECT_EQ(QueryValue(pdo, "SELECT v FROM t").str(), "fresh");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
    EXPECT_EQ(pdo_sim::mock::GetCounters().connections_made, 2u);
  });
}

TEST_F(BrokenTest, CommitOrRollBackAfterAFailedQueryOnAKilledConnection) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(
        "mock:dbname=shop",
        PoolOptions(1, -1,
                    {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_WARNING}}}));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    Log log;
    for (const bool commit : {true, false}) {
      Await(Spawn([&] {
        InsertAndKillInATransaction(pdo);
        EXPECT_TRUE(pdo.Exec("INSERT INTO t VALUES ('more')").is_false());
        ClearErrors();
        const Zval ended = commit ? pdo.Commit() : pdo.RollBack();
        log.push_back(pdo_sim::Render(ended.get()) + " " +
                      pdo.ErrorCode().str());
        for (const std::string& warning : Warnings()) log.push_back(warning);
        EXPECT_TRUE(Caught().empty());
        EXPECT_TRUE(pdo.InTransaction().is_false());
        log.push_back("count: " + std::to_string(CountsOf(pdo).count));
        EXPECT_TRUE(pdo.Commit().undef()) << "the transaction is over";
        Caught e;
        EXPECT_EQ(e.message(), "There is no active transaction");
      }));
    }
    EXPECT_EQ(log, (Log{"false HY000",
                        "PDO::commit(): SQLSTATE[HY000]: General error: 2006 "
                        "MySQL server has gone away",
                        "count: 0", "false HY000",
                        "PDO::rollBack(): SQLSTATE[HY000]: General error: "
                        "2006 MySQL server has gone away",
                        "count: 0"}));
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 0);
  });
}

TEST_F(BrokenTest, CancelDuringATransaction) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(1));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    bool sleeping = false;
    Task c = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES ('cancelled')");
      sleeping = true;
      pdo.Exec("SELECT SLEEP(5)");
      EXPECT_EQ(TakeExceptionText(),
                "Async\\AsyncCancellation: Coroutine cancelled");
    });
    YieldUntil([&] { return sleeping; });
    Cancel(c);
    Await(c);
    EXPECT_EQ(CountsOf(pdo).count, 0);
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 0);
    pdo.BeginTransaction();
    pdo.Exec("INSERT INTO t VALUES ('committed')");
    pdo.Commit();
    EXPECT_EQ(QueryValue(pdo, "SELECT v FROM t").str(), "committed");
  });
}

TEST_F(BrokenTest, RetryAfterCancelGetsAFreshConnection) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    bool sleeping = false;
    Log log;
    Task c = Spawn([&] {
      sleeping = true;
      pdo.Exec("SELECT SLEEP(5)");
      log.push_back("Caught: " + TakeExceptionText());
      log.push_back("Retry result: " +
                    std::to_string(QueryLong(pdo, "SELECT 42")));
    });
    YieldUntil([&] { return sleeping; });
    Cancel(c);
    Await(c);
    EXPECT_EQ(log, (Log{"Caught: Async\\AsyncCancellation: Coroutine cancelled",
                        "Retry result: 42"}));
    EXPECT_EQ(pdo_sim::mock::GetCounters().connections_made, 2u);
  });
}

TEST_F(BrokenTest, RetryAfterKillGetsAFreshConnection) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", Silent(2));
    Log log;
    Await(Spawn([&] {
      pdo.BeginTransaction();  // pinned
      pdo_sim::mock::KillConnection(QueryLong(pdo, "SELECT CONNECTION_ID()"));
      pdo.Exec("SELECT 1");
      log.push_back("First attempt errorCode: " + pdo.ErrorCode().str());
      log.push_back("Retry result: " +
                    std::to_string(QueryLong(pdo, "SELECT 99")));
    }));
    EXPECT_EQ(log, (Log{"First attempt errorCode: HY000", "Retry result: 99"}));
    EXPECT_EQ(CountsOf(pdo).count, 1);
  });
}

TEST_F(BrokenTest, StatementsOnABrokenConnectionGoSafely) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", Silent(1));
    Log log;
    Await(Spawn([&] {
      Statement live = pdo.Query("SELECT CONNECTION_ID()");
      pdo_sim::mock::KillConnection(live.FetchColumn().lval());
      Statement failed = pdo.Query("SELECT 1");
      log.push_back(failed.result().is_false() ? "failed" : "ran");
      live.Reset();
    }));
    log.push_back("count " + std::to_string(CountsOf(pdo).count));
    Await(Spawn([&] {
      log.push_back("val " + std::to_string(QueryLong(pdo, "SELECT 42")));
    }));
    EXPECT_EQ(log, (Log{"failed", "count 0", "val 42"}));
  });
}

TEST_F(BrokenTest, DeadIdleConnectionIsReapedOnAcquire) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2, 2));
    EXPECT_EQ(pdo_sim::mock::LiveConnectionIds(), (std::vector<int64_t>{1, 2}));
    pdo_sim::mock::KillConnection(1);
    pdo_sim::mock::KillConnection(2);
    // Each dead idle slot is rejected by the acquire and destroyed; a fresh
    // one serves the query.
    EXPECT_EQ(QueryLong(pdo, "SELECT CONNECTION_ID()"), 3);
    EXPECT_EQ(CountsOf(pdo).count, 1);
    EXPECT_EQ(pdo_sim::mock::GetCounters().connections_closed, 2u);
  });
}

TEST_F(BrokenTest, KilledWhileSleepingFailsOthersRunOn) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", Silent(2));
    std::vector<std::string> results;
    int64_t victim = 0;
    Task a = Spawn([&] {
      victim = QueryLong(pdo, "SELECT CONNECTION_ID()");
      pdo.BeginTransaction();  // keep this slot
      if (pdo.Exec("SELECT SLEEP(0.02)").is_false()) {
        results.push_back("A:error=" + pdo.ErrorCode().str());
      }
    });
    Task b = Spawn([&] {
      YieldUntil([&] { return victim != 0; });
      pdo_sim::mock::KillConnection(victim);
      results.push_back(QueryLong(pdo, "SELECT 1") == 1 ? "B:ok" : "B:bad");
    });
    Await(a);
    Await(b);
    std::sort(results.begin(), results.end());
    EXPECT_EQ(Joined(results), "A:error=HY000 B:ok");
    EXPECT_EQ(CountsOf(pdo).count, 1);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
