// P5: the error state is per coroutine; native details come from the slot
// that failed; warnings and exceptions read as PHP's. On the mock and on
// MariaDB; an injected failure on the mock, SQLite's states on SQLite.

#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class ErrorTest : public DriverTest {};
ZAR_PDO_ON_EVERY_DRIVER(ErrorTest);

// On the mock only: a failure scripted at a chosen statement.
class ErrorMockTest : public PdoTest {};

// On SQLite.
class ErrorSqliteTest : public PdoTest {};

Options Silent(zend_long max) {
  return PoolOptions(max, -1,
                     {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_SILENT}}});
}

constexpr char kMissing[] = "Table 'shop.missing' doesn't exist";

TEST_P(ErrorTest, ErrorInfoWhileTheFailedQueryHoldsTheSlot) {
  RunMain([&] {
    Pdo pdo = Open(Silent(3));
    EXPECT_TRUE(pdo.Query("SELECT * FROM missing").result().is_false());
    EXPECT_EQ(pdo.ErrorCode().str(), "42S02");
    EXPECT_EQ(pdo_sim::Render(pdo.ErrorInfo().get()),
              std::string("['42S02', 1146, '") + kMissing + "']");
    EXPECT_EQ(CountsOf(pdo).active, 1);  // kept for errorInfo()
    pdo.Exec("SELECT 1");                // the next call clears it
    EXPECT_EQ(pdo.ErrorCode().str(), "00000");
    EXPECT_EQ(CountsOf(pdo).active, 0);
  });
}

TEST_P(ErrorTest, ErrorInfoAfterExecGaveTheSlotBack) {
  RunMain([&] {
    Pdo pdo = Open(Silent(3));
    EXPECT_TRUE(pdo.Exec("DELETE FROM missing").is_false());
    EXPECT_EQ(pdo.ErrorCode().str(), "42S02");
    EXPECT_EQ(pdo_sim::Render(pdo.ErrorInfo().get()), "['42S02', null, null]");
    EXPECT_EQ(CountsOf(pdo).active, 0);
  });
}

TEST_P(ErrorTest, ExecFailureCarriesNativeDetails) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    EXPECT_TRUE(pdo.Exec("DELETE FROM missing").undef());
    {
      Caught e;
      EXPECT_EQ(e.class_name(), "PDOException");
      EXPECT_EQ(e.message(),
                std::string("SQLSTATE[42S02]: Base table or view not found: "
                            "1146 ") +
                    kMissing);
      EXPECT_EQ(e.code(), "42S02");
      EXPECT_EQ(pdo_sim::Render(e.error_info().get()),
                std::string("['42S02', 1146, '") + kMissing + "']");
    }
    EXPECT_EQ(CountsOf(pdo).active, 0);

    pdo.SetAttribute(PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_WARNING});
    ClearErrors();
    EXPECT_TRUE(pdo.Exec("DELETE FROM missing").is_false());
    EXPECT_EQ(Warnings(),
              (std::vector<std::string>{
                  std::string("PDO::exec(): SQLSTATE[42S02]: Base table or "
                              "view not found: 1146 ") +
                  kMissing}));
    EXPECT_EQ(CountsOf(pdo).active, 0);
  });
}

// MariaDB's code and text for SQL it cannot parse, in PDO's
// "SQLSTATE[%s]: %s: %d %s"; the slot goes back after the error.
TEST_P(ErrorTest, ASyntaxErrorCarriesTheServersText) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(1));
    EXPECT_TRUE(pdo.Exec("SELEC 1").undef());
    Caught e;
    EXPECT_EQ(e.message(),
              "SQLSTATE[42000]: Syntax error or access violation: 1064 You "
              "have an error in your SQL syntax; check the manual that "
              "corresponds to your MariaDB server version for the right "
              "syntax to use near 'SELEC 1' at line 1");
    EXPECT_EQ(pdo_sim::Render(e.error_info().get()),
              "['42000', 1064, 'You have an error in your SQL syntax; check "
              "the manual that corresponds to your MariaDB server version for "
              "the right syntax to use near 'SELEC 1' at line 1']");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{1, 1, 0}));
  });
}

