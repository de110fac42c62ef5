// P7: a connection killed server-side, or cancelled mid-query, is broken:
// its slot is destroyed, never reused, and a retry on the same PDO object
// transparently gets a fresh connection. On the mock (its KillConnection)
// and on MariaDB (KILL from another connection).

#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class BrokenTest : public DriverTest {
 protected:
  // Opens a transaction, inserts 'lost' into t and kills the connection
  // server-side (the client has not noticed yet).
  void InsertAndKillInATransaction(Pdo& pdo) {
    pdo.BeginTransaction();
    pdo.Exec("INSERT INTO t VALUES ('lost')");
    EXPECT_TRUE(Kill(QueryLong(pdo, "SELECT CONNECTION_ID()")));
  }
};
ZAR_PDO_ON_EVERY_DRIVER(BrokenTest);

Options Silent(zend_long max, zend_long min = -1) {
  return PoolOptions(max, min,
                     {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}});
}

TEST_P(BrokenTest, CancelDuringAQueryDestroysTheSlot) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    bool started = false;
    std::string outcome;
    Task c = Spawn([&] {
      QueryLong(pdo, "SELECT 1");  // connected: the cancel hits the query
      started = true;
      pdo.Exec("SELECT SLEEP(5)");
      outcome = TakeExceptionText();
    });
    EXPECT_TRUE(WaitUntil([&] { return started; }));
    Cancel(c);
    Await(c);
    EXPECT_EQ(outcome, "Async\\AsyncCancellation: Coroutine cancelled");
    EXPECT_EQ(CountsOf(pdo).count, 0);  // broken: destroyed
    std::string val;
    Await(Spawn(
        [&] { val = pdo_sim::Render(QueryValue(pdo, "SELECT 42").get()); }));
    EXPECT_EQ(val, "42");
    EXPECT_EQ(ConnectionsMade(), 2u);
  });
}

TEST_P(BrokenTest, CancelWhileWaitingForASlotStaysACancellation) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(1));
    bool holding = false;
    bool release = false;
    bool waiting = false;
    Task holder = Spawn([&] {
      pdo.BeginTransaction();
      holding = true;
      EXPECT_TRUE(WaitUntil([&] { return release; }));
      pdo.Commit();
    });
    std::string outcome;
    Task waiter = Spawn([&] {
      EXPECT_TRUE(WaitUntil([&] { return holding; }));
      waiting = true;
      EXPECT_TRUE(pdo.Exec("SELECT 1").undef());  // waits for the only slot
      outcome = TakeExceptionText();
    });
    EXPECT_TRUE(WaitUntil([&] { return waiting; }));
    Yield();  // the waiter parks in the pool
    Cancel(waiter);
    Await(waiter);
    release = true;
    Await(holder);
    EXPECT_EQ(outcome, "Async\\AsyncCancellation: Coroutine cancelled");
    EXPECT_EQ(Settled(pdo), (PoolCounts{1, 1, 0}));
    EXPECT_EQ(QueryLong(pdo, "SELECT 7"), 7);
  });
}

TEST_P(BrokenTest, KilledConnectionIsDestroyedNotReused) {
  RunMain([&] {
    Pdo pdo = Open(Silent(1));
    Log log;
    Await(Spawn([&] {
      Statement stmt = pdo.Query("SELECT CONNECTION_ID()");
      ASSERT_TRUE(Kill(stmt.FetchColumn().lval()));
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

TEST_P(BrokenTest, KilledDuringATransaction) {
  RunMain([&] {
    Pdo pdo = Open(Silent(1));
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

TEST_P(BrokenTest, CommitAfterAKillReportsTheLostConnection) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(1));
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
    EXPECT_EQ(ConnectionsMade(), 2u);
  });
}

TEST_P(BrokenTest, CommitOrRollBackAfterAFailedQueryOnAKilledConnection) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(
        1, -1, {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_WARNING}}}));
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

TEST_P(BrokenTest, CancelDuringATransaction) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(1));
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
    EXPECT_TRUE(WaitUntil([&] { return sleeping; }));
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

TEST_P(BrokenTest, RetryAfterCancelGetsAFreshConnection) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    bool sleeping = false;
    Log log;
    Task c = Spawn([&] {
      QueryLong(pdo, "SELECT 1");  // connected: the cancel hits the query
      sleeping = true;
      pdo.Exec("SELECT SLEEP(5)");
      log.push_back("Caught: " + TakeExceptionText());
      log.push_back("Retry result: " +
                    std::to_string(QueryLong(pdo, "SELECT 42")));
    });
    EXPECT_TRUE(WaitUntil([&] { return sleeping; }));
    Cancel(c);
    Await(c);
    EXPECT_EQ(log, (Log{"Caught: Async\\AsyncCancellation: Coroutine cancelled",
                        "Retry result: 42"}));
    EXPECT_EQ(ConnectionsMade(), 2u);
  });
}

