// Tracing (zend_async_ref/trace.h, docs/tracing.md): each kind of event
// appears, with the right coroutine and object ids, in the captured trace
// of a small scenario; with tracing off nothing reaches the sink.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "core/extension.h"
#include "pdo_sim/client.h"
#include "pdo_sim/mock_driver.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/pdo/php_pdo.h"
#include "php_main.h"
#include "zend_async_ref/registry_testing.h"
#include "zend_async_ref/strict.h"
#include "zend_async_ref/trace.h"
}

namespace zar::trace {

namespace {

using Lines = std::vector<std::string>;

void Capture(const char* line, size_t length, void* arg) {
  static_cast<Lines*>(arg)->emplace_back(line, length);
}

void MainTrampoline(void* arg) {
  (*static_cast<const std::function<void()>*>(arg))();
}

// The engine with the async extension and PDO, a request, and the trace
// captured into lines() while the script runs.
class TraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    zend_module_entry* modules[] = {&zar_async_module_entry, &pdo_module_entry};
    sapi_startup(&php_mock_sapi_module);
    ASSERT_EQ(php_mock_module_startup(&php_mock_sapi_module, modules, 2),
              SUCCESS);
    zend_async_ref_trace_disable();  // whatever the environment said
    ASSERT_EQ(php_request_startup(), SUCCESS);
  }

  void TearDown() override {
    php_request_shutdown(nullptr);
    zend_async_ref_trace_disable();
    const php_mock_request_report report = php_mock_last_request_report();
    EXPECT_EQ(report.leaked_blocks, 0u);
    EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
    php_module_shutdown();
    sapi_shutdown();
    zend_async_ref_reset_registry();
  }

  // Runs `main` as the request's script, traced.
  void RunTraced(const std::function<void()>& main) {
    zend_async_ref_trace_to_callback(Capture, &lines_);
    php_execute_main(&MainTrampoline,
                     const_cast<std::function<void()>*>(&main));
    zend_async_ref_trace_disable();
  }

  const Lines& lines() const { return lines_; }

  // Whether `line` was traced.
  bool Has(const std::string& line) const {
    return std::find(lines_.begin(), lines_.end(), line) != lines_.end();
  }
  // The index of `line` (fails the test when missing).
  size_t IndexOf(const std::string& line) const {
    auto found = std::find(lines_.begin(), lines_.end(), line);
    EXPECT_NE(found, lines_.end()) << "missing: " << line << "\n" << Dump();
    return static_cast<size_t>(found - lines_.begin());
  }
  std::string Dump() const {
    std::ostringstream out;
    for (const std::string& line : lines_) out << line << "\n";
    return out.str();
  }

 private:
  Lines lines_;
};

std::string Id(zend_coroutine_t* coroutine) {
  char name[ZEND_ASYNC_REF_NAME_SIZE];
  return zend_async_ref_coroutine_name(coroutine, name);
}

// A pooled PDO over the mock driver (errors throw) with table t.
pdo_sim::Pdo OpenPooledShop(zend_long max) {
  pdo_sim::mock::Reset();
  pdo_sim::Pdo pdo = pdo_sim::Pdo::Open(
      "mock:dbname=shop", {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION}},
                           {PDO_ATTR_POOL_ENABLED, true},
                           {PDO_ATTR_POOL_MAX, max}});
  EXPECT_TRUE(pdo.ok());
  if (pdo.ok()) pdo.Exec("CREATE TABLE t (id INTEGER)");
  return pdo;
}

// Pools of ints with C handlers; beforeRelease rejects int(2).
zend_long made = 0;
bool MakeInt(zend_async_pool_t*, zval* result) {
  ZVAL_LONG(result, ++made);
  return true;
}
bool RejectTwo(zend_async_pool_t*, zval* resource) {
  return Z_LVAL_P(resource) != 2;
}

