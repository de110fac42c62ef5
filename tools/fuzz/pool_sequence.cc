// fuzz_pool_sequence: Async\Pool driven by a sequence of operations, one
// request per input, with coroutines as the actors (core/pool/, through
// the class's methods and the ABI only).
//
// Input: a configuration byte, then one or two bytes per operation (at
// most kMaxSteps operations).
//
//   config bits 0-1  min (0..3); bits 2-3: max - min - 1 (max - min 1..4)
//          bit 4     a healthcheck hook, ticking every 1 ms
//          bit 5     the beforeAcquire and beforeRelease hooks
//          bit 6     strict mode (then foreign and double releases are tried)
//          bit 7     a destructor hook (else the pool drops resources itself
//                    and the checks that count destroyed resources are off)
//
//   operation byte % 16, some with an argument byte:
//     0  an actor acquires (no timeout)    8  the director waits 1..3 ms
//     1  an actor acquires (1..3 ms)       9  factory: ok/throws/suspends/
//     2  the director tries tryAcquire        suspends then throws
//     3  the director releases one held   10  healthcheck: healthy/unhealthy/
//     4  an actor releases one held           throws/suspends
//     5  close()                          11  beforeAcquire x beforeRelease:
//     6  cancel a waiting actor               accept/reject/throw/suspend each
//     7  the director yields              12  the destructor throws or not
//                                         13  activate/deactivate/recover
//                                         14  (strict) release a foreign
//                                             value or one given back
//                                         15  an actor acquires and releases
//
// The director is the request's main flow; actors are coroutines it spawns.
// After every operation: count() == idleCount() + activeCount() <= max;
// every live resource (made by the factory, not yet destroyed) is the
// pool's (count() == live + factories running); nothing handed out is
// handed out again before it comes back; the destructor only gets live
// resources. At the end (everything released, the pool closed, every actor
// finished within a bound: no waiter left hanging): every resource made
// was destroyed, and the request leaked nothing. A violation aborts with
// its description.

#include <cinttypes>
#include <set>
#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/methods.h"
#include "mock_zend/zval.h"
#include "tests/pool/support/resources.h"
#include "tools/fuzz/fuzz_support.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
#include "zend_async_ref/strict.h"
}

namespace {

constexpr const char* kTarget = "fuzz_pool_sequence";
constexpr int kMaxSteps = 48;
// How long the end waits for the actors, in 1 ms delays.
constexpr int kMaxDrainDelays = 500;

using mock_zend::Zval;
using zar::pool_testing::IdOf;
using zar::pool_testing::NewObject;
using zar::pool_testing::ThrowRuntime;
using zar::testing::CoroutineRef;

enum class FactoryMode { kOk, kThrows, kSuspends, kSuspendsThenThrows };
// What a healthcheck or a before-acquire/before-release hook answers: true
// (healthy, accept), false (unhealthy, reject), an exception, or true after
// suspending (false when the suspension ended with an exception).
enum class Verdict { kTrue, kFalse, kThrows, kSuspends };

struct Held {
  Zval resource;
  zend_long id;
};

// Everything the sequence and the pool's closures share. Outlives the
// request; its zvals are given up before the request ends.
struct World {
  bool strict = false;
  bool counts_destroyed = false;  // a destructor hook is installed
  zend_long max = 0;
  Zval pool;
  FactoryMode factory_mode = FactoryMode::kOk;
  Verdict health_mode = Verdict::kTrue;
  Verdict before_acquire_mode = Verdict::kTrue;
  Verdict before_release_mode = Verdict::kTrue;
  bool destructor_throws = false;

