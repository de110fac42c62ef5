// P3: a transaction pins its slot to its coroutine; a coroutine that ends
// mid-transaction has it rolled back; the main flow's binding survives the
// scheduler's launch; inTransaction() never takes a slot.

#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

class TransactionTest : public PdoTest {};

TEST_F(TransactionTest, CommitInOneCoroutineRollbackInAnother) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(3));
    pdo.Exec("CREATE TABLE t (id INTEGER, source TEXT)");
    Log log;
    Await(Spawn([&] {
      log.push_back("Coro1 starting");
      pdo.BeginTransaction();
      log.push_back(pdo.InTransaction().is_true() ? "inTransaction yes"
                                                  : "inTransaction no");
      pdo.Exec("INSERT INTO t VALUES (1, 'from_coro1')");
      pdo.Commit();
      log.push_back("committed");
    }));
    Await(Spawn([&] {
      log.push_back("Coro2 starting");
      pdo.BeginTransaction();
      log.push_back(pdo.InTransaction().is_true() ? "inTransaction yes"
                                                  : "inTransaction no");
      pdo.Exec("INSERT INTO t VALUES (2, 'from_coro2')");
      pdo.RollBack();
      log.push_back("rolled back");
    }));
    EXPECT_EQ(log, (Log{"Coro1 starting", "inTransaction yes", "committed",
                        "Coro2 starting", "inTransaction yes", "rolled back"}));
    EXPECT_EQ(pdo_sim::mock::CommittedRows("shop", "t"),
              (std::vector<std::vector<std::string>>{{"1", "from_coro1"}}));
  });
}

TEST_F(TransactionTest, CoroutineEndingMidTransactionIsRolledBack) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    pdo.Exec("CREATE TABLE t (id INTEGER, v TEXT)");
    pdo.Exec("INSERT INTO t VALUES (1, 'initial')");
    Await(Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("UPDATE t SET v = 'changed' WHERE id = 1");
      EXPECT_EQ(QueryValue(pdo, "SELECT v FROM t").str(), "changed");
    }));
    EXPECT_EQ(QueryValue(pdo, "SELECT v FROM t WHERE id = 1").str(), "initial");
    EXPECT_EQ(pdo_sim::mock::GetCounters().rollbacks, 1u);
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
  });
}

TEST_F(TransactionTest, SqliteCoroutineEndingMidTransactionIsRolledBack) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    pdo.Exec("INSERT INTO t VALUES (1)");
    pdo.BeginTransaction();
    pdo.Exec("INSERT INTO t VALUES (2)");
    pdo.RollBack();
    Await(Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES (42)");
    }));
    Zval rows = pdo.Query("SELECT v FROM t").FetchAll(PDO_FETCH_COLUMN);
    EXPECT_EQ(pdo_sim::Render(rows.get()), "[1]");
  });
}

TEST_F(TransactionTest, RawSqlTransactionPinsAndIsNotInherited) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    bool b_done = false;
    Task a = Spawn([&] {
      pdo.Exec("START TRANSACTION");
      pdo.Exec("INSERT INTO t VALUES (1)");
      // Pinned across statements: the row is this transaction's.
      EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 1);
      EXPECT_TRUE(pdo.InTransaction().is_true());
      EXPECT_EQ(CountsOf(pdo).active, 1);
      YieldUntil([&] { return b_done; });
    });
    Task b = Spawn([&] {
      EXPECT_TRUE(pdo.InTransaction().is_false());
      EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 0);
      EXPECT_TRUE(pdo.InTransaction().is_false());
      b_done = true;
    });
    Await(a);
    Await(b);
    EXPECT_TRUE(pdo_sim::mock::CommittedRows("shop", "t").empty());
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
  });
}

// php-async #202: the coroutine's end gives back a slot whose rollback
// suspends, and the PDO object is destroyed meanwhile.
TEST_F(TransactionTest, FinalizeWithOpenTransactionAfterPdoDestroyed) {
  pdo_sim::mock::SetTransactionEndLatency(5);
  Log log;
  RunMain([&] {
    Pdo pdo = Pdo::Open(
        "mock:dbname=shop",
        PoolOptions(1, -1,
                    {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}}));
    Task c = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("SELECT 1");
    });
    Await(c);
    pdo.Reset();
    log.push_back("survived unset");
  });
  EXPECT_EQ(Joined(log), "survived unset");
  EXPECT_EQ(pdo_sim::mock::GetCounters().rollbacks, 1u);
}

