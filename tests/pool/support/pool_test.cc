#include "tests/pool/support/pool_test.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "mock_zend/class_builder.h"
#include "mock_zend/inspect.h"

namespace zar::pool_testing {
namespace {

// The resources lent per pool (keyed by its Async\Pool object or its
// zend_async_pool_t), as the lending helpers saw them; emptied by each
// test's SetUp.
std::unordered_map<const void*, int64_t>& Lending() {
  static auto* lending = new std::unordered_map<const void*, int64_t>();
  return *lending;
}

}  // namespace

void PoolTest::SetUp() {
  Lending().clear();
  RequestFixture::SetUp();
}

void PoolTest::TearDown() {
  pool.Reset();
  RequestFixture::TearDown();
}

void PoolTest::RunWithPool(zend_long max, const std::function<void()>& main) {
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made), .max = max});
    main();
  }));
}

Zval PoolTest::NewCheckedPool(mock_zend::NativeBody healthcheck, zend_long min,
                              zend_long max, zend_long interval_ms,
                              Log* destroyed_log) {
  return NewPhpPool(
      {.factory = CountingFactory(&made),
       .destructor = CountingDestructor(&destroyed, destroyed_log),
       .healthcheck = std::move(healthcheck),
       .min = min,
       .max = max,
       .healthcheck_interval = interval_ms});
}

// ---- Async\Pool -------------------------------------------------------------

Zval ConstructPool(const std::vector<zval*>& args) {
  Zval object = mock_zend::New("Async\\Pool", args);
  // A new pool, where an old one may have been.
  if (!object.undef()) Lending().erase(object.obj());
  return object;
}

Zval NewPhpPool(const PoolSpec& spec) {
  Zval args[8];
  size_t argc = 1;
  const mock_zend::NativeBody* callables[5] = {
      &spec.factory, &spec.destructor, &spec.healthcheck, &spec.before_acquire,
      &spec.before_release};
  for (size_t i = 0; i < 5; i++) {
    if (*callables[i]) {
      mock_zend::MakeCallable(args[i].get(), *callables[i]);
      argc = i + 1;
    } else {
      ZVAL_NULL(args[i].get());
    }
  }
  const std::optional<zend_long> ints[3] = {spec.min, spec.max,
                                            spec.healthcheck_interval};
  const zend_long defaults[3] = {0, 10, 0};
  for (size_t i = 0; i < 3; i++) {
    ZVAL_LONG(args[5 + i].get(), ints[i].value_or(defaults[i]));
    if (ints[i].has_value()) argc = 5 + i + 1;
  }
  std::vector<zval*> pointers;
  for (size_t i = 0; i < argc; i++) pointers.push_back(args[i].get());
  return ConstructPool(pointers);
}

Zval NewUnconstructedPool() {
  Zval pool;
  zend_class_entry* ce = LookupClass("Async\\Pool");
  EXPECT_NE(ce, nullptr);
  if (ce != nullptr) object_init_ex(pool.get(), ce);
  return pool;
}

Zval NewStrategy(const std::string& name, mock_zend::NativeBody report_success,
                 mock_zend::NativeBody report_failure,
                 mock_zend::NativeBody should_recover) {
  static int classes = 0;
  zend_class_entry* ce =
      mock_zend::ClassBuilder(name + std::to_string(++classes))
          .Implements(LookupClass("Async\\CircuitBreakerStrategy"))
          .Method("reportSuccess", std::move(report_success))
          .Method("reportFailure", std::move(report_failure))
          .Method("shouldRecover", std::move(should_recover))
          .Build();
  Zval object;
  object_init_ex(object.get(), ce);
  return object;
}

Cycle NewCycle(mock_zend::NativeBody body) {
  Cycle cycle;
  object_init(cycle.holder.get());
  mock_zend::MakeCallable(cycle.closure.get(), std::move(body),
                          {cycle.holder.get()});
  return cycle;
}

void LeaveCycle(Cycle& cycle, Zval& pool) {
  zend_update_property(nullptr, cycle.holder.obj(), ZEND_STRL("pool"),
                       pool.get());
  cycle.holder.Reset();
  cycle.closure.Reset();
  pool.Reset();
}

void SpawnHolder(Zval& pool, int yields, bool* released) {
  Spawn([&pool, yields, released] {
    Zval resource = Acquire(pool);
    YieldTimes(yields);
    Release(pool, resource);
    if (released != nullptr) *released = true;
  });
}

void SpawnHolders(Zval& pool, int holders, const bool& release_now) {
  for (int i = 0; i < holders; i++) {
    Spawn([&pool, &release_now] {
      Zval resource = Acquire(pool);
      while (!release_now) Yield();
      Release(pool, resource);
    });
  }
}

namespace {

// Counts a resource `pool` lent (a non-null result).
Zval Lend(Zval& pool, Zval resource) {
  if (resource.type() != IS_UNDEF && !resource.is_null()) {
    Lending()[pool.obj()]++;
  }
  return resource;
}

}  // namespace

Zval Acquire(Zval& pool) {
  return Lend(pool, CallMethod(pool.get(), "acquire"));
}

Zval Acquire(Zval& pool, zend_long timeout_ms) {
  Zval timeout = Zval::Long(timeout_ms);
  return Lend(pool, CallMethod(pool.get(), "acquire", {timeout.get()}));
}

