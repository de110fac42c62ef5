#include "tests/pool_model/pool_model_driver.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <utility>

#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "Zend/zend_exceptions.h"
#include "php.h"
}

namespace zar::pool_model {
namespace {

// Scheduler turns a step is given to settle: a woken waiter runs in one,
// a hand-on to the next waiter takes another, a suspending hook one more.
// A step takes at least kMinTurns, then stops as soon as the real actors
// have come as far as the model's; more than kSettleTurns is a hang.
constexpr int kMinTurns = 2;
constexpr int kSettleTurns = 8;
// Timed operations wait on 1 ms reactor timers, at most this many times
// (a 1 ms timeout or healthcheck takes one or two; more is a hang).
constexpr int kMaxTimerWaits = 200;

// ---- The real side: what the C handlers see and do ------------------------

struct RealActor {
  bool finished = false;
  bool got = false;
  int64_t id = 0;
  std::string error;
};

struct Real {
  zend_async_pool_t* pool = nullptr;
  // Step flags, as the model's.
  FactoryMode factory_mode = FactoryMode::kOk;
  bool reject_release = false;
  bool hooks_yield = false;
  bool gate_open = false;
  bool gate_fails = false;
  int64_t next_id = 1;
  int64_t made = 0;
  uint32_t gated = 0;
  std::set<int64_t> live;
  std::set<int64_t> stale;
  std::set<int64_t> sick;
  std::vector<int64_t> destroyed;
  std::vector<int64_t> held;
  std::vector<std::shared_ptr<RealActor>> actors;
  std::vector<zar::testing::CoroutineRef> coroutines;
  std::string handler_error;  // a handler saw what must not happen
};

Real* real = nullptr;
// Which sequence is running: a coroutine of an earlier one (left behind by
// a failed sequence) must not touch the current one's records.
uint64_t generation = 0;
Coverage coverage;

int64_t IdOf(const zval* resource) {
  return Z_TYPE_P(resource) == IS_LONG ? Z_LVAL_P(resource) : -1;
}

bool Factory(zend_async_pool_t*, zval* result) {
  const int64_t id = real->next_id++;
  const FactoryMode mode = real->factory_mode;
  real->factory_mode = FactoryMode::kOk;
  switch (mode) {
    case FactoryMode::kThrow:
      zend_throw_exception(zend_ce_exception, "factory failed", 0);
      return false;
    case FactoryMode::kFalse:
      return false;
    case FactoryMode::kGate:
      // Suspends (the coroutine stays runnable) until the driver opens
      // the gate; the pool counts the place meanwhile.
      real->gated++;
      while (real != nullptr && !real->gate_open) zar::testing::Yield();
      if (real == nullptr) return false;
      real->gated--;
      if (real->gate_fails) {
        zend_throw_exception(zend_ce_exception, "factory failed", 0);
        return false;
      }
      break;
    case FactoryMode::kOk:
      break;
  }
  ZVAL_LONG(result, id);
  real->made++;
  real->live.insert(id);
  return true;
}

void Destructor(zend_async_pool_t*, zval* resource) {
  const int64_t id = IdOf(resource);
  if (real->live.erase(id) == 0 && real->handler_error.empty()) {
    real->handler_error =
        "the destructor got " + std::to_string(id) +
        ", which is not alive (never made, or destroyed already)";
  }
  real->destroyed.push_back(id);
}

bool Healthcheck(zend_async_pool_t*, zval* resource) {
  return real->sick.count(IdOf(resource)) == 0;
}

bool BeforeAcquire(zend_async_pool_t*, zval* resource) {
  if (real->hooks_yield) zar::testing::Yield();
  if (real->stale.count(IdOf(resource)) == 0) return true;
  coverage.stale_rejections++;
  return false;
}

bool BeforeRelease(zend_async_pool_t*, zval*) {
  if (real->hooks_yield) zar::testing::Yield();
  return !real->reject_release;
}

// ---- Observing the real pool -----------------------------------------------

struct Stats {
  unsigned long long idle = 0, active = 0, reserved = 0, max = 0;
};

bool ReadStats(Stats* stats, std::string* error) {
  zend_async_event_t* event = &real->pool->event;
  zend_string* info = event->info(event);
  const int parsed = std::sscanf(
      ZSTR_VAL(info), "Pool(idle=%llu, active=%llu, reserved=%llu, max=%llu)",
      &stats->idle, &stats->active, &stats->reserved, &stats->max);
  if (parsed != 4) *error = std::string("unreadable info(): ") + ZSTR_VAL(info);
  zend_string_release(info);
  return parsed == 4;
}

std::string Ids(std::vector<int64_t> ids, bool sorted) {
  if (sorted) std::sort(ids.begin(), ids.end());
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); i++) {
    out += (i ? " " : "") + std::to_string(ids[i]);
  }
  return out + "]";
}

