// P9: the SQLite template's registry of user functions, aggregates and
// collations reaches every slot (pre-warmed ones included), rejects
// duplicates, and freezes once a slot has been used.

#include <algorithm>

#include "mock_zend/callable.h"
#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

class SqliteRegistryTest : public PdoTest {
 protected:
  Pdo OpenPooled(zend_long max, zend_long min = -1) {
    return Pdo::Open("sqlite:file:registry?mode=memory&cache=shared",
                     PoolOptions(max, min), std::nullopt, std::nullopt,
                     "Pdo\\Sqlite");
  }
};

using mock_zend::Closure;

std::string StrArg(mock_zend::Call& call, uint32_t i) {
  zend_string* s = zval_get_string(call.arg(i));
  std::string out(ZSTR_VAL(s), ZSTR_LEN(s));
  zend_string_release(s);
  return out;
}

mock_zend::NativeBody Upper() {
  return [](mock_zend::Call& call) {
    std::string s = StrArg(call, 0);
    std::transform(s.begin(), s.end(), s.begin(), ::toupper);
    ZVAL_STRINGL(call.result(), s.data(), s.size());
  };
}

// $pdo->method($name, ...callables, ...ints).
Zval Register(Pdo& pdo, const char* method, const char* name,
              std::vector<zval*> callables, std::vector<zend_long> ints = {}) {
  zval zname;
  ZVAL_STRING(&zname, name);
  std::vector<zval> longs(ints.size());
  std::vector<zval*> args = {&zname};
  for (zval* c : callables) args.push_back(c);
  for (size_t i = 0; i < ints.size(); i++) {
    ZVAL_LONG(&longs[i], ints[i]);
    args.push_back(&longs[i]);
  }
  Zval result = pdo_sim::CallMethod(pdo.zv(), method, args);
  zval_ptr_dtor(&zname);
  return result;
}

// Runs `sql` in `n` coroutines holding their slots at once; their first
// columns, in order.
std::vector<std::string> InEveryCoroutine(Pdo& pdo, int n,
                                          const std::string& sql) {
  std::vector<std::string> out(static_cast<size_t>(n));
  SpawnEachAndAwait(n, [&](int i) {
    Statement stmt = pdo.Query(sql);
    if (stmt.ok()) {
      Zval v = stmt.FetchColumn();
      out[static_cast<size_t>(i)] =
          v.type() == IS_STRING ? v.str() : pdo_sim::Render(v.get());
    } else {
      out[static_cast<size_t>(i)] = TakeExceptionText();
    }
    Delay(2);
  });
  return out;
}

TEST_F(SqliteRegistryTest, FunctionReachesEverySlot) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    Zval upper = Closure(Upper());
    EXPECT_TRUE(Register(pdo, "createFunction", "php_upper", {upper.get()}, {1})
                    .is_true());
    std::vector<std::string> got =
        InEveryCoroutine(pdo, 4, "SELECT php_upper('alpha')");
    EXPECT_EQ(Joined(got), "ALPHA ALPHA ALPHA ALPHA");
    EXPECT_EQ(CountsOf(pdo).count, 2);
  });
}

TEST_F(SqliteRegistryTest, AggregateReachesSlots) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    pdo.Exec("CREATE TABLE n (v INTEGER)");
    pdo.Exec("INSERT INTO n VALUES (1), (2), (3), (4), (5)");
    Zval step = Closure([](mock_zend::Call& call) {  // (context, row, value)
      const zend_long acc =
          Z_TYPE_P(call.arg(0)) == IS_LONG ? Z_LVAL_P(call.arg(0)) : 0;
      ZVAL_LONG(call.result(), acc + zval_get_long(call.arg(2)));
    });
    Zval finalize = Closure([](mock_zend::Call& call) {  // (context, rows)
      ZVAL_COPY(call.result(), call.arg(0));
    });
    // Registered after a slot was used: freeze first, so use a fresh pool.
    Pdo fresh = OpenPooled(2);
    EXPECT_TRUE(Register(fresh, "createAggregate", "php_sum",
                         {step.get(), finalize.get()}, {1})
                    .is_true());
    EXPECT_EQ(Joined(InEveryCoroutine(fresh, 2, "SELECT php_sum(v) FROM n")),
              "15 15");
  });
}