TEST_P(BrokenTest, RetryAfterKillGetsAFreshConnection) {
  RunMain([&] {
    Pdo pdo = Open(Silent(2));
    Log log;
    Await(Spawn([&] {
      pdo.BeginTransaction();  // pinned
      Kill(QueryLong(pdo, "SELECT CONNECTION_ID()"));
      pdo.Exec("SELECT 1");
      log.push_back("First attempt errorCode: " + pdo.ErrorCode().str());
      log.push_back("Retry result: " +
                    std::to_string(QueryLong(pdo, "SELECT 99")));
    }));
    EXPECT_EQ(log, (Log{"First attempt errorCode: HY000", "Retry result: 99"}));
    EXPECT_EQ(CountsOf(pdo).count, 1);
  });
}

TEST_P(BrokenTest, StatementsOnABrokenConnectionGoSafely) {
  RunMain([&] {
    Pdo pdo = Open(Silent(1));
    Log log;
    Await(Spawn([&] {
      Statement live = pdo.Query("SELECT CONNECTION_ID()");
      Kill(live.FetchColumn().lval());
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

// pdo_mysql hands an idle slot over without asking the server (only a
// dirty one is reset), so a connection killed while idle fails the next
// statement (and is destroyed), once per dead slot, until a fresh one
// serves it.
TEST_P(BrokenTest, AConnectionKilledWhileIdleFailsItsNextStatement) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2, 2));
    const std::vector<zend_long> ids = LiveConnectionIds();
    ASSERT_EQ(ids.size(), 2u);
    for (const zend_long id : ids) EXPECT_TRUE(Kill(id));
    Log log;
    for (int i = 0; i < 3; i++) log.push_back(Thrown(pdo.Exec("DO 1")));
    EXPECT_EQ(log, (Log{"PDOException: SQLSTATE[HY000]: General error: 2006 "
                        "MySQL server has gone away",
                        "PDOException: SQLSTATE[HY000]: General error: 2006 "
                        "MySQL server has gone away",
                        "(no exception: returned 0)"}));
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
    EXPECT_EQ(ConnectionsClosed(), 2u);
  });
}

// KILL ends the statement running on the connection at once: the killed
// coroutine learns of it long before its SLEEP(5) would have ended (here:
// before a half-second timer another coroutine started after the KILL),
// and the others run on.
TEST_P(BrokenTest, KilledWhileSleepingFailsOthersRunOn) {
  RunMain([&] {
    Pdo pdo = Open(Silent(2));
    Log log;
    int64_t victim = 0;
    bool sleeping = false;
    Task a = Spawn([&] {
      victim = QueryLong(pdo, "SELECT CONNECTION_ID()");
      pdo.BeginTransaction();  // keep this slot
      sleeping = true;
      if (pdo.Exec("SELECT SLEEP(5)").is_false()) {
        log.push_back("A:error=" + pdo.ErrorCode().str() + " " +
                      pdo_sim::Render(pdo.ErrorInfo().get()));
      }
    });
    Task b = Spawn([&] {
      EXPECT_TRUE(WaitUntil([&] { return sleeping; }));
      EXPECT_TRUE(Kill(victim));
      Delay(500);
      log.push_back("B:half a second later");
      log.push_back(QueryLong(pdo, "SELECT 1") == 1 ? "B:ok" : "B:bad");
    });
    Await(a);
    Await(b);
    EXPECT_EQ(
        log, (Log{"A:error=HY000 ['HY000', 2006, 'MySQL server has gone away']",
                  "B:half a second later", "B:ok"}));
    EXPECT_EQ(Settled(pdo).count, 1);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