TEST_F(TraceTest, SchedulerEvents) {
  std::string a, b;
  RunTraced([&] {
    zar::testing::CoroutineRef first(
        zar::testing::Spawn([] { zar::testing::Yield(); }));
    zar::testing::CoroutineRef second(
        zar::testing::Spawn([] { zar::testing::Delay(1000); }));
    a = Id(first.get());
    b = Id(second.get());
    zar::testing::Yield();  // a runs and yields, b parks on its timer
    ZEND_ASYNC_CANCEL(second.get(), nullptr, false);
    zar::testing::Await(first.get());
    zar::testing::Await(second.get());
  });
  EXPECT_LT(IndexOf("[trace] main launch"), IndexOf("[trace] main spawn " + a));
  EXPECT_LT(IndexOf("[trace] main spawn " + a),
            IndexOf("[trace] main spawn " + b));
  EXPECT_TRUE(Has("[trace] main enqueue main"));
  EXPECT_TRUE(Has("[trace] main suspend"));
  EXPECT_TRUE(Has("[trace] main switch -> " + a));
  EXPECT_LT(IndexOf("[trace] " + a + " enqueue " + a),
            IndexOf("[trace] " + a + " suspend"));
  EXPECT_TRUE(Has("[trace] " + a + " switch -> " + b));
  EXPECT_TRUE(Has("[trace] " + b + " timer start Timer#1 (1000ms once)"));
  EXPECT_LT(IndexOf("[trace] main cancel " + b),
            IndexOf("[trace] " + b +
                    " finish with Async\\AsyncCancellation "
                    "\"Coroutine cancelled\""));
  EXPECT_TRUE(Has("[trace] " + a + " finish"));
  EXPECT_TRUE(Has("[trace] " + a + " resume main"));
  EXPECT_TRUE(Has("[trace] main finish"));
  EXPECT_TRUE(Has("[trace] main switch -> scheduler"));
  EXPECT_EQ(lines().back(), "[trace] scheduler switch -> main");
}

TEST_F(TraceTest, TimerStartAndFire) {
  std::string a;
  RunTraced([&] {
    zar::testing::CoroutineRef sleeper(
        zar::testing::Spawn([] { zar::testing::Delay(1); }));
    a = Id(sleeper.get());
    zar::testing::Await(sleeper.get());
  });
  EXPECT_LT(IndexOf("[trace] " + a + " timer start Timer#1 (1ms once)"),
            IndexOf("[trace] scheduler timer fire Timer#1"));
  EXPECT_LT(IndexOf("[trace] scheduler timer fire Timer#1"),
            IndexOf("[trace] scheduler resume " + a));
}

// The first traced line containing `part` ("" when none).
std::string LineWith(const std::vector<std::string>& lines,
                     const std::string& part) {
  for (const std::string& line : lines) {
    if (line.find(part) != std::string::npos) return line;
  }
  return "";
}

TEST_F(TraceTest, ExecSpawnAndDone) {
  RunTraced([] {
    ZEND_ASYNC_SCHEDULER_INIT();
    zval value;
    ZVAL_NULL(&value);
    ZEND_ASYNC_EXEC(ZEND_ASYNC_EXEC_MODE_EXEC, "exit 3", nullptr, &value,
                    nullptr, nullptr, nullptr, 0);
    zval_ptr_dtor(&value);
  });
  const std::string spawn = LineWith(lines(), " exec spawn Exec#");
  ASSERT_NE(spawn, "") << Dump();
  // "[trace] main exec spawn Exec#<id> Exec(cmd=exit 3) pid <pid>"
  const size_t id_at = spawn.find("Exec#");
  const std::string token = spawn.substr(id_at, spawn.find(' ', id_at) - id_at);
  EXPECT_EQ(spawn.substr(0, id_at), "[trace] main exec spawn ");
  EXPECT_NE(spawn.find(token + " Exec(cmd=exit 3) pid "), std::string::npos);
  EXPECT_LT(IndexOf(spawn), IndexOf("[trace] scheduler exec done " + token +
                                    " -> exit_code 3, term_signal 0"));
}