TEST_P(ErrorTest, StatementErrorsNameTheStatementMethod) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(
        3, -1, {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_WARNING}}}));
    Statement stmt = pdo.Prepare("SELECT * FROM missing");
    ASSERT_TRUE(stmt.ok());
    ClearErrors();
    EXPECT_TRUE(stmt.Execute().is_false());
    EXPECT_EQ(Warnings(),
              (std::vector<std::string>{
                  std::string("PDOStatement::execute(): SQLSTATE[42S02]: Base "
                              "table or view not found: 1146 ") +
                  kMissing}));
    EXPECT_EQ(pdo_sim::Render(stmt.ErrorInfo().get()),
              std::string("['42S02', 1146, '") + kMissing + "']");
  });
}

constexpr char kCountMismatch[] =
    "SQLSTATE[HY093]: Invalid parameter number: number of bound variables "
    "does not match number of tokens";

TEST_P(ErrorTest, ExecuteWithTheWrongNumberOfParametersThrowsHY093) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    ASSERT_TRUE(pdo.ok());
    const uint64_t queries = Queries();
    struct Case {
      const char* sql;
      std::vector<pdo_sim::Param> params;
    };
    for (const Case& c : {Case{"SELECT ?", {1, 2}}, Case{"SELECT ?, ?", {1}},
                          Case{"SELECT 1", {1}}}) {
      Statement stmt = pdo.Prepare(c.sql);
      ASSERT_TRUE(stmt.ok()) << c.sql;
      EXPECT_TRUE(stmt.Execute(c.params).undef()) << c.sql;
      Caught e;
      EXPECT_EQ(e.class_name(), "PDOException") << c.sql;
      EXPECT_EQ(e.code(), "HY093") << c.sql;
      EXPECT_EQ(e.message(), kCountMismatch) << c.sql;
    }
    {
      Statement named = pdo.Prepare("SELECT :a, :b");
      EXPECT_TRUE(named.ExecuteNamed({{":a", 1}}).undef());
      Caught e;
      EXPECT_EQ(e.message(), kCountMismatch);
    }
    EXPECT_EQ(Queries(), queries)
        << "the server never saw a statement PDO refused";
    EXPECT_EQ(CountsOf(pdo).active, 0) << "no slot is kept by a refusal";
    EXPECT_EQ(QueryLong(pdo, "SELECT 1"), 1);
  });
}

TEST_P(ErrorTest, ExecuteWithAnUndefinedOrMixedParameterThrowsHY093) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    {
      Statement stmt = pdo.Prepare("SELECT :a");
      EXPECT_TRUE(stmt.ExecuteNamed({{":b", 1}}).undef());
      Caught e;
      EXPECT_EQ(e.message(),
                "SQLSTATE[HY093]: Invalid parameter number: parameter was not "
                "defined");
    }
    {
      Statement stmt = pdo.Prepare("SELECT :a, ?");
      EXPECT_TRUE(stmt.Execute({1, 2}).undef());
      Caught e;
      EXPECT_EQ(e.message(),
                "SQLSTATE[HY093]: Invalid parameter number: mixed named and "
                "positional parameters");
    }
    // A name used twice is bound once; placeholders in strings and
    // comments are text.
    Statement twice = pdo.Prepare("SELECT :a + :a");
    EXPECT_TRUE(twice.ExecuteNamed({{"a", 20}}).is_true())
        << TakeExceptionText();
    // The values go as text: '20' + '20' is a DOUBLE.
    EXPECT_EQ(pdo_sim::Render(twice.FetchColumn().get()), "40.000000");
    Statement quoted = pdo.Prepare("SELECT '?', ? /* ? */");
    EXPECT_TRUE(quoted.Execute({7}).is_true()) << TakeExceptionText();
    EXPECT_EQ(Caught().empty(), true);
  });
}

