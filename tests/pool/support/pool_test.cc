#include "tests/pool/support/pool_test.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "mock_zend/inspect.h"

extern "C" {
#include "ext/spl/spl_exceptions.h"
}

namespace zar::pool_testing {
namespace {

// Fails the test with whatever exception `where` left in flight.
void FailOnUncaught(const char* where) {
  if (EG(exception) != nullptr) {
    ADD_FAILURE() << where << " left an exception: " << TakeExceptionText();
  }
}

// A zend_fcall_t running `callable` (borrowed).
zend_fcall_t* FcallOf(zval* callable) {
  zend_fcall_info fci;
  zend_fcall_info_cache fcc;
  if (zend_fcall_info_init(callable, 0, &fci, &fcc, nullptr, nullptr) !=
      SUCCESS) {
    return nullptr;
  }
  zval* no_args = nullptr;
  uint32_t no_arg_count = 0;
  HashTable* no_named_args = nullptr;
  ZEND_ASYNC_FCALL_DEFINE(fcall, fci, fcc, no_args, no_arg_count,
                          no_named_args);
  return fcall;
}

}  // namespace

// ---- Values ---------------------------------------------------------------

Zv Zv::Long(zend_long n) {
  Zv v;
  ZVAL_LONG(v.get(), n);
  return v;
}

Zv Zv::Null() {
  Zv v;
  ZVAL_NULL(v.get());
  return v;
}

Zv Zv::Copy(const zval* value) {
  Zv v;
  ZVAL_COPY(v.get(), value);
  return v;
}

Zv Zv::Adopt(zval* value) {
  Zv v;
  ZVAL_COPY_VALUE(v.get(), value);
  ZVAL_UNDEF(value);
  return v;
}

std::string Str(const zval* value) {
  switch (Z_TYPE_P(value)) {
    case IS_UNDEF:
      return "undef";
    case IS_NULL:
      return "null";
    case IS_FALSE:
      return "false";
    case IS_TRUE:
      return "true";
    case IS_LONG:
      return std::to_string(Z_LVAL_P(value));
    case IS_STRING:
      return "'" + std::string(Z_STRVAL_P(value), Z_STRLEN_P(value)) + "'";
    case IS_PTR: {
      char buffer[32];
      std::snprintf(buffer, sizeof(buffer), "ptr(%p)", Z_PTR_P(value));
      return buffer;
    }
    default:
      return mock_zend::Describe(value);
  }
}

// ---- Exceptions -----------------------------------------------------------

std::string TakeExceptionText() {
  zend_object* exception = mock_zend::TakeException();
  if (exception == nullptr) return "";
  std::string text = mock_zend::ClassName(exception) + ": " +
                     mock_zend::ExceptionMessage(exception);
  OBJ_RELEASE(exception);
  return text;
}

std::string TakeExceptionClass() {
  zend_object* exception = mock_zend::TakeException();
  if (exception == nullptr) return "";
  std::string name = mock_zend::ClassName(exception);
  OBJ_RELEASE(exception);
  return name;
}

std::string Joined(const Log& log) {
  std::string out;
  for (const std::string& entry : log) {
    if (!out.empty()) out += ' ';
    out += entry;
  }
  return out;
}

// ---- Coroutines -------------------------------------------------------------

zend_coroutine_t* Spawn(std::function<void()> body) {
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN();
  if (coroutine == nullptr) {
    ADD_FAILURE() << "spawn failed: " << TakeExceptionText();
    return nullptr;
  }
  zval callable;
  mock_zend::MakeCallable(&callable,
                          [body = std::move(body)](mock_zend::Call&) {
                            body();
                            FailOnUncaught("a coroutine");
                          });
  coroutine->fcall = FcallOf(&callable);
  zval_ptr_dtor(&callable);
  return coroutine;
}

CoroutineRef::CoroutineRef(zend_coroutine_t* coroutine)
    : coroutine_(coroutine) {
  if (coroutine_ != nullptr) ZEND_ASYNC_EVENT_ADD_REF(&coroutine_->event);
}

CoroutineRef::~CoroutineRef() {
  if (coroutine_ != nullptr) ZEND_ASYNC_EVENT_RELEASE(&coroutine_->event);
}

bool CoroutineRef::finished() const {
  return ZEND_COROUTINE_IS_FINISHED(coroutine_);
}

void Yield() {
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  if (self == nullptr) {
    ZEND_ASYNC_SCHEDULER_LAUNCH();
    self = ZEND_ASYNC_CURRENT_COROUTINE;
  }
  ZEND_ASYNC_WAKER_NEW(self);
  ZEND_ASYNC_ENQUEUE_COROUTINE(self);
  ZEND_ASYNC_SUSPEND();
  if (self->waker != nullptr) zend_async_waker_clean(self);
}

void YieldTimes(int times) {
  for (int i = 0; i < times; i++) Yield();
}

bool YieldUntil(const std::function<bool()>& done, int max_yields) {
  for (int i = 0; i < max_yields && !done(); i++) Yield();
  return done();
}

void Delay(uint32_t ms) {
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  if (self == nullptr) {
    ZEND_ASYNC_SCHEDULER_LAUNCH();
    self = ZEND_ASYNC_CURRENT_COROUTINE;
  }
  ZEND_ASYNC_WAKER_NEW(self);
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, false);
  ASSERT_NE(timer, nullptr);
  zend_async_resume_when(self, &timer->base, true,
                         zend_async_waker_callback_resolve, nullptr);
  ZEND_ASYNC_SUSPEND();
  if (self->waker != nullptr) zend_async_waker_clean(self);
}

