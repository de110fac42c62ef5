// Tests of the mock driver's SQL engine (pdo_sim/src/drivers/mock_sql.h)
// on its own: every statement and feature the PDO tests, the trace
// scenarios and the fault scripts use, run against a database and
// sessions directly (no engine, no PDO).

#include "pdo_sim/src/drivers/mock_sql.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pdo_sim::mock::internal {
namespace {

using Rows = std::vector<std::vector<Value>>;
using Columns = std::vector<std::string>;

class MockSqlTest : public ::testing::Test {
 protected:
  MockSqlTest() {
    a_.id = 1;
    b_.id = 2;
    a_.database = a_.default_database = "shop";
    b_.database = b_.default_database = "shop";
  }

  Result Run(Session& session, std::string_view sql,
             const Params& params = {}) {
    return Execute(db_, locks_, session, sql, params);
  }
  // Runs `sql`, which must succeed.
  Result Ok(Session& session, std::string_view sql, const Params& params = {}) {
    Result result = Run(session, sql, params);
    EXPECT_TRUE(result.ok) << sql << ": " << result.error.message;
    return result;
  }
  // The rows of a SELECT that must succeed.
  Rows Select(Session& session, std::string_view sql) {
    return Ok(session, sql).rows;
  }

  Database db_;
  NamedLocks locks_;
  Session a_;
  Session b_;
};

TEST_F(MockSqlTest, CreateTableInsertAndSelectReturnTheRowsInInsertOrder) {
  Ok(a_, "CREATE TABLE t (id INTEGER, v TEXT)");
  EXPECT_EQ(Ok(a_, "INSERT INTO t VALUES (1, 'x'), (2, 'y')").affected, 2);
  const Result result = Ok(a_, "SELECT id, v FROM t");
  EXPECT_EQ(result.columns, (Columns{"id", "v"}));
  EXPECT_EQ(result.rows, (Rows{{int64_t{1}, "x"}, {int64_t{2}, "y"}}));
  EXPECT_EQ(result.affected, 2);
}

TEST_F(MockSqlTest, CreateTableIfNotExistsKeepsTheExistingTable) {
  Ok(a_, "CREATE TABLE t (v TEXT)");
  Ok(a_, "INSERT INTO t VALUES ('kept')");
  Ok(a_, "CREATE TABLE IF NOT EXISTS t (v TEXT)");
  EXPECT_EQ(Select(a_, "SELECT v FROM t"), (Rows{{"kept"}}));
}

TEST_F(MockSqlTest, CreateTableTwiceFailsWithTableExists) {
  Ok(a_, "CREATE TABLE t (v TEXT)");
  const Result result = Run(a_, "CREATE TABLE t (v TEXT)");
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.error.sqlstate, "42S01");
  EXPECT_EQ(result.error.native_code, 1050);
  EXPECT_EQ(result.error.message, "Table 't' already exists");
}

TEST_F(MockSqlTest, AutoIncrementNumbersRowsAndSetsTheLastInsertId) {
  Ok(a_,
     "CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20), "
     "price INTEGER)");
  Ok(a_, "INSERT INTO t (name, price) VALUES ('pen', 3), ('ink', NULL)");
  EXPECT_EQ(a_.last_insert_id, 1);
  EXPECT_EQ(
      Select(a_, "SELECT id, name, price FROM t"),
      (Rows{{int64_t{1}, "pen", int64_t{3}}, {int64_t{2}, "ink", Value{}}}));
  Ok(a_, "INSERT INTO t (name) VALUES ('cap')");
  EXPECT_EQ(a_.last_insert_id, 3);
}