Zval TryAcquire(Zval& pool) {
  return Lend(pool, CallMethod(pool.get(), "tryAcquire"));
}

void Release(Zval& pool, zval* resource) {
  Lending()[pool.obj()]--;
  CallMethod(pool.get(), "release", {resource});
}

void Close(Zval& pool) { CallMethod(pool.get(), "close"); }

bool IsClosed(Zval& pool) {
  return Z_TYPE_P(CallMethod(pool.get(), "isClosed").get()) == IS_TRUE;
}

zend_long Count(Zval& pool) { return CallMethod(pool.get(), "count").lval(); }
zend_long IdleCount(Zval& pool) {
  return CallMethod(pool.get(), "idleCount").lval();
}
zend_long ActiveCount(Zval& pool) {
  return CallMethod(pool.get(), "activeCount").lval();
}

std::string State(Zval& pool) {
  Zval state = CallMethod(pool.get(), "getState");
  if (state.type() != IS_OBJECT) return "?";
  zval* name = zend_enum_fetch_case_name(state.obj());
  return name != nullptr && Z_TYPE_P(name) == IS_STRING
             ? std::string(Z_STRVAL_P(name), Z_STRLEN_P(name))
             : "?";
}

void SetStrategy(Zval& pool, zval* strategy) {
  CallMethod(pool.get(), "setCircuitBreakerStrategy", {strategy});
}

mock_zend::NativeBody CountingFactory(int* made, Log* log) {
  return [made, log](mock_zend::Call& call) {
    ++*made;
    if (log != nullptr)
      log->push_back("factory(" + std::to_string(*made) + ")");
    ZVAL_LONG(call.result(), *made);
  };
}

mock_zend::NativeBody CountingDestructor(int* destroyed, Log* log) {
  return [destroyed, log](mock_zend::Call& call) {
    ++*destroyed;
    if (log != nullptr) log->push_back("destroy(" + Render(call.arg(0)) + ")");
  };
}

mock_zend::NativeBody ThrowingDestructor(Log* log, const std::string& message,
                                         bool naming_the_resource) {
  return [log, message, naming_the_resource](mock_zend::Call& call) {
    const std::string resource = Render(call.arg(0));
    log->push_back("destroy(" + resource + ")");
    ThrowRuntime(naming_the_resource ? message + " " + resource : message);
  };
}

// ---- A pool through the ABI
// ----------------------------------------------------

bool Acquire(zend_async_pool_t* pool, zval* resource, zend_long timeout_ms) {
  const bool got = ZEND_ASYNC_POOL_ACQUIRE(pool, resource, timeout_ms);
  if (got) Lending()[pool]++;
  return got;
}

bool TryAcquire(zend_async_pool_t* pool, zval* resource) {
  const bool got = ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, resource);
  if (got) Lending()[pool]++;
  return got;
}

void Release(zend_async_pool_t* pool, zval* resource) {
  Lending()[pool]--;
  ZEND_ASYNC_POOL_RELEASE(pool, resource);
}

PoolStats StatsOf(zend_async_event_t* pool_event) {
  PoolStats stats;
  zend_string* info = pool_event->info(pool_event);
  unsigned long long idle = 0, active = 0, reserved = 0, max = 0;
  const int parsed = std::sscanf(ZSTR_VAL(info),
                                 "Pool(idle=%llu, active=%llu, reserved=%llu, "
                                 "max=%llu)",
                                 &idle, &active, &reserved, &max);
  EXPECT_EQ(parsed, 4) << ZSTR_VAL(info);
  zend_string_release(info);
  stats.idle = idle;
  stats.active = active;
  stats.reserved = reserved;
  stats.max = max;
  return stats;
}

// ---- The test's tally
// -----------------------------------------------------------

int64_t Lent(Zval& pool) { return Lending()[pool.obj()]; }
int64_t Lent(zend_async_pool_t* pool) { return Lending()[pool]; }

void CheckPoolTally(Zval& pool, int64_t alive, int64_t busy) {
  // The pool's counts are read with nothing in flight; what was stays.
  zend_object* parked = EG(exception);
  EG(exception) = nullptr;
  const int64_t active = Lent(pool) + busy;
  EXPECT_EQ(Count(pool), alive) << "count(): the resources alive";
  EXPECT_EQ(ActiveCount(pool), active)
      << "activeCount(): the resources lent or busy";
  EXPECT_EQ(IdleCount(pool), alive - active)
      << "idleCount(): the resources alive, neither lent nor busy";
  EG(exception) = parked;
}

void CheckPoolTally(zend_async_pool_t* pool, int64_t alive, int64_t busy) {
  const PoolStats stats = StatsOf(&pool->event);
  const int64_t active = Lent(pool) + busy;
  EXPECT_EQ(static_cast<int64_t>(stats.idle + stats.active), alive)
      << "idle + active: the resources alive";
  EXPECT_EQ(static_cast<int64_t>(stats.active), active)
      << "active: the resources lent or busy";
  EXPECT_LE(stats.active + stats.reserved, stats.max)
      << "active=" << stats.active << " reserved=" << stats.reserved;
}

}  // namespace zar::pool_testing