void Await(zend_coroutine_t* coroutine) {
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  if (ZEND_COROUTINE_IS_FINISHED(coroutine)) return;
  ZEND_ASYNC_WAKER_NEW(self);
  zend_async_resume_when(self, &coroutine->event, false,
                         zend_async_waker_callback_resolve, nullptr);
  ZEND_ASYNC_SUSPEND();
  if (self->waker != nullptr) zend_async_waker_clean(self);
  // The awaited coroutine's exception is its own business here.
  zend_object* exception = mock_zend::TakeException();
  if (exception != nullptr) OBJ_RELEASE(exception);
}

void Cancel(zend_coroutine_t* coroutine) {
  ZEND_ASYNC_CANCEL(coroutine, nullptr, false);
}

// ---- Async\Pool -------------------------------------------------------------

Zv ConstructPool(const std::vector<zval*>& args) {
  zend_string* name = zend_string_init(ZEND_STRL("Async\\Pool"), false);
  zend_class_entry* ce = zend_lookup_class(name);
  zend_string_release(name);
  if (ce == nullptr) {
    ADD_FAILURE() << "Async\\Pool is not registered";
    return Zv();
  }
  std::vector<zval> params(args.size());
  for (size_t i = 0; i < args.size(); i++) ZVAL_COPY(&params[i], args[i]);

  Zv object;
  object_init_ex(object.get(), ce);
  zval retval;
  ZVAL_UNDEF(&retval);
  zend_call_known_instance_method(ce->constructor, object.obj(), &retval,
                                  static_cast<uint32_t>(params.size()),
                                  params.data());
  zval_ptr_dtor(&retval);
  for (zval& param : params) zval_ptr_dtor(&param);
  if (EG(exception) != nullptr) {
    // The object is destroyed now, as PHP does after `new` threw.
    zend_object* pending = EG(exception);
    EG(exception) = nullptr;
    object.Reset();
    if (EG(exception) != nullptr) {
      zend_exception_set_previous(pending, EG(exception));
    }
    EG(exception) = pending;
    return Zv();
  }
  return object;
}