TEST_F(TraceTest, FutureCompleteRejectAndChain) {
  RunTraced([] {
    ZEND_ASYNC_SCHEDULER_INIT();
    zend_future_t* done = ZEND_ASYNC_NEW_FUTURE(false);
    ZEND_FUTURE_SET_IGNORED(done);
    zval value;
    ZVAL_LONG(&value, 7);
    ZEND_FUTURE_COMPLETE(done, &value);
    ZEND_ASYNC_EVENT_RELEASE(&done->event);

    zend_future_t* failed = ZEND_ASYNC_NEW_FUTURE(false);
    ZEND_FUTURE_SET_IGNORED(failed);
    zend_object* error =
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "boom");
    ZEND_FUTURE_REJECT(failed, error);
    OBJ_RELEASE(error);
    ZEND_ASYNC_EVENT_RELEASE(&failed->event);
  });
  EXPECT_TRUE(Has("[trace] main future complete Future#1 -> int(7)")) << Dump();
  EXPECT_TRUE(
      Has("[trace] main future reject Future#2 -> "
          "Async\\AsyncException \"boom\""))
      << Dump();
}

TEST_F(TraceTest, TaskGroupSpawnQueueDoneAndSettled) {
  RunTraced([] {
    ZEND_ASYNC_SCHEDULER_INIT();
    zend_async_group_t* group = ZEND_ASYNC_NEW_GROUP(1, 0, nullptr);
    ASSERT_NE(group, nullptr);
    zend_object* object = ZEND_ASYNC_EVENT_TO_OBJECT(&group->event);
    zval ok, bad;
    mock_zend::MakeCallable(
        &ok, [](mock_zend::Call& call) { ZVAL_LONG(call.result(), 7); });
    mock_zend::MakeCallable(&bad, [](mock_zend::Call&) {
      zend_throw_exception(zend_ce_exception, "boom", 0);
    });
    zend_call_method(object, nullptr, nullptr, "spawn", 5, nullptr, 1, &ok,
                     nullptr);
    zend_call_method(object, nullptr, nullptr, "spawn", 5, nullptr, 1, &bad,
                     nullptr);
    zend_call_method(object, nullptr, nullptr, "close", 5, nullptr, 0, nullptr,
                     nullptr);
    zend_call_method(object, nullptr, nullptr, "awaitCompletion", 15, nullptr,
                     0, nullptr, nullptr);
    zend_call_method(object, nullptr, nullptr, "suppressErrors", 14, nullptr, 0,
                     nullptr, nullptr);
    zval_ptr_dtor(&ok);
    zval_ptr_dtor(&bad);
    ZEND_ASYNC_EVENT_RELEASE(&group->event);
  });
  const std::string spawn =
      LineWith(lines(), " group spawn TaskGroup#1 int(0) -> ");
  ASSERT_NE(spawn, "") << Dump();
  EXPECT_LT(IndexOf(spawn),
            IndexOf("[trace] main group queue TaskGroup#1 int(1)"));
  const std::string done =
      LineWith(lines(), " group done TaskGroup#1 int(0) -> int(7)");
  ASSERT_NE(done, "") << Dump();
  const std::string failed =
      LineWith(lines(), " group done TaskGroup#1 int(1) -> Exception \"boom\"");
  ASSERT_NE(failed, "") << Dump();
  EXPECT_LT(IndexOf(done), IndexOf(failed));
  const std::string settled =
      LineWith(lines(), " group settled TaskGroup#1 (total=2)");
  ASSERT_NE(settled, "") << Dump();
  EXPECT_LT(IndexOf(failed), IndexOf(settled));
}