std::string ModelActorText(const Actor& a) {
  switch (a.state) {
    case Actor::State::kGot:
      return "got " + std::to_string(a.id);
    case Actor::State::kFailed:
      return "failed " + a.error;
    default:
      return "pending";
  }
}

std::string RealActorText(const RealActor& a) {
  if (!a.finished) return "pending";
  if (a.got) return "got " + std::to_string(a.id);
  return "failed " + a.error;
}

// What differs between the model and the real pool, or "".
std::string Compare(const PoolModel& model) {
  if (!real->handler_error.empty()) return real->handler_error;
  std::ostringstream diff;
  // Values are compared as they are; text is made only for a difference.
  auto expect = [&](const std::string& what, auto actual, auto expected,
                    auto text) {
    if (actual != expected) {
      diff << what << ": expected " << text(expected) << ", actual "
           << text(actual) << "\n";
    }
  };
  auto number = [](uint64_t n) { return std::to_string(n); };
  auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  auto ordered = [](const std::vector<int64_t>& ids) {
    return Ids(ids, false);
  };
  Stats stats;
  std::string error;
  if (!ReadStats(&stats, &error)) return error;
  expect("idle", uint64_t{stats.idle}, uint64_t{model.idle().size()}, number);
  expect("active", uint64_t{stats.active}, uint64_t{model.active()}, number);
  expect("reserved", uint64_t{stats.reserved}, uint64_t{model.reserved()},
         number);
  expect("closed", ZEND_ASYNC_EVENT_IS_CLOSED(&real->pool->event),
         model.closed(), flag);
  for (size_t i = 0; i < model.actors().size(); i++) {
    const Actor& m = model.actors()[i];
    const RealActor& r = *real->actors[i];
    const bool same = m.state == Actor::State::kGot
                          ? r.finished && r.got && r.id == m.id
                      : m.state == Actor::State::kFailed
                          ? r.finished && !r.got && r.error == m.error
                          : !r.finished;
    if (!same) {
      diff << "actor " << i << ": expected " << ModelActorText(m) << ", actual "
           << RealActorText(r) << "\n";
    }
  }
  std::vector<int64_t> real_held = real->held;
  std::vector<int64_t> model_held = model.held();
  std::sort(real_held.begin(), real_held.end());
  std::sort(model_held.begin(), model_held.end());
  expect("held", real_held, model_held, ordered);
  expect("destroyed (in order)", real->destroyed, model.destroyed(), ordered);
  expect("alive", real->live, model.Live(), [](const std::set<int64_t>& ids) {
    return Ids({ids.begin(), ids.end()}, false);
  });
  expect("factory calls", uint64_t(real->next_id - 1),
         uint64_t(model.factory_calls()), number);
  expect("factories suspended", uint64_t{real->gated},
         uint64_t{model.creating()}, number);
  // The invariants, stated on the real pool alone.
  const uint64_t counted = stats.idle + stats.active;
  const uint64_t lent_or_made =
      real->live.size() + real->gated;  // every live resource is idle or lent
  if (counted != lent_or_made) {
    diff << "count (idle + active = " << counted
         << ") != resources alive + being made (" << lent_or_made << ")\n";
  }
  if (static_cast<uint64_t>(real->made) !=
      real->destroyed.size() + real->live.size()) {
    diff << "made " << real->made << " != destroyed " << real->destroyed.size()
         << " + alive " << real->live.size() << "\n";
  }
  if (stats.active + stats.reserved > stats.max) {
    diff << "active + reserved > max\n";
  }
  return diff.str();
}

// ---- Running one sequence ---------------------------------------------------

