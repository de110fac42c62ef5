#include "tests/pool_model/pool_model.h"

#include <algorithm>

namespace zar::pool_model {

PoolModel::PoolModel(uint32_t min, uint32_t max, bool healthcheck)
    : min_(min), max_(max), healthcheck_(healthcheck) {
  for (uint32_t i = 0; i < min; i++) idle_.push_back(next_id_++);
}

std::set<int64_t> PoolModel::Live() const {
  std::set<int64_t> live(idle_.begin(), idle_.end());
  live.insert(lent_.begin(), lent_.end());
  return live;
}

FactoryMode PoolModel::TakeFactoryMode() {
  const FactoryMode mode = factory_mode_;
  factory_mode_ = FactoryMode::kOk;
  return mode;
}

void PoolModel::Wake(int actor, const std::string& error) {
  Actor& a = actors_[actor];
  // A coroutine already woken keeps its first wake-up.
  if (a.queued_to_run) return;
  a.queued_to_run = true;
  a.wake_error = error;
  run_queue_.push_back(actor);
}

void PoolModel::WakeWaiter() {
  for (const int actor : waiters_) {
    if (actors_[actor].reserved) continue;
    actors_[actor].reserved = true;
    reserved_count_++;
    Wake(actor, "");
    return;
  }
}

// Idle first (beforeAcquire may reject: destroyed, try again), then the
// factory while the pool is under max; fresh resources are not checked.
PoolModel::Outcome PoolModel::TryTake(int actor, bool may_serve_self,
                                      int64_t* id, std::string* error) {
  if (!may_serve_self) return Outcome::kNoPlace;
  if (!idle_.empty()) {
    const int64_t taken = idle_.front();
    idle_.pop_front();
    if (stale_.count(taken) != 0) {
      Destroy(taken);
      return Outcome::kRetry;
    }
    lent_.insert(taken);
    *id = taken;
    return Outcome::kAcquired;
  }
  if (total() >= max_) return Outcome::kNoPlace;
  const int64_t made = next_id_++;
  switch (TakeFactoryMode()) {
    case FactoryMode::kOk:
      lent_.insert(made);
      *id = made;
      return Outcome::kAcquired;
    case FactoryMode::kGate:
      if (actor >= 0) {
        creating_++;
        actors_[actor].state = Actor::State::kCreating;
        actors_[actor].gated_once = true;
        actors_[actor].id = made;
        gated_.push_back(actor);
        return Outcome::kSuspended;
      }
      // The driver never gates its own tryAcquire.
      lent_.insert(made);
      *id = made;
      return Outcome::kAcquired;
    case FactoryMode::kThrow:
      *error = kFactoryError;
      WakeWaiter();
      return Outcome::kFailed;
    case FactoryMode::kFalse:
      *error = "";
      WakeWaiter();
      return Outcome::kFailed;
  }
  return Outcome::kFailed;
}

int PoolModel::Acquire() {
  actors_.push_back(Actor{});
  const int actor = static_cast<int>(actors_.size()) - 1;
  RunAcquire(actor);
  return actor;
}

void PoolModel::RunAcquire(int actor) {
  for (;;) {
    Actor& a = actors_[actor];
    if (closed_ || breaker_ == Breaker::kInactive) {
      const bool handed_on = a.has_reservation;
      a.has_reservation = false;
      Fail(actor, closed_ ? kClosedError : kUnavailableError);
      if (handed_on) WakeWaiter();
      return;
    }
    const bool may_serve_self = a.has_reservation || unreserved() > 0;
    int64_t id = 0;
    std::string error;
    const Outcome outcome = TryTake(actor, may_serve_self, &id, &error);
    if (outcome != Outcome::kNoPlace) actors_[actor].has_reservation = false;
    switch (outcome) {
      case Outcome::kAcquired:
        Finish(actor, id);
        return;
      case Outcome::kRetry:
        continue;
      case Outcome::kFailed:
        Fail(actor, error.empty() ? kCreateError : error);
        return;
      case Outcome::kSuspended:
        return;
      case Outcome::kNoPlace:
        break;
    }
    actors_[actor].state = Actor::State::kParked;
    actors_[actor].parked_once = true;
    waiters_.push_back(actor);
    return;
  }
}

void PoolModel::Finish(int actor, int64_t id) {
  actors_[actor].state = Actor::State::kGot;
  actors_[actor].id = id;
  held_.push_back(id);
}

void PoolModel::Fail(int actor, const std::string& error) {
  actors_[actor].state = Actor::State::kFailed;
  actors_[actor].error = error;
}

void PoolModel::AfterWake(int actor) {
  Actor& a = actors_[actor];
  a.queued_to_run = false;
  const bool reserved = a.reserved;
  a.reserved = false;
  waiters_.erase(std::remove(waiters_.begin(), waiters_.end(), actor),
                 waiters_.end());
  if (reserved) reserved_count_--;
  if (!a.wake_error.empty()) {
    // It cannot use its place: the next waiter may.
    if (reserved && !closed_) WakeWaiter();
    Fail(actor, a.wake_error);
    return;
  }
  a.has_reservation = reserved;
  RunAcquire(actor);
}

void PoolModel::Settle() {
  while (!run_queue_.empty()) {
    const int actor = run_queue_.front();
    run_queue_.pop_front();
    AfterWake(actor);
  }
}

std::optional<int64_t> PoolModel::TryAcquire(std::string* error) {
  *error = "";
  for (;;) {
    if (closed_ || breaker_ == Breaker::kInactive) return std::nullopt;
    int64_t id = 0;
    switch (TryTake(-1, unreserved() > 0, &id, error)) {
      case Outcome::kAcquired:
        held_.push_back(id);
        return id;
      case Outcome::kRetry:
        continue;
      case Outcome::kFailed:
      case Outcome::kNoPlace:
      case Outcome::kSuspended:
        return std::nullopt;
    }
  }
}

void PoolModel::Release(int64_t id, bool rejected) {
  held_.erase(std::find(held_.begin(), held_.end(), id));
  lent_.erase(id);
  if (rejected) {
    Destroy(id);
    // The capacity it held lets a waiter create a fresh one.
    WakeWaiter();
    return;
  }
  if (closed_) {
    Destroy(id);
    return;
  }
  idle_.push_back(id);
  WakeWaiter();
}

void PoolModel::Close() {
  if (closed_) return;
  closed_ = true;
  // Every waiter fails, newest first.
  while (!waiters_.empty()) {
    const int actor = waiters_.back();
    waiters_.pop_back();
    Wake(actor, kClosedError);
  }
  while (!idle_.empty()) {
    Destroy(idle_.front());
    idle_.pop_front();
  }
}

void PoolModel::Interrupt(int actor, const std::string& error) {
  Wake(actor, error);
}

void PoolModel::OpenGate(bool fail) {
  for (const int actor : gated_) {
    creating_--;
    if (fail) {
      // The place it held goes to a waiter.
      WakeWaiter();
      Fail(actor, kFactoryError);
      continue;
    }
    lent_.insert(actors_[actor].id);
    Finish(actor, actors_[actor].id);
  }
  gated_.clear();
}

void PoolModel::Tick(const std::set<int64_t>& sick) {
  if (closed_ || !healthcheck_) return;
  const size_t count = idle_.size();
  for (size_t i = 0; i < count && !idle_.empty(); i++) {
    const int64_t id = idle_.front();
    idle_.pop_front();
    if (sick.count(id) == 0) {
      idle_.push_back(id);
      continue;
    }
    Destroy(id);
    // A replacement keeps the pool at min (the factory is never armed in
    // a tick's step).
    if (total() < min_) idle_.push_back(next_id_++);
  }
  if (unreserved() > 0) WakeWaiter();
}

}  // namespace zar::pool_model