TEST_F(TraceTest, FutureChain) {
  RunTraced([] {
    ZEND_ASYNC_SCHEDULER_INIT();
    zend_future_t* source = ZEND_ASYNC_NEW_FUTURE(false);
    zend_object* object = ZEND_ASYNC_NEW_FUTURE_OBJ(source);
    zval mapper, derived, value;
    mock_zend::MakeCallable(&mapper, [](mock_zend::Call&) {});
    zend_call_method(object, nullptr, nullptr, "map", 3, &derived, 1, &mapper,
                     nullptr);
    zend_call_method(Z_OBJ(derived), nullptr, nullptr, "ignore", 6, nullptr, 0,
                     nullptr, nullptr);
    ZVAL_LONG(&value, 1);
    ZEND_FUTURE_COMPLETE(source, &value);
    zar::testing::Yield();  // the chain's coroutine settles `derived`
    zval_ptr_dtor(&derived);
    zval_ptr_dtor(&mapper);
    OBJ_RELEASE(object);
  });
  const std::string chain = LineWith(lines(), " future chain Future#1 -> ");
  ASSERT_NE(chain, "") << Dump();
  const std::string run = chain.substr(chain.rfind(' ') + 1);
  EXPECT_EQ(chain, "[trace] main future chain Future#1 -> " + run);
  EXPECT_LT(IndexOf("[trace] main future complete Future#1 -> int(1)"),
            IndexOf(chain));
  EXPECT_TRUE(Has("[trace] " + run + " future complete Future#2 -> null"))
      << Dump();
}

zend_result FailAtTwo(zend_async_iterator_t*, zval* current, zval*) {
  if (Z_LVAL_P(current) == 2) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "boom");
  }
  return SUCCESS;
}

TEST_F(TraceTest, IteratorWorkerAndDone) {
  RunTraced([] {
    ZEND_ASYNC_SCHEDULER_INIT();
    zval array;
    array_init(&array);
    add_next_index_long(&array, 1);
    add_next_index_long(&array, 2);
    add_next_index_long(&array, 3);
    zend_async_iterator_t* iterator =
        ZEND_ASYNC_NEW_ITERATOR(&array, nullptr, nullptr, FailAtTwo, 2, 0);
    iterator->run_in_coroutine(iterator, 0, false);
    zar::testing::YieldTimes(3);  // the worker runs the loop
    zval_ptr_dtor(&array);
  });
  const std::string worker =
      LineWith(lines(), " iterator worker Iterator#1 -> ");
  ASSERT_NE(worker, "") << Dump();
  const std::string run = worker.substr(
      worker.rfind(" -> ") + 4, worker.rfind(" (") - worker.rfind(" -> ") - 4);
  EXPECT_EQ(worker,
            "[trace] main iterator worker Iterator#1 -> " + run + " (1/2)");
  EXPECT_TRUE(Has("[trace] " + run +
                  " iterator done Iterator#1 (2 call(s)) -> "
                  "Async\\AsyncException \"boom\""))
      << Dump();
}

TEST_F(TraceTest, ProcessExit) {
  const pid_t child = fork();
  if (child == 0) _exit(6);
  siginfo_t info;
  waitid(P_PID, child, &info, WEXITED | WNOWAIT);
  RunTraced([child] {
    zend_async_process_event_t* process = ZEND_ASYNC_NEW_PROCESS_EVENT(child);
    zar::testing::WaitFor(&process->base);
    ZEND_ASYNC_EVENT_RELEASE(&process->base);
  });
  const std::string exit = LineWith(lines(), " process exit Process#");
  EXPECT_NE(exit.find(" -> exit_code 6"), std::string::npos) << Dump();
}

TEST_F(TraceTest, ThreadStartAndDone) {
  RunTraced([] {
    zend_async_thread_event_t* thread =
        ZEND_ASYNC_NEW_THREAD_EVENT(nullptr, nullptr);
    thread->base.start(&thread->base);  // the spawn
    zar::testing::WaitFor(&thread->base);
    ZEND_ASYNC_EVENT_RELEASE(&thread->base);
  });
  ZEND_ASYNC_REACTOR_QUIESCE();
  const std::string start = LineWith(lines(), " thread start Thread#");
  const std::string done = LineWith(lines(), " thread done Thread#");
  EXPECT_LT(IndexOf(start), IndexOf(done)) << Dump();
}

void NothingOnAWorker(zend_async_event_t*, void*) {}