void SpawnActor(zend_long timeout_ms) {
  real->actors.push_back(std::make_shared<RealActor>());
  std::shared_ptr<RealActor> record = real->actors.back();
  zend_async_pool_t* pool = real->pool;
  const uint64_t mine = generation;
  zend_coroutine_t* coroutine =
      zar::testing::Spawn([record, pool, timeout_ms, mine] {
        zval resource;
        ZVAL_UNDEF(&resource);
        if (ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, timeout_ms)) {
          record->got = true;
          record->id = IdOf(&resource);
          if (mine == generation) real->held.push_back(record->id);
        } else {
          record->error = zar::testing::TakeExceptionText();
        }
        record->finished = true;
      });
  if (coroutine == nullptr) {
    real->handler_error = "spawn failed: " + zar::testing::TakeExceptionText();
    record->finished = true;
    return;
  }
  real->coroutines.emplace_back(coroutine);
}

// As many real actors have finished as model ones, and as many factories
// wait at the gate.
bool CameAsFar(const PoolModel& model) {
  if (real->gated != model.creating()) return false;
  size_t model_finished = 0;
  size_t real_finished = 0;
  for (size_t i = 0; i < model.actors().size(); i++) {
    const Actor::State state = model.actors()[i].state;
    model_finished +=
        state == Actor::State::kGot || state == Actor::State::kFailed;
    real_finished += real->actors[i]->finished;
  }
  return model_finished == real_finished;
}

// The model settles, then the real pool gets its turns.
void Settle(PoolModel& model) {
  model.Settle();
  for (int turn = 0; turn < kSettleTurns; turn++) {
    if (turn >= kMinTurns && CameAsFar(model)) return;
    zar::testing::Yield();
  }
}

// Waits on reactor timers until `done` holds (bounded).
void WaitForTimers(const std::function<bool()>& done) {
  for (int i = 0; i < kMaxTimerWaits && !done(); i++) {
    zar::testing::Delay(1);
  }
}

// The actor at `pick` among the parked ones, or -1.
int PickWaiter(const PoolModel& model, uint32_t pick) {
  if (model.waiters().empty()) return -1;
  return model.waiters()[pick % model.waiters().size()];
}

// The driver releases `id`, which the model says it holds (when the real
// side does not, the step's comparison reports it; the release goes on).
void ReleaseHeld(PoolModel& model, int64_t id, bool rejected) {
  const auto held = std::find(real->held.begin(), real->held.end(), id);
  if (held != real->held.end()) real->held.erase(held);
  zval resource;
  ZVAL_LONG(&resource, id);
  real->reject_release = rejected;
  ZEND_ASYNC_POOL_RELEASE(real->pool, &resource);
  real->reject_release = false;
  model.Release(id, rejected);
  coverage.releases++;
  if (rejected) coverage.rejected_releases++;
}

