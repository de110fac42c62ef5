#include "tests/pdo/support/pdo_test.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <ostream>

#include "mock_zend/inspect.h"

namespace zar::testing::pdo {

void SpawnEachAndAwait(int count, const std::function<void(int)>& body) {
  std::vector<Task> coroutines;
  for (int i = 0; i < count; i++) {
    coroutines.push_back(Spawn([&body, i] { body(i); }));
  }
  for (Task& coroutine : coroutines) Await(coroutine);
}

bool WaitUntil(const std::function<bool()>& done) {
  for (int i = 0; i < 10000 && !done(); i++) {
    if (!Delay(1)) break;  // an exception in flight: no more waiting
  }
  return done();
}

PoolCounts Settled(Pdo& pdo) {
  WaitUntil([&] { return CountsOf(pdo).active == 0; });
  return CountsOf(pdo);
}

void PdoTest::SetUp() {
  pdo_sim::mock::Reset();
  pdo_sim::sqlite::ResetStats();
#ifdef ZAR_PDO_MYSQL
  pdo_sim::mysql::ResetStats();
#endif
  char pattern[] = "/tmp/zar_pdo_XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  temp_dir_ = pattern;
  RequestFixture::SetUp();
  mock_zend::ClearReportedErrors();
}

void PdoTest::TearDown() {
  RequestFixture::TearDown();
  EXPECT_EQ(pdo_sim::mock::LiveConnections(), 0u)
      << "mock connections still open after the request";
  const pdo_sim::sqlite::Stats stats = pdo_sim::sqlite::GetStats();
  EXPECT_EQ(stats.connections_opened, stats.connections_closed)
      << "SQLite connections still open after the request";
#ifdef ZAR_PDO_MYSQL
  const pdo_sim::mysql::Stats mysql = pdo_sim::mysql::GetStats();
  EXPECT_EQ(mysql.connections_opened, mysql.connections_closed)
      << "MySQL connections still open after the request";
#endif
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir_, ignored);
}

std::string PdoTest::TempPath(const std::string& name) const {
  return temp_dir_ + "/" + name;
}

std::string PdoTest::SqliteDsn(const std::string& name) const {
  return "sqlite:" + TempPath(name);
}

Options PoolOptions(zend_long max, zend_long min, Options extra) {
  Options options = {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION}},
                     {PDO_ATTR_POOL_ENABLED, true},
                     {PDO_ATTR_POOL_MAX, max}};
  if (min >= 0) options.push_back({PDO_ATTR_POOL_MIN, min});
  for (auto& option : extra) options.push_back(std::move(option));
  return options;
}

PoolCounts CountsOf(Pdo& pdo) {
  PoolCounts counts;
  Zval pool = pdo.GetPool();
  if (pool.type() != IS_OBJECT) {
    ADD_FAILURE() << "getPool() returned " << pdo_sim::Render(pool.get());
    return counts;
  }
  counts.count = pdo_sim::CallMethod(pool.get(), "count").lval();
  counts.idle = pdo_sim::CallMethod(pool.get(), "idleCount").lval();
  counts.active = pdo_sim::CallMethod(pool.get(), "activeCount").lval();
  return counts;
}

std::ostream& operator<<(std::ostream& out, const PoolCounts& counts) {
  return out << "{count=" << counts.count << ", idle=" << counts.idle
             << ", active=" << counts.active << "}";
}

Zval QueryValue(Pdo& pdo, const std::string& sql) {
  Statement stmt = pdo.Query(sql);
  if (!stmt.ok()) return Zval();
  return stmt.FetchColumn();
}

zend_long QueryLong(Pdo& pdo, const std::string& sql) {
  Zval value = QueryValue(pdo, sql);
  if (value.type() != IS_LONG) {
    ADD_FAILURE() << sql << " gave " << pdo_sim::Render(value.get());
    return -1;
  }
  return value.lval();
}

namespace {

zval* Property(zend_object* object, const char* name, zval* rv) {
  return zend_read_property(nullptr, object, name, strlen(name), true, rv);
}

}  // namespace

Caught::Caught() : exception_(mock_zend::TakeException()) {}

Caught::~Caught() {
  if (exception_ != nullptr) OBJ_RELEASE(exception_);
}

std::string Caught::class_name() const {
  return exception_ != nullptr ? mock_zend::ClassName(exception_) : "";
}

std::string Caught::message() const {
  return exception_ != nullptr ? mock_zend::ExceptionMessage(exception_) : "";
}

std::string Caught::code() const {
  if (exception_ == nullptr) return "";
  zval rv;
  zval* code = Property(exception_, "code", &rv);
  if (code == nullptr) return "";
  if (Z_TYPE_P(code) == IS_STRING) return Z_STRVAL_P(code);
  if (Z_TYPE_P(code) == IS_LONG) return std::to_string(Z_LVAL_P(code));
  return pdo_sim::Render(code);
}

Zval Caught::error_info() const {
  if (exception_ == nullptr) return Zval();
  zval rv;
  zval* info = Property(exception_, "errorInfo", &rv);
  return info != nullptr ? Zval::Copy(info) : Zval();
}

std::vector<std::string> Caught::chain() const {
  return exception_ != nullptr ? mock_zend::ExceptionChain(exception_)
                               : std::vector<std::string>{};
}

std::string Thrown(const Zval& result) {
  if (!result.undef()) {
    return "(no exception: returned " + pdo_sim::Render(result.get()) + ")";
  }
  const Caught caught;
  if (caught.empty()) return "(UNDEF without an exception)";
  return caught.class_name() + ": " + caught.message();
}

std::vector<std::string> Warnings() {
  std::vector<std::string> warnings;
  for (const mock_zend::ReportedError& error : mock_zend::ReportedErrors()) {
    if (error.type == E_WARNING) warnings.push_back(error.message);
  }
  return warnings;
}

void ClearErrors() { mock_zend::ClearReportedErrors(); }

}  // namespace zar::testing::pdo