TEST_F(TraceTest, WorkerPoolNewSubmitAndDone) {
  RunTraced([] {
    zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(1, 0);
    zend_async_event_t* done =
        pool->submit_internal(pool, NothingOnAWorker, nullptr);
    if (!ZEND_ASYNC_EVENT_IS_CLOSED(done)) zar::testing::WaitFor(done);
    ZEND_ASYNC_EVENT_RELEASE(done);
    pool->close(pool);
    ZEND_THREAD_POOL_DELREF(pool);
  });
  const size_t made =
      IndexOf(LineWith(lines(), " worker pool new WorkerPool#1"));
  const size_t submitted =
      IndexOf(LineWith(lines(), " worker pool submit WorkerPool#1"));
  const size_t done =
      IndexOf(LineWith(lines(), " worker pool done WorkerPool#1"));
  EXPECT_LT(made, submitted) << Dump();
  EXPECT_LT(submitted, done) << Dump();
}

TEST_F(TraceTest, FilesystemWatchStartChangeStop) {
  char dir[] = "/tmp/zar-trace-fs-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/a.txt";
  RunTraced([&] {
    zend_string* path = zend_string_init(dir, strlen(dir), 0);
    zend_async_filesystem_event_t* watch =
        ZEND_ASYNC_NEW_FILESYSTEM_EVENT(path, 0);
    zend_string_release(path);
    watch->base.start(&watch->base);
    close(open(file.c_str(), O_CREAT | O_WRONLY, 0644));
    zar::testing::WaitFor(&watch->base);
    watch->base.stop(&watch->base);
    ZEND_ASYNC_EVENT_RELEASE(&watch->base);
  });
  unlink(file.c_str());
  rmdir(dir);
  const size_t start = IndexOf(
      "[trace] main fs watch start Filesystem#1 "
      "FilesystemWatch(path=" +
      std::string(dir) + ")");
  const size_t change =
      IndexOf("[trace] scheduler fs change Filesystem#1 rename a.txt");
  const size_t stop = IndexOf("[trace] main fs watch stop Filesystem#1");
  EXPECT_LT(start, change);
  EXPECT_LT(change, stop);
}

// A pool's counts as its trace lines end: "(idle=I active=A reserved=R
// waiters=W)".
std::string PoolCounts(int idle, int active, int reserved, int waiters) {
  return "(idle=" + std::to_string(idle) + " active=" + std::to_string(active) +
         " reserved=" + std::to_string(reserved) +
         " waiters=" + std::to_string(waiters) + ")";
}

