// zend-async-ref PDO pool tests: the fixture and helpers.
//
// Tests drive PDO through its methods (pdo_sim/client.h, called as the
// engine calls internal methods), the pool through the ABI and the
// Async\Pool object getPool() returns, and the drivers through their test
// APIs (pdo_sim/mock_driver.h, pdo_sim/sqlite_driver.h). Coroutines come
// from the shared test helpers (zend_async_ref/testing/coroutines.h:
// Spawn, Yield, Delay, Await, Cancel), found unqualified because the PDO
// tests live in zar::testing::pdo.
//
//   PdoTest       RequestFixture with the async extension under test
//                 (zar::testing::AsyncModule()) and PDO loaded (in
//                 that order); resets the mock server; gives each test a
//                 temporary directory for SQLite files; fails a test that
//                 leaked an emalloc block, an object or a connection (mock,
//                 SQLite, and MySQL when the mysql driver is built).
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_PDO_SUPPORT_PDO_TEST_H_
#define ZAR_TESTS_PDO_SUPPORT_PDO_TEST_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pdo_sim/client.h"
#include "pdo_sim/mock_driver.h"
#include "pdo_sim/sqlite_driver.h"
#ifdef ZAR_PDO_MYSQL
#include "pdo_sim/mysql_driver.h"
#endif
#include "tests/support/implementation.h"
#include "tests/support/log.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "ext/pdo/pdo_pool.h"
#include "ext/pdo/php_pdo.h"
}

namespace zar::testing::pdo {

using pdo_sim::Options;
using pdo_sim::Pdo;
using pdo_sim::Statement;
using pdo_sim::Zval;

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

// Suspends the current coroutine until done() holds, checking it every
// millisecond (a timer, so that the reactor runs and a real server's
// answers arrive meanwhile), for at most 10 s; returns done(). Unlike
// YieldUntil, which gives up after a number of turns, it waits as long as
// another coroutine's round trips to a server take.
bool WaitUntil(const std::function<bool()>& done);

// Spawns body(0), ..., body(count - 1) as `count` coroutines, in that
// order, then awaits each in the same order: when it returns, every body
// has run to its end.
void SpawnEachAndAwait(int count, const std::function<void(int)>& body);

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

// Waits (WaitUntil) until the pool has every slot back (activeCount() 0:
// the releases of coroutines that ended, which roll back and reset on a
// real server's time, are done), then returns its counts.
PoolCounts Settled(Pdo& pdo);

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

// "Class: message" of the exception a call left in flight (taken and
// released) when it returned UNDEF, as PHP methods that throw do; else a
// text saying what the call did instead, which no expectation matches.
std::string Thrown(const Zval& result);

// The E_WARNING messages reported since the last ClearErrors().
std::vector<std::string> Warnings();
void ClearErrors();

}  // namespace zar::testing::pdo

#endif  // ZAR_TESTS_PDO_SUPPORT_PDO_TEST_H_
