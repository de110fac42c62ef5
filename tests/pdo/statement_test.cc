// P4: live statements pin their slot (pool_slot_refcount); the last one to
// go gives it back - in another coroutine than the one that made it, or
// after the PDO object is gone. On the mock and on MariaDB; SQLite's own
// statements on SQLite.

#include <algorithm>

#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class StatementTest : public DriverTest {};
ZAR_PDO_ON_EVERY_DRIVER(StatementTest);

// On SQLite.
class StatementSqliteTest : public PdoTest {};

TEST_P(StatementTest, TwoLiveStatementsShareTheSlot) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    Await(Spawn([&] {
      Statement first = pdo.Query("SELECT CONNECTION_ID()");
      Statement second = pdo.Query("SELECT CONNECTION_ID()");
      EXPECT_EQ(first.FetchColumn().lval(), second.FetchColumn().lval());
      Statement insert = pdo.Prepare("INSERT INTO t VALUES (?)");
      insert.Execute({"hello"});
      Statement select = pdo.Prepare("SELECT v FROM t");
      select.Execute();
      EXPECT_EQ(select.FetchColumn().str(), "hello");
      EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 0, 1}));
    }));
  });
}

TEST_P(StatementTest, FirstStatementFreedTheOtherKeepsWorking) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    Await(Spawn([&] {
      Statement first = pdo.Query("SELECT CONNECTION_ID()");
      const zend_long id = first.FetchColumn().lval();
      Statement second = pdo.Prepare("INSERT INTO t VALUES (?)");
      first.Reset();
      EXPECT_TRUE(second.Execute({"after_unset"}).is_true());
      EXPECT_EQ(QueryLong(pdo, "SELECT CONNECTION_ID()"), id);
      EXPECT_EQ(QueryValue(pdo, "SELECT v FROM t").str(), "after_unset");
    }));
  });
}

TEST_P(StatementTest, SlotGoesBackWhenTheLastStatementGoes) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    std::vector<zend_long> idle;
    Await(Spawn([&] {
      idle.push_back(CountsOf(pdo).idle);
      Statement first = pdo.Query("SELECT 1");
      Statement second = pdo.Query("SELECT 2");
      idle.push_back(CountsOf(pdo).idle);
      first.Reset();
      idle.push_back(CountsOf(pdo).idle);
      second.Reset();  // mid-coroutine
      idle.push_back(CountsOf(pdo).idle);
    }));
    idle.push_back(CountsOf(pdo).idle);
    EXPECT_EQ(idle, (std::vector<zend_long>{0, 0, 0, 1, 1}));
  });
}

TEST_P(StatementTest, EachCoroutineCountsItsOwnStatements) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    std::vector<zend_long> ids;
    std::vector<Task> coroutines;
    for (const char* name : {"coro1", "coro2"}) {
      coroutines.push_back(Spawn([&, name] {
        Statement id = pdo.Query("SELECT CONNECTION_ID()");
        const zend_long mine = id.FetchColumn().lval();
        ids.push_back(mine);
        Statement insert = pdo.Prepare("INSERT INTO t VALUES (?)");
        Delay(2);  // the other coroutine works meanwhile, on its own slot
        insert.Execute({name});
        EXPECT_EQ(QueryLong(pdo, "SELECT CONNECTION_ID()"), mine);
      }));
    }
    for (Task& c : coroutines) Await(c);
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_NE(ids[0], ids[1]);
    Zval rows =
        pdo.Query("SELECT v FROM t ORDER BY v").FetchAll(PDO_FETCH_COLUMN);
    EXPECT_EQ(pdo_sim::Render(rows.get()), "['coro1', 'coro2']");
  });
}

TEST_P(StatementTest, TransactionKeepsTheSlotAfterItsStatementsGo) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    std::vector<zend_long> idle;
    Await(Spawn([&] {
      pdo.BeginTransaction();
      Statement a = pdo.Prepare("INSERT INTO t VALUES ('row1')");
      Statement b = pdo.Prepare("INSERT INTO t VALUES ('row2')");
      a.Execute();
      b.Execute();
      a.Reset();
      b.Reset();
      idle.push_back(CountsOf(pdo).idle);
      pdo.Exec("INSERT INTO t VALUES ('row3')");
      pdo.Commit();
      idle.push_back(CountsOf(pdo).idle);
    }));
    EXPECT_EQ(idle, (std::vector<zend_long>{0, 1}));
    Zval rows = pdo.Query("SELECT v FROM t").FetchAll(PDO_FETCH_COLUMN);
    EXPECT_EQ(pdo_sim::Render(rows.get()), "['row1', 'row2', 'row3']");
  });
}

TEST_P(StatementTest, LastInsertIdWhileAStatementPinsTheSlot) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    pdo.Exec("CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, v TEXT)");
    Statement insert = pdo.Prepare("INSERT INTO t (v) VALUES (?)");
    insert.Execute({"a"});
    const std::string first = pdo.LastInsertId().str();
    insert.Execute({"b"});
    const std::string second = pdo.LastInsertId().str();
    EXPECT_EQ(first, "1");
    EXPECT_EQ(second, "2");
  });
}