TEST_F(TraceTest, PoolEvents) {
  made = 0;
  std::string a, b, c;
  RunTraced([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(MakeInt, nullptr, nullptr,
                                                  nullptr, RejectTwo, 0, 1, 0);
    zval held;
    ASSERT_TRUE(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &held));  // new int(1)
    zval none;
    EXPECT_FALSE(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &none));
    zar::testing::CoroutineRef first(
        zar::testing::Spawn([&] {  // waits, is reserved, then cancelled
          zval resource;
          EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
          zar::testing::DropException();
        }));
    zar::testing::CoroutineRef second(
        zar::testing::Spawn([&] {  // gets the place handed on
          zval resource;
          ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
          zar::testing::Yield();  // meanwhile the pool closes
          ZEND_ASYNC_POOL_RELEASE(pool, &resource);
        }));
    zar::testing::CoroutineRef third(
        zar::testing::Spawn([&] {  // woken by close
          zval resource;
          EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
          zar::testing::DropException();
        }));
    a = Id(first.get());
    b = Id(second.get());
    c = Id(third.get());
    zar::testing::Yield();                           // all three park
    ZEND_ASYNC_POOL_RELEASE(pool, &held);            // a is reserved
    ZEND_ASYNC_CANCEL(first.get(), nullptr, false);  // ... and leaves
    zar::testing::Yield();                           // a hands on to b
    zar::testing::Yield();                           // b takes int(1)
    ZEND_ASYNC_POOL_CLOSE(pool);                     // wakes c
    zar::testing::Await(second.get());               // b releases: destroyed
    zar::testing::Await(third.get());
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);

    // A second pool: beforeRelease rejects int(2).
    made = 1;
    zend_async_pool_t* picky = ZEND_ASYNC_NEW_POOL(MakeInt, nullptr, nullptr,
                                                   nullptr, RejectTwo, 0, 1, 0);
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(picky, &held, 0));
    ZEND_ASYNC_POOL_RELEASE(picky, &held);
    ZEND_ASYNC_EVENT_RELEASE(&picky->event);
  });
  const std::string stats0 = PoolCounts(0, 1, 0, 0);
  EXPECT_TRUE(Has("[trace] main pool create Pool#1 (min=0 max=1)"));
  EXPECT_TRUE(
      Has("[trace] main pool try-acquire Pool#1 -> new int(1) " + stats0));
  EXPECT_TRUE(Has("[trace] main pool try-acquire Pool#1 -> none " + stats0));
  EXPECT_TRUE(Has("[trace] " + a + " pool acquire Pool#1 -> wait " +
                  PoolCounts(0, 1, 0, 1)));
  EXPECT_TRUE(Has("[trace] " + c + " pool acquire Pool#1 -> wait " +
                  PoolCounts(0, 1, 0, 3)));
  EXPECT_LT(IndexOf("[trace] main pool release Pool#1 int(1) -> idle " +
                    PoolCounts(1, 0, 0, 3)),
            IndexOf("[trace] main pool reserve Pool#1 for " + a + " " +
                    PoolCounts(1, 0, 1, 3)));
  EXPECT_TRUE(Has("[trace] main cancel " + a));
  EXPECT_LT(IndexOf("[trace] " + a +
                    " pool wait Pool#1 -> Async\\AsyncCancellation \"Coroutine "
                    "cancelled\" " +
                    PoolCounts(1, 0, 0, 2)),
            IndexOf("[trace] " + a + " pool hand-on Pool#1 " +
                    PoolCounts(1, 0, 0, 2)));
  EXPECT_LT(IndexOf("[trace] " + a + " pool hand-on Pool#1 " +
                    PoolCounts(1, 0, 0, 2)),
            IndexOf("[trace] " + a + " pool reserve Pool#1 for " + b + " " +
                    PoolCounts(1, 0, 1, 2)));
  EXPECT_TRUE(Has("[trace] " + a +
                  " pool acquire Pool#1 -> fail Async\\AsyncCancellation "
                  "\"Coroutine cancelled\" " +
                  PoolCounts(1, 0, 1, 2)));
  EXPECT_TRUE(Has("[trace] " + b + " pool wait Pool#1 -> reserved " +
                  PoolCounts(1, 0, 0, 1)));
  EXPECT_TRUE(Has("[trace] " + b + " pool acquire Pool#1 -> idle int(1) " +
                  PoolCounts(0, 1, 0, 1)));
  EXPECT_TRUE(Has("[trace] main pool close Pool#1 " + PoolCounts(0, 1, 0, 1)));
  EXPECT_LT(IndexOf("[trace] main pool wake Pool#1 " + c +
                    " -> Async\\PoolException \"Pool is closed\""),
            IndexOf("[trace] main resume " + c +
                    " with Async\\PoolException \"Pool is closed\""));
  EXPECT_LT(IndexOf("[trace] " + b + " pool release Pool#1 int(1) -> closed " +
                    PoolCounts(0, 0, 0, 0)),
            IndexOf("[trace] " + b + " pool destroy Pool#1 int(1)"));
  EXPECT_TRUE(Has("[trace] main pool dispose Pool#1"));
  EXPECT_TRUE(Has("[trace] main pool acquire Pool#2 -> new int(2) " + stats0));
  EXPECT_LT(IndexOf("[trace] main pool reject Pool#2 int(2) by beforeRelease"),
            IndexOf("[trace] main pool release Pool#2 int(2) -> rejected " +
                    PoolCounts(0, 0, 0, 0)));
  EXPECT_TRUE(Has("[trace] main pool destroy Pool#2 int(2)"));
}

