// The pool model's driver: seeded random operation sequences run on a real
// pool (ZEND_ASYNC_NEW_POOL with C handlers, driven through the ABI only)
// and on the model (pool_model.h) in lockstep, compared after every step;
// a failing sequence shrunk to the operations the failure needs.
//
//   Sequence s = Generate(seed, 24, /*healthcheck=*/true);
//   std::optional<std::string> failure = RunSequence(s);   // in a request,
//                                                          // on the main flow
//   Sequence small = Shrink(s);     // greedy: drops one op at a time while
//                                   // the sequence still fails
//   std::string text = Describe(small);   // one readable line per op
//
// The actors are coroutines (zar::testing::Spawn) parked in
// ZEND_ASYNC_POOL_ACQUIRE; the driver itself (the main coroutine) calls
// tryAcquire, release, close and writes the circuit state. A step is one
// operation followed by a bounded number of scheduler turns (and, for the
// two timed operations, a bounded wait on reactor timers); what the model
// predicts must hold when the step ends, so a hang shows as a waiter still
// parked. After every step: idle, active and reserved (the pool event's
// info()), closed, each actor's outcome (its resource id or its exception,
// exactly), the resources the driver holds, the destroyed ids in order,
// the resources alive, factory calls == destroyed + alive (+ failed calls),
// and the factories suspended at the gate. At the end of a sequence: close,
// the gate opened, every held resource released; nothing may stay alive or
// parked.
//
// Threading: the request's thread, one sequence at a time.

#ifndef ZAR_TESTS_POOL_MODEL_POOL_MODEL_DRIVER_H_
#define ZAR_TESTS_POOL_MODEL_POOL_MODEL_DRIVER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/pool_model/pool_model.h"

namespace zar::pool_model {

enum class OpKind {
  kAcquire,            // an actor acquires (no timeout); `factory` arms
  kTimedAcquire,       // an actor acquires with a 1 ms timeout
  kTryAcquire,         // the driver tries; `factory` arms (never gated)
  kRelease,            // the driver releases held[pick]; `rejected`
  kClose,              // ZEND_ASYNC_POOL_CLOSE
  kCancel,             // a parked actor (waiters[pick]) is cancelled
  kCancelThenRelease,  // the same, then held[pick2] released, no turn between
  kOpenGate,           // suspended factories return (`rejected`: throw)
  kMarkStale,          // idle[pick] will be rejected by beforeAcquire
  kTick,               // idle[pick] is unhealthy; a healthcheck tick runs
  kBreaker,            // circuit_state := breaker
};

struct Op {
  OpKind kind = OpKind::kAcquire;
  uint32_t pick = 0;
  uint32_t pick2 = 0;
  FactoryMode factory = FactoryMode::kOk;
  bool rejected = false;     // kRelease: beforeRelease says no
  bool hooks_yield = false;  // beforeAcquire / beforeRelease suspend once
  Breaker breaker = Breaker::kActive;
};

struct Sequence {
  uint64_t seed = 0;
  uint32_t min = 0;
  uint32_t max = 1;
  bool healthcheck = false;  // a healthcheck every 1 ms
  std::vector<Op> ops;
};

// What the sequences run so far exercised: the run's summary line, and
// the least the default run must reach (pool_model_test.cc).
struct Coverage {
  uint64_t ops = 0;
  uint64_t releases = 0;           // resources the driver gave back
  uint64_t rejected_releases = 0;  // of them, refused by beforeRelease
  uint64_t parked = 0;             // acquires that waited
  uint64_t served_after_wait = 0;
  uint64_t failed_waiters = 0;  // waiters woken by close, cancel, timeout,
                                // an open breaker or a failed hand-on
  uint64_t closed_waiters = 0;  // of them, woken by close
  uint64_t cancelled_waiters = 0;
  uint64_t timeouts = 0;
  uint64_t unavailable = 0;       // acquires refused by an open breaker
  uint64_t factory_failures = 0;  // acquires failed by their factory
  uint64_t stale_rejections = 0;  // idle resources beforeAcquire refused
  uint64_t ticks = 0;
  uint64_t gated = 0;         // factories suspended at the gate
  uint64_t failed_gates = 0;  // of them, failing when the gate opened
};
const Coverage& CoverageSoFar();

// The sequence of `seed`: pool sizes, healthcheck (never without
// `healthcheck`), 1 to `max_length` ops.
Sequence Generate(uint64_t seed, int max_length, bool healthcheck);

// Runs `sequence` on a fresh pool and the model. Returns nullopt when they
// agreed throughout, else what differed, at which step. Call inside a
// request, from the main flow or a coroutine.
std::optional<std::string> RunSequence(const Sequence& sequence);

// Drops one op at a time while the sequence still fails (at most
// `max_runs` runs).
Sequence Shrink(const Sequence& failing, int max_runs = 400);

// "pool min=1 max=2 healthcheck=off" then one numbered line per op.
std::string Describe(const Sequence& sequence);
std::string Describe(const Op& op);

}  // namespace zar::pool_model

#endif  // ZAR_TESTS_POOL_MODEL_POOL_MODEL_DRIVER_H_