TEST_F(SqliteRegistryTest, CollationReachesSlots) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    Zval reverse = Closure([](mock_zend::Call& call) {
      std::string a = StrArg(call, 0), b = StrArg(call, 1);
      std::reverse(a.begin(), a.end());
      std::reverse(b.begin(), b.end());
      ZVAL_LONG(call.result(), a < b ? -1 : (a > b ? 1 : 0));
    });
    EXPECT_TRUE(
        Register(pdo, "createCollation", "rev", {reverse.get()}).is_true());
    pdo.Exec("CREATE TABLE w (name TEXT)");
    pdo.Exec("INSERT INTO w VALUES ('bravo'), ('alpha'), ('charlie')");
    Statement stmt = pdo.Query("SELECT name FROM w ORDER BY name COLLATE rev");
    Zval names = stmt.FetchAll(PDO_FETCH_COLUMN);
    EXPECT_EQ(pdo_sim::Render(names.get()), "['alpha', 'charlie', 'bravo']");
  });
}

TEST_F(SqliteRegistryTest, SameNameWithAnotherArity) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    Zval one = Closure(
        [](mock_zend::Call& call) { ZVAL_COPY(call.result(), call.arg(0)); });
    Zval two = Closure([](mock_zend::Call& call) {
      std::string out;
      for (zend_long i = 0; i < zval_get_long(call.arg(1)); i++) {
        out += StrArg(call, 0);
      }
      ZVAL_STRINGL(call.result(), out.data(), out.size());
    });
    EXPECT_TRUE(
        Register(pdo, "createFunction", "rep", {one.get()}, {1}).is_true());
    EXPECT_TRUE(
        Register(pdo, "createFunction", "rep", {two.get()}, {2}).is_true());
    Statement stmt = pdo.Query("SELECT rep('hi'), rep('hi', 3)");
    Zval row = stmt.Fetch(PDO_FETCH_NUM);
    EXPECT_EQ(pdo_sim::Render(row.get()), "['hi', 'hihihi']");
  });
}

TEST_F(SqliteRegistryTest, DuplicateRegistrationIsRejected) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    Zval upper = Closure(Upper());
    EXPECT_TRUE(Register(pdo, "createFunction", "php_upper", {upper.get()}, {1})
                    .is_true());
    EXPECT_EQ(
        Thrown(
            Register(pdo, "createFunction", "php_upper", {upper.get()}, {1})),
        "PDOException: PDO_SQLite: function \"php_upper\" with 1 argument(s) "
        "is already registered on the pool template");
  });
}

TEST_F(SqliteRegistryTest, RegistryFreezesAtTheFirstUse) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    Zval upper = Closure(Upper());
    EXPECT_TRUE(
        Register(pdo, "createFunction", "early", {upper.get()}, {1}).is_true());
    pdo.Exec("SELECT early('x')");  // the first use
    Log log;
    if (Register(pdo, "createFunction", "late", {upper.get()}, {1}).undef()) {
      Caught e;
      if (e.class_name() == "PDOException")
        log.push_back("FROZEN func rejected");
    }
    if (Register(pdo, "createCollation", "late", {upper.get()}).undef()) {
      Caught e;
      if (e.class_name() == "PDOException")
        log.push_back("FROZEN coll rejected");
    }
    EXPECT_EQ(log, (Log{"FROZEN func rejected", "FROZEN coll rejected"}));
  });
}