TEST_F(TraceTest, PdoBindPinRelease) {
  std::string a;
  RunTraced([&] {
    pdo_sim::Pdo pdo = OpenPooledShop(2);
    ASSERT_TRUE(pdo.ok());
    zar::testing::CoroutineRef worker(zar::testing::Spawn([&] {
      pdo.BeginTransaction();
      pdo.Exec("INSERT INTO t VALUES (1)");
      pdo.Commit();
      pdo_sim::Statement statement = pdo.Prepare("SELECT id FROM t");
      statement.Execute();
      pdo.Exec("INSERT INTO t VALUES (2)");  // the statement pins the slot
      statement.Reset();
      pdo.Exec("SET @x = 1");
    }));
    a = Id(worker.get());
    zar::testing::Await(worker.get());
    pdo.Reset();
  });
  const std::string key = a.substr(1);
  EXPECT_LT(IndexOf("[trace] main pdo bind key=0 -> conn#1"),
            IndexOf("[trace] main pdo release conn#1"));
  EXPECT_TRUE(Has("[trace] " + a + " pdo bind key=" + key + " -> conn#1"));
  EXPECT_TRUE(Has("[trace] " + a + " pdo pin conn#1 (transaction)"));
  EXPECT_TRUE(Has("[trace] " + a + " pdo pin conn#1 (statement)"));
  EXPECT_TRUE(Has("[trace] " + a + " pdo pin conn#1 (session)"));
  EXPECT_TRUE(Has("[trace] " + a + " pdo release conn#1"));
}

TEST_F(TraceTest, PdoPinWhenACoroutineEndsUnderALiveStatement) {
  std::string a;
  RunTraced([&] {
    pdo_sim::Pdo pdo = OpenPooledShop(1);
    ASSERT_TRUE(pdo.ok());
    pdo_sim::Statement outlives;
    zar::testing::CoroutineRef worker(zar::testing::Spawn(
        [&] { outlives = pdo.Prepare("SELECT id FROM t"); }));
    a = Id(worker.get());
    zar::testing::Await(worker.get());
    outlives.Reset();  // the last statement gives the slot back
    pdo.Reset();
  });
  // The coroutine's end keeps the slot for the statement, whose release
  // (back in main) gives it back.
  const size_t pin = IndexOf("[trace] " + a + " pdo pin conn#1 (statement)");
  EXPECT_NE(std::find(lines().begin() + static_cast<std::ptrdiff_t>(pin),
                      lines().end(), "[trace] main pdo release conn#1"),
            lines().end())
      << Dump();
}

TEST_F(TraceTest, TracingOffProducesNothing) {
  Lines captured;
  zend_async_ref_trace_to_callback(Capture, &captured);
  zend_async_ref_trace_disable();
  EXPECT_FALSE(zend_async_ref_trace_on);
  php_execute_main(
      [](void*) {
        zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(
            MakeInt, nullptr, nullptr, nullptr, nullptr, 0, 1, 0);
        zar::testing::CoroutineRef worker(zar::testing::Spawn([&] {
          zval resource;
          ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0);
          zar::testing::Delay(1);
          ZEND_ASYNC_POOL_RELEASE(pool, &resource);
        }));
        zar::testing::Await(worker.get());
        ZEND_ASYNC_EVENT_RELEASE(&pool->event);
      },
      nullptr);
  EXPECT_EQ(captured, Lines{});
}

TEST_F(TraceTest, StrictDiagnosticsAreTracedToo) {
  zend_async_ref_strict_enable(true);
  RunTraced([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(MakeInt, nullptr, nullptr,
                                                  nullptr, nullptr, 0, 1, 0);
    zval stranger;
    ZVAL_LONG(&stranger, 9);
    ZEND_ASYNC_POOL_RELEASE(pool, &stranger);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  });
  zend_async_ref_strict_enable(false);
  EXPECT_TRUE(
      Has("[trace] main strict ZEND_ASYNC_POOL_RELEASE: Pool#1 "
          "Pool(idle=0, active=0, reserved=0, max=1): resource int(9) "
          "was never lent by this pool"));
}

