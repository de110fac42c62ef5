// The built-in scenarios of zend-async-trace (scenarios.h).
//
// Each scenario is a main script over the ABI: the C pool API
// (ZEND_ASYNC_NEW_POOL with C handlers that make int(1), int(2), ...), the
// coroutine helpers of ZendAsyncRef::testing, and for PDO the pdo_sim
// client with the mock driver. Notes ("#   ...") say what the script does next;
// the
// "[trace]" lines are what the implementation did.

#include "tools/trace/scenarios.h"

#include <functional>
#include <string>

#include "absl/strings/str_format.h"
#include "core/extension.h"
#include "mock_zend/lifecycle.h"
#include "pdo_sim/client.h"
#include "pdo_sim/mock_driver.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "ext/pdo/php_pdo.h"
#include "zend_async_ref/trace.h"
}

namespace zar::trace {

using zar::testing::Await;
using zar::testing::CoroutineRef;
using zar::testing::Delay;
using zar::testing::DropException;
using zar::testing::Spawn;
using zar::testing::Yield;

namespace {

// ---- Helpers ----------------------------------------------------------------

void Note(FILE* out, const std::string& text) {
  absl::FPrintF(out, "#   %s\n", text);
  fflush(out);
}

std::string NameOf(const zend_coroutine_t* coroutine) {
  char name[ZEND_ASYNC_REF_NAME_SIZE];
  return zend_async_ref_coroutine_name(coroutine, name);
}

// A pool of ints: the factory makes int(1), int(2), ...
zend_long resources_made = 0;

bool MakeInt(zend_async_pool_t* /*pool*/, zval* result) {
  ZVAL_LONG(result, ++resources_made);
  return true;
}

zend_async_pool_t* NewIntPool(uint32_t max) {
  resources_made = 0;
  return ZEND_ASYNC_NEW_POOL(MakeInt, nullptr, nullptr, nullptr, nullptr, 0,
                             max, 0);
}

// Acquires a resource of `pool` (waiting up to `timeout_ms`, 0: without a
// limit) and releases it at once; false, the exception left pending, when
// the acquire failed.
bool AcquireAndRelease(zend_async_pool_t* pool, zend_long timeout_ms) {
  zval resource;
  if (!ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, timeout_ms)) return false;
  ZEND_ASYNC_POOL_RELEASE(pool, &resource);
  return true;
}

// A's start where it takes the only place and yields while B and C queue
// up: acquires a resource of `pool` into `resource`, yields, then notes
// `next` (what A does on); false, the exception left pending, when the
// acquire failed.
bool TakeThePlaceAndYield(FILE* out, zend_async_pool_t* pool, zval* resource,
                          const char* next) {
  if (!ZEND_ASYNC_POOL_ACQUIRE(pool, resource, 0)) return false;
  Yield();
  Note(out, next);
  return true;
}

// Notes the state of coroutines A, B and C: "A is ..., B is ..., C is ...".
void NoteStates(FILE* out, const CoroutineRef& a, const CoroutineRef& b,
                const CoroutineRef& c) {
  Note(out, absl::StrFormat("A is %s, B is %s, C is %s", NameOf(a.get()),
                            NameOf(b.get()), NameOf(c.get())));
}

// ---- fifo-handoff -----------------------------------------------------------

void FifoHandoff(FILE* out) {
  Note(out, "a pool of max=1; A takes the place and yields, B and C queue up");
  zend_async_pool_t* pool = NewIntPool(1);

  CoroutineRef a(Spawn([&] {
    zval resource;
    if (!TakeThePlaceAndYield(out, pool, &resource,
                              "A releases and at once acquires again")) {
      return;
    }
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    if (!ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0)) return;
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
  }));
  auto once = [&] { AcquireAndRelease(pool, 0); };
  CoroutineRef b(Spawn(once));
  CoroutineRef c(Spawn(once));
  NoteStates(out, a, b, c);
  Await(a.get());
  Note(out, "served in arrival order: A, B, C, then A again");
  ZEND_ASYNC_EVENT_RELEASE(&pool->event);
}