TEST_F(TransactionTest, OrphanedSlotIsRolledBackWhenItsStatementGoes) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    Log log;
    Statement kept;
    Await(Spawn([&] {
      pdo.BeginTransaction();
      kept = pdo.Prepare("INSERT INTO t VALUES (1)");
      kept.Execute();
    }));
    log.push_back("coroutine finished");
    EXPECT_EQ(CountsOf(pdo).active, 1);  // the statement still borrows it
    kept.Reset();
    log.push_back("statement freed");
    EXPECT_EQ(Joined(log), "coroutine finished statement freed");
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 0);
    pdo.Exec("INSERT INTO t VALUES (2)");
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 1);
    EXPECT_EQ(CountsOf(pdo).active, 0);
  });
}

TEST_F(TransactionTest, MainFlowTransactionSurvivesSchedulerLaunch) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    ASSERT_EQ(ZEND_ASYNC_CURRENT_COROUTINE, nullptr);
    pdo.BeginTransaction();
    pdo.Exec("INSERT INTO t VALUES (1)");
    Yield();  // launches the scheduler: main becomes the main coroutine
    ASSERT_NE(ZEND_ASYNC_CURRENT_COROUTINE, nullptr);
    EXPECT_TRUE(pdo.InTransaction().is_true());
    EXPECT_TRUE(pdo.Commit().is_true());
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 1);
    EXPECT_EQ(CountsOf(pdo).active, 0);
  });
}

TEST_F(TransactionTest, PreLaunchBindingIsReleasedWhenMainEnds) {
  Log log;
  Pdo pdo;  // outlives the main script, as a global would
  RunMain([&] {
    pdo = Pdo::Open("mock:dbname=shop", PoolOptions(1));
    pdo.Exec("CREATE TABLE t (v INTEGER)");  // before the launch
    Yield();
    pdo.BeginTransaction();
    pdo.Exec("INSERT INTO t VALUES (1)");
    Spawn([&] {
      // Waits for the only slot, which main's end gives back (rolled back).
      log.push_back("rows: " +
                    std::to_string(QueryLong(pdo, "SELECT COUNT(*) FROM t")));
      log.push_back("Done");
      pdo.Reset();
    });
    log.push_back("main code ends");
  });
  pdo.Reset();
  EXPECT_EQ(log, (Log{"main code ends", "rows: 0", "Done"}));
}

TEST_F(TransactionTest, InTransactionTakesNoSlot) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(2));
    EXPECT_TRUE(pdo.InTransaction().is_false());
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{0, 0, 0}));
    EXPECT_TRUE(pdo.BeginTransaction().is_true());
    EXPECT_TRUE(pdo.InTransaction().is_true());
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 0, 1}));
    EXPECT_TRUE(pdo.RollBack().is_true());
    EXPECT_TRUE(pdo.InTransaction().is_false());
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
    EXPECT_EQ(Thrown(pdo.Commit()),
              "PDOException: There is no active transaction");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
  });
}

TEST_F(TransactionTest, BeginTwiceThrows) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    EXPECT_TRUE(pdo.BeginTransaction().is_true());
    EXPECT_TRUE(pdo.BeginTransaction().undef());
    Caught e;
    EXPECT_EQ(e.message(), "There is already an active transaction");
    EXPECT_TRUE(pdo.RollBack().is_true());
  });
}

TEST_F(TransactionTest, TransactionsOfTwoCoroutinesAreIsolated) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    Log log;
    bool inserted = false;
    bool checked = false;
    Task writer = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES (1)");
      inserted = true;
      YieldUntil([&] { return checked; });
      pdo.Commit();
      log.push_back("committed");
    });
    Task reader = Spawn([&] {
      YieldUntil([&] { return inserted; });
      log.push_back("reader sees " +
                    std::to_string(QueryLong(pdo, "SELECT COUNT(*) FROM t")));
      checked = true;
    });
    Await(writer);
    Await(reader);
    log.push_back("after commit " +
                  std::to_string(QueryLong(pdo, "SELECT COUNT(*) FROM t")));
    EXPECT_EQ(log, (Log{"reader sees 0", "committed", "after commit 1"}));
  });
}

}  // namespace
}  // namespace zar::testing::pdo