Zv NewPhpPool(const PoolSpec& spec) {
  Zv args[8];
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

Zv NewObject(zend_long id) {
  Zv object;
  object_init(object.get());
  zend_update_property_long(nullptr, object.obj(), ZEND_STRL("id"), id);
  return object;
}

zend_long IdOf(const zval* object) {
  if (Z_TYPE_P(object) != IS_OBJECT) return -1;
  zval rv;
  zval* id =
      zend_read_property(nullptr, Z_OBJ_P(object), ZEND_STRL("id"), true, &rv);
  return id != nullptr && Z_TYPE_P(id) == IS_LONG ? Z_LVAL_P(id) : -1;
}

void ThrowRuntime(const std::string& message) {
  zend_throw_exception(spl_ce_RuntimeException, message.c_str(), 0);
}

Zv CallMethod(zval* object, const char* method,
              std::initializer_list<zval*> args) {
  zval retval;
  ZVAL_UNDEF(&retval);
  zval* first = args.size() > 0 ? args.begin()[0] : nullptr;
  zval* second = args.size() > 1 ? args.begin()[1] : nullptr;
  zend_call_method(Z_OBJ_P(object), nullptr, nullptr, method, strlen(method),
                   &retval, static_cast<uint32_t>(args.size()), first, second);
  if (EG(exception) != nullptr) {
    zval_ptr_dtor(&retval);
    return Zv();
  }
  return Zv::Adopt(&retval);
}

Zv Acquire(Zv& pool) { return CallMethod(pool.get(), "acquire"); }

Zv Acquire(Zv& pool, zend_long timeout_ms) {
  Zv timeout = Zv::Long(timeout_ms);
  return CallMethod(pool.get(), "acquire", {timeout.get()});
}

Zv TryAcquire(Zv& pool) { return CallMethod(pool.get(), "tryAcquire"); }

void Release(Zv& pool, zval* resource) {
  CallMethod(pool.get(), "release", {resource});
}

void Close(Zv& pool) { CallMethod(pool.get(), "close"); }

bool IsClosed(Zv& pool) {
  return Z_TYPE_P(CallMethod(pool.get(), "isClosed").get()) == IS_TRUE;
}

zend_long Count(Zv& pool) { return CallMethod(pool.get(), "count").lval(); }
zend_long IdleCount(Zv& pool) {
  return CallMethod(pool.get(), "idleCount").lval();
}
zend_long ActiveCount(Zv& pool) {
  return CallMethod(pool.get(), "activeCount").lval();
}

std::string State(Zv& pool) {
  Zv state = CallMethod(pool.get(), "getState");
  if (state.type() != IS_OBJECT) return "?";
  zval* name = zend_enum_fetch_case_name(state.obj());
  return name != nullptr && Z_TYPE_P(name) == IS_STRING
             ? std::string(Z_STRVAL_P(name), Z_STRLEN_P(name))
             : "?";
}

void SetStrategy(Zv& pool, zval* strategy) {
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
    if (log != nullptr) log->push_back("destroy(" + Str(call.arg(0)) + ")");
  };
}

// ---- Invariants -------------------------------------------------------------

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

namespace {

void CheckStats(const PoolStats& stats, int64_t live) {
  EXPECT_LE(stats.active + stats.reserved, stats.max)
      << "active=" << stats.active << " reserved=" << stats.reserved;
  if (live >= 0) {
    EXPECT_EQ(static_cast<int64_t>(stats.idle + stats.active), live)
        << "resources alive (made - destroyed) differ from the pool's count";
  }
}

}  // namespace

void CheckPoolInvariants(Zv& pool, int64_t live) {
  zend_object* parked = EG(exception);
  EG(exception) = nullptr;
  const zend_long count = Count(pool);
  const zend_long idle = IdleCount(pool);
  const zend_long active = ActiveCount(pool);
  EXPECT_EQ(count, idle + active);
  if (live >= 0) {
    EXPECT_EQ(static_cast<int64_t>(count), live)
        << "resources alive (made - destroyed) differ from the pool's count";
  }
  EG(exception) = parked;
}

void CheckPoolInvariants(zend_async_pool_t* pool, int64_t live) {
  CheckStats(StatsOf(&pool->event), live);
}

}  // namespace zar::pool_testing
