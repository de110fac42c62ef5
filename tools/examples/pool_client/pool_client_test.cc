// pool_client's tests: each runs one request of an engine started with the
// async extension (true_async) and pool_client, the way php would load
// them, and checks that the request ends without leaks
// (ZendAsyncRef::testing: zend_async_ref/testing/request.h).

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/extension.h"
#include "mock_zend/inspect.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request.h"

extern "C" {
#include "php_main.h"
#include "php_pool_client.h"
}

namespace {

class PoolClientTest : public ::testing::Test {
 protected:
  void SetUp() override { settings_ = pool_client_default_settings(); }

  // Runs `script` as the main script of one request of a fresh engine
  // with settings_ (a test may run several).
  void RunRequest(const std::function<void()>& script) {
    pool_client_configure(&settings_);
    if (zar::testing::StartEngine(
            {&zar_async_module_entry, &pool_client_module_entry}) == SUCCESS &&
        zar::testing::StartRequest() == SUCCESS) {
      EXPECT_TRUE(zar::testing::RunMain(script));
      EXPECT_EQ(zar::testing::RequestLeaks(zar::testing::EndRequest()), "");
    } else {
      ADD_FAILURE() << "the engine or the request did not start";
    }
    zar::testing::StopEngine();
  }

  pool_client_settings settings_;
};

// The answer of a successful query, or "Class: message" of its exception.
std::string Outcome(zend_result status, zval* result) {
  if (status == FAILURE) {
    std::string text = zar::testing::TakeExceptionText();
    return text.empty() ? "failed without an exception" : text;
  }
  std::string text = Z_TYPE_P(result) == IS_STRING
                         ? std::string(Z_STRVAL_P(result), Z_STRLEN_P(result))
                         : mock_zend::Describe(result);
  zval_ptr_dtor(result);
  return text;
}

// Expects the pool to have closed `count` connections so far, each for the
// reason `rejected` counts (stale, retired or unhealthy).
void ExpectClosedAs(uint32_t pool_client_stats::*rejected, uint32_t count) {
  const pool_client_stats stats = pool_client_get_stats();
  EXPECT_EQ(stats.*rejected, count);
  EXPECT_EQ(stats.closed, count);
}

std::string Query(const char* sql) {
  zval result;
  const zend_result status = pool_client_query(sql, &result);
  return Outcome(status, &result);
}

// Spawns one query coroutine per statement, then awaits them in order.
std::vector<std::string> QueryConcurrently(
    const std::vector<std::string>& statements) {
  std::vector<zend_coroutine_t*> coroutines;
  for (const std::string& sql : statements) {
    coroutines.push_back(pool_client_query_async(sql.c_str()));
  }
  std::vector<std::string> answers;
  for (zend_coroutine_t* coroutine : coroutines) {
    zval result;
    const zend_result status = pool_client_await(coroutine, &result);
    answers.push_back(Outcome(status, &result));
  }
  return answers;
}

TEST_F(PoolClientTest, QueryRunsOnAPooledConnection) {
  RunRequest([] {
    EXPECT_EQ(Query("SELECT 1"), "conn#1: SELECT 1");
    EXPECT_EQ(Query("SELECT 2"), "conn#1: SELECT 2");  // reused
    const pool_client_stats stats = pool_client_get_stats();
    EXPECT_EQ(stats.opened, 1u);
    EXPECT_EQ(stats.queries, 2u);
    EXPECT_EQ(stats.in_use, 0u);
  });
}

TEST_F(PoolClientTest, ConcurrentQueriesShareAtMostMaxConnections) {
  settings_.max_connections = 2;
  RunRequest([] {
    const std::vector<std::string> answers =
        QueryConcurrently({"q1", "q2", "q3", "q4", "q5"});
    // Two run at a time; each next one takes the connection given back
    // first, in arrival order.
    EXPECT_EQ(answers, (std::vector<std::string>{"conn#1: q1", "conn#2: q2",
                                                 "conn#1: q3", "conn#2: q4",
                                                 "conn#1: q5"}));
    const pool_client_stats stats = pool_client_get_stats();
    EXPECT_EQ(stats.opened, 2u);
    EXPECT_EQ(stats.peak_in_use, 2u);
    EXPECT_EQ(stats.queries, 5u);
  });
}

TEST_F(PoolClientTest, FailedQueryRetiresItsConnection) {
  RunRequest([] {
    EXPECT_EQ(Query("FAIL"), "RuntimeException: connection lost");
    EXPECT_EQ(Query("SELECT 1"), "conn#2: SELECT 1");
    ExpectClosedAs(&pool_client_stats::retired, 1);
  });
}

TEST_F(PoolClientTest, WornOutConnectionsAreRetiredOnRelease) {
  settings_.max_queries_per_connection = 2;
  RunRequest([] {
    EXPECT_EQ(Query("a"), "conn#1: a");
    EXPECT_EQ(Query("b"), "conn#1: b");
    EXPECT_EQ(Query("c"), "conn#2: c");
    EXPECT_EQ(pool_client_get_stats().retired, 1u);
  });
}

TEST_F(PoolClientTest, StaleConnectionsAreRejectedBeforeAcquire) {
  settings_.min_connections = 2;
  RunRequest([] {
    EXPECT_EQ(Query("SELECT 1"), "conn#1: SELECT 1");  // pre-warmed 1 and 2
    pool_client_restart_server();
    EXPECT_EQ(Query("SELECT 2"), "conn#3: SELECT 2");
    ExpectClosedAs(&pool_client_stats::stale, 2);
  });
}

TEST_F(PoolClientTest, HealthcheckReplacesStaleIdleConnections) {
  settings_.min_connections = 2;
  settings_.healthcheck_interval_ms = 2;
  RunRequest([] {
    EXPECT_EQ(Query("SELECT 1"), "conn#1: SELECT 1");  // pre-warmed 1 and 2
    pool_client_restart_server();
    zar::testing::Delay(
        30);  // several healthchecks: 1 and 2 are replaced by 3 and 4
    ExpectClosedAs(&pool_client_stats::unhealthy, 2);
    EXPECT_EQ(pool_client_get_stats().opened, 4u);
    EXPECT_EQ(Query("SELECT 2"), "conn#3: SELECT 2");
    EXPECT_EQ(pool_client_get_stats().stale, 0u);
  });
}

TEST_F(PoolClientTest, AcquireTimesOutWhileEveryConnectionIsBusy) {
  settings_.max_connections = 1;
  settings_.latency_ms = 200;
  settings_.acquire_timeout_ms = 10;
  RunRequest([] {
    zend_coroutine_t* slow = pool_client_query_async("slow");
    zend_coroutine_t* impatient = pool_client_query_async("x");
    // Awaited while it fails: its exception is handed to the awaiter. (One
    // nobody awaits would be unhandled and shut the request down.)
    zval result;
    EXPECT_EQ(Outcome(pool_client_await(impatient, &result), &result),
              "Async\\TimeoutException: Operation has been cancelled by "
              "timeout");
    EXPECT_EQ(Outcome(pool_client_await(slow, &result), &result),
              "conn#1: slow");
  });
}

TEST_F(PoolClientTest, CancelledQueryRetiresItsConnection) {
  RunRequest([] {
    zend_coroutine_t* query = pool_client_query_async("SELECT 1");
    // Let it start and suspend in its "work", then cancel it.
    ZEND_ASYNC_ENQUEUE_COROUTINE(ZEND_ASYNC_CURRENT_COROUTINE);
    ZEND_ASYNC_SUSPEND();
    ZEND_ASYNC_CANCEL(query, nullptr, false);
    zval result;
    EXPECT_EQ(Outcome(pool_client_await(query, &result), &result),
              "Async\\AsyncCancellation: Coroutine cancelled");
    EXPECT_EQ(pool_client_get_stats().retired, 1u);
  });
}

TEST_F(PoolClientTest, PhpFunctionCallsTheCApi) {
  RunRequest([] {
    zval function, argument, result;
    ZVAL_STRING(&function, "pool_client_query");
    ZVAL_STRING(&argument, "SELECT 42");
    ASSERT_EQ(
        call_user_function(nullptr, nullptr, &function, &result, 1, &argument),
        SUCCESS);
    EXPECT_EQ(Outcome(SUCCESS, &result), "conn#1: SELECT 42");
    zval_ptr_dtor(&function);
    zval_ptr_dtor(&argument);
  });
}

TEST_F(PoolClientTest, EachRequestHasItsOwnPool) {
  RunRequest([] { EXPECT_EQ(Query("first"), "conn#1: first"); });
  RunRequest([] {
    EXPECT_EQ(pool_client_pool(), nullptr);
    EXPECT_EQ(Query("second"), "conn#1: second");
  });
}

}  // namespace