// ---- timeout-hands-on -------------------------------------------------------

void TimeoutHandsOn(FILE* out) {
  Note(out,
       "a pool of max=1; A holds the place for 10 ms, B waits with a 10 ms "
       "timeout, C waits without one");
  zend_async_pool_t* pool = NewIntPool(1);

  CoroutineRef a(Spawn([&] {
    zval resource;
    if (!ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0)) return;
    Delay(10);
    Note(out, "A's timer and B's timeout fired in the same pass; A runs first");
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
  }));
  CoroutineRef b(Spawn([&] {
    if (!AcquireAndRelease(pool, 10)) DropException();
  }));
  CoroutineRef c(Spawn([&] { AcquireAndRelease(pool, 0); }));
  NoteStates(out, a, b, c);
  Await(c.get());
  Note(out, "B's reservation went to C");
  ZEND_ASYNC_EVENT_RELEASE(&pool->event);
}

// ---- close-with-waiters -----------------------------------------------------

void CloseWithWaiters(FILE* out) {
  Note(out, "a pool of max=1; A takes the place and yields, B and C queue up");
  zend_async_pool_t* pool = NewIntPool(1);

  CoroutineRef a(Spawn([&] {
    zval resource;
    if (!TakeThePlaceAndYield(
            out, pool, &resource,
            "A closes the pool, then releases into the closed pool")) {
      return;
    }
    ZEND_ASYNC_POOL_CLOSE(pool);
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
  }));
  auto waiter = [&] {
    if (!AcquireAndRelease(pool, 0)) DropException();
  };
  CoroutineRef b(Spawn(waiter));
  CoroutineRef c(Spawn(waiter));
  NoteStates(out, a, b, c);
  Await(a.get());
  Await(b.get());
  Await(c.get());
  ZEND_ASYNC_EVENT_RELEASE(&pool->event);
}

// ---- timer-wakeup -----------------------------------------------------------

// A coroutine body that sleeps `ms` on a reactor timer (the park: a waker,
// resume_when on a one-shot timer event, suspend), then notes that `name`
// runs again.
std::function<void()> Sleeper(FILE* out, const char* name, zend_ulong ms) {
  return [out, name, ms] {
    if (Delay(ms)) Note(out, absl::StrFormat("%s runs again", name));
  };
}

void TimerWakeup(FILE* out) {
  Note(out,
       "A sleeps 1000 ms, then B sleeps 10 ms: B's timer, armed second, fires "
       "first");
  CoroutineRef a(Spawn(Sleeper(out, "A", 1000)));
  CoroutineRef b(Spawn(Sleeper(out, "B", 10)));
  Note(out, absl::StrFormat("A is %s, B is %s; main awaits A, then B",
                            NameOf(a.get()), NameOf(b.get())));
  Await(a.get());
  Await(b.get());
}

// ---- channel-rendezvous -----------------------------------------------------

void ChannelRendezvous(FILE* out) {
  Note(out,
       "an unbuffered channel; S sends 1 and 2, R1 and R2 receive one each");
  zend_async_channel_t* channel = ZEND_ASYNC_NEW_CHANNEL(0, false, false);
  auto receiver = [&] {
    zval value;
    if (channel->receive(channel, &value, nullptr)) zval_ptr_dtor(&value);
  };
  CoroutineRef r1(Spawn(receiver));
  CoroutineRef r2(Spawn(receiver));
  CoroutineRef s(Spawn([&] {
    zval value;
    ZVAL_LONG(&value, 1);
    channel->send(channel, &value);
    ZVAL_LONG(&value, 2);
    channel->send(channel, &value);
    Note(out, "S closes the channel; a third send fails");
    channel->close(channel);
    ZVAL_LONG(&value, 3);
    if (!channel->send(channel, &value)) DropException();
  }));
  Note(out, absl::StrFormat("R1 is %s, R2 is %s, S is %s", NameOf(r1.get()),
                            NameOf(r2.get()), NameOf(s.get())));
  Await(r1.get());
  Await(r2.get());
  Await(s.get());
  ZEND_ASYNC_EVENT_RELEASE(&channel->event);
}