TEST_P(StatementTest, LastInsertIdAfterExecIsFalse) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    pdo.Exec("CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, v TEXT)");
    EXPECT_EQ(pdo.Exec("INSERT INTO t (v) VALUES ('x')").lval(), 1);
    EXPECT_TRUE(pdo.LastInsertId().is_false());  // the slot went back
  });
}

TEST_P(StatementTest, PreparedStatementsInTheirForms) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    Log log;
    Await(Spawn([&] {
      Statement hello = pdo.Prepare("SELECT ?");
      hello.Execute({"hello"});
      log.push_back(hello.FetchColumn().str());
      Statement set = pdo.Prepare("SET @tag = ?");
      log.push_back(set.Execute({"x"}).is_true() ? "SET ok" : "SET failed");
      pdo.BeginTransaction();
      Statement in_txn = pdo.Prepare("SELECT 'in_txn'");
      in_txn.Execute();
      log.push_back(in_txn.FetchColumn().str());
      pdo.Commit();
    }));
    std::vector<std::string> concurrent;
    std::vector<Task> coroutines;
    for (const char* name : {"coro_a", "coro_b"}) {
      coroutines.push_back(Spawn([&, name] {
        Statement stmt = pdo.Prepare("SELECT :name");
        stmt.ExecuteNamed({{":name", name}});
        Delay(1);
        concurrent.push_back(stmt.FetchColumn().str());
      }));
    }
    for (Task& c : coroutines) Await(c);
    EXPECT_EQ(Joined(log), "hello SET ok in_txn");
    // Each its own value (which comes back first is the server's timing).
    std::sort(concurrent.begin(), concurrent.end());
    EXPECT_EQ(Joined(concurrent), "coro_a coro_b");
  });
}

TEST_P(StatementTest, FailedQueriesDoNotBurnSlots) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(
        3, -1, {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}}));
    zend_long peak = 0;
    for (int i = 0; i < 6; i++) {
      Statement stmt = pdo.Query("SELECT * FROM missing");
      EXPECT_TRUE(stmt.result().is_false());
      peak = std::max(peak, CountsOf(pdo).active);
    }
    EXPECT_EQ(peak, 1);
    EXPECT_EQ(QueryLong(pdo, "SELECT 1"), 1);
    EXPECT_EQ(ConnectionsMade(), 1u);
  });
}

TEST_P(StatementTest, StatementOutlivesItsCoroutine) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    Log log;
    Statement escaped;
    Await(Spawn([&] {
      escaped = pdo.Prepare("INSERT INTO t VALUES (1)");
      escaped.Execute();
    }));
    log.push_back("coroutine finished");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 0, 1}));
    escaped.Reset();
    log.push_back("statement freed");
    EXPECT_EQ(Joined(log), "coroutine finished statement freed");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 1);
    EXPECT_EQ(ConnectionsMade(), 1u);
  });
}

// pool_009: a PDO object and a statement in one garbage cycle, the PDO
// object freed first: the statement still gives its slot back.
TEST_P(StatementTest, StatementOutlivesAPdoCollectedFirst) {
  Log log;
  RunMain([&] {
    {
      Pdo pdo = Open(PoolOptions(3));
      ASSERT_TRUE(pdo.ok());
      Statement stmt = pdo.Query("SELECT 1");
      ASSERT_TRUE(stmt.ok());
      // $pdo->keep = $stmt: PDO -> statement -> PDO.
      zend_update_property(nullptr, pdo.obj(), ZEND_STRL("keep"), stmt.zv());
      EXPECT_EQ(LiveConnections(), 1u);
    }
    EXPECT_GT(gc_collect_cycles(), 0);
    log.push_back("survived");
    EXPECT_EQ(LiveConnections(), 0u);
  });
  EXPECT_EQ(Joined(log), "survived");
}

TEST_P(StatementTest, StatementKeptAcrossTheSchedulerLaunch) {
  Log log;
  RunMain([&] {
    for (int round = 0; round < 2; round++) {
      Pdo pdo = Open(PoolOptions(8, 1));
      pdo.Exec("CREATE TABLE IF NOT EXISTS t (v TEXT)");
      Statement stmt = pdo.Prepare("INSERT INTO t VALUES (?)");
      stmt.Execute({"hi"});
      Yield();  // the launch happens under the live statement (first round)
      stmt.Execute({"hi"});
    }  // the statement, then the PDO object, go
    log.push_back("survived");
    EXPECT_EQ(CommittedRows("t").size(), 4u);
  });
  EXPECT_EQ(Joined(log), "survived");
}

TEST_F(StatementSqliteTest, StatementsPinAndRelease) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(3));
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    pdo.Exec("INSERT INTO t VALUES (1), (2), (3)");
    Statement stmt = pdo.Query("SELECT v FROM t ORDER BY v");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 0, 1}));
    EXPECT_EQ(pdo_sim::Render(stmt.Fetch(PDO_FETCH_NUM).get()), "[1]");
    EXPECT_EQ(pdo_sim::Render(stmt.Fetch(PDO_FETCH_ASSOC).get()), "[v: 2]");
    EXPECT_EQ(pdo_sim::Render(stmt.Fetch(PDO_FETCH_BOTH).get()), "[v: 3, 3]");
    EXPECT_TRUE(stmt.Fetch().is_false());
    stmt.Reset();
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
  });
}

}  // namespace
}  // namespace zar::testing::pdo
