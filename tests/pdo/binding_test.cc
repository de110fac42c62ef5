// P2: each coroutine works on its own connection (a binding keyed by the
// coroutine), given back as soon as nothing pins it; MAX is never
// exceeded; attributes reach every slot. On the mock and on MariaDB; the
// scenarios SQLite shares run there too.

#include <algorithm>

#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class BindingTest : public DriverTest {};
ZAR_PDO_ON_EVERY_DRIVER(BindingTest);

// On SQLite.
class BindingSqliteTest : public PdoTest {};

TEST_P(BindingTest, EachCoroutineGetsItsOwnConnection) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    EXPECT_EQ(CountsOf(pdo).count, 0);
    std::vector<zend_long> ids;
    SpawnEachAndAwait(2, [&](int) {
      Statement stmt = pdo.Query("SELECT CONNECTION_ID()");
      ids.push_back(stmt.FetchColumn().lval());
      Delay(5);  // both hold their connection at once
    });
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_GT(ids[0], 0);
    EXPECT_GT(ids[1], 0);
    EXPECT_NE(ids[0], ids[1]);
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
  });
}

TEST_P(BindingTest, CountsBeforeDuringAndAfterAQuery) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(5));
    Zval pool = pdo.GetPool();
    EXPECT_FALSE(pdo_sim::CallMethod(pool.get(), "isClosed").is_true());
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{0, 0, 0}));
    PoolCounts during;
    Await(Spawn([&] {
      Statement stmt = pdo.Query("SELECT 1");
      during = CountsOf(pdo);
    }));
    EXPECT_EQ(during, (PoolCounts{1, 0, 1}));
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
  });
}

TEST_P(BindingTest, SlotGoesBackAfterEachStatementAndIsReused) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    std::vector<zend_long> idle;
    Await(Spawn([&] {
      for (int cycle = 1; cycle <= 3; cycle++) {
        Statement stmt = pdo.Query("SELECT " + std::to_string(cycle));
        EXPECT_EQ(stmt.FetchColumn().lval(), cycle);
        stmt.Reset();
        idle.push_back(CountsOf(pdo).idle);
      }
    }));
    EXPECT_EQ(idle, (std::vector<zend_long>{1, 1, 1}));
    EXPECT_EQ(CountsOf(pdo).count, 1);
    EXPECT_EQ(ConnectionsMade(), 1u);
  });
}

// Each statement takes 10 ms on the server (SLEEP() is 0), so all five
// slots are in use at once.
TEST_P(BindingTest, TwentyCoroutinesShareFiveConnections) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(5));
    zend_long sum = 0;
    zend_long peak = 0;
    SpawnEachAndAwait(20, [&](int i) {
      Statement stmt = pdo.Prepare("SELECT ? + 1 + SLEEP(0.01)");
      stmt.Execute({i});
      // The value goes as text: '3' + 1 is a DOUBLE (4.0).
      sum += zval_get_long(stmt.FetchColumn().get());
      peak = std::max(peak, CountsOf(pdo).count);
    });
    EXPECT_EQ(sum, 210);
    EXPECT_EQ(peak, 5);
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{5, 5, 0}));
    EXPECT_EQ(ConnectionsMade(), 5u);
  });
}

TEST_P(BindingTest, TwelveHoldersGrowTheIdleBuffer) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(12));
    SpawnEachAndAwait(12, [&](int) {
      pdo.BeginTransaction();
      Delay(5);
      pdo.Commit();
    });
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{12, 12, 0}));
  });
}

// Thirty coroutines at once on a pool of five: five connections are made
// and lent (each statement pins its own while its query sleeps), the other
// coroutines wait for one, and every insert lands.
TEST_P(BindingTest, ThirtyConcurrentPreparedInserts) {
  EXPECT_TRUE(RunMain([&] {
    Pdo pdo = Open(PoolOptions(5));
    pdo.Exec("CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, v INTEGER)");
    std::vector<Task> coroutines;
    for (int i = 1; i <= 30; i++) {
      coroutines.push_back(Spawn([&, i] {
        // 10 ms on the server each (SLEEP() is 0).
        Statement stmt =
            pdo.Prepare("INSERT INTO t (v) VALUES (? + SLEEP(0.01))");
        EXPECT_TRUE(stmt.Execute({i}).is_true());
      }));
    }
    PoolCounts during;
    Await(Spawn([&] { during = CountsOf(pdo); }));
    for (Task& c : coroutines) Await(c);
    EXPECT_EQ(during, (PoolCounts{5, 0, 5}));
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 30);
    // SUM of integers is a DECIMAL, which PDO gives as text.
    EXPECT_EQ(QueryValue(pdo, "SELECT SUM(v) FROM t").str(), "465");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{5, 5, 0}));
    EXPECT_EQ(ConnectionsMade(), 5u);
  }));
}

TEST_P(BindingTest, MaxIsEnforcedWhileQueriesSleepAndConnectsYield) {
  ConnectsWait();  // the factory suspends
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    std::vector<Task> coroutines;
    for (int i = 0; i < 10; i++) {
      coroutines.push_back(Spawn([&] { pdo.Exec("SELECT SLEEP(0.02)"); }));
    }
    zend_long during = -1;
    Await(Spawn([&] {
      Delay(10);
      during = CountsOf(pdo).count;
    }));
    for (Task& c : coroutines) Await(c);
    EXPECT_EQ(during, 3);
    EXPECT_EQ(CountsOf(pdo).count, 3);
    EXPECT_EQ(ConnectionsMade(), 3u);
  });
}

