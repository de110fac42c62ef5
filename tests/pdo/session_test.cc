// Session-dirty pinning (pdo_pool_note_statement): SQL that leaves state on
// the connection keeps the slot with its coroutine until the coroutine
// ends; the driver resets the session when the next coroutine takes the
// slot (pdo_mysql's pool_before_acquire), so that coroutine starts clean -
// even when the SQL hides behind comments. On the mock and on MariaDB.

#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class SessionTest : public DriverTest {};
ZAR_PDO_ON_EVERY_DRIVER(SessionTest);

TEST_P(SessionTest, UserVariablePinsTheSlotUntilTheCoroutineEnds) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(1));
    Log log;
    zend_long a_id = 0;
    Task a = Spawn([&] {
      pdo.Exec("SET @secret = 42");
      a_id = QueryLong(pdo, "SELECT CONNECTION_ID()");
      log.push_back("A pinned idle=" + std::to_string(CountsOf(pdo).idle));
      Delay(5);
      log.push_back("A secret " +
                    pdo_sim::Render(QueryValue(pdo, "SELECT @secret").get()));
    });
    Task b = Spawn([&] {
      // Waits for the only slot: A keeps it until A ends.
      const zend_long b_id = QueryLong(pdo, "SELECT CONNECTION_ID()");
      log.push_back(b_id == a_id ? "B on A's connection" : "B elsewhere");
      log.push_back("B secret " +
                    pdo_sim::Render(QueryValue(pdo, "SELECT @secret").get()));
    });
    Await(a);
    Await(b);
    EXPECT_EQ(log, (Log{"A pinned idle=0", "A secret 42", "B on A's connection",
                        "B secret null"}));
    // Reset once, when B took the slot; B's own probe dirtied it again,
    // for the next coroutine to reset.
    EXPECT_EQ(Resets(), 1u);
  });
}

TEST_P(SessionTest, PlainStatementsDoNotPin) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
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
    // Back idle, still dirty: reset when a coroutine takes it.
    EXPECT_EQ(Resets(), 0u);
    EXPECT_EQ(QueryLong(pdo, "SELECT 3"), 3);
    EXPECT_EQ(Resets(), 1u);
  });
}

// pdo_pool_028: the same session change, however it is disguised.
TEST_P(SessionTest, SessionChangesBehindADisguiseArePinnedAndReset) {
  struct Case {
    const char* sql;
    const char* probe;     // run by the next coroutine
    const char* expected;  // what a clean session answers
  };
  // MariaDB's default (the private server runs without option files).
  constexpr char kSqlMode[] =
      "'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
      "NO_ENGINE_SUBSTITUTION'";
  const Case cases[] = {
      {"SET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode", kSqlMode},
      {"/* block */ SET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode",
       kSqlMode},
      {"-- line comment\nSET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode",
       kSqlMode},
      {"# hash comment\nSET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode",
       kSqlMode},
      {"/*!40101 SET sql_mode = 'ANSI_QUOTES' */", "SELECT @@sql_mode",
       kSqlMode},
      {"/*M!100000 SET sql_mode = 'ANSI_QUOTES' */", "SELECT @@sql_mode",
       kSqlMode},
      {"DO 1; SET sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode", kSqlMode},
      {"  \n\tset   sql_mode = 'ANSI_QUOTES'", "SELECT @@sql_mode", kSqlMode},
      {"CREATE TEMPORARY TABLE scratch (v INTEGER)",
       "SELECT COUNT(*) FROM scratch", "undef"},
      {"SELECT GET_LOCK('job', 0)", "SELECT IS_USED_LOCK('job')", "null"},
      {"SELECT @marker := 1", "SELECT @marker", "null"},
      {"USE other", "SELECT DATABASE()", "'shop'"},
  };
  RunMain([&] {
    for (const Case& c : cases) {
      SCOPED_TRACE(c.sql);
      const uint64_t resets = Resets();
      const uint64_t made = ConnectionsMade();
      Pdo pdo = Open(PoolOptions(
          1, -1, {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}}));
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
      // Reset when B took the slot (B's own probe may dirty it again).
      EXPECT_EQ(Resets() - resets, 1u);
      EXPECT_EQ(ConnectionsMade() - made, 1u);
    }
  });
}

// pdo_mysql resets a dirty session when the next coroutine takes the slot,
// not when the slot goes back: a named lock the first coroutine left is
// held while the slot idles, and free once another coroutine has it.
TEST_P(SessionTest, ALockLeftBehindIsHeldUntilTheNextCoroutineTakesTheSlot) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(1));
    zend_long a_id = 0;
    Await(Spawn([&] {
      a_id = QueryLong(pdo, "SELECT CONNECTION_ID()");
      EXPECT_EQ(QueryLong(pdo, "SELECT GET_LOCK('job', 0)"), 1);
    }));
    Log log;
    log.push_back(LockHolder("job") == a_id ? "idle: held by the slot"
                                            : "idle: not held by the slot");
    log.push_back("resets " + std::to_string(Resets()));
    Await(Spawn([&] {
      log.push_back(QueryLong(pdo, "SELECT CONNECTION_ID()") == a_id
                        ? "B on the same connection"
                        : "B elsewhere");
      log.push_back(LockHolder("job") ? "B: held" : "B: free");
    }));
    log.push_back("resets " + std::to_string(Resets()));
    EXPECT_EQ(log, (Log{"idle: held by the slot", "resets 0",
                        "B on the same connection", "B: free", "resets 1"}));
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
  });
}

// pdo_pool_027: cleaning a slot keeps what the connection was made with:
// the DSN's database and the character set it speaks.
TEST_P(SessionTest, AResetSessionKeepsTheDatabaseAndCharacterSetOfTheDsn) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(1));
    const std::string probe =
        "SELECT DATABASE(), @@session.character_set_client, "
        "@@session.character_set_connection, @@session.character_set_results";
    std::string before;
    Await(Spawn([&] {
      before = pdo_sim::Render(pdo.Query(probe).Fetch(PDO_FETCH_NUM).get());
      pdo.Exec("SET NAMES latin1");
      pdo.Exec("USE other");
    }));
    std::string after;
    Await(Spawn([&] {
      after = pdo_sim::Render(pdo.Query(probe).Fetch(PDO_FETCH_NUM).get());
    }));
    // Without a charset in the DSN, the server's default (MariaDB 10.11's).
    EXPECT_EQ(before, "['shop', 'latin1', 'latin1', 'latin1']");
    EXPECT_EQ(after, before);
  });
}

// On SQLite, which has no session reset: a dirty slot is destroyed, not
// reused.
class SessionSqliteTest : public PdoTest {};

TEST_F(SessionSqliteTest, TemporaryTableSlotIsNotReused) {
  RunMain([&] {
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
