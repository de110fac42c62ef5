// P1: creating pooled PDO handles - attributes, getPool(), rejected
// configurations, lazy connections, pre-warming, and what drivers may do
// to the credentials they are given. On the mock and on MariaDB; what only
// the mock can script (a driver without pool support, the credential
// rewriting of other drivers) on the mock, and SQLite's own cases there.

#include <sqlite3.h>

#include "tests/pdo/support/driver_test.h"

namespace zar::testing::pdo {
namespace {

class CreationTest : public DriverTest {};
ZAR_PDO_ON_EVERY_DRIVER(CreationTest);

// On the mock only: what needs no server, or the mock's scripting.
class CreationMockTest : public PdoTest {};

// On SQLite.
class CreationSqliteTest : public PdoTest {};

// Needs no driver.
TEST_F(CreationMockTest, PoolAttributesFollowDefaultStrParamConsecutively) {
  EXPECT_EQ(PDO_ATTR_DEFAULT_STR_PARAM, 21);
  EXPECT_EQ(PDO_ATTR_POOL_ENABLED, 22);
  EXPECT_EQ(PDO_ATTR_POOL_MIN, 23);
  EXPECT_EQ(PDO_ATTR_POOL_MAX, 24);
  EXPECT_EQ(PDO_ATTR_POOL_HEALTHCHECK_INTERVAL, 25);
  EXPECT_EQ(PDO_ATTR_POOL_STMT_CACHE_SIZE, 26);
  EXPECT_EQ(PDO_ATTR_PERSISTENT, 12);
  EXPECT_EQ(PDO_ATTR_ERRMODE, 3);
  EXPECT_EQ(PDO_ERRMODE_SILENT, 0);
  EXPECT_EQ(PDO_ERRMODE_WARNING, 1);
  EXPECT_EQ(PDO_ERRMODE_EXCEPTION, 2);
}

TEST_P(CreationTest, GetPoolWithoutPoolingIsNull) {
  RunMain([&] {
    Pdo pdo = Open();
    ASSERT_TRUE(pdo.ok());
    EXPECT_TRUE(pdo.GetPool().is_null());
  });
}

TEST_P(CreationTest, GetPoolReturnsTheSameAsyncPoolObject) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(5, 1));
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    Zval first = pdo.GetPool();
    ASSERT_EQ(first.type(), IS_OBJECT);
    EXPECT_STREQ(ZSTR_VAL(Z_OBJCE_P(first.get())->name), "Async\\Pool");
    first.Reset();
    Zval second = pdo.GetPool();
    Zval third = pdo.GetPool();
    EXPECT_EQ(Z_OBJ_P(second.get()), Z_OBJ_P(third.get()));
    // It is the pool's own object: its event is the pool PDO uses.
    EXPECT_EQ(pdo_sim::CallMethod(second.get(), "count").lval(), 1);
  });
}

TEST_P(CreationTest, PersistentAndPoolTogetherThrow) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3, -1, {{PDO_ATTR_PERSISTENT, true}}));
    EXPECT_FALSE(pdo.ok());
    Caught e;
    EXPECT_EQ(e.class_name(), "PDOException");
    EXPECT_EQ(
        e.message(),
        "PDO::ATTR_POOL_ENABLED cannot be used with PDO::ATTR_PERSISTENT");
    EXPECT_EQ(ConnectionsMade(), 0u);
  });
}

// Mock only: the nopool driver, the mock's server behind a driver that
// reports no pool support.
TEST_F(CreationMockTest, DriverWithoutPoolSupportIsRejected) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("nopool:dbname=shop", PoolOptions(3));
    EXPECT_FALSE(pdo.ok());
    Caught e;
    EXPECT_EQ(e.class_name(), "PDOException");
    EXPECT_EQ(e.message(),
              "Driver \"nopool\" does not support PDO::ATTR_POOL_ENABLED");
    // The same driver without the pool connects.
    Pdo plain = Pdo::Open("nopool:dbname=shop");
    EXPECT_TRUE(plain.ok());
  });
}

