// zend-async-ref pdo_sim: suspending a driver call on the reactor.
//
// Threading: the engine's thread.

#ifndef ZAR_PDO_SIM_SRC_DRIVERS_REACTOR_SLEEP_H_
#define ZAR_PDO_SIM_SRC_DRIVERS_REACTOR_SLEEP_H_

#include <cstdint>

namespace pdo_sim::internal {

// Suspends the running coroutine for `ms` milliseconds on a reactor timer
// (ZEND_ASYNC_NEW_TIMER_EVENT, parked on through zend_async_ref_park),
// launching the scheduler when the main flow has not yet. Does not wait
// (returns true at once) in scheduler context or when the async API is not
// active. A finished coroutine running its finish callbacks (a binding
// giving its slot back) waits like any other.
// Returns false when an exception (a cancellation) ended the wait; it stays
// in flight.
bool SleepOnReactor(uint32_t ms);

}  // namespace pdo_sim::internal

#endif  // ZAR_PDO_SIM_SRC_DRIVERS_REACTOR_SLEEP_H_