// Strict mode: a NOT NULL column without a default must be given (a PRIMARY
// KEY is NOT NULL), NULL is refused there, DEFAULT fills what is left out.
TEST_F(MockSqlTest, ColumnsKeepTheirNotNullAndDefault) {
  Ok(a_,
     "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL, "
     "w TEXT DEFAULT 'none')");
  Result result = Run(a_, "INSERT INTO t (v) VALUES ('x')");
  EXPECT_EQ(result.error.sqlstate, "HY000");
  EXPECT_EQ(result.error.native_code, 1364);
  EXPECT_EQ(result.error.message, "Field 'id' doesn't have a default value");
  result = Run(a_, "INSERT INTO t (id, v) VALUES (1, NULL)");
  EXPECT_EQ(result.error.sqlstate, "23000");
  EXPECT_EQ(result.error.native_code, 1048);
  EXPECT_EQ(result.error.message, "Column 'v' cannot be null");
  Ok(a_, "INSERT INTO t (id, v) VALUES (1, 'x')");
  EXPECT_EQ(Select(a_, "SELECT * FROM t"), (Rows{{int64_t{1}, "x", "none"}}));
}

// What a column stores is its type's: text that reads as a number in a
// numeric column, numbers as text in a text one; other text is refused.
TEST_F(MockSqlTest, ColumnsStoreValuesAsTheirType) {
  Ok(a_, "CREATE TABLE t (i INTEGER, d DOUBLE, s TEXT)");
  Ok(a_, "INSERT INTO t VALUES ('7', '2.5', 3)");
  Ok(a_, "INSERT INTO t VALUES (2.5, 1, 0.5)");
  EXPECT_EQ(Select(a_, "SELECT * FROM t"),
            (Rows{{int64_t{7}, 2.5, "3"}, {int64_t{3}, 1.0, "0.5"}}));
  Ok(a_, "UPDATE t SET i = '9' WHERE s = '3'");
  EXPECT_EQ(Select(a_, "SELECT i FROM t WHERE s = '3'"), (Rows{{int64_t{9}}}));
  const Result result = Run(a_, "INSERT INTO t (i) VALUES ('x')");
  EXPECT_EQ(result.error.sqlstate, "22007");
  EXPECT_EQ(result.error.native_code, 1366);
  EXPECT_EQ(result.error.message,
            "Incorrect integer value: 'x' for column `shop`.`t`.`i` at row 1");
}

TEST_F(MockSqlTest, InsertWithAColumnListLeavesTheOtherColumnsNull) {
  Ok(a_, "CREATE TABLE t (id INTEGER, v TEXT)");
  Ok(a_, "INSERT INTO t (v) VALUES ('x')");
  EXPECT_EQ(Select(a_, "SELECT * FROM t"), (Rows{{Value{}, "x"}}));
}

TEST_F(MockSqlTest, InsertWithTheWrongNumberOfValuesFails) {
  Ok(a_, "CREATE TABLE t (id INTEGER, v TEXT)");
  const Result result = Run(a_, "INSERT INTO t VALUES (1)");
  EXPECT_EQ(result.error.sqlstate, "21S01");
  EXPECT_EQ(result.error.native_code, 1136);
  EXPECT_EQ(result.error.message,
            "Column count doesn't match value count at row 1");
}

TEST_F(MockSqlTest, UnknownColumnFailsWithItsName) {
  Ok(a_, "CREATE TABLE t (v TEXT)");
  const Result result = Run(a_, "INSERT INTO t (w) VALUES (1)");
  EXPECT_EQ(result.error.sqlstate, "42S22");
  EXPECT_EQ(result.error.native_code, 1054);
  EXPECT_EQ(result.error.message, "Unknown column 'w' in 'INSERT INTO'");
  EXPECT_EQ(Run(a_, "SELECT w FROM t").error.message,
            "Unknown column 'w' in 'SELECT'");
  EXPECT_EQ(Run(a_, "SELECT v FROM t WHERE w = 1").error.message,
            "Unknown column 'w' in 'WHERE'");
  EXPECT_EQ(Run(a_, "SELECT v FROM t ORDER BY w").error.message,
            "Unknown column 'w' in 'ORDER BY'");
  EXPECT_EQ(Run(a_, "UPDATE t SET v = w").error.message,
            "Unknown column 'w' in 'SET'");
  EXPECT_EQ(Run(a_, "INSERT INTO t VALUES (w)").error.message,
            "Unknown column 'w' in 'VALUES'");
}

