// The pool model: what a pool made with ZEND_ASYNC_NEW_POOL must do, as
// plain containers and the rules of the pool algorithm (the reference's
// docs/pool.md; php-async pool.c at the commit docs/conformance.md names).
//
// The model knows resources by their integer ids (the factory's n-th call
// makes id n, failed calls included), and the coroutines that acquire as
// actors (0, 1, ...). It is run in lockstep with a real pool by
// pool_model_driver.cc, which compares the two after every step.
//
// Deliberately simple: no cleverness, every container walked in the open.
// It mirrors the scheduler only as far as the pool's waiters need: a woken
// actor runs when the step settles (Settle), in the order it was woken.
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_POOL_MODEL_POOL_MODEL_H_
#define ZAR_TESTS_POOL_MODEL_POOL_MODEL_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace zar::pool_model {

// How the next factory call of a step behaves.
enum class FactoryMode {
  kOk,     // returns the next id
  kThrow,  // throws Exception("factory failed") and returns false
  kFalse,  // returns false, no exception
  kGate,   // suspends until the driver opens the gate, then returns its id
};

enum class Breaker { kActive, kInactive, kRecovering };

// The exact texts (class: message) a failed acquire leaves.
inline constexpr char kClosedError[] = "Async\\PoolException: Pool is closed";
inline constexpr char kCreateError[] =
    "Async\\PoolException: Failed to create pool resource";
inline constexpr char kUnavailableError[] =
    "Async\\ServiceUnavailableException: Service is unavailable (circuit "
    "breaker is open)";
inline constexpr char kFactoryError[] = "Exception: factory failed";
inline constexpr char kTimeoutError[] =
    "Async\\TimeoutException: Operation has been cancelled by timeout";
inline constexpr char kCancelError[] =
    "Async\\AsyncCancellation: Coroutine cancelled";

struct Actor {
  enum class State { kRunning, kParked, kCreating, kGot, kFailed };
  State state = State::kRunning;
  int64_t id = 0;         // kGot: the resource; kCreating: the id being made
  std::string error;      // kFailed: "Class: message"
  bool reserved = false;  // woken with a place kept for it
  bool has_reservation = false;  // inside its acquire loop
  bool queued_to_run = false;    // woken, not run yet
  std::string wake_error;        // the exception it was woken with
  bool parked_once = false;      // for the run's coverage summary
  bool gated_once = false;
};

class PoolModel {
 public:
  // The pool as ZEND_ASYNC_NEW_POOL(..., min, max, ...) leaves it: min
  // resources made by pre-warm (ids 1..min), idle.
  PoolModel(uint32_t min, uint32_t max, bool healthcheck);

  // ---- Step flags: the first factory call of a step takes the mode; the
  // driver clears it when the step ends.
  void ArmFactory(FactoryMode mode) { factory_mode_ = mode; }
  void EndStep() { factory_mode_ = FactoryMode::kOk; }

  // ---- Operations (the driver calls the real pool the same way).
  // A new actor calls acquire; returns its index. It may finish at once,
  // park or suspend in a gated factory.
  int Acquire();
  // tryAcquire from the driver: the id, or nullopt; `error` gets the
  // exception it leaves ("" for none).
  std::optional<int64_t> TryAcquire(std::string* error);
  // The driver releases a resource it holds; `rejected`: beforeRelease
  // says no.
  void Release(int64_t id, bool rejected);
  void Close();
  // A parked actor is woken with `error` (cancellation, timeout); it runs
  // at the next Settle.
  void Interrupt(int actor, const std::string& error);
  // Every factory suspended at the gate returns its resource or, with
  // `fail`, throws Exception("factory failed").
  void OpenGate(bool fail);
  // beforeAcquire rejects `id` from now on (it is destroyed when taken).
  void MarkStale(int64_t id) { stale_.insert(id); }
  // One healthcheck tick in which exactly the ids in `sick` are unhealthy.
  void Tick(const std::set<int64_t>& sick);
  void SetBreaker(Breaker state) { breaker_ = state; }
  // Runs every woken actor, in the order they were woken, until none is.
  void Settle();

  // ---- What the driver compares.
  const std::deque<int64_t>& idle() const { return idle_; }
  // Lent (the driver holds them) and being made (a factory at the gate).
  uint32_t active() const {
    return static_cast<uint32_t>(lent_.size()) + creating_;
  }
  uint32_t reserved() const { return reserved_count_; }
  uint32_t creating() const { return creating_; }
  bool closed() const { return closed_; }
  bool healthcheck() const { return healthcheck_; }
  uint32_t min() const { return min_; }
  uint32_t max() const { return max_; }
  Breaker breaker() const { return breaker_; }
  const std::vector<Actor>& actors() const { return actors_; }
  // Actors parked in acquire, oldest first.
  const std::deque<int>& waiters() const { return waiters_; }
  // Resources the driver holds, in the order it got them.
  const std::vector<int64_t>& held() const { return held_; }
  const std::vector<int64_t>& destroyed() const { return destroyed_; }
  int64_t factory_calls() const { return next_id_ - 1; }
  // Made and not yet destroyed.
  std::set<int64_t> Live() const;

 private:
  enum class Outcome { kAcquired, kFailed, kRetry, kNoPlace, kSuspended };

  uint32_t unreserved() const {
    const uint32_t taken = active() + reserved_count_;
    return taken >= max_ ? 0 : max_ - taken;
  }
  uint32_t total() const {
    return static_cast<uint32_t>(idle_.size()) + active();
  }
  FactoryMode TakeFactoryMode();
  void Destroy(int64_t id) { destroyed_.push_back(id); }
  // Wakes the oldest waiter without a reservation, giving it one.
  void WakeWaiter();
  void Wake(int actor, const std::string& error);
  // One attempt without waiting; `actor` -1 is the driver (tryAcquire).
  Outcome TryTake(int actor, bool may_serve_self, int64_t* id,
                  std::string* error);
  // The acquire loop of `actor`, from its top (or after a wake).
  void RunAcquire(int actor);
  void Finish(int actor, int64_t id);
  void Fail(int actor, const std::string& error);
  // The actor woken by Wake runs.
  void AfterWake(int actor);

  const uint32_t min_;
  const uint32_t max_;
  const bool healthcheck_;
  FactoryMode factory_mode_ = FactoryMode::kOk;
  int64_t next_id_ = 1;
  std::deque<int64_t> idle_;  // oldest first: taken from the front
  std::set<int64_t> lent_;
  uint32_t creating_ = 0;
  uint32_t reserved_count_ = 0;
  bool closed_ = false;
  Breaker breaker_ = Breaker::kActive;
  std::set<int64_t> stale_;
  std::vector<Actor> actors_;
  std::deque<int> waiters_;    // parked actors, oldest first
  std::deque<int> run_queue_;  // woken actors, in wake order
  std::vector<int> gated_;     // actors whose factory waits at the gate
  std::vector<int64_t> held_;
  std::vector<int64_t> destroyed_;
};

}  // namespace zar::pool_model

#endif  // ZAR_TESTS_POOL_MODEL_POOL_MODEL_H_