TEST_F(SqliteRegistryTest, PreWarmedSlotsGetLaterRegistrations) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2, 2);  // both slots exist before registering
    ASSERT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
    Zval upper = Closure(Upper());
    EXPECT_TRUE(Register(pdo, "createFunction", "php_upper", {upper.get()}, {1})
                    .is_true());
    EXPECT_EQ(Joined(InEveryCoroutine(pdo, 2, "SELECT php_upper('alpha')")),
              "ALPHA ALPHA");
    EXPECT_EQ(pdo_sim::sqlite::GetStats().connections_opened, 2u);
    EXPECT_TRUE(
        Register(pdo, "createFunction", "late", {upper.get()}, {1}).undef());
    Caught e;
    EXPECT_EQ(e.class_name(), "PDOException");
  });
}

TEST_F(SqliteRegistryTest, SmokeOnASharedCacheDatabase) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2, 1);
    pdo.BeginTransaction();
    pdo.Exec("CREATE TABLE items (id INTEGER PRIMARY KEY, val TEXT)");
    pdo.Commit();
    Log log{"schema ok"};
    std::vector<Task> coroutines;
    for (int i = 1; i <= 2; i++) {
      coroutines.push_back(Spawn([&, i] {
        Statement insert = pdo.Prepare("INSERT INTO items (val) VALUES (?)");
        insert.Execute({"row-" + std::to_string(i)});
        const std::string id = pdo.LastInsertId().str();
        Statement select = pdo.Prepare("SELECT val FROM items WHERE id = ?");
        select.Execute({id});
        log.push_back("inserted id=" + id +
                      " val=" + select.FetchColumn().str());
      }));
    }
    for (Task& c : coroutines) Await(c);
    log.push_back("count " +
                  std::to_string(QueryLong(pdo, "SELECT COUNT(*) FROM items")));
    log.push_back("errorInfo " + pdo_sim::Render(pdo.ErrorInfo().at(0)));
    pdo.Exec("SELECT * FROM nowhere");
    Caught e;
    log.push_back("caught " + e.class_name() + " code " + e.code());
    EXPECT_EQ(log,
              (Log{"schema ok", "inserted id=1 val=row-1",
                   "inserted id=2 val=row-2", "count 2", "errorInfo '00000'",
                   "caught PDOException code HY000"}));
  });
}

TEST_F(SqliteRegistryTest, FullRegistryInEachCoroutine) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    Zval upper = Closure(Upper());
    Zval step = Closure([](mock_zend::Call& call) {
      const zend_long acc =
          Z_TYPE_P(call.arg(0)) == IS_LONG ? Z_LVAL_P(call.arg(0)) : 0;
      ZVAL_LONG(call.result(), acc + zval_get_long(call.arg(2)));
    });
    Zval finalize = Closure(
        [](mock_zend::Call& call) { ZVAL_COPY(call.result(), call.arg(0)); });
    Zval reverse = Closure([](mock_zend::Call& call) {
      std::string a = StrArg(call, 0), b = StrArg(call, 1);
      std::reverse(a.begin(), a.end());
      std::reverse(b.begin(), b.end());
      ZVAL_LONG(call.result(), a < b ? -1 : (a > b ? 1 : 0));
    });
    Zval twice = Closure([](mock_zend::Call& call) {
      std::string s = StrArg(call, 0);
      std::string out;
      for (zend_long i = 0; i < zval_get_long(call.arg(1)); i++) out += s;
      std::transform(out.begin(), out.end(), out.begin(), ::toupper);
      ZVAL_STRINGL(call.result(), out.data(), out.size());
    });
    EXPECT_TRUE(Register(pdo, "createFunction", "php_upper", {upper.get()}, {1})
                    .is_true());
    EXPECT_TRUE(Register(pdo, "createAggregate", "php_sum",
                         {step.get(), finalize.get()}, {1})
                    .is_true());
    EXPECT_TRUE(
        Register(pdo, "createCollation", "rev", {reverse.get()}).is_true());
    EXPECT_TRUE(Register(pdo, "createFunction", "php_upper", {upper.get()}, {1})
                    .undef());
    {
      Caught e;
      EXPECT_EQ(e.message(),
                "PDO_SQLite: function \"php_upper\" with 1 argument(s) is "
                "already registered on the pool template");
    }
    EXPECT_TRUE(Register(pdo, "createFunction", "php_upper", {twice.get()}, {2})
                    .is_true());
    pdo.Exec("CREATE TABLE w (name TEXT, n INTEGER)");
    pdo.Exec("INSERT INTO w VALUES ('bravo', 1), ('alpha', 2), ('charlie', 3)");
    std::vector<std::string> results;
    SpawnEachAndAwait(2, [&](int) {
      Statement names =
          pdo.Query("SELECT php_upper(name) FROM w ORDER BY name COLLATE rev");
      Zval upper_names = names.FetchAll(PDO_FETCH_COLUMN);
      Statement sum = pdo.Query("SELECT php_sum(n) FROM w");
      Statement two = pdo.Query("SELECT php_upper('hi', 3)");
      Delay(2);
      results.push_back("upper=" + pdo_sim::Render(upper_names.get()) +
                        " sum=" + pdo_sim::Render(sum.FetchColumn().get()) +
                        " two=" + two.FetchColumn().str());
    });
    const std::string expected =
        "upper=['ALPHA', 'CHARLIE', 'BRAVO'] sum=6 two=HIHIHI";
    EXPECT_EQ(results, (std::vector<std::string>{expected, expected}));
    EXPECT_EQ(CountsOf(pdo).count, 2);
  });
}