TEST_P(CreationTest, TemplateNeverConnects) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3));
    ASSERT_TRUE(pdo.ok());
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{0, 0, 0}));
    EXPECT_EQ(ConnectionsMade(), 0u);
    EXPECT_FALSE(pdo.InTransaction().is_true());
    EXPECT_EQ(ConnectionsMade(), 0u);
  });
}

TEST_P(CreationTest, InvalidCredentialsSurfaceOnFirstUse) {
  RequireCredentials("app", "secret");
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3), "app", "wrong");
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    std::vector<std::string> chain;
    Await(Spawn([&] {
      EXPECT_TRUE(pdo.Exec("SELECT 1").undef());
      Caught e;
      chain = e.chain();
    }));
    EXPECT_EQ(chain, (std::vector<std::string>{
                         "PDOException: SQLSTATE[HY000]: General error: Failed "
                         "to acquire connection from pool",
                         "PDOException: SQLSTATE[28000] [1045] Access denied "
                         "for user 'app'@'localhost' (using password: YES)"}));
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{0, 0, 0}));
    EXPECT_EQ(ConnectFailures(), 1u);
  });
}

TEST_P(CreationTest, InvalidCredentialsWithPreWarmFailConstruction) {
  RequireCredentials("app", "secret");
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(3, 1), "app", "");
    EXPECT_FALSE(pdo.ok());
    Caught e;
    EXPECT_EQ(e.message(),
              "SQLSTATE[28000] [1045] Access denied for user 'app'@'localhost' "
              "(using password: NO)");
    EXPECT_EQ(e.code(), "1045");
    EXPECT_EQ(pdo_sim::Render(e.error_info().get()),
              "['28000', 1045, 'Access denied for user 'app'@'localhost' "
              "(using password: NO)']");
  });
}

TEST_P(CreationTest, PreWarmMakesMinIdleConnections) {
  RunMain([&] {
    for (zend_long min : {0, 1, 3}) {
      Pdo pdo = Open(PoolOptions(5, min));
      ASSERT_TRUE(pdo.ok());
      EXPECT_EQ(CountsOf(pdo), (PoolCounts{min, min, 0})) << "MIN=" << min;
    }
    EXPECT_EQ(ConnectionsMade(), 4u);
  });
}

TEST_P(CreationTest, MaxBelowMinIsRaisedToMin) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(2, 4));
    ASSERT_TRUE(pdo.ok());
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{4, 4, 0}));
    EXPECT_EQ(pdo.GetAttribute(PDO_ATTR_POOL_MAX).lval(), 4);
    EXPECT_EQ(pdo.GetAttribute(PDO_ATTR_POOL_MIN).lval(), 4);
  });
}

TEST_P(CreationTest, NegativeMinAndZeroMaxAreClamped) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(
        0, -5,
        {{PDO_ATTR_POOL_MIN, -5}, {PDO_ATTR_POOL_HEALTHCHECK_INTERVAL, -1}}));
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    EXPECT_EQ(pdo.GetAttribute(PDO_ATTR_POOL_MIN).lval(), 0);
    EXPECT_EQ(pdo.GetAttribute(PDO_ATTR_POOL_MAX).lval(), 1);
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{0, 0, 0}));
  });
}

TEST_P(CreationTest, WarmConnectionServesTheFirstQuery) {
  RunMain([&] {
    Pdo pdo = Open(PoolOptions(5, 2));
    ASSERT_TRUE(pdo.ok());
    EXPECT_EQ(QueryLong(pdo, "SELECT 11"), 11);
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
    EXPECT_EQ(ConnectionsMade(), 2u);
  });
}

