// PDO's "mysql" driver on its own, against a real MariaDB server (the test
// binary's private one): coroutines share pooled connections while the
// reactor waits on their sockets; values through emulated and server-side
// prepared statements, and failed connects, are what MariaDB and pdo_mysql
// make of them. The pool's behaviours run on this driver too, in the PDO
// pool's suites (DriverTest: tests/pdo/support/driver_test.h).

#include "tests/pdo/support/mysql_test.h"

#include <set>

namespace zar::testing::pdo {
namespace {

class MysqlPoolTest : public MysqlPdoTest {};

// The exception a call left in flight, as "Class|code|message|errorInfo".
std::string CaughtPdoError() {
  const Caught caught;
  return caught.class_name() + "|" + caught.code() + "|" + caught.message() +
         "|" + pdo_sim::Render(caught.error_info().get());
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

// A connection the server refuses, or that finds no server: PDO's
// "SQLSTATE[%s] [%d] %s" with MariaDB's code and text, or with mysqlnd's
// for a socket nobody listens on (2002 and the socket's error).
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
                   "PDOException|2002|SQLSTATE[HY000] [2002] No such file or "
                   "directory|['HY000', 2002, 'No such file or directory']"}));
  });
}

}  // namespace
}  // namespace zar::testing::pdo