TEST_F(MockSqlTest, MissingTableFailsWithDatabaseAndTableName) {
  for (const char* sql : {"SELECT * FROM missing", "DELETE FROM missing"}) {
    const Result result = Run(a_, sql);
    EXPECT_FALSE(result.ok) << sql;
    EXPECT_EQ(result.error.sqlstate, "42S02") << sql;
    EXPECT_EQ(result.error.native_code, 1146) << sql;
    EXPECT_EQ(result.error.message, "Table 'shop.missing' doesn't exist")
        << sql;
  }
}

TEST_F(MockSqlTest, SelectStarReturnsEveryColumn) {
  Ok(a_, "CREATE TABLE t (id INTEGER, v TEXT)");
  Ok(a_, "INSERT INTO t VALUES (1, 'x')");
  const Result result = Ok(a_, "SELECT * FROM t");
  EXPECT_EQ(result.columns, (Columns{"id", "v"}));
  EXPECT_EQ(result.rows, (Rows{{int64_t{1}, "x"}}));
}

TEST_F(MockSqlTest, WhereKeepsTheRowsWhoseValueIsEqual) {
  Ok(a_, "CREATE TABLE t (id INTEGER, v TEXT)");
  Ok(a_, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (1, 'c')");
  EXPECT_EQ(Select(a_, "SELECT v FROM t WHERE id = 1"), (Rows{{"a"}, {"c"}}));
}

TEST_F(MockSqlTest, OrderBySortsAscendingOrDescending) {
  Ok(a_, "CREATE TABLE t (id INTEGER, v TEXT)");
  Ok(a_, "INSERT INTO t VALUES (2, 'b'), (3, 'c'), (1, 'a')");
  EXPECT_EQ(Select(a_, "SELECT v FROM t ORDER BY id"),
            (Rows{{"a"}, {"b"}, {"c"}}));
  EXPECT_EQ(Select(a_, "SELECT v FROM t ORDER BY v DESC"),
            (Rows{{"c"}, {"b"}, {"a"}}));
}

TEST_F(MockSqlTest, CountAndSumAggregateTheRows) {
  Ok(a_, "CREATE TABLE t (v INTEGER)");
  EXPECT_EQ(Select(a_, "SELECT COUNT(*), SUM(v) FROM t"),
            (Rows{{int64_t{0}, Value{}}}));
  Ok(a_, "INSERT INTO t VALUES (2), (NULL), (5)");
  const Result result = Ok(a_, "SELECT COUNT(*), COUNT(v), SUM(v) FROM t");
  EXPECT_EQ(result.columns, (Columns{"COUNT(*)", "COUNT(v)", "SUM(v)"}));
  // SUM of integers is a DECIMAL, which PDO gives as text.
  EXPECT_EQ(result.rows, (Rows{{int64_t{3}, int64_t{2}, "7"}}));
}

TEST_F(MockSqlTest, AggregateInsideAnExpressionFails) {
  Ok(a_, "CREATE TABLE t (v INTEGER)");
  Ok(a_, "INSERT INTO t VALUES (1)");
  const Result result = Run(a_, "SELECT COUNT(*) + 1 FROM t");
  EXPECT_EQ(result.error.native_code, 1111);
  EXPECT_EQ(result.error.message, "Invalid use of group function");
}

TEST_F(MockSqlTest, SelectWithoutFromEvaluatesOneRowNamedByItsText) {
  const Result result = Ok(a_, "SELECT 41 + 1, 'hello', 0.5, NULL");
  EXPECT_EQ(result.columns, (Columns{"41 + 1", "'hello'", "0.5", "NULL"}));
  EXPECT_EQ(result.rows, (Rows{{int64_t{42}, "hello", 0.5, Value{}}}));
}

TEST_F(MockSqlTest, PositionalAndNamedParametersTakeTheirValues) {
  Params params;
  params.positional = {int64_t{41}, "x"};
  params.named["name"] = "named";
  EXPECT_EQ(Ok(a_, "SELECT ? + 1, ?", params).rows, (Rows{{int64_t{42}, "x"}}));
  EXPECT_EQ(Ok(a_, "SELECT :name", params).rows, (Rows{{"named"}}));
}

TEST_F(MockSqlTest, AMissingParameterFailsWithInvalidParameterNumber) {
  const Result result = Run(a_, "SELECT ?");
  EXPECT_EQ(result.error.sqlstate, "HY093");
  EXPECT_EQ(result.error.message, "Invalid parameter number");
}

TEST_F(MockSqlTest, UpdateChangesTheMatchingRowsAndCountsThem) {
  Ok(a_, "CREATE TABLE t (id INTEGER, v TEXT)");
  Ok(a_, "INSERT INTO t VALUES (1, 'x'), (2, 'x'), (3, 'y')");
  EXPECT_EQ(Ok(a_, "UPDATE t SET v = 'user' WHERE v = 'x'").affected, 2);
  EXPECT_EQ(Select(a_, "SELECT v FROM t"), (Rows{{"user"}, {"user"}, {"y"}}));
}

TEST_F(MockSqlTest, DeleteRemovesTheMatchingRowsAndCountsThem) {
  Ok(a_, "CREATE TABLE t (v TEXT)");
  Ok(a_, "INSERT INTO t VALUES ('use'), ('keep'), ('use')");
  EXPECT_EQ(Ok(a_, "DELETE FROM t WHERE v = 'use'").affected, 2);
  EXPECT_EQ(Select(a_, "SELECT v FROM t"), (Rows{{"keep"}}));
}

TEST_F(MockSqlTest, UserVariablesAreSetAndReadPerSession) {
  Ok(a_, "SET @secret = 42");
  Params params;
  params.positional = {"tag"};
  Ok(a_, "SET @tag = ?", params);
  EXPECT_EQ(Select(a_, "SELECT @marker := 1"), (Rows{{int64_t{1}}}));
  EXPECT_EQ(Select(a_, "SELECT @secret, @tag, @marker"),
            (Rows{{int64_t{42}, "tag", int64_t{1}}}));
  EXPECT_EQ(Select(b_, "SELECT @secret"), (Rows{{Value{}}}));
}

constexpr char kDefaultSqlMode[] =
    "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
    "NO_ENGINE_SUBSTITUTION";

TEST_F(MockSqlTest, SystemVariablesAreSetAndReadPerSession) {
  EXPECT_EQ(Select(a_, "SELECT @@sql_mode"), (Rows{{kDefaultSqlMode}}));
  Ok(a_, "SET sql_mode = 'ANSI_QUOTES'");
  EXPECT_EQ(Select(a_, "SELECT @@sql_mode"), (Rows{{"ANSI_QUOTES"}}));
  EXPECT_EQ(Select(b_, "SELECT @@sql_mode"), (Rows{{kDefaultSqlMode}}));
  EXPECT_EQ(Select(a_, "SELECT @@session.autocommit"), (Rows{{int64_t{1}}}));
}

// The connection's character set (latin1, the server's default, unless
// the connection was made with another) until SET NAMES, and again after a
// reset.
TEST_F(MockSqlTest, SetNamesChangesTheCharacterSetsUntilAReset) {
  const char* probe =
      "SELECT @@character_set_client, @@character_set_connection, "
      "@@character_set_results";
  EXPECT_EQ(Select(a_, probe), (Rows{{"latin1", "latin1", "latin1"}}));
  Ok(a_, "SET NAMES utf8mb4");
  EXPECT_EQ(Select(a_, probe), (Rows{{"utf8mb4", "utf8mb4", "utf8mb4"}}));
  EXPECT_EQ(Select(b_, probe), (Rows{{"latin1", "latin1", "latin1"}}));
  ResetSession(locks_, a_);
  EXPECT_EQ(Select(a_, probe), (Rows{{"latin1", "latin1", "latin1"}}));
}

TEST_F(MockSqlTest, AutocommitOffOpensATransactionAtTheFirstStatement) {
  Ok(a_, "CREATE TABLE t (v INTEGER)");
  Ok(a_, "SET autocommit = 0");
  EXPECT_FALSE(a_.in_transaction);
  Ok(a_, "INSERT INTO t VALUES (1)");
  EXPECT_TRUE(a_.in_transaction);
  EXPECT_EQ(Select(a_, "SELECT @@autocommit"), (Rows{{int64_t{0}}}));
  EXPECT_EQ(Select(b_, "SELECT COUNT(*) FROM t"), (Rows{{int64_t{0}}}));
  Ok(a_, "SET autocommit = 1");  // commits
  EXPECT_FALSE(a_.in_transaction);
  EXPECT_EQ(Select(b_, "SELECT COUNT(*) FROM t"), (Rows{{int64_t{1}}}));
}

TEST_F(MockSqlTest, TransactionChangesAreInvisibleToOthersUntilCommit) {
  Ok(a_, "CREATE TABLE t (id INTEGER, v TEXT)");
  Ok(a_, "INSERT INTO t VALUES (1, 'initial')");
  Ok(a_, "START TRANSACTION");
  EXPECT_TRUE(a_.in_transaction);
  Ok(a_, "UPDATE t SET v = 'changed' WHERE id = 1");
  Ok(a_, "INSERT INTO t VALUES (2, 'added')");
  EXPECT_EQ(Select(a_, "SELECT v FROM t"), (Rows{{"changed"}, {"added"}}));
  EXPECT_EQ(Select(b_, "SELECT v FROM t"), (Rows{{"initial"}}));
  Ok(a_, "COMMIT");
  EXPECT_FALSE(a_.in_transaction);
  EXPECT_EQ(Select(b_, "SELECT v FROM t"), (Rows{{"changed"}, {"added"}}));
}

TEST_F(MockSqlTest, RollbackDropsTheTransactionsChanges) {
  Ok(a_, "CREATE TABLE t (v TEXT)");
  Ok(a_, "INSERT INTO t VALUES ('kept')");
  Ok(a_, "START TRANSACTION");
  Ok(a_, "DELETE FROM t WHERE v = 'kept'");
  Ok(a_, "INSERT INTO t VALUES ('lost')");
  Ok(a_, "ROLLBACK");
  EXPECT_FALSE(a_.in_transaction);
  EXPECT_EQ(Select(a_, "SELECT v FROM t"), (Rows{{"kept"}}));
  Ok(a_, "START TRANSACTION");
  Ok(a_, "INSERT INTO t VALUES ('lost')");
  Rollback(a_);  // the driver's rollBack()
  EXPECT_EQ(Select(a_, "SELECT v FROM t"), (Rows{{"kept"}}));
}

TEST_F(MockSqlTest, CommitsOfTwoTransactionsOnOneTableBothLand) {
  Ok(a_, "CREATE TABLE t (v TEXT)");
  Ok(a_, "START TRANSACTION");
  Ok(b_, "START TRANSACTION");
  Ok(a_, "INSERT INTO t VALUES ('from_a')");
  Ok(b_, "INSERT INTO t VALUES ('from_b')");
  Commit(db_, a_);  // the driver's commit()
  Commit(db_, b_);
  EXPECT_EQ(Select(a_, "SELECT v FROM t"), (Rows{{"from_a"}, {"from_b"}}));
}

TEST_F(MockSqlTest, TemporaryTablesBelongToTheirSession) {
  Ok(a_, "CREATE TEMPORARY TABLE scratch (v INTEGER)");
  Ok(a_, "INSERT INTO scratch VALUES (1)");
  EXPECT_EQ(Select(a_, "SELECT COUNT(*) FROM scratch"), (Rows{{int64_t{1}}}));
  const Result other = Run(b_, "SELECT COUNT(*) FROM scratch");
  EXPECT_EQ(other.error.message, "Table 'shop.scratch' doesn't exist");
}

TEST_F(MockSqlTest, ConnectionIdAndDatabaseDescribeTheSession) {
  EXPECT_EQ(Select(a_, "SELECT CONNECTION_ID(), DATABASE()"),
            (Rows{{int64_t{1}, "shop"}}));
  EXPECT_EQ(Select(b_, "SELECT CONNECTION_ID()"), (Rows{{int64_t{2}}}));
}

TEST_F(MockSqlTest, UseSwitchesTheSessionsDatabase) {
  Ok(a_, "USE other");
  EXPECT_EQ(Select(a_, "SELECT DATABASE()"), (Rows{{"other"}}));
}

TEST_F(MockSqlTest, NamedLocksAreHeldByOneSessionAtATime) {
  EXPECT_EQ(Select(a_, "SELECT GET_LOCK('job', 0)"), (Rows{{int64_t{1}}}));
  EXPECT_EQ(Select(a_, "SELECT GET_LOCK('job', 0)"), (Rows{{int64_t{1}}}));
  EXPECT_EQ(Select(b_, "SELECT GET_LOCK('job', 0)"), (Rows{{int64_t{0}}}));
  EXPECT_EQ(Select(b_, "SELECT IS_USED_LOCK('job')"), (Rows{{int64_t{1}}}));
  EXPECT_EQ(Select(b_, "SELECT RELEASE_LOCK('job')"), (Rows{{int64_t{0}}}));
  EXPECT_EQ(Select(a_, "SELECT RELEASE_LOCK('job')"), (Rows{{int64_t{1}}}));
  EXPECT_EQ(Select(a_, "SELECT RELEASE_LOCK('job'), IS_USED_LOCK('job')"),
            (Rows{{Value{}, Value{}}}));
}

// COM_RESET_CONNECTION as MariaDB does it: the current database stays.
TEST_F(MockSqlTest, ResetSessionForgetsVariablesTablesAndLocks) {
  Ok(a_, "SET @secret = 42");
  Ok(a_, "SET sql_mode = 'ANSI_QUOTES'");
  Ok(a_, "SET autocommit = 0");
  Ok(a_, "USE other");
  Ok(a_, "CREATE TEMPORARY TABLE scratch (v INTEGER)");
  Ok(a_, "SELECT GET_LOCK('job', 0)");
  ResetSession(locks_, a_);
  EXPECT_EQ(Select(a_, "SELECT @secret, @@sql_mode, @@autocommit, DATABASE()"),
            (Rows{{Value{}, kDefaultSqlMode, int64_t{1}, "other"}}));
  EXPECT_FALSE(Run(a_, "SELECT COUNT(*) FROM scratch").ok);
  EXPECT_EQ(Select(b_, "SELECT IS_USED_LOCK('job')"), (Rows{{Value{}}}));
}

TEST_F(MockSqlTest, SleepAddsItsDurationToTheStatement) {
  const Result result = Ok(a_, "SELECT SLEEP(0.02)");
  EXPECT_EQ(result.rows, (Rows{{int64_t{0}}}));
  EXPECT_EQ(result.sleep_ms, 20u);
}

// Seen while writing fuzz_sql (tools/fuzz/corpus/sql/negative-sleep):
// SLEEP(-1) asked the driver to sleep UINT32_MAX - 999 ms.
TEST_F(MockSqlTest, SleepWithANegativeDurationFailsWithIncorrectArguments) {
  const Result result = Run(a_, "SELECT SLEEP('-1')");
  EXPECT_EQ(result.error.sqlstate, "HY000");
  EXPECT_EQ(result.error.native_code, 1210);
  EXPECT_EQ(result.error.message, "Incorrect arguments to sleep");
  EXPECT_EQ(Run(a_, "SELECT SLEEP('nan')").error.native_code, 1210);
}

TEST_F(MockSqlTest, SleepsOfAStatementAddUpToAtMostUint32MaxMilliseconds) {
  const Result result = Ok(a_, "SELECT SLEEP(4294967), SLEEP('1e300')");
  EXPECT_EQ(result.sleep_ms, UINT32_MAX);
}

TEST_F(MockSqlTest, DoEvaluatesAndReturnsNoRows) {
  const Result result = Ok(a_, "DO @x := 1");
  EXPECT_TRUE(result.rows.empty());
  EXPECT_EQ(Select(a_, "SELECT @x"), (Rows{{int64_t{1}}}));
}

TEST_F(MockSqlTest, SeveralStatementsReturnTheLastResult) {
  const Result result = Ok(a_, "DO 1; SET @x = 7; SELECT @x");
  EXPECT_EQ(result.rows, (Rows{{int64_t{7}}}));
}

TEST_F(MockSqlTest, SeveralStatementsStopAtTheFirstError) {
  const Result result = Run(a_, "SET @x = 1; SELECT * FROM nope; SET @x = 2");
  EXPECT_EQ(result.error.message, "Table 'shop.nope' doesn't exist");
  EXPECT_EQ(Select(a_, "SELECT @x"), (Rows{{int64_t{1}}}));
}

TEST_F(MockSqlTest, CommentsAreSkippedAndExecutableCommentsRun) {
  EXPECT_EQ(Select(a_, "/* SET */ SELECT 2"), (Rows{{int64_t{2}}}));
  EXPECT_EQ(Select(a_, "-- line\nSELECT 3"), (Rows{{int64_t{3}}}));
  EXPECT_EQ(Select(a_, "# hash\nSELECT 4"), (Rows{{int64_t{4}}}));
  Ok(a_, "/*!40101 SET sql_mode = 'A' */");
  EXPECT_EQ(Select(a_, "SELECT @@sql_mode"), (Rows{{"A"}}));
  Ok(a_, "/*M!100000 SET sql_mode = 'B' */");
  EXPECT_EQ(Select(a_, "SELECT @@sql_mode"), (Rows{{"B"}}));
}

TEST_F(MockSqlTest, SyntaxErrorQuotesTheTextFromWhereItStopped) {
  const Result result = Run(a_, "SELECT 1 FROM");
  EXPECT_EQ(result.error.sqlstate, "42000");
  EXPECT_EQ(result.error.native_code, 1064);
  EXPECT_EQ(result.error.message,
            "You have an error in your SQL syntax; check the manual that "
            "corresponds to your MariaDB server version for the right syntax "
            "to use near '' at line 1");
  EXPECT_EQ(Run(a_, "DROP TABLE t").error.native_code, 1064);
}

// Seen while writing fuzz_sql (tools/fuzz/corpus/sql/integer-beyond-64-bits):
// such a literal threw std::out_of_range out of the parser, ending the process.
TEST_F(MockSqlTest, AnIntegerBeyond64BitsIsADouble) {
  EXPECT_EQ(Select(a_, "SELECT 99999999999999999999, 9223372036854775807"),
            (Rows{{1e20, int64_t{INT64_MAX}}}));
}

TEST_F(MockSqlTest, ANumberBeyondADoubleFailsWithIllegalDouble) {
  const std::string huge(400, '9');
  const Result result = Run(a_, "SELECT " + huge + ".5");
  EXPECT_EQ(result.error.sqlstate, "22007");
  EXPECT_EQ(result.error.native_code, 1367);
  EXPECT_EQ(result.error.message,
            "Illegal double '" + huge + ".5' value found during parsing");
}

TEST_F(MockSqlTest, ANumberWithTwoDotsIsASyntaxError) {
  const Result result = Run(a_, "SELECT 1.2.3");
  EXPECT_EQ(result.error.native_code, 1064);
  EXPECT_EQ(result.error.message,
            "You have an error in your SQL syntax; check the manual that "
            "corresponds to your MariaDB server version for the right syntax "
            "to use near '.3' at line 1");
}

TEST_F(MockSqlTest, UnterminatedStringIsASyntaxError) {
  const Result result = Run(a_, "SELECT 'open");
  EXPECT_EQ(result.error.native_code, 1064);
  EXPECT_EQ(result.error.message,
            "You have an error in your SQL syntax; check the manual that "
            "corresponds to your MariaDB server version for the right syntax "
            "to use near ''open' at line 1");
}

TEST_F(MockSqlTest, UnknownFunctionFailsWithItsName) {
  const Result result = Run(a_, "SELECT UPPER('x')");
  EXPECT_EQ(result.error.sqlstate, "42000");
  EXPECT_EQ(result.error.native_code, 1305);
  EXPECT_EQ(result.error.message, "FUNCTION shop.UPPER does not exist");
}

}  // namespace
}  // namespace pdo_sim::mock::internal