// Runs one op on both sides; an op whose target does not exist (no
// resource held, no waiter, nothing idle) is a no-op on both.
void Apply(const Op& op, PoolModel& model) {
  real->hooks_yield = op.hooks_yield;
  coverage.ops++;
  switch (op.kind) {
    case OpKind::kAcquire:
      real->factory_mode = op.factory;
      model.ArmFactory(op.factory);
      SpawnActor(0);
      model.Acquire();
      Settle(model);
      break;
    case OpKind::kTimedAcquire: {
      SpawnActor(1);
      const int actor = model.Acquire();
      Settle(model);
      if (model.actors()[actor].state == Actor::State::kParked) {
        RealActor* record = real->actors.back().get();
        WaitForTimers([record] { return record->finished; });
        coverage.timeouts++;
        model.Interrupt(actor, kTimeoutError);
        Settle(model);
      }
      break;
    }
    case OpKind::kTryAcquire: {
      const FactoryMode mode =
          op.factory == FactoryMode::kGate ? FactoryMode::kOk : op.factory;
      real->factory_mode = mode;
      model.ArmFactory(mode);
      zval resource;
      ZVAL_UNDEF(&resource);
      std::string real_error;
      if (ZEND_ASYNC_POOL_TRY_ACQUIRE(real->pool, &resource)) {
        real->held.push_back(IdOf(&resource));
      } else {
        real_error = zar::testing::TakeExceptionText();
      }
      std::string model_error;
      model.TryAcquire(&model_error);
      if (real_error != model_error && real->handler_error.empty()) {
        real->handler_error = "tryAcquire left \"" + real_error +
                              "\", expected \"" + model_error + "\"";
      }
      Settle(model);
      break;
    }
    case OpKind::kRelease:
      if (model.held().empty()) break;
      ReleaseHeld(model, model.held()[op.pick % model.held().size()],
                  op.rejected);
      Settle(model);
      break;
    case OpKind::kClose:
      ZEND_ASYNC_POOL_CLOSE(real->pool);
      if (EG(exception) != nullptr && real->handler_error.empty()) {
        real->handler_error =
            "close raised " + zar::testing::TakeExceptionText();
      }
      model.Close();
      Settle(model);
      break;
    case OpKind::kCancel:
    case OpKind::kCancelThenRelease: {
      const int actor = PickWaiter(model, op.pick);
      if (actor < 0) break;
      zar::testing::Cancel(real->coroutines[actor].get());
      model.Interrupt(actor, kCancelError);
      if (op.kind == OpKind::kCancelThenRelease && !model.held().empty()) {
        ReleaseHeld(model, model.held()[op.pick2 % model.held().size()],
                    op.rejected);
      }
      Settle(model);
      break;
    }
    case OpKind::kOpenGate:
      if (op.rejected) coverage.failed_gates += model.creating();
      real->gate_open = true;
      real->gate_fails = op.rejected;
      model.OpenGate(op.rejected);
      Settle(model);
      real->gate_open = false;
      real->gate_fails = false;
      break;
    case OpKind::kMarkStale:
      if (model.idle().empty()) break;
      {
        const int64_t id = model.idle()[op.pick % model.idle().size()];
        real->stale.insert(id);
        model.MarkStale(id);
      }
      break;
    case OpKind::kTick: {
      if (!model.healthcheck() || model.closed() || model.idle().empty()) {
        break;
      }
      const int64_t id = model.idle()[op.pick % model.idle().size()];
      real->sick = {id};
      WaitForTimers([id] { return real->live.count(id) == 0; });
      real->sick.clear();
      coverage.ticks++;
      model.Tick({id});
      Settle(model);
      break;
    }
    case OpKind::kBreaker:
      real->pool->circuit_state = op.breaker == Breaker::kActive
                                      ? ZEND_ASYNC_CIRCUIT_STATE_ACTIVE
                                  : op.breaker == Breaker::kInactive
                                      ? ZEND_ASYNC_CIRCUIT_STATE_INACTIVE
                                      : ZEND_ASYNC_CIRCUIT_STATE_RECOVERING;
      model.SetBreaker(op.breaker);
      break;
  }
  real->factory_mode = FactoryMode::kOk;
  real->hooks_yield = false;
  model.EndStep();
}

// Close, open the gate, give every held resource back: nothing may stay
// alive or parked. Also run after a failure, to leave the request clean.
std::string Finish(PoolModel& model) {
  Apply(Op{.kind = OpKind::kClose}, model);
  Apply(Op{.kind = OpKind::kOpenGate}, model);
  Apply(Op{.kind = OpKind::kBreaker, .breaker = Breaker::kActive}, model);
  std::vector<int64_t> held = real->held;
  for (const int64_t id : held) {
    real->held.erase(std::find(real->held.begin(), real->held.end(), id));
    zval resource;
    ZVAL_LONG(&resource, id);
    ZEND_ASYNC_POOL_RELEASE(real->pool, &resource);
    if (std::find(model.held().begin(), model.held().end(), id) !=
        model.held().end()) {
      model.Release(id, false);
    }
  }
  Settle(model);
  std::string problems;
  for (size_t i = 0; i < real->actors.size(); i++) {
    if (!real->actors[i]->finished) {
      problems += "actor " + std::to_string(i) + " never finished\n";
    }
  }
  if (!real->live.empty()) {
    problems += "alive after close and release: " +
                Ids({real->live.begin(), real->live.end()}, false) + "\n";
  }
  return problems;
}

}  // namespace

const Coverage& CoverageSoFar() { return coverage; }

// Counts what the model's actors went through in one sequence.
void Count(const PoolModel& model) {
  for (const Actor& a : model.actors()) {
    const bool failed = a.state == Actor::State::kFailed;
    if (a.parked_once) {
      coverage.parked++;
      if (a.state == Actor::State::kGot) coverage.served_after_wait++;
      if (failed) coverage.failed_waiters++;
      if (failed && a.error == kClosedError) coverage.closed_waiters++;
      if (failed && a.error == kCancelError) coverage.cancelled_waiters++;
    }
    if (failed && a.error == kUnavailableError) coverage.unavailable++;
    if (failed && (a.error == kFactoryError || a.error == kCreateError)) {
      coverage.factory_failures++;
    }
    if (a.gated_once) coverage.gated++;
  }
}

