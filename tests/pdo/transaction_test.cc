// P3: a transaction pins its slot to its coroutine; a coroutine that ends
// mid-transaction has it rolled back; the main flow's binding survives the
// scheduler's launch; inTransaction() never takes a slot. On the mock and on
// MariaDB.

#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class TransactionTest : public DriverTest {};
ZAR_PDO_ON_EVERY_DRIVER(TransactionTest);

TEST_P(TransactionTest, CommitInOneCoroutineRollbackInAnother) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
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
    EXPECT_EQ(CommittedRows("t"),
              (std::vector<std::vector<std::string>>{{"1", "from_coro1"}}));
  });
}

TEST_P(TransactionTest, CoroutineEndingMidTransactionIsRolledBack) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    pdo.Exec("CREATE TABLE t (id INTEGER, v TEXT)");
    pdo.Exec("INSERT INTO t VALUES (1, 'initial')");
    Await(Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("UPDATE t SET v = 'changed' WHERE id = 1");
      EXPECT_EQ(QueryValue(pdo, "SELECT v FROM t").str(), "changed");
    }));
    EXPECT_EQ(Settled(pdo), (PoolCounts{1, 1, 0}));
    EXPECT_EQ(QueryValue(pdo, "SELECT v FROM t WHERE id = 1").str(), "initial");
    EXPECT_EQ(Rollbacks(), 1u);
  });
}

TEST_P(TransactionTest, RawSqlTransactionPinsAndIsNotInherited) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    bool a_pinned = false;
    bool b_done = false;
    Task a = Spawn([&] {
      pdo.Exec("START TRANSACTION");
      pdo.Exec("INSERT INTO t VALUES (1)");
      // Pinned across statements: the row is this transaction's.
      EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 1);
      EXPECT_TRUE(pdo.InTransaction().is_true());
      EXPECT_EQ(CountsOf(pdo).active, 1);
      a_pinned = true;
      EXPECT_TRUE(WaitUntil([&] { return b_done; }));
    });
    Task b = Spawn([&] {
      EXPECT_TRUE(WaitUntil([&] { return a_pinned; }));
      EXPECT_TRUE(pdo.InTransaction().is_false());
      EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 0);
      EXPECT_TRUE(pdo.InTransaction().is_false());
      b_done = true;
    });
    Await(a);
    Await(b);
    EXPECT_EQ(Settled(pdo), (PoolCounts{2, 2, 0}));
    EXPECT_TRUE(CommittedRows("t").empty());
  });
}

// php-async #202: the coroutine's end gives back a slot whose rollback
// suspends, and the PDO object is destroyed meanwhile.
TEST_P(TransactionTest, FinalizeWithOpenTransactionAfterPdoDestroyed) {
  TransactionEndsWait();
  Log log;
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(
        1, -1, {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}}));
    Task c = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("SELECT 1");
    });
    Await(c);
    pdo.Reset();
    log.push_back("survived unset");
  });
  EXPECT_EQ(Joined(log), "survived unset");
  EXPECT_EQ(Rollbacks(), 1u);
}

TEST_P(TransactionTest, OrphanedSlotIsRolledBackWhenItsStatementGoes) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
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

TEST_P(TransactionTest, MainFlowTransactionSurvivesSchedulerLaunch) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    // The binding is made before the launch (on a real server, the first
    // wait for its answer launches the scheduler; on the mock, the Yield).
    ASSERT_EQ(ZEND_ASYNC_CURRENT_COROUTINE, nullptr);
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    pdo.BeginTransaction();
    pdo.Exec("INSERT INTO t VALUES (1)");
    Yield();  // the launch, if the statements have not made it
    ASSERT_NE(ZEND_ASYNC_CURRENT_COROUTINE, nullptr);
    EXPECT_TRUE(pdo.InTransaction().is_true());
    EXPECT_TRUE(pdo.Commit().is_true());
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 1);
    EXPECT_EQ(CountsOf(pdo).active, 0);
  });
}

TEST_P(TransactionTest, PreLaunchBindingIsReleasedWhenMainEnds) {
  Log log;
  Pdo pdo;  // outlives the main script, as a global would
  RunMain([&] {
    pdo = Open(PoolOptions(1));
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

TEST_P(TransactionTest, InTransactionTakesNoSlot) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
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

TEST_P(TransactionTest, BeginTwiceThrows) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    EXPECT_TRUE(pdo.BeginTransaction().is_true());
    EXPECT_TRUE(pdo.BeginTransaction().undef());
    Caught e;
    EXPECT_EQ(e.message(), "There is already an active transaction");
    EXPECT_TRUE(pdo.RollBack().is_true());
  });
}

TEST_P(TransactionTest, TransactionsOfTwoCoroutinesAreIsolated) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    Log log;
    bool inserted = false;
    bool checked = false;
    Task writer = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES (1)");
      inserted = true;
      EXPECT_TRUE(WaitUntil([&] { return checked; }));
      pdo.Commit();
      log.push_back("committed");
    });
    Task reader = Spawn([&] {
      EXPECT_TRUE(WaitUntil([&] { return inserted; }));
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

// On SQLite.
class TransactionSqliteTest : public PdoTest {};

TEST_F(TransactionSqliteTest, CoroutineEndingMidTransactionIsRolledBack) {
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

}  // namespace
}  // namespace zar::testing::pdo
