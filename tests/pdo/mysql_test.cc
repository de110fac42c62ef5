// PDO's "mysql" driver under the pool, against a real MariaDB server (the
// test binary's private one): coroutines share pooled connections while the
// reactor waits on their sockets; values, errors and a killed connection
// are what MariaDB and pdo_mysql make of them.

#include "tests/pdo/support/mysql_test.h"

#include <set>
#include <sstream>

namespace zar::testing::pdo {
namespace {

class MysqlPoolTest : public MysqlPdoTest {};

// The exception a call left in flight, as "Class|code|message|errorInfo".
std::string CaughtPdoError() {
  const Caught caught;
  return caught.class_name() + "|" + caught.code() + "|" + caught.message() +
         "|" + pdo_sim::Render(caught.error_info().get());
}

TEST_F(MysqlPoolTest, AQueryRunsOnAPooledConnectionThatGoesBackIdle) {
  RunMain([&] {
    Pdo pdo = OpenPool(2);
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    Await(Spawn([&] {
      EXPECT_EQ(QueryLong(pdo, "SELECT 1 + 1"), 2);
      EXPECT_EQ(pdo_sim::Render(QueryValue(pdo, "SELECT DATABASE()").get()),
                "'test'");
    }));
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
    EXPECT_EQ(pdo_sim::mysql::GetStats().connections_opened, 1u);
  });
}

// Each query parks its coroutine on its connection's socket: both are in
// flight at once, and a third coroutine runs meanwhile.
TEST_F(MysqlPoolTest, TwoCoroutinesQueriesOverlapOnTwoConnections) {
  RunMain([&] {
    Pdo pdo = OpenPool(2);
    Log log;
    zend_long ids[2] = {0, 0};
    auto query = [&](int i) {
      const std::string name = i == 0 ? "A" : "B";
      log.push_back(name + " started");
      Statement stmt = pdo.Query("SELECT SLEEP(0.2), CONNECTION_ID()");
      ASSERT_TRUE(stmt.ok()) << TakeExceptionText();
      Zval row = stmt.Fetch(PDO_FETCH_NUM);
      ids[i] = Z_LVAL_P(zend_hash_index_find(Z_ARRVAL_P(row.get()), 1));
      log.push_back(name + " finished");
    };
    Task a = Spawn([&] { query(0); });
    Task b = Spawn([&] { query(1); });
    Task c = Spawn([&] { log.push_back("C ran"); });
    Await(a);
    Await(b);
    Await(c);
    ASSERT_EQ(log.size(), 5u);
    EXPECT_EQ(Log(log.begin(), log.begin() + 3),
              (Log{"A started", "B started", "C ran"}));
    EXPECT_EQ(std::set<std::string>(log.begin() + 3, log.end()),
              (std::set<std::string>{"A finished", "B finished"}));
    EXPECT_NE(ids[0], ids[1]);
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
    EXPECT_GT(pdo_sim::mysql::GetStats().socket_waits, 0u);
  });
}

// execute()'s values reach the server and come back as they went in: a
// quote, a backslash, a NULL, floats, named and positional placeholders.
// A step that throws ends it (and the test) with the exception.
void RoundTripValues(Pdo& pdo, const std::string& table, Log& log) {
  ASSERT_FALSE(pdo.Exec("DROP TABLE IF EXISTS " + table).undef())
      << TakeExceptionText();
  ASSERT_FALSE(pdo.Exec("CREATE TABLE " + table +
                        " (id INT PRIMARY KEY, name VARCHAR(20), price "
                        "DOUBLE, note TEXT)")
                   .undef())
      << TakeExceptionText();
  Statement insert =
      pdo.Prepare("INSERT INTO " + table + " VALUES (?, ?, ?, ?)");
  ASSERT_TRUE(insert.ok()) << TakeExceptionText();
  ASSERT_FALSE(insert.Execute({1, "it's", 2.5, nullptr}).undef())
      << TakeExceptionText();
  log.push_back("inserted " + pdo_sim::Render(insert.RowCount().get()));
  Statement named = pdo.Prepare("INSERT INTO " + table +
                                " VALUES (:id, :name, :price, :note)");
  ASSERT_TRUE(named.ok()) << TakeExceptionText();
  ASSERT_FALSE(named
                   .ExecuteNamed({{":id", 2},
                                  {"name", "back\\slash"},
                                  {":price", -0.5},
                                  {":note", "two"}})
                   .undef())
      << TakeExceptionText();
  Statement select = pdo.Prepare("SELECT id, name, price, note FROM " + table +
                                 " WHERE id >= ? ORDER BY id");
  ASSERT_TRUE(select.ok()) << TakeExceptionText();
  ASSERT_FALSE(select.Execute({1}).undef()) << TakeExceptionText();
  log.push_back("rows " +
                pdo_sim::Render(select.FetchAll(PDO_FETCH_ASSOC).get()));
  ASSERT_FALSE(pdo.Exec("DROP TABLE " + table).undef()) << TakeExceptionText();
}

// What RoundTripValues logs when every value came back as it went in.
Log RoundTripped() {
  return {"inserted 1",
          "rows [[id: 1, name: 'it's', price: 2.500000, note: null], [id: 2, "
          "name: 'back\\slash', price: -0.500000, note: 'two']]"};
}

TEST_F(MysqlPoolTest, AnEmulatedPreparedStatementRoundTripsItsValues) {
  RunMain([&] {
    Pdo pdo = OpenPool(1);
    Log log;
    Await(Spawn([&] { RoundTripValues(pdo, "emulated", log); }));
    EXPECT_EQ(log, RoundTripped());
  });
}

TEST_F(MysqlPoolTest, AServerSidePreparedStatementRoundTripsItsValues) {
  RunMain([&] {
    Pdo pdo = OpenPool(1, {{PDO_ATTR_EMULATE_PREPARES, false}});
    Log log;
    Await(Spawn([&] {
      EXPECT_TRUE(pdo.GetAttribute(PDO_ATTR_EMULATE_PREPARES).is_false());
      RoundTripValues(pdo, "native", log);
    }));
    EXPECT_EQ(log, RoundTripped());
  });
}

// MariaDB's codes and texts, in PDO's "SQLSTATE[%s]: %s: %d %s"; the slot
// goes back after the error.
TEST_F(MysqlPoolTest, SqlErrorsAreReportedAsPdoMysqlReportsThem) {
  RunMain([&] {
    Pdo pdo = OpenPool(1);
    Log log;
    Await(Spawn([&] {
      EXPECT_TRUE(pdo.Exec("SELEC 1").undef());
      log.push_back(CaughtPdoError());
      EXPECT_FALSE(pdo.Query("SELECT * FROM missing_table").ok());
      log.push_back(CaughtPdoError());
    }));
    EXPECT_EQ(
        log,
        (Log{"PDOException|42000|SQLSTATE[42000]: Syntax error or access "
             "violation: 1064 You have an error in your SQL syntax; check the "
             "manual that corresponds to your MariaDB server version for the "
             "right syntax to use near 'SELEC 1' at line 1|['42000', 1064, "
             "'You have an error in your SQL syntax; check the manual that "
             "corresponds to your MariaDB server version for the right syntax "
             "to use near 'SELEC 1' at line 1']",
             "PDOException|42S02|SQLSTATE[42S02]: Base table or view not "
             "found: 1146 Table 'test.missing_table' doesn't exist|['42S02', "
             "1146, 'Table 'test.missing_table' doesn't exist']"}));
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
  });
}

// A connection the server refuses, or that finds no server: PDO's
// "SQLSTATE[%s] [%d] %s" with MariaDB's (or Connector/C's) code and text.
TEST_F(MysqlPoolTest, AFailedConnectIsReportedAsPdoMysqlReportsIt) {
  RunMain([&] {
    Log log;
    EXPECT_FALSE(Pdo::Open(Dsn(), {}, "root", "wrong").ok());
    log.push_back(CaughtPdoError());
    EXPECT_FALSE(
        Pdo::Open("mysql:unix_socket=" + TempPath("none.sock"), {}, "root", "")
            .ok());
    log.push_back(CaughtPdoError());
    EXPECT_EQ(log,
              (Log{"PDOException|1045|SQLSTATE[28000] [1045] Access denied for "
                   "user 'root'@'localhost' (using password: YES)|['28000', "
                   "1045, 'Access denied for user 'root'@'localhost' (using "
                   "password: YES)']",
                   "PDOException|2002|SQLSTATE[HY000] [2002] Can't connect to "
                   "local server through socket '" +
                       TempPath("none.sock") +
                       "' (2)|['HY000', 2002, 'Can't connect to local server "
                       "through socket '" +
                       TempPath("none.sock") + "' (2)']"}));
  });
}

// The server's in-transaction status pins the slot: a transaction begun
// through PDO, and one begun with SQL, until it ends.
TEST_F(MysqlPoolTest, ATransactionPinsTheConnectionUntilItEnds) {
  RunMain([&] {
    Pdo pdo = OpenPool(2);
    Log log;
    Await(Spawn([&] {
      pdo.Exec("DROP TABLE IF EXISTS txn");
      pdo.Exec("CREATE TABLE txn (v INT) ENGINE=InnoDB");
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO txn VALUES (1)");
      std::ostringstream line;
      line << "begun " << pdo_sim::Render(pdo.InTransaction().get()) << " "
           << CountsOf(pdo);
      pdo.RollBack();
      line << ", rolled back " << CountsOf(pdo) << " rows "
           << QueryLong(pdo, "SELECT COUNT(*) FROM txn");
      log.push_back(line.str());
      line.str("");
      pdo.Exec("START TRANSACTION");
      line << "SQL " << pdo_sim::Render(pdo.InTransaction().get()) << " "
           << CountsOf(pdo);
      pdo.Exec("COMMIT");
      line << ", committed " << CountsOf(pdo);
      log.push_back(line.str());
      pdo.Exec("DROP TABLE txn");
    }));
    EXPECT_EQ(log, (Log{"begun true {count=1, idle=0, active=1}, rolled back "
                        "{count=1, idle=1, active=0} rows 0",
                        "SQL true {count=1, idle=0, active=1}, committed "
                        "{count=1, idle=1, active=0}"}));
  });
}

// Waits (on the reactor) until the server has ended connection `id`.
void WaitUntilGone(Pdo& admin, zend_long id) {
  const std::string sql =
      "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " +
      std::to_string(id);
  for (int i = 0; i < 1000 && QueryLong(admin, sql) != 0; i++) Delay(5);
  EXPECT_EQ(QueryLong(admin, sql), 0) << "connection " << id << " still there";
}

// KILL from a second connection: the next use fails as Connector/C reports
// a server gone away, the slot is broken and destroyed, and the next query
// gets a new connection.
TEST_F(MysqlPoolTest, AKilledConnectionFailsAndThePoolDropsIt) {
  RunMain([&] {
    Pdo pdo = OpenPool(1);
    Pdo admin = OpenPlain();
    Log log;
    zend_long killed = 0;
    Await(Spawn([&] {
      Statement stmt = pdo.Query("SELECT CONNECTION_ID()");
      killed = stmt.FetchColumn().lval();
      stmt.Reset();
      admin.Exec("KILL " + std::to_string(killed));
      WaitUntilGone(admin, killed);
      EXPECT_TRUE(pdo.Exec("DO 1").undef());
      log.push_back(CaughtPdoError());
    }));
    log.push_back("count " + std::to_string(CountsOf(pdo).count));
    Await(Spawn([&] {
      log.push_back(QueryLong(pdo, "SELECT CONNECTION_ID()") != killed
                        ? "a new connection"
                        : "the killed connection");
    }));
    EXPECT_EQ(log, (Log{"PDOException|HY000|SQLSTATE[HY000]: General error: "
                        "2006 Server has gone away|['HY000', 2006, 'Server "
                        "has gone away']",
                        "count 0", "a new connection"}));
  });
}

// A session its SQL dirtied is reset before another coroutine gets the
// connection: the user variable is gone and the DSN's database is back.
TEST_F(MysqlPoolTest, ADirtySessionIsResetBeforeTheNextCoroutine) {
  RunMain([&] {
    Pdo pdo = OpenPool(1);
    zend_long first = 0;
    Await(Spawn([&] {
      first = QueryLong(pdo, "SELECT CONNECTION_ID()");
      pdo.Exec("SET @x = 5");
      pdo.Exec("USE mysql");
    }));
    std::string seen;
    Await(Spawn([&] {
      EXPECT_EQ(QueryLong(pdo, "SELECT CONNECTION_ID()"), first);
      // Read without an "@", which would dirty this session too.
      seen = pdo_sim::Render(
          pdo.Query("SELECT (SELECT COUNT(*) FROM "
                    "information_schema.USER_VARIABLES), DATABASE()")
              .Fetch(PDO_FETCH_NUM)
              .get());
    }));
    EXPECT_EQ(seen, "[0, 'test']");
    EXPECT_EQ(pdo_sim::mysql::GetStats().resets, 1u);
  });
}

// A cancellation while the query is in flight abandons it: the coroutine
// ends cancelled, the connection is broken and destroyed.
TEST_F(MysqlPoolTest, ACancelledQueryBreaksItsConnection) {
  RunMain([&] {
    Pdo pdo = OpenPool(1);
    Await(Spawn([&] { QueryLong(pdo, "SELECT 1"); }));  // connected, idle
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
    EXPECT_EQ(CountsOf(pdo).count, 0);
    EXPECT_EQ(pdo_sim::mysql::GetStats().cancelled, 1u);
    std::string val;
    Await(Spawn(
        [&] { val = pdo_sim::Render(QueryValue(pdo, "SELECT 42").get()); }));
    EXPECT_EQ(val, "42");
  });
}

}  // namespace
}  // namespace zar::testing::pdo
