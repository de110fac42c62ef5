// zend-async-ref PDO pool tests: the fixture and helpers.
//
// Tests drive PDO through its methods (pdo_sim/client.h, called as the
// engine calls internal methods), the pool through the ABI and the
// Async\Pool object getPool() returns, and the drivers through their test
// APIs (pdo_sim/mock_driver.h, pdo_sim/sqlite_driver.h). Coroutines come
// from the pool tests' helpers (Spawn, Yield, Delay, Await, Cancel).
//
//   PdoTest       RequestFixture with the async extension under test
//                 (zar::testing::AsyncModule()) and PDO loaded (in
//                 that order); resets the mock server; gives each test a
//                 temporary directory for SQLite files; fails a test that
//                 leaked an emalloc block, an object or a connection.
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_PDO_SUPPORT_PDO_TEST_H_
#define ZAR_TESTS_PDO_SUPPORT_PDO_TEST_H_

#include <memory>
#include <string>
#include <vector>

#include "pdo_sim/client.h"
#include "pdo_sim/mock_driver.h"
#include "pdo_sim/sqlite_driver.h"
#include "tests/pool/support/pool_test.h"
#include "tests/support/implementation.h"

extern "C" {
#include "ext/pdo/pdo_pool.h"
#include "ext/pdo/php_pdo.h"
}

namespace zar::pdo_testing {

using pdo_sim::Options;
using pdo_sim::Pdo;
using pdo_sim::Statement;
using pdo_sim::Zval;
using zar::pool_testing::Await;
using zar::pool_testing::Cancel;
using zar::pool_testing::CoroutineRef;
using zar::pool_testing::Delay;
using zar::pool_testing::Joined;
using zar::pool_testing::Log;
using zar::pool_testing::Spawn;
using zar::pool_testing::TakeExceptionClass;
using zar::pool_testing::TakeExceptionText;
using zar::pool_testing::Yield;
using zar::pool_testing::YieldTimes;
using zar::pool_testing::YieldUntil;

// A spawned coroutine with a reference held for the test, so that it can
// be awaited or cancelled after it finished (Spawn's pointer is borrowed).
//   Task a = Spawn([&] { ... });   Await(a);
class Task {
 public:
  Task(zend_coroutine_t* coroutine)  // NOLINT: converts Spawn()'s result
      : ref_(std::make_unique<CoroutineRef>(coroutine)) {}
  operator zend_coroutine_t*() const { return ref_->get(); }  // NOLINT

 private:
  std::unique_ptr<CoroutineRef> ref_;
};

class PdoTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {zar::testing::AsyncModule(), &pdo_module_entry};
  }
  void SetUp() override;
  void TearDown() override;

  // A file in this test's temporary directory.
  std::string TempPath(const std::string& name) const;
  // "sqlite:<temp>/<name>".
  std::string SqliteDsn(const std::string& name = "test.db") const;

 private:
  std::string temp_dir_;
};

// Pool options: ERRMODE_EXCEPTION, POOL_ENABLED, MAX (and MIN when >= 0),
// then `extra`.
Options PoolOptions(zend_long max, zend_long min = -1, Options extra = {});

// The pool's counts through getPool(): count(), idleCount(), activeCount().
struct PoolCounts {
  zend_long count = -1;
  zend_long idle = -1;
  zend_long active = -1;
  bool operator==(const PoolCounts&) const = default;
};
PoolCounts CountsOf(Pdo& pdo);
std::ostream& operator<<(std::ostream& out, const PoolCounts& counts);

// Runs `sql` (query + fetchColumn): the first column of the first row.
Zval QueryValue(Pdo& pdo, const std::string& sql);
// The same as an int, or -1 (with a test failure) when it is not one.
zend_long QueryLong(Pdo& pdo, const std::string& sql);

// Takes the exception in flight (none: empty) and releases it when done.
class Caught {
 public:
  Caught();
  ~Caught();
  Caught(const Caught&) = delete;
  Caught& operator=(const Caught&) = delete;

  bool empty() const { return exception_ == nullptr; }
  std::string class_name() const;
  std::string message() const;
  // The code property: a PDOException's SQLSTATE, or an int as text.
  std::string code() const;
  Zval error_info() const;
  // "Class: message" of the exception and each previous one.
  std::vector<std::string> chain() const;

 private:
  zend_object* exception_;
};

// The E_WARNING messages reported since the last ClearErrors().
std::vector<std::string> Warnings();
void ClearErrors();

}  // namespace zar::pdo_testing

#endif  // ZAR_TESTS_PDO_SUPPORT_PDO_TEST_H_