// ZEND_ASYNC_REF_TRACE=<file>: lines are appended to the file.
TEST(TraceConfigurationTest, EnvironmentNamesAFile) {
  char path[] = "/tmp/zar_trace_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  setenv("ZEND_ASYNC_REF_TRACE", path, 1);
  EXPECT_TRUE(zend_async_ref_trace_configure_from_env());
  zend_async_ref_trace_as("main", "a line %d", 1);
  setenv("ZEND_ASYNC_REF_TRACE", "0", 1);
  EXPECT_FALSE(zend_async_ref_trace_configure_from_env());
  zend_async_ref_trace_as("main", "not written");
  unsetenv("ZEND_ASYNC_REF_TRACE");

  std::ifstream file(path);
  const std::string text((std::istreambuf_iterator<char>(file)),
                         std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "[trace] main a line 1\n");
  unlink(path);
}

// Stopping a debugger at an event: the tracer numbers the lines of each
// sink from 1, and calls zend_async_ref_trace_break() (a debugger's
// breakpoint) after line N, or after every line containing a text.
TEST(TraceConfigurationTest, TheBreakIsReachedAfterLineNAndAfterEachMatch) {
  Lines lines;
  const uint64_t breaks = zend_async_ref_trace_breaks;
  zend_async_ref_trace_to_callback(Capture, &lines);
  zend_async_ref_trace_break_at(2);
  std::vector<uint64_t> breaks_after;  // after lines 1, 2, 3
  for (int i = 1; i <= 3; i++) {
    zend_async_ref_trace_as("main", "line %d", i);
    breaks_after.push_back(zend_async_ref_trace_breaks - breaks);
  }
  EXPECT_EQ(zend_async_ref_trace_line_number, 3u);
  EXPECT_EQ(breaks_after, (std::vector<uint64_t>{0, 1, 1}));

  zend_async_ref_trace_break_at(0);
  zend_async_ref_trace_break_on("pool reserve");
  zend_async_ref_trace_as("#3", "pool reserve Pool#1 for #5");
  EXPECT_EQ(zend_async_ref_trace_breaks - breaks, 2u);
  zend_async_ref_trace_as("#3", "pool release Pool#1");
  EXPECT_EQ(zend_async_ref_trace_breaks - breaks, 2u);
  zend_async_ref_trace_as("#5", "pool reserve Pool#1 for #7");
  EXPECT_EQ(zend_async_ref_trace_breaks - breaks, 3u);
  zend_async_ref_trace_break_on(nullptr);
  zend_async_ref_trace_as("#5", "pool reserve Pool#1 for #9");
  EXPECT_EQ(zend_async_ref_trace_breaks - breaks, 3u);

  // A new sink numbers its lines from 1 again.
  zend_async_ref_trace_to_callback(Capture, &lines);
  zend_async_ref_trace_as("main", "first of the new sink");
  EXPECT_EQ(zend_async_ref_trace_line_number, 1u);
  zend_async_ref_trace_disable();
  EXPECT_EQ(lines.size(), 8u);
}

// ZEND_ASYNC_REF_TRACE_BREAK: digits are a line number, anything else a
// text; empty clears the break.
TEST(TraceConfigurationTest, EnvironmentSetsTheBreak) {
  Lines lines;
  const uint64_t breaks = zend_async_ref_trace_breaks;
  auto break_from_env = [](const char* value) {
    setenv("ZEND_ASYNC_REF_TRACE_BREAK", value, 1);
    zend_async_ref_trace_configure_from_env();
  };
  // The breaks counted after each line, in order.
  std::vector<uint64_t> counted;
  auto trace = [&](const char* line) {
    zend_async_ref_trace_as("main", "%s", line);
    counted.push_back(zend_async_ref_trace_breaks - breaks);
  };
  break_from_env("2");
  zend_async_ref_trace_to_callback(Capture, &lines);
  trace("one");
  trace("two");
  break_from_env("switch ->");
  trace("switch -> #3");
  trace("no match");
  break_from_env("");
  trace("switch -> #5");
  EXPECT_EQ(counted, (std::vector<uint64_t>{0, 1, 2, 2, 2}));
  unsetenv("ZEND_ASYNC_REF_TRACE_BREAK");
  zend_async_ref_trace_disable();
}

}  // namespace
}  // namespace zar::trace
