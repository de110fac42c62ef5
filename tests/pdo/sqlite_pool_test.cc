// Pooled SQLite under concurrency: a writer waiting for the database lock
// waits on the reactor, so the lock holder runs and lets go.

#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

class SqlitePoolTest : public PdoTest {};

TEST_F(SqlitePoolTest, SecondWriterWaitsOnTheReactorForTheLock) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    Log log;
    bool inserted = false;
    Task a = Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES ('a')");
      inserted = true;
      log.push_back("A:inserted");
      Delay(10);
      pdo.Commit();
      log.push_back("A:committed");
    });
    Task b = Spawn([&] {
      YieldUntil([&] { return inserted; });
      log.push_back("B:begin");
      pdo.BeginTransaction();  // busy until A commits: waits, not blocks
      log.push_back("B:began");
      pdo.Exec("INSERT INTO t VALUES ('b')");
      pdo.Commit();
    });
    Await(a);
    Await(b);
    EXPECT_EQ(log, (Log{"A:inserted", "B:begin", "A:committed", "B:began"}));
    EXPECT_GT(pdo_sim::sqlite::GetStats().busy_waits, 0u);
    Zval rows =
        pdo.Query("SELECT v FROM t ORDER BY v").FetchAll(PDO_FETCH_COLUMN);
    EXPECT_EQ(pdo_sim::Render(rows.get()), "['a', 'b']");
  });
}

TEST_F(SqlitePoolTest, BusyBeyondTheTimeoutFails) {
  RunMain([&] {
    Pdo pdo =
        Pdo::Open(SqliteDsn(), PoolOptions(2, -1, {{PDO_ATTR_TIMEOUT, 0}}));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    bool holding = false;
    bool done = false;
    Task a = Spawn([&] {
      pdo.BeginTransaction();
      holding = true;
      YieldUntil([&] { return done; });
      pdo.RollBack();
    });
    std::string failure;
    Task b = Spawn([&] {
      YieldUntil([&] { return holding; });
      pdo.BeginTransaction();
      Caught e;
      failure = e.message();
      done = true;
    });
    Await(a);
    Await(b);
    EXPECT_EQ(failure, "SQLSTATE[HY000]: General error: 5 database is locked");
  });
}

}  // namespace
}  // namespace zar::testing::pdo
