// The PDO stand-in without a pool: construction, error modes, statements,
// transactions - PHP's behaviour, which the pool layer keeps. On the mock
// and on MariaDB; what needs no server on its own, SQLite's types on
// SQLite.

#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class PlainPdoTest : public DriverTest {};
ZAR_PDO_ON_EVERY_DRIVER(PlainPdoTest);

// Needs no server: PDO's own refusals and classes.
class PlainPdoMockTest : public PdoTest {};

// On SQLite.
class PlainPdoSqliteTest : public PdoTest {};

TEST_F(PlainPdoMockTest, ConstructorRejectsBadDsns) {
  RunMain([&] {
    EXPECT_FALSE(Pdo::Open("nodriver").ok());
    {
      Caught e;
      EXPECT_EQ(e.class_name(), "PDOException");
      EXPECT_EQ(e.message(),
                "PDO::__construct(): Argument #1 ($dsn) must be a valid data "
                "source name");
    }
    EXPECT_FALSE(Pdo::Open("oracle:db").ok());
    Caught e;
    EXPECT_EQ(e.message(), "could not find driver");
  });
}

TEST_F(PlainPdoMockTest, PdoExceptionIsARuntimeException) {
  RunMain([&] {
    zend_class_entry* pdo_exception = php_pdo_get_exception();
    ASSERT_NE(pdo_exception, nullptr);
    EXPECT_STREQ(ZSTR_VAL(pdo_exception->parent->name), "RuntimeException");
    EXPECT_STREQ(ZSTR_VAL(php_pdo_get_sqlite_ce()->parent->name), "PDO");
  });
}

TEST_P(PlainPdoTest, FreshHandleHasNoErrorCodeYet) {
  RunMain([&] {
    Pdo pdo = Open();
    EXPECT_TRUE(pdo.ErrorCode().is_null());
    pdo.Exec("SELECT 1");
    EXPECT_EQ(pdo.ErrorCode().str(), "00000");
    EXPECT_EQ(pdo.GetAttribute(PDO_ATTR_DRIVER_NAME).str(),
              OnMysql() ? "mysql" : "mock");
    EXPECT_EQ(pdo.GetAttribute(PDO_ATTR_ERRMODE).lval(), PDO_ERRMODE_EXCEPTION);
  });
}

// What pdo_mysql over mysqlnd says of a MariaDB 10 server it reached over
// a Unix socket; PDO::ATTR_TIMEOUT is a connect option only.
TEST_P(PlainPdoTest, AttributesAreThoseOfPdoMysqlOverMysqlnd) {
  RunMain([&] {
    Pdo pdo = Open();
    const std::string version = pdo.GetAttribute(PDO_ATTR_SERVER_VERSION).str();
    EXPECT_EQ(version.rfind("5.5.5-10.", 0), 0u) << version;
    EXPECT_NE(version.find("-MariaDB"), std::string::npos) << version;
    EXPECT_EQ(pdo.GetAttribute(PDO_ATTR_CONNECTION_STATUS).str(),
              "Localhost via UNIX socket");
    EXPECT_TRUE(pdo.SetAttribute(PDO_ATTR_TIMEOUT, zend_long{5}).is_false());
    EXPECT_TRUE(Caught().empty());
  });
}

// pdo_mysql's exec() reports the rows a statement changed: none for one
// that returns rows.
TEST_P(PlainPdoTest, ExecOfAStatementWithRowsReportsNoneChanged) {
  RunMain([&] {
    Pdo pdo = Open();
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    EXPECT_EQ(pdo_sim::Render(pdo.Exec("INSERT INTO t VALUES (1), (2)").get()),
              "2");
    EXPECT_EQ(pdo_sim::Render(pdo.Exec("SELECT v FROM t").get()), "0");
    EXPECT_EQ(pdo_sim::Render(pdo.Exec("UPDATE t SET v = 3").get()), "2");
  });
}

TEST_P(PlainPdoTest, ErrorModes) {
  RunMain([&] {
    Pdo pdo = Open({{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}});
    ClearErrors();
    EXPECT_TRUE(pdo.Exec("SELECT * FROM nope").is_false());
    EXPECT_TRUE(Warnings().empty());
    EXPECT_EQ(pdo.ErrorCode().str(), "42S02");

    pdo.SetAttribute(PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_WARNING});
    EXPECT_TRUE(pdo.Exec("SELECT * FROM nope").is_false());
    EXPECT_EQ(Warnings(),
              (std::vector<std::string>{
                  "PDO::exec(): SQLSTATE[42S02]: Base table or view not "
                  "found: 1146 Table 'shop.nope' doesn't exist"}));

    pdo.SetAttribute(PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION});
    EXPECT_TRUE(pdo.Exec("SELECT * FROM nope").undef());
    Caught e;
    EXPECT_EQ(e.message(),
              "SQLSTATE[42S02]: Base table or view not found: 1146 Table "
              "'shop.nope' doesn't exist");

    EXPECT_EQ(Thrown(pdo.SetAttribute(PDO_ATTR_ERRMODE, zend_long{7})),
              "ValueError: PDO::setAttribute(): Argument #2 ($value) Error "
              "mode must be one of the PDO::ERRMODE_* constants");
  });
}

