// An extension author's program against the installed package, with the
// async extension (ZendAsyncRef::core) and PDO (ZendAsyncRef::pdo_sim)
// loaded: a coroutine spawned and suspended through the ABI, a resource
// pool's acquire and release, and a query through PDO's connection pool
// on SQLite. Exit status 0 = pass.

#include <cstdio>
#include <string>

#include "core/extension.h"
#include "core/version.h"
#include "mock_zend/lifecycle.h"
#include "pdo_sim/client.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "ext/pdo/php_pdo.h"
}

namespace {

int failures = 0;

void Check(bool ok, const char* what) {
  if (ok) return;
  fprintf(stderr, "async_consumer: FAILED: %s\n", what);
  failures++;
}

bool resumed = false;

// The coroutine: suspends on a 1 ms timer, then records that it resumed.
void SleepThenRecord() {
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  ZEND_ASYNC_WAKER_NEW(self);
  zend_async_resume_when(self, &ZEND_ASYNC_NEW_TIMER_EVENT(1, false)->base,
                         true, zend_async_waker_callback_resolve, nullptr);
  ZEND_ASYNC_SUSPEND();
  zend_async_waker_clean(self);
  resumed = EG(exception) == nullptr;
}

zend_long made = 0;
bool Factory(zend_async_pool_t*, zval* result) {
  ZVAL_LONG(result, ++made);
  return true;
}

void Script() {
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN();
  Check(coroutine != nullptr, "spawn");
  if (coroutine != nullptr) coroutine->internal_entry = SleepThenRecord;

  zend_async_pool_t* pool =
      ZEND_ASYNC_NEW_POOL(Factory, nullptr, nullptr, nullptr, nullptr, 0, 2, 0);
  zval resource;
  Check(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0) &&
            Z_TYPE(resource) == IS_LONG && Z_LVAL(resource) == 1,
        "pool acquire");
  ZEND_ASYNC_POOL_RELEASE(pool, &resource);
  Check(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &resource) && Z_LVAL(resource) == 1,
        "pool reuses the released resource");
  ZEND_ASYNC_POOL_RELEASE(pool, &resource);
  ZEND_ASYNC_POOL_CLOSE(pool);
  ZEND_ASYNC_EVENT_RELEASE(&pool->event);

  pdo_sim::Pdo pdo =
      pdo_sim::Pdo::Open("sqlite:file:consumer?mode=memory&cache=shared",
                         {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION}},
                          {PDO_ATTR_POOL_ENABLED, true},
                          {PDO_ATTR_POOL_MAX, 2}});
  Check(pdo.ok(), "PDO pool on SQLite opens");
  if (pdo.ok()) {
    pdo_sim::Statement statement = pdo.Query("SELECT 40 + 2");
    pdo_sim::Zval row = statement.Fetch(PDO_FETCH_NUM);
    const zval* answer = row.at(0);
    Check(answer != nullptr && Z_TYPE_P(answer) == IS_LONG &&
              Z_LVAL_P(answer) == 42,
          "SQLite query through the pool");
  }
  zend_clear_exception();
}

}  // namespace

int main() {
  php_mock_request_report report{};
  {
    mock_zend::Engine engine({&zar_async_module_entry, &pdo_module_entry});
    Check(engine.started(), "module startup");
    mock_zend::Request request;
    Check(request.RunMain(Script), "main script");
    request.Finish();
    report = php_mock_last_request_report();
  }
  Check(resumed, "the coroutine resumed after its timer");
  Check(report.leaked_blocks == 0 && report.objects_alive_at_shutdown == 0,
        "no leaks");
  if (failures == 0) {
    printf("async_consumer: OK (true_async %s)\n", zar::core::kVersion);
  }
  return failures == 0 ? 0 : 1;
}