std::optional<std::string> RunSequence(const Sequence& sequence) {
  Real state;
  real = &state;
  generation++;
  state.next_id = 1;
  PoolModel model(sequence.min, sequence.max, sequence.healthcheck);
  state.pool = ZEND_ASYNC_NEW_POOL(Factory, Destructor,
                                   sequence.healthcheck ? Healthcheck : nullptr,
                                   BeforeAcquire, BeforeRelease, sequence.min,
                                   sequence.max, sequence.healthcheck ? 1 : 0);
  if (state.pool == nullptr) {
    real = nullptr;
    return "ZEND_ASYNC_NEW_POOL failed: " + zar::testing::TakeExceptionText();
  }
  std::optional<std::string> failure;
  std::string diff = Compare(model);
  if (!diff.empty()) failure = "after creation:\n" + diff;
  for (size_t i = 0; !failure && i < sequence.ops.size(); i++) {
    Apply(sequence.ops[i], model);
    diff = Compare(model);
    if (!diff.empty()) {
      failure = "after op " + std::to_string(i + 1) + " (" +
                Describe(sequence.ops[i]) + "):\n" + diff;
    }
  }
  const std::string end = Finish(model);
  Count(model);
  if (!failure) {
    diff = Compare(model);
    if (!diff.empty() || !end.empty()) {
      failure = "at the end (close, gate opened, everything released):\n" +
                diff + end;
    }
  }
  state.coroutines.clear();
  ZEND_ASYNC_EVENT_RELEASE(&state.pool->event);
  zar::testing::DropException();
  real = nullptr;
  return failure;
}

// How often each operation comes: `kind` (0..99) below `below` and not
// below the previous entry's.
struct WeightedKind {
  uint32_t below;
  OpKind kind;
};
constexpr WeightedKind kKinds[] = {
    {28, OpKind::kAcquire},
    {30, OpKind::kTimedAcquire},
    {40, OpKind::kTryAcquire},
    {68, OpKind::kRelease},
    {71, OpKind::kClose},
    {77, OpKind::kCancel},
    {81, OpKind::kCancelThenRelease},
    {87, OpKind::kOpenGate},
    {91, OpKind::kMarkStale},
    {94, OpKind::kTick},
    {100, OpKind::kBreaker},
};

Sequence Generate(uint64_t seed, int max_length, bool healthcheck) {
  std::mt19937_64 rng(seed);
  auto below = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  Sequence s;
  s.seed = seed;
  s.max = 1 + below(4);
  s.min = below(std::min<uint32_t>(s.max, 2) + 1);
  // Drawn either way, so that a seed makes the same operations with the
  // healthcheck left out.
  s.healthcheck = below(4) == 0 && healthcheck;
  const int length = 1 + static_cast<int>(below(max_length));
  for (int i = 0; i < length; i++) {
    Op op;
    op.pick = below(8);
    op.pick2 = below(8);
    const uint32_t factory = below(10);
    op.factory = factory < 6   ? FactoryMode::kOk
                 : factory < 7 ? FactoryMode::kThrow
                 : factory < 8 ? FactoryMode::kFalse
                               : FactoryMode::kGate;
    op.hooks_yield = below(8) == 0;
    const uint32_t kind = below(100);
    for (const WeightedKind& entry : kKinds) {
      if (kind < entry.below) {
        op.kind = entry.kind;
        break;
      }
    }
    if (op.kind == OpKind::kTick && !s.healthcheck) {
      op.kind = OpKind::kMarkStale;
    }
    if (op.kind == OpKind::kRelease || op.kind == OpKind::kCancelThenRelease) {
      op.rejected = below(5) == 0;
    } else if (op.kind == OpKind::kOpenGate) {
      op.rejected = below(3) == 0;
    } else if (op.kind == OpKind::kBreaker) {
      const uint32_t state = below(3);
      op.breaker = state == 0   ? Breaker::kActive
                   : state == 1 ? Breaker::kInactive
                                : Breaker::kRecovering;
    }
    s.ops.push_back(op);
  }
  return s;
}