TEST_P(BindingTest, SetAttributeReachesEverySlotPresentAndFuture) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(4, 1));
    EXPECT_TRUE(pdo.SetAttribute(PDO_ATTR_AUTOCOMMIT, false).is_true());
    EXPECT_TRUE(pdo.GetAttribute(PDO_ATTR_AUTOCOMMIT).is_false());
    std::vector<std::string> seen;
    SpawnEachAndAwait(4, [&](int) {
      Statement stmt = pdo.Query("SELECT @@session.autocommit");
      seen.push_back(pdo_sim::Render(stmt.FetchColumn().get()));
      Delay(5);  // four distinct slots
    });
    EXPECT_EQ(Joined(seen), "0 0 0 0");
    EXPECT_EQ(CountsOf(pdo).count, 4);
  });
}

TEST_P(BindingTest, AutocommitOffMakesWritesTransactional) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    pdo.SetAttribute(PDO_ATTR_AUTOCOMMIT, false);
    Await(Spawn([&] {
      pdo.Exec("INSERT INTO t VALUES (1)");
      // The driver reports the implicit transaction: it pins the slot and
      // rollBack() finds it.
      EXPECT_TRUE(pdo.InTransaction().is_true());
      EXPECT_TRUE(pdo.RollBack().is_true());
      pdo.Exec("INSERT INTO t VALUES (2)");
    }));  // ends uncommitted: rolled back
    EXPECT_TRUE(CommittedRows("t").empty());
  });
}

TEST_F(BindingSqliteTest, CoroutinesReadTheirRows) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(4));
    pdo.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    pdo.Exec("INSERT INTO t VALUES (0,'a'),(1,'b'),(2,'c'),(3,'d'),(4,'e')");
    std::vector<std::string> rows;
    std::vector<Task> coroutines;
    for (int i = 4; i >= 0; i--) {
      coroutines.push_back(Spawn([&, i] {
        Statement stmt = pdo.Prepare("SELECT v FROM t WHERE id = ?");
        stmt.Execute({i});
        rows.push_back(std::to_string(i) + ":" + stmt.FetchColumn().str());
      }));
    }
    for (Task& c : coroutines) Await(c);
    std::sort(rows.begin(), rows.end());
    EXPECT_EQ(Joined(rows), "0:a 1:b 2:c 3:d 4:e");
  });
}

TEST_F(BindingSqliteTest, TransactionStateIsPerSlot) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(4));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    std::string a, b;
    Task ca = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES ('a')");
      a = pdo.InTransaction().is_true() ? "A:in" : "A:out";
    });
    Task cb = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES ('b')");
      pdo.Commit();
      b = pdo.InTransaction().is_true() ? "B:in" : "B:out";
    });
    Await(ca);
    Await(cb);
    EXPECT_EQ(a, "A:in");
    EXPECT_EQ(b, "B:out");
    Zval rows = pdo.Query("SELECT v FROM t").FetchAll(PDO_FETCH_COLUMN);
    EXPECT_EQ(pdo_sim::Render(rows.get()), "['b']");
  });
}

// Behaviour P2 (PA sqlite 006): with one slot, the second transaction
// waits until the first commits (whether or not beginning one waits for a
// server, which on a real one lets both coroutines start first).
void TransactionsTakeTheOnlySlotInTurn(Pdo& pdo) {
  Log log;
  SpawnEachAndAwait(2, [&](int i) {
    pdo.BeginTransaction();
    log.push_back(std::to_string(i) + ":holding");
    Delay(10);
    pdo.Commit();
    log.push_back(std::to_string(i) + ":committed");
  });
  EXPECT_EQ(log, (Log{"0:holding", "0:committed", "1:holding", "1:committed"}));
  EXPECT_EQ(CountsOf(pdo).count, 1);
}

TEST_P(BindingTest, TransactionPinningOrderWithOneSlot) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(1));
    TransactionsTakeTheOnlySlotInTurn(pdo);
  });
}

TEST_F(BindingSqliteTest, TransactionPinningOrderWithOneSlot) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(1));
    TransactionsTakeTheOnlySlotInTurn(pdo);
  });
}

// Behaviour: lastInsertId() answers for the running coroutine's slot; two
// coroutines that insert at the same time each see their own id. `id` is
// the driver's auto-numbered column.
void LastInsertIdsArePerSlot(Pdo& pdo, const std::string& id) {
  pdo.Exec("CREATE TABLE t (" + id + ", v TEXT)");
  std::vector<std::string> ids;
  SpawnEachAndAwait(2, [&](int) {
    Statement stmt = pdo.Prepare("INSERT INTO t (v) VALUES ('x')");
    stmt.Execute();
    Delay(2);  // the other coroutine inserts meanwhile, on its slot
    ids.push_back(pdo.LastInsertId().str());
  });
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(Joined(ids), "1 2");
}

TEST_P(BindingTest, LastInsertIdIsPerSlot) {
  QueriesWait();
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(4));
    LastInsertIdsArePerSlot(pdo, "id INT PRIMARY KEY AUTO_INCREMENT");
  });
}

TEST_F(BindingSqliteTest, LastInsertIdIsPerSlot) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(4));
    LastInsertIdsArePerSlot(pdo, "id INTEGER PRIMARY KEY");
  });
}

}  // namespace
}  // namespace zar::testing::pdo