// ---- pdo-transaction-pin ----------------------------------------------------

void PdoTransactionPin(FILE* out) {
  pdo_sim::mock::Reset();
  Note(out, "PDO over the mock driver with a pool of max=1");
  pdo_sim::Pdo pdo = pdo_sim::Pdo::Open(
      "mock:dbname=shop", {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION}},
                           {PDO_ATTR_POOL_ENABLED, true},
                           {PDO_ATTR_POOL_MAX, zend_long{1}}});
  if (!pdo.ok()) return;
  pdo.Exec("CREATE TABLE orders (id INTEGER)");

  CoroutineRef a(Spawn([&] {
    pdo.BeginTransaction();
    pdo.Exec("INSERT INTO orders VALUES (1)");
    Yield();
    Note(out, "A commits: the transaction no longer pins the slot");
    pdo.Commit();
  }));
  CoroutineRef b(Spawn([&] { pdo.Exec("INSERT INTO orders VALUES (2)"); }));
  Note(out, absl::StrFormat("A is %s (a transaction), B is %s (one INSERT)",
                            NameOf(a.get()), NameOf(b.get())));
  Await(a.get());
  Await(b.get());
  pdo.Reset();
}

}  // namespace

const std::vector<Scenario>& Scenarios() {
  static const std::vector<Scenario> scenarios = {
      {"fifo-handoff",
       "max=1, three coroutines: release hands the place to the oldest "
       "waiter, the releaser does not barge",
       FifoHandoff},
      {"timeout-hands-on",
       "a reserved waiter times out and hands its place on to the next",
       TimeoutHandsOn},
      {"close-with-waiters", "close wakes every waiter with \"Pool is closed\"",
       CloseWithWaiters},
      {"timer-wakeup",
       "two sleeping coroutines: the shorter timer fires first and its "
       "waker queues its coroutine",
       TimerWakeup},
      {"channel-rendezvous",
       "an unbuffered channel hands each value to the oldest receiver",
       ChannelRendezvous},
      {"pdo-transaction-pin",
       "a PDO pool with max=1: a transaction pins the slot, the other "
       "coroutine waits until commit",
       PdoTransactionPin},
  };
  return scenarios;
}

const Scenario* FindScenario(const std::string& name) {
  for (const Scenario& scenario : Scenarios()) {
    if (name == scenario.name) return &scenario;
  }
  return nullptr;
}

namespace {

struct Script {
  const Scenario* scenario;
  FILE* out;
};

void RunScript(void* arg) {
  const auto* script = static_cast<const Script*>(arg);
  script->scenario->run(script->out);
}

}  // namespace

int RunScenario(const Scenario& scenario, FILE* out) {
  absl::FPrintF(out, "# %s: %s\n", scenario.name, scenario.description);
  fflush(out);
  mock_zend::Engine engine({&zar_async_module_entry, &pdo_module_entry});
  if (!engine.started() || php_request_startup() != SUCCESS) {
    fprintf(out, "# the engine did not start\n");
    return 1;
  }
  zend_async_ref_trace_to_stream(out);
  Script script{&scenario, out};
  php_execute_main(&RunScript, &script);
  php_request_shutdown(nullptr);
  zend_async_ref_trace_disable();

  const php_mock_request_report report = php_mock_last_request_report();
  int status = 0;
  if (report.bailed_out) {
    fprintf(out, "# the request bailed out\n");
    status = 1;
  }
  if (report.leaked_blocks != 0 || report.objects_alive_at_shutdown != 0) {
    absl::FPrintF(out, "# leaked: %d blocks, %d objects\n",
                  report.leaked_blocks, report.objects_alive_at_shutdown);
    status = 1;
  }
  fflush(out);
  return status;
}

}  // namespace zar::trace