Sequence Shrink(const Sequence& failing, int max_runs) {
  Sequence best = failing;
  int runs = 0;
  // Keeps `candidate` if it still fails.
  auto still_fails = [&](const Sequence& candidate) {
    if (runs >= max_runs) return false;
    runs++;
    if (!RunSequence(candidate)) return false;
    best = candidate;
    return true;
  };
  bool changed = true;
  while (changed && runs < max_runs) {
    changed = false;
    // Drop one op at a time.
    for (size_t i = 0; i < best.ops.size() && runs < max_runs;) {
      Sequence candidate = best;
      candidate.ops.erase(candidate.ops.begin() + static_cast<long>(i));
      if (still_fails(candidate)) {
        changed = true;
      } else {
        i++;
      }
    }
    // Then make each op plainer: a factory that works, hooks that do not
    // suspend, a release that is not rejected; and the pool without its
    // healthcheck when no tick needs it.
    for (size_t i = 0; i < best.ops.size() && runs < max_runs; i++) {
      // `edit` makes op i plainer; false when it already is.
      auto try_plainer = [&](const std::function<bool(Op&)>& edit) {
        Sequence candidate = best;
        if (edit(candidate.ops[i])) changed |= still_fails(candidate);
      };
      try_plainer([](Op& op) {
        return std::exchange(op.factory, FactoryMode::kOk) != FactoryMode::kOk;
      });
      try_plainer([](Op& op) { return std::exchange(op.hooks_yield, false); });
      try_plainer([](Op& op) { return std::exchange(op.rejected, false); });
    }
    if (best.healthcheck) {
      Sequence candidate = best;
      candidate.healthcheck = false;
      for (Op& op : candidate.ops) {
        if (op.kind == OpKind::kTick) op.kind = OpKind::kMarkStale;
      }
      changed |= still_fails(candidate);
    }
  }
  return best;
}

std::string Describe(const Op& op) {
  static const char* const kFactory[] = {"ok", "throws", "returns false",
                                         "suspends until the gate opens"};
  static const char* const kBreaker[] = {"ACTIVE", "INACTIVE", "RECOVERING"};
  const std::string factory =
      op.factory == FactoryMode::kOk
          ? ""
          : std::string(", factory ") + kFactory[static_cast<int>(op.factory)];
  const std::string yield = op.hooks_yield ? ", hooks suspend once" : "";
  const std::string verdict = op.rejected ? " (beforeRelease rejects)" : "";
  switch (op.kind) {
    case OpKind::kAcquire:
      return "acquire in a new coroutine" + factory + yield;
    case OpKind::kTimedAcquire:
      return "acquire(timeout 1 ms) in a new coroutine" + yield;
    case OpKind::kTryAcquire:
      return "tryAcquire" +
             (op.factory == FactoryMode::kGate ? std::string() : factory) +
             yield;
    case OpKind::kRelease:
      return "release held[" + std::to_string(op.pick) + "]" + verdict + yield;
    case OpKind::kClose:
      return "close";
    case OpKind::kCancel:
      return "cancel waiter[" + std::to_string(op.pick) + "]";
    case OpKind::kCancelThenRelease:
      return "cancel waiter[" + std::to_string(op.pick) +
             "], then release held[" + std::to_string(op.pick2) + "]" +
             verdict + " before it runs" + yield;
    case OpKind::kOpenGate:
      return op.rejected ? "open the gate: the suspended factories throw"
                         : "open the gate";
    case OpKind::kMarkStale:
      return "idle[" + std::to_string(op.pick) +
             "] goes stale (beforeAcquire rejects it)";
    case OpKind::kTick:
      return "idle[" + std::to_string(op.pick) +
             "] is unhealthy; wait for a healthcheck tick";
    case OpKind::kBreaker:
      return std::string("circuit_state = ") +
             kBreaker[static_cast<int>(op.breaker)];
  }
  return "?";
}

std::string Describe(const Sequence& sequence) {
  std::ostringstream out;
  out << "pool min=" << sequence.min << " max=" << sequence.max
      << " healthcheck=" << (sequence.healthcheck ? "every 1 ms" : "off")
      << "\n";
  for (size_t i = 0; i < sequence.ops.size(); i++) {
    out << "  " << (i + 1) << ". " << Describe(sequence.ops[i]) << "\n";
  }
  out << "(indices wrap around the list: held[] in the order the driver got "
         "the resources, waiter[] oldest first, idle[] oldest first)\n";
  return out.str();
}

}  // namespace zar::pool_model