TEST_P(CreationTest, GetAttributeOnPooledAndPlainHandles) {
  RunMain([&] {
    Pdo pooled = Open(PoolOptions(7, 2));
    ASSERT_TRUE(pooled.ok());
    EXPECT_TRUE(pooled.GetAttribute(PDO_ATTR_POOL_ENABLED).is_true());
    EXPECT_EQ(pdo_sim::Render(pooled.GetAttribute(PDO_ATTR_POOL_MIN).get()),
              "2");
    EXPECT_EQ(pdo_sim::Render(pooled.GetAttribute(PDO_ATTR_POOL_MAX).get()),
              "7");
    EXPECT_TRUE(
        pooled.GetAttribute(PDO_ATTR_POOL_HEALTHCHECK_INTERVAL).undef());
    Caught e;
    EXPECT_EQ(e.class_name(), "PDOException");
    EXPECT_EQ(e.message(),
              "SQLSTATE[IM001]: Driver does not support this function: "
              "PDO::ATTR_POOL_HEALTHCHECK_INTERVAL is a construction-only "
              "attribute and cannot be read at runtime");
    EXPECT_EQ(e.code(), "IM001");

    Pdo plain = Open();
    ASSERT_TRUE(plain.ok());
    EXPECT_TRUE(plain.GetAttribute(PDO_ATTR_POOL_ENABLED).is_false());
    EXPECT_TRUE(plain.GetAttribute(PDO_ATTR_POOL_MIN).is_false());
    EXPECT_TRUE(plain.GetAttribute(PDO_ATTR_POOL_MAX).is_false());
    EXPECT_TRUE(
        plain.GetAttribute(PDO_ATTR_POOL_HEALTHCHECK_INTERVAL).is_false());
  });
}

TEST_P(CreationTest, StmtCacheSizeOptionOpensNoConnection) {
  RunMain([&] {
    for (zend_long cache : {0, 8}) {
      const uint64_t made = ConnectionsMade();
      Pdo pdo =
          Open(PoolOptions(4, -1, {{PDO_ATTR_POOL_STMT_CACHE_SIZE, cache}}));
      ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
      EXPECT_EQ(CountsOf(pdo), (PoolCounts{0, 0, 0})) << "cache " << cache;
      EXPECT_EQ(ConnectionsMade(), made);
      EXPECT_EQ(QueryLong(pdo, "SELECT 7"), 7);
    }
  });
}

TEST_F(CreationSqliteTest, PrivateInMemoryDatabasesAreRejected) {
  RunMain([&] {
    for (const char* dsn :
         {"sqlite::memory:", "sqlite:", "sqlite:file::memory:",
          "sqlite:file:?mode=memory", "sqlite:file:foo?mode=memory",
          "sqlite:file::memory:?mode=memory"}) {
      Pdo pdo = Pdo::Open(dsn, PoolOptions(2, 1));
      EXPECT_FALSE(pdo.ok()) << dsn;
      Caught e;
      EXPECT_EQ(e.class_name(), "PDOException") << dsn;
      EXPECT_NE(e.message().find("in-memory databases cannot be used with "
                                 "PDO::ATTR_POOL_ENABLED"),
                std::string::npos)
          << dsn << ": " << e.message();
    }
    for (const char* dsn : {"sqlite:file::memory:?cache=shared",
                            "sqlite:file:foo?mode=memory&cache=shared",
                            "sqlite:file:bar?cache=shared&mode=memory"}) {
      Pdo pdo = Pdo::Open(dsn, PoolOptions(2, 1));
      EXPECT_TRUE(pdo.ok()) << dsn << ": " << TakeExceptionText();
    }
    EXPECT_EQ(pdo_sim::sqlite::GetStats().connections_opened, 3u);
  });
}