TEST_P(ErrorTest, ExecuteWithTheWrongNumberOfParametersIsFalseWhenSilent) {
  RunMain([&] {
    Pdo pdo = Open(Silent(3));
    Statement stmt = pdo.Prepare("SELECT ?");
    EXPECT_TRUE(stmt.Execute({1, 2}).is_false());
    EXPECT_TRUE(Caught().empty());
    EXPECT_EQ(stmt.ErrorCode().str(), "HY093");
    EXPECT_TRUE(stmt.Execute({5}).is_true()) << "the statement stays usable";
    EXPECT_EQ(pdo_sim::Render(stmt.FetchColumn().get()), "'5'");
  });
}

TEST_P(ErrorTest, ErrorStateDoesNotLeakAcrossCoroutines) {
  RunMain([&] {
    Pdo pdo = Open(Silent(1));
    Log log;
    Await(Spawn([&] {
      pdo.Query("SELECT * FROM missing");
      log.push_back("A: " + pdo.ErrorCode().str());
    }));
    Await(Spawn([&] {
      log.push_back("B before: " + pdo.ErrorCode().str() + " " +
                    pdo_sim::Render(pdo.ErrorInfo().at(0)));
      log.push_back("B query: " + std::to_string(QueryLong(pdo, "SELECT 1")));
      log.push_back("B after: " + pdo.ErrorCode().str());
    }));
    EXPECT_EQ(log, (Log{"A: 42S02", "B before: 00000 '00000'", "B query: 1",
                        "B after: 00000"}));
  });
}

TEST_P(ErrorTest, FreshSlotsStartWithNoError) {
  RunMain([&] {
    Pdo pdo = Open(Silent(5));
    std::vector<std::string> codes;
    SpawnEachAndAwait(5, [&](int) {
      Statement stmt = pdo.Query("SELECT 1");
      codes.push_back(pdo_sim::Render(pdo.ErrorCode().get()));
      Delay(2);  // five fresh slots at once
    });
    EXPECT_EQ(Joined(codes), "'00000' '00000' '00000' '00000' '00000'");
    EXPECT_EQ(ConnectionsMade(), 5u);
  });
}

TEST_F(ErrorMockTest, InjectedFailureReportsItsState) {
  pdo_sim::mock::InjectFailure(
      {"boom", "40001", 1213, "Deadlock found when trying to get lock", 1});
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(2));
    EXPECT_TRUE(pdo.Exec("SELECT 'boom'").undef());
    Caught e;
    EXPECT_EQ(e.message(),
              "SQLSTATE[40001]: Serialization failure: 1213 Deadlock found "
              "when trying to get lock");
    EXPECT_EQ(pdo.Exec("DO 'boom'").lval(), 0);  // once only
  });
}

TEST_P(ErrorTest, ClosedPoolIsReportedAsAcquireFailure) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2, 1));
    Zval pool = pdo.GetPool();
    pdo_sim::CallMethod(pool.get(), "close");
    EXPECT_EQ(LiveConnections(), 0u);
    EXPECT_TRUE(pdo.Exec("SELECT 1").undef());
    Caught e;
    EXPECT_EQ(e.chain(),
              (std::vector<std::string>{
                  "PDOException: SQLSTATE[HY000]: General error: Failed to "
                  "acquire connection from pool",
                  "Async\\PoolException: Pool is closed"}));
    EXPECT_EQ(e.code(), "HY000");
  });
}

TEST_F(ErrorSqliteTest, ErrorsUsePdoSqliteStates) {
  RunMain([&] {
    Pdo pdo = Pdo::Open(SqliteDsn(), PoolOptions(2));
    EXPECT_TRUE(pdo.Exec("SELECT * FROM missing").undef());
    Caught e;
    EXPECT_EQ(e.message(),
              "SQLSTATE[HY000]: General error: 1 no such table: missing");
    EXPECT_EQ(e.code(), "HY000");
    EXPECT_EQ(CountsOf(pdo).active, 0);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