TEST_P(PlainPdoTest, PoolAttributesCannotBeSetAtRuntime) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2));
    EXPECT_TRUE(pdo.SetAttribute(PDO_ATTR_POOL_MAX, zend_long{5}).undef());
    Caught e;
    EXPECT_EQ(e.message(),
              "SQLSTATE[IM001]: Driver does not support this function: the "
              "PDO::ATTR_POOL_* attributes are construction-only and cannot "
              "be set at runtime");
    EXPECT_EQ(pdo.GetAttribute(PDO_ATTR_POOL_MAX).lval(), 2);
  });
}

TEST_P(PlainPdoTest, StatementsFetchInEveryMode) {
  RunMain([&] {
    Pdo pdo = Open();
    pdo.Exec(
        "CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, name TEXT, "
        "price INTEGER)");
    pdo.Exec("INSERT INTO t (name, price) VALUES ('pen', 3), ('ink', NULL)");
    Statement stmt = pdo.Query("SELECT id, name, price FROM t ORDER BY id");
    EXPECT_EQ(stmt.RowCount().lval(), 2);
    EXPECT_EQ(pdo_sim::Render(stmt.Fetch().get()),
              "[id: 1, 1, name: 'pen', 'pen', price: 3, 3]");
    EXPECT_EQ(pdo_sim::Render(stmt.Fetch(PDO_FETCH_ASSOC).get()),
              "[id: 2, name: 'ink', price: null]");
    EXPECT_TRUE(stmt.Fetch().is_false());
    Statement again = pdo.Query("SELECT name FROM t ORDER BY id DESC");
    EXPECT_EQ(pdo_sim::Render(again.FetchAll(PDO_FETCH_NUM).get()),
              "[['ink'], ['pen']]");
    pdo.SetAttribute(PDO_ATTR_STRINGIFY_FETCHES, true);
    EXPECT_EQ(pdo_sim::Render(QueryValue(pdo, "SELECT 41 + 1").get()), "'42'");
  });
}

TEST_P(PlainPdoTest, TransactionsAndTheirErrors) {
  RunMain([&] {
    Pdo pdo = Open();
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    EXPECT_TRUE(pdo.BeginTransaction().is_true());
    EXPECT_TRUE(pdo.InTransaction().is_true());
    pdo.Exec("INSERT INTO t VALUES (1)");
    EXPECT_TRUE(pdo.RollBack().is_true());
    EXPECT_TRUE(pdo.InTransaction().is_false());
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 0);
    EXPECT_TRUE(pdo.RollBack().undef());
    Caught e;
    EXPECT_EQ(e.message(), "There is no active transaction");
    pdo.BeginTransaction();
    pdo.Exec("INSERT INTO t VALUES (2)");
    EXPECT_EQ(pdo.LastInsertId().str(), "0");
  });  // destroyed mid-transaction: rolled back
  EXPECT_EQ(Rollbacks(), 2u);
  EXPECT_TRUE(CommittedRows("t").empty());
}

TEST_P(PlainPdoTest, FailedQueryKeepsItsStatementForErrorInfo) {
  RunMain([&] {
    Pdo pdo = Open({{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}});
    EXPECT_TRUE(pdo.Query("SELECT * FROM nope").result().is_false());
    EXPECT_EQ(pdo.ErrorCode().str(), "42S02");
    EXPECT_EQ(pdo_sim::Render(pdo.ErrorInfo().get()),
              "['42S02', 1146, 'Table 'shop.nope' doesn't exist']");
  });
}

TEST_F(PlainPdoSqliteTest, TypesAndNamedParameters) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("sqlite::memory:");
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    pdo.Exec("CREATE TABLE t (i INTEGER, r REAL, s TEXT, n TEXT)");
    Statement insert = pdo.Prepare("INSERT INTO t VALUES (:i, :r, :s, :n)");
    insert.ExecuteNamed({{"i", 7}, {":r", 1.5}, {"s", "x"}, {"n", nullptr}});
    EXPECT_EQ(pdo_sim::Render(
                  pdo.Query("SELECT * FROM t").Fetch(PDO_FETCH_NUM).get()),
              "[7, 1.500000, 'x', null]");
    EXPECT_EQ(pdo.LastInsertId().str(), "1");
  });
}

}  // namespace
}  // namespace zar::testing::pdo
