// Session-dirty pinning (pdo_pool_note_statement): SQL that leaves state on
// the connection keeps the slot with its coroutine until the coroutine
// ends; the driver resets the session when the pool takes it back, so the
// next coroutine starts clean - even when the SQL hides behind comments.

#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

class SessionTest : public PdoTest {};

TEST_F(SessionTest, UserVariablePinsTheSlotUntilTheCoroutineEnds) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(1));
    Log log;
    Task a = Spawn([&] {
      pdo.Exec("SET @secret = 42");
      log.push_back("A id " +
                    std::to_string(QueryLong(pdo, "SELECT CONNECTION_ID()")));
      log.push_back("A pinned idle=" + std::to_string(CountsOf(pdo).idle));
      Delay(5);
      log.push_back("A secret " +
                    pdo_sim::Render(QueryValue(pdo, "SELECT @secret").get()));
    });
    Task b = Spawn([&] {
      // Waits for the only slot: A keeps it until A ends.
      log.push_back("B id " +
                    std::to_string(QueryLong(pdo, "SELECT CONNECTION_ID()")));
      log.push_back("B secret " +
                    pdo_sim::Render(QueryValue(pdo, "SELECT @secret").get()));
    });
    Await(a);
    Await(b);
    EXPECT_EQ(log, (Log{"A id 1", "A pinned idle=0", "A secret 42", "B id 1",
                        "B secret null"}));
    // B's own probe reads a user variable too: reset again when B ends.
    EXPECT_EQ(pdo_sim::mock::GetCounters().resets, 2u);
  });
}

TEST_F(SessionTest, PlainStatementsDoNotPin) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    pdo.Exec("CREATE TABLE t (v TEXT)");
    Await(Spawn([&] {
      for (const char* sql :
           {"INSERT INTO t VALUES ('settings')", "SELECT 1",
            "UPDATE t SET v = 'user' WHERE v = 'x'",
            "DELETE FROM t WHERE v = 'use'", "/* SET */ SELECT 2"}) {
        pdo.Exec(sql);
        EXPECT_EQ(CountsOf(pdo).active, 0) << sql;
      }
      // Coarse on purpose: any '@' pins, even inside a string.
      pdo.Exec("SELECT 'mail@example.com'");
      EXPECT_EQ(CountsOf(pdo).active, 1);
    }));
    EXPECT_EQ(pdo_sim::mock::GetCounters().resets, 1u);
  });
}

// pdo_pool_028: the same session change, however it is disguised.
TEST_F(SessionTest, SessionChangesBehindADisguiseArePinnedAndReset) {
  struct Case {
    const char* sql;
    const char* probe;     // run by the next coroutine
    const char* expected;  // what a clean session answers
  };
  const Case cases[] = {
      {"SET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode", "''"},
      {"/* block */ SET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode", "''"},
      {"-- line comment\nSET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode",
       "''"},
      {"# hash comment\nSET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode",
       "''"},
      {"/*!40101 SET sql_mode = 'ANSI_QUOTES' */", "SELECT @@sql_mode", "''"},
      {"/*M!100000 SET sql_mode = 'ANSI_QUOTES' */", "SELECT @@sql_mode", "''"},
      {"DO 1; SET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode", "''"},
      {"  \n\tset   sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode", "''"},
      {"CREATE TEMPORARY TABLE scratch (v INTEGER)",
       "SELECT COUNT(*) FROM scratch", "undef"},
      {"SELECT GET_LOCK('job', 0)", "SELECT IS_USED_LOCK('job')", "null"},
      {"SELECT @marker := 1", "SELECT @marker", "null"},
      {"USE other", "SELECT DATABASE()", "'shop'"},
  };
  RunMain([&] {
    for (const Case& c : cases) {
      SCOPED_TRACE(c.sql);
      pdo_sim::mock::Reset();
      Pdo pdo = Pdo::Open(
          "mock:dbname=shop",
          PoolOptions(1, -1,
                      {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}}));
      PoolCounts pinned;
      Task a = Spawn([&] {
        EXPECT_FALSE(pdo.Exec(c.sql).is_false()) << pdo.ErrorCode().str();
        pinned = CountsOf(pdo);
      });
      std::string seen;
      Task b = Spawn([&] {
        Statement stmt = pdo.Query(c.probe);
        seen = stmt.ok() ? pdo_sim::Render(stmt.FetchColumn().get()) : "undef";
      });
      Await(a);
      Await(b);
      EXPECT_EQ(pinned, (PoolCounts{1, 0, 1}));
      EXPECT_EQ(seen, c.expected);
      // B's probe dirties its session too when it reads a variable.
      const uint64_t probe_resets = strchr(c.probe, '@') != nullptr ? 1 : 0;
      EXPECT_EQ(pdo_sim::mock::GetCounters().resets, 1 + probe_resets);
      EXPECT_EQ(pdo_sim::mock::GetCounters().connections_made, 1u);
    }
  });
}

TEST_F(SessionTest, SqliteTemporaryTableSlotIsNotReused) {
  RunMain([&] {
    // SQLite has no session reset: a dirty slot is destroyed, not reused.
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(2));
    Await(Spawn([&] {
      pdo.Exec("CREATE TEMPORARY TABLE scratch (v INTEGER)");
      EXPECT_EQ(CountsOf(pdo).active, 1);
    }));
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{0, 0, 0}));
    EXPECT_TRUE(pdo.Exec("SELECT * FROM scratch").undef());
    Caught e;
    EXPECT_EQ(e.message(),
              "SQLSTATE[HY000]: General error: 1 no such table: scratch");
  });
}

}  // namespace
}  // namespace zar::testing::pdo