  zend_long next_id = 0;
  int factories_running = 0;
  uint64_t made = 0;
  uint64_t destroyed = 0;
  std::set<zend_long> live;      // made, not destroyed
  std::set<zend_long> out;       // handed out, not given back
  std::vector<Held> held;        // handed out, waiting for a release
  std::vector<Held> given_back;  // strict mode's double-release material
  std::vector<CoroutineRef> actors;
};

std::string Describe(const World& w) {
  return zar::fuzz::Format("(made %" PRIu64 ", destroyed %" PRIu64
                           ", live %zu, out %zu, factories running %d)",
                           w.made, w.destroyed, w.live.size(), w.out.size(),
                           w.factories_running);
}

// $object->method(...args): the result, or UNDEF with the exception left
// in flight.
Zval Call(zval* object, const char* method, zval* arg = nullptr) {
  if (arg == nullptr) return mock_zend::CallMethod(object, method);
  return mock_zend::CallMethod(object, method, {arg});
}

zend_long CallLong(World& w, const char* method) {
  Zval value = Call(w.pool.get(), method);
  ZAR_FUZZ_CHECK(value.type() == IS_LONG, "%s() did not return an int: %s",
                 method, zar::testing::TakeExceptionText().c_str());
  return value.lval();
}

// ---- The pool's closures ----------------------------------------------------

mock_zend::NativeBody Factory(World* w) {
  return [w](mock_zend::Call& call) {
    const FactoryMode mode = w->factory_mode;
    w->factories_running++;
    // Called from a healthcheck tick (the scheduler context) the
    // suspension is refused and the tick contains it, as it contains an
    // exception (seeds healthcheck-replacement-suspends and
    // healthcheck-replacement-throws).
    if (mode == FactoryMode::kSuspends ||
        mode == FactoryMode::kSuspendsThenThrows) {
      zar::testing::Delay(1);
    }
    w->factories_running--;
    if (EG(exception) != nullptr) return;  // the suspension failed
    if (mode == FactoryMode::kThrows ||
        mode == FactoryMode::kSuspendsThenThrows) {
      ThrowRuntime("factory failed");
      return;
    }
    const zend_long id = ++w->next_id;
    Zval resource = NewObject(id);
    ZVAL_COPY(call.result(), resource.get());
    w->live.insert(id);
    w->made++;
  };
}

mock_zend::NativeBody Destructor(World* w) {
  return [w](mock_zend::Call& call) {
    const zend_long id = IdOf(call.arg(0));
    ZAR_FUZZ_CHECK(w->live.count(id) == 1,
                   "the destructor got resource %ld, which is not live %s",
                   static_cast<long>(id), Describe(*w).c_str());
    ZAR_FUZZ_CHECK(w->out.count(id) == 0,
                   "the destructor got resource %ld while it is handed out %s",
                   static_cast<long>(id), Describe(*w).c_str());
    w->live.erase(id);
    w->destroyed++;
    if (w->destructor_throws) {
      ThrowRuntime("destructor failed");
    }
  };
}

// The healthcheck and the hooks: each answers what its mode says now (the
// mode is read at each call), `failure` being its exception's message.
mock_zend::NativeBody Answer(const Verdict* mode, const char* failure) {
  return [mode, failure](mock_zend::Call& call) {
    switch (*mode) {
      case Verdict::kTrue:
        ZVAL_TRUE(call.result());
        break;
      case Verdict::kFalse:
        ZVAL_FALSE(call.result());
        break;
      case Verdict::kThrows:
        ThrowRuntime(failure);
        break;
      case Verdict::kSuspends:
        zar::testing::Delay(1);
        ZVAL_BOOL(call.result(), EG(exception) == nullptr);
        break;
    }
  };
}

// new Async\Pool(factory, destructor, healthcheck, beforeAcquire,
// beforeRelease, min, max, healthcheckInterval).
Zval NewPool(World& w, uint8_t config, zend_long min) {
  zend_string* name = zend_string_init(ZEND_STRL("Async\\Pool"), false);
  zend_class_entry* ce = zend_lookup_class(name);
  zend_string_release(name);
  ZAR_FUZZ_CHECK(ce != nullptr, "Async\\Pool is not registered");
  zval args[8];
  mock_zend::MakeCallable(&args[0], Factory(&w));
  ZVAL_NULL(&args[1]);
  ZVAL_NULL(&args[2]);
  ZVAL_NULL(&args[3]);
  ZVAL_NULL(&args[4]);
  if (config & 0x80) mock_zend::MakeCallable(&args[1], Destructor(&w));
  if (config & 0x10)
    mock_zend::MakeCallable(&args[2],
                            Answer(&w.health_mode, "healthcheck failed"));
  if (config & 0x20) {
    mock_zend::MakeCallable(&args[3],
                            Answer(&w.before_acquire_mode, "hook failed"));
    mock_zend::MakeCallable(&args[4],
                            Answer(&w.before_release_mode, "hook failed"));
  }
  ZVAL_LONG(&args[5], min);
  ZVAL_LONG(&args[6], w.max);
  ZVAL_LONG(&args[7], (config & 0x10) ? 1 : 0);
  Zval object = mock_zend::New(ce, {&args[0], &args[1], &args[2], &args[3],
                                    &args[4], &args[5], &args[6], &args[7]});
  for (zval& arg : args) zval_ptr_dtor(&arg);
  return object;
}

// ---- Taking and giving back -----------------------------------------------

// A resource acquire() or tryAcquire() returned: it must be live and not
// handed out already.
void Received(World& w, Zval resource, const char* how) {
  if (resource.undef() || resource.is_null()) return;
  const zend_long id = IdOf(resource.get());
  ZAR_FUZZ_CHECK(w.live.count(id) == 1,
                 "%s returned resource %ld, which is not live %s", how,
                 static_cast<long>(id), Describe(w).c_str());
  ZAR_FUZZ_CHECK(w.out.insert(id).second, "%s handed out resource %ld twice %s",
                 how, static_cast<long>(id), Describe(w).c_str());
  w.held.push_back({std::move(resource), id});
}

// Releases held[index] (from the current coroutine).
void ReleaseHeld(World& w, size_t index) {
  Held held = std::move(w.held[index]);
  w.held.erase(w.held.begin() + static_cast<ptrdiff_t>(index));
  w.out.erase(held.id);
  Call(w.pool.get(), "release", held.resource.get());
  zar::testing::DropException();
  if (w.strict && w.given_back.size() < 4)
    w.given_back.push_back(std::move(held));
}

void SpawnActor(World& w, std::function<void()> body) {
  zend_coroutine_t* actor = zar::testing::Spawn([body = std::move(body)] {
    body();
    zar::testing::DropException();
  });
  if (actor == nullptr) {
    zar::fuzz::Fail(kTarget, "spawning an actor failed: " +
                                 zar::testing::TakeExceptionText());
  }
  w.actors.emplace_back(actor);
}

void Acquire(World& w, zend_long timeout_ms) {
  Zval timeout = Zval::Long(timeout_ms);
  Received(w, Call(w.pool.get(), "acquire", timeout.get()), "acquire()");
  zar::testing::DropException();
}

// ---- Checks
// -------------------------------------------------------------------

void CheckInvariants(World& w, const char* after) {
  zend_object* parked = EG(exception);
  EG(exception) = nullptr;
  const zend_long count = CallLong(w, "count");
  const zend_long idle = CallLong(w, "idleCount");
  const zend_long active = CallLong(w, "activeCount");
  ZAR_FUZZ_CHECK(count == idle + active,
                 "after %s: count %ld != idle %ld + active %ld", after,
                 static_cast<long>(count), static_cast<long>(idle),
                 static_cast<long>(active));
  ZAR_FUZZ_CHECK(count <= w.max, "after %s: count %ld > max %ld", after,
                 static_cast<long>(count), static_cast<long>(w.max));
  ZAR_FUZZ_CHECK(
      !w.counts_destroyed ||
          static_cast<size_t>(count) ==
              w.live.size() + static_cast<size_t>(w.factories_running),
      "after %s: count %ld != live resources + factories running %s", after,
      static_cast<long>(count), Describe(w).c_str());
  ZAR_FUZZ_CHECK(w.out.size() <= static_cast<size_t>(active),
                 "after %s: %zu resources handed out, active %ld", after,
                 w.out.size(), static_cast<long>(active));
  EG(exception) = parked;
}

bool AllActorsFinished(const World& w) {
  for (const CoroutineRef& actor : w.actors) {
    if (!actor.finished()) return false;
  }
  return true;
}

const char* const kOperationNames[16] = {"acquire",
                                         "acquire with a timeout",
                                         "tryAcquire",
                                         "release",
                                         "release from an actor",
                                         "close",
                                         "cancel",
                                         "yield",
                                         "delay",
                                         "factory mode",
                                         "healthcheck mode",
                                         "hook modes",
                                         "destructor mode",
                                         "breaker change",
                                         "foreign release",
                                         "acquire and release"};

void Step(World& w, uint8_t op, zar::fuzz::Input& in) {
  switch (op) {
    case 0:
      SpawnActor(w, [&w] { Acquire(w, 0); });
      break;
    case 1: {
      const zend_long timeout = 1 + in.Below(3);
      SpawnActor(w, [&w, timeout] { Acquire(w, timeout); });
      break;
    }
    case 2:
      Received(w, Call(w.pool.get(), "tryAcquire"), "tryAcquire()");
      zar::testing::DropException();
      break;
    case 3: {
      const uint8_t pick = in.Byte();
      if (!w.held.empty()) ReleaseHeld(w, pick % w.held.size());
      break;
    }
    case 4: {
      const uint8_t pick = in.Byte();
      SpawnActor(w, [&w, pick] {
        if (!w.held.empty()) ReleaseHeld(w, pick % w.held.size());
      });
      break;
    }
    case 5:
      Call(w.pool.get(), "close");
      zar::testing::DropException();
      break;
    case 6: {
      const uint8_t pick = in.Byte();
      std::vector<zend_coroutine_t*> running;
      for (const CoroutineRef& actor : w.actors) {
        if (!actor.finished()) running.push_back(actor.get());
      }
      if (!running.empty()) {
        zar::testing::Cancel(running[pick % running.size()]);
        zar::testing::DropException();
      }
      break;
    }
    case 7:
      zar::testing::Yield();
      zar::testing::DropException();
      break;
    case 8:
      zar::testing::Delay(1 + in.Below(3));
      zar::testing::DropException();
      break;
    case 9:
      w.factory_mode = static_cast<FactoryMode>(in.Below(4));
      break;
    case 10:
      w.health_mode = static_cast<Verdict>(in.Below(4));
      break;
    case 11: {
      const uint8_t modes = in.Byte();
      w.before_acquire_mode = static_cast<Verdict>(modes % 4);
      w.before_release_mode = static_cast<Verdict>(modes / 4 % 4);
      break;
    }
    case 12:
      w.destructor_throws = in.Below(2) == 1;
      break;
    case 13: {
      static const char* const kChanges[] = {"activate", "deactivate",
                                             "recover"};
      Call(w.pool.get(), kChanges[in.Below(3)]);
      zar::testing::DropException();
      break;
    }
    case 14: {
      const uint8_t pick = in.Byte();
      if (!w.strict) break;  // undefined outside strict mode
      // A resource given back and not lent again since: a double release.
      std::vector<zval*> twice;
      for (Held& back : w.given_back) {
        if (w.out.count(back.id) == 0) twice.push_back(back.resource.get());
      }
      if (pick % 2 == 0 || twice.empty()) {
        Zval foreign = NewObject(-1 - pick);
        Call(w.pool.get(), "release", foreign.get());
      } else {
        Call(w.pool.get(), "release", twice[pick / 2 % twice.size()]);
      }
      zar::testing::DropException();
      break;
    }
    case 15:
      SpawnActor(w, [&w] {
        const size_t before = w.held.size();
        Acquire(w, 0);
        if (w.held.size() > before) ReleaseHeld(w, w.held.size() - 1);
      });
      break;
  }
}

// Everything given back, the pool closed, every actor finished.
void Drain(World& w) {
  for (int delays = 0;; delays++) {
    while (!w.held.empty()) ReleaseHeld(w, 0);
    Call(w.pool.get(), "close");
    zar::testing::DropException();
    if (AllActorsFinished(w) && w.held.empty()) break;
    ZAR_FUZZ_CHECK(delays < kMaxDrainDelays,
                   "an actor is still running %d ms after the pool was closed "
                   "(a waiter neither served nor failed) %s",
                   kMaxDrainDelays, Describe(w).c_str());
    zar::testing::Delay(1);
    zar::testing::DropException();
  }
  CheckInvariants(w, "the end");
  ZAR_FUZZ_CHECK(!w.counts_destroyed || w.live.empty(),
                 "resources made but never destroyed after close() %s",
                 Describe(w).c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  zar::fuzz::Input in(data, size);
  const uint8_t config = in.Byte();
  World w;
  w.strict = (config & 0x40) != 0;
  w.counts_destroyed = (config & 0x80) != 0;
  const zend_long min = config & 3;
  w.max = min + 1 + ((config >> 2) & 3);
  const bool had_strict = zend_async_ref_strict_is_enabled();
  zend_async_ref_strict_enable(w.strict);
  zar::fuzz::RunInRequest(kTarget, [&] {
    w.pool = NewPool(w, config, min);
    zar::testing::DropException();  // a pre-warm failure
    if (w.pool.undef()) return;
    CheckInvariants(w, "new Async\\Pool");
    for (int step = 0; step < kMaxSteps && !in.empty(); step++) {
      const uint8_t op = in.Byte() % 16;
      Step(w, op, in);
      CheckInvariants(w, kOperationNames[op]);
    }
    Drain(w);
    w.given_back.clear();
    w.actors.clear();
    w.pool.Reset();
  });
  zend_async_ref_strict_enable(had_strict);
  return 0;
}