TEST_F(SqliteRegistryTest, PerConnectionMethodsAreRejectedOnATemplate) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    Zval noop = Closure([](mock_zend::Call&) {});
    for (const char* method : {"setAuthorizer", "openBlob", "loadExtension"}) {
      EXPECT_TRUE(pdo.Call(method, {"x"}).undef()) << method;
      Caught e;
      EXPECT_EQ(e.class_name(), "PDOException");
      EXPECT_EQ(e.message(), std::string("PDO_SQLite: ") + method +
                                 "() is not yet supported when "
                                 "PDO::ATTR_POOL_ENABLED is set");
    }
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{0, 0, 0}));
  });
}

TEST_F(SqliteRegistryTest, PlainHandleAppliesRegistrationsAtOnce) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("sqlite::memory:", {}, std::nullopt, std::nullopt,
                        "Pdo\\Sqlite");
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    Zval upper = Closure(Upper());
    EXPECT_TRUE(Register(pdo, "createFunction", "php_upper", {upper.get()}, {1})
                    .is_true());
    EXPECT_EQ(QueryValue(pdo, "SELECT php_upper('abc')").str(), "ABC");
    // No pool, no freeze.
    EXPECT_TRUE(
        Register(pdo, "createFunction", "again", {upper.get()}, {1}).is_true());
    EXPECT_EQ(QueryValue(pdo, "SELECT again('x')").str(), "X");
  });
}

TEST_F(SqliteRegistryTest, ThrowingFunctionFailsTheQueryWithItsException) {
  RunMain([&] {
    Pdo pdo = OpenPooled(2);
    Zval boom = Closure([](mock_zend::Call&) {
      zend_throw_exception(zend_ce_exception, "boom in udf", 0);
    });
    Register(pdo, "createFunction", "boom", {boom.get()}, {0});
    EXPECT_TRUE(pdo.Query("SELECT boom()").result().undef());
    Caught e;
    EXPECT_EQ(e.class_name() + ": " + e.message(), "Exception: boom in udf");
    EXPECT_EQ(CountsOf(pdo).active, 1);  // the failed query's, for errorInfo()
    EXPECT_EQ(QueryLong(pdo, "SELECT 1"), 1);
    EXPECT_EQ(CountsOf(pdo).active, 0);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