TEST_F(CreationSqliteTest, SharedCacheMemoryIsSharedBySlots) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("sqlite:file:shared_mem?mode=memory&cache=shared",
                        PoolOptions(2, 1));
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    pdo.Exec("CREATE TABLE t (v INTEGER)");
    pdo.Exec("INSERT INTO t VALUES (1), (2)");
    std::string seen;
    Task holder = Spawn([&] {
      // Holds the warm slot while the other coroutine reads.
      Statement stmt = pdo.Query("SELECT v FROM t");
      Delay(10);
    });
    Await(Spawn([&] {
      Statement stmt = pdo.Query("SELECT v FROM t ORDER BY v");
      Zval rows = stmt.FetchAll(PDO_FETCH_COLUMN);
      seen = pdo_sim::Render(rows.get());
      EXPECT_EQ(CountsOf(pdo).active, 2);
    }));
    Await(holder);
    EXPECT_EQ(seen, "[1, 2]");
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
  });
}

TEST_F(CreationSqliteTest, DriverOptionsReachEverySlot) {
  const std::string path = TempPath("readonly.db");
  RunMain([&] {
    {
      Pdo seed = Pdo::Open("sqlite:" + path);
      seed.Exec("CREATE TABLE t (v INTEGER)");
    }
    Pdo pdo = Pdo::Open("sqlite:" + path,
                        PoolOptions(2, -1,
                                    {{PDO_ATTR_DRIVER_SPECIFIC,
                                      zend_long{SQLITE_OPEN_READONLY}}}),
                        std::nullopt, std::nullopt, "Pdo\\Sqlite");
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    EXPECT_EQ(QueryLong(pdo, "SELECT COUNT(*) FROM t"), 0);
    EXPECT_TRUE(pdo.Exec("INSERT INTO t VALUES (1)").undef());
    Caught e;
    EXPECT_EQ(e.code(), "HY000");
    EXPECT_NE(e.message().find("readonly"), std::string::npos) << e.message();

    Pdo writable = Pdo::Open("sqlite:" + path, PoolOptions(2));
    EXPECT_EQ(writable.Exec("INSERT INTO t VALUES (2)").lval(), 1);
    EXPECT_EQ(QueryLong(writable, "SELECT v FROM t"), 2);
  });
}

// Drivers rewrite the credentials of the handle they connect (pgsql turns
// ';' into ' ', mysql fills the user from the DSN, odbc rebuilds the DSN):
// every slot must be given the template's originals. Mock only: it scripts
// the other drivers' rewriting and logs what each connect was given.
TEST_F(CreationMockTest, TemplateCredentialsSurviveEveryDriverMutation) {
  struct Case {
    const char* mode;
    std::optional<std::string> username;
    std::optional<std::string> password;
  };
  RunMain([&] {
    for (const Case& c : {Case{"pgsql", "app", "secret"},
                          Case{"mysql", std::nullopt, std::nullopt},
                          Case{"odbc", "app", "secret"}}) {
      SCOPED_TRACE(c.mode);
      pdo_sim::mock::Reset();
      const std::string dsn = std::string("dbname=shop;user=dsnuser;") +
                              "password=dsnpass;mutate=" + c.mode;
      {
        Pdo pdo =
            Pdo::Open("mock:" + dsn, PoolOptions(3, 1), c.username, c.password);
        ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
        std::vector<Task> holders;
        for (int i = 0; i < 3; i++) {
          holders.push_back(Spawn([&] {
            pdo.BeginTransaction();  // each holds its own slot
            Delay(5);
            pdo.Commit();
          }));
        }
        for (Task& holder : holders) Await(holder);
        EXPECT_EQ(CountsOf(pdo).count, 3);
      }
      const std::vector<pdo_sim::mock::ConnectAttempt> log =
          pdo_sim::mock::ConnectLog();
      ASSERT_EQ(log.size(), 3u);
      for (const pdo_sim::mock::ConnectAttempt& attempt : log) {
        EXPECT_EQ(attempt.data_source, dsn);
        EXPECT_EQ(attempt.username, c.username);
        EXPECT_EQ(attempt.password, c.password);
      }
    }
  });
}

}  // namespace
}  // namespace zar::testing::pdo
